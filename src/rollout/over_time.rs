//! A session's tokens over time: what each record that reports tokens added to the session's
//! running total, dated by that record and tagged with the model its turn ran on, summed by
//! quarter hour (UTC). A quarter hour is the coarsest slot every time zone's day boundary
//! falls on (zones are offset by whole quarter hours), so a day, week or month in any zone is
//! a sum of slots; a session that runs over midnight counts on both days.
//!
//! Pure. A session holds a few slots (one per quarter hour it used tokens in, per model), kept
//! in its rows-cache state so that usage over time reads no session file.

use serde::{Deserialize, Serialize};

use super::tokens::Tokens;
use crate::timefmt::Millis;

/// Milliseconds in a slot.
pub const SLOT_MS: Millis = 15 * 60 * 1000;

/// No model: the record came before any turn named one.
pub const NO_MODEL: u8 = u8::MAX;

/// The tokens added in one quarter hour on one model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// Quarter hours since the Unix epoch; 0 when the records gave no time (the session's own
    /// start dates them).
    pub at: u32,
    /// The index of the model in the session's models (first-used order), or [`NO_MODEL`].
    pub model: u8,
    pub tokens: Tokens,
}

impl Slot {
    /// When the slot starts, in milliseconds since the epoch (`start` for an undated slot).
    pub fn start_ms(&self, start: Millis) -> Millis {
        if self.at == 0 {
            start
        } else {
            Millis::from(self.at) * SLOT_MS
        }
    }
}

/// A session's slots, in the order its records came.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverTime(Vec<Slot>);

/// The slot of a time (0 for none, or one before 1970).
pub fn slot_of(at: Option<Millis>) -> u32 {
    at.filter(|ms| *ms > 0)
        .and_then(|ms| u32::try_from(ms / SLOT_MS).ok())
        .unwrap_or(0)
}

impl OverTime {
    pub fn slots(&self) -> &[Slot] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Count `growth` at `at` on model `model`. A record with no time counts in the slot of
    /// the record before it (the session's start when none).
    pub fn add(&mut self, at: Option<Millis>, model: u8, growth: Tokens) {
        if growth == Tokens::default() {
            return;
        }
        let at = match slot_of(at) {
            0 => self.0.last().map_or(0, |s| s.at),
            at => at,
        };
        match self.0.last_mut() {
            Some(last) if last.at == at && last.model == model => {
                last.tokens = last.tokens.plus(growth);
            }
            _ => self.0.push(Slot {
                at,
                model,
                tokens: growth,
            }),
        }
    }

    /// Take `base` off the earliest slots: a fork's records carry on its parent's running
    /// total, and only what the fork added is its own.
    pub fn take_base(&mut self, base: Tokens) {
        let mut left = base;
        for slot in &mut self.0 {
            if left == Tokens::default() {
                break;
            }
            let kept = slot.tokens.since(left);
            left = left.since(slot.tokens);
            slot.tokens = kept;
        }
        self.0.retain(|s| s.tokens != Tokens::default());
    }

    /// Everything the slots hold.
    pub fn total(&self) -> Tokens {
        self.0
            .iter()
            .fold(Tokens::default(), |sum, s| sum.plus(s.tokens))
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(total: u64) -> Tokens {
        Tokens {
            input: total,
            total,
            ..Tokens::default()
        }
    }

    const DAY: Millis = 86_400_000;

    #[test]
    fn growth_is_summed_by_quarter_hour_and_model() {
        let mut o = OverTime::default();
        let at = 20_000 * DAY + 23 * 3_600_000 + 50 * 60_000;
        o.add(Some(at), 0, t(10));
        o.add(Some(at + 60_000), 0, t(5));
        o.add(Some(at + 60_000), 1, t(7));
        o.add(Some(at + 20 * 60_000), 1, t(3));
        assert_eq!(o.slots().len(), 3);
        assert_eq!(o.slots()[0].tokens.total, 15);
        assert_eq!(o.slots()[2].start_ms(0), 20_001 * DAY);
        assert_eq!(o.total().total, 25);
        o.add(None, 1, t(1));
        assert_eq!(o.slots().len(), 3, "an undated record joins the one before");
        o.add(Some(at), 0, Tokens::default());
        assert_eq!(o.slots().len(), 3, "nothing added, no slot");
    }

    #[test]
    fn a_forks_base_comes_off_its_first_slots() {
        let mut o = OverTime::default();
        o.add(Some(DAY), 0, t(100));
        o.add(Some(2 * DAY), 0, t(30));
        o.add(Some(3 * DAY), 0, t(5));
        o.take_base(t(120));
        assert_eq!(o.slots().len(), 2);
        assert_eq!(o.slots()[0].tokens.total, 10);
        assert_eq!(o.total().total, 15);
    }

    #[test]
    fn undated_sessions_count_at_their_start() {
        let mut o = OverTime::default();
        o.add(None, NO_MODEL, t(4));
        assert_eq!(o.slots()[0].start_ms(123), 123);
        assert_eq!(slot_of(Some(-5)), 0);
    }
}
