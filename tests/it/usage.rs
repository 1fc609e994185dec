//! What each session changed and used, on the sessions recorded from real codex versions:
//! `list --json`'s `files_changed` and `tokens` against a reading of the same files written
//! here with serde_json alone, a failed patch that changes nothing, `list --file` and `blame`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::common::{
    bin, copy_tree, fixtures, json_lines, list_json, real_fixtures, stderr, stdout,
};

/// Every recorded store: the rich 0.171 sessions and the plainer ones of each version.
fn recorded_homes() -> Vec<PathBuf> {
    let mut homes = vec![fixtures().join("codex-rich")];
    for version in ["0.120.0", "0.145.0", "0.160.0", "0.171.0"] {
        homes.push(real_fixtures().join(version));
    }
    homes
}

fn lines_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The files a session's applied patches changed, read plainly: each path of a completed
/// `FileChange` item (or a successful `patch_apply_end`), what it came to.
fn files_read_plainly(lines: &[Value]) -> BTreeMap<String, (String, Option<String>)> {
    let mut files: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
    for line in lines {
        let p = &line["payload"];
        let changes = if p["type"] == "item_completed"
            && p["item"]["type"] == "FileChange"
            && p["item"]["status"] == "completed"
        {
            &p["item"]["changes"]
        } else if p["type"] == "patch_apply_end" && p["success"] == true {
            &p["changes"]
        } else {
            continue;
        };
        for (path, change) in changes.as_object().unwrap() {
            let to = change["move_path"].as_str().map(str::to_owned);
            let now = match (change["type"].as_str().unwrap(), &to) {
                ("add", _) => "add",
                ("delete", _) => "delete",
                (_, Some(_)) => "rename",
                _ => "modify",
            };
            let before = files.get(path).map(|(c, _)| c.as_str());
            let kept = match (before, now) {
                (Some("add"), "modify") => "add",
                (Some("delete"), "add") => "modify",
                _ => now,
            };
            files.insert(path.clone(), (kept.to_owned(), to));
        }
    }
    files
}

/// Codex's last running total of tokens before `ordinal_below` (all of them: `None`).
fn last_total(lines: &[Value], ordinal_below: Option<u64>) -> Option<[u64; 5]> {
    let mut total = None;
    for line in lines {
        if let (Some(limit), Some(o)) = (ordinal_below, line["ordinal"].as_u64()) {
            if o >= limit {
                break;
            }
        }
        let t = &line["payload"]["info"]["total_token_usage"];
        if line["payload"]["type"] == "token_count" && t.is_object() {
            let n = |k: &str| t[k].as_u64().unwrap_or(0);
            total = Some([
                n("input_tokens"),
                n("cached_input_tokens"),
                n("output_tokens"),
                n("reasoning_output_tokens"),
                n("total_tokens"),
            ]);
        }
    }
    total
}

fn tokens_of(row: &Value) -> Option<[u64; 5]> {
    let t = &row["tokens"];
    t.is_object().then(|| {
        ["input", "cached_input", "output", "reasoning", "total"].map(|k| t[k].as_u64().unwrap())
    })
}

#[test]
fn files_changed_and_tokens_agree_with_a_plain_reading_of_every_recorded_session() {
    let mut with_files = 0;
    let mut forks = 0;
    for home in recorded_homes() {
        let cold = list_json(&home, &["--no-cache"]);
        // A second run writes each unchanged session's line as the rows cache kept it.
        let _ = list_json(&home, &[]);
        let warm = list_json(&home, &[]);
        assert_eq!(cold, warm, "{}: the cached lines differ", home.display());
        assert!(!cold.is_empty());
        let by_id: BTreeMap<&str, &Value> = cold
            .iter()
            .map(|r| (r["id"].as_str().unwrap(), r))
            .collect();
        for row in &cold {
            let lines = lines_of(Path::new(row["path"].as_str().unwrap()));
            let want = files_read_plainly(&lines);
            let got: BTreeMap<String, (String, Option<String>)> = row["files_changed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let to = f["to"].as_str().map(str::to_owned);
                    let path = f["path"].as_str().unwrap().to_owned();
                    (path, (f["change"].as_str().unwrap().to_owned(), to))
                })
                .collect();
            assert_eq!(got, want, "{}: files_changed", row["id"]);
            with_files += usize::from(!want.is_empty());
            let mut want_tokens = last_total(&lines, None);
            let base = &lines[0]["payload"]["history_base"];
            if let Some(parent) = base["thread_id"].as_str() {
                forks += 1;
                let parent_row = by_id[parent];
                let parent_lines = lines_of(Path::new(parent_row["path"].as_str().unwrap()));
                let at_fork = last_total(&parent_lines, base["end_ordinal_exclusive"].as_u64());
                if let (Some(own), Some(before)) = (want_tokens.as_mut(), at_fork) {
                    for (o, b) in own.iter_mut().zip(before) {
                        *o -= b;
                    }
                }
            }
            assert_eq!(tokens_of(row), want_tokens, "{}: tokens", row["id"]);
        }
    }
    assert!(
        with_files >= 3,
        "recorded sessions with changed files: {with_files}"
    );
    assert_eq!(forks, 2, "the two recorded forks");
}

