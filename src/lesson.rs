//! The lesson: the landing pair (the 2020 packed-request RFC's 20 jobs of 4 KiB reads, packed=0
//! against packed=8) and one guided tour per gallery series, whose texts carry numbers computed
//! by running the very pair the page shows.
//!
//! Plain logic, no browser code: the page (`app.rs`) renders a [`Tour`]'s steps and sends their
//! [`TourAction`]s to the Watch; the native tests check that every number a step states is the
//! simulation's.

use mmcsim_engine::calibration::Case;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::{HsqDepth, Report, Scenario, Stage};

use crate::gallery::{entries, Entry};
use crate::session::{RunError, Session};

/// Bytes per job of a tour's pair: enough for throughput to settle (within a few percent of the
/// gallery's 64 MiB), small enough that "run to the end" takes a second in the page.
pub const TOUR_SIZE: u64 = 4 << 20;

/// The two or three plain sentences of the landing.
pub const LANDING_TEXT: [&str; 3] = [
    "Every read or write a program makes costs the host an interrupt and a pass of kernel software, \
     while the storage bus waits.",
    "Batching (the 2020 packed-request patch) hands the controller a chain of requests and pays that \
     cost once per chain instead of once per request; the same patch also lets more requests queue \
     (the tour separates the two).",
    "Below, the same 20 programs read 4 KiB blocks twice: A one request per interrupt, B chains of up \
     to 8. Watch the gaps on each bus strip.",
];

/// The tour entry of the landing (the 2020 RFC).
pub const LANDING_SERIES: &str = "sprd-hs400es-2020";

/// The landing pair: the 2020 headline case (4 KiB reads, 20 jobs) at [`TOUR_SIZE`].
pub fn landing_pair() -> (Scenario, Scenario) {
    let e = entries()
        .into_iter()
        .find(|e| e.series.platform == LANDING_SERIES)
        .expect("the 2020 series is in the gallery");
    pair(&e)
}

/// A series' tour pair: its headline case (or its own pair), columns A and B, at the tour size.
pub fn pair(e: &Entry) -> (Scenario, Scenario) {
    let (a, b, _) = e.pair(e.size().min(TOUR_SIZE));
    (a, b)
}

/// "Window only" of the 2020 RFC: no chains, but the mmc queue window the RFC opens for packed
/// requests (`HSQ_PACKED_QUEUE_DEPTH`, 64 requests: hsq_depth=63, the window being depth + 1).
pub fn window_only(a: &Scenario) -> Scenario {
    let mut w = a.clone();
    w.host.packed = Some(0);
    w.host.hsq_depth = Some(HsqDepth::Fixed(63));
    w
}

/// What a finished run says about batching, per side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// The case's figure in the series' unit (MiB/s or KiB/s).
    pub figure: f64,
    /// Requests per interrupt (0 before the first).
    pub per_irq: f64,
    pub bus_busy_pct: f64,
    /// Per request: bus and card, and host software (issue, interrupt, completion), µs.
    pub bus_us: f64,
    pub software_us: f64,
    /// Bus idle time per request, µs.
    pub idle_us: f64,
    /// Requests `mmc_mq_queue_rq` refused (BLK_STS_RESOURCE).
    pub requeues: u64,
}

impl Figures {
    /// The figures of a report (`figure` from the case when given, else total MiB/s).
    pub fn of(report: &Report, figure: Option<f64>) -> Figures {
        let m = report.merged();
        let ios = (m.read.total_ios + m.write.total_ios).max(1) as f64;
        let s = &report.sim;
        let per = |st: Stage| s.stage(st) as f64 / ios / 1000.0;
        Figures {
            figure: figure.unwrap_or_else(|| report.total_mib_s()),
            // Requests handed to the controller per interrupt (the engine's batch histogram):
            // right from the first interrupt, where completed requests lag behind.
            per_irq: s.avg_batch(),
            bus_busy_pct: s.bus_busy_pct(),
            bus_us: per(Stage::Command)
                + per(Stage::CardAccess)
                + per(Stage::Data)
                + per(Stage::CardBusy),
            software_us: per(Stage::Issue) + per(Stage::Irq) + per(Stage::Complete),
            idle_us: s.simulated_ns as f64 * (1.0 - s.bus_busy_pct() / 100.0) / ios / 1000.0,
            requeues: s.requeues,
        }
    }
}

