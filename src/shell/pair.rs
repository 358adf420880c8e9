//! The scenario the page shows: A, and B of an A/B comparison, kept as the page edits it (B's
//! host switches and board over A's workload), or a B that differs in more than those. Plain
//! logic, tested natively.

use std::collections::BTreeMap;

use mmcsim_engine::{HostOptions, Scenario};

/// A, and B as the page keeps it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    /// The last scenario the parser accepted in full: what Run simulates.
    pub a: Scenario,
    /// B's host switches when comparing (B = A's workload and seed with these; URL `b.` keys).
    pub b_host: Option<HostOptions>,
    /// B's board overrides when comparing (B runs on A's preset with these instead of A's).
    pub b_board: BTreeMap<String, u64>,
    /// B that differs from A in more than the host switches (the 2011 series: mmc_test 37
    /// against 38): watched beside A all the same, and kept for the link.
    pub b_other: Option<Scenario>,
}

/// B differs from A only in its host switches and board (what the A/B view compares).
pub fn host_only(a: &Scenario, b: &Scenario) -> bool {
    Scenario {
        host: a.host.clone(),
        board: a.board.clone(),
        ..b.clone()
    } == *a
}

impl Pair {
    /// A and, when given, B: kept as host switches and board when that is all B changes.
    pub fn new(a: Scenario, b: Option<Scenario>) -> Pair {
        let same = b.as_ref().filter(|b| host_only(&a, b));
        Pair {
            b_host: same.map(|b| b.host.clone()),
            b_board: same.map(|b| b.board.clone()).unwrap_or_default(),
            b_other: b.filter(|b| !host_only(&a, b)),
            a,
        }
    }

    /// A tour's pair (B's board kept even when B differs in more than its host).
    pub fn of_tour(a: &Scenario, b: &Scenario) -> Pair {
        let same = host_only(a, b);
        Pair {
            a: a.clone(),
            b_host: same.then(|| b.host.clone()),
            b_board: b.board.clone(),
            b_other: (!same).then(|| b.clone()),
        }
    }

    /// B of the A/B comparison: A with B's host switches and board.
    pub fn b_scenario(&self) -> Option<Scenario> {
        self.b_host.as_ref().map(|h| {
            let mut b = crate::watch::live::b_scenario(&self.a, h);
            b.board = self.b_board.clone();
            b.normalize_board();
            b
        })
    }

    /// B as the view and the link carry it: the A/B view's, or one that differs in more than
    /// the host.
    pub fn b_link(&self) -> Option<Scenario> {
        self.b_scenario().or_else(|| self.b_other.clone())
    }

    /// B's host switches (None: comparison off, B's board cleared).
    pub fn set_b_host(&mut self, host: Option<HostOptions>) {
        if host.is_none() {
            self.b_board.clear();
        }
        self.b_host = host;
        self.b_other = None;
    }

    /// Comparing starts with B = A (the Board panel then edits B's board).
    pub fn compare(&mut self) {
        if self.b_host.is_none() {
            self.b_host = Some(self.a.host.clone());
            self.b_board = self.a.board.clone();
            self.b_other = None;
        }
    }

    /// The power cut at `at` ns the view made: A (and a B of its own) now cut there too. True
    /// when that changed the scenario.
    pub fn record_cut(&mut self, at: u64) -> bool {
        if at == 0 || self.a.power_cut_ns == Some(at) {
            return false;
        }
        self.a.power_cut_ns = Some(at);
        if let Some(b) = self.b_other.as_mut() {
            b.power_cut_ns = Some(at);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::test_support::scenario;

    #[test]
    fn b_is_kept_as_host_switches_when_that_is_all_it_changes() {
        let a = scenario(&[("rw", "randwrite")]);
        let b = scenario(&[("rw", "randwrite"), ("hsq_depth", "5")]);
        let p = Pair::new(a.clone(), Some(b.clone()));
        assert!(p.b_host.is_some() && p.b_other.is_none());
        assert_eq!(p.b_link(), Some(b));
        let other = scenario(&[("rw", "read")]);
        let p = Pair::new(a, Some(other.clone()));
        assert_eq!((p.b_host, p.b_other), (None, Some(other)));
    }

    #[test]
    fn a_cut_is_recorded_once() {
        let mut p = Pair::new(scenario(&[]), None);
        assert!(p.record_cut(5_000));
        assert!(!p.record_cut(5_000));
        assert!(!p.record_cut(0));
        assert_eq!(p.a.power_cut_ns, Some(5_000));
    }
}
