//! The sides of "Watch the pipeline": A's watched session and, in an A/B comparison, B's, with
//! what the view draws of them (snapshot, bus strip, a request's life, the charts' data, the
//! summary and the A/B table), read from the sessions in the components' types, and each
//! side's pipeline and bus strip.
//!
//! The clock that moves the sessions is [`crate::watch::clock`]; the component around them, with the
//! time controls and the commands, is [`crate::watch`].

use std::collections::VecDeque;
use std::rc::Rc;

use mmcsim_components::{
    delta_rows, BusTimeline, ChartData, DeltaRow, Focus, LifeView, Pipeline, SideChart,
};
use mmcsim_engine::explain::{compare_summary, effect_summary, Layer};
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::Segment;
use mmcsim_engine::Snapshot;
use mmcsim_engine::{Report, Scenario};
use yew::prelude::*;

use crate::run::session::Session;
use crate::series::readout;
use crate::watch::frames::Staggered;

/// One side: its session and what was last read of it.
pub struct Side {
    pub session: Session,
    /// Where every request is now: the tokens glide towards it.
    pub snap: Rc<Snapshot>,
    /// What the pipeline's counters show: the snapshot of the tokens' glide ago, so a count
    /// changes when the token that causes it arrives, not when it sets off.
    pub shown: Rc<Snapshot>,
    /// The snapshots read in the last glide, with the time each was read at (ms).
    recent: VecDeque<(f64, Rc<Snapshot>)>,
    pub strip: Rc<Vec<Segment>>,
    /// Engine events when the strip was read (it is read again only when events ran).
    strip_events: u64,
    /// Simulated time when the picture was read, ns (the strip's right edge): between two
    /// reads (a seek's frames) the strip is not drawn again.
    read_ns: u64,
    /// The platform preset (names the controller column).
    platform: AttrValue,
    /// What-ifs and options without effect ([`crate::watch::live::side_notes`]), said under
    /// the pipeline.
    notes: AttrValue,
}

impl Side {
    fn new(mut session: Session, platform: &str, scn: &Scenario) -> Side {
        let snap = Rc::new(session.snapshot());
        Side {
            platform: AttrValue::from(platform.to_string()),
            notes: crate::watch::live::side_notes(scn).into(),
            shown: snap.clone(),
            recent: VecDeque::new(),
            snap,
            strip: Rc::new(session.timeline()),
            strip_events: session.events(),
            read_ns: session.now(),
            session,
        }
    }

    /// The side's pipeline, its live readout and its bus strip.
    pub fn view(
        &self,
        side_b: bool,
        p: &Pointing,
        readout: Option<crate::series::Figures>,
        label: &str,
    ) -> Html {
        let name = if side_b { "b" } else { "a" };
        let cfg = self.session.host_config();
        let title = if p.ab {
            // (Not `to_uppercase`: its Unicode tables would be in the landing's wasm.)
            format!("{} · {label}", if side_b { "B" } else { "A" })
        } else {
            label.to_string()
        };
        let selected = match p.selected {
            Some((s, Focus::Request(id))) if s == side_b => Some(id),
            _ => None,
        };
        html! {
            <div class={classes!("side", name)}>
                <Pipeline snap={self.snap.clone()} shown={self.shown.clone()} {cfg} side={name} {title} platform={self.platform.clone()} {selected} focus={p.focus} compact={p.compact} glide={p.glide}
                          on_hover={p.on_hover.clone()} on_select={p.on_select[side_b as usize].clone()} />
                <p class="readout" data-side={name} aria-live="off">
                    if let Some(f) = readout {
                        <span class="done"><b data-readout={format!("{name}.done")}>{ f.requests }</b>{ " done · " }</span>
                        <span class="per-irq"><b data-readout={format!("{name}.per-irq")}>{ readout::per_irq_text(&f) }</b>{ " requests per interrupt" }</span>
                        <span class="busy">{ " · bus busy " }<b data-readout={format!("{name}.bus-busy")}>{ readout::busy_text(&f) }</b></span>
                        if p.show_issued {
                            <span class="issued" title="Who ran ->queue_rq for each request so far: the submitting task (fio), or kblockd's worker (kworker/N:1H). The board's kernel decides (Linux 6.1: kblockd under a scheduler; 6.12: the task).">
                                { " · issued by the task " }<b data-readout={format!("{name}.by-task")}>{ f.by_task }</b>
                                { ", by kblockd " }<b data-readout={format!("{name}.by-kblockd")}>{ f.by_kblockd }</b>
                            </span>
                        }
                    }
                </p>
                <BusTimeline segments={self.strip.clone()} now={self.read_ns} window_ns={p.window_ns} side={name} />
                // Always there (empty: not shown, `:empty` in lesson.css): a branch less in the
                // landing's wasm, at its size bar.
                <p class="side-notes">{ self.notes.clone() }</p>
            </div>
        }
    }

