//! Commands for "Watch the pipeline" (`view/`): what the page, the gallery's walk-through
//! and the tests ask of it, through its `command` prop, instead of clicking its controls.
//!
//! A command travels with a sequence number, as `FieldError.seq` does for the controls' errors:
//! the view acts on a command once, when its number changes, so sending the same command again
//! (pause, then pause) is a new command.

use mmcsim_engine::explain::Layer;

use crate::run::speed::speed_index;
use crate::series::StepAction;

/// What the Watch is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WatchAction {
    /// Play, at this index of [`SPEEDS`](crate::run::speed::SPEEDS) (None: at the current speed).
    Play(Option<usize>),
    Pause,
    /// Set the speed (an index of [`SPEEDS`](crate::run::speed::SPEEDS)); playing or not stays as it is.
    Speed(usize),
    /// Run A (and B) to this simulated time, ns (None: to the end) as fast as the frame budget
    /// allows, then pause there; a time already past restarts the run first.
    Seek(Option<u64>),
    /// Select what "What is happening" explains and the pipeline outlines (None: nothing).
    Focus(Option<Target>),
    /// Restore a moment of a link: the speed, then run to `t` (None: stay at time zero), then
    /// play on (`play`) or stay paused there; the focus as given.
    Moment {
        t: Option<u64>,
        speed: Option<usize>,
        play: bool,
        focus: Option<Target>,
    },
    /// Play from time zero at this speed (an index of [`SPEEDS`](crate::run::speed::SPEEDS);
    /// None: the current one), then stop at simulated time `until` ns: a tour's Play, which
    /// stops where its next steps read the pair, so going there never takes the clock back.
    PlayFromStart {
        speed: Option<usize>,
        until: u64,
    },
    /// Cut the power of the watched run now (A, and B of a comparison).
    PullPlug,
}

/// Something in the pipeline view to point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A column (layer) of the view.
    Layer(Layer),
    /// A request of side A (`b: false`) or B, by id.
    Request { b: bool, id: u64 },
}

/// A [`WatchAction`] with its sequence number: a new number is a new command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WatchCommand {
    pub action: WatchAction,
    pub seq: u32,
    /// The view scrolls itself into view as it acts (a walk-through's step); not for the Lab's
    /// Run, whose reader stays with the Lab and its results.
    pub follow: bool,
}

/// Stamps commands with increasing sequence numbers (the page holds one).
#[derive(Clone, Debug, Default)]
pub struct Commands {
    seq: u32,
    last: Option<WatchCommand>,
}

impl Commands {
    /// `action` as the next command.
    pub fn send(&mut self, action: WatchAction) -> WatchCommand {
        self.stamp(action, true)
    }
    /// `action` as the next command, the view left where it is on the page.
    pub fn send_in_place(&mut self, action: WatchAction) -> WatchCommand {
        self.stamp(action, false)
    }
    fn stamp(&mut self, action: WatchAction, follow: bool) -> WatchCommand {
        self.seq = self.seq.wrapping_add(1);
        let c = WatchCommand {
            action,
            seq: self.seq,
            follow,
        };
        self.last = Some(c);
        c
    }
    /// The last command sent (the Watch's `command` prop).
    pub fn last(&self) -> Option<WatchCommand> {
        self.last
    }
}

impl StepAction {
    /// The Watch command a walk-through step sends, for the steps that act on the pipeline
    /// view. A `Play` step whose speed is no label of [`SPEEDS`](crate::run::speed::SPEEDS) plays at the current speed
    /// (the native tests check that every step's label is one).
    pub fn watch_action(self) -> Option<WatchAction> {
        match self {
            StepAction::Play(label) => Some(WatchAction::Play(speed_index(label))),
            StepAction::Pause => Some(WatchAction::Pause),
            StepAction::Highlight(layer) => Some(WatchAction::Focus(Some(Target::Layer(layer)))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gallery::entries;
    use crate::run::speed::SPEEDS;

    #[test]
    fn the_same_action_twice_is_two_commands() {
        let mut c = Commands::default();
        assert_eq!(c.last(), None);
        let first = c.send(WatchAction::Pause);
        let second = c.send(WatchAction::Pause);
        assert_eq!(first.action, second.action);
        assert_ne!(first, second);
        assert_eq!(c.last(), Some(second));
    }

    #[test]
    fn every_walk_through_step_on_the_watch_maps_to_a_command() {
        let mut plays = 0;
        for e in entries() {
            for s in &e.steps {
                match (s.action, s.action.watch_action()) {
                    (StepAction::Play(label), Some(WatchAction::Play(i))) => {
                        assert_eq!(i.map(|i| SPEEDS[i].label), Some(label), "{}", s.text);
                        plays += 1;
                    }
                    (StepAction::Pause, Some(WatchAction::Pause)) => {}
                    (StepAction::Highlight(l), Some(WatchAction::Focus(Some(t)))) => {
                        assert_eq!(t, Target::Layer(l))
                    }
                    (StepAction::Play(_) | StepAction::Pause | StepAction::Highlight(_), a) => {
                        panic!("{}: {a:?}", s.text)
                    }
                    (_, a) => assert_eq!(a, None, "{}", s.text),
                }
            }
        }
        assert!(plays >= 4, "each series plays in slow motion");
    }
}
