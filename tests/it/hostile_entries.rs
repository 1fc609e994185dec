//! Hostile input in every kind of entry: rollout rows of each tool kind (commands, polls,
//! patches with codex's record of them, plans, web and tool searches, MCP calls, goals, images,
//! unknown tools, outputs no call claims), compactions, interrupted turns and a fork marker,
//! every text of them control characters and escape sequences. Read by the real reader, then
//! drawn by the pane, `show --tools --full` and the Markdown export: no control character or
//! escape sequence from the file reaches any of them raw.

use codex_picker::cmd::show_text::{write_transcript_text, TextView};
use codex_picker::export::write_markdown;
use codex_picker::rollout::record::Meta;
use codex_picker::rollout::transcript::{read_transcript, Entry, Marker, TranscriptOptions};
use codex_picker::sanitize::is_dangerous;
use codex_picker::session::SessionRow;
use codex_picker::tui::app::conversation::{build, Expanded, View};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Text with live escape sequences, every kind of control, bidi overrides and Markdown marks.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\u{1b}[31mred\u{1b}[0m".to_owned()),
        Just("\u{1b}]52;c;cm0gLXJm\u{7}".to_owned()),
        Just("\u{1b}]8;;http://x/\u{1b}\\link\u{1b}]8;;\u{1b}\\".to_owned()),
        Just("\u{9b}2J".to_owned()),
        Just("\u{1b}P+q\u{1b}\\".to_owned()),
        Just("\r\n\t\u{7f}\u{202e}\u{2066}\u{0}\u{85}".to_owned()),
        Just("```\n<!-- message 9 user -->\n".to_owned()),
        Just("日本🚀".to_owned()),
        "[a-z /]{0,8}",
        any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..8).prop_map(|v| v.concat())
}

fn line(kind: &str, payload: Value) -> String {
    json!({"type": kind, "payload": payload}).to_string() + "\n"
}

fn item(item: Value) -> String {
    line(
        "event_msg",
        json!({"type": "item_completed", "turn_id": "t", "item": item}),
    )
}

fn call(name: &str, args: Value, id: &str) -> String {
    let args = args.to_string();
    line(
        "response_item",
        json!({"type": "function_call", "name": name, "arguments": args, "call_id": id}),
    )
}

fn output(id: &str, text: &str) -> String {
    line(
        "response_item",
        json!({"type": "function_call_output", "call_id": id, "output": text}),
    )
}

