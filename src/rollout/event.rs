//! What codex writes about a turn or a tool beside the calls and messages: a turn starting,
//! ending or being interrupted, a compaction of the context, and its own record of a tool's
//! result (the files a patch changed, how a command or an MCP call ended).
//!
//! Pure and lenient, like [`super::tool`]: a field that is missing or of the wrong type is
//! absent, an unknown row is `None`, nothing panics. Long texts are cut to the reader's cap.
//! These rows are few (a handful a turn), so they are read the plain way, from a
//! `serde_json::Value`.

use serde_json::Value;

use super::rules::clip;

/// One turn or tool event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `task_started`: a turn begins.
    TurnStarted { turn_id: Option<String> },
    /// `task_complete`: a turn ended normally.
    TurnEnded { turn_id: Option<String> },
    /// `turn_aborted`: a turn was cut short (the user pressed Esc, or codex stopped it).
    TurnAborted {
        turn_id: Option<String>,
        /// Codex's reason (`interrupted`, `replaced`, ...).
        reason: Option<String>,
        duration_ms: Option<u64>,
    },
    /// The context was compacted: a `compacted` row (with the summary codex wrote), a
    /// `ContextCompaction` item or an older `context_compacted` event (without it).
    Compacted {
        turn_id: Option<String>,
        summary: Option<String>,
    },
    /// Codex's record of what an `apply_patch` call changed (`FileChange` item) or of how it
    /// ended (an older `patch_apply_end` event).
    PatchApplied {
        call_id: String,
        /// Each file by the path codex wrote (absolute): what happened to it.
        changes: Vec<FileChange>,
        /// The patch applied (`completed`), or why not.
        failure: Option<String>,
        duration_ms: Option<u64>,
    },
    /// Codex's record of a command (`CommandExecution` item): how it ended, in the end, even
    /// when it was left running in the background.
    CommandEnded {
        call_id: String,
        exit_code: Option<i32>,
        /// `completed`, `failed`, `declined`, ... as written.
        status: Option<String>,
        duration_ms: Option<u64>,
        /// Everything it printed, cut to the cap.
        output: String,
    },
    /// Codex's record of an MCP tool call (`McpToolCall` item).
    McpEnded {
        call_id: String,
        /// The server's error, or the text of a result it marked as an error.
        failure: Option<String>,
        duration_ms: Option<u64>,
    },
}

/// A file an applied patch changed, as codex recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    /// `add`, `delete` or `update`, as written.
    pub kind: String,
    /// The new path of a renamed file.
    pub move_path: Option<String>,
    /// The unified diff of an update, or the content of an added or deleted file.
    pub diff: Option<String>,
}

/// The event of a parsed line, or `None` for a line that is not one; texts cut to `cap`.
pub fn read(line: &Value, cap: Option<usize>) -> Option<Event> {
    let kind = line.get("type").and_then(Value::as_str)?;
    let payload = line.get("payload").filter(|p| p.is_object())?;
    let cut = |text: &str| cap.map_or(text, |max| clip(text, max)).to_owned();
    if kind == "compacted" {
        let summary = text(payload, "message").map(|m| cut(summary_of(m)));
        return Some(Event::Compacted {
            turn_id: None,
            summary,
        });
    }
    if kind != "event_msg" {
        return None;
    }
    let turn_id = || text(payload, "turn_id").map(str::to_owned);
    match text(payload, "type")? {
        "task_started" | "turn_started" => Some(Event::TurnStarted { turn_id: turn_id() }),
        "task_complete" | "turn_complete" => Some(Event::TurnEnded { turn_id: turn_id() }),
        "turn_aborted" => Some(Event::TurnAborted {
            turn_id: turn_id(),
            reason: text(payload, "reason").map(str::to_owned),
            duration_ms: payload.get("duration_ms").and_then(Value::as_u64),
        }),
        "context_compacted" => Some(Event::Compacted {
            turn_id: turn_id(),
            summary: None,
        }),
        "patch_apply_end" => Some(Event::PatchApplied {
            call_id: text(payload, "call_id")?.to_owned(),
            changes: changes(payload.get("changes"), &cut),
            failure: (payload.get("success").and_then(Value::as_bool) == Some(false)).then(|| {
                let why = text(payload, "stderr").or_else(|| text(payload, "stdout"));
                cut(why.unwrap_or("the patch did not apply").trim())
            }),
            duration_ms: None,
        }),
        "item_completed" => item(payload, turn_id(), &cut),
        _ => None,
    }
}

