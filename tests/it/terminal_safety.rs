//! Nothing from a rollout drives the terminal: a store whose every shown field holds control
//! characters, escape sequences (CSI, OSC 52 clipboard writes, OSC 8 links, DCS) and
//! bidirectional overrides is listed and shown in every form, and no such character reaches
//! stdout or stderr raw, while the JSON forms still give back the exact original text.

use std::path::Path;
use std::process::Output;

use serde_json::{json, Value};

use crate::common::{bin, stderr};

pub const ID: &str = "0f000000-0000-7000-8000-000000000001";
const ID_NASTY_META: &str = "0f000000-0000-7000-8000-000000000002";

/// Every C0 control, DEL, every C1 control, live escape sequences and every bidi control.
fn nasty(label: &str) -> String {
    let mut s = format!("{label} ");
    for c in (0u32..0x20).chain([0x7f]).chain(0x80..0xa0) {
        s.push(char::from_u32(c).unwrap());
        s.push('.');
    }
    s.push_str("\u{1b}[31mred\u{1b}[0m \u{1b}[2J\u{1b}[H \u{1b}]52;c;cm0gLXJmIH4=\u{7} ");
    s.push_str("\u{1b}]8;;https://evil.example/\u{1b}\\click\u{1b}]8;;\u{1b}\\ \u{9b}31m \u{1b}P+q\u{1b}\\ ");
    for c in [
        '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}', '\u{61c}', '\u{200e}', '\u{200f}', '\u{2028}', '\u{2029}',
    ] {
        s.push(c);
        s.push('x');
    }
    s.push_str(" end");
    s
}

fn is_raw_control(c: char) -> bool {
    (c < ' ' && c != '\n' && c != '\t')
        || c == '\u{7f}'
        || ('\u{80}'..='\u{9f}').contains(&c)
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}')
}

fn assert_inert(what: &str, bytes: &[u8]) {
    let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    if let Some((at, c)) = text.char_indices().find(|(_, c)| is_raw_control(*c)) {
        let before: Vec<char> = text[..at].chars().rev().take(60).collect();
        let before: String = before.into_iter().rev().collect();
        panic!("{what}: raw {c:?} at byte {at}, after {before:?}");
    }
}

fn write_jsonl(path: &Path, rows: &[Value]) {
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// A store whose shown fields are all hostile; returns its home.
pub fn nasty_store(root: &Path) -> std::path::PathBuf {
    let home = root.join("home");
    let day = home.join("sessions/2026/02/03");
    std::fs::create_dir_all(&day).unwrap();
    let meta = |id: &str| {
        json!({"timestamp":"2026-02-03T04:05:06.000Z","type":"session_meta","payload":{
            "id": id, "timestamp":"2026-02-03T04:05:06.000Z", "cwd": nasty("cwd"),
            "git": {"branch": nasty("branch")}, "source": nasty("source"),
            "originator": nasty("originator"), "cli_version": nasty("version"),
            "model_provider": nasty("provider")}})
    };
    let event = |kind: &str, text: &str| json!({"type":"event_msg","payload":{"type":kind,"message":text,"phase":nasty("phase")}});
    let tool = |payload: Value| json!({"type":"response_item","payload":payload});
    write_jsonl(
        &day.join(format!("rollout-2026-02-03T04-05-06-{ID}.jsonl")),
        &[
            meta(ID),
            event("user_message", &nasty("prompt")),
            tool(
                json!({"type":"function_call","name":nasty("tool"),"arguments":nasty("args"),"call_id":"c1"}),
            ),
            tool(json!({"type":"function_call_output","call_id":"c1","output":nasty("output")})),
            tool(
                json!({"type":"reasoning","summary":[{"type":"summary_text","text":nasty("thinking")}]}),
            ),
            event("agent_message", &nasty("answer")),
        ],
    );
    write_jsonl(
        &day.join(format!("rollout-2026-02-03T04-05-07-{ID_NASTY_META}.jsonl")),
        &[meta(&nasty("id")), event("user_message", "plain")],
    );
    // A file name that is itself an escape sequence; empty, so it is reported on stderr.
    std::fs::write(
        day.join("rollout-\u{1b}]52;c;cm0=\u{7}\u{1b}[2J\u{202e}-x.jsonl"),
        b"",
    )
    .unwrap();
    write_jsonl(
        &home.join("session_index.jsonl"),
        &[json!({"id": ID, "thread_name": nasty("name"), "updated_at": "2026-02-03T04:05:09Z"})],
    );
    home
}

fn run(home: &Path, args: &[&str]) -> Output {
    let out = bin()
        .env("COLUMNS", "300")
        .args(args)
        .arg("--codex-home")
        .arg(home)
        .output()
        .unwrap();
    assert_inert(&format!("stdout of {args:?}"), &out.stdout);
    assert_inert(&format!("stderr of {args:?}"), &out.stderr);
    out
}

#[test]
fn no_control_character_reaches_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let home = nasty_store(tmp.path());
    for args in [
        &["list"][..],
        &["list", "--verbose"],
        &["list", "--json"],
        &["show", ID],
        &["show", ID, "--tools"],
        &["show", ID, "--json"],
        &["show", ID, "--tools", "--full", "--verbose"],
        &["show", "\u{1b}]52;c;cm0=\u{7}\u{9b}2J\u{202e}"],
    ] {
        run(&home, args);
    }
    let out = run(&home, &["list"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("rollout-␛]52;c;cm0=␇␛[2J\u{FFFD}-x.jsonl: empty file"),
        "{err}"
    );
    let text = String::from_utf8(run(&home, &["show", ID, "--tools"]).stdout).unwrap();
    for shown in [
        "prompt", "answer", "name", "cwd", "branch", "tool", "output", "thinking", "phase",
    ] {
        assert!(
            text.contains(&format!("{shown} ␀.␁.")),
            "{shown} is shown, neutralised"
        );
    }
}

#[test]
fn json_gives_back_the_exact_text() {
    let tmp = tempfile::tempdir().unwrap();
    let home = nasty_store(tmp.path());
    let out = run(&home, &["list", "--json"]);
    let rows: Vec<Value> = crate::common::json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(rows.len(), 2);
    let row = rows.iter().find(|r| r["id"] == ID).unwrap();
    assert_eq!(row["first_user_message"], nasty("prompt"));
    assert_eq!(
        row["preview"],
        codex_picker::rollout::rules::preview_line(&nasty("prompt"))
    );
    assert_eq!(row["name"], nasty("name"));
    assert_eq!(row["cwd"], nasty("cwd"));
    assert_eq!(row["git_branch"], nasty("branch"));
    assert_eq!(row["session_source"], nasty("source"));
    assert_eq!(row["source"], "codex");
    assert_eq!(row["cli_version"], nasty("version"));
    let other = rows.iter().find(|r| r["id"] != ID).unwrap();
    assert_eq!(other["id"], nasty("id"));

    let out = run(&home, &["show", ID, "--json"]);
    let messages: Vec<Value> = crate::common::json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["text"], nasty("prompt"));
    assert_eq!(messages[1]["text"], nasty("answer"));
    assert_eq!(messages[1]["phase"], nasty("phase"));
}

#[test]
fn a_dumb_terminal_gets_one_line_and_exit_2_instead_of_a_screen() {
    let out = crate::common::bin()
        .args(["--demo"])
        .env("TERM", "dumb")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("codex-picker: this terminal (TERM=dumb) cannot show the picker"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no escape sequence on stdout");
}
