//! Tests of the streaming summary: preview rule, counts, early stop, resumption.

use super::*;
use crate::rollout::rules::meta_from_line;
use serde_json::json;

fn l(v: serde_json::Value) -> String {
    format!("{v}\n")
}

fn meta() -> String {
    l(
        json!({"type":"session_meta","payload":{"id":"11111111-2222-3333-4444-555555555555","cwd":"/p","source":"exec","git":{"branch":"main"}}}),
    )
}
fn env_ctx() -> String {
    l(
        json!({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n</environment_context>"}]}}),
    )
}
fn resp_user(t: &str) -> String {
    l(
        json!({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":t}]}}),
    )
}
fn resp_assistant(t: &str) -> String {
    l(
        json!({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":t}]}}),
    )
}
fn ev_user(t: &str) -> String {
    l(json!({"type":"event_msg","payload":{"type":"user_message","message":t}}))
}
fn ev_agent(t: &str) -> String {
    l(
        json!({"type":"event_msg","payload":{"type":"agent_message","message":t,"phase":"final_answer"}}),
    )
}

fn scan(text: &str, until: Until) -> ScanState {
    let mut s = ScanState::default();
    s.scan(text.as_bytes(), &ScanOptions::new(until)).unwrap();
    s
}

/// The summary of `lines` read as far as `until`, checked for its first prompt and counts.
fn summary(lines: &[String], until: Until, prompt: &str, counts: (u32, u32)) -> ScanState {
    let s = scan(&lines.concat(), until);
    assert_eq!(s.first_prompt(), Some(prompt));
    assert_eq!(s.counts(), counts);
    s
}

#[test]
fn event_file_counts_events_only() {
    let lines = [
        meta(),
        env_ctx(),
        resp_user("hi"),
        ev_user("hi"),
        ev_agent("yo"),
        resp_assistant("yo"),
    ];
    let s = summary(&lines, Until::End, "hi", (1, 1));
    assert!(s.complete);
    assert_eq!(s.meta.as_ref().unwrap().git_branch.as_deref(), Some("main"));
}

#[test]
fn response_only_file_falls_back_without_injected() {
    let lines = [
        meta(),
        env_ctx(),
        resp_user("# AGENTS.md instructions"),
        resp_user("real"),
        resp_assistant("answer"),
    ];
    summary(&lines, Until::FirstPrompt, "real", (1, 1));
}

#[test]
fn whitespace_prompt_is_passed_over_for_the_preview() {
    let text = [meta(), ev_user("  \n "), ev_user("second"), ev_agent("a")].concat();
    let s = scan(&text, Until::End);
    assert_eq!(s.first_prompt(), Some("second"));
    assert_eq!(s.counts(), (2, 1), "the transcript still counts it");
}

#[test]
fn prompt_behind_megabytes_of_context_is_found() {
    let big = format!(
        "<environment_context>{}</environment_context>",
        "x".repeat(1 << 20)
    );
    let mut text = meta();
    for _ in 0..5 {
        text.push_str(&resp_user(&big));
    }
    text.push_str(&ev_user("deep prompt"));
    let s = scan(&text, Until::FirstPrompt);
    assert_eq!(s.first_prompt(), Some("deep prompt"));
}

#[test]
fn preview_pass_stops_at_the_first_prompt_and_resumes_exactly() {
    let text = [
        meta(),
        ev_user("one"),
        ev_agent("a"),
        ev_user("two"),
        ev_agent("b"),
    ]
    .concat();
    let mut s = scan(&text, Until::FirstPrompt);
    assert!(!s.complete);
    assert!((s.offset as usize) < text.len());
    s.scan(
        &text.as_bytes()[s.offset as usize..],
        &ScanOptions::new(Until::End),
    )
    .unwrap();
    assert_eq!(s, scan(&text, Until::End), "resuming equals one full pass");
}

#[test]
fn grown_file_reads_on_from_offset() {
    let first = [meta(), ev_user("one"), ev_agent("a")].concat();
    let more = [ev_user("two"), ev_agent("b")].concat();
    let mut s = scan(&first, Until::End);
    assert_eq!(s.offset as usize, first.len());
    s.scan(more.as_bytes(), &ScanOptions::new(Until::End))
        .unwrap();
    assert_eq!(s.counts(), (2, 2));
    assert_eq!(s.offset as usize, first.len() + more.len());
}

#[test]
fn truncated_last_line_is_left_for_later() {
    let whole = [meta(), ev_user("one")].concat();
    let partial = &ev_agent("reply")[..20];
    let text = format!("{whole}{partial}");
    let s = scan(&text, Until::End);
    assert_eq!(
        s.offset as usize,
        whole.len(),
        "offset stays before the torn line"
    );
    assert_eq!(s.skipped_lines, 1);
    assert_eq!(s.counts(), (1, 0));
}

#[test]
fn garbage_lines_are_skipped_and_counted() {
    let text = [
        meta(),
        "garbage\n".into(),
        "[1,2]\n".into(),
        "\n".into(),
        ev_user("ok"),
        "{\"type\":\n".into(),
    ]
    .concat();
    let s = scan(&text, Until::End);
    assert_eq!(s.first_prompt(), Some("ok"));
    assert_eq!(s.skipped_lines, 3, "blank lines are not problems");
}

#[test]
fn only_the_first_session_meta_counts() {
    let second = l(json!({"type":"session_meta","payload":{"id":"other","cwd":"/elsewhere"}}));
    let s = scan(&[meta(), second].concat(), Until::End);
    assert_eq!(s.meta.unwrap().cwd.as_deref(), Some("/p"));
}

#[test]
fn thread_name_rows_last_wins() {
    let name = |n: &str| {
        l(json!({"type":"event_msg","payload":{"type":"thread_name_updated","thread_name":n}}))
    };
    let s = scan(
        &[meta(), name("first"), ev_user("x"), name("second")].concat(),
        Until::End,
    );
    assert_eq!(s.thread_name.as_deref(), Some("second"));
}

#[test]
fn ordinal_bound_limits_a_fork_parent() {
    let o = |n: u64, t: &str| {
        l(json!({"ordinal":n,"type":"event_msg","payload":{"type":"user_message","message":t}}))
    };
    let text = [o(0, " "), o(1, "before"), o(5, "after")].concat();
    let mut opts = ScanOptions::new(Until::End);
    opts.ordinal_below = Some(2);
    let mut s = ScanState::default();
    s.scan(text.as_bytes(), &opts).unwrap();
    assert_eq!(s.counts(), (2, 0));
    assert_eq!(s.first_prompt(), Some("before"));
}

#[test]
fn invalid_utf8_in_a_message_is_replaced_not_fatal() {
    let mut bytes = meta().into_bytes();
    bytes.extend_from_slice(b"{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"caf\xC3 ok\"}}\n");
    let mut s = ScanState::default();
    s.scan(&bytes[..], &ScanOptions::new(Until::End)).unwrap();
    assert_eq!(s.first_prompt(), Some("caf\u{FFFD} ok"));
}

#[test]
fn source_objects_get_a_label() {
    let line = json!({"type":"session_meta","payload":{"source":{"subagent":"review"}}});
    assert_eq!(meta_from_line(&line).source.as_deref(), Some("subagent"));
}

#[test]
fn each_role_takes_its_own_source() {
    // Prompts as events, replies only as `response` rows: the replies still count.
    let lines = [
        meta(),
        env_ctx(),
        resp_user("first"),
        ev_user("first"),
        resp_assistant("one"),
        resp_user("second"),
        ev_user("second"),
        resp_assistant("two"),
    ];
    summary(&lines, Until::End, "first", (2, 2));
    // And the other way round: replies as events, prompts only as `response` rows.
    let lines = [meta(), env_ctx(), resp_user("ask"), ev_agent("answer")];
    summary(&lines, Until::End, "ask", (1, 1));
}

#[test]
fn a_role_switches_to_events_at_its_first_event() {
    // A reply met as a `response` row before the first reply event is the twin of an event
    // that follows: the role's count is that of its events alone.
    let text = [
        meta(),
        ev_user("q"),
        resp_assistant("a"),
        ev_agent("a"),
        resp_assistant("b"),
        ev_agent("b"),
    ]
    .concat();
    let s = scan(&text, Until::End);
    assert_eq!(s.counts(), (1, 2));
    let t = crate::rollout::transcript::read_transcript(
        text.as_bytes(),
        &crate::rollout::transcript::TranscriptOptions::default(),
    )
    .unwrap();
    assert_eq!(t.counts(), (1, 2));
    assert!(t.entries.iter().all(|e| !matches!(
        e,
        crate::rollout::transcript::Entry::Message {
            shape: Shape::Response,
            ..
        }
    )));
}
