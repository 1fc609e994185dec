use super::*;
use serde_json::json;

#[test]
fn a_multi_edit_is_one_patch_of_its_file() {
    let block = json!({"type":"tool_use","id":"t1","name":"MultiEdit","input":{
        "file_path":"/w/a.rs","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c\nd","new_string":""}]}});
    assert_eq!(open_call(&block).path.as_deref(), Some("/w/a.rs"));
    let call = call(&block, Cap(None));
    let ToolDetail::Patch { files, patch, .. } = call.detail else {
        panic!("{call:?}");
    };
    assert_eq!(files.len(), 1);
    assert_eq!(
        patch,
        "*** Begin Patch\n*** Update File: /w/a.rs\n@@\n-a\n+b\n@@\n-c\n-d\n*** End Patch"
    );
}

#[test]
fn an_applied_edit_says_its_diff_and_a_failed_one_why() {
    let open = OpenCall {
        id: "t1".into(),
        name: "Edit".into(),
        path: Some("/w/a.rs".into()),
    };
    let block = json!({"type":"tool_result","tool_use_id":"t1","content":"updated"});
    let outcome = json!({"filePath":"/w/a.rs","structuredPatch":[
        {"oldStart":3,"oldLines":1,"newStart":3,"newLines":1,"lines":["-x","+y"]}]});
    let r = result(&block, Some(&open), Some(&outcome), Cap(None));
    let Some(Event::PatchApplied {
        changes, failure, ..
    }) = r.event
    else {
        panic!("{:?}", r.event);
    };
    assert_eq!(failure, None);
    assert_eq!(changes[0].kind, "update");
    assert_eq!(
        changes[0].diff.as_deref(),
        Some("@@ -3,1 +3,1 @@\n-x\n+y\n")
    );
    let block = json!({"type":"tool_result","tool_use_id":"t1","is_error":true,
        "content":"<tool_use_error>File has not been read yet.</tool_use_error>"});
    let r = result(&block, Some(&open), None, Cap(None));
    let Some(Event::PatchApplied {
        changes, failure, ..
    }) = r.event
    else {
        panic!("{:?}", r.event);
    };
    assert!(changes.is_empty());
    assert_eq!(failure.as_deref(), Some("File has not been read yet."));
}

#[test]
fn a_failed_command_says_its_exit_code() {
    let open = OpenCall {
        id: "t".into(),
        name: "Bash".into(),
        path: None,
    };
    let block = json!({"type":"tool_result","tool_use_id":"t","is_error":true,"content":"Exit code 2\nno such file"});
    let r = result(&block, Some(&open), None, Cap(None));
    assert!(r.event.is_none());
    let ToolDetail::Output(out) = r.output.detail else {
        panic!()
    };
    assert_eq!(out.exit_code, Some(2));
    let block = json!({"type":"tool_result","tool_use_id":"t","is_error":true,"content":"killed"});
    let r = result(&block, Some(&open), None, Cap(None));
    let ToolDetail::Output(out) = r.output.detail else {
        panic!()
    };
    assert_eq!(out.exit_code, Some(1));
}

#[test]
fn odd_inputs_give_plain_details() {
    for input in [json!(null), json!([1]), json!("x"), json!({"command": 5})] {
        let block = json!({"type":"tool_use","id":"t","name":"Bash","input":input});
        let call = call(&block, Cap(Some(10)));
        assert!(matches!(call.detail, ToolDetail::Other { .. }), "{call:?}");
    }
    assert_eq!(call(&json!({}), Cap(None)).call_id, None);
    assert_eq!(open_call(&json!({"input": 3})).name, "tool");
}
