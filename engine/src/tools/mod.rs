//! Run-level tools, the top floor: they build scenarios, run the simulator and read its
//! reports. Nothing below imports them.

pub mod calibration;
pub mod explain;
pub mod export;
pub mod replay_check;
pub mod sensitivity;
pub mod sweep;
