//! fio's JSON output (`--output-format=json`, fio `stat.c` `show_thread_status_json`): the same
//! layout and key order, fio's `"key" : value` spacing and `%f` floats, so tools that read fio's
//! JSON read ours. Keys fio has and the model cannot fill (cpu, bw samples) are left out;
//! `disk_util` is the block layer's accounting (`disk_util.rs`); the simulator's own figures are in each job's `"mmcsim"` object. The output depends only
//! on the scenario and its seed: the same run prints the same bytes. The CLI's
//! `--output-format=json` and the web app's JSON export both call [`render`].
//!
//! The document is typed ([`FioDoc`] and the structs under it, fields in fio's order) and
//! written by `serde_json` with [`FioFormatter`], which reproduces fio's layout; it reads back
//! with `serde_json::from_str::<FioDoc>`.
//!
//! `doc.rs`: the document's types; `format.rs`: fio's layout.

mod disk_util;
mod doc;
mod format;

pub use disk_util::*;
pub use doc::*;
pub use format::*;

use crate::{JobReport, JobSpec, Report, Scenario};

/// One reported job: a clone, or a whole group with group_reporting (fio `show_run_stats`).
pub struct Block<'a> {
    pub job: JobReport,
    /// Clones in this block (fio's `jobs=`).
    pub clones: usize,
    /// The job section it came from (None for mmc_test transfers).
    pub spec: Option<&'a JobSpec>,
}

/// The blocks fio would print: one per clone, or one merged block with group_reporting.
pub fn blocks<'a>(scn: &'a Scenario, rep: &Report) -> Vec<Block<'a>> {
    let mut specs: Vec<&JobSpec> = Vec::new();
    if scn.mmc_test.is_none() {
        for j in &scn.jobs {
            specs.extend(std::iter::repeat_n(j, j.numjobs as usize));
        }
    }
    let spec_of = |i: usize| {
        if specs.len() == rep.jobs.len() {
            specs.get(i).copied()
        } else {
            None
        }
    };
    if scn.group_reporting && scn.mmc_test.is_none() {
        // One block per reporting group (a new group at each stonewall / new_group).
        return rep
            .groups()
            .into_iter()
            .map(|g| {
                let first = rep.jobs.iter().position(|j| j.groupid == g).unwrap_or(0);
                Block {
                    job: rep.merged_group(g),
                    clones: rep.jobs.iter().filter(|j| j.groupid == g).count(),
                    spec: spec_of(first),
                }
            })
            .collect();
    }
    rep.jobs
        .iter()
        .enumerate()
        .map(|(i, j)| Block {
            job: j.clone(),
            clones: 1,
            spec: spec_of(i),
        })
        .collect()
}

/// ns to fio's msec runtime (rounded to the nearest ms).
pub fn runtime_ms(ns: u64) -> u64 {
    // A run that did anything lasted at least 1 ms as reported (fio never prints a bandwidth
    // over a runtime of 0).
    (ns.saturating_add(500_000) / 1_000_000).max(u64::from(ns > 0))
}

pub fn render(scn: &Scenario, rep: &Report) -> String {
    FioDoc::of(scn, rep).to_text()
}

/// fio's `--output-format=json+`: the JSON document with each completion-latency histogram's
/// non-empty bins (`"bins" : { "VALUE_NS" : COUNT, ... }` in `clat_ns`).
pub fn render_plus(scn: &Scenario, rep: &Report) -> String {
    doc_plus(scn, rep).to_text()
}

/// The JSON document (`plus`: json+) with a `sensitivity` object after the jobs when one is
/// given (`--sensitivity`; without it the document is [`render`]'s, byte for byte).
pub fn render_with(
    scn: &Scenario,
    rep: &Report,
    plus: bool,
    sensitivity: Option<serde_json::Value>,
) -> String {
    let mut doc = match plus {
        true => doc_plus(scn, rep),
        false => FioDoc::of(scn, rep),
    };
    doc.sensitivity = sensitivity;
    doc.to_text()
}

fn doc_plus(scn: &Scenario, rep: &Report) -> FioDoc {
    let mut doc = FioDoc::of(scn, rep);
    for (job, b) in doc.jobs.iter_mut().zip(blocks(scn, rep)) {
        for (dir, d) in [(&mut job.read, &b.job.read), (&mut job.write, &b.job.write)] {
            dir.clat_ns.bins = Some(d.clat.buckets().map(|(v, c)| (v.to_string(), c)).collect());
        }
        if !b.job.trim.is_empty() {
            let bins = b.job.trim.clat.buckets().map(|(v, c)| (v.to_string(), c));
            job.trim.clat_ns.bins = Some(bins.collect());
        }
    }
    doc
}

#[cfg(test)]
mod tests;
