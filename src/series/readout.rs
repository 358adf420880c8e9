//! Figures in a tour's text that the screen also shows: a text names the readout a figure is
//! (`a.per-irq`, `b.bus-busy`, `clock`), formatted as that readout formats it, so the page
//! draws it as a span carrying the readout's id and a test compares the two on screen.
//!
//! A text carries them as markers, `⟦a.per-irq|1.00⟧`: [`plain`] is what a reader reads,
//! [`pieces`] what the page lays out.

use super::words::Figures;

/// The readouts a text may name, as the Watch marks them (`data-readout`): requests done,
/// requests per interrupt and bus busy under each pipeline, who issued its requests (shown where
/// kblockd issued any, or the sides' kernels differ), the interrupts counted in each pipeline's
/// controller column, what bfq serves and raises (in B's blk-mq column under bfq), and the
/// clock.
pub const READOUTS: [&str; 15] = [
    "b.bfq-job",
    "b.bfq-raised",
    "a.done",
    "b.done",
    "a.irqs",
    "b.irqs",
    "a.per-irq",
    "b.per-irq",
    "a.bus-busy",
    "b.bus-busy",
    "a.by-task",
    "b.by-task",
    "a.by-kblockd",
    "b.by-kblockd",
    "clock",
];

const OPEN: char = '⟦';
const CLOSE: char = '⟧';

/// The readout of requests per interrupt ("1.00"; "–" before the first interrupt).
pub fn per_irq_text(f: &Figures) -> String {
    if f.per_irq > 0.0 {
        format!("{:.2}", f.per_irq)
    } else {
        "–".to_string()
    }
}

/// The readout of bus busy ("78 %").
pub fn busy_text(f: &Figures) -> String {
    format!("{:.0} %", f.bus_busy_pct)
}

/// Side A's (`b: false`) or B's requests issued by the submitting tasks, as its readout
/// shows it.
pub fn by_task(b: bool, f: &Figures) -> String {
    mark(
        if b { "b.by-task" } else { "a.by-task" },
        &f.by_task.to_string(),
    )
}

/// Side A's or B's requests issued by kblockd, as its readout shows it.
pub fn by_kblockd(b: bool, f: &Figures) -> String {
    mark(
        if b { "b.by-kblockd" } else { "a.by-kblockd" },
        &f.by_kblockd.to_string(),
    )
}

/// "over the run so far (A's first 40 requests, B's first 112)": what a moment's per-request
/// figures are over, each count the readout of requests done under its pipeline.
pub fn so_far(fa: &Figures, fb: &Figures) -> String {
    format!(
        "over the run so far (A's first {} requests, B's first {})",
        done(false, fa),
        done(true, fb)
    )
}

/// Side A's (`b: false`) or B's requests done so far, as its readout shows it (what a
/// moment's per-request figures are over).
pub fn done(b: bool, f: &Figures) -> String {
    mark(if b { "b.done" } else { "a.done" }, &f.requests.to_string())
}

/// Side A's or B's interrupts so far, as its controller column counts them.
pub fn irqs(b: bool, f: &Figures) -> String {
    mark(
        if b { "b.irqs" } else { "a.irqs" },
        &f.interrupts.to_string(),
    )
}

/// A figure of readout `id` in a text (public for what is no `Figures`' figure: bfq's job in
/// service and raised queues, "job 0", "job 0 ×30").
pub fn mark(id: &str, text: &str) -> String {
    format!("{OPEN}{id}|{text}{CLOSE}")
}

/// Side A's (`b: false`) or B's requests per interrupt, as its readout shows it.
pub fn per_irq(b: bool, f: &Figures) -> String {
    mark(if b { "b.per-irq" } else { "a.per-irq" }, &per_irq_text(f))
}

/// Side A's or B's bus busy, as its readout shows it.
pub fn busy(b: bool, f: &Figures) -> String {
    mark(if b { "b.bus-busy" } else { "a.bus-busy" }, &busy_text(f))
}

/// The clock at `t_ns`, as the time controls show it.
pub fn clock(t_ns: u64) -> String {
    mark(
        "clock",
        &mmcsim_engine::scenario::units::format_clock_ns(t_ns),
    )
}

/// A piece of a text: words, or a figure of a readout.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece<'a> {
    Words(&'a str),
    Figure { id: &'a str, text: &'a str },
}

/// The pieces of a text, in order.
pub fn pieces(s: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find(OPEN) {
        let body = &rest[i + OPEN.len_utf8()..];
        let Some(j) = body.find(CLOSE) else { break };
        if i > 0 {
            out.push(Piece::Words(&rest[..i]));
        }
        let (id, text) = body[..j].split_once('|').unwrap_or(("", &body[..j]));
        out.push(Piece::Figure { id, text });
        rest = &body[j + CLOSE.len_utf8()..];
    }
    if !rest.is_empty() {
        out.push(Piece::Words(rest));
    }
    out
}

/// What a reader reads: the text without its markers.
pub fn plain(s: &str) -> String {
    pieces(s)
        .into_iter()
        .map(|p| match p {
            Piece::Words(w) => w,
            Piece::Figure { text, .. } => text,
        })
        .collect()
}

/// The readouts a text names, with the figure it gives each.
pub fn figures(s: &str) -> Vec<(&str, &str)> {
    pieces(s)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Figure { id, text } => Some((id, text)),
            Piece::Words(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_carries_its_readouts_and_reads_plain() {
        let f = Figures {
            figure: 1.0,
            per_irq: 1.0,
            bus_busy_pct: 77.6,
            bus_us: 0.0,
            software_us: 0.0,
            idle_us: 0.0,
            requeues: 0,
            interrupts: 1,
            longest_wait_us: 0.0,
            host_queue_us: 0.0,
            clat_p50_ns: 0,
            requests: 1,
            reads: 0,
            write_bytes: 0,
            by_task: 3,
            by_kblockd: 0,
            flushes: 0,
        };
        let s = format!(
            "At {}: A {} per interrupt, busy {}; the task issued {}, kblockd {}.",
            clock(2_404_000),
            per_irq(false, &f),
            busy(true, &f),
            by_task(true, &f),
            by_kblockd(false, &f)
        );
        assert_eq!(
            plain(&s),
            "At 2.404 ms: A 1.00 per interrupt, busy 78 %; the task issued 3, kblockd 0."
        );
        assert_eq!(
            figures(&s),
            vec![
                ("clock", "2.404 ms"),
                ("a.per-irq", "1.00"),
                ("b.bus-busy", "78 %"),
                ("b.by-task", "3"),
                ("a.by-kblockd", "0")
            ]
        );
        assert!(figures(&s).iter().all(|(id, _)| READOUTS.contains(id)));
        assert_eq!(plain("no figures"), "no figures");
    }
}
