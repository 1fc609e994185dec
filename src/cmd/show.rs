//! `codex-picker show`: one session's whole conversation, as text, JSON lines or a Markdown
//! document, found by id, unique id prefix or path; a paginated fork's parent history first.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::report::{finish, report, report_rows, say};
use super::{output, EXIT_ERROR};
use crate::cli::{ShowArgs, StoreArgs};
use crate::export::MarkdownWriter;
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::rollout::transcript::{Entry, Parse, TranscriptOptions};
use crate::session::{self, SessionRow};
use crate::sources::Source;
use crate::store::fork;
use crate::store::walk::RolloutFile;
use crate::store::{self, FileIssue, Problem, Store};

/// The longest message the `show` text view prints whole; `--full` lifts it, JSON and Markdown
/// are always whole.
pub const SHOW_TEXT_CAP: usize = 64 << 10;

/// The session id a rollout file name carries.
fn file_id(file: &RolloutFile) -> Option<&str> {
    file.path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(session::uuid_from_file_name)
}

/// Why a `show` target names no one session.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// A file that is there and cannot be read.
    #[error("{}: {source}", crate::sanitize::path_line(.path))]
    Unreadable { path: PathBuf, source: io::Error },
    /// Neither a file nor text that can be an id.
    #[error("{}: no such file", crate::sanitize::path_line(.0))]
    NoSuchFile(PathBuf),
    #[error("an empty session id")]
    EmptyId,
    #[error("no session {target} in {} (archived sessions are searched too)", .home.display())]
    NotFound { target: String, home: PathBuf },
    #[error("{target} matches {count} sessions; give more of the id")]
    Ambiguous { target: String, count: usize },
}

/// The rollout a `show` target names: an existing file, or a session id or unique id prefix.
/// Several files with the same id (copies) resolve to the most recently written one. A file
/// whose name carries no id is matched by the id in its `session_meta`.
pub fn find_target(
    store: &Store,
    target: &std::ffi::OsStr,
    files: &[RolloutFile],
) -> Result<RolloutFile, TargetError> {
    let as_path = Path::new(target);
    if as_path.is_file() {
        return RolloutFile::at(as_path).map_err(|source| TargetError::Unreadable {
            path: as_path.to_path_buf(),
            source,
        });
    }
    // A path of any bytes is taken above; an id is text.
    let Some(target) = target.to_str() else {
        return Err(TargetError::NoSuchFile(as_path.to_path_buf()));
    };
    let needle = target.trim().to_ascii_lowercase();
    if needle.is_empty() {
        return Err(TargetError::EmptyId);
    }
    let matches_id = |id: &str| id.to_ascii_lowercase().starts_with(&needle);
    let mut matches: Vec<(&RolloutFile, String)> = files
        .iter()
        .filter_map(|f| {
            file_id(f)
                .filter(|id| matches_id(id))
                .map(|id| (f, id.to_owned()))
        })
        .collect();
    if matches.is_empty() {
        let names = std::collections::HashMap::new();
        matches = files
            .iter()
            .filter(|f| file_id(f).is_none())
            .filter_map(|f| {
                store::summarise(f, Until::FirstPrompt, &names)
                    .ok()
                    .map(|(row, _)| (f, row.id))
            })
            .filter(|(_, id)| matches_id(id))
            .collect();
    }
    let same_id = matches.windows(2).all(|w| w[0].1 == w[1].1);
    match matches.as_slice() {
        [] => Err(TargetError::NotFound {
            target: target.to_owned(),
            home: store.home.clone(),
        }),
        [(one, _)] => Ok((*one).clone()),
        copies if same_id => Ok(copies
            .iter()
            .map(|(f, _)| *f)
            .max_by(|a, b| {
                a.mtime_ms
                    .cmp(&b.mtime_ms)
                    .then_with(|| b.path.cmp(&a.path))
            })
            .cloned()
            .expect("at least two matches")),
        many => Err(TargetError::Ambiguous {
            target: target.to_owned(),
            count: many.len(),
        }),
    }
}

/// Warnings for the other files that carry the shown session's id.
fn other_copies(shown: &RolloutFile, files: &[RolloutFile]) -> Vec<FileIssue> {
    let Some(id) = file_id(shown) else {
        return Vec::new();
    };
    files
        .iter()
        .filter(|f| f.path != shown.path && file_id(f) == Some(id))
        .map(|f| {
            let problem = Problem::AlsoShown {
                id: id.to_owned(),
                shown: shown.path.clone(),
            };
            FileIssue::new(&f.path, problem)
        })
        .collect()
}

pub fn run_show(
    store_args: &StoreArgs,
    args: &ShowArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match store_args.resolve() {
        Ok(store) => store,
        Err(_) if Path::new(&args.target).is_file() => {
            // A rollout path works without a store; fork parents are then not followed.
            Store::codex(PathBuf::from("/nonexistent-codex-home"))
        }
        Err(e) => {
            say(err, &e);
            return EXIT_ERROR;
        }
    };
    let (files, _) = store.files(true);
    let file = match find_target(&store, &args.target, &files) {
        Ok(file) => file,
        Err(msg) => {
            say(err, &msg);
            return EXIT_ERROR;
        }
    };
    report(err, &other_copies(&file, &files));
    let shown = Shown {
        store: &store,
        file: &file,
        files: &files,
    };
    let verbose = store_args.verbose;
    if args.markdown {
        let view = Streamed::Markdown { tools: args.tools };
        show_streamed(&shown, verbose, view, out, err)
    } else if args.json {
        show_streamed(&shown, verbose, Streamed::Json, out, err)
    } else {
        show_text(&shown, verbose, args, out, err)
    }
}

