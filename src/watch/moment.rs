//! Links to a moment: the view keys a link carries beside the scenario (`t=216us`,
//! `speed=50us`, `paused=1`, `compare=1`, `focus=bus`, `tour=sprd-hs400es-2020`, `step=3`, and
//! a lecturer's `check=1`: the course's check on),
//! split off the query before the engine's scenario decoder sees it, so they are never
//! "unknown option" to it.
//!
//! Plain logic, no browser code. A bad view key gives one message, as a bad scenario key does,
//! and the rest of the link still loads.

use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::units::{format_time_ns, parse_bool, parse_time_ns};

use crate::run::speed::SPEEDS;
use crate::watch::command::Target;

/// The view keys, in the order a link writes them.
pub const VIEW_KEYS: [&str; 8] = [
    "t", "speed", "paused", "compare", "focus", "tour", "step", "check",
];

/// The view a link restores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moment {
    /// Simulated time to stand at, ns.
    pub t: Option<u64>,
    /// Index of [`SPEEDS`].
    pub speed: Option<usize>,
    pub paused: bool,
    /// Show the A/B comparison (B as the link's `b.` keys, or the suggested B).
    pub compare: bool,
    pub focus: Option<Target>,
    /// A tour (its series id) and its step, 0-based.
    pub tour: Option<String>,
    pub step: usize,
    /// The course's check on: three questions before lesson 1 and after the last
    /// (`crate::lesson::check`), a lecturer's link.
    pub check: bool,
}

/// The name of a layer in links.
pub fn layer_key(l: Layer) -> &'static str {
    match l {
        Layer::Jobs => "jobs",
        Layer::BlkMq => "blkmq",
        Layer::MmcQueue => "mmcqueue",
        Layer::HostQueue => "hostqueue",
        Layer::Controller => "controller",
        Layer::Bus => "bus",
        Layer::Card => "card",
    }
}

/// A speed in links: simulated time per real second ("50us"), or "max".
pub fn speed_key(i: usize) -> String {
    match SPEEDS.get(i).and_then(|s| s.sim_ns_per_s) {
        Some(ns) => format_time_ns(ns),
        None => "max".to_string(),
    }
}

fn parse_speed(v: &str) -> Result<usize, String> {
    if v == "max" {
        return Ok(SPEEDS.len() - 1);
    }
    let ns = parse_time_ns(v)?;
    SPEEDS
        .iter()
        .position(|s| s.sim_ns_per_s == Some(ns))
        .ok_or_else(|| {
            let all: Vec<String> = (0..SPEEDS.len()).map(speed_key).collect();
            format!("'{v}' is not a speed; accepted: {}", all.join(", "))
        })
}

fn parse_focus(v: &str) -> Result<Target, String> {
    if let Some(l) = Layer::ALL.iter().find(|&&l| layer_key(l) == v) {
        return Ok(Target::Layer(*l));
    }
    let (side, id) = v.split_once(':').unwrap_or(("a", v));
    match (side, id.parse::<u64>()) {
        ("a" | "b", Ok(id)) => Ok(Target::Request { b: side == "b", id }),
        _ => {
            let layers: Vec<&str> = Layer::ALL.iter().map(|&l| layer_key(l)).collect();
            Err(format!(
                "'{v}' is not a focus; accepted: {}, or a request as a:ID or b:ID",
                layers.join(", ")
            ))
        }
    }
}

