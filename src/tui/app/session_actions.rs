//! The session actions as transitions of [`App`]: the menu (Ctrl+X), archive and unarchive
//! (Alt+A), delete after a question (Alt+D), fork (Alt+F), resume here and rename (F2, in
//! `rename`), each asked about first when another codex has the session open (in
//! `open_elsewhere`), and what follows when codex has made a change: the list follows the
//! session (an archived one leaves the list or stays marked, a deleted one vanishes, a renamed
//! one shows its new name), the selection goes to a neighbour, and the status line says what
//! happened, or codex's own reason when it failed (nothing changes then).

use super::action_state::{Actions, Dialog, Item, Running};
use super::types::{Effect, Outcome, Reselect};
use super::App;
use crate::codex::Change;
use crate::tui::action::Action;
use crate::workers::changes::{After, Done, Request};
use crate::workers::search;

impl App {
    /// The action menu, the delete question and the change codex is making.
    pub fn actions(&self) -> &Actions {
        &self.actions
    }

    /// The user and assistant messages of `row`: from the index, else from its conversation
    /// when the pane has read it.
    pub fn message_counts(&self, row: &crate::session::SessionRow) -> Option<(u32, u32)> {
        match (row.user_messages, row.assistant_messages) {
            (Some(u), Some(a)) => Some((u, a)),
            _ => self.pane.counts_of(&row.id),
        }
    }

    /// With a menu or a question open, what an action does to it first: `Some` when the
    /// action ends there. A question is answered by its own keys only: anything else that
    /// reaches it (a paste) cancels it; a menu closes before a key that is not its own.
    pub(super) fn dialog_first(&mut self, action: &Action) -> Option<Effect> {
        let dialog = self.actions.dialog()?;
        if matches!(dialog, Dialog::Rename { .. }) {
            return self.rename_input(action);
        }
        match action {
            Action::MenuMove(_)
            | Action::MenuPick(_)
            | Action::CloseDialog
            | Action::Confirm(_)
            | Action::Resize(..)
            | Action::Quit => None,
            Action::Click(..) | Action::Wheel { .. } => Some(Effect::None),
            _ if dialog.is_question() => {
                self.confirm(false);
                Some(Effect::None)
            }
            _ => {
                self.actions.close();
                None
            }
        }
    }

    /// The actions' own transitions; `None` for other actions.
    pub(super) fn act(&mut self, action: &Action) -> Option<Effect> {
        if let Some(why) = self.unavailable(action) {
            self.screen.notify(why);
            return Some(Effect::None);
        }
        if let Some(effect) = self.ask_if_open(action) {
            return Some(effect);
        }
        match *action {
            Action::OpenMenu => {
                if self.selected_row().is_some() {
                    self.actions.open_menu();
                } else {
                    self.screen.notify("no session selected");
                }
            }
            Action::MenuMove(by) => self.actions.move_cursor(by),
            Action::MenuPick(letter) => {
                if let Some(item) = self.actions.pick(letter) {
                    return Some(self.update(item.action()));
                }
            }
            Action::CloseDialog => {
                if self.actions.dialog().is_some_and(Dialog::is_question) {
                    self.confirm(false);
                } else {
                    self.actions.close();
                }
            }
            Action::Confirm(yes) => return Some(self.confirm(yes)),
            Action::Archive => self.archive(),
            Action::Delete => self.ask_delete(),
            Action::Rename => self.start_rename(),
            Action::Fork => return Some(self.launch(true, false)),
            Action::ResumeHere => return Some(self.launch(false, true)),
            _ => return None,
        }
        Some(Effect::None)
    }

