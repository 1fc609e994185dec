//! Claude Code's sessions: `<projects>/<project folder>/<session id>.jsonl`, read by the rules
//! written in the README ("How sessions are read").
//!
//! A transcript's lines become the one record model Codex rollouts give ([`lines`]): the row's
//! `type` is found first without parsing it ([`row_type`]), a user row is a human prompt or
//! something else ([`prompt`]), tool calls and results become the tool records ([`tools`]),
//! usage is counted once per assistant message ([`tokens`]); what a later pass over a grown file
//! needs is kept in a [`carry::Carry`].

pub mod carry;
pub mod chain;
pub mod command;
pub(crate) mod lines;
pub mod names;
pub mod open;
mod prompt;
mod row_type;
mod tokens;
mod tools;
pub mod walk;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Claude Code's config folder: `--claude-home` (or the config file's `claude_home`), else
/// `$CLAUDE_CONFIG_DIR` when set and non-empty, else `~/.claude`.
pub fn locate(
    flag: Option<&Path>,
    config_dir_env: Option<&OsStr>,
    home_env: Option<&OsStr>,
) -> Option<PathBuf> {
    if let Some(dir) = flag {
        return Some(dir.to_path_buf());
    }
    if let Some(env) = config_dir_env.filter(|s| !s.is_empty()) {
        return Some(PathBuf::from(env));
    }
    home_env
        .filter(|s| !s.is_empty())
        .map(|h| Path::new(h).join(".claude"))
}

/// The folder of a config folder's sessions.
pub fn projects_dir(config: &Path) -> PathBuf {
    config.join("projects")
}

/// The name `/rename` gave the session of `transcript` (`<session id>/custom-title.json` beside
/// it), when it has one. A file that cannot be read or says nothing is no name.
pub fn custom_title(transcript: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Title {
        #[serde(rename = "customTitle")]
        custom_title: Option<String>,
    }
    let file = transcript.with_extension("").join("custom-title.json");
    let bytes = std::fs::read(file).ok()?;
    let title: Title = serde_json::from_slice(&bytes).ok()?;
    title.custom_title.filter(|t| !t.trim().is_empty())
}

#[cfg(test)]
mod recorded_tests;
