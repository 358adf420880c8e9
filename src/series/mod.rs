//! The measured patch series, as data: one file per series, each a `static` [`SeriesData`]
//! (its calibration row, the A/B pair it opens, what it changed in the kernel, the gallery
//! walk-through, and its tour's script), and [`ALL`], the registry the gallery, the tours and
//! the tests read. Nothing else in the app knows a series by name, but the landing, which opens
//! the 2020 RFC's pair (`crate::lesson::LANDING_SERIES`).
//!
//! The measured figures are the engine's (`mmcsim_engine::calibration`): a text that states
//! one formats it from the headline case ([`Says::authors`], `Case::measured`), never types it.
//!
//! # Adding a series
//!
//! 1. Add its row to `SERIES` (`engine/src/tools/calibration/mod.rs`), its cases to `CASES`
//!    (`engine/src/tools/calibration/cases.rs`) and their measured figures to
//!    `engine/data/measurements.toml`; a series without a table instead gives its own pair, as
//!    `fifo_dispatch_2022.rs` does with [`Headline::Own`].
//! 2. Copy a file of this folder to `src/series/<name>_<year>.rs` and write its `DATA`: the
//!    `series` row, the `headline` case (`rw` and block size), the `kernel` paragraph, the
//!    `walk` steps (texts that state a figure are [`Text::Says`] functions of the pair's
//!    [`Figures`]), the B the pipeline view suggests on its platform (`suggest_b`), and the
//!    `tour` function, which runs the pair ([`throughput::run`]) and returns its
//!    [`TourScript`] (sentences, prediction, "try it yourself").
//! 3. Add `mod <name>_<year>;` and one line `&<name>_<year>::DATA` to [`ALL`] below.
//! 4. If it has a tour: its lesson in `COURSE` (`course.rs`: the course's order, one lesson
//!    per tour, which its test checks).
//!
//! The native tests then walk it: its walk-through and tour are built, their words checked
//! against their numbers (`claims.rs`), its pair and "try it" pair run.

use mmcsim_engine::calibration::{authors_size, Case, Series, CASES};
use mmcsim_engine::scenario::url::encode_query;
use mmcsim_engine::{HostConfig, Scenario};

use crate::run::session::RunError;

pub mod check;
#[cfg(test)]
mod claims;
pub mod course;
pub mod paused;
pub mod readout;
pub mod script;
pub mod throughput;
pub mod words;

mod dynamic_depth_2023;
mod fifo_dispatch_2022;
mod fua_2022;
mod hsq_intro_2020;
mod kernel_6_12;
mod nonblocking_2011;
mod packed_2020;
mod schedulers_6_1;

pub use script::{
    PairFigures, Prediction, Says, Shows, StepAction, Text, TourAction, TourScript, TourStep,
    TryIt, WalkStep,
};
pub use words::Figures;

/// Every series, in the gallery's order: the calibration's, then the FIFO dispatch patch, the
/// schedulers and the kernel upgrade.
pub static ALL: &[&SeriesData] = &[
    &packed_2020::DATA,
    &fua_2022::DATA,
    &nonblocking_2011::DATA,
    &dynamic_depth_2023::DATA,
    &hsq_intro_2020::DATA,
    &fifo_dispatch_2022::DATA,
    &schedulers_6_1::DATA,
    &kernel_6_12::DATA,
];

/// The tour a link names: a series id, or the platform an older link named (its first series).
pub fn tour_id(name: &str) -> Option<&'static str> {
    resolve(name)
        .filter(|s| s.tour.is_some())
        .map(|s| s.series.id)
}

/// Whether the tour of `name` runs a scheduler this build lacks (the landing's has none and
/// mq-deadline only, the engine's `lean` feature): the whole app runs it.
pub fn needs_full(name: &str) -> bool {
    resolve(name).is_some_and(|s| {
        let (a, b) = s.tour_pair();
        [a, b].iter().any(|x| {
            x.effective_platform()
                .is_ok_and(|p| !p.switches.iosched.in_this_build())
        })
    })
}

/// A text only the gallery shows (a series' kernel paragraph, its walk-through's steps): empty
/// in the landing's build, which has no gallery (it hands the page over to the whole app for
/// it), so its bytes stay out of the landing's wasm and its size bar.
pub const fn gallery_text(s: &'static str) -> &'static str {
    if cfg!(feature = "full") {
        s
    } else {
        ""
    }
}

/// The series that have a tour, by id, in the gallery's order (the key of the tours' links).
pub fn tour_names() -> Vec<&'static str> {
    ALL.iter()
        .filter(|s| s.tour.is_some())
        .map(|s| s.series.id)
        .collect()
}