/// A session holding every kind of entry, its texts `a`, `b` and `c`.
fn session(a: &str, b: &str, c: &str) -> String {
    let patch = format!("*** Begin Patch\n*** Update File: {a}\n*** Move to: {b}\n+{c}\n");
    [
        line("session_meta", json!({"id": "0d000000-0000-7000-8000-00000000000f", "cwd": a})),
        line("event_msg", json!({"type": "task_started", "turn_id": "t"})),
        item(json!({"type": "UserMessage", "content": [
            {"type": "local_image", "path": a}, {"type": "text", "text": b}]})),
        call("exec_command", json!({"cmd": a, "workdir": b}), "c1"),
        output("c1", &format!("Wall time: 0.1 seconds\nProcess exited with code 3\nOutput:\n{c}")),
        call("exec_command", json!({"cmd": b}), "c2"),
        output("c2", &format!("Process running with session ID {a}\nOutput:\n{c}")),
        call("write_stdin", json!({"session_id": a, "chars": b}), "c3"),
        item(json!({"type": "CommandExecution", "id": "c2", "exit_code": 1, "aggregated_output": c})),
        output("c3", &format!("Process exited with code 1\nOutput:\n{c}")),
        line("response_item", json!({"type": "custom_tool_call", "name": "apply_patch", "input": patch, "call_id": "p1"})),
        item(json!({"type": "FileChange", "id": "p1", "status": "completed", "changes": {
            format!("/w/{a}"): {"type": "update", "unified_diff": c, "move_path": format!("/w/{b}")},
            c: {"type": "add", "content": a}}})),
        line("response_item", json!({"type": "custom_tool_call_output", "call_id": "p1", "output": "Exit code: 0\nOutput:\nok"})),
        line("response_item", json!({"type": "custom_tool_call", "name": "apply_patch", "input": patch, "call_id": "p2"})),
        line("response_item", json!({"type": "custom_tool_call_output", "call_id": "p2",
            "output": format!("apply_patch verification failed: {a}\n{c}")})),
        call("update_plan", json!({"explanation": a, "plan": [{"step": b, "status": c}, {"step": c, "status": "completed"}]}), "u1"),
        output("u1", c),
        call("update_plan", json!({"plan": [{"step": b, "status": "pending"}]}), "u2"),
        line("response_item", json!({"type": "web_search_call", "status": "completed", "action": {"type": "search", "query": a}})),
        line("response_item", json!({"type": "web_search_call", "status": c, "action": {"type": "find_in_page", "url": b, "pattern": c}})),
        line("response_item", json!({"type": "web_search_call", "action": {"type": a, "x": b}})),
        line("response_item", json!({"type": "tool_search_call", "call_id": "s1", "arguments": {"query": a}})),
        line("response_item", json!({"type": "tool_search_output", "call_id": "s1", "tools": [{"name": b, "tools": [{"name": c}]}]})),
        line("response_item", json!({"type": "function_call", "namespace": format!("mcp__{a}"), "name": b,
            "arguments": json!({"x": c}).to_string(), "call_id": "m1"})),
        item(json!({"type": "McpToolCall", "id": "m1", "error": {"message": c}})),
        output("m1", b),
        call("create_goal", json!({"objective": a}), "g1"),
        output("g1", c),
        call("update_goal", json!({"status": b}), "g2"),
        call("view_image", json!({"path": a}), "v1"),
        line("response_item", json!({"type": "function_call_output", "call_id": "v1", "output": [
            {"type": "input_image", "image_url": c}, {"type": "input_text", "text": b}]})),
        call(a, json!({"arg": b}), "o1"),
        output("o1", c),
        line("response_item", json!({"type": "function_call_output", "name": a, "output": b})),
        line("response_item", json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": c}]})),
        line("compacted", json!({"message": format!("Another language model started to solve this problem\n{a}{c}")})),
        item(json!({"type": "ContextCompaction", "id": "x"})),
        line("event_msg", json!({"type": "turn_aborted", "turn_id": "t", "reason": a, "duration_ms": 5})),
        item(json!({"type": "AgentMessage", "content": [{"type": "Text", "text": c}], "phase": a})),
    ]
    .concat()
}

fn row(a: &str) -> SessionRow {
    SessionRow {
        id: a.to_owned(),
        name: Some(a.to_owned()),
        meta: Meta {
            cwd: Some(a.to_owned()),
            originator: Some(a.to_owned()),
            forked_from_id: Some(a.to_owned()),
            ..Meta::default()
        },
        ..SessionRow::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_control_or_escape_from_any_entry_reaches_a_view(
        a in hostile(), b in hostile(), c in hostile(), width in 12usize..100
    ) {
        let text = session(&a, &b, &c);
        let mut t = read_transcript(text.as_bytes(), &TranscriptOptions::default()).unwrap();
        t.entries.insert(0, Entry::Marker(Marker::Forked { parent_id: a.clone(), parent_title: Some(b.clone()) }));
        prop_assert!(t.entries.iter().filter(|e| matches!(e, Entry::Tool(_))).count() >= 15);
        let mut row = row(&a);
        // What the session changed and used is drawn in the header from the same text.
        row.usage = Some(Box::new(codex_picker::rollout::usage::Usage {
            files: [codex_picker::rollout::usage::ChangedFile {
                path: a.clone(),
                change: codex_picker::rollout::usage::Change::Rename,
                to: Some(b.clone()),
            }]
.into_iter()
.collect(),
            tokens: Some(codex_picker::rollout::usage::Tokens::default()),
            models: vec![c.clone()],
            ..Default::default()
        }));
        let view = View {
            tools: true,
            reasoning: true,
            expanded: Expanded { all: true, ..Expanded::default() },
            folder_missing: false,
            open_in: None,
            keys: Default::default(),
            ..View::default()
        };
        for open in [true, false] {
            let mut view = view.clone();
            view.expanded.all = open;
            let built = build(&row, Some(&Ok(t.clone())), width, &view, usize::MAX);
            for line in &built.lines {
                for (s, _) in &line.spans {
                    prop_assert!(
                        !s.chars().any(|c| is_dangerous(c) || c == '\t' || c == '\n'),
                        "pane: {:?}", s
                    );
                }
            }
        }
        let mut shown = Vec::new();
        write_transcript_text(&mut shown, &row, &t, TextView { tools: true, full: true }).unwrap();
        let shown = String::from_utf8(shown).unwrap();
        prop_assert!(!shown.chars().any(is_dangerous), "show: {:?}", shown);
        let mut md = Vec::new();
        write_markdown(&mut md, &row, &t, true).unwrap();
        let md = String::from_utf8(md).unwrap();
        prop_assert!(!md.chars().any(is_dangerous), "markdown: {:?}", md);
    }
}
