//! Tool calls, their outputs and reasoning summaries: each row's one-line summary (what a
//! collapsed view and `show` print) and what it did ([`ToolDetail`]: the command run, the files
//! a patch touches, the output and its exit code, the reasoning text) for a view that expands it.
//!
//! Pure and lenient: any field may be missing or of the wrong type and `arguments` may not be
//! JSON; such a row gets a plainer detail (in the end [`ToolDetail::Other`]), never a panic.
//! Every long text a row keeps is cut to the reader's cap, so no row holds a giant output whole.
//! Nothing is sanitised here: the display layer does that.

use serde_json::Value;

use super::record::{PatchFile, PatchOp, ToolCall, ToolDetail, ToolOutput};
use super::rules::{self, clip};

/// The record of a tool or reasoning row (a `response_item` payload); `max_text` caps every
/// long text it keeps (`None`: whole).
pub fn read(payload: &Value, max_text: Option<usize>) -> ToolCall {
    let kind = payload
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("tool")
        .to_owned();
    let body = body(&kind, payload);
    let summary = summarise(&body);
    let detail = detail(&kind, payload, body, Cap(max_text));
    ToolCall {
        kind,
        summary,
        call_id: text_field(payload, "call_id").map(str::to_owned),
        detail,
        output: None,
    }
}

/// The text a row's summary is made from.
fn body(kind: &str, payload: &Value) -> String {
    let pick = |v: Option<&Value>| -> String {
        match v {
            Some(Value::String(s)) => s.clone(),
            Some(items @ Value::Array(_)) => rules::content_text(items),
            Some(other @ Value::Object(_)) => other.to_string(),
            _ => String::new(),
        }
    };
    match kind {
        "reasoning" => pick(payload.get("summary")),
        "function_call" => {
            let name = payload.get("name").and_then(Value::as_str).unwrap_or("?");
            format!("{name} {}", pick(payload.get("arguments")))
        }
        "custom_tool_call" => {
            let name = payload.get("name").and_then(Value::as_str).unwrap_or("?");
            format!("{name} {}", pick(payload.get("input")))
        }
        "local_shell_call" | "web_search_call" => pick(payload.get("action")),
        _ => pick(payload.get("output")),
    }
}

/// `body` on one line: white space collapsed, cut to 200 bytes (`…` marks a cut), and the size
/// of a body past 4 KB.
fn summarise(body: &str) -> String {
    let flat = rules::preview_line(clip(body, 4096));
    let size = body.len();
    let mut summary = clip(&flat, 200).to_owned();
    if flat.len() > summary.len() {
        summary.push('…');
    }
    if size > 4096 {
        summary.push_str(&format!(" ({size} bytes)"));
    }
    summary
}

fn detail(kind: &str, payload: &Value, body: String, cap: Cap) -> ToolDetail {
    match kind {
        "reasoning" => ToolDetail::Reasoning {
            text: cap.mark(reasoning_text(payload.get("summary"))),
        },
        "function_call" => function_call(payload, cap),
        "custom_tool_call" => custom_tool_call(payload, cap),
        "local_shell_call" => local_shell_call(payload, cap),
        // An output's summary body is its output text (string, or the items' texts joined).
        k if k.ends_with("_output") => ToolDetail::Output(output(body, cap)),
        _ => ToolDetail::Other {
            name: name_or(payload, kind),
            arguments: cap.mark(arguments_text(call_arguments(payload))),
        },
    }
}

/// How much of a long text a row keeps.
#[derive(Debug, Clone, Copy)]
struct Cap(Option<usize>);

impl Cap {
    /// `text` cut to the cap on a char boundary, and the bytes cut.
    fn cut(self, mut text: String) -> (String, u64) {
        let Some(max) = self.0.filter(|&max| text.len() > max) else {
            return (text, 0);
        };
        let kept = clip(&text, max).len();
        let elided = (text.len() - kept) as u64;
        text.truncate(kept);
        text.shrink_to_fit();
        (text, elided)
    }

    /// [`Cap::cut`] of a borrowed text: only the kept part is copied.
    fn cut_str(self, text: &str) -> (String, u64) {
        let kept = self.0.map_or(text, |max| clip(text, max));
        (kept.to_owned(), (text.len() - kept.len()) as u64)
    }

    /// `text` cut to the cap, a cut marked by a closing `…` (for a field that has no count).
    fn mark(self, text: String) -> String {
        match self.cut(text) {
            (mut text, elided) if elided > 0 => {
                text.push('…');
                text
            }
            (text, _) => text,
        }
    }
}

