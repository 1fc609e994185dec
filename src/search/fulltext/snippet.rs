//! The snippet of a hit: the words of the query together and in order where the message has
//! them (the phrase, not its first scattered word), else the first of its words (as typed, in
//! another form of those the search used, or a part of a name: `Manifest` in `readManifest`),
//! with some text before it, on one line.

use std::ops::Range;

use super::query::Parsed;
use super::schema::message_words;

/// Longest snippet, in bytes.
pub(super) const SNIPPET_BYTES: usize = 120;

/// Bytes of context kept before the match.
const BEFORE: usize = 40;

/// Whether the message word `word` is the query word `want` (a prefix of it when `prefix`), or
/// one of its `forms`.
fn is(word: &str, want: &str, prefix: bool, forms: &[String]) -> bool {
    word == want || (prefix && word.starts_with(want)) || forms.iter().any(|f| f == word)
}

/// The byte range of the best match of `parsed` in `text`: the first place all its words stand
/// together in order, else the first of any of its words (empty at 0 when none is found).
/// `forms` holds each group's other forms.
pub(super) fn best_match(text: &str, parsed: &Parsed, forms: &[Vec<String>]) -> Range<usize> {
    let want = parsed.all_words();
    if want.is_empty() {
        return 0..0;
    }
    // The other forms of each word (only a group of one word has them).
    let no_forms = Vec::new();
    let word_forms: Vec<&[String]> = parsed
        .groups
        .iter()
        .zip(forms.iter().chain(std::iter::repeat(&no_forms)))
        .flat_map(|(g, f)| g.iter().map(move |_| f.as_slice()))
        .collect();
    let held = |w: &str, j: usize| {
        let prefix = parsed.prefix_last && j + 1 == want.len();
        is(
            w,
            want[j],
            prefix,
            word_forms.get(j).copied().unwrap_or(&[]),
        )
    };
    let tokens = message_words(text);
    let matches = |i: usize, j: usize| tokens.get(i + j).is_some_and(|(w, _)| held(w, j));
    if let Some(i) = (0..tokens.len()).find(|&i| (0..want.len()).all(|j| matches(i, j))) {
        return tokens[i].1.start..tokens[i + want.len() - 1].1.end;
    }
    tokens
        .iter()
        .find(|(w, _)| (0..want.len()).any(|j| held(w, j)))
        .map_or(0..0, |(_, r)| r.clone())
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The snippet of `text` for `parsed`, and where in it the match is.
pub(super) fn best(text: &str, parsed: &Parsed, forms: &[Vec<String>]) -> (String, Range<usize>) {
    let m = best_match(text, parsed, forms);
    let mut start = floor_boundary(text, m.start.saturating_sub(BEFORE));
    // Start at a word when the cut falls inside one.
    if start > 0 {
        if let Some(space) = text[start..m.start].find(char::is_whitespace) {
            start += space + 1;
        }
    }
    let end = floor_boundary(text, (start + SNIPPET_BYTES).max(m.end));
    // One line: white space that would break it becomes a space (each is one byte).
    let snippet: String = text[start..end]
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\r' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect();
    (snippet, m.start - start..m.end - start)
}

#[cfg(test)]
mod tests {
    use super::super::query::parse;
    use super::*;

    #[test]
    fn the_phrase_wins_over_the_first_scattered_word() {
        let text = "retry once. Later we must rewrite the webhook retry logic\nnow";
        let (snippet, at) = best(text, &parse("webhook retry logic "), &[]);
        assert_eq!(&snippet[at.clone()], "webhook retry logic");
        assert!(!snippet.contains('\n'));
    }

    #[test]
    fn a_word_being_typed_and_a_missing_phrase() {
        let (snippet, at) = best("Über alles: the Webhooks fail", &parse("webh"), &[]);
        assert_eq!(&snippet[at], "Webhooks");
        let (snippet, at) = best("logic first, then retry", &parse("retry logic "), &[]);
        assert_eq!(&snippet[at], "logic");
        let long = format!("{} needle", "word ".repeat(100));
        let (snippet, at) = best(&long, &parse("needle "), &[]);
        assert_eq!(&snippet[at], "needle");
        assert!(snippet.len() <= SNIPPET_BYTES + BEFORE);
    }

    #[test]
    fn a_form_and_a_part_of_a_name_are_shown_in_place() {
        let text = "See src/doc/src/reference/config.md and call readManifest(path) later";
        let forms = [vec!["reference".to_owned()]];
        let (snippet, at) = best(text, &parse("referencing "), &forms);
        assert_eq!(&snippet[at], "reference");
        let (snippet, at) = best(text, &parse("manifest "), &[]);
        assert_eq!(&snippet[at], "Manifest");
        let (snippet, at) = best(text, &parse("config.md "), &[]);
        assert_eq!(&snippet[at], "config.md");
    }
}
