//! What bfq is doing, for the snapshot ([`crate::BfqView`]): the queue in service
//! (`bfqd->in_service_queue`), its budget and service this turn, whether the device idles for it
//! (`BFQQF_wait_request`), and which queues are weight-raised (`bfqq->wr_coeff`).

use super::Bfq;
use crate::sim::observe::BfqView;

impl Bfq {
    /// The state the pipeline draws.
    pub fn view(&self) -> BfqView {
        let q = self.in_service.and_then(|j| self.queues.get(&j));
        let raised: Vec<(u32, u64)> = self
            .queues
            .iter()
            .map(|(j, q)| (j, q.wr_coeff))
            .filter(|&(_, c)| c > 1)
            .collect();
        BfqView {
            in_service: self.in_service,
            budget: q.map_or(0, |q| q.budget),
            service: q.map_or(0, |q| q.service),
            idling: self.in_service.is_some() && self.idle_until.is_some(),
            raised,
        }
    }
}
