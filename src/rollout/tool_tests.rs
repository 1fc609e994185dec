//! Tool rows as a user would check them: the command a call ran, the files a patch touched, the
//! exit code and text an output reports, the reasoning text; outputs paired with their calls in
//! a transcript; the cap on long texts; and rows of every wrong shape read without a panic.

use super::*;
use crate::rollout::describe;
use crate::rollout::record::ToolOutput;
use crate::rollout::transcript::{self, read_transcript, Entry, TranscriptOptions};
use serde_json::json;

fn row(payload: Value) -> ToolCall {
    read(&payload, None)
}

fn command_of(call: &ToolCall) -> (&str, Option<&str>) {
    match &call.detail {
        ToolDetail::Command {
            command, workdir, ..
        } => (command, workdir.as_deref()),
        other => panic!("not a command: {other:?}"),
    }
}

fn output_of(call: &ToolCall) -> &ToolOutput {
    match &call.detail {
        ToolDetail::Output(out) => out,
        other => panic!("not an output: {other:?}"),
    }
}

#[test]
fn exec_command_shows_its_cmd_and_workdir() {
    let call = row(json!({"type":"function_call","name":"exec_command",
        "arguments":"{\"cmd\":\"rg -n TODO src\",\"workdir\":\"/home/dev/proj\"}","call_id":"call_7"}));
    assert_eq!(
        command_of(&call),
        ("rg -n TODO src", Some("/home/dev/proj"))
    );
    assert_eq!(call.call_id.as_deref(), Some("call_7"));
    assert_eq!(call.kind, "function_call");
    assert_eq!(describe::tool(&call).head, "$ rg -n TODO src");
    assert_eq!(call.output, None);
}

