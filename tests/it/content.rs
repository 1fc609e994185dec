//! Content search: real messages only, case-insensitive, ranked, with hit positions; its cache
//! round-trips and is refreshed file by file.

use codex_picker::search::fulltext::{build, tap, ContentIndex};
use codex_picker::store::Store;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

fn line(kind: &str, payload: &str) -> String {
    format!("{{\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"type\":\"{kind}\",\"payload\":{payload}}}\n")
}

fn user(text: &str) -> String {
    line(
        "event_msg",
        &format!(
            "{{\"type\":\"user_message\",\"message\":{}}}",
            serde_json::json!(text)
        ),
    )
}

fn agent(text: &str) -> String {
    line(
        "event_msg",
        &format!(
            "{{\"type\":\"agent_message\",\"message\":{},\"phase\":\"final_answer\"}}",
            serde_json::json!(text)
        ),
    )
}

/// Write a session whose id ends in `n`, updated `age` seconds after the epoch + 1e9.
fn session(home: &Path, n: u32, age: u64, body: &[String]) -> PathBuf {
    let id = format!("0199aaaa-bbbb-7ccc-8ddd-{n:012}");
    let dir = home.join("sessions/2026/01/01");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("rollout-2026-01-01T00-00-00-{id}.jsonl"));
    let mut text = line("session_meta", &format!("{{\"id\":\"{id}\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/w\",\"source\":\"cli\"}}"));
    // Injected context and a tool output, neither of which is a message.
    text += &line(
        "response_item",
        r##"{"type":"message","role":"user","content":[{"type":"input_text","text":"# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nInjectedNeedle rules\n</INSTRUCTIONS>"},{"type":"input_text","text":"<environment_context>\n  <cwd>/w EnvNeedle</cwd>\n</environment_context>"}]}"##,
    );
    text += &line(
        "response_item",
        r#"{"type":"function_call_output","call_id":"c1","output":"ToolNeedle appears only in tool output"}"#,
    );
    for b in body {
        text += b;
    }
    std::fs::write(&path, text).unwrap();
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(UNIX_EPOCH + Duration::from_secs(1_000_000_000 + age))
        .unwrap();
    path
}

/// The store at `home`.
fn store_at(home: &Path) -> Store {
    Store::codex(home.to_path_buf())
}

/// The content index of every session at `home`, kept in `dir` (in memory when `None`), as a
/// listing that it taps brings it up to date.
fn index_of(home: &Path, dir: Option<&Path>) -> (ContentIndex, build::BuildStats) {
    tap::index_store(&store_at(home), dir, 2, Box::new(|_, _, _| true)).unwrap()
}

fn found(index: &ContentIndex, q: &str) -> Vec<(PathBuf, usize, String)> {
    index
        .search(q, 10)
        .into_iter()
        .map(|h| (h.path, h.hits, h.snippet))
        .collect()
}

fn store() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path();
    let mut deep = vec![user("Start the refactor")];
    for i in 0..30 {
        deep.push(agent(&format!("Step {i}: nothing special here.")));
        deep.push(user(&format!("continue {i}")));
    }
    deep.push(agent("Finally: the Zanzibar Protocol was the culprit."));
    let paths = vec![
        session(h, 1, 10, &deep),
        session(h, 2, 20, &[user("kiwi kiwi kiwi"), agent("KIWI again")]),
        session(
            h,
            3,
            30,
            &[user("one kiwi"), agent("École and STRASSE and Straße")],
        ),
        session(h, 4, 40, &[user("another kiwi")]),
    ];
    (dir, paths)
}

#[test]
fn a_deep_assistant_phrase_is_found_with_its_position() {
    let (dir, paths) = store();
    let (index, _) = index_of(dir.path(), None);
    let hits = index.search("zanzibar PROTOCOL", 10);
    assert_eq!(hits.len(), 1);
    let hit = &hits[0];
    assert_eq!(hit.path, paths[0]);
    assert_eq!(hit.id, "0199aaaa-bbbb-7ccc-8ddd-000000000001");
    assert_eq!(hit.first_message, 61);
    assert_eq!(hit.hits, 1);
    assert_eq!(&hit.snippet[hit.snippet_match.clone()], "Zanzibar Protocol");
    assert!(hit
        .snippet
        .contains("the Zanzibar Protocol was the culprit."));
}