#[test]
fn a_patch_that_did_not_apply_changes_no_file_and_a_fork_counts_its_own_tokens() {
    let rows = list_json(&fixtures().join("codex-rich"), &["--no-cache"]);
    let by_prefix = |p: &str| {
        rows.iter()
            .find(|r| r["id"].as_str().unwrap().starts_with(p))
            .unwrap()
    };
    // patch_fail: its only patch failed verification; tui_fork: its own patch failed.
    for failed in ["01a23b78-f48a", "01a23b7a-4458"] {
        assert_eq!(by_prefix(failed)["files_changed"], serde_json::json!([]));
    }
    let patch = by_prefix("01a23b78-c7f8");
    let changes: Vec<(&str, &str)> = patch["files_changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap(), f["change"].as_str().unwrap()))
        .collect();
    assert_eq!(
        changes,
        [
            ("/home/dev/work/proj/docs/USAGE.md", "add"),
            ("/home/dev/work/proj/main.py", "modify"),
            ("/home/dev/work/proj/old_notes.txt", "delete"),
            ("/home/dev/work/proj/src/util.py", "rename"),
        ]
    );
    assert_eq!(
        patch["files_changed"][3]["to"],
        "/home/dev/work/proj/src/helpers.py"
    );
    assert_eq!(patch["models"], serde_json::json!(["gpt-5.5"]));
    // fork_of_plan: 12,461 in all, 7,196 of them its parent's before the fork.
    assert_eq!(
        by_prefix("01a23b79-4992")["tokens"]["total"],
        12_461 - 7_196
    );
    assert_eq!(by_prefix("01a23b78-d489")["tokens"]["total"], 7_196);
}

/// The rich store copied under a temporary folder, its working folders there too (the
/// rollouts' paths rewritten from `/home/dev/work/` to it), with `main.py` as the recorded
/// patch left it.
fn rich_store_on_disk() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    copy_tree(&fixtures().join("codex-rich"), &home);
    let work = dir.path().join("work");
    for entry in walkdir::WalkDir::new(&home) {
        let path = entry.unwrap().into_path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let text = std::fs::read_to_string(&path).unwrap();
            let moved = text.replace("/home/dev/work/", &format!("{}/", work.display()));
            std::fs::write(&path, moved).unwrap();
        }
    }
    let proj = work.join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    std::fs::write(
        proj.join("main.py"),
        "def greet(name: str) -> str:\n    \"\"\"Return a friendly greeting.\"\"\"\n    return f\"hello, {name}\"\n\n\nif __name__ == \"__main__\":\n    print(greet(\"corpus\"))\nprint(\"added by hand\")\n",
    )
    .unwrap();
    (dir, home, proj)
}

fn run_in(dir: &Path, home: &Path, args: &[&str]) -> std::process::Output {
    bin()
        .current_dir(dir)
        .arg("--codex-home")
        .arg(home)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn list_file_gives_exactly_the_sessions_that_changed_the_file() {
    let (_dir, home, proj) = rich_store_on_disk();
    let ids = |out: &std::process::Output| -> Vec<String> {
        assert!(out.status.success(), "{}", stderr(out));
        json_lines(&stdout(out))
            .iter()
            .map(|r| format!("{} {}", r["id"].as_str().unwrap(), r["file"]["change"]))
            .collect()
    };
    let here = run_in(&proj, &home, &["list", "--json", "--file", "main.py"]);
    assert_eq!(
        ids(&here),
        ["01a23b78-c7f8-7460-97a8-2900b13dcc8c \"modify\""]
    );
    let other = run_in(
        &proj,
        &home,
        &["list", "--json", "--file", "../tui-proj/main.py"],
    );
    assert_eq!(
        ids(&other),
        ["01a23b79-919e-7ee3-aced-208225816fed \"modify\""]
    );
    // By the new name of a renamed file, and by a folder.
    let renamed = run_in(
        &proj,
        &home,
        &["list", "--json", "--file", "src/helpers.py"],
    );
    assert_eq!(
        ids(&renamed),
        ["01a23b78-c7f8-7460-97a8-2900b13dcc8c \"rename\""]
    );
    let text = run_in(&proj, &home, &["list", "--file", "old_notes.txt"]);
    let text = stdout(&text);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("deleted") && text.contains("01a23b78-c7f8"),
        "{text}"
    );
    let none = run_in(&proj, &home, &["list", "--file", "README.md"]);
    assert!(none.status.success() && stdout(&none).is_empty());
}

