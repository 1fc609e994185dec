//! Keys as data: the key table ([`table::defaults`]: every action a key gives, its default keys,
//! its help text and its footer hint) and the [`Keymap`] made from it and the config file's
//! `[keys]` (each action named as [`Action::name`] says); from the keymap, a key press -> an
//! [`Action`] ([`action`]), the footer's hints ([`Keymap::footer`]) and an action's key name
//! ([`key_name`], for the action menu). The help overlay draws the keymap's rows.
//!
//! Pure. In the list, typing always edits the query: no printable key is taken for an action,
//! except `?` (and any the config file binds), which opens the help only while the query is
//! empty (type `?` after any other character to search for it). F1 opens the help at any time.
//! In the conversation (→), a few printable keys move through it and change what it shows (its
//! own rows, looked at first); while a find query is typed there, keys go to it. The action
//! menu and the delete question take the keys first: their own keys (letters, ↑ ↓, Enter, Esc;
//! `y`) are fixed, and so are those of the rename box (the query's editing keys, Enter, Esc).

mod key;
mod keymap;
mod table;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

pub use key::Key;
pub use keymap::{Keymap, KeymapError};
pub use table::{Hint, KeyBind, KeyRow, Section};

use crate::tui::action::{Action, Focus};

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
    /// The action menu: its letters, ↑ ↓ and Enter; Esc or the key that opened it closes it;
    /// the direct keys (Alt+A, Ctrl+Y, ...) still work.
    Menu,
    /// A question (delete; act on a session open elsewhere): `y` goes ahead, any other key
    /// cancels.
    Confirm,
    /// A line being typed (a session's new name): keys edit it, Enter takes it, Esc drops it.
    Input,
    /// The usage screen: ← → (h l) the day, ↑ ↓ (k j) its sessions, Tab the grouping, Enter
    /// goes to the session, Esc (q, or the key that opened it) closes it.
    Usage,
}

/// The action of a key press with the keys of `keys`, if any.
pub fn action(key: KeyEvent, ctx: Context, keys: &Keymap) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let press = key::normalized(key);
    let ctrl_or_alt = press
        .mods
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    match ctx.modal {
        Some(Modal::Confirm) => {
            return Some(Action::Confirm(press == Key::char('y')));
        }
        Some(Modal::Menu) => {
            if let Some(a) = menu_key(press, ctx, keys) {
                return Some(a);
            }
        }
        Some(Modal::Input) => return input_key(press),
        Some(Modal::Usage) => return usage_key(press, ctx, keys),
        None => {}
    }
    if ctx.finding && !ctrl_or_alt {
        match press.code {
            KeyCode::Char(c) => return Some(Action::FindKey(Some(c))),
            KeyCode::Backspace => return Some(Action::FindKey(None)),
            KeyCode::Enter => return Some(Action::FindEnd(true)),
            KeyCode::Esc => return Some(Action::FindEnd(false)),
            _ => {}
        }
    }
    if let Some(action) = bound(press, ctx, keys) {
        return Some(action.clone());
    }
    match press.code {
        KeyCode::Char(c) if !ctrl_or_alt => Some(Action::Insert(c)),
        _ => None,
    }
}

/// The action a key press is bound to: the conversation's own keys first while it is read,
/// then the rest; a press with Shift that no key has is taken as the same key without it
/// (Shift+Enter picks).
fn bound(press: Key, ctx: Context, keys: &Keymap) -> Option<&Action> {
    let reading = ctx.focus == Focus::Conversation;
    let find = |press: Key| {
        let sections = [
            reading.then_some(Section::Conversation),
            Some(Section::List),
        ];
        sections
            .into_iter()
            .flatten()
            .find_map(|section| keys.bound(press, section, ctx.query_empty))
    };
    find(press).or_else(|| {
        press
            .mods
            .contains(KeyModifiers::SHIFT)
            .then(|| find(press.with(press.mods.difference(KeyModifiers::SHIFT))))
            .flatten()
    })
}

