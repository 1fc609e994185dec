//! What a tool call or a marker says, in words, for every view: a one-line heading, how it
//! ended (a mark and a few words), and the facts under it (the files a patch changed, a
//! plan's steps, codex's reason for a failure, what a tool printed). The pane, `show` and the
//! Markdown export draw these and differ only in how; no view decides what an entry says.
//!
//! Pure. Texts are borrowed from the entry or made from it, never sanitised here: each view
//! neutralises what it draws for where it draws it.

use super::entry::{Marker, Trigger};
use super::record::{
    PatchFile, PatchOp, PlanStep, Status, StepChange, StepState, ToolCall, ToolDetail, ToolOutput,
    WebAction,
};

/// What a tool call or a marker says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Described<'a> {
    pub kind: Kind,
    /// What it did, on one line (a command's first line only).
    pub head: String,
    /// How it ended, when the file says.
    pub status: Option<Said>,
    /// The facts under the heading, in order.
    pub blocks: Vec<Block<'a>>,
}

/// What kind of entry, for a view to mark it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Command,
    Poll,
    Patch,
    Plan,
    Web,
    ToolSearch,
    Mcp,
    Goal,
    Image,
    Reasoning,
    Tool,
    Output,
    Compaction,
    Interrupted,
    Forked,
}

/// How a call ended: a mark and a few words (`✓` `142 ms`, `✗` `exit 1 · 3 ms`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Said {
    pub mark: &'static str,
    pub text: String,
    pub tone: Tone,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Ok,
    Failed,
    /// Running, or cut short: neither a success nor a failure.
    Neutral,
}

/// One fact under a heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block<'a> {
    /// A short fact on its own line (`in /work/proj`, a plan's explanation).
    Note(String),
    /// Why a call failed, whole, as codex wrote it (a view that shows little shows its first
    /// line).
    Reason(&'a str),
    /// The files a patch touches.
    Files(Vec<FileFact<'a>>),
    /// A plan's steps.
    Steps(Vec<StepFact<'a>>),
    /// A text as written: what a tool printed, the arguments it was given, a summary.
    Text {
        text: &'a str,
        lang: Lang,
        /// Bytes cut from its end (0 when whole).
        elided: u64,
    },
}

/// How a [`Block::Text`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    /// What a tool printed.
    Output,
    /// A command line.
    Shell,
    /// Arguments (often JSON).
    Arguments,
    /// A patch or a diff.
    Diff,
    /// Markdown (reasoning, a compaction summary).
    Markdown,
}

/// A file a patch touches: `A` added, `M` modified, `D` deleted, `R` renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileFact<'a> {
    pub mark: char,
    pub path: &'a str,
    /// A renamed file's new path.
    pub to: Option<&'a str>,
    /// Codex's diff of an updated file, or the content of an added or deleted one.
    pub diff: Option<&'a str>,
}

/// A plan step: its mark (`[x]` done, `[>]` in progress, `[ ]` pending), its text, and what
/// changed since the plan's last update (`was pending`, `new`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StepFact<'a> {
    pub mark: &'static str,
    pub done: bool,
    pub text: &'a str,
    pub change: Option<String>,
}

/// A duration as the views say it: `142 ms`, `1.9 s`.
pub(crate) fn duration(ms: u64) -> String {
    match ms {
        0..=999 => format!("{ms} ms"),
        _ => format!("{:.1} s", ms as f64 / 1000.0),
    }
}

/// The images sent with a prompt, on one line: `2 images: diagram.png, photo.png` (an image
/// sent inline is said as such). `None` when there are none.
pub(crate) fn images(images: &[String]) -> Option<String> {
    if images.is_empty() {
        return None;
    }
    let n = images.len();
    let names: Vec<&str> = images
        .iter()
        .map(|i| if i.is_empty() { "(inline)" } else { i.as_str() })
        .collect();
    let plural = if n == 1 { "image" } else { "images" };
    Some(format!("{n} {plural}: {}", names.join(", ")))
}