#[test]
fn blame_names_the_session_whose_patch_added_the_line() {
    let (_dir, home, proj) = rich_store_on_disk();
    let out = run_in(&proj, &home, &["blame", "main.py:3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("return f\"hello, {name}\""), "{text}");
    assert!(
        text.contains("added by session 01a23b78-c7f8-7460-97a8-2900b13dcc8c"),
        "{text}"
    );
    assert!(
        text.contains("prompt: RICH_PATCH: refactor main.py into a greet() function"),
        "{text}"
    );
    let by_hand = stdout(&run_in(&proj, &home, &["blame", "main.py:8"]));
    assert!(by_hand.contains("no session explains it"), "{by_hand}");
    let sessions = stdout(&run_in(&proj, &home, &["blame", "main.py"]));
    assert_eq!(sessions.lines().count(), 1, "{sessions}");
    assert!(sessions.contains("modified  01a23b78-c7f8"), "{sessions}");
    let past_end = run_in(&proj, &home, &["blame", "main.py:99"]);
    assert_eq!(past_end.status.code(), Some(2));
    assert!(stderr(&past_end).contains("has no line 99"));
}

/// What a row says a session changed and used: each file (path, change, new path) and the
/// tokens.
type Used = (Vec<(String, String, Option<String>)>, Option<[u64; 5]>);

fn used_in_json(row: &Value) -> Used {
    let files = row["files_changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |k: &str| f[k].as_str().map(str::to_owned);
            (text("path").unwrap(), text("change").unwrap(), text("to"))
        })
        .collect();
    (files, tokens_of(row))
}

fn used_in_row(row: &codex_picker::session::SessionRow) -> Option<Used> {
    let usage = row.usage.as_ref()?;
    let files = usage
        .files
        .iter()
        .map(|f| {
            let to = f.to.map(str::to_owned);
            (f.path.to_owned(), f.change.as_str().to_owned(), to)
        })
        .collect();
    let tokens = usage
        .tokens
        .map(|t| [t.input, t.cached_input, t.output, t.reasoning, t.total]);
    Some((files, tokens))
}

/// The picker's indexer on stores it has never seen: the whole read, its content index as its
/// tap, reads each session once, for its messages and for what it changed and used, so by the
/// time the content index is ready every row has the files and tokens `list` gives, and
/// nothing is read or sent after it.
#[test]
fn the_pickers_content_phase_gives_each_row_its_files_and_tokens_in_the_same_read() {
    use codex_picker::store::CacheSetup;
    use codex_picker::store::{engine, Store};
    use codex_picker::workers::indexer::{self, Event, IndexOptions};
    for home in recorded_homes() {
        let want: BTreeMap<String, Used> = list_json(&home, &["--no-cache", "--archived"])
            .iter()
            .map(|r| (r["path"].as_str().unwrap().to_owned(), used_in_json(r)))
            .collect();
        let cache = tempfile::tempdir().unwrap();
        let rx = indexer::spawn(
            Store::codex(home.clone()),
            IndexOptions::default(),
            CacheSetup {
                dir: Some(cache.path().to_path_buf()),
                content: true,
            },
        );
        let mut rows = BTreeMap::new();
        let (mut at_content_end, mut sent_after) = (BTreeMap::new(), 0);
        for event in rx {
            match event {
                Event::Whole(engine::Event::Finished(_)) => break,
                Event::Run(event) | Event::Whole(event) => {
                    let r = event.into_rows().unwrap_or_default();
                    sent_after += r.len();
                    for row in r {
                        let path = row.path.to_string_lossy().into_owned();
                        rows.insert(path, used_in_row(&row));
                    }
                }
                // The last one comes after every row of the whole read.
                Event::ContentReady(_) => {
                    at_content_end = rows.clone();
                    sent_after = 0;
                }
                Event::ContentProgress { .. } => {}
            }
        }
        assert_eq!(at_content_end.len(), want.len(), "{}", home.display());
        for (path, used) in &want {
            assert_eq!(
                at_content_end.get(path),
                Some(&Some(used.clone())),
                "{path}: the row as the whole read left it"
            );
        }
        assert_eq!(sent_after, 0, "{}: rows sent again", home.display());
    }
}

/// The content index reads each session whole for its messages and makes the row summary's
/// pass on the way: on every recorded session, and on the hostile and split-role stores, that
/// pass is the one the row pass makes reading the file to its end.
#[test]
fn the_content_reads_pass_is_the_row_pass_to_the_end_on_every_fixture_file() {
    use codex_picker::rollout::summary::{ScanOptions, ScanState, Until};
    use codex_picker::rollout::transcript::TranscriptOptions;
    use codex_picker::store::{fork, reader, Store};
    let mut homes = recorded_homes();
    homes.push(fixtures().join("hostile/home"));
    homes.push(fixtures().join("split-roles"));
    let mut compared = 0;
    for home in homes {
        let (files, _) = Store::codex(home).files(true);
        for file in &files {
            let mut want = ScanState::default();
            let scanned = reader::scan_file(file, &mut want, &ScanOptions::new(Until::End));
            let opts = TranscriptOptions::messages_only();
            let got = fork::read_transcript_summarised(file, &mut files.as_slice(), &opts);
            match (scanned, got) {
                (Ok(()), Ok((_, pass))) => assert_eq!(pass, want, "{}", file.path.display()),
                (Err(_), Err(_)) => {}
                (scanned, got) => panic!("{}: {scanned:?} / {:?}", file.path.display(), got.err()),
            }
            compared += 1;
        }
    }
    assert!(compared > 40, "files compared: {compared}");
}