    /// Why `action` cannot be done to the selected session, when its agent has no command
    /// for it.
    fn unavailable(&self, action: &Action) -> Option<&'static str> {
        let source = self.selected_row()?.source;
        Item::of_action(action)?.unavailable(source)
    }

    fn archive(&mut self) {
        let Some(row) = self.selected_row() else {
            self.screen.notify("no session selected");
            return;
        };
        let change = if row.archived {
            Change::Unarchive
        } else {
            Change::Archive
        };
        let (id, path) = (row.id.clone(), row.path.clone());
        self.start_change(change, id, path);
    }

    fn ask_delete(&mut self) {
        let Some(row) = self.selected_row() else {
            self.screen.notify("no session selected");
            return;
        };
        let (id, path) = (row.id.clone(), row.path.clone());
        if !self.refuse_while_running() {
            self.actions.ask_delete(id, path);
        }
    }

    /// The answer to the question asked: `y` deletes the session asked about, or takes the
    /// action asked about on a session open elsewhere.
    fn confirm(&mut self, yes: bool) -> Effect {
        match self.actions.close() {
            Some(Dialog::ConfirmDelete { id, path }) if yes => {
                self.start_change(Change::Delete, id, path);
            }
            Some(Dialog::ConfirmDelete { .. }) => self.screen.notify("not deleted"),
            Some(Dialog::ConfirmOpen { path, then, .. }) => {
                return self.answer_open(yes, &path, then)
            }
            _ => {}
        }
        Effect::None
    }

    /// One change at a time: say so when codex is still making one.
    pub(super) fn refuse_while_running(&mut self) -> bool {
        let Some(r) = self.actions.running() else {
            return false;
        };
        let said = format!(
            "codex is still {} “{}”: one change at a time",
            r.change.doing(),
            r.title
        );
        self.screen.notify(said);
        true
    }

    /// Ask codex to make `change` to the session of `path`.
    pub(super) fn start_change(&mut self, change: Change, id: String, path: std::path::PathBuf) {
        if self.refuse_while_running() {
            return;
        }
        let title = self
            .row_at(&path)
            .map_or_else(|| id.clone(), |row| short_title(row.title()));
        self.outbox.changes.push(Request {
            change: change.clone(),
            id: id.clone(),
            path,
        });
        self.actions.start(Running { change, id, title });
    }

    /// Fork or resume the selected session.
    fn launch(&mut self, fork: bool, here: bool) -> Effect {
        match self.selected_row() {
            Some(row) => Effect::Quit(Outcome::Exec(self.handoff.launch(row, fork, here))),
            None => {
                self.screen.notify("no session selected");
                Effect::None
            }
        }
    }

    /// codex is done with a change: the list follows the session, or nothing changes and the
    /// status line says why.
    pub fn apply_change(&mut self, done: Done) {
        let running = self.actions.finish();
        let title = running.map_or_else(|| done.request.id.clone(), |r| r.title);
        let req = done.request;
        let after = match done.result {
            Ok(after) => after,
            Err(why) => {
                self.screen.notify(why.to_string());
                return;
            }
        };
        // A run that walked before the file moved would bring the session back where it was.
        if self.index.run_going() && !matches!(after, After::Named(_)) {
            self.rows.left_behind(&req.path);
        }
        let said = match after {
            After::Named(name) => {
                self.renamed(&req.path, name.clone());
                format!("renamed “{title}” to “{}”", short_title(&name))
            }
            After::Moved(to) => {
                if let Some(i) = self
                    .rows
                    .relocate(&req.path, to, req.change == Change::Archive)
                {
                    let row = std::sync::Arc::clone(&self.rows.all()[i]);
                    self.outbox
                        .search
                        .push(search::Request::Note(search::Note::ReplaceRow(i, row)));
                }
                let hint = if req.change == Change::Archive && !self.filters.show_archived() {
                    let key = self.keys.key_of(&Action::ToggleArchived);
                    format!(" ({key} shows archived sessions)")
                } else {
                    String::new()
                };
                format!("{} “{title}”{hint}", req.change.done())
            }
            After::Gone => {
                self.rows.remove(std::slice::from_ref(&req.path));
                format!("deleted “{title}”")
            }
            After::Lost => {
                self.rows.remove(std::slice::from_ref(&req.path));
                format!(
                    "{} “{title}”, but its file is not where codex keeps it: restart to see it",
                    req.change.done()
                )
            }
        };
        self.refilter(Reselect::Keep);
        self.screen.notify(said);
    }
}

/// A title short enough to quote in the status line.
pub(super) fn short_title(title: &str) -> String {
    crate::textwidth::truncate(&crate::sanitize::one_line(title), 40)
}
