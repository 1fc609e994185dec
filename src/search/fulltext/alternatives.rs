//! One word of a query and its alternatives (other forms, a typo, the word it starts), as one
//! Tantivy query that a message matches when it holds any of them. Its score is the tier of the
//! best way it holds the word (`super::tier`), the best way's BM25 score with a tenth of the
//! others' (holding `change`, `changed` and `changes` is holding the word once), and the word's
//! information as held that way (`tier::informed`).
//!
//! Tantivy's own union (a `BooleanQuery` of `Should` clauses) fills a window of 4,096
//! documents from every alternative each time it is moved ahead; a word in a third of the
//! messages, met in an intersection led by a rarer word, was refilled at each message of the
//! rarer word, and that took most of a keystroke at 30,000 sessions. This union moves each
//! alternative to the message asked for and no further. The typo and prefix alternatives leave
//! the word itself out (it is matched, and scored, as itself).

use tantivy::query::{EnableScoring, Explanation, PhraseQuery, Query, Scorer, TermQuery, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

use super::labels::InLabels;
use super::near::{self, Near};
use super::schema::{Place, PLACE};
use super::tier::{informed, split, Held};

/// A message holding any of the alternatives, each with the factor its score is taken at and
/// how it holds the word; and whether the word's information counts in the score.
#[derive(Clone, Debug)]
pub(super) struct Alternatives {
    pub ways: Vec<(Alternative, Score, Held)>,
    pub information: Information,
}

/// Whether a word's information (`tier::informed`) is added to a message's score for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Information {
    /// Added, stated so that it counts the same whatever the rest is scaled by later: divided
    /// by the message's place weight (`Place::weight_of`) and by `scaled_by` (the weight of a
    /// session holding the words between its messages, `spread::WEIGHT`, else 1).
    Counted { scaled_by: Score },
    /// Not added: the labels' own query, whose holders count as held by the message's query
    /// of the word, which adds it once for them.
    Left,
}

/// One way a word may be held.
#[derive(Clone, Debug)]
pub(super) enum Alternative {
    /// A word (as typed, or another form), scored by BM25.
    Word(TermQuery),
    /// Words near this one (`super::near`): every word it starts, or within one edit of it as
    /// a slip or another typo; never a word the alternatives hold as a `Word` (the word itself,
    /// its other forms), which is scored as that. Each message scores the same.
    Near { term: Term, near: Near },
    /// Words that must stand together, in order.
    Phrase(PhraseQuery),
    /// Every document of the sessions whose labels hold the word, scored (and tiered) as their
    /// labels hold it (`super::labels`); its own `Held` is not used.
    Labels(InLabels),
}

impl Query for Alternatives {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let words: Vec<Vec<u8>> = self
            .ways
            .iter()
            .filter_map(|(a, _, _)| match a {
                Alternative::Word(q) => Some(q.term().serialized_value_bytes().to_vec()),
                _ => None,
            })
            .collect();
        let info = match self.information {
            Information::Counted { scaled_by } => information(&self.ways, &scoring) / scaled_by,
            Information::Left => 0.0,
        };
        let mut weights = Vec::with_capacity(self.ways.len());
        for (alternative, factor, held) in &self.ways {
            let weight: Box<dyn Weight> = match alternative {
                Alternative::Word(q) => q.weight(scoring)?,
                Alternative::Near { term, near } => near::weight(term, *near, &words)?,
                Alternative::Phrase(q) => q.weight(scoring)?,
                Alternative::Labels(q) => {
                    weights.push((q.weight(scoring)?, *factor, None));
                    continue;
                }
            };
            weights.push((weight, *factor, Some(*held)));
        }
        Ok(Box::new(AnyWeight { weights, info }))
    }
}

/// How much holding the word as typed tells: the inverse document frequency of the word as
/// typed (of a phrase, its rarest word), as BM25 counts it; 0 without scoring.
fn information(alternatives: &[(Alternative, Score, Held)], scoring: &EnableScoring<'_>) -> Score {
    let EnableScoring::Enabled {
        statistics_provider: stats,
        ..
    } = scoring
    else {
        return 0.0;
    };
    let Ok(docs) = stats.total_num_docs() else {
        return 0.0;
    };
    // BM25's IDF, as Tantivy's scorer counts it (its own function is private to it).
    let idf = |t: &Term| {
        let freq = stats.doc_freq(t).unwrap_or(0).min(docs);
        (1.0 + ((docs - freq) as Score + 0.5) / (freq as Score + 0.5)).ln()
    };
    alternatives
        .iter()
        .find_map(|(a, _, held)| match a {
            Alternative::Word(q) if *held == Held::Typed => Some(idf(q.term())),
            Alternative::Phrase(q) => q.phrase_terms().iter().map(idf).reduce(Score::max),
            _ => None,
        })
        .unwrap_or(0.0)
}

