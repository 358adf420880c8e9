//! The messages between the page and its workers (`worker/`): a sweep point (its scenario as
//! link text) or a fit (the fio JSON files' texts) in, the point's figures or the fit's report
//! out, each as JSON text. [`handle`] is the whole of a worker's work, testable natively.

use crate::{fit_reporting, read_case, render, Figure};
use mmcsim_engine::scenario::board::param;
use mmcsim_engine::scenario::board_file::to_toml;
use mmcsim_engine::scenario::sweep::{PointJob, Row};
use mmcsim_engine::scenario::url::encode_query;
use serde::{Deserialize, Serialize};

/// Iterations a fit in the page may take (as `mmcsim fit --max_iters`).
pub const PAGE_FIT_ITERS: u64 = 200;

/// Work for a worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Job {
    Point(PointJob),
    Fit(FitJob),
    /// One run of a sensitivity check: the scenario as a link's query, answered with its whole
    /// report (`Reply::Report`).
    Report(String),
}

/// `mmcsim fit` as a message: the result files (name, text), the base preset and the free
/// parameters (empty: the default set).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FitJob {
    pub files: Vec<(String, String)>,
    pub platform: Option<String>,
    pub names: Vec<String>,
}

/// A job tagged with the sender's id, so replies find their request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub job: Job,
}

/// What a worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has loaded and takes jobs (sent once, id 0).
    Ready,
    Row(Row),
    Fit(Box<FitReply>),
    Report(Box<mmcsim_engine::Report>),
    /// A fit under way: its `fit`-th fit of `of` has started (the fit to every file, then one
    /// per file left out). The job goes on; its `Fit` or `Error` ends it.
    Progress {
        fit: usize,
        of: usize,
    },
    Error(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub id: u64,
    pub reply: Reply,
}

/// One fitted parameter: preset and fitted values as text in the parameter's unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitParam {
    pub name: String,
    pub unit: String,
    pub preset: String,
    pub fitted: String,
    /// Fitted / preset - 1, percent.
    pub change_pct: f64,
}

/// One measured figure of one case: measured, simulated on the preset and on the fitted board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitRow {
    pub file: String,
    pub figure: String,
    pub measured: f64,
    pub preset: f64,
    pub fitted: f64,
}

/// A finished fit, for the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitReply {
    pub platform: String,
    pub params: Vec<FitParam>,
    pub rows: Vec<FitRow>,
    pub rms: f64,
    pub preset_rms: f64,
    pub iterations: u64,
    /// The trust warnings (empty: trusted).
    pub warnings: Vec<String>,
    /// Each result file left out of the fit and predicted by a fit to the others; empty with
    /// fewer than 3 files (cross-validation cannot judge; then `warnings` says so).
    #[serde(default)]
    pub left_out: Vec<FitLeftOut>,
    /// The parameters the results do not constrain, left at the preset.
    #[serde(default)]
    pub unconstrained: Vec<String>,
    /// What the reader should know that does not bear on trust (the base preset chosen), in
    /// the page's words.
    #[serde(default)]
    pub notes: Vec<String>,
    /// The fitted board as a link's query (platform and overrides).
    pub query: String,
    /// The fitted board as a platform file (`--platform_file`).
    pub toml: String,
    /// `mmcsim fit`'s report, as the CLI prints it.
    pub text: String,
}

/// One result file left out of the fit: its worst figure, measured and predicted by a fit to
/// the other files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitLeftOut {
    pub file: String,
    pub figure: String,
    pub measured: f64,
    pub predicted: f64,
    /// Whether the prediction is within its figure's tolerance ([`Figure::tolerance`]).
    #[serde(default)]
    pub within: bool,
}

fn label(f: Figure) -> &'static str {
    f.label()
}

/// The CLI's words in a fit's messages and the page's for them: the page has no options to
/// type, it has files to open and fields to fill.
const PAGE_WORDS: [(&str, &str); 5] = [
    (
        "give more results or fewer --fit= parameters",
        "open more result files or name fewer parameters to fit",
    ),
    (
        "; say --platform= to choose",
        "; choose another platform in the Lab to fit on it",
    ),
    (
        "(fewer RESULTS files, a lower --max_iters or --fit_runtime)",
        "(open fewer or shorter result files)",
    ),
    (
        "(run fio with --output-format=json)",
        "(run fio with --output-format=json and open its output)",
    ),
    (
        "e.g. --fit=nand_read_us,bus_mb_s",
        "e.g. nand_read_us, bus_mb_s",
    ),
];

/// A fit's message in the page's words ([`PAGE_WORDS`]).
pub fn page_words(text: &str) -> String {
    PAGE_WORDS
        .iter()
        .fold(text.to_string(), |t, (cli, page)| t.replace(cli, page))
}

