//! The course's check, as the page keeps it: the answers to the three questions
//! (`crate::series::check`) before lesson 1 and after the last, the predictions made along the
//! way, their score and the lessons to revisit. Plain logic, tested natively; the page keeps a
//! [`Record`] in the browser only (localStorage, as the text [`Record::encode`] writes).

use crate::series::check::QUESTIONS;
use crate::series::course::COURSE;

/// One question's answer: not asked yet (None), skipped (`Some(None)`), or a choice.
pub type Answer = Option<Option<usize>>;

/// Before lesson 1, or after the last.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    Before,
    After,
}

/// A learner's check: the answers before and after, and each lesson's last prediction (the
/// choice picked, and the choice closest to what the simulation computed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub before: Vec<Answer>,
    pub after: Vec<Answer>,
    pub predictions: Vec<(String, usize, usize)>,
}

/// How a phase's answers went: right, and asked (answered or skipped).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub right: usize,
    pub answered: usize,
    pub skipped: usize,
}

impl Record {
    /// A phase's answers, one per question.
    pub fn answers(&self, phase: Phase) -> Vec<Answer> {
        let a = match phase {
            Phase::Before => &self.before,
            Phase::After => &self.after,
        };
        (0..QUESTIONS.len())
            .map(|i| a.get(i).copied().flatten())
            .collect()
    }

    /// The first question of `phase` not yet answered or skipped (None: all are).
    pub fn next(&self, phase: Phase) -> Option<usize> {
        self.answers(phase).iter().position(Option::is_none)
    }

    /// Answers question `q` of `phase` (None: skipped).
    pub fn answer(&mut self, phase: Phase, q: usize, choice: Option<usize>) {
        let mut a = self.answers(phase);
        if let Some(slot) = a.get_mut(q) {
            *slot = Some(choice);
        }
        match phase {
            Phase::Before => self.before = a,
            Phase::After => self.after = a,
        }
    }

    /// The learner picked choice `picked` of lesson `id`'s prediction, `closest` being the
    /// simulation's: kept per lesson, the last pick counts.
    pub fn predicted(&mut self, id: &str, picked: usize, closest: usize) {
        self.predictions.retain(|(l, ..)| l != id);
        self.predictions.push((id.to_string(), picked, closest));
    }

    /// A phase's score against the right choices (`rights[i]`: question i's).
    pub fn score(&self, phase: Phase, rights: &[usize]) -> Score {
        let a = self.answers(phase);
        Score {
            right: a
                .iter()
                .zip(rights)
                .filter(|(x, r)| **x == Some(Some(**r)))
                .count(),
            answered: a.iter().filter(|x| matches!(x, Some(Some(_)))).count(),
            skipped: a.iter().filter(|x| **x == Some(None)).count(),
        }
    }

    /// The predictions made: (closest, made).
    pub fn predictions_hit(&self) -> (usize, usize) {
        let hit = self.predictions.iter().filter(|(_, p, c)| p == c).count();
        (hit, self.predictions.len())
    }

