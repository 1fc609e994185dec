//! Claude Code transcripts recorded from the real program (trimmed to the rows read, plus a few
//! that are skipped), read through the shared reader, the row summary and the transcript.

use crate::rollout::entry::{Entry, Marker, Trigger};
use crate::rollout::reader::{ReadOptions, Records, Resume};
use crate::rollout::record::{PatchOp, Record, Role, Status, ToolDetail, WebAction};
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::rollout::transcript::{read_transcript, Transcript, TranscriptOptions};
use crate::sources::Source;

const PARENT: &str = "7468aedd-36de-4516-a995-31e1b46b6cf4";

pub(crate) fn fixture(name: &str) -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-lines/");
    std::fs::read(format!("{dir}{name}.jsonl")).unwrap()
}

pub(crate) fn options(until: Until) -> ScanOptions {
    ScanOptions {
        source: Source::Claude,
        ..ScanOptions::new(until)
    }
}

pub(crate) fn scan(bytes: &[u8]) -> ScanState {
    let mut state = ScanState::default();
    state.scan(bytes, &options(Until::End)).unwrap();
    state
}

pub(crate) fn transcript(bytes: &[u8]) -> Transcript {
    let opts = TranscriptOptions {
        source: Source::Claude,
        ..TranscriptOptions::default()
    };
    read_transcript(bytes, &opts).unwrap()
}

pub(crate) fn records(bytes: &[u8], opts: ReadOptions) -> (Vec<Record>, u32) {
    let opts = ReadOptions {
        source: Source::Claude,
        ..opts
    };
    let mut records = Records::new(bytes, opts, Resume::start());
    let mut all = Vec::new();
    while let Some(r) = records.next_record().unwrap() {
        all.push(r);
    }
    (all, records.skipped())
}

pub(crate) fn tools(t: &Transcript) -> Vec<&crate::rollout::record::ToolCall> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            Entry::Tool(call) => Some(call),
            _ => None,
        })
        .collect()
}

#[test]
fn the_edit_session_reads_its_row() {
    let s = scan(&fixture("edit"));
    let meta = s.meta.as_ref().unwrap();
    assert_eq!(meta.id.as_deref(), Some(PARENT));
    assert_eq!(meta.cwd.as_deref(), Some("/root/claude-run/work/proj"));
    assert_eq!(meta.source.as_deref(), Some("sdk-cli"));
    assert_eq!(meta.originator.as_deref(), Some("claude-code"));
    assert_eq!(meta.cli_version.as_deref(), Some("2.1.332"));
    assert_eq!(meta.git_branch.as_deref(), Some("main"));
    assert_eq!(
        s.first_prompt(),
        Some("CC_EDIT: change the print statement in main.py to a greeting")
    );
    // Two prompts; four assistant messages with text (msg_mock_1, 4, 16, 17).
    assert_eq!(s.counts(), (2, 4));
    assert_eq!(s.skipped_lines, 0);
    let files: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(files, ["/root/claude-run/work/proj/main.py"]);
    // Six messages (1, 2, 3, 4, 16, 17), each 1200 + 200 + 800 in and 40 out, counted once.
    let tokens = s.tokens.unwrap();
    assert_eq!(
        (
            tokens.input,
            tokens.cached_input,
            tokens.output,
            tokens.total
        ),
        (6 * 2200, 6 * 800, 6 * 40, 6 * 2240)
    );
    assert_eq!(s.models, ["claude-opus-5-5"]);
    assert!(s.complete);
}