#[test]
fn shell_words_are_the_script_of_bash_lc_or_quoted_words() {
    let call = row(json!({"type":"function_call","name":"shell",
        "arguments":"{\"command\":[\"bash\",\"-lc\",\"rg -n x | head\"],\"workdir\":\"/w\"}"}));
    assert_eq!(command_of(&call), ("rg -n x | head", Some("/w")));
    let call = row(json!({"type":"function_call","name":"container.exec",
        "arguments":"{\"command\":[\"/bin/sh\",\"-c\",\"make test\"]}"}));
    assert_eq!(command_of(&call), ("make test", None));
    let call = row(json!({"type":"function_call","name":"shell",
        "arguments":"{\"command\":[\"ls\",\"-la\",\"my dir\",\"it's\",\"\",\"a=b\"]}"}));
    assert_eq!(command_of(&call).0, r#"ls -la 'my dir' 'it'\''s' '' a=b"#);
}

#[test]
fn command_line_quotes_only_what_a_shell_would_split_or_expand() {
    assert_eq!(
        command_line(&["bash", "-lc", "cd x && ls"]).unwrap(),
        "cd x && ls"
    );
    assert_eq!(
        command_line(&["zsh", "-c", "echo $HOME"]).unwrap(),
        "echo $HOME"
    );
    // Not a `SHELL -c SCRIPT` triple: the words themselves.
    assert_eq!(
        command_line(&["bash", "-x", "run.sh"]).unwrap(),
        "bash -x run.sh"
    );
    assert_eq!(
        command_line(&["python", "-c", "print(1)"]).unwrap(),
        "python -c 'print(1)'"
    );
    assert_eq!(
        command_line(&["echo", "$HOME", "a*"]).unwrap(),
        "echo '$HOME' 'a*'"
    );
    assert_eq!(command_line(&[]), None);
}

#[test]
fn local_shell_call_runs_its_action_command() {
    let call = row(
        json!({"type":"local_shell_call","call_id":"c3","status":"completed",
        "action":{"type":"exec","command":["cargo","test","--lib"],"timeout_ms":null,
        "working_directory":"/repo","env":null,"user":null}}),
    );
    assert_eq!(command_of(&call), ("cargo test --lib", Some("/repo")));
    assert_eq!(call.call_id.as_deref(), Some("c3"));
}

const PATCH: &str = "*** Begin Patch\n\
*** Add File: docs/new.md\n\
+hello\n\
*** Update File: src/lib.rs\n\
@@\n\
-old\n\
+new\n\
*** Delete File: src/gone.rs\n\
*** Update File: src/a.rs\n\
*** Move to: src/b.rs\n\
@@\n\
-x\n\
+y\n\
*** End Patch\n";

fn patch_of(call: &ToolCall) -> (&[PatchFile], &str, u64) {
    match &call.detail {
        ToolDetail::Patch {
            files,
            patch,
            elided,
        } => (files, patch, *elided),
        other => panic!("not a patch: {other:?}"),
    }
}

fn file(op: PatchOp, path: &str) -> PatchFile {
    PatchFile {
        op,
        path: path.into(),
        diff: None,
    }
}

#[test]
fn apply_patch_lists_added_updated_deleted_and_moved_files() {
    let call = row(
        json!({"type":"custom_tool_call","status":"completed","call_id":"call_2",
        "name":"apply_patch","input":PATCH}),
    );
    let (files, patch, elided) = patch_of(&call);
    assert_eq!(
        files,
        [
            file(PatchOp::Add, "docs/new.md"),
            file(PatchOp::Update, "src/lib.rs"),
            file(PatchOp::Delete, "src/gone.rs"),
            file(
                PatchOp::Move {
                    to: "src/b.rs".into()
                },
                "src/a.rs"
            ),
        ]
    );
    assert_eq!((patch, elided), (PATCH, 0));
    assert_eq!(describe::tool(&call).head, "apply_patch: 4 files");
}

#[test]
fn apply_patch_as_a_function_call_or_shell_words_is_a_patch_too() {
    let args = json!({ "input": PATCH }).to_string();
    let call = row(json!({"type":"function_call","name":"apply_patch","arguments":args}));
    assert_eq!(patch_of(&call).0.len(), 4);
    let args = json!({ "command": ["apply_patch", PATCH] }).to_string();
    let call = row(json!({"type":"function_call","name":"shell","arguments":args}));
    assert_eq!(patch_of(&call).0[0], file(PatchOp::Add, "docs/new.md"));
}

#[test]
fn a_move_line_renames_only_the_update_right_before_it() {
    let text = "*** Add File: a\n*** Move to: b\n*** Update File: c\n+x\n*** Move to: d\n";
    let call = row(json!({"type":"custom_tool_call","name":"apply_patch","input":text}));
    assert_eq!(
        patch_of(&call).0,
        [file(PatchOp::Add, "a"), file(PatchOp::Update, "c")]
    );
}

#[test]
fn unified_exec_output_gives_exit_code_wall_time_and_the_printed_text() {
    let out = row(json!({"type":"function_call_output","call_id":"call_7",
        "output":"Chunk ID: cdad48\nWall time: 0.0521 seconds\nProcess exited with code 2\nOriginal token count: 17\nOutput:\nerror: no such file\nsecond line\n"}));
    let o = output_of(&out);
    assert_eq!(o.exit_code, Some(2));
    assert_eq!(o.duration_ms, Some(52));
    assert_eq!(o.text, "error: no such file\nsecond line\n");
    assert_eq!(o.elided, 0);
    assert_eq!(out.call_id.as_deref(), Some("call_7"));
    assert_eq!(out.kind, "function_call_output");
}

#[test]
fn a_still_running_exec_has_no_exit_code_and_older_headers_are_read() {
    let out = row(json!({"type":"function_call_output","call_id":"c",
        "output":"Chunk ID: 1\r\nWall time: 10.0000 seconds\r\nProcess running with session ID 4\r\nOutput:\r\nbuilding"}));
    let o = output_of(&out);
    assert_eq!((o.exit_code, o.duration_ms), (None, Some(10_000)));
    assert_eq!(o.session.as_deref(), Some("4"));
    assert_eq!(o.text, "building");
    let out = row(json!({"type":"function_call_output","call_id":"c",
        "output":"Exit code: 127\nWall time: 0.2 seconds\nTotal output lines: 1\nOutput:\nsh: nope: not found"}));
    let o = output_of(&out);
    assert_eq!((o.exit_code, o.duration_ms), (Some(127), Some(200)));
    assert_eq!(o.text, "sh: nope: not found");
}

#[test]
fn text_that_only_looks_like_exec_output_is_kept_as_is() {
    for text in [
        "Output:\nx",
        "hello\nWall time: 1 seconds\nOutput:\nx",
        "Chunk ID: 1\nWall time: 1 seconds",
    ] {
        let o = row(json!({"type":"function_call_output","output":text}));
        let o = output_of(&o);
        assert_eq!((o.duration_ms, o.text.as_str()), (None, text), "{text:?}");
    }
    // A header codex writes with a time it cannot be read from: no duration, and no output.
    let o = row(json!({"type":"function_call_output","output":"Wall time: soon\nOutput:"}));
    assert_eq!(
        (output_of(&o).duration_ms, output_of(&o).text.as_str()),
        (None, "")
    );
}

#[test]
fn legacy_json_output_gives_its_metadata_and_output() {
    let text =
        r#"{"output":"total 8\nmain.rs\n","metadata":{"exit_code":1,"duration_seconds":1.5}}"#;
    let out = row(json!({"type":"function_call_output","call_id":"c1","output":text}));
    let o = output_of(&out);
    assert_eq!((o.exit_code, o.duration_ms), (Some(1), Some(1500)));
    assert_eq!(o.text, "total 8\nmain.rs\n");
    // JSON of another shape (an MCP result) is output text as printed.
    let text = r#"{"content":[{"type":"text","text":"ok"}],"isError":false}"#;
    let out = row(json!({"type":"function_call_output","output":text}));
    assert_eq!(output_of(&out).text, text);
}

#[test]
fn array_output_joins_its_texts_and_patch_results_stay_text() {
    let out = row(
        json!({"type":"function_call_output","call_id":"c","output":[
        {"type":"input_text","text":"first"},
        {"type":"input_image","image_url":"data:"},
        {"type":"input_text","text":"second"}]}),
    );
    assert_eq!(output_of(&out).text, "first\nsecond");
    let text = "Success. Updated the following files:\nM src/lib.rs\nA docs/new.md\n";
    let out = row(json!({"type":"custom_tool_call_output","call_id":"call_2","output":text}));
    assert_eq!(output_of(&out).text, text);
    assert_eq!(output_of(&out).exit_code, None);
}

#[test]
fn reasoning_is_its_summary_texts_joined_by_blank_lines() {
    let call = row(json!({"type":"reasoning","summary":[
        {"type":"summary_text","text":"**Plan**\n\nRead the parser."},
        {"type":"summary_text","text":"**Fix**"}],"encrypted_content":"gAAAA"}));
    assert_eq!(
        call.detail,
        ToolDetail::Reasoning {
            text: "**Plan**\n\nRead the parser.\n\n**Fix**".into()
        }
    );
    assert_eq!(call.call_id, None);
    let call = row(json!({"type":"reasoning","summary":[],"encrypted_content":"gAAAA"}));
    assert_eq!(call.detail, ToolDetail::Reasoning { text: "".into() });
}

#[test]
fn other_tools_show_their_name_and_pretty_arguments() {
    let call = row(json!({"type":"function_call","name":"browser_click",
        "arguments":"{\"selector\":\"#go\"}","call_id":"c"}));
    assert_eq!(
        call.detail,
        ToolDetail::Other {
            name: "browser_click".into(),
            arguments: "{\n  \"selector\": \"#go\"\n}".into()
        }
    );
    // A web search action codex does not write today is shown as written.
    let call = row(json!({"type":"web_search_call","status":"completed",
        "action":{"type":"screenshot","page":3}}));
    let ToolDetail::WebSearch(WebAction::Other(what)) = &call.detail else {
        panic!("{call:?}");
    };
    assert!(what.contains("\"type\": \"screenshot\""), "{what}");
    assert_eq!(call.status, crate::rollout::record::Status::Ok);
    // A generated image's data is not kept.
    let call = row(json!({"type":"image_generation_call","id":"ig","result":"aGVsbG8="}));
    assert_eq!(
        call.detail,
        ToolDetail::Other {
            name: "image_generation_call".into(),
            arguments: String::new()
        }
    );
}

#[test]
fn malformed_arguments_are_shown_as_written() {
    let call =
        row(json!({"type":"function_call","name":"exec_command","arguments":"{\"cmd\": \"ls"}));
    assert_eq!(
        call.detail,
        ToolDetail::Other {
            name: "exec_command".into(),
            arguments: "{\"cmd\": \"ls".into()
        }
    );
    // Valid JSON without the fields a shell call needs.
    let call =
        row(json!({"type":"function_call","name":"shell","arguments":"{\"command\":[1,2]}"}));
    assert!(matches!(&call.detail, ToolDetail::Other { name, .. } if name == "shell"));
    let call = row(json!({"type":"function_call","name":"exec_command","arguments":"{\"cmd\":7}"}));
    assert!(matches!(&call.detail, ToolDetail::Other { .. }));
}

#[test]
fn rows_of_wrong_types_never_panic() {
    let shapes = [
        json!({"type":"function_call"}),
        json!({"type":"function_call","name":7,"arguments":[1],"call_id":5}),
        json!({"type":"function_call","name":"exec_command","arguments":{"cmd":"ls"}}),
        json!({"type":"function_call","name":"shell","arguments":"null"}),
        json!({"type":"custom_tool_call","name":"apply_patch","input":{"x":1}}),
        json!({"type":"custom_tool_call","name":"apply_patch","input":"*** Move to: x\n*** Add File:"}),
        json!({"type":"local_shell_call","action":"ls"}),
        json!({"type":"local_shell_call","action":{"command":[]}}),
        json!({"type":"function_call_output","output":null,"call_id":""}),
        json!({"type":"function_call_output","output":{"nested":[1,2]}}),
        json!({"type":"function_call_output","output":"{\"output\":5,\"metadata\":{}}"}),
        json!({"type":"function_call_output","output":"{\"output\":\"x\",\"metadata\":{\"exit_code\":1e300,\"duration_seconds\":-1}}"}),
        json!({"type":"function_call_output","output":"Wall time: NaN seconds\nOutput:\n"}),
        json!({"type":"function_call_output","output":"Wall time: 1e400 seconds\nExit code: 99999999999\nOutput:\n"}),
        json!({"type":"reasoning","summary":"plain"}),
        json!({"type":"reasoning","summary":[5,{"text":3},{"text":"ok"}]}),
        json!({"type":7}),
        json!("not an object"),
        Value::Null,
    ];
    for payload in shapes {
        for cap in [None, Some(0), Some(1), Some(3)] {
            let call = read(&payload, cap);
            assert!(!call.kind.is_empty(), "{payload}");
        }
    }
    let call = row(json!({"type":"function_call","name":"exec_command","arguments":{"cmd":"ls"}}));
    assert_eq!(command_of(&call).0, "ls", "arguments given as an object");
    assert_eq!(
        row(json!({"type":"reasoning","summary":[5,{"text":3},{"text":"ok"}]})).detail,
        ToolDetail::Reasoning { text: "ok".into() }
    );
    let out = row(json!({"type":"function_call_output","call_id":""}));
    assert_eq!(out.call_id, None, "an empty call_id claims nothing");
}

/// An output far past the pane's cap, made of three-byte characters so a byte cap lands
/// inside one.
fn giant_output(bytes: usize) -> String {
    "€".repeat(bytes / 3 + 1)
}

#[test]
fn the_cap_cuts_output_and_patch_on_a_char_boundary_and_counts_the_rest() {
    let cap = 64 * 1024;
    let printed = giant_output(cap + 5000);
    let exec = format!(
        "Chunk ID: 1\nWall time: 1.0 seconds\nProcess exited with code 0\nOutput:\n{printed}"
    );
    let out = read(
        &json!({"type":"function_call_output","call_id":"c","output":exec}),
        Some(cap),
    );
    let o = output_of(&out);
    assert_eq!(o.exit_code, Some(0));
    assert!(o.text.len() <= cap && o.text.len() > cap - 3);
    assert!(printed.starts_with(&o.text));
    assert_eq!(o.text.len() as u64 + o.elided, printed.len() as u64);

    let plain = giant_output(cap * 2);
    let out = read(
        &json!({"type":"function_call_output","output":plain}),
        Some(cap),
    );
    let o = output_of(&out);
    assert_eq!(o.text.len() as u64 + o.elided, plain.len() as u64);
    assert!(o.text.len() <= cap && o.elided > 0);

    let patch = format!(
        "*** Begin Patch\n*** Add File: big.txt\n+{}\n*** Delete File: old.txt\n*** End Patch\n",
        giant_output(cap)
    );
    let call = read(
        &json!({"type":"custom_tool_call","name":"apply_patch","input":patch}),
        Some(cap),
    );
    let (files, text, elided) = patch_of(&call);
    assert_eq!(files.len(), 2, "files are read from the whole patch");
    assert!(text.len() <= cap && patch.starts_with(text));
    assert_eq!(text.len() as u64 + elided, patch.len() as u64);

    let args = json!({ "cmd": giant_output(cap) }).to_string();
    let call = read(
        &json!({"type":"function_call","name":"exec_command","arguments":args}),
        Some(cap),
    );
    let command = command_of(&call).0;
    assert!(command.len() <= cap + '…'.len_utf8() && command.ends_with('…'));
}

fn line(payload: Value) -> String {
    format!("{}\n", json!({"type":"response_item","payload":payload}))
}

fn paired_read(text: &str, pair: bool) -> Vec<Entry> {
    let opts = TranscriptOptions {
        pair_outputs: pair,
        ..TranscriptOptions::default()
    };
    read_transcript(text.as_bytes(), &opts).unwrap().entries
}

fn session_with_calls() -> String {
    [
        r#"{"type":"session_meta","payload":{"id":"a","cwd":"/w"}}"#.to_owned() + "\n",
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"list files"}}"#
            .to_owned()
            + "\n",
        line(json!({"type":"function_call","name":"exec_command",
            "arguments":"{\"cmd\":\"ls\"}","call_id":"call_1"})),
        line(json!({"type":"function_call","name":"exec_command",
            "arguments":"{\"cmd\":\"pwd\"}","call_id":"call_2"})),
        line(json!({"type":"function_call_output","call_id":"call_2",
            "output":"Wall time: 0.01 seconds\nProcess exited with code 0\nOutput:\n/w\n"})),
        line(json!({"type":"function_call_output","call_id":"call_1",
            "output":"Process exited with code 1\nOutput:\nls: denied\n"})),
        line(json!({"type":"function_call_output","call_id":"call_9","output":"stray"})),
        line(json!({"type":"function_call_output","call_id":"call_1","output":"again"})),
        r#"{"type":"event_msg","payload":{"type":"agent_message","message":"Done."}}"#.to_owned()
            + "\n",
    ]
    .concat()
}

