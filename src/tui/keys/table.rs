//! The key table: the default keys of every action a key can be given, in the rows the help
//! overlay and the README's key tables show (one row a line, with its short description), and
//! the footer's hints. The [`Keymap`](super::Keymap) is made from [`defaults`] and the config
//! file's `[keys]`; dispatch, the help, the footer and the action menu's key names read it; a
//! test holds the README's two key tables to the defaults. An action's name in the config file
//! is [`Action::name`].

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::key::Key;
use crate::tui::action::{Action, HitStep};

/// Where a row's keys work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Section {
    /// Everywhere (in the conversation too, unless a key of its own there comes first).
    List,
    /// In the conversation (→): keys of its own, looked at first.
    Conversation,
}

/// An action's hint in the footer, and which footer shows it.
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

/// An action and its keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBind {
    pub action: Action,
    /// Its keys, as the help names them (the first one in the footer and the menu).
    pub keys: Vec<Key>,
    /// Other ways terminals send the same keys (Ctrl+H for Ctrl+Backspace, Shift+Tab's own
    /// code): they work, and are not named.
    pub also: Vec<Key>,
    /// Its hint in the footer, if it has one. Hints of neighbouring actions with the same
    /// text are one hint (`↑ ↓ move`).
    pub hint: Option<Hint>,
}

/// One line of the help, and one row of the README's table of its section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    pub section: Section,
    /// The actions, each with its keys, named in this order.
    pub binds: Vec<KeyBind>,
    /// What is shown instead of key names for a row that is not keys (`typing`, `mouse`, the
    /// query's filters).
    pub text: Option<&'static str>,
    /// The help's short description.
    pub help: &'static str,
    /// The row explains the query's syntax rather than keys: it is in the help under the list
    /// only, not in the README's key table (the README has a section on the syntax).
    pub syntax: bool,
}

