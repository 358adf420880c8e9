use super::*;
use crate::board::SPRD_HS400ES_2020;
use crate::vocab::xfer_ns;

#[test]
fn write_streams_are_recognised_as_a_most_recent_first_list_would() {
    // The former list: most recent first, a hit moves to the front, a miss drops the last.
    use rand::RngExt as _;
    let mut list = [u64::MAX; WRITE_STREAMS];
    let mut seq = |offset: u64, end: u64| match list.iter().position(|&e| e == offset) {
        Some(i) => {
            list[..=i].rotate_right(1);
            list[0] = end;
            true
        }
        None => {
            list.rotate_right(1);
            list[0] = end;
            false
        }
    };
    let mut c = card();
    let mut rng = crate::rng::stream(8, 8);
    // 40 streams (more than the card tracks) writing 4 KiB at a time, and random writes.
    let mut heads: Vec<u64> = (0..40u64).map(|s| s << 30).collect();
    let mut hits = 0;
    for n in 0..100_000 {
        let offset = if rng.random_range(0..4u32) == 0 {
            rng.random_range(0..1u64 << 20) * 4096 + 1
        } else {
            let active = rng.random_range(1..=40usize);
            let s = rng.random_range(0..active);
            let o = heads[s];
            heads[s] += 4096;
            o
        };
        let want = seq(offset, offset + 4096);
        assert_eq!(c.sequential_write(offset, 4096), want, "write {n}");
        hits += u32::from(want);
    }
    assert!(hits > 10_000, "{hits}");
}

fn card() -> Card {
    Card::new(
        SPRD_HS400ES_2020.card,
        VariationTiming::FIXED,
        true,
        crate::rng::stream(1, 1),
        crate::rng::stream(1, 2),
    )
}

const BUS: u64 = 400_000_000;

#[test]
fn a_random_read_waits_one_tr_and_its_first_page_on_the_channel() {
    let mut c = card();
    let t = 1_000_000;
    let (start, end) = c.read(t, 1 << 30, 4096, BUS);
    let channel = c.t.nand_channel_bytes_per_sec;
    assert_eq!(
        start,
        t + c.t.read_latency_random_ns + xfer_ns(4096, channel)
    );
    assert_eq!(end, start + xfer_ns(4096, BUS));
}

#[test]
fn a_large_read_streams_at_the_internal_rate_behind_its_first_page() {
    let mut c = card();
    let rate = c.internal_bytes_per_sec();
    assert!(rate < BUS, "the 2020 card streams slower than HS400");
    let (start, end) = c.read(0, 1 << 30, 512 << 10, BUS);
    let page = c.t.nand_page_bytes;
    // The bus starts after the first page; the last page is in at the internal rate.
    assert_eq!(
        start,
        c.t.read_latency_random_ns + xfer_ns(page, c.t.nand_channel_bytes_per_sec)
    );
    let last_in = start + xfer_ns((512 << 10) - page, rate);
    assert_eq!(end, last_in + xfer_ns(page, BUS));
}

#[test]
fn sequential_reads_find_the_read_ahead_only_as_far_as_it_got() {
    let mut c = card();
    let (_, end) = c.read(0, 1 << 30, 4096, BUS);
    // The second read continues the first: the card sees a stream, but had read nothing ahead.
    let t = end + 1_000_000;
    let (start, end) = c.read(t, (1 << 30) + 4096, 4096, BUS);
    assert!(start > t + c.t.read_latency_random_ns, "{start}");
    // Long after: the read-ahead has the next pages in the buffer.
    let t = end + 1_000_000;
    let (start, _) = c.read(t, (1 << 30) + 8192, 4096, BUS);
    assert_eq!(start, t + c.t.read_latency_seq_ns);
    // At once after a large read: the card streams it at the internal rate, not the bus's.
    let (s2, e2) = c.read(t + 20_000, (1 << 30) + 12288, 1 << 20, BUS);
    let took = e2 - s2;
    assert!(
        took > xfer_ns((1 << 20) - (512 << 10), c.internal_bytes_per_sec()),
        "{took}"
    );
}

#[test]
fn a_read_far_into_the_read_ahead_range_is_a_new_read() {
    let mut c = card();
    let (_, end) = c.read(0, 1 << 30, 4096, BUS);
    // 256 KiB further, at once: the read-ahead is not there yet; the card reads it anew.
    let (start, _) = c.read(end, (1 << 30) + (256 << 10), 4096, BUS);
    assert_eq!(
        start,
        end + c.t.read_latency_random_ns + xfer_ns(4096, c.t.nand_channel_bytes_per_sec)
    );
}

