//! The open tour as the page holds it: the step shown, the prediction picked, whether the pair
//! ran to the end, and what a step's button asks of the page ([`Effect`]). Plain logic, tested
//! natively; the page (`shell/app.rs`) does the effects and keeps the URL in step.

use std::rc::Rc;

use mmcsim_engine::Scenario;

use super::{tour, Shows, Tour, TourAction};
use crate::run::session::RunError;
use crate::run::speed::speed_index;
use crate::watch::command::{Target, WatchAction};

/// The open tour: its content, the step shown, the prediction picked.
#[derive(Clone)]
pub struct TourState {
    pub tour: Rc<Tour>,
    pub step: usize,
    pub answer: Option<usize>,
    /// The run-to-end step's action was taken (the answer can be shown).
    pub ran: bool,
}

/// How the view stands, as far as a step's text depends on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewAt {
    /// The view's time (the later side's), ns.
    pub now_ns: u64,
    /// Playing or seeking: the time is moving.
    pub playing: bool,
    /// Both sides ran to their end.
    pub finished: bool,
    /// The slower side's share of its run done, 0 to 1.
    pub progress: f64,
}

/// What a tour step's button asks of the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// A command for "Watch the pipeline".
    Watch(WatchAction),
    /// B becomes this scenario (host switches of A's workload), then the Watch does `then`
    /// (the page sets B first: the Watch rebuilt for a new B takes the command).
    Stand(Scenario, WatchAction),
    /// Open the Lab with this pair.
    TryIt(Scenario, Scenario),
    /// A and B become this pair (the tour's second pair, or its own again), then the Watch
    /// does the command.
    Pair(Scenario, Scenario, WatchAction),
}

impl TourState {
    /// The tour of series `id`, standing at `step`.
    pub fn open(id: &str, step: usize) -> Result<TourState, RunError> {
        let t = tour(id)?;
        Ok(TourState {
            step: step.min(t.steps.len() - 1),
            tour: Rc::new(t),
            answer: None,
            ran: false,
        })
    }

    /// The notice for a link's 0-based step `asked` past this tour's last step ([`open`]
    /// shows the last): which steps there are.
    ///
    /// [`open`]: TourState::open
    pub fn past_last(&self, asked: usize) -> Option<String> {
        let n = self.tour.steps.len();
        (asked >= n).then(|| {
            format!(
                "URL: step: '{}' is past the tour's last step; accepted: 1 to {n} (step {n} is shown)",
                asked + 1
            )
        })
    }

    /// Goes to step `k` (the last at most): what brings the screen to what that step's text
    /// is about (a reader who arrives by Next, Back or a link reads no sentence the screen
    /// contradicts).
    pub fn go(&mut self, k: usize) -> Option<Effect> {
        self.step = k.min(self.tour.steps.len() - 1);
        let tour = self.tour.clone();
        let b = || tour.b.clone();
        match tour.steps[self.step].shows {
            Shows::Any => None,
            Shows::Start => Some(Effect::Stand(
                b(),
                WatchAction::Moment {
                    t: Some(0),
                    speed: None,
                    play: false,
                    focus: None,
                },
            )),
            Shows::At { t_ns, focus } => Some(Effect::Stand(
                b(),
                WatchAction::Moment {
                    t: Some(t_ns),
                    speed: None,
                    play: false,
                    focus: focus.map(Target::Layer),
                },
            )),
            Shows::Following { t_ns, id } => Some(Effect::Stand(
                b(),
                WatchAction::Moment {
                    t: Some(t_ns),
                    speed: None,
                    play: false,
                    focus: Some(Target::Request { b: false, id }),
                },
            )),
            Shows::End => {
                self.ran = true;
                Some(Effect::Stand(b(), WatchAction::Seek(None)))
            }
            Shows::EndOther => {
                self.ran = true;
                let (a, b) = tour.other.clone().unwrap_or_else(|| (tour.a.clone(), b()));
                Some(Effect::Pair(a, b, WatchAction::Seek(None)))
            }
            Shows::EndWindow => {
                self.ran = true;
                let w = tour.window.clone().unwrap_or_else(b);
                Some(Effect::Stand(w, WatchAction::Seek(None)))
            }
        }
    }

    /// The reader picked choice `i` of the prediction: the next step.
    pub fn predict(&mut self, i: usize) {
        self.answer = Some(i);
        self.go(self.step + 1);
    }

