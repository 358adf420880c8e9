//! The tours as a course: the order a student who never heard of hsq meets the eight tours in,
//! why each comes where it does, and the glossary terms each lesson uses. Each tour's last
//! step offers the next lesson; the last lesson's offers the first, so a student who starts
//! anywhere and keeps pressing Next meets all eight. The landing's tour is lesson 1.

/// One lesson: its series id and the glossary terms it uses (ids of
/// `mmcsim_components::glossary::TERMS`). Why it comes where it does is the comment above it
/// (no screen shows it: kept out of the landing's wasm).
pub struct Lesson {
    pub id: &'static str,
    pub terms: &'static [&'static str],
}

/// The course, in order.
pub static COURSE: &[Lesson] = &[
    // First the landing's pair, the headline: batching requests into one ADMA3 chain pays one
    // interrupt and one software pass for the chain instead of one each, and the bus waits less
    // for the host.
    Lesson {
        id: "sprd-hs400es-2020",
        terms: &[
            "hsq",
            "packed",
            "adma3",
            "irq",
            "controller",
            "bus",
            "mmc-queue",
        ],
    },
    // Then what the batching stands on: the host software queue itself, what the host does
    // between two requests, and that sending the next request from the interrupt shortens the
    // bus's wait. Every later lesson but one runs on hsq.
    Lesson {
        id: "hsq-intro-2020",
        terms: &["fio", "psync", "legacy", "hsq", "irq", "bus", "card"],
    },
    // The other way to hide host time, older and on the legacy path: prepare the next request
    // while the current one is on the bus; it helps only as much as the CPU's share was.
    Lesson {
        id: "u300-mmci-2011",
        terms: &["legacy", "nonblocking", "controller", "bus", "card"],
    },
    // Back on hsq, how many requests it takes at once: the window, the refusals when it is
    // full, and a depth that grows while small writes queue.
    Lesson {
        id: "unisoc-hsq-2023",
        terms: &[
            "blk-mq",
            "resource",
            "dispatch",
            "mmc-queue",
            "hsq-depth",
            "hsq",
        ],
    },
    // Once requests wait in hsq's slots, the order they leave in: not throughput but the
    // latency tail, one starving request followed through the pipeline.
    Lesson {
        id: "fifo-dispatch-2022",
        terms: &["hsq", "tag", "clat", "libaio"],
    },
    // Then the card's side: a write that must be in NAND before it is acknowledged costs card
    // time, not host time: what durability costs.
    Lesson {
        id: "unisoc-fua-2022",
        terms: &["fua", "cache", "card", "dat0", "flush"],
    },
    // Then, above the driver, the question asked most: which I/O scheduler? Not a patch but the
    // kernel's own choice, mq-deadline or bfq, for a reader beside a writer: who gets the card,
    // and what the other pays.
    Lesson {
        id: "io-schedulers",
        terms: &["blk-mq", "psync", "libaio", "clat"],
    },
    // Last, the kernel under it all: the same board and jobs on Linux 6.1 and 6.12. Who
    // dispatches a request (kblockd or the task that submitted it) changes a reader's latency,
    // and tasks that dispatch at once collide in the mmc queue.
    Lesson {
        id: "kernel-upgrade",
        terms: &["blk-mq", "kblockd", "psync", "resource", "flush"],
    },
];

/// The lesson of series `id`: its number (1-based) and its entry.
pub fn lesson(id: &str) -> Option<(usize, &'static Lesson)> {
    COURSE
        .iter()
        .enumerate()
        .find(|(_, l)| l.id == id)
        .map(|(i, l)| (i + 1, l))
}

/// The lesson after series `id` (after the last, the first).
pub fn next(id: &str) -> Option<&'static Lesson> {
    let (n, _) = lesson(id)?;
    Some(&COURSE[n % COURSE.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tour_is_one_lesson_and_next_visits_them_all() {
        let tours = crate::series::tour_names();
        assert_eq!(COURSE.len(), tours.len());
        for t in &tours {
            assert!(lesson(t).is_some(), "{t} is not in the course");
        }
        for start in &tours {
            let mut seen = vec![*start];
            let mut at = *start;
            for _ in 1..tours.len() {
                at = next(at).unwrap().id;
                seen.push(at);
            }
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), tours.len(), "from {start}");
        }
    }

    #[test]
    fn the_landing_opens_lesson_1() {
        assert_eq!(
            lesson(crate::lesson::LANDING_SERIES).map(|(n, _)| n),
            Some(1)
        );
    }

    #[test]
    fn every_lesson_names_three_glossary_terms_or_more() {
        // That each exists in the glossary is checked in the browser test of the tours (the
        // glossary is a component of the page, built for wasm32 only).
        for l in COURSE {
            assert!(l.terms.len() >= 3, "{}", l.id);
        }
    }
}