#[test]
fn injected_context_and_tool_output_are_not_matched() {
    let (dir, _) = store();
    let (index, _) = index_of(dir.path(), None);
    for needle in [
        "InjectedNeedle",
        "EnvNeedle",
        "ToolNeedle",
        "AGENTS.md",
        "environment_context",
    ] {
        assert!(index.search(needle, 10).is_empty(), "{needle} matched");
    }
}

#[test]
fn case_insensitive_and_ranked() {
    let (dir, paths) = store();
    let (index, _) = index_of(dir.path(), None);
    let hits = index.search("KiWi", 10);
    let order: Vec<&PathBuf> = hits.iter().map(|h| &h.path).collect();
    // The word three times in a short prompt first, then the newest of the equal ones.
    assert_eq!(order, vec![&paths[1], &paths[3], &paths[2]]);
    assert_eq!(
        hits.iter().map(|h| h.hits).collect::<Vec<_>>(),
        vec![2, 1, 1]
    );
    assert_eq!(&hits[0].snippet[hits[0].snippet_match.clone()], "kiwi");
    let e = index.search("écOLE straSSE", 10);
    assert_eq!(e.len(), 1);
    assert_eq!(&e[0].snippet[e[0].snippet_match.clone()], "École");
    assert_eq!(index.search("STRAßE", 10).len(), 1);
    // Every word must appear in one message.
    assert!(index.search("kiwi zanzibar", 10).is_empty());
    assert!(index.search("   ", 10).is_empty());
}

#[test]
fn the_index_on_disk_follows_grown_new_and_deleted_sessions() {
    let (dir, paths) = store();
    let ix = dir.path().join("cache/content.index");
    let (_, stats) = index_of(dir.path(), Some(&ix));
    assert_eq!((stats.reused, stats.read, stats.removed), (0, 4, 0));
    let (again, stats) = index_of(dir.path(), Some(&ix));
    assert_eq!(
        (stats.reused, stats.read, stats.rebuilt),
        (4, 0, None),
        "kept as indexed"
    );
    assert_eq!(
        found(&again, "zanzibar"),
        found(&index_of(dir.path(), None).0, "zanzibar")
    );
    drop(again);
    // One session grows, one is new, one goes.
    session(
        dir.path(),
        2,
        50,
        &[
            user("kiwi kiwi kiwi"),
            agent("KIWI again"),
            user("mango now"),
        ],
    );
    session(dir.path(), 5, 60, &[user("a new papaya")]);
    std::fs::remove_file(&paths[3]).unwrap();
    let (refreshed, stats) = index_of(dir.path(), Some(&ix));
    assert_eq!((stats.reused, stats.read, stats.removed), (2, 2, 1));
    let (fresh, _) = index_of(dir.path(), None);
    for q in ["kiwi", "mango", "papaya", "another", "zanzibar", "école"] {
        assert_eq!(found(&refreshed, q), found(&fresh, q), "{q}");
    }
    assert!(
        found(&refreshed, "another").is_empty(),
        "the deleted session is gone"
    );
    assert_eq!(refreshed.len(), 4);
}

