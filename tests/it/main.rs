//! Integration tests: the built binary and the library on fixture stores.

mod common;
mod fixtures;
mod fuzz;
mod fuzz_gen;
mod hostile;
mod limits;
mod read_only;
mod terminal_safety;
