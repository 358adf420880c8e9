//! Non-blocking requests (2011, `u300-mmci-2011`): the next request is DMA-mapped while the
//! current one is on the bus; measured with the kernel's mmc_test cases 37-40.

use mmcsim_engine::calibration::SERIES;
use mmcsim_engine::explain::Layer;
use mmcsim_engine::Scenario;

use super::gallery_text;
use super::readout::{self, so_far};
use super::script::{StepAction as S, TryIt, WalkStep};
use super::throughput::{run, Parts};
use super::words::{bus_state, speed_words, Figures};
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::RunError;

pub static DATA: SeriesData = SeriesData {
    series: &SERIES[2],
    headline: Headline::Case { rw: "write", bs: 4096 },
    kernel: gallery_text("Per Forlin's series splits mmc_start_req into pre_req and post_req host hooks \
             (mmci: dma_map_sg and dma_unmap_sg): while one request is on the bus the next one is \
             already mapped, so the CPU work of a slow ARM926 overlaps the transfer instead of \
             following it. Measured with the kernel's mmc_test cases 37-40."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load the blocking run: mmc_test case 37 (writes, each request prepared after the previous one ends).")),
        WalkStep::plain(S::Play("5 ms/s"), gallery_text("Play it slowly: map, transfer, wait, unmap, then the next request.")),
        WalkStep::says(S::Pause, |s| match s.figs {
            Some((fa, _)) => format!("Pause after a transfer and read the bus strip: {}. The CPU maps the next buffer in {:.0} µs of host software per request.", bus_state(fa), fa.software_us),
            None => "Pause after a transfer and read the bus strip while the CPU maps the next buffer.".to_string(),
        }),
        WalkStep::plain(S::Highlight(Layer::HostQueue), gallery_text("The legacy host queue holds one request; non-blocking prepares the next one during the transfer.")),
        WalkStep::plain(S::Load(true), gallery_text("Load the non-blocking run: mmc_test case 38.")),
        WalkStep::says(S::RunToEnd, |s| match s.figs {
            Some((fa, fb)) => format!("Run it to the end: simulated {}, {}: {}.", s.sizes(), speed_words(fa.figure, fb.figure, s.unit), bus_state(fa)),
            None => "Run it to the end and compare with the measured figures.".to_string(),
        }),
        WalkStep::plain(S::Compare, gallery_text("Fill the whole table: the four mmc_test figures the patch was tested with.")),
    ],
    tour: Some(tour),
    suggest_b: None,
};

/// "Try it yourself": the read cases, mmc_test 39 against 40.
fn read_cases(a: &Scenario, b: &Scenario) -> (Scenario, Scenario) {
    let (mut a, mut b) = (a.clone(), b.clone());
    a.mmc_test = Some(39);
    b.mmc_test = Some(40);
    (a, b)
}

/// Why B's completion latency rises while its throughput barely does (the tour once said
/// "1.02x faster" beside clat p50 +85 % without a word): B prepares the next request while the
/// current one is on the bus, and the prepared request's clock runs while it waits there.
/// Empty when B's median latency is not higher.
fn latency_cost(fa: &Figures, fb: &Figures) -> String {
    if fb.clat_p50_ns <= fa.clat_p50_ns || fb.host_queue_us <= fa.host_queue_us {
        return String::new();
    }
    format!(
        " It costs latency: B prepares each request while the previous one is still on the bus, so the \
         request then waits longer in the host queue (A {:.0} vs B {:.0} µs per request), and its completion \
         latency counts that wait.",
        fa.host_queue_us, fb.host_queue_us
    )
}

fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let r = run(input)?;
    let (fa, fb, unit) = (r.fa, r.fb, r.unit);
    let (ca, cb) = r.columns;
    let speed = "5 ms/s";
    // The moment each side has completed sixteen requests (`MIN_REQUESTS`).
    let at = r.pause(speed, |fa, fb| fa.interrupts >= 3 && fb.interrupts >= 3)?;
    let (pa, pb) = (at.fa, at.fb);
    let parts = Parts {
        speed,
        intro: format!(
            "A ({ca}) and B ({cb}): the kernel's mmc_test writing to an SD card on a slow ARM926. A prepares \
             (DMA-maps) each request after the previous one ends; B while it is on the bus."
        ),
        watch_for: "In A the CPU maps a buffer, then the transfer runs, then the CPU unmaps; B overlaps the map \
                    with the transfer, and the bus strips show how much of each request is the bus's."
            .to_string(),
        paused: at,
        pause_words: "",
        layer: Layer::HostQueue,
        cause: format!(
            "The cause, at {} {}: per request A spends {:.1} µs on the bus and card and {:.1} µs in \
             host software, over its first transfers, all 4 KiB (mmc_test goes on to larger ones: What the \
             run shows ends at {:.1} µs on the bus and card); the bus has been busy {} in A and {} in B. {}",
            readout::clock(at.t_ns), so_far(&pa, &pb), pa.bus_us, pa.software_us, fa.bus_us, readout::busy(false, &pa), readout::busy(true, &pb),
            if pa.bus_us > pa.software_us {
                "The card, not the CPU, dominates."
            } else {
                "The CPU, not the card, dominates."
            }
        ),
        question: "Before B runs to the end: how much faster will B be than A?",
        choices: &[1.0, 2.0, 4.0],
        recap: format!(
            "Preparing the next request during the transfer hides only the CPU's share: {}.{}",
            speed_words(fa.figure, fb.figure, unit),
            latency_cost(&fa, &fb)
        ),
        try_it: TryIt {
            option: "mmc_test",
            value: "39/40",
            both: true,
            press: Some(
                "Try it yourself: the button opens the Lab with the read cases (mmc_test 39 \
                 against 40) and runs it: does preparing ahead help reads more?",
            ),
            button: Some("Try mmc_test 39/40"),
            pair: Some(read_cases),
        },
    };
    Ok(r.script(parts, Vec::new(), None))
}

#[cfg(test)]
mod tests {
    use crate::lesson::tour;
    use crate::run::session::Session;
    use mmcsim_engine::scenario::units::format_latency_ns;

    /// The tour's end once said "B 1.02x faster" while the A/B table showed clat p50
    /// +85 %. The recap now gives the A/B table's p50 of both sides and its change, and says
    /// why B's requests take longer.
    #[test]
    fn the_u300_recap_states_the_latency_the_ab_table_shows() {
        let t = tour(super::DATA.series.id).unwrap();
        let p50 = |scn| {
            let mut s = Session::start(scn).unwrap();
            while !s.run_events(1 << 20) {}
            mmcsim_engine::Figures::of(&s.report())
                .clat
                .percentile(50.0)
        };
        let (a, b) = (p50(&t.a), p50(&t.b));
        let recap = t.steps.last().unwrap().text();
        let change = (b as f64 - a as f64) / a as f64 * 100.0;
        let table = format!(
            "In the A/B table, clat p50: A {} vs B {} ({change:+.1} %)",
            format_latency_ns(a),
            format_latency_ns(b)
        );
        assert!(recap.contains(&table), "{table} in {recap}");
        assert!(b > a, "B's median latency is the higher: {a} {b}");
        assert!(recap.contains("It costs latency"), "{recap}");
        assert!(recap.contains("faster"), "{recap}");
    }
}
