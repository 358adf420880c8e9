//! The gallery of the seed experiments: one entry per measured patch series
//! ([`SERIES`]), its A/B link, a guided walk-through, and the authors' table
//! recomputed by the engine a slice of events at a time.
//!
//! Plain logic, no browser code (the page in `gallery_view.rs` owns the frames), so it builds
//! natively and the browser tests drive it directly. Like [`crate::engine_bridge`] it only calls
//! the engine's public API (`calibration`, `scenario::url`); its runs are
//! [`crate::session::Session`]s.

use mmcsim_engine::calibration::{
    authors_size, Case, Series, Unit, ALLWINNER_NO_HSQ, CASES, SERIES,
};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::url::encode_query;
use mmcsim_engine::scenario::{HsqDispatch, MmcPath};
use mmcsim_engine::Scenario;

use crate::lesson::{bus_state, refusal_words, speed_words, Figures};
use crate::session::{RunError, Session};

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

/// One step of a walk-through: what to read and what the button does.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub text: String,
    pub action: StepAction,
}

/// The FIFO dispatch patch (2022): its author measured fio's latency distribution without hsq
/// (the calibration's Allwinner rows) and reported a maximum completion latency of about
/// 200 ms with hsq before the patch; there is no throughput table to recompute. A is hsq's old
/// slot order (`hsq_dispatch=next_tag`), B the FIFO order the patch introduced.
pub static FIFO_SERIES: Series = Series {
    id: "fifo-dispatch-2022",
    platform: "allwinner-hsq-2022",
    source: ALLWINNER_NO_HSQ.source,
    hardware: "Allwinner SoC (model not named), eMMC, Android 13; /data is f2fs, /data/data encrypted (fscrypt)",
    unit: Unit::MiBs,
    command: ALLWINNER_NO_HSQ.command,
    change: "FIFO dispatch (2022): a 200 ms tail from slot selection",
    columns: ("next_tag", "fifo"),
};

/// The FIFO series' pair: the measured fio command with hsq, A in the old slot order, B in
/// FIFO order, `size` bytes per job.
pub fn fifo_pair(size: u64) -> (Scenario, Scenario) {
    let side = |d: HsqDispatch| {
        let mut s = ALLWINNER_NO_HSQ.scenario(Some(MmcPath::Hsq));
        s.host.hsq_dispatch = Some(d);
        for j in &mut s.jobs {
            j.size = size;
        }
        s
    };
    (side(HsqDispatch::NextTag), side(HsqDispatch::Fifo))
}

/// A step whose text makes no claim about the simulated figures.
fn plain(text: &str, action: StepAction) -> Step {
    Step {
        text: text.to_string(),
        action,
    }
}

/// The headline pair's figures (A, B) run to the end at the tour's size: the walk-through's
/// comparison words and the numbers beside them come from these.
pub type PairFigures = (Figures, Figures);

/// A gallery entry: one patch series.
#[derive(Clone, Debug)]
pub struct Entry {
    pub series: &'static Series,
    /// Index in [`CASES`] of the case the entry opens (the one that shows the change best);
    /// None for a series without a throughput table (its pair is [`fifo_pair`]).
    pub headline: Option<usize>,
    /// What the series changed in the kernel, naming the functions (our words; `series.change`
    /// is the short form).
    pub kernel: &'static str,
    pub steps: Vec<Step>,
}

impl Entry {
    pub fn headline_case(&self) -> Option<&'static Case> {
        self.headline.map(|i| &CASES[i])
    }
    /// The size per job the entry runs at.
    pub fn size(&self) -> u64 {
        match self.headline {
            Some(_) => gallery_size(self.series.platform),
            // fio's io_size=64M per thread.
            None => 64 << 20,
        }
    }
    /// The entry's A/B pair at `size` per job and its link.
    pub fn pair(&self, size: u64) -> (Scenario, Scenario, String) {
        match self.headline_case() {
            Some(c) => case_pair(c, size),
            None => {
                let (a, b) = fifo_pair(size);
                let q = encode_query(&a, Some(&b));
                (a, b, q)
            }
        }
    }
    /// What the pair runs, in a few words ("randread 4KiB").
    pub fn label(&self) -> String {
        match self.headline_case() {
            Some(c) => c.label(),
            None => "randread 4KiB, 8 threads".to_string(),
        }
    }
    /// The cases of the series, in the authors' order.
    pub fn cases(&self) -> Vec<(usize, &'static Case)> {
        cases_of(self.series.id)
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
}