#[test]
fn a_discard_is_busy_for_the_trim_time_and_unmaps_the_read_ahead() {
    let mut c = card();
    c.read(0, 1 << 30, 4096, BUS);
    let end = c.discard(1_000_000, 1 << 30, 1 << 20);
    assert_eq!(end, 1_000_000 + c.t.trim_ns);
    // The data read ahead was discarded: the next read goes to NAND again.
    let t = 2_000_000;
    let (start, _) = c.read(t, (1 << 30) + 4096, 4096, BUS);
    assert_eq!(
        start,
        t + c.t.read_latency_random_ns + xfer_ns(4096, c.t.nand_channel_bytes_per_sec)
    );
}

#[test]
fn cache_fills_then_stalls_at_nand_speed() {
    let mut c = card();
    let cap = c.t.cache_bytes;
    let mut t = 0;
    // Fill far past capacity in one go: later writes stall.
    let mut stalled = false;
    for i in 0..(8 * cap / 65536) {
        let (s, _e, busy) = c.write(t, i * 65536, 65536, false, 400_000_000, i);
        if s > t {
            stalled = true;
        }
        t = busy;
    }
    assert!(stalled);
    assert!(c.dirty_at(t) <= cap);
}

#[test]
fn looking_at_the_dirty_bytes_agrees_with_draining() {
    use rand::RngExt as _;
    let mut c = card();
    let mut rng = crate::rng::stream(7, 7);
    let (mut t, mut written) = (0, 0);
    for i in 0..2000u64 {
        let len = 512 * (1 + rng.random_range(0..256u64));
        let (_, _, busy) = c.write(t, i * (1 << 20), len, false, 400_000_000, i);
        written += len;
        t = busy + rng.random_range(0..200_000u64);
        let seen = c.dirty_at(t);
        assert_eq!(c.dirty_at(t), seen, "looking twice gives the same answer");
        assert_eq!(c.programmed_at(t) + seen, written);
        c.drain_to(t);
        assert_eq!(seen, c.dirty, "at {t} after write {i}");
    }
    let end = c.flush(t);
    assert_eq!(c.programmed_at(end), written);
}

#[test]
fn flush_empties_the_cache() {
    let mut c = card();
    let (_, _, busy) = c.write(0, 0, 1 << 20, false, 400_000_000, 1);
    let end = c.flush(busy);
    assert!(end >= busy + xfer_ns(1 << 20, c.t.nand_program_bytes_per_sec) / 2);
    assert_eq!(c.dirty_at(end), 0);
    c.drain_to(end);
    assert_eq!(c.cached_extents().count(), 0);
}

#[test]
fn a_cut_during_a_flush_loses_what_it_had_not_programmed() {
    let mut c = card();
    let mut t = 0;
    for i in 0..8u64 {
        let (_, _, busy) = c.write(t, i * 4096, 4096, false, 400_000_000, i);
        t = busy;
    }
    let dirty = c.dirty_at(t);
    assert!(dirty > 0);
    let end = c.flush(t);
    let drain_end = t + xfer_ns(dirty, c.t.nand_program_bytes_per_sec);
    assert!(end >= drain_end);
    // Halfway through, about half is programmed, in program order.
    let mid = t + (drain_end - t) / 2;
    let left = c.dirty_at(mid);
    assert!(
        left > 0 && left < dirty,
        "{left} of {dirty} left at mid-flush"
    );
    let mut cut = card();
    let mut t2 = 0;
    for i in 0..8u64 {
        let (_, _, busy) = cut.write(t2, i * 4096, 4096, false, 400_000_000, i);
        t2 = busy;
    }
    cut.flush(t2);
    let lost = cut.power_cut(mid);
    assert_eq!(lost.iter().map(|e| e.remaining()).sum::<u64>(), left);
    assert_eq!(lost.back().map(|e| e.req), Some(7));
    // Once the flush has programmed everything, nothing is left to lose.
    assert_eq!(c.dirty_at(drain_end), 0);
    assert!(c.power_cut(drain_end).is_empty());
}

