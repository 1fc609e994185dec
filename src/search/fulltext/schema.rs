//! The content index's Tantivy schema and text analysis: one document per message, its text,
//! its place in the session (the first prompt, a later prompt, a reply: a weight applied to its
//! score, since one text field keeps BM25's length statistics true to all messages), and the
//! session's number as a fast field for grouping and deleting.
//!
//! Words are what Tantivy's simple tokenizer splits (runs of letters and digits), lower-cased
//! and folded to ASCII (`École` and `ecole`, `Straße` and `strasse` match), a camelCase word
//! also as its parts (`parts`); words over 64 bytes (base64, long hashes) are not indexed. Each
//! session also has one document of its labels (its name, the last two parts of its folder, its
//! branch), in a field of its own: its words count in every message of the session (`labels`).
//! Words are indexed as written; [`stem`] (Tantivy's English stemmer) tells which words of the
//! index are other forms of a query's word.

use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    TextAnalyzer,
};
use tantivy::Index;

use super::parts::CamelParts;

/// Words of this many bytes or more (hashes past a SHA-256's hex, base64) are not indexed; a
/// SHA-1 (40) is.
const LONGEST: usize = 65;

/// Bumped whenever the schema, the analysis or what is indexed changes: an index of another
/// version is rebuilt, never read.
pub(super) const SCHEMA_VERSION: u32 = 4;

/// The name the analyzer is registered under.
const ANALYZER: &str = "cp_words";

/// The name of the fast field holding a document's place (`Place::code`).
pub(super) const PLACE: &str = "place";

/// Where in its session a message sits (a fast field), its score weighted by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Place {
    /// The session's first real prompt (its title).
    First = 0,
    /// Any later user prompt.
    Prompt,
    /// An assistant reply.
    Reply,
    /// The session's name, folder and branch.
    Label,
}

impl Place {
    pub(crate) fn code(self) -> u64 {
        self as u64
    }

    /// The weight of the place stored as `code`.
    pub(crate) fn weight_of(code: u64) -> f32 {
        match code {
            0 => Place::First.weight(),
            1 => Place::Prompt.weight(),
            3 => Place::Label.weight(),
            _ => Place::Reply.weight(),
        }
    }

    /// How much a match here counts against a match in a reply.
    pub(crate) fn weight(self) -> f32 {
        match self {
            Place::First => 1.6,
            // A session found by its labels alone: its labels document stands for it, above
            // its messages found the same way.
            Place::Label => 2.0,
            Place::Prompt => 1.3,
            Place::Reply => 1.0,
        }
    }
}

/// The fields of the schema.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fields {
    /// The session's number in the index's own table (fast, indexed: grouping and deletes).
    pub session: Field,
    /// The message's position in the session's transcript (fast).
    pub ordinal: Field,
    /// The message's [`Place`] code (fast).
    pub place: Field,
    /// The message's text (indexed with positions, stored for snippets).
    pub text: Field,
    /// The labels document's text (its own field, so that label words are matched and
    /// measured apart from messages: `super::labels`).
    pub label: Field,
}

pub(super) fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_stored().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fast = NumericOptions::default().set_fast();
    let fields = Fields {
        session: b.add_u64_field("session", fast.clone().set_indexed()),
        ordinal: b.add_u64_field("ordinal", fast.clone()),
        place: b.add_u64_field(PLACE, fast),
        text: b.add_text_field("text", text.clone()),
        label: b.add_text_field("label", text),
    };
    (b.build(), fields)
}

/// The analyzer every text field goes through: words, camelCase words also as their parts
/// (`parts`), long ones dropped, lower-cased and folded.
fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(CamelParts)
        .filter(RemoveLongFilter::limit(LONGEST))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The analyzer a query goes through: the index's, a camelCase word kept whole.
fn query_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Make `index` know the analyzer (an index opened from disk does not).
pub(super) fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, analyzer());
}

/// The words of a query's `text` as the index holds them, with their byte ranges in `text`.
pub(super) fn words(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    analysed(&mut query_analyzer(), text)
}

/// The words the index holds for a message's `text`, camelCase parts after their word.
pub(super) fn message_words(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    analysed(&mut analyzer(), text)
}

fn analysed(analyzer: &mut TextAnalyzer, text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push((t.text.clone(), t.offset_from..t.offset_to));
    }
    out
}

/// Tantivy's English stemmer, for [`stem_with`].
pub(super) fn stemmer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(Stemmer::new(Language::English))
        .build()
}

/// The English stem of one analysed word (`retries` and `retry`: `retri`).
#[cfg(test)]
pub(super) fn stem(word: &str) -> String {
    stem_with(&mut stemmer(), word)
}

/// [`stem`] with a stemmer made once.
pub(super) fn stem_with(stemmer: &mut TextAnalyzer, word: &str) -> String {
    let mut stream = stemmer.token_stream(word);
    let mut out = String::new();
    while let Some(t) = stream.next() {
        out.push_str(&t.text);
    }
    out
}

/// The label document's text of a session: its name, the last two parts of its folder (the
/// ones that tell projects apart; the rest is the same home for every session), its branch.
pub(super) fn label(name: Option<&str>, cwd: Option<&str>, branch: Option<&str>) -> String {
    let folder: Vec<&str> = cwd
        .unwrap_or_default()
        .split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .collect();
    let tail = folder[folder.len().saturating_sub(2)..].join("/");
    [name.unwrap_or_default(), &tail, branch.unwrap_or_default()]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_cased_folded_and_long_ones_dropped() {
        let long = "x".repeat(65);
        let got: Vec<String> = words(&format!("École STRAßE retry_logic {long} v2"))
            .into_iter()
            .map(|(w, _)| w)
            .collect();
        assert_eq!(got, ["ecole", "strasse", "retry", "logic", "v2"]);
    }

    #[test]
    fn forms_share_a_stem_and_labels_keep_the_folder_tail() {
        assert_eq!(stem("retries"), stem("retry"));
        assert_eq!(stem("failing"), stem("fail"));
        assert_ne!(stem("parser"), stem("parse2"));
        assert_eq!(
            label(Some("Fix it"), Some("/home/me/src/acme-api"), Some("main")),
            "Fix it\nsrc/acme-api\nmain"
        );
        assert_eq!(label(None, Some("/"), None), "");
    }
}
