//! The reader on real codex files: exact first messages and counts for every fixture, plain and
//! compressed, and the reading rules a user would check on small hand-made stores.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn expected() -> Vec<Value> {
    let text = std::fs::read_to_string(real_fixtures().join("expected.jsonl")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `show --json` counts of user and assistant messages.
fn show_counts(home: &Path, id: &str) -> (u64, u64) {
    let out = run(&["show", id, "--json", "--codex-home", home.to_str().unwrap()]);
    assert!(out.status.success(), "show {id}: {}", stderr(&out));
    let mut counts = (0, 0);
    for line in stdout(&out).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["role"].as_str() {
            Some("user") => counts.0 += 1,
            Some("assistant") => counts.1 += 1,
            other => panic!("unexpected role {other:?}"),
        }
    }
    counts
}

/// Check every expected fixture against the store laid out at `root/<version>`.
fn check_all(root: &Path) {
    let expected = expected();
    assert_eq!(expected.len(), 36, "all fixture files are covered");
    let mut by_version: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    for e in expected {
        by_version
            .entry(e["version"].as_str().unwrap().to_owned())
            .or_default()
            .push(e);
    }
    for (version, cases) in by_version {
        let home = root.join(&version);
        let rows = list_json(&home, &[]);
        assert_eq!(rows.len(), cases.len(), "{version}: one row per file");
        for case in cases {
            let id = case["id"].as_str().unwrap();
            let row = row(&rows, id);
            assert_eq!(
                row["first_user_message"], case["first_user_message"],
                "{version} {id}"
            );
            assert_eq!(
                row["user_messages"], case["user_messages"],
                "{version} {id}"
            );
            assert_eq!(
                row["assistant_messages"], case["assistant_messages"],
                "{version} {id}"
            );
            let (user, assistant) = show_counts(&home, id);
            assert_eq!(
                Some(user),
                case["user_messages"].as_u64(),
                "show {version} {id}"
            );
            assert_eq!(
                Some(assistant),
                case["assistant_messages"].as_u64(),
                "show {version} {id}"
            );
        }
    }
}

fn compress_all(dir: &Path, keep_plain: bool) {
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("rollout-") && name.ends_with(".jsonl") {
            let bytes = std::fs::read(entry.path()).unwrap();
            let packed = zstd::encode_all(&bytes[..], 3).unwrap();
            std::fs::write(entry.path().with_extension("jsonl.zst"), packed).unwrap();
            if !keep_plain {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
    }
}

#[test]
fn every_real_fixture_is_read_exactly() {
    check_all(&real_fixtures());
}

#[test]
fn every_real_fixture_is_read_exactly_when_compressed() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&real_fixtures(), tmp.path());
    compress_all(tmp.path(), false);
    check_all(tmp.path());
    let rows = list_json(&tmp.path().join("0.171.0"), &[]);
    assert!(rows
        .iter()
        .all(|r| r["path"].as_str().unwrap().ends_with(".jsonl.zst")));
}

#[test]
fn plain_file_wins_over_its_zst_twin() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&real_fixtures(), tmp.path());
    compress_all(tmp.path(), true);
    check_all(tmp.path());
    let rows = list_json(&tmp.path().join("0.120.0"), &[]);
    assert_eq!(rows.len(), 9, "each session once");
    assert!(rows
        .iter()
        .all(|r| r["path"].as_str().unwrap().ends_with(".jsonl")));
}

