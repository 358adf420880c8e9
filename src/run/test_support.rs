//! Helpers for the crate's native unit tests.

use mmcsim_engine::scenario::{apply_option, OptionScope};
use mmcsim_engine::Scenario;

/// The default scenario with `opts` applied as the command line would (`key=value` pairs).
pub fn scenario(opts: &[(&str, &str)]) -> Scenario {
    let mut s = Scenario::default();
    for (k, v) in opts {
        apply_option(&mut s, OptionScope::Global, k, Some(v)).unwrap();
    }
    s
}
