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
    let field = term.field();
    if near == Near::Prefix {
        let query = FuzzyTermQuery::new_prefix(term.clone(), 0, false);
        let automaton = LeftOut {
            inner: query.automaton()?,
            words: except.iter().take(LEFT_OUT_MOST).cloned().collect(),
        };
        return Ok(Box::new(AutomatonWeight::new(field, automaton)));
    }
    let query = FuzzyTermQuery::new(term.clone(), 1, true);
    let automaton = Edits {
        inner: query.automaton()?,
        words: except.to_vec(),
        slips: near == Near::Slip,
        typed: term.serialized_value_bytes().to_vec(),
    };
    Ok(Box::new(AutomatonWeight::new(field, automaton)))
}

/// Most words a [`LeftOut`] leaves out (one bit each).
const LEFT_OUT_MOST: usize = 32;

/// An automaton's words, but a few.
struct LeftOut<A> {
    inner: A,
    words: Vec<Vec<u8>>,
}

impl<A: Automaton> Automaton for LeftOut<A> {
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

/// Longest word spelt out ([`Spelt`]); the index holds none longer (`schema`).
const LONGEST: usize = 72;

/// The bytes of the word read so far (`len` past [`LONGEST`]: too long to be any).
#[derive(Clone)]
struct Spelt {
    bytes: [u8; LONGEST],
    len: usize,
}

/// The words of an automaton of words one edit from `typed`, but `words`: the slips of it
/// (`slips`), or the others. (A prefix's words are many and need no spelling out: only these
/// carry it, and check the words left out against it.)
struct Edits<A> {
    inner: A,
    words: Vec<Vec<u8>>,
    slips: bool,
    typed: Vec<u8>,
}

impl<A: Automaton> Automaton for Edits<A> {
    type State = (A::State, Spelt);

    fn start(&self) -> Self::State {
        let spelt = Spelt {
            bytes: [0; LONGEST],
            len: 0,
        };
        (self.inner.start(), spelt)
    }

    fn is_match(&self, (state, spelt): &Self::State) -> bool {
        let Some(word) = spelt.bytes.get(..spelt.len) else {
            return false;
        };
        self.inner.is_match(state)
            && !self.words.iter().any(|w| w == word)
            && slips::is_slip(&self.typed, word) == self.slips
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