#[test]
fn hash_and_angle_prompts_are_kept_agents_md_skipped() {
    let rows = list_json(&real_fixtures().join("0.160.0"), &[]);
    let first = |id: &str| {
        row(&rows, id)["first_user_message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(first("01a22be3-821f-7840-9a3c-551d599124f8").starts_with("# Fix the login bug"));
    assert!(first("01a22be3-8e29-7dc1-a427-190b0180be99").starts_with("<div class="));
    assert_eq!(
        first("01a22be3-b02a-7c00-87f6-fecbba6acb11"),
        "What rules does this project have?"
    );
    let preview = row(&rows, "01a22be3-821f-7840-9a3c-551d599124f8")["preview"]
        .as_str()
        .unwrap();
    assert_eq!(
        preview,
        "# Fix the login bug The session cookie is dropped after redirect."
    );
}

#[test]
fn names_come_from_the_session_index() {
    let rows = list_json(&real_fixtures().join("0.171.0"), &[]);
    let named: Vec<_> = rows.iter().filter(|r| !r["name"].is_null()).collect();
    assert_eq!(named.len(), 1);
    assert_eq!(named[0]["id"], "01a22be8-1d47-79f0-99fd-e14291b12af2");
    assert_eq!(named[0]["name"], "Interactive TUI prompt: hello from tmux");
}

#[test]
fn exec_sessions_are_listed_and_labelled() {
    let rows = list_json(&real_fixtures().join("0.120.0"), &[]);
    let exec = rows
        .iter()
        .filter(|r| r["session_source"] == "exec")
        .count();
    assert_eq!(exec, 8);
    assert!(rows
        .iter()
        .all(|r| r["interactive"] == (r["session_source"] != "exec")));
}

#[test]
fn ide_wrapper_is_stripped_from_the_preview_only() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "00000000-0000-7000-8000-000000000001";
    let typed = "# Context from my IDE setup:\n\n## Open tabs:\n- a.ts\n\n## My request for Codex:\nAdd a dark mode toggle\n";
    write_lines(
        tmp.path(),
        &rollout_rel(id),
        &[meta_line(id, "/w"), user_event(typed)],
    );
    let rows = list_json(tmp.path(), &[]);
    assert_eq!(rows[0]["preview"], "Add a dark mode toggle");
    assert_eq!(
        rows[0]["first_user_message"], typed,
        "the message itself is exact"
    );
}

#[test]
fn a_prompt_five_megabytes_into_a_file_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "00000000-0000-7000-8000-000000000002";
    let mut lines = vec![meta_line(id, "/w")];
    let context = format!(
        "<environment_context>{}</environment_context>",
        "y".repeat(512 << 10)
    );
    for _ in 0..10 {
        lines.push(response_user(&context));
    }
    lines.push(user_event("the real question"));
    lines.push(agent_event("answer", "final_answer"));
    let path = write_lines(tmp.path(), &rollout_rel(id), &lines);
    assert!(std::fs::metadata(path).unwrap().len() > 5 << 20);
    let rows = list_json(tmp.path(), &[]);
    assert_eq!(rows[0]["first_user_message"], "the real question");
    assert_eq!(rows[0]["user_messages"], 1);
}

#[test]
fn archived_sessions_only_with_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (
        "00000000-0000-7000-8000-00000000000a",
        "00000000-0000-7000-8000-00000000000b",
    );
    write_lines(
        tmp.path(),
        &rollout_rel(a),
        &[meta_line(a, "/w"), user_event("active")],
    );
    let archived_rel = format!("archived_sessions/rollout-2026-11-01T10-00-00-{b}.jsonl");
    write_lines(
        tmp.path(),
        &archived_rel,
        &[meta_line(b, "/w"), user_event("old")],
    );
    let rows = list_json(tmp.path(), &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["archived"], false);
    let rows = list_json(tmp.path(), &["--archived"]);
    assert_eq!(rows.len(), 2);
    assert_eq!(row(&rows, b)["archived"], true);
    assert_eq!(row(&rows, b)["first_user_message"], "old");
}

