//! Names are words: an identifier written in camelCase or PascalCase (`readManifest`,
//! `HTTPServer`, `fuzzyMatchV2`) is indexed as itself and as its parts (`read`, `manifest`), so
//! a part typed alone finds it and the whole typed as one still does. (Paths, flags and
//! snake_case are split into their parts by the tokenizer already: `src/doc/config.md`,
//! `--no-deps`, `read_manifest`.)
//!
//! The parts stand at the whole's position, so the words around it keep theirs: a phrase
//! quoted from the text (`"call readManifest now"`) is found as written, and a part next to its
//! neighbours (`"manifest now"`) too; the parts together (`"read manifest"`) are not a phrase.
//! Only the index's analysis splits: a query's `readManifest` is the whole word.

use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};

/// The filter: a camelCase token, then its parts.
#[derive(Clone, Copy, Default)]
pub(super) struct CamelParts;

impl TokenFilter for CamelParts {
    type Tokenizer<T: Tokenizer> = CamelPartsFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> CamelPartsFilter<T> {
        CamelPartsFilter {
            inner: tokenizer,
            parts: Vec::new(),
        }
    }
}

#[derive(Clone)]
pub(super) struct CamelPartsFilter<T> {
    inner: T,
    parts: Vec<Token>,
}

impl<T: Tokenizer> Tokenizer for CamelPartsFilter<T> {
    type TokenStream<'a> = CamelPartsStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        self.parts.clear();
        CamelPartsStream {
            tail: self.inner.token_stream(text),
            parts: &mut self.parts,
        }
    }
}

pub(super) struct CamelPartsStream<'a, T> {
    tail: T,
    /// The tokens still to give for the current one, the next last.
    parts: &'a mut Vec<Token>,
}

impl<T: TokenStream> TokenStream for CamelPartsStream<'_, T> {
    fn advance(&mut self) -> bool {
        self.parts.pop();
        if !self.parts.is_empty() {
            return true;
        }
        if !self.tail.advance() {
            return false;
        }
        let whole = self.tail.token();
        let cuts = cuts(&whole.text);
        if cuts.len() > 1 {
            for range in cuts.iter().rev() {
                self.parts.push(Token {
                    offset_from: whole.offset_from + range.start,
                    offset_to: whole.offset_from + range.end,
                    text: whole.text[range.clone()].to_owned(),
                    ..*whole
                });
            }
            self.parts.push(whole.clone());
        }
        true
    }

    fn token(&self) -> &Token {
        self.parts.last().unwrap_or_else(|| self.tail.token())
    }

    fn token_mut(&mut self) -> &mut Token {
        self.parts
            .last_mut()
            .unwrap_or_else(|| self.tail.token_mut())
    }
}

/// The byte ranges of the parts of a camelCase word: a part starts at an upper-case letter
/// after a lower-case one (`read|Manifest`), or at the last of a run of upper-case letters
/// followed by a lower-case one (`HTTP|Server`). One range for any other word.
fn cuts(word: &str) -> Vec<std::ops::Range<usize>> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (at, c) = chars[i];
        let before = chars[i - 1].1;
        let after = chars.get(i + 1).map(|&(_, c)| c);
        let lower_to_upper = before.is_lowercase() && c.is_uppercase();
        let acronym_end =
            before.is_uppercase() && c.is_uppercase() && after.is_some_and(char::is_lowercase);
        if lower_to_upper || acronym_end {
            out.push(start..at);
            start = at;
        }
    }
    out.push(start..word.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::tokenizer::{LowerCaser, SimpleTokenizer, TextAnalyzer};

    fn tokens(text: &str) -> Vec<(String, usize, &str)> {
        let mut a = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(CamelParts)
            .filter(LowerCaser)
            .build();
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((
                t.text.clone(),
                t.position,
                &text[t.offset_from..t.offset_to],
            ));
        }
        out
    }

    #[test]
    fn a_camel_case_word_is_itself_and_its_parts_in_place() {
        assert_eq!(
            tokens("call readManifest now"),
            [
                ("call".into(), 0, "call"),
                ("readmanifest".into(), 1, "readManifest"),
                ("read".into(), 1, "read"),
                ("manifest".into(), 1, "Manifest"),
                ("now".into(), 2, "now"),
            ]
        );
    }

    #[test]
    fn acronyms_digits_and_plain_words() {
        let words = |t: &str| -> Vec<String> { tokens(t).into_iter().map(|t| t.0).collect() };
        assert_eq!(words("HTTPServer"), ["httpserver", "http", "server"]);
        assert_eq!(
            words("fuzzyMatchV2"),
            ["fuzzymatchv2", "fuzzy", "match", "v2"]
        );
        assert_eq!(words("Fix README tokio"), ["fix", "readme", "tokio"]);
        assert_eq!(words("read_manifest"), ["read", "manifest"]);
    }
}
