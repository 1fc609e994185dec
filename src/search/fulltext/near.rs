//! The words near a typed one, as one alternative of it (`super::alternatives`): every word it
//! starts (the word being typed), the words it is a typing slip of (`super::slips`), or the
//! other words one edit from it (a letter put in, dropped, swapped or changed; a swap counts
//! as one edit). Found in the index's dictionary by an automaton, so a keystroke walks only the
//! words that may match; the word itself and its other forms are left out (they are scored as
//! themselves).

use tantivy::query::{AutomatonWeight, FuzzyTermQuery, Weight};
use tantivy::Term;
use tantivy_fst::Automaton;

use super::slips;

/// Which words near the typed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Near {
    /// Every word the typed one starts.
    Prefix,
    /// The words one edit away that the typed one is a slip of.
    Slip,
    /// The other words one edit away.
    Typo,
}

/// The words near `term` that `near` says, but `except`, constant-scored.
pub(super) fn weight(
    term: &Term,
    near: Near,
    except: &[Vec<u8>],
) -> tantivy::Result<Box<dyn Weight>> {
    let query = match near {
        Near::Prefix => FuzzyTermQuery::new_prefix(term.clone(), 0, false),
        Near::Slip | Near::Typo => FuzzyTermQuery::new(term.clone(), 1, true),
    };
    let typed = term.serialized_value_bytes().to_vec();
    let automaton = Except {
        inner: query.automaton()?,
        words: except.to_vec(),
        near,
        typed,
    };
    Ok(Box::new(AutomatonWeight::new(term.field(), automaton)))
}

/// Longest word spelt out ([`Spelt`]); the index holds none longer (`schema`).
const LONGEST: usize = 72;

/// The bytes of the word read so far (`len` past [`LONGEST`]: too long to be any).
#[derive(Clone)]
pub(super) struct Spelt {
    bytes: [u8; LONGEST],
    len: usize,
}

impl Spelt {
    fn word(&self) -> Option<&[u8]> {
        self.bytes.get(..self.len)
    }
}

/// An automaton's words, but the ones left out and, for slips and typos, those of the other
/// kind.
struct Except<A> {
    inner: A,
    words: Vec<Vec<u8>>,
    near: Near,
    typed: Vec<u8>,
}

impl<A: Automaton> Automaton for Except<A> {
    type State = (A::State, Spelt);

    fn start(&self) -> Self::State {
        let spelt = Spelt {
            bytes: [0; LONGEST],
            len: 0,
        };
        (self.inner.start(), spelt)
    }

    fn is_match(&self, (state, spelt): &Self::State) -> bool {
        if !self.inner.is_match(state) {
            return false;
        }
        let Some(word) = spelt.word() else {
            return false;
        };
        if self.words.iter().any(|w| w == word) {
            return false;
        }
        match self.near {
            Near::Prefix => true,
            Near::Slip => slips::is_slip(&self.typed, word),
            Near::Typo => !slips::is_slip(&self.typed, word),
        }
    }

    fn can_match(&self, (state, _): &Self::State) -> bool {
        self.inner.can_match(state)
    }

    fn accept(&self, (state, spelt): &Self::State, byte: u8) -> Self::State {
        let mut next = spelt.clone();
        if let Some(b) = next.bytes.get_mut(spelt.len) {
            *b = byte;
        }
        next.len = spelt.len.saturating_add(1);
        (self.inner.accept(state, byte), next)
    }
}
