//! The Watch's run control, apart from what it shows: whether it plays, the lockstep
//! [`Clock`], the frames' bookkeeping, the steps to go back over, the furthest time seen, a
//! play that waits for a seek, whether the speed was chosen, and the last command acted on. The
//! component (`view/`) keeps the view state (hover, selection, the request followed, the
//! presentation mode, the link made) and the callbacks, and asks this struct what to do, so the
//! rules of play, pause, seek and commands are plain logic, tested natively below.

use crate::watch::clock::Clock;
use crate::watch::frames::FrameStats;

/// How the Watch's run goes on.
#[derive(Clone, Debug, Default)]
pub struct RunControl {
    /// The frames run the sides (playing, or seeking).
    pub playing: bool,
    pub clock: Clock,
    pub frames: FrameStats,
    /// Where each forward step started (Step back returns there).
    pub history: Vec<u64>,
    /// The latest simulated time reached since the sides started (the scrubber's range), ns.
    pub seen_ns: u64,
    /// Play on once the seek in progress arrives (a moment link that is not paused).
    pub play_after_seek: bool,
    /// The reader (or a link, a tour) chose the speed: plays keep it.
    pub speed_chosen: bool,
    /// The `seq` of the last command acted on.
    pub command_seq: Option<u32>,
}

/// What the run does after a frame has run the sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFrame {
    /// A seek arrived and a play was waiting for it: the clock plays on from there.
    PlayOn,
    /// The run finished, or a seek arrived with nothing after it: the frames stop.
    Stop,
    /// The next frame.
    Next,
}

impl RunControl {
    /// The sides start again at time zero: stopped, the clock reset, no step to go back over,
    /// no play waiting for a seek. The speed, the furthest time seen and the last command stay.
    pub fn restart(&mut self) {
        self.playing = false;
        self.clock.reset();
        self.history.clear();
        self.play_after_seek = false;
    }

    /// Plays on from where the clock stands. Step back then finds the step before by
    /// re-simulating (`crate::watch::clock::previous_step`), not from the steps kept.
    pub fn play(&mut self) {
        self.playing = true;
        self.history.clear();
        self.clock.resume();
    }

    /// Stops the frames; a play that waited for a seek is dropped with them.
    pub fn pause(&mut self) {
        self.playing = false;
        self.play_after_seek = false;
    }

    /// Runs the frames to simulated time `t` (None: to the end).
    pub fn seek(&mut self, t: Option<u64>) {
        self.clock.seek(t);
        self.playing = true;
    }

    /// Speed `i` of the speed control, chosen (by the reader, a link or a tour): plays keep it.
    pub fn choose_speed(&mut self, i: usize) {
        self.speed_chosen = true;
        self.clock.set_speed(i);
    }

    /// Whether the command numbered `seq` is new: then it is the last one acted on.
    pub fn take_command(&mut self, seq: u32) -> bool {
        let new = self.command_seq != Some(seq);
        self.command_seq = Some(seq);
        new
    }

    /// After a frame: `arrived`, the seek in progress reached its time; `done`, the run ended.
    pub fn after_frame(&mut self, arrived: bool, done: bool) -> AfterFrame {
        if arrived && self.play_after_seek && !done {
            self.play_after_seek = false;
            self.clock.resume();
            AfterFrame::PlayOn
        } else if done || arrived {
            self.playing = false;
            AfterFrame::Stop
        } else {
            AfterFrame::Next
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_acted_on_once() {
        let mut r = RunControl::default();
        assert!(r.take_command(1));
        assert!(
            !r.take_command(1),
            "the same command again, at the next render"
        );
        assert!(r.take_command(2));
        r.restart();
        assert!(
            !r.take_command(2),
            "a restart does not replay the page's last command"
        );
    }

    #[test]
    fn a_moment_link_plays_on_once_its_seek_arrives_unless_paused_first() {
        let mut r = RunControl::default();
        r.seek(Some(50_000));
        r.play_after_seek = true;
        assert_eq!(r.after_frame(false, false), AfterFrame::Next);
        assert_eq!(r.after_frame(true, false), AfterFrame::PlayOn);
        assert!(r.playing && !r.play_after_seek);
        assert_eq!(
            r.after_frame(false, true),
            AfterFrame::Stop,
            "the run ended"
        );
        assert!(!r.playing);

        r.seek(Some(50_000));
        r.play_after_seek = true;
        r.pause();
        assert!(!r.playing && !r.play_after_seek);
        r.seek(Some(60_000));
        assert_eq!(
            r.after_frame(true, false),
            AfterFrame::Stop,
            "paused at the moment"
        );
    }

    #[test]
    fn playing_and_restarting_forget_the_steps_and_a_chosen_speed_stays() {
        let mut r = RunControl {
            history: vec![0, 1_000],
            seen_ns: 2_000,
            ..RunControl::default()
        };
        r.choose_speed(2);
        r.play();
        assert!(r.playing && r.history.is_empty());
        r.history.push(3_000);
        r.play_after_seek = true;
        r.restart();
        assert!(!r.playing && r.history.is_empty() && !r.play_after_seek);
        assert_eq!(
            (r.seen_ns, r.clock.speed(), r.speed_chosen),
            (2_000, 2, true)
        );
    }
}
