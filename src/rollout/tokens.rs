//! A count of tokens: input (of it cached), output (of it reasoning) and their total, with
//! the two sums every reader of them needs (growth over an earlier count, and addition).
//!
//! Pure.

use serde::{Deserialize, Serialize};

/// Tokens of a session: codex's cumulative counts. `cached_input` is part of `input`,
/// `reasoning` part of `output`, and `total` is input and output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub input: u64,
    pub cached_input: u64,
    pub output: u64,
    pub reasoning: u64,
    pub total: u64,
}

impl Tokens {
    /// What was added since `base` (an earlier running total), never below zero.
    pub fn since(self, base: Tokens) -> Tokens {
        Tokens {
            input: self.input.saturating_sub(base.input),
            cached_input: self.cached_input.saturating_sub(base.cached_input),
            output: self.output.saturating_sub(base.output),
            reasoning: self.reasoning.saturating_sub(base.reasoning),
            total: self.total.saturating_sub(base.total),
        }
    }

    /// Both together.
    pub fn plus(self, other: Tokens) -> Tokens {
        Tokens {
            input: self.input.saturating_add(other.input),
            cached_input: self.cached_input.saturating_add(other.cached_input),
            output: self.output.saturating_add(other.output),
            reasoning: self.reasoning.saturating_add(other.reasoning),
            total: self.total.saturating_add(other.total),
        }
    }
}