/// The session being shown, and where it was found.
struct Shown<'a> {
    store: &'a Store,
    file: &'a RolloutFile,
    files: &'a [RolloutFile],
}

/// `show` as text: the transcript read whole (giant messages cut unless `--full`).
fn show_text(
    shown: &Shown<'_>,
    verbose: bool,
    args: &ShowArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let Shown { store, file, files } = *shown;
    let opts = TranscriptOptions {
        tools: args.tools,
        max_message_bytes: (!args.full).then_some(SHOW_TEXT_CAP),
        // What the text view keeps of each tool text is bounded (`--full` lifts it).
        max_tool_output_bytes: (!args.full).then_some(SHOW_TEXT_CAP),
        ..TranscriptOptions::default()
    };
    let transcript = match fork::read_transcript(file, &mut { files }, &opts, Parse::Every) {
        Ok(t) => t,
        Err(issue) => {
            report(err, &[issue]);
            return EXIT_ERROR;
        }
    };
    if transcript.meta.is_none() && !transcript.entries.iter().any(Entry::is_message) {
        // Decide as the listing does: any message line at all (injected context too) makes a
        // session, even when the transcript keeps none of them.
        let mut state = ScanState::default();
        let scanned = store::scan_file(file, &mut state, &ScanOptions::new(Until::End));
        if let Some(issue) = scanned.err().or_else(|| store::not_a_session(file, &state)) {
            report(err, &[issue]);
            return EXIT_ERROR;
        }
    }
    let state = ScanState {
        meta: transcript.meta.clone(),
        ..ScanState::default()
    };
    let names = store.names();
    let mut row = store::row_from_scan(file, &state, &names);
    if let Some(meta) = transcript
        .meta
        .as_ref()
        .filter(|_| row.source == Source::Codex)
    {
        // A fork's own prompt decides whether a name copied from its parent is its own.
        let prompted = transcript.own_entries().iter().any(Entry::is_prompt);
        row.name = store::names::own_name(&row.id, meta, prompted, &names).cloned();
    }
    let (user, assistant) = transcript.counts();
    row.user_messages = Some(user);
    row.assistant_messages = Some(assistant);
    if verbose && transcript.skipped_lines > 0 {
        report_rows(
            err,
            &[SessionRow {
                skipped_lines: transcript.skipped_lines,
                ..row.clone()
            }],
            true,
        );
    }
    let view = super::show_text::TextView {
        tools: args.tools,
        full: args.full,
    };
    let result = super::show_text::write_transcript_text(out, &row, &transcript, view);
    finish(result.and_then(|()| out.flush()), err)
}

/// The views `show` streams: every message exact, written as it is read.
#[derive(Debug, Clone, Copy)]
enum Streamed {
    /// One JSON line per message.
    Json,
    /// A Markdown document (`export`), tool blocks when `tools`.
    Markdown { tools: bool },
}

/// `show --json` and `show --markdown`: streamed out as the file is read, so a rollout of any
/// size is printed holding one line at a time. A first pass learns which message shapes the
/// file uses (and whether it is a session at all); a paginated fork's parent history comes
/// first.
fn show_streamed(
    shown: &Shown<'_>,
    verbose: bool,
    view: Streamed,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let file = shown.file;
    let mut state = ScanState::default();
    if let Err(issue) = store::scan_file(file, &mut state, &ScanOptions::new(Until::End)) {
        report(err, &[issue]);
        return EXIT_ERROR;
    }
    if let Some(issue) = store::not_a_session(file, &state) {
        report(err, &[issue]);
        return EXIT_ERROR;
    }
    if verbose && state.skipped_lines > 0 {
        let problem = Problem::SkippedLines(state.skipped_lines);
        report(err, &[FileIssue::new(&file.path, problem)]);
    }
    let streamed = match view {
        Streamed::Json => {
            let opts = TranscriptOptions {
                tools: false,
                ..TranscriptOptions::default()
            };
            let mut sink = |entry: &Entry| output::write_entry_json(out, file.source, entry);
            fork::stream_transcript(file, &state, &mut { shown.files }, &opts, &mut sink)
        }
        Streamed::Markdown { tools } => stream_markdown(shown, &state, tools, out),
    };
    match streamed {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            report(err, &[FileIssue::io(&file.path, &e)]);
            EXIT_ERROR
        }
        other => finish(other.and_then(|_| out.flush()), err),
    }
}

/// The Markdown document of a scanned session: its row (titled and counted as the list has it:
/// a fork by its own messages) for the header, then each entry as it is read.
fn stream_markdown(
    shown: &Shown<'_>,
    state: &ScanState,
    tools: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut row = store::row_from_scan(shown.file, state, &shown.store.names());
    fork::fill_from_parent(&mut row, &mut { shown.files });
    let fork_of = fork::parent_title(&row, &mut { shown.files });
    // The document is written in many small pieces; standard output flushes at each newline.
    let mut buffered = io::BufWriter::with_capacity(64 << 10, out);
    let mut writer = MarkdownWriter::new(&mut buffered, tools);
    writer.header(&row, fork_of.as_deref())?;
    let opts = TranscriptOptions {
        tools,
        ..TranscriptOptions::default()
    };
    let mut sink = |entry: &Entry| writer.entry(entry);
    fork::stream_transcript(shown.file, state, &mut { shown.files }, &opts, &mut sink)?;
    buffered.flush()
}
