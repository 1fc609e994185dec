//! Claude Code sessions through the built binary: `list --json`, `show --tools`, content search
//! and `--source` on the fixture store of `tests/fixtures/claude/` (recorded from Claude Code
//! 2.1.332, plus hand-made older layouts and bad input), checked against `expected.json`, which
//! `expect.py` derives from the files by the reading rules without any of the reader's code.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{bin, fixtures, json_lines, real_fixtures, stderr, stdout};

fn claude_home() -> PathBuf {
    fixtures().join("claude/home")
}

fn expected() -> Value {
    let path = fixtures().join("claude/expected.json");
    let text = std::fs::read_to_string(&path).expect("tests/fixtures/claude/expected.json");
    serde_json::from_str(&text).expect("expected.json is JSON")
}

/// The id of a session of the fixture store by what it records (`scenarios` in expected.json).
fn scenario(name: &str) -> String {
    expected()["scenarios"][name]
        .as_str()
        .unwrap_or_else(|| panic!("expected.json names no scenario {name}"))
        .to_owned()
}

/// codex-picker with `args`, the Codex store `codex_home` and the fixture Claude store.
fn run_with(codex_home: &Path, args: &[&str]) -> Output {
    bin()
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(args)
        .arg("--codex-home")
        .arg(codex_home)
        .arg("--claude-home")
        .arg(claude_home())
        .output()
        .expect("run codex-picker")
}

/// codex-picker with `args`, an empty Codex store and the fixture Claude store; fails on an error.
fn run_claude(args: &[&str]) -> String {
    let empty = tempfile::tempdir().unwrap();
    let out = run_with(empty.path(), args);
    assert!(
        out.status.success(),
        "codex-picker {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

/// `list --json` rows (with `extra` arguments) of the fixture Claude store beside an empty Codex one.
fn claude_rows(extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["list", "--json"];
    args.extend_from_slice(extra);
    json_lines(&run_claude(&args))
}

/// A field of a `list --json` row; a row without it fails, naming the field and the row.
fn field<'a>(row: &'a Value, key: &str) -> &'a Value {
    row.get(key).unwrap_or_else(|| {
        panic!("list --json has no field `{key}` in the row {row}");
    })
}

fn id_of(row: &Value) -> String {
    field(row, "id")
        .as_str()
        .expect("id is a string")
        .to_owned()
}

fn ids(rows: &[Value]) -> BTreeSet<String> {
    rows.iter().map(id_of).collect()
}

