//! The key table as the picker uses it: the defaults ([`table::defaults`]) with the config file's `[keys]`
//! applied, and what is made from it once (the lookup from a press to its action, the two
//! footers). Dispatch, the help overlay, the footer and the action menu's key names all read
//! one [`Keymap`], so a key given in the file is the key everywhere.
//!
//! A line of `[keys]` gives an action its keys instead of its defaults (`[]`: none, except
//! `quit`, which the picker cannot be left without). Each name must be an action of its table
//! (`[keys]`: the keys that work everywhere; `[keys.conversation]`: the conversation's own),
//! each key one [`Key::parse`] reads, and no key may then give two actions in one table. A
//! printable key under `[keys]` works only while the query is empty, as `?` does (typed after
//! anything else, it is searched for). The other spellings terminals send for a default key
//! (Ctrl+H for Ctrl+Backspace) go with it when its action is given other keys, and give way to
//! a key the file names.

use std::collections::HashMap;

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::key::Key;
use super::table::{self, KeyBind, KeyRow, Section};
use crate::config::KeyBindings;
use crate::tui::action::{Action, NAMES};

/// Where a press is looked up: its table, code and modifiers.
type Lookup = HashMap<(Section, KeyCode, KeyModifiers), (Key, Action)>;

/// The keys in effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    rows: Vec<KeyRow>,
    lookup: Lookup,
    /// Under the list, and while reading the conversation.
    footers: [String; 2],
}

/// A `[keys]` line that cannot be taken: its line in the config file (1-based) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeymapError {
    pub line: usize,
    pub reason: String,
}

impl Default for Keymap {
    /// The key table's own keys.
    fn default() -> Keymap {
        Keymap::from_rows(table::defaults())
    }
}

impl Keymap {
    /// The key table with the file's `[keys]` applied, or the first line that cannot be.
    pub fn new(bindings: &KeyBindings) -> Result<Keymap, KeymapError> {
        let mut rows = table::defaults();
        // The actions given keys by the file, with their line.
        let mut given: Given = Vec::new();
        for b in &bindings.0 {
            let section = if b.conversation {
                Section::Conversation
            } else {
                Section::List
            };
            let fail = |reason: String| KeymapError {
                line: b.line,
                reason,
            };
            let action = Action::named(&b.action)
                .filter(|a| has(&rows, section, a))
                .ok_or_else(|| fail(unknown_action(&b.action, section, &rows)))?;
            let mut keys: Vec<Key> = Vec::new();
            for text in &b.keys {
                let key = Key::parse(text).map_err(&fail)?;
                let key = match key.code {
                    KeyCode::Char(_) if key.mods.is_empty() && section == Section::List => {
                        key.on_empty_query()
                    }
                    _ => key,
                };
                if !keys.iter().any(|k| same(k, &key)) {
                    keys.push(key);
                }
            }
            if action == Action::Quit && keys.is_empty() {
                return Err(fail(
                    "quit needs a key: it is how the picker is left".to_owned(),
                ));
            }
            for bind in binds_mut(&mut rows, section, &action) {
                bind.keys.clone_from(&keys);
                bind.also.clear();
            }
            given.push((section, action, b.line));
        }
        give_way(&mut rows);
        check_clashes(&rows, &given)?;
        Ok(Keymap::from_rows(rows))
    }

    fn from_rows(rows: Vec<KeyRow>) -> Keymap {
        let mut lookup = Lookup::new();
        for row in &rows {
            for bind in &row.binds {
                for key in bind.keys.iter().chain(&bind.also) {
                    lookup
                        .entry((row.section, key.code, key.mods))
                        .or_insert((*key, bind.action.clone()));
                }
            }
        }
        let footers = [
            footer_of(&rows, Section::List),
            footer_of(&rows, Section::Conversation),
        ];
        Keymap {
            rows,
            lookup,
            footers,
        }
    }

    /// Every row, in the help's order.
    pub fn rows(&self) -> &[KeyRow] {
        &self.rows
    }

    /// Every bind of `section`'s rows, in the table's order.
    pub fn binds(&self, section: Section) -> impl Iterator<Item = &KeyBind> {
        binds(&self.rows, section)
    }

