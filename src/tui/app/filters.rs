//! Which sessions the list shows: the scope (the current folder's repository, or every folder)
//! and the exec and archived filters. Owns the rule that a folder without a session so far shows
//! every folder while the index is built, and counts what each filter hides.

use std::path::Path;

use super::types::{Hidden, Options, Scope};
use crate::session::SessionRow;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct Filters {
    /// The current folder's repository root (or the folder); `None` disables the folder scope.
    root: Option<String>,
    scope: Scope,
    /// The user chose the scope (`--all` or Tab): it is kept whatever the rows.
    scope_chosen: bool,
    /// A row of the current folder has been seen. Until one is (and unless the user chose a
    /// scope), the folder scope shows every folder: while indexing, an empty list would hide
    /// sessions already read for no reason.
    folder_seen: bool,
    show_exec: bool,
    show_archived: bool,
}

impl Filters {
    pub fn new(opts: &Options) -> Filters {
        Filters {
            root: opts.scope_root.clone(),
            scope: if opts.all || opts.scope_root.is_none() {
                Scope::All
            } else {
                Scope::Folder
            },
            scope_chosen: opts.all,
            folder_seen: false,
            show_exec: !opts.hide_exec,
            show_archived: opts.show_archived,
        }
    }

    /// The scope asked for (see [`Filters::effective_scope`] for the one shown).
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// The folder the folder scope is.
    pub fn root(&self) -> Option<&str> {
        self.root.as_deref()
    }

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
    pub fn note(&mut self, rows: &[Arc<SessionRow>]) {
        if !self.folder_seen {
            let root = self.root.as_deref();
            self.folder_seen = rows.iter().any(|r| in_scope(r, root));
        }
    }

    /// The index is complete: a folder scope still waiting for the folder's first session
    /// gives way to every folder. Whether it did.
    pub fn settle_scope(&mut self) -> bool {
        if !self.scope_provisional() {
            return false;
        }
        self.scope = Scope::All;
        true
    }

    /// Tab: the other scope than the one shown, chosen from now on. False when there is no
    /// current folder to scope to.
    pub fn toggle_scope(&mut self) -> bool {
        let shown = self.effective_scope();
        self.scope_chosen = true;
        if self.root.is_none() {
            return false;
        }
        self.scope = match shown {
            Scope::Folder => Scope::All,
            Scope::All => Scope::Folder,
        };
        true
    }

    /// Exec sessions are listed.
    pub fn show_exec(&self) -> bool {
        self.show_exec
    }

    pub fn toggle_exec(&mut self) {
        self.show_exec = !self.show_exec;
    }

    /// Archived sessions are listed.
    pub fn show_archived(&self) -> bool {
        self.show_archived
    }

    pub fn toggle_archived(&mut self) {
        self.show_archived = !self.show_archived;
    }

    /// Whether `row` passes the filters; when not, it is counted in `hidden` under the first
    /// filter that hides it.
    pub fn keeps(&self, row: &SessionRow, hidden: &mut Hidden) -> bool {
        if self.effective_scope() == Scope::Folder && !in_scope(row, self.root.as_deref()) {
            hidden.scope += 1;
            false
        } else if !row.interactive && !self.show_exec {
            hidden.exec += 1;
            false
        } else if row.archived && !self.show_archived {
            hidden.archived += 1;
            false
        } else {
            true
        }
    }
}

/// A row belongs to the folder scope when its cwd is `root` or below it.
pub fn in_scope(row: &SessionRow, root: Option<&str>) -> bool {
    match (root, row.meta.cwd.as_deref()) {
        (Some(root), Some(cwd)) => crate::session::cwd_within(cwd, Path::new(root)),
        (None, _) => true,
        _ => false,
    }
}
