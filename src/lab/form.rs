//! The Lab form's state: the accepted text of each control, the job section shown, the errors
//! at the controls (A's and, when the Board panel edits B, B's). The page owns the scenario and
//! applies the edits; the form follows what it made of them.

use std::collections::BTreeMap;
use std::rc::Rc;

use mmcsim_components::FieldError;
use mmcsim_engine::Scenario;

use crate::run::engine_bridge as bridge;

#[derive(Clone, Default, PartialEq)]
pub struct Form {
    /// The accepted text of each control (job options: of the selected job section).
    pub texts: Rc<BTreeMap<String, String>>,
    /// The job section the form shows and edits (a multi-job file), and the tabs' labels.
    pub job: usize,
    pub job_labels: Rc<Vec<String>>,
    pub errors: Rc<BTreeMap<String, FieldError>>,
    /// The refused text of each control in error: its field shows it beside the error (and
    /// clearing or fixing it is an edit that clears the error), not the kept value.
    pub refused: Rc<BTreeMap<String, String>>,
    /// The accepted text of each control (what `texts` shows where nothing was refused).
    accepted: BTreeMap<String, String>,
    /// The Board panel edits B's board.
    pub board_b: bool,
    /// Board parameter errors of B.
    pub b_errors: Rc<BTreeMap<String, FieldError>>,
    error_seq: u32,
}

impl Form {
    pub fn new(scenario: &Scenario) -> Form {
        let texts = bridge::control_texts(scenario);
        Form {
            accepted: texts.clone(),
            texts: Rc::new(texts),
            job_labels: Rc::new(bridge::job_labels(scenario)),
            ..Form::default()
        }
    }

    /// The form's texts and job tabs for the scenario (the selected job kept while it exists).
    pub fn set_texts(&mut self, scenario: &Scenario) {
        self.job = self.job.min(scenario.jobs.len().saturating_sub(1));
        let mut texts = bridge::control_texts_in(scenario, self.job);
        self.accepted = texts.clone();
        for (name, text) in self.refused.iter() {
            if let Some(t) = texts.get_mut(name) {
                t.clone_from(text);
            }
        }
        self.texts = Rc::new(texts);
        self.job_labels = Rc::new(bridge::job_labels(scenario));
    }

    /// A new scenario loaded: its first job, no errors.
    pub fn load(&mut self, scenario: &Scenario) {
        self.job = 0;
        self.refused = Rc::default();
        self.set_texts(scenario);
        self.errors = Rc::default();
        self.b_errors = Rc::default();
    }

    /// Shows job section `i`.
    pub fn select_job(&mut self, i: usize, scenario: &Scenario) {
        self.job = i;
        self.errors = Rc::default();
        self.refused = Rc::default();
        self.set_texts(scenario);
    }

    fn error(&mut self, message: String) -> FieldError {
        self.error_seq += 1;
        FieldError {
            message,
            seq: self.error_seq,
        }
    }

    /// The page accepted control `name`'s text: `scenario` is the new one.
    pub fn accepted(&mut self, name: &str, scenario: &Scenario) {
        let mut refused = (*self.refused).clone();
        refused.remove(name);
        self.refused = Rc::new(refused);
        self.set_texts(scenario);
        let mut errors = (*self.errors).clone();
        errors.remove(name);
        self.errors = Rc::new(errors);
    }

    /// The parser refused control `name`'s `text`: the error at the control, the kept text
    /// named, the refused text left in the field.
    pub fn rejected(&mut self, name: String, text: String, message: &str) {
        let kept = self.accepted.get(&name).cloned().unwrap_or_default();
        let kept = if kept.is_empty() {
            "the platform default".to_string()
        } else {
            kept
        };
        let error = self.error(format!("{message} (kept {kept})"));
        let mut errors = (*self.errors).clone();
        errors.insert(name.clone(), error);
        self.errors = Rc::new(errors);
        let mut refused = (*self.refused).clone();
        refused.insert(name.clone(), text.clone());
        self.refused = Rc::new(refused);
        if let Some(t) = Rc::make_mut(&mut self.texts).get_mut(&name) {
            *t = text;
        }
    }

    /// The engine refused a combination at this control.
    pub fn refuse(&mut self, option: String, message: String) {
        let mut errors = (*self.errors).clone();
        errors.insert(option, self.error(message));
        self.errors = Rc::new(errors);
    }

    /// B's board parameter `name` accepted (`message`: None) or refused.
    pub fn board_b(&mut self, name: String, message: Option<&str>) {
        let mut errors = (*self.b_errors).clone();
        match message {
            None => {
                errors.remove(&name);
            }
            Some(m) => {
                let error = self.error(format!("B: {m}"));
                errors.insert(name, error);
            }
        }
        self.b_errors = Rc::new(errors);
    }
}
