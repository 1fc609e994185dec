//! The usage screen's keys in the app: Alt+U opens it on the rows held (with the system's
//! local zone, the app's one reading of the system here), its own keys move it, and Enter goes
//! to a session in the list, clearing the query and widening the filters that hide it.

use super::types::Effect;
use super::usage_screen::UsageScreen;
use crate::tui::action::{Action, UsageKey};
use crate::usage::zone::{Local, Zone};

impl super::App {
    /// What the usage screen does with `action`: opening it, and while it is open its own
    /// keys (the key table sends nothing else there but a resize and Ctrl+C).
    pub(super) fn usage_action(&mut self, action: &Action) -> Option<Effect> {
        let key = match action {
            Action::OpenUsage if self.usage.is_none() => {
                let mut zone = Local::new();
                let today = zone.day(self.screen.now());
                let rows = self.rows.all();
                let screen = UsageScreen::open(rows, today, &mut zone, &self.prices);
                self.usage = Some((screen, zone));
                return Some(Effect::None);
            }
            Action::OpenUsage => UsageKey::Close,
            Action::Usage(key) => *key,
            _ => return None,
        };
        let (screen, zone) = self.usage.as_mut()?;
        match key {
            UsageKey::Step(n) => screen.step(n),
            UsageKey::Move(n) => screen.move_cursor(n),
            UsageKey::Regroup => screen.next_grouping(zone, &self.prices),
            UsageKey::Close => self.usage = None,
            UsageKey::Jump => {
                let row = screen.session_row().cloned();
                if let Some(row) = row {
                    self.usage = None;
                    self.go_to(&row.id);
                }
            }
        }
        Some(Effect::None)
    }

    /// Select the session `id` in the list: the query, scope and filters that hide it are
    /// cleared, shown or widened first, and the status line says which.
    fn go_to(&mut self, id: &str) {
        if self.position_of(id).is_none() {
            self.reveal(id);
        }
        match self.position_of(id) {
            Some(at) => {
                self.focus(crate::tui::action::Focus::List);
                self.select(at);
            }
            None => self.screen.notify("that session is no longer in the store"),
        }
    }

    /// Where the session `id` is in the list shown.
    fn position_of(&self, id: &str) -> Option<usize> {
        let all = self.rows.all();
        self.list
            .visible()
            .iter()
            .position(|&i| all.get(i).is_some_and(|r| r.id == id))
    }

    /// Show the session `id` in the list: clear the query, and widen each filter hiding it.
    fn reveal(&mut self, id: &str) {
        let Some(row) = self.rows.all().iter().find(|r| r.id == id).cloned() else {
            return;
        };
        let mut done = Vec::new();
        if !self.list.query().is_empty() {
            self.list.edit(&Action::ClearQuery);
            self.list.reparse(self.screen.now());
            self.searches.query_emptied();
            done.push("query cleared");
        }
        let scoped = self.filters.effective_scope() == super::Scope::Folder;
        if scoped && !super::in_scope(&row, self.filters.root()) && self.filters.toggle_scope() {
            done.push("every folder");
        }
        if !row.interactive && !self.filters.show_exec() {
            self.filters.toggle_exec();
            done.push("exec sessions shown");
        }
        if row.archived && !self.filters.show_archived() {
            self.filters.toggle_archived();
            done.push("archived sessions shown");
        }
        self.refilter(super::Reselect::Top);
        if !done.is_empty() {
            self.screen
                .notify(format!("to show it: {}", done.join(", ")));
        }
    }
}
