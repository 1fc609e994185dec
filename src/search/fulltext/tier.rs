//! Whole words first: how a message holds each word of a query decides its rank before
//! anything else does. A word held as typed (a whole word, in a message, a part of a path, flag
//! or identifier, or the session's folder, branch or name) puts the message in a higher tier
//! than one holding only another form of it or a word it starts, that one above a typing slip
//! (`super::slips`), and a slip above any other typo. Within a tier, first what the words held tell: each word adds its information
//! (its rarity) by how it is held, so holding the rare word of the query as typed and a common
//! one in another form ranks above the other way round; then the message's score (BM25, the
//! words together, its place).
//!
//! Every score is `tier × STEP + rest`, `rest` below `STEP`: the tiers of a query's words add
//! up as their scores do, and a weight (a message's place, a session holding the words between
//! its messages) scales only the rest, the information in it stated so that the weight leaves
//! it as it was (`super::alternatives::Information`).

/// How a message holds one word of a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Held {
    /// With one typo that is no typing slip.
    Typo = 0,
    /// With one typing slip (a letter left out, two swapped, a touching key: `super::slips`).
    Slip = 1,
    /// In another form, or as the start of a longer word (the word being typed).
    Form = 2,
    /// As typed.
    Typed = 3,
}

/// One tier's width: more than any message scores within a tier.
const STEP: f32 = 10_000.0;

impl Held {
    /// The part of a word's score that says how it is held.
    pub(super) fn bonus(self) -> f32 {
        self as u8 as f32 * STEP
    }

    /// How a word is held whose score's tier part is `bonus`.
    pub(super) fn of_bonus(bonus: f32) -> Held {
        match (bonus / STEP).round() as u8 {
            0 => Held::Typo,
            1 => Held::Slip,
            2 => Held::Form,
            _ => Held::Typed,
        }
    }
}

/// What a word's information (its inverse document frequency) adds to the rest, when held as
/// typed: within a tier, a message holding the query's rare word as typed and a common one in
/// another form ranks above one holding the common word as typed and the rare one in another
/// form, whatever their lengths; messages holding the words the same ways gain alike.
const INFORMATION: f32 = 4.0;

/// What holding a word of information `info` the way `held` adds to a message's rest: all of
/// [`INFORMATION`] as typed, half in another form or as a prefix, a tenth with a typo.
pub(super) fn informed(held: Held, info: f32) -> f32 {
    let share = match held {
        Held::Typed => 1.0,
        Held::Form => 0.5,
        Held::Slip | Held::Typo => 0.1,
    };
    INFORMATION * share * info
}

/// A score's tier part and its rest.
pub(super) fn split(score: f32) -> (f32, f32) {
    let tier = (score / STEP).floor().max(0.0) * STEP;
    (tier, score - tier)
}

/// Whether a score of a query of `groups` groups holds every one as typed.
pub(super) fn every_word_typed(score: f32, groups: usize) -> bool {
    split(score).0 >= groups as f32 * Held::Typed.bonus()
}

/// `score` with its rest scaled by `factor` (its tier kept).
pub(super) fn scale(score: f32, factor: f32) -> f32 {
    let (tier, rest) = split(score);
    tier + rest * factor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_higher_tier_outranks_any_rest_and_scaling_keeps_tiers() {
        let typed = Held::Typed.bonus() + 0.5;
        let form = Held::Form.bonus() + 900.0;
        assert!(typed > form);
        assert!(scale(form, 5.0) < typed);
        assert_eq!(scale(typed, 2.0), Held::Typed.bonus() + 1.0);
        // Two words, each as typed, above one typed and one in another form, whatever the rest.
        assert!(2.0 * Held::Typed.bonus() > Held::Typed.bonus() + Held::Form.bonus() + 9_000.0);
        assert!(every_word_typed(scale(2.0 * typed, 0.5), 2));
        assert!(!every_word_typed(typed + form, 2));
    }
}