    /// Reads the snapshot at `at_ms`, and the bus strip if events ran since the last read.
    /// The counters show the latest snapshot read `lag_ms` or longer ago (the tokens' glide:
    /// the tokens that set off then have arrived); with no lag, this one.
    fn read(&mut self, at_ms: f64, lag_ms: f64) {
        self.snap = Rc::new(self.session.snapshot());
        self.read_ns = self.session.now();
        self.recent.push_back((at_ms, self.snap.clone()));
        let due = at_ms - lag_ms;
        while self.recent.len() > 1 && self.recent[1].0 <= due {
            self.recent.pop_front();
        }
        if let Some((_, s)) = self.recent.front().filter(|r| r.0 <= due) {
            self.shown = s.clone();
        }
        if self.session.events() != self.strip_events {
            self.strip = Rc::new(self.session.timeline());
            self.strip_events = self.session.events();
        }
    }
}

/// A, and B of an A/B comparison.
pub struct Sides {
    pub a: Side,
    pub b: Option<Side>,
}

/// What the charts, the summary and the A/B table show of the sides, refreshed about twice a
/// second while playing.
#[derive(Default)]
pub struct Figures {
    pub charts: Staggered<ChartData, 5>,
    pub summary: Rc<Vec<String>>,
    pub deltas: Rc<Vec<DeltaRow>>,
    /// What to watch for in the scenario (set when the sides start).
    pub hints: Rc<Vec<String>>,
    /// The sides' reports so far (A, B): the page's results table shows the same run.
    pub reports: Option<(Rc<Report>, Option<Rc<Report>>)>,
    /// A's throughput series (the page's chart).
    pub series: Rc<Vec<SeriesPoint>>,
    /// Requests per interrupt and bus busy so far, per side (the readout under each pipeline).
    pub readout: [Option<crate::series::Figures>; 2],
}

/// What both sides' pipelines share: the selection, the column in focus, the strip's window
/// and where the pointer's hover and clicks go (kept callbacks: the pipelines' memoised parts
/// compare them).
pub struct Pointing<'a> {
    /// B is shown beside A (the titles say which is which).
    pub ab: bool,
    /// (side B?, focus) clicked or chosen by a command.
    pub selected: Option<(bool, Focus)>,
    pub focus: Option<Layer>,
    pub window_ns: u64,
    /// The pipelines' compact variant (the landing's pair).
    pub compact: bool,
    /// Tokens glide between stages (slow speeds).
    pub glide: bool,
    pub on_hover: &'a Callback<Option<Layer>>,
    pub on_select: &'a [Callback<Focus>; 2],
    /// The readouts say who issued the requests: kblockd issued some, or the sides run
    /// different kernels.
    pub show_issued: bool,
}

