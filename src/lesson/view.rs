//! The lesson at the head of "Watch the pipeline": the landing's sentences and its buttons, or
//! the open tour's step with its buttons and the prediction's choices.

use yew::prelude::*;

use mmcsim_components::glossary;

use super::state::{TourState, ViewAt};
use super::{TourAction, LANDING_SERIES, LANDING_TEXT};
use crate::series::course;
use crate::series::readout::{self, Piece};

#[derive(Properties, Clone)]
pub struct LessonProps {
    /// The landing's sentences are shown (a visit without a query string).
    pub landing: bool,
    /// The open tour.
    pub tour: Option<TourState>,
    /// How the view stands (None: nothing run yet): a step about a moment waits for it.
    pub view: Option<ViewAt>,
    /// Start the tour of a series, by id (None: close the tour).
    pub on_tour: Callback<Option<&'static str>>,
    /// Go to a step of the open tour.
    pub on_step: Callback<usize>,
    /// Do what the current step's button says.
    pub on_act: Callback<()>,
    /// The reader's answer to the prediction.
    pub on_predict: Callback<usize>,
    /// The course's check, when on (`check_view`): in place of the landing's lesson before a
    /// tour is open, under the step at the end of the last lesson.
    #[prop_or_default]
    pub check: Option<Html>,
    /// "Check what you know first": turn the course's check on.
    pub on_check: Callback<()>,
}

impl PartialEq for LessonProps {
    fn eq(&self, o: &Self) -> bool {
        let same_tour = match (&self.tour, &o.tour) {
            (Some(a), Some(b)) => {
                std::rc::Rc::ptr_eq(&a.tour, &b.tour)
                    && (a.step, a.answer, a.ran) == (b.step, b.answer, b.ran)
            }
            (None, None) => true,
            _ => false,
        };
        same_tour
            && (self.landing, self.view) == (o.landing, o.view)
            && self.on_tour == o.on_tour
            && self.on_step == o.on_step
            && self.on_act == o.on_act
            && self.on_predict == o.on_predict
            && self.check == o.check
            && self.on_check == o.on_check
    }
}

/// The landing, or the open tour.
#[function_component(Lesson)]
pub fn lesson(props: &LessonProps) -> Html {
    if let Some(t) = &props.tour {
        return tour_view(props, t);
    }
    if let Some(check) = &props.check {
        return html! { <div class="lesson" id="lesson">{ check.clone() }</div> };
    }
    let start = props.on_tour.reform(|_| Some(LANDING_SERIES));
    html! {
        <div class="lesson" id="lesson">
            if props.landing {
                <div class="lesson-text">
                    { for LANDING_TEXT.iter().map(|p| html! { <p>{ *p }</p> }) }
                </div>
            }
            <div class="lesson-actions">
                <button id="start-tour" class="button primary" onclick={start}>{ "Start the tour ▸" }</button>
                <a class="button secondary" href="#lab">{ "Open the Lab" }</a>
            </div>
            <p class="check-offer muted">{ "Or first " }
                <button class="link" id="check-first" onclick={props.on_check.reform(|_| ())}>{ "check what you know" }</button>
                { format!(": three short questions now, the same after lesson {}, to see what the course taught you.", course::COURSE.len()) }</p>
        </div>
    }
}

