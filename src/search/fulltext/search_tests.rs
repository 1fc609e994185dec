//! Ranking: the session the user remembers comes first.

use super::build::from_texts;
use super::schema::Place::{First, Label, Prompt, Reply};

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
        "words under four letters match exactly"
    );
    // Four letters are enough for one slip.
    let index = from_texts(&[("fail", 1, vec![(Reply, "the tests fail often")])]);
    assert_eq!(ids(&index.search("fial ", 10)), ["fail"]);
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
fn every_word_must_be_in_the_session_each_in_any_message() {
    let index = from_texts(&[
        ("a", 1, vec![(First, "kiwi"), (Reply, "zanzibar")]),
        ("b", 2, vec![(First, "kiwi"), (Reply, "mango")]),
    ]);
    assert_eq!(ids(&index.search("kiwi zanzibar ", 10)), ["a"]);
    assert!(index.search("kiwi zanzibar papaya ", 10).is_empty());
}

#[test]
fn a_prompt_word_and_a_reply_word_find_the_session_below_one_message_holding_both() {
    let index = from_texts(&[
        (
            "spread",
            9,
            vec![
                (First, "add a webhook for payments"),
                (Reply, "done, with jitter on the retries"),
            ],
        ),
        ("together", 1, vec![(First, "the webhook needs jitter")]),
        ("neither", 5, vec![(First, "the webhook is fine")]),
    ]);
    let hits = index.search("webhook jitter", 10);
    assert_eq!(ids(&hits), ["together", "spread"]);
    let snippet = &hits[1].snippet[hits[1].snippet_match.clone()];
    assert!(["webhook", "jitter"].contains(&snippet), "{snippet}");
    // Every word must be somewhere in the session.
    assert!(index.search("webhook quokka", 10).is_empty());
    // A quoted phrase stays a phrase: no session holds these words together.
    assert!(index.search("\"webhook jitter\"", 10).is_empty());
}

#[test]
fn another_form_finds_the_word_below_the_form_as_typed() {
    let index = from_texts(&[
        ("retry", 9, vec![(First, "add a retry to the client")]),
        ("retries", 1, vec![(First, "add retries to the client")]),
        ("other", 5, vec![(First, "add a timeout to the client")]),
    ]);
    assert_eq!(
        ids(&index.search("retries client", 10)),
        ["retries", "retry"]
    );
    assert_eq!(ids(&index.search("failing", 10)), Vec::<&str>::new());
    let index = from_texts(&[("fail", 1, vec![(Reply, "the tests fail on main")])]);
    assert_eq!(ids(&index.search("failing tests", 10)), ["fail"]);
}

#[test]
fn folder_branch_and_name_words_find_their_sessions() {
    let index = from_texts(&[
        (
            "acme",
            1,
            vec![
                (First, "make the retries back off"),
                (Label, "src/acme-api\nfix/backoff"),
            ],
        ),
        ("other", 9, vec![(First, "make the retries back off")]),
    ]);
    assert_eq!(ids(&index.search("acme-api retries", 10)), ["acme"]);
    assert_eq!(ids(&index.search("api backoff", 10)), ["acme"]);
    assert_eq!(ids(&index.search("retries", 10)), ["other", "acme"]);
}

/// Within a tier, the session holding the query's rare word as typed (and the common one in
/// another form) ranks above sessions holding the common word as typed and only another form
/// of the rare one, even where those hold them in a short first prompt and it in a long reply.
#[test]
fn the_rare_word_as_typed_outranks_the_common_word_as_typed() {
    let long_reply = "The lockfile-pathed docs are done. ".to_owned()
        + &"Every section now reads the same way and the examples build. ".repeat(30)
        + "One change to the index as well.";
    let mut sessions = vec![(
        "rare",
        1,
        vec![
            (First, "add docs for the lockfile"),
            (Reply, long_reply.as_str()),
        ],
    )];
    let common: Vec<String> = (0..20)
        .map(|i| format!("changes to the path of module {i}"))
        .collect();
    let names: Vec<String> = (0..20).map(|i| format!("common{i}")).collect();
    for (name, text) in names.iter().zip(&common) {
        sessions.push((name.as_str(), 5, vec![(First, text.as_str())]));
    }
    let index = from_texts(&sessions);
    let hits = index.search("changes pathed", 10);
    assert_eq!(
        hits.first().map(|h| h.id.as_str()),
        Some("rare"),
        "{:?}",
        ids(&hits)
    );
}

/// A typo that is a typing slip of a word (`usges`: `usages` with a letter left out) ranks
/// above another word one edit away (`uses`, a far key put in), even where that one is in a
/// first prompt and the slip's word in a reply; both are found.
#[test]
fn a_typing_slip_ranks_above_another_typo() {
    let index = from_texts(&[
        (
            "slip",
            1,
            vec![
                (First, "tidy the macros"),
                (Reply, "replaced the usages of the macro"),
            ],
        ),
        ("other", 9, vec![(First, "the macro uses a global")]),
    ]);
    assert_eq!(ids(&index.search("macro usges ", 10)), ["slip", "other"]);
}
