//! What the tours of series with a throughput table share: the headline pair run to the end,
//! the run-to-end sentence with the simulated and the authors' figures, the recap's tail.

use mmcsim_engine::calibration::Case;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::Scenario;

use super::paused::{first_moment, Paused, When};
use super::script::{faster, pause_press, Prediction, TourScript, TourStep, TryIt, FOCUS_PRESS};
use super::words::{fig, p50_words, run_figures, Figures};
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

/// Most a ratio so far may differ from the whole run's (either way) before the text says so.
pub const SO_FAR_DIFFERS: f64 = 1.25;

/// Where B/A of MiB/s so far (the A/B table's at the moment `at`) differs from the whole run's
/// (`ratio`) by more than [`SO_FAR_DIFFERS`], the sentence that says so once, and why (issue 50:
/// lesson 2's table said B 4.50x there, and 1.90x at the end); else nothing.
pub fn so_far_ratio(at: &Paused, ratio: f64) -> String {
    // (mmc_test's transfers are no fio job: no MiB/s so far to compare.)
    if at.fa.figure <= 0.0 || at.fb.figure <= 0.0 {
        return String::new();
    }
    let now = at.fb.figure / at.fa.figure;
    let off = now / ratio.max(1e-9);
    if off.max(1.0 / off.max(1e-9)) <= SO_FAR_DIFFERS {
        return String::new();
    }
    format!(
        " The A/B table gives B {now:.2}x A's MiB/s so far: a figure of the run's start (its first \
         requests, as the queues fill), slower on {}'s side; the whole run's comes at the end.",
        if off > 1.0 { "A" } else { "B" }
    )
}

/// The sentences of a throughput tour that differ from series to series.
pub struct Parts {
    pub speed: &'static str,
    pub intro: String,
    pub watch_for: String,
    /// Where the tour pauses ([`Run::pause`]), and what else than each side's first
    /// requests makes that moment ("B's bus has been busier than A's"; "" for nothing), for
    /// the Pause step's press sentence.
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
             Simulated {} {}: A {} {unit}, B {} {unit} (B/A {:.2}x). The authors measured {ma} vs {mb} {unit} \
             ({:.2}x).",
            if self.a.mmc_test.is_some() {
                " (all five mmc_test transfer sizes together; the figure here is the 4 KiB entry)"
            } else {
                ""
            },
            self.case.label(),
            run_sizes(self.a.jobs[0].size, gallery_size(self.case.platform)),
            fig(self.fa.figure, unit),
            fig(self.fb.figure, unit),
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
        let cause = parts.cause + &so_far_ratio(&parts.paused, self.ratio);
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
            pause_press: pause_press(parts.pause_words, &parts.paused),
            paused: parts.paused,
            layer: parts.layer,
            cause,
            focus_press: FOCUS_PRESS,
            middle: Vec::new(),
            extra,
            recap,
            try_it: parts.try_it,
            window,
            other: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::words::fig;

    /// Issue 50: partway through lesson 2 the A/B table gave B 4.50x A's MiB/s, the end 1.90x,
    /// with no word why. The moment's text says once that it is a figure of the run's start; a
    /// lesson whose ratio so far is the whole run's says nothing.
    #[test]
    fn a_ratio_so_far_unlike_the_whole_runs_is_labelled_once() {
        let said = |id: &str| {
            let t = crate::lesson::tour(id).unwrap();
            t.steps
                .iter()
                .filter(|s| {
                    s.text()
                        .contains("MiB/s so far: a figure of the run's start")
                })
                .count()
        };
        assert_eq!(said("hsq-intro-2020"), 1);
        assert_eq!(said("unisoc-hsq-2023"), 0);
    }

    /// A tour's MiB/s is the A/B table's, to its rounding (a step once said 86.1 beside the
    /// table's 85.76): two decimals, as `mmcsim_components::format::mib_s` (a wasm-only crate:
    /// its own test gives the same three cases).
    #[test]
    fn a_mib_s_figure_is_printed_as_the_ab_table_prints_it() {
        assert_eq!(fig(60.675, "MiB/s"), "60.67");
        assert_eq!(fig(229.6, "MiB/s"), "229.60");
        assert_eq!(fig(0.0, "MiB/s"), "0.00");
        assert_eq!(fig(2813.64, "KiB/s"), "2813.6");
    }
}
