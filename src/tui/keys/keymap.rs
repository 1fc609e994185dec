//! The key table as the picker uses it: the defaults ([`ROWS`]) with the config file's `[keys]`
//! applied, and what is made from it once (the lookup from a press to its command, the two
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
use super::table::{Command, Hint, Section, NAMES, ROWS};
use crate::config::KeyBindings;

/// One command and its keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyBind {
    pub command: Command,
    /// Its keys, as the help names them (the first one in the footer and the menu).
    pub keys: Vec<Key>,
    /// Other ways terminals send the same keys: they work, and are not named.
    pub also: Vec<Key>,
    pub hint: Option<Hint>,
}

/// One line of the help (and of the README's table of its section).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRow {
    pub section: Section,
    pub binds: Vec<KeyBind>,
    /// Shown instead of key names for a row that is not keys (`typing`, `mouse`, filters).
    pub text: Option<&'static str>,
    pub help: &'static str,
    /// The row explains the query's syntax (the help under the list only).
    pub syntax: bool,
}

impl KeyRow {
    /// The row's keys as the help and the README name them: a command's keys joined by `, `,
    /// commands by ` / `; `(none)` for a command left without keys.
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

/// Where a press is looked up: its table, code and modifiers.
type Lookup = HashMap<(Section, KeyCode, KeyModifiers), (Key, Command)>;

/// The keys in effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    rows: Vec<KeyRow>,
    lookup: Lookup,
    /// Under the list, and while reading the conversation.
    footers: [String; 2],
}

/// A `[keys]` line that cannot be taken: where it is in the file (bytes) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeymapError {
    pub at: usize,
    pub reason: String,
}

impl Default for Keymap {
    /// The key table's own keys.
    fn default() -> Keymap {
        Keymap::from_rows(default_rows())
    }
}

impl Keymap {
    /// The key table with the file's `[keys]` applied, or the first line that cannot be.
    pub fn new(bindings: &KeyBindings) -> Result<Keymap, KeymapError> {
        let mut rows = default_rows();
        // The commands given keys by the file, with where their line is.
        let mut given: HashMap<(Section, Command), usize> = HashMap::new();
        for b in &bindings.0 {
            let section = if b.conversation {
                Section::Conversation
            } else {
                Section::List
            };
            let fail = |reason: String| KeymapError {
                at: b.span.start,
                reason,
            };
            let command = Command::named(&b.action)
                .filter(|c| has(&rows, section, *c))
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
            if command == Command::Quit && keys.is_empty() {
                return Err(fail(
                    "quit needs a key: it is how the picker is left".to_owned(),
                ));
            }
            for bind in binds_mut(&mut rows, section, command) {
                bind.keys.clone_from(&keys);
                bind.also.clear();
            }
            given.insert((section, command), b.span.start);
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
                        .or_insert((*key, bind.command));
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

    /// The name of `command`'s first key, for a hint in a sentence (`Ctrl+F`); the keys that
    /// work everywhere first; `no key` when the file left it none.
    pub fn key_of(&self, command: Command) -> String {
        [Section::List, Section::Conversation]
            .into_iter()
            .flat_map(|section| self.binds(section))
            .find(|b| b.command == command && !b.keys.is_empty())
            .and_then(|b| b.keys.first())
            .map_or_else(|| "no key".to_owned(), Key::label)
    }

    /// The command `press` is bound to in `section`.
    pub fn bound(&self, press: Key, section: Section, query_empty: bool) -> Option<Command> {
        self.lookup
            .get(&(section, press.code, press.mods))
            .filter(|(key, _)| key.is(press, query_empty))
            .map(|&(_, command)| command)
    }

    /// The footer of `section`: the hints of its commands (the conversation's own first), the
    /// first key of each, neighbours with the same text as one (`↑ ↓ move`).
    pub fn footer(&self, section: Section) -> &str {
        match section {
            Section::List => &self.footers[0],
            Section::Conversation => &self.footers[1],
        }
    }
}

/// The key table's rows, owned.
fn default_rows() -> Vec<KeyRow> {
    ROWS.iter()
        .map(|r| KeyRow {
            section: r.section,
            binds: r
                .binds
                .iter()
                .map(|b| KeyBind {
                    command: b.command,
                    keys: b.keys.to_vec(),
                    also: b.also.to_vec(),
                    hint: b.hint,
                })
                .collect(),
            text: r.text,
            help: r.help,
            syntax: r.syntax,
        })
        .collect()
}

fn binds(rows: &[KeyRow], section: Section) -> impl Iterator<Item = &KeyBind> {
    rows.iter()
        .filter(move |r| r.section == section)
        .flat_map(|r| &r.binds)
}

fn binds_mut(
    rows: &mut [KeyRow],
    section: Section,
    command: Command,
) -> impl Iterator<Item = &mut KeyBind> {
    rows.iter_mut()
        .filter(move |r| r.section == section)
        .flat_map(|r| &mut r.binds)
        .filter(move |b| b.command == command)
}

fn has(rows: &[KeyRow], section: Section, command: Command) -> bool {
    binds(rows, section).any(|b| b.command == command)
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
    if Command::named(name).is_some_and(|c| has(rows, other, c)) {
        return format!(
            "`{shown}` is an action of {}, not of {}",
            table_name(other),
            table_name(section)
        );
    }
    let mut names: Vec<&str> = NAMES
        .iter()
        .filter(|(c, _)| has(rows, section, *c))
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
/// command.
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

/// No key gives two commands in one table once the file's keys are in; the error is on the
/// line of the later of the file's lines involved.
fn check_clashes(
    rows: &[KeyRow],
    given: &HashMap<(Section, Command), usize>,
) -> Result<(), KeymapError> {
    for section in [Section::List, Section::Conversation] {
        let keys: Vec<(Key, Command)> = binds(rows, section)
            .flat_map(|b| b.keys.iter().chain(&b.also).map(|k| (*k, b.command)))
            .collect();
        for (i, (a, ca)) in keys.iter().enumerate() {
            for (b, cb) in &keys[i + 1..] {
                if !same(a, b) || ca == cb {
                    continue;
                }
                let (la, lb) = (given.get(&(section, *ca)), given.get(&(section, *cb)));
                let Some(at) = la.max(lb).copied() else {
                    continue;
                };
                let how = |c: &Command, line: Option<&usize>| match line {
                    Some(_) => c.name().to_owned(),
                    None => format!("{} (its default)", c.name()),
                };
                let (first, second) = if la >= lb { (ca, cb) } else { (cb, ca) };
                let (lf, ls) = (
                    given.get(&(section, *first)),
                    given.get(&(section, *second)),
                );
                return Err(KeymapError {
                    at,
                    reason: format!(
                        "{} would give both {} and {} in {}: give {} other keys too",
                        a.label(),
                        how(first, lf),
                        how(second, ls),
                        table_name(section),
                        second.name()
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
