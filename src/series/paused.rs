//! Where a tour pauses: not at a fixed time but at the first moment the simulated state shows
//! what the step is about ("B has completed three chains"), found by running the pair as the
//! Watch runs it (watched sessions, in lockstep) and reading, at each moment, the figures its
//! readouts show. The step's text is then written from those figures.

use mmcsim_engine::Scenario;

use super::words::{Figures, MIN_REQUESTS};
use crate::run::session::{RunError, Session};
use crate::run::speed::{speed_index, SPEEDS};

/// The pair at the moment a tour pauses: the time and each side's figures so far (what the
/// readouts under the pipelines show there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paused {
    pub t_ns: u64,
    pub fa: Figures,
    pub fb: Figures,
    /// The condition held (false: the run ended first, and the figures are the end's).
    pub held: bool,
}

/// A condition on the pair's figures so far (A, B).
pub type When = fn(&Figures, &Figures) -> bool;

/// Most moments looked at: past them the tour pauses at the end of the run.
const MAX_LOOKS: u32 = 5_000;

/// The figures a readout shows of a session now.
fn figures_now(s: &Session) -> Figures {
    Figures::of(&s.report(), None)
}

/// The first moment, on a grain of a fiftieth of a second of watching at `speed` (a label of
/// [`SPEEDS`]), at which `when` holds for the pair (A, B) run from time zero and each side has
/// finished [`MIN_REQUESTS`] requests.
pub fn first_moment(
    a: &Scenario,
    b: &Scenario,
    speed: &str,
    when: When,
) -> Result<Paused, RunError> {
    let rate = speed_index(speed)
        .and_then(|i| SPEEDS[i].sim_ns_per_s)
        .unwrap_or(1_000_000);
    let grain = (rate / 50).max(1_000);
    let (mut sa, mut sb) = (Session::watched(a)?, Session::watched(b)?);
    let mut t = 0;
    for _ in 0..MAX_LOOKS {
        t += grain;
        let da = sa.advance_to(t, u64::MAX) && sa.is_finished();
        let db = sb.advance_to(t, u64::MAX) && sb.is_finished();
        let (fa, fb) = (figures_now(&sa), figures_now(&sb));
        // Per-request figures only once they are over enough requests on both sides.
        let enough = fa.requests >= MIN_REQUESTS && fb.requests >= MIN_REQUESTS;
        if enough && when(&fa, &fb) {
            return Ok(Paused {
                t_ns: t,
                fa,
                fb,
                held: true,
            });
        }
        if da && db {
            break;
        }
    }
    while !sa.run_events(1 << 20) {}
    while !sb.run_events(1 << 20) {}
    let t_ns = sa.now().max(sb.now());
    Ok(Paused {
        t_ns,
        fa: figures_now(&sa),
        fb: figures_now(&sb),
        held: false,
    })
}

/// The pair at simulated time `t_ns` (run from time zero, as the Watch runs it to a moment).
pub fn at_time(a: &Scenario, b: &Scenario, t_ns: u64) -> Result<Paused, RunError> {
    let (mut sa, mut sb) = (Session::watched(a)?, Session::watched(b)?);
    while !sa.advance_to(t_ns, 1 << 20) {}
    while !sb.advance_to(t_ns, 1 << 20) {}
    Ok(Paused {
        t_ns,
        fa: figures_now(&sa),
        fb: figures_now(&sb),
        held: true,
    })
}