    /// The current step's action, then the next step (the prediction waits for its answer).
    pub fn act(&mut self) -> Option<Effect> {
        let tour = self.tour.clone();
        let action = tour.steps[self.step].action;
        let effect = match action {
            // From time zero to the tour's moment: the steps after it read the pair there.
            TourAction::Play(speed) => Some(Effect::Watch(WatchAction::PlayFromStart {
                speed: speed_index(speed),
                until: tour.moment(),
            })),
            TourAction::PauseAt(t) => Some(Effect::Watch(WatchAction::Moment {
                t: Some(t),
                speed: None,
                play: false,
                focus: None,
            })),
            TourAction::Focus(l) => Some(Effect::Watch(WatchAction::Focus(Some(Target::Layer(l))))),
            TourAction::Predict => None,
            // Nothing of its own: on as Next goes, the screen brought to what the next step
            // reads (a step after a followed request reads the run's end).
            TourAction::Continue => return self.go(self.step + 1),
            TourAction::RunToEnd => Some(Effect::Watch(WatchAction::Seek(None))),
            TourAction::Follow { t_ns, id } => Some(Effect::Watch(WatchAction::Moment {
                t: Some(t_ns),
                speed: None,
                play: false,
                focus: Some(Target::Request { b: false, id }),
            })),
            TourAction::WindowOnly(on) => {
                let b = if on {
                    tour.window.clone()
                } else {
                    Some(tour.b.clone())
                };
                b.map(|b| Effect::Stand(b, WatchAction::Seek(None)))
            }
            TourAction::OtherPair(on) => {
                let (a, b) = match (&tour.other, on) {
                    (Some(p), true) => p.clone(),
                    _ => (tour.a.clone(), tour.b.clone()),
                };
                Some(Effect::Pair(a, b, WatchAction::Seek(None)))
            }
            TourAction::TryIt => {
                let (a, b) = tour.try_pair();
                Some(Effect::TryIt(a, b))
            }
        };
        if action == TourAction::RunToEnd {
            self.ran = true;
        }
        // A step that shows a thing on screen (playing, a column outlined) stays until Next:
        // its text explains what the button shows (issue 50).
        let stays = matches!(
            action,
            TourAction::Predict | TourAction::Play(_) | TourAction::Focus(_)
        );
        if self.step + 1 < tour.steps.len() && !stays {
            self.step += 1;
        }
        effect
    }

    /// None when the view shows what the current step's text reads (its moment, or the end of
    /// the run), else the sentence the step shows meanwhile: the text's figures would be those
    /// of a moment not on screen yet (while the view runs to the end, or simulates up to a
    /// pause), so they wait for it. `view`: how the view stands (None: no run yet).
    pub fn waiting(&self, view: Option<ViewAt>) -> Option<String> {
        let shows = self.tour.steps[self.step].shows;
        let still = view.filter(|v| !v.playing);
        match shows {
            Shows::Any | Shows::Start => None,
            Shows::End | Shows::EndWindow | Shows::EndOther
                if still.is_some_and(|v| v.finished) =>
            {
                None
            }
            Shows::End | Shows::EndWindow | Shows::EndOther => Some(format!(
                "Both sides are running to the end ({:.0} % done). This step reads them there: its \
                 text appears when they arrive.",
                view.map_or(0.0, |v| (v.progress * 100.0).floor())
            )),
            Shows::At { t_ns, .. } | Shows::Following { t_ns, .. }
                if still.is_some_and(|v| v.now_ns == t_ns) =>
            {
                None
            }
            Shows::At { t_ns, .. } | Shows::Following { t_ns, .. } => Some(format!(
                "The view is going to {} (it simulates both sides up to that moment). This step \
                 reads them there: its text appears when they stand still at it.",
                mmcsim_engine::scenario::units::format_clock_ns(t_ns)
            )),
        }
    }

