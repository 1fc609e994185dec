//! [`App::update`]: a user action routed to the sub-state it concerns, and what follows from it
//! in the others (a new query searches, a new selection is shown in the pane).

use super::types::{Effect, Outcome, Pick, Reselect, SearchMode};
use super::{geometry, App};
use crate::tui::action::{Action, Focus};

impl App {
    /// Apply one user action.
    pub fn update(&mut self, action: Action) -> Effect {
        if !matches!(action, Action::Resize(..) | Action::Wheel { .. }) {
            self.screen.clear_flash();
        }
        if !matches!(action, Action::Resize(..)) && self.screen.close_help() {
            // The key that closes the help does nothing else, unless it asks for something.
            if matches!(action, Action::ToggleHelp | Action::Escape) {
                return Effect::None;
            }
        }
        if let Some(effect) = self.usage_action(&action) {
            return effect;
        }
        if let Some(effect) = self.dialog_first(&action) {
            return effect;
        }
        if let Some(effect) = self.act(&action) {
            return effect;
        }
        if self.list.edit(&action) {
            if self.list.enforce_cap() {
                self.screen.notify(format!(
                    "the query is cut to its first {} characters",
                    super::list::MAX_QUERY_CHARS
                ));
            }
            self.query_changed();
            return Effect::None;
        }
        if let Some(to) = self.list.target(&action, self.screen.list_height()) {
            self.select(to);
            return Effect::None;
        }
        if let Some(effect) = self.conversation_action(&action) {
            return effect;
        }
        match action {
            Action::FocusConversation => self.focus(Focus::Conversation),
            Action::FocusList => self.focus(Focus::List),
            Action::Accept => return self.accept(self.handoff.enter),
            Action::ExecSelected => return self.accept(Pick::Exec),
            Action::Escape => return self.escape(),
            Action::Quit => return Effect::Quit(Outcome::Cancelled),
            Action::ToggleScope
            | Action::ToggleSort
            | Action::ToggleExec
            | Action::ToggleArchived => self.toggle_filter(&action),
            Action::ToggleContent => self.toggle_content(),
            Action::ToggleHelp => self.screen.open_help(),
            Action::CopyId | Action::CopyCommand => return self.copy(&action),
            Action::Suspend => return Effect::Suspend,
            Action::Repaint => return Effect::Repaint,
            Action::Reread => {
                self.outbox.reread = true;
                self.screen.notify("reading the store again");
            }
            Action::Resize(area) => {
                self.screen.resize(area);
                self.relayout();
            }
            Action::Click(..) | Action::Wheel { .. } => self.mouse(&action),
            // Query edits, list moves and the conversation's own, taken above.
            _ => {}
        }
        Effect::None
    }

    /// What the conversation pane does with `action` (scrolling, what it shows, jumps, find,
    /// copying and exporting); `None` when the action is not the pane's.
    fn conversation_action(&mut self, action: &Action) -> Option<Effect> {
        let pane_height = self.screen.pane_height();
        match *action {
            Action::Scroll(n) => self.scroll_by(i64::from(n)),
            Action::PageConversation(dir) => {
                let page = pane_height.saturating_sub(2).max(1) as i64;
                self.scroll_by(page * i64::from(dir.signum()));
            }
            Action::HalfPageConversation(dir) => {
                let half = (pane_height / 2).max(1) as i64;
                self.scroll_by(half * i64::from(dir.signum()));
            }
            Action::ToggleTools => {
                let ctx = self.pane_context();
                self.pane
                    .toggle_tools(self.list.selected_row(&self.rows), &ctx);
            }
            Action::ToggleReasoning => {
                let ctx = self.pane_context();
                let row = self.list.selected_row(&self.rows);
                let said = self.pane.toggle_reasoning(row, &ctx);
                self.screen.notify(said);
            }
            Action::Expand { all } => {
                let ctx = self.pane_context();
                let row = self.list.selected_row(&self.rows);
                let said = self.pane.toggle_expand(row, &ctx, all);
                self.screen.notify(said);
            }
            Action::Jump { step, prompts } => {
                if let Some(said) = self.pane.jump_entry(step, prompts, pane_height) {
                    self.screen.notify(said);
                }
            }
            Action::PaneEnd(last) => self.pane.to_end(last, pane_height),
            Action::FindStart => {
                self.pane.find_start();
                self.screen
                    .notify("find: type, Enter keeps the matches (n / N), Esc drops them");
            }
            Action::FindKey(c) => {
                self.pane.find_edit(c, pane_height);
                let said = self.pane.find().position();
                self.screen.notify(format!("find: {said}"));
            }
            Action::FindEnd(keep) => {
                if let Some(said) = self.pane.find_end(keep) {
                    self.screen.notify(said);
                }
            }
            Action::JumpHit(step) => {
                let ctx = self.pane_context();
                let said = self.pane.jump_hit(step, &ctx);
                self.screen.notify(said);
            }
            Action::CopyMessage => return Some(self.copy_message()),
            Action::Export => return Some(self.export()),
            _ => return None,
        }
        Some(Effect::None)
    }

