//! The vocabulary a series file is written in: the gallery walk-through's steps
//! ([`WalkStep`], their [`StepAction`]s and texts), and what a tour says ([`TourScript`]: its
//! sentences, [`Prediction`] and [`TryIt`]) for the one scaffold in [`crate::lesson`] to lay out
//! as [`TourStep`]s.

use mmcsim_engine::calibration::Case;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::Scenario;

use super::paused::Paused;
use super::words::Figures;

/// What a walk-through step does when the reader presses its button.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepAction {
    /// Load the entry's headline case, column A (`false`) or B (`true`), as the scenario.
    Load(bool),
    /// Start the run in slow motion at this speed (a label of the time controls, "50 µs/s").
    Play(&'static str),
    /// Pause the running simulation.
    Pause,
    /// Point at a layer of the pipeline.
    Highlight(Layer),
    /// Run to the end at full speed.
    RunToEnd,
    /// Schedule the power cut at this time (`power_cut=`) and run.
    PlugAt(&'static str),
    /// Fill the authors' table (the engine runs every case of the series).
    Compare,
}

/// The headline pair's figures (A, B) run to the end at the tour's size: the walk-through's
/// comparison words and the numbers beside them come from these.
pub type PairFigures = (Figures, Figures);

/// What a walk-through text may be formatted from: the headline case (its measured figures),
/// the series' unit, and, once the pair has run, its simulated figures.
pub struct Says<'a> {
    /// Bytes per job of the gallery's pair and table.
    pub size: u64,
    pub case: Option<&'static Case>,
    pub unit: &'static str,
    pub figs: Option<&'a PairFigures>,
}

impl Says<'_> {
    /// The authors' figures of the headline case: "70.32 vs 12.68 MiB/s".
    pub fn authors(&self) -> String {
        let (ma, mb) = self.case.map_or((0.0, 0.0), |c| c.measured);
        format!("{ma} vs {mb} {}", self.unit)
    }
    /// Which run the simulated figures come from: "at 4 MiB per job (the tour's run; ...)".
    pub fn sizes(&self) -> String {
        super::run_sizes(self.size.min(super::TOUR_SIZE), self.size)
    }
}

/// A walk-through step's text.
#[derive(Clone, Copy)]
pub enum Text {
    /// Makes no claim about any figure.
    Plain(&'static str),
    /// Formatted from the figures (without the simulated ones it says what to look at, and no
    /// more).
    Says(fn(&Says) -> String),
}

/// One step of a series' gallery walk-through, as written in its file.
#[derive(Clone, Copy)]
pub struct WalkStep {
    pub action: StepAction,
    pub text: Text,
}

impl WalkStep {
    pub const fn plain(action: StepAction, text: &'static str) -> WalkStep {
        WalkStep {
            action,
            text: Text::Plain(text),
        }
    }
    pub const fn says(action: StepAction, text: fn(&Says) -> String) -> WalkStep {
        WalkStep {
            action,
            text: Text::Says(text),
        }
    }
    /// The step's text from what is known.
    pub fn text(&self, says: &Says) -> String {
        match self.text {
            Text::Plain(t) => t.to_string(),
            Text::Says(f) => f(says),
        }
    }
}

/// What a tour step does on the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TourAction {
    /// Play the pair from time zero at this speed label (of [`crate::run::speed::SPEEDS`]),
    /// stopping at the tour's moment (the time of its `PauseAt`).
    Play(&'static str),
    /// Pause at this simulated time, ns: the moment the tour's condition on the simulated
    /// state first holds ([`super::paused::first_moment`]), re-simulating to it.
    PauseAt(u64),
    /// Point at a column of both pipelines.
    Focus(Layer),
    /// Ask the prediction (the step's choices answer it; no button).
    Predict,
    /// Run the pair to the end in the view, at full speed.
    RunToEnd,
    /// Nothing to do on the screen: on to the next step (after reading the run's figures).
    Continue,
    /// Stand at `t_ns` (re-simulating up to there), paused, and follow request `id` of side A
    /// (its "why was it slow" in What is happening).
    Follow { t_ns: u64, id: u64 },
    /// B becomes "window only" (true) or B again (false), run to the end.
    WindowOnly(bool),
    /// A and B become the tour's second pair (true) or its own again (false), run to the end.
    OtherPair(bool),
    /// Open the Lab with B as the step suggests.
    TryIt,
}

/// What the screen shows while a step is read: its text is written from that state, and a
/// reader who arrives at the step by Next, Back or a link is brought there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shows {
    /// Nothing the text states depends on the moment.
    Any,
    /// The pair at time zero, paused: a lesson's first step (what the landing played before
    /// is no part of the lesson; from here time moves only forward).
    Start,
    /// The pair paused at `t_ns`, the column `focus` outlined.
    At { t_ns: u64, focus: Option<Layer> },
    /// The pair paused at `t_ns`, request `id` of side A followed (its "why was it slow" in
    /// What is happening).
    Following { t_ns: u64, id: u64 },
    /// The tour's pair run to the end.
    End,
    /// The pair run to the end with B as the 2020 RFC's "window only".
    EndWindow,
    /// The tour's second pair on the same board (lesson 4's random reads) run to the end.
    EndOther,
}

