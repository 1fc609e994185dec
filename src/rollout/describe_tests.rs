//! What the views are given to say of the recorded sessions' tool calls and markers.

use super::*;
use crate::rollout::assemble::tests::rich;
use crate::rollout::transcript::{Entry, Transcript};

/// Every tool call and marker of `t` (reasoning left out), described.
fn described(t: &Transcript) -> Vec<Described<'_>> {
    t.entries
        .iter()
        .filter_map(|e| match e {
            Entry::Tool(call) => Some(tool(call)),
            Entry::Marker(m) => Some(marker(m)),
            Entry::Message { .. } => None,
        })
        .filter(|d| d.kind != Kind::Reasoning)
        .collect()
}

fn said(d: &Described) -> String {
    match &d.status {
        Some(s) => format!("{} | {} {}", d.head, s.mark, s.text),
        None => d.head.clone(),
    }
}

#[test]
fn a_failed_patch_says_it_was_not_applied_and_why() {
    let t = rich("f48a-72b1");
    let d = &described(&t)[0];
    assert_eq!(said(d), "apply_patch: 1 file | ✗ not applied");
    assert_eq!(d.status.as_ref().unwrap().tone, Tone::Failed);
    let Block::Reason(reason) = &d.blocks[0] else {
        panic!("codex's reason first: {:?}", d.blocks);
    };
    assert!(reason.starts_with(
        "apply_patch verification failed: Failed to find expected lines in /home/dev/work/proj/main.py:"
    ));
    assert!(reason.ends_with("print(\"this line does not exist\")"));
    assert!(d.blocks.iter().any(|b| matches!(b, Block::Files(f)
        if f[0].mark == 'M' && f[0].path == "main.py" && f[0].diff.is_none())));
}

#[test]
fn a_plan_is_its_steps_with_what_changed() {
    let t = rich("d489-71a0");
    let plans: Vec<Described> = described(&t)
        .into_iter()
        .filter(|d| d.kind == Kind::Plan)
        .collect();
    assert_eq!(said(&plans[0]), "plan: 0 of 3 steps done | ✓ ");
    let Some(Block::Steps(steps)) = plans[1].blocks.last() else {
        panic!("{:?}", plans[1]);
    };
    let lines: Vec<String> = steps
        .iter()
        .map(|s| format!("{} {} {:?}", s.mark, s.text, s.change))
        .collect();
    assert_eq!(
        lines,
        [
            "[x] Inspect main.py Some(\"was in progress\")",
            "[>] Add tests/test_main.py Some(\"was pending\")",
            "[ ] Run the test file None",
        ]
    );
    assert_eq!(plans[2].head, "plan: 3 of 3 steps done");
    assert_eq!(plans[2].blocks[0], Block::Note("All done.".into()));
}

#[test]
fn every_kind_of_call_says_what_it_did() {
    let heads = |id: &str| -> Vec<String> { described(&rich(id)).iter().map(said).collect() };
    assert_eq!(
        heads("081e-77d3"),
        [
            "web search: codex cli 0.171.0 release notes | ✓ ",
            "opened https://example.com/codex/releases/0.171.0 | ✓ ",
        ]
    );
    assert_eq!(
        heads("1d38-7852"),
        [
            "tool search: weather forecast | ✓ ",
            "weather · get_forecast (MCP) | ✓ 7 ms",
        ]
    );
    assert_eq!(
        heads("2808-77f0"),
        [
            "goal set: Keep main.py printing a greeting | ✓ ",
            "output of goal_objective | ✓ ",
            "goal marked complete | ✓ ",
        ]
    );
    let multi = heads("e12d-71f3");
    assert_eq!(multi[2], "$ cat config/settings.toml | ✗ exit 1 · 0 ms");
    assert_eq!(
        multi[3],
        "$ sleep 2; echo background-check-done | ✓ exit 0 · 1.9 s"
    );
    assert_eq!(
        multi[4],
        "waited on $ sleep 2; echo background-check-done | ✓ exit 0 · 1.5 s"
    );
    let image = heads("12b5-7bc0");
    assert_eq!(
        image[0],
        "viewed image /home/dev/work/proj/diagram.png | ✓ "
    );
}

#[test]
fn markers_say_what_happened_to_the_conversation() {
    let heads = |id: &str| -> Vec<String> {
        described(&rich(id))
            .iter()
            .filter(|d| matches!(d.kind, Kind::Compaction | Kind::Interrupted))
            .map(said)
            .collect()
    };
    assert_eq!(heads("919e-7ee3"), ["context compacted (/compact)"]);
    assert_eq!(
        heads("61d7-7c53"),
        ["context compacted automatically (the context was full)"]
    );
    assert_eq!(
        heads("88ee-7851"),
        ["turn interrupted by the user | ⏹ after 1.7 s"]
    );
    assert_eq!(
        images(&["a.png".into(), String::new()]).as_deref(),
        Some("2 images: a.png, (inline)")
    );
}
