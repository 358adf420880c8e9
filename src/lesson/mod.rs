//! The lesson: the landing pair (the 2020 packed-request RFC's 20 jobs of 4 KiB reads, packed=0
//! against packed=8) and one guided tour per series, laid out by one scaffold ([`tour`]) from the
//! series' script (`src/series/`), whose texts carry numbers computed by running the very pair
//! the page shows.
//!
//! Plain logic, no browser code: the page ([`state`], `view.rs`) renders a [`Tour`]'s steps and sends their
//! [`TourAction`]s to the Watch; the native tests check that every number a step states is the
//! simulation's.

use mmcsim_engine::Scenario;

use crate::run::session::RunError;
use crate::series::{self, Figures, Prediction, TourInput, TourScript, TryIt};
pub use crate::series::{Shows, TourAction, TourStep};

pub mod check;
#[cfg(all(target_arch = "wasm32", feature = "full"))]
pub mod check_view;
pub mod state;
#[cfg(target_arch = "wasm32")]
pub mod view;

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

/// The landing pair: the 2020 headline case (4 KiB reads, 20 jobs) at the tour size.
pub fn landing_pair() -> (Scenario, Scenario) {
    series::by_id(LANDING_SERIES)
        .expect("the 2020 series is in the registry")
        .tour_pair()
}

/// A tour: the pair it keeps on screen, its steps, its prediction, the numbers behind them.
#[derive(Clone, Debug)]
pub struct Tour {
    /// The series' id (the key of the tours' links and the gallery's cards).
    pub id: &'static str,
    pub title: String,
    pub a: Scenario,
    pub b: Scenario,
    /// The 2020 RFC's "window only" side.
    pub window: Option<Scenario>,
    /// A second pair on the same board (lesson 4's random reads).
    pub other: Option<(Scenario, Scenario)>,
    pub fa: Figures,
    pub fb: Figures,
    pub fw: Option<Figures>,
    pub unit: &'static str,
    pub prediction: Prediction,
    pub steps: Vec<TourStep>,
    /// The step that asks the prediction.
    pub predict_step: usize,
    /// What "try it yourself" changes.
    pub try_it: TryIt,
}

