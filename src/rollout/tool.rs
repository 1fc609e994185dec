//! Tool calls, their outputs and reasoning summaries: what each row asked for ([`ToolDetail`]:
//! the command run, the files a patch touches, a plan's steps, a web search, an MCP tool, a
//! goal, ...) for the views to show, collapsed or expanded. Outputs are read by
//! [`super::tool_output`]; how a call ended is settled when the entries are assembled.
//!
//! Pure and lenient: any field may be missing or of the wrong type and `arguments` may not be
//! JSON; such a row gets a plainer detail (in the end [`ToolDetail::Other`], which keeps the
//! tool's name and arguments), never a panic. Every long text a row keeps is cut to the
//! reader's cap, so no row holds a giant output whole. Nothing is sanitised here: the display
//! layer does that.

use serde_json::Value;

use super::record::{
    PatchFile, PatchOp, Plan, PlanStep, Status, StepChange, StepState, ToolCall, ToolDetail,
    WebAction,
};
use super::text::Cap;

/// The record of a tool or reasoning row (a `response_item` payload); `max_text` caps every
/// long text it keeps (`None`: whole).
pub(crate) fn read(payload: &Value, max_text: Option<usize>) -> ToolCall {
    let kind = payload
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("tool")
        .to_owned();
    let detail = detail(&kind, payload, Cap(max_text));
    let call_id = text_field(payload, "call_id").map(str::to_owned);
    let mut call = ToolCall::new(kind, call_id, detail);
    if call.call_id.is_none() && call.kind.ends_with("_call") {
        // A built-in call with no output of its own (a web search) says how it ended.
        call.status = match text_field(payload, "status") {
            Some("completed") => Status::Ok,
            Some("failed") => Status::Failed(format!("{} failed", call.kind.replace('_', " "))),
            _ => Status::Unknown,
        };
    }
    call
}

fn detail(kind: &str, payload: &Value, cap: Cap) -> ToolDetail {
    match kind {
        "reasoning" => ToolDetail::Reasoning {
            text: cap.mark(reasoning_text(payload.get("summary"))),
        },
        "function_call" => function_call(payload, cap),
        "custom_tool_call" => custom_tool_call(payload, cap),
        "local_shell_call" => local_shell_call(payload, cap),
        "web_search_call" => ToolDetail::WebSearch(web_action(payload.get("action"), cap)),
        "tool_search_call" => {
            let args = payload.get("arguments");
            let query = args.and_then(|a| text_field(a, "query"));
            match query {
                Some(q) => ToolDetail::ToolSearch {
                    query: cap.mark(q.to_owned()),
                },
                None => other(payload, kind, cap),
            }
        }
        k if k.ends_with("_output") => {
            ToolDetail::Output(Box::new(super::tool_output::read(payload, cap)))
        }
        _ => other(payload, kind, cap),
    }
}

/// A call nothing more is known of: its name (else the row's type) and its arguments.
fn other(payload: &Value, kind: &str, cap: Cap) -> ToolDetail {
    ToolDetail::Other {
        name: name_or(payload, kind),
        arguments: cap.mark(arguments_text(call_arguments(payload))),
    }
}

/// A non-empty string field.
fn text_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn name_or(payload: &Value, fallback: &str) -> String {
    text_field(payload, "name").unwrap_or(fallback).to_owned()
}

/// A `function_call`: what its name (and MCP namespace) and arguments say it is.
fn function_call(payload: &Value, cap: Cap) -> ToolDetail {
    let name = text_field(payload, "name").unwrap_or("");
    let raw = payload.get("arguments");
    let parsed = match raw {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
        _ => None,
    };
    let args = parsed.as_ref().or(raw.filter(|v| v.is_object()));
    let arguments = || {
        cap.mark(match args {
            Some(json) => pretty(json),
            None => arguments_text(raw),
        })
    };
    if let Some((server, tool)) = mcp_tool(text_field(payload, "namespace"), name) {
        return ToolDetail::Mcp {
            server: cap.mark(server.to_owned()),
            tool: cap.mark(tool.to_owned()),
            arguments: arguments(),
        };
    }
    let known = args.and_then(|args| match name {
        "exec_command" => Some(ToolDetail::Command {
            command: cap.mark(text_field(args, "cmd")?.to_owned()),
            workdir: workdir(args, "workdir", cap),
            session: None,
        }),
        "shell" | "container.exec" | "shell_command" => shell(args, "command", "workdir", cap),
        "apply_patch" => Some(patch(text_field(args, "input")?, cap)),
        "update_plan" => plan(args, cap),
        "write_stdin" => Some(ToolDetail::Poll {
            session: cap.mark(id_text(args.get("session_id")?)?),
            chars: cap.mark(args.get("chars").and_then(Value::as_str)?.to_owned()),
            command: None,
        }),
        "view_image" => Some(ToolDetail::ViewImage {
            path: cap.mark(text_field(args, "path")?.to_owned()),
        }),
        "create_goal" | "update_goal" | "get_goal" => Some(ToolDetail::Goal {
            action: name.to_owned(),
            objective: text_field(args, "objective").map(|o| cap.mark(o.to_owned())),
            status: text_field(args, "status").map(|s| cap.mark(s.to_owned())),
        }),
        _ => None,
    });
    known.unwrap_or_else(|| ToolDetail::Other {
        name: name.to_owned(),
        arguments: arguments(),
    })
}

