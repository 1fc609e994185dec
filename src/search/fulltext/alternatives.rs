//! One word of a query and its alternatives (other forms, a typo, the word it starts), as one
//! Tantivy query that a message matches when it holds any of them, scored as the sum of those
//! it holds on top of the tier of the best way it holds the word (`super::tier`).
//!
//! Tantivy's own union (a `BooleanQuery` of `Should` clauses) fills a window of 4,096
//! documents from every alternative each time it is moved ahead; a word in a third of the
//! messages, met in an intersection led by a rarer word, was refilled at each message of the
//! rarer word, and that took most of a keystroke at 30,000 sessions. This union moves each
//! alternative to the message asked for and no further. The typo and prefix alternatives leave
//! the word itself out (it is matched, and scored, as itself).

use tantivy::query::{
    AutomatonWeight, EnableScoring, Explanation, FuzzyTermQuery, PhraseQuery, Query, Scorer,
    TermQuery, Weight,
};
use tantivy::schema::Field;
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};
use tantivy_fst::Automaton;

use super::labels::InLabels;
use super::tier::{split, Held};

/// A message holding any of the alternatives, each with the factor its score is taken at and
/// how it holds the word.
#[derive(Clone, Debug)]
pub(super) struct Alternatives(pub Vec<(Alternative, Score, Held)>);

/// One way a word may be held.
#[derive(Clone, Debug)]
pub(super) enum Alternative {
    /// A word (as typed, or another form), scored by BM25.
    Word(TermQuery),
    /// Every word within one edit of this one (a swap of two letters counting as one), or, when
    /// `prefix`, every word it starts; never a word the alternatives hold as a `Word` (the word
    /// itself, its other forms), which is scored as that. Each message scores the same.
    Near { term: Term, prefix: bool },
    /// Words that must stand together, in order.
    Phrase(PhraseQuery),
    /// Every document of the sessions whose labels hold the word, scored (and tiered) as their
    /// labels hold it (`super::labels`); its own `Held` is not used.
    Labels(InLabels),
}

impl Query for Alternatives {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let words: Vec<Vec<u8>> = self
            .0
            .iter()
            .filter_map(|(a, _, _)| match a {
                Alternative::Word(q) => Some(q.term().serialized_value_bytes().to_vec()),
                _ => None,
            })
            .collect();
        let mut weights = Vec::with_capacity(self.0.len());
        for (alternative, factor, held) in &self.0 {
            let weight: Box<dyn Weight> = match alternative {
                Alternative::Word(q) => q.weight(scoring)?,
                Alternative::Near { term, prefix } => near_weight(term, *prefix, &words)?,
                Alternative::Phrase(q) => q.weight(scoring)?,
                Alternative::Labels(q) => {
                    weights.push((q.weight(scoring)?, *factor, None));
                    continue;
                }
            };
            weights.push((weight, *factor, Some(*held)));
        }
        Ok(Box::new(AnyWeight(weights)))
    }
}

/// The words near `term` (see [`Alternative::Near`]) but `except`, constant-scored.
fn near_weight(term: &Term, prefix: bool, except: &[Vec<u8>]) -> tantivy::Result<Box<dyn Weight>> {
    let query = if prefix {
        FuzzyTermQuery::new_prefix(term.clone(), 0, false)
    } else {
        FuzzyTermQuery::new(term.clone(), 1, true)
    };
    let automaton = Except {
        inner: query.automaton()?,
        words: except.iter().take(EXCEPT_MOST).cloned().collect(),
    };
    Ok(Box::new(AutomatonWeight::new(field(term), automaton)))
}

fn field(term: &Term) -> Field {
    term.field()
}

/// Most words an [`Except`] leaves out (one bit each).
const EXCEPT_MOST: usize = 32;

/// An automaton's words, except a few.
struct Except<A> {
    inner: A,
    words: Vec<Vec<u8>>,
}

impl<A: Automaton> Automaton for Except<A> {
    /// The inner state, the bytes read, and which of the words left out they still spell
    /// the start of (one bit per word).
    type State = (A::State, usize, u32);

