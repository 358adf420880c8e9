//! The kernel's eMMC I/O path, one module per layer, in the order a request meets them:
//!
//! ```text
//! workload (fio) -> blk_mq (sbitmap tags, elevator, blk_merge, blk_flush, blk_stat) -> mmc_queue -> hsq | legacy | cqe -> host -> bus -> card
//!                                          recovery (errors), power (power cut), mmc_test
//! ```
//!
//! `controller` is the seam between the mmc queue and the host paths (hsq, legacy, cqe,
//! mmc_test): the one place that dispatches on which path is in use.
//!
//! Each layer is a struct with private state and methods named after the kernel function they
//! model; the wiring between them is `impl Simulator` blocks (`sim/` and each layer's file), so
//! the path and the simulator share a floor.

pub(crate) mod workload;

pub(crate) mod blk_flush;
pub(crate) mod blk_merge;
pub(crate) mod blk_mq;
pub(crate) mod blk_stat;
pub(crate) mod elevator;
pub(crate) mod mmc_queue;
pub(crate) mod sbitmap;

pub(crate) mod controller;

pub(crate) mod cqe;
pub(crate) mod hsq;
pub(crate) mod legacy;

pub(crate) mod host;

pub(crate) mod bus;

pub(crate) mod card;

pub(crate) mod mmc_test;
pub(crate) mod power;
pub(crate) mod recovery;
