//! The assembled entries of sessions recorded from codex 0.171 (`tests/fixtures/codex-rich`),
//! checked against what the files say (read by hand), and small hand-made cases of what the
//! recordings do not show.

use super::*;
use crate::rollout::event::Event;
use crate::rollout::record::{Plan, Role, Shape, StepState, ToolOutput, WebAction};
use crate::rollout::transcript::{read_transcript, Transcript, TranscriptOptions};

/// The recorded session whose file name holds `id`.
pub(crate) fn rich(id: &str) -> Transcript {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/codex-rich/sessions/2026/12/03"
    );
    let file = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().contains(id))
        .unwrap_or_else(|| panic!("no fixture {id}"));
    let reader = std::io::BufReader::new(std::fs::File::open(file.path()).unwrap());
    read_transcript(reader, &TranscriptOptions::default()).unwrap()
}

fn calls(t: &Transcript) -> Vec<&ToolCall> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            Entry::Tool(call) if !matches!(call.detail, ToolDetail::Reasoning { .. }) => Some(call),
            _ => None,
        })
        .collect()
}

fn markers(t: &Transcript) -> Vec<&Marker> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            Entry::Marker(m) => Some(m),
            _ => None,
        })
        .collect()
}

#[test]
fn patches_show_the_files_codex_changed_with_its_diffs() {
    let t = rich("c7f8-7460");
    let calls = calls(&t);
    let ToolDetail::Patch { files, .. } = &calls[0].detail else {
        panic!("{:?}", calls[0]);
    };
    assert_eq!(calls[0].status, Status::Ok);
    let seen: Vec<(&PatchOp, &str)> = files.iter().map(|f| (&f.op, f.path.as_str())).collect();
    assert_eq!(
        seen,
        vec![
            (&PatchOp::Update, "main.py"),
            (&PatchOp::Add, "docs/USAGE.md"),
            (&PatchOp::Delete, "old_notes.txt"),
        ]
    );
    assert!(files[0]
        .diff
        .as_deref()
        .unwrap()
        .starts_with("@@ -1 +1,7 @@\n-print(\"hi\")"));
    assert!(files[1].diff.as_deref().unwrap().starts_with("# Usage\n"));
    assert_eq!(files[2].diff.as_deref(), Some("stale notes\n"));
    let ToolDetail::Patch { files, .. } = &calls[1].detail else {
        panic!("{:?}", calls[1]);
    };
    assert_eq!(
        files[0].op,
        PatchOp::Move {
            to: "src/helpers.py".into()
        }
    );
    assert_eq!(files[0].path, "src/util.py");
    assert!(files[0]
        .diff
        .as_deref()
        .unwrap()
        .contains("+    return text.upper() + \"!\""));
    // The command after them, with codex's own record of its time.
    assert!(
        matches!(&calls[2].detail, ToolDetail::Command { command, .. } if command == "python3 main.py && git status --short")
    );
    assert_eq!(
        (calls[2].status.clone(), calls[2].duration_ms),
        (Status::Ok, Some(142))
    );
    assert!(calls[2]
        .output
        .as_ref()
        .unwrap()
        .text
        .starts_with("hello, corpus\n"));
}

#[test]
fn a_patch_that_did_not_apply_failed_with_codexs_reason_and_changed_nothing() {
    let t = rich("f48a-72b1");
    let calls = calls(&t);
    assert_eq!(calls.len(), 1);
    let Status::Failed(reason) = &calls[0].status else {
        panic!("{:?}", calls[0].status);
    };
    assert!(reason.starts_with(
        "apply_patch verification failed: Failed to find expected lines in /home/dev/work/proj/main.py:"
    ));
    let ToolDetail::Patch { files, .. } = &calls[0].detail else {
        panic!();
    };
    assert_eq!(files.len(), 1);
    assert_eq!(
        (&files[0].op, files[0].diff.as_deref()),
        (&PatchOp::Update, None)
    );
}

#[test]
fn each_plan_update_says_what_changed_since_the_last() {
    let t = rich("d489-71a0");
    let plans: Vec<&Plan> = calls(&t)
        .into_iter()
        .filter_map(|c| match &c.detail {
            ToolDetail::Plan(p) => Some(p),
            _ => None,
        })
        .collect();
    assert_eq!(plans.len(), 3);
    assert_eq!(
        plans[0].explanation.as_deref(),
        Some("Adding a test for greet() in three steps.")
    );
    let states = |p: &Plan| p.steps.iter().map(|s| s.state.clone()).collect::<Vec<_>>();
    assert_eq!(
        states(plans[0]),
        [
            StepState::InProgress,
            StepState::Pending,
            StepState::Pending
        ]
    );
    assert!(plans[0].steps.iter().all(|s| s.change == StepChange::Same));
    assert_eq!(plans[1].steps[0].text, "Inspect main.py");
    assert_eq!(
        plans[1]
            .steps
            .iter()
            .map(|s| s.change.clone())
            .collect::<Vec<_>>(),
        [
            StepChange::Was(StepState::InProgress),
            StepChange::Was(StepState::Pending),
            StepChange::Same
        ]
    );
    assert_eq!(states(plans[2]), vec![StepState::Completed; 3]);
}

