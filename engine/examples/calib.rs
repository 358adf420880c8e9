//! Prints the calibration table quickly (development aid): `cargo run --release -p mmcsim-engine --example calib [SIZE_MIB]`.
fn main() {
    let size = std::env::args().nth(1).and_then(|s| s.parse::<u64>().ok()).map(|m| m << 20);
    for c in mmcsim_engine::calibration::CASES.iter() {
        let t = std::time::Instant::now();
        let r = mmcsim_engine::calibration::run_case(c, size).expect("case runs");
        let (ea, eb) = r.error_pct();
        let (rm, rs) = r.ratios();
        println!(
            "{:18} {:16} A {:8.2} vs {:8.2} ({:+6.1}%)  B {:8.2} vs {:8.2} ({:+6.1}%)  ratio {:5.2} vs {:5.2} ({:+5.1}%) {:?}{}",
            c.platform, c.label(), r.simulated.0, c.measured.0, ea, r.simulated.1, c.measured.1, eb, rm, rs, (rs-rm)/rm*100.0,
            t.elapsed(), if c.outlier.is_some() { " OUTLIER" } else { "" }
        );
    }
}