/// One tour step: what the reader sees now, then what to press.
#[derive(Clone, Debug, PartialEq)]
pub struct TourStep {
    /// The text, its figures of readouts marked (`super::readout`).
    pub see: String,
    pub press: String,
    /// The button's label.
    pub button: String,
    pub action: TourAction,
    pub shows: Shows,
}

impl TourStep {
    pub fn new(see: String, press: &str, button: &str, action: TourAction) -> TourStep {
        TourStep {
            see,
            press: press.to_string(),
            button: button.to_string(),
            action,
            shows: Shows::Any,
        }
    }
    /// The step, read while the screen shows `shows`.
    pub fn showing(mut self, shows: Shows) -> TourStep {
        self.shows = shows;
        self
    }
    /// The text as a reader reads it.
    pub fn text(&self) -> String {
        super::readout::plain(&self.see)
    }
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

    /// The B/A ratios choice `i` stands for: from the geometric middle to the next smaller
    /// choice up to that to the next larger one (None: no bound on that side). The bands of a
    /// question's choices do not overlap and cover every ratio, so the closest choice is the
    /// one band the simulated ratio falls in.
    pub fn band(&self, i: usize) -> (Option<f64>, Option<f64>) {
        let f = self.choices[i].0;
        let mid = |g: f64| (f * g).sqrt();
        let below = self.choices.iter().map(|c| c.0).filter(|&g| g < f);
        let above = self.choices.iter().map(|c| c.0).filter(|&g| g > f);
        (
            below.max_by(f64::total_cmp).map(mid),
            above.min_by(f64::total_cmp).map(mid),
        )
    }

    /// Choice `i`'s band in words: "B/A 0.55x to 0.82x", "B/A above 1.22x".
    pub fn band_text(&self, i: usize) -> String {
        match self.band(i) {
            (Some(lo), Some(hi)) => format!("B/A {lo:.2}x to {hi:.2}x"),
            (Some(lo), None) => format!("B/A above {lo:.2}x"),
            (None, Some(hi)) => format!("B/A below {hi:.2}x"),
            (None, None) => "any B/A".to_string(),
        }
    }

    /// The answer to choice `picked`, with the simulated numbers: right when the simulated
    /// ratio falls in its band; else the closest choice, and how far the pick was off.
    pub fn answer(&self, picked: usize, fa: f64, fb: f64, unit: &str) -> String {
        let best = self.closest();
        let verdict = if picked == best {
            format!("Right ({})", self.band_text(best))
        } else {
            let off =
                (self.choices[picked].0 / self.ratio).max(self.ratio / self.choices[picked].0);
            format!(
                "Not quite: the closest is \"{}\" ({}); yours is {off:.1}x off",
                self.choices[best].1,
                self.band_text(best)
            )
        };
        format!(
            "{verdict}. Simulated: A {} {unit}, B {} {unit}, B/A = {:.2}x.",
            super::words::fig(fa, unit),
            super::words::fig(fb, unit),
            self.ratio
        )
    }
}

/// A pair made from the tour's pair (A, B).
pub type PairFn = fn(&Scenario, &Scenario) -> (Scenario, Scenario);

/// What "try it yourself" changes, at the end of a tour.
#[derive(Clone, Copy, Debug)]
pub struct TryIt {
    /// The option and its value, as the button says ("Try packed=4").
    pub option: &'static str,
    pub value: &'static str,
    /// On both sides (else on B only).
    pub both: bool,
    /// The step's "press" sentence and the button's label, when not the usual ones.
    pub press: Option<&'static str>,
    pub button: Option<&'static str>,
    /// The pair, when the change is not `option=value` applied as text (the 2011 read cases).
    pub pair: Option<PairFn>,
}

impl TryIt {
    /// The pair it opens in the Lab from the tour's pair.
    pub fn pair(&self, a: &Scenario, b: &Scenario) -> (Scenario, Scenario) {
        use mmcsim_engine::scenario::options::apply_text;
        if let Some(pair) = self.pair {
            return pair(a, b);
        }
        let (k, v) = (self.option, self.value);
        let nb = apply_text(b, k, v).unwrap_or_else(|_| b.clone());
        let na = if self.both {
            apply_text(a, k, v).unwrap_or_else(|_| a.clone())
        } else {
            a.clone()
        };
        (na, nb)
    }
    /// The step's "press" sentence.
    pub fn press(&self) -> String {
        let (k, v) = (self.option, self.value);
        match (self.press, self.both) {
            (Some(p), _) => p.to_string(),
            (None, true) => format!(
                "Try it yourself: the button opens the Lab with {k}={v} on both sides and runs it: does the \
                 change still cost (or pay) as much?"
            ),
            (None, false) => format!(
                "Try it yourself: the button opens the Lab with B's {k} set to {v} and runs it: how much of \
                 the gain is left?"
            ),
        }
    }
    pub fn button(&self) -> String {
        match self.button {
            Some(b) => b.to_string(),
            None => format!("Try {}={}", self.option, self.value),
        }
    }
}

