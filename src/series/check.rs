//! The course's check, as data: three short questions a learner may answer before lesson 1 and
//! again after the last lesson (`crate::lesson::check` scores them, the page asks them). Each
//! tests one lesson and is about one figure that lesson's tour computes, as B against A of its
//! pair: the right choice is the one closest to what the simulation computed (on a log scale,
//! as a prediction's is), never a figure typed here. The choices' labels say no more than a
//! factor's rough size, and a test checks that the computed figure is near the right one's.

use super::script::Prediction;
use super::words::Figures;

/// One question: the lesson (series id) it tests, its text, its choices as B/A factors of the
/// figure `ratio` reads off that lesson's tour (A, B), and their labels.
pub struct Question {
    pub lesson: &'static str,
    /// A few words naming what it asks (the results' list).
    pub topic: &'static str,
    pub text: &'static str,
    pub choices: &'static [(f64, &'static str)],
    /// The figure the choices are about, B/A, from the lesson's tour's figures.
    pub ratio: fn(&Figures, &Figures) -> f64,
}

impl Question {
    /// The question as a prediction on the lesson's computed figures (A, B): its
    /// [`Prediction::closest`] is the right choice.
    pub fn on(&self, fa: &Figures, fb: &Figures) -> Prediction {
        Prediction {
            question: self.text.to_string(),
            choices: self
                .choices
                .iter()
                .map(|&(f, l)| (f, l.to_string()))
                .collect(),
            ratio: (self.ratio)(fa, fb),
        }
    }
}

/// B/A of the tour's own figure (its unit: MiB/s, or the reader's latency in µs).
fn figure(fa: &Figures, fb: &Figures) -> f64 {
    fb.figure / fa.figure
}

/// The three questions, in the order they are asked (the course's order of their lessons).
pub static QUESTIONS: &[Question] = &[
    Question {
        lesson: "sprd-hs400es-2020",
        topic: "Chains of requests, one interrupt each",
        text: "20 programs read 4 KiB blocks from an eMMC. The driver then hands the controller chains of up \
               to 8 requests, with one interrupt per chain, instead of one request per interrupt. How much \
               data per second do the programs read then?",
        choices: &[
            (1.0, "About the same: the card is the limit"),
            (1.3, "About a third more"),
            (3.5, "Three to four times as much"),
        ],
        ratio: figure,
    },
    Question {
        lesson: "unisoc-fua-2022",
        topic: "Durable writes: FUA against cache and flush",
        text: "One program writes 4 KiB blocks at random, each acknowledged only once it is safe from a power \
               cut. The card can be sent each write as a reliable write (FUA: straight to its flash) instead \
               of into its cache followed by a cache flush. How many writes per second then?",
        choices: &[
            (1.0, "About as many: both are just as safe"),
            (0.5, "About half as many"),
            (0.2, "About a fifth as many"),
        ],
        ratio: figure,
    },
    Question {
        lesson: "io-schedulers",
        topic: "A reader beside a writer: bfq against mq-deadline",
        text: "One program reads 4 KiB blocks at random while another writes with 32 requests in flight. With \
               the I/O scheduler bfq instead of mq-deadline, how long does the reader wait for each read, on \
               average?",
        choices: &[
            (1.0, "About as long: the card is just as busy"),
            (0.3, "About a third as long"),
            (3.0, "About three times as long"),
        ],
        ratio: figure,
    },
];

/// Most the computed figure may differ from the right choice's factor (a factor either way)
/// for that choice's label ("three to four times", "about a fifth") to be true of it.
pub const LABEL_WITHIN: f64 = 1.35;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::tour;

    /// Every question tests a lesson of the course, and its right choice (the one closest to
    /// the lesson's computed figure) is near that figure: its label is true of the model.
    #[test]
    fn each_right_choice_is_true_of_what_its_lesson_computes() {
        assert_eq!(QUESTIONS.len(), 3);
        for q in QUESTIONS {
            assert!(
                super::super::course::lesson(q.lesson).is_some(),
                "{}",
                q.lesson
            );
            let t = tour(q.lesson).unwrap();
            let p = q.on(&t.fa, &t.fb);
            let right = p.choices[p.closest()].0;
            let off = (p.ratio / right).max(right / p.ratio);
            assert!(
                off <= LABEL_WITHIN,
                "{}: computed {:.2}, right choice {right}",
                q.lesson,
                p.ratio
            );
            // The other choices are clearly wrong: none within the same distance.
            for &(f, l) in q.choices.iter().filter(|c| c.0 != right) {
                let d = (p.ratio / f).max(f / p.ratio);
                assert!(d > 1.6, "{}: {l} is near {:.2} too", q.lesson, p.ratio);
            }
        }
    }
}
