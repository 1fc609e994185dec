//! Sessions another codex has open, in the picker's state: the locks as last read (the event
//! loop reads them, once a second and again just before an action, and hands them over with
//! [`App::apply_locks`]); the holder of a row, for its mark and its header; and the question
//! asked before resuming, forking or archiving such a session ("open in another codex (pid
//! N): resume anyway? y/n"), whose `y` takes the action after all. A delete is asked about
//! anyway: its question names the holder.

use std::path::Path;

use super::types::Effect;
use super::App;
use crate::session::SessionRow;
use crate::store::locks::{Holder, Snapshot};
use crate::tui::action::Action;

impl App {
    /// The thread locks as just read; whether anything shown changed.
    pub fn apply_locks(&mut self, locks: Snapshot) -> bool {
        if self.locks.as_ref() == Some(&locks) {
            return false;
        }
        let before = self.selected_holder();
        self.locks = Some(locks);
        if self.selected_holder() != before {
            let ctx = self.pane_context();
            self.pane
                .header_changed(self.list.selected_row(&self.rows), &ctx);
        }
        true
    }

    /// Who has the session `row` open, when another process does.
    pub fn holder_of(&self, row: &SessionRow) -> Option<Holder> {
        self.locks.as_ref()?.holder(&row.id)
    }

    /// Why which sessions are open elsewhere is not shown, if it is not.
    pub fn locks_not_shown(&self) -> Option<&str> {
        match self.locks.as_ref()? {
            Snapshot::NotShown(why) => Some(why),
            Snapshot::Shown(_) => None,
        }
    }

    pub(super) fn selected_holder(&self) -> Option<Holder> {
        self.holder_of(self.selected_row()?)
    }

    /// Whether `action` may resume, fork, archive or delete the selected session (the thread
    /// locks are read again just before it).
    pub fn acts_on_session(action: &Action) -> bool {
        matches!(
            action,
            Action::Accept
                | Action::ExecSelected
                | Action::ResumeHere
                | Action::Fork
                | Action::Archive
                | Action::Delete
                | Action::MenuPick(_)
        )
    }

    /// Before an action that resumes, forks or archives the selected session: when another
    /// codex has it open, ask first (`Some`: the action ends there). Enter asks too, whatever
    /// it hands back: the id it prints is for `codex resume`.
    pub(super) fn ask_if_open(&mut self, action: &Action) -> Option<Effect> {
        // Delete asks its own question, which names the holder; the menu asks for its item.
        let asks = Self::acts_on_session(action)
            && !matches!(action, Action::Delete | Action::MenuPick(_));
        if !asks || self.asked_already || self.actions.dialog().is_some() {
            return None;
        }
        let row = self.selected_row()?;
        let holder = self.holder_of(row)?;
        let path = row.path.clone();
        self.actions.ask_open(path, holder, action.clone());
        Some(Effect::None)
    }

    /// The answer to "open elsewhere: `then` anyway?": `y` takes the action on the session
    /// asked about, when it is still the one selected.
    pub(super) fn answer_open(&mut self, yes: bool, path: &Path, then: Action) -> Effect {
        let verb = self.verb_of(&then);
        if !yes {
            self.screen.notify(format!("not {}", past(verb)));
            return Effect::None;
        }
        if self.selected_row().map(|r| r.path.as_path()) != Some(path) {
            self.screen
                .notify("the session asked about is no longer selected: nothing done");
            return Effect::None;
        }
        // The dialog is closed: the action goes through without asking again.
        self.update_unasked(then)
    }

    /// What `action` does to the selected session, as a verb: "resume", "fork", "archive",
    /// "unarchive".
    pub fn verb_of(&self, action: &Action) -> &'static str {
        match action {
            Action::Fork => "fork",
            Action::Archive if self.selected_row().is_some_and(|r| r.archived) => "unarchive",
            Action::Archive => "archive",
            _ => "resume",
        }
    }

    /// Apply `action` without the question about a session open elsewhere.
    fn update_unasked(&mut self, action: Action) -> Effect {
        self.asked_already = true;
        let effect = self.update(action);
        self.asked_already = false;
        effect
    }
}

/// "resumed", "forked", "archived", "unarchived".
fn past(verb: &str) -> &'static str {
    match verb {
        "fork" => "forked",
        "archive" => "archived",
        "unarchive" => "unarchived",
        _ => "resumed",
    }
}
