//! STUB (being written): fio job files.
