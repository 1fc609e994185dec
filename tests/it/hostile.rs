//! The hostile store (`tests/fixtures/hostile/`, plus the big and special cases generated here):
//! every case is listed with the expected preview and counts, or skipped with its reason on
//! stderr, and `show` agrees with `list`. The case table is `tests/fixtures/hostile/README.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::common::{self, bin, stderr, stdout};

/// What a case must come out as.
#[derive(Debug, Clone)]
pub enum Outcome {
    Listed {
        preview: String,
        user: u64,
        assistant: u64,
        skipped: u64,
    },
    /// Passed over with this reason by `list` and by `show <path>`.
    Skipped(String),
    /// Passed over by the folder walk (links, folders): reported by `list` only.
    NotWalked(String),
    /// Listed with this preview from what could be read before a read error part-way, which
    /// counts as one skipped line; `show` gives the same messages.
    ListedUpToReadError { preview: String },
    /// Listed, and `list` warns on stderr with this reason.
    ListedWithWarning { preview: String, warning: String },
}

#[derive(Debug, Clone)]
pub struct Case {
    /// Path below the store's home.
    pub rel: PathBuf,
    pub outcome: Outcome,
}

fn uuid(n: u32) -> String {
    format!("0e000000-0000-7000-8000-0000000000{n:02}")
}

fn rollout(n: u32) -> PathBuf {
    PathBuf::from(format!(
        "sessions/2026/01/02/rollout-2026-01-02T03-04-{n:02}-{}.jsonl",
        uuid(n)
    ))
}

fn listed(rel: PathBuf, preview: &str, user: u64, assistant: u64, skipped: u64) -> Case {
    Case {
        rel,
        outcome: Outcome::Listed {
            preview: preview.into(),
            user,
            assistant,
            skipped,
        },
    }
}

fn skipped(rel: PathBuf, reason: &str) -> Case {
    Case {
        rel,
        outcome: Outcome::Skipped(reason.into()),
    }
}

fn meta_line(n: u32) -> String {
    format!(
        r#"{{"timestamp":"2026-01-02T03:04:{n:02}.100Z","type":"session_meta","payload":{{"id":"{}","timestamp":"2026-01-02T03:04:{n:02}.000Z","cwd":"/home/dev/hostile","source":"cli"}}}}"#,
        uuid(n)
    )
}

fn user_line(text: &str) -> String {
    serde_json::json!({"type":"event_msg","payload":{"type":"user_message","message":text}})
        .to_string()
}

fn write_lines(path: &Path, lines: &[String]) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for line in lines {
        f.write_all(line.as_bytes()).unwrap();
        f.write_all(b"\n").unwrap();
    }
}

/// The committed small cases (files under `tests/fixtures/hostile/home`).
pub fn committed_cases() -> Vec<Case> {
    let dup = |day: &str| {
        PathBuf::from(format!(
            "sessions/2026/01/{day}/rollout-2026-01-02T03-04-13-{}.jsonl",
            uuid(13)
        ))
    };
    vec![
        skipped(rollout(1), "empty file"),
        listed(rollout(2), "", 0, 0, 0),
        listed(rollout(3), "fix the flaky test", 1, 1, 1),
        listed(rollout(4), "caf\u{FFFD}\u{FFFD} au lait \u{FFFD}", 1, 0, 0),
        listed(rollout(5), "after the junk", 1, 0, 6),
        listed(rollout(6), "content given as a plain string", 1, 1, 0),
        listed(rollout(7), "the typed prompt", 1, 1, 0),
        listed(rollout(8), "prompt after payload-less rows", 1, 0, 0),
        listed(rollout(9), "real prompt among unknown rows", 1, 1, 0),
        listed(rollout(10), "the second prompt is the real one", 2, 1, 0),
        listed(rollout(11), "windows line endings", 1, 1, 0),
        listed(rollout(12), "starts with a byte-order mark", 1, 0, 0),
        listed(dup("02"), "first copy of a duplicated session", 1, 0, 0),
        Case {
            rel: dup("03"),
            outcome: Outcome::ListedWithWarning {
                preview: "second copy of a duplicated session".into(),
                warning: format!(
                    "session id {} is also in {{HOME}}/{}; both are listed",
                    uuid(13),
                    dup("02").display()
                ),
            },
        },
        listed(
            PathBuf::from("sessions/2026/01/02/rollout-2026-01-02T03-04-14-no-uuid-here.jsonl"),
            "a file name without a uuid",
            1,
            0,
            0,
        ),
        skipped(rollout(15).with_extension("jsonl.zst"), "not a zstd stream"),
        listed(rollout(16), "", 0, 1, 0),
        skipped(
            rollout(25),
            "no session metadata and no message (1 unreadable line)",
        ),
        listed(rollout(28), "", 0, 0, 0),
    ]
}

