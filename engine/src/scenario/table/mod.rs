//! The option table: one row per option, after fio's own `options.c` (`struct fio_option`:
//! name, alias, type, help, and the offset of the field it sets).
//!
//! A row holds everything the rest of the program needs to know about an option: its name and
//! aliases, what it accepts, its help line, what it sets and how ([`Access`]: parse into the
//! field, print the field, reset it), a sample value for the table's own test, and how the web
//! page shows it ([`FormHint`]). The parser (`options`), the job-file and command-line writer
//! (`write`), links (`url`), `--help`, resetting and the page's controls all read this table;
//! adding an option is adding a row to its family's file and naming it in [`OPTIONS`] (see
//! docs/ARCHITECTURE.md).
//!
//! The rows live by family, as fio's `options.c` groups them: `row` (the row types) and
//! `values` (the shared value parsers) below, then `io_type`, `engine`, `process`, `time`,
//! `rate`, `files`, `zones`, `logs`, `prio`, `host`, `run` (scenario-wide), `ignored`, and `board`
//! (the board parameters wrapped as rows). [`OPTIONS`] assembles them in the order every
//! writer prints them.

#[macro_use]
mod macros;
pub(super) mod board;
mod engine;
mod files;
mod host;
mod ignored;
mod io_type;
mod logs;
mod prio;
mod process;
mod queue;
mod rate;
mod row;
mod run;
mod time;
mod values;
mod zones;

pub use row::{Access, FormGroup, FormHint, OptionKind, OptionRow, SetFn, Switch, Widget};

/// The modelled options, in print order: job options (fio's), then the scenario-wide ones.
const MODELLED: &[OptionRow] = &[
    io_type::NAME,
    io_type::RW,
    io_type::RWMIXREAD,
    io_type::RWMIXWRITE,
    io_type::BS,
    io_type::SIZE,
    process::NUMJOBS,
    engine::IODEPTH,
    engine::IODEPTH_BATCH,
    engine::IODEPTH_BATCH_COMPLETE_MIN,
    engine::IOENGINE,
    time::RUNTIME,
    time::TIME_BASED,
    engine::DIRECT,
    engine::SYNC,
    engine::FSYNC,
    engine::FS,
    io_type::OFFSET,
    io_type::BSRANGE,
    io_type::BSSPLIT,
    rate::RATE,
    rate::RATE_IOPS,
    rate::THINKTIME,
    rate::THINKTIME_BLOCKS,
    io_type::RANDOM_DISTRIBUTION,
    process::STONEWALL,
    process::EXITALL,
    time::STEADYSTATE,
    time::STEADYSTATE_DURATION,
    time::STEADYSTATE_RAMP_TIME,
    time::STEADYSTATE_CHECK_INTERVAL,
    process::NEW_GROUP,
    zones::ZONEMODE,
    zones::MAX_OPEN_ZONES,
    zones::READ_BEYOND_WP,
    zones::ZONE_RESET_THRESHOLD,
    zones::ZONE_RESET_FREQUENCY,
    zones::ZONESIZE,
    zones::ZONESKIP,
    process::WAIT_FOR,
    io_type::LOOPS,
    io_type::IO_SIZE,
    io_type::NUMBER_IOS,
    files::FILESIZE,
    files::NRFILES,
    io_type::OFFSET_INCREMENT,
    time::RAMP_TIME,
    time::STARTDELAY,
    engine::FDATASYNC,
    engine::END_FSYNC,
    engine::FSYNC_ON_CLOSE,
    logs::READ_IOLOG,
    logs::REPLAY_NO_STALL,
    logs::REPLAY_EVENTS,
    logs::WRITE_IOLOG,
    logs::WRITE_BW_LOG,
    logs::WRITE_LAT_LOG,
    logs::WRITE_IOPS_LOG,
    logs::LOG_AVG_MSEC,
    prio::PRIO,
    prio::PRIOCLASS,
    prio::CMDPRIO_PERCENTAGE,
    prio::CMDPRIO_CLASS,
    prio::CMDPRIO,
    prio::CGROUP,
    prio::CGROUP_WEIGHT,
    run::PLATFORM,
    host::MMC_PATH,
    host::NONBLOCKING,
    host::HSQ_DEPTH,
    host::HSQ_DISPATCH,
    host::PACKED,
    host::FUA,
    host::CACHE,
    host::IOSCHEDULER,
    host::BLK_DISPATCH,
    queue::NR_REQUESTS,
    queue::NOMERGES,
    queue::FIFO_BATCH,
    queue::READ_EXPIRE,
    queue::WRITE_EXPIRE,
    queue::WRITES_STARVED,
    queue::FRONT_MERGES,
    queue::PRIO_AGING_EXPIRE,
    queue::READ_LAT_NSEC,
    queue::WRITE_LAT_NSEC,
    queue::SLICE_IDLE,
    queue::LOW_LATENCY,
    run::RANDSEED,
    run::GROUP_REPORTING,
    run::MMC_TEST,
    run::POWER_CUT,
    run::INJECT_ERROR,
    run::SENSITIVITY,
];

const OPTION_COUNT: usize = MODELLED.len() + ignored::ROWS.len();

/// [`MODELLED`] then the options accepted without effect.
static ALL_OPTIONS: [OptionRow; OPTION_COUNT] = macros::concat_rows(MODELLED, ignored::ROWS);

/// Every accepted option. Job files, command lines and links write options in this order
/// (`name` first in a job), and `--help` lists them in it by kind.
pub static OPTIONS: &[OptionRow] = &ALL_OPTIONS;

/// Every row: the options, then the board parameters (`board::PARAMS`).
pub fn all_rows() -> impl Iterator<Item = &'static OptionRow> + Clone {
    OPTIONS.iter().chain(board::PARAMS.iter())
}

/// The row `key` names (its name or an alias), if any.
pub fn lookup(key: &str) -> Option<&'static OptionRow> {
    all_rows()
        .find(|o| o.name == key)
        .or_else(|| all_rows().find(|o| o.aliases.contains(&key)))
}

/// The rows the page's form shows in `group`, in table order (the options, then the one board
/// parameter with a control: the kernel).
pub fn form_rows(group: FormGroup) -> impl Iterator<Item = (&'static OptionRow, FormHint)> {
    all_rows().filter_map(move |o| o.form.filter(|f| f.group == group).map(|f| (o, f)))
}