fn cases_of(series: &str) -> Vec<(usize, &'static Case)> {
    CASES
        .iter()
        .enumerate()
        .filter(|(_, c)| c.series == series)
        .collect()
}

fn index_of(platform: &str, rw: &str, bs: u64) -> usize {
    cases_of(platform)
        .into_iter()
        .find(|(_, c)| c.rw.name() == rw && c.bs == bs)
        .map(|(i, _)| i)
        .expect("the headline case is in the calibration data")
}

/// Every series the gallery shows: the calibration's, then the FIFO dispatch series.
fn all_series() -> impl Iterator<Item = &'static Series> {
    SERIES.iter().chain(std::iter::once(&FIFO_SERIES))
}

/// The entries, in the order of [`SERIES`] then the FIFO dispatch series, their walk-throughs without simulated figures
/// (what the gallery lists; [`with_figures`] gives the walk-through of the open entry).
pub fn entries() -> Vec<Entry> {
    all_series().map(|s| build(s, None)).collect()
}

/// The entry of series `id` with its walk-through's claims computed: its headline pair is run
/// to the end (at [`crate::lesson::TOUR_SIZE`] per job) and every comparison word in the steps
/// follows from those figures, printed beside it.
pub fn with_figures(id: &str) -> Result<Entry, RunError> {
    let series = all_series().find(|s| s.id == id).ok_or_else(|| RunError {
        option: None,
        message: format!("no gallery series {id}"),
    })?;
    let e = build(series, None);
    // A series without a table (the FIFO dispatch patch) has no headline figure to claim from:
    // its tour states its latency figures itself.
    let Some(case) = e.headline_case() else {
        return Ok(e);
    };
    let (a, b) = crate::lesson::pair(&e);
    let figs = (
        crate::lesson::run_figures(case, &a)?,
        crate::lesson::run_figures(case, &b)?,
    );
    Ok(build(series, Some(&figs)))
}

