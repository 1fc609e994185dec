//! The key table: every command the keys give, with its name in the config file ([`NAMES`])
//! and its default keys, in the rows the help overlay and the README's key tables show (one row
//! a line, with its short description), and the footer's hints. The [`Keymap`](super::Keymap)
//! is made from [`ROWS`] and the config file's `[keys]`; dispatch, the help, the footer and the
//! action menu's key names read it; a test holds the README's two key tables to the defaults.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::key::Key;
use crate::tui::app::{Action, HitStep};

/// What a key does: the picker's commands, without their data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    Pick,
    ResumeInFolder,
    OpenMenu,
    Archive,
    Delete,
    Fork,
    Rename,
    Back,
    Quit,
    MoveUp,
    MoveDown,
    PageListUp,
    PageListDown,
    First,
    Last,
    PageUp,
    PageDown,
    HalfPageUp,
    HalfPageDown,
    ReadConversation,
    BackToList,
    ClearQuery,
    DeleteWord,
    DeleteChar,
    ToggleScope,
    ToggleSort,
    ToggleExec,
    ToggleArchived,
    ToggleTools,
    ToggleContent,
    NextMatch,
    PreviousMatch,
    CopyId,
    CopyCommand,
    Reread,
    Repaint,
    Suspend,
    Help,
    ScrollUp,
    ScrollDown,
    NextMessage,
    PreviousMessage,
    NextPrompt,
    PreviousPrompt,
    Top,
    Bottom,
    Find,
    Expand,
    ExpandAll,
    ToggleReasoning,
    CopyMessage,
    Export,
}

impl Command {
    /// The app's action for this command.
    pub fn action(self) -> Action {
        use Command as C;
        match self {
            C::Pick => Action::Accept,
            C::ResumeInFolder => Action::ExecSelected,
            C::OpenMenu => Action::OpenMenu,
            C::Archive => Action::Archive,
            C::Delete => Action::Delete,
            C::Fork => Action::Fork,
            C::Rename => Action::Rename,
            C::Back => Action::Escape,
            C::Quit => Action::Quit,
            C::MoveUp => Action::MoveUp,
            C::MoveDown => Action::MoveDown,
            C::PageListUp => Action::PageListUp,
            C::PageListDown => Action::PageListDown,
            C::First => Action::First,
            C::Last => Action::Last,
            C::PageUp => Action::PageConversation(-1),
            C::PageDown => Action::PageConversation(1),
            C::HalfPageUp => Action::HalfPageConversation(-1),
            C::HalfPageDown => Action::HalfPageConversation(1),
            C::ReadConversation => Action::FocusConversation,
            C::BackToList => Action::FocusList,
            C::ClearQuery => Action::ClearQuery,
            C::DeleteWord => Action::DeleteWord,
            C::DeleteChar => Action::DeleteBack,
            C::ToggleScope => Action::ToggleScope,
            C::ToggleSort => Action::ToggleSort,
            C::ToggleExec => Action::ToggleExec,
            C::ToggleArchived => Action::ToggleArchived,
            C::ToggleTools => Action::ToggleTools,
            C::ToggleContent => Action::ToggleContent,
            C::NextMatch => Action::JumpHit(HitStep::Next),
            C::PreviousMatch => Action::JumpHit(HitStep::Previous),
            C::CopyId => Action::CopyId,
            C::CopyCommand => Action::CopyCommand,
            C::Reread => Action::Reread,
            C::Repaint => Action::Repaint,
            C::Suspend => Action::Suspend,
            C::Help => Action::ToggleHelp,
            C::ScrollUp => Action::Scroll(-1),
            C::ScrollDown => Action::Scroll(1),
            C::NextMessage => jump(HitStep::Next, false),
            C::PreviousMessage => jump(HitStep::Previous, false),
            C::NextPrompt => jump(HitStep::Next, true),
            C::PreviousPrompt => jump(HitStep::Previous, true),
            C::Top => Action::PaneEnd(false),
            C::Bottom => Action::PaneEnd(true),
            C::Find => Action::FindStart,
            C::Expand => Action::Expand { all: false },
            C::ExpandAll => Action::Expand { all: true },
            C::ToggleReasoning => Action::ToggleReasoning,
            C::CopyMessage => Action::CopyMessage,
            C::Export => Action::Export,
        }
    }
}

