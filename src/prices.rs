//! What tokens cost, only as the user's config file says (`[prices."<model>"]`, US dollars per
//! million tokens): codex-picker carries no price list of its own, which would go stale. A
//! session's cost is given only when every model it ran on has a price, and it ran on one
//! (codex's running total does not say which model used which tokens).
//!
//! Pure.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::rollout::usage::Tokens;

/// One model's prices, in US dollars per million tokens. Cached input costs what input costs
/// unless it is given.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub cached_input: Option<f64>,
    pub output: f64,
}

/// Prices by model name, as written in the config file.
pub(crate) type Prices = BTreeMap<String, Price>;

/// The cost in US dollars of `tokens` used by a session that ran on `models`, when `prices`
/// say it: `None` with no model, several models, or a model without a price.
pub(crate) fn cost(tokens: &Tokens, models: &[String], prices: &Prices) -> Option<f64> {
    let [model] = models else { return None };
    let price = prices.get(model)?;
    let cached = tokens.cached_input.min(tokens.input);
    let fresh = tokens.input - cached;
    let per = 1_000_000.0;
    Some(
        (fresh as f64 * price.input
            + cached as f64 * price.cached_input.unwrap_or(price.input)
            + tokens.output as f64 * price.output)
            / per,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_only_from_the_prices_given() {
        let tokens = Tokens {
            input: 2_000_000,
            cached_input: 1_000_000,
            output: 100_000,
            reasoning: 50_000,
            total: 2_100_000,
        };
        let mut prices = Prices::new();
        prices.insert(
            "gpt-5.5".into(),
            Price {
                input: 1.25,
                cached_input: Some(0.125),
                output: 10.0,
            },
        );
        let one = ["gpt-5.5".to_owned()];
        let got = cost(&tokens, &one, &prices).unwrap();
        assert!((got - (1.25 + 0.125 + 1.0)).abs() < 1e-9, "{got}");
        assert_eq!(cost(&tokens, &["o3".to_owned()], &prices), None);
        assert_eq!(cost(&tokens, &[], &prices), None);
        let two = ["gpt-5.5".to_owned(), "o3".to_owned()];
        assert_eq!(cost(&tokens, &two, &prices), None);
    }
}