#[test]
fn power_cut_loses_the_held_cache_only() {
    let mut c = card();
    let hold = c.hold();
    let mut t = 0;
    for i in 0..64u64 {
        let (_, _, busy) = c.write(t, i * 4096, 4096, false, 400_000_000, i);
        t = busy + 1_000_000;
    }
    let lost = c.power_cut(t);
    let bytes: u64 = lost.iter().map(|e| e.remaining()).sum();
    assert!(bytes > 0 && bytes <= hold, "lost {bytes} of hold {hold}");
    assert_eq!(
        lost.back().map(|e| e.req),
        Some(63),
        "the newest writes are the ones lost"
    );
}

#[test]
fn reliable_write_waits_for_nand() {
    let mut c = card();
    let (_, _, normal) = c.write(0, 0, 4096, false, 400_000_000, 1);
    let (_, _, reliable) = c.write(1_000_000, 8192, 4096, true, 400_000_000, 2);
    assert!(reliable - 1_000_000 > normal + 200_000);
}

#[test]
fn a_reliable_write_programs_whole_units_one_tprog_each() {
    let mut c = card();
    let unit = c.t.program_unit_bytes;
    let (tprog, commit) = (c.t.nand_program_ns, c.t.reliable_write_fixed_ns);
    // 4 KiB: a whole unit's program, after its data.
    let (_, data_end, end) = c.write(0, 0, 4096, true, BUS, 1);
    assert_eq!(end - data_end, tprog + commit);
    // Eight units: the programs outpace the bus, so they follow one another from the first
    // unit's arrival.
    let t = 10_000_000;
    let (_, _, end) = c.write(t, 1 << 30, 8 * unit, true, BUS, 2);
    assert_eq!(end, t + xfer_ns(unit, BUS) + 8 * tprog + commit);
}

#[test]
fn a_trim_inside_a_cached_write_is_not_reported_lost() {
    let mut c = card();
    // 64 KiB into the cache at once: nothing programmed yet at its end.
    let (_, end, _) = c.write(0, 1 << 20, 65536, false, 400_000_000, 7);
    let lost = |c: &Card| -> Vec<(u64, u64)> {
        c.cached_extents()
            .flat_map(|e| e.lost_ranges().collect::<Vec<_>>())
            .collect()
    };
    let before: u64 = lost(&c).iter().map(|r| r.1).sum();
    assert!(before > 32768, "{:?}", lost(&c));
    // 16 KiB trimmed from its middle: lost on either side of it, never inside.
    c.discard(end, (1 << 20) + 16384, 16384);
    let after = lost(&c);
    assert!(
        after
            .iter()
            .all(|&(o, l)| o + l <= (1 << 20) + 16384 || o >= (1 << 20) + 32768),
        "{after:?}"
    );
    assert_eq!(
        after.iter().map(|r| r.1).sum::<u64>(),
        before - 16384,
        "{after:?}"
    );
    // A second trim overlapping the first widens the hole; one apart keeps the longer.
    c.discard(end, (1 << 20) + 24576, 16384);
    let wider: u64 = lost(&c).iter().map(|r| r.1).sum();
    assert_eq!(wider, before - 24576, "{:?}", lost(&c));
    c.discard(end, (1 << 20) + 57344, 4096);
    assert_eq!(
        lost(&c).iter().map(|r| r.1).sum::<u64>(),
        wider,
        "a shorter hole apart is not kept"
    );
}

/// Issue 48 item 5: a 1 GiB cache holding 512 MiB of 512-byte writes keeps a million extents;
/// at 64 bytes each (with the ring's doubling) that run peaked at 222 MB, 135 MB without the
/// cut. An extent is 32 bytes; what trims unmapped is kept only for the extents they touched.
#[test]
fn a_cached_extent_is_32_bytes_and_trims_still_count() {
    assert_eq!(std::mem::size_of::<super::CachedExtent>(), 32);
    let mut c = card();
    let (_, _, busy) = c.write(0, 0, 8192, false, 400_000_000, 1);
    let (_, _, busy) = c.write(busy, 1 << 20, 4096, false, 400_000_000, 2);
    // A trim inside the first write, none on the second.
    c.discard(busy, 2048, 1024);
    let lost = c.power_cut(busy);
    let ranges: Vec<_> = lost.iter().flat_map(|e| e.lost_ranges()).collect();
    assert_eq!(ranges, vec![(0, 2048), (3072, 5120), (1 << 20, 4096)]);
}
