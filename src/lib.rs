//! codex-picker: find a past OpenAI Codex CLI (or Claude Code) session and hand back its id to
//! resume it.
//!
//! The library holds everything; `main.rs` only parses arguments and maps results to exit codes.
//! Read it like a map:
//! - [`rollout`]: what a rollout line is and the reading rules (pure): records, their
//!   classification, the row summary and the transcript built from them.
//! - [`store`]: the session store on disk (IO, read-only): locating, walking, opening, names, the
//!   rows cache.
//! - [`sources`]: the agents whose sessions are read (Codex, Claude Code) and what differs
//!   between them; Claude Code's own rules in `sources::claude` (its files, its lines into the
//!   one record model, its commands).
//! - [`search`]: what a query finds and in what order: fuzzy matching of titles (the only user
//!   of fuzzy-matcher), the content index of every conversation, and the `dir:`, `branch:`,
//!   `file:` and `date:` filters typed into a query.
//! - [`workers`]: the background threads (indexer, search, transcript, store changes) and their
//!   messages.
//! - [`codex`]: codex's own command line, which makes every change to the store (archive,
//!   unarchive, delete) and resumes and forks sessions.
//! - [`tui`]: the interactive picker: event loop, terminal, keys, state, rendering text into
//!   lines (Markdown, code), drawing.
//! - [`cmd`]: the non-interactive commands (`list`, `show`, `cache`) and their output.
//! - [`export`]: a session as a Markdown document, streamed entry by entry (pure).
//! - [`config`]: the picker's config file, read and merged with its flags; `height`: the
//!   picker's height (the whole screen, or rows below the prompt); `prices`: what tokens
//!   cost, as that file says.
//! - Small pure helpers: [`session`], [`sanitize`], `json_out`, [`textwidth`], [`timefmt`],
//!   `paths`, [`shell`], [`demo`], [`cli`]; [`memory`]: the allocator's one setting;
//!   [`platform`]: what is asked of Linux in particular, and what happens elsewhere.
//!
//! The CLI commands and the picker share `store`, `rollout` and `workers`, not each other.
//!
//! The library's API is what the binary, the tests, the examples and the benchmark use: those
//! modules are `pub`; every other module and item is `pub(crate)`, and the `unreachable_pub`
//! lint keeps an item from claiming to be API when nothing outside can reach it.
#![warn(unreachable_pub)]

pub mod cli;
pub mod cmd;
pub mod codex;
pub mod config;
pub mod demo;
pub mod export;
pub(crate) mod height;
pub(crate) mod json_out;
pub mod memory;
pub(crate) mod paths;
pub mod platform;
pub(crate) mod prices;
pub mod rollout;
pub mod sanitize;
pub mod search;
pub mod session;
pub mod shell;
pub mod sources;
pub mod store;
pub mod textwidth;
pub mod timefmt;
pub mod tui;
pub mod usage;
pub mod workers;
