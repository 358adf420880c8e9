//! What a long command (`mmcsim fit`, `--sweep`) costs, said as it goes, on stderr (stdout
//! carries the report):
//!
//! - an estimate before the long part (a fit: once every case was simulated on the base board,
//!   that time times the evaluations planned; a sweep: once its first point is done, that time
//!   scaled by the points' predicted events, `predict.rs`);
//! - fio's status line (`eta.c`, `Jobs: 1 (f=1): [W(1)][45.5%][eta 00m:06s]`): on a terminal
//!   one line rewritten in place (`\r`) every second, as fio's; otherwise (a pipe, a file) a
//!   line when a step completes (a fit of the cross-validation, a sweep point), at most one a
//!   second and the last step's, so a log shows how far it got;
//! - Ctrl-C (SIGINT): as fio's `sig_int` ("fio: terminating on signal 2", the jobs stopped and
//!   what ran reported, exit status 128), the work stops at its next step, what is done is
//!   printed and written, and the exit status is 128. A second Ctrl-C ends the process at once
//!   (130, as the shell's default for SIGINT).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Exit status after an interrupted command (fio's `exit_value = 128` in `sig_int`).
pub const INTERRUPTED_EXIT: i32 = 128;

/// Set by the first Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Called on Ctrl-C (the fit's stop flag).
static ON_INTERRUPT: OnceLock<fn()> = OnceLock::new();

/// Installs the SIGINT handler (once): the first Ctrl-C says so and sets the flag the work
/// checks between steps (and calls `on_interrupt`), the second exits at once.
pub fn catch_ctrl_c(on_interrupt: fn()) {
    let _ = ON_INTERRUPT.set(on_interrupt);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        let _ = writeln!(std::io::stderr(), "\nmmcsim: terminating on signal 2");
        if let Some(f) = ON_INTERRUPT.get() {
            f();
        }
    });
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// fio's `eta_to_str`: `05m:12s`, `01h:02m:03s`, `02d:01h:02m:03s`.
pub fn eta_to_str(secs: u64) -> String {
    let (s, m, h, d) = (secs % 60, secs / 60 % 60, secs / 3600 % 24, secs / 86_400);
    let mut out = String::new();
    if d > 0 {
        out += &format!("{d:02}d:");
    }
    if h > 0 || d > 0 {
        out += &format!("{h:02}h:");
    }
    out + &format!("{m:02}m:{s:02}s")
}

/// Where the work stands.
#[derive(Clone, Debug, Default)]
struct State {
    /// Steps done and planned (fits, points).
    step: (usize, usize),
    /// Fraction of the work done (0..1).
    frac: f64,
    done: bool,
    /// When the last line was printed off a terminal (s since the start).
    printed: Option<f64>,
}

/// A progress meter: `what` is the command (`fit`, `sweep`), `unit` its step (`fit`, `point`).
pub struct Meter {
    what: &'static str,
    start: Instant,
    tty: bool,
    state: Mutex<State>,
}

