//! The key table: a key press -> an [`Action`], and the help text drawn from the same table.
//!
//! Pure. In the list, typing always edits the query: no printable key is taken for a command,
//! except `?`, which opens the help only while the query is empty (type `?` after any other
//! character to search for it). F1 opens the help at any time. In the conversation (→), a few
//! printable keys move through it and change what it shows ([`reading`]); while a find query
//! is typed there, keys go to it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::tui::app::{Action, Focus, HitStep};

/// What the table needs to know about the state.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    pub query_empty: bool,
    pub focus: Focus,
    /// A find query is being typed in the conversation.
    pub finding: bool,
    /// What is open over the list and takes the keys first.
    pub modal: Option<Modal>,
}

/// A dialog over the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modal {
    /// The action menu: its letters, ↑ ↓ and Enter; Esc or Ctrl+X closes it; the direct keys
    /// (Alt+A, Ctrl+Y, ...) still work.
    Menu,
    /// A question (delete; act on a session open elsewhere): `y` goes ahead, any other key
    /// cancels.
    Confirm,
    /// A line being typed (a session's new name): keys edit it, Enter takes it, Esc drops it.
    Input,
}

/// The action of a key press, if any.
pub fn action(key: KeyEvent, ctx: Context) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let reading = ctx.focus == Focus::Conversation;
    match ctx.modal {
        Some(Modal::Confirm) => {
            let yes = key.code == KeyCode::Char('y') && !ctrl && !alt;
            return Some(Action::Confirm(yes));
        }
        Some(Modal::Menu) => {
            if let Some(a) = menu_key(key.code, ctrl, alt) {
                return Some(a);
            }
        }
        Some(Modal::Input) => return input_key(key.code, ctrl, alt),
        None => {}
    }
    if ctx.finding && !ctrl && !alt {
        match key.code {
            KeyCode::Char(c) => return Some(Action::FindKey(Some(c))),
            KeyCode::Backspace => return Some(Action::FindKey(None)),
            KeyCode::Enter => return Some(Action::FindEnd(true)),
            KeyCode::Esc => return Some(Action::FindEnd(false)),
            _ => {}
        }
    }
    if reading && !ctrl && !alt {
        if let Some(a) = reading_key(key.code) {
            return Some(a);
        }
    }
    let a = match key.code {
        KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
            'c' => Action::Quit,
            'n' | 'j' => Action::MoveDown,
            'p' | 'k' => Action::MoveUp,
            'u' if reading => Action::HalfPageConversation(-1),
            'u' => Action::ClearQuery,
            'd' => Action::HalfPageConversation(1),
            'w' | 'h' => Action::DeleteWord,
            'y' => Action::CopyId,
            'o' => Action::ExecSelected,
            't' => Action::ToggleTools,
            'f' => Action::ToggleContent,
            's' => Action::ToggleSort,
            'e' => Action::ToggleExec,
            'a' => Action::ToggleArchived,
            'z' => Action::Suspend,
            'l' => Action::Repaint,
            'r' => Action::Reread,
            'x' => Action::OpenMenu,
            _ => return None,
        },
        KeyCode::Char('y' | 'Y') if alt => Action::CopyCommand,
        KeyCode::Char('a' | 'A') if alt => Action::Archive,
        KeyCode::Char('d' | 'D') if alt => Action::Delete,
        KeyCode::Char('f' | 'F') if alt => Action::Fork,
        KeyCode::Char(_) if alt => return None,
        KeyCode::Char('?') if ctx.query_empty => Action::ToggleHelp,
        KeyCode::Char('n') if reading => Action::JumpHit(HitStep::Next),
        KeyCode::Char('N') if reading => Action::JumpHit(HitStep::Previous),
        KeyCode::Char(c) => Action::Insert(c),
        KeyCode::F(1) => Action::ToggleHelp,
        KeyCode::F(2) => Action::Rename,
        KeyCode::F(3) if shift => Action::JumpHit(HitStep::Previous),
        KeyCode::F(3) => Action::JumpHit(HitStep::Next),
        KeyCode::Backspace if ctrl || alt => Action::DeleteWord,
        KeyCode::Backspace => Action::DeleteBack,
        KeyCode::Enter => Action::Accept,
        KeyCode::Esc => Action::Escape,
        KeyCode::Tab | KeyCode::BackTab => Action::ToggleScope,
        KeyCode::Up if shift => Action::PageListUp,
        KeyCode::Down if shift => Action::PageListDown,
        KeyCode::Up if reading => Action::Scroll(-1),
        KeyCode::Down if reading => Action::Scroll(1),
        KeyCode::Up => Action::MoveUp,
        KeyCode::Down => Action::MoveDown,
        KeyCode::PageUp => Action::PageConversation(-1),
        KeyCode::PageDown => Action::PageConversation(1),
        KeyCode::Home => Action::First,
        KeyCode::End => Action::Last,
        KeyCode::Right => Action::FocusConversation,
        KeyCode::Left => Action::FocusList,
        _ => return None,
    };
    Some(a)
}

