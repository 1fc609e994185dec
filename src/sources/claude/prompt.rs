//! What a Claude Code user row (or a `system` `local_command` row) says besides tool results: a
//! human prompt, a slash command, a local command's output, a background task's report, the
//! summary written at a compaction, the user stopping a turn, or nothing worth showing (harness context: `isMeta` rows,
//! `<system-reminder>`, the local-command caveat, a sidechain's "Warmup").
//!
//! Pure and lenient: a field of the wrong type is absent; nothing panics.

use serde_json::Value;

/// What a row's text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Said {
    /// Typed by the user, with the images sent with it (a path or address, "" for inline data).
    Prompt { text: String, images: Vec<String> },
    /// `/name args`, run in Claude Code itself.
    Slash { name: String, args: String },
    /// What a local command printed.
    CommandOutput(String),
    /// A background task's report: the call it answers and what it said.
    TaskReport {
        call_id: Option<String>,
        text: String,
    },
    /// The summary a compaction wrote.
    CompactSummary(String),
    /// The user stopped the turn (Esc): `[Request interrupted by user]`.
    Interrupted,
    /// Where Claude Code stored an image sent inline with the prompt before
    /// (`[Image: source: PATH]`, a harness row).
    ImageSource(String),
    /// Nothing a reader shows.
    Nothing,
}

fn flag(row: &Value, key: &str) -> bool {
    row.get(key).and_then(Value::as_bool) == Some(true)
}

/// What a `user` row says, from its flags and its `message.content` (a string, or blocks whose
/// `text` blocks are joined with `\n`; a row of tool results alone says nothing here).
pub(crate) fn user_row(row: &Value) -> Said {
    let content = row.get("message").and_then(|m| m.get("content"));
    let (text, images) = match content {
        Some(Value::String(s)) => (s.clone(), Vec::new()),
        Some(Value::Array(blocks)) => blocks_text(blocks),
        _ => return Said::Nothing,
    };
    if flag(row, "isCompactSummary") {
        return Said::CompactSummary(summary_of(&text).to_owned());
    }
    if text.trim().is_empty() && images.is_empty() {
        return Said::Nothing;
    }
    if flag(row, "isMeta") || flag(row, "isVisibleInTranscriptOnly") {
        let source = text.trim().strip_prefix("[Image: source: ");
        return match source.and_then(|s| s.strip_suffix(']')) {
            Some(path) if !path.trim().is_empty() => Said::ImageSource(path.trim().to_owned()),
            _ => Said::Nothing,
        };
    }
    if flag(row, "isSidechain") && text.trim() == "Warmup" {
        return Said::Nothing;
    }
    match tagged(&text) {
        Some(said) => said,
        None => Said::Prompt { text, images },
    }
}

/// The summary Claude Code wrote at a compaction, without the words it puts around it for the
/// model (a first paragraph saying the session goes on, a `<system-reminder>`, and the
/// instructions after it); the text as written when it is not so framed.
fn summary_of(text: &str) -> &str {
    const OPENING: &str = "This session is being continued from a previous conversation";
    const CLOSING: &str = "\n\nIf you need specific details from before compaction";
    let Some(rest) = text.strip_prefix(OPENING) else {
        return text;
    };
    let mut rest = rest.split_once("\n\n").map_or("", |(_, after)| after);
    if rest.starts_with("<system-reminder>") {
        if let Some((_, after)) = rest.split_once("</system-reminder>") {
            rest = after;
        }
    }
    let summary = rest.split(CLOSING).next().unwrap_or(rest).trim();
    if summary.is_empty() {
        text
    } else {
        summary
    }
}

/// What a `system` `local_command` row's `content` says.
pub(crate) fn local_command(row: &Value) -> Said {
    let text = row.get("content").and_then(Value::as_str).unwrap_or("");
    tagged(text).unwrap_or(Said::Nothing)
}

/// The text blocks joined, and the images.
fn blocks_text(blocks: &[Value]) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut images = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let t = block.get("text").and_then(Value::as_str).unwrap_or("");
                if !t.is_empty() {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(t);
                }
            }
            Some("image") => images.push(image_source(block.get("source"))),
            _ => {}
        }
    }
    (text, images)
}

/// Where an image came from: its address or path, else "" (sent inline as data).
fn image_source(source: Option<&Value>) -> String {
    let field = |k| source.and_then(|s| s.get(k)).and_then(Value::as_str);
    field("url")
        .or_else(|| field("path"))
        .unwrap_or("")
        .to_owned()
}

/// A text Claude Code wrapped in its own tags; `None` for a prompt.
fn tagged(text: &str) -> Option<Said> {
    let start = text.trim_start();
    if start.starts_with("<command-name>") || start.starts_with("<command-message>") {
        let name = inner(start, "command-name").unwrap_or("").trim();
        let args = inner(start, "command-args").unwrap_or("").trim();
        let name = if name.starts_with('/') || name.is_empty() {
            name.to_owned()
        } else {
            format!("/{name}")
        };
        return Some(Said::Slash {
            name,
            args: args.to_owned(),
        });
    }
    for tag in ["local-command-stdout", "local-command-stderr"] {
        if start.starts_with(&format!("<{tag}>")) {
            return Some(Said::CommandOutput(
                inner(start, tag).unwrap_or("").to_owned(),
            ));
        }
    }
    if start.starts_with("[Request interrupted by user") {
        return Some(Said::Interrupted);
    }
    if start.starts_with("<task-notification>") {
        let text = inner(start, "result")
            .or_else(|| inner(start, "summary"))
            .unwrap_or("")
            .trim()
            .to_owned();
        let call_id = inner(start, "tool-use-id").map(|s| s.trim().to_owned());
        return Some(Said::TaskReport { call_id, text });
    }
    let harness = [
        "<local-command-",
        "<system-reminder>",
        "<bash-stdout>",
        "<bash-stderr>",
    ];
    harness
        .iter()
        .any(|p| start.starts_with(p))
        .then_some(Said::Nothing)
}

/// The text between `<tag>` and `</tag>`.
fn inner<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let from = text.find(&open)? + open.len();
    let to = text[from..].find(&close).map_or(text.len(), |at| from + at);
    Some(&text[from..to])
}

#[cfg(test)]
#[path = "prompt_tests.rs"]
mod tests;
