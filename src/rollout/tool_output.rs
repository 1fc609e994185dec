//! A tool output row as [`ToolOutput`]: what the tool printed without codex's header lines, the
//! exit code and wall time those lines report, the session id of a command left running in the
//! background, the images an output holds, and the tools a `tool_search` found.
//!
//! Pure and lenient like [`super::tool`]; every long text is cut to the reader's cap.

use serde_json::Value;

use super::record::ToolOutput;
use super::text;
use super::text::Cap;

/// The output of an `*_output` row.
pub(super) fn read(payload: &Value, cap: Cap) -> ToolOutput {
    let mut images = 0;
    let text = match payload.get("output") {
        Some(Value::String(s)) => s.clone(),
        Some(items @ Value::Array(blocks)) => {
            images = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("input_image"))
                .count();
            text::content_text(items)
        }
        Some(other @ Value::Object(_)) => other.to_string(),
        _ => found_tools(payload.get("tools")),
    };
    let mut out = parse(text, cap);
    out.images = u32::try_from(images).unwrap_or(u32::MAX);
    out.name = payload
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .map(|n| cap.mark(n.to_owned()));
    out
}

/// The tools a `tool_search_output` lists, one line each (`server: tool, tool`).
fn found_tools(tools: Option<&Value>) -> String {
    let Some(Value::Array(tools)) = tools else {
        return String::new();
    };
    let name = |v: &Value| v.get("name").and_then(Value::as_str).map(str::to_owned);
    let lines: Vec<String> = tools
        .iter()
        .filter_map(|t| match t.get("tools") {
            Some(Value::Array(inner)) => {
                let names: Vec<String> = inner.iter().filter_map(name).collect();
                Some(format!("{}: {}", name(t)?, names.join(", ")))
            }
            _ => name(t),
        })
        .collect();
    lines.join("\n")
}

/// An output row's text, read as codex's unified exec text or its older JSON when it is one.
pub(super) fn parse(text: String, cap: Cap) -> ToolOutput {
    if let Some(out) = exec_text(&text, cap).or_else(|| legacy_json(&text, cap)) {
        return out;
    }
    let (text, elided) = cap.cut(text);
    ToolOutput {
        text,
        elided,
        ..ToolOutput::default()
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
        if !exec_header(line, &mut out, cap) && n == 0 {
            return None;
        }
        rest = after?;
    }
    None
}

/// Read one header line of exec output into `out`; false when it is not one codex writes.
fn exec_header(line: &str, out: &mut ToolOutput, cap: Cap) -> bool {
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
    if let Some(session) = line.strip_prefix("Process running with session ID ") {
        let session = session.trim();
        out.session = (!session.is_empty()).then(|| cap.mark(session.to_owned()));
        return true;
    }
    [
        "Chunk ID: ",
        "Original token count: ",
        "Total output lines: ",
    ]
    .iter()
    .any(|prefix| line.starts_with(prefix))
}

/// Seconds as whole milliseconds, for a finite, non-negative count.
pub(super) fn millis(secs: f64) -> Option<u64> {
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
        ..ToolOutput::default()
    })
}

/// What a goal tool's JSON answer says, in words: `Keep main.py printing a greeting · active`,
/// with the tokens and time spent on it when codex counted any. `None` when the text is not a
/// goal (the output is then shown as written).
pub(super) fn goal_said(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let goal = value.get("goal").filter(|g| g.is_object())?;
    let field = |key: &str| {
        goal.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let mut said = vec![field("objective")?.to_owned()];
    said.extend(field("status").map(str::to_owned));
    let count = |key: &str| goal.get(key).and_then(Value::as_u64).filter(|&n| n > 0);
    said.extend(count("tokensUsed").map(|n| format!("{n} tokens used")));
    said.extend(count("timeUsedSeconds").map(|s| format!("{s} s spent")));
    Some(said.join(" · "))
}
