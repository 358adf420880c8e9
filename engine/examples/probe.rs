//! Development aid: run one calibration case column and print simulator figures.
//! `cargo run --release -p mmcsim-engine --example probe CASE_INDEX B(0|1) SIZE_MIB`
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let i: usize = a[1].parse().unwrap();
    let b = a[2] == "1";
    let size = a[3].parse::<u64>().unwrap() << 20;
    let c = &mmcsim_engine::calibration::CASES[i];
    let scn = c.scenario(b, size);
    let mut sim = mmcsim_engine::Simulator::new(&scn).unwrap();
    sim.run_until(50_000_000);
    let snap = sim.snapshot();
    println!("at 50ms: in_flight {} window {} host_queue {:?} on_host {:?} dispatch {:?}", snap.in_flight, snap.window, snap.host_queue.len(), snap.on_host.len(), snap.dispatch_list.len());
    sim.run_to_end();
    let r = sim.report();
    let m = r.merged();
    println!("{} {}: {:.2} MiB/s iops {:.0} sim {} ms, events {}, irqs {}, cmds {}, requeues {}, avg batch {:.2}",
        c.label(), b, r.total_mib_s(), m.read.iops() + m.write.iops(), r.sim.simulated_ns / 1_000_000, r.sim.events, r.sim.interrupts, r.sim.bus_commands, r.sim.requeues, r.sim.avg_batch());
    println!("batch hist {:?}", r.sim.batch_hist);
    let n = (m.read.total_ios + m.write.total_ios) as f64;
    for s in mmcsim_engine::Stage::ALL { println!("  {:12} {:8.2} us/req", s.name(), r.sim.stage(s) as f64 / n / 1000.0); }
    println!("  clat p50 {} p99 {} us", (m.read.clat.percentile(50.0)+m.write.clat.percentile(50.0))/1000, (m.read.clat.percentile(99.0)+m.write.clat.percentile(99.0))/1000);
}
