//! What the tours of series with a throughput table share: the headline pair run to the end,
//! the run-to-end sentence with the simulated and the authors' figures, the recap's tail.

use mmcsim_engine::calibration::Case;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::Scenario;

use super::paused::{first_moment, Paused, When};
use super::script::{faster, pause_press, Prediction, TourScript, TourStep, TryIt, FOCUS_PRESS};
use super::words::{p50_words, run_figures, Figures};
use super::{gallery_size, run_sizes, TourInput};
use crate::run::session::RunError;

/// A throughput tour's pair, run to the end.
pub struct Run {
    pub case: &'static Case,
    pub a: Scenario,
    pub b: Scenario,
    pub fa: Figures,
    pub fb: Figures,
    /// B/A of the case's figure.
    pub ratio: f64,
    pub unit: &'static str,
    /// The column labels A, B.
    pub columns: (&'static str, &'static str),
}

/// Runs the pair of `input` (a series with a table) to the end.
pub fn run(input: &TourInput) -> Result<Run, RunError> {
    let case = input.case.ok_or_else(|| RunError {
        option: None,
        message: format!("{} has no table", input.data.series.id),
    })?;
    let fa = run_figures(case, &input.a)?;
    let fb = run_figures(case, &input.b)?;
    Ok(Run {
        case,
        a: input.a.clone(),
        b: input.b.clone(),
        ratio: fb.figure / fa.figure.max(1e-9),
        fa,
        fb,
        unit: input.data.series.unit.name(),
        columns: input.data.series.columns,
    })
}

/// The sentences of a throughput tour that differ from series to series.
pub struct Parts {
    pub speed: &'static str,
    pub intro: String,
    pub watch_for: String,
    /// Where the tour pauses ([`Run::pause`]), and that moment in words ("B has completed
    /// three chains"), for the Pause step's press sentence.
    pub paused: Paused,
    pub pause_words: &'static str,
    pub layer: Layer,
    pub cause: String,
    pub question: &'static str,
    /// The prediction's choices, as B/A factors.
    pub choices: &'static [f64],
    /// The recap's first sentence(s).
    pub recap: String,
    pub try_it: TryIt,
}

impl Run {
    /// The first moment `when` holds for the pair run at `speed` (the tour's pause).
    pub fn pause(&self, speed: &str, when: When) -> Result<Paused, RunError> {
        first_moment(&self.a, &self.b, speed, when)
    }

    /// The run-to-end sentence: the simulated figures of the pair and the authors'.
    fn end(&self) -> String {
        let unit = self.unit;
        let (ma, mb) = self.case.measured;
        format!(
            "Both have run to the end; the A/B table under the pipelines shows the whole run{}. \
             Simulated {} {}: A {:.1} {unit}, B {:.1} {unit} (B/A {:.2}x). The authors measured {ma} vs {mb} {unit} \
             ({:.2}x).",
            if self.a.mmc_test.is_some() {
                " (all five mmc_test transfer sizes together; the figure here is the 4 KiB entry)"
            } else {
                ""
            },
            self.case.label(),
            run_sizes(self.a.jobs[0].size, gallery_size(self.case.platform)),
            self.fa.figure,
            self.fb.figure,
            self.ratio,
            mb / ma
        )
    }

    /// The tour's script from the series' sentences (`extra` steps after the run to the end,
    /// `window`: the 2020 RFC's window-only side).
    pub fn script(
        self,
        parts: Parts,
        extra: Vec<TourStep>,
        window: Option<(Scenario, Figures)>,
    ) -> TourScript {
        let recap = format!(
            "Recap: {} In the A/B table, clat p50: {}.",
            parts.recap,
            p50_words(&self.fa, &self.fb)
        );
        TourScript {
            end: self.end(),
            prediction: Prediction {
                question: parts.question.to_string(),
                choices: faster(parts.choices),
                ratio: self.ratio,
            },
            a: self.a,
            b: self.b,
            fa: self.fa,
            fb: self.fb,
            unit: self.unit,
            speed: parts.speed,
            intro: parts.intro,
            watch_for: parts.watch_for,
            pause_press: pause_press(parts.pause_words),
            paused: parts.paused,
            layer: parts.layer,
            cause: parts.cause,
            focus_press: FOCUS_PRESS,
            extra,
            recap,
            try_it: parts.try_it,
            window,
        }
    }
}