/// What a marker says.
pub(crate) fn marker(marker: &Marker) -> Described<'_> {
    match marker {
        Marker::Compaction { trigger, summary } => Described {
            kind: Kind::Compaction,
            head: match trigger {
                Trigger::Manual => "context compacted (/compact)",
                Trigger::Automatic => "context compacted automatically (the context was full)",
                Trigger::Unknown => "context compacted",
            }
            .to_owned(),
            status: None,
            blocks: summary
                .as_deref()
                .map(|text| Block::Text {
                    text,
                    lang: Lang::Markdown,
                    elided: 0,
                })
                .into_iter()
                .collect(),
        },
        Marker::Interrupted {
            reason,
            duration_ms,
        } => Described {
            kind: Kind::Interrupted,
            head: match reason.as_deref() {
                None | Some("interrupted") => "turn interrupted by the user".to_owned(),
                Some(other) => format!("turn stopped ({other})"),
            },
            status: Some(Said {
                mark: "⏹",
                text: duration_ms
                    .map(|ms| format!("after {}", duration(ms)))
                    .unwrap_or_default(),
                tone: Tone::Neutral,
            }),
            blocks: Vec::new(),
        },
        Marker::Forked {
            parent_id,
            parent_title,
        } => Described {
            kind: Kind::Forked,
            head: match parent_title {
                Some(title) => format!("forked here from “{title}”"),
                None => format!("forked here from session {parent_id}"),
            },
            status: None,
            blocks: Vec::new(),
        },
    }
}

/// What a tool call (or an output, or reasoning) says.
pub(crate) fn tool(call: &ToolCall) -> Described<'_> {
    let mut d = Described {
        kind: Kind::Tool,
        head: String::new(),
        status: status(call),
        blocks: Vec::new(),
    };
    // What the call asked for says how much of its output is worth showing.
    let shown_output = match &call.detail {
        ToolDetail::Command { .. } | ToolDetail::Poll { .. } => shell(call, &mut d),
        ToolDetail::Patch { .. } | ToolDetail::Plan(_) => edit(call, &mut d),
        _ => other(call, &mut d),
    };
    if let Status::Failed(reason) = &call.status {
        // The whole reason, first: the heading says only its first line (a patch's says only
        // that it was not applied).
        if reason.trim().contains('\n') || d.kind == Kind::Patch {
            d.blocks.insert(0, Block::Reason(reason));
        }
    }
    if let Some(out) = shown_output {
        d.blocks.extend(printed(out));
    }
    d.blocks
        .retain(|b| !matches!(b, Block::Text { text, .. } if text.trim().is_empty()));
    d
}

/// A command or a poll of one: what ran, where, and whether it was left running.
fn shell<'a>(call: &'a ToolCall, d: &mut Described<'a>) -> Option<&'a ToolOutput> {
    match &call.detail {
        ToolDetail::Command {
            command,
            workdir,
            session,
        } => {
            d.kind = Kind::Command;
            d.head = format!("$ {}", first_line(command));
            if command.trim_end().contains('\n') {
                d.blocks.push(text(command, Lang::Shell, 0));
            }
            if let Some(dir) = workdir {
                d.blocks.push(Block::Note(format!("in {dir}")));
            }
            if let Some(session) = session {
                d.blocks.push(Block::Note(format!(
                    "ran in the background (session {session})"
                )));
            }
        }
        ToolDetail::Poll {
            session,
            chars,
            command,
        } => {
            d.kind = Kind::Poll;
            let what = match command {
                Some(c) => format!("$ {}", first_line(c)),
                None => format!("session {session}"),
            };
            d.head = if chars.is_empty() {
                format!("waited on {what}")
            } else {
                format!("typed {chars:?} into {what}")
            };
        }
        _ => {}
    }
    call.output.as_deref()
}