/// A non-message item of an `item_completed` event.
fn item(payload: &Value, turn_id: Option<String>, cut: &dyn Fn(&str) -> String) -> Option<Event> {
    let item = payload.get("item").filter(|i| i.is_object())?;
    let id = || text(item, "id").map(str::to_owned);
    let duration_ms = item_duration(payload, item);
    match text(item, "type")? {
        "ContextCompaction" => Some(Event::Compacted {
            turn_id,
            summary: None,
        }),
        "FileChange" => {
            let status = text(item, "status");
            let failure = match status {
                None | Some("completed") => None,
                Some(other) => Some(
                    text(item, "stderr")
                        .map(|e| cut(e.trim()))
                        .filter(|e| !e.is_empty())
                        .unwrap_or_else(|| format!("patch {other}")),
                ),
            };
            Some(Event::PatchApplied {
                call_id: id()?,
                changes: changes(item.get("changes"), cut),
                failure,
                duration_ms,
            })
        }
        "CommandExecution" => Some(Event::CommandEnded {
            call_id: id()?,
            exit_code: item
                .get("exit_code")
                .and_then(Value::as_i64)
                .and_then(|c| i32::try_from(c).ok()),
            status: text(item, "status").map(str::to_owned),
            duration_ms,
            output: text(item, "aggregated_output").map(cut).unwrap_or_default(),
        }),
        "McpToolCall" => {
            let error = item
                .get("error")
                .and_then(|e| text(e, "message").or_else(|| e.as_str()))
                .map(cut);
            let result = item.get("result");
            let is_error = result
                .and_then(|r| r.get("isError"))
                .and_then(Value::as_bool);
            let failure = error.or_else(|| {
                (is_error == Some(true) || text(item, "status") == Some("failed")).then(|| {
                    let said = result
                        .and_then(|r| r.get("content"))
                        .map(super::rules::content_text)
                        .unwrap_or_default();
                    if said.trim().is_empty() {
                        "the tool reported an error".to_owned()
                    } else {
                        cut(said.trim())
                    }
                })
            });
            Some(Event::McpEnded {
                call_id: id()?,
                failure,
                duration_ms,
            })
        }
        _ => None,
    }
}

/// The files of a `FileChange` item or a `patch_apply_end` event: `changes` maps each path to
/// `{type, unified_diff | content, move_path}` (older codex wrote `{"update": {unified_diff,
/// move_path}}`, the kind as the only key). Paths are kept whole: they are short, and what
/// a session changed is looked up by them.
fn changes(value: Option<&Value>, cut: &dyn Fn(&str) -> String) -> Vec<FileChange> {
    let Some(Value::Object(map)) = value else {
        return Vec::new();
    };
    map.iter()
        .map(|(path, change)| {
            let (kind, change) = match text(change, "type") {
                Some(kind) => (kind, change),
                None => match change.as_object().filter(|o| o.len() == 1) {
                    Some(o) => o
                        .iter()
                        .next()
                        .map_or(("update", change), |(k, v)| (k.as_str(), v)),
                    None => ("update", change),
                },
            };
            (path, kind, change)
        })
        .map(|(path, kind, change)| FileChange {
            path: path.clone(),
            kind: kind.to_owned(),
            move_path: text(change, "move_path").map(str::to_owned),
            diff: text(change, "unified_diff")
                .or_else(|| text(change, "content"))
                .map(cut),
        })
        .collect()
}

/// How long an item took: its `duration` (`{secs, nanos}`), else its start and end times.
fn item_duration(payload: &Value, item: &Value) -> Option<u64> {
    if let Some(d) = item.get("duration") {
        let secs = d.get("secs").and_then(Value::as_u64)?;
        let nanos = d.get("nanos").and_then(Value::as_u64).unwrap_or(0);
        return Some(secs.saturating_mul(1000).saturating_add(nanos / 1_000_000));
    }
    let at = |key| payload.get(key).and_then(Value::as_u64);
    Some(at("completed_at_ms")?.saturating_sub(at("started_at_ms")?))
}

/// The summary codex wrote, without the sentence it puts before it for the model.
fn summary_of(message: &str) -> &str {
    const PREFIX: &str = "Another language model started to solve this problem";
    match message.strip_prefix(PREFIX) {
        Some(rest) => rest
            .split_once('\n')
            .map_or(message, |(_, summary)| summary),
        None => message,
    }
}

/// A non-empty string field.
fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_compacted_row_gives_the_summary_without_codexs_preamble() {
        let line = json!({"type":"compacted","payload":{"message":
            "Another language model started to solve this problem and produced a summary. Here is the summary:\n## Summary\n- done",
            "replacement_history":[]}});
        assert_eq!(
            read(&line, None),
            Some(Event::Compacted {
                turn_id: None,
                summary: Some("## Summary\n- done".into())
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
        }) = read(&line, None)
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
    fn a_failed_mcp_result_says_what_the_tool_said() {
        let line = json!({"type":"event_msg","payload":{"type":"item_completed","item":{
            "type":"McpToolCall","id":"m1","status":"completed","duration":{"secs":1,"nanos":500000000},
            "result":{"content":[{"type":"text","text":"no such city"}],"isError":true}}}});
        assert_eq!(
            read(&line, None),
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
            let event = read(&line, Some(4));
            assert!(
                !matches!(event, Some(Event::PatchApplied { .. })),
                "{line}: {event:?}"
            );
        }
    }
}
