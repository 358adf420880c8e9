//! The scenario the page shows: A, and B of an A/B comparison, kept as the page edits it (A
//! plus one override map: B's host switches and board over A's workload), or a B that differs
//! in more than those. Plain logic, tested natively.

use mmcsim_engine::{Overrides, Scenario};

/// B of an A/B comparison, one of two kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum B {
    /// A's workload, preset and seed with this map (host switches and board parameters)
    /// instead of A's (URL `b.` keys): what the A/B view compares and its B controls edit.
    Over(Overrides),
    /// A B that differs from A in more than its overrides (the 2011 series: mmc_test 37
    /// against 38): watched beside A all the same, and kept for the link.
    Whole(Box<Scenario>),
}

/// A, and B as the page keeps it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    /// The last scenario the parser accepted in full: what Run simulates.
    pub a: Scenario,
    /// B, when comparing.
    pub b: Option<B>,
}

/// B differs from A only in its overrides, host switches and board (what the A/B view
/// compares).
pub fn host_only(a: &Scenario, b: &Scenario) -> bool {
    Scenario {
        overrides: a.overrides.clone(),
        ..b.clone()
    } == *a
}

/// Scenario B of an A/B comparison: A's workload, platform and seed with B's overrides (host
/// switches and board: "two host configurations on the same workload and seed").
pub fn b_scenario(a: &Scenario, b: &Overrides) -> Scenario {
    Scenario {
        overrides: b.clone(),
        ..a.clone()
    }
}

impl Pair {
    /// A and, when given, B: kept as its overrides when that is all B changes.
    pub fn new(a: Scenario, b: Option<Scenario>) -> Pair {
        let b = b.map(|b| match host_only(&a, &b) {
            true => B::Over(b.overrides),
            false => B::Whole(Box::new(b)),
        });
        Pair { a, b }
    }

    /// A tour's pair.
    pub fn of_tour(a: &Scenario, b: &Scenario) -> Pair {
        Pair::new(a.clone(), Some(b.clone()))
    }

    /// B's overrides over A, when B is A with its own map (the A/B view's B).
    pub fn b_overrides(&self) -> Option<&Overrides> {
        match &self.b {
            Some(B::Over(m)) => Some(m),
            _ => None,
        }
    }

    /// B of the A/B comparison: A with B's overrides.
    pub fn b_scenario(&self) -> Option<Scenario> {
        self.b_overrides().map(|m| {
            let mut b = b_scenario(&self.a, m);
            b.normalize_board();
            b
        })
    }

    /// B as the view and the link carry it: the A/B view's, or one that differs in more than
    /// the host.
    pub fn b_link(&self) -> Option<Scenario> {
        match &self.b {
            Some(B::Whole(b)) => Some(b.as_ref().clone()),
            _ => self.b_scenario(),
        }
    }

    /// B's host switches, those of `b` (None: comparison off, B's board cleared too). B's
    /// board stays as the Board panel left it: the view's B controls and its first suggestion
    /// set switches only.
    pub fn set_b_switches(&mut self, b: Option<Overrides>) {
        let board = self.b_overrides().cloned().unwrap_or_default();
        self.b = b.map(|m| B::Over(m.with_board_of(&board)));
    }

    /// B becomes `b` (a tour's step): its overrides, host switches and board (the kernel
    /// upgrade's B is `kernel=6.12`), when that is all it changes from A, else B as a whole
    /// (the 2011 pair: mmc_test 37 against 38).
    pub fn set_b(&mut self, b: &Scenario) {
        if host_only(&self.a, b) {
            self.b = Some(B::Over(b.overrides.clone()));
        } else {
            self.b = Some(B::Whole(Box::new(b.clone())));
        }
    }

    /// B's board, that of `b` (the Board panel's B side, a platform file for B); B's host
    /// switches stay. Nothing while not comparing.
    pub fn set_b_board(&mut self, b: &Scenario) {
        if let Some(B::Over(m)) = self.b.as_mut() {
            *m = m.with_board_of(&b.overrides);
        }
    }

    /// Comparing starts with B = A (the Board panel then edits B's board).
    pub fn compare(&mut self) {
        if self.b_overrides().is_none() {
            self.b = Some(B::Over(self.a.overrides.clone()));
        }
    }

    /// The power cut at `at` ns the view made: A (and a B of its own) now cut there too. True
    /// when that changed the scenario.
    pub fn record_cut(&mut self, at: u64) -> bool {
        if at == 0 || self.a.power_cut_ns == Some(at) {
            return false;
        }
        self.a.power_cut_ns = Some(at);
        if let Some(B::Whole(b)) = self.b.as_mut() {
            b.power_cut_ns = Some(at);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::test_support::scenario;

    #[test]
    fn a_tour_step_puts_back_a_b_that_differs_in_its_workload() {
        let a = scenario(&[("mmc_test", "37"), ("platform", "u300-mmci-2011")]);
        let b = scenario(&[("mmc_test", "38"), ("platform", "u300-mmci-2011")]);
        let mut p = Pair::new(a.clone(), Some(b.clone()));
        let before = p.clone();
        p.set_b(&b);
        assert_eq!(p, before, "the 2011 pair stays mmc_test 37 against 38");
    }

    #[test]
    fn b_is_kept_as_host_switches_when_that_is_all_it_changes() {
        let a = scenario(&[("rw", "randwrite")]);
        let b = scenario(&[("rw", "randwrite"), ("hsq_depth", "5")]);
        let p = Pair::new(a.clone(), Some(b.clone()));
        assert!(matches!(p.b, Some(B::Over(_))));
        assert_eq!(p.b_link(), Some(b));
        let other = scenario(&[("rw", "read")]);
        let p = Pair::new(a, Some(other.clone()));
        assert_eq!(p.b, Some(B::Whole(Box::new(other))));
    }

    #[test]
    fn b_is_a_plus_one_map_and_the_board_panel_edits_its_board_only() {
        let a = scenario(&[("rw", "randwrite"), ("nand_read_us", "120")]);
        let mut p = Pair::new(a.clone(), None);
        p.compare();
        assert_eq!(p.b_scenario(), Some(a.clone()), "B starts as A");
        let board = scenario(&[("rw", "randwrite"), ("bus_mb_s", "100")]);
        p.set_b_board(&board);
        let switches = scenario(&[("fua", "0")]);
        p.set_b_switches(Some(switches.overrides.clone()));
        let b = p.b_scenario().unwrap();
        assert_eq!(b.switch::<bool>("fua"), Some(false));
        assert_eq!(
            b.board().collect::<Vec<_>>(),
            board.board().collect::<Vec<_>>()
        );
        p.set_b_switches(None);
        assert_eq!(p.b_scenario(), None);
    }

    /// A tour's B is what the tour made it, its board included (the kernel upgrade's B runs
    /// `kernel=6.12`, a board parameter): standing at a step keeps it.
    #[test]
    fn a_tours_b_keeps_its_board() {
        for s in crate::series::ALL {
            let (a, b) = s.tour_pair();
            let mut p = Pair::of_tour(&a, &b);
            p.set_b(&b);
            assert_eq!(p.b_link(), Some(b.clone()), "{}", s.series.id);
        }
        let (a, b) = crate::series::by_id("kernel-upgrade").unwrap().tour_pair();
        assert_eq!(b.board().count(), 1, "B's kernel");
        let mut p = Pair::of_tour(&a, &b);
        p.set_b(&b);
        let b2 = p.b_scenario().unwrap();
        assert_eq!(b2.effective_platform().unwrap().kernel.to_string(), "6.12");
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