    fn start(&self) -> Self::State {
        let all = match self.words.len() {
            0 => 0,
            n => u32::MAX >> (32 - n),
        };
        (self.inner.start(), 0, all)
    }

    fn is_match(&self, (state, read, spelt): &Self::State) -> bool {
        let is_left_out =
            (0..self.words.len()).any(|i| spelt & (1 << i) != 0 && self.words[i].len() == *read);
        self.inner.is_match(state) && !is_left_out
    }

    fn can_match(&self, (state, _, _): &Self::State) -> bool {
        self.inner.can_match(state)
    }

    fn accept(&self, (state, read, spelt): &Self::State, byte: u8) -> Self::State {
        let mut still = 0;
        for (i, w) in self.words.iter().enumerate() {
            if spelt & (1 << i) != 0 && w.get(*read) == Some(&byte) {
                still |= 1 << i;
            }
        }
        (self.inner.accept(state, byte), read + 1, still)
    }
}

/// Each alternative's weight, factor and how it holds the word (`None`: its score carries its
/// own tier).
struct AnyWeight(Vec<(Box<dyn Weight>, Score, Option<Held>)>);

impl Weight for AnyWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorers = Vec::with_capacity(self.0.len());
        for (weight, factor, held) in &self.0 {
            let scorer = weight.scorer(reader, boost * factor)?;
            if scorer.doc() != TERMINATED {
                scorers.push((scorer, *held));
            }
        }
        Ok(Box::new(AnyScorer::new(scorers)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )));
        }
        Ok(Explanation::new("any of the alternatives", scorer.score()))
    }
}

/// The union of a few scorers, each moved only as far as it is asked to.
struct AnyScorer {
    scorers: Vec<(Box<dyn Scorer>, Option<Held>)>,
    doc: DocId,
}

impl AnyScorer {
    fn new(scorers: Vec<(Box<dyn Scorer>, Option<Held>)>) -> AnyScorer {
        let mut any = AnyScorer {
            scorers,
            doc: TERMINATED,
        };
        any.doc = any.lowest();
        any
    }

    fn lowest(&self) -> DocId {
        self.scorers
            .iter()
            .map(|(s, _)| s.doc())
            .min()
            .unwrap_or(TERMINATED)
    }
}

impl DocSet for AnyScorer {
    fn advance(&mut self) -> DocId {
        let at = self.doc;
        for (s, _) in &mut self.scorers {
            if s.doc() == at {
                s.advance();
            }
        }
        self.doc = self.lowest();
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        for (s, _) in &mut self.scorers {
            if s.doc() < target {
                s.seek(target);
            }
        }
        self.doc = self.lowest();
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.scorers
            .iter()
            .map(|(s, _)| s.size_hint())
            .fold(0u32, u32::saturating_add)
    }

    fn cost(&self) -> u64 {
        self.scorers.iter().map(|(s, _)| s.cost()).sum()
    }
}