fn tool(entry: &Entry) -> &ToolCall {
    match entry {
        Entry::Tool(call) => call,
        Entry::Message { text, .. } => panic!("a message: {text}"),
        Entry::Marker(m) => panic!("a marker: {m:?}"),
    }
}

#[test]
fn outputs_pair_with_their_calls_by_call_id_and_orphans_stay_entries() {
    let entries = paired_read(&session_with_calls(), true);
    assert_eq!(entries.len(), 6, "{entries:#?}");
    assert!(entries[0].is_message() && entries[5].is_message());
    let ls = tool(&entries[1]);
    assert_eq!(command_of(ls).0, "ls");
    let out = ls.output.as_ref().expect("ls has its output");
    assert_eq!(
        (out.exit_code, out.text.as_str()),
        (Some(1), "ls: denied\n")
    );
    let pwd = tool(&entries[2]);
    assert_eq!(command_of(pwd).0, "pwd");
    let out = pwd.output.as_ref().expect("pwd has its output");
    assert_eq!((out.exit_code, out.duration_ms), (Some(0), Some(10)));
    // No call claims call_9, and call_1 has taken its output already.
    assert_eq!(tool(&entries[3]).call_id.as_deref(), Some("call_9"));
    assert_eq!(output_of(tool(&entries[3])).text, "stray");
    assert_eq!(output_of(tool(&entries[4])).text, "again");
}