#[test]
fn the_edit_session_reads_as_a_transcript() {
    let t = transcript(&fixture("edit"));
    assert_eq!(t.meta.as_ref().unwrap().id.as_deref(), Some(PARENT));
    assert_eq!(t.skipped_lines, 0);
    let said: Vec<(Role, &str)> = t
        .messages()
        .filter_map(|e| e.spoken().map(|s| (s.role, s.text)))
        .collect();
    assert_eq!(said.len(), 6);
    assert_eq!(said[0].0, Role::User);
    assert_eq!(said[1], (Role::Assistant, "Reading main.py first."));
    assert_eq!(
        said[3],
        (Role::User, "follow-up: explain the edit you made")
    );
    let calls = tools(&t);
    assert_eq!(calls.len(), 4, "{calls:#?}");
    let ToolDetail::Other { name, arguments } = &calls[0].detail else {
        panic!("{:?}", calls[0]);
    };
    assert_eq!(name, "Read");
    assert!(arguments.contains("main.py"));
    assert_eq!(calls[0].status, Status::Ok);
    assert!(calls[0].output.as_ref().unwrap().text.contains("print(1)"));
    let ToolDetail::Patch { files, patch, .. } = &calls[1].detail else {
        panic!("{:?}", calls[1]);
    };
    assert_eq!(calls[1].status, Status::Ok);
    assert_eq!(files[0].op, PatchOp::Update);
    assert_eq!(files[0].path, "/root/claude-run/work/proj/main.py");
    let diff = files[0].diff.as_deref().unwrap();
    assert!(
        diff.contains("-print(1)\n+print(\"hello from the edit\")"),
        "{diff}"
    );
    assert!(patch.contains("*** Update File: /root/claude-run/work/proj/main.py"));
    let ToolDetail::Command { command, .. } = &calls[2].detail else {
        panic!("{:?}", calls[2]);
    };
    assert_eq!(command, "python3 main.py");
    assert_eq!(calls[2].status, Status::Ok);
    assert_eq!(
        calls[2].output.as_ref().unwrap().text,
        "hello from the edit"
    );
    assert_eq!(t.counts(), (2, 4));
}

#[test]
fn a_failed_command_and_a_failed_edit_are_marked_and_change_nothing() {
    let bytes = fixture("fail");
    let t = transcript(&bytes);
    let calls = tools(&t);
    assert_eq!(calls[0].status, Status::Failed("exit 1".into()));
    assert_eq!(calls[0].output.as_ref().unwrap().exit_code, Some(1));
    let Status::Failed(why) = &calls[1].status else {
        panic!("{:?}", calls[1]);
    };
    assert!(
        why.starts_with("String to replace not found in file."),
        "{why}"
    );
    assert!(matches!(calls[1].detail, ToolDetail::Patch { .. }));
    let s = scan(&bytes);
    assert!(s.files.is_empty());
    assert_eq!(s.counts(), (1, 1));
}

#[test]
fn a_written_file_is_added() {
    let bytes = fixture("write");
    let t = transcript(&bytes);
    let calls = tools(&t);
    let ToolDetail::Patch { files, .. } = &calls[0].detail else {
        panic!("{:?}", calls[0]);
    };
    assert_eq!(files[0].op, PatchOp::Add);
    assert_eq!(
        files[0].diff.as_deref(),
        Some("# Notes\n\n- written by the mock\n")
    );
    let s = scan(&bytes);
    let files: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(files, ["/root/claude-run/work/proj/docs/NOTES.md"]);
}

#[test]
fn a_fork_has_its_own_prompt_counts_and_tokens_after_its_parents_part() {
    let bytes = fixture("fork");
    let s = scan(&bytes);
    let meta = s.meta.as_ref().unwrap();
    assert_eq!(
        meta.id.as_deref(),
        Some("10aa75e7-cf78-4fa4-bf12-b20b007d1008")
    );
    assert_eq!(meta.forked_from_id.as_deref(), Some(PARENT));
    assert_eq!(s.first_prompt(), Some("in the fork: try another greeting"));
    assert_eq!(s.counts(), (1, 2));
    assert!(s.files.is_empty(), "the edit was the parent's");
    assert_eq!(s.tokens.unwrap().total, 2 * 2240);

    let t = transcript(&bytes);
    assert_eq!(
        t.meta.as_ref().unwrap().forked_from_id.as_deref(),
        Some(PARENT)
    );
    let at = t
        .entries
        .iter()
        .position(|e| matches!(e, Entry::Marker(Marker::Forked { .. })))
        .unwrap();
    assert_eq!(
        t.entries[at],
        Entry::Marker(Marker::Forked {
            parent_id: PARENT.into(),
            parent_title: None
        })
    );
    assert_eq!(
        t.entries[at + 1].spoken().map(|s| s.text),
        Some("in the fork: try another greeting")
    );
    assert!(t.entries[0].is_prompt(), "the parent's part comes first");
    assert_eq!(t.counts(), (1, 2));
}

#[test]
fn a_fork_previewed_then_read_on_is_its_own() {
    let bytes = fixture("fork");
    let mut s = ScanState::default();
    s.scan(&bytes[..], &options(Until::FirstPrompt)).unwrap();
    assert_eq!(s.first_prompt(), Some("in the fork: try another greeting"));
    let offset = s.offset as usize;
    s.scan(&bytes[offset..], &options(Until::End)).unwrap();
    let whole = scan(&bytes);
    assert_eq!(
        (s.counts(), s.tokens, &s.files),
        (whole.counts(), whole.tokens, &whole.files)
    );
}

