//! Background messages routed to the sub-states: indexer events (rows streaming in, changed and
//! vanished files, progress, the content index), search answers (fuzzy and content) and
//! transcripts. Pure, like the rest of `app`.

use super::{App, Freshness, Reselect};
use crate::rollout::transcript::Transcript;
use crate::search::fulltext::ContentHit;
use crate::session::SessionRow;
use crate::workers::conversation_reader::ReadError;
use crate::workers::indexer::Event;
use crate::workers::search::Request;
use std::sync::Arc;

/// A query this long at least is looked for in the conversations when no title holds it.
const FALLBACK_MIN_CHARS: usize = 3;
/// Title matches looked at for one that holds the query's words as written.
const FALLBACK_LOOK: usize = 50;

impl App {
    /// An indexer event.
    pub fn apply_index(&mut self, event: Event) {
        self.index.apply(&event);
        match event {
            // A later run's cached rows, sent before it walks, are what the list has: taking
            // them would bring back, until the walk says they are gone, sessions deleted or
            // moved since the cache was written.
            Event::Rows(_) if self.index.rerun_before_walk() => {}
            // Rows of a later run (the store read again) may be known already.
            Event::Rows(rows) | Event::Updated(rows) => self.take_rows(rows),
            Event::Removed(paths) => {
                if let Some(row) = self.selected_row().filter(|r| paths.contains(&r.path)) {
                    let title = super::session_actions::short_title(row.title());
                    self.screen
                        .notify(format!("“{title}” is gone: its file was deleted"));
                }
                self.rows.remove(&paths);
                self.rows_changed();
            }
            Event::Found { .. }
            | Event::Issue(_)
            | Event::Progress { .. }
            | Event::ContentProgress { .. } => {}
            // A filter or sort on what sessions changed and used may keep more rows now.
            Event::Whole => self.rows_changed(),
            Event::Finished { .. } => {
                self.rows.run_ended();
                if self.filters.settle_scope() {
                    let root = self.filters.root().unwrap_or("");
                    self.screen.notify(format!(
                        "no sessions in {}: showing every folder",
                        crate::sanitize::one_line(root)
                    ));
                    self.refilter(Reselect::Keep);
                }
                // A query that fell back to the conversations while rows were still coming
                // in may have a title match now: its title search runs again, once.
                if self.searches.fell_back() {
                    self.searches.end_fallback();
                    self.request_search();
                }
            }
            Event::ContentReady(index) => {
                self.outbox
                    .search
                    .push(Request::ContentIndex(index.clone()));
                self.searches.set_index(index);
                // A content query runs (again) on what is indexed now; so does a title query,
                // which may now be looked for in the conversations.
                if !self.list.parsed().is_empty() {
                    self.request_search();
                }
                self.pane.invalidate();
                self.rebuild_pane();
            }
        }
    }

    /// Rows from the indexer: new ones are added (the search worker prepares their haystacks,
    /// off this thread), known ones replace theirs; a session whose file changed is read again
    /// for the pane.
    fn take_rows(&mut self, rows: Vec<Arc<SessionRow>>) {
        self.filters.note(&rows);
        let (new, replaced) = self.rows.upsert(rows);
        if !new.is_empty() {
            self.outbox.search.push(Request::AddRows(new));
        }
        for &(i, changed) in &replaced {
            let row = &self.rows.all()[i];
            if changed {
                self.pane.outdated(&row.id);
            }
            self.outbox
                .search
                .push(Request::ReplaceRow(i, Arc::clone(row)));
        }
        if !replaced.is_empty() {
            self.pane.invalidate();
        }
        self.rows_changed();
        self.want_transcript();
    }

    /// While the first index streams in, a selection still on the top row (with no query)
    /// follows the top, as rows do not arrive in order; afterwards, or once the user has moved,
    /// the selected session is kept wherever it goes.
    pub fn follows_top(&self) -> bool {
        !self.index.finished() && self.list.selected() == 0 && self.list.parsed().is_empty()
    }

    fn rows_changed(&mut self) {
        if self.list.parsed().is_empty() {
            let reselect = if self.follows_top() {
                Reselect::Top
            } else {
                Reselect::Keep
            };
            self.refilter(reselect);
        } else {
            self.request_search();
        }
    }

