//! A check of generated texts (tests only): every comparison word stands beside the numbers it
//! rests on, and agrees with them. Issue 12: the dynamic-depth card promised fewer refusals
//! while the totals were 262 132 vs 262 129, and the u300 step called the bus idle while its
//! strip showed it 99 % busy.

use mmcsim_engine::explain::{more_fewer, relation};

/// The number at the start of `s` (digits, one '.', no sign).
fn number(s: &str) -> Option<(f64, usize)> {
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.'))
        .map_or(s.len(), |(i, _)| i);
    let t = s[..end].trim_end_matches('.');
    t.parse().ok().map(|v| (v, t.len()))
}

/// The first "A x ... vs B y" pair at or after byte `from` of `s`.
fn a_vs_b(s: &str, from: usize) -> Option<(f64, f64)> {
    let rest = &s[from..];
    let mut at = 0;
    while let Some(i) = rest[at..].find("A ") {
        let p = at + i + 2;
        if let Some((a, n)) = number(&rest[p..]) {
            let after = &rest[p + n..];
            if let Some(j) = after.find(" vs B ") {
                if j <= 12 {
                    if let Some((b, _)) = number(&after[j + 6..]) {
                        return Some((a, b));
                    }
                }
            }
        }
        at = p;
    }
    None
}

/// The number after `key` in `s` ("busy 97 %" -> 97).
fn after(s: &str, key: &str) -> Option<f64> {
    s.find(key)
        .and_then(|i| number(&s[i + key.len()..]))
        .map(|(v, _)| v)
}

/// Where `text` contradicts its own numbers (or states a comparison without them), one message
/// per sentence; empty when every comparison word follows from the numbers beside it.
pub fn disagreements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for s in text.split(". ") {
        let words = [
            " more ",
            " fewer ",
            "faster",
            "slower",
            " idle",
            "bus is busy",
        ];
        if words.iter().any(|w| s.contains(w)) && !s.chars().any(|c| c.is_ascii_digit()) {
            out.push(bad(s, "a comparison without its numbers"));
            continue;
        }
        out.extend(speed_claims(s));
        out.extend(relation_claims(s));
        out.extend(bus_claims(s));
    }
    out
}

/// The message of a sentence `s` that is wrong for `why`.
fn bad(s: &str, why: &str) -> String {
    format!("{why}: {s:?}")
}

/// "B 1.05x faster (A 82.9 vs B 87.1)", "about as fast": the ratio is the figures'.
fn speed_claims(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(i) = s.find("x faster").or(s.find("x slower")) {
        let r: f64 = s[..i]
            .rsplit(' ')
            .next()
            .and_then(|t| t.parse().ok())
            .unwrap_or(f64::NAN);
        match a_vs_b(s, i) {
            Some((a, b)) => {
                let got = if s[i..].starts_with("x faster") {
                    b / a
                } else {
                    a / b
                };
                if !(got > 1.0 && (got - r).abs() <= 0.011 * got + 0.006) {
                    out.push(bad(s, &format!("ratio {r} against A {a} vs B {b}")));
                }
            }
            None => out.push(bad(s, "faster/slower without A vs B")),
        }
    }
    if let Some(i) = s.find("about as fast") {
        match a_vs_b(s, i) {
            Some((a, b)) if (b / a - 1.0).abs() <= 0.011 => {}
            p => out.push(bad(s, &format!("about as fast: {p:?}"))),
        }
    }
    out
}

/// More or fewer refusals, shorter or longer gaps, waits less or longer: the word is the one
/// the engine's comparison gives for the counts or times beside it.
fn relation_claims(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |w: &str, agrees: &dyn Fn(f64, f64) -> bool| {
        if let Some(i) = s.find(w) {
            match a_vs_b(s, i) {
                Some((a, b)) if agrees(a, b) => {}
                p => out.push(bad(s, &format!("{w}: {p:?}"))),
            }
        }
    };
    for w in ["about as many refusals", "more refusals", "fewer refusals"] {
        check(w, &|a, b| w.starts_with(more_fewer(b as u64, a as u64)));
    }
    for w in [
        "shorter than A's",
        "longer than A's",
        "about as long as A's",
    ] {
        check(w, &|a, b| w.starts_with(relation(b, a)));
    }
    for (w, rel) in [
        ("waits less", "shorter than"),
        ("waits longer", "longer than"),
        ("waits about as long", "about as long as"),
    ] {
        check(w, &|a, b| relation(b, a) == rel);
    }
    out
}

