//! One key of the key table: a key code with its modifiers (and, for `?`, the state it needs),
//! how a key press is matched against it, the name it is shown under (help, footer, README,
//! the action menu) and how the config file's `[keys]` table writes it ([`Key::parse`]).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The modifiers a key of the table can carry; any other (Super, Hyper, Meta) is ignored.
const MODIFIERS: KeyModifiers = KeyModifiers::CONTROL
    .union(KeyModifiers::ALT)
    .union(KeyModifiers::SHIFT);

/// A key press the table binds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
    /// Only while the query is empty (`?`: typed after anything else, it is searched for).
    pub empty_query: bool,
}

impl Key {
    /// A key with no modifier.
    pub const fn plain(code: KeyCode) -> Key {
        Key {
            code,
            mods: KeyModifiers::NONE,
            empty_query: false,
        }
    }

    /// A printable key with no modifier.
    pub const fn char(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    /// Ctrl and a letter (written lower case; Ctrl+Shift and the letter is the same key).
    pub const fn ctrl(c: char) -> Key {
        Key {
            mods: KeyModifiers::CONTROL,
            ..Key::char(c)
        }
    }

    /// Alt and a letter (written lower case; Alt+Shift and the letter is the same key).
    pub const fn alt(c: char) -> Key {
        Key {
            mods: KeyModifiers::ALT,
            ..Key::char(c)
        }
    }

    /// Shift and a key that is not printable.
    pub const fn shift(code: KeyCode) -> Key {
        Key {
            mods: KeyModifiers::SHIFT,
            ..Key::plain(code)
        }
    }

    /// This key with other modifiers.
    pub const fn with(self, mods: KeyModifiers) -> Key {
        Key { mods, ..self }
    }

    /// This key, only while the query is empty.
    pub const fn on_empty_query(self) -> Key {
        Key {
            empty_query: true,
            ..self
        }
    }

    /// Whether `press` is this key, once [`normalized`].
    pub fn is(&self, press: Key, query_empty: bool) -> bool {
        self.code == press.code && self.mods == press.mods && (!self.empty_query || query_empty)
    }

    /// The key's name: `Ctrl+P`, `Alt+A`, `Shift+↑`, `PgUp`, `?`, ...; `(empty query)` after a
    /// key that needs it.
    pub fn label(&self) -> String {
        let mut out = String::new();
        for (m, name) in [
            (KeyModifiers::CONTROL, "Ctrl+"),
            (KeyModifiers::ALT, "Alt+"),
            (KeyModifiers::SHIFT, "Shift+"),
        ] {
            if self.mods.contains(m) {
                out.push_str(name);
            }
        }
        match self.code {
            KeyCode::Char(' ') => out.push_str("Space"),
            KeyCode::Char(c) if self.mods.is_empty() => out.push(c),
            KeyCode::Char(c) => out.push(c.to_ascii_uppercase()),
            KeyCode::F(n) => out.push_str(&format!("F{n}")),
            code => out.push_str(match code {
                KeyCode::Up => "↑",
                KeyCode::Down => "↓",
                KeyCode::Left => "←",
                KeyCode::Right => "→",
                KeyCode::PageUp => "PgUp",
                KeyCode::PageDown => "PgDn",
                KeyCode::Home => "Home",
                KeyCode::End => "End",
                KeyCode::Enter => "Enter",
                KeyCode::Esc => "Esc",
                KeyCode::Tab => "Tab",
                KeyCode::BackTab => "Shift+Tab",
                KeyCode::Backspace => "Backspace",
                KeyCode::Delete => "Delete",
                KeyCode::Insert => "Insert",
                _ => "?",
            }),
        }
        if self.empty_query {
            out.push_str(" (empty query)");
        }
        out
    }
}

/// The named keys the config file may write, and their codes (a single character is itself).
const NAMED: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("pgup", KeyCode::PageUp),
    ("pageup", KeyCode::PageUp),
    ("pgdn", KeyCode::PageDown),
    ("pagedown", KeyCode::PageDown),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("space", KeyCode::Char(' ')),
];

impl Key {
    /// A key as the config file writes it: modifiers `ctrl-`, `alt-`, `shift-` (any order,
    /// any case) before a named key (`enter`, `esc`, `tab`, `backspace`, `delete`, `insert`,
    /// `home`, `end`, `pgup`, `pgdn`, `up`, `down`, `left`, `right`, `space`, `f1` to `f12`)
    /// or one character (`?`, `]`, `G`; with Ctrl or Alt a letter's case does not count).
    /// Made the way [`normalized`] makes a press, so it matches the press: `shift-a` is `A`,
    /// `shift-tab` is Shift+Tab's own code.
    pub fn parse(text: &str) -> Result<Key, String> {
        let bad = |why: &str| format!("key `{}`: {why}", crate::sanitize::one_line(text));
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        // A modifier is a word and a dash before more; `-` alone, or last, is the character.
        while let Some((word, after)) = rest.split_once('-').filter(|(_, a)| !a.is_empty()) {
            let m = match word.to_ascii_lowercase().as_str() {
                "ctrl" | "control" => KeyModifiers::CONTROL,
                "alt" | "meta" => KeyModifiers::ALT,
                "shift" => KeyModifiers::SHIFT,
                _ => break,
            };
            mods |= m;
            rest = after;
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (None, _) => return Err(bad("no key after the modifiers")),
            (Some(c), None) if c.is_control() => return Err(bad("not a key name")),
            (Some(c), None) => KeyCode::Char(c),
            _ => {
                let name = rest.to_ascii_lowercase();
                let function = name
                    .strip_prefix('f')
                    .and_then(|n| n.parse::<u8>().ok())
                    .filter(|n| (1..=12).contains(n));
                match (function, NAMED.iter().find(|(n, _)| *n == name)) {
                    (Some(n), _) => KeyCode::F(n),
                    (None, Some(&(_, code))) => code,
                    (None, None) => {
                        return Err(bad(
                            "unknown key name (a character, f1 to f12, enter, esc, tab, \
                             backspace, delete, insert, home, end, pgup, pgdn, up, down, left, \
                             right, space; after ctrl-, alt-, shift-)",
                        ))
                    }
                }
            }
        };
        if let KeyCode::Char(c) = code {
            if mods.contains(KeyModifiers::SHIFT) && mods.difference(KeyModifiers::SHIFT).is_empty()
            {
                if !c.is_alphabetic() {
                    return Err(bad("write the character Shift gives (`?`, not `shift-/`)"));
                }
                return Ok(Key::char(c.to_uppercase().next().unwrap_or(c)));
            }
        }
        let press = KeyEvent::new(code, mods);
        Ok(normalized(
            if code == KeyCode::Tab && mods.contains(KeyModifiers::SHIFT) {
                KeyEvent::new(KeyCode::BackTab, mods)
            } else {
                press
            },
        ))
    }
}