    /// A fuzzy search answer; stale generations are dropped. When it matches nothing, the
    /// conversations are searched for the same words.
    pub fn apply_search(&mut self, gen: u64, ranked: Vec<usize>) {
        if self.content_mode() || self.list.parsed().is_empty() {
            return;
        }
        let Some(fresh) = self.searches.take_ranked(gen, ranked) else {
            return;
        };
        let ranked = self.searches.matches().unwrap_or_default();
        let weak = !self.any_holds_the_words(ranked);
        // One search box: words that no title holds as written are looked for in the
        // conversations (the fuzzy matches come back if no conversation holds them either).
        if weak && self.searches.index().is_some() && self.searches.fall_back() {
            self.request_search();
            return;
        }
        self.refilter(self.reselect_for(fresh));
    }

    /// Whether one of the best `ranked` rows holds every word of a plain query as written
    /// (title, folder, branch or id, any case, as [`holds_words`] says). Queries in fzf's extended syntax, and short
    /// ones, are taken as meant for the titles.
    fn any_holds_the_words(&self, ranked: &[usize]) -> bool {
        let text = self.list.words().trim();
        if text.chars().count() < FALLBACK_MIN_CHARS || text.contains(['\'', '^', '!', '$', '|']) {
            return true;
        }
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        let rows = self.rows.all();
        ranked
            .iter()
            .take(FALLBACK_LOOK)
            .filter_map(|&i| rows.get(i))
            .any(|row| {
                let hay = [
                    row.title(),
                    row.cwd.as_deref().unwrap_or(""),
                    row.git_branch.as_deref().unwrap_or(""),
                    &row.id,
                ]
                .join(" ")
                .to_lowercase();
                holds_words(&hay, &words)
            })
    }

    /// A content search answer: the matching sessions, best first, with their snippets.
    pub fn apply_content(&mut self, gen: u64, hits: Vec<ContentHit>) {
        if !self.content_mode() || self.list.parsed().is_empty() {
            return;
        }
        if hits.is_empty() && self.searches.fell_back() {
            // No conversation holds the words either: the title matches, such as they are.
            self.searches.fallback_found_nothing();
            self.request_search();
            return;
        }
        let rows = &self.rows;
        let Some(fresh) = self
            .searches
            .take_content(gen, hits, |path| rows.index_of(path))
        else {
            return;
        };
        self.pane.invalidate();
        self.refilter(self.reselect_for(fresh));
    }

    /// Rows streaming in under the same query keep the selection; a new query starts on top.
    fn reselect_for(&self, fresh: Freshness) -> Reselect {
        if fresh == Freshness::Repeated || self.list.selected() > 0 {
            Reselect::Keep
        } else {
            Reselect::Top
        }
    }

    /// A transcript the worker read for session `id`; kept in the cache even when the user has
    /// moved on. Whatever its generation: transcripts are kept by session, so a late one is not
    /// stale.
    pub fn apply_transcript(&mut self, id: String, result: Result<Transcript, ReadError>) {
        let ctx = self.pane_context();
        let row = self.list.selected_row(&self.rows);
        // The pane shows the reason in place of the conversation.
        self.pane.loaded(id, result, row, &ctx);
    }
}

/// Whether `hay` holds every one of `words` as a whole word, the last one (perhaps still being
/// typed) at least as the start of a word: `load` is not held by `upload`, so a title that only
/// holds the letters inside longer words does not keep the conversations from being searched.
fn holds_words(hay: &str, words: &[String]) -> bool {
    let last = words.len().saturating_sub(1);
    words
        .iter()
        .enumerate()
        .all(|(n, w)| holds_word(hay, w, n == last))
}

/// Whether `hay` holds `word` with no letter or digit just before it, nor, unless it may be
/// the start of a word (`prefix`), just after it.
fn holds_word(hay: &str, word: &str, prefix: bool) -> bool {
    let is_word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    !word.is_empty()
        && hay.match_indices(word).any(|(at, _)| {
            let before = hay[..at].chars().next_back();
            let after = hay[at + word.len()..].chars().next();
            !is_word_char(before) && (prefix || !is_word_char(after))
        })
}

#[cfg(test)]
mod tests {
    use super::holds_words;

    fn holds(hay: &str, query: &str) -> bool {
        let words: Vec<String> = query.split_whitespace().map(str::to_owned).collect();
        holds_words(hay, &words)
    }

    #[test]
    fn words_are_held_whole_and_the_last_as_a_word_start() {
        assert!(holds("fix the upload retry", "upload retry"));
        assert!(
            holds("fix the upload retry", "retry upl"),
            "the last word is being typed"
        );
        assert!(holds("/home/me/src/acme-api", "acme-api"));
        assert!(
            !holds("fix the upload retry", "load"),
            "inside a longer word"
        );
        assert!(
            !holds("fix the upload retry", "upl retry"),
            "only the last may be a prefix"
        );
        assert!(!holds("the tui loads", "tui load x"));
        assert!(!holds("a client", "lie"));
    }
}