/// The action menu's own keys; `None` lets the key through to the table (the direct keys), or
/// drops it (the menu closes before any other action).
fn menu_key(code: KeyCode, ctrl: bool, alt: bool) -> Option<Action> {
    let a = match code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('x') if ctrl => Action::CloseDialog,
        KeyCode::Char('p' | 'k') if ctrl => Action::MenuMove(-1),
        KeyCode::Char('n' | 'j') if ctrl => Action::MenuMove(1),
        _ if ctrl || alt => return None,
        KeyCode::Up | KeyCode::Char('k') | KeyCode::BackTab => Action::MenuMove(-1),
        KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => Action::MenuMove(1),
        KeyCode::Enter => Action::MenuPick(None),
        KeyCode::Esc => Action::CloseDialog,
        KeyCode::Char(c) => Action::MenuPick(Some(c)),
        _ => Action::CloseDialog,
    };
    Some(a)
}

/// The keys of a line being typed: the query's editing keys, Enter, Esc and Ctrl+C; no other
/// key does anything until it is closed.
fn input_key(code: KeyCode, ctrl: bool, alt: bool) -> Option<Action> {
    let a = match code {
        KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
            'c' => Action::Quit,
            'u' => Action::ClearQuery,
            'w' | 'h' => Action::DeleteWord,
            _ => return None,
        },
        KeyCode::Char(_) if alt => return None,
        KeyCode::Char(c) => Action::Insert(c),
        KeyCode::Backspace if ctrl || alt => Action::DeleteWord,
        KeyCode::Backspace => Action::DeleteBack,
        KeyCode::Enter => Action::Accept,
        KeyCode::Esc => Action::Escape,
        _ => return None,
    };
    Some(a)
}

/// The conversation's own keys (focus on the conversation, no modifier).
fn reading_key(code: KeyCode) -> Option<Action> {
    let jump = |step, prompts| Some(Action::Jump { step, prompts });
    match code {
        KeyCode::Char(']') => jump(HitStep::Next, false),
        KeyCode::Char('[') => jump(HitStep::Previous, false),
        KeyCode::Char('}') => jump(HitStep::Next, true),
        KeyCode::Char('{') => jump(HitStep::Previous, true),
        KeyCode::Char('g') | KeyCode::Home => Some(Action::PaneEnd(false)),
        KeyCode::Char('G') | KeyCode::End => Some(Action::PaneEnd(true)),
        KeyCode::Char('e') => Some(Action::Expand { all: false }),
        KeyCode::Char('E') => Some(Action::Expand { all: true }),
        KeyCode::Char('r') => Some(Action::ToggleReasoning),
        KeyCode::Char('/') => Some(Action::FindStart),
        KeyCode::Char('c') => Some(Action::CopyMessage),
        KeyCode::Char('x') => Some(Action::Export),
        _ => None,
    }
}

