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
mod shell_integration;
mod shell_setup;
mod small_heights;
mod split_roles;
mod stand_in;
mod tmux;
mod tmux_actions;
mod tmux_claude;
mod tmux_inline;
mod tmux_keys;
mod tmux_live;
mod tmux_pane;
mod tmux_rename;
mod tmux_signals;
mod tmux_usage;

#[path = "../../examples/common/mod.rs"]
mod gen_common;
use gen_common::gen;

mod cache;
mod cache_delta;
mod circles;
mod claude;
mod content;
mod engine;
mod fuzz;
mod fuzz_gen;
mod generator;
mod generator_claude;
mod hostile;
mod hostile_entries;
mod limits;
mod list_lines;
mod markdown;
mod open_elsewhere;
mod read_only;
mod readme_keys;
mod tap;
mod terminal_safety;
mod theme_screens;
mod usage;
mod usage_report;