/// At or above this share of busy time the bus strip reads as solid: the bus and card are the
/// bottleneck, and a text may not call the bus idle.
pub const BUS_BOUND_PCT: f64 = 80.0;

/// How the bus spends a run, in words that follow its busy share: "idle ... between transfers"
/// only when it is, "busy" with the figure otherwise.
pub fn bus_state(f: &Figures) -> String {
    if f.bus_busy_pct >= BUS_BOUND_PCT {
        format!(
            "the bus is busy {:.0} % of the time (idle {:.1} µs per request): the bus and card are the bottleneck",
            f.bus_busy_pct, f.idle_us
        )
    } else {
        format!(
            "the bus is idle {:.1} µs per request between transfers (busy {:.0} % of the time)",
            f.idle_us, f.bus_busy_pct
        )
    }
}

/// "B 1.05x faster (A 82.9 vs B 87.1 MiB/s)": the word from the two figures (within 1 %:
/// "about as fast").
pub fn speed_words(fa: f64, fb: f64, unit: &str) -> String {
    let r = fb / fa.max(1e-9);
    let word = if r >= 1.01 {
        format!("B {r:.2}x faster")
    } else if r <= 0.99 {
        format!("B {:.2}x slower", 1.0 / r.max(1e-9))
    } else {
        "B about as fast".to_string()
    };
    format!("{word} (A {fa:.1} vs B {fb:.1} {unit})")
}

/// Refusals of B against A, the word from the counts: "B had about as many refusals
/// (BLK_STS_RESOURCE) as A (A 16372 vs B 16369)".
pub fn refusal_words(fa: &Figures, fb: &Figures) -> String {
    let w = mmcsim_engine::explain::more_fewer(fb.requeues, fa.requeues);
    let (w, than) = if w == "about as many" {
        (w, "as")
    } else {
        (w, "than")
    };
    format!(
        "B had {w} refusals (BLK_STS_RESOURCE) {than} A (A {} vs B {})",
        fa.requeues, fb.requeues
    )
}

/// Runs a scenario to its end (unwatched: no trace) and reads its figures.
pub fn run_figures(case: &Case, scn: &Scenario) -> Result<Figures, RunError> {
    let mut s = Session::start(scn)?;
    while !s.run_events(1 << 20) {}
    let r = s.report();
    Ok(Figures::of(&r, case.figure(scn, &r)))
}

/// What a tour step does on the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TourAction {
    /// Play the pair at this speed label (of [`crate::clock::SPEEDS`]).
    Play(&'static str),
    Pause,
    /// Point at a column of both pipelines.
    Focus(Layer),
    /// Ask the prediction (the step's choices answer it; no button).
    Predict,
    /// Run the pair to the end in the view, at full speed.
    RunToEnd,
    /// Stand at `t_ns` (re-simulating up to there), paused, and follow request `id` of side A
    /// (its "why was it slow" in What is happening).
    Follow {
        t_ns: u64,
        id: u64,
    },
    /// B becomes "window only" (true) or B again (false), run to the end.
    WindowOnly(bool),
    /// Open the Lab with B as the step suggests.
    TryIt,
}

/// One tour step: what the reader sees now, then what to press.
#[derive(Clone, Debug, PartialEq)]
pub struct TourStep {
    pub see: String,
    pub press: String,
    /// The button's label.
    pub button: String,
    pub action: TourAction,
}

/// A prediction question and its answer from the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub question: String,
    /// The choices, as B/A factors and their labels.
    pub choices: Vec<(f64, String)>,
    /// B/A from the simulation.
    pub ratio: f64,
}

