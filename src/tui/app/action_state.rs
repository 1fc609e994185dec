//! What can be done with a session beyond picking it, as state: the action menu (Ctrl+X) and
//! its cursor, the questions asked before acting (delete; resume, fork or archive a session
//! another codex has open) and the session each is about, the name being typed for a rename,
//! and the one change codex is making for the picker. The menu's items and their letters are
//! one table ([`MENU`]), which the menu draws beside each item's direct key from the key table.

use std::path::PathBuf;

use crate::codex::Change;
use crate::sources::Source;
use crate::store::locks::Holder;
use crate::tui::action::Action;

/// The longest name a rename takes, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// One thing the menu offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    ResumeInFolder,
    ResumeHere,
    Fork,
    CopyId,
    CopyCommand,
    Export,
    /// Archive, or unarchive an archived session.
    Archive,
    Rename,
    Delete,
}

/// A menu line: the item and the letter that takes it in the menu (its key elsewhere is the
/// key table's).
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub item: Item,
    pub letter: char,
}

/// The menu, in the order drawn.
pub const MENU: &[Entry] = &[
    Entry {
        item: Item::ResumeInFolder,
        letter: 'o',
    },
    Entry {
        item: Item::ResumeHere,
        letter: 'h',
    },
    Entry {
        item: Item::Fork,
        letter: 'f',
    },
    Entry {
        item: Item::CopyId,
        letter: 'i',
    },
    Entry {
        item: Item::CopyCommand,
        letter: 'c',
    },
    Entry {
        item: Item::Export,
        letter: 'x',
    },
    Entry {
        item: Item::Archive,
        letter: 'a',
    },
    Entry {
        item: Item::Rename,
        letter: 'n',
    },
    Entry {
        item: Item::Delete,
        letter: 'd',
    },
];

impl Item {
    /// What the menu says it does (`archived`: the selected session is archived).
    pub fn label(self, archived: bool) -> &'static str {
        match self {
            Item::ResumeInFolder => "resume in its folder",
            Item::ResumeHere => "resume here, in the current folder",
            Item::Fork => "fork into a new session, in its folder",
            Item::CopyId => "copy the session id",
            Item::CopyCommand => "copy the resume command",
            Item::Export => "export the conversation to Markdown",
            Item::Archive if archived => "unarchive",
            Item::Archive => "archive",
            Item::Rename => "rename (through codex)",
            Item::Delete => "delete for good (asks first)",
        }
    }

    /// Why the item cannot be done to a session of `source`, when it cannot: Claude Code has
    /// no command that archives, renames or deletes a session (and the picker never changes a
    /// store itself), and resumes a session only from its own folder.
    pub fn unavailable(self, source: Source) -> Option<&'static str> {
        match (source, self) {
            (Source::Claude, Item::Archive) => Some("Claude Code has no command to archive"),
            (Source::Claude, Item::Rename) => Some("rename it with /rename in Claude Code"),
            (Source::Claude, Item::Delete) => Some("Claude Code has no command to delete"),
            (Source::Claude, Item::ResumeHere) => {
                Some("Claude Code resumes a session only in its own folder")
            }
            _ => None,
        }
    }

    /// The item an action is, among those that may be unavailable.
    pub fn of_action(action: &Action) -> Option<Item> {
        match action {
            Action::Archive => Some(Item::Archive),
            Action::Rename => Some(Item::Rename),
            Action::Delete => Some(Item::Delete),
            Action::ResumeHere => Some(Item::ResumeHere),
            _ => None,
        }
    }

    /// The item in a word or two, before why it cannot be done.
    pub fn short(self) -> &'static str {
        match self {
            Item::ResumeInFolder => "resume",
            Item::ResumeHere => "resume here",
            Item::Fork => "fork",
            Item::CopyId => "copy the id",
            Item::CopyCommand => "copy the command",
            Item::Export => "export",
            Item::Archive => "archive",
            Item::Rename => "rename",
            Item::Delete => "delete",
        }
    }

    /// The action the item takes.
    pub fn action(self) -> Action {
        match self {
            Item::ResumeInFolder => Action::ExecSelected,
            Item::ResumeHere => Action::ResumeHere,
            Item::Fork => Action::Fork,
            Item::CopyId => Action::CopyId,
            Item::CopyCommand => Action::CopyCommand,
            Item::Export => Action::Export,
            Item::Archive => Action::Archive,
            Item::Rename => Action::Rename,
            Item::Delete => Action::Delete,
        }
    }
}

