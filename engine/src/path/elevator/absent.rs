//! A build without the kyber and bfq schedulers (the landing page's: the engine's `lean`
//! feature): their types have no values, so the seam's arms for them compile to nothing, and
//! `scenario::check` refuses a scenario that names one before any run.

use super::{Bio, Merge};
use crate::sim::request::Slab;
use crate::sim::ReqIdx;
use crate::vocab::Op;

/// kyber, not in this build.
#[derive(Debug)]
pub enum Kyber {}

/// bfq, not in this build.
#[derive(Debug)]
pub enum Bfq {}

macro_rules! absent {
    ($t:ty) => {
        impl $t {
            pub fn insert(&mut self, _: ReqIdx, _: &Slab, _: u64) {
                match *self {}
            }
            pub fn has_work(&self) -> bool {
                match *self {}
            }
            pub fn dispatch(&mut self, _: &Slab, _: u64) -> Option<ReqIdx> {
                match *self {}
            }
            pub fn bio_merge(&self, _: &Bio, _: &Slab, _: u64) -> Option<(ReqIdx, Merge)> {
                match *self {}
            }
            pub fn remove(&mut self, _: ReqIdx, _: &Slab) {
                match *self {}
            }
            pub fn waiting(&self) -> Vec<ReqIdx> {
                match *self {}
            }
        }
    };
}
absent!(Kyber);
absent!(Bfq);

impl Kyber {
    pub fn completed(&mut self, _: Op, _: u64, _: u64, _: u64) {
        match *self {}
    }
}

impl Bfq {
    pub fn completed(&mut self, _: u32, _: u64, _: u64) {
        match *self {}
    }
    pub fn view(&self) -> crate::sim::observe::BfqView {
        match *self {}
    }
    pub fn timer_at(&self) -> Option<u64> {
        match *self {}
    }
    pub fn set_job_prios(&mut self, _: &[super::SchedPrio], _: bool) {
        match *self {}
    }
}
