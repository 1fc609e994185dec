//! What a rollout is: its lines, their classification, and the reading rules of
//! `spec/reading-rules.md`.
//!
//! Pure: nothing here opens a file or reads a clock; every function takes bytes or a reader.
//! [`rules`] holds the message shapes and the text rules, [`classify`] (with the byte scanner
//! [`json_scan`]) tells a line's kind without building it, [`meta_line`] / [`message_line`]
//! (with [`meta_strip`]) are the fast parses of the two rows that are read in full, [`lines`]
//! splits a stream into lines, [`summary`] makes a session row and [`transcript`] the whole
//! conversation: its [`entry`]s, assembled ([`assemble`]) from the messages, the tool rows
//! ([`tool`], [`tool_output`]) and codex's turn and tool records ([`event`]); [`usage`] is
//! what a session used and changed (tokens, models, files), [`over_time`] its tokens
//! by quarter hour and [`limits`] the rate limits its records carry.

pub(crate) mod assemble;
pub mod classify;
pub(crate) mod describe;
pub(crate) mod entry;
pub mod event;
pub(crate) mod json_scan;
mod lenient;
pub mod limits;
pub(crate) mod lines;
pub mod message_line;
pub mod meta_line;
mod meta_strip;
pub mod over_time;
pub mod reader;
pub mod record;
pub mod rules;
pub mod summary;
#[cfg(test)]
mod test_lines;
pub(crate) mod text;
pub mod tokens;
pub(crate) mod tool;
mod tool_output;
pub mod transcript;
pub mod usage;
mod visit;
