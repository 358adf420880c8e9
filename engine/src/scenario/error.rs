//! [`ScenarioError`]: one clear, bounded line naming the option at fault and what is accepted,
//! with the clipping helpers every message goes through.

/// A scenario or option error: one clear line naming what is wrong and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The option (or job-file line) at fault, if any.
    pub option: Option<String>,
    pub message: String,
}

/// Longest piece of the user's input an error message echoes (a key, a value, a word).
pub const MAX_ECHO_CHARS: usize = 80;
/// Longest error message, all told.
pub const MAX_MESSAGE_CHARS: usize = 400;

/// `s` cut to at most `max` characters: the start, then "…" and how long it was.
pub fn clip_to(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some(_) => {
            let keep = max.saturating_sub(16);
            let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
            format!("{}… ({} chars)", &s[..end], s.chars().count())
        }
    }
}

/// `s` cut to [`MAX_ECHO_CHARS`], for echoing a key or value in a message.
pub fn clip(s: &str) -> String {
    clip_to(s, MAX_ECHO_CHARS)
}

/// A message with every run of non-blank characters longer than [`MAX_ECHO_CHARS`] cut, and the
/// whole cut to [`MAX_MESSAGE_CHARS`]: whatever the input, a message stays one short line.
pub fn bounded_message(m: String) -> String {
    let m = if m
        .split(char::is_whitespace)
        .any(|w| w.chars().nth(MAX_ECHO_CHARS).is_some())
    {
        let mut out = String::new();
        let mut rest = m.as_str();
        while !rest.is_empty() {
            let blank = rest
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len());
            out.push_str(&rest[..blank]);
            rest = &rest[blank..];
            let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push_str(&clip(&rest[..word]));
            rest = &rest[word..];
        }
        out
    } else {
        m
    };
    clip_to(&escape_controls(&m), MAX_MESSAGE_CHARS)
}

/// `s` safe to print on a terminal: line breaks and tabs as spaces, every other control
/// character (ESC, BEL, the C1 controls such as CSI) as a visible escape (`\x1b`, `\u{9b}`),
/// so an echoed value can neither start a new line nor drive the terminal (set its title,
/// move the cursor, clear the screen).
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() && (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

impl ScenarioError {
    /// An error about `option`; the option and the message are cut ([`MAX_ECHO_CHARS`],
    /// [`MAX_MESSAGE_CHARS`]) so no input makes an unbounded message.
    pub fn new(option: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            option: Some(escape_controls(&clip(&option.into()))),
            message: bounded_message(message.into()),
        }
    }
    pub fn general(message: impl Into<String>) -> Self {
        ScenarioError {
            option: None,
            message: bounded_message(message.into()),
        }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.option {
            Some(o) => write!(f, "{}: {}", o, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}