/// Runs `job` as `mmcsim fit` would.
pub fn run_fit(job: &FitJob) -> Result<FitReply, String> {
    run_fit_reporting(job, &mut |_, _| {})
}

/// [`run_fit`], telling `on_fit(k, n)` as its k-th fit of n starts; messages in the page's
/// words ([`page_words`]).
pub fn run_fit_reporting(
    job: &FitJob,
    on_fit: &mut dyn FnMut(usize, usize),
) -> Result<FitReply, String> {
    let cases = job
        .files
        .iter()
        .map(|(name, text)| read_case(name, text, None))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| page_words(&e))?;
    let f = fit_reporting(
        &cases,
        job.platform.as_deref(),
        &job.names,
        PAGE_FIT_ITERS,
        on_fit,
        &crate::Watch::new(),
    )
    .map_err(|e| page_words(&e))?;
    let preset = f
        .preset_board
        .effective_platform()
        .map_err(|e| e.to_string())?;
    let eff = f.board.effective_platform().map_err(|e| e.to_string())?;
    let params = f
        .names
        .iter()
        .filter_map(|name| {
            let (_, p) = param(name)?;
            let (a, b) = match *name {
                "bus_mb_s" => (preset.bus.bytes_per_sec(), eff.bus.bytes_per_sec()),
                _ => ((p.get)(&preset), (p.get)(&eff)),
            };
            Some(FitParam {
                name: name.to_string(),
                unit: p.unit.label().to_string(),
                preset: p.unit.format(a),
                fitted: p.unit.format(b),
                change_pct: (b as f64 / (a as f64).max(1e-9) - 1.0) * 100.0,
            })
        })
        .collect();
    Ok(FitReply {
        platform: f.board.platform.clone(),
        params,
        rows: f
            .rows
            .iter()
            .map(|(file, fig, m, p, s)| FitRow {
                file: file.clone(),
                figure: label(*fig).to_string(),
                measured: *m,
                preset: *p,
                fitted: *s,
            })
            .collect(),
        rms: f.rms,
        preset_rms: f.preset_rms,
        iterations: f.iterations,
        warnings: f.warnings.iter().map(|w| page_words(w)).collect(),
        notes: f.notes.iter().map(|n| page_words(n)).collect(),
        left_out: f
            .left_out
            .iter()
            .flatten()
            .map(|l| FitLeftOut {
                file: l.file.clone(),
                figure: label(l.figure).to_string(),
                measured: l.measured,
                predicted: l.predicted,
                within: l.within(),
            })
            .collect(),
        unconstrained: f.unconstrained.iter().map(|s| s.to_string()).collect(),
        query: encode_query(&f.board, None),
        toml: to_toml(&f.board).map_err(|e| e.to_string())?,
        text: render(&f, &cases),
    })
}

/// A worker's whole work: a [`Request`]'s JSON text in, a [`Response`]'s JSON text out.
pub fn handle(text: &str) -> String {
    let mut last = String::new();
    handle_each(text, &mut |r| last = r);
    last
}

/// A worker's whole work, each message as it comes: a fit's [`Reply::Progress`] as each of
/// its fits starts, then the job's last [`Response`] (JSON text each).
pub fn handle_each(text: &str, post: &mut dyn FnMut(String)) {
    let response = |id, reply| serde_json::to_string(&Response { id, reply }).unwrap_or_default();
    let (id, reply) = match serde_json::from_str::<Request>(text) {
        Err(e) => (0, Reply::Error(format!("worker: not a job: {e}"))),
        Ok(r) => (
            r.id,
            match r.job {
                Job::Point(p) => p.run().map_or_else(Reply::Error, Reply::Row),
                Job::Report(q) => mmcsim_engine::tools::sensitivity::run_query(&q)
                    .map_or_else(Reply::Error, |r| Reply::Report(Box::new(r))),
                Job::Fit(f) => {
                    // The page counts the fits (1..=of), not the base's evaluation (0).
                    let mut on_fit = |fit, of| {
                        if fit > 0 {
                            post(response(r.id, Reply::Progress { fit, of }))
                        }
                    };
                    run_fit_reporting(&f, &mut on_fit)
                        .map_or_else(Reply::Error, |f| Reply::Fit(Box::new(f)))
                }
            },
        ),
    };
    post(response(id, reply));
}

