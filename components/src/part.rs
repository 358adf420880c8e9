//! Memoised pieces of a view: a [`Part`] re-renders only when its values change, so a frame
//! in which one token moved diffs only the tokens, not the whole pipeline.

use yew::prelude::*;

/// Values that draw a piece of the view.
pub trait PartView: PartialEq + 'static {
    fn view(&self) -> Html;
}

#[derive(Properties, PartialEq)]
pub struct PartProps<D: PartView> {
    pub deps: D,
}

#[function_component(Part)]
pub fn part<D: PartView>(p: &PartProps<D>) -> Html {
    p.deps.view()
}