/// Each command's name in the config file's `[keys]` table: kebab-case, stable (a config file
/// names it).
pub const NAMES: &[(Command, &str)] = &[
    (Command::Pick, "pick"),
    (Command::ResumeInFolder, "resume-in-folder"),
    (Command::OpenMenu, "open-menu"),
    (Command::Archive, "archive"),
    (Command::Delete, "delete"),
    (Command::Fork, "fork"),
    (Command::Rename, "rename"),
    (Command::Back, "back"),
    (Command::Quit, "quit"),
    (Command::MoveUp, "move-up"),
    (Command::MoveDown, "move-down"),
    (Command::PageListUp, "page-list-up"),
    (Command::PageListDown, "page-list-down"),
    (Command::First, "first"),
    (Command::Last, "last"),
    (Command::PageUp, "page-up"),
    (Command::PageDown, "page-down"),
    (Command::HalfPageUp, "half-page-up"),
    (Command::HalfPageDown, "half-page-down"),
    (Command::ReadConversation, "read-conversation"),
    (Command::BackToList, "back-to-list"),
    (Command::ClearQuery, "clear-query"),
    (Command::DeleteWord, "delete-word"),
    (Command::DeleteChar, "delete-char"),
    (Command::ToggleScope, "toggle-scope"),
    (Command::ToggleSort, "toggle-sort"),
    (Command::ToggleExec, "toggle-exec"),
    (Command::ToggleArchived, "toggle-archived"),
    (Command::ToggleTools, "toggle-tools"),
    (Command::ToggleContent, "toggle-content"),
    (Command::NextMatch, "next-match"),
    (Command::PreviousMatch, "previous-match"),
    (Command::CopyId, "copy-id"),
    (Command::CopyCommand, "copy-command"),
    (Command::Reread, "reread"),
    (Command::Repaint, "repaint"),
    (Command::Suspend, "suspend"),
    (Command::Help, "help"),
    (Command::ScrollUp, "scroll-up"),
    (Command::ScrollDown, "scroll-down"),
    (Command::NextMessage, "next-message"),
    (Command::PreviousMessage, "previous-message"),
    (Command::NextPrompt, "next-prompt"),
    (Command::PreviousPrompt, "previous-prompt"),
    (Command::Top, "top"),
    (Command::Bottom, "bottom"),
    (Command::Find, "find"),
    (Command::Expand, "expand"),
    (Command::ExpandAll, "expand-all"),
    (Command::ToggleReasoning, "toggle-reasoning"),
    (Command::CopyMessage, "copy-message"),
    (Command::Export, "export"),
];

impl Command {
    /// The command's name in the config file (see [`NAMES`]).
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("", |(_, name)| name)
    }

    /// The command a config file names.
    pub fn named(name: &str) -> Option<Command> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(c, _)| *c)
    }
}

fn jump(step: HitStep, prompts: bool) -> Action {
    Action::Jump { step, prompts }
}

/// Where a row's keys work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Everywhere (in the conversation too, unless a key of its own there comes first).
    List,
    /// In the conversation (→): keys of its own, looked at first.
    Conversation,
}

/// A command and its keys.
#[derive(Debug, Clone, Copy)]
pub struct Bind {
    pub command: Command,
    /// Its keys, as the help names them.
    pub keys: &'static [Key],
    /// Other ways terminals send the same keys (Ctrl+H for Ctrl+Backspace, Shift+Tab's own
    /// code): they work, and are not named.
    pub also: &'static [Key],
    /// Its hint in the footer, if it has one. Hints of neighbouring commands with the same
    /// text are one hint (`↑ ↓ move`).
    pub hint: Option<Hint>,
}

/// A command's hint in the footer, and which footer shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// The footer under the list.
    List(&'static str),
    /// The footer while reading the conversation.
    Conversation(&'static str),
    Both(&'static str),
}

impl Hint {
    /// The hint's text, if it is shown in the footer of `section`.
    pub fn text(self, section: Section) -> Option<&'static str> {
        match (self, section) {
            (Hint::Both(t), _)
            | (Hint::List(t), Section::List)
            | (Hint::Conversation(t), Section::Conversation) => Some(t),
            _ => None,
        }
    }
}

/// One line of the help, and one row of the README's table of its section.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub section: Section,
    /// The commands, each with its keys, named in this order.
    pub binds: &'static [Bind],
    /// What is shown instead of key names for a row that is not keys (`typing`, `mouse`, the
    /// query's filters).
    pub text: Option<&'static str>,
    /// The help's short description.
    pub help: &'static str,
    /// The row explains the query's syntax rather than keys: it is in the help under the list
    /// only, not in the README's key table (the README has a section on the syntax).
    pub syntax: bool,
}

