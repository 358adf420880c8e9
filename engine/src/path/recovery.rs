//! Error injection and the mmc recovery path (drivers/mmc/core/block.c).
//!
//! With `inject_error=crc:RATE` the card answers a data transfer with a CRC error at that rate.
//! As in `mmc_blk_hsq_req_done`, the failed request sets `mq->recovery_needed`, hsq stops
//! pumping (`mmc_hsq_recovery_start`), and the recovery work runs `mmc_blk_mq_rw_recovery`:
//! CMD13 to read the card status, then a retry of the request; before the last of
//! `MMC_MAX_RETRIES` retries the card is reset (`mmc_blk_reset`); when the retries are used up
//! the request ends with an I/O error to the job (BLK_STS_IOERR). Then hsq resumes.

use crate::path::bus::SegmentKind;
use crate::rng::Rng;
use crate::scenario::ErrorInjection;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::Stage;

/// `MMC_MAX_RETRIES` (block.c).
pub const MMC_MAX_RETRIES: u32 = 5;
/// Card re-initialisation after `mmc_hw_reset` (CMD0, CMD1 polling, CMD2/3/7, EXT_CSD).
pub const CARD_RESET_NS: u64 = 15_000_000;

/// Error injection and the recovery state (`mq->recovery_needed`).
#[derive(Debug)]
pub struct Recovery {
    inject: Option<ErrorInjection>,
    rng: Rng,
    /// `mq->recovery_needed`: the host queue is halted until recovery ends.
    active: bool,
}

impl Recovery {
    pub fn new(inject: Option<ErrorInjection>, rng: Rng) -> Recovery {
        Recovery {
            inject,
            rng,
            active: false,
        }
    }
    /// The host queue is halted (`hsq->recovery_halt`) while the recovery work runs.
    pub fn active(&self) -> bool {
        self.active
    }
    /// `mmc_hsq_recovery_start`: halt the host queue.
    pub fn start(&mut self) {
        self.active = true;
    }
    /// `mmc_hsq_recovery_finish`: resume it.
    pub fn finish(&mut self) {
        self.active = false;
    }
    /// Whether the card answers this data transfer with a CRC error.
    pub fn draw_error(&mut self) -> bool {
        match self.inject {
            Some(e) => crate::rng::chance_ppm(&mut self.rng, e.rate_ppm),
            None => false,
        }
    }
}

impl Simulator {
    /// The interrupt reported an error for `req`: start the recovery work.
    pub(crate) fn recovery_start(&mut self, req: ReqIdx) {
        self.stats.crc_errors += 1;
        self.recovery.start();
        self.set_stage(req, Stage::Recovery);
        // The recovery work runs from a workqueue, then sends CMD13 (SEND_STATUS).
        let t = self.now + self.platform.host.rerun_ns;
        self.bus.record(
            SegmentKind::Command,
            t,
            t + self.bus.cmd_ns(),
            Some(self.reqs.get(req).id),
        );
        self.stats.bus_commands += 1;
        self.q
            .push(t + self.bus.cmd_ns(), Event::RecoveryStep { req });
    }

    /// `Event::RecoveryStep`: status read; reset before the last retry; retry or fail.
    pub(crate) fn recovery_step(&mut self, req: ReqIdx) {
        let r = self.reqs.get_mut(req);
        r.crc_error = false;
        if r.retries >= MMC_MAX_RETRIES {
            // Retries used up: the request ends with an I/O error.
            r.failed = true;
            self.recovery.finish();
            self.ctl_req_failed(req);
            self.host_schedule_start(self.now);
            return;
        }
        r.retries += 1;
        let reset = r.retries == MMC_MAX_RETRIES;
        self.stats.retries += 1;
        let mut t = self.now;
        if reset {
            self.stats.resets += 1;
            self.bus
                .record(SegmentKind::HostGap, t, t + CARD_RESET_NS, None);
            t += CARD_RESET_NS;
        }
        // Retry: the request goes back to the front of its queue (a flush or discard to the
        // direct queue).
        self.set_stage(req, Stage::HostQueue);
        if self.reqs.get(req).op.is_sync() {
            self.legacy.push_front(req);
        } else {
            self.ctl_requeue_front(req);
        }
        self.recovery.finish();
        self.host.hold_until(t);
        self.host_schedule_start(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_injection_no_error() {
        let mut r = Recovery::new(None, crate::rng::stream(1, 2));
        assert!((0..10_000).all(|_| !r.draw_error()));
    }

    #[test]
    fn errors_come_at_the_injected_rate() {
        let inject = ErrorInjection::parse("crc:0.1").expect("valid");
        let mut r = Recovery::new(Some(inject), crate::rng::stream(1, 2));
        let n = (0..100_000).filter(|_| r.draw_error()).count();
        assert!((8_000..12_000).contains(&n), "{n} errors in 100000");
        r.start();
        assert!(r.active());
        r.finish();
        assert!(!r.active());
    }
}