/// A patch (the files it changed, or would have) or a plan (its steps). Their outputs only
/// repeat the files, say `Plan updated`, or are the reason a patch failed (said already).
fn edit<'a>(call: &'a ToolCall, d: &mut Described<'a>) -> Option<&'a ToolOutput> {
    match &call.detail {
        ToolDetail::Patch {
            files,
            patch,
            elided,
        } => {
            d.kind = Kind::Patch;
            let n = files.len();
            // Codex's patch tool, or Claude Code's edit tool by its name.
            let tool = match call.kind.as_str() {
                k @ ("Edit" | "MultiEdit" | "Write" | "NotebookEdit") => k,
                _ => "apply_patch",
            };
            d.head = format!("{tool}: {n} file{}", if n == 1 { "" } else { "s" });
            d.blocks
                .push(Block::Files(files.iter().map(file_fact).collect()));
            if files.iter().all(|f| f.diff.is_none()) {
                d.blocks.push(text(patch, Lang::Diff, *elided));
            }
        }
        ToolDetail::Plan(plan) => {
            d.kind = Kind::Plan;
            let done = plan
                .steps
                .iter()
                .filter(|s| s.state == StepState::Completed)
                .count();
            d.head = format!("plan: {done} of {} steps done", plan.steps.len());
            if let Some(why) = &plan.explanation {
                d.blocks.push(Block::Note(why.clone()));
            }
            d.blocks
                .push(Block::Steps(plan.steps.iter().map(step_fact).collect()));
        }
        _ => {}
    }
    None
}

/// Every other kind: what it searched, opened, called or set.
fn other<'a>(call: &'a ToolCall, d: &mut Described<'a>) -> Option<&'a ToolOutput> {
    let (kind, head) = match &call.detail {
        ToolDetail::WebSearch(action) => (
            Kind::Web,
            match action {
                WebAction::Search { query } => format!("web search: {query}"),
                WebAction::OpenPage { url } => format!("opened {url}"),
                WebAction::FindInPage { url, pattern } => format!("found “{pattern}” in {url}"),
                WebAction::Other(what) => format!("web search {}", first_line(what)),
            },
        ),
        ToolDetail::ToolSearch { query } => (Kind::ToolSearch, format!("tool search: {query}")),
        ToolDetail::Mcp {
            server,
            tool,
            arguments,
        } => {
            d.blocks.push(text(arguments, Lang::Arguments, 0));
            (Kind::Mcp, format!("{server} · {tool} (MCP)"))
        }
        ToolDetail::Goal {
            action,
            objective,
            status,
        } => (
            Kind::Goal,
            match (action.as_str(), objective, status) {
                ("create_goal", Some(o), _) => format!("goal set: {o}"),
                (_, _, Some(s)) => format!("goal marked {s}"),
                (_, Some(o), None) => format!("goal: {o}"),
                (a, None, None) => a.replace('_', " "),
            },
        ),
        ToolDetail::ViewImage { path } => (Kind::Image, format!("viewed image {path}")),
        ToolDetail::Reasoning { text: summary } => {
            d.blocks.push(text(summary, Lang::Markdown, 0));
            (Kind::Reasoning, "reasoning".to_owned())
        }
        ToolDetail::Other { name, arguments } => {
            d.blocks.push(text(arguments, Lang::Arguments, 0));
            let name = if name.is_empty() { &call.kind } else { name };
            (Kind::Tool, name.clone())
        }
        ToolDetail::Output(out) => {
            let head = match &out.name {
                Some(name) => format!("output of {name}"),
                None => "output".to_owned(),
            };
            d.kind = Kind::Output;
            d.head = head;
            return Some(out);
        }
        ToolDetail::Command { .. } | ToolDetail::Poll { .. } | ToolDetail::Patch { .. } => {
            (Kind::Tool, call.kind.clone())
        }
        ToolDetail::Plan(_) => (Kind::Plan, call.kind.clone()),
    };
    d.kind = kind;
    d.head = head;
    call.output.as_deref()
}