#[test]
fn parallel_calls_get_their_own_outputs_and_a_background_command_its_end() {
    let t = rich("e12d-71f3");
    let calls = calls(&t);
    let command = |c: &ToolCall| match &c.detail {
        ToolDetail::Command { command, .. } => command.clone(),
        other => format!("{other:?}"),
    };
    let out = |c: &ToolCall| {
        c.output
            .as_ref()
            .map(|o| o.text.clone())
            .unwrap_or_default()
    };
    assert_eq!(command(calls[0]), "git status --short --branch");
    assert_eq!(out(calls[0]), "## master\n");
    assert_eq!(command(calls[1]), "wc -l main.py");
    assert_eq!(out(calls[1]), "1 main.py\n");
    assert_eq!(command(calls[2]), "cat config/settings.toml");
    assert_eq!(calls[2].status, Status::Failed("exit 1".into()));
    // Started in the background, then waited on: the command ends with its output.
    assert_eq!(command(calls[3]), "sleep 2; echo background-check-done");
    assert!(
        matches!(&calls[3].detail, ToolDetail::Command { session: Some(s), .. } if s == "15407")
    );
    assert_eq!(calls[3].status, Status::Ok);
    assert_eq!(calls[3].duration_ms, Some(1861));
    assert_eq!(out(calls[3]), "background-check-done\n");
    let ToolDetail::Poll {
        session, command, ..
    } = &calls[4].detail
    else {
        panic!("{:?}", calls[4]);
    };
    assert_eq!(session, "15407");
    assert_eq!(
        command.as_deref(),
        Some("sleep 2; echo background-check-done")
    );
    assert_eq!(calls.len(), 5, "no output stands on its own");
}

#[test]
fn web_search_mcp_goal_and_image_calls_say_what_they_did() {
    let web = rich("081e-77d3");
    let actions: Vec<&WebAction> = calls(&web)
        .into_iter()
        .filter_map(|c| match &c.detail {
            ToolDetail::WebSearch(a) => Some(a),
            _ => None,
        })
        .collect();
    assert_eq!(
        actions,
        [
            &WebAction::Search {
                query: "codex cli 0.171.0 release notes".into()
            },
            &WebAction::OpenPage {
                url: "https://example.com/codex/releases/0.171.0".into()
            }
        ]
    );
    let mcp = rich("1d38-7852");
    let calls_mcp = calls(&mcp);
    assert_eq!(
        calls_mcp[0].detail,
        ToolDetail::ToolSearch {
            query: "weather forecast".into()
        }
    );
    assert_eq!(
        calls_mcp[0].output.as_ref().unwrap().text,
        "mcp__weather: get_forecast"
    );
    let ToolDetail::Mcp {
        server,
        tool,
        arguments,
    } = &calls_mcp[1].detail
    else {
        panic!("{:?}", calls_mcp[1]);
    };
    assert_eq!(
        (server.as_str(), tool.as_str()),
        ("weather", "get_forecast")
    );
    assert!(arguments.contains("\"city\": \"Lisbon\""));
    assert_eq!(
        (calls_mcp[1].status.clone(), calls_mcp[1].duration_ms),
        (Status::Ok, Some(7))
    );
    assert_eq!(
        calls_mcp[1].output.as_ref().unwrap().text,
        "Forecast for Lisbon: sunny, 21°C, light wind."
    );
    let goal = rich("2808-77f0");
    let goals: Vec<&ToolDetail> = calls(&goal).into_iter().map(|c| &c.detail).collect();
    assert!(
        matches!(goals[0], ToolDetail::Goal { action, objective: Some(o), .. }
        if action == "create_goal" && o == "Keep main.py printing a greeting")
    );
    // The objective codex hands the model as an output of its own stays shown.
    assert!(
        matches!(goals[1], ToolDetail::Output(o) if o.name.as_deref() == Some("goal_objective"))
    );
    assert!(matches!(goals[2], ToolDetail::Goal { status: Some(s), .. } if s == "complete"));
    let image = rich("12b5-7bc0");
    let view = calls(&image)[0];
    assert!(
        matches!(&view.detail, ToolDetail::ViewImage { path } if path.ends_with("/diagram.png"))
    );
    assert_eq!(view.output.as_ref().unwrap().images, 1);
}

#[test]
fn a_prompt_keeps_its_images() {
    let t = rich("3360-7790");
    let Some(Entry::Message { images, text, .. }) = t.entries.iter().find(|e| e.is_prompt()) else {
        panic!();
    };
    assert_eq!(text, "Describe the two attached images.");
    assert_eq!(
        images,
        &[
            "/home/dev/work/proj/diagram.png".to_owned(),
            "/home/dev/work/proj/photo.png".to_owned()
        ]
    );
}