impl KeyRow {
    /// The row's keys as the help and the README name them: an action's keys joined by `, `,
    /// actions by ` / `; `(none)` for an action left without keys.
    pub fn label(&self) -> String {
        if let Some(text) = self.text {
            return text.to_owned();
        }
        self.binds
            .iter()
            .map(|b| match b.keys.as_slice() {
                [] => "(none)".to_owned(),
                keys => keys.iter().map(Key::label).collect::<Vec<_>>().join(", "),
            })
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

fn bind(action: Action, keys: &[Key]) -> KeyBind {
    spelled(action, keys, &[], None)
}

fn hinted(action: Action, keys: &[Key], hint: Hint) -> KeyBind {
    spelled(action, keys, &[], Some(hint))
}

/// A bind whose keys terminals also send as `also`.
fn spelled(action: Action, keys: &[Key], also: &[Key], hint: Option<Hint>) -> KeyBind {
    KeyBind {
        action,
        keys: keys.to_vec(),
        also: also.to_vec(),
        hint,
    }
}

fn jump(step: HitStep, prompts: bool) -> Action {
    Action::Jump { step, prompts }
}

fn row(binds: Vec<KeyBind>, help: &'static str) -> KeyRow {
    KeyRow {
        section: Section::List,
        binds,
        text: None,
        help,
        syntax: false,
    }
}

fn reading(binds: Vec<KeyBind>, help: &'static str) -> KeyRow {
    KeyRow {
        section: Section::Conversation,
        ..row(binds, help)
    }
}

fn text(text: &'static str, help: &'static str, syntax: bool) -> KeyRow {
    KeyRow {
        text: Some(text),
        syntax,
        ..row(Vec::new(), help)
    }
}

const fn plain(code: KeyCode) -> Key {
    Key::plain(code)
}

use Action as A;
use KeyCode as K;

/// Every key, in the order the help and the README show them.
pub(super) fn defaults() -> Vec<KeyRow> {
    vec![
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
            vec![hinted(A::Accept, &[plain(K::Enter)], Hint::List("pick"))],
            "print the session id and quit (--print-command: the cd+resume command)",
        ),
        row(
            vec![bind(A::ExecSelected, &[Key::ctrl('o')])],
            "run `codex resume <id> [-- args]` in the session's folder",
        ),
        row(
            vec![hinted(
                A::OpenMenu,
                &[Key::ctrl('x')],
                Hint::List("actions"),
            )],
            "actions: resume here, fork, copy, export, archive, rename, delete",
        ),
        row(
            vec![
                bind(A::Archive, &[Key::alt('a')]),
                bind(A::Delete, &[Key::alt('d')]),
                bind(A::Fork, &[Key::alt('f')]),
                bind(A::Rename, &[plain(K::F(2))]),
            ],
            "archive (unarchive), delete (asks first), fork, rename: by codex",
        ),
        row(
            vec![
                hinted(A::Escape, &[plain(K::Esc)], Hint::List("quit")),
                bind(A::Quit, &[Key::ctrl('c')]),
            ],
            "leave the conversation, clear the query, else quit; quit",
        ),
        row(
            vec![
                hinted(
                    A::MoveUp,
                    &[plain(K::Up), Key::ctrl('p'), Key::ctrl('k')],
                    Hint::List("move"),
                ),
                hinted(
                    A::MoveDown,
                    &[plain(K::Down), Key::ctrl('n'), Key::ctrl('j')],
                    Hint::List("move"),
                ),
            ],
            "move the selection",
        ),
        row(
            vec![
                bind(A::PageListUp, &[Key::shift(K::Up)]),
                bind(A::PageListDown, &[Key::shift(K::Down)]),
                bind(A::First, &[plain(K::Home)]),
                bind(A::Last, &[plain(K::End)]),
            ],
            "page the list, first row, last row",
        ),
        row(
            vec![
                hinted(
                    A::PageConversation(-1),
                    &[plain(K::PageUp)],
                    Hint::List("read"),
                ),
                hinted(
                    A::PageConversation(1),
                    &[plain(K::PageDown)],
                    Hint::List("read"),
                ),
                bind(A::HalfPageConversation(1), &[Key::ctrl('d')]),
            ],
            "scroll the conversation a page, half a page down",
        ),
        row(
            vec![
                bind(A::FocusConversation, &[plain(K::Right)]),
                hinted(A::FocusList, &[plain(K::Left)], Hint::Conversation("list")),
            ],
            "read the conversation (↑ ↓ Ctrl+U scroll it), back to the list",
        ),
        row(
            vec![bind(A::ClearQuery, &[Key::ctrl('u')])],
            "clear the query",
        ),
        row(
            vec![
                // Terminals send Ctrl+Backspace as Ctrl+H (or as itself); Alt+Backspace too.
                spelled(
                    A::DeleteWord,
                    &[Key::ctrl('w')],
                    &[
                        Key::ctrl('h'),
                        Key::plain(K::Backspace).with(KeyModifiers::CONTROL),
                        Key::plain(K::Backspace).with(KeyModifiers::ALT),
                    ],
                    None,
                ),
                bind(A::DeleteBack, &[plain(K::Backspace)]),
            ],
            "delete a word, a character",
        ),
        row(
            vec![spelled(
                A::ToggleScope,
                &[plain(K::Tab)],
                &[plain(K::BackTab)],
                Some(Hint::List("scope")),
            )],
            "this folder's repository ↔ every folder",
        ),
        row(
            vec![
                bind(A::ToggleSort, &[Key::ctrl('s')]),
                bind(A::ToggleExec, &[Key::ctrl('e')]),
                bind(A::ToggleArchived, &[Key::ctrl('a')]),
            ],
            "sort by update → creation → tokens; show ↔ hide exec, archived",
        ),
        row(
            vec![hinted(
                A::ToggleTools,
                &[Key::ctrl('t')],
                Hint::List("tools"),
            )],
            "show ↔ hide tool calls",
        ),
        row(
            vec![bind(A::ToggleContent, &[Key::ctrl('f')])],
            "search the conversations only ↔ titles and conversations (or start with /)",
        ),
        row(
            vec![
                bind(A::JumpHit(HitStep::Next), &[plain(K::F(3))]),
                bind(A::JumpHit(HitStep::Previous), &[Key::shift(K::F(3))]),
            ],
            "next / previous match of a find, else of a content search",
        ),
        row(
            vec![
                bind(A::CopyId, &[Key::ctrl('y')]),
                bind(A::CopyCommand, &[Key::alt('y')]),
            ],
            "copy the session id, `cd <folder> && codex resume <id>`",
        ),
        row(
            vec![bind(A::OpenUsage, &[Key::alt('u')])],
            "usage: tokens by day, week, folder, model; Enter goes to a session",
        ),
        row(
            vec![
                bind(A::Reread, &[Key::ctrl('r')]),
                bind(A::Repaint, &[Key::ctrl('l')]),
                bind(A::Suspend, &[Key::ctrl('z')]),
            ],
            "read the store again; repaint the screen; suspend",
        ),
        row(
            vec![hinted(
                A::ToggleHelp,
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
            vec![
                bind(A::Scroll(-1), &[plain(K::Up)]),
                bind(A::Scroll(1), &[plain(K::Down)]),
                bind(A::HalfPageConversation(-1), &[Key::ctrl('u')]),
            ],
            "scroll a line up, down; half a page up",
        ),
        reading(
            vec![
                hinted(
                    jump(HitStep::Next, false),
                    &[Key::char(']')],
                    Hint::Conversation("message"),
                ),
                hinted(
                    jump(HitStep::Previous, false),
                    &[Key::char('[')],
                    Hint::Conversation("message"),
                ),
                hinted(
                    jump(HitStep::Next, true),
                    &[Key::char('}')],
                    Hint::Conversation("prompt"),
                ),
                hinted(
                    jump(HitStep::Previous, true),
                    &[Key::char('{')],
                    Hint::Conversation("prompt"),
                ),
            ],
            "next / previous message, next / previous prompt",
        ),
        reading(
            vec![
                bind(A::PaneEnd(false), &[Key::char('g'), plain(K::Home)]),
                bind(A::PaneEnd(true), &[Key::char('G'), plain(K::End)]),
            ],
            "first, last line of the conversation",
        ),
        reading(
            vec![hinted(
                A::FindStart,
                &[Key::char('/')],
                Hint::Conversation("find"),
            )],
            "find in the conversation (Enter keeps the matches, Esc drops them)",
        ),
        reading(
            vec![
                hinted(
                    A::JumpHit(HitStep::Next),
                    &[Key::char('n')],
                    Hint::Conversation("match"),
                ),
                hinted(
                    A::JumpHit(HitStep::Previous),
                    &[Key::char('N')],
                    Hint::Conversation("match"),
                ),
            ],
            "next / previous match of a find, else of a content search",
        ),
        reading(
            vec![
                hinted(
                    A::Expand { all: false },
                    &[Key::char('e')],
                    Hint::Conversation("expand"),
                ),
                hinted(
                    A::Expand { all: true },
                    &[Key::char('E')],
                    Hint::Conversation("expand"),
                ),
                hinted(
                    A::ToggleReasoning,
                    &[Key::char('r')],
                    Hint::Conversation("reasoning"),
                ),
            ],
            "expand ↔ collapse the call on screen, every call; reasoning",
        ),
        reading(
            vec![
                hinted(
                    A::CopyMessage,
                    &[Key::char('c')],
                    Hint::Conversation("copy"),
                ),
                hinted(A::Export, &[Key::char('x')], Hint::Conversation("export")),
            ],
            "copy the message at the top; export it all as Markdown",
        ),
    ]
}