impl Sides {
    /// Watched sessions of A and B at time zero, or A's refusal. B's refusal leaves B out and
    /// is returned beside A (A still plays).
    pub fn start(a: &Scenario, b: Option<&Scenario>) -> Result<(Sides, Option<String>), String> {
        let platform = a.platform.clone();
        let a = Side::new(Session::watched(a).map_err(|e| e.message)?, &platform, a);
        Ok(match b.map(|b| (b, Session::watched(b))) {
            None => (Sides { a, b: None }, None),
            Some((b_scn, Ok(b))) => (
                Sides {
                    a,
                    b: Some(Side::new(b, &platform, b_scn)),
                },
                None,
            ),
            Some((_, Err(e))) => (Sides { a, b: None }, Some(e.message)),
        })
    }

    /// The side labels: each side's host switches, with every switch that differs between A
    /// and B ([`crate::watch::live::host_labels`]).
    /// Each ends with the side's kernel ("Linux 6.12"), which sets the block layer's rules.
    pub fn labels(&self) -> (String, String) {
        let a = self.a.session.host_config();
        let (la, lb) = match &self.b {
            Some(b) => crate::watch::live::host_labels(&a, &b.session.host_config()),
            None => (crate::watch::live::host_label(&a), String::new()),
        };
        let lb = match &self.b {
            Some(b) => format!("{lb} · {}", b.session.kernel_label()),
            None => lb,
        };
        (format!("{la} · {}", self.a.session.kernel_label()), lb)
    }

    /// A and B run different kernels (their block layers' rules may differ).
    pub fn kernels_differ(&self) -> bool {
        self.b
            .as_ref()
            .is_some_and(|b| b.session.kernel_label() != self.a.session.kernel_label())
    }

    /// Whether a side's counters still lag behind its tokens.
    pub fn behind(&self) -> bool {
        let behind = |s: &Side| !Rc::ptr_eq(&s.shown, &s.snap);
        behind(&self.a) || self.b.as_ref().is_some_and(behind)
    }

    /// The tokens have arrived (paused): the counters show where they are.
    pub fn settle(&mut self) {
        for s in std::iter::once(&mut self.a).chain(self.b.as_mut()) {
            s.shown = s.snap.clone();
            s.recent.clear();
        }
    }

    /// The sessions' trace on or off ([`Session::set_traced`]).
    pub fn set_traced(&mut self, on: bool) {
        self.a.session.set_traced(on);
        if let Some(b) = self.b.as_mut() {
            b.session.set_traced(on);
        }
    }

    /// The sessions, for the clock.
    pub fn sessions(&mut self) -> (&mut Session, Option<&mut Session>) {
        (&mut self.a.session, self.b.as_mut().map(|b| &mut b.session))
    }

    /// The later side's simulated time, ns.
    pub fn latest_ns(&self) -> u64 {
        let b = self.b.as_ref().map_or(0, |b| b.session.now());
        self.a.session.now().max(b)
    }

    /// How far the pair has run, 0 to 1: the slower side's progress (a side that finished
    /// early does not make the pair look done).
    pub fn progress(&self) -> f64 {
        let b = self.b.as_ref().map_or(1.0, |b| b.session.progress());
        self.a.session.progress().min(b)
    }

    pub fn finished(&self) -> bool {
        self.a.session.is_finished() && self.b.as_ref().is_none_or(|b| b.session.is_finished())
    }

    /// Reads what is drawn every frame, at `at_ms`; the counters lag `lag_ms` behind (see
    /// [`Side::read`]).
    pub fn read(&mut self, at_ms: f64, lag_ms: f64) {
        self.a.read(at_ms, lag_ms);
        if let Some(b) = self.b.as_mut() {
            b.read(at_ms, lag_ms);
        }
    }

    /// The selected request's life so far on side A or B (None when no request is selected or
    /// its trace is no longer kept, or it began untraced: [`Session::set_traced`]).
    pub fn life(&self, selected: Option<(bool, Focus)>) -> Option<Rc<LifeView>> {
        let Some((side_b, Focus::Request(id))) = selected else {
            return None;
        };
        let s = if side_b {
            &self.b.as_ref()?.session
        } else {
            &self.a.session
        };
        LifeView::from_trace(id, s.trace_of(id)?, s.now()).map(Rc::new)
    }