/// The usage screen's own keys; Ctrl+C still quits, other keys do nothing there.
fn usage_key(press: Key, ctx: Context, keys: &Keymap) -> Option<Action> {
    use crate::tui::action::UsageKey as U;
    match keys.bound(press, Section::List, ctx.query_empty) {
        Some(Action::OpenUsage | Action::Escape) => return Some(Action::Usage(U::Close)),
        Some(Action::Quit) => return Some(Action::Quit),
        _ => {}
    }
    let u = match press.code {
        KeyCode::Left | KeyCode::Char('h') => U::Step(-1),
        KeyCode::Right | KeyCode::Char('l') => U::Step(1),
        KeyCode::Up | KeyCode::Char('k') => U::Move(-1),
        KeyCode::Down | KeyCode::Char('j') => U::Move(1),
        KeyCode::PageUp => U::Move(-10),
        KeyCode::PageDown => U::Move(10),
        KeyCode::Tab => U::Regroup,
        KeyCode::Enter => U::Jump,
        KeyCode::Esc | KeyCode::Char('q') => U::Close,
        _ => return None,
    };
    Some(Action::Usage(u))
}

/// The action menu's own keys; `None` lets the key through to the table (the direct keys), or
/// drops it (the menu closes before any other action).
fn menu_key(press: Key, ctx: Context, keys: &Keymap) -> Option<Action> {
    if press
        .mods
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return match keys.bound(press, Section::List, ctx.query_empty) {
            Some(Action::OpenMenu) => Some(Action::CloseDialog),
            Some(Action::MoveUp) => Some(Action::MenuMove(-1)),
            Some(Action::MoveDown) => Some(Action::MenuMove(1)),
            _ => None,
        };
    }
    let a = match press.code {
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
fn input_key(press: Key) -> Option<Action> {
    let ctrl = press.mods.contains(KeyModifiers::CONTROL);
    let alt = press.mods.contains(KeyModifiers::ALT);
    let a = match press.code {
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

/// The footer while a find query is typed (its keys are the find line's own: fixed).
pub const FOOTER_FINDING: &str =
    "find: type the words · Enter keep the matches (n N) · Esc drop them";

/// The first key of `keys` that gives `action` (`x in the conversation` for a key of the
/// conversation's own), if one does.
pub fn key_name(keys: &Keymap, action: &Action) -> Option<String> {
    first_key(keys, action, [Section::List, Section::Conversation]).map(|(section, name)| {
        match section {
            Section::List => name,
            Section::Conversation => format!("{name} in the conversation"),
        }
    })
}

/// The first key of `keys` that gives `action` while the conversation is read (its own keys
/// first), without saying where it works.
pub fn key_label(keys: &Keymap, action: &Action) -> Option<String> {
    first_key(keys, action, [Section::Conversation, Section::List]).map(|(_, name)| name)
}

fn first_key(keys: &Keymap, action: &Action, order: [Section; 2]) -> Option<(Section, String)> {
    order
        .into_iter()
        .flat_map(|section| keys.binds(section).map(move |b| (section, b)))
        .find(|(_, b)| b.action == *action && !b.keys.is_empty())
        .and_then(|(section, b)| Some((section, b.keys.first()?.label())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::action::{HitStep, NAMES};

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    /// A press with the default keys.
    fn action(key: KeyEvent, ctx: Context) -> Option<Action> {
        super::action(key, ctx, &Keymap::default())
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

    #[test]
    fn the_conversation_has_keys_of_its_own_first() {
        let reading = Context {
            focus: Focus::Conversation,
            ..LIST
        };
        let plain = |code, ctx| action(key(code, KeyModifiers::NONE), ctx);
        assert_eq!(
            plain(KeyCode::Char(']'), reading),
            Some(Action::Jump {
                step: HitStep::Next,
                prompts: false
            })
        );
        assert_eq!(plain(KeyCode::Home, reading), Some(Action::PaneEnd(false)));
        assert_eq!(plain(KeyCode::Home, LIST), Some(Action::First));
        assert_eq!(
            action(key(KeyCode::Char('N'), KeyModifiers::SHIFT), reading),
            Some(Action::JumpHit(HitStep::Previous))
        );
        // Outside the conversation the same letters are typed.
        assert_eq!(plain(KeyCode::Char(']'), LIST), Some(Action::Insert(']')));
        assert_eq!(plain(KeyCode::Char('n'), LIST), Some(Action::Insert('n')));
        // Keys of everywhere still work there, and typing goes to the query.
        assert_eq!(plain(KeyCode::Enter, reading), Some(Action::Accept));
        assert_eq!(
            plain(KeyCode::Char('q'), reading),
            Some(Action::Insert('q'))
        );
        assert_eq!(
            action(key(KeyCode::Up, KeyModifiers::SHIFT), reading),
            Some(Action::PageListUp)
        );
    }

    #[test]
    fn shift_and_other_spellings_of_a_key_reach_its_action() {
        let press = |code, mods| action(key(code, mods), LIST);
        assert_eq!(
            press(KeyCode::Enter, KeyModifiers::SHIFT),
            Some(Action::Accept)
        );
        assert_eq!(
            press(KeyCode::BackTab, KeyModifiers::SHIFT),
            Some(Action::ToggleScope)
        );
        assert_eq!(
            press(KeyCode::F(3), KeyModifiers::SHIFT),
            Some(Action::JumpHit(HitStep::Previous))
        );
        for (code, mods) in [
            (KeyCode::Char('h'), KeyModifiers::CONTROL),
            (KeyCode::Backspace, KeyModifiers::CONTROL),
            (KeyCode::Backspace, KeyModifiers::ALT),
        ] {
            assert_eq!(press(code, mods), Some(Action::DeleteWord), "{code:?}");
        }
        assert_eq!(press(KeyCode::Char('g'), KeyModifiers::CONTROL), None);
        assert_eq!(press(KeyCode::Char('q'), KeyModifiers::ALT), None);
    }

    #[test]
    fn no_key_gives_two_actions_in_one_place() {
        let keymap = Keymap::default();
        for section in [Section::List, Section::Conversation] {
            let keys: Vec<(Key, &Action)> = keymap
                .binds(section)
                .flat_map(|b| b.keys.iter().chain(&b.also).map(move |k| (*k, &b.action)))
                .collect();
            for (i, (a, ca)) in keys.iter().enumerate() {
                for (b, cb) in &keys[i + 1..] {
                    assert!(
                        a.code != b.code || a.mods != b.mods,
                        "{} gives {ca:?} and {cb:?}",
                        a.label()
                    );
                }
            }
        }
    }

    #[test]
    fn the_footers_and_the_menu_name_the_tables_keys() {
        let keys = Keymap::default();
        let footer = |section| keys.footer(section).to_owned();
        let key_name = |action: &Action| super::key_name(&keys, action);
        assert_eq!(
            footer(Section::List),
            "Enter pick · Ctrl+X actions · Esc quit · ↑ ↓ move · PgUp PgDn read · Tab scope \
             · Ctrl+T tools · F1 help"
        );
        assert_eq!(
            footer(Section::Conversation),
            "] [ message · } { prompt · / find · n N match · e E expand · r reasoning · c copy \
             · x export · ← list · F1 help"
        );
        assert_eq!(key_name(&Action::Archive).as_deref(), Some("Alt+A"));
        assert_eq!(key_name(&Action::ExecSelected).as_deref(), Some("Ctrl+O"));
        assert_eq!(
            key_name(&Action::Export).as_deref(),
            Some("x in the conversation")
        );
        assert_eq!(key_name(&Action::ResumeHere), None);
    }

    #[test]
    fn every_action_of_the_table_has_one_name_of_its_own() {
        let rows = table::defaults();
        for bind in rows.iter().flat_map(|r| &r.binds) {
            let name = bind.action.name();
            let name = name.unwrap_or_else(|| panic!("{:?} has no name", bind.action));
            assert_eq!(Action::named(name).as_ref(), Some(&bind.action), "{name}");
        }
        // And every name is of an action of the table (a config file can give it keys).
        for (action, name) in NAMES {
            let bound = rows
                .iter()
                .flat_map(|r| &r.binds)
                .any(|b| b.action == *action);
            assert!(bound, "{name} is of no action of the table");
        }
        for (i, (a, _)) in NAMES.iter().enumerate() {
            assert!(
                NAMES[i + 1..].iter().all(|(b, _)| a != b),
                "{a:?} named twice"
            );
        }
        for (i, (_, a)) in NAMES.iter().enumerate() {
            assert!(NAMES[i + 1..].iter().all(|(_, b)| a != b), "{a} twice");
        }
    }

    /// The keymap of a config file's text.
    fn keymap(text: &str) -> Keymap {
        let file = crate::config::parse(text).unwrap();
        Keymap::new(&file.keys.unwrap()).unwrap()
    }

    #[test]
    fn a_rebound_key_gives_its_action_and_the_old_one_no_longer_does() {
        let keys = keymap(
            "[keys]\ncopy-id = \"alt-c\"\ndelete-word = \"alt-w\"\nhelp = [\"f6\", \"h\"]\n\
             [keys.conversation]\nnext-message = \"j\"\n",
        );
        let press = |code, mods, ctx| super::action(key(code, mods), ctx, &keys);
        let alt = KeyModifiers::ALT;
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(press(KeyCode::Char('c'), alt, LIST), Some(Action::CopyId));
        assert_eq!(press(KeyCode::Char('y'), ctrl, LIST), None);
        assert_eq!(
            press(KeyCode::Char('w'), alt, LIST),
            Some(Action::DeleteWord)
        );
        // The other spellings of Ctrl+W's Ctrl+Backspace went with it.
        assert_eq!(press(KeyCode::Char('h'), ctrl, LIST), None);
        assert_eq!(press(KeyCode::Char('w'), ctrl, LIST), None);
        // A printable key works only while the query is empty.
        let none = KeyModifiers::NONE;
        assert_eq!(press(KeyCode::F(6), none, LIST), Some(Action::ToggleHelp));
        assert_eq!(
            press(KeyCode::Char('h'), none, LIST),
            Some(Action::ToggleHelp)
        );
        let typing = Context {
            query_empty: false,
            ..LIST
        };
        assert_eq!(
            press(KeyCode::Char('h'), none, typing),
            Some(Action::Insert('h'))
        );
        assert_eq!(press(KeyCode::F(1), none, LIST), None);
        let reading = Context {
            focus: Focus::Conversation,
            ..LIST
        };
        assert_eq!(
            press(KeyCode::Char('j'), none, reading),
            Some(Action::Jump {
                step: HitStep::Next,
                prompts: false
            })
        );
        assert_eq!(
            press(KeyCode::Char(']'), none, reading),
            Some(Action::Insert(']'))
        );
        assert_eq!(key_name(&keys, &Action::CopyId).as_deref(), Some("Alt+C"));
        assert!(keys.footer(Section::List).ends_with("F6 help"));
        assert!(keys
            .footer(Section::Conversation)
            .starts_with("j [ message"));
        let help: Vec<String> = keys.rows().iter().map(KeyRow::label).collect();
        assert!(help.contains(&"Alt+C / Alt+Y".to_owned()), "{help:?}");
        assert!(help.contains(&"F6, h (empty query)".to_owned()), "{help:?}");
    }

    #[test]
    fn a_key_named_in_the_file_takes_an_unnamed_spelling_from_another_action() {
        // Shift+Tab is Tab's other spelling for the scope; named for the sort, it sorts.
        let keys = keymap("[keys]\ntoggle-sort = \"shift-tab\"\n");
        let press = |code| super::action(key(code, KeyModifiers::NONE), LIST, &keys);
        assert_eq!(press(KeyCode::BackTab), Some(Action::ToggleSort));
        assert_eq!(press(KeyCode::Tab), Some(Action::ToggleScope));
    }
}
