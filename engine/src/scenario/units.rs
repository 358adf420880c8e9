//! STUB (being written): fio size and time units.