    /// Why the selected request has no life to show, when it is not that its trace is no
    /// longer kept: a side B the view does not have, or an id the run has not made (yet).
    pub fn life_absent(&self, selected: Option<(bool, Focus)>) -> Option<String> {
        let Some((side_b, Focus::Request(id))) = selected else {
            return None;
        };
        let s = if side_b {
            self.b.as_ref().map(|b| &b.session)
        } else {
            Some(&self.a.session)
        };
        absent_text(id, s.map(|s| (s.requests_made(), s.is_finished())))
    }

    /// Fresh chart data (see [`Staggered::refresh`]), the engine's summary of A and the A/B
    /// table, at `now_ms`.
    pub fn refresh(&self, f: &mut Figures, now_ms: f64, stagger: bool) {
        let (a, b) = (&self.a.session, self.b.as_ref().map(|b| &b.session));
        let ra = a.report();
        let rb = b.map(Session::report);
        let charts = ChartData {
            a: SideChart::of(a.series(), &ra),
            b: b.zip(rb.as_ref())
                .map(|(b, r)| SideChart::of(b.series(), r)),
        };
        f.charts.refresh(charts, now_ms, stagger);
        let mut summary = effect_summary(&ra, &a.host_config());
        if let Some(rb) = &rb {
            summary.extend(compare_summary(&ra, rb));
        }
        f.summary = Rc::new(summary);
        f.deltas = Rc::new(
            rb.as_ref()
                .map(|rb| delta_rows(&ra, rb))
                .unwrap_or_default(),
        );
        let live =
            |r: &Report| (r.sim.simulated_ns > 0).then(|| crate::series::Figures::of(r, None));
        f.readout = [Some(&ra).and_then(live), rb.as_ref().and_then(live)];
        f.series = Rc::new(a.series());
        f.reports = Some((Rc::new(ra), rb.map(Rc::new)));
    }
}

/// What the request panel says of request `id` with no life to show, from its side's requests
/// made so far and whether its run is over (None: a side B the view does not have); None when
/// the request was made (its trace is no longer kept).
pub fn absent_text(id: u64, side: Option<(u64, bool)>) -> Option<String> {
    match side {
        None => Some(format!(
            "This view has no side B, so there is no request b:{id}; accepted: a:ID, a request of A (or a link with compare=1 for a B)."
        )),
        Some((made, _)) if id < made => None,
        Some((0, true)) => Some("The run made no request.".to_string()),
        Some((made, true)) => Some(format!(
            "The run made requests 0 to {}: there is no request {id}; accepted: one of those (or click a request in the pipeline).",
            made - 1
        )),
        Some((made, false)) => Some(format!(
            "It has not entered the pipeline yet: the run has made {made} requests so far; its life shows once it does."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::absent_text;

    /// Issue 48 item 9: `?focus=b:99999999999` said the request's trace "began too long ago".
    #[test]
    fn a_request_the_run_never_made_is_said_so() {
        assert_eq!(
            absent_text(99_999_999_999, None).as_deref(),
            Some("This view has no side B, so there is no request b:99999999999; accepted: a:ID, a request of A (or a link with compare=1 for a B).")
        );
        assert_eq!(
            absent_text(99_999_999_999, Some((4096, true))).as_deref(),
            Some("The run made requests 0 to 4095: there is no request 99999999999; accepted: one of those (or click a request in the pipeline).")
        );
        assert!(absent_text(5000, Some((4096, false))).unwrap().starts_with(
            "It has not entered the pipeline yet: the run has made 4096 requests so far"
        ));
        assert_eq!(absent_text(7, Some((4096, true))), None);
    }
}
