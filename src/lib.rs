//! codex-picker: find a past OpenAI Codex CLI session and hand back its id to resume it.
//!
//! The library holds everything; `main.rs` only parses arguments and maps results to exit codes.
//! Pure core: [`format`], [`session`], [`sanitize`], [`textwidth`], [`timefmt`].
//! Input/output at the edges: [`store`] reads the store, [`output`] prints the non-interactive
//! views, [`commands`] ties a command line to them.

pub mod app;
pub mod cli;
pub mod clipboard;
pub mod commands;
pub mod content;
pub mod demo;
pub mod format;
pub mod index;
pub mod keys;
pub mod launch;
pub mod output;
pub mod paths;
pub mod picker;
pub mod sanitize;
pub mod search;
pub mod search_worker;
pub mod session;
pub mod store;
pub mod textwidth;
pub mod timefmt;
pub mod transcript_worker;
pub mod tui;
pub mod ui;
