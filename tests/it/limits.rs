//! Limits: `show` of a rollout holding a few giant messages keeps memory far below the file's
//! size (the text view cuts each message, the JSON view streams every message out whole), and
//! the streamed JSON is exactly the transcript the fixtures expect.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::common::{self, bin};

const MIB: usize = 1 << 20;

/// A rollout with `messages` assistant messages of `each` bytes between two short prompts.
fn giant_rollout(path: &Path, messages: usize, each: usize) -> u64 {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::io::BufWriter::with_capacity(MIB, std::fs::File::create(path).unwrap());
    let user = |text: &str| {
        format!(r#"{{"type":"event_msg","payload":{{"type":"user_message","message":"{text}"}}}}"#)
    };
    writeln!(
        f,
        r#"{{"type":"session_meta","payload":{{"id":"0d000000-0000-7000-8000-000000000001","cwd":"/big"}}}}"#
    )
    .unwrap();
    writeln!(f, "{}", user("summarise the giant logs")).unwrap();
    let chunk = "y".repeat(64 << 10);
    for _ in 0..messages {
        f.write_all(br#"{"type":"event_msg","payload":{"type":"agent_message","message":""#)
            .unwrap();
        for _ in 0..each / chunk.len() {
            f.write_all(chunk.as_bytes()).unwrap();
        }
        f.write_all(b"\"}}\n").unwrap();
    }
    writeln!(f, "{}", user("thanks")).unwrap();
    f.flush().unwrap();
    std::fs::metadata(path).unwrap().len()
}

/// Run the binary; returns its stdout and the highest resident memory seen (KiB), read from
/// `/proc/<pid>/status` while it runs.
fn run_measured(args: &[&str]) -> (Vec<u8>, u64) {
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).unwrap();
        buf
    });
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    loop {
        if let Ok(status) = std::fs::read_to_string(&status_path) {
            if let Some(kib) = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(child.wait().unwrap().success(), "{args:?} failed");
    (reader.join().unwrap(), peak)
}

fn check_giant(messages: usize, each: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp
        .path()
        .join("sessions/2026/03/04/rollout-2026-03-04T05-06-07-0d000000-0000-7000-8000-000000000001.jsonl");
    let size = giant_rollout(&path, messages, each);
    let home = tmp.path().to_str().unwrap();
    let id = "0d000000-0000-7000-8000-000000000001";
    // Holding the whole transcript would need at least the file's size; a bounded reader needs
    // a few copies of the largest line.
    let bound_kib = ((6 * each + 16 * MIB) / 1024) as u64;
    assert!(bound_kib * 1024 < size, "the test can tell the two apart");

    let (text, peak) = run_measured(&["show", id, "--codex-home", home]);
    let text = String::from_utf8(text).unwrap();
    println!("show: peak {peak} KiB for a {size}-byte rollout (bound {bound_kib} KiB)");
    assert!(
        peak < bound_kib,
        "show used {peak} KiB for a {size}-byte file"
    );
    let cut = each - codex_picker::cmd::SHOW_TEXT_CAP;
    let marker = format!("[… {cut} more bytes not shown (--full shows them) …]");
    assert_eq!(text.matches(&marker).count(), messages);
    assert!(text.len() < messages * 2 * codex_picker::cmd::SHOW_TEXT_CAP + 4096);
    assert!(text.contains(&format!("messages: 2 user, {messages} assistant")));

    let (json, peak) = run_measured(&["show", id, "--json", "--codex-home", home]);
    println!("show --json: peak {peak} KiB for a {size}-byte rollout (bound {bound_kib} KiB)");
    assert!(
        peak < bound_kib,
        "show --json used {peak} KiB for a {size}-byte file"
    );
    let lines: Vec<Value> = json
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), messages + 2);
    assert_eq!(lines[0]["text"], "summarise the giant logs");
    for line in &lines[1..=messages] {
        assert_eq!(line["role"], "assistant");
        assert_eq!(
            line["text"].as_str().unwrap().len(),
            each,
            "JSON stays exact"
        );
    }
    assert_eq!(lines[messages + 1]["text"], "thanks");
}

#[test]
fn show_of_a_rollout_with_giant_messages_stays_small() {
    check_giant(12, 4 * MIB);
}

/// The full-size case: a ~300 MB rollout. Slow in a debug build, so run on demand:
/// `cargo test --release --test it limits:: -- --ignored`.
#[test]
#[ignore]
fn show_of_a_300_mb_rollout_stays_small() {
    check_giant(12, 25 * MIB);
}

#[test]
fn streamed_json_matches_every_real_fixture() {
    let expected = std::fs::read_to_string(common::real_fixtures().join("expected.jsonl")).unwrap();
    for line in expected.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let rel = want["path"].as_str().unwrap();
        let version = want["version"].as_str().unwrap();
        let home = common::real_fixtures().join(version);
        let out = bin()
            .args([
                "show",
                want["id"].as_str().unwrap(),
                "--json",
                "--codex-home",
            ])
            .arg(&home)
            .output()
            .unwrap();
        assert!(out.status.success(), "{rel}");
        let messages: Vec<Value> =
            crate::common::json_lines(&String::from_utf8(out.stdout).unwrap());
        let count = |role: &str| messages.iter().filter(|m| m["role"] == role).count() as u64;
        assert_eq!(count("user"), want["user_messages"], "{rel}");
        assert_eq!(count("assistant"), want["assistant_messages"], "{rel}");
        let first = messages
            .iter()
            .find(|m| m["role"] == "user" && !m["text"].as_str().unwrap().trim().is_empty());
        let first = first.map(|m| m["text"].clone()).unwrap_or(Value::Null);
        assert_eq!(first, want["first_user_message"], "{rel}");
    }
}
