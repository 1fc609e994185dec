//! The line classifier against lines of every shape, escape and repetition serde_json resolves.

use super::super::json_scan::quote_or_backslash;
use super::*;

#[test]
fn classifies_every_shape() {
    let cases: &[(&str, Kind)] = &[
        (
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#,
            Kind::Meta,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"agent_message","message":"hi"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","item":{"id":"1","type":"UserMessage","content":[]}}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"Reasoning"}}}"#,
            Kind::Other,
        ),
        (
            r#"{"ordinal":3,"type":"response_item","metadata":{"a":[1,{"b":"}"}]},"payload":{"type":"message","role":"user","content":"x"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"response_item","payload":{"type":"message","role":"developer"}}"#,
            Kind::Other,
        ),
        (
            r#"{"type":"response_item","payload":{"type":"function_call_output","output":"\"role\":\"user\""}}"#,
            Kind::Tool,
        ),
        (
            r#"{"type":"response_item","payload":{"type":"compaction","encrypted_content":"x"}}"#,
            Kind::Other,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"thread_name_updated","thread_name":"n"}}"#,
            Kind::ThreadName,
        ),
        (r#"{"type":"world_state","payload":{"cwd":"/x"#, Kind::Other),
        (
            r#"{"type":"turn_context","payload":{"cwd":"/x","model":"m"}}"#,
            Kind::TurnContext,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"token_count","info":null}}"#,
            Kind::Usage,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","changes":{}}}}"#,
            Kind::Patch,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c"}}"#,
            Kind::Patch,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution"}}}"#,
            Kind::ToolEvent,
        ),
        (
            r#" { "payload" : { "role" : "assistant" } , "type" : "response_item" } "#,
            Kind::Message,
        ),
        ("[1,2]", Kind::Malformed),
        ("garbage", Kind::Malformed),
        ("", Kind::Malformed),
        (
            r#"{"type":"event_msg","payload":{"type":"user_mess"#,
            Kind::Malformed,
        ),
    ];
    for (line, want) in cases {
        assert_eq!(kind(line.as_bytes()), *want, "{line}");
    }
}

#[test]
fn escaped_quotes_and_backslash_runs() {
    let line = r#"{"x":"a\\\"b\\","type":"event_msg","payload":{"type":"user_message"}}"#;
    assert_eq!(kind(line.as_bytes()), Kind::Message);
    let cut = r#"{"x":"a\\\"b\"#;
    assert_eq!(kind(cut.as_bytes()), Kind::Malformed);
    let response = r#"{"type":"response_item","payload":{"role":"user"}}"#;
    assert_eq!(
        classify_line(response.as_bytes()),
        (Kind::Message, Some(crate::rollout::record::Role::User))
    );
}

#[test]
fn escapes_and_repeated_keys_resolve_like_serde() {
    let cases: &[(&str, Kind)] = &[
        (
            r#"{"type":"event\u005fmsg","payload":{"type":"user_message","message":"hi"}}"#,
            Kind::Message,
        ),
        (
            r#"{"ty\u0070e":"response_item","payload":{"r\u006fle":"user","content":"x"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"turn_context","type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"token_count"},"payload":{"type":"agent_message","message":"hi"}}"#,
            Kind::Message,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage"},"item":{"id":"1"}}}"#,
            Kind::Other,
        ),
        (
            r#"{"type":"event_msg","payload":{"type":"user_message"},"type":"turn_context"}"#,
            Kind::TurnContext,
        ),
    ];
    for (line, want) in cases {
        assert_eq!(kind(line.as_bytes()), *want, "{line}");
    }
}

