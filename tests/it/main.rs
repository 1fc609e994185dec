//! Integration tests: the built binary and the library on fixture stores.

mod common;
mod fixtures;
mod screens;
mod tmux;
