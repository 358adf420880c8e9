//! What a request asks of the card: the block layer's `req_op` as the model knows it.

/// What a request asks of the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Read,
    Write,
    /// REQ_OP_FLUSH: CMD6 FLUSH_CACHE.
    Flush,
    /// REQ_OP_DISCARD (fio's trim, BLKDISCARD): `mmc_blk_issue_discard_rq` -> `mmc_erase`:
    /// CMD35 ERASE_GROUP_START, CMD36 ERASE_GROUP_END, CMD38 ERASE with the DISCARD (or TRIM)
    /// argument, then the card's busy time.
    Discard,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::Write => "write",
            Op::Flush => "flush",
            Op::Discard => "trim",
        }
    }

    /// `mmc_issue_type` without CQE: everything but a read or a write is MMC_ISSUE_SYNC (it
    /// waits for an idle queue and goes straight to the controller, never through hsq).
    pub fn is_sync(self) -> bool {
        matches!(self, Op::Flush | Op::Discard)
    }

    /// Whether the request moves data over the bus.
    pub fn has_data(self) -> bool {
        matches!(self, Op::Read | Op::Write)
    }
}
