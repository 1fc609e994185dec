//! Renaming a session (F2, or `n` in the menu) as transitions of [`App`]: an input box opens
//! with the session's current name; typing, a paste, Backspace, Ctrl+W and Ctrl+U edit it as
//! they edit the query; Enter asks codex's app-server to set it (through the store-change
//! thread, like archive and delete), Esc leaves the name as it was. When codex has set it, the
//! row and the header show the name codex stored; when it could not, codex's reason is in the
//! status line and nothing changes.

use std::path::Path;

use super::action_state::Dialog;
use super::types::Effect;
use super::{list, App};
use crate::codex::Change;
use crate::tui::action::Action;
use crate::workers::search;

impl App {
    /// Open the rename box for the selected session.
    pub(super) fn start_rename(&mut self) {
        let Some(row) = self.selected_row() else {
            self.screen.notify("no session selected");
            return;
        };
        let (id, path) = (row.id.clone(), row.path.clone());
        let current = row.name.clone().unwrap_or_default();
        if !self.refuse_while_running() {
            self.actions.start_rename(id, path, &current);
        }
    }

    /// An action while the rename box is open: line edits go to the name, Enter sets it, Esc
    /// closes the box; a resize or Ctrl+C goes on; anything else is ignored.
    pub(super) fn rename_input(&mut self, action: &Action) -> Option<Effect> {
        match action {
            Action::Resize(..) | Action::Quit => return None,
            Action::Accept => self.submit_rename(),
            Action::Escape | Action::CloseDialog => {
                self.actions.close();
                self.screen.notify("name unchanged");
            }
            edit => {
                let cut = self.actions.edit_name(|name| {
                    list::edit_line(name, edit);
                });
                if cut {
                    self.screen.notify(format!(
                        "a name keeps its first {} characters",
                        super::action_state::MAX_NAME_CHARS
                    ));
                }
            }
        }
        Some(Effect::None)
    }

    /// Enter in the rename box: ask codex to set the name typed, unless it is the name the
    /// session has.
    fn submit_rename(&mut self) {
        let Some(Dialog::Rename { id, path, name }) = self.actions.close() else {
            return;
        };
        let current = self.row_at(&path).and_then(|r| r.name.as_deref());
        if current.unwrap_or("").trim() == name.trim() && !name.trim().is_empty() {
            self.screen.notify("name unchanged");
            return;
        }
        // An empty name goes to codex too: its answer says what it makes of one.
        self.start_change(Change::Rename(name), id, path);
    }

    /// codex named the session of `path` `name`: its row, the search's copy of it and the
    /// header show it (the list is filtered again by the caller).
    pub(super) fn renamed(&mut self, path: &Path, name: String) {
        let Some(i) = self.rows.rename(path, name) else {
            return;
        };
        let row = std::sync::Arc::clone(&self.rows.all()[i]);
        self.outbox
            .search
            .push(search::Request::Note(search::Note::ReplaceRow(i, row)));
        if self.selected_row().is_some_and(|r| r.path == path) {
            let ctx = self.pane_context();
            self.pane
                .header_changed(self.list.selected_row(&self.rows), &ctx);
        }
    }
}