/// Splits a query (with or without '?') into the scenario's part, for the engine's decoder,
/// and the moment its view keys describe, with one message per bad view key.
pub fn split_query(q: &str) -> (String, Moment, Vec<String>) {
    let q = q.strip_prefix('?').unwrap_or(q);
    let mut rest = Vec::new();
    let mut m = Moment::default();
    let mut errors = Vec::new();
    for part in q.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        if !VIEW_KEYS.contains(&k) {
            rest.push(part);
            continue;
        }
        // Percent-decoded as the scenario's keys are; no good view value is long, so a long
        // one is cut before it is echoed.
        let v = mmcsim_engine::scenario::url::percent_decode(v);
        let v = mmcsim_engine::scenario::clip(&v);
        let r: Result<(), String> = match k {
            "t" => parse_time_ns(&v).map(|t| m.t = Some(t)),
            "speed" => parse_speed(&v).map(|s| m.speed = Some(s)),
            "paused" => parse_bool(&v).map(|b| m.paused = b),
            "compare" => parse_bool(&v).map(|b| m.compare = b),
            "check" => parse_bool(&v).map(|b| m.check = b).map_err(|_| {
                format!(
                    "'{v}' is neither on nor off; accepted: 1 (the course's check: three questions \
                     before lesson 1 and after the last) or 0"
                )
            }),
            "focus" => parse_focus(&v).map(|f| m.focus = Some(f)),
            // A series id, or the platform an older link named (its first series' tour).
            "tour" => match crate::series::tour_id(&v) {
                Some(n) => {
                    m.tour = Some(n.to_string());
                    Ok(())
                }
                None => Err(format!(
                    "'{v}' is not a tour; accepted: {}",
                    crate::series::tour_names().join(", ")
                )),
            },
            _ => match v.parse::<usize>() {
                Ok(s) if s >= 1 => {
                    m.step = s - 1;
                    Ok(())
                }
                _ => Err(format!("'{v}' is not a step; accepted: 1, 2, 3, ...")),
            },
        };
        if let Err(e) = r {
            // As the CLI prints a message: control characters escaped (a U+0000 as `\x00`).
            let e =
                mmcsim_engine::scenario::bounded_message(format!("{k}: {e} (view key left out)"));
            errors.push(e);
        }
    }
    (rest.join("&"), m, summed_up(errors))
}

/// Most notices a link's view keys give; past it, the rest are summed up in one (as the
/// scenario's keys are: `scenario::url::MAX_LINK_NOTICES`).
const MAX_VIEW_NOTICES: usize = 4;

/// The first [`MAX_VIEW_NOTICES`] - 1 notices, then one saying how many more there were.
fn summed_up(mut errors: Vec<String>) -> Vec<String> {
    if errors.len() > MAX_VIEW_NOTICES {
        let more = errors.len() - (MAX_VIEW_NOTICES - 1);
        errors.truncate(MAX_VIEW_NOTICES - 1);
        errors.push(format!(
            "and {more} more bad view keys (t, speed, paused, compare, focus, tour, step, check); those were left out too"
        ));
    }
    errors
}

impl Moment {
    /// The view keys of this moment, for a link (after the scenario's keys).
    pub fn query(&self) -> String {
        let mut out = Vec::new();
        if let Some(t) = self.t {
            out.push(format!("t={}", format_time_ns(t)));
        }
        if let Some(s) = self.speed {
            out.push(format!("speed={}", speed_key(s)));
        }
        if self.paused {
            out.push("paused=1".to_string());
        }
        if self.compare {
            out.push("compare=1".to_string());
        }
        match self.focus {
            Some(Target::Layer(l)) => out.push(format!("focus={}", layer_key(l))),
            Some(Target::Request { b, id }) => {
                out.push(format!("focus={}:{id}", if b { "b" } else { "a" }))
            }
            None => {}
        }
        if let Some(t) = &self.tour {
            out.push(format!("tour={t}"));
            out.push(format!("step={}", self.step + 1));
        }
        if self.check {
            out.push("check=1".to_string());
        }
        out.join("&")
    }
}