/// A file mode 000 can still be opened: we run as root, where nothing is unreadable.
pub fn running_as_root(scratch: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = scratch.join("mode-000-probe");
    std::fs::write(&probe, b"x").unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).unwrap();
    let root = std::fs::File::open(&probe).is_ok();
    std::fs::remove_file(&probe).unwrap();
    root
}

/// Lay out the cases too big or too special to commit, under `home`; returns them.
pub fn generate_cases(home: &Path, outside: &Path) -> Vec<Case> {
    let mut cases = unreadable_lines(home);
    cases.push(prompt_behind_context(home));
    cases.push(cut_zstd(home));
    cases.extend(not_walked(home, outside));
    // An unreadable file (meaningless as root, where every file opens).
    if running_as_root(outside) {
        println!("running as root: the unreadable-file case is skipped");
    } else {
        use std::os::unix::fs::PermissionsExt;
        let path = home.join(rollout(24));
        write_lines(&path, &[meta_line(24), user_line("locked away")]);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
        cases.push(skipped(rollout(24), "Permission denied (os error 13)"));
    }
    cases
}

/// Lines too deep, too long or not text, around a real prompt.
fn unreadable_lines(home: &Path) -> Vec<Case> {
    let mut cases = Vec::new();

    // 10,000 levels of nested arrays, inside a message row and as a bare line.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let nested_row =
        format!(r#"{{"type":"event_msg","payload":{{"type":"user_message","message":{deep}}}}}"#);
    write_lines(
        &home.join(rollout(17)),
        &[
            meta_line(17),
            nested_row,
            deep,
            user_line("prompt after deep nesting"),
        ],
    );
    cases.push(listed(rollout(17), "prompt after deep nesting", 1, 0, 2));

    // A 100,000-character word as the prompt.
    let word: String = "Pneumonoultramicroscopic"
        .chars()
        .cycle()
        .take(100_000)
        .collect();
    write_lines(&home.join(rollout(18)), &[meta_line(18), user_line(&word)]);
    cases.push(listed(rollout(18), &word, 1, 0, 0));

    // A file of NUL bytes.
    std::fs::write(home.join(rollout(19)), vec![0u8; 64 << 10]).unwrap();
    cases.push(skipped(
        rollout(19),
        "no session metadata and no message (1 unreadable line)",
    ));

    // A 50 MB single line (over the 32 MiB line cap) before the real prompt.
    let giant = user_line(&"x".repeat(50 << 20));
    write_lines(
        &home.join(rollout(20)),
        &[meta_line(20), giant, user_line("prompt after a 50 MB line")],
    );
    cases.push(listed(rollout(20), "prompt after a 50 MB line", 1, 0, 1));
    cases
}

/// A real prompt behind 2 MB of injected context (response rows only, the hard case).
fn prompt_behind_context(home: &Path) -> Case {
    let response = |role: &str, text: &str| {
        serde_json::json!({"type":"response_item","payload":{"type":"message","role":role,
            "content":[{"type":"input_text","text":text}]}})
        .to_string()
    };
    let mut lines = vec![meta_line(21)];
    let block = "context line that is not the prompt\n".repeat(3_000);
    for i in 0..20 {
        lines.push(response(
            "user",
            &format!(
                "# AGENTS.md instructions for /p{i}\n\n<INSTRUCTIONS>\n{block}</INSTRUCTIONS>"
            ),
        ));
    }
    lines.push(response(
        "user",
        &format!("<environment_context>\n{block}</environment_context>"),
    ));
    lines.push(response("user", "the real prompt behind 2 MB of context"));
    lines.push(response("assistant", "found it"));
    write_lines(&home.join(rollout(21)), &lines);
    assert!(std::fs::metadata(home.join(rollout(21))).unwrap().len() > 2 << 20);
    listed(
        rollout(21),
        "the real prompt behind 2 MB of context",
        1,
        1,
        0,
    )
}

/// A zstd rollout cut in the middle of its stream: what decompresses is read.
fn cut_zstd(home: &Path) -> Case {
    let mut text = format!(
        "{}\n{}\n",
        meta_line(27),
        user_line("prompt in a cut zstd file")
    );
    let mut seed = 7u64;
    for i in 0..3000 {
        let noise: String = (0..80)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8)
            })
            .collect();
        let reply = format!("reply {i} {noise}");
        text.push_str(&serde_json::json!({"type":"event_msg","payload":{"type":"agent_message","message":reply}}).to_string());
        text.push('\n');
    }
    let packed = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let cut_zst = rollout(27).with_extension("jsonl.zst");
    std::fs::write(home.join(&cut_zst), &packed[..packed.len() / 2]).unwrap();
    Case {
        rel: cut_zst,
        outcome: Outcome::ListedUpToReadError {
            preview: "prompt in a cut zstd file".into(),
        },
    }
}

