//! The store generator's Claude Code part: every file is JSON lines in the shapes Claude Code
//! writes (the row types a real transcript holds), in the folder Claude Code names after the
//! session's `cwd`, with its expectations beside the Codex ones; the same seed gives the same
//! files.

use std::collections::BTreeSet;
use std::path::Path;

use crate::gen::{self, GenOptions};
use crate::gen_common::claude::project_dir;

fn mixed_store(dir: &Path, claude: usize, seed: u64) {
    let opts = GenOptions {
        sessions: 4,
        seed,
        scale: 0.02,
        threads: 2,
        claude,
    };
    gen::generate(dir, &opts).expect("generate");
}

/// Each line of `path` as JSON (every line must parse).
fn rows(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

/// A row's kind: its `type`, with the `subtype` of a `system` row, the `attachment.type` of an
/// attachment, the first block's type (and a tool's name) of a message.
fn kind(row: &serde_json::Value) -> String {
    let t = row["type"].as_str().unwrap_or("?");
    match t {
        "system" => format!("system/{}", row["subtype"].as_str().unwrap_or("?")),
        "attachment" => format!(
            "attachment/{}",
            row["attachment"]["type"].as_str().unwrap_or("?")
        ),
        "user" | "assistant" => {
            let content = &row["message"]["content"];
            let Some(block) = content.as_array().and_then(|a| a.first()) else {
                return format!("{t}/string");
            };
            let b = block["type"].as_str().unwrap_or("?");
            match block["name"].as_str() {
                Some(name) => format!("{t}/{b}/{name}"),
                None => format!("{t}/{b}"),
            }
        }
        _ => t.to_owned(),
    }
}

#[test]
fn claude_part_has_the_recorded_shapes() {
    let dir = tempfile::tempdir().unwrap();
    mixed_store(dir.path(), 80, 5);
    let expected = gen::read_expected(dir.path()).unwrap();
    assert_eq!(expected.len(), 84, "4 Codex and 80 Claude Code sessions");
    let claude: Vec<_> = expected
        .iter()
        .filter(|e| e.path.starts_with("claude/"))
        .collect();
    assert_eq!(claude.len(), 80);
    let mut kinds = BTreeSet::new();
    let mut forks = 0;
    for e in &claude {
        let path = dir.path().join(&e.path);
        let folder = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        assert_eq!(
            path.file_name().unwrap(),
            format!("{}.jsonl", e.id).as_str()
        );
        let rows = rows(&path);
        let cwd = rows.iter().find_map(|r| r["cwd"].as_str()).expect("a cwd");
        assert_eq!(folder, project_dir(cwd), "{}", e.path);
        assert!(folder
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-'));
        for r in &rows {
            if let Some(id) = r["sessionId"].as_str() {
                assert_eq!(id, e.id, "every row of {} is its own", e.path);
            }
            if let Some(usage) = r["message"]["usage"].as_object() {
                assert!(r["message"]["id"].is_string() && usage.contains_key("output_tokens"));
            }
            kinds.insert(kind(r));
        }
        forks += usize::from(rows.iter().any(|r| r["requestSessionId"].is_string()));
        assert!(
            e.user_messages >= 1 && e.assistant_messages >= 1,
            "{}",
            e.path
        );
        assert!(e.first_user_message.is_some() && e.tokens_total.is_some_and(|t| t > 0));
        assert!(!e.archived);
    }
    for want in [
        "queue-operation",
        "user/string",
        "attachment/environment",
        "attachment/skill_listing",
        "attachment/prompt_snapshot",
        "api-request",
        "api-request-shape",
        "api-request-blob",
        "assistant/text",
        "assistant/thinking",
        "assistant/tool_use/Bash",
        "assistant/tool_use/Edit",
        "assistant/tool_use/Read",
        "assistant/tool_use/Write",
        "assistant/tool_use/Agent",
        "user/tool_result",
        "last-prompt",
        "custom-title",
        "agent-name",
        "cost-state",
        "mode",
        "file-history-snapshot",
        "system/turn_duration",
        "system/local_command",
        "system/compact_boundary",
    ] {
        assert!(kinds.contains(want), "no {want} row in {kinds:?}");
    }
    assert!(forks > 0, "a fork among 80 sessions");
    let beside = |name: &str| {
        walkdir::WalkDir::new(dir.path().join("claude"))
            .into_iter()
            .flatten()
            .filter(|f| f.file_name().to_string_lossy().starts_with(name))
            .count()
    };
    assert!(beside("agent-") > 0, "a subagent's transcript");
    for f in walkdir::WalkDir::new(dir.path().join("claude"))
        .into_iter()
        .flatten()
    {
        let p = f.path();
        if p.to_string_lossy().contains("/subagents/")
            && p.extension().is_some_and(|x| x == "jsonl")
        {
            assert!(
                rows(p).iter().all(|r| r["isSidechain"] != false),
                "{}",
                p.display()
            );
        }
    }
    assert!(beside("custom-title.json") > 0, "a title file");
}

#[test]
fn claude_part_is_the_same_for_a_seed() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    mixed_store(a.path(), 15, 9);
    mixed_store(b.path(), 15, 9);
    for e in gen::read_expected(a.path()).unwrap() {
        let x = std::fs::read(a.path().join(&e.path)).unwrap();
        let y = std::fs::read(b.path().join(&e.path)).unwrap();
        assert!(x == y, "{} differs between two runs", e.path);
    }
    // The Codex part is the one a store without Claude Code sessions has.
    let c = tempfile::tempdir().unwrap();
    mixed_store(c.path(), 0, 9);
    for e in gen::read_expected(c.path()).unwrap() {
        let x = std::fs::read(a.path().join(&e.path)).unwrap();
        let z = std::fs::read(c.path().join(&e.path)).unwrap();
        assert!(x == z, "{} changed with a Claude Code part", e.path);
    }
}
