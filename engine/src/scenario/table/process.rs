//! Job and group rows (fio's `FIO_OPT_G_PROCESS`): clones, ordering (`stonewall`, `wait_for`)
//! and reporting groups.

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::job::JobSpec;
use crate::scenario::limits::MAX_NUMJOBS;

pub(super) const NUMJOBS: OptionRow = job!("numjobs", &[], "1..=256", "clones of this job (default 1)",
    example "4",
    set |j, k, v| j.numjobs = uint32(k, v1(v), 1, MAX_NUMJOBS)?,
    get |j| Some(j.numjobs.to_string()),
    reset |j| j.numjobs = JobSpec::default().numjobs,
    form form(GW, "numjobs", "Jobs issuing I/O in parallel", Widget::Text { placeholder: "1" }));

pub(super) const STONEWALL: OptionRow = job_flag!(
    "stonewall",
    stonewall,
    &["wait_for_previous"],
    "start when every earlier job has finished; begins a new reporting group"
);

pub(super) const EXITALL: OptionRow = job_flag!(
    "exitall",
    exitall,
    &[],
    "when this job finishes, stop every job of its reporting group"
);

pub(super) const NEW_GROUP: OptionRow =
    job_flag!("new_group", new_group, &[], "begin a new reporting group");

pub(super) const WAIT_FOR: OptionRow = job!("wait_for", &[], "an earlier job's name",
    "start when every clone of that job has finished",
    example "writer",
    set |j, k, v| j.wait_for = Some(job_name(k, v1(v))?),
    get |j| opt_text(&j.wait_for),
    reset |j| j.wait_for = None,
    form None);