/// What the walk passes over: a folder and a named pipe named like rollouts, and symbolic links
/// (a folder loop, a link to itself, a link out of the store); `outside` is beside the store.
fn not_walked(home: &Path, outside: &Path) -> Vec<Case> {
    let day = home.join("sessions/2026/01/02");
    let mut cases = Vec::new();
    // A folder named like a rollout.
    let folder = PathBuf::from("sessions/2026/01/02/rollout-x.jsonl");
    std::fs::create_dir_all(home.join(&folder)).unwrap();
    std::fs::write(home.join(&folder).join("notes.txt"), "not a rollout").unwrap();
    cases.push(Case {
        rel: folder,
        outcome: Outcome::NotWalked("not a regular file".into()),
    });

    // A named pipe named like a rollout: opening it for reading would wait forever.
    let fifo = PathBuf::from(format!(
        "sessions/2026/01/02/rollout-2026-01-02T03-04-29-{}.jsonl",
        uuid(29)
    ));
    let made = std::process::Command::new("mkfifo")
        .arg(home.join(&fifo))
        .status()
        .is_ok_and(|s| s.success());
    if made {
        cases.push(Case {
            rel: fifo,
            outcome: Outcome::NotWalked("not a regular file".into()),
        });
    } else {
        println!("mkfifo is not available: the named-pipe case is skipped");
    }

    // Symbolic links: a folder loop, a link to itself, and a link out of the store.
    std::os::unix::fs::symlink("..", day.join("loop")).unwrap();
    std::os::unix::fs::symlink(
        "../../../../sessions",
        home.join("sessions/2026/01/loop-to-root"),
    )
    .unwrap();
    let self_link = rollout(23);
    std::os::unix::fs::symlink(self_link.file_name().unwrap(), home.join(&self_link)).unwrap();
    cases.push(Case {
        rel: self_link,
        outcome: Outcome::NotWalked("symbolic link, not followed".into()),
    });
    let elsewhere = outside.join("rollout-elsewhere.jsonl");
    write_lines(&elsewhere, &[meta_line(26), user_line("outside the store")]);
    std::os::unix::fs::symlink(&elsewhere, home.join(rollout(26))).unwrap();
    cases.push(Case {
        rel: rollout(26),
        outcome: Outcome::NotWalked("symbolic link, not followed".into()),
    });
    cases
}

/// A temporary store holding every hostile case; `outside` is a folder beside it.
pub fn hostile_store() -> (tempfile::TempDir, PathBuf, Vec<Case>) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    common::copy_tree(&common::fixtures().join("hostile/home"), &home);
    let mut cases = committed_cases();
    cases.extend(generate_cases(&home, &outside));
    (tmp, home, cases)
}

fn run_in(home: &Path, args: &[&str]) -> Output {
    bin()
        .args(args)
        .arg("--codex-home")
        .arg(home)
        .output()
        .expect("run codex-picker")
}

fn expected_line(home: &Path, rel: &Path, reason: &str) -> String {
    let reason = reason.replace("{HOME}", &home.display().to_string());
    format!("codex-picker: {}: {reason}", home.join(rel).display())
}

fn sorted_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.sort();
    lines
}

#[test]
fn every_case_is_listed_or_reported() {
    let (_tmp, home, cases) = hostile_store();
    for verbose in [false, true] {
        let mut args = vec!["list", "--json"];
        if verbose {
            args.push("--verbose");
        }
        let out = run_in(&home, &args);
        assert!(out.status.success(), "{}", stderr(&out));
        let rows: Vec<Value> = crate::common::json_lines(&stdout(&out));
        let mut want_err = Vec::new();
        let mut listed = 0;
        for case in &cases {
            let path = home.join(&case.rel);
            let row = rows.iter().find(|r| r["path"] == path.to_str().unwrap());
            let (preview, counts) = match &case.outcome {
                Outcome::Skipped(reason) | Outcome::NotWalked(reason) => {
                    assert!(row.is_none(), "{case:?} must not be listed");
                    want_err.push(expected_line(&home, &case.rel, reason));
                    continue;
                }
                Outcome::Listed {
                    preview,
                    user,
                    assistant,
                    skipped,
                } => {
                    if verbose && *skipped > 0 {
                        let reason = match skipped {
                            1 => "listed; skipped 1 unreadable line".to_owned(),
                            n => format!("listed; skipped {n} unreadable lines"),
                        };
                        want_err.push(expected_line(&home, &case.rel, &reason));
                    }
                    (preview, Some((*user, *assistant, *skipped)))
                }
                Outcome::ListedWithWarning { preview, warning } => {
                    want_err.push(expected_line(&home, &case.rel, warning));
                    (preview, None)
                }
                Outcome::ListedUpToReadError { preview } => {
                    if verbose {
                        let note = "listed; skipped 1 unreadable line";
                        want_err.push(expected_line(&home, &case.rel, note));
                    }
                    (preview, None)
                }
            };
            listed += 1;
            let row = row.unwrap_or_else(|| panic!("{case:?} is listed"));
            assert_eq!(row["preview"], preview.as_str(), "{case:?}");
            if let Some((user, assistant, skipped)) = counts {
                assert_eq!(row["user_messages"], user, "{case:?}");
                assert_eq!(row["assistant_messages"], assistant, "{case:?}");
                assert_eq!(row["skipped_lines"], skipped, "{case:?}");
            }
            if let Outcome::ListedUpToReadError { .. } = case.outcome {
                assert_eq!(row["skipped_lines"], 1, "{case:?}");
                let read = row["assistant_messages"].as_u64().unwrap();
                assert!(
                    read > 0 && read < 3000,
                    "{case:?}: part of the stream, got {read}"
                );
            }
        }
        assert_eq!(rows.len(), listed, "nothing else is listed");
        want_err.sort();
        assert_eq!(sorted_lines(&stderr(&out)), want_err, "verbose={verbose}");
    }
}

