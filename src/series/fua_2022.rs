//! Host-controlled FUA (2022, `unisoc-fua-2022`): a synchronous write is either a reliable write
//! (FUA on) or a write into the cache plus a cache flush the block layer sends (FUA off); both
//! are durable before they are acknowledged. B (fua=1) is mainline's; A (fua=0) the patch,
//! never merged.

use mmcsim_engine::calibration::SERIES;
use mmcsim_engine::explain::Layer;

use super::gallery_text;
use super::readout::{self, so_far};
use super::script::{StepAction as S, TryIt, WalkStep};
use super::throughput::{run, Parts};
use super::words::speed_words;
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::RunError;

pub static DATA: SeriesData = SeriesData {
    series: &SERIES[1],
    headline: Headline::Case { rw: "randwrite", bs: 4096 },
    kernel: gallery_text("The patch lets the host decide whether to advertise FUA (blk_queue_write_cache with \
             fua). An O_SYNC write carries REQ_FUA either way. With FUA advertised, mmc_blk_rw_rq_prep \
             turns it into an eMMC reliable write (CMD23 bit 31) that completes only once the data is \
             in NAND. Without it, the block layer (blk-flush.c, REQ_FSEQ_POSTFLUSH) sends the write \
             into the card's cache, then a cache flush (CMD6 FLUSH_CACHE), and completes the write only \
             after the flush: just as durable. The patch trades a reliable write for a write plus a flush. \
             It never reached mainline: Linux 6.4 answered it with a card quirk instead \
             (MMC_QUIRK_AVOID_REL_WRITE, Ulf Hansson's 'Allow to avoid REQ_FUA if the eMMC supports an \
             internal cache'): a card that has it and its cache on advertises no FUA, so fua=0 here is such \
             a card, decided per card, not by the host (the patch listed no card). The measurement was \
             AndroBench on F2FS; the model runs one raw O_SYNC write per I/O instead. On F2FS \
             (fs=f2fs) Linux 6.1's f2fs_do_sync_file sends a data write, the file's node block and \
             an empty flush, none with REQ_FUA, so there the switch changes nothing the card \
             receives; only an atomic write's commit (fs=f2fs-atomic) sends the node write with \
             PREFLUSH|FUA, which FUA turns into a reliable write."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load the run without FUA: one job of synchronous 4 KiB random writes, fua=0.")),
        WalkStep::plain(S::Play("200 µs/s"), gallery_text("Play it slowly: each write goes into the card's cache, then the block layer sends a flush behind it; the write is acknowledged when the flush is done.")),
        WalkStep::says(S::Pause, |s| match s.figs {
            Some((fa, fb)) => format!("Pause and look at the card: {:.1} µs per request on the bus and card here (writes and their flushes), {:.1} µs with FUA. Each flush is short: the card programs its small cache as the data arrives.", fa.bus_us, fb.bus_us),
            None => "Pause and look at the card: every write is followed by a flush request of the same I/O.".to_string(),
        }),
        WalkStep::plain(S::Highlight(Layer::Card), gallery_text("The card is where the difference is made: a reliable write holds it busy for an SLC program and a commit; a write into the cache plus a flush costs less here.")),
        WalkStep::plain(S::PlugAt("50ms"), gallery_text("Pull the plug at 50 ms (power_cut=50ms) and run: no acknowledged write is lost, because each one waited for its flush.")),
        WalkStep::plain(S::Load(true), gallery_text("Load the run with FUA (fua=1): every write becomes a reliable write.")),
        WalkStep::says(S::RunToEnd, |s| match s.figs {
            Some((fa, fb)) => format!("Run it to the end: simulated {}, {}; the authors measured {}.", s.sizes(), speed_words(fa.figure, fb.figure, s.unit), s.authors()),
            None => format!("Run it to the end; the authors measured {}.", s.authors()),
        }),
        WalkStep::plain(S::PlugAt("50ms"), gallery_text("Pull the plug at the same moment: again no acknowledged write is lost. FUA changes the cost of durability, not whether O_SYNC writes get it.")),
        WalkStep::plain(S::Compare, gallery_text("Fill the whole table: reads do not change, large writes lose a quarter, small writes most.")),
    ],
    tour: Some(tour),
    suggest_b: Some(|cfg, b| {
        b.set_switch("fua", Some(!cfg.fua));
        true
    }),
};

fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let r = run(input)?;
    let (ca, cb) = r.columns;
    let speed = "200 µs/s";
    // The moment each side has completed sixteen requests (`MIN_REQUESTS`: the figures so far
    // mean something): B's reliable writes are slow, so A is far past it (the press sentence
    // names both counts).
    let at = r.pause(speed, |_, _| true)?;
    let (pa, pb) = (at.fa, at.fb);
    let parts = Parts {
        speed,
        intro: format!(
            "A ({ca}) and B ({cb}): one program doing synchronous 4 KiB random writes. Without FUA \
             the block layer sends each write into the card's cache and then a cache flush; with FUA \
             each write is one reliable write, answered once it is in NAND. Both are durable when \
             acknowledged."
        ),
        watch_for: "Each write crosses the bus. Without FUA a short flush (CMD6) follows it; with FUA the card holds \
                    the bus busy (DAT0 low) until the flash is programmed: long card-busy stretches on its bus strip."
            .to_string(),
        paused: at,
        pause_words: "",
        layer: Layer::Card,
        cause: format!(
            "The cause, at {} {}: per request A spends {:.1} µs on the bus and card, B {:.1} µs \
             (a write or its flush without FUA, a reliable write with it); time in host software stages is {:.1} vs {:.1} µs. Bus busy {} vs {}.",
            readout::clock(at.t_ns), so_far(&pa, &pb), pa.bus_us, pb.bus_us, pa.software_us, pb.software_us,
            readout::busy(false, &pa), readout::busy(true, &pb)
        ),
        question: "Before B runs to the end: how will B's write rate compare with A's?",
        choices: &[1.0, 0.5, 0.2, 0.1],
        // No step of this tour pulls the plug, so the recap claims nothing about a power cut
        // (a recap once did); the gallery's walk-through of the series pulls it.
        recap: format!(
            "B ({cb}) is what mainline runs on this card: every O_SYNC write becomes a reliable write. A \
             ({ca}) is the 2022 patch, never merged (mainline 6.4 drops FUA only for a card with \
             MMC_QUIRK_AVOID_REL_WRITE and its cache on): a write into the cache plus a flush; here {}. Both \
             acknowledge a synchronous write only once it is in NAND: after the reliable write's program, \
             or after the flush the block layer sends behind it. (This tour pulls no plug; the gallery's \
             walk-through of this series pulls it at 50 ms.)",
            speed_words(r.fa.figure, r.fb.figure, DATA.series.unit.name())
        ),
        try_it: TryIt {
            option: "bs",
            value: "64k",
            both: true,
            press: None,
            button: None,
            pair: None,
        },
    };
    Ok(r.script(parts, Vec::new(), None))
}

#[cfg(test)]
mod tests {
    use mmcsim_engine::calibration::CASES;
    use mmcsim_engine::scenario::Rw;

    /// The Compare step says it in words ("reads do not change, large writes lose a quarter,
    /// small writes most"): the authors' figures say the same.
    #[test]
    fn the_compare_step_says_what_the_authors_table_shows() {
        let loss = |rw: Rw, bs: u64| {
            let c = CASES
                .iter()
                .find(|c| c.series == super::DATA.series.id && c.rw == rw && c.bs == bs)
                .expect("a case of the table");
            1.0 - c.measured.1 / c.measured.0
        };
        for (rw, bs) in [(Rw::Read, 512 << 10), (Rw::RandRead, 4 << 10)] {
            assert!(loss(rw, bs).abs() < 0.05, "{rw:?} {bs}");
        }
        let large = loss(Rw::Write, 512 << 10);
        assert!((0.2..0.3).contains(&large), "a quarter: {large}");
        assert!(loss(Rw::RandWrite, 4 << 10) > large, "small writes most");
    }

    /// The walk-through's plug steps say no acknowledged write is lost: pulled where the steps
    /// pull it (on the pair the gallery loads, at the time the steps name), on both sides.
    #[test]
    fn the_walk_throughs_plug_steps_lose_what_they_say() {
        use crate::series::StepAction;
        let d = &super::DATA;
        let (a, b, _) = d.pair(d.size());
        let plugs: Vec<&str> = d
            .walk
            .iter()
            .filter_map(|w| match w.action {
                StepAction::PlugAt(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(plugs.len(), 2);
        for (scn, t) in [(&a, plugs[0]), (&b, plugs[1])] {
            let cut = crate::tools::exports::with_power_cut(scn, t).unwrap();
            let p = mmcsim_engine::run(&cut).unwrap().power_cut.unwrap();
            assert!(p.acked_writes > 0 && p.lost_acked_writes == 0, "{t}: {p:?}");
        }
        for w in d.walk {
            let text = w.text(&crate::series::Says {
                size: d.size(),
                case: d.headline_case(),
                unit: "MiB/s",
                figs: None,
            });
            if !matches!(w.action, StepAction::PlugAt(_)) {
                assert!(!text.contains("lost"), "a claim without a plug: {text}");
            }
        }
    }

    /// The tour pulls no plug: its texts claim nothing about a power cut or lost writes.
    #[test]
    fn the_tour_claims_no_power_cut() {
        let t = crate::lesson::tour(super::DATA.series.id).unwrap();
        for s in &t.steps {
            let text = s.text().to_lowercase();
            assert!(
                !text.contains("lost") && !text.contains("power cut"),
                "{text}"
            );
        }
    }
}