/// Each alternative's weight, factor and how it holds the word (`None`: its score carries its
/// own tier, and its own information), and the word's information (`information`).
struct AnyWeight {
    weights: Vec<(Box<dyn Weight>, Score, Option<Held>)>,
    info: Score,
}

impl Weight for AnyWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorers = Vec::with_capacity(self.weights.len());
        for (weight, factor, held) in &self.weights {
            let scorer = weight.scorer(reader, boost * factor)?;
            if scorer.doc() != TERMINATED {
                scorers.push((scorer, *held));
            }
        }
        // The place is looked up only for the information to be stated against it.
        let place = if self.info == 0.0 {
            None
        } else {
            reader.fast_fields().u64(PLACE).ok()
        };
        Ok(Box::new(AnyScorer::new(scorers, self.info, place)))
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

/// What the ways a message holds a word count for beside the best one: a message holding
/// `change`, `changed` and `changes` holds the word no better than one holding `changes`.
const OTHERS: f32 = 0.1;

/// The union of a few scorers, each moved only as far as it is asked to.
struct AnyScorer {
    scorers: Vec<(Box<dyn Scorer>, Option<Held>)>,
    doc: DocId,
    info: Score,
    place: Option<tantivy::columnar::Column<u64>>,
}

impl AnyScorer {
    fn new(
        scorers: Vec<(Box<dyn Scorer>, Option<Held>)>,
        info: Score,
        place: Option<tantivy::columnar::Column<u64>>,
    ) -> AnyScorer {
        let mut any = AnyScorer {
            scorers,
            doc: TERMINATED,
            info,
            place,
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
    /// The tier of the best way the message holds the word, the best way's score with a little
    /// of the others', and the word's information as held the best way (`tier::informed`).
    fn score(&mut self) -> Score {
        let at = self.doc;
        let mut tier: f32 = 0.0;
        let mut sum = 0.0;
        let mut most: f32 = 0.0;
        for (s, held) in self.scorers.iter_mut().filter(|(s, _)| s.doc() == at) {
            let (t, rest) = match held {
                Some(h) => (h.bonus(), s.score()),
                None => split(s.score()),
            };
            tier = tier.max(t);
            sum += rest;
            most = most.max(rest);
        }
        let rest = most + OTHERS * (sum - most);
        if self.info == 0.0 {
            return tier + rest;
        }
        let place = self.place.as_ref().and_then(|c| c.first(at)).unwrap_or(2);
        tier + rest + informed(Held::of_bonus(tier), self.info) / Place::weight_of(place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::{BooleanQuery, Occur};
    use tantivy::schema::{Field, IndexRecordOption, Schema, STORED, TEXT};
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
        let alternatives = Alternatives {
            ways: vec![
                (word(typed), 1.0, Held::Typed),
                (word(form), 0.6, Held::Form),
                (
                    Alternative::Near {
                        term: term(typed),
                        near: Near::Slip,
                    },
                    0.1,
                    Held::Slip,
                ),
                (
                    Alternative::Near {
                        term: term(typed),
                        near: Near::Prefix,
                    },
                    0.5,
                    Held::Form,
                ),
            ],
            information: Information::Counted { scaled_by: 1.0 },
        };
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
        // Two messages, one holding the word: its information is ln 2 (no place: a reply's).
        let info = informed(Held::Typed, 2f32.ln());
        let want = Held::Typed.bonus() + score(&exact) + info;
        assert!((score(&alternatives) - want).abs() < 1e-3);
    }

    /// A message holding the word in three forms holds it no better than one holding one form:
    /// the best way counts, the others a tenth.
    #[test]
    fn more_forms_of_a_word_add_little() {
        let (index, text, alternatives) = setup_word(
            &["retries retried retrying x x x", "retries x x x x x"],
            "retry",
            "retries",
        );
        let mut alternatives = alternatives;
        for form in ["retried", "retrying"] {
            let q = TermQuery::new(
                Term::from_field_text(text, form),
                IndexRecordOption::WithFreqs,
            );
            alternatives
                .ways
                .push((Alternative::Word(q), 0.6, Held::Form));
        }
        let searcher = index.reader().unwrap().searcher();
        let top = searcher
            .search(&alternatives, &TopDocs::with_limit(2).order_by_score())
            .unwrap();
        let (many, one) = (top[0].0, top[1].0);
        assert!(many > one, "{many} {one}");
        assert!(
            many - one < 0.5 * (one - Held::Form.bonus()),
            "{many} {one}"
        );
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
