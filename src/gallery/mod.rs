//! The gallery of the seed experiments: one entry per patch series of the registry
//! ([`crate::series::ALL`]), its A/B link, a guided walk-through, and the authors' table
//! recomputed by the engine a slice of events at a time ([`TableRun`]).
//!
//! Plain logic, no browser code (the page in `view.rs` owns the frames), so it builds
//! natively and the browser tests drive it directly. Like [`crate::run::engine_bridge`] it
//! only calls the engine's public API; its runs are [`crate::run::session::Session`]s.

use mmcsim_engine::calibration::{authors_size, Case, Series};
use mmcsim_engine::Scenario;

use crate::run::session::RunError;
use crate::series::words::run_figures;
use crate::series::{self, PairFigures, SeriesData};

pub use crate::series::{case_pair, gallery_size, StepAction, REDUCED_SIZE};
pub use table::{Row, TableRun};

mod table;
#[cfg(target_arch = "wasm32")]
pub mod view;

/// One step of a walk-through: what to read and what the button does.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub text: String,
    pub action: StepAction,
}

/// A gallery entry: one patch series, its walk-through's texts written out.
#[derive(Clone)]
pub struct Entry {
    pub data: &'static SeriesData,
    pub series: &'static Series,
    /// Index in `CASES` of the case the entry opens (the one that shows the change best);
    /// None for a series without a throughput table (it opens its own pair).
    pub headline: Option<usize>,
    /// What the series changed in the kernel, naming the functions.
    pub kernel: &'static str,
    pub steps: Vec<Step>,
}

impl Entry {
    pub fn headline_case(&self) -> Option<&'static Case> {
        self.data.headline_case()
    }
    /// The size per job the entry runs at.
    pub fn size(&self) -> u64 {
        self.data.size()
    }
    /// The entry's A/B pair at `size` per job and its link.
    pub fn pair(&self, size: u64) -> (Scenario, Scenario, String) {
        self.data.pair(size)
    }
    /// What the pair runs, in a few words ("randread 4KiB").
    pub fn label(&self) -> String {
        self.data.label()
    }
    /// The cases of the series, in the authors' order.
    pub fn cases(&self) -> Vec<(usize, &'static Case)> {
        table::cases_of(self.series.id)
    }
    /// A note on the size, when the gallery runs less than the authors did.
    pub fn size_note(&self) -> Option<String> {
        let authors = authors_size(self.series.platform);
        (self.size() < authors).then(|| {
            format!(
                "Simulated at {} MiB per job instead of the authors' {} MiB, so the table fills in seconds; \
                 the throughput is the same to within a percent.",
                self.size() >> 20,
                authors >> 20
            )
        })
    }
    /// What the step list is (the gallery once listed 7 steps and the tour showed 8 with
    /// no word): the walk-through's own steps, not the tour's.
    pub fn walk_title(&self) -> String {
        format!(
            "Walk-through: {} steps, each a button you press (a separate path from the tour, which has \
             steps of its own and a prediction)",
            self.steps.len()
        )
    }
    /// Which run the walk-through's simulated figures come from, beside the table's: "The
    /// walk-through's figures come from the tour's run, at 4 MiB per job; ...".
    pub fn runs_note(&self) -> Option<String> {
        let tour = self.size().min(series::TOUR_SIZE);
        (self.headline.is_some() && tour < self.size()).then(|| {
            format!(
                "The walk-through's simulated figures come from the tour's run, at {} MiB per job; this table \
                 and the pair loaded here run {} MiB per job, so their figures differ by up to {:.0} %.",
                tour >> 20,
                self.size() >> 20,
                series::SIZES_AGREE_PCT
            )
        })
    }
}

/// The entries, in the registry's order, their walk-throughs without simulated figures (what the
/// gallery lists; [`with_figures`] gives the walk-through of the open entry).
pub fn entries() -> Vec<Entry> {
    series::ALL.iter().map(|s| build(s, None)).collect()
}

/// The entry of series `id` with its walk-through's claims computed: its headline pair is run
/// to the end (at [`crate::series::TOUR_SIZE`] per job) and every comparison word in the steps
/// follows from those figures, printed beside it.
pub fn with_figures(id: &str) -> Result<Entry, RunError> {
    let data = series::by_id(id).ok_or_else(|| RunError {
        option: None,
        message: format!("no gallery series {id}"),
    })?;
    // A series without a table (the FIFO dispatch patch) has no headline figure to claim from:
    // its tour states its latency figures itself.
    let Some(case) = data.headline_case() else {
        return Ok(build(data, None));
    };
    let (a, b) = data.tour_pair();
    let figs = (run_figures(case, &a)?, run_figures(case, &b)?);
    Ok(build(data, Some(&figs)))
}

/// One entry; `figs` fills the steps that state what the simulation shows.
fn build(data: &'static SeriesData, figs: Option<&PairFigures>) -> Entry {
    Entry {
        data,
        series: data.series,
        headline: data.headline_index(),
        kernel: data.kernel,
        steps: data
            .walk_texts(figs)
            .into_iter()
            .map(|(action, text)| Step { text, action })
            .collect(),
    }
}

/// The entry of series `id` (or, for an older link, of the first series of platform `id`).
pub fn entry(id: &str) -> Option<Entry> {
    series::resolve(id).map(|s| build(s, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_has_an_entry_with_a_headline_case_of_its_own() {
        let e = entries();
        assert_eq!(e.len(), series::ALL.len());
        for entry in &e {
            if let Some(c) = entry.headline_case() {
                assert_eq!(c.platform, entry.series.platform);
            }
            let (a, b, _) = entry.pair(1 << 20);
            assert_ne!(a, b, "{}", entry.series.id);
            assert!(entry
                .steps
                .iter()
                .any(|s| s.action == StepAction::Load(true)));
            let title = entry.walk_title();
            assert!(
                title.starts_with(&format!("Walk-through: {} steps", entry.steps.len())),
                "{title}"
            );
        }
    }

    /// The gallery's table and the tour once quoted 224.95 and 224.2 MiB/s for one pair
    /// with no note. The texts say which run each comes from and that they agree to within
    /// `SIZES_AGREE_PCT`: the headline figure at both sizes, run here, does.
    #[test]
    fn the_tours_run_and_the_gallerys_agree_as_the_texts_say() {
        for e in entries() {
            let Some(case) = e.headline_case() else {
                continue;
            };
            let (ta, tb) = e.data.tour_pair();
            let (ga, gb, _) = e.pair(e.size());
            for (t, g) in [(ta, ga), (tb, gb)] {
                let (ft, fg) = (
                    run_figures(case, &t).unwrap(),
                    run_figures(case, &g).unwrap(),
                );
                let off = (ft.figure / fg.figure - 1.0).abs() * 100.0;
                assert!(
                    off <= series::SIZES_AGREE_PCT,
                    "{}: {} vs {} ({off:.2} %)",
                    e.series.id,
                    ft.figure,
                    fg.figure
                );
            }
            if e.size() > series::TOUR_SIZE {
                let note = e.runs_note().unwrap();
                assert!(note.contains("4 MiB per job"), "{note}");
            }
        }
    }
}