#[test]
fn a_paginated_fork_is_titled_from_its_parent() {
    let tmp = tempfile::tempdir().unwrap();
    let (parent, fork) = (
        "00000000-0000-7000-8000-0000000000f1",
        "00000000-0000-7000-8000-0000000000f2",
    );
    let o = |n: u64, v: Value| {
        let mut v = v;
        v["ordinal"] = n.into();
        v.to_string()
    };
    let ev = |t: &str| serde_json::json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":t}]}}});
    let ag = |t: &str| serde_json::json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":t}],"phase":"final_answer"}}});
    let meta: Value = serde_json::from_str(&meta_line(parent, "/w")).unwrap();
    write_lines(
        tmp.path(),
        &rollout_rel(parent),
        &[
            o(0, meta),
            o(1, ev("parent prompt")),
            o(2, ag("reply")),
            o(3, ev("after the fork point")),
        ],
    );
    let fork_meta = serde_json::json!({"type":"session_meta","payload":{"id":fork,"cwd":"/w","forked_from_id":parent,
        "history_base":{"thread_id":parent,"end_ordinal_exclusive":3,"end_byte_offset":0}}});
    write_lines(tmp.path(), &rollout_rel(fork), &[o(3, fork_meta)]);
    let rows = list_json(tmp.path(), &[]);
    let f = row(&rows, fork);
    assert_eq!(f["first_user_message"], "parent prompt");
    assert_eq!(f["forked_from_id"], parent);
    // Its counts are its own messages: it has none yet (reading-rules section 5).
    assert_eq!(
        (
            f["user_messages"].as_u64(),
            f["assistant_messages"].as_u64()
        ),
        (Some(0), Some(0))
    );
    let out = run(&["show", fork, "--codex-home", tmp.path().to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.contains("messages: 0 user, 0 assistant"),
        "show agrees with list: {text}"
    );
    // The conversation shown is the parent's history up to the fork point, then the mark.
    assert_eq!(
        show_counts(tmp.path(), fork),
        (1, 1),
        "the parent's history before the fork point"
    );
    assert!(
        text.contains("── forked here from “parent prompt” ──"),
        "{text}"
    );
    assert!(!text.contains("after the fork point"), "{text}");
}

#[test]
fn damaged_lines_and_files_never_stop_a_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        "00000000-0000-7000-8000-0000000000c1",
        "00000000-0000-7000-8000-0000000000c2",
        "00000000-0000-7000-8000-0000000000c3",
    );
    write_lines(
        tmp.path(),
        &rollout_rel(a),
        &[
            meta_line(a, "/w"),
            "not json".into(),
            "[1,2,3]".into(),
            "42".into(),
            "null".into(),
            user_event("survivor"),
        ],
    );
    // A torn last line: codex is still writing it.
    let path = write_lines(
        tmp.path(),
        &rollout_rel(b),
        &[meta_line(b, "/w"), user_event("first")],
    );
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&agent_event("half written", "final_answer")[..30]);
    std::fs::write(&path, text).unwrap();
    // An empty file is skipped with its reason.
    let empty = tmp.path().join(rollout_rel(c));
    std::fs::write(&empty, "").unwrap();

    let out = run(&[
        "list",
        "--json",
        "--codex-home",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let rows: Vec<Value> = crate::common::json_lines(&stdout(&out));
    assert_eq!(rows.len(), 2);
    assert_eq!(row(&rows, a)["first_user_message"], "survivor");
    assert_eq!(row(&rows, a)["skipped_lines"], 4);
    assert_eq!(row(&rows, b)["first_user_message"], "first");
    assert_eq!(row(&rows, b)["assistant_messages"], 0);
    assert_eq!(row(&rows, b)["skipped_lines"], 1);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("codex-picker: {}: empty file", empty.display())),
        "{err}"
    );

    let out = run(&[
        "list",
        "--verbose",
        "--codex-home",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(
        stderr(&out).contains("skipped 4 unreadable lines"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn no_store_names_the_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(&[
        "list",
        "--codex-home",
        tmp.path().join("missing").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--codex-home") && err.contains("--demo"),
        "{err}"
    );
}

#[test]
fn demo_store_works_from_the_binary() {
    let cache = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["list", "--json", "--demo", "--archived"])
        .env("XDG_CACHE_HOME", cache.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<Value> = crate::common::json_lines(&stdout(&out));
    assert_eq!(rows.len(), 14);
    assert!(rows.iter().all(|r| r["path"]
        .as_str()
        .unwrap()
        .starts_with(cache.path().to_str().unwrap())));
    let fork = row(&rows, "019ac009-7e2d-7a41-9c3b-000000000009");
    assert_eq!(
        fork["first_user_message"],
        "Draft the 2.4 release notes from the merged PRs; group them by area."
    );
    let ide = row(&rows, "019ac002-7e2d-7a41-9c3b-000000000002");
    assert_eq!(
        ide["preview"],
        "Add a dark mode toggle to the settings page and remember the choice in localStorage."
    );
    let named = row(&rows, "019ac001-7e2d-7a41-9c3b-000000000001");
    assert_eq!(named["name"], "checkout rounding fix");
    assert_eq!(
        rows[0]["id"], "019ac009-7e2d-7a41-9c3b-000000000009",
        "newest first"
    );
}

#[test]
fn list_table_fits_the_width_and_rows_never_break() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "00000000-0000-7000-8000-0000000000d1";
    write_lines(
        tmp.path(),
        &rollout_rel(id),
        &[
            meta_line(id, "/w"),
            user_event("line one\nline two\ttabbed 日本語 🚀 and a long tail of words to truncate"),
        ],
    );
    for cols in ["60", "100", "160"] {
        let out = bin()
            .args(["list", "--codex-home", tmp.path().to_str().unwrap()])
            .env("COLUMNS", cols)
            .output()
            .unwrap();
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 2, "header + one row: {text}");
        for line in text.lines() {
            let w = unicode_width::UnicodeWidthStr::width(line);
            assert!(w <= cols.parse().unwrap(), "{w} > {cols}: {line}");
            assert!(!line.contains('\t'));
        }
        assert!(text.contains("line one line two"), "{text}");
    }
}

#[test]
fn list_filters_by_cwd_and_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let ids = [
        "00000000-0000-7000-8000-0000000000e1",
        "00000000-0000-7000-8000-0000000000e2",
        "00000000-0000-7000-8000-0000000000e3",
    ];
    write_lines(
        tmp.path(),
        &rollout_rel(ids[0]),
        &[meta_line(ids[0], "/work/a"), user_event("a")],
    );
    write_lines(
        tmp.path(),
        &rollout_rel(ids[1]),
        &[meta_line(ids[1], "/work/a/sub"), user_event("b")],
    );
    write_lines(
        tmp.path(),
        &rollout_rel(ids[2]),
        &[meta_line(ids[2], "/work/ab"), user_event("c")],
    );
    let rows = list_json(tmp.path(), &["--cwd", "/work/a"]);
    let mut got: Vec<_> = rows
        .iter()
        .map(|r| r["first_user_message"].as_str().unwrap())
        .collect();
    got.sort_unstable();
    assert_eq!(got, ["a", "b"]);
    assert_eq!(list_json(tmp.path(), &["--limit", "1"]).len(), 1);
}

#[test]
fn show_prints_a_readable_conversation() {
    let home = real_fixtures().join("0.171.0");
    let out = run(&[
        "show",
        "01a22be8-1d47",
        "--codex-home",
        home.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("# Session 01a22be8-1d47-79f0-99fd-e14291b12af2\n"),
        "{text}"
    );
    assert!(text.contains("messages: 2 user, 2 assistant"));
    assert!(text.contains("## User\n\nInteractive TUI prompt: hello from tmux"));
    assert!(text.contains("## Assistant (final_answer)\n\nMock reply #1"));
    assert!(text.contains("## User\n\n# Second TUI turn, starts with a hash"));
    assert!(
        !text.contains("environment_context"),
        "injected context is not a message"
    );
}

#[test]
fn show_reports_unknown_and_ambiguous_ids() {
    let home = real_fixtures().join("0.120.0");
    let out = run(&["show", "ffffffff", "--codex-home", home.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no session ffffffff"));
    let out = run(&["show", "01a22be3", "--codex-home", home.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("matches 8 sessions"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn show_accepts_a_file_path_and_shows_tools_on_request() {
    let file = real_fixtures()
        .join("0.120.0/sessions/2026/11/30/rollout-2026-11-30T09-57-52-01a22be3-b359-7632-80ff-55f1b7dcb3bf.jsonl");
    let out = run(&["show", file.to_str().unwrap(), "--tools"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "  ▸ $ echo corpus-shell-ok && pwd && ls -1 | head -5  ✓ exit 0 · 16 ms\n      │ corpus-shell-ok\n"
        ),
        "{text}"
    );
    assert!(text.contains("## Assistant (commentary)"), "{text}");
}

#[test]
fn the_indexing_read_gives_every_real_fixture_the_same_messages() {
    use codex_picker::rollout::transcript::TranscriptOptions;
    use codex_picker::rollout::transcript::{read, read_transcript, Parse};
    let opts = TranscriptOptions {
        tools: false,
        ..TranscriptOptions::default()
    };
    let mut checked = 0;
    let mut dirs = vec![real_fixtures()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if !path.to_string_lossy().ends_with(".jsonl") {
                continue;
            }
            let data = std::fs::read(&path).expect("fixture");
            let full = read_transcript(&data[..], &opts).expect("slice");
            let lean = read(&data[..], &opts, Parse::Lean).expect("slice");
            assert_eq!(lean.entries, full.entries, "{}", path.display());
            assert_eq!(lean.meta, full.meta, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} fixtures found");
}
