//! What the page does with its messages: each panel's edits reach the state the panels share
//! ([`Pair`], the tour), the Lab's form hears what concerns it ([`FormCmd`]), then the URL
//! follows.

use std::rc::Rc;

use mmcsim_engine::Scenario;
use yew::prelude::*;

use super::app::{App, Msg};
use crate::gallery::StepAction;
use crate::lab::FormCmd;
use crate::lesson::state::{Effect, TourState};
use crate::run::engine_bridge as bridge;
use crate::run::pair::Pair;
use crate::run::url::{anchor, scroll_to, url_search};
use crate::watch::command::WatchAction;
use crate::watch::{moment, RunState};

impl App {
    /// One message; true when the page is drawn again.
    pub(super) fn handle(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::LabReady(lab) => {
                self.lab = Some(lab);
                false
            }
            Msg::ShowRest => {
                self.rest_shown = true;
                if self.use_url {
                    // The page is drawn after the browser looked for the anchor (which may be
                    // in what follows the lesson: #lab): go there once it is drawn.
                    if let Some(id) = anchor() {
                        let go = move || scroll_to(&id);
                        gloo::timers::callback::Timeout::new(0, go).forget();
                    }
                }
                true
            }
            Msg::Control(name, text, job) => {
                match bridge::apply_control_in(&self.pair.a, job, &name, &text) {
                    Ok(next) => {
                        self.pair.a = next;
                        self.form(FormCmd::Accepted(name, Rc::new(self.pair.a.clone())));
                        self.sync_url(false);
                    }
                    Err(message) => self.form(FormCmd::Rejected(name, text, message)),
                }
                true
            }
            Msg::Run => self.run(),
            Msg::Stop => self.send(WatchAction::Pause),
            Msg::RunState(r) => self.run_state(r),
            Msg::B(b) => {
                if b.is_none() {
                    self.form(FormCmd::CompareOff);
                }
                self.pair.set_b_switches(b);
                self.sync_url(false);
                true
            }
            Msg::Load(a, b) => self.load(a, b),
            Msg::Open(a, b) => {
                // A gallery pair replaces the tour's: a tour left open would describe a pair
                // no longer on screen.
                self.tour = None;
                self.load(a, b);
                self.sync_url(true);
                true
            }
            Msg::PullPlug => self.send(WatchAction::PullPlug),
            Msg::Walk(action) => self.walk(ctx, action),
            Msg::Watch(action) => self.send(action),
            Msg::BoardSide(_) | Msg::BoardB(..) | Msg::BoardBFile(_) => self.board(msg),
            Msg::Tour(_)
            | Msg::TourStep(_)
            | Msg::TourAct
            | Msg::Predict(_)
            | Msg::PopState
            | Msg::BackToTour => self.tour_msg(ctx, msg),
            Msg::Check(m) => self.check_msg(ctx, m),
        }
    }

    fn send(&mut self, action: WatchAction) -> bool {
        self.watch.send(action);
        true
    }

    /// Run: the engine's refusal of a combination at the control it names, else the view
    /// plays to the end.
    fn run(&mut self) -> bool {
        self.start_run(false)
    }

    /// Run, the pipeline view scrolled into view (`follow`: a walk-through's step) or left
    /// where it is (the Lab's Run: its results are beside the form).
    fn start_run(&mut self, follow: bool) -> bool {
        self.notices.clear();
        if let Err(e) = crate::run::session::Session::start(&self.pair.a) {
            match e
                .option
                .filter(|o| bridge::controls().contains(&o.as_str()))
            {
                Some(option) => self.form(FormCmd::Refuse(option, e.message)),
                None => self.notices.push(e.message),
            }
            return true;
        }
        if follow {
            self.watch.send(WatchAction::Seek(None));
        } else {
            self.watch.send_in_place(WatchAction::Seek(None));
        }
        if let Some(r) = self.run.as_mut() {
            r.playing = !r.finished;
        }
        true
    }

    /// How the watched run stands; a plug pulled in the view cuts the scenario there too (its
    /// link, the Lab's `power_cut` field, any re-simulation of the view).
    fn run_state(&mut self, r: RunState) -> bool {
        if let Some(at) = r.a.power_cut.as_ref().map(|p| p.at_ns) {
            if self.pair.record_cut(at) {
                self.sync_url(false);
            }
        }
        self.ran = Some((
            Rc::new(self.pair.a.clone()),
            self.pair.b_scenario().map(Rc::new),
        ));
        self.run = Some(r);
        true
    }

    /// A whole scenario, and B of a pair.
    fn load(&mut self, a: Scenario, b: Option<Scenario>) -> bool {
        self.notices.clear();
        self.pair = Pair::new(a, b);
        self.form(FormCmd::Load {
            a: Rc::new(self.pair.a.clone()),
            board_b: self.pair.b_overrides().is_some(),
        });
        self.run = None;
        self.sync_url(false);
        true
    }

    /// A gallery walk-through step the page does itself.
    fn walk(&mut self, ctx: &Context<Self>, action: StepAction) -> bool {
        match action {
            StepAction::RunToEnd => return self.start_run(true),
            StepAction::PlugAt(t) => {
                if let Ok(next) = crate::tools::exports::with_power_cut(&self.pair.a, t) {
                    let link = ctx.link();
                    link.send_message(Msg::Load(next, self.pair.b_link()));
                    link.send_message(Msg::Run);
                }
            }
            _ => {}
        }
        false
    }

    /// The Board panel: which side it edits, B's parameters and platform files.
    fn board(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::BoardSide(b) => {
                if b {
                    self.pair.compare();
                }
            }
            Msg::BoardB(name, text) => {
                let Some(base) = self.pair.b_scenario() else {
                    return false;
                };
                match bridge::apply_control(&base, &name, &text) {
                    Ok(next) => {
                        self.pair.set_b_board(&next);
                        self.form(FormCmd::BoardB(name, None));
                    }
                    Err(message) => {
                        self.form(FormCmd::BoardB(name, Some(message)));
                        return true;
                    }
                }
            }
            Msg::BoardBFile(b) => {
                if b.platform != self.pair.a.platform || self.pair.b_overrides().is_none() {
                    self.notices.push(format!(
                        "B's board is on A's platform ({}); the file is for {}.",
                        self.pair.a.platform, b.platform
                    ));
                    return true;
                }
                self.pair.set_b_board(&b);
                self.form(FormCmd::BBoardLoaded);
            }
            _ => return false,
        }
        self.sync_url(false);
        true
    }

    /// Does what a tour step asks of the page.
    pub(super) fn tour_effect(&mut self, ctx: &Context<Self>, effect: Option<Effect>) {
        match effect {
            Some(Effect::Watch(a)) => {
                self.watch.send(a);
            }
            Some(Effect::Stand(b, then)) => {
                // A step of the tour's own pair: its A too, after a step that ran another pair
                // (lesson 4's random reads).
                match self.tour.as_ref().map(|t| t.tour.a.clone()) {
                    Some(a) if a != self.pair.a => {
                        self.load(a, Some(b));
                    }
                    _ => self.pair.set_b(&b),
                }
                self.watch.send(then);
            }
            Some(Effect::Pair(a, b, then)) => {
                self.load(a, Some(b));
                self.watch.send(then);
            }
            Some(Effect::TryIt(a, b)) => {
                // The Lab opens on the pair the button names and runs it at once: what it
                // shows is what the button says (issue 50), A beside it.
                self.tried = true;
                let link = ctx.link();
                link.send_message(Msg::Load(a, Some(b)));
                link.send_message(Msg::Run);
                Self::open_panel("lab");
            }
            None => {}
        }
    }

    /// The tour: open, close, step, act, predict, back/forward.
    fn tour_msg(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Tour(None) => {
                self.tour = None;
                self.tried = false;
            }
            Msg::BackToTour => {
                self.tried = false;
                scroll_to("tour");
                return true;
            }
            Msg::Tour(Some(p)) => {
                self.tried = false;
                if !self.open_tour(p, 0) {
                    // The whole app takes over at the tour (its link is written).
                    return false;
                }
                self.landing = false;
                // The lesson starts where its first step stands (time 0, paused: the
                // landing's own play is no part of it).
                let effect = self.tour.as_mut().and_then(|t| t.go(0));
                self.tour_effect(ctx, effect);
                self.sync_url(true);
                scroll_to("watch");
                return true;
            }
            Msg::TourStep(k) => {
                let effect = self.tour.as_mut().and_then(|t| t.go(k));
                self.tour_effect(ctx, effect);
            }
            Msg::TourAct => {
                let effect = self.tour.as_mut().and_then(TourState::act);
                self.tour_effect(ctx, effect);
            }
            Msg::Predict(i) => {
                if let Some(t) = self.tour.as_mut() {
                    t.predict(i);
                }
                self.check_predicted();
            }
            Msg::PopState => {
                let (_, m, _) = moment::split_query(&url_search());
                let open = self.tour.as_ref().map(|t| t.tour.id);
                match m.tour.as_deref() {
                    Some(p) if open == Some(p) => {
                        let effect = self.tour.as_mut().and_then(|t| t.go(m.step));
                        self.tour_effect(ctx, effect);
                    }
                    Some(p) => {
                        self.open_tour(p, m.step);
                    }
                    None => self.tour = None,
                }
                return true;
            }
            _ => return false,
        }
        self.sync_url(true);
        true
    }
}