#[test]
fn string_ends_are_found_at_every_offset() {
    for word in 0..=255u8 {
        let bytes = [b'a', b'a', word, b'a', b'"', b'a', b'\\', b'a'];
        let want = bytes.iter().position(|b| matches!(b, b'"' | b'\\'));
        assert_eq!(quote_or_backslash(u64::from_le_bytes(bytes)), want);
    }
    for n in 0..40 {
        for m in 0..12 {
            let a = "a".repeat(n);
            let b = "b".repeat(m);
            for mid in [r#"\""#, r#"\\"#, r"\n", r"\u0041", ""] {
                let line = format!(
                    r#"{{"x{a}":"{a}{mid}{b}","type":"event_msg","payload":{{"{a}":"{b}{mid}","type":"user_message"}}}}"#
                );
                assert_eq!(kind(line.as_bytes()), Kind::Message, "{line}");
                let key = format!(r#"{{"{a}{mid}":1,"typ\u0065":"x{b}{mid}"}}"#);
                assert_eq!(kind(key.as_bytes()), Kind::Other, "{key}");
            }
            let cut = format!(r#"{{"x":"{a}\"{b}"#);
            assert_eq!(kind(cut.as_bytes()), Kind::Malformed, "{cut}");
        }
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut line = String::from(r#"{"x":"#);
    line.push_str(&"[".repeat(100_000));
    line.push_str(&"]".repeat(100_000));
    line.push_str(r#","type":"event_msg","payload":{"type":"user_message"}}"#);
    assert_eq!(kind(line.as_bytes()), Kind::Message);
    assert_eq!(kind(&line.as_bytes()[..50_000]), Kind::Malformed);
}

/// What serde_json makes of a line, as `kind` must answer it (`None`: not valid JSON).
fn oracle(line: &str) -> Option<Kind> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let Some(obj) = v.as_object() else {
        return Some(Kind::Malformed);
    };
    let payload = obj.get("payload").and_then(|p| p.as_object());
    let field = |k: &str| payload.and_then(|p| p.get(k)).and_then(|v| v.as_str());
    let item = payload
        .and_then(|p| p.get("item"))
        .and_then(|i| i.get("type"));
    Some(match obj.get("type").and_then(|t| t.as_str()) {
        Some("session_meta") => Kind::Meta,
        Some("event_msg") => match field("type") {
            Some("user_message" | "agent_message") => Kind::Message,
            Some("item_completed") => match item.and_then(|t| t.as_str()) {
                Some("UserMessage" | "AgentMessage") => Kind::Message,
                Some("ContextCompaction") => Kind::Turn,
                Some("FileChange") => Kind::Patch,
                Some("CommandExecution" | "McpToolCall") => Kind::ToolEvent,
                _ => Kind::Other,
            },
            Some("thread_name_updated") => Kind::ThreadName,
            Some(
                "task_started" | "task_complete" | "turn_started" | "turn_complete"
                | "turn_aborted" | "context_compacted",
            ) => Kind::Turn,
            Some("patch_apply_end") => Kind::Patch,
            Some("token_count") => Kind::Usage,
            _ => Kind::Other,
        },
        Some("compacted") => Kind::Turn,
        Some("turn_context") => Kind::TurnContext,
        Some("response_item") => match (field("role"), field("type")) {
            (Some("user" | "assistant"), _) => Kind::Message,
            (_, Some(k)) if is_tool_kind(k.as_bytes()) => Kind::Tool,
            _ => Kind::Other,
        },
        _ => Kind::Other,
    })
}

fn agrees(line: &str) {
    let want = oracle(line).unwrap_or_else(|| panic!("not valid JSON: {line}"));
    assert_eq!(kind(line.as_bytes()), want, "{line}");
}

#[test]
fn strings_ending_around_every_block_edge() {
    // Key and value lengths across the 16-byte blocks and the hand-over to `memchr` (64).
    for n in 0..150 {
        let a = "a".repeat(n);
        for mid in ["", r#"\""#, r"\\", r"\n", r"\u0041", r#"\\\""#] {
            agrees(&format!(
                r#"{{"t{a}":"{a}{mid}","type":"event_msg","payload":{{"m":"{mid}{a}","type":"user_message"}}}}"#
            ));
            agrees(&format!(
                r#"{{"type":"response_item","payload":{{"x":["{a}{mid}",{{"{mid}":"{a}"}}],"role":"user"}},"{a}{mid}":0}}"#
            ));
            // The line ends inside the string: at every byte of it, nothing is settled.
            let cut = format!(r#"{{"x{a}{mid}":"{a}{mid}{a}","type":"session_meta"}}"#);
            for k in 1..cut.len() - 30 {
                assert_eq!(kind(&cut.as_bytes()[..k]), Kind::Malformed, "{}", &cut[..k]);
            }
        }
    }
}

#[test]
fn escapes_straddling_block_edges_in_a_line() {
    for n in 0..80 {
        let a = "a".repeat(n);
        for esc in [r#"\""#, r"\\", r#"\\\""#, r"\\\\", r"\n"] {
            // An escaped quote that must not end the string, at every offset of a block.
            agrees(&format!(
                r#"{{"x":"{a}{esc}\",\"type\":\"event_msg","type":"response_item","payload":{{"type":"x_call"}}}}"#
            ));
            agrees(&format!(
                r#"{{"type":"event_msg","payload":{{"message":"{a}{esc}","type":"agent_message"}}}}"#
            ));
        }
    }
}

#[test]
fn lines_shorter_than_a_block() {
    for line in [
        r#"{}"#,
        r#"{"type":1}"#,
        r#"{"type":"x"}"#,
        r#"{"a":"\""}"#,
        r#"{"a":"\\"}"#,
        r#"{"payload":{}}"#,
        r#" {"type" :""} "#,
    ] {
        assert!(line.len() < 16);
        agrees(line);
        for k in 0..line.len() - 1 {
            let got = kind(&line.as_bytes()[..k]);
            assert!(
                matches!(got, Kind::Malformed | Kind::Other),
                "{}",
                &line[..k]
            );
        }
    }
    assert_eq!(kind(br#"{"type":"x"#), Kind::Malformed);
    assert_eq!(kind(br#"{"type":"x","#), Kind::Other);
}

#[test]
fn keys_read_by_their_bytes_agree_with_keys_read_as_strings() {
    let keys = [
        "type",
        "role",
        "item",
        "payload",
        "typ",
        "types",
        "ty\\u0070e",
        "rol",
        "roles",
        "r\\u006fle",
        "ite",
        "items",
        "it\\u0065m",
        "payloa",
        "payloads",
        "p\\u0061yload",
        "type\\\"",
        "payload\\\\",
        "type ",
        " type",
    ];
    let values = [
        r#""user""#,
        r#""event_msg""#,
        r#""response_item""#,
        r#""user_message""#,
        r#""item_completed""#,
        r#"{"type":"UserMessage"}"#,
        r#"{"role":"user","type":"user_message"}"#,
        r#"{"item":{"type":"AgentMessage"},"type":"item_completed"}"#,
        r#"1"#,
    ];
    for key in keys {
        for value in values {
            for (top, payload) in [
                ("event_msg", "{}"),
                ("response_item", r#"{"type":"f_call"}"#),
            ] {
                let pre = format!(r#""type":"{top}","payload":{payload}"#);
                agrees(&format!(r#"{{{pre},"{key}":{value}}}"#));
                agrees(&format!(r#"{{"{key}":{value},{pre}}}"#));
                agrees(&format!(r#"{{ "{key}" : {value} , {pre} }}"#));
                agrees(&format!(
                    r#"{{"type":"{top}","payload":{{"{key}":{value}}}}}"#
                ));
                // The key as the very last bytes of a line cut short.
                let cut = format!(r#"{{"type":"{top}","payload":{{"{key}""#);
                assert_eq!(kind(cut.as_bytes()), Kind::Malformed, "{cut}");
            }
        }
    }
}

#[test]
fn repeated_keys_late_in_the_line_still_win() {
    for line in [
        r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange"},"it\u0065m":{"type":"UserMessage"}}}"#,
        r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"ContextCompaction","id":"x"}}}"#,
        r#"{"type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}"#,
        r#"{"type":"compacted","payload":{"message":"summary"}}"#,
        r#"{"type":"response_item","payload":{"type":"tool_search_output","tools":[]}}"#,
        r#"{"type":"event_msg","payload":{"type":"user_message"},"ty\u0070e":"turn_context"}"#,
        r#"{"type":"response_item","payload":{"role":"user"},"p\u0061yload":{"role":"developer"}}"#,
        r#"{"type":"response_item","payload":{"role":"user","content":[{"type":"input_text"}],"r\u006fle":"developer"}}"#,
        r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage"},"it\u0065m":{}}}"#,
        r#"{"type":"event_msg","payload":{"type":"token_count","info":{"type":"user_message"},"type":"agent_message"}}"#,
        r#"{"payload":{"type":"user_message"},"type":"event_msg","x":{"type":"session_meta"}}"#,
    ] {
        agrees(line);
    }
}

#[test]
fn a_tool_row_is_known_by_its_head() {
    let output = r#"{"timestamp":"2026-03-19T15:13:57.041Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Process exited"#;
    assert!(head_is_tool_row(output.as_bytes()));
    for head in [
        r#"{"type":"response_item","payload":{"type":"reasoning","summary":["#,
        r#"{ "type" : "response_item" , "payload" : { "type" : "custom_tool_call", "input":"x"#,
    ] {
        assert!(head_is_tool_row(head.as_bytes()), "{head}");
    }
    for head in [
        // A message, an event, a payload whose type comes after other keys, no type yet.
        r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"#,
        r#"{"type":"event_msg","payload":{"type":"exec_command_end","stdout":"x"#,
        r#"{"type":"response_item","payload":{"call_id":"c","type":"function_call_output","#,
        r#"{"payload":{"type":"function_call_output","output":"x"#,
        r#"{"type":"response_item","payload":{"type":"function_call_out"#,
        "not json at all",
        "",
    ] {
        assert!(!head_is_tool_row(head.as_bytes()), "{head}");
    }
}