/// What an output adds: the images it holds, then its text.
fn printed(out: &ToolOutput) -> Vec<Block<'_>> {
    let mut blocks = Vec::new();
    if out.images > 0 {
        let n = out.images;
        let plural = if n == 1 { "an image" } else { "images" };
        let count = if n == 1 {
            String::new()
        } else {
            format!("{n} ")
        };
        blocks.push(Block::Note(format!("{count}{plural} shown to the model")));
    }
    blocks.push(text(&out.text, Lang::Output, out.elided));
    blocks
}

fn text(text: &str, lang: Lang, elided: u64) -> Block<'_> {
    Block::Text { text, lang, elided }
}

/// How a call ended, in words.
fn status(call: &ToolCall) -> Option<Said> {
    let time = call.duration_ms.map(duration);
    let exit = call.output.as_ref().and_then(|o| o.exit_code);
    let join = |first: String| match &time {
        Some(t) if first.is_empty() => t.clone(),
        Some(t) => format!("{first} · {t}"),
        None => first,
    };
    Some(match &call.status {
        Status::Unknown => return None,
        Status::Ok => Said {
            mark: "✓",
            text: join(match exit {
                Some(code) => format!("exit {code}"),
                None => String::new(),
            }),
            tone: Tone::Ok,
        },
        Status::Failed(reason) => Said {
            mark: "✗",
            text: join(match &call.detail {
                // Nothing was changed; the reason follows the heading.
                ToolDetail::Patch { .. } => "not applied".to_owned(),
                _ if reason.starts_with("exit ") => reason.clone(),
                _ => format!("failed: {}", first_line(reason)),
            }),
            tone: Tone::Failed,
        },
        Status::Running => Said {
            mark: "⟳",
            text: "still running".to_owned(),
            tone: Tone::Neutral,
        },
        Status::Interrupted => Said {
            mark: "⏹",
            text: join("interrupted".to_owned()),
            tone: Tone::Neutral,
        },
    })
}

fn first_line(text: &str) -> &str {
    let text = text.trim_start_matches('\n');
    let line = text.split('\n').next().unwrap_or("");
    line.strip_suffix('\r').unwrap_or(line)
}

fn file_fact(f: &PatchFile) -> FileFact<'_> {
    let (mark, to) = match &f.op {
        PatchOp::Add => ('A', None),
        PatchOp::Update => ('M', None),
        PatchOp::Delete => ('D', None),
        PatchOp::Move { to } => ('R', Some(to.as_str())),
    };
    FileFact {
        mark,
        path: &f.path,
        to,
        diff: f.diff.as_deref(),
    }
}

/// A step's mark, its state in words for one that is neither done nor pending, and what
/// changed.
fn step_fact(s: &PlanStep) -> StepFact<'_> {
    let state_word = |state: &StepState| match state {
        StepState::Pending => "pending".to_owned(),
        StepState::InProgress => "in progress".to_owned(),
        StepState::Completed => "done".to_owned(),
        StepState::Other(other) => other.clone(),
    };
    let mark = match &s.state {
        StepState::Completed => "[x]",
        StepState::InProgress => "[>]",
        StepState::Pending | StepState::Other(_) => "[ ]",
    };
    let change = match &s.change {
        StepChange::Same => None,
        StepChange::New => Some("new".to_owned()),
        StepChange::Was(before) => Some(format!("was {}", state_word(before))),
    };
    let change = match (&s.state, change) {
        (StepState::Other(other), None) => Some(other.clone()),
        (StepState::Other(other), Some(c)) => Some(format!("{other}, {c}")),
        (_, c) => c,
    };
    StepFact {
        mark,
        done: s.state == StepState::Completed,
        text: &s.text,
        change,
    }
}

#[cfg(test)]
#[path = "describe_tests.rs"]
mod tests;
