//! The list's scope: the sessions of the current folder's repository, or every folder. Owns the
//! rule that a folder without a session so far shows every folder while the index is built.

use std::path::Path;

use super::{App, Scope};
use crate::session::SessionRow;

impl App {
    /// The scope the list shows: the folder scope shows every folder while the folder has no
    /// session so far, unless the user chose the folder scope.
    pub fn effective_scope(&self) -> Scope {
        match self.scope {
            Scope::Folder if !self.folder_seen && !self.scope_chosen => Scope::All,
            scope => scope,
        }
    }

    /// The folder scope is waiting for a first session of the folder (every folder shown).
    pub fn scope_provisional(&self) -> bool {
        self.scope == Scope::Folder && self.effective_scope() == Scope::All
    }

    /// Note rows that arrived: the first one of the current folder makes the folder scope
    /// apply.
    pub(super) fn note_scope(&mut self, rows: &[SessionRow]) {
        if !self.folder_seen {
            let root = self.opts.scope_root.as_deref();
            self.folder_seen = rows.iter().any(|r| in_scope(r, root));
        }
    }
}

/// A row belongs to the folder scope when its cwd is `root` or below it.
pub fn in_scope(row: &SessionRow, root: Option<&str>) -> bool {
    match (root, row.cwd.as_deref()) {
        (Some(root), Some(cwd)) => crate::session::cwd_within(cwd, Path::new(root)),
        (None, _) => true,
        _ => false,
    }
}