#[test]
fn without_pairing_every_output_is_an_entry_in_file_order() {
    let entries = paired_read(&session_with_calls(), false);
    assert_eq!(entries.len(), 8);
    let kinds: Vec<&str> = entries[1..7]
        .iter()
        .map(|e| tool(e).kind.as_str())
        .collect();
    assert_eq!(kinds[..2], ["function_call", "function_call"]);
    assert!(kinds[2..].iter().all(|k| *k == "function_call_output"));
    assert!(entries[1..7].iter().all(|e| tool(e).output.is_none()));
}

#[test]
fn pieces_of_two_reads_assembled_together_pair_across_the_join() {
    let call = line(json!({"type":"function_call","name":"exec_command",
        "arguments":"{\"cmd\":\"make\"}","call_id":"k"}));
    let out = line(json!({"type":"function_call_output","call_id":"k","output":"built"}));
    let pieces = |text: &str| {
        let opts = TranscriptOptions::default();
        transcript::read_pieces(text.as_bytes(), &opts, transcript::Parse::Every)
            .unwrap()
            .1
    };
    assert_eq!(
        paired_read(&call, true).len() + paired_read(&out, true).len(),
        2
    );
    let entries = transcript::assemble(pieces(&call).into_iter().chain(pieces(&out)), true);
    assert_eq!(entries.len(), 1);
    let paired = tool(&entries[0]).output.as_ref().unwrap();
    assert_eq!(paired.text, "built");
}