#[test]
fn show_agrees_with_list_on_every_case() {
    let (_tmp, home, cases) = hostile_store();
    let rows = common::list_json(&home, &[]);
    for case in &cases {
        let path = home.join(&case.rel);
        let target = path.to_str().unwrap();
        match &case.outcome {
            Outcome::NotWalked(_) => {}
            Outcome::Skipped(reason) => {
                let out = run_in(&home, &["show", target]);
                assert_eq!(out.status.code(), Some(2), "{case:?}");
                assert_eq!(
                    stderr(&out).trim_end(),
                    expected_line(&home, &case.rel, reason),
                    "{case:?}"
                );
                assert!(out.stdout.is_empty());
            }
            Outcome::Listed { .. }
            | Outcome::ListedWithWarning { .. }
            | Outcome::ListedUpToReadError { .. } => {
                let row = rows.iter().find(|r| r["path"] == target).unwrap();
                let json = run_in(&home, &["show", target, "--json"]);
                assert!(json.status.success(), "{case:?}: {}", stderr(&json));
                let messages: Vec<Value> = crate::common::json_lines(&stdout(&json));
                let count = |role: &str| messages.iter().filter(|m| m["role"] == role).count();
                assert_eq!(row["user_messages"], count("user") as u64, "{case:?}");
                assert_eq!(
                    row["assistant_messages"],
                    count("assistant") as u64,
                    "{case:?}"
                );
                let text = run_in(&home, &["show", target]);
                assert!(text.status.success(), "{case:?}");
                let header = format!(
                    "messages: {} user, {} assistant",
                    count("user"),
                    count("assistant")
                );
                assert!(stdout(&text).contains(&header), "{case:?}");
            }
        }
    }
}

#[test]
fn show_by_id_handles_copies_and_names_without_ids() {
    let (_tmp, home, _) = hostile_store();
    let out = run_in(&home, &["show", &uuid(14), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("a file name without a uuid"));

    // Two copies of one session: the newer one is shown, the other named on stderr.
    let older = home.join(format!(
        "sessions/2026/01/02/rollout-2026-01-02T03-04-13-{}.jsonl",
        uuid(13)
    ));
    let newer = home.join(format!(
        "sessions/2026/01/03/rollout-2026-01-02T03-04-13-{}.jsonl",
        uuid(13)
    ));
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&older)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let out = run_in(&home, &["show", &uuid(13)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("second copy of a duplicated session"));
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "codex-picker: {}: session id {} is also in this file; showing {}",
            older.display(),
            uuid(13),
            newer.display()
        )
    );
}

#[test]
fn the_table_stays_in_its_columns() {
    let (_tmp, home, _) = hostile_store();
    let out = bin()
        .env("COLUMNS", "100")
        .args(["list", "--codex-home"])
        .arg(&home)
        .output()
        .unwrap();
    assert!(out.status.success());
    for line in stdout(&out).lines() {
        assert!(line.chars().count() <= 100, "{line}");
    }
}

#[test]
fn a_named_pipe_as_the_name_index_is_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    std::fs::create_dir_all(home.join("sessions/2026/01/02")).unwrap();
    write_lines(&home.join(rollout(2)), &[meta_line(2), user_line("named")]);
    let made = std::process::Command::new("mkfifo")
        .arg(home.join("session_index.jsonl"))
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        println!("mkfifo is not available: skipped");
        return;
    }
    for args in [&["list", "--json"][..], &["show", &uuid(2)]] {
        let mut child = bin()
            .args(args)
            .arg("--codex-home")
            .arg(home)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                child.wait().unwrap();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let status = status.unwrap_or_else(|| panic!("{args:?} waited on the pipe"));
        assert!(status.success(), "{args:?}");
    }
}