fn expected_ids() -> BTreeSet<String> {
    expected()["sessions"]
        .as_object()
        .expect("sessions")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn claude_store_lists_its_sessions_and_nothing_else() {
    let rows = claude_rows(&[]);
    assert_eq!(ids(&rows), expected_ids(), "the sessions listed");
    assert_eq!(rows.len(), expected_ids().len(), "each session once");
    let not_sessions = expected()["not_sessions"].clone();
    for row in &rows {
        assert_eq!(field(row, "source"), "claude", "source of {}", id_of(row));
        let path = field(row, "path").as_str().expect("path is a string");
        for other in not_sessions.as_array().unwrap() {
            let rel = other.as_str().unwrap().trim_start_matches("home/");
            assert!(!path.ends_with(rel), "{path} is listed, but is no session");
        }
    }
    // Subagent transcripts (new and older layout) name their parent's sessionId, never their own.
    for agent in ["ae9a49f61f990a51f", "a1b2c3d4"] {
        assert!(!rows.iter().any(|r| id_of(r).contains(agent)));
    }
}

/// Every field expect.py derives, compared for every session; all differences are reported at once.
#[test]
fn claude_rows_match_the_independent_expectations() {
    let rows = claude_rows(&[]);
    let expected = expected();
    let mut wrong = Vec::new();
    for (id, want) in expected["sessions"].as_object().unwrap() {
        let Some(row) = rows.iter().find(|r| id_of(r) == *id) else {
            wrong.push(format!("{id}: not listed"));
            continue;
        };
        for key in [
            "source",
            "cwd",
            "name",
            "title",
            "first_user_message",
            "user_messages",
            "assistant_messages",
            "forked_from_id",
            "tokens",
            "models",
        ] {
            if field(row, key) != &want[key] {
                wrong.push(format!("{id} {key}: got {}, want {}", row[key], want[key]));
            }
        }
        let files: Vec<&Value> = field(row, "files_changed")
            .as_array()
            .unwrap_or_else(|| panic!("{id}: files_changed is not an array: {row}"))
            .iter()
            .map(|f| field(f, "path"))
            .collect();
        let want_files: Vec<&Value> = want["files_changed"].as_array().unwrap().iter().collect();
        if files != want_files {
            wrong.push(format!(
                "{id} files_changed: got {files:?}, want {want_files:?}"
            ));
        }
        let path = field(row, "path").as_str().unwrap_or_default();
        let rel = want["path"].as_str().unwrap().trim_start_matches("home/");
        if !path.ends_with(rel) {
            wrong.push(format!("{id} path: got {path}, want …/{rel}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `show ID` with `extra` arguments, on the fixture Claude store.
fn show(id: &str, extra: &[&str]) -> String {
    let mut args = vec!["show", id];
    args.extend_from_slice(extra);
    run_claude(&args)
}

/// Whether the tool call whose block (its `▸` line and the lines under it) mentions `needle` is
/// marked failed (`✗` on its `▸` line); fails when no tool call mentions it.
fn marked_failed(text: &str, needle: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with('▸'))
        .collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = (start + 1..lines.len())
            .find(|&j| lines[j].starts_with("##") || starts.get(k + 1) == Some(&j))
            .unwrap_or(lines.len());
        if lines[start..end].iter().any(|l| l.contains(needle)) {
            return lines[start].contains('✗');
        }
    }
    panic!("no tool call mentions {needle:?} in:\n{text}");
}

#[test]
fn claude_show_tools_marks_the_failed_command_and_edit() {
    let fail = show(&scenario("fail"), &["--tools"]);
    assert!(
        marked_failed(&fail, "sys.exit(1)"),
        "the failed command:\n{fail}"
    );
    assert!(
        marked_failed(&fail, "main.py"),
        "the edit that did not apply:\n{fail}"
    );

    let legacy = show(&scenario("legacy"), &["--tools"]);
    assert!(
        marked_failed(&legacy, "README.md"),
        "the failed Edit:\n{legacy}"
    );
    assert!(
        !marked_failed(&legacy, "util.py"),
        "the applied MultiEdit:\n{legacy}"
    );
    assert!(
        !marked_failed(&legacy, "docs/split.md"),
        "the applied Write:\n{legacy}"
    );

    let missing = show(&scenario("missing"), &["--tools"]);
    assert!(
        marked_failed(&missing, "does_not_exist.txt"),
        "the Read of a missing file:\n{missing}"
    );
    let web = show(&scenario("web"), &["--tools"]);
    assert!(
        marked_failed(&web, "page.html"),
        "the failed WebFetch:\n{web}"
    );
    assert!(
        !marked_failed(&web, "python print function"),
        "the WebSearch that answered:\n{web}"
    );
    let multi = show(&scenario("multi_continued"), &["--tools"]);
    assert!(
        marked_failed(&multi, "main.py"),
        "the MultiEdit Claude Code no longer has:\n{multi}"
    );

    let edit = show(&scenario("edit_resumed"), &["--tools"]);
    assert!(
        !edit.contains('✗'),
        "nothing failed in the edit session:\n{edit}"
    );
}

#[test]
fn claude_show_has_the_subagent_report_and_the_compaction() {
    let agent = show(&scenario("agent"), &["--tools"]);
    assert!(
        agent.contains("Subagent report: the folder holds main.py, one print statement."),
        "the subagent's report:\n{agent}"
    );
    let legacy = show(&scenario("legacy"), &["--tools"]);
    assert!(
        legacy.contains("Legacy subagent report: util.py now holds first() and second()."),
        "the older Task subagent's report:\n{legacy}"
    );

    let compacted = show(&scenario("interactive_rename_compact"), &["--tools"]);
    assert!(
        compacted.contains("compacted"),
        "the compaction marker:\n{compacted}"
    );
    assert!(
        compacted.contains("The user asked about main.py; it was listed and explained."),
        "the compaction's summary:\n{compacted}"
    );
    // The summary is no prompt: the two prompts, both shown.
    assert!(compacted.contains("please list the files in this folder and explain main.py"));
    assert!(compacted.contains("now a follow-up question about tests"));
}

/// The header of `show` agrees with `list --json` on the folder and the counts.
#[test]
fn claude_show_header_agrees_with_the_list() {
    for (id, want) in expected()["sessions"].as_object().unwrap() {
        let text = show(id, &[]);
        let header: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
        let counts = format!(
            "messages: {} user, {} assistant",
            want["user_messages"], want["assistant_messages"]
        );
        assert!(
            header.contains(&counts.as_str()),
            "{id}: no `{counts}` in the header:\n{}",
            header.join("\n")
        );
        let cwd = format!("cwd: {}", want["cwd"].as_str().unwrap());
        assert!(
            header.contains(&cwd.as_str()),
            "{id}: no `{cwd}` in the header:\n{}",
            header.join("\n")
        );
    }
}

#[test]
fn claude_content_search_finds_words_of_replies() {
    // Each word stands in one assistant reply of the store, and in no prompt.
    for (word, session) in [("quokka", "legacy"), ("pixel", "image")] {
        let rows = claude_rows(&["--content", word]);
        assert_eq!(
            ids(&rows),
            BTreeSet::from([scenario(session)]),
            "--content {word}"
        );
    }
}

#[test]
fn claude_content_search_leaves_tool_output_out() {
    // "OPENSSL" stands only in the output of the WebFetch that failed.
    let rows = claude_rows(&["--content", "openssl"]);
    assert!(rows.is_empty(), "--content openssl: {rows:?}");
}

/// A fork shows its parent's part first, then where its own part begins, as Codex forks do.
#[test]
fn claude_show_marks_where_the_fork_begins() {
    let parent = "CC_EDIT: change the print statement in main.py to a greeting";
    let own = "in the fork: try another greeting";
    let text = show(&scenario("fork"), &[]);
    // The header names the parent by its first prompt, its file being in the store.
    assert!(
        text.lines().any(|l| l == format!("fork of: {parent}")),
        "no `fork of: {parent}` in the header:\n{text}"
    );
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{text}"))
    };
    assert!(at(parent) < at("forked here from"), "{text}");
    assert!(at("forked here from") < at(own), "{text}");
}

#[test]
fn claude_list_source_keeps_one_source() {
    let codex = real_fixtures().join("0.171.0");
    let list = |extra: &[&str]| {
        let mut args = vec!["list", "--json"];
        args.extend_from_slice(extra);
        let out = run_with(&codex, &args);
        assert!(out.status.success(), "list {extra:?}: {}", stderr(&out));
        json_lines(&stdout(&out))
    };
    let source = |r: &Value| field(r, "source").as_str().unwrap_or_default().to_owned();

    let both = list(&[]);
    let sources: BTreeSet<String> = both.iter().map(source).collect();
    assert_eq!(
        sources,
        BTreeSet::from(["claude".to_owned(), "codex".to_owned()])
    );

    let claude = list(&["--source", "claude"]);
    assert!(claude.iter().all(|r| source(r) == "claude"));
    assert_eq!(ids(&claude), expected_ids());

    let codex_only = list(&["--source", "codex"]);
    assert!(!codex_only.is_empty());
    assert!(codex_only.iter().all(|r| source(r) == "codex"));
    assert!(ids(&codex_only).is_disjoint(&expected_ids()));
}
