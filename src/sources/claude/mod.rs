//! Claude Code's sessions: `<projects>/<project folder>/<session id>.jsonl`, read by the rules
//! written in the README ("How sessions are read").
//!
//! A transcript's lines become the one record model Codex rollouts give ([`lines`]): the row's
//! `type` is found first without parsing it ([`row_type`]), a user row is a human prompt or
//! something else ([`prompt`]), tool calls and results become the tool records ([`tools`]),
//! usage is counted once per assistant message ([`tokens`]); what a later pass over a grown file
//! needs is kept in a [`carry::Carry`].

pub mod carry;
pub(crate) mod lines;
mod prompt;
mod row_type;
mod tokens;
mod tools;

#[cfg(test)]
mod recorded_tests;