/// Bytes per job of a tour's pair: enough for throughput to settle (within a few percent of the
/// gallery's 64 MiB), small enough that "run to the end" takes a second in the page.
pub const TOUR_SIZE: u64 = 4 << 20;

/// Bytes per job the gallery runs for the series the authors ran at 512 MiB per job: 20 jobs x
/// 512 MiB of 4 KiB requests is 2.6 million requests per column, minutes of a phone's battery in a
/// browser tab. Throughput settles within the first few MiB, so 64 MiB gives the same figures
/// to a fraction of a percent (`mmcsim --calibration --size=64M`).
pub const REDUCED_SIZE: u64 = 64 << 20;

/// The size per job a case runs at in the gallery: the authors' own, or [`REDUCED_SIZE`] where
/// theirs is larger.
pub fn gallery_size(platform: &str) -> u64 {
    authors_size(platform).min(REDUCED_SIZE)
}

/// Most a headline figure differs, in percent, between the tour's run ([`TOUR_SIZE`] per job)
/// and the gallery's ([`gallery_size`]): what the texts quoting one beside the other say
/// (checked by a test running both: 1.8 % at most in December 2026, the FUA pair's A).
pub const SIZES_AGREE_PCT: f64 = 3.0;

/// Which run a figure comes from, for a text that quotes it where the other run is also shown
/// (the gallery's table once said 224.95 MiB/s and the tour 224.2 with no word why):
/// "at 4 MiB per job (the tour's run; the gallery's pair and table run 64 MiB per job, within
/// 1 % of it)", or the size where both runs are the same.
pub fn run_sizes(tour: u64, gallery: u64) -> String {
    if tour == gallery {
        return format!(
            "at {} MiB per job, as the gallery's pair and table",
            tour >> 20
        );
    }
    format!(
        "at {} MiB per job (the tour's run; the gallery's pair and table run {} MiB per job, \
         within {SIZES_AGREE_PCT:.0} % of it)",
        tour >> 20,
        gallery >> 20
    )
}

/// What a series opens as its A/B pair.
pub enum Headline {
    /// A case of the authors' table: its `rw` and block size (the one that shows the change
    /// best).
    Case { rw: &'static str, bs: u64 },
    /// No table: the series' own pair at `size` bytes per job, `label` saying what it runs,
    /// `no_table` what the gallery says in place of the table.
    Own {
        pair: fn(u64) -> (Scenario, Scenario),
        size: u64,
        label: &'static str,
        no_table: &'static str,
    },
}

/// What a series' tour function gets: its pair at the tour size and, with a table, the
/// headline case.
pub struct TourInput {
    pub data: &'static SeriesData,
    pub case: Option<&'static Case>,
    pub a: Scenario,
    pub b: Scenario,
}

/// A series' tour: its script from its pair's runs.
pub type TourFn = fn(&TourInput) -> Result<TourScript, RunError>;

/// One patch series: everything the page says and runs about it.
pub struct SeriesData {
    /// The calibration row: source, hardware, unit, command, columns, the change in a few words.
    pub series: &'static Series,
    pub headline: Headline,
    /// What the series changed in the kernel, naming the functions (our words; `series.change`
    /// is the short form).
    pub kernel: &'static str,
    /// The gallery walk-through.
    pub walk: &'static [WalkStep],
    /// The tour (`tour=<series id>` links it; None: no tour of its own).
    pub tour: Option<TourFn>,
    /// The change the pipeline view first suggests as B on this series' platform, flipped
    /// against A's host configuration; false where it does not apply (None, or false: the
    /// path's usual change, `crate::watch::live::suggest_b`).
    pub suggest_b: Option<SuggestFn>,
}

/// Sets B's host switch of a series' change against A's configuration (on B, a scenario whose
/// host switches start as A's); false when the change does not apply to A's path.
pub type SuggestFn = fn(&HostConfig, &mut Scenario) -> bool;

impl SeriesData {
    /// Index in [`CASES`] of the headline case.
    pub fn headline_index(&self) -> Option<usize> {
        let Headline::Case { rw, bs } = self.headline else {
            return None;
        };
        let found = CASES
            .iter()
            .position(|c| c.series == self.series.id && c.rw.name() == rw && c.bs == bs);
        Some(found.expect("the headline case is in the calibration data"))
    }
    pub fn headline_case(&self) -> Option<&'static Case> {
        self.headline_index().map(|i| &CASES[i])
    }
    /// The size per job the gallery runs the pair at.
    pub fn size(&self) -> u64 {
        match self.headline {
            Headline::Case { .. } => gallery_size(self.series.platform),
            Headline::Own { size, .. } => size,
        }
    }
    /// The A/B pair at `size` per job and its link.
    pub fn pair(&self, size: u64) -> (Scenario, Scenario, String) {
        match (&self.headline, self.headline_case()) {
            (Headline::Own { pair, .. }, _) => {
                let (a, b) = pair(size);
                let q = encode_query(&a, Some(&b));
                (a, b, q)
            }
            (_, Some(c)) => case_pair(c, size),
            (_, None) => unreachable!("a case headline has its case"),
        }
    }
    /// The tour's pair: columns A and B at the tour size.
    pub fn tour_pair(&self) -> (Scenario, Scenario) {
        let (a, b, _) = self.pair(self.size().min(TOUR_SIZE));
        (a, b)
    }
    /// What the pair runs, in a few words ("randread 4KiB").
    pub fn label(&self) -> String {
        match (&self.headline, self.headline_case()) {
            (Headline::Own { label, .. }, _) => label.to_string(),
            (_, c) => c.map(Case::label).unwrap_or_default(),
        }
    }
    /// What the gallery says in place of the authors' table, for a series without one.
    pub fn no_table(&self) -> Option<&'static str> {
        match self.headline {
            Headline::Own { no_table, .. } => Some(no_table),
            Headline::Case { .. } => None,
        }
    }
    /// The walk-through's texts: `figs` fills the steps that state what the simulation shows.
    pub fn walk_texts(&self, figs: Option<&PairFigures>) -> Vec<(StepAction, String)> {
        let says = Says {
            size: self.size(),
            case: self.headline_case(),
            unit: self.series.unit.name(),
            figs,
        };
        self.walk
            .iter()
            .map(|s| (s.action, s.text(&says)))
            .collect()
    }
}

