//! Content-search hits in the conversation pane: which lines hold one, opening a session at its
//! first hit and jumping between hits with `n` / `N`.

use super::App;

impl App {
    /// The terms a content search looks for (lowercase).
    pub(super) fn search_terms(&self) -> Vec<String> {
        self.search_text()
            .split_whitespace()
            .map(str::to_lowercase)
            .collect()
    }

    /// Open the pane at the first hit of the content search; false when there is none.
    pub(super) fn jump_to_first_hit(&mut self) -> bool {
        if self.pane_hits.is_empty() {
            return false;
        }
        self.hit_cursor = 0;
        self.show_line(self.pane_hits[0]);
        true
    }

    pub(super) fn jump_hit(&mut self, forward: bool) {
        let n = self.pane_hits.len();
        if n == 0 {
            let why = if self.content_mode() {
                "no match in this conversation"
            } else {
                "n / N jump between matches of a content search (Ctrl+F)"
            };
            self.screen.notify(why);
            return;
        }
        self.hit_cursor = if forward {
            (self.hit_cursor + 1) % n
        } else {
            (self.hit_cursor + n - 1) % n
        };
        self.show_line(self.pane_hits[self.hit_cursor]);
        self.screen
            .notify(format!("match {} of {n}", self.hit_cursor + 1));
    }

    /// Scroll so `line` sits a few lines below the top of the pane.
    fn show_line(&mut self, line: usize) {
        self.scroll = line.saturating_sub(3);
        self.scroll_by(0);
    }
}
