//! How the Watch drives its sides: building them, the commands of the page, play, pause,
//! speed, seeking, and each animation frame (the clock's slice, then what to draw).

use super::*;
use crate::watch::frames::SEEK_SHOW_EVERY_MS;

impl Watch {
    pub(super) fn build(&mut self, ctx: &Context<Self>) {
        let p = ctx.props();
        self.frame = None;
        self.run.restart();
        self.selected = None;
        self.life = None;
        self.life_absent = None;
        (self.sides, self.error, self.b_error) = match Sides::start(&p.a, p.b.as_ref()) {
            Ok((s, b_err)) => (Some(s), None, b_err.map(|e| format!("B: {e}").into())),
            Err(e) => (None, Some(e), None),
        };
        self.figures.hints = Rc::new(match &self.sides {
            Some(s) => live::watch_hints(&p.a, &s.a.session.host_config()),
            None => Vec::new(),
        });
        self.refresh_charts(false);
    }

    /// Whether tokens glide from stage to stage (CSS transition of [`GLIDE_MS`]): at 1 ms/s
    /// and slower, unless the reader asked for reduced motion. Faster, tokens move nearly
    /// every frame: gliding would only repaint the view.
    pub(super) fn glides(&self) -> bool {
        !self.reduced_motion && self.run.clock.rate_ns().is_some_and(|r| r <= 1_000_000)
    }

    /// How long the pipeline's counters lag behind the tokens' targets, ms: the glide, so a
    /// count changes when its token arrives.
    pub(super) fn counter_lag_ms(&self) -> f64 {
        if self.glides() {
            GLIDE_MS
        } else {
            0.0
        }
    }

    /// Reads the snapshots (at `at_ms`, a frame's timestamp or now), the strips and the
    /// selected request's life.
    pub(super) fn refresh_views(&mut self, at_ms: f64) {
        let lag = self.counter_lag_ms();
        let Some(sides) = self.sides.as_mut() else {
            return;
        };
        sides.read(at_ms, lag);
        self.life = sides.life(self.selected);
        self.life_absent = sides.life_absent(self.selected).map(AttrValue::from);
    }

    /// New chart data, summary and A/B table. While playing, the four charts take the new
    /// data one per frame (each redraw is a whole canvas); otherwise all at once.
    pub(super) fn refresh_charts(&mut self, stagger: bool) {
        if let Some(s) = &self.sides {
            s.refresh(&mut self.figures, now_ms(), stagger);
        }
    }

    /// Tells the page how the run stands (its results, chart and progress show it).
    pub(super) fn report(&mut self, ctx: &Context<Self>) {
        let Some(s) = &self.sides else { return };
        self.run.seen_ns = self.run.seen_ns.max(s.latest_ns());
        let Some((a, b)) = self.figures.reports.clone() else {
            return;
        };
        ctx.props().on_run.emit(RunState {
            a,
            b,
            series: self.figures.series.clone(),
            // The shared clock: the later side's time (a side that ended early stops its own).
            now_ns: s.latest_ns(),
            progress: s.progress(),
            playing: self.run.playing,
            finished: self.finished(),
            deltas: self.figures.deltas.clone(),
        });
    }

    /// Goes to simulated time `t` (re-simulating from zero when `t` is past: the engine is
    /// deterministic, so the same moment comes back), then pauses there.
    pub(super) fn seek(&mut self, ctx: &Context<Self>, t: Option<u64>) {
        if let (Some(t), Some(s)) = (t, &self.sides) {
            if s.latest_ns() > t {
                let seen = self.run.seen_ns;
                let history = std::mem::take(&mut self.run.history);
                self.build(ctx);
                self.run.seen_ns = seen;
                self.run.history = history;
            }
        }
        if self.sides.is_some() {
            self.run.seek(t);
            self.schedule(ctx);
            // The page knows at once that the run goes on (its Stop, its plug).
            self.report(ctx);
        }
    }

    /// The link to what the view shows now.
    pub(super) fn moment_link(&self, ctx: &Context<Self>) -> String {
        let p = ctx.props();
        let m = crate::watch::moment::Moment {
            t: self.sides.as_ref().map(Sides::latest_ns),
            // The derived speed is derived again from the link's scenario: no key for it.
            speed: self
                .run
                .clock
                .following()
                .is_none()
                .then(|| self.run.clock.speed()),
            paused: !self.run.playing,
            focus: self.selected.map(|(b, f)| match f {
                Focus::Request(id) => Target::Request { b, id },
                Focus::Layer(l) => Target::Layer(l),
                _ => Target::Layer(Layer::Bus),
            }),
            ..Default::default()
        };
        let w = web_sys::window();
        let origin = w
            .as_ref()
            .and_then(|w| w.location().href().ok())
            .map(|h| h.split(['?', '#']).next().unwrap_or_default().to_string())
            .unwrap_or_default();
        format!("{origin}?{}", crate::watch::moment::join(&p.link_base, &m))
    }

