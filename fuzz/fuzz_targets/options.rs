//! fio command lines: random bytes split into arguments -> `parse_args`. Oracle: no panic, and a
//! scenario that parses writes back (`to_args`) to arguments that parse to the same scenario.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::Scenario;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let args: Vec<&str> = text.split_whitespace().collect();
    if let Ok(s) = parse_args(&args, Scenario::default()) {
        let back = parse_args(&s.to_args(), Scenario::default()).expect("to_args parses back");
        assert_eq!(back, s, "to_args round trip");
    }
});