const fn bind(command: Command, keys: &'static [Key]) -> Bind {
    Bind {
        command,
        keys,
        also: &[],
        hint: None,
    }
}

const fn hinted(command: Command, keys: &'static [Key], hint: Hint) -> Bind {
    Bind {
        hint: Some(hint),
        ..bind(command, keys)
    }
}

const fn row(binds: &'static [Bind], help: &'static str) -> Row {
    Row {
        section: Section::List,
        binds,
        text: None,
        help,
        syntax: false,
    }
}

const fn reading(binds: &'static [Bind], help: &'static str) -> Row {
    Row {
        section: Section::Conversation,
        ..row(binds, help)
    }
}

const fn text(text: &'static str, help: &'static str, syntax: bool) -> Row {
    Row {
        text: Some(text),
        syntax,
        ..row(&[], help)
    }
}

const fn plain(code: KeyCode) -> Key {
    Key::plain(code)
}

use Command as C;
use KeyCode as K;

/// Every key, in the order the help and the README show them.
pub const ROWS: &[Row] = &[
    text(
        "typing",
        "search (fzf syntax: 'exact ^prefix suffix$ !not, space AND, | OR)",
        false,
    ),
    text(
        "  ranked",
        "titles holding the words, then conversations holding them, then the rest",
        true,
    ),
    text(
        "dir: branch:",
        "filter by part of the folder (also cwd:), of the git branch",
        true,
    ),
    text(
        "date:",
        "filter by update: today yesterday <2w >3d >2026-10-01 2026-11",
        true,
    ),
    row(
        &[hinted(C::Pick, &[plain(K::Enter)], Hint::List("pick"))],
        "print the session id and quit (--print-command: the cd+resume command)",
    ),
    row(
        &[bind(C::ResumeInFolder, &[Key::ctrl('o')])],
        "run `codex resume <id> [-- args]` in the session's folder",
    ),
    row(
        &[hinted(
            C::OpenMenu,
            &[Key::ctrl('x')],
            Hint::List("actions"),
        )],
        "actions: resume here, fork, copy, export, archive, rename, delete",
    ),
    row(
        &[
            bind(C::Archive, &[Key::alt('a')]),
            bind(C::Delete, &[Key::alt('d')]),
            bind(C::Fork, &[Key::alt('f')]),
            bind(C::Rename, &[plain(K::F(2))]),
        ],
        "archive (unarchive), delete (asks first), fork, rename: by codex",
    ),
    row(
        &[
            hinted(C::Back, &[plain(K::Esc)], Hint::List("quit")),
            bind(C::Quit, &[Key::ctrl('c')]),
        ],
        "leave the conversation, clear the query, else quit; quit",
    ),
    row(
        &[
            hinted(
                C::MoveUp,
                &[plain(K::Up), Key::ctrl('p'), Key::ctrl('k')],
                Hint::List("move"),
            ),
            hinted(
                C::MoveDown,
                &[plain(K::Down), Key::ctrl('n'), Key::ctrl('j')],
                Hint::List("move"),
            ),
        ],
        "move the selection",
    ),
    row(
        &[
            bind(C::PageListUp, &[Key::shift(K::Up)]),
            bind(C::PageListDown, &[Key::shift(K::Down)]),
            bind(C::First, &[plain(K::Home)]),
            bind(C::Last, &[plain(K::End)]),
        ],
        "page the list, first row, last row",
    ),
    row(
        &[
            hinted(C::PageUp, &[plain(K::PageUp)], Hint::List("read")),
            hinted(C::PageDown, &[plain(K::PageDown)], Hint::List("read")),
            bind(C::HalfPageDown, &[Key::ctrl('d')]),
        ],
        "scroll the conversation a page, half a page down",
    ),
    row(
        &[
            bind(C::ReadConversation, &[plain(K::Right)]),
            hinted(C::BackToList, &[plain(K::Left)], Hint::Conversation("list")),
        ],
        "read the conversation (↑ ↓ Ctrl+U scroll it), back to the list",
    ),
    row(&[bind(C::ClearQuery, &[Key::ctrl('u')])], "clear the query"),
    row(
        &[
            Bind {
                // Terminals send Ctrl+Backspace as Ctrl+H (or as itself); Alt+Backspace too.
                also: &[
                    Key::ctrl('h'),
                    Key::plain(K::Backspace).with(KeyModifiers::CONTROL),
                    Key::plain(K::Backspace).with(KeyModifiers::ALT),
                ],
                ..bind(C::DeleteWord, &[Key::ctrl('w')])
            },
            bind(C::DeleteChar, &[plain(K::Backspace)]),
        ],
        "delete a word, a character",
    ),
    row(
        &[Bind {
            also: &[plain(K::BackTab)],
            ..hinted(C::ToggleScope, &[plain(K::Tab)], Hint::List("scope"))
        }],
        "this folder's repository ↔ every folder",
    ),
    row(
        &[
            bind(C::ToggleSort, &[Key::ctrl('s')]),
            bind(C::ToggleExec, &[Key::ctrl('e')]),
            bind(C::ToggleArchived, &[Key::ctrl('a')]),
        ],
        "sort by update → creation → tokens; show ↔ hide exec, archived",
    ),
    row(
        &[hinted(
            C::ToggleTools,
            &[Key::ctrl('t')],
            Hint::List("tools"),
        )],
        "show ↔ hide tool calls",
    ),
    row(
        &[bind(C::ToggleContent, &[Key::ctrl('f')])],
        "search the conversations only ↔ titles and conversations (or start with /)",
    ),
    row(
        &[
            bind(C::NextMatch, &[plain(K::F(3))]),
            bind(C::PreviousMatch, &[Key::shift(K::F(3))]),
        ],
        "next / previous match of a find, else of a content search",
    ),
    row(
        &[
            bind(C::CopyId, &[Key::ctrl('y')]),
            bind(C::CopyCommand, &[Key::alt('y')]),
        ],
        "copy the session id, `cd <folder> && codex resume <id>`",
    ),
    row(
        &[
            bind(C::Reread, &[Key::ctrl('r')]),
            bind(C::Repaint, &[Key::ctrl('l')]),
            bind(C::Suspend, &[Key::ctrl('z')]),
        ],
        "read the store again; repaint the screen; suspend",
    ),
    row(
        &[hinted(
            C::Help,
            &[plain(K::F(1)), Key::char('?').on_empty_query()],
            Hint::Both("help"),
        )],
        "this help; any key closes it",
    ),
    text(
        "mouse",
        "click a row, wheel over the list or the conversation",
        false,
    ),
    reading(
        &[
            bind(C::ScrollUp, &[plain(K::Up)]),
            bind(C::ScrollDown, &[plain(K::Down)]),
            bind(C::HalfPageUp, &[Key::ctrl('u')]),
        ],
        "scroll a line up, down; half a page up",
    ),
    reading(
        &[
            hinted(
                C::NextMessage,
                &[Key::char(']')],
                Hint::Conversation("message"),
            ),
            hinted(
                C::PreviousMessage,
                &[Key::char('[')],
                Hint::Conversation("message"),
            ),
            hinted(
                C::NextPrompt,
                &[Key::char('}')],
                Hint::Conversation("prompt"),
            ),
            hinted(
                C::PreviousPrompt,
                &[Key::char('{')],
                Hint::Conversation("prompt"),
            ),
        ],
        "next / previous message, next / previous prompt",
    ),
    reading(
        &[
            bind(C::Top, &[Key::char('g'), plain(K::Home)]),
            bind(C::Bottom, &[Key::char('G'), plain(K::End)]),
        ],
        "first, last line of the conversation",
    ),
    reading(
        &[hinted(
            C::Find,
            &[Key::char('/')],
            Hint::Conversation("find"),
        )],
        "find in the conversation (Enter keeps the matches, Esc drops them)",
    ),
    reading(
        &[
            hinted(C::NextMatch, &[Key::char('n')], Hint::Conversation("match")),
            hinted(
                C::PreviousMatch,
                &[Key::char('N')],
                Hint::Conversation("match"),
            ),
        ],
        "next / previous match of a find, else of a content search",
    ),
    reading(
        &[
            hinted(C::Expand, &[Key::char('e')], Hint::Conversation("expand")),
            hinted(
                C::ExpandAll,
                &[Key::char('E')],
                Hint::Conversation("expand"),
            ),
            hinted(
                C::ToggleReasoning,
                &[Key::char('r')],
                Hint::Conversation("reasoning"),
            ),
        ],
        "expand ↔ collapse the call on screen, every call; reasoning",
    ),
    reading(
        &[
            hinted(
                C::CopyMessage,
                &[Key::char('c')],
                Hint::Conversation("copy"),
            ),
            hinted(C::Export, &[Key::char('x')], Hint::Conversation("export")),
        ],
        "copy the message at the top; export it all as Markdown",
    ),
];