/// The server and tool of an MCP call: a `namespace` `mcp__<server>` with the tool as `name`,
/// or (as older codex wrote it) a `name` `mcp__<server>__<tool>`.
fn mcp_tool<'a>(namespace: Option<&'a str>, name: &'a str) -> Option<(&'a str, &'a str)> {
    if let Some(server) = namespace.and_then(|n| n.strip_prefix("mcp__")) {
        return Some((server, name));
    }
    let rest = name.strip_prefix("mcp__")?;
    rest.split_once("__")
        .filter(|(s, t)| !s.is_empty() && !t.is_empty())
}

/// A session id written as a number or a string.
fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// `update_plan` arguments: `explanation`, and `plan`, an array of `{step, status}`. `None`
/// when there is no such array (the call is then shown as it was written).
fn plan(args: &Value, cap: Cap) -> Option<ToolDetail> {
    let steps = args.get("plan")?.as_array()?;
    let steps = steps
        .iter()
        .filter_map(|s| {
            Some(PlanStep {
                text: cap.mark(text_field(s, "step")?.to_owned()),
                state: match text_field(s, "status").unwrap_or("pending") {
                    "pending" => StepState::Pending,
                    "in_progress" => StepState::InProgress,
                    "completed" => StepState::Completed,
                    other => StepState::Other(cap.mark(other.to_owned())),
                },
                change: StepChange::Same,
            })
        })
        .collect();
    Some(ToolDetail::Plan(Plan {
        explanation: text_field(args, "explanation").map(|e| cap.mark(e.to_owned())),
        steps,
    }))
}

/// A web search call's `action`: `search` (`query`, or the first of `queries`), `open_page`
/// (`url`), `find_in_page` (`url`, `pattern`), or another action as written.
fn web_action(action: Option<&Value>, cap: Cap) -> WebAction {
    let field = |key| {
        action
            .and_then(|a| text_field(a, key))
            .map(|t| cap.mark(t.to_owned()))
    };
    let kind = action.and_then(|a| text_field(a, "type"));
    let first_query = || {
        let queries = action?.get("queries")?.as_array()?;
        queries
            .iter()
            .find_map(Value::as_str)
            .map(|q| cap.mark(q.to_owned()))
    };
    let known = match kind {
        Some("search") => field("query")
            .or_else(first_query)
            .map(|query| WebAction::Search { query }),
        Some("open_page") => field("url").map(|url| WebAction::OpenPage { url }),
        Some("find_in_page") => Some(WebAction::FindInPage {
            url: field("url").unwrap_or_default(),
            pattern: field("pattern").unwrap_or_default(),
        }),
        _ => None,
    };
    known.unwrap_or_else(|| WebAction::Other(cap.mark(arguments_text(action))))
}

/// A `custom_tool_call` (free-form `input`): a patch when it is `apply_patch`.
fn custom_tool_call(payload: &Value, cap: Cap) -> ToolDetail {
    let name = text_field(payload, "name").unwrap_or("");
    let input = payload.get("input");
    match input.and_then(Value::as_str) {
        Some(text) if name == "apply_patch" => patch(text, cap),
        _ => ToolDetail::Other {
            name: name.to_owned(),
            arguments: cap.mark(arguments_text(input)),
        },
    }
}

/// A `local_shell_call`: the command its `action` holds.
fn local_shell_call(payload: &Value, cap: Cap) -> ToolDetail {
    let action = payload.get("action");
    action
        .and_then(|a| shell(a, "command", "working_directory", cap))
        .unwrap_or_else(|| ToolDetail::Other {
            name: name_or(payload, "local_shell_call"),
            arguments: cap.mark(arguments_text(action)),
        })
}

