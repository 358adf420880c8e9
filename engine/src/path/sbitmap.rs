//! blk-mq's tag allocator, lib/sbitmap.c as Linux 5.10-6.1 run it (`struct sbitmap_queue` with
//! round robin off, as `blk_mq_init_bitmap_tags` sets it up for the mmc queue's 64 tags).
//!
//! What decides which tag a request gets:
//! - the tags are split in words (`sbitmap_calculate_shift`: 16 bits each for a depth of 64);
//! - each CPU has an allocation hint (`sb->alloc_hint`, per CPU, random at
//!   `sbitmap_init_node`). Without round robin `__sbitmap_get` uses the hint only to pick the
//!   *word*, then takes the lowest zero bit of that word (`__sbitmap_get_word` from bit 0),
//!   moving on to the next words if it is full;
//! - a freed tag is not cleared at once: `sbitmap_queue_clear` sets it in the word's `cleared`
//!   mask (`sbitmap_deferred_clear_bit`), and only a getter that finds the word full moves
//!   those bits back (`sbitmap_deferred_clear`). So a word hands out its 16 tags in ascending
//!   order, then starts again from its lowest;
//! - `sbitmap_queue_clear(tag, cpu)` makes the freed tag the hint of `cpu`
//!   (`sbitmap_update_cpu_hint`), and blk-mq passes the CPU of the request's software queue
//!   (`blk_mq_put_tag(tags, rq->mq_ctx, tag)`): the CPU the request was *allocated* on, not
//!   the CPU that completes it (the host IRQ's). A CPU therefore keeps allocating in the word
//!   of its own last freed tag.
//! - `update_alloc_hint_after_get`: the hint moves past the tag only when the tag *was* the
//!   hint; a full map resets it to 0.

/// `BITS_PER_LONG` on the 64-bit SoCs: `sbitmap_calculate_shift` starts from log2 of it.
const BITS_PER_LONG_SHIFT: u32 = 6;

/// `struct sbitmap_queue` of at most 64 tags: the words packed into one u64 each for `word`
/// and `cleared`, and the per-CPU hints.
#[derive(Clone, Debug)]
pub struct SbitmapQueue {
    /// `sb->map[i].word` of every word: bit set = allocated, or freed and not reclaimed yet.
    word: u64,
    /// `sb->map[i].cleared`: freed bits waiting for `sbitmap_deferred_clear`.
    cleared: u64,
    depth: u16,
    /// `sb->shift`: log2 of the bits per word.
    shift: u32,
    /// `sb->alloc_hint`, one per CPU.
    hint: Vec<u16>,
}

impl SbitmapQueue {
    /// `sbitmap_queue_init_node` for `depth` tags (at most 64) and `cpus` CPUs: each CPU's
    /// hint starts at a random tag (`init_alloc_hint`), drawn here from the run's seed.
    pub fn new(depth: u16, cpus: u16, rng: &mut crate::rng::Rng) -> SbitmapQueue {
        use rand::RngExt;
        assert!((1..=64).contains(&depth), "at most 64 tags in one u64");
        let hint = (0..cpus.max(1))
            .map(|_| rng.random_range(0..depth))
            .collect();
        SbitmapQueue {
            word: 0,
            cleared: 0,
            depth,
            shift: sbitmap_calculate_shift(depth),
            hint,
        }
    }

    /// `sb->depth`: the tags of the map.
    pub fn depth(&self) -> u16 {
        self.depth
    }

    /// Tags in use (`sbitmap_weight`: set bits less the deferred cleared ones).
    pub fn in_use(&self) -> u16 {
        (self.word & !self.cleared).count_ones() as u16
    }

    /// `sb->map_nr`.
    fn words(&self) -> u16 {
        self.depth.div_ceil(1 << self.shift)
    }

    /// The bits of word `index` (its first tag and `sb->map[index].depth`) as a mask.
    fn word_mask(&self, index: u16) -> u64 {
        let base = (index as u32) << self.shift;
        let bits = (1u32 << self.shift).min(self.depth as u32 - base);
        (u64::MAX >> (64 - bits)) << base
    }

    /// `sbitmap_find_bit_in_index`: the lowest zero bit of the word (`__sbitmap_get_word` from
    /// bit 0: no wrap needed), reclaiming the word's deferred clears once when it is full.
    #[inline]
    fn find_bit_in_index(&mut self, index: u16) -> Option<u16> {
        let mask = self.word_mask(index);
        if self.word & mask == mask {
            // `sbitmap_deferred_clear`: nothing cleared means the word is really full.
            let back = self.cleared & mask;
            if back == 0 {
                return None;
            }
            self.cleared &= !back;
            self.word &= !back;
        }
        let nr = (!self.word & mask).trailing_zeros() as u16;
        self.word |= 1 << nr;
        Some(nr)
    }

