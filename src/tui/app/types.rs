//! The vocabulary of the picker's state machine: modes, effects, the outbox of work for the
//! workers (their own messages) and start-up options. Plain data. The actions it takes are
//! [`crate::tui::action`]'s.

use crate::search::title::Recency;
use crate::workers::conversation_reader::Job;
use crate::workers::{changes, search};

/// How the query is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// Fuzzy over each session's name, first message, folder, branch and id.
    #[default]
    Fuzzy,
    /// Case-insensitive terms inside every user and assistant message of every session.
    Content,
}

/// A query starting with this searches inside conversations whatever the mode.
pub const CONTENT_PREFIX: char = '/';

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Sessions whose cwd is within the current folder's repository (or the folder).
    Folder,
    All,
}

/// Where the selection goes when the rows shown are recomputed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reselect {
    /// The selected session, wherever it moved (the same position when it is no longer shown).
    Keep,
    /// The top row.
    Top,
}

/// What a pick hands back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// Print the session id.
    Id,
    /// Print the command that resumes it.
    Command,
    /// Run `codex resume` in its folder.
    Exec,
}

/// What the picker ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Cancelled,
    Print(String),
    Exec(Launch),
}

/// A codex command the picker hands the terminal to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launch {
    /// The agent that resumes it.
    pub source: crate::sources::Source,
    /// `codex fork` (`claude --resume --fork-session`) instead of resuming.
    pub fork: bool,
    pub id: String,
    /// Where to run it: the session's folder, or the current one (`None`).
    pub cwd: Option<String>,
    /// The user's own arguments, after the id.
    pub args: Vec<String>,
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    Quit(Outcome),
    /// Put `text` on the clipboard and say `what` was copied.
    Copy {
        text: String,
        what: String,
    },
    Suspend,
    /// Clear the terminal and draw the whole screen again.
    Repaint,
    /// Write `text` to a new file named `name` in the current folder and say where.
    Write {
        name: String,
        text: String,
    },
}

/// Work queued for the background threads, taken by the event loop with
/// [`App::take_outbox`](super::App::take_outbox).
#[derive(Debug, Default)]
pub struct Outbox {
    /// For the search thread, in the order asked.
    pub search: Vec<search::Request>,
    /// Conversations to read, oldest first: only the last one still matters.
    pub transcripts: Vec<Job>,
    /// Changes to the store for codex to make, in the order asked.
    pub changes: Vec<changes::Request>,
    /// Read the whole store again now (Ctrl+R).
    pub reread: bool,
}

/// How the picker starts.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The current folder's repository root (or the folder); `None` disables the folder scope.
    pub scope_root: Option<String>,
    pub all: bool,
    pub hide_exec: bool,
    pub show_archived: bool,
    /// The list's order to start with (Ctrl+S switches it).
    pub order: Recency,
    pub print_command: bool,
    /// The shell syntax of a resume command given to the user (printed or copied).
    pub shell: crate::shell::Syntax,
    pub exec: bool,
    pub query: String,
    /// Start in content search.
    pub content: bool,
    /// Passed to `codex resume` and `codex fork` after the session id.
    pub resume_args: Vec<String>,
    /// Put before `codex` in a command given to the user (`CODEX_HOME=... ` when the store
    /// is not the default one).
    pub codex_env: String,
    /// Passed to `claude --resume` after the session id.
    pub claude_args: Vec<String>,
    /// Put before `claude` in a command given to the user (`CLAUDE_CONFIG_DIR=... ` when
    /// its config folder is not the default one).
    pub claude_env: String,
    /// What tokens cost (from the config file), for the cost in the pane's header.
    pub prices: crate::prices::Prices,
    /// The keys (the key table's, with the config file's `[keys]` applied).
    pub keys: crate::tui::keys::Keymap,
}

/// Why rows are not shown, counted for the status line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hidden {
    pub scope: usize,
    pub exec: usize,
    pub archived: usize,
}