/// One entry; `figs` fills the steps that state what the simulation shows (without them those
/// steps say what to look at, and no more).
fn build(series: &'static Series, figs: Option<&PairFigures>) -> Entry {
    let unit = series.unit.name();
    // A claim from the figures, or the neutral text.
    let says = |f: &dyn Fn(&Figures, &Figures) -> String, neutral: &str| match figs {
        Some((fa, fb)) => f(fa, fb),
        None => neutral.to_string(),
    };
    match series.id {
            "sprd-hs400es-2020" => Entry {
                series,
                headline: Some(index_of(series.id, "read", 4096)),
                kernel: "The RFC adds ADMA3 to sdhci (sdhci-sprd): the controller walks one chain of command \
                         and ADMA2 descriptors for several requests and raises one interrupt at the end. \
                         mmc_hsq_pump_requests hands it up to 8 queued requests at once, so the interrupt and \
                         completion cost (sdhci_irq, mmc_hsq_finalize_request) is paid once per chain.",
                steps: vec![
                    plain("Load the non-packed run: 20 psync jobs of 4 KiB sequential reads, packed=0.", StepAction::Load(false)),
                    Step { text: says(&|fa, _| format!("Play it slowly: each request spends {:.1} µs on the bus and card; over the run {}.", fa.bus_us, bus_state(fa)),
                        "Play it slowly: each request crosses the bus; watch the bus strip between transfers."), action: StepAction::Play("50 µs/s") },
                    Step { text: says(&|fa, _| format!("Pause and read the bus strip: {}, while the host handles the interrupt and pumps the next request.", bus_state(fa)),
                        "Pause and read the bus strip between two transfers: the host handles the interrupt and pumps the next request."), action: StepAction::Pause },
                    plain("That gap is host software: sdhci_irq, mmc_hsq_finalize_request, then mmc_hsq_pump_requests for the next one.", StepAction::Highlight(Layer::Controller)),
                    plain("Now load the packed run (packed=8): the controller takes chains of up to 8 requests, one interrupt each.", StepAction::Load(true)),
                    plain("Run it to the end and compare with the authors' table below (60.68 vs 229.6 MiB/s).", StepAction::RunToEnd),
                    plain("Fill the whole table: every workload of the series, both columns, simulated here.", StepAction::Compare),
                ],
            },
            "unisoc-fua-2022" => Entry {
                series,
                headline: Some(index_of(series.id, "randwrite", 4096)),
                kernel: "The patch lets the host decide whether to advertise FUA (blk_queue_write_cache with \
                         fua). With it, an O_SYNC write carries REQ_FUA and mmc_blk_rw_rq_prep turns it into an \
                         eMMC reliable write (CMD23 bit 31) that completes only once the data is in NAND; without \
                         it the write completes from the card's volatile cache.",
                steps: vec![
                    plain("Load the run without FUA: one job of synchronous 4 KiB random writes, fua=0.", StepAction::Load(false)),
                    plain("Play it slowly: each write is acknowledged as soon as it is in the card's cache.", StepAction::Play("200 µs/s")),
                    Step { text: says(&|fa, fb| format!("Pause and look at the card: {:.1} µs per write on the bus and card here, {:.1} µs with FUA. The writes it has acknowledged sit in its volatile cache, not yet in NAND.", fa.bus_us, fb.bus_us),
                        "Pause and look at the card: the writes it has acknowledged sit in its volatile cache, not yet in NAND."), action: StepAction::Pause },
                    plain("The card is where the difference is made: a reliable write holds it busy until NAND is programmed.", StepAction::Highlight(Layer::Card)),
                    plain("Pull the plug at 50 ms (power_cut=50ms) and run: the report lists the acknowledged writes the card lost.", StepAction::PlugAt("50ms")),
                    plain("Load the run with FUA (fua=1): every write becomes a reliable write.", StepAction::Load(true)),
                    Step { text: says(&|fa, fb| format!("Run it to the end: simulated at {} MiB per job, {}; the authors measured 70.32 vs 12.68 MiB/s.", crate::lesson::TOUR_SIZE >> 20, speed_words(fa.figure, fb.figure, unit)),
                        "Run it to the end; the authors measured 70.32 vs 12.68 MiB/s."), action: StepAction::RunToEnd },
                    plain("Pull the plug at the same moment: this time no acknowledged write is lost.", StepAction::PlugAt("50ms")),
                    plain("Fill the whole table: reads do not change, large writes lose a quarter, small writes most.", StepAction::Compare),
                ],
            },
            "u300-mmci-2011" => Entry {
                series,
                headline: Some(index_of(series.id, "write", 4096)),
                kernel: "Per Forlin's series splits mmc_start_req into pre_req and post_req host hooks \
                         (mmci: dma_map_sg and dma_unmap_sg): while one request is on the bus the next one is \
                         already mapped, so the CPU work of a slow ARM926 overlaps the transfer instead of \
                         following it. Measured with the kernel's mmc_test cases 37-40.",
                steps: vec![
                    plain("Load the blocking run: mmc_test case 37 (writes, each request prepared after the previous one ends).", StepAction::Load(false)),
                    plain("Play it slowly: map, transfer, wait, unmap, then the next request.", StepAction::Play("5 ms/s")),
                    Step { text: says(&|fa, _| format!("Pause after a transfer and read the bus strip: {}. The CPU maps the next buffer in {:.0} µs of host software per request.", bus_state(fa), fa.software_us),
                        "Pause after a transfer and read the bus strip while the CPU maps the next buffer."), action: StepAction::Pause },
                    plain("The legacy host queue holds one request; non-blocking prepares the next one during the transfer.", StepAction::Highlight(Layer::HostQueue)),
                    plain("Load the non-blocking run: mmc_test case 38.", StepAction::Load(true)),
                    Step { text: says(&|fa, fb| format!("Run it to the end: simulated at {} MiB per job, {}: {}.", crate::lesson::TOUR_SIZE >> 20, speed_words(fa.figure, fb.figure, unit), bus_state(fa)),
                        "Run it to the end and compare with the measured figures."), action: StepAction::RunToEnd },
                    plain("Fill the whole table: the four mmc_test figures the patch was tested with.", StepAction::Compare),
                ],
            },
            "hsq-intro-2020" => Entry {
                series,
                headline: Some(index_of(series.id, "randwrite", 4096)),
                kernel: "hsq (2020): the next request goes out from the interrupt. Before it, \
                         mmc_blk_mq_issue_rw_rq prepared the next request and slept in mmc_blk_rw_wait; the \
                         interrupt's completion work woke that thread, which then polled the card once with \
                         CMD13 after a write (mmc_blk_card_busy) and only then started the next request. \
                         With mmc_hsq.c, mmc_hsq_finalize_request pumps the next slot straight from the \
                         interrupt and the controller's busy detection replaces the software poll.",
                steps: vec![
                    plain("Load the legacy run: 20 psync jobs of 4 KiB random writes, mmc_path=legacy.", StepAction::Load(false)),
                    plain("Play it slowly: after each write the bus waits for a thread to wake, sends one CMD13, and waits again.", StepAction::Play("50 µs/s")),
                    plain("Pause between two writes: the card answered the CMD13 only once it had committed the random write.", StepAction::Pause),
                    plain("The host queue holds two requests: the one on the bus and the prepared one sleeping in mmc_blk_rw_wait.", StepAction::Highlight(Layer::HostQueue)),
                    plain("Load the hsq run (mmc_path=hsq): the interrupt itself pumps the next request.", StepAction::Load(true)),
                    Step { text: says(&|fa, fb| format!("Run it to the end: simulated at {} MiB per job, {}; the authors measured 35.96 vs 68.76 MiB/s.", crate::lesson::TOUR_SIZE >> 20, speed_words(fa.figure, fb.figure, unit)),
                        "Run it to the end; the authors measured 35.96 vs 68.76 MiB/s."), action: StepAction::RunToEnd },
                    plain("Fill the whole table: sequential I/O barely changes, random I/O gains.", StepAction::Compare),
                ],
            },
            "fifo-dispatch-2022" => Entry {
                series,
                headline: None,
                kernel: "Before this patch mmc_hsq_update_next_tag chose the next slot to serve: the one after \
                         the slot just served if it held a request, else the lowest occupied slot. blk-mq hands \
                         each CPU's thread its freed tag back (sbitmap's per-CPU hints), so low slots keep being \
                         refilled and served while a request in a high slot waits; the patch serves the slots \
                         in arrival order. The author reported a maximum completion latency of about 200 ms \
                         before the patch and gave no table; the tour runs the measured fio command both ways \
                         and states the worst case the model's mechanism gives, which is milliseconds, not \
                         200 ms.",
                steps: vec![
                    plain("Load the old order: 8 threads of 4 KiB random reads, hsq_dispatch=next_tag.", StepAction::Load(false)),
                    plain("Play it slowly and watch the host queue's slots: the low ones are served again and again.", StepAction::Play("1 ms/s")),
                    plain("Pause: a request in a high slot is still waiting while later requests in low slots go to the bus.", StepAction::Pause),
                    plain("The host queue is where the order is decided (mmc_hsq_update_next_tag).", StepAction::Highlight(Layer::HostQueue)),
                    plain("Load the FIFO order (hsq_dispatch=fifo), today's kernel.", StepAction::Load(true)),
                    plain("Run it to the end and compare the latency percentiles of both.", StepAction::RunToEnd),
                ],
            },
            _ => Entry {
                series,
                headline: Some(index_of(series.id, "randwrite", 4096)),
                kernel: "The patch adds mmc_hsq_modify_threshold: at every pump hsq counts the 4 KiB writes it \
                         holds and raises its depth from 2 to 5 while two or more are queued, so \
                         the mmc queue window (depth + 1) grows from 3 to 6 requests and the next write can wait \
                         in an hsq slot instead of in blk-mq.",
                steps: vec![
                    plain("Load the fixed-depth run: 8 jobs of 4 KiB random writes, hsq_depth=2.", StepAction::Load(false)),
                    Step { text: says(&|fa, _| format!("Play it slowly and watch blk-mq: requests bounce back when the mmc queue is full ({} refusals over the run).", fa.requeues),
                        "Play it slowly and watch blk-mq: requests bounce back when the mmc queue is full."), action: StepAction::Play("200 µs/s") },
                    plain("Pause on a bounce: mmc_mq_queue_rq returned BLK_STS_RESOURCE.", StepAction::Pause),
                    plain("The mmc queue window is depth + 1 requests: 3 here, 6 with the dynamic depth.", StepAction::Highlight(Layer::MmcQueue)),
                    plain("Load the dynamic run (hsq_depth=dynamic).", StepAction::Load(true)),
                    Step { text: says(&|fa, fb| format!("Run it to the end: simulated at {} MiB per job, {}. The gain comes from the bus, idle A {:.1} vs B {:.1} µs per request; {}.", crate::lesson::TOUR_SIZE >> 20, speed_words(fa.figure, fb.figure, unit), fa.idle_us, fb.idle_us, refusal_words(fa, fb)),
                        "Run it to the end and compare with the measured figures."), action: StepAction::RunToEnd },
                    plain("Fill the whole table: only the 4 KiB random writes change.", StepAction::Compare),
                ],
            },
    }
}