    /// The lessons to revisit, in the course's order: those whose question was answered wrong
    /// after the course, and those whose prediction missed (a skipped question or a prediction
    /// not made says nothing either way).
    pub fn revisit(&self, rights: &[usize]) -> Vec<&'static str> {
        let after = self.answers(Phase::After);
        let wrong_after = |id: &str| {
            QUESTIONS
                .iter()
                .zip(&after)
                .zip(rights)
                .any(|((q, a), r)| q.lesson == id && matches!(a, Some(Some(x)) if x != r))
        };
        let missed = |id: &str| self.predictions.iter().any(|(l, p, c)| l == id && p != c);
        COURSE
            .iter()
            .map(|l| l.id)
            .filter(|id| wrong_after(id) || missed(id))
            .collect()
    }

    /// The record as text: `b=0,-,2;a=1,.,.;p=id:1:1,id:0:2` (`-` skipped, `.` not asked).
    pub fn encode(&self) -> String {
        let answers = |phase| {
            self.answers(phase)
                .iter()
                .map(|a| match a {
                    None => ".".to_string(),
                    Some(None) => "-".to_string(),
                    Some(Some(i)) => i.to_string(),
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let p: Vec<String> = self
            .predictions
            .iter()
            .map(|(l, p, c)| format!("{l}:{p}:{c}"))
            .collect();
        format!(
            "b={};a={};p={}",
            answers(Phase::Before),
            answers(Phase::After),
            p.join(",")
        )
    }

    /// The record [`Record::encode`] wrote; what does not read as one is left out (a record
    /// from another version of the page starts again rather than breaking it).
    pub fn decode(text: &str) -> Record {
        let mut r = Record::default();
        let answers = |v: &str| -> Vec<Answer> {
            v.split(',')
                .take(QUESTIONS.len())
                .enumerate()
                .map(|(q, x)| match x {
                    "-" => Some(None),
                    _ => x
                        .parse::<usize>()
                        .ok()
                        .filter(|&i| i < QUESTIONS[q].choices.len())
                        .map(Some),
                })
                .collect()
        };
        for part in text.split(';') {
            match part.split_once('=') {
                Some(("b", v)) => r.before = answers(v),
                Some(("a", v)) => r.after = answers(v),
                Some(("p", v)) => {
                    for p in v.split(',') {
                        let mut it = p.split(':');
                        if let (Some(l), Some(Ok(a)), Some(Ok(c))) = (
                            it.next().filter(|l| COURSE.iter().any(|x| x.id == *l)),
                            it.next().map(str::parse::<usize>),
                            it.next().map(str::parse::<usize>),
                        ) {
                            r.predicted(l, a, c);
                        }
                    }
                }
                _ => {}
            }
        }
        r
    }
}

/// The right choice of each question: the one closest to what its lesson's tour computes (the
/// tour of `open`, when given, is not computed again).
pub fn rights(open: Option<&super::Tour>) -> Result<Vec<usize>, crate::run::session::RunError> {
    QUESTIONS
        .iter()
        .map(|q| {
            let t = match open.filter(|t| t.id == q.lesson) {
                Some(t) => std::borrow::Cow::Borrowed(t),
                None => std::borrow::Cow::Owned(super::tour(q.lesson)?),
            };
            Ok(q.on(&t.fa, &t.fb).closest())
        })
        .collect()
}

/// The check, on, as the page holds it: the learner's record and, once computed, the right
/// choices.
#[derive(Clone, Debug, Default)]
pub struct CheckOn {
    pub record: std::rc::Rc<Record>,
    pub rights: Option<std::rc::Rc<Vec<usize>>>,
    /// The right choices are being computed (a task of their own).
    pub scoring: bool,
}

/// The key the page keeps the record under in localStorage.
pub const STORE_KEY: &str = "mmcsim.check";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_right_answers_and_skips_apart() {
        let mut r = Record::default();
        assert_eq!(r.next(Phase::Before), Some(0));
        r.answer(Phase::Before, 0, Some(2));
        r.answer(Phase::Before, 1, None);
        r.answer(Phase::Before, 2, Some(0));
        assert_eq!(r.next(Phase::Before), None);
        assert_eq!(r.next(Phase::After), Some(0));
        let rights = [2, 2, 1];
        assert_eq!(
            r.score(Phase::Before, &rights),
            Score {
                right: 1,
                answered: 2,
                skipped: 1
            }
        );
        r.answer(Phase::After, 0, Some(2));
        r.answer(Phase::After, 1, Some(2));
        r.answer(Phase::After, 2, Some(1));
        assert_eq!(r.score(Phase::After, &rights).right, 3);
    }

    #[test]
    fn lessons_to_revisit_are_wrong_after_answers_and_missed_predictions_in_course_order() {
        let rights = [2, 2, 1];
        let mut r = Record::default();
        // Wrong before, right after: nothing to revisit for lesson 1.
        r.answer(Phase::Before, 0, Some(0));
        r.answer(Phase::After, 0, Some(2));
        // Skipped after: says nothing.
        r.answer(Phase::After, 1, None);
        // Wrong after: the scheduler lesson.
        r.answer(Phase::After, 2, Some(0));
        // A missed prediction (lesson 4), a hit one (lesson 2), a missed one changed to a hit.
        r.predicted("unisoc-hsq-2023", 0, 1);
        r.predicted("hsq-intro-2020", 1, 1);
        r.predicted("u300-mmci-2011", 0, 2);
        r.predicted("u300-mmci-2011", 2, 2);
        assert_eq!(r.predictions_hit(), (2, 3));
        assert_eq!(r.revisit(&rights), vec!["unisoc-hsq-2023", "io-schedulers"]);
        // A missed prediction of a lesson a question tests names it once.
        r.predicted("io-schedulers", 0, 3);
        assert_eq!(r.revisit(&rights), vec!["unisoc-hsq-2023", "io-schedulers"]);
    }

    #[test]
    fn a_record_round_trips_through_its_text_and_bad_text_is_left_out() {
        let mut r = Record::default();
        r.answer(Phase::Before, 0, Some(1));
        r.answer(Phase::Before, 1, None);
        r.predicted("sprd-hs400es-2020", 2, 2);
        let text = r.encode();
        assert_eq!(text, "b=1,-,.;a=.,.,.;p=sprd-hs400es-2020:2:2");
        assert_eq!(Record::decode(&text), {
            let mut want = r.clone();
            want.before = r.answers(Phase::Before);
            want.after = r.answers(Phase::After);
            want
        });
        let bad = Record::decode("b=9,x;a=;p=nope:1:1,sprd-hs400es-2020:1;zz");
        assert_eq!(bad.answers(Phase::Before), vec![None, None, None]);
        assert!(bad.predictions.is_empty());
        assert_eq!(Record::decode(""), Record::default());
    }

    #[test]
    fn the_right_choices_are_the_lessons_computed_ones() {
        let r = rights(None).unwrap();
        assert_eq!(r.len(), QUESTIONS.len());
        let open = super::super::tour("unisoc-fua-2022").unwrap();
        assert_eq!(rights(Some(&open)).unwrap(), r);
    }
}