impl Prediction {
    /// The choice closest to the simulated ratio (on a log scale).
    pub fn closest(&self) -> usize {
        let d = |f: f64| (f.ln() - self.ratio.ln()).abs();
        (0..self.choices.len())
            .min_by(|&i, &j| d(self.choices[i].0).total_cmp(&d(self.choices[j].0)))
            .unwrap_or(0)
    }
    /// The answer to choice `picked`, with the simulated numbers.
    pub fn answer(&self, picked: usize, fa: f64, fb: f64, unit: &str) -> String {
        let best = self.closest();
        let verdict = if picked == best {
            "Right".to_string()
        } else {
            format!(
                "Not quite: the closest answer is \"{}\"",
                self.choices[best].1
            )
        };
        format!(
            "{verdict}. Simulated: A {fa:.1} {unit}, B {fb:.1} {unit}, B/A = {:.2}x.",
            self.ratio
        )
    }
}

/// A tour: the pair it keeps on screen, its steps, its prediction, the numbers behind them.
#[derive(Clone, Debug)]
pub struct Tour {
    pub platform: &'static str,
    pub title: String,
    pub a: Scenario,
    pub b: Scenario,
    /// The 2020 RFC's "window only" side.
    pub window: Option<Scenario>,
    pub fa: Figures,
    pub fb: Figures,
    pub fw: Option<Figures>,
    pub unit: &'static str,
    pub prediction: Prediction,
    pub steps: Vec<TourStep>,
    /// The step that asks the prediction.
    pub predict_step: usize,
    /// What "try it yourself" changes: (option, value, on both sides?).
    pub try_it: (&'static str, &'static str, bool),
}

impl Tour {
    /// The pair "try it yourself" opens in the Lab: B (or both sides) with the change, or the
    /// 2011 read cases (mmc_test 39 against 40).
    pub fn try_pair(&self) -> (Scenario, Scenario) {
        use mmcsim_engine::scenario::options::apply_text;
        let (k, v, both) = self.try_it;
        if k == "mmc_test" {
            let mut a = self.a.clone();
            let mut b = self.b.clone();
            a.mmc_test = Some(39);
            b.mmc_test = Some(40);
            return (a, b);
        }
        let b = apply_text(&self.b, k, v).unwrap_or_else(|_| self.b.clone());
        let a = if both {
            apply_text(&self.a, k, v).unwrap_or_else(|_| self.a.clone())
        } else {
            self.a.clone()
        };
        (a, b)
    }
}

fn step(see: String, press: &str, button: &str, action: TourAction) -> TourStep {
    TourStep {
        see,
        press: press.to_string(),
        button: button.to_string(),
        action,
    }
}