impl Scorer for AnyScorer {
    /// The tier of the best way the message holds the word, plus the scores of every way.
    fn score(&mut self) -> Score {
        let at = self.doc;
        let mut best: f32 = 0.0;
        let mut sum = 0.0;
        for (s, held) in self.scorers.iter_mut().filter(|(s, _)| s.doc() == at) {
            let (tier, rest) = match held {
                Some(h) => (h.bonus(), s.score()),
                None => split(s.score()),
            };
            best = best.max(tier);
            sum += rest;
        }
        best + sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::{BooleanQuery, Occur};
    use tantivy::schema::{IndexRecordOption, Schema, STORED, TEXT};
    use tantivy::{doc, Index, IndexWriter, TantivyDocument};

    /// An index of one message per text, and the word `retry` with its alternatives.
    fn setup(texts: &[&str]) -> (Index, Field, Alternatives) {
        setup_word(texts, "retry", "retries")
    }

    /// An index of one message per text, and `word` with its alternatives (`form` its other
    /// form).
    fn setup_word(texts: &[&str], typed: &str, form: &str) -> (Index, Field, Alternatives) {
        let mut schema = Schema::builder();
        let text = schema.add_text_field("text", TEXT | STORED);
        let index = Index::create_in_ram(schema.build());
        let mut writer: IndexWriter = index.writer(15_000_000).unwrap();
        for t in texts {
            writer.add_document(doc!(text => *t)).unwrap();
        }
        writer.commit().unwrap();
        let term = |w: &str| Term::from_field_text(text, w);
        let word =
            |w: &str| Alternative::Word(TermQuery::new(term(w), IndexRecordOption::WithFreqs));
        let alternatives = Alternatives(vec![
            (word(typed), 1.0, Held::Typed),
            (word(form), 0.6, Held::Form),
            (
                Alternative::Near {
                    term: term(typed),
                    prefix: false,
                },
                0.1,
                Held::Typo,
            ),
            (
                Alternative::Near {
                    term: term(typed),
                    prefix: true,
                },
                0.5,
                Held::Form,
            ),
        ]);
        (index, text, alternatives)
    }

    /// The texts `query` finds, best first.
    fn found(index: &Index, text: Field, query: &dyn Query) -> Vec<String> {
        let searcher = index.reader().unwrap().searcher();
        let top = searcher
            .search(query, &TopDocs::with_limit(10).order_by_score())
            .unwrap();
        top.into_iter()
            .map(|(_, at)| {
                let d: TantivyDocument = searcher.doc(at).unwrap();
                d.get_first(text)
                    .and_then(|v| tantivy::schema::Value::as_str(&v))
                    .unwrap()
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn the_word_then_its_form_then_a_word_it_starts_then_a_typo() {
        let texts = [
            "retyr now",
            "other words",
            "retries now",
            "retrying now",
            "retry now",
        ];
        let (index, text, alternatives) = setup(&texts);
        assert_eq!(
            found(&index, text, &alternatives),
            ["retry now", "retries now", "retrying now", "retyr now"]
        );
    }

    /// `refunds` is both another form of `refund`, one edit from it and a word it starts: it
    /// is scored as the form alone, below the word as typed.
    #[test]
    fn another_form_that_is_also_a_typo_and_a_prefix_stays_below_the_word() {
        let (index, text, alternatives) =
            setup_word(&["refunds now", "refund now"], "refund", "refunds");
        assert_eq!(
            found(&index, text, &alternatives),
            ["refund now", "refunds now"]
        );
    }

    #[test]
    fn the_word_itself_is_scored_once() {
        let (index, text, alternatives) = setup(&["retry now", "something else"]);
        let searcher = index.reader().unwrap().searcher();
        let exact = TermQuery::new(
            Term::from_field_text(text, "retry"),
            IndexRecordOption::WithFreqs,
        );
        let score = |q: &dyn Query| {
            searcher
                .search(q, &TopDocs::with_limit(1).order_by_score())
                .unwrap()[0]
                .0
        };
        assert_eq!(score(&alternatives), Held::Typed.bonus() + score(&exact));
    }

    /// Moved ahead by an intersection (a rarer word leads), the union finds every message that
    /// holds the rarer word and any alternative, and no other.
    #[test]
    fn in_an_intersection_it_finds_every_message_holding_an_alternative() {
        let texts: Vec<String> = (0..3000)
            .map(|i| {
                let w = ["retry", "retries", "retyr", "retrying", "nothing"][i % 5];
                let rare = if i % 97 == 0 { " zebra" } else { "" };
                format!("{w} number {i}{rare}")
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (index, text, alternatives) = setup(&refs);
        let zebra = || -> Box<dyn Query> {
            Box::new(TermQuery::new(
                Term::from_field_text(text, "zebra"),
                IndexRecordOption::WithFreqs,
            ))
        };
        let ours = BooleanQuery::new(vec![
            (Occur::Must, zebra()),
            (Occur::Must, Box::new(alternatives)),
        ]);
        let searcher = index.reader().unwrap().searcher();
        let count = |q: &dyn Query| searcher.search(q, &tantivy::collector::Count).unwrap();
        let want = (0..3000).filter(|i| i % 97 == 0 && i % 5 != 4).count();
        assert_eq!(count(&ours), want);
        let mut got = found(&index, text, &ours);
        got.sort();
        assert!(got
            .iter()
            .all(|t| t.ends_with("zebra") && !t.starts_with("nothing")));
    }
}
