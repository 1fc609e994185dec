//! An assistant message's `usage`, counted once: the rows of one message (`message.id`) each
//! repeat it, so only what a later row of the same message adds is counted. Input is the
//! uncached, cache-creation and cache-read tokens together (cached: the cache reads), output
//! the output tokens (reasoning: the thinking tokens among them), total input and output.
//!
//! Pure and lenient: a count that is missing or not a number is 0.

use serde_json::Value;

use super::carry::Carry;
use crate::rollout::usage::Tokens;

/// The tokens one `usage` object reports.
pub(crate) fn of_usage(usage: &Value) -> Tokens {
    let n = |k: &str| usage.get(k).and_then(Value::as_u64).unwrap_or(0);
    let input = n("input_tokens")
        .saturating_add(n("cache_creation_input_tokens"))
        .saturating_add(n("cache_read_input_tokens"));
    let output = n("output_tokens");
    let reasoning = usage
        .get("output_tokens_details")
        .and_then(|d| d.get("thinking_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(output);
    Tokens {
        input,
        cached_input: n("cache_read_input_tokens"),
        output,
        reasoning,
        total: input.saturating_add(output),
    }
}

/// Count the usage of a row of message `id` into `carry`'s running total; `true` when the
/// total grew.
pub(crate) fn count(carry: &mut Carry, id: Option<&str>, usage: Tokens) -> bool {
    let added = match id {
        Some(id) if carry.last_message.as_deref() == Some(id) => {
            let last = carry.last_usage;
            let grown = usage.since(last);
            carry.last_usage = most(last, usage);
            grown
        }
        _ => {
            carry.last_message = id.map(str::to_owned);
            carry.last_usage = usage;
            usage
        }
    };
    if added == Tokens::default() {
        return false;
    }
    let t = &mut carry.tokens;
    t.input = t.input.saturating_add(added.input);
    t.cached_input = t.cached_input.saturating_add(added.cached_input);
    t.output = t.output.saturating_add(added.output);
    t.reasoning = t.reasoning.saturating_add(added.reasoning);
    t.total = t.total.saturating_add(added.total);
    true
}

/// Each count's larger.
fn most(a: Tokens, b: Tokens) -> Tokens {
    Tokens {
        input: a.input.max(b.input),
        cached_input: a.cached_input.max(b.cached_input),
        output: a.output.max(b.output),
        reasoning: a.reasoning.max(b.reasoning),
        total: a.total.max(b.total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_message_is_counted_once_and_its_growth_added() {
        let u = of_usage(
            &json!({"input_tokens":1200,"cache_creation_input_tokens":200,
            "cache_read_input_tokens":800,"output_tokens":40}),
        );
        assert_eq!(
            (u.input, u.cached_input, u.output, u.total),
            (2200, 800, 40, 2240)
        );
        let mut carry = Carry::default();
        assert!(count(&mut carry, Some("m1"), u));
        assert!(!count(&mut carry, Some("m1"), u));
        let more = Tokens {
            output: 50,
            total: 2250,
            ..u
        };
        assert!(count(&mut carry, Some("m1"), more));
        assert_eq!(carry.tokens.output, 50);
        assert!(count(&mut carry, Some("m2"), u));
        assert_eq!(carry.tokens.total, 2250 + 2240);
    }

    #[test]
    fn counts_of_the_wrong_type_are_zero() {
        let u = of_usage(&json!({"input_tokens":"x","output_tokens":-1}));
        assert_eq!(u, Tokens::default());
    }
}