/// The tour of a series, its numbers computed by running its pair (and, for the 2020 RFC, the
/// window-only side) to the end.
pub fn tour(platform: &str) -> Result<Tour, RunError> {
    let e = entries()
        .into_iter()
        .find(|e| e.series.platform == platform)
        .ok_or_else(|| RunError {
            option: None,
            message: format!("no tour for {platform}"),
        })?;
    let (a, b) = pair(&e);
    let Some(case) = e.headline_case() else {
        return crate::lesson_fifo::tour(&e, a, b);
    };
    let unit = e.series.unit.name();
    let fa = run_figures(case, &a)?;
    let fb = run_figures(case, &b)?;
    let ratio = fb.figure / fa.figure.max(1e-9);
    let (ca, cb) = e.series.columns;
    let (ma, mb) = case.measured;
    let label = case.label();
    let platform = e.series.platform;
    let mut window = None;
    let mut fw = None;
    let faster = |fs: &[f64]| -> Vec<(f64, String)> {
        fs.iter()
            .map(|&f| {
                let l = if (f - 1.0).abs() < 0.01 {
                    "about the same".to_string()
                } else if f > 1.0 {
                    format!("B {f}x faster")
                } else {
                    format!("B {}x slower", (1.0 / f).round())
                };
                (f, l)
            })
            .collect()
    };
    let (intro, watch_for, layer, layer_text, question, choices, try_it, speed, recap) = match platform {
        "sprd-hs400es-2020" => (
            format!(
                "A ({ca}) and B ({cb}) are the same 20 programs reading 4 KiB blocks, side by side at time 0. \
                 A sends one request per interrupt; B sends chains of up to 8."
            ),
            "Each request (a dot) crosses the bus in a blink, then A's bus strip stays white while the host \
             handles the interrupt; B's dots leave the controller in groups with one interrupt per group."
                .to_string(),
            Layer::Controller,
            format!(
                "The cause, over the whole run: in A each request spends {:.1} µs on the bus and card but {:.1} µs \
                 in host software, with {:.2} requests per interrupt, so the bus is busy only {:.0} % of the time. \
                 In B: {:.2} requests per interrupt (one software pass per chain), bus busy {:.0} %: the white \
                 gaps on B's bus strip are {} A's (idle A {:.1} vs B {:.1} µs per request).",
                fa.bus_us, fa.software_us, fa.per_irq, fa.bus_busy_pct, fb.per_irq, fb.bus_busy_pct,
                shorter_longer(fb.idle_us, fa.idle_us), fa.idle_us, fb.idle_us
            ),
            "Before B runs to the end: how much faster will B be than A?".to_string(),
            faster(&[1.0, 2.0, 4.0, 8.0]),
            ("packed", "4", false),
            "50 µs/s",
            format!(
                "Batching pays the interrupt and the software pass once per chain, so the bus waits {} for the host \
                 (idle A {:.1} vs B {:.1} µs per request).",
                less_more(fb.idle_us, fa.idle_us), fa.idle_us, fb.idle_us
            ),
        ),
        "unisoc-fua-2022" => (
            format!(
                "A ({ca}) and B ({cb}): one program doing synchronous 4 KiB random writes. In A the card \
                 acknowledges a write once it is in its cache; in B (FUA) only once it is in NAND."
            ),
            "Each write crosses the bus; in B the card then holds the bus busy (DAT0 low) until the flash is \
             programmed: long card-busy stretches on B's bus strip."
                .to_string(),
            Layer::Card,
            format!(
                "The cause, over the whole run: per write A spends {:.1} µs on the bus and card, B {:.1} µs \
                 (the reliable write waits for NAND); time in host software stages is {:.1} vs {:.1} µs. Bus busy {:.0} % vs {:.0} %.",
                fa.bus_us, fb.bus_us, fa.software_us, fb.software_us, fa.bus_busy_pct, fb.bus_busy_pct
            ),
            "Before B runs to the end: how will B's write rate compare with A's?".to_string(),
            faster(&[1.0, 0.5, 0.2, 0.1]),
            ("bs", "64k", true),
            "200 µs/s",
            "FUA makes each synchronous write durable before it is acknowledged: safe against a power cut, paid in card-busy time.".to_string(),
        ),
        "u300-mmci-2011" => (
            format!(
                "A ({ca}) and B ({cb}): the kernel's mmc_test writing to an SD card on a slow ARM926. A prepares \
                 (DMA-maps) each request after the previous one ends; B while it is on the bus."
            ),
            format!(
                "In A the CPU maps a buffer, then the transfer runs, then the CPU unmaps; B overlaps the map with the \
                 transfer. Read A's bus strip: {}.",
                bus_state(&fa)
            ),
            Layer::HostQueue,
            format!(
                "The cause, over the whole run: per request A spends {:.0} µs on the bus and card and {:.0} µs in host \
                 software; the bus is busy {:.0} % in A and {:.0} % in B. {}",
                fa.bus_us, fa.software_us, fa.bus_busy_pct, fb.bus_busy_pct,
                if fa.bus_us > fa.software_us {
                    "The card, not the CPU, dominates."
                } else {
                    "The CPU, not the card, dominates."
                }
            ),
            "Before B runs to the end: how much faster will B be than A?".to_string(),
            faster(&[1.0, 2.0, 4.0]),
            ("mmc_test", "39/40", true),
            "5 ms/s",
            format!(
                "Preparing the next request during the transfer hides only the CPU's share: {}.",
                speed_words(fa.figure, fb.figure, unit)
            ),
        ),
        _ => (
            format!(
                "A ({ca}) and B ({cb}): 8 programs doing 4 KiB random writes. A keeps at most 3 requests in the mmc \
                 queue; B raises the window to 6 while small writes are queued."
            ),
            "Watch blk-mq: when the mmc queue is full, requests bounce back (refused, retry later) and wait.".to_string(),
            Layer::MmcQueue,
            format!(
                "The cause, over the whole run: the gain comes from the bus, idle A {:.1} vs B {:.1} µs per request \
                 (busy A {:.0} % vs B {:.0} %): with the wider window the next write already waits in an hsq slot \
                 when the interrupt pumps. {}. Per request {:.1} vs {:.1} µs on the bus and card, \
                 {:.1} vs {:.1} µs in host software stages (issue, interrupt, completion, waits included).",
                fa.idle_us, fb.idle_us, fa.bus_busy_pct, fb.bus_busy_pct, refusal_words(&fa, &fb),
                fa.bus_us, fb.bus_us, fa.software_us, fb.software_us
            ),
            "Before B runs to the end: how much faster will B be than A?".to_string(),
            faster(&[1.0, 2.0, 4.0]),
            ("hsq_depth", "5", false),
            "200 µs/s",
            format!(
                "A deeper window keeps the next small write queued in hsq, so the bus waits {} between writes \
                 (idle A {:.1} vs B {:.1} µs per request): {}.",
                less_more(fb.idle_us, fa.idle_us),
                fa.idle_us,
                fb.idle_us,
                speed_words(fa.figure, fb.figure, unit)
            ),
        ),
    };
    let prediction = Prediction {
        question,
        choices,
        ratio,
    };
    let mut steps = vec![
        step(
            intro,
            &format!("Press Play: both run in slow motion ({speed}), in lockstep."),
            &format!("Play at {speed}"),
            TourAction::Play(speed),
        ),
        step(
            watch_for,
            "Press Pause to freeze both sides and read the bus strips under the pipelines.",
            "Pause",
            TourAction::Pause,
        ),
        step(
            layer_text,
            "Press Show to outline the column where this happens in both pipelines.",
            "Show the column",
            TourAction::Focus(layer),
        ),
        step(
            prediction.question.clone(),
            "Pick an answer: the simulation then answers it.",
            "",
            TourAction::Predict,
        ),
        step(
            format!(
                "Both sides finish in the view you are looking at; the A/B table under the pipelines shows the totals{}. \
                 Simulated {label}: A {:.1} {unit}, B {:.1} {unit} (B/A {ratio:.2}x). The authors measured {ma} vs {mb} {unit} \
                 ({:.2}x).",
                if a.mmc_test.is_some() {
                    " (all five mmc_test transfer sizes together; the figure here is the 4 KiB entry)"
                } else {
                    ""
                },
                fa.figure,
                fb.figure,
                mb / ma
            ),
            "Press Run to the end.",
            "Run to the end",
            TourAction::RunToEnd,
        ),
    ];
    if platform == "sprd-hs400es-2020" {
        let w = window_only(&a);
        let f = run_figures(case, &w)?;
        let gain = fb.figure - fa.figure;
        let win = f.figure - fa.figure;
        let pct = |x: f64| x / gain * 100.0;
        steps.push(step(
            format!(
                "The RFC does two things: it chains requests and it widens the mmc queue window to \
                 HSQ_PACKED_QUEUE_DEPTH (64). \"Window only\" (packed=0, hsq_depth=63) gives {:.1} {unit}: of the \
                 gain from A to B ({gain:+.1} {unit}), the window gives {win:+.1} ({:.0} %) and chaining {:+.1} ({:.0} %) \
                 in the model. The published measurement changed both at once, so it cannot tell them apart.",
                f.figure,
                pct(win),
                fb.figure - f.figure,
                pct(fb.figure - f.figure)
            ),
            "Press the button: B becomes \"window only\" and both run to the end; the next step puts B back.",
            "Show window only as B",
            TourAction::WindowOnly(true),
        ));
        steps.push(step(
            format!(
                "B was \"window only\": {:.1} {unit}, {:.2} requests per interrupt, bus busy {:.0} %. Chains raise \
                 requests per interrupt to {:.2} and the bus to {:.0} %.",
                f.figure, f.per_irq, f.bus_busy_pct, fb.per_irq, fb.bus_busy_pct
            ),
            "Press the button to put B (packed=8) back and run both to the end.",
            "Back to B",
            TourAction::WindowOnly(false),
        ));
        window = Some(w);
        fw = Some(f);
    }
    steps.push(step(
        format!(
            "Recap: {recap} In this pair B/A is {ratio:.2}x ({:.1} vs {:.1} {unit}).",
            fa.figure, fb.figure
        ),
        &match try_it {
            ("mmc_test", ..) => "Try it yourself: press the button to open the Lab with the read cases (mmc_test 39 \
                                 against 40), then Run: does preparing ahead help reads more?"
                .to_string(),
            (k, v, true) => format!(
                "Try it yourself: press the button to open the Lab with {k}={v} on both sides, then Run: does the \
                 change still cost (or pay) as much?"
            ),
            (k, v, false) => format!(
                "Try it yourself: press the button to open the Lab with B's {k} set to {v}, then Run: how much of \
                 the gain is left?"
            ),
        },
        &match try_it {
            ("mmc_test", ..) => "Try mmc_test 39/40".to_string(),
            (k, v, _) => format!("Try {k}={v}"),
        },
        TourAction::TryIt,
    ));
    let predict_step = steps
        .iter()
        .position(|s| s.action == TourAction::Predict)
        .unwrap_or(0);
    Ok(Tour {
        platform,
        title: e.series.change.to_string(),
        a,
        b,
        window,
        fa,
        fb,
        fw,
        unit,
        prediction,
        steps,
        predict_step,
        try_it,
    })
}

