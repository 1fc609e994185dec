//! The picker's one search box: what is typed is matched against the titles and the
//! conversations together, and the answers are merged into one ranked list:
//!
//! 1. rows whose own words (title, folder, branch, id) hold every typed word as a whole word,
//!    in the title search's order (compact, in-order matches first, then recency);
//! 2. sessions whose conversation holds the words, in the content search's order (words in one
//!    message, then spread over several; first prompt above later prompts above replies);
//! 3. the rest of the title search's matches: letters found scattered, or only inside longer
//!    words.
//!
//! Queries in fzf's extended syntax, and very short ones, are meant for the titles: they are
//! not looked for in the conversations ([`wants_conversations`]). Pure: rows come in as
//! indices and closures.

/// A query this long at least is also looked for in the conversations.
const MIN_CHARS: usize = 3;

/// Where the one box found a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// The row's own words hold every typed word whole.
    Words,
    /// Its conversation holds the words.
    Conversation,
    /// The title search matched its letters only.
    Letters,
}

/// Whether `query` (the words typed, filters taken out) is also looked for in the
/// conversations: plain words of [`MIN_CHARS`] or more, not fzf's syntax.
pub fn wants_conversations(query: &str) -> bool {
    let text = query.trim();
    text.chars().count() >= MIN_CHARS && !text.contains(['\'', '^', '!', '$', '|', '\\'])
}

/// The words of `query` as [`holds_words`] takes them.
pub fn words(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).collect()
}

/// The title search's `ranked` rows with those whose own words `hold` the typed words moved to
/// the front, each part in its order; and how many hold them.
pub fn words_first(ranked: Vec<usize>, holds: impl Fn(usize) -> bool) -> (Vec<usize>, usize) {
    let (mut words, letters): (Vec<usize>, Vec<usize>) =
        ranked.into_iter().partition(|&i| holds(i));
    let held = words.len();
    words.extend(letters);
    (words, held)
}

/// One ranked list from the title search's rows that hold the typed words (`words`), the
/// content search's `conversations` and the title search's other rows (`letters`), each best
/// first. Each row appears once, at its best place.
pub fn merge(words: &[usize], conversations: &[usize], letters: &[usize]) -> Vec<(usize, Found)> {
    let mut seen = std::collections::HashSet::with_capacity(words.len() + conversations.len());
    let mut out = Vec::with_capacity(words.len() + conversations.len() + letters.len());
    let tiers = [
        (words, Found::Words),
        (conversations, Found::Conversation),
        (letters, Found::Letters),
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

/// Whether `hay` (lowercase) holds every one of `words` (lowercase) as a whole word, the last
/// one (perhaps still being typed) at least as the start of a word: `load` is not held by
/// `upload`.
pub fn holds_words(hay: &str, words: &[String]) -> bool {
    let last = words.len().saturating_sub(1);
    !words.is_empty()
        && words
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
    use super::*;

    fn holds(hay: &str, query: &str) -> bool {
        holds_words(hay, &words(query))
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
        assert!(!holds("anything", ""), "no words hold nothing");
    }

    #[test]
    fn whole_word_titles_then_conversations_then_scattered_letters() {
        // Title matches 0..4: rows 1 and 3 hold the words whole; 0 and 2 only the letters.
        // Conversations: rows 7, 2 and 3.
        let (ranked, held) = words_first(vec![0, 1, 2, 3], |i| i == 1 || i == 3);
        assert_eq!((ranked.as_slice(), held), (&[1, 3, 0, 2][..], 2));
        let merged = merge(&ranked[..held], &[7, 2, 3], &ranked[held..]);
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
        let (ranked, held) = words_first(vec![5, 4, 6], |i| i == 6);
        let merged = merge(&ranked[..held], &[], &ranked[held..]);
        let rows: Vec<usize> = merged.iter().map(|&(i, _)| i).collect();
        assert_eq!(rows, [6, 5, 4]);
    }

    #[test]
    fn fzf_syntax_and_short_queries_stay_with_the_titles() {
        for q in ["'exact", "^src", "!test", "foo$", "a | b", "ab", "  x "] {
            assert!(!wants_conversations(q), "{q}");
        }
        for q in ["retry backoff", "parser", "acme-api retry"] {
            assert!(wants_conversations(q), "{q}");
        }
    }
}
