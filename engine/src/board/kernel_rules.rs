//! Which kernel's rules a run follows: the block-layer rule sets the model carries (Linux 6.1,
//! 6.6 and 6.12, the Android GKI lines android14-6.1, android15-6.6 and android16-6.12), the
//! rules each one changes, with the upstream commit and the release that brought it, and the
//! mmc features a version has or lacks (hsq, its dynamic depth, the CQE).
//!
//! A version the model does not carry runs the block layer of the nearest carried one
//! ([`KernelVersion::rule_set`]; a tie goes to the older) and says so on every screen (the
//! warnings the CLI prints and the page shows, the CLI's `kernel:` line, the fio JSON's
//! `kernel_rules`); its mmc rules (the CMD13 polling, the CQE, hsq and its depth) are its own
//! version's. A feature newer than the version is a what-if (`what_if.rs`).
//!
//! What each rule set runs differently (each rule a field of [`BlockRules`], read where the
//! kernel acts on it):
//!
//! | rule | 6.1 | 6.6 | 6.12 |
//! |---|---|---|---|
//! | `blkdev_write_iter` plugs a write (removed by 712c7364655f, 6.5) | yes | no | no |
//! | `__submit_bio` plugs every bio (060406c61c7c, 6.10) | no | no | yes |
//! | a synchronous queue run of a `BLK_MQ_F_BLOCKING` queue runs in the caller (65a558f66c30, 6.6) | no: kblockd | yes | yes |
//! | a PREFLUSH/FUA write's data takes the normal path, only its post-flush blk-flush's (615939a2ae73, 6.5) | no | yes | yes |
//! | block_rq_* event text carries the I/O priority (aa6ff4eb7c10, 6.11) | no | no | yes |
//! | mq-deadline batches on from the last dispatched position (`latest_pos`, 6.5) | no | yes | yes |
//! | the plug list kept in submission order (e70c301faece, 6.13; 6.12.y) | no | no | yes |
//! | bfq counts the root group among the groups with requests pending, and idles for service guarantees only from two (Yu Kuai's "block, bfq: do not idle if only one group is activated", after 6.1) | no: one group besides the root | yes | yes |
//!
//! Simplifications, said here and where each rule acts: the plug list's order does not change
//! what the model issues (its plug is a list in submission order under every rule set, with
//! merges into the plug's last request, what 961296e89dc3 keeps under 6.12.y; Linux 6.1 issued a
//! plug flushed directly newest first), and mq-deadline's 6.5 handling of requeued requests
//! (back at the head of the scheduler) changes nothing on an mmc queue: its refused requests go
//! to `hctx->dispatch`, never back into the scheduler.

use super::KernelVersion;

/// The block-layer rule sets the model carries, oldest first.
pub const CARRIED: [KernelVersion; 3] = [
    KernelVersion::new(6, 1),
    KernelVersion::new(6, 6),
    KernelVersion::new(6, 12),
];

/// The host software queue (drivers/mmc/host/mmc_hsq.c, Baolin Wang's "mmc: Add MMC host
/// software queue support", 511ce378e16f) entered mainline in Linux 5.8.
pub const HSQ_SINCE: KernelVersion = KernelVersion::new(5, 8);

/// The blk-mq schedulers kyber (block/kyber-iosched.c, Omar Sandoval's "blk-mq: introduce
/// Kyber multiqueue I/O scheduler", 00e043936e9a) and bfq (block/bfq-iosched.c, Paolo
/// Valente's "block, bfq: introduce the BFQ-v0 I/O scheduler as an extra scheduler",
/// aee69d78dec0) entered mainline in Linux 4.12.
pub const KYBER_BFQ_SINCE: KernelVersion = KernelVersion::new(4, 12);

/// The dynamic hsq depth (`mmc_hsq_modify_threshold`, Wenchao Chen's "mmc: hsq: dynamic
/// adjustment of hsq->depth", 2023) entered mainline in Linux 6.7: from it, every hsq host's
/// window is 2, or 5 while queued 4 KiB writes wait; before it, 6.1's `mmc_mq_queue_rq`
/// refuses past `in_flight > 2`.
pub const HSQ_DYNAMIC_SINCE: KernelVersion = KernelVersion::new(6, 7);

/// The block-layer rules of a carried version (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockRules {
    /// The version whose rules these are (one of [`CARRIED`]).
    pub version: KernelVersion,
    /// `blkdev_write_iter` holds a plug around a block device write (up to 6.4; 712c7364655f,
    /// "block: don't plug in blkdev_write_iter", 6.5): a synchronous write sleeps in it, so the
    /// plug is flushed from `sched_submit_work` and kblockd issues the request.
    pub write_iter_plug: bool,
    /// `__submit_bio` plugs each bio it submits to a blk-mq queue (060406c61c7c, 6.10): one plug and unplug per bio, flushed before its task
    /// sleeps (`blk_finish_plug` -> `blk_mq_flush_plug_list(plug, false)`).
    pub submit_bio_plug: bool,
    /// `blk_mq_run_hw_queue(hctx, false)` on a `BLK_MQ_F_BLOCKING` queue dispatches in the
    /// caller's context (65a558f66c30, 6.6: before it,
    /// `__blk_mq_delay_run_hw_queue` sent every run of a blocking queue to kblockd); kblockd keeps the asynchronous, delayed and
    /// restarted runs and the requeue list (the flush machine's post-flush).
    pub run_inline: bool,
    /// `blk_insert_flush` sends a PREFLUSH/FUA write's data down the normal submission path
    /// (plug, scheduler, direct issue) and keeps only the post-flush (615939a2ae73, "blk-mq:
    /// defer to the normal submission path for post-flush requests", 6.5).
    pub flush_data_normal: bool,
    /// block_rq_* tracepoints print the I/O priority (`be,0,4`) before the command (aa6ff4eb7c10, 6.11).
    pub rq_ioprio_text: bool,
    /// mq-deadline starts the next request of a batch at the last dispatched request's start
    /// (`per_prio->latest_pos`, `deadline_from_pos`: the first request at or after it, one
    /// inserted meanwhile included), where 6.1 took the `next_rq` it noted at dispatch
    /// (Bart Van Assche's mq-deadline series of 6.5: "Track the dispatch position", with the
    /// requeue handling).
    pub dd_from_pos: bool,
    /// The plug list in submission order (e70c301faece, "block: don't reorder requests in
    /// blk_add_rq_to_plug", 6.13, in 6.12.y), the back-merge then at its tail (961296e89dc3).
    pub plug_in_order: bool,
    /// bfq's `bfq_asymmetric_scenario` counts the root group in `num_groups_with_pending_reqs`
    /// and asks for two groups (`> 1`), where 6.1 counts the other groups and asks for one
    /// (`> 0`): Yu Kuai's series "block, bfq: do not idle if only one group is activated",
    /// merged after 6.1 (in the 6.6 and 6.12 rule sets).
    pub bfq_root_group_counted: bool,
}

