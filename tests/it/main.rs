//! Integration tests: the built binary and the library on fixture stores.

mod byte_paths;
mod common;
mod config;
mod fixtures;
mod pane_screens;
mod picker_hostile;
mod picker_loop;
mod rich;
mod screens;
mod split_roles;
mod stand_in;
mod tmux;
mod tmux_actions;
mod tmux_live;
mod tmux_pane;
mod tmux_signals;

#[path = "../../examples/common/mod.rs"]
mod gen_common;
use gen_common::gen;

mod cache;
mod content;
mod fuzz;
mod fuzz_gen;
mod generator;
mod hostile;
mod hostile_entries;
mod limits;
mod list_memo;
mod markdown;
mod read_only;
mod terminal_safety;