/// A non-empty string field.
fn text_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn name_or(payload: &Value, fallback: &str) -> String {
    text_field(payload, "name").unwrap_or(fallback).to_owned()
}

/// A `function_call`: a shell command or a patch when its name and arguments say so.
fn function_call(payload: &Value, cap: Cap) -> ToolDetail {
    let name = text_field(payload, "name").unwrap_or("");
    let raw = payload.get("arguments");
    let parsed = match raw {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
        _ => None,
    };
    let args = parsed.as_ref().or(raw.filter(|v| v.is_object()));
    let known = args.and_then(|args| match name {
        "exec_command" => Some(ToolDetail::Command {
            command: cap.mark(text_field(args, "cmd")?.to_owned()),
            workdir: workdir(args, "workdir", cap),
        }),
        "shell" | "container.exec" | "shell_command" => shell(args, "command", "workdir", cap),
        "apply_patch" => Some(patch(text_field(args, "input")?, cap)),
        _ => None,
    });
    known.unwrap_or_else(|| ToolDetail::Other {
        name: name.to_owned(),
        arguments: cap.mark(match args {
            Some(json) => pretty(json),
            None => arguments_text(raw),
        }),
    })
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

/// An output row's text, read as codex's unified exec text or its older JSON when it is one.
fn output(text: String, cap: Cap) -> ToolOutput {
    if let Some(out) = exec_text(&text, cap).or_else(|| legacy_json(&text, cap)) {
        return out;
    }
    let (text, elided) = cap.cut(text);
    ToolOutput {
        exit_code: None,
        duration_ms: None,
        text,
        elided,
    }
}

/// The header lines codex's exec tools put before `Output:` (at most this many).
const MAX_HEADER_LINES: usize = 16;

/// Codex's exec output text: header lines (`Chunk ID: …`, `Wall time: 0.05 seconds`,
/// `Process exited with code 0`, `Exit code: 0`, `Original token count: …`, …), the line
/// `Output:`, then what the command printed. `None` unless the first line is such a header and
/// an `Output:` line follows within a few lines.
fn exec_text(text: &str, cap: Cap) -> Option<ToolOutput> {
    let mut out = ToolOutput::default();
    let mut rest = text;
    for n in 0..MAX_HEADER_LINES {
        let (line, after) = match rest.split_once('\n') {
            Some((line, after)) => (line, Some(after)),
            None => (rest, None),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if n > 0 && line == "Output:" {
            (out.text, out.elided) = cap.cut_str(after.unwrap_or(""));
            return Some(out);
        }
        if !exec_header(line, &mut out) && n == 0 {
            return None;
        }
        rest = after?;
    }
    None
}

/// Read one header line of exec output into `out`; false when it is not one codex writes.
fn exec_header(line: &str, out: &mut ToolOutput) -> bool {
    if let Some(code) = line
        .strip_prefix("Process exited with code ")
        .or_else(|| line.strip_prefix("Exit code: "))
    {
        out.exit_code = code.trim().parse().ok();
        return true;
    }
    if let Some(time) = line.strip_prefix("Wall time: ") {
        let secs = time.trim().trim_end_matches("seconds").trim();
        out.duration_ms = secs.parse().ok().and_then(millis);
        return true;
    }
    [
        "Chunk ID: ",
        "Process running with session ID ",
        "Original token count: ",
        "Total output lines: ",
    ]
    .iter()
    .any(|prefix| line.starts_with(prefix))
}

/// Seconds as whole milliseconds, for a finite, non-negative count.
fn millis(secs: f64) -> Option<u64> {
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

/// The JSON older codex wrote as a shell output:
/// `{"output":"…","metadata":{"exit_code":0,"duration_seconds":0.1}}`.
fn legacy_json(text: &str, cap: Cap) -> Option<ToolOutput> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') && trimmed.ends_with('}')) {
        return None;
    }
    let value: Value = serde_json::from_str(trimmed).ok()?;
    let printed = value.get("output")?.as_str()?;
    let metadata = value.get("metadata").filter(|m| m.is_object())?;
    let (text, elided) = cap.cut_str(printed);
    Some(ToolOutput {
        exit_code: metadata
            .get("exit_code")
            .and_then(Value::as_i64)
            .and_then(|code| i32::try_from(code).ok()),
        duration_ms: metadata
            .get("duration_seconds")
            .and_then(Value::as_f64)
            .and_then(millis),
        text,
        elided,
    })
}

#[cfg(test)]
#[path = "tool_tests.rs"]
mod tests;