#[test]
fn compactions_are_marked_manual_or_automatic_with_their_summary() {
    let auto = rich("61d7-7c53");
    let Marker::Compaction { trigger, summary } = markers(&auto)[0] else {
        panic!();
    };
    assert_eq!(*trigger, Trigger::Automatic);
    assert!(summary
        .as_deref()
        .unwrap()
        .starts_with("## Summary of the conversation so far"));
    assert_eq!(
        markers(&auto).len(),
        1,
        "one marker for the row and its item"
    );
    assert_eq!(auto.counts(), (2, 2), "the summary is not a message");
    let manual = rich("919e-7ee3");
    assert!(matches!(
        markers(&manual)[..],
        [Marker::Compaction {
            trigger: Trigger::Manual,
            summary: Some(_)
        }]
    ));
    // Ten `AgentMessage` items; the eleventh assistant row is the summary.
    assert_eq!(manual.counts(), (5, 10));
}

#[test]
fn an_interrupted_turn_is_marked_and_so_is_what_it_cut_short() {
    let t = rich("88ee-7851");
    assert!(matches!(
        markers(&t)[..],
        [Marker::Interrupted { reason: Some(r), duration_ms: Some(1663) }] if r == "interrupted"
    ));
    let calls = calls(&t);
    let poll = calls
        .iter()
        .find(|c| matches!(c.detail, ToolDetail::Poll { .. }))
        .unwrap();
    assert_eq!(poll.status, Status::Interrupted);
    // The command it waited on went on in the background and ended later.
    let slow = calls
        .iter()
        .find(|c| matches!(&c.detail, ToolDetail::Command { command, .. } if command.starts_with("sleep 8")))
        .unwrap();
    assert_eq!(
        (slow.status.clone(), slow.duration_ms),
        (Status::Ok, Some(7868))
    );
    let Some(Entry::Message { images, .. }) = t.entries.iter().find(|e| e.is_prompt()) else {
        panic!();
    };
    assert_eq!(images, &["diagram.png".to_owned()]);
}

fn message(role: Role, text: &str) -> Piece {
    Piece::entry(Entry::Message {
        role,
        text: text.into(),
        shape: Shape::Item,
        phase: None,
        elided: 0,
        images: Vec::new(),
    })
}

fn call(id: &str, command: &str) -> Piece {
    Piece::entry(Entry::Tool(ToolCall::new(
        "function_call".into(),
        Some(id.into()),
        ToolDetail::Command {
            command: command.into(),
            workdir: None,
            session: None,
        },
    )))
}

fn output(id: &str, text: &str) -> Piece {
    let mut out = ToolCall::new(
        "function_call_output".into(),
        Some(id.into()),
        ToolDetail::Output(Box::new(ToolOutput {
            text: text.into(),
            ..ToolOutput::default()
        })),
    );
    out.status = Status::Unknown;
    Piece::entry(Entry::Tool(out))
}

#[test]
fn a_call_waits_for_its_output_and_what_follows_waits_behind_it() {
    let mut asm = Assembler::new(true);
    let mut out = Vec::new();
    asm.push(call("a", "make"), &mut |e| out.push(e));
    asm.push(message(Role::Assistant, "while it runs"), &mut |e| {
        out.push(e);
    });
    assert!(out.is_empty(), "the call holds back what follows");
    asm.push(output("a", "built"), &mut |e| out.push(e));
    assert_eq!(out.len(), 2);
    let Entry::Tool(c) = &out[0] else { panic!() };
    assert_eq!(c.output.as_ref().unwrap().text, "built");
}

#[test]
fn a_bounded_assembler_lets_a_call_go_without_its_output_past_the_budget() {
    let mut asm = Assembler::bounded(true, 100);
    let mut out = Vec::new();
    asm.push(call("a", "make"), &mut |e| out.push(e));
    asm.push(message(Role::Assistant, &"x".repeat(500)), &mut |e| {
        out.push(e);
    });
    assert_eq!(out.len(), 2, "past the budget, the call goes as it is");
    asm.push(output("a", "late"), &mut |e| out.push(e));
    asm.finish(&mut |e| out.push(e));
    assert!(matches!(&out[2], Entry::Tool(c) if matches!(c.detail, ToolDetail::Output(_))));
}

#[test]
fn a_compaction_without_turn_records_is_one_marker_that_says_nothing_of_its_trigger() {
    let mut asm = Assembler::new(true);
    let mut out = Vec::new();
    let compacted = |summary: Option<&str>| {
        Piece::event(Event::Compacted {
            turn_id: None,
            summary: summary.map(str::to_owned),
            manual: None,
        })
    };
    asm.push(compacted(Some("sum")), &mut |e| out.push(e));
    asm.push(compacted(None), &mut |e| out.push(e));
    asm.push(message(Role::Assistant, "go on"), &mut |e| out.push(e));
    asm.finish(&mut |e| out.push(e));
    assert_eq!(
        out[0],
        Entry::Marker(Marker::Compaction {
            trigger: Trigger::Unknown,
            summary: Some("sum".into())
        })
    );
    assert_eq!(out.len(), 2);
}
