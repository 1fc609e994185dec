//! Tool calls, their outputs and reasoning summaries, each made one line for a transcript view
//! that shows them collapsed.

use serde_json::Value;

use super::record::ToolCall;
use super::rules::{self, clip};

/// A one-line summary of a tool or reasoning row.
pub fn summarise(payload: &Value) -> ToolCall {
    let kind = payload
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("tool")
        .to_owned();
    let pick = |v: Option<&Value>| -> String {
        match v {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(items)) => rules::content_text(&Value::Array(items.clone())),
            Some(other @ Value::Object(_)) => other.to_string(),
            _ => String::new(),
        }
    };
    let body = match kind.as_str() {
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
    };
    let flat = rules::preview_line(clip(&body, 4096));
    let size = body.len();
    let mut summary = clip(&flat, 200).to_owned();
    if flat.len() > summary.len() {
        summary.push('…');
    }
    if size > 4096 {
        summary.push_str(&format!(" ({size} bytes)"));
    }
    ToolCall { kind, summary }
}