/// What a series' tour says, its numbers read off runs of its pair: the scaffold
/// ([`crate::lesson::tour`]) lays it out as Play, Pause, Show, Predict, Run to the end, the
/// series' own steps, and the recap with "try it yourself".
#[derive(Clone, Debug)]
pub struct TourScript {
    pub a: Scenario,
    pub b: Scenario,
    pub fa: Figures,
    pub fb: Figures,
    /// The unit of `fa.figure` and `fb.figure`.
    pub unit: &'static str,
    /// The slow-motion speed (a label of [`crate::run::speed::SPEEDS`]).
    pub speed: &'static str,
    /// The first step: what A and B are.
    pub intro: String,
    /// The Pause step: what to watch for, and its press sentence.
    pub watch_for: String,
    pub pause_press: String,
    /// Where the tour pauses, and the pair's figures there.
    pub paused: Paused,
    /// The Show step: the column, the cause as the paused moment shows it, its press sentence.
    pub layer: Layer,
    pub cause: String,
    pub focus_press: &'static str,
    /// The series' own steps after Show, at the same moment or later (never earlier: time
    /// moves only forward until the run to the end).
    pub middle: Vec<TourStep>,
    pub prediction: Prediction,
    /// The run-to-end step.
    pub end: String,
    /// The series' own steps after the run to the end.
    pub extra: Vec<TourStep>,
    /// The last step's text (before "try it yourself").
    pub recap: String,
    pub try_it: TryIt,
    /// The 2020 RFC's "window only" side.
    pub window: Option<(Scenario, Figures)>,
    /// A second pair on the same board its steps run (lesson 4: the random reads).
    pub other: Option<(Scenario, Scenario)>,
}

/// The usual press sentence of the step that goes to the script's moment `at`, `when` saying
/// what else makes it that moment ("" for nothing else). It names each side's counts there
/// as the next step's readouts show them: the moment needs [`super::words::MIN_REQUESTS`] on
/// both sides, so one side may be well past it (issue 50: "each side sixteen requests" read
/// A 16 / B 48 on the next screen).
pub fn pause_press(when: &str, at: &Paused) -> String {
    use super::readout::{done, irqs};
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" and {when}")
    };
    format!(
        "Press the button: both sides stand still at the first moment each side has completed at \
         least {} requests{when}; the clock goes forward to the time on the button. There A has \
         completed {} requests ({} interrupts), B {} ({} interrupts).",
        super::words::MIN_REQUESTS,
        done(false, &at.fa),
        irqs(false, &at.fa),
        done(true, &at.fb),
        irqs(true, &at.fb)
    )
}
/// The usual press sentence of the Show step.
pub const FOCUS_PRESS: &str =
    "Press Show to outline the column where this happens in both pipelines, then Next.";

/// Prediction choices as B/A factors: "about the same", "B 2x faster", "B 2x slower".
pub fn faster(fs: &[f64]) -> Vec<(f64, String)> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower() -> Prediction {
        Prediction {
            question: String::new(),
            choices: vec![
                (1.0, "about the same".into()),
                (0.5, "B 2x lower".into()),
                (0.25, "B 4x lower".into()),
                (0.1, "B 10x lower".into()),
            ],
            ratio: 1.0 / 2.8,
        }
    }

    /// Issue 50: "B 2x lower" was marked right at 1.5x and at 2.8x with no word of what it
    /// stood for. The bands meet end to end without overlap, the answer names the band, and a
    /// miss says by how much.
    #[test]
    fn each_choice_stands_for_one_band_and_the_answer_says_which() {
        let mut p = lower();
        let bands: Vec<_> = (0..4).map(|i| p.band(i)).collect();
        assert_eq!(bands[0].1, None);
        assert_eq!(bands[3].0, None);
        for w in [(0, 1), (1, 2), (2, 3)] {
            assert_eq!(bands[w.0].0, bands[w.1].1, "bands {w:?} meet");
        }
        assert_eq!(p.band_text(1), "B/A 0.35x to 0.71x");
        // 2.8x lower: "B 2x lower" (its band reaches 2.83x), right, and the band is said.
        assert_eq!(p.closest(), 1);
        let a = p.answer(1, 100.0, 35.7, "µs");
        assert!(a.starts_with("Right (B/A 0.35x to 0.71x)."), "{a}");
        // A pick two bands away: the closest, and by how much it was off.
        let a = p.answer(3, 100.0, 35.7, "µs");
        assert!(
            a.contains("the closest is \"B 2x lower\" (B/A 0.35x to 0.71x); yours is 3.6x off"),
            "{a}"
        );
        p.ratio = 1.0 / 1.5;
        assert_eq!(p.closest(), 1);
        assert!(p.answer(0, 1.0, 1.0, "x").contains("Not quite"));
    }
}