/// The entry of a platform.
pub fn entry(platform: &str) -> Option<Entry> {
    entries()
        .into_iter()
        .find(|e| e.series.platform == platform)
}

/// A case's A/B pair at `size` per job, and its link (`A's keys & b.keys`, the scenario link
/// format of docs/EXPORTS.md).
pub fn case_pair(case: &Case, size: u64) -> (Scenario, Scenario, String) {
    let a = case.scenario(false, size);
    let b = case.scenario(true, size);
    let q = encode_query(&a, Some(&b));
    (a, b, q)
}

/// One row of the table as it fills.
#[derive(Clone, Debug)]
pub struct Row {
    pub case_index: usize,
    pub case: &'static Case,
    /// Simulated figure of columns A and B, once run.
    pub simulated: (Option<f64>, Option<f64>),
}

impl Row {
    pub fn error_pct(&self) -> (Option<f64>, Option<f64>) {
        let e = |s: Option<f64>, m: f64| s.map(|s| (s - m) / m * 100.0);
        (
            e(self.simulated.0, self.case.measured.0),
            e(self.simulated.1, self.case.measured.1),
        )
    }
    /// Measured and simulated B/A.
    pub fn ratios(&self) -> (f64, Option<f64>) {
        let (a, b) = self.case.measured;
        let sim = match self.simulated {
            (Some(a), Some(b)) if a > 0.0 => Some(b / a),
            _ => None,
        };
        (b / a, sim)
    }
}

