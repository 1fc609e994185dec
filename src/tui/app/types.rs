//! The vocabulary of the picker's state machine: modes, actions, effects, the outbox of work for
//! the workers (their own messages) and start-up options. Plain data.

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Conversation,
}

/// Everything a user can ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Insert(char),
    /// Characters typed in one burst (a paste the terminal did not bracket), as typed.
    Type(String),
    Paste(String),
    DeleteBack,
    DeleteWord,
    ClearQuery,
    MoveUp,
    MoveDown,
    PageListUp,
    PageListDown,
    First,
    Last,
    /// Scroll the conversation by lines (negative: up).
    Scroll(i32),
    /// Scroll the conversation a page; the sign gives the direction.
    PageConversation(i32),
    /// Scroll the conversation half a page; the sign gives the direction.
    HalfPageConversation(i32),
    FocusConversation,
    FocusList,
    Accept,
    ExecSelected,
    Escape,
    Quit,
    ToggleScope,
    ToggleSort,
    ToggleExec,
    ToggleArchived,
    ToggleTools,
    /// Switch between fuzzy search and search inside conversations.
    ToggleContent,
    /// Scroll the conversation to another match (of the find, else of the content search).
    JumpHit(HitStep),
    /// Scroll the conversation to the next or previous message (`prompts`: user prompt).
    Jump {
        step: HitStep,
        prompts: bool,
    },
    /// The conversation's first (`false`) or last line.
    PaneEnd(bool),
    /// Expand or collapse the tool call on screen, or every one.
    Expand {
        all: bool,
    },
    ToggleReasoning,
    /// Start typing a find query in the conversation.
    FindStart,
    /// A character for the find query (`None`: delete the last one).
    FindKey(Option<char>),
    /// Stop typing the find query: keep it (Enter) or drop it (Esc).
    FindEnd(bool),
    /// Copy the message at the top of the conversation.
    CopyMessage,
    /// Write the conversation to a Markdown file.
    Export,
    ToggleHelp,
    CopyId,
    CopyCommand,
    /// Ctrl+X: the menu of everything that can be done with the selected session.
    OpenMenu,
    /// Move the menu's cursor (negative: up).
    MenuMove(i32),
    /// Take the menu's item under the cursor (`None`) or the one of this letter.
    MenuPick(Option<char>),
    /// Close the menu or the question asked, doing nothing.
    CloseDialog,
    /// The answer to a question (delete; act on a session open elsewhere): `y` (true) or
    /// anything else.
    Confirm(bool),
    /// Archive the selected session (unarchive it when it is archived).
    Archive,
    /// Ask whether to delete the selected session.
    Delete,
    /// Type a new name for the selected session (codex's app-server sets it).
    Rename,
    /// Run `codex fork` on the selected session in its folder.
    Fork,
    /// Run `codex resume` on the selected session in the current folder.
    ResumeHere,
    Suspend,
    /// Ctrl+L: clear the screen and draw it all again.
    Repaint,
    /// Ctrl+R: read the whole store again now.
    Reread,
    /// The picker's area on the terminal (the whole screen, or its rows below the prompt).
    Resize(ratatui::layout::Rect),
    Click(u16, u16),
    Wheel {
        col: u16,
        row: u16,
        down: bool,
    },
}

/// Which content-search hit `n` / `N` go to, wrapping around.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitStep {
    Next,
    Previous,
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
    /// `codex fork` instead of `codex resume`.
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
