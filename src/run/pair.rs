//! The scenario the page shows: A, and B of an A/B comparison, kept as the page edits it (A
//! plus one override map: B's host switches and board over A's workload), or a B that differs
//! in more than those. Plain logic, tested natively.

use mmcsim_engine::{Overrides, Scenario};

/// A, and B as the page keeps it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pair {
    /// The last scenario the parser accepted in full: what Run simulates.
    pub a: Scenario,
    /// B's overrides when comparing: B = A's workload, preset and seed with this map (host
    /// switches and board parameters) instead of A's (URL `b.` keys).
    pub b: Option<Overrides>,
    /// B that differs from A in more than the host switches (the 2011 series: mmc_test 37
    /// against 38): watched beside A all the same, and kept for the link.
    pub b_other: Option<Scenario>,
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
    /// A and, when given, B: kept as host switches and board when that is all B changes.
    pub fn new(a: Scenario, b: Option<Scenario>) -> Pair {
        let same = b.as_ref().filter(|b| host_only(&a, b));
        Pair {
            b: same.map(|b| b.overrides.clone()),
            b_other: b.filter(|b| !host_only(&a, b)),
            a,
        }
    }

    /// A tour's pair.
    pub fn of_tour(a: &Scenario, b: &Scenario) -> Pair {
        Pair::new(a.clone(), Some(b.clone()))
    }

    /// B of the A/B comparison: A with B's overrides.
    pub fn b_scenario(&self) -> Option<Scenario> {
        self.b.as_ref().map(|m| {
            let mut b = b_scenario(&self.a, m);
            b.normalize_board();
            b
        })
    }

    /// B as the view and the link carry it: the A/B view's, or one that differs in more than
    /// the host.
    pub fn b_link(&self) -> Option<Scenario> {
        self.b_scenario().or_else(|| self.b_other.clone())
    }

    /// B's host switches, those of `b` (None: comparison off, B's board cleared too). B's
    /// board stays as the Board panel left it: the view's B controls and its first suggestion
    /// set switches only.
    pub fn set_b_switches(&mut self, b: Option<Overrides>) {
        self.b = b.map(|m| {
            let mut next = Scenario {
                overrides: m,
                ..Scenario::default()
            };
            let board = Scenario {
                overrides: self.b.take().unwrap_or_default(),
                ..Scenario::default()
            };
            next.put_board_of(&board);
            next.overrides
        });
        self.b_other = None;
    }

    /// B becomes `b` (a tour's step): its host switches when that is all it changes from A,
    /// else B as a whole (the 2011 pair: mmc_test 37 against 38).
    pub fn set_b(&mut self, b: &Scenario) {
        if host_only(&self.a, b) {
            self.set_b_switches(Some(b.overrides.clone()));
        } else {
            self.b = None;
            self.b_other = Some(b.clone());
        }
    }

    /// B's board, that of `b` (the Board panel's B side, a platform file for B); B's host
    /// switches stay. Nothing while not comparing.
    pub fn set_b_board(&mut self, b: &Scenario) {
        if let Some(m) = self.b.as_mut() {
            let mut next = Scenario {
                overrides: std::mem::take(m),
                ..Scenario::default()
            };
            next.put_board_of(b);
            *m = next.overrides;
        }
    }

    /// Comparing starts with B = A (the Board panel then edits B's board).
    pub fn compare(&mut self) {
        if self.b.is_none() {
            self.b = Some(self.a.overrides.clone());
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
        assert!(p.b.is_some() && p.b_other.is_none());
        assert_eq!(p.b_link(), Some(b));
        let other = scenario(&[("rw", "read")]);
        let p = Pair::new(a, Some(other.clone()));
        assert_eq!((p.b, p.b_other), (None, Some(other)));
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

    /// A tour's B whose pair is not host-only brings no board to keep (a B side turned on later
    /// starts without one, as it did when the tour's board was kept beside it).
    #[test]
    fn tour_pairs_carry_no_board() {
        for s in crate::series::ALL {
            let (a, b) = s.tour_pair();
            assert!(
                a.board().next().is_none() && b.board().next().is_none(),
                "{}",
                s.series.id
            );
        }
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