#[test]
fn the_interactive_session_names_itself_compacts_and_runs_slash_commands() {
    let bytes = fixture("interactive");
    let s = scan(&bytes);
    assert_eq!(s.thread_name.as_deref(), Some("lister session"));
    assert_eq!(
        s.meta.as_ref().unwrap().cwd.as_deref(),
        Some("/root/claude-run/work/my_proj.v2")
    );
    assert_eq!(
        s.first_prompt(),
        Some("please list the files in this folder and explain main.py")
    );
    // The summary, the caveat, the commands and their output are not prompts.
    assert_eq!(s.counts().0, 2);

    let t = transcript(&bytes);
    let compaction = t.entries.iter().find_map(|e| match e {
        Entry::Marker(Marker::Compaction { trigger, summary }) => Some((trigger, summary)),
        _ => None,
    });
    let (trigger, summary) = compaction.unwrap();
    assert_eq!(*trigger, Trigger::Manual);
    assert_eq!(summary.as_deref(), Some("Done: the folder holds main.py."));
    let slash: Vec<(&str, &str, &str)> = tools(&t)
        .into_iter()
        .filter(|c| c.kind == "slash_command")
        .map(|c| match &c.detail {
            ToolDetail::Other { name, arguments } => (
                name.as_str(),
                arguments.as_str(),
                c.output.as_ref().map_or("", |o| o.text.as_str()),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        slash,
        [
            (
                "/rename",
                "lister session",
                "Session renamed to: lister session"
            ),
            (
                "/compact",
                "",
                "\u{1b}[2mCompacted (ctrl+o to see full summary)\u{1b}[22m"
            ),
        ]
    );
}

#[test]
fn a_subagent_call_and_its_report_are_shown_and_its_notification_is_no_prompt() {
    let bytes = fixture("agent");
    let t = transcript(&bytes);
    let calls = tools(&t);
    let ToolDetail::Other { name, arguments } = &calls[0].detail else {
        panic!("{:?}", calls[0]);
    };
    assert_eq!(name, "subagent: Survey the folder");
    assert!(arguments.starts_with("SUBTASK:"));
    // Launched in the background: its report, brought by a notification, is its output.
    assert_eq!(calls.len(), 1, "{calls:#?}");
    assert_eq!(calls[0].status, Status::Ok);
    assert_eq!(
        calls[0].output.as_ref().map(|o| o.text.as_str()),
        Some("Subagent report: the folder holds main.py, one print statement.")
    );
    assert_eq!(scan(&bytes).counts().0, 1);
}

#[test]
fn thinking_is_reasoning() {
    let t = transcript(&fixture("think"));
    let calls = tools(&t);
    assert_eq!(
        calls[0].detail,
        ToolDetail::Reasoning {
            text: "The user wants a short answer; no tools needed.".into()
        }
    );
}

#[test]
fn a_pass_resumed_anywhere_keeps_the_token_total_and_counts() {
    for name in ["edit", "fork", "interactive", "image", "cleared", "multi"] {
        resumed_at_every_line(&fixture(name));
    }
}

fn resumed_at_every_line(bytes: &[u8]) {
    let whole = scan(bytes);
    // Every line boundary: the second pass goes on from where the first stopped.
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    for cut in ends {
        let mut s = ScanState::default();
        s.scan(&bytes[..cut], &options(Until::End)).unwrap();
        // A fork's rows that no assistant row has said whose they are yet are read again.
        let offset = s.offset as usize;
        assert!(offset <= cut);
        s.scan(&bytes[offset..], &options(Until::End)).unwrap();
        assert_eq!(s.tokens, whole.tokens, "cut at {cut}");
        assert_eq!(s.files, whole.files, "cut at {cut}");
        assert_eq!(s.models, whole.models, "cut at {cut}");
        assert_eq!(s.first_prompt(), whole.first_prompt(), "cut at {cut}");
        assert_eq!(s.counts().0, whole.counts().0, "cut at {cut}");
    }
}

#[test]
fn a_preview_then_the_rest_is_the_whole_pass() {
    for name in [
        "edit",
        "fail",
        "interactive",
        "agent",
        "write",
        "think",
        "image",
        "cleared",
    ] {
        let bytes = fixture(name);
        let mut s = ScanState::default();
        s.scan(&bytes[..], &options(Until::FirstPrompt)).unwrap();
        let offset = s.offset as usize;
        s.scan(&bytes[offset..], &options(Until::End)).unwrap();
        let whole = scan(&bytes);
        assert_eq!(s.counts(), whole.counts(), "{name}");
        assert_eq!((s.tokens, &s.files), (whole.tokens, &whole.files), "{name}");
    }
}

const TEXT_A: &str = r#"{"type":"assistant","sessionId":"s","cwd":"/w","message":{"id":"m1","model":"claude-x","content":[{"type":"text","text":"one"}],"usage":{"input_tokens":10,"output_tokens":5}}}"#;
const TEXT_B: &str = r#"{"type":"assistant","sessionId":"s","cwd":"/w","message":{"id":"m1","model":"claude-x","content":[{"type":"text","text":"two"}],"usage":{"input_tokens":10,"output_tokens":7}}}"#;

#[test]
fn rows_of_one_message_are_one_message_and_their_usage_counts_once() {
    let prompt =
        r#"{"type":"user","sessionId":"s","cwd":"/w","message":{"role":"user","content":"hi"}}"#;
    let file = format!("{prompt}\n{TEXT_A}\n{TEXT_B}\n");
    let t = transcript(file.as_bytes());
    let said: Vec<&str> = t
        .messages()
        .filter_map(Entry::spoken)
        .map(|s| s.text)
        .collect();
    assert_eq!(said, ["hi", "one\ntwo"]);
    let s = scan(file.as_bytes());
    assert_eq!(s.counts(), (1, 1));
    let tokens = s.tokens.unwrap();
    assert_eq!((tokens.input, tokens.output, tokens.total), (10, 7, 17));
}

#[test]
fn unknown_rows_and_sidechains_say_nothing_and_bad_lines_are_unreadable() {
    let file = [
        r#"{"type":"queue-operation","operation":"enqueue","sessionId":"s"}"#,
        r#"{"type":"user","isSidechain":true,"sessionId":"s","cwd":"/w","message":{"role":"user","content":"Warmup"}}"#,
        r#"{"no":"type"}"#,
        "",
        "not json",
        r#"{"type":"user", broken"#,
        r#"{"type":"brand-new-row","x":[1,2,{"y":"}"}]}"#,
    ]
    .join("\n")
        + "\n";
    let (all, skipped) = records(file.as_bytes(), ReadOptions::default());
    assert!(all.is_empty(), "{all:?}");
    assert_eq!(skipped, 2);
}

#[test]
fn titles_rank_the_ai_title_above_a_summary_and_the_name_apart() {
    let file = [
        r#"{"type":"ai-title","aiTitle":"Listing files","sessionId":"s"}"#,
        r#"{"type":"summary","summary":"An older summary","leafUuid":"u"}"#,
        r#"{"type":"custom-title","customTitle":"mine","sessionId":"s"}"#,
        r#"{"type":"agent-name","agentName":"mine","sessionId":"s"}"#,
    ]
    .join("\n");
    let s = scan(file.as_bytes());
    assert_eq!(s.auto_title.as_deref(), Some("Listing files"));
    assert_eq!(s.thread_name.as_deref(), Some("mine"));
}

#[test]
fn web_mcp_todo_and_failed_tools_read_as_codexs() {
    let call = |id: &str, name: &str, input: &str| {
        format!(
            r#"{{"type":"assistant","sessionId":"s","cwd":"/w","message":{{"id":"m{id}","content":[{{"type":"tool_use","id":"t{id}","name":"{name}","input":{input}}}]}}}}"#
        )
    };
    let result = |id: &str, error: bool| {
        format!(
            r#"{{"type":"user","sessionId":"s","cwd":"/w","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{id}","content":"said {id}","is_error":{error}}}]}}}}"#
        )
    };
    let file = [
        call("1", "WebSearch", r#"{"query":"rust"}"#),
        result("1", false),
        call("2", "WebFetch", r#"{"url":"https://x.org"}"#),
        result("2", false),
        call("3", "mcp__srv__do_it", r#"{"a":1}"#),
        result("3", true),
        call("4", "TodoWrite", r#"{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"pending"}]}"#),
        result("4", false),
        call("5", "Grep", r#"{"pattern":"x"}"#),
        result("5", true),
    ]
    .join("\n");
    let t = transcript(file.as_bytes());
    let calls = tools(&t);
    assert_eq!(calls.len(), 5, "{calls:#?}");
    assert_eq!(
        calls[0].detail,
        ToolDetail::WebSearch(WebAction::Search {
            query: "rust".into()
        })
    );
    assert_eq!(
        calls[1].detail,
        ToolDetail::WebSearch(WebAction::OpenPage {
            url: "https://x.org".into()
        })
    );
    assert!(
        matches!(&calls[2].detail, ToolDetail::Mcp { server, tool, .. } if server == "srv" && tool == "do_it")
    );
    assert_eq!(calls[2].status, Status::Failed("said 3".into()));
    let ToolDetail::Plan(plan) = &calls[3].detail else {
        panic!("{:?}", calls[3]);
    };
    assert_eq!(plan.steps.len(), 2);
    assert_eq!(calls[4].status, Status::Failed("said 5".into()));
    assert_eq!(calls[0].status, Status::Ok);
}

#[test]
fn no_cut_of_a_recorded_line_panics() {
    for name in ["edit", "interactive", "fork", "agent"] {
        let bytes = fixture(name);
        for line in bytes.split(|b| *b == b'\n') {
            for cut in (0..line.len()).step_by(7) {
                let mut piece = line[..cut].to_vec();
                piece.push(b'\n');
                let _ = records(
                    &piece,
                    ReadOptions {
                        tools: true,
                        turns: true,
                        usage: true,
                        thread_names: true,
                        ..ReadOptions::default()
                    },
                );
                let _ = transcript(&piece);
            }
        }
    }
}

#[test]
fn an_interrupted_turn_is_marked_and_its_call_cut_short() {
    let file = [
        r#"{"type":"user","sessionId":"s","cwd":"/w","message":{"role":"user","content":"run it"}}"#,
        r#"{"type":"assistant","sessionId":"s","cwd":"/w","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"sleep 100"}}]}}"#,
        r#"{"type":"user","sessionId":"s","cwd":"/w","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"[Request interrupted by user for tool use]"}]}}"#,
        r#"{"type":"user","sessionId":"s","cwd":"/w","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}"#,
    ]
    .join("\n");
    let t = transcript(file.as_bytes());
    assert_eq!(tools(&t)[0].status, Status::Interrupted);
    assert!(matches!(
        t.entries.last(),
        Some(Entry::Marker(Marker::Interrupted { .. }))
    ));
    assert_eq!(scan(file.as_bytes()).counts(), (1, 0));
}

#[test]
fn no_mangled_recorded_line_panics() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let all = ReadOptions {
        tools: true,
        turns: true,
        usage: true,
        thread_names: true,
        max_tool_output_bytes: Some(64),
        ..ReadOptions::default()
    };
    for name in ["edit", "interactive", "fork", "agent", "fail", "write"] {
        let bytes = fixture(name);
        for _ in 0..200 {
            let mut mangled = bytes.clone();
            for _ in 0..1 + next() % 8 {
                let at = (next() % mangled.len() as u64) as usize;
                let byte = [b'"', b'{', b'}', b'[', b']', b'\\', b',', b':', 0xff, b'\n'];
                mangled[at] = byte[(next() % byte.len() as u64) as usize];
            }
            let _ = records(&mangled, all);
            let _ = transcript(&mangled);
            let _ = scan(&mangled);
        }
    }
}

#[test]
fn a_forks_own_prompt_with_an_image_waits_for_its_answer_to_be_counted() {
    let rows = [
        r#"{"type":"user","sessionId":"f","cwd":"/w","message":{"role":"user","content":"parent prompt"}}"#,
        r#"{"type":"assistant","sessionId":"f","cwd":"/w","requestSessionId":"p","message":{"id":"m1","content":[{"type":"text","text":"parent answer"}]}}"#,
        r#"{"type":"user","sessionId":"f","cwd":"/w","message":{"role":"user","content":[{"type":"text","text":"own prompt"},{"type":"image","source":{"type":"base64","data":"AA"}}]}}"#,
        r#"{"type":"assistant","sessionId":"f","cwd":"/w","message":{"id":"m2","content":[{"type":"text","text":"own answer"}]}}"#,
    ];
    let file = rows.join("\n") + "\n";
    let cut = file.len() - rows[3].len() - 1;
    let mut s = ScanState::default();
    s.scan(&file.as_bytes()[..cut], &options(Until::End))
        .unwrap();
    let offset = s.offset as usize;
    assert!(offset < cut, "the own prompt is read again");
    s.scan(&file.as_bytes()[offset..], &options(Until::End))
        .unwrap();
    assert_eq!(s.first_prompt(), Some("own prompt"));
    assert_eq!(s.counts(), (1, 1));
    assert_eq!(
        s.meta.as_ref().unwrap().forked_from_id.as_deref(),
        Some("p")
    );
}