#[test]
fn without_tools_a_tool_row_is_not_parsed_at_all() {
    // The row is classified as a tool row from its start, then is not JSON: parsing it would
    // count it unreadable.
    let text = format!(
        "{}{}\n",
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"hi"}}"#.to_owned()
            + "\n",
        r#"{"type":"response_item","payload":{"type":"function_call_output","output":"x"},"#
    );
    let read = |tools| {
        let opts = TranscriptOptions {
            tools,
            ..TranscriptOptions::default()
        };
        read_transcript(text.as_bytes(), &opts).unwrap()
    };
    assert_eq!(read(false).skipped_lines, 0);
    assert_eq!(read(false).entries.len(), 1);
    assert_eq!(
        read(true).skipped_lines,
        1,
        "the same row, read, is unreadable"
    );
}

#[test]
fn a_capped_transcript_keeps_a_bounded_total_of_tool_text() {
    use crate::rollout::transcript::{TOOL_TEXT_BUDGET, TOOL_TEXT_PAST_BUDGET};
    let cap = 64 << 10;
    let output = "o".repeat(cap);
    let calls = TOOL_TEXT_BUDGET / cap + 40;
    let text: String = (0..calls)
        .map(|i| {
            line(json!({"type":"function_call_output","call_id":format!("c{i}"),"output":output}))
        })
        .collect();
    let opts = TranscriptOptions {
        max_tool_output_bytes: Some(cap),
        ..TranscriptOptions::default()
    };
    let entries = read_transcript(text.as_bytes(), &opts).unwrap().entries;
    assert_eq!(entries.len(), calls, "every output is still there");
    let (mut kept, mut elided) = (0usize, 0u64);
    for e in &entries {
        if let Entry::Tool(ToolCall {
            detail: ToolDetail::Output(o),
            ..
        }) = e
        {
            kept += o.text.len();
            elided += o.elided;
        }
    }
    assert!(
        kept <= TOOL_TEXT_BUDGET + cap + calls * TOOL_TEXT_PAST_BUDGET,
        "{kept}"
    );
    assert_eq!(
        kept as u64 + elided,
        (calls * cap) as u64,
        "what is cut is counted"
    );
    let last = match entries.last() {
        Some(Entry::Tool(ToolCall {
            detail: ToolDetail::Output(o),
            ..
        })) => o.text.len(),
        _ => 0,
    };
    assert_eq!(
        last, TOOL_TEXT_PAST_BUDGET,
        "past the budget, the start of each output"
    );
}

#[test]
fn a_goal_tools_answer_is_said_in_words_and_anything_else_is_left_as_written() {
    use crate::rollout::tool_output::goal_said;
    let answer = json!({"goal": {"objective": "Ship it", "status": "active", "tokensUsed": 1200,
        "timeUsedSeconds": 0}, "remainingTokens": null});
    assert_eq!(
        goal_said(&answer.to_string()).as_deref(),
        Some("Ship it · active · 1200 tokens used")
    );
    for other in [
        "not json",
        "{\"goal\": \"Ship it\"}",
        "{\"goal\": {\"status\": \"active\"}}",
        "[1, 2]",
    ] {
        assert_eq!(goal_said(other), None, "{other}");
    }
}
