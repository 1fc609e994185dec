//! What a content query means, and the Tantivy query that ranks messages by it.
//!
//! A query is groups of words: each bare word is a group, and so is each `"quoted phrase"`
//! (or a word the analyzer splits, such as `retry-logic`, whose parts must be adjacent). A
//! word matches exactly, below that in another form (`super::forms`), and, ranked well below,
//! with one typo (words of four letters or more; a typing slip above any other, `super::slips`); the last word, while it is being typed (no
//! space after it, three letters or more), also matches as a prefix. [`build`] is the query of
//! a message that holds every group; on top of BM25 (term frequency that saturates, message
//! length, rarity), a message holding the words together and in order, or near each other,
//! ranks above one holding them scattered. [`group`] is one group alone, for sessions whose
//! messages hold the groups between them (`super::spread`). (The weight of a message's place
//! is applied to its score by the search.)

use tantivy::query::{
    BooleanQuery, BoostQuery, Occur, PhrasePrefixQuery, PhraseQuery, Query, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

use super::alternatives::{Alternative, Alternatives, Information};
use super::labels::InLabels;
use super::near::Near;
use super::schema::{words, Fields};
use super::tier::Held;

/// A query as groups of analysed words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Parsed {
    /// Each group: one word, or words that must be adjacent and in order.
    pub groups: Vec<Vec<String>>,
    /// The last group is a bare word still being typed: it also matches as a prefix.
    pub prefix_last: bool,
}

impl Parsed {
    pub(super) fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Every word of every group, in query order.
    pub(super) fn all_words(&self) -> Vec<&str> {
        self.groups.iter().flatten().map(String::as_str).collect()
    }
}

/// Split `text` into groups: quoted phrases (an unclosed quote runs to the end) and bare words.
pub(super) fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let mut last_bare = false;
    for (i, part) in text.split('"').enumerate() {
        let quoted = i % 2 == 1;
        if quoted {
            let group: Vec<String> = words(part).into_iter().map(|(w, _)| w).collect();
            if !group.is_empty() {
                parsed.groups.push(group);
                last_bare = false;
            }
            continue;
        }
        for chunk in part.split_whitespace() {
            let group: Vec<String> = words(chunk).into_iter().map(|(w, _)| w).collect();
            if !group.is_empty() {
                last_bare = group.len() == 1;
                parsed.groups.push(group);
            }
        }
    }
    let open_end = !text.ends_with(char::is_whitespace) && !text.ends_with('"');
    parsed.prefix_last = last_bare && open_end;
    parsed
}

pub(super) fn term(fields: &Fields, word: &str) -> Term {
    Term::from_field_text(fields.text, word)
}

fn boosted(q: Box<dyn Query>, by: f32) -> Box<dyn Query> {
    Box::new(BoostQuery::new(q, by))
}

/// The shortest word that also matches with a typo.
pub(super) const TYPO_FROM: usize = 4;

/// Whether `word`, the last one while it is being typed, is long enough to also match as the
/// start of a longer word: a prefix of one or two letters stands for a good part of the
/// dictionary.
fn prefix_allowed(word: &str) -> bool {
    word.chars().count() >= 3
}

/// Whether `word` is long enough to also match with one typo.
fn typo_allowed(word: &str) -> bool {
    word.chars().count() >= TYPO_FROM
}
/// How much a word in another form counts against the word as typed.
const FORM_WEIGHT: f32 = 0.6;
/// What a message holding a word the typed one starts scores for it (any such word).
const PREFIX_WEIGHT: f32 = 0.5;
/// What a message holding the word with one typo scores for it.
const TYPO_WEIGHT: f32 = 0.1;

