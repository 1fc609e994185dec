//! What one entry of a conversation says: a message (with the images sent with a prompt), a
//! tool call with how it ended ([`ToolCall`]), or a marker of what happened to the
//! conversation itself (a compaction, an interrupted turn, the point where a fork's own part
//! begins).
//!
//! Pure data, built once by [`super::assemble`] from the records of a rollout; every view (the
//! pane, `show`, the Markdown export) draws these and nothing else. Texts are as the rollout
//! wrote them (cut to a cap), never sanitised here.

use super::record::{Role, Shape, ToolCall};

/// One entry of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Message {
        role: Role,
        text: String,
        shape: Shape,
        phase: Option<String>,
        /// Bytes cut from the end of a giant message (0 when whole).
        elided: u64,
        /// The images sent with a prompt, by path or address as written (an image sent
        /// inline is an empty string).
        images: Vec<String>,
    },
    /// A tool call (with its output and how it ended), a tool output no call claimed, or a
    /// reasoning summary.
    Tool(ToolCall),
    /// Something that happened to the conversation itself.
    Marker(Marker),
}

/// A message's parts, borrowed, as every view draws them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spoken<'a> {
    pub role: Role,
    pub text: &'a str,
    pub phase: Option<&'a str>,
    /// Bytes cut from its end (0 when whole).
    pub elided: u64,
    /// The images sent with a prompt, as written.
    pub images: &'a [String],
}

impl Entry {
    /// The message this entry is, if it is one.
    pub fn spoken(&self) -> Option<Spoken<'_>> {
        match self {
            Entry::Message {
                role,
                text,
                phase,
                elided,
                images,
                ..
            } => Some(Spoken {
                role: *role,
                text,
                phase: phase.as_deref(),
                elided: *elided,
                images,
            }),
            Entry::Tool(_) | Entry::Marker(_) => None,
        }
    }

    pub fn is_message(&self) -> bool {
        matches!(self, Entry::Message { .. })
    }

    /// A user message.
    pub fn is_prompt(&self) -> bool {
        matches!(
            self,
            Entry::Message {
                role: Role::User,
                ..
            }
        )
    }
}

/// Something that happened to the conversation itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marker {
    /// Codex compacted the context: what came before was replaced by a summary it wrote.
    Compaction {
        trigger: Trigger,
        /// The summary codex wrote (not a message of the conversation).
        summary: Option<String>,
    },
    /// A turn was cut short (the user pressed Esc, or codex stopped it).
    Interrupted {
        /// Codex's reason, as written (`interrupted`, `replaced`, ...).
        reason: Option<String>,
        /// How long the turn had run.
        duration_ms: Option<u64>,
    },
    /// A fork's own part begins here; what comes before is its parent's history.
    Forked {
        parent_id: String,
        /// The parent's first prompt on one line, when it has one.
        parent_title: Option<String>,
    },
}

/// What started a compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The user asked for it (`/compact`): a turn that did nothing else.
    Manual,
    /// Codex did it on its own, in a turn that also had a prompt (the context was full).
    Automatic,
    /// The file does not say (no turn records around it).
    Unknown,
}
