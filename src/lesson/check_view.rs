//! The course's check on the page (the whole app's build only): one question at a time with
//! its choices and Skip, before lesson 1 and after the last; after the last, the score before
//! and after, the predictions made along the way and the lessons to revisit. The page
//! (`shell/app_check.rs`) holds the [`Record`] and keeps it in the browser.

use std::rc::Rc;

use yew::prelude::*;

use super::check::{Phase, Record};
use crate::series::check::QUESTIONS;
use crate::series::course::{self, COURSE};

#[derive(Properties, Clone, PartialEq)]
pub struct CheckProps {
    pub phase: Phase,
    pub record: Rc<Record>,
    /// The right choices (after the last lesson, once computed): the results are shown.
    pub rights: Option<Rc<Vec<usize>>>,
    /// Question `.0` of the phase answered with choice `.1` (None: skipped).
    pub on_answer: Callback<(usize, Option<usize>)>,
    /// Before: start lesson 1; after: open the lesson of this id (a lesson to revisit).
    pub on_lesson: Callback<&'static str>,
    /// Clear the record and ask the questions again.
    pub on_restart: Callback<()>,
}

#[function_component(CheckPanel)]
pub fn check_panel(p: &CheckProps) -> Html {
    let phase = p.phase;
    let (title, id) = match phase {
        Phase::Before => ("Check what you know first", "before"),
        Phase::After => ("The same three questions, after the course", "after"),
    };
    let last = COURSE.len();
    let body = match p.record.next(phase) {
        Some(q) => question(p, q),
        None if phase == Phase::Before => html! {
            <>
                <p>{ format!("Done. Your answers are kept in this browser only (nothing is sent anywhere); \
                              the same three questions come back at the end of lesson {last}.") }</p>
                <div class="tour-actions">
                    <button class="button primary" id="check-start"
                            onclick={p.on_lesson.reform(|_| COURSE[0].id)}>{ "Start lesson 1 ▸" }</button>
                    <button class="link" id="check-restart" onclick={p.on_restart.reform(|_| ())}>{ "Answer again" }</button>
                </div>
            </>
        },
        None => results(p),
    };
    html! {
        <section class="check" id="check" data-phase={id} aria-label={title}>
            <div class="check-head"><b>{ title }</b></div>
            { body }
        </section>
    }
}

fn question(p: &CheckProps, q: usize) -> Html {
    let question = &QUESTIONS[q];
    let n = QUESTIONS.len();
    let intro = match (p.phase, q) {
        // Three: a test of `series::check` holds the data to it.
        (Phase::Before, 0) => Some(format!(
            "Three short questions before lesson 1, the same three after lesson {}: answer as you think now, \
             or skip any. Your answers stay in this browser.",
            COURSE.len()
        )),
        _ => None,
    };
    html! {
        <div class="check-q" data-q={(q + 1).to_string()}>
            if let Some(intro) = intro { <p class="muted">{ intro }</p> }
            <p><span class="muted">{ format!("Question {} of {n}. ", q + 1) }</span>{ question.text }</p>
            <div class="check-choices">
                { for question.choices.iter().enumerate().map(|(i, (_, label))| html! {
                    <button class="button secondary check-choice" data-choice={i.to_string()}
                            onclick={p.on_answer.reform(move |_| (q, Some(i)))}>{ *label }</button>
                }) }
            </div>
            <button class="link" id="check-skip" onclick={p.on_answer.reform(move |_| (q, None))}>{ "Skip this question" }</button>
        </div>
    }
}

fn results(p: &CheckProps) -> Html {
    let Some(rights) = p.rights.as_deref() else {
        return html! { <p class="muted" id="check-wait">{ "Scoring: the simulation computes each question's answer…" }</p> };
    };
    let r = &p.record;
    let n = QUESTIONS.len();
    let score = |phase| {
        let s = r.score(phase, rights);
        let mut t = format!("{} of {n} right", s.right);
        if s.skipped > 0 {
            t += &format!(" ({} skipped)", s.skipped);
        }
        if s.answered + s.skipped == 0 {
            t = "not answered".to_string();
        }
        t
    };
    let (hit, made) = r.predictions_hit();
    let predictions = match made {
        0 => "You made no prediction with the check on.".to_string(),
        _ => format!("Predictions you made along the way: {hit} of {made} the choice closest to what the simulation computed."),
    };
    let word = |a: Option<Option<usize>>, right: usize| match a {
        Some(Some(i)) if i == right => "right",
        Some(Some(_)) => "wrong",
        Some(None) => "skipped",
        None => "not answered",
    };
    let (before, after) = (r.answers(Phase::Before), r.answers(Phase::After));
    let revisit = r.revisit(rights);
    html! {
        <div id="check-result">
            <p id="check-score"><b>{ format!("Before the course: {}. After: {}.", score(Phase::Before), score(Phase::After)) }</b></p>
            <ol class="check-list">
                { for QUESTIONS.iter().enumerate().map(|(i, q)| html! {
                    <li data-right={rights[i].to_string()}>{ format!("{} (lesson {}): before {}, after {}; the answer: \"{}\".",
                                  q.topic, course::lesson(q.lesson).map_or(0, |(k, _)| k),
                                  word(before[i], rights[i]), word(after[i], rights[i]), q.choices[rights[i]].1) }</li>
                }) }
            </ol>
            <p id="check-predictions">{ predictions }</p>
            if revisit.is_empty() {
                <p id="check-revisit">{ "Lessons to revisit: none (no wrong answer after the course, no missed prediction)." }</p>
            } else {
                <p id="check-revisit">{ "Lessons to revisit (a wrong answer after the course, or a missed prediction):" }</p>
                <div class="check-choices">
                    { for revisit.into_iter().map(|id| {
                        let k = course::lesson(id).map_or(0, |(k, _)| k);
                        let title = crate::series::by_id(id).map_or("", |s| s.series.change);
                        html! { <button class="button secondary check-revisit" data-lesson={id}
                                        onclick={p.on_lesson.reform(move |_| id)}>{ format!("Lesson {k}: {title}") }</button> }
                    }) }
                </div>
            }
            <p class="muted">{ "Kept in this browser only. " }
                <button class="link" id="check-restart" onclick={p.on_restart.reform(|_| ())}>{ "Clear my answers" }</button></p>
        </div>
    }
}