/// One word in `field`: exactly, in another form of `forms`, with a typo (a slip above any
/// other, `super::slips`), or as a prefix (the alternatives below the exact word).
fn word_alternatives(
    field: Field,
    word: &str,
    prefix: bool,
    forms: &[String],
) -> Vec<(Alternative, f32, Held)> {
    let t = Term::from_field_text(field, word);
    let exact = TermQuery::new(t.clone(), IndexRecordOption::WithFreqs);
    let mut alternatives: Vec<(Alternative, f32, Held)> =
        vec![(Alternative::Word(exact), 1.0, Held::Typed)];
    for form in forms {
        let q = TermQuery::new(
            Term::from_field_text(field, form),
            IndexRecordOption::WithFreqs,
        );
        alternatives.push((Alternative::Word(q), FORM_WEIGHT, Held::Form));
    }
    if typo_allowed(word) {
        for (near, held) in [(Near::Slip, Held::Slip), (Near::Typo, Held::Typo)] {
            let typo = Alternative::Near {
                term: t.clone(),
                near,
            };
            alternatives.push((typo, TYPO_WEIGHT, held));
        }
    }
    if prefix && prefix_allowed(word) {
        let started = Alternative::Near {
            term: t,
            near: Near::Prefix,
        };
        alternatives.push((started, PREFIX_WEIGHT, Held::Form));
    }
    alternatives
}

/// Words in order, adjacent (`slop` 0) or within `slop` positions; the last one as a prefix
/// when `prefix`.
fn phrase_clause(fields: &Fields, group: &[&str], slop: u32, prefix: bool) -> Box<dyn Query> {
    let terms: Vec<Term> = group.iter().map(|w| term(fields, w)).collect();
    if prefix && slop == 0 {
        return Box::new(PhrasePrefixQuery::new(terms));
    }
    let mut q = PhraseQuery::new(terms);
    q.set_slop(slop);
    Box::new(q)
}

/// Messages holding a word, past which a query made only of such words is too common for the
/// "near each other" bonus: checking positions within a window in every message that holds
/// every word costs more than a keystroke may (the "together" bonus stays).
pub(super) const NEAR_CHECK_MAX: u64 = 20_000;

/// What two words of the query side by side in a message add (each pair), against the whole
/// query together (4) and near each other (1.5).
const PAIR_BOOST: f32 = 1.0;

/// Messages holding the rarer word of a pair past which the pair is not checked: two common
/// words side by side are checked in too many messages for a keystroke, and tell little.
const PAIR_CHECK_MAX: u64 = 5_000;

/// Whether group `i` of `parsed` may match a word other than itself: another form, a typo, or
/// a prefix (a group no message holds as written and that may not is held by no session).
pub(super) fn may_match_otherwise(parsed: &Parsed, i: usize, forms: &[Vec<String>]) -> bool {
    let last = i + 1 == parsed.groups.len();
    match parsed.groups[i].as_slice() {
        [word] => {
            forms.get(i).is_some_and(|f| !f.is_empty())
                || typo_allowed(word)
                || (last && parsed.prefix_last && prefix_allowed(word))
        }
        _ => false,
    }
}

/// Whether group `i` of `parsed` is one word long enough to be matched with a typo.
pub(super) fn may_be_a_typo(parsed: &Parsed, i: usize) -> bool {
    matches!(parsed.groups[i].as_slice(), [word] if typo_allowed(word))
}

/// Each group's sessions whose labels hold it (`super::labels`), by group.
pub(super) type Labels = [Option<InLabels>];

/// The ways group `i` of `parsed` is held in `field`; `forms` are its other forms there.
fn group_alternatives(
    field: Field,
    parsed: &Parsed,
    i: usize,
    forms: &[String],
) -> Vec<(Alternative, f32, Held)> {
    let last = parsed.groups.len().saturating_sub(1);
    match parsed.groups[i].as_slice() {
        [word] => word_alternatives(field, word, i == last && parsed.prefix_last, forms),
        many => {
            let terms = many
                .iter()
                .map(|w| Term::from_field_text(field, w))
                .collect();
            let phrase = Alternative::Phrase(PhraseQuery::new(terms));
            vec![(phrase, 1.0, Held::Typed)]
        }
    }
}

/// Group `i` of `parsed` in the labels' field alone (`forms`: its other forms there).
pub(super) fn in_labels(
    fields: &Fields,
    parsed: &Parsed,
    i: usize,
    forms: &[String],
) -> Alternatives {
    Alternatives {
        ways: group_alternatives(fields.label, parsed, i, forms),
        information: Information::Left,
    }
}