/// "shorter than" / "longer than" / "about as long as" for `b` against `a` (within 5 %).
fn shorter_longer(b: f64, a: f64) -> &'static str {
    mmcsim_engine::explain::relation(b, a)
}

/// "less" / "more" / "about as long" for a wait `b` against `a` (within 5 %).
fn less_more(b: f64, a: f64) -> &'static str {
    match mmcsim_engine::explain::relation(b, a) {
        "longer than" => "longer",
        "shorter than" => "less",
        _ => "about as long",
    }
}

/// The platforms that have a tour, in the gallery's order.
pub fn tour_names() -> Vec<&'static str> {
    entries().iter().map(|e| e.series.platform).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_has_a_tour_whose_numbers_are_the_simulations() {
        for p in tour_names() {
            let t = tour(p).unwrap();
            assert!(t.steps.len() >= 6, "{p}");
            assert_eq!(t.steps[t.predict_step].action, TourAction::Predict);
            assert!(t.steps.iter().any(|s| s.action == TourAction::RunToEnd));
            // The run-to-end step states the simulated figures, as the view shows them.
            let end = t
                .steps
                .iter()
                .find(|s| s.action == TourAction::RunToEnd)
                .unwrap();
            assert!(
                end.see
                    .contains(&format!("A {:.1} {}", t.fa.figure, t.unit)),
                "{}",
                end.see
            );
            assert!(t.prediction.closest() < t.prediction.choices.len());
            assert!(
                t.steps.last().unwrap().action == TourAction::TryIt,
                "ends with try it"
            );
            // "Try it yourself" opens a pair the simulator runs, other than the tour's.
            let (ta, tb) = t.try_pair();
            assert!(
                (ta.clone(), tb.clone()) != (t.a.clone(), t.b.clone()),
                "{p}"
            );
            assert!(
                Session::start(&ta).is_ok() && Session::start(&tb).is_ok(),
                "{p}"
            );
        }
    }

    #[test]
    fn the_2020_tour_separates_window_and_chaining() {
        let t = tour(LANDING_SERIES).unwrap();
        let (fa, fw, fb) = (t.fa.figure, t.fw.unwrap().figure, t.fb.figure);
        assert!(fa < fw && fw < fb, "{fa} {fw} {fb}");
        assert!(t.fb.per_irq > 2.0 && t.fa.per_irq < 1.1);
        assert!(t.fa.bus_busy_pct < t.fb.bus_busy_pct);
        let s = &t.steps[t
            .steps
            .iter()
            .position(|s| s.action == TourAction::WindowOnly(true))
            .unwrap()];
        assert!(s.see.contains(&format!("{fw:.1}")), "{}", s.see);
        assert!(s.see.contains("cannot tell them apart"));
        // "will B be 2x, 4x or 8x faster": the answer is one of them.
        assert!(t.prediction.ratio > 2.0, "{}", t.prediction.ratio);
    }
}
