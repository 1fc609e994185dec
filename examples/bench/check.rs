//! The benchmark's correctness check: every generated session listed by `list --json` with the
//! path, first real user message, counts, archived flag, changed files and tokens its
//! expectations give.

use std::collections::HashMap;
use std::path::Path;

use crate::common::gen;

/// The paths of a row's `files_changed`, sorted.
fn changed_paths(row: &serde_json::Value) -> Vec<String> {
    let mut paths: Vec<String> = row["files_changed"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["path"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

/// Check `list --json` output against the expectations; returns the problems.
pub fn check_list(store: &Path, json: &str, expected: &[gen::Expected]) -> Vec<String> {
    let mut got: HashMap<String, serde_json::Value> = HashMap::new();
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json row");
        got.insert(v["id"].as_str().unwrap_or_default().to_owned(), v);
    }
    let mut bad = Vec::new();
    for e in expected {
        let Some(r) = got.get(&e.id) else {
            bad.push(format!("{}: not listed", e.id));
            continue;
        };
        let path = store.join(&e.path);
        let checks = [
            (
                "path",
                r["path"].as_str() == Some(path.to_string_lossy().as_ref()),
            ),
            (
                "first_user_message",
                r["first_user_message"].as_str() == e.first_user_message.as_deref(),
            ),
            (
                "user_messages",
                r["user_messages"].as_u64() == Some(u64::from(e.user_messages)),
            ),
            (
                "assistant_messages",
                r["assistant_messages"].as_u64() == Some(u64::from(e.assistant_messages)),
            ),
            ("archived", r["archived"].as_bool() == Some(e.archived)),
            (
                "files_changed",
                e.files_changed
                    .as_ref()
                    .is_none_or(|f| changed_paths(r) == *f),
            ),
            (
                "tokens",
                e.files_changed.is_none() || r["tokens"]["total"].as_u64() == e.tokens_total,
            ),
        ];
        for (what, ok) in checks {
            if !ok {
                bad.push(format!("{}: {what} differs", e.id));
            }
        }
    }
    if got.len() != expected.len() {
        bad.push(format!(
            "{} rows for {} sessions",
            got.len(),
            expected.len()
        ));
    }
    bad
}