impl Tour {
    /// The tour's moment: where its Pause step stands (0 without one).
    pub fn moment(&self) -> u64 {
        self.steps
            .iter()
            .find_map(|s| match s.action {
                TourAction::PauseAt(t) => Some(t),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The pair "try it yourself" opens in the Lab.
    pub fn try_pair(&self) -> (Scenario, Scenario) {
        self.try_it.pair(&self.a, &self.b)
    }
}

/// The tour of series `id` (or of the first series of the platform an older link names), its
/// numbers computed by running its pair (and what else its script runs) to the end.
pub fn tour(id: &str) -> Result<Tour, RunError> {
    let (data, run) = series::resolve(id)
        .and_then(|s| s.tour.map(|t| (s, t)))
        .ok_or_else(|| RunError {
            option: None,
            message: format!("no tour for {id}"),
        })?;
    let (a, b) = data.tour_pair();
    let script = run(&TourInput {
        data,
        case: data.headline_case(),
        a,
        b,
    })?;
    // A moment whose condition never held would stand at the end under words that say it did.
    if !script.paused.held {
        return Err(RunError {
            option: None,
            message: format!("the moment of the {id} tour never comes: its condition never held"),
        });
    }
    Ok(scaffold(data.series.id, data.series.change, script))
}

/// The steps every tour has, around the series' own: Play (from time zero), Pause (at the
/// script's moment), Show, Predict, Run to the end, the run's figures, the script's extra
/// steps, the recap with "try it yourself". Each step says what
/// the screen shows while it is read ([`Shows`]).
fn scaffold(id: &'static str, title: &str, s: TourScript) -> Tour {
    let speed = s.speed;
    let at = |focus| Shows::At {
        t_ns: s.paused.t_ns,
        focus,
    };
    let mut steps = vec![
        // The lesson starts at time 0 (the landing's own play is no part of it); Play stops
        // at the moment the next steps read, so time moves only forward within the lesson
        // (issue 50). Pressed again, its button says "Replay from the start" (`view.rs`).
        TourStep::new(
            s.intro,
            &format!(
                "Press the button: both sides play from time 0 in slow motion ({speed}), in lockstep, and \
                 stop at {}, where the next steps read them. Then press Next.",
                mmcsim_engine::scenario::units::format_clock_ns(s.paused.t_ns)
            ),
            &format!("Play at {speed}"),
            TourAction::Play(speed),
        )
        .showing(Shows::Start),
        // Not "Pause": the moment is found by simulating up to it, so the clock may have passed
        // it; the button says where it goes.
        TourStep::new(
            s.watch_for,
            &s.pause_press,
            &format!(
                "Go to {}",
                mmcsim_engine::scenario::units::format_clock_ns(s.paused.t_ns)
            ),
            TourAction::PauseAt(s.paused.t_ns),
        ),
        TourStep::new(
            s.cause,
            s.focus_press,
            "Show the column",
            TourAction::Focus(s.layer),
        )
        .showing(at(None)),
    ];
    steps.extend(s.middle);
    steps.extend([
        TourStep::new(
            s.prediction.question.clone(),
            "Pick an answer: the simulation answers it once both have run to the end.",
            "",
            TourAction::Predict,
        )
        .showing(at(Some(s.layer))),
        TourStep::new(
            "Now let both run to the end: the readouts under the pipelines and the A/B table then give the \
             whole run's figures."
                .to_string(),
            "Press Run to the end.",
            "Run to the end",
            TourAction::RunToEnd,
        )
        .showing(at(Some(s.layer))),
    ]);
    // The run's figures, read at the end of the run.
    steps.push(
        TourStep::new(
            s.end,
            "Compare with your prediction, then press Continue.",
            "Continue",
            TourAction::Continue,
        )
        .showing(Shows::End),
    );
    steps.extend(s.extra);
    // The recap quotes the whole run's figures (the A/B table's clat p50, B's gain): it stands
    // at the end of the tour's own pair, whatever a step before it left on screen (the 2020
    // RFC's "window only" B, a pair still playing).
    steps.push(
        TourStep::new(
            s.recap,
            &s.try_it.press(),
            &s.try_it.button(),
            TourAction::TryIt,
        )
        .showing(Shows::End),
    );
    let predict_step = steps
        .iter()
        .position(|s| s.action == TourAction::Predict)
        .unwrap_or(0);
    let (window, fw) = s.window.unzip();
    Tour {
        id,
        title: title.to_string(),
        a: s.a,
        b: s.b,
        window,
        other: s.other,
        fa: s.fa,
        fb: s.fb,
        fw,
        unit: s.unit,
        prediction: s.prediction,
        steps,
        predict_step,
        try_it: s.try_it,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::session::Session;
    use crate::series::tour_names;

    #[test]
    fn every_series_has_a_tour_whose_numbers_are_the_simulations() {
        for p in tour_names() {
            let t = tour(p).unwrap();
            assert!(t.steps.len() >= 6, "{p}");
            assert_eq!(t.steps[t.predict_step].action, TourAction::Predict);
            assert!(t.steps.iter().any(|s| s.action == TourAction::RunToEnd));
            // The run-to-end step states the simulated figures, as the view shows them.
            let run = t
                .steps
                .iter()
                .position(|s| s.action == TourAction::RunToEnd)
                .unwrap();
            let end = &t.steps[run + 1];
            assert_eq!(end.shows, Shows::End, "{p}");
            assert!(
                end.text().contains(&format!(
                    "A {} {}",
                    crate::series::words::fig(t.fa.figure, t.unit),
                    t.unit
                )),
                "{}",
                end.see
            );
            // No figure of the run before it has run.
            assert!(
                !t.steps[..=run].iter().any(|s| s
                    .text()
                    .contains(&crate::series::words::fig(t.fb.figure, t.unit))),
                "{p}"
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
            // It sets what its button says ("Try packed=4": B's packed is 4).
            if t.try_it.pair.is_none() {
                use mmcsim_engine::scenario::options::value_text;
                let (k, v) = (t.try_it.option, t.try_it.value);
                // A board parameter set to the preset's own is no override: B's platform
                // runs it all the same (kernel=6.6 on the 6.6 board).
                let board_value = tb
                    .effective_platform()
                    .ok()
                    .and_then(|pl| mmcsim_engine::scenario::options::preset_text(&pl, k));
                let shown = Some(value_text(&tb, k)).filter(|t| !t.is_empty());
                assert_eq!(shown.or(board_value).as_deref(), Some(v), "{p}: B's {k}");
                if t.try_it.both {
                    assert_eq!(value_text(&ta, k), v, "{p}: A's {k}");
                }
            }
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
        assert!(s.text().contains(&format!("{fw:.1}")), "{}", s.see);
        assert!(s.text().contains("cannot tell them apart"));
        // "will B be 2x, 4x or 8x faster": the answer is one of them.
        assert!(t.prediction.ratio > 2.0, "{}", t.prediction.ratio);
    }
}
#[cfg(test)]
mod readouts {
    use super::*;
    use crate::run::session::Session;
    use crate::series::readout::{self, figures, READOUTS};
    use crate::series::tour_names;

    /// What the readouts show of side A and B of a pair at `t` (None: run to the end).
    fn shown(a: &Scenario, b: &Scenario, t: Option<u64>) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut now = 0;
        for (name, scn) in [("a", a), ("b", b)] {
            let mut s = Session::watched(scn).unwrap();
            match t {
                Some(t) => while !s.advance_to(t, 1 << 20) {},
                None => while !s.run_events(1 << 20) {},
            }
            now = now.max(s.now());
            if let Some(v) = s.snapshot().bfq {
                let job = v
                    .in_service
                    .map_or("no queue".to_string(), |j| format!("job {j}"));
                out.push((format!("{name}.bfq-job"), job));
                out.push((format!("{name}.bfq-raised"), v.raised_text()));
            }
            let f = Figures::of(&s.report(), None);
            out.push((format!("{name}.per-irq"), readout::per_irq_text(&f)));
            out.push((format!("{name}.bus-busy"), readout::busy_text(&f)));
            out.push((format!("{name}.by-task"), f.by_task.to_string()));
            out.push((format!("{name}.by-kblockd"), f.by_kblockd.to_string()));
            out.push((format!("{name}.done"), f.requests.to_string()));
            out.push((format!("{name}.irqs"), f.interrupts.to_string()));
        }
        let clock = mmcsim_engine::scenario::units::format_clock_ns(t.unwrap_or(now));
        out.push(("clock".to_string(), clock));
        out
    }

    /// What the readouts show where step `st` of tour `t` stands (None: it names no moment).
    fn screen_of(t: &Tour, st: &TourStep) -> Option<Vec<(String, String)>> {
        let window = t.window.clone().unwrap_or_else(|| t.b.clone());
        Some(match st.shows {
            Shows::Any | Shows::Start => return None,
            Shows::At { t_ns, .. } | Shows::Following { t_ns, .. } => shown(&t.a, &t.b, Some(t_ns)),
            Shows::End => shown(&t.a, &t.b, None),
            Shows::EndWindow => shown(&t.a, &window, None),
            Shows::EndOther => {
                let (a, b) = t.other.clone().expect("the second pair");
                shown(&a, &b, None)
            }
        })
    }

    /// Every figure a tour step gives of a readout is what that readout shows in the state the
    /// step stands at (the same figures, formatted by the same functions); a step that says
    /// nothing of the moment gives none. A press sentence's figures are of the screen the next
    /// step stands at (issue 50: "each side sixteen requests" was A 16 / B 48 there).
    #[test]
    fn every_figure_of_a_readout_in_a_tour_is_the_readouts_at_its_step() {
        let mut checked = 0;
        for p in tour_names() {
            let t = tour(p).unwrap();
            for (i, st) in t.steps.iter().enumerate() {
                let next = t.steps.get(i + 1);
                for (text, on) in [(&st.see, Some(st)), (&st.press, next)] {
                    let figs = figures(text);
                    for (id, _) in &figs {
                        assert!(READOUTS.contains(id), "{p} step {}: {id}", i + 1);
                    }
                    let Some(screen) = on.and_then(|on| screen_of(&t, on)) else {
                        assert_eq!(figs, vec![], "{p} step {}: figures with no moment", i + 1);
                        continue;
                    };
                    for (id, text) in figs {
                        let want = screen
                            .iter()
                            .find(|(k, _)| k == id)
                            .map(|(_, v)| v.as_str());
                        assert_eq!(Some(text), want, "{p} step {}: {id}", i + 1);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 40, "only {checked} figures checked");
    }
}