/// The query of group `i` of `parsed` alone, in a message or its session's labels; `forms`
/// holds each group's other forms, `labels` each group's sessions whose labels hold it, and
/// `scaled_by` what the score's rest is scaled by once found (`spread::WEIGHT` for a session
/// holding the words between its messages, else 1: the word's information is stated against it).
pub(super) fn group(
    fields: &Fields,
    parsed: &Parsed,
    i: usize,
    forms: &[Vec<String>],
    labels: &Labels,
    scaled_by: f32,
) -> Box<dyn Query> {
    let forms = forms.get(i).map_or(&[][..], Vec::as_slice);
    let mut alternatives = group_alternatives(fields.text, parsed, i, forms);
    if let Some(Some(l)) = labels.get(i) {
        alternatives.push((Alternative::Labels(l.clone()), 1.0, Held::Typed));
    }
    Box::new(Alternatives {
        ways: alternatives,
        information: Information::Counted { scaled_by },
    })
}

/// The query of a message holding every group of `parsed`, closeness rewarded; `forms` holds
/// each group's other forms. `None` when empty. `doc_freq` says how many messages hold a word.
pub(super) fn build(
    fields: &Fields,
    parsed: &Parsed,
    forms: &[Vec<String>],
    labels: &Labels,
    doc_freq: impl Fn(&Term) -> u64,
) -> Option<Box<dyn Query>> {
    if parsed.is_empty() {
        return None;
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = (0..parsed.groups.len())
        .map(|i| (Occur::Must, group(fields, parsed, i, forms, labels, 1.0)))
        .collect();
    let all = parsed.all_words();
    if all.len() >= 2 {
        // The words together and in order count for more than where the message sits. While the
        // last word is a prefix of under four letters it stands for too many words to check
        // their positions on each keystroke: the words before it are checked alone.
        let short_prefix = parsed.prefix_last && all.last().is_some_and(|w| w.chars().count() < 4);
        let checked = if short_prefix {
            &all[..all.len() - 1]
        } else {
            &all[..]
        };
        if checked.len() >= 2 {
            let together = phrase_clause(fields, checked, 0, parsed.prefix_last && !short_prefix);
            clauses.push((Occur::Should, boosted(together, 4.0)));
        }
        let rarest = all
            .iter()
            .map(|w| doc_freq(&term(fields, w)))
            .min()
            .unwrap_or(0);
        if rarest <= NEAR_CHECK_MAX {
            let near = phrase_clause(fields, &all, 4, false);
            clauses.push((Occur::Should, boosted(near, 1.5)));
            // Of three words or more, each two typed side by side and found so count too
            // (`refactor tests` in a prompt holding `fix … refactor tests`).
            if checked.len() >= 3 {
                let rare_pair = |p: &&[&str]| {
                    p.iter().map(|w| doc_freq(&term(fields, w))).min() <= Some(PAIR_CHECK_MAX)
                };
                for pair in checked.windows(2).filter(rare_pair) {
                    let q = phrase_clause(fields, pair, 0, false);
                    clauses.push((Occur::Should, boosted(q, PAIR_BOOST)));
                }
            }
        }
    }
    Some(Box::new(BooleanQuery::new(clauses)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(text: &str) -> (Vec<Vec<String>>, bool) {
        let p = parse(text);
        (p.groups, p.prefix_last)
    }

    fn want(groups: &[&[&str]], prefix: bool) -> (Vec<Vec<String>>, bool) {
        let g = groups
            .iter()
            .map(|g| g.iter().map(|w| (*w).to_owned()).collect())
            .collect();
        (g, prefix)
    }

    #[test]
    fn words_phrases_and_the_word_being_typed() {
        assert_eq!(groups("Retry webh"), want(&[&["retry"], &["webh"]], true));
        assert_eq!(
            groups("retry webhook "),
            want(&[&["retry"], &["webhook"]], false)
        );
        assert_eq!(
            groups("\"retry logic\" webhook"),
            want(&[&["retry", "logic"], &["webhook"]], true)
        );
        assert_eq!(
            groups("webhook \"retry lo"),
            want(&[&["webhook"], &["retry", "lo"]], false)
        );
        assert_eq!(groups("retry-logic"), want(&[&["retry", "logic"]], false));
        assert_eq!(groups("  \"\" ... "), want(&[], false));
    }
}
