//! The course's check on the page: on with a lecturer's link (`check=1`) or the lesson's
//! "check what you know"; three questions in place of the landing's lesson before a tour is
//! open, the same three under the last lesson's last step, then the score before and after, the
//! predictions made along the way and the lessons to revisit (`lesson::check_view`). The record
//! stays in the browser (`run::store`). The landing's build has none of it: its button hands the
//! page over to the whole app with the check on.

#[cfg(not(feature = "full"))]
use yew::prelude::*;

#[cfg(not(feature = "full"))]
use super::app::{App, CheckMsg};

#[cfg(not(feature = "full"))]
impl App {
    /// The landing's build: the whole app takes over, at the check.
    pub(super) fn check_msg(&mut self, _ctx: &Context<Self>, msg: CheckMsg) -> bool {
        if let CheckMsg::On = msg {
            crate::run::url::write_url("check=1", true);
            crate::shell::handover::to_full("watch");
        }
        false
    }
    pub(super) fn check_on(&self) -> bool {
        false
    }
    pub(super) fn check_open(&mut self) {}
    pub(super) fn check_html(&self, _ctx: &Context<Self>) -> Option<Html> {
        None
    }
    pub(super) fn check_predicted(&mut self) {}
    pub(super) fn check_rendered(&mut self, _ctx: &Context<Self>) {}
}

#[cfg(feature = "full")]
mod full {
    use std::rc::Rc;

    use yew::prelude::*;

    use crate::lesson::check::{rights, CheckOn, Phase, Record, STORE_KEY};
    use crate::lesson::check_view::CheckPanel;
    use crate::run::store;
    use crate::series::course::COURSE;
    use crate::shell::app::{App, CheckMsg, Msg};

    /// The record this browser keeps (a new one if none).
    fn load() -> CheckOn {
        let record = store::load(STORE_KEY)
            .map(|t| Record::decode(&t))
            .unwrap_or_default();
        CheckOn {
            record: Rc::new(record),
            rights: None,
            scoring: false,
        }
    }

    /// Edits the record and keeps it.
    fn edit(c: &mut CheckOn, f: impl FnOnce(&mut Record)) {
        f(Rc::make_mut(&mut c.record));
        store::save(STORE_KEY, &c.record.encode());
    }

    impl App {
        pub(in crate::shell) fn check_on(&self) -> bool {
            self.check.is_some()
        }

        /// Turns the check on with the record this browser keeps.
        pub(in crate::shell) fn check_open(&mut self) {
            self.check = Some(load());
        }

        /// Which phase shows now: before (no tour open), after (the last lesson's last step).
        fn check_phase(&self) -> Option<Phase> {
            self.check.as_ref()?;
            match &self.tour {
                None => Some(Phase::Before),
                Some(t) => {
                    let last = t.tour.id == COURSE[COURSE.len() - 1].id
                        && t.step + 1 == t.tour.steps.len();
                    last.then_some(Phase::After)
                }
            }
        }

        pub(in crate::shell) fn check_msg(&mut self, ctx: &Context<Self>, msg: CheckMsg) -> bool {
            let phase = self.check_phase();
            match msg {
                CheckMsg::On => {
                    self.check_open();
                    self.sync_url(false);
                }
                CheckMsg::Answer(q, choice) => {
                    let (Some(c), Some(phase)) = (self.check.as_mut(), phase) else {
                        return false;
                    };
                    edit(c, |r| r.answer(phase, q, choice));
                }
                CheckMsg::Lesson(id) => ctx.link().send_message(Msg::Tour(Some(id))),
                CheckMsg::Restart => {
                    if let Some(c) = self.check.as_mut() {
                        edit(c, |r| *r = Record::default());
                    }
                    if phase == Some(Phase::After) {
                        self.check = None;
                        self.sync_url(false);
                    }
                }
                CheckMsg::Score => {
                    let open = self.tour.as_ref().map(|t| t.tour.clone());
                    let Some(c) = self.check.as_mut() else {
                        return false;
                    };
                    match rights(open.as_deref()) {
                        Ok(r) => c.rights = Some(Rc::new(r)),
                        Err(e) => self.notices.push(format!("Check: {e}")),
                    }
                }
            }
            true
        }

        /// The learner answered the open tour's prediction: kept with the simulation's
        /// closest choice.
        pub(in crate::shell) fn check_predicted(&mut self) {
            let (Some(c), Some(t)) = (self.check.as_mut(), self.tour.as_ref()) else {
                return;
            };
            if let Some(i) = t.answer {
                let closest = t.tour.prediction.closest();
                let id = t.tour.id;
                edit(c, |r| r.predicted(id, i, closest));
            }
        }

        /// Once the questions after the last lesson are answered, the right choices are
        /// computed in a task of their own (the results say so meanwhile).
        pub(in crate::shell) fn check_rendered(&mut self, ctx: &Context<Self>) {
            let after = self.check_phase() == Some(Phase::After);
            let Some(c) = self.check.as_mut() else {
                return;
            };
            if after && c.record.next(Phase::After).is_none() && c.rights.is_none() && !c.scoring {
                c.scoring = true;
                let link = ctx.link().clone();
                let go = move || link.send_message(Msg::Check(CheckMsg::Score));
                gloo::timers::callback::Timeout::new(0, go).forget();
            }
        }

        /// The check's panel for the lesson, when it shows.
        pub(in crate::shell) fn check_html(&self, ctx: &Context<Self>) -> Option<Html> {
            let phase = self.check_phase()?;
            let c = self.check.as_ref()?;
            let link = ctx.link();
            Some(html! {
                <CheckPanel {phase} record={c.record.clone()} rights={c.rights.clone()}
                            on_answer={link.callback(|(q, a)| Msg::Check(CheckMsg::Answer(q, a)))}
                            on_lesson={link.callback(|id| Msg::Check(CheckMsg::Lesson(id)))}
                            on_restart={link.callback(|()| Msg::Check(CheckMsg::Restart))} />
            })
        }
    }
}
