//! Names are words, whole words first: what a person types of a name they saw finds the session
//! that names it, and a word held as typed ranks above a form, a prefix or a typo of it.

use super::build::from_texts;
use super::schema::Place::{First, Reply};

fn ids(hits: &[super::ContentHit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

/// A file stem finds the session naming the file, above the longer sessions holding only
/// `random` (a word it starts, while it is being typed) many times.
#[test]
fn a_file_stem_typed_finds_the_file_above_words_it_starts() {
    let random = "We pick a random seed, randomly, from random bytes. ".repeat(3);
    let index = from_texts(&[
        (
            "random1",
            3,
            vec![(First, "random seeds"), (Reply, &random)],
        ),
        ("random2", 2, vec![(First, "Shuffle the random tests")]),
        (
            "stem",
            1,
            vec![
                (First, "Add the rng_seed option to the builder"),
                (
                    Reply,
                    "Found it in `tokio/src/util/rand.rs` around FastRand.",
                ),
            ],
        ),
    ]);
    let hits = index.search("rand", 10);
    assert_eq!(ids(&hits)[0], "stem");
    assert_eq!(&hits[0].snippet[hits[0].snippet_match.clone()], "rand");
    assert_eq!(hits.len(), 3, "the prefix still finds the others");
}

/// Another form reaches a word inside a path, and a flag's parts are words.
#[test]
fn a_form_and_a_flag_reach_into_paths() {
    let index = from_texts(&[
        (
            "doc",
            1,
            vec![
                (First, "could you make `--config <PATH>` more prominent"),
                (
                    Reply,
                    "Changed `src/doc/src/reference/config.md`. Ran `cargo doc --no-deps`.",
                ),
            ],
        ),
        ("other", 2, vec![(First, "prominent deps everywhere")]),
    ]);
    assert_eq!(
        ids(&index.search("deps referencing prominent", 10)),
        ["doc"]
    );
    assert_eq!(ids(&index.search("--no-deps prominent", 10)), ["doc"]);
    assert_eq!(ids(&index.search("config.md", 10)), ["doc"]);
}

/// A camelCase name is found by a part, and typed whole.
#[test]
fn a_camel_case_name_is_found_by_its_part_and_whole() {
    let index = from_texts(&[
        (
            "camel",
            1,
            vec![(Reply, "The fix is in readManifest(path), called twice.")],
        ),
        ("plain", 2, vec![(Reply, "Nothing about the file here.")]),
    ]);
    assert_eq!(ids(&index.search("manifest twice", 10)), ["camel"]);
    assert_eq!(ids(&index.search("readManifest", 10)), ["camel"]);
    assert_eq!(ids(&index.search("\"readmanifest path\"", 10)), ["camel"]);
    let hit = &index.search("manifest ", 10)[0];
    assert_eq!(&hit.snippet[hit.snippet_match.clone()], "Manifest");
}

/// Three whole words of a first prompt put it above shorter prompts that hold one of them only
/// in another form or inside `fix.rs`, and above a newer reply holding them scattered.
#[test]
fn whole_words_of_a_prompt_rank_above_forms_at_any_length() {
    let long_prompt = format!(
        "Objective: Fix missing terminator for the sed command. {} In an earlier change \
         (t: refactor tests depending on Perl) we changed some of the tests.",
        "Some background on the harness and its history. ".repeat(8)
    );
    let index = from_texts(&[
        ("forms", 4, vec![(First, "Fix refactoring of the tests")]),
        (
            "path",
            3,
            vec![(First, "explain commands/fix.rs, refactor its tests")],
        ),
        ("typo", 2, vec![(First, "Fix the refactr tests")]),
        ("target", 1, vec![(First, long_prompt.as_str())]),
    ]);
    // `fix.rs` holds `fix` as a whole word (a part of a path is a word): both are whole.
    let got = ids(&index.search("fix refactor tests", 10)).join(" ");
    assert!(
        got.starts_with("target path") || got.starts_with("path target"),
        "{got}"
    );
    assert!(got.ends_with("forms typo"), "{got}");
}

/// A folder word found in the labels counts in every message of the session, whichever word
/// comes first in the query, and a session found by its labels alone is found too; one
/// session's labels among many too.
#[test]
fn a_label_word_counts_in_every_message_of_its_session() {
    let mut sessions: Vec<(&str, i64, Vec<_>)> = Vec::new();
    let names: Vec<String> = (0..30).map(|i| format!("s{i}")).collect();
    for (i, n) in names.iter().enumerate() {
        let label = match i {
            _ if i % 3 == 0 => "work/repo\nfix/b0",
            7 => "work/zebra\nmain",
            _ => "work/other\nmain",
        };
        let messages = vec![
            (First, "The terminal flickers when scrolling"),
            (Reply, "Fixed it in the renderer."),
            (super::schema::Place::Label, label),
        ];
        sessions.push((n.as_str(), i as i64, messages));
    }
    let index = from_texts(&sessions);
    let third = |h: &super::ContentHit| h.id[1..].parse::<usize>().unwrap() % 3 == 0;
    for q in [
        "repo terminal",
        "terminal repo",
        "repo terminal ",
        "fix repo",
        "repo",
    ] {
        let hits = index.search(q, 50);
        assert_eq!(hits.len(), 10, "{q}");
        assert!(hits.iter().all(third), "{q}");
    }
    for q in ["zebra terminal", "terminal zebra", "zebra"] {
        assert_eq!(ids(&index.search(q, 50)), ["s7"], "{q}");
    }
}

/// A session holding the words as typed between two messages ranks above one whose single
/// message holds one of them only with a typo, though that session's message also matched.
#[test]
fn typed_words_between_messages_beat_one_message_with_a_typo() {
    let index = from_texts(&[
        (
            "typo",
            2,
            vec![(Reply, "Severity is the same for every warning here.")],
        ),
        (
            "spread",
            1,
            vec![
                (First, "is it safe to search build directories first?"),
                (
                    Reply,
                    "The relevant code is Severity in custom_build.rs, also same.",
                ),
            ],
        ),
    ]);
    assert_eq!(ids(&index.search("safe severity", 10)), ["spread", "typo"]);
}