/// Every key, for the help overlay: (keys, what they do).
pub const HELP: &[(&str, &str)] = &[
    (
        "type",
        "search (fzf syntax: 'exact ^prefix suffix$ !not, space AND, | OR)",
    ),
    (
        "  no title holds it",
        "the words are looked for inside the conversations instead",
    ),
    (
        "dir: branch:",
        "filter by part of the folder (also cwd:), of the git branch",
    ),
    (
        "date:",
        "filter by update: today yesterday <2w >3d >2026-10-01 2026-11",
    ),
    (
        "Enter",
        "print the session id and quit (--print-command: the cd+resume command)",
    ),
    (
        "Ctrl+O",
        "run `codex resume <id> [-- args]` in the session's folder",
    ),
    (
        "Ctrl+X",
        "actions: resume here, fork, copy, export, archive, rename, delete",
    ),
    (
        "Alt+A  Alt+D  Alt+F  F2",
        "archive (unarchive), delete (asks first), fork, rename: by codex",
    ),
    (
        "Esc  Ctrl+C",
        "clear the query (with an empty query, quit); quit",
    ),
    ("↑ ↓  Ctrl+P/N  Ctrl+K/J", "move the selection"),
    ("Shift+↑ ↓  Home End", "page the list, first, last"),
    (
        "PgUp PgDn  Ctrl+D",
        "scroll the conversation a page, half a page down",
    ),
    (
        "→  ←",
        "read the conversation (↑ ↓ Ctrl+U scroll it), back to the list",
    ),
    (
        "Ctrl+U  Ctrl+W  Bksp",
        "clear the query, delete a word, a character",
    ),
    ("Tab", "this folder's repository ↔ every folder"),
    (
        "Ctrl+S  Ctrl+E  Ctrl+A",
        "sort by update ↔ creation; show ↔ hide exec, archived",
    ),
    ("Ctrl+T", "show ↔ hide tool calls"),
    (
        "Ctrl+F  /query",
        "search inside every conversation ↔ fuzzy search of titles",
    ),
    (
        "→ then ] [  } {",
        "next / previous message, next / previous prompt",
    ),
    (
        "→ then g G",
        "first, last line of the conversation (also Home End)",
    ),
    (
        "→ then /  n N",
        "find in the conversation; next / previous match",
    ),
    (
        "→ then e E  r",
        "expand ↔ collapse the call on screen, every call; reasoning",
    ),
    (
        "→ then c  x",
        "copy the message at the top; export as Markdown",
    ),
    (
        "n N (conversation)  F3",
        "next / previous match of a find, else of a content search",
    ),
    (
        "Ctrl+Y  Alt+Y",
        "copy the session id, `cd <folder> && codex resume <id>`",
    ),
    (
        "Ctrl+R  Ctrl+L  Ctrl+Z",
        "read the store again; repaint the screen; suspend",
    ),
    ("? (empty query)  F1", "this help; any key closes it"),
    (
        "mouse",
        "click a row, wheel over the list or the conversation",
    ),
];

/// The footer while reading the conversation: its own keys.
pub const FOOTER_READING: &str =
    "← list · ] [ message · } { prompt · / find · n N match · e E expand · r reasoning · c copy · x export · F1 help";

/// The footer while a find query is typed.
pub const FOOTER_FINDING: &str =
    "find: type the words · Enter keep the matches (n N) · Esc drop them";

