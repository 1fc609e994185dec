//! Other forms of a query's words: the words of the index that have the same English stem
//! (`retries` finds `retry`, `failing` finds `fail`), or the same start once an inflection is
//! taken off (`referencing` finds `reference`, whose stems differ: `referenc`, `refer`), found
//! in each segment's dictionary among the words that start like the stem. Searched beside the
//! word as typed, ranked below it.

use tantivy::schema::Field;
use tantivy::Searcher;
use tantivy_fst::Automaton;

use super::schema::{stem_with, stemmer};

/// Most other forms looked for per word.
const MOST: usize = 16;
/// Shortest word whose other forms are looked for (a shorter one's stem is itself).
const SHORTEST: usize = 3;
/// Most letters an English ending adds to the start looked for (`relat` + `ional`).
const MOST_ADDED: usize = 8;

/// The words of `field` in `searcher`'s index, other than `word`, that share its stem.
pub(super) fn other_forms(searcher: &Searcher, field: Field, word: &str) -> Vec<String> {
    if word.chars().count() < SHORTEST || !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return Vec::new();
    }
    let mut stemmer = stemmer();
    let want = stem_with(&mut stemmer, word);
    let base = uninflected(word);
    // The stemmer may change the stem's last letter (`retry`: `retri`): the words looked at
    // start with the stem without it, and at least two letters.
    let keep = want.len().saturating_sub(1).max(2).min(want.len());
    let from = &want.as_bytes()[..keep];
    let mut out: Vec<String> = Vec::new();
    for segment in searcher.segment_readers() {
        let Ok(inverted) = segment.inverted_index(field) else {
            continue;
        };
        let words = Words {
            start: from,
            most: from.len() + MOST_ADDED,
        };
        let Ok(mut stream) = inverted.terms().search(words).into_stream() else {
            continue;
        };
        while stream.advance() {
            let Ok(term) = std::str::from_utf8(stream.key()) else {
                continue;
            };
            if term != word
                && !out.iter().any(|w| w == term)
                && (stem_with(&mut stemmer, term) == want || uninflected(term) == base)
            {
                out.push(term.to_owned());
                if out.len() >= MOST {
                    return out;
                }
            }
        }
    }
    out
}

/// `word` without the ending of a plural, a past or a present participle, or a silent `e`
/// (`referencing`, `referenced`, `references`, `reference`: `referenc`), at least four letters
/// kept; a doubled last consonant left single (`stopped`: `stop`). The word itself when none.
fn uninflected(word: &str) -> &str {
    const ENDINGS: [&str; 5] = ["ing", "ed", "es", "s", "e"];
    let Some(base) = ENDINGS
        .iter()
        .filter_map(|e| word.strip_suffix(e))
        .find(|b| b.len() >= 4)
    else {
        return word;
    };
    let b = base.as_bytes();
    let doubled = b[b.len() - 1] == b[b.len() - 2] && !b"aeiouls".contains(&b[b.len() - 1]);
    if doubled {
        &base[..base.len() - 1]
    } else {
        base
    }
}

/// The dictionary's words that start with `start` and go on with at most `most` letters in
/// all, ASCII letters only: the stream skips whole branches of other words (identifiers with
/// digits, such as a store's thousands of `name1234` words) instead of stemming each.
struct Words<'a> {
    start: &'a [u8],
    most: usize,
}

impl Automaton for Words<'_> {
    /// Bytes read so far, or `None` once the word cannot be one of these.
    type State = Option<usize>;

    fn start(&self) -> Option<usize> {
        Some(0)
    }

    fn is_match(&self, state: &Option<usize>) -> bool {
        state.is_some_and(|n| n >= self.start.len())
    }

    fn can_match(&self, state: &Option<usize>) -> bool {
        state.is_some()
    }

    fn accept(&self, state: &Option<usize>, byte: u8) -> Option<usize> {
        let n = (*state)?;
        let fits = match self.start.get(n) {
            Some(&b) => b == byte,
            None => n < self.most && byte.is_ascii_lowercase(),
        };
        fits.then_some(n + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::uninflected;

    #[test]
    fn inflections_come_off_to_one_base() {
        for w in ["referencing", "referenced", "references", "reference"] {
            assert_eq!(uninflected(w), "referenc", "{w}");
        }
        assert_eq!(uninflected("stopped"), "stop");
        assert_eq!(uninflected("passes"), "pass");
        // Too short a base keeps the word: `string` is not a form of `str`.
        assert_eq!(uninflected("string"), "string");
        assert_eq!(uninflected("bus"), "bus");
    }
}
