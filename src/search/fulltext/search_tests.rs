//! Ranking: the session the user remembers comes first.

use super::build::from_texts;
use super::schema::Place::{First, Prompt, Reply};

fn ids(hits: &[super::ContentHit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

/// A long session that says every word many times, scattered, and a short one that holds them
/// once, together and in order.
#[test]
fn a_phrase_beats_scattered_words_in_a_longer_session() {
    let scattered = "the webhook fired. ".repeat(40)
        + &"we retry often. ".repeat(40)
        + &"the logic is long. ".repeat(40);
    let index = from_texts(&[
        (
            "long",
            2,
            vec![(First, "Look at the service"), (Reply, &scattered)],
        ),
        (
            "phrase",
            1,
            vec![
                (First, "Fix the tests"),
                (Reply, "Rewrite the webhook retry logic now"),
            ],
        ),
    ]);
    let hits = index.search("webhook retry logic", 10);
    assert_eq!(ids(&hits), ["phrase", "long"]);
    assert_eq!(
        &hits[0].snippet[hits[0].snippet_match.clone()],
        "webhook retry logic"
    );
    assert_eq!(hits[0].first_message, 1);
}

#[test]
fn the_first_prompt_beats_a_later_prompt_beats_a_reply() {
    let index = from_texts(&[
        (
            "reply",
            3,
            vec![(First, "Hello"), (Reply, "the zanzibar protocol is done")],
        ),
        (
            "prompt",
            2,
            vec![(First, "Hello"), (Prompt, "the zanzibar protocol is done")],
        ),
        ("title", 1, vec![(First, "the zanzibar protocol is done")]),
    ]);
    assert_eq!(
        ids(&index.search("zanzibar protocol", 10)),
        ["title", "prompt", "reply"]
    );
}

#[test]
fn recency_breaks_a_tie() {
    let index = from_texts(&[
        ("old", 1, vec![(First, "deploy the kiwi service")]),
        ("new", 9, vec![(First, "deploy the kiwi service")]),
        ("mid", 5, vec![(First, "deploy the kiwi service")]),
    ]);
    assert_eq!(ids(&index.search("kiwi", 10)), ["new", "mid", "old"]);
}

#[test]
fn the_word_being_typed_matches_as_a_prefix() {
    let index = from_texts(&[("a", 1, vec![(First, "rewrite the webhooks handler")])]);
    assert_eq!(ids(&index.search("rewrite webh", 10)), ["a"]);
    // Once a space follows, the word is whole and must match as it is.
    assert!(index.search("rewrite webh ", 10).is_empty());
}

#[test]
fn a_typo_still_finds_the_word_ranked_below_an_exact_match() {
    let index = from_texts(&[
        ("exact", 1, vec![(Reply, "the migration script failed")]),
        ("typo", 9, vec![(First, "the migraton script failed")]),
    ]);
    assert_eq!(ids(&index.search("migration ", 10)), ["exact", "typo"]);
    // One transposition from "migration", more than one edit from "migraton".
    assert_eq!(ids(&index.search("migrtaion ", 10)), ["exact"]);
    // Short words must match exactly.
    assert!(
        index.search("thr ", 10).is_empty(),
        "words under five letters match exactly"
    );
}

#[test]
fn quoted_words_match_only_as_a_phrase() {
    let index = from_texts(&[
        ("apart", 9, vec![(First, "logic for the retry")]),
        ("together", 1, vec![(First, "the retry logic")]),
    ]);
    assert_eq!(ids(&index.search("\"retry logic\"", 10)), ["together"]);
    assert_eq!(
        ids(&index.search("retry logic ", 10)),
        ["together", "apart"]
    );
}

#[test]
fn case_and_accents_fold_and_empty_queries_find_nothing() {
    let index = from_texts(&[("a", 1, vec![(Reply, "Die École in der Straße")])]);
    assert_eq!(ids(&index.search("ecole STRASSE ", 10)), ["a"]);
    assert_eq!(ids(&index.search("écOLE straße ", 10)), ["a"]);
    assert!(index.search("   ", 10).is_empty());
    assert!(index.search("\"\"", 10).is_empty());
}

#[test]
fn every_word_must_be_in_one_message() {
    let index = from_texts(&[("a", 1, vec![(First, "kiwi"), (Reply, "zanzibar")])]);
    assert!(index.search("kiwi zanzibar ", 10).is_empty());
}
