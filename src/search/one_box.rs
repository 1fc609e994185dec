//! The picker's one search box: what is typed is matched against the titles and the
//! conversations together, and the answers are merged into one ranked list:
//!
//! 1. rows whose own words (title, folder, branch, id) hold the typed words together: whole
//!    words, in order, side by side ([`holds_together`]), in the title search's order;
//! 2. sessions whose conversation holds every word as typed, in the content search's order
//!    (words in one message, then spread over several; first prompt above later prompts above
//!    replies);
//! 3. rows whose own words hold the typed words together, the last only as the start of a
//!    longer word (it may still be being typed);
//! 4. the other sessions whose conversation holds the words (some only in another form, as a
//!    prefix or with a typo);
//! 5. the rest of the title search's matches: letters found scattered, or only inside longer
//!    words.
//!
//! Whole words first, as in the conversations: `rand` lists the titles and conversations that
//! hold `rand` before the titles that hold only `random`.
//!
//! Queries in fzf's extended syntax, and very short ones, are meant for the titles: they are
//! not looked for in the conversations ([`wants_conversations`]). Pure: rows come in as
//! indices and closures.

/// A query this long at least is also looked for in the conversations.
const MIN_CHARS: usize = 3;
/// Between the fields of a title haystack: words do not stand together across it.
const FIELD_END: char = super::title::SEP;

/// Where the one box found a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// The row's own words hold the typed words together.
    Words,
    /// Its conversation holds the words.
    Conversation,
    /// The title search matched its letters only.
    Letters,
}

/// Whether `query` (the words typed, filters taken out) is also looked for in the
/// conversations: plain words of [`MIN_CHARS`] or more, none of them an fzf operator (as the
/// title search reads them: `'` `^` `!` before a word, `$` after it, `|` between words).
pub(crate) fn wants_conversations(query: &str) -> bool {
    let text = query.trim();
    text.chars().count() >= MIN_CHARS && super::title::parse(text).is_plain()
}

/// The words of `query` as [`holds_together`] takes them.
pub(crate) fn words(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).collect()
}

/// How a row's own words hold the typed words together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fit {
    /// Every word whole.
    Whole,
    /// The last word only as the start of a longer one (it may still be being typed):
    /// `task 41` in `task 4106`, below `task 41` itself.
    Started,
}

/// How `hay` (lowercase) holds `words` together ([`holds_together`]), if it does.
pub(crate) fn fit(hay: &str, words: &[String]) -> Option<Fit> {
    if holds_together(hay, words, false) {
        Some(Fit::Whole)
    } else {
        holds_together(hay, words, true).then_some(Fit::Started)
    }
}

/// The title search's rows for the one box: first the `whole` rows whose own words hold the
/// typed words whole, then up to `held` those holding the last only started, then the rest;
/// each part in the title search's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Titles {
    pub rows: Vec<usize>,
    pub whole: usize,
    pub held: usize,
}

impl Titles {
    /// Rows in the title search's order, none holding the typed words together.
    pub fn in_order(rows: Vec<usize>) -> Titles {
        Titles {
            rows,
            whole: 0,
            held: 0,
        }
    }
}

/// The title search's `ranked` rows with those whose own words hold the typed words together
/// moved to the front (whole words before a last word only started), each part in its order.
pub(crate) fn words_first(ranked: Vec<usize>, fit: impl Fn(usize) -> Option<Fit>) -> Titles {
    let mut keyed: Vec<(Option<Fit>, usize)> = ranked.into_iter().map(|i| (fit(i), i)).collect();
    // A stable sort: the rows not held after every fit, the title order kept within each.
    keyed.sort_by_key(|&(f, _)| f.map_or(2, |f| f as u8));
    let whole = keyed.iter().filter(|(f, _)| *f == Some(Fit::Whole)).count();
    let held = keyed.iter().filter(|(f, _)| f.is_some()).count();
    Titles {
        rows: keyed.into_iter().map(|(_, i)| i).collect(),
        whole,
        held,
    }
}

/// One ranked list from the title search's rows (`titles`) and the content search's
/// conversations holding every word as typed (`typed`) and the others (`other`), each best
/// first, in the order of this module's doc. Each row appears once, at its best place.
pub(crate) fn merge(titles: &Titles, typed: &[usize], other: &[usize]) -> Vec<(usize, Found)> {
    let rows = &titles.rows;
    let held = titles.held.min(rows.len());
    let whole = titles.whole.min(held);
    let mut seen = std::collections::HashSet::with_capacity(held + typed.len() + other.len());
    let mut out = Vec::with_capacity(rows.len() + typed.len() + other.len());
    let tiers = [
        (&rows[..whole], Found::Words),
        (typed, Found::Conversation),
        (&rows[whole..held], Found::Words),
        (other, Found::Conversation),
        (&rows[held..], Found::Letters),
    ];
    for (rows, found) in tiers {
        for &i in rows {
            if seen.insert(i) {
                out.push((i, found));
            }
        }
    }
    out
}