    pub(super) fn finished(&self) -> bool {
        self.sides.as_ref().is_none_or(Sides::finished)
    }

    pub(super) fn schedule(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ts| {
            link.send_message(Msg::Frame(ts))
        }));
    }

    /// The first play of a scenario whose speed nobody chose: the speed at which one request
    /// can be followed, derived from a look-ahead run of the scenario ([`crate::watch::follow`]).
    pub(super) fn first_play_speed(&mut self, ctx: &Context<Self>) {
        if self.run.speed_chosen || self.run.clock.following().is_some() {
            return;
        }
        let p = ctx.props();
        if let Some(f) = crate::watch::follow::follow_speed(&p.a, p.b.as_ref()) {
            self.run.clock.set_follow(f.sim_ns_per_s);
            self.follow_note = Some(f.note().into());
        }
    }

    /// Starts the frames (a finished run starts again from time zero first).
    pub(super) fn play(&mut self, ctx: &Context<Self>) {
        self.first_play_speed(ctx);
        if self.finished() {
            self.build(ctx);
        }
        if self.sides.is_some() {
            self.run.play();
            self.schedule(ctx);
            self.report(ctx);
        }
    }

    /// A new speed (the reader's, a link's or a tour's); timed speeds continue from where the
    /// sides are.
    pub(super) fn set_speed(&mut self, i: usize) {
        self.run.choose_speed(i);
        if let Some(s) = self.sides.as_mut() {
            let (a, b) = s.sessions();
            self.run.clock.follow(a, b.as_deref());
        }
    }

    /// Stops the frames; the trace is on again (a Run stopped on its way), and a seek stopped
    /// on its way reads the picture again (its frames draw it only now and then; a play's last
    /// frame drew it, and its counters stay as they were, lagging their tokens).
    pub(super) fn pause(&mut self) {
        let seeking = self.run.clock.seeking().is_some();
        self.run.pause();
        if let Some(s) = self.sides.as_mut() {
            s.set_traced(true);
        }
        self.frame = None;
        if seeking {
            self.refresh_views(now_ms());
        }
        self.refresh_charts(false);
    }

    /// Acts on the page's command, once per `seq`. `at_creation`: the command the Watch was
    /// created with, acted on a task later; the page opens where the reader is (no scroll).
    pub(super) fn command(&mut self, ctx: &Context<Self>, at_creation: bool) {
        let Some(c) = ctx.props().command.filter(|c| self.run.take_command(c.seq)) else {
            return;
        };
        // The reader follows the walk-through to the view it acts on.
        if let Some(el) = self
            .node
            .cast::<web_sys::Element>()
            .filter(|_| c.follow && !at_creation)
        {
            el.scroll_into_view();
        }
        match c.action {
            WatchAction::Play(speed) => {
                if let Some(i) = speed {
                    self.set_speed(i);
                }
                if !self.run.playing {
                    self.play(ctx);
                }
            }
            WatchAction::Pause if self.run.playing => {
                self.pause();
                self.report(ctx);
            }
            WatchAction::Pause => {}
            WatchAction::Speed(i) => self.set_speed(i),
            WatchAction::Seek(t) => self.seek(ctx, t),
            WatchAction::Moment {
                t,
                speed,
                play,
                focus,
            } => {
                if let Some(i) = speed {
                    self.set_speed(i);
                }
                match t {
                    Some(t) => {
                        if play {
                            self.first_play_speed(ctx);
                        }
                        self.seek(ctx, Some(t));
                        self.run.play_after_seek = play;
                    }
                    None if play => self.play(ctx),
                    None => {}
                }
                self.selected = focus.map(|t| match t {
                    Target::Layer(l) => (false, Focus::Layer(l)),
                    Target::Request { b, id } => (b, Focus::Request(id)),
                });
                self.refresh_views(now_ms());
            }
            WatchAction::PlayFromStart { speed, until } => {
                if let Some(i) = speed {
                    self.set_speed(i);
                }
                self.first_play_speed(ctx);
                self.seek(ctx, Some(0));
                self.run.play_after_seek = true;
                self.run.clock.stop_at(until);
            }
            WatchAction::PullPlug => self.pull_plug(ctx),
            WatchAction::Focus(target) => {
                self.selected = target.map(|t| match t {
                    Target::Layer(l) => (false, Focus::Layer(l)),
                    Target::Request { b, id } => (b, Focus::Request(id)),
                });
                self.refresh_views(now_ms());
            }
        }
    }

    /// Whether this frame runs to the end with no request followed: nobody sees the requests'
    /// lives on the way and recording them costs the engine more than the run, so the trace is
    /// off; it is on again (whole lives only) once the seek ends or stops.
    fn untraced(&self) -> bool {
        self.run.clock.seeking() == Some(None)
            && !matches!(self.selected, Some((_, Focus::Request(_))))
    }

    /// One animation frame while playing (or seeking).
    pub(super) fn on_frame(&mut self, ctx: &Context<Self>, ts: f64) {
        let traced = !self.untraced();
        let Some(sides) = self.sides.as_mut() else {
            return;
        };
        sides.set_traced(traced);
        // A frame that draws a chart (and refreshes the page's results) draws more: the
        // engine's share is what the last such frame left.
        let t0 = now_ms();
        let seeking = self.run.clock.seeking().is_some();
        // While seeking, a frame that draws the picture again every SEEK_SHOW_EVERY_MS.
        let chart = if seeking {
            self.figures.charts.due_after(t0, SEEK_SHOW_EVERY_MS)
        } else {
            self.figures.charts.pending() || self.figures.charts.due(t0)
        };
        self.run.frames.begin(t0, chart);
        let (a, b) = sides.sessions();
        let draw_ms = self.run.frames.last_draw_ms(chart);
        let arrived = self.run.clock.frame(ts, draw_ms, a, b, now_ms);
        let t1 = now_ms();
        let done = self.finished();
        if !self.untraced() {
            if let Some(s) = self.sides.as_mut() {
                s.set_traced(true);
            }
        }
        if seeking && !arrived && !done {
            self.seek_frame(ctx, ts, t1, chart);
            return;
        }
        // As fast as possible, a frame that draws a chart keeps the picture of the last one
        // (it changes every frame anyway): the chart and the engine fill it.
        let keep_picture = chart
            && self.run.clock.rate_ns().is_none()
            && self.run.clock.seeking().is_none()
            && !done;
        if !keep_picture {
            // The frame's timestamp: the tokens' transitions started this frame start at it.
            self.refresh_views(ts);
        }
        let mut fresh = true;
        if done || arrived {
            self.refresh_charts(false);
        } else if !self.figures.charts.feed() && self.figures.charts.due(now_ms()) {
            self.refresh_charts(true);
        } else {
            fresh = false;
        }
        self.run.frames.advanced(t1, now_ms());
        match self.run.after_frame(arrived, done) {
            AfterFrame::PlayOn => {
                let (a, b) = self.sides.as_mut().map(Sides::sessions).expect("sides");
                self.run.clock.follow(a, b.as_deref());
                self.schedule(ctx);
            }
            AfterFrame::Stop => {}
            AfterFrame::Next => self.schedule(ctx),
        }
        if fresh {
            self.report(ctx);
        }
    }

    /// A frame on the way of a seek (Run to the end, a moment, the scrubber): nobody watches
    /// these frames, so the picture, the charts and the page's results are read and drawn again
    /// only every [`SEEK_SHOW_EVERY_MS`] (the time controls say how far the run got every
    /// frame); the engine had most of the frame ([`crate::watch::clock::SEEK_SLICE_MS`]).
    /// `show`: this frame draws them.
    fn seek_frame(&mut self, ctx: &Context<Self>, ts: f64, t1: f64, show: bool) {
        if show {
            self.refresh_views(ts);
            self.refresh_charts(false);
        }
        self.run.frames.advanced(t1, now_ms());
        self.schedule(ctx);
        if show {
            self.report(ctx);
        }
    }

    /// B's control as entered: B's host switches (its board stays as it is), or the error at
    /// the control. The kernel, a board parameter among the host's controls, goes to B's board
    /// as the Board panel's B side would send it.
    pub(super) fn b_control(&mut self, ctx: &Context<Self>, name: &str, text: &str) {
        let p = ctx.props();
        if mmcsim_engine::scenario::board::param(name).is_some() {
            p.on_board_b.emit((name.to_string(), text.to_string()));
            return;
        }
        let base = p.b.clone().unwrap_or_else(|| p.a.clone());
        match bridge::apply_control(&base, name, text) {
            Ok(next) => {
                self.b_error = None;
                p.on_b.emit(Some(next.switch_overrides()));
            }
            Err(e) => self.b_error = Some(format!("B: {e}").into()),
        }
    }
}
