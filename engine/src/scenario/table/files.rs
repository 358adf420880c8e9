//! File rows (fio's `FIO_OPT_G_FILE`): files are regions of the one device, one after the other.

use super::values::*;
use super::OptionRow;
use crate::scenario::limits::MAX_DEVICE_BYTES;
use crate::scenario::units::format_size;

pub(super) const FILESIZE: OptionRow = job!("filesize", &[], "size", "size of each of the nrfiles files (default size / nrfiles)",
    example "8m",
    set |j, k, v| j.filesize = Some(size(k, v1(v), 512, MAX_DEVICE_BYTES, 1)?),
    get |j| j.filesize.map(format_size),
    reset |j| j.filesize = None,
    form None);

pub(super) const NRFILES: OptionRow = job!("nrfiles", &["nr_files"], "1..=4096", "files per job, laid out one after the other on the device",
    example "4",
    set |j, k, v| j.nrfiles = uint32(k, v1(v), 1, 4096)?,
    get |j| Some(j.nrfiles.to_string()),
    reset |j| j.nrfiles = 1,
    form None);
