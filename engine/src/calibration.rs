//! STUB (being written): the measured figures of shared/calibration/measurements.toml.