/// The command of a shell-like call: `command` an array of words or a string, and the working
/// directory under `dir_key`. `None` when there is no such command.
fn shell(args: &Value, command_key: &str, dir_key: &str, cap: Cap) -> Option<ToolDetail> {
    let command = match args.get(command_key)? {
        Value::String(s) if !s.is_empty() => s.clone(),
        Value::Array(items) => {
            let words: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
            if let [tool, patch_text] = words[..] {
                if matches!(tool, "apply_patch" | "applypatch") {
                    return Some(patch(patch_text, cap));
                }
            }
            command_line(&words)?
        }
        _ => return None,
    };
    Some(ToolDetail::Command {
        command: cap.mark(command),
        workdir: workdir(args, dir_key, cap),
        session: None,
    })
}

fn workdir(args: &Value, key: &str, cap: Cap) -> Option<String> {
    text_field(args, key).map(|dir| cap.mark(dir.to_owned()))
}

/// Words as a shell command line: the script of `bash -lc SCRIPT` / `sh -c SCRIPT` (and zsh,
/// dash, by any path), else the words joined by spaces, each quoted when a shell would read it
/// otherwise. `None` for no words.
fn command_line(words: &[&str]) -> Option<String> {
    if let [shell, "-c" | "-lc", script] = words {
        let name = shell.rsplit('/').next().unwrap_or("");
        if matches!(name, "bash" | "sh" | "zsh" | "dash") {
            return Some((*script).to_owned());
        }
    }
    if words.is_empty() {
        return None;
    }
    let mut line = String::new();
    for word in words {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&crate::shell::quote(word));
    }
    Some(line)
}

/// A patch: the files it touches and its text, cut to the cap.
fn patch(text: &str, cap: Cap) -> ToolDetail {
    let (patch, elided) = cap.cut_str(text);
    ToolDetail::Patch {
        files: patch_files(text, cap),
        patch,
        elided,
    }
}

/// The files of an `apply_patch` text, from its file lines. A `*** Move to:` line right after
/// an `*** Update File:` line renames that file; anywhere else it is not a file line.
fn patch_files(text: &str, cap: Cap) -> Vec<PatchFile> {
    let mut files: Vec<PatchFile> = Vec::new();
    let mut after_update = false;
    for line in text.lines() {
        let line = line.trim();
        let header = |prefix: &str| line.strip_prefix(prefix).map(str::trim);
        let file = [
            ("*** Add File:", PatchOp::Add),
            ("*** Update File:", PatchOp::Update),
            ("*** Delete File:", PatchOp::Delete),
        ]
        .into_iter()
        .find_map(|(prefix, op)| Some((op, header(prefix)?)));
        match (file, header("*** Move to:"), files.last_mut()) {
            (Some((op, path)), _, _) if !path.is_empty() => {
                after_update = op == PatchOp::Update;
                files.push(PatchFile {
                    op,
                    path: cap.mark(path.to_owned()),
                    diff: None,
                });
                continue;
            }
            (None, Some(to), Some(last)) if after_update && !to.is_empty() => {
                last.op = PatchOp::Move {
                    to: cap.mark(to.to_owned()),
                };
            }
            _ => {}
        }
        after_update = false;
    }
    files
}

/// Reasoning text: the `text` of each summary item, joined with blank lines (a plain string
/// summary as is).
fn reasoning_text(summary: Option<&Value>) -> String {
    match summary {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let texts = items
                .iter()
                .filter_map(|item| text_field(item, "text"))
                .collect::<Vec<_>>();
            texts.join("\n\n")
        }
        _ => String::new(),
    }
}

/// What a call was given: `arguments`, a custom tool's `input`, or a built-in call's `action`.
fn call_arguments(payload: &Value) -> Option<&Value> {
    ["arguments", "input", "action"]
        .iter()
        .find_map(|key| payload.get(*key).filter(|v| !v.is_null()))
}

/// Arguments as text: a string as written (pretty-printed when it is a JSON object or array),
/// any other value as pretty JSON, nothing as nothing.
fn arguments_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => {
            let json = s.trim_start().starts_with(['{', '[']) && s.trim_end().ends_with(['}', ']']);
            match json
                .then(|| serde_json::from_str::<Value>(s).ok())
                .flatten()
            {
                Some(parsed) => pretty(&parsed),
                None => s.clone(),
            }
        }
        Some(other) => pretty(other),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

#[cfg(test)]
#[path = "tool_tests.rs"]
mod tests;
