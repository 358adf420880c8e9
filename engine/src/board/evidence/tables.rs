//! One table per preset: the parameters whose value the preset's comments trace to a fit or an
//! estimate with something that bounds it. Each range names its source; a parameter a table
//! does not name takes its kind's rule (`default_claim`). `engine/tests/sensitivity.rs` checks
//! that every range holds its preset's value and lies inside the parameter's accepted range.

use super::{Basis, Claim};

const fn claim(
    param: &'static str,
    basis: Basis,
    low: &'static str,
    high: &'static str,
    why: &'static str,
) -> Claim {
    Claim {
        param,
        basis,
        low,
        high,
        why,
    }
}

use Basis::{Estimated, Fitted};

/// unisoc-fua-2022: one synchronous AndroBench job, FUA off and on (presets/unisoc.rs).
const UNISOC_FUA_2022: &[Claim] = &[
    claim(
        "flush_us",
        Fitted,
        "1",
        "200",
        "fitted to the 4 KiB random write with FUA off (a write and two flushes in 55.5 us leave \
         about 1 us each); high: 200 us, the 2023 Unisoc board's figure and this preset's before \
         the O_SYNC write's flushes were sent (never measured either)",
    ),
    claim(
        "nand_program_us",
        Fitted,
        "182",
        "258",
        "tPROG, fitted with the commit to the 4 KiB FUA write (273 us of card time) and the \
         512 KiB one; low: 182 us, what the preset's earlier commit (76.4 us) leaves; high: \
         258 us, all of the card time after the transfer with no commit (a bound)",
    ),
    claim(
        "reliable_write_us",
        Fitted,
        "0",
        "76.4",
        "the reliable write's commit, fitted with tPROG; low: 0 (all the card time tPROG, a \
         bound); high: 76.4 us, the preset's earlier fit",
    ),
    claim(
        "card_write_busy_us",
        Fitted,
        "1",
        "20",
        "fitted to the 4 KiB random write with FUA off; high: 20 us, the preset's earlier fit \
         (when the write was acknowledged from the cache with no flush)",
    ),
    claim(
        "issue_us",
        Fitted,
        "2",
        "3",
        "fitted to the random read and write; high: 3 us, the preset's earlier fit (before the \
         O_SYNC write's flushes were sent)",
    ),
    claim(
        "irq_latency_us",
        Fitted,
        "2",
        "4",
        "fitted to the random read and write; high: 4 us, the preset's earlier fit (before the \
         O_SYNC write's flushes were sent)",
    ),
    claim(
        "card_read_hit_pct",
        Fitted,
        "94",
        "98",
        "share of AndroBench's random reads the card's buffer serves, fitted to 98.81 MiB/s; \
         high: 98 %, the preset's earlier fit (with 4 us more host software per request)",
    ),
];

/// unisoc-hsq-2023: 8 psync jobs, the dynamic hsq depth series (presets/unisoc.rs).
const UNISOC_HSQ_2023: &[Claim] = &[
    claim(
        "queue_rerun_us",
        Fitted,
        "10",
        "130",
        "kblockd's wake-up, fitted to the 4 KiB random write at depth 2 (82.87 MiB/s; dynamic \
         +3.3 % against +4.6 % measured); low: 10 us, this preset's own earlier fit to the same \
         figures (beside a 58 us completion pass); high: 130 us, as far above the fit as that \
         (a symmetric bound, no evidence beyond it)",
    ),
    claim(
        "irq_done_us",
        Estimated,
        "1.5",
        "6",
        "the hard interrupt's part of a completion, typical of a Cortex-A55, not measured \
         (issue 28); range: half to twice it",
    ),
    claim(
        "completion_us",
        Estimated,
        "4",
        "16",
        "the block softirq's completion, typical of a Cortex-A55, not measured (issue 28); \
         range: half to twice it",
    ),
    claim(
        "nand_read_us",
        Fitted,
        "55",
        "87",
        "tR, from MODEL.md's 60 us card access (the 4 KiB random read is bus-bound at 81 us, so \
         the read figures bound it little); high: 87 us, the 2020 sdhci-sprd board's fitted tR",
    ),
    claim(
        "flush_us",
        Estimated,
        "1",
        "200",
        "never measured on this board (no series flushes); low: 1 us, the 2022 Unisoc board's \
         fit",
    ),
    claim(
        "reliable_write_us",
        Estimated,
        "0",
        "76.4",
        "not measured here (no FUA series): the 2022 Unisoc card's commit, whose own range is \
         0 (a bound) to 76.4 us (its earlier fit)",
    ),
    claim(
        "nand_program_us",
        Estimated,
        "182",
        "258",
        "not measured here: the 2022 Unisoc card's tPROG, whose own range is 182 to 258 us",
    ),
];

/// sprd-hs400es-2020: the hsq introduction series (presets/sprd.rs).
const SPRD_HS400ES_2020: &[Claim] = &[
    claim(
        "queue_rerun_us",
        Fitted,
        "70",
        "154",
        "kblockd's re-dispatch of a refused request, fitted to the hsq rows; low: 70 us, the \
         preset's earlier fit (when the next submission re-dispatched first); high: 154 us, as \
         far above the fit (a symmetric bound)",
    ),
    claim(
        "irq_done_us",
        Estimated,
        "2",
        "8",
        "the hard interrupt's part of a completion, typical of a Cortex-A55, not measured \
         (issue 28); range: half to twice it",
    ),
    claim(
        "completion_us",
        Estimated,
        "5",
        "20",
        "the block softirq's completion, typical of a Cortex-A55, not measured (issue 28); \
         range: half to twice it",
    ),
];

/// rpi5-sd-2024: the Raspberry Pi 5's microSD, command queueing off and on (presets/brcm.rs).
const RPI5_SD_2024: &[Claim] = &[
    claim(
        "submit_us",
        Estimated,
        "4",
        "16",
        "typical of a Cortex-A76 at 2.4 GHz (ext4 O_DIRECT through libaio), not measured; \
         range: half to twice it",
    ),
    claim(
        "issue_us",
        Estimated,
        "2",
        "8",
        "typical of a Cortex-A76, not measured; range: half to twice it",
    ),
    claim(
        "irq_latency_us",
        Estimated,
        "2.5",
        "10",
        "typical of a Cortex-A76, not measured; range: half to twice it",
    ),
    claim(
        "completion_us",
        Estimated,
        "1.5",
        "6",
        "typical of a Cortex-A76, not measured; range: half to twice it",
    ),
    claim(
        "flush_us",
        Estimated,
        "500",
        "2000",
        "SD's cache flush (CMD49 to the performance-enhancement register), typical, not \
         measured; range: half to twice it",
    ),
];

/// Every preset's table, by preset name.
pub(super) const TABLES: &[(&str, &[Claim])] = &[
    ("unisoc-fua-2022", UNISOC_FUA_2022),
    ("unisoc-hsq-2023", UNISOC_HSQ_2023),
    ("sprd-hs400es-2020", SPRD_HS400ES_2020),
    ("rpi5-sd-2024", RPI5_SD_2024),
];
