//! Reading-rules section 5, the transcript source chosen per role, on a file whose prompts are
//! events while its replies are only `response` rows (tests/fixtures/split-roles): the replies
//! are listed, counted, shown and searchable, plain and compressed.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn split_store() -> PathBuf {
    fixtures().join("split-roles")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(split_store().join("expected.jsonl")).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// Every message `show --json` prints, as (role, text).
fn shown(home: &Path, id: &str) -> Vec<(String, String)> {
    let out = run(&["show", id, "--json", "--codex-home", home.to_str().unwrap()]);
    assert!(out.status.success(), "show {id}: {}", stderr(&out));
    json_lines(&stdout(&out))
        .iter()
        .map(|v| {
            let role = v["role"].as_str().unwrap().to_owned();
            (role, v["text"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn check(home: &Path) {
    let case = expected();
    let id = case["id"].as_str().unwrap();
    let rows = list_json(home, &[]);
    assert_eq!(rows.len(), 1);
    let row = row(&rows, id);
    assert_eq!(row["first_user_message"], case["first_user_message"]);
    assert_eq!(row["user_messages"], case["user_messages"]);
    assert_eq!(row["assistant_messages"], case["assistant_messages"]);
    let messages = shown(home, id);
    let roles: Vec<&str> = messages.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant"],
        "file order"
    );
    let replies: Vec<&str> = messages
        .iter()
        .filter(|(r, _)| r == "assistant")
        .map(|(_, t)| t.as_str())
        .collect();
    let want: Vec<&str> = case["assistant_texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(replies, want);
    // The text view shows the replies too, and content search finds a word only they hold.
    let out = run(&["show", id, "--codex-home", home.to_str().unwrap()]);
    assert!(stdout(&out).contains(want[1]), "{}", stdout(&out));
    let out = run(&[
        "list",
        "--content",
        "starts with a hash",
        "--json",
        "--codex-home",
        home.to_str().unwrap(),
    ]);
    let hits = json_lines(&stdout(&out));
    assert_eq!(hits.len(), 1, "{}", stdout(&out));
    assert_eq!(hits[0]["id"], id);
}

#[test]
fn replies_kept_only_as_response_rows_are_read() {
    check(&split_store());
}

#[test]
fn replies_kept_only_as_response_rows_are_read_when_compressed() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&split_store(), tmp.path());
    for entry in walkdir::WalkDir::new(tmp.path()) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "jsonl")
            && entry.file_name().to_string_lossy().starts_with("rollout-")
        {
            let bytes = std::fs::read(entry.path()).unwrap();
            let packed = zstd::encode_all(&bytes[..], 3).unwrap();
            std::fs::write(entry.path().with_extension("jsonl.zst"), packed).unwrap();
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    check(tmp.path());
}