    /// `sbitmap_queue_get` on `cpu` (`__sbitmap_queue_get` -> `sbitmap_get`): a free tag, or
    /// None when all are in use.
    pub fn get(&mut self, cpu: u16) -> Option<u16> {
        // The CPU comes from `job_cpu` with the same CPU count: always a valid index.
        let slot = cpu as usize;
        // `update_alloc_hint_before_get`: a hint is always < depth here (set from a tag, or
        // reset below), so the kernel's re-draw of an out-of-range hint never happens.
        let hint = self.hint[slot];
        let words = self.words();
        // `__sbitmap_get`: without round robin the hint only picks the word.
        let mut index = hint >> self.shift;
        let mut got = None;
        for _ in 0..words {
            got = self.find_bit_in_index(index);
            if got.is_some() {
                break;
            }
            index = (index + 1) % words;
        }
        // `update_alloc_hint_after_get`.
        match got {
            None => self.hint[slot] = 0,
            Some(nr) if nr == hint => {
                let next = nr + 1;
                self.hint[slot] = if next >= self.depth - 1 { 0 } else { next };
            }
            Some(_) => {}
        }
        got
    }

    /// `sbitmap_queue_clear(tag, cpu)`: the tag goes to the word's deferred `cleared` mask
    /// and becomes `cpu`'s hint (`sbitmap_update_cpu_hint`).
    pub fn clear(&mut self, tag: u16, cpu: u16) {
        debug_assert!(self.word & (1 << tag) != 0 && self.cleared & (1 << tag) == 0);
        self.cleared |= 1 << tag;
        self.hint[cpu as usize] = tag;
    }

    #[cfg(test)]
    fn set_hint(&mut self, cpu: u16, tag: u16) {
        self.hint[cpu as usize] = tag;
    }
}

/// `sbitmap_calculate_shift`: from `BITS_PER_LONG` bits per word, halved while four words
/// would hold more than `depth` bits (64 tags: 16-bit words).
fn sbitmap_calculate_shift(depth: u16) -> u32 {
    let mut shift = BITS_PER_LONG_SHIFT;
    if depth >= 4 {
        while (4u32 << shift) > depth as u32 {
            shift -= 1;
        }
    }
    shift
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(depth: u16, cpus: u16) -> SbitmapQueue {
        let mut sb = SbitmapQueue::new(depth, cpus, &mut crate::rng::stream(1, 1));
        for c in 0..cpus {
            sb.set_hint(c, 0);
        }
        sb
    }

    #[test]
    fn shift_is_the_kernels() {
        assert_eq!(sbitmap_calculate_shift(64), 4);
        assert_eq!(sbitmap_calculate_shift(32), 3);
        assert_eq!(sbitmap_calculate_shift(3), 6);
        assert_eq!(queue(64, 1).words(), 4);
    }

    #[test]
    fn a_word_hands_out_its_tags_in_ascending_order_before_reusing_a_freed_one() {
        let mut sb = queue(64, 1);
        let mut seen = Vec::new();
        // One request at a time: each tag is freed before the next get, yet the word walks on.
        for _ in 0..20 {
            let t = sb.get(0).expect("free");
            seen.push(t);
            sb.clear(t, 0);
        }
        // The hint follows the freed tag, so the CPU stays in word 0: 0..15, then again.
        let want: Vec<u16> = (0..16).chain(0..4).collect();
        assert_eq!(seen, want);
        assert_eq!(sb.in_use(), 0);
    }

    #[test]
    fn the_hint_picks_the_word_and_the_lowest_free_bit_of_it() {
        let mut sb = queue(64, 2);
        sb.set_hint(1, 37);
        assert_eq!(sb.get(1), Some(32), "word 2, from its bit 0");
        assert_eq!(sb.get(1), Some(33));
        assert_eq!(sb.get(0), Some(0));
        // A freed tag becomes the hint of the CPU given (the request's own CPU).
        sb.clear(0, 1);
        assert_eq!(sb.get(1), Some(1), "word 0 now; tag 0 is still deferred");
    }

    #[test]
    fn full_map_gives_none_and_a_freed_tag_comes_back() {
        let mut sb = queue(20, 1);
        let got: Vec<u16> = (0..20).filter_map(|_| sb.get(0)).collect();
        assert_eq!(got.len(), 20);
        assert_eq!(sb.get(0), None);
        assert_eq!(sb.in_use(), 20);
        sb.clear(17, 0);
        assert_eq!(sb.in_use(), 19);
        assert_eq!(
            sb.get(0),
            Some(17),
            "the deferred clear is reclaimed when the word is full"
        );
    }

    #[test]
    fn same_seed_same_hints() {
        let a = SbitmapQueue::new(64, 8, &mut crate::rng::stream(3, 4));
        let b = SbitmapQueue::new(64, 8, &mut crate::rng::stream(3, 4));
        assert_eq!(a.hint, b.hint);
        assert!(a.hint.iter().all(|&h| h < 64));
    }
}