fn tour_view(props: &LessonProps, t: &TourState) -> Html {
    let tour = &t.tour;
    let n = tour.steps.len();
    let s = &tour.steps[t.step];
    let k = t.step;
    let answer = t.answer_text();
    let lesson = course::lesson(tour.id);
    let next = course::next(tour.id);
    let last = k + 1 >= n;
    let end_of_course = lesson.is_some_and(|(i, _)| i == course::COURSE.len());
    let waiting = t.waiting(props.view);
    html! {
        <div class="lesson tour" id="tour" data-tour={tour.id} data-step={(k + 1).to_string()}
             data-arrived={waiting.is_none().to_string()} role="group" aria-label="Tour">
            <div class="tour-head">
                if let Some((i, _)) = lesson {
                    <span class="muted">{ format!("Lesson {i} of {} · ", course::COURSE.len()) }</span>
                }
                <b>{ format!("Tour: {}", tour.title) }</b>
                <span class="muted">{ format!(" · step {} of {n}", k + 1) }</span>
                <button class="link" id="tour-close" onclick={props.on_tour.reform(|_| None)}>{ "close" }</button>
            </div>
            if let Some(w) = waiting {
                <p class="tour-see tour-wait" id="tour-see" aria-live="polite">{ w }</p>
            } else {
                <p class="tour-see" id="tour-see">{ pieces(&s.see, "data-readout") }</p>
            }
            if let Some(answer) = answer {
                <p class="tour-answer" id="tour-answer">{ answer }</p>
            }
            if let Some(check) = &props.check { { check.clone() } }
            // Its figures are of the screen the next step stands at (the moment the button goes
            // to): spans naming their readout for the next step (`data-next-readout`).
            <p class="tour-press" id="tour-press">{ pieces(&s.press, "data-next-readout") }</p>
            <div class="tour-actions">
                <button class="button secondary" id="tour-back" disabled={k == 0}
                        onclick={props.on_step.reform(move |_| k.saturating_sub(1))}>{ "◂ Back" }</button>
                if s.action == TourAction::Predict {
                    { for tour.prediction.choices.iter().enumerate().map(|(i, (_, l))| html! {
                        <button class="button primary predict" data-choice={i.to_string()}
                                onclick={props.on_predict.reform(move |_| i)}>{ l.clone() }</button>
                    }) }
                } else {
                    <button class="button primary" id="tour-act" onclick={props.on_act.reform(|_| ())}>{ button_label(s, props.view) }</button>
                }
                if let (true, Some(next)) = (last, next) {
                    // The course's end: the check it promised (one button; the questions then
                    // show under this step, with the before/after if the learner took the
                    // first), and the way back to lesson 1.
                    if end_of_course && props.check.is_none() {
                        <button class="button primary" id="check-learned"
                                onclick={props.on_check.reform(|_| ())}>{ "Check what you learned" }</button>
                    }
                    <button class="button secondary" id="tour-next" data-next={next.id}
                            onclick={props.on_tour.reform(move |_| Some(next.id))}>{ next_label(end_of_course, next.id) }</button>
                } else {
                    <button class="button secondary" id="tour-next" disabled={last}
                            onclick={props.on_step.reform(move |_| k + 1)}>{ "Next ▸" }</button>
                }
            </div>
            if let Some((_, l)) = lesson {
                <details class="tour-terms muted" id="tour-terms">
                    <summary>{ format!("The {} glossary terms of this lesson", l.terms.len()) }</summary>
                    { for l.terms.iter().filter_map(|id| glossary::term(id)).enumerate().map(|(i, term)| html! {
                        <>{ if i > 0 { ", " } else { "" } }<a href={format!("#gloss-{}", term.id)}>{ format!("{} ({})", term.plain, term.kernel) }</a></>
                    }) }
                </details>
            }
        </div>
    }
}

/// A step's text, its figures of readouts as spans naming the readout in attribute `attr`
/// (`data-readout`: the screen's now; `data-next-readout`: the next step's).
fn pieces(text: &str, attr: &'static str) -> Html {
    html! {
        { for readout::pieces(text).into_iter().map(|p| match p {
            Piece::Words(w) => html! { { w.to_string() } },
            Piece::Figure { id, text } => {
                let mut span = yew::virtual_dom::VTag::new("span");
                span.add_attribute("class", "fig");
                span.add_attribute(attr, id.to_string());
                span.add_child(html! { { text.to_string() } });
                span.into()
            }
        }) }
    }
}

/// The step's button: a Play pressed again (the clock past 0) replays the lesson from its
/// start, and says so (time runs backwards only at a button that names it, issue 50).
fn button_label(s: &super::TourStep, view: Option<ViewAt>) -> String {
    match s.action {
        TourAction::Play(speed) if view.is_some_and(|v| v.now_ns > 0) => {
            format!("Replay from the start at {speed}")
        }
        _ => s.button.clone(),
    }
}

/// A series' change in a few words (the tour's title).
fn title_of(id: &str) -> &'static str {
    crate::series::by_id(id).map_or("", |s| s.series.change)
}

/// The last step's button to the next lesson: after the course's last lesson, back to the first.
fn next_label(end_of_course: bool, next: &str) -> String {
    if end_of_course {
        format!("Back to lesson 1: {} ▸", title_of(next))
    } else {
        format!("Next lesson: {} ▸", title_of(next))
    }
}
