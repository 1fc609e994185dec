//! Claude Code's `tool_use` blocks and their `tool_result`s as the tool records Codex sessions
//! give: Bash a command (a failure with its exit code), Edit/MultiEdit/Write/NotebookEdit a
//! patch of one file whose result is an applied (or failed) change, TodoWrite a plan, Agent/Task
//! a subagent, WebSearch/WebFetch a web search, `mcp__server__tool` an MCP call, any other tool
//! its name and its input as pretty JSON; `thinking` is reasoning.
//!
//! Pure and lenient, like `rollout::tool`: a missing or mistyped field gives a plainer detail,
//! never a panic. Long texts are cut to the reader's cap.

use serde_json::Value;

use super::carry::OpenCall;
use crate::rollout::event::{Event, FileChange};
use crate::rollout::record::{
    PatchFile, PatchOp, Plan, PlanStep, Status, StepChange, StepState, ToolCall, ToolDetail,
    ToolOutput, WebAction,
};
use crate::rollout::text::{content_text, Cap};

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Tools that change a file.
pub(crate) fn is_edit(name: &str) -> bool {
    matches!(name, "Edit" | "MultiEdit" | "Write" | "NotebookEdit")
}

/// A `thinking` (or `redacted_thinking`) block as reasoning.
pub(crate) fn reasoning(block: &Value, cap: Cap) -> ToolCall {
    let thought = text(block, "thinking").unwrap_or("").to_owned();
    let detail = ToolDetail::Reasoning {
        text: cap.mark(thought),
    };
    ToolCall::new("reasoning".to_owned(), None, detail)
}

/// What a `tool_use` block's call is remembered by until its result.
pub(crate) fn open_call(block: &Value) -> OpenCall {
    let input = block.get("input");
    let path = input
        .and_then(|i| text(i, "file_path").or_else(|| text(i, "notebook_path")))
        .map(str::to_owned);
    OpenCall {
        id: text(block, "id").unwrap_or("").to_owned(),
        name: text(block, "name").unwrap_or("tool").to_owned(),
        path,
    }
}

/// A `tool_use` block's record.
pub(crate) fn call(block: &Value, cap: Cap) -> ToolCall {
    let name = text(block, "name").unwrap_or("tool");
    let id = text(block, "id")
        .filter(|i| !i.is_empty())
        .map(str::to_owned);
    let empty = Value::Null;
    let input = block.get("input").unwrap_or(&empty);
    ToolCall::new(name.to_owned(), id, detail(name, input, cap))
}

fn detail(name: &str, input: &Value, cap: Cap) -> ToolDetail {
    let known = match name {
        "Bash" => text(input, "command").map(|c| ToolDetail::Command {
            command: cap.mark(c.to_owned()),
            workdir: None,
            session: None,
        }),
        n if is_edit(n) => patch(n, input, cap),
        "TodoWrite" => plan(input, cap),
        "Agent" | "Task" => {
            let about = text(input, "description").unwrap_or("").trim();
            let name = if about.is_empty() {
                "subagent".to_owned()
            } else {
                format!("subagent: {about}")
            };
            let prompt = text(input, "prompt").unwrap_or("").to_owned();
            Some(ToolDetail::Other {
                name: cap.mark(name),
                arguments: cap.mark(prompt),
            })
        }
        "WebSearch" => text(input, "query").map(|q| {
            ToolDetail::WebSearch(WebAction::Search {
                query: cap.mark(q.to_owned()),
            })
        }),
        "WebFetch" => text(input, "url").map(|u| {
            ToolDetail::WebSearch(WebAction::OpenPage {
                url: cap.mark(u.to_owned()),
            })
        }),
        _ => mcp(name, input, cap),
    };
    known.unwrap_or_else(|| ToolDetail::Other {
        name: name.to_owned(),
        arguments: cap.mark(pretty(input)),
    })
}

fn pretty(input: &Value) -> String {
    match input {
        Value::Null => String::new(),
        Value::Object(o) if o.is_empty() => String::new(),
        v => serde_json::to_string_pretty(v).unwrap_or_default(),
    }
}

/// `mcp__<server>__<tool>`.
fn mcp(name: &str, input: &Value, cap: Cap) -> Option<ToolDetail> {
    let (server, tool) = name.strip_prefix("mcp__")?.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then(|| ToolDetail::Mcp {
        server: server.to_owned(),
        tool: tool.to_owned(),
        arguments: cap.mark(pretty(input)),
    })
}

/// An edit as a patch of one file, its text written the way an `apply_patch` reads.
fn patch(name: &str, input: &Value, cap: Cap) -> Option<ToolDetail> {
    let path = text(input, "file_path").or_else(|| text(input, "notebook_path"))?;
    let lines =
        |s: &str, sign: char| -> String { s.lines().map(|l| format!("{sign}{l}\n")).collect() };
    let hunk = |e: &Value| {
        let old = text(e, "old_string").unwrap_or("");
        let new = text(e, "new_string").unwrap_or("");
        format!("@@\n{}{}", lines(old, '-'), lines(new, '+'))
    };
    let (op, body) = match name {
        "Write" => (
            PatchOp::Add,
            lines(text(input, "content").unwrap_or(""), '+'),
        ),
        "MultiEdit" => {
            let edits = input.get("edits").and_then(Value::as_array);
            let body = edits.map(|es| es.iter().map(hunk).collect());
            (PatchOp::Update, body.unwrap_or_default())
        }
        "NotebookEdit" => {
            let source = text(input, "new_source").unwrap_or("");
            (PatchOp::Update, format!("@@\n{}", lines(source, '+')))
        }
        _ => (PatchOp::Update, hunk(input)),
    };
    let verb = if op == PatchOp::Add { "Add" } else { "Update" };
    let whole = format!("*** Begin Patch\n*** {verb} File: {path}\n{body}*** End Patch");
    let (patch, elided) = cap.cut(whole);
    Some(ToolDetail::Patch {
        files: vec![PatchFile {
            op,
            path: path.to_owned(),
            diff: None,
        }],
        patch,
        elided,
    })
}

