//! The agents whose sessions the picker reads, side by side: Codex CLI and Claude Code.
//!
//! [`Source`] names one. Everything that differs between them is reached through it: where its
//! store is and which of its files are sessions (`store::home`), how its lines become the one
//! record model (`rollout::reader` hands a Claude Code line to [`claude`]), the row made of a
//! pass, and the commands that resume and fork a session. The engine, the rows cache, search,
//! the views, `list`, `show` and `blame` see rows and entries only, whatever their source.

pub mod claude;

use serde::{Deserialize, Serialize};

/// The agent that wrote a session.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// OpenAI Codex CLI: rollouts under `$CODEX_HOME/sessions`.
    #[default]
    Codex,
    /// Claude Code: transcripts under `$CLAUDE_CONFIG_DIR/projects`.
    Claude,
}

impl Source {
    /// Every source, in the order they are listed.
    pub const ALL: [Source; 2] = [Source::Codex, Source::Claude];

    /// The name used in `source:` filters, `--source` and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Codex => "codex",
            Source::Claude => "claude",
        }
    }

    /// The source a name (or its start, as typed into a filter) names, case-insensitively.
    pub fn parse(name: &str) -> Option<Source> {
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() {
            return None;
        }
        Source::ALL
            .into_iter()
            .find(|s| s.as_str().starts_with(&name) || (*s == Source::Claude && name == "cc"))
    }

    /// The agent's name as people say it.
    pub fn name(self) -> &'static str {
        match self {
            Source::Codex => "Codex",
            Source::Claude => "Claude Code",
        }
    }

    /// The mark on each of its rows in the list and `list`'s table: none for Codex, the
    /// picker's own, `cc` for Claude Code.
    pub fn mark(self) -> Option<&'static str> {
        match self {
            Source::Codex => None,
            Source::Claude => Some("cc"),
        }
    }

    /// The program that resumes its sessions.
    pub fn program(self) -> &'static str {
        match self {
            Source::Codex => "codex",
            Source::Claude => "claude",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_their_starts_name_a_source() {
        assert_eq!(Source::parse("claude"), Some(Source::Claude));
        assert_eq!(Source::parse("Cl"), Some(Source::Claude));
        assert_eq!(Source::parse("cc"), Some(Source::Claude));
        assert_eq!(Source::parse("codex"), Some(Source::Codex));
        assert_eq!(Source::parse("co"), Some(Source::Codex));
        assert_eq!(Source::parse("c"), Some(Source::Codex));
        assert_eq!(Source::parse("gemini"), None);
        assert_eq!(Source::parse(""), None);
    }
}