/// A whole link query: the scenario's keys, then the moment's.
pub fn join(scenario: &str, moment: &Moment) -> String {
    let m = moment.query();
    match (scenario.is_empty(), m.is_empty()) {
        (_, true) => scenario.to_string(),
        (true, false) => m,
        _ => format!("{scenario}&{m}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::scenario::url::decode_query;

    #[test]
    fn view_keys_are_split_off_and_round_trip() {
        let q = "?numjobs=20&t=216us&speed=50us&paused=1&compare=1&focus=bus&tour=sprd-hs400es-2020&step=3&check=1&b.packed=8";
        let (rest, m, errors) = split_query(q);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rest, "numjobs=20&b.packed=8");
        assert!(
            decode_query(&rest).errors.is_empty(),
            "no unknown option left"
        );
        assert_eq!(m.t, Some(216_000));
        assert_eq!(m.speed.map(|i| SPEEDS[i].sim_ns_per_s), Some(Some(50_000)));
        assert!(m.paused && m.compare && m.check);
        assert_eq!(m.focus, Some(Target::Layer(Layer::Bus)));
        assert_eq!((m.tour.as_deref(), m.step), (Some("sprd-hs400es-2020"), 2));
        let (_, again, _) = split_query(&m.query());
        assert_eq!(again, m);
        let (_, r, _) = split_query("focus=b:42");
        assert_eq!(r.focus, Some(Target::Request { b: true, id: 42 }));
    }

    #[test]
    fn a_tour_is_named_by_its_series_id_and_an_older_platform_link_still_opens() {
        // Two series share the 2020 board: each has its own tour.
        let (_, m, e) = split_query("tour=hsq-intro-2020&step=2");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((m.tour.as_deref(), m.step), (Some("hsq-intro-2020"), 1));
        // A link from when tours were keyed by platform: the platform's first series.
        let (_, m, _) = split_query("tour=allwinner-hsq-2022");
        assert_eq!(m.tour.as_deref(), Some("fifo-dispatch-2022"));
        // A wrong name lists every tour once.
        let (_, _, e) = split_query("tour=nope");
        let names = crate::series::tour_names();
        assert_eq!(names.len(), crate::series::ALL.len());
        for n in &names {
            assert_eq!(e[0].matches(n).count(), 1, "{n}: {}", e[0]);
        }
    }

    #[test]
    fn a_bad_view_key_is_reported_and_the_rest_loads() {
        let (rest, m, errors) = split_query("t=soon&bs=8k&speed=3us&tour=nope&paused=1");
        assert_eq!(rest, "bs=8k");
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("t: "), "{errors:?}");
        assert!(m.paused && m.t.is_none() && m.tour.is_none());
        assert_eq!(join("bs=8k", &m), "bs=8k&paused=1");
    }

    #[test]
    fn a_lecturers_check_link_turns_the_check_on_and_a_bad_value_says_so_once() {
        let (rest, m, e) = split_query("?check=1");
        assert!(e.is_empty() && rest.is_empty() && m.check, "{e:?}");
        assert_eq!(m.query(), "check=1");
        let (rest, m, e) = split_query("?check=please&numjobs=2");
        assert_eq!((rest.as_str(), m.check), ("numjobs=2", false));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with("check: 'please' is neither on nor off; accepted: 1"),
            "{}",
            e[0]
        );
    }

    #[test]
    fn view_keys_are_decoded_cut_and_summed_up() {
        // Percent-encoded as a link copied from elsewhere has them.
        let (_, m, e) = split_query("focus=a%3A7&t=1%2E5ms");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(m.focus, Some(Target::Request { b: false, id: 7 }));
        assert_eq!(m.t, Some(1_500_000));
        // 600 bad view keys, one of 10 000 characters: four short notices.
        let mut q = format!("step={}", "9".repeat(10_000));
        for i in 0..150 {
            q.push_str(&format!("&t=x{i}&focus=q{i}&tour=n{i}&step=s{i}"));
        }
        let (rest, _, e) = split_query(&q);
        assert_eq!(rest, "");
        assert_eq!(e.len(), MAX_VIEW_NOTICES, "{e:?}");
        assert!(e.iter().all(|n| n.chars().count() < 400), "{e:?}");
        assert!(e[3].starts_with("and 598 more bad view keys"), "{}", e[3]);
    }

    /// A link's view value with control characters (a NUL, an ESC sequence) is echoed in the
    /// page's notice as the CLI echoes one: escaped (`\x00`, `\x1b`), never the raw
    /// character (a notice carried a raw U+0000).
    #[test]
    fn control_characters_in_a_view_value_are_escaped_in_its_notice() {
        let (_, _, e) = split_query("tour=a%00b&focus=%1B%5B2J&speed=%C2%9B1");
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(e.iter().all(|n| !n.chars().any(char::is_control)), "{e:?}");
        assert!(
            e[0].starts_with("tour: 'a\\x00b' is not a tour; accepted: "),
            "{}",
            e[0]
        );
        assert!(
            e[1].starts_with("focus: '\\x1b[2J' is not a focus"),
            "{}",
            e[1]
        );
        assert!(
            e[2].starts_with("speed: '\\u{9b}1' is not a time"),
            "{}",
            e[2]
        );
    }
}
