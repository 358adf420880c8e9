//! The bounds every accepted scenario stays within, one name each: the option rows refuse values
//! past them, `check` refuses scenarios whose whole run would go past them.

/// Upper bound for `size=` and `offset=`: larger than any eMMC (1 TiB).
pub const MAX_DEVICE_BYTES: u64 = 1 << 40;
/// The modelled device's size: 2 TiB, room for the largest `offset=` and the largest region
/// after it. A job's regions and a replayed trace's I/Os end within it (fio stops a job that
/// starts past a device's end with "offset extends end").
pub const DEVICE_BYTES: u64 = 2 * MAX_DEVICE_BYTES;
/// Upper bound for `bs=`: 256 MiB (a zone of fio's zbd examples). Above the platform's largest
/// request the block layer splits each I/O into several requests (`bio_split_to_limits`).
pub const MAX_BS: u64 = 256 << 20;
/// Upper bound for `numjobs=` in one section.
pub const MAX_NUMJOBS: u32 = 256;
/// Latest simulated time any other time option may name (`power_cut=`): one day.
pub const MAX_TIME_NS: u64 = 86_400_000_000_000;
/// Longest `runtime=`: a day of simulated time, like every other time option. What bounds a
/// time-based run's cost is the I/O budget, [`MAX_TOTAL_IOS`]: the jobs stop issuing once the
/// run has issued that many I/Os, and the report says so.
pub const MAX_RUNTIME_NS: u64 = MAX_TIME_NS;
/// Most I/Os one run may simulate: the jobs stop issuing there (a time-based run says so in its
/// report), and `check` refuses sized jobs whose estimate goes beyond [`MAX_EVENTS`]. It is
/// [`MAX_EVENTS`] / [`EVENTS_PER_IO`], so a run stopped by the budget stays within the events.
pub const MAX_TOTAL_IOS: u64 = MAX_EVENTS / EVENTS_PER_IO;
/// Most simulator events one run may take, as `estimated_events` counts them: about 7 s of
/// CPU on the project's 2-core machine alone (0.085 us per event), 10 s under the usual load.
/// Every accepted scenario stays under it, whatever bounds it (size, runtime, power_cut).
pub const MAX_EVENTS: u64 = 80_000_000;
/// Events the estimate counts per I/O (measured: 4.4 packed, 6.3 psync with 1024 clones,
/// 7.0 CQE libaio) and per flush (`fsync=`).
pub const EVENTS_PER_IO: u64 = 8;
pub const EVENTS_PER_FLUSH: u64 = 6;
/// Most job clones in a run (all sections' `numjobs` together).
pub const MAX_JOBS: u64 = 1024;
/// Most I/Os outstanding at once over all jobs (numjobs x iodepth): each is a request in memory.
pub const MAX_OUTSTANDING: u64 = 16_384;
/// Most simulator events one whole command may take, as `estimated_events` counts them summed
/// over its runs (every point of a sweep or shard, every case of a fit times its iterations):
/// 60 single runs, about 10 minutes of CPU on the project's 2-core machine.
pub const MAX_COMMAND_EVENTS: u64 = 60 * MAX_EVENTS;
/// Most bytes read from any one input file (job file, include, platform file, iolog, sweep or
/// fit result): 16 MiB, a 700 000-line trace. Inputs must be regular files (or `-`, stdin, for a job file).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;
/// Most bytes of traces one command reads (every `read_iolog=` file and a binary blktrace's
/// CPU files, together): 32 MiB. A trace is held parsed (32 bytes an I/O, about twice the
/// size of its text); four 16 MiB Perfetto traces took 189 MB, two take under 100 MB.
pub const MAX_TRACE_BYTES: u64 = 32 << 20;
/// Most zones `zonemode=zbd` may emulate over the jobs' regions: 16 M, 64 MiB of write
/// pointers (4 bytes a zone, `path/workload/zbd.rs`), whatever the I/O count.
pub const MAX_ZBD_ZONES: u64 = 1 << 24;

/// `zonemode=zbd`'s zones over every job region (each clone's, when `offset_increment` moves
/// them apart) within [`MAX_ZBD_ZONES`].
pub(super) fn check_zbd_zones(scn: &super::Scenario) -> Result<(), super::ScenarioError> {
    let mut zones = 0u64;
    for j in scn.jobs.iter().filter(|j| j.zone_zbd) {
        let Some(zs) = j.zonesize.filter(|&z| z > 0) else {
            continue;
        };
        let regions = if j.offset_increment > 0 {
            j.numjobs.max(1)
        } else {
            1
        };
        let per = j.size.div_ceil(zs).saturating_add(1);
        zones = zones.saturating_add(per.saturating_mul(u64::from(regions)));
        if zones > MAX_ZBD_ZONES {
            return Err(super::ScenarioError::new(
                "zonesize",
                format!(
                    "job '{}': zonemode=zbd with zonesize={} makes about {zones} zones of its region; at most {MAX_ZBD_ZONES} (64 MiB of write pointers); accepted: a zonesize of at least {} for this size, or a smaller size",
                    j.name,
                    crate::scenario::units::format_size(zs),
                    crate::scenario::units::format_size(
                        j.size.div_ceil(MAX_ZBD_ZONES / u64::from(regions)).next_multiple_of(512)
                    )
                ),
            ));
        }
    }
    Ok(())
}
