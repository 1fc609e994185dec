//! The one place a session is read from its file: a pass over a rollout (started, or read on
//! from a cached state), the not-a-session rule, and the row made of what the pass learnt. The
//! index engine, `show` and fork titling read sessions only through here, so another kind of
//! store would be another reader, not another pipeline.

use std::collections::HashMap;

use super::issues::{FileIssue, Problem};
use super::open;
use super::walk::RolloutFile;
use crate::rollout::record::Meta;
use crate::rollout::rules;
use crate::rollout::summary::{ScanOptions, ScanState, Until, UsageView};
use crate::rollout::usage::{ChangedFiles, Usage};
use crate::session::{self, SessionRow};
use crate::sources::claude::{self, chain, chain::OffChain};
use crate::sources::Source;
use crate::timefmt;
use std::sync::Arc;

/// Read size of a preview pass and of a full pass.
const PREVIEW_BUF: usize = 32 << 10;
const FULL_BUF: usize = 128 << 10;

/// Continue (or start) a pass over one file.
pub fn scan_file(
    file: &RolloutFile,
    state: &mut ScanState,
    opts: &ScanOptions,
) -> Result<(), FileIssue> {
    let issue = |e: std::io::Error| FileIssue::io(&file.path, &e);
    // A whole pass over a Claude Code transcript leaves out a rewind's abandoned branches;
    // when it has some, what an earlier pass counted may hold them: it starts again.
    let off_chain = match (file.source, opts.until) {
        (Source::Claude, Until::End) => off_chain(file),
        _ => None,
    };
    if off_chain.is_some() && state.offset > 0 {
        *state = ScanState::default();
    }
    let opts = &ScanOptions {
        source: file.source,
        off_chain,
        ..opts.clone()
    };
    let buf = match opts.until {
        Until::FirstPrompt => PREVIEW_BUF,
        Until::End => FULL_BUF,
    };
    let reader =
        open::open_at_with(&file.path, file.compressed, state.offset, buf).map_err(issue)?;
    // A read error part-way ends the pass like the end of the file once the file is known to
    // be a session (the reader's rule); before that it is the file's problem.
    state.scan(reader, opts).map_err(issue)
}

/// The rows of a Claude Code transcript's abandoned branches (a rewind's), when it has any;
/// `None` for a Codex rollout, a transcript that never branched, or one that cannot be read.
pub fn off_chain(file: &RolloutFile) -> Option<Arc<OffChain>> {
    if file.source != Source::Claude {
        return None;
    }
    let reader = open::open_at_with(&file.path, file.compressed, 0, FULL_BUF).ok()?;
    let off = chain::off_chain(reader).ok()?;
    (!off.is_empty()).then(|| Arc::new(off))
}

/// Why a scanned file is not a session, if it is not.
pub fn not_a_session(file: &RolloutFile, state: &ScanState) -> Option<FileIssue> {
    if state.meta.is_some() || state.saw_message {
        return None;
    }
    let problem = Problem::NotASession {
        size: file.size,
        skipped_lines: state.skipped_lines,
    };
    Some(FileIssue::new(&file.path, problem))
}

/// Build the row of a scanned file.
pub fn row_from_scan(
    file: &RolloutFile,
    state: &ScanState,
    names: &HashMap<String, String>,
) -> SessionRow {
    let usage = state.complete.then(|| Usage {
        files: state.files.as_slice().into(),
        tokens: state.tokens,
        models: state.models.clone(),
        over_time: state.over_time.clone(),
        limits: state.limits.clone(),
    });
    row_from_parts(
        file,
        state,
        state.meta.clone().unwrap_or_default(),
        state.first_prompt().map(str::to_owned),
        state.thread_name.clone(),
        usage,
        names,
    )
}

/// [`row_from_scan`] from a state that is no longer needed: its strings are moved, not copied.
pub fn row_from_state(
    file: &RolloutFile,
    mut state: ScanState,
    names: &HashMap<String, String>,
) -> SessionRow {
    let meta = state.meta.take().unwrap_or_default();
    let first = state.take_first_prompt();
    let thread_name = state.thread_name.take();
    let usage = state.complete.then(|| Usage {
        files: state.files.as_slice().into(),
        tokens: state.tokens,
        models: std::mem::take(&mut state.models),
        over_time: std::mem::take(&mut state.over_time),
        limits: std::mem::take(&mut state.limits),
    });
    row_from_parts(file, &state, meta, first, thread_name, usage, names)
}

/// The row a usage report reads of a session whose state was cached whole, made of the first
/// fields of that state alone ([`UsageView`]) and of what the cache's table says (its file, its
/// session id): its id, path, source, size, times, folder, branch and usage, the files it
/// changed excepted. Nothing else of the row is filled: it has no title, no counts.
pub fn usage_row(file: RolloutFile, id: String, view: UsageView) -> SessionRow {
    let meta = view.meta.unwrap_or_default();
    SessionRow {
        id,
        created_ms: meta.timestamp.and_then(timefmt::parse_rfc3339),
        updated_ms: file.mtime_ms,
        meta: Meta {
            cwd: meta.cwd.map(str::to_owned),
            git_branch: meta.git_branch.map(str::to_owned),
            ..Meta::default()
        },
        archived: file.archived,
        size: file.size,
        source: file.source,
        usage: Some(Box::new(Usage {
            files: ChangedFiles::default(),
            tokens: view.tokens,
            models: view.models,
            over_time: view.over_time,
            limits: view.limits,
        })),
        path: file.path,
        ..SessionRow::default()
    }
}

fn row_from_parts(
    file: &RolloutFile,
    state: &ScanState,
    mut meta: Meta,
    first: Option<String>,
    thread_name: Option<String>,
    usage: Option<Usage>,
    names: &HashMap<String, String>,
) -> SessionRow {
    // The file name is only needed when the metadata has no id.
    let id = meta.id.take().unwrap_or_else(|| {
        let file_name = file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        session::uuid_from_file_name(&file_name).map_or_else(|| file_name.clone(), str::to_owned)
    });
    let (user, assistant) = state.counts();
    let name = match file.source {
        Source::Codex => super::names::own_name(&id, &meta, first.is_some(), names).cloned(),
        Source::Claude => claude::custom_title(&file.path),
    }
    .or(thread_name);
    SessionRow {
        preview: first
            .as_deref()
            .map(rules::preview_line)
            .unwrap_or_default(),
        first_user_message: first,
        created_ms: meta.timestamp.as_deref().and_then(timefmt::parse_rfc3339),
        updated_ms: file.mtime_ms,
        // Claude Code's own picker lists every session, print-mode ones too.
        interactive: file.source == Source::Claude
            || session::is_interactive_source(meta.source.as_deref()),
        meta,
        archived: file.archived,
        name,
        user_messages: state.complete.then_some(user),
        assistant_messages: state.complete.then_some(assistant),
        size: file.size,
        skipped_lines: state.skipped_lines,
        usage: usage.map(Box::new),
        id,
        path: file.path.clone(),
        source: file.source,
        auto_title: state.auto_title.clone(),
    }
}

/// Summarise one file from the start.
pub fn summarise(
    file: &RolloutFile,
    until: Until,
    names: &HashMap<String, String>,
) -> Result<(SessionRow, ScanState), FileIssue> {
    let mut state = ScanState::default();
    scan_file(file, &mut state, &ScanOptions::new(until))?;
    if let Some(issue) = not_a_session(file, &state) {
        return Err(issue);
    }
    Ok((row_from_scan(file, &state, names), state))
}
