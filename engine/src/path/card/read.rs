//! The card's read path (the card's side of CMD18 READ_MULTIPLE_BLOCK, `mmc_blk_rw_rq_prep`):
//! a read-ahead buffer hit or a NAND page read.

use super::Card;
use crate::vocab::Cause;

impl Card {
    /// Read access time for a read of `len` bytes at `offset` whose command ends at `now`:
    /// a hit in a read-ahead window (or a sequential continuation) costs the buffer latency,
    /// anything else a NAND page read (unless it hits the card's buffer by chance).
    pub fn read_access(&mut self, offset: u64, len: u64) -> u64 {
        self.cause = Cause::None;
        let end = offset.saturating_add(len);
        let hit = self
            .windows
            .iter()
            .position(|&(s, e)| offset >= s && offset < e.max(s + 1) || offset == e);
        let new_window = (offset, end.saturating_add(self.t.read_ahead_bytes));
        let latency = match hit {
            Some(i) => {
                self.windows[..=i].rotate_right(1);
                self.t.read_latency_seq_ns
            }
            None => {
                self.windows.rotate_right(1);
                if crate::rng::chance_ppm(&mut self.rng, self.t.random_read_hit_ppm) {
                    self.t.read_latency_seq_ns
                } else {
                    let t = self.var.nand_read(self.t.read_latency_random_ns);
                    let (tr_pct, retries) = self.var.last_read;
                    self.cause = Cause::NandRead { tr_pct, retries };
                    t
                }
            }
        };
        let w = &mut self.windows[0];
        if hit.is_some() {
            w.1 = w.1.max(new_window.1);
        } else {
            *w = new_window;
        }
        latency
    }

    /// A command-queued read known to the card at `t`: when its data is ready. NAND reads run
    /// on the first free die; buffer hits need none.
    pub fn queued_read_ready(&mut self, t: u64, offset: u64, len: u64) -> u64 {
        let lat = self.read_access(offset, len);
        if lat <= self.t.read_latency_seq_ns {
            return t + lat;
        }
        let die = (0..self.die_free.len())
            .min_by_key(|&i| self.die_free[i])
            .unwrap_or(0);
        let start = t.max(self.die_free[die]);
        self.die_free[die] = start + lat;
        start + lat
    }
}
