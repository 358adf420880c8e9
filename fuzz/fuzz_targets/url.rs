//! Scenario links: random text -> `decode_query`. Oracle: no panic; both sides are scenarios the
//! simulator accepts; re-encoding what was decoded gives a link that decodes to the same
//! scenarios without errors.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mmcsim_engine::scenario::url::{decode_query, encode_query};
use mmcsim_engine::Simulator;

fuzz_target!(|data: &[u8]| {
    let q = String::from_utf8_lossy(data);
    let d = decode_query(&q);
    assert!(Simulator::new(&d.a).is_ok(), "A refused: {:?}", d.a);
    if let Some(b) = &d.b {
        assert!(Simulator::new(b).is_ok(), "B refused: {:?}", b);
    }
    let again = decode_query(&encode_query(&d.a, d.b.as_ref()));
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    assert_eq!((again.a, again.b), (d.a, d.b));
});