/// "The bus is idle" only below the bound of a bus-bound run, "bottleneck" only at or above.
fn bus_claims(s: &str) -> Vec<String> {
    let bound = crate::series::words::BUS_BOUND_PCT;
    let mut out = Vec::new();
    if s.contains("bus is idle") {
        match after(s, "busy ") {
            Some(b) if b < bound => {}
            b => out.push(bad(s, &format!("idle beside busy {b:?} %"))),
        }
    }
    if let Some(b) = after(s, "bus is busy ") {
        if b < bound && s.contains("bottleneck") {
            out.push(bad(s, "a bottleneck at less than the bound"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checker finds the texts of issue 12, and passes their corrected forms.
    #[test]
    fn the_checker_finds_the_contradictions_of_issue_12() {
        assert!(!disagreements(
            "Pause after a transfer: the bus is idle while the CPU maps the next buffer."
        )
        .is_empty());
        assert!(!disagreements("so mmc_mq_queue_rq refuses fewer requests (BLK_STS_RESOURCE) and the card's write cache sees more of them at once.").is_empty());
        assert!(!disagreements(
            "fewer refusals (BLK_STS_RESOURCE) in B than in A (A 262132 vs B 262129)"
        )
        .is_empty());
        assert!(!disagreements(
            "the bus is idle 1.2 µs per request between transfers (busy 99 % of the time)"
        )
        .is_empty());
        assert!(!disagreements("B 1.20x faster (A 82.9 vs B 87.1 MiB/s)").is_empty());
        assert!(!disagreements("B 1.05x slower (A 82.9 vs B 87.1 MiB/s)").is_empty());
        assert!(disagreements(
            "about as many refusals (BLK_STS_RESOURCE) in B as in A (A 262132 vs B 262129)"
        )
        .is_empty());
        assert!(disagreements("B 1.05x faster (A 82.9 vs B 87.1 MiB/s)").is_empty());
        assert!(disagreements("the bus is busy 99 % of the time (idle 0.4 µs per request): the bus and card are the bottleneck").is_empty());
    }

    /// Issue 12: every gallery walk-through (its pair's figures computed) and every tour: each
    /// comparison word agrees with the numbers printed beside it.
    #[test]
    fn every_gallery_step_and_tour_text_agrees_with_its_numbers() {
        let mut checked = 0;
        for s in crate::series::ALL {
            let e = crate::gallery::with_figures(s.series.id).unwrap();
            for text in
                std::iter::once(e.kernel.to_string()).chain(e.steps.iter().map(|s| s.text.clone()))
            {
                assert_eq!(
                    disagreements(&text),
                    Vec::<String>::new(),
                    "{}",
                    s.series.id
                );
                checked += 1;
            }
        }
        for p in crate::series::tour_names() {
            let t = crate::lesson::tour(p).unwrap();
            for st in &t.steps {
                for text in [&st.text(), &st.press] {
                    // The prediction's question and choices are questions, not claims.
                    if st.action != crate::lesson::TourAction::Predict {
                        assert_eq!(disagreements(text), Vec::<String>::new(), "{p}");
                        checked += 1;
                    }
                }
            }
        }
        for text in crate::lesson::LANDING_TEXT {
            assert_eq!(disagreements(text), Vec::<String>::new());
        }
        assert!(checked > 60, "only {checked} texts checked");
    }

    /// The dynamic-depth walk-through says where its gain comes from and that the refusals are
    /// about equal, with both counts.
    #[test]
    fn the_dynamic_depth_text_names_the_cause_of_its_gain() {
        let e = crate::gallery::with_figures("unisoc-hsq-2023").unwrap();
        let end = e
            .steps
            .iter()
            .find(|s| s.action == crate::series::StepAction::RunToEnd)
            .unwrap();
        assert!(
            end.text.contains("The gain comes from the bus"),
            "{}",
            end.text
        );
        // The refusal word is the counts' (at 4 MiB per job about 2 % apart: "fewer"; at the
        // gallery's 64 MiB "about as many"), with both counts beside it.
        assert!(
            end.text.contains("B had ") && end.text.contains(" refusals "),
            "{}",
            end.text
        );
        assert!(!e.kernel.contains("fewer"), "{}", e.kernel);
    }
}
