use super::*;
use serde_json::json;

fn user(content: Value) -> Value {
    json!({"type":"user","message":{"role":"user","content":content}})
}

#[test]
fn typed_text_is_a_prompt_with_its_images() {
    let row = user(json!("fix the bug"));
    assert_eq!(
        user_row(&row),
        Said::Prompt {
            text: "fix the bug".into(),
            images: vec![]
        }
    );
    let row = user(json!([
        {"type":"text","text":"what is this [Image #1]"},
        {"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},
        {"type":"image","source":{"type":"url","url":"https://x.org/a.png"}}
    ]));
    assert_eq!(
        user_row(&row),
        Said::Prompt {
            text: "what is this [Image #1]".into(),
            images: vec!["".into(), "https://x.org/a.png".into()]
        }
    );
    // A prompt may start with a tag of its own.
    let row = user(json!("<div> why is this red"));
    assert!(matches!(user_row(&row), Said::Prompt { .. }));
}

#[test]
fn harness_rows_are_not_prompts() {
    let mut meta = user(json!("<system-reminder>\nnamed\n</system-reminder>"));
    assert_eq!(user_row(&meta), Said::Nothing);
    meta["isMeta"] = json!(true);
    meta["message"]["content"] = json!("anything");
    assert_eq!(user_row(&meta), Said::Nothing);
    let mut visible = user(json!("shown only"));
    visible["isVisibleInTranscriptOnly"] = json!(true);
    assert_eq!(user_row(&visible), Said::Nothing);
    let caveat = user(json!(
        "<local-command-caveat>Caveat: ...</local-command-caveat>"
    ));
    assert_eq!(user_row(&caveat), Said::Nothing);
    let mut warmup = user(json!("Warmup"));
    warmup["isSidechain"] = json!(true);
    assert_eq!(user_row(&warmup), Said::Nothing);
    let results = user(json!([{"type":"tool_result","tool_use_id":"t","content":"x"}]));
    assert_eq!(user_row(&results), Said::Nothing);
    assert_eq!(user_row(&json!({"type":"user"})), Said::Nothing);
    assert_eq!(user_row(&user(json!(7))), Said::Nothing);
}

#[test]
fn a_compaction_summary_is_its_own_kind() {
    let mut row = user(json!("Summary written by hand"));
    row["isCompactSummary"] = json!(true);
    row["isVisibleInTranscriptOnly"] = json!(true);
    assert_eq!(
        user_row(&row),
        Said::CompactSummary("Summary written by hand".into())
    );
    // As Claude Code 2.1.332 frames it: the words for the model around it are left out.
    row["message"]["content"] = json!("This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<system-reminder>\n<tools-used-before-summary>Bash</tools-used-before-summary>\n</system-reminder>\nDone: the folder holds main.py.\n\nIf you need specific details from before compaction (like exact code snippets), read the full transcript at: /x.jsonl\nContinue the conversation.");
    assert_eq!(
        user_row(&row),
        Said::CompactSummary("Done: the folder holds main.py.".into())
    );
    row["message"]["content"] =
        json!("This session is being continued from a previous conversation");
    assert!(matches!(user_row(&row), Said::CompactSummary(s) if s.starts_with("This session")));
}

#[test]
fn slash_commands_and_their_output() {
    let row = user(json!(
        "<command-name>/compact</command-name>\n  <command-message>compact</command-message>\n  <command-args>keep the tests</command-args>"
    ));
    assert_eq!(
        user_row(&row),
        Said::Slash {
            name: "/compact".into(),
            args: "keep the tests".into()
        }
    );
    let row = user(json!(
        "<command-message>review</command-message>\n<command-name>review</command-name>"
    ));
    assert_eq!(
        user_row(&row),
        Said::Slash {
            name: "/review".into(),
            args: "".into()
        }
    );
    let row = user(json!("<local-command-stdout>done</local-command-stdout>"));
    assert_eq!(user_row(&row), Said::CommandOutput("done".into()));
    let system = json!({"type":"system","subtype":"local_command",
        "content":"<command-name>/rename</command-name>\n<command-args>x</command-args>"});
    assert_eq!(
        local_command(&system),
        Said::Slash {
            name: "/rename".into(),
            args: "x".into()
        }
    );
    assert_eq!(local_command(&json!({"content": 3})), Said::Nothing);
}

#[test]
fn a_task_notification_is_a_report() {
    let row = user(json!(
        "<task-notification>\n<tool-use-id>toolu_1</tool-use-id>\n<result>all good</result>\n</task-notification>"
    ));
    assert_eq!(
        user_row(&row),
        Said::TaskReport {
            call_id: Some("toolu_1".into()),
            text: "all good".into()
        }
    );
}

#[test]
fn an_interruption_is_no_prompt() {
    let row = user(json!([{"type":"text","text":"[Request interrupted by user]"}]));
    assert_eq!(user_row(&row), Said::Interrupted);
    let row = user(json!("[Request interrupted by user for tool use]"));
    assert_eq!(user_row(&row), Said::Interrupted);
}

#[test]
fn a_harness_row_names_where_an_inline_image_was_stored() {
    let mut row = user(json!([{"type":"text","text":"[Image: source: /tmp/x/images/1.png]"}]));
    row["isMeta"] = json!(true);
    assert_eq!(
        user_row(&row),
        Said::ImageSource("/tmp/x/images/1.png".into())
    );
}