/// A TodoWrite's todos as a plan's steps.
fn plan(input: &Value, cap: Cap) -> Option<ToolDetail> {
    let todos = input.get("todos")?.as_array()?;
    let steps = todos
        .iter()
        .filter_map(|t| {
            let content = text(t, "content")?;
            let state = match text(t, "status").unwrap_or("") {
                "pending" => StepState::Pending,
                "in_progress" => StepState::InProgress,
                "completed" => StepState::Completed,
                other => StepState::Other(other.to_owned()),
            };
            Some(PlanStep {
                text: cap.mark(content.to_owned()),
                state,
                change: StepChange::Same,
            })
        })
        .collect();
    Some(ToolDetail::Plan(Plan {
        explanation: None,
        steps,
    }))
}

/// What a `tool_result` says.
pub(crate) struct Result {
    /// Its output record, for a reader that keeps tools.
    pub output: ToolCall,
    /// How the call ended beyond its text: an edit's change (what files changed counts), or a
    /// failure of another tool.
    pub event: Option<Event>,
}

/// A `tool_result` block of the call `open` (when its `tool_use` was read); `outcome` is the
/// row's `toolUseResult` when the row holds this result alone.
pub(crate) fn result(
    block: &Value,
    open: Option<&OpenCall>,
    outcome: Option<&Value>,
    cap: Cap,
) -> Result {
    let call_id = text(block, "tool_use_id").unwrap_or("").to_owned();
    let failed = block.get("is_error").and_then(Value::as_bool) == Some(true);
    let content = block.get("content").unwrap_or(&Value::Null);
    let said = content_text(content);
    let images = match content {
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| text(b, "type") == Some("image"))
            .count(),
        _ => 0,
    };
    let name = open.map_or("", |o| o.name.as_str());
    let why = || {
        let bare = said.trim();
        let bare = bare.strip_prefix("<tool_use_error>").unwrap_or(bare);
        let bare = bare
            .strip_suffix("</tool_use_error>")
            .unwrap_or(bare)
            .trim();
        let why = if bare.is_empty() {
            "the tool reported an error"
        } else {
            bare
        };
        cap.mark(why.to_owned())
    };
    let event = if is_edit(name) {
        let changes = if failed {
            Vec::new()
        } else {
            change(open, outcome, cap).into_iter().collect()
        };
        Some(Event::PatchApplied {
            call_id: call_id.clone(),
            changes,
            failure: failed.then(why),
            duration_ms: None,
        })
    } else if failed
        && said
            .trim_start()
            .starts_with("[Request interrupted by user")
    {
        Some(Event::ToolEnded {
            call_id: call_id.clone(),
            interrupted: true,
            failure: None,
        })
    } else if failed && name != "Bash" {
        Some(Event::ToolEnded {
            call_id: call_id.clone(),
            interrupted: false,
            failure: Some(why()),
        })
    } else {
        None
    };
    let bash_failed = failed && name == "Bash" && event.is_none();
    let exit_code = bash_failed.then(|| exit_code(&said));
    let (text, elided) = cap.cut(said);
    let output = ToolOutput {
        exit_code,
        text,
        elided,
        images: u32::try_from(images).unwrap_or(u32::MAX),
        ..ToolOutput::default()
    };
    let id = (!call_id.is_empty()).then_some(call_id);
    let mut output = ToolCall::new(
        "tool_result".to_owned(),
        id,
        ToolDetail::Output(Box::new(output)),
    );
    if open.is_none() {
        output.status = Status::Ok;
    }
    Result { output, event }
}

/// The exit code a failed command's text reports (`Exit code 2`), else 1.
fn exit_code(said: &str) -> i32 {
    said.lines()
        .find_map(|l| l.trim().strip_prefix("Exit code ")?.trim().parse().ok())
        .unwrap_or(1)
}

/// The file an applied edit changed: a new file when Claude Code says it created it.
fn change(open: Option<&OpenCall>, outcome: Option<&Value>, cap: Cap) -> Option<FileChange> {
    let recorded = outcome.and_then(|o| text(o, "filePath"));
    let path = recorded.or_else(|| open?.path.as_deref())?.to_owned();
    let created = outcome.and_then(|o| text(o, "type")) == Some("create");
    let diff = if cap.0 == Some(0) {
        None
    } else if created {
        outcome
            .and_then(|o| text(o, "content"))
            .map(|c| cap.mark(c.to_owned()))
    } else {
        outcome
            .and_then(|o| o.get("structuredPatch"))
            .and_then(unified)
            .map(|d| cap.mark(d))
    };
    Some(FileChange {
        path,
        kind: if created { "add" } else { "update" }.to_owned(),
        move_path: None,
        diff,
    })
}

/// A `structuredPatch` (hunks of `oldStart`, `oldLines`, `newStart`, `newLines`, `lines`) as a
/// unified diff; `None` when it has no hunk.
fn unified(hunks: &Value) -> Option<String> {
    let hunks = hunks.as_array().filter(|h| !h.is_empty())?;
    let mut diff = String::new();
    for h in hunks {
        let n = |k: &str| h.get(k).and_then(Value::as_u64).unwrap_or(0);
        let head = (n("oldStart"), n("oldLines"), n("newStart"), n("newLines"));
        diff.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            head.0, head.1, head.2, head.3
        ));
        for line in h
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            diff.push_str(line.as_str().unwrap_or(""));
            diff.push('\n');
        }
    }
    Some(diff)
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