    /// The name of `action`'s first key, for a hint in a sentence (`Ctrl+F`); the keys that
    /// work everywhere first; `no key` when the file left it none.
    pub fn key_of(&self, action: &Action) -> String {
        [Section::List, Section::Conversation]
            .into_iter()
            .flat_map(|section| self.binds(section))
            .find(|b| b.action == *action && !b.keys.is_empty())
            .and_then(|b| b.keys.first())
            .map_or_else(|| "no key".to_owned(), Key::label)
    }

    /// The action `press` is bound to in `section`.
    pub fn bound(&self, press: Key, section: Section, query_empty: bool) -> Option<&Action> {
        self.lookup
            .get(&(section, press.code, press.mods))
            .filter(|(key, _)| key.is(press, query_empty))
            .map(|(_, action)| action)
    }

    /// The footer of `section`: the hints of its actions (the conversation's own first), the
    /// first key of each, neighbours with the same text as one (`↑ ↓ move`).
    pub fn footer(&self, section: Section) -> &str {
        match section {
            Section::List => &self.footers[0],
            Section::Conversation => &self.footers[1],
        }
    }
}

fn binds(rows: &[KeyRow], section: Section) -> impl Iterator<Item = &KeyBind> {
    rows.iter()
        .filter(move |r| r.section == section)
        .flat_map(|r| &r.binds)
}

fn binds_mut<'a>(
    rows: &'a mut [KeyRow],
    section: Section,
    action: &'a Action,
) -> impl Iterator<Item = &'a mut KeyBind> {
    rows.iter_mut()
        .filter(move |r| r.section == section)
        .flat_map(|r| &mut r.binds)
        .filter(move |b| b.action == *action)
}

fn has(rows: &[KeyRow], section: Section, action: &Action) -> bool {
    binds(rows, section).any(|b| b.action == *action)
}

/// An action's name in the config file (every action of the table has one).
fn name(action: &Action) -> &'static str {
    action.name().unwrap_or_default()
}

/// The same key press (the empty-query condition aside).
fn same(a: &Key, b: &Key) -> bool {
    a.code == b.code && a.mods == b.mods
}

fn table_name(section: Section) -> &'static str {
    match section {
        Section::List => "[keys]",
        Section::Conversation => "[keys.conversation]",
    }
}

/// Why `name` is not an action of `section`'s table: the other table's, or none.
fn unknown_action(name: &str, section: Section, rows: &[KeyRow]) -> String {
    let shown = crate::sanitize::one_line(name);
    let other = match section {
        Section::List => Section::Conversation,
        Section::Conversation => Section::List,
    };
    if Action::named(name).is_some_and(|a| has(rows, other, &a)) {
        return format!(
            "`{shown}` is an action of {}, not of {}",
            table_name(other),
            table_name(section)
        );
    }
    let mut names: Vec<&str> = NAMES
        .iter()
        .filter(|(a, _)| has(rows, section, a))
        .map(|(_, n)| *n)
        .collect();
    names.dedup();
    format!(
        "unknown action `{shown}` in {}, expected one of {}",
        table_name(section),
        names.join(", ")
    )
}

/// The unnamed spellings of a key drop out where the file names the same key for another
/// action.
fn give_way(rows: &mut [KeyRow]) {
    for section in [Section::List, Section::Conversation] {
        let named: Vec<Key> = binds(rows, section)
            .flat_map(|b| b.keys.iter().copied())
            .collect();
        for row in rows.iter_mut().filter(|r| r.section == section) {
            for bind in &mut row.binds {
                bind.also.retain(|a| !named.iter().any(|k| same(k, a)));
            }
        }
    }
}

/// The actions the file gives keys, each in its table, with the line that gives them.
type Given = Vec<(Section, Action, usize)>;

/// The line of the file that gives `action` its keys in `section`, if one does.
fn line_giving(given: &Given, section: Section, action: &Action) -> Option<usize> {
    given
        .iter()
        .rev()
        .find(|(s, a, _)| *s == section && a == action)
        .map(|&(_, _, line)| line)
}

