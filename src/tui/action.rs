//! What the user can ask of the picker, in one enum ([`Action`]): what a key gives (the key
//! table binds actions, [`crate::tui::keys`]) and what the app handles ([`crate::tui::app`]),
//! with the name each bindable action has in the config file's `[keys]` table ([`NAMES`]);
//! and where the keys go ([`Focus`]). Plain data, importing nothing of the picker: the keys and
//! the app both build on it.

/// Where the keys go: the list (and its query), or the conversation read beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Conversation,
}

/// Everything a user can ask for: what a key, a paste, a click or the event loop gives, and
/// what the app's update handles. A key gives one through the key table, which names the
/// actions of [`NAMES`]; the rest come from the keys of a dialog, the find line, the terminal.
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
    /// The usage screen: tokens by day, week, folder or model.
    OpenUsage,
    /// A key of the usage screen.
    Usage(UsageKey),
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

/// What a key does on the usage screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageKey {
    /// The day (week, folder, model) that many away.
    Step(i32),
    /// The session that many away in the day's sessions.
    Move(i32),
    /// Group by the next of day, week, folder, model.
    Regroup,
    /// Go to the session under the cursor in the list.
    Jump,
    Close,
}

/// Which content-search hit `n` / `N` go to, wrapping around.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitStep {
    Next,
    Previous,
}

/// The name of each action a key can be given, in the config file's `[keys]` table: kebab-case,
/// stable (a config file names it). An action with data has a name for each value a key gives
/// (`page-up` and `page-down` are the conversation paged either way).
pub const NAMES: &[(Action, &str)] = &[
    (Action::Accept, "pick"),
    (Action::ExecSelected, "resume-in-folder"),
    (Action::OpenMenu, "open-menu"),
    (Action::Archive, "archive"),
    (Action::Delete, "delete"),
    (Action::Fork, "fork"),
    (Action::Rename, "rename"),
    (Action::Escape, "back"),
    (Action::Quit, "quit"),
    (Action::MoveUp, "move-up"),
    (Action::MoveDown, "move-down"),
    (Action::PageListUp, "page-list-up"),
    (Action::PageListDown, "page-list-down"),
    (Action::First, "first"),
    (Action::Last, "last"),
    (Action::PageConversation(-1), "page-up"),
    (Action::PageConversation(1), "page-down"),
    (Action::HalfPageConversation(-1), "half-page-up"),
    (Action::HalfPageConversation(1), "half-page-down"),
    (Action::FocusConversation, "read-conversation"),
    (Action::FocusList, "back-to-list"),
    (Action::ClearQuery, "clear-query"),
    (Action::DeleteWord, "delete-word"),
    (Action::DeleteBack, "delete-char"),
    (Action::ToggleScope, "toggle-scope"),
    (Action::ToggleSort, "toggle-sort"),
    (Action::ToggleExec, "toggle-exec"),
    (Action::ToggleArchived, "toggle-archived"),
    (Action::ToggleTools, "toggle-tools"),
    (Action::ToggleContent, "toggle-content"),
    (Action::JumpHit(HitStep::Next), "next-match"),
    (Action::JumpHit(HitStep::Previous), "previous-match"),
    (Action::CopyId, "copy-id"),
    (Action::CopyCommand, "copy-command"),
    (Action::Reread, "reread"),
    (Action::Repaint, "repaint"),
    (Action::Suspend, "suspend"),
    (Action::ToggleHelp, "help"),
    (Action::OpenUsage, "usage"),
    (Action::Scroll(-1), "scroll-up"),
    (Action::Scroll(1), "scroll-down"),
    (
        Action::Jump {
            step: HitStep::Next,
            prompts: false,
        },
        "next-message",
    ),
    (
        Action::Jump {
            step: HitStep::Previous,
            prompts: false,
        },
        "previous-message",
    ),
    (
        Action::Jump {
            step: HitStep::Next,
            prompts: true,
        },
        "next-prompt",
    ),
    (
        Action::Jump {
            step: HitStep::Previous,
            prompts: true,
        },
        "previous-prompt",
    ),
    (Action::PaneEnd(false), "top"),
    (Action::PaneEnd(true), "bottom"),
    (Action::FindStart, "find"),
    (Action::Expand { all: false }, "expand"),
    (Action::Expand { all: true }, "expand-all"),
    (Action::ToggleReasoning, "toggle-reasoning"),
    (Action::CopyMessage, "copy-message"),
    (Action::Export, "export"),
];

impl Action {
    /// The action's name in the config file (see [`NAMES`]); `None` for an action no key is
    /// given through the table (a typed character, a paste, a click, the menu's own keys).
    pub fn name(&self) -> Option<&'static str> {
        NAMES.iter().find(|(a, _)| a == self).map(|(_, name)| *name)
    }

    /// The action a config file names.
    pub fn named(name: &str) -> Option<Action> {
        NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(a, _)| a.clone())
    }
}