/// What is on top of the list, taking the keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    Menu {
        cursor: usize,
    },
    /// Delete this session? (kept by id: rows may move under the question)
    ConfirmDelete {
        id: String,
        path: PathBuf,
    },
    /// Another codex has this session open: take `then` anyway?
    ConfirmOpen {
        path: PathBuf,
        holder: Holder,
        then: Action,
    },
    /// The session's new name, being typed (it starts as the current one).
    Rename {
        id: String,
        path: PathBuf,
        name: String,
    },
}

impl Dialog {
    /// A question answered by `y` or any other key.
    pub fn is_question(&self) -> bool {
        matches!(
            self,
            Dialog::ConfirmDelete { .. } | Dialog::ConfirmOpen { .. }
        )
    }
}

/// A change codex is making.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    pub change: Change,
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, Default)]
pub struct Actions {
    dialog: Option<Dialog>,
    running: Option<Running>,
}

impl Actions {
    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    /// The change codex is making, if any.
    pub fn running(&self) -> Option<&Running> {
        self.running.as_ref()
    }

    pub fn open_menu(&mut self) {
        self.dialog = Some(Dialog::Menu { cursor: 0 });
    }

    pub fn ask_delete(&mut self, id: String, path: PathBuf) {
        self.dialog = Some(Dialog::ConfirmDelete { id, path });
    }

    /// Ask before `then`: `holder` has the session of `path` open.
    pub fn ask_open(&mut self, path: PathBuf, holder: Holder, then: Action) {
        self.dialog = Some(Dialog::ConfirmOpen { path, holder, then });
    }

    /// Start typing a new name for a session, from its current one (cut to
    /// [`MAX_NAME_CHARS`]).
    pub fn start_rename(&mut self, id: String, path: PathBuf, current: &str) {
        let name = current.chars().take(MAX_NAME_CHARS).collect();
        self.dialog = Some(Dialog::Rename { id, path, name });
    }

    /// Edit the name being typed with `f`, then cut it to [`MAX_NAME_CHARS`]; whether it was
    /// cut.
    pub fn edit_name(&mut self, f: impl FnOnce(&mut String)) -> bool {
        let Some(Dialog::Rename { name, .. }) = &mut self.dialog else {
            return false;
        };
        f(name);
        match name.char_indices().nth(MAX_NAME_CHARS) {
            Some((at, _)) => {
                name.truncate(at);
                true
            }
            None => false,
        }
    }

    /// Close whatever is open; what it was.
    pub fn close(&mut self) -> Option<Dialog> {
        self.dialog.take()
    }

    /// Move the menu's cursor, wrapping around.
    pub fn move_cursor(&mut self, by: i32) {
        if let Some(Dialog::Menu { cursor }) = &mut self.dialog {
            let n = MENU.len() as i64;
            *cursor = (*cursor as i64 + i64::from(by)).rem_euclid(n) as usize;
        }
    }

    /// The item a menu pick takes (the cursor's, or the letter's); the menu closes when one
    /// is taken.
    pub fn pick(&mut self, letter: Option<char>) -> Option<Item> {
        let Some(Dialog::Menu { cursor }) = self.dialog else {
            return None;
        };
        let entry = match letter {
            None => MENU.get(cursor),
            Some(c) => MENU.iter().find(|e| e.letter == c),
        }?;
        self.dialog = None;
        Some(entry.item)
    }

    /// codex has been asked to make `running`.
    pub fn start(&mut self, running: Running) {
        self.running = Some(running);
    }

    /// codex is done; the change it was making.
    pub fn finish(&mut self) -> Option<Running> {
        self.running.take()
    }
}