impl BlockRules {
    /// The rules of `v`'s rule set.
    pub fn of(v: KernelVersion) -> BlockRules {
        let at = |m: u16| v.major > 6 || (v.major == 6 && v.minor >= m);
        BlockRules {
            version: v,
            write_iter_plug: !at(5),
            submit_bio_plug: at(10),
            run_inline: at(6),
            flush_data_normal: at(5),
            rq_ioprio_text: at(11),
            dd_from_pos: at(5),
            plug_in_order: at(12),
            bfq_root_group_counted: at(6),
        }
    }
}

impl KernelVersion {
    /// Whether the model carries this version's block layer (one of [`CARRIED`]).
    pub fn is_carried(self) -> bool {
        CARRIED.contains(&self)
    }

    /// The carried version whose block layer this one runs: itself, or the nearest (by
    /// release: 5.x and older are nearest 6.1, 6.7-6.9 nearer 6.6 or 6.12, a tie the older).
    pub fn rule_set(self) -> KernelVersion {
        // Releases ran 3.0..3.19, 4.0..4.20, 5.0..5.19, then 6.x: a linear index is close
        // enough to say which carried version is nearest.
        let idx = |k: KernelVersion| i64::from(k.major) * 100 + i64::from(k.minor);
        let mut best = CARRIED[0];
        for c in CARRIED {
            if (idx(c) - idx(self)).abs() < (idx(best) - idx(self)).abs() {
                best = c;
            }
        }
        best
    }

    /// The block-layer rules this version runs ([`KernelVersion::rule_set`]'s).
    pub fn block_rules(self) -> BlockRules {
        BlockRules::of(self.rule_set())
    }

    /// The carried versions, as `6.1, 6.6, 6.12`.
    pub fn carried_list() -> String {
        let v: Vec<String> = CARRIED.iter().map(|c| c.to_string()).collect();
        v.join(", ")
    }

    /// "Linux 6.12", or for a version the model does not carry "Linux 5.8 (6.1's block
    /// layer)": the kernel a side of the page's Watch runs, in its label.
    pub fn label(self) -> String {
        if self.is_carried() {
            format!("Linux {self}")
        } else {
            format!("Linux {self} ({}'s block layer)", self.rule_set())
        }
    }

    /// The notice for a version the model does not carry (None when it does): one line, every
    /// screen shows it.
    pub fn rule_set_notice(self) -> Option<String> {
        if self.is_carried() {
            return None;
        }
        Some(format!(
            "kernel: the model carries the block layer of Linux {}; {self} runs {}'s (the nearest), with {self}'s own mmc rules (CMD13 polling, CQE, hsq)",
            KernelVersion::carried_list(),
            self.rule_set()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> KernelVersion {
        KernelVersion::parse(s).unwrap()
    }

    #[test]
    fn carried_versions_run_their_own_rules_others_the_nearest() {
        for c in CARRIED {
            assert_eq!(c.rule_set(), c);
            assert_eq!(c.label(), format!("Linux {c}"));
            assert!(c.rule_set_notice().is_none());
        }
        for (v, set) in [
            ("3.0", "6.1"),
            ("5.10", "6.1"),
            ("6.3", "6.1"),
            ("6.4", "6.6"),
            ("6.9", "6.6"),
            ("6.10", "6.12"),
            ("6.18", "6.12"),
        ] {
            assert_eq!(k(v).rule_set(), k(set), "{v}");
            assert_eq!(k(v).label(), format!("Linux {v} ({set}'s block layer)"));
            let n = k(v).rule_set_notice().unwrap();
            assert!(n.contains("6.1, 6.6, 6.12") && n.contains(&format!("runs {set}'s")));
        }
    }

    #[test]
    fn each_rule_set_differs_where_its_commits_say() {
        let (a, b, c) = (
            k("6.1").block_rules(),
            k("6.6").block_rules(),
            k("6.12").block_rules(),
        );
        assert!(a.write_iter_plug && !b.write_iter_plug && !c.write_iter_plug);
        assert!(!a.run_inline && b.run_inline && c.run_inline);
        assert!(!a.submit_bio_plug && !b.submit_bio_plug && c.submit_bio_plug);
        assert!(!a.flush_data_normal && b.flush_data_normal);
        assert!(!b.rq_ioprio_text && c.rq_ioprio_text);
    }
}
