//! What a pass over a Claude Code transcript must remember for the next pass over the same file
//! (the rows cache keeps it in the scan state): the running token total and the last assistant
//! message's counted usage (one message's rows may straddle two passes), the edits still
//! waiting for their result, whether the file is a fork and where its own part stands, and
//! whether an `ai-title` was seen (a `summary` row no longer titles the session).

use serde::{Deserialize, Serialize};

use crate::rollout::usage::Tokens;

/// Where a transcript stands with respect to forking.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// No assistant row has said yet whether the rows so far are copied from a parent.
    #[default]
    Undecided,
    /// The rows are a copy of the session `parent`'s (`--fork-session`).
    Copying { parent: String },
    /// The session's own rows (a fork's own part, or any session that is not a fork).
    Own,
}

/// A tool call whose result is still to come, as far as the row pass needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenCall {
    pub id: String,
    /// The tool's name (`Bash`, `Edit`, ...).
    pub name: String,
    /// The file an edit changes.
    #[serde(default)]
    pub path: Option<String>,
}

/// See the module doc.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carry {
    /// The running total of the tokens counted so far.
    #[serde(default)]
    pub tokens: Tokens,
    /// The `message.id` whose usage was counted last, and what was counted for it.
    #[serde(default)]
    pub last_message: Option<String>,
    #[serde(default)]
    pub last_usage: Tokens,
    #[serde(default)]
    pub open: Vec<OpenCall>,
    #[serde(default)]
    pub part: Part,
    #[serde(default)]
    pub ai_titled: bool,
}

impl Carry {
    /// The rows read so far are a fork's copy of its parent's.
    pub fn copying(&self) -> bool {
        matches!(self.part, Part::Copying { .. })
    }
}
