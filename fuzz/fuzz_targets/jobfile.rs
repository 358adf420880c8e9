//! fio job files: random text -> `parse_jobfile`. Oracle: no panic, and a job file that parses
//! writes back (`to_jobfile`) to a job file that parses to the same scenario.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mmcsim_engine::scenario::jobfile::{parse_jobfile, to_jobfile};
use mmcsim_engine::Scenario;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = parse_jobfile(&text, Scenario::default()) {
        let out = to_jobfile(&s);
        let back = parse_jobfile(&out, Scenario::default()).expect("to_jobfile parses back");
        assert_eq!(back, s, "to_jobfile round trip:\n{}", out);
    }
});