    pub(super) fn focus(&mut self, focus: Focus) {
        self.screen.focus_on(focus);
        self.relayout();
    }

    /// Esc leaves the conversation first, then clears the query, then cancels.
    fn escape(&mut self) -> Effect {
        if self.screen.focus() == Focus::Conversation {
            self.focus(Focus::List);
        } else if self.list.edit(&Action::ClearQuery) {
            self.query_changed();
        } else {
            return Effect::Quit(Outcome::Cancelled);
        }
        Effect::None
    }

    fn accept(&mut self, pick: Pick) -> Effect {
        let Some(row) = self.selected_row() else {
            self.screen.notify("no session selected");
            return Effect::None;
        };
        Effect::Quit(match pick {
            Pick::Id => Outcome::Print(row.id.clone()),
            Pick::Command => Outcome::Print(self.handoff.resume_command(row)),
            Pick::Exec => Outcome::Exec(self.handoff.launch(row, false, false)),
        })
    }

    fn copy(&self, action: &Action) -> Effect {
        let Some(row) = self.selected_row() else {
            return Effect::None;
        };
        if *action == Action::CopyCommand {
            let what = if super::pane::folder_missing(row) {
                "resume command (its folder no longer exists: the cd will fail)"
            } else {
                "resume command"
            };
            Effect::Copy {
                text: self.handoff.resume_command(row),
                what: what.into(),
            }
        } else {
            Effect::Copy {
                text: row.id.clone(),
                what: "session id".into(),
            }
        }
    }

    /// The message at the top of the conversation, as written.
    fn copy_message(&mut self) -> Effect {
        match self.pane.message_at_top() {
            Some(crate::rollout::transcript::Entry::Message { text, .. }) => Effect::Copy {
                text: crate::sanitize::for_terminal(text),
                what: "message".into(),
            },
            _ => {
                self.screen
                    .notify("no message to copy (is the conversation read yet?)");
                Effect::None
            }
        }
    }

    /// The conversation shown, as Markdown, for a new file (tool calls when they are shown).
    fn export(&mut self) -> Effect {
        let (Some(row), Some(read)) = (self.selected_row(), self.pane.transcript()) else {
            self.screen
                .notify("no conversation to export (is it read yet?)");
            return Effect::None;
        };
        let Ok(transcript) = read.as_ref() else {
            self.screen.notify("this conversation could not be read");
            return Effect::None;
        };
        let mut text = Vec::new();
        let tools = self.pane.view().tools;
        if crate::export::write_markdown(&mut text, row, transcript, tools).is_err() {
            return Effect::None;
        }
        let short: String = row
            .id
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(8)
            .collect();
        Effect::Write {
            name: format!("codex-session-{short}.md"),
            text: String::from_utf8_lossy(&text).into_owned(),
        }
    }

    /// Tab, Ctrl+S, Ctrl+E, Ctrl+A: the list is shown again from the top.
    fn toggle_filter(&mut self, action: &Action) {
        match action {
            Action::ToggleScope => {
                if !self.filters.toggle_scope() {
                    self.screen.notify("no current folder to scope to");
                    return;
                }
            }
            Action::ToggleSort => {
                self.list.toggle_order();
                self.request_search();
            }
            Action::ToggleExec => self.filters.toggle_exec(),
            Action::ToggleArchived => self.filters.toggle_archived(),
            _ => return,
        }
        self.refilter(Reselect::Top);
    }

    /// Ctrl+F: the other search mode (a leading `/` is dropped: back to fuzzy search).
    fn toggle_content(&mut self) {
        let mode = if self.list.drop_content_prefix() {
            SearchMode::Fuzzy
        } else {
            match self.searches.mode() {
                SearchMode::Fuzzy => SearchMode::Content,
                SearchMode::Content => SearchMode::Fuzzy,
            }
        };
        self.searches.set_mode(mode);
        self.searches.forget_answers();
        self.pane.invalidate();
        self.query_changed();
        self.rebuild_pane();
    }

    fn mouse(&mut self, action: &Action) {
        let at = self.screen.geometry();
        match *action {
            Action::Click(col, row) if geometry::contains(at.list, col, row) => {
                // Wide, the layout is the same whichever pane has the focus; narrow, the list
                // is on screen only when it has it: the layout does not change.
                self.screen.focus_on(Focus::List);
                let i = self.list.offset() + usize::from(row - at.list.y);
                if i < self.list.visible().len() {
                    self.select(i);
                }
            }
            Action::Wheel { col, row, down } => {
                let step = if down { 3 } else { -3 };
                if geometry::contains(at.conversation, col, row) {
                    self.scroll_by(step);
                } else if geometry::contains(at.list, col, row) {
                    let to = (self.list.selected() as i64 + step).max(0);
                    self.select(usize::try_from(to).unwrap_or(0));
                }
            }
            _ => {}
        }
    }
}
