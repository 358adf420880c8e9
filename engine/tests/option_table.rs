//! Every row of the option table walked through everything that reads it: parse, print (command
//! line, job file), link, reset, the form's value text and `--help`'s fields. A new row that
//! forgets one of them fails here, not in a user's hands.

use mmcsim_engine::scenario::jobfile::{parse_jobfile, to_jobfile};
use mmcsim_engine::scenario::options::{
    all_rows, apply_option, apply_text, lookup, parse_args, reset_option, value_text, OptionKind,
    OptionScope,
};
use mmcsim_engine::scenario::table::{form_rows, FormGroup};
use mmcsim_engine::scenario::url::{decode_query, encode_query, is_output_file_option};
use mmcsim_engine::Scenario;

/// What a row's example needs beside it to make a scenario the simulator accepts.
fn base_for(name: &str) -> Scenario {
    let mut s = Scenario::default();
    if name == "time_based" {
        apply_option(&mut s, OptionScope::Global, "runtime", Some("1s")).unwrap();
    }
    // The default preset's bus is HS400, 8-bit only: a narrower bus needs another mode.
    if name == "bus_width" {
        apply_option(&mut s, OptionScope::Global, "bus_mode", Some("hs200")).unwrap();
    }
    s
}

/// The row's base scenario with its example value set.
fn with_example(name: &str, example: &str) -> Scenario {
    let mut s = base_for(name);
    apply_option(&mut s, OptionScope::Global, name, Some(example))
        .unwrap_or_else(|e| panic!("{name}={example}: {e}"));
    s
}

#[test]
fn every_row_parses_prints_links_and_resets() {
    for row in all_rows() {
        let s = with_example(row.name, row.example);
        let base = base_for(row.name);
        if row.kind == OptionKind::Ignored {
            assert_eq!(
                s,
                Scenario::default(),
                "{} is ignored yet changed the scenario",
                row.name
            );
            continue;
        }
        assert_ne!(s, base, "{}={} changed nothing", row.name, row.example);
        // Printed as command-line arguments, it reads back the same.
        let args = s.to_args();
        assert_eq!(
            parse_args(&args, Scenario::default()),
            Ok(s.clone()),
            "{}: {args:?}",
            row.name
        );
        // As a job file.
        let file = to_jobfile(&s);
        assert_eq!(
            parse_jobfile(&file, Scenario::default()),
            Ok(s.clone()),
            "{}: {file}",
            row.name
        );
        // As a link, with nothing left out; an option that writes a file is never in a link.
        let q = encode_query(&s, None);
        let d = decode_query(&q);
        assert!(d.errors.is_empty(), "{}: {q}: {:?}", row.name, d.errors);
        if is_output_file_option(row.name) {
            assert!(!q.contains(row.name), "{}: {q}", row.name);
            assert_eq!(d.a, base, "{}: {q}", row.name);
        } else {
            assert_eq!(d.a, s, "{}: {q}", row.name);
        }
        // Reset puts the default back, in every scope.
        let mut r = s.clone();
        reset_option(&mut r, OptionScope::Global, row.name).unwrap();
        assert_eq!(r, base, "{}: reset", row.name);
        // A link that resets it on the B side gives A's default there.
        let d = decode_query(&format!("{q}&b.{}=", row.name));
        assert_eq!(
            d.b.as_ref(),
            Some(&base),
            "{}: b.{}= in {q}",
            row.name,
            row.name
        );
        // The form's text for it sets it again.
        let text = value_text(&s, row.name);
        if row.name != "rwmixwrite" {
            assert_eq!(
                apply_text(&base, row.name, &text),
                Ok(s.clone()),
                "{}: form text {text:?}",
                row.name
            );
        }
    }
}

#[test]
fn aliases_name_their_row_and_help_fields_are_filled() {
    for row in all_rows() {
        assert!(
            !row.accepted.is_empty() && !row.help.is_empty(),
            "{}: accepted and help",
            row.name
        );
        assert_eq!(lookup(row.name).map(|r| r.name), Some(row.name));
        for a in row.aliases {
            assert_eq!(lookup(a).map(|r| r.name), Some(row.name), "alias {a}");
        }
        let dupes = all_rows().filter(|o| o.name == row.name).count();
        assert_eq!(dupes, 1, "{} appears {dupes} times", row.name);
    }
}

#[test]
fn an_empty_form_text_puts_a_host_switch_back_to_the_platform_default() {
    for row in all_rows().filter(|r| matches!(r.kind, OptionKind::Host | OptionKind::Platform)) {
        let s = with_example(row.name, row.example);
        assert_eq!(
            apply_text(&s, row.name, ""),
            Ok(base_for(row.name)),
            "{}",
            row.name
        );
        assert_eq!(
            value_text(&Scenario::default(), row.name),
            "",
            "{}",
            row.name
        );
    }
}

#[test]
fn the_form_shows_the_first_screen_controls() {
    let names: Vec<&str> = FormGroup::ALL
        .iter()
        .flat_map(|&g| form_rows(g).map(|(r, _)| r.name))
        .collect();
    for n in [
        "platform",
        "rw",
        "bs",
        "size",
        "numjobs",
        "iodepth",
        "ioengine",
        "mmc_path",
        "hsq_depth",
        "packed",
        "fua",
        "nonblocking",
        "kernel",
    ] {
        assert!(names.contains(&n), "{n} has no control");
    }
}

/// The Lab's kernel choice (issue 46) offers every kernel whose block layer the model carries
/// and no other, last of the host's controls (so B's controls in the A/B view have it too); it
/// is the one board parameter on the first screen.
#[test]
fn the_kernel_choice_offers_every_carried_version_and_no_other() {
    use mmcsim_engine::platform::CARRIED;
    use mmcsim_engine::scenario::table::Widget;
    let host: Vec<_> = form_rows(FormGroup::Host).collect();
    let (row, hint) = host.last().expect("host controls");
    assert_eq!(row.name, "kernel");
    let Widget::Choices(choices) = hint.widget else {
        panic!("the kernel is a choice");
    };
    let carried: Vec<String> = CARRIED.iter().map(|k| k.to_string()).collect();
    assert_eq!(choices, carried);
    let board_controls: Vec<&str> = FormGroup::ALL
        .iter()
        .flat_map(|&g| form_rows(g))
        .filter(|(r, _)| r.kind == mmcsim_engine::scenario::table::OptionKind::Platform)
        .map(|(r, _)| r.name)
        .collect();
    assert_eq!(board_controls, ["kernel"]);
}

/// Every option that changes the run has a control (issue 12: `sync`, `mmc_test`, `cache`,
/// `runtime`, `time_based`, `rwmixread`, `fsync`, `inject_error` had none), in the folded
/// "Advanced" group, and an empty text puts each back to its default.
#[test]
fn every_option_in_effect_has_a_control() {
    let advanced: Vec<&str> = form_rows(FormGroup::Advanced)
        .map(|(r, _)| r.name)
        .collect();
    for n in [
        "sync",
        "mmc_test",
        "cache",
        "runtime",
        "time_based",
        "rwmixread",
        "fsync",
        "inject_error",
    ] {
        assert!(advanced.contains(&n), "{n} has no control");
        let row = lookup(n).unwrap();
        let s = with_example(n, row.example);
        let back = apply_text(&s, n, "");
        if value_text(&Scenario::default(), n).is_empty() {
            assert_eq!(back, Ok(Scenario::default()), "{n}: empty resets");
        }
    }
}