/// A key press as the table writes keys: only Ctrl, Alt and Shift count; a printable key
/// carries Shift in its character (`N`), and with Ctrl or Alt it is the lower-case letter
/// (Ctrl+Shift+C is Ctrl+C); Shift+Tab is its own key code.
pub(super) fn normalized(press: KeyEvent) -> Key {
    let mut mods = press.modifiers.intersection(MODIFIERS);
    let code = match press.code {
        KeyCode::Char(c) => {
            mods.remove(KeyModifiers::SHIFT);
            if mods.is_empty() {
                KeyCode::Char(c)
            } else {
                KeyCode::Char(c.to_ascii_lowercase())
            }
        }
        KeyCode::BackTab => {
            mods.remove(KeyModifiers::SHIFT);
            KeyCode::BackTab
        }
        code => code,
    };
    Key {
        code,
        mods,
        empty_query: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_named_as_the_help_writes_them() {
        assert_eq!(Key::ctrl('p').label(), "Ctrl+P");
        assert_eq!(Key::alt('y').label(), "Alt+Y");
        assert_eq!(Key::shift(KeyCode::Up).label(), "Shift+↑");
        assert_eq!(Key::shift(KeyCode::F(3)).label(), "Shift+F3");
        assert_eq!(Key::char('G').label(), "G");
        assert_eq!(Key::plain(KeyCode::PageDown).label(), "PgDn");
        assert_eq!(Key::char('?').on_empty_query().label(), "? (empty query)");
    }

    #[test]
    fn the_config_files_key_names() {
        let parse = |s| Key::parse(s).unwrap();
        assert_eq!(parse("ctrl-o"), Key::ctrl('o'));
        assert_eq!(parse("Ctrl-O"), Key::ctrl('o'));
        assert_eq!(parse("ctrl-shift-o"), Key::ctrl('o'));
        assert_eq!(parse("alt-r"), Key::alt('r'));
        assert_eq!(
            parse("ctrl-alt-x"),
            Key::ctrl('x').with(KeyModifiers::CONTROL | KeyModifiers::ALT)
        );
        assert_eq!(parse("f2"), Key::plain(KeyCode::F(2)));
        assert_eq!(parse("shift-f3"), Key::shift(KeyCode::F(3)));
        assert_eq!(parse("enter"), Key::plain(KeyCode::Enter));
        assert_eq!(parse("Esc"), Key::plain(KeyCode::Esc));
        assert_eq!(parse("pgdn"), Key::plain(KeyCode::PageDown));
        assert_eq!(parse("shift-up"), Key::shift(KeyCode::Up));
        assert_eq!(parse("shift-tab"), Key::plain(KeyCode::BackTab));
        assert_eq!(parse("space"), Key::char(' '));
        assert_eq!(parse("?"), Key::char('?'));
        assert_eq!(parse("-"), Key::char('-'));
        assert_eq!(parse("alt--"), Key::alt('-'));
        assert_eq!(parse("G"), Key::char('G'));
        assert_eq!(parse("shift-g"), Key::char('G'));
        assert_eq!(parse("alt-G"), Key::alt('g'));
        for bad in [
            "", "ctrl-", "hyper-x", "f13", "f0", "enterr", "shift-/", "\u{1b}", "ctrl-xy",
        ] {
            let err = Key::parse(bad).unwrap_err();
            assert!(err.starts_with("key `"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn a_press_is_taken_as_the_table_writes_it() {
        let press = |code, mods| normalized(KeyEvent::new(code, mods));
        assert_eq!(
            press(
                KeyCode::Char('C'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            ),
            Key::ctrl('c')
        );
        assert_eq!(press(KeyCode::Char('A'), KeyModifiers::ALT), Key::alt('a'));
        assert_eq!(
            press(KeyCode::Char('N'), KeyModifiers::SHIFT),
            Key::char('N')
        );
        assert_eq!(
            press(KeyCode::BackTab, KeyModifiers::SHIFT),
            Key::plain(KeyCode::BackTab)
        );
        assert_eq!(
            press(KeyCode::Up, KeyModifiers::SHIFT | KeyModifiers::SUPER),
            Key::shift(KeyCode::Up)
        );
        let q = Key::char('?').on_empty_query();
        assert!(q.is(Key::char('?'), true));
        assert!(!q.is(Key::char('?'), false));
    }
}
