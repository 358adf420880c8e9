//! The plug in the Watch: a click cuts the power of both sides at the simulated time on screen
//! (`Session::power_cut_now`, the engine's `power_cut` at that instant), and what the cut cost
//! each side is shown under the time row.

use std::rc::Rc;

use mmcsim_components::WatchPowerCut;
use mmcsim_engine::{Report, Scenario};
use yew::prelude::*;

use super::{Watch, WatchProps};
use crate::run::slicer::now_ms;

impl Watch {
    /// Cuts the power of both sides at the simulated time on screen and stops there; the page
    /// then writes that time into the scenario (`power_cut=`), so its link and any
    /// re-simulation (scrubbing back) cut at the same moment ([`Watch::cut_already_made`]).
    pub(super) fn pull_plug(&mut self, ctx: &Context<Self>) {
        if let Some(s) = self.sides.as_mut() {
            let (a, b) = s.sessions();
            a.power_cut_now();
            if let Some(b) = b {
                b.power_cut_now();
            }
        }
        if self.run.playing {
            self.pause();
        }
        self.refresh_views(now_ms());
        self.refresh_charts(false);
        self.report(ctx);
    }

    /// The new props only add the power cut the sides have already made (the page recording
    /// the plug pulled here as `power_cut=`): the run on screen is that run, kept as it is.
    pub(super) fn cut_already_made(&self, new: &WatchProps, old: &WatchProps) -> bool {
        let Some(s) = &self.sides else { return false };
        let adds_cut = |n: &Scenario, o: &Scenario, cut: Option<u64>| {
            let mut o = o.clone();
            o.power_cut_ns = n.power_cut_ns;
            o == *n && cut.is_some() && n.power_cut_ns.is_some()
        };
        adds_cut(&new.a, &old.a, s.a.session.power_cut_at())
            && new.a.power_cut_ns == s.a.session.power_cut_at()
            && match (&new.b, &old.b, &s.b) {
                (None, None, _) => true,
                (Some(n), Some(o), Some(b)) => adds_cut(n, o, b.session.power_cut_at()),
                _ => false,
            }
    }

    /// What the plug pulled here cost each side (nothing before a cut).
    pub(super) fn plug(&self) -> Html {
        let cut = |r: &Report| r.power_cut.clone().map(Rc::new);
        let (a, b) = match &self.figures.reports {
            Some((a, b)) => (cut(a), b.as_deref().and_then(cut)),
            None => (None, None),
        };
        html! { <WatchPowerCut {a} {b} /> }
    }
}
