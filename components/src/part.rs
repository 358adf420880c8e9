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

/// Whether a `<details>` has been opened, and the `ontoggle` that tracks it: a folded panel
/// builds its contents when first opened (the Board's table, a run's fio text), not in every
/// render of the page while closed.
#[hook]
pub fn use_opened() -> (bool, Callback<Event>) {
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::Element>() {
                open.set(d.has_attribute("open"));
            }
        })
    };
    (*open, ontoggle)
}

/// False in a component's first render, true from a task later: what nobody sees at first (a
/// folded glossary) is built after the page's first render, not in its task.
#[hook]
pub fn use_later() -> bool {
    let later = use_state(|| false);
    {
        let later = later.clone();
        use_effect_with((), move |_| {
            let t = gloo_timers::callback::Timeout::new(0, move || later.set(true));
            move || drop(t)
        });
    }
    *later
}