/// The footer: the most used keys.
pub const FOOTER: &str =
    "Enter pick · Esc quit · ↑↓ move · PgUp/PgDn read · Tab scope · Ctrl+T tools · Ctrl+X actions · F1 help";

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    const LIST: Context = Context {
        query_empty: true,
        focus: Focus::List,
        finding: false,
        modal: None,
    };

    #[test]
    fn printable_keys_always_edit_the_query() {
        for c in ['j', 'k', 'q', ' ', 'é', '日'] {
            assert_eq!(
                action(key(KeyCode::Char(c), KeyModifiers::NONE), LIST),
                Some(Action::Insert(c))
            );
        }
        let typing = Context {
            query_empty: false,
            ..LIST
        };
        assert_eq!(
            action(key(KeyCode::Char('?'), KeyModifiers::NONE), typing),
            Some(Action::Insert('?'))
        );
        assert_eq!(
            action(key(KeyCode::Char('?'), KeyModifiers::NONE), LIST),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn control_keys() {
        let ctrl = |c| action(key(KeyCode::Char(c), KeyModifiers::CONTROL), LIST);
        assert_eq!(ctrl('c'), Some(Action::Quit));
        assert_eq!(ctrl('n'), Some(Action::MoveDown));
        assert_eq!(ctrl('k'), Some(Action::MoveUp));
        assert_eq!(ctrl('u'), Some(Action::ClearQuery));
        assert_eq!(ctrl('y'), Some(Action::CopyId));
        assert_eq!(
            action(key(KeyCode::Char('y'), KeyModifiers::ALT), LIST),
            Some(Action::CopyCommand)
        );
        let reading = Context {
            focus: Focus::Conversation,
            ..LIST
        };
        assert_eq!(
            action(key(KeyCode::Char('u'), KeyModifiers::CONTROL), reading),
            Some(Action::HalfPageConversation(-1))
        );
        assert_eq!(
            action(key(KeyCode::Down, KeyModifiers::NONE), reading),
            Some(Action::Scroll(1))
        );
    }

    #[test]
    fn f2_renames_and_the_name_box_takes_the_keys() {
        assert_eq!(
            action(key(KeyCode::F(2), KeyModifiers::NONE), LIST),
            Some(Action::Rename)
        );
        let input = Context {
            modal: Some(Modal::Input),
            ..LIST
        };
        let press = |code, mods| action(key(code, mods), input);
        let none = KeyModifiers::NONE;
        // Every printable key is typed, `?` and letters the menu uses included.
        for c in ['?', 'y', 'n', 'é'] {
            assert_eq!(press(KeyCode::Char(c), none), Some(Action::Insert(c)));
        }
        assert_eq!(press(KeyCode::Enter, none), Some(Action::Accept));
        assert_eq!(press(KeyCode::Esc, none), Some(Action::Escape));
        assert_eq!(press(KeyCode::Backspace, none), Some(Action::DeleteBack));
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(press(KeyCode::Char('w'), ctrl), Some(Action::DeleteWord));
        assert_eq!(press(KeyCode::Char('u'), ctrl), Some(Action::ClearQuery));
        assert_eq!(press(KeyCode::Char('c'), ctrl), Some(Action::Quit));
        // The picker's other keys do nothing until the box is closed.
        assert_eq!(press(KeyCode::Char('x'), ctrl), None);
        assert_eq!(press(KeyCode::Char('d'), KeyModifiers::ALT), None);
        assert_eq!(press(KeyCode::Down, none), None);
        assert_eq!(press(KeyCode::F(2), none), None);
    }

    #[test]
    fn action_keys_and_the_menu() {
        let alt = |c, ctx| action(key(KeyCode::Char(c), KeyModifiers::ALT), ctx);
        assert_eq!(alt('a', LIST), Some(Action::Archive));
        assert_eq!(alt('d', LIST), Some(Action::Delete));
        assert_eq!(alt('f', LIST), Some(Action::Fork));
        assert_eq!(
            action(key(KeyCode::Char('x'), KeyModifiers::CONTROL), LIST),
            Some(Action::OpenMenu)
        );
        let menu = Context {
            modal: Some(Modal::Menu),
            ..LIST
        };
        let plain = |code| action(key(code, KeyModifiers::NONE), menu);
        assert_eq!(plain(KeyCode::Char('a')), Some(Action::MenuPick(Some('a'))));
        assert_eq!(plain(KeyCode::Enter), Some(Action::MenuPick(None)));
        assert_eq!(plain(KeyCode::Down), Some(Action::MenuMove(1)));
        assert_eq!(plain(KeyCode::Char('k')), Some(Action::MenuMove(-1)));
        assert_eq!(plain(KeyCode::Esc), Some(Action::CloseDialog));
        // The direct keys work with the menu open.
        assert_eq!(alt('d', menu), Some(Action::Delete));
        let confirm = Context {
            modal: Some(Modal::Confirm),
            ..LIST
        };
        let answer = |code, mods| action(key(code, mods), confirm);
        assert_eq!(
            answer(KeyCode::Char('y'), KeyModifiers::NONE),
            Some(Action::Confirm(true))
        );
        for (code, mods) in [
            (KeyCode::Char('n'), KeyModifiers::NONE),
            (KeyCode::Char('Y'), KeyModifiers::SHIFT),
            (KeyCode::Enter, KeyModifiers::NONE),
            (KeyCode::Esc, KeyModifiers::NONE),
            (KeyCode::Char('y'), KeyModifiers::ALT),
            (KeyCode::Char('c'), KeyModifiers::CONTROL),
        ] {
            assert_eq!(answer(code, mods), Some(Action::Confirm(false)), "{code:?}");
        }
    }
}
