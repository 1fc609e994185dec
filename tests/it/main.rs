//! Integration tests: the built binary and the library on fixture stores.

mod common;
mod fixtures;
#[path = "../../examples/common/gen.rs"]
mod gen;

mod cache;
mod content;
mod generator;