#[test]
fn a_damaged_or_old_index_is_rebuilt_not_trusted() {
    let (dir, _) = store();
    let ix = dir.path().join("cache/content.index");
    let (fresh, _) = index_of(dir.path(), None);
    type Harm = fn(&Path);
    let damage: [(&str, Harm); 4] = [
        ("table cut short", |d| {
            let t = d.join("sessions.table");
            let bytes = std::fs::read(&t).unwrap();
            std::fs::write(&t, &bytes[..bytes.len() - 2]).unwrap();
        }),
        ("old version", |d| {
            std::fs::write(d.join("codex-picker-index-version"), "0").unwrap();
        }),
        ("meta.json garbage", |d| {
            std::fs::write(d.join("meta.json"), "{not json").unwrap();
        }),
        ("segment files gone", |d| {
            for f in std::fs::read_dir(d).unwrap().flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                if name.ends_with(".idx") || name.ends_with(".pos") || name.ends_with(".store") {
                    std::fs::remove_file(f.path()).unwrap();
                }
            }
        }),
    ];
    for (what, harm) in damage {
        index_of(dir.path(), Some(&ix));
        harm(&ix);
        let (index, stats) = index_of(dir.path(), Some(&ix));
        assert!(stats.rebuilt.is_some(), "{what}: the index was trusted");
        assert_eq!(stats.read, 4, "{what}");
        for q in ["kiwi", "zanzibar", "école"] {
            assert_eq!(found(&index, q), found(&fresh, q), "{what}: {q}");
        }
    }
}

#[test]
fn text_past_the_old_caps_is_found() {
    let dir = tempfile::tempdir().unwrap();
    // A message of 200 KB that ends with the word, and a session of 3 MB whose last message
    // holds another: the old index kept 32 KB of a message and 1 MB of a session.
    let long_message = format!("{} endofmessageword", "filler text ".repeat(17_000));
    let mut big = vec![user("a big session")];
    for i in 0..60 {
        big.push(agent(&format!("{i} {}", "more words here ".repeat(4_000))));
    }
    big.push(agent("the lastsessionword at the very end"));
    let a = session(dir.path(), 1, 10, &[user("hello"), agent(&long_message)]);
    let b = session(dir.path(), 2, 20, &big);
    assert!(std::fs::metadata(&b).unwrap().len() > 3 << 20);
    let (index, _) = index_of(dir.path(), None);
    assert_eq!(index.search("endofmessageword", 10)[0].path, a);
    let hit = &index.search("lastsessionword", 10)[0];
    assert_eq!((&hit.path, hit.first_message), (&b, 61));
}

#[test]
fn list_content_prints_matching_sessions() {
    let (dir, paths) = store();
    let out = crate::common::bin()
        .args([
            "list",
            "--json",
            "--no-cache",
            "--content",
            "zanzibar",
            "--codex-home",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = crate::common::stdout(&out);
    let rows: Vec<serde_json::Value> = crate::common::json_lines(&text);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["path"], paths[0].to_str().unwrap());
    assert_eq!(rows[0]["content"]["hits"], 1);
    assert_eq!(rows[0]["content"]["first_message"], 61);
    assert!(rows[0]["content"]["score"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_cancelled_build_stops_and_never_hangs() {
    // Enough files that every reading thread still holds texts when the build is cancelled.
    let dir = tempfile::tempdir().unwrap();
    for n in 0..1200 {
        session(
            dir.path(),
            n,
            u64::from(n),
            &[user(&format!("note {n}")), agent("ok")],
        );
    }
    let store = store_at(dir.path());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut calls = 0;
        let progress = Box::new(move |_, _, _: &ContentIndex| {
            calls += 1;
            calls < 2
        });
        let built = tap::index_store(&store, None, 2, progress);
        let _ = tx.send(built.is_none());
    });
    let cancelled = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the cancelled build returns");
    assert!(cancelled, "a cancelled build gives no index");
}

#[test]
fn list_content_takes_the_query_filters() {
    let (dir, _) = store();
    let run = |q: &str| {
        crate::common::bin()
            .args(["list", "--no-cache", "--content", q, "--codex-home"])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let ids = |q: &str| {
        let out = run(q);
        assert!(out.status.success(), "{q}");
        crate::common::stdout(&out)
            .lines()
            .filter(|l| !l.starts_with(' '))
            .count()
    };
    assert_eq!(ids("kiwi"), 3);
    assert_eq!(ids("kiwi dir:/w"), 3);
    assert_eq!(ids("kiwi dir:elsewhere"), 0);
    assert_eq!(
        ids("kiwi date:2001-09"),
        3,
        "the sessions' files are dated 2001-09-09"
    );
    assert_eq!(ids("kiwi date:today"), 0);
    let bad = run("kiwi date:someday");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("date:someday is not a date"));
}