/// No key gives two actions in one table once the file's keys are in; the error is on the
/// line of the later of the file's lines involved.
fn check_clashes(rows: &[KeyRow], given: &Given) -> Result<(), KeymapError> {
    for section in [Section::List, Section::Conversation] {
        let keys: Vec<(Key, &Action)> = binds(rows, section)
            .flat_map(|b| b.keys.iter().chain(&b.also).map(move |k| (*k, &b.action)))
            .collect();
        for (i, (a, ca)) in keys.iter().enumerate() {
            for (b, cb) in &keys[i + 1..] {
                if !same(a, b) || ca == cb {
                    continue;
                }
                let line = |action: &Action| line_giving(given, section, action);
                let (la, lb) = (line(ca), line(cb));
                let Some(at) = la.max(lb) else {
                    continue;
                };
                let how = |action: &Action| match line(action) {
                    Some(_) => name(action).to_owned(),
                    None => format!("{} (its default)", name(action)),
                };
                let (first, second) = if la >= lb { (ca, cb) } else { (cb, ca) };
                return Err(KeymapError {
                    line: at,
                    reason: format!(
                        "{} would give both {} and {} in {}: give {} other keys too",
                        a.label(),
                        how(first),
                        how(second),
                        table_name(section),
                        name(second)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The footer of `section` (see [`Keymap::footer`]).
fn footer_of(rows: &[KeyRow], section: Section) -> String {
    let order = match section {
        Section::List => [Section::List, Section::Conversation],
        Section::Conversation => [Section::Conversation, Section::List],
    };
    let mut hints: Vec<(Vec<String>, &str)> = Vec::new();
    for bind in order.into_iter().flat_map(|s| binds(rows, s)) {
        let Some(text) = bind.hint.and_then(|h| h.text(section)) else {
            continue;
        };
        let Some(first) = bind.keys.first() else {
            continue;
        };
        match hints.last_mut() {
            Some((keys, last)) if *last == text => keys.push(first.label()),
            _ => hints.push((vec![first.label()], text)),
        }
    }
    hints
        .iter()
        .map(|(keys, text)| format!("{} {text}", keys.join(" ")))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Why the `[keys]` of a config file's text cannot be taken, and on which line.
    fn error(text: &str) -> (usize, String) {
        let file = crate::config::parse(text).expect("the file reads");
        let e = Keymap::new(&file.keys.expect("a [keys] table")).expect_err("a bad line");
        (e.line, e.reason)
    }

    #[test]
    fn a_keys_line_that_cannot_be_taken_names_its_line() {
        let (line, why) = error("theme = \"light\"\n\n[keys]\ncopy-id = \"alt-c\"\nfly = \"f2\"\n");
        assert_eq!(line, 5);
        assert!(
            why.starts_with("unknown action `fly` in [keys], expected one of pick,"),
            "{why}"
        );
        let (line, why) = error("[keys]\ncopy-id = \"ctrl-shift-banana\"\n");
        assert_eq!(line, 2);
        assert!(
            why.starts_with("key `ctrl-shift-banana`: unknown key name"),
            "{why}"
        );
        let (line, why) = error("[keys]\n\ncopy-id = \"ctrl-o\"\n");
        assert_eq!(line, 3);
        assert_eq!(
            why,
            "Ctrl+O would give both copy-id and resume-in-folder (its default) in [keys]: \
             give resume-in-folder other keys too"
        );
        let (line, why) = error("[keys]\ncopy-id = \"f5\"\nquit = [\"ctrl-q\", \"f5\"]\n");
        assert_eq!(line, 3);
        assert!(
            why.starts_with("F5 would give both quit and copy-id in [keys]"),
            "{why}"
        );
        let (line, why) = error("[keys]\nscroll-up = \"k\"\n");
        assert_eq!(line, 2);
        assert_eq!(
            why,
            "`scroll-up` is an action of [keys.conversation], not of [keys]"
        );
        let (line, why) = error("[keys.conversation]\nexport = \"]\"\n");
        assert_eq!(line, 2);
        assert!(
            why.starts_with("] would give both export and next-message (its default)"),
            "{why}"
        );
        let (line, why) = error("[keys]\nquit = []\n");
        assert_eq!(line, 2);
        assert!(why.starts_with("quit needs a key"), "{why}");
    }
}
