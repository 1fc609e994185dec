//! Table-driven tests of the classifier: every rule of reading-rules sections 2 and 3.

use super::*;
use crate::rollout::record::is_injected_context;
use serde_json::json;

fn msg(line: Value) -> Option<Message> {
    message_from_line(&line)
}

#[test]
fn event_shape_user_and_agent() {
    let m = msg(json!({"type":"event_msg","payload":{"type":"user_message","message":"fix it"}}))
        .unwrap();
    assert_eq!(
        (m.role, m.shape, m.text.as_str(), m.phase),
        (Role::User, Shape::Event, "fix it", None)
    );
    assert!(!m.injection_prone);
    let m = msg(json!({"type":"event_msg","payload":{"type":"agent_message","message":"Done.","phase":"final_answer"}})).unwrap();
    assert_eq!((m.role, m.shape), (Role::Assistant, Shape::Event));
    assert_eq!(m.phase.as_deref(), Some("final_answer"));
}

#[test]
fn item_shape_user_and_agent() {
    let m = msg(json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"hello","text_elements":[]}]}}})).unwrap();
    assert_eq!(
        (m.role, m.shape, m.text.as_str()),
        (Role::User, Shape::Item, "hello")
    );
    let m = msg(json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"ok"}],"phase":"commentary"}}})).unwrap();
    assert_eq!((m.role, m.shape), (Role::Assistant, Shape::Item));
    assert_eq!(m.phase.as_deref(), Some("commentary"));
}

#[test]
fn response_shape_and_injection_proneness() {
    let m = msg(json!({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}})).unwrap();
    assert_eq!((m.role, m.shape), (Role::User, Shape::Response));
    assert!(m.injection_prone, "response user rows may be injected");
    let m = msg(json!({"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"yo"}],"phase":"partial_answer"}})).unwrap();
    assert!(!m.injection_prone);
    assert_eq!(
        m.phase.as_deref(),
        Some("partial_answer"),
        "future phases are kept"
    );
}

#[test]
fn lines_that_carry_no_message() {
    let none = [
        json!({"type":"response_item","payload":{"type":"message","role":"developer","content":"<permissions instructions>"}}),
        json!({"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}"}}),
        json!({"type":"event_msg","payload":{"type":"token_count","info":null}}),
        json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"Reasoning","content":[{"text":"x"}]}}}),
        json!({"type":"event_msg","payload":{"type":"user_message","message":""}}),
        json!({"type":"event_msg","payload":{"type":"user_message"}}),
        json!({"type":"event_msg","payload":{"type":"user_message","message":42}}),
        json!({"type":"event_msg","payload":"user_message"}),
        json!({"type":"event_msg"}),
        json!({"type":"turn_context","payload":{"cwd":"/x"}}),
        json!({"type":"world_state","payload":{"role":"user","content":"x"}}),
        json!({"type":"future_type","payload":{"role":"user","content":"x"}}),
        json!({"payload":{"type":"user_message","message":"no type"}}),
        json!([1, 2]),
        json!("user_message"),
        json!(null),
        json!({"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:"}]}}),
    ];
    for line in none {
        assert_eq!(message_from_line(&line), None, "{line}");
    }
}

#[test]
fn extra_keys_are_ignored() {
    let m = msg(json!({"timestamp":"t","ordinal":7,"metadata":{"history_sequence":6},"type":"response_item","payload":{"role":"assistant","content":"x"}})).unwrap();
    assert_eq!(m.text, "x");
}

#[test]
fn content_flattening() {
    assert_eq!(content_text(&json!("as is \n ")), "as is \n ");
    assert_eq!(
        content_text(
            &json!([{"text":"a"},{"text":""},{"type":"input_image"},{"text":5},{"text":"b"},"loose",null])
        ),
        "a\nb"
    );
    assert_eq!(content_text(&json!({"text":"obj"})), "");
    assert_eq!(content_text(&json!(12)), "");
    assert_eq!(content_text(&json!([])), "");
}

#[test]
fn phase_kept_only_when_non_empty_string() {
    for (phase, want) in [
        (json!(""), None),
        (json!(3), None),
        (json!(null), None),
        (json!("x"), Some("x")),
    ] {
        let m = msg(json!({"type":"event_msg","payload":{"type":"agent_message","message":"m","phase":phase}})).unwrap();
        assert_eq!(m.phase.as_deref(), want);
    }
}

#[test]
fn injected_context_is_a_prefix_rule() {
    for text in [
        "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>",
        "<environment_context>\n<cwd>/x</cwd>",
        "  \n\t<user_instructions>",
        "<some_future_wrapper attr=\"1\">",
        "#no space heading",
    ] {
        assert!(is_injected_context(text), "{text:?}");
    }
    for text in ["Fix the bug", " fix # later", "", "  ", "> quote"] {
        assert!(!is_injected_context(text), "{text:?}");
    }
}

#[test]
fn injected_applies_to_response_user_rows_only() {
    let hash = "# Fix the login bug\nThe session cookie is dropped.";
    let angle = "<div class=\"x\"> why is this element not centered?";
    for text in [hash, angle] {
        let event =
            msg(json!({"type":"event_msg","payload":{"type":"user_message","message":text}}))
                .unwrap();
        assert!(
            !event.is_injected() && event.is_real_prompt(),
            "event rows are typed"
        );
        let item = msg(json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":text}]}}})).unwrap();
        assert!(item.is_real_prompt(), "item rows are typed");
        let response = msg(json!({"type":"response_item","payload":{"role":"user","content":[{"type":"input_text","text":text}]}})).unwrap();
        assert!(
            response.is_injected(),
            "response rows with the prefix are context"
        );
        let assistant =
            msg(json!({"type":"response_item","payload":{"role":"assistant","content":text}}))
                .unwrap();
        assert!(!assistant.is_injected(), "assistant rows are never context");
    }
}

#[test]
fn two_part_agents_md_message_is_injected() {
    // One user row with AGENTS.md in content[0] and the environment in content[1].
    let m = msg(json!({"type":"response_item","payload":{"type":"message","role":"user","content":[
        {"type":"input_text","text":"# AGENTS.md instructions for /p\n\n<INSTRUCTIONS>\n- rules\n</INSTRUCTIONS>"},
        {"type":"input_text","text":"<environment_context>\n</environment_context>"}]}})).unwrap();
    assert!(m.is_injected());
    assert!(!m.is_real_prompt());
}

#[test]
fn whitespace_only_is_a_message_but_not_a_prompt() {
    let m = msg(json!({"type":"event_msg","payload":{"type":"user_message","message":" \n\t "}}))
        .unwrap();
    assert_eq!(m.text, " \n\t ", "text is never trimmed");
    assert!(!m.is_real_prompt());
}

#[test]
fn ide_wrapper_and_preview_line() {
    let wrapped = "# Context from my IDE setup:\n\n## Active file: a.ts\n\n## My request for Codex:\n  Add a toggle\n";
    assert_eq!(strip_ide_wrapper(wrapped), "Add a toggle");
    assert_eq!(preview_line(wrapped), "Add a toggle");
    assert_eq!(
        preview_line("  First line\n\n- bullet\tone  "),
        "First line - bullet one"
    );
    assert_eq!(strip_ide_wrapper("plain"), "plain");
}