impl Meter {
    pub fn new(what: &'static str, steps: usize) -> Meter {
        Meter {
            what,
            start: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            state: Mutex::new(State {
                step: (0, steps),
                ..State::default()
            }),
        }
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The status line: `Jobs: fit 2/4 [37.5%][elapsed 00m:12s][eta 00m:20s]`.
    fn line(&self, s: &State) -> String {
        let el = self.elapsed();
        let frac = s.frac.clamp(0.0, 0.99);
        let eta = match frac > 0.0 {
            true => eta_to_str((el * (1.0 - frac) / frac).round() as u64),
            false => "--".to_string(),
        };
        format!(
            "Jobs: {} {}/{} [{:.1}%][elapsed {}][eta {eta}]",
            self.what,
            s.step.0,
            s.step.1,
            frac * 100.0,
            eta_to_str(el.round() as u64)
        )
    }

    /// The work moved on: `frac` done; `step` the steps done. Off a terminal, a line when a
    /// step completed, at most one a second (and the last step's).
    pub fn update(&self, step: usize, frac: f64) {
        let Ok(mut s) = self.state.lock() else { return };
        let grew = step > s.step.0;
        s.step.0 = step;
        s.frac = frac;
        let now = self.elapsed();
        let due = s.printed.is_none_or(|t| now - t >= 1.0) || step == s.step.1;
        if grew && due && !self.tty {
            s.printed = Some(now);
            let _ = writeln!(std::io::stderr(), "{}", self.line(&s));
        }
    }

    /// Says something once (the estimate), on a line of its own.
    pub fn say(&self, text: &str) {
        let clear = if self.tty { "\r\x1b[K" } else { "" };
        let _ = writeln!(std::io::stderr(), "{clear}mmcsim {}: {text}", self.what);
    }

    /// Runs `work` while a thread redraws the status line every second on a terminal, the
    /// fraction done read from `frac`.
    pub fn run<T>(&self, frac: impl Fn() -> f64 + Sync, work: impl FnOnce() -> T) -> T {
        std::thread::scope(|sc| {
            let redraw = self.tty.then(|| {
                sc.spawn(|| loop {
                    std::thread::park_timeout(Duration::from_secs(1));
                    let Ok(mut s) = self.state.lock() else { return };
                    if s.done {
                        let _ = write!(std::io::stderr(), "\r\x1b[K");
                        return;
                    }
                    s.frac = frac();
                    let _ = write!(std::io::stderr(), "\r{}\x1b[K", self.line(&s));
                })
            });
            let out = work();
            if let Ok(mut s) = self.state.lock() {
                s.done = true;
            }
            if let Some(h) = redraw {
                h.thread().unpark();
            }
            out
        })
    }
}

/// Runs `f` on every item in parallel (rayon), a sweep's points: the status line counts the
/// points done; once the first is done, the estimate is its time scaled by the items'
/// `weights` (their predicted events, `predict.rs`) shared by the threads (but no less than the heaviest
/// item's); after Ctrl-C no further item starts,
/// and the results of the items done are returned. `what` names the command (`sweep`,
/// `sensitivity`), `unit` its items (`points`, `runs`).
pub fn par_points<T: Send, R: Send>(
    (what, unit): (&'static str, &'static str),
    items: Vec<T>,
    weights: &[u64],
    f: impl Fn(T) -> Result<R, String> + Sync,
) -> Result<Vec<R>, String> {
    use rayon::prelude::*;
    use std::sync::atomic::AtomicUsize;
    catch_ctrl_c(|| {});
    let n = items.len();
    let meter = Meter::new(what, n);
    let done = AtomicUsize::new(0);
    let total: u64 = weights.iter().sum();
    let heaviest = weights.iter().copied().max().unwrap_or(0);
    let threads = rayon::current_num_threads().clamp(1, n.max(1)) as f64;
    let frac = || done.load(Ordering::Relaxed) as f64 / n.max(1) as f64;
    let rows = meter.run(frac, || {
        items
            .into_par_iter()
            .zip(weights.par_iter())
            .map(|(item, &w)| {
                if interrupted() {
                    return Ok(None);
                }
                let t0 = Instant::now();
                let r = f(item)?;
                let k = done.fetch_add(1, Ordering::Relaxed) + 1;
                if k == 1 && n > 1 {
                    let t = t0.elapsed().as_secs_f64();
                    // The threads share the work, but none ends before its heaviest point.
                    let work = (total as f64 / threads).max(heaviest as f64);
                    let est = t * work / w.max(1) as f64;
                    meter.say(&format!(
                        "{n} {unit} on {threads} thread(s); the first took {t:.2} s: about {} in all (scaled by the {unit}' events, as a probe of each predicts them)",
                        eta_to_str(est.round() as u64)
                    ));
                }
                meter.update(k, frac());
                Ok(Some(r))
            })
            .collect::<Result<Vec<Option<R>>, String>>()
    })?;
    let rows: Vec<R> = rows.into_iter().flatten().collect();
    if interrupted() {
        meter.say(&format!(
            "interrupted: {} of {n} {unit} done; the output lists those",
            rows.len()
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_is_written_as_fios_eta_to_str() {
        assert_eq!(eta_to_str(0), "00m:00s");
        assert_eq!(eta_to_str(72), "01m:12s");
        assert_eq!(eta_to_str(3723), "01h:02m:03s");
        assert_eq!(eta_to_str(90_061), "01d:01h:01m:01s");
    }
}