/// The authors' table of a series, recomputed one budgeted slice at a time: each case's two
/// columns run in turn (A, then B), each in a session of its own.
pub struct TableRun {
    size: u64,
    rows: Vec<Row>,
    /// (row, column B?) of the run in progress.
    cursor: usize,
    sim: Option<(Scenario, Session)>,
}

impl TableRun {
    /// The table of `platform`'s series at `size` bytes per job.
    pub fn new(platform: &str, size: u64) -> TableRun {
        let rows = cases_of(platform)
            .into_iter()
            .map(|(case_index, case)| Row {
                case_index,
                case,
                simulated: (None, None),
            })
            .collect();
        TableRun {
            size,
            rows,
            cursor: 0,
            sim: None,
        }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn is_done(&self) -> bool {
        self.cursor >= self.rows.len() * 2
    }

    /// 0..=1 over all the columns.
    pub fn progress(&self) -> f64 {
        let total = (self.rows.len() * 2).max(1) as f64;
        let part = self.sim.as_ref().map(|(_, s)| s.progress()).unwrap_or(0.0);
        ((self.cursor as f64 + part) / total).min(1.0)
    }

    /// Runs at most `max_events` events of the column in progress (starting it if needed) and
    /// records its figure when it ends. True when the whole table is done.
    pub fn step(&mut self, max_events: u64) -> Result<bool, RunError> {
        if self.is_done() {
            return Ok(true);
        }
        let (row, b) = (self.cursor / 2, self.cursor % 2 == 1);
        let case = self.rows[row].case;
        if self.sim.is_none() {
            let scn = case.scenario(b, self.size);
            let sim = Session::start(&scn)?;
            self.sim = Some((scn, sim));
        }
        let (scn, sim) = self.sim.as_mut().expect("started above");
        if sim.run_events(max_events) {
            let fig = case.figure(scn, &sim.report());
            let r = &mut self.rows[row];
            if b {
                r.simulated.1 = fig;
            } else {
                r.simulated.0 = fig;
            }
            self.sim = None;
            self.cursor += 1;
        }
        Ok(self.is_done())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_has_an_entry_with_a_headline_case_of_its_own() {
        let e = entries();
        assert_eq!(e.len(), SERIES.len() + 1);
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
        }
    }

    #[test]
    fn a_small_table_fills_and_compares() {
        let mut t = TableRun::new("unisoc-fua-2022", 1 << 20);
        while !t.step(10_000).unwrap() {}
        for r in t.rows() {
            assert!(r.simulated.0.is_some() && r.simulated.1.is_some(), "{r:?}");
        }
    }
}