/// A case's A/B pair at `size` per job, and its link (`A's keys & b.keys`, the scenario link
/// format of docs/EXPORTS.md).
pub fn case_pair(case: &Case, size: u64) -> (Scenario, Scenario, String) {
    let a = case.scenario(false, size);
    let b = case.scenario(true, size);
    let q = encode_query(&a, Some(&b));
    (a, b, q)
}

/// The series of id `id`.
pub fn by_id(id: &str) -> Option<&'static SeriesData> {
    ALL.iter().copied().find(|s| s.series.id == id)
}

/// The change the series of `platform` suggest as B against `cfg` (the first that applies),
/// set in `b`; false when none does.
pub fn suggest_b(platform: &str, cfg: &HostConfig, b: &mut Scenario) -> bool {
    ALL.iter()
        .filter(|s| s.series.platform == platform)
        .filter_map(|s| s.suggest_b)
        .any(|f| f(cfg, b))
}

/// The first series of `platform`.
pub fn of_platform(platform: &str) -> Option<&'static SeriesData> {
    ALL.iter().copied().find(|s| s.series.platform == platform)
}

/// The series a link names: by its id (the key of the gallery's cards and the tours' links),
/// or, for a link written when they were keyed by platform, the first series of that platform.
pub fn resolve(name: &str) -> Option<&'static SeriesData> {
    by_id(name).or_else(|| of_platform(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::calibration::SERIES;

    #[test]
    fn every_calibration_series_is_in_the_registry_once_in_its_order() {
        let ids: Vec<&str> = ALL.iter().map(|s| s.series.id).collect();
        let calibrated: Vec<&str> = SERIES.iter().map(|s| s.id).collect();
        assert_eq!(ids[..calibrated.len()], calibrated[..]);
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[i + 1..].contains(id), "{id} twice");
        }
    }

    #[test]
    fn every_series_opens_a_pair_of_its_own() {
        for s in ALL {
            if let Some(c) = s.headline_case() {
                assert_eq!(c.platform, s.series.platform);
            }
            let (a, b, _) = s.pair(1 << 20);
            assert_ne!(a, b, "{}", s.series.id);
            assert!(s.walk.iter().any(|w| w.action == StepAction::Load(true)));
            assert_eq!(s.no_table().is_some(), s.headline_case().is_none());
        }
    }
}