/// The message a worker sends once it has loaded.
pub fn ready() -> String {
    serde_json::to_string(&Response {
        id: 0,
        reply: Reply::Ready,
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::scenario::options::parse_args;
    use mmcsim_engine::{Scenario, Simulator};

    fn ask(job: Job) -> Response {
        ask_each(job).pop().unwrap()
    }

    /// Every message the worker posts for `job`.
    fn ask_each(job: Job) -> Vec<Response> {
        let text = serde_json::to_string(&Request { id: 5, job }).unwrap();
        let mut out = Vec::new();
        handle_each(&text, &mut |r| out.push(serde_json::from_str(&r).unwrap()));
        out
    }

    #[test]
    fn the_page_reads_no_command_line_options_in_a_fits_messages() {
        let cli = "untrustworthy: 3 measured figure(s) for 4 parameter(s); give more results or fewer --fit= parameters";
        assert_eq!(
            page_words(cli),
            "untrustworthy: 3 measured figure(s) for 4 parameter(s); open more result files or name fewer parameters to fit"
        );
        let e = ask(Job::Fit(FitJob {
            files: vec![("bad.json".into(), "{}".into())],
            platform: None,
            names: vec![],
        }));
        let Reply::Error(e) = e.reply else {
            panic!("{e:?}")
        };
        assert!(e.contains("bad.json") && !e.contains("RESULTS"), "{e}");
    }

    #[test]
    fn a_point_comes_back_with_its_figures_and_a_bad_job_with_a_message() {
        let s = parse_args(
            &["--platform=unisoc-hsq-2023", "--rw=randread", "--size=2m"],
            Scenario::default(),
        )
        .unwrap();
        let r = ask(Job::Point(PointJob::of(1, vec!["x".into()], &s)));
        assert_eq!(r.id, 5);
        let Reply::Row(row) = r.reply else {
            panic!("{r:?}")
        };
        let mut sim = Simulator::new(&s).unwrap();
        sim.run_to_end();
        assert_eq!(row, Row::of(1, vec!["x".into()], &sim.report()));
        let bad: Response = serde_json::from_str(&handle("{\"id\":1}")).unwrap();
        assert!(matches!(bad.reply, Reply::Error(e) if e.contains("not a job")));
    }

    #[test]
    fn a_sensitivity_run_comes_back_as_the_whole_report() {
        let s = parse_args(&["--rw=randwrite", "--size=1m"], Scenario::default()).unwrap();
        let r = ask(Job::Report(encode_query(&s, None)));
        let Reply::Report(rep) = r.reply else {
            panic!("{r:?}")
        };
        let mut sim = Simulator::new(&s).unwrap();
        sim.run_to_end();
        assert_eq!(
            rep.jobs[0].write.total_ios,
            sim.report().jobs[0].write.total_ios
        );
    }

    fn f_warnings_are_page_words(r: &Reply) -> bool {
        matches!(r, Reply::Fit(f) if f.warnings.iter().chain(&f.notes).all(|w| !w.contains(" --")))
    }

    #[test]
    fn a_fit_job_fits_one_perturbed_parameter_back() {
        let files: Vec<(String, String)> = [
            &["--rw=randread", "--size=4m"][..],
            &["--rw=randread", "--numjobs=4", "--size=2m"][..],
        ]
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let args = [
                &[
                    "--platform=unisoc-hsq-2023",
                    "--nand_read_us=90",
                    "--group_reporting",
                ][..],
                w,
            ]
            .concat();
            let s = parse_args(&args, Scenario::default()).unwrap();
            let mut sim = Simulator::new(&s).unwrap();
            sim.run_to_end();
            (
                format!("r{i}.json"),
                mmcsim_engine::export::fio_json(&s, &sim.report()),
            )
        })
        .collect();
        let mut all = ask_each(Job::Fit(FitJob {
            files,
            platform: Some("unisoc-hsq-2023".into()),
            names: vec!["nand_read_us".into()],
        }));
        // Two files, so one fit (no cross-validation): the page hears "fit 1 of 1" first.
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].reply, Reply::Progress { fit: 1, of: 1 });
        let r = all.pop().unwrap();
        assert!(f_warnings_are_page_words(&r.reply));
        let Reply::Fit(f) = r.reply else {
            panic!("{r:?}")
        };
        let v: f64 = f.params[0].fitted.parse().unwrap();
        assert!((v / 90.0 - 1.0).abs() < 0.05, "{v}");
        assert!(f.query.contains("nand_read_us="), "{}", f.query);
        assert!(f.toml.contains("nand_read_us"), "{}", f.toml);
        assert_eq!(f.rows.len(), 6);
        // Two files: no left-out predictions, so not trusted, and the page is told why.
        assert!(f.left_out.is_empty());
        assert!(
            f.warnings
                .iter()
                .any(|w| w.contains("cross-validation needs at least 3")),
            "{:?}",
            f.warnings
        );
        assert!(f.text.contains("verdict: not trusted"), "{}", f.text);
        // The reply's new fields may be absent in an older worker's message.
        let mut v: serde_json::Value = serde_json::to_value(&*f).unwrap();
        v.as_object_mut().unwrap().remove("left_out");
        v.as_object_mut().unwrap().remove("unconstrained");
        let old: FitReply = serde_json::from_value(v).unwrap();
        assert!(old.left_out.is_empty() && old.unconstrained.is_empty());
    }
}