/// Whether `hay` (lowercase) holds `words` (lowercase) together: each a whole word, in the
/// order typed, one right after the other (only spaces or punctuation between them, within
/// one field), the last one, when `open_end` (it may still be being typed), at least as the
/// start of a word. `load` is not held by `upload`, and `fix parser` is not held by `fix the
/// parser`.
pub(crate) fn holds_together(hay: &str, words: &[String], open_end: bool) -> bool {
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    hay.match_indices(first.as_str()).any(|(at, _)| {
        let Some(mut end) = word_at(hay, at, first, open_end && rest.is_empty()) else {
            return false;
        };
        for (n, word) in rest.iter().enumerate() {
            let gap = hay[end..]
                .find(|c: char| c.is_alphanumeric() || c == FIELD_END)
                .map_or(hay.len(), |g| end + g);
            match word_at(hay, gap, word, open_end && n + 1 == rest.len()) {
                Some(next) if gap > end => end = next,
                _ => return false,
            }
        }
        true
    })
}

/// Where `word` ends when it stands at byte `at` of `hay` as a word: no letter or digit just
/// before it, nor, unless it may be the start of a word (`prefix`), just after it.
fn word_at(hay: &str, at: usize, word: &str, prefix: bool) -> Option<usize> {
    let is_word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let end = at + word.len();
    let fits = !word.is_empty()
        && hay.get(at..end) == Some(word)
        && !is_word_char(hay[..at].chars().next_back())
        && (prefix || !is_word_char(hay[end..].chars().next()));
    fits.then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(hay: &str, query: &str) -> bool {
        holds_together(hay, &words(query), true)
    }

    #[test]
    fn words_are_held_whole_together_in_order_and_the_last_as_a_word_start() {
        assert!(holds("fix the upload retry", "upload retry"));
        assert!(
            holds("fix the upload, retry it", "upload retry"),
            "punctuation between"
        );
        assert!(
            holds("fix the upload retry", "upload ret"),
            "the last word is being typed"
        );
        assert!(holds("/home/me/src/acme-api", "acme-api"));
        assert!(holds("a parser fix", "parser"));
        assert!(
            !holds("fix the upload retry", "load"),
            "inside a longer word"
        );
        assert!(
            !holds("fix the upload retry", "upl retry"),
            "only the last may be a prefix"
        );
        assert!(
            !holds("fix the upload retry", "retry upload"),
            "out of order"
        );
        assert!(!holds("fix the upload retry", "fix upload"), "apart");
        assert!(
            !holds("fix the upload\u{1f}retry-branch", "upload retry"),
            "across two fields"
        );
        assert!(!holds("the tui loads", "tui load x"));
        assert!(!holds("anything", ""), "no words hold nothing");
    }

    #[test]
    fn a_whole_last_word_fits_better_than_one_only_started() {
        let ws = words("request handler task 410");
        assert_eq!(fit("the request handler (task 410)", &ws), Some(Fit::Whole));
        assert_eq!(
            fit("the request handler (task 4106)", &ws),
            Some(Fit::Started)
        );
        assert_eq!(fit("the request (task 410)", &ws), None);
        // Rows 0 and 1 in title order, row 1 the whole words: it goes first.
        let fits = [Some(Fit::Started), Some(Fit::Whole), None];
        let titles = Titles {
            rows: vec![1, 0, 2],
            whole: 1,
            held: 2,
        };
        assert_eq!(words_first(vec![0, 1, 2], |i| fits[i]), titles);
    }

    #[test]
    fn whole_word_titles_then_conversations_then_scattered_letters() {
        // Title matches 0..4: rows 1 and 3 hold the words whole; 0 and 2 only the letters.
        // Conversations: rows 7, 2 and 3.
        let titles = words_first(vec![0, 1, 2, 3], |i| {
            (i == 1 || i == 3).then_some(Fit::Whole)
        });
        assert_eq!(
            (titles.rows.as_slice(), titles.held),
            (&[1, 3, 0, 2][..], 2)
        );
        let merged = merge(&titles, &[7, 2, 3], &[]);
        assert_eq!(
            merged,
            [
                (1, Found::Words),
                (3, Found::Words),
                (7, Found::Conversation),
                (2, Found::Conversation),
                (0, Found::Letters),
            ],
            "each row once, at its best place"
        );
    }

    #[test]
    fn with_no_conversation_answer_the_title_order_is_kept_by_tier() {
        let titles = words_first(vec![5, 4, 6], |i| (i == 6).then_some(Fit::Whole));
        let merged = merge(&titles, &[], &[]);
        let rows: Vec<usize> = merged.iter().map(|&(i, _)| i).collect();
        assert_eq!(rows, [6, 5, 4]);
    }

    /// `rand`: a title holding `rand` whole, then conversations holding it whole, then a title
    /// holding only `random`, then conversations holding only `random`, then scattered letters.
    #[test]
    fn whole_words_in_titles_and_conversations_before_words_only_started() {
        let fits = [Some(Fit::Started), Some(Fit::Whole), None];
        let titles = words_first(vec![0, 1, 2], |i| fits[i]);
        let rows: Vec<usize> = merge(&titles, &[7, 1], &[8, 0])
            .iter()
            .map(|&(i, _)| i)
            .collect();
        assert_eq!(rows, [1, 7, 0, 8, 2]);
    }

    #[test]
    fn fzf_syntax_and_short_queries_stay_with_the_titles() {
        for q in [
            "'exact",
            "^src",
            "!test",
            "foo$",
            "a | b",
            "ab",
            "  x ",
            "retry !test",
        ] {
            assert!(!wants_conversations(q), "{q}");
        }
        for q in [
            "retry backoff",
            "parser",
            "acme-api retry",
            "didn't retry",
            "what's wrong",
        ] {
            assert!(wants_conversations(q), "{q}");
        }
    }
}