    /// "You predicted ...", once the prediction is answered and the tour ran the pair to the
    /// end (Run to the end, or a step after it), on the steps after the run.
    pub fn answer_text(&self) -> Option<String> {
        let tour = &self.tour;
        let i = self.answer?;
        let run = tour
            .steps
            .iter()
            .position(|s| s.action == TourAction::RunToEnd)
            .unwrap_or(tour.steps.len());
        if self.step <= run || !self.ran {
            return None;
        }
        let p = &tour.prediction;
        let answer = p.answer(i, tour.fa.figure, tour.fb.figure, tour.unit);
        Some(format!("You predicted \"{}\". {answer}", p.choices[i].1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::LANDING_SERIES;

    #[test]
    fn a_tour_steps_through_its_actions_and_answers_after_the_run() {
        let mut t = TourState::open(LANDING_SERIES, 98).unwrap();
        assert_eq!(t.step, t.tour.steps.len() - 1, "clamped to the last step");
        // Issue 48 item 9: a link's step=99 said nothing of it.
        let n = t.tour.steps.len();
        assert_eq!(
            t.past_last(98).as_deref(),
            Some(format!("URL: step: '99' is past the tour's last step; accepted: 1 to {n} (step {n} is shown)").as_str())
        );
        assert_eq!(t.past_last(n - 1), None);
        assert!(
            matches!(
                t.go(0),
                Some(Effect::Stand(
                    _,
                    WatchAction::Moment {
                        t: Some(0),
                        play: false,
                        ..
                    }
                ))
            ),
            "the lesson starts at time 0"
        );
        // Play runs from time 0 to the tour's moment, and the step stays until Next (issue
        // 50: Play once jumped to the next step).
        let moment = t.tour.moment();
        assert!(moment > 0);
        assert_eq!(
            t.act(),
            Some(Effect::Watch(WatchAction::PlayFromStart {
                speed: crate::run::speed::speed_index("50 µs/s"),
                until: moment
            }))
        );
        assert_eq!(t.step, 0, "Play stays on its step");
        let _ = t.go(1);
        let Some(Effect::Watch(WatchAction::Moment {
            t: Some(at),
            play: false,
            ..
        })) = t.act()
        else {
            panic!("the pause stands at its moment");
        };
        assert_eq!(at, moment);
        assert_eq!(
            t.step, 2,
            "the pause goes on to the step that reads the moment"
        );
        assert!(matches!(
            t.act(),
            Some(Effect::Watch(WatchAction::Focus(Some(Target::Layer(_)))))
        ));
        assert_eq!(t.step, 2, "Show stays on the step that explains the column");
        // Back to the paused step by Back: the screen goes back to that moment.
        assert!(matches!(
            t.go(2),
            Some(Effect::Stand(_, WatchAction::Moment { t: Some(x), play: false, .. })) if x == at
        ));
        let _ = t.go(t.tour.predict_step);
        assert_eq!(t.act(), None, "the prediction waits for its answer");
        assert_eq!(t.step, t.tour.predict_step);
        t.predict(0);
        assert_eq!(t.answer_text(), None, "not before the run");
        assert_eq!(t.act(), Some(Effect::Watch(WatchAction::Seek(None))));
        assert!(t.answer_text().unwrap().starts_with("You predicted"));
        assert!(
            matches!(t.act(), Some(Effect::Stand(_, WatchAction::Seek(None)))),
            "the run's figures: Continue goes on as Next, to the end the next step reads"
        );
        assert!(
            matches!(t.act(), Some(Effect::Stand(_, WatchAction::Seek(None)))),
            "window only"
        );
        let _ = t.go(usize::MAX);
        assert!(matches!(t.act(), Some(Effect::TryIt(..))));
    }

    /// A step about a moment or the run's end shows its text only once the view is there: a
    /// figure read while the view runs would be of another moment.
    #[test]
    fn a_step_waits_for_its_moment_before_its_text() {
        let mut t = TourState::open(LANDING_SERIES, 0).unwrap();
        let at = |now_ns, playing, finished| {
            Some(ViewAt {
                now_ns,
                playing,
                finished,
                progress: 0.437,
            })
        };
        assert_eq!(t.waiting(None), None, "the first step reads no moment");
        let Some(Effect::Watch(WatchAction::PlayFromStart { .. })) = t.act() else {
            panic!("play");
        };
        let _ = t.go(1);
        let Some(Effect::Watch(WatchAction::Moment { t: Some(p), .. })) = t.act() else {
            panic!("pause");
        };
        assert!(matches!(t.tour.steps[t.step].shows, Shows::At { t_ns, .. } if t_ns == p));
        let going = t.waiting(at(p / 2, true, false)).expect("still seeking");
        assert!(going.contains("going to"), "{going}");
        assert!(
            t.waiting(at(p, true, false)).is_some(),
            "there, but still moving"
        );
        assert!(
            t.waiting(at(p + 1, false, false)).is_some(),
            "stopped elsewhere"
        );
        assert_eq!(
            t.waiting(at(p, false, false)),
            None,
            "standing at the moment"
        );
        let end = (0..t.tour.steps.len())
            .find(|&k| t.tour.steps[k].shows == Shows::End)
            .expect("a step about the end");
        let _ = t.go(end);
        let running = t.waiting(at(p, true, false)).expect("running to the end");
        assert!(running.contains("43 % done"), "{running}");
        assert!(
            t.waiting(at(p, false, false)).is_some(),
            "paused before the end"
        );
        assert_eq!(t.waiting(at(p, false, true)), None, "at the end");
    }
}
