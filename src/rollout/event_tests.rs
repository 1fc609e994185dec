use super::*;
use serde_json::json;

/// The event of a line written as JSON.
fn event_of(line: &Value, cap: Option<usize>) -> Option<Event> {
    read(line.to_string().as_bytes(), cap).unwrap().1
}

#[test]
fn a_compacted_row_gives_the_summary_without_codexs_preamble() {
    let line = json!({"type":"compacted","payload":{"message":
        "Another language model started to solve this problem and produced a summary. Here is the summary:\n## Summary\n- done",
        "replacement_history":[]}});
    assert_eq!(
        event_of(&line, None),
        Some(Event::Compacted {
            turn_id: None,
            summary: Some("## Summary\n- done".into()),
            manual: None,
        })
    );
}

#[test]
fn a_file_change_item_lists_each_file_with_its_diff() {
    let line = json!({"type":"event_msg","payload":{"type":"item_completed","started_at_ms":10,"completed_at_ms":14,
        "item":{"type":"FileChange","id":"c1","status":"completed","changes":{
            "/w/a.py":{"type":"update","unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":"/w/b.py"},
            "/w/gone.txt":{"type":"delete","content":"old\n"}}}}});
    let Some(Event::PatchApplied {
        call_id,
        changes,
        failure,
        duration_ms,
    }) = event_of(&line, None)
    else {
        panic!("not a patch event");
    };
    assert_eq!(
        (call_id.as_str(), failure, duration_ms),
        ("c1", None, Some(4))
    );
    assert_eq!(changes.len(), 2);
    let moved = changes.iter().find(|c| c.path == "/w/a.py").unwrap();
    assert_eq!(moved.move_path.as_deref(), Some("/w/b.py"));
    assert_eq!(moved.diff.as_deref(), Some("@@ -1 +1 @@\n-a\n+b\n"));
    let gone = changes.iter().find(|c| c.kind == "delete").unwrap();
    assert_eq!(gone.diff.as_deref(), Some("old\n"));
}

#[test]
fn the_row_pass_read_keeps_each_files_path_and_kind_and_skips_the_diffs() {
    let line = json!({"type":"event_msg","ordinal":14,"payload":{"type":"item_completed",
        "item":{"type":"FileChange","id":"c1","status":"completed","changes":{
            "/w/a.py":{"type":"update","unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":"/w/b.py"},
            "/w/new.txt":{"type":"add","content":"new\n","move_path":null},
            "/w/old.rs":{"update":{"unified_diff":"@@ x","move_path":"/w/older.rs"}}},
            "stdout":"Success","stderr":""}}});
    let (ordinal, event) = read(line.to_string().as_bytes(), Some(0)).unwrap();
    let Some(Event::PatchApplied {
        call_id,
        changes,
        failure,
        duration_ms,
    }) = event
    else {
        panic!("not a patch event: {event:?}");
    };
    assert_eq!(
        (ordinal, call_id.as_str(), failure, duration_ms),
        (Some(14), "c1", None, None)
    );
    let got: Vec<(&str, &str, Option<&str>, Option<&str>)> = changes
        .iter()
        .map(|c| {
            let to = c.move_path.as_deref();
            (c.path.as_str(), c.kind.as_str(), to, c.diff.as_deref())
        })
        .collect();
    assert_eq!(
        got,
        [
            ("/w/a.py", "update", Some("/w/b.py"), None),
            ("/w/new.txt", "add", None, None),
            ("/w/old.rs", "update", Some("/w/older.rs"), None),
        ]
    );
    let kept = event_of(&line, None);
    let Some(Event::PatchApplied { changes, .. }) = kept else {
        panic!("not a patch event: {kept:?}");
    };
    assert_eq!(changes[0].diff.as_deref(), Some("@@ -1 +1 @@\n-a\n+b\n"));
    assert_eq!(changes[2].diff.as_deref(), Some("@@ x"));
}

#[test]
fn a_line_that_is_not_json_is_unreadable_and_odd_json_is_no_event() {
    let cut =
        br#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","#;
    assert_eq!(read(cut, Some(0)), Err(Unreadable));
    let twice = br#"{"type":"event_msg","type":"event_msg","payload":{"type":"task_started"}}"#;
    assert_eq!(read(twice, None), Ok((None, None)));
    let bad_utf8 =
        b"{\"type\":\"event_msg\",\"payload\":{\"type\":\"turn_aborted\",\"reason\":\"x\xff\"}}";
    let (_, event) = read(bad_utf8, None).unwrap();
    assert_eq!(
        event,
        Some(Event::TurnAborted {
            turn_id: None,
            reason: Some("x\u{fffd}".into()),
            duration_ms: None
        })
    );
}

#[test]
fn a_failed_mcp_result_says_what_the_tool_said() {
    let line = json!({"type":"event_msg","payload":{"type":"item_completed","item":{
        "type":"McpToolCall","id":"m1","status":"completed","duration":{"secs":1,"nanos":500000000},
        "result":{"content":[{"type":"text","text":"no such city"}],"isError":true}}}});
    assert_eq!(
        event_of(&line, None),
        Some(Event::McpEnded {
            call_id: "m1".into(),
            failure: Some("no such city".into()),
            duration_ms: Some(1500)
        })
    );
}

#[test]
fn odd_rows_are_not_events_and_never_panic() {
    for line in [
        json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange"}}}),
        json!({"type":"event_msg","payload":{"type":"item_completed","item":5}}),
        json!({"type":"event_msg","payload":{"type":"token_count"}}),
        json!({"type":"compacted","payload":"x"}),
        json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c","duration":{"secs":"x"}}}}),
        json!([1, 2]),
    ] {
        let event = event_of(&line, Some(4));
        assert!(
            !matches!(event, Some(Event::PatchApplied { .. })),
            "{line}: {event:?}"
        );
    }
}
