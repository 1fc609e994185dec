//! More recorded Claude Code sessions (an image, Grep and Glob in a folder named with an accent
//! and a space, a web search and a failed fetch, tools the program refused, `/clear`), read
//! through the shared reader, the row summary and the transcript.

use super::chain::off_chain;
use super::lines::tests::{fixture, records, scan, tools, transcript};
use crate::rollout::entry::Entry;
use crate::rollout::reader::ReadOptions;
use crate::rollout::record::{Record, Role};
use crate::rollout::record::{Status, StepState, ToolDetail, WebAction};

#[test]
fn an_image_sent_inline_is_named_by_where_claude_code_stored_it() {
    let t = transcript(&fixture("image"));
    let prompt = t.messages().next().and_then(Entry::spoken).unwrap();
    assert_eq!(prompt.text, "CC_IMAGE: what is in this picture?");
    let stored = "/tmp/claude-0/-tmp-claude-read-run-work-my-proj-v2/31e32268-951b-46a5-bb82-dac015df637c/images/1.png";
    assert_eq!(prompt.images, [stored]);
    assert_eq!(t.counts(), (1, 1));
}

#[test]
fn grep_and_glob_are_readable_in_a_folder_of_any_name() {
    let bytes = fixture("search");
    let s = scan(&bytes);
    let cwd = s.meta.as_ref().and_then(|m| m.cwd.as_deref());
    assert_eq!(cwd, Some("/root/claude-run/work/café.app v2"));
    let t = transcript(&bytes);
    let calls = tools(&t);
    let named: Vec<(&str, Status)> = calls
        .iter()
        .map(|c| match &c.detail {
            ToolDetail::Other { name, arguments } => {
                assert!(arguments.contains("\"pattern\""), "{arguments}");
                (name.as_str(), c.status.clone())
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(named, [("Grep", Status::Ok), ("Glob", Status::Ok)]);
    assert_eq!(calls[0].output.as_ref().unwrap().text, "main.py:1:print(1)");
}

#[test]
fn a_search_and_a_failed_fetch_and_a_failed_read() {
    let t = transcript(&fixture("web"));
    let calls = tools(&t);
    assert_eq!(
        calls[0].detail,
        ToolDetail::WebSearch(WebAction::Search {
            query: "python print function".into()
        })
    );
    assert_eq!(calls[0].status, Status::Ok);
    assert!(
        matches!(&calls[1].detail, ToolDetail::WebSearch(WebAction::OpenPage { url }) if url.ends_with("/page.html"))
    );
    assert!(
        matches!(&calls[1].status, Status::Failed(why) if why.contains("WRONG_VERSION_NUMBER"))
    );
    let t = transcript(&fixture("missing"));
    let calls = tools(&t);
    assert!(
        matches!(&calls[0].status, Status::Failed(why) if why.starts_with("File does not exist."))
    );
}

#[test]
fn a_refused_tool_fails_and_changes_nothing_and_a_continued_session_goes_on() {
    let bytes = fixture("multi");
    let t = transcript(&bytes);
    let calls = tools(&t);
    assert!(matches!(calls[0].detail, ToolDetail::Patch { .. }));
    assert_eq!(
        calls[0].status,
        Status::Failed("Error: No such tool available: MultiEdit".into())
    );
    let s = scan(&bytes);
    assert!(s.files.is_empty());
    assert_eq!(s.counts(), (2, 3));
    let todo = transcript(&fixture("todo"));
    let calls = tools(&todo);
    let ToolDetail::Plan(plan) = &calls[0].detail else {
        panic!("{:?}", calls[0]);
    };
    let states: Vec<&StepState> = plan.steps.iter().map(|s| &s.state).collect();
    assert_eq!(
        states,
        [
            &StepState::Completed,
            &StepState::InProgress,
            &StepState::Pending
        ]
    );
    assert!(
        matches!(&calls[0].status, Status::Failed(why) if why.contains("TodoWrite is disabled"))
    );
}

#[test]
fn a_session_after_clear_starts_with_the_command_not_a_prompt() {
    let bytes = fixture("cleared");
    let s = scan(&bytes);
    assert_eq!(s.first_prompt(), Some("a prompt after clear"));
    assert_eq!(s.counts(), (1, 2));
    assert!(s.meta.is_some());
    let t = transcript(&bytes);
    let first = tools(&t)[0];
    assert_eq!(first.kind, "slash_command");
    assert!(matches!(&first.detail, ToolDetail::Other { name, .. } if name == "/clear"));
}

#[test]
fn a_rewound_transcript_leaves_its_abandoned_branch_out_when_told() {
    let bytes = fixture("rewind");
    let prompts = |all: &[Record]| -> Vec<String> {
        all.iter()
            .filter_map(|r| match r {
                Record::Message(m) if m.role == Role::User => Some(m.text.clone()),
                _ => None,
            })
            .collect()
    };
    // Read as written, the abandoned prompt is there.
    let (all, _) = records(&bytes, ReadOptions::default());
    assert_eq!(prompts(&all).len(), 3);
    let off = off_chain(&bytes[..]).unwrap();
    assert!(!off.is_empty());
    let opts = ReadOptions {
        source: crate::sources::Source::Claude,
        ..ReadOptions::default()
    };
    let mut reader = crate::rollout::reader::Records::new(
        &bytes[..],
        opts,
        crate::rollout::reader::Resume::start(),
    );
    reader.leave_out(off);
    let mut kept = Vec::new();
    while let Some(r) = reader.next_record().unwrap() {
        kept.push(r);
    }
    assert_eq!(
        prompts(&kept),
        [
            "first question: what is in main.py",
            "second question again, after the rewind"
        ]
    );
}
