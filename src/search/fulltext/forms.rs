//! Other forms of a query's words: the words of the index that have the same English stem
//! (`retries` finds `retry`, `failing` finds `fail`), found in each segment's dictionary among
//! the words that start like the stem. Searched beside the word as typed, ranked below it.

use tantivy::schema::Field;
use tantivy::Searcher;

use super::schema::{stem_with, stemmer};

/// Most other forms looked for per word.
const MOST: usize = 16;
/// Shortest word whose other forms are looked for (a shorter one's stem is itself).
const SHORTEST: usize = 3;

/// The words of `field` in `searcher`'s index, other than `word`, that share its stem.
pub fn other_forms(searcher: &Searcher, field: Field, word: &str) -> Vec<String> {
    if word.chars().count() < SHORTEST || !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return Vec::new();
    }
    let mut stemmer = stemmer();
    let want = stem_with(&mut stemmer, word);
    // The stemmer may change the stem's last letter (`retry`: `retri`): the words looked at
    // start with the stem without it, and at least two letters.
    let keep = want.len().saturating_sub(1).max(2).min(want.len());
    let from = &want.as_bytes()[..keep];
    let mut to = from.to_vec();
    if let Some(last) = to.last_mut() {
        *last += 1;
    }
    let mut out: Vec<String> = Vec::new();
    for segment in searcher.segment_readers() {
        let Ok(inverted) = segment.inverted_index(field) else {
            continue;
        };
        let Ok(mut stream) = inverted.terms().range().ge(from).lt(&to).into_stream() else {
            continue;
        };
        while stream.advance() {
            let Ok(term) = std::str::from_utf8(stream.key()) else {
                continue;
            };
            if term != word
                && !out.iter().any(|w| w == term)
                && stem_with(&mut stemmer, term) == want
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
