//! `codex-picker blame FILE[:LINE]`: the sessions that changed a file, newest first; with a
//! line, the newest session whose applied patch added that line's current text, matched on the
//! added lines of the diffs codex stored (its `FileChange` items; an added file's content),
//! with the prompt of the turn that made the patch.
//!
//! The sessions that changed the file come from the rows ([`super::changed`]); only those
//! sessions' files are read again, for their diffs.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::report::{finish, report, say};
use super::{changed, list, EXIT_ERROR};
use crate::cli::{BlameArgs, StoreArgs};
use crate::rollout::event::{Event, FileChange};
use crate::rollout::reader::{ReadOptions, Records, Resume};
use crate::rollout::record::{Record, Role};
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::sanitize;
use crate::session::SessionRow;
use crate::store::walk::RolloutFile;
use crate::store::{self, engine};
use crate::timefmt;

pub fn run_blame(
    store_args: &StoreArgs,
    args: &BlameArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store = match store_args.resolve() {
        Ok(store) => store,
        Err(msg) => {
            say(err, &msg);
            return EXIT_ERROR;
        }
    };
    let (file, line) = split_target(&args.target);
    let cwd = std::env::current_dir().unwrap_or_default();
    let path = changed::absolute(&file, &cwd);
    let path_text = path.to_string_lossy().into_owned();
    let opts = engine::Options {
        cache: list::cache_file(&store, store_args, "rows"),
        ..engine::Options::list(store_args.archived)
    };
    let (rows, issues, _) = engine::rows(&store, &opts);
    report(err, &issues);
    let found = changed::sessions_that_changed(&rows, &path_text);
    let shown = sanitize::one_line(&path_text);
    let Some(n) = line else {
        let result = if found.is_empty() {
            writeln!(out, "no session changed {shown}")
        } else {
            changed::write_text(out, &found, timefmt::now_ms())
        };
        return finish(result, err);
    };
    let text = match line_of(&path, n) {
        Ok(text) => text,
        Err(why) => {
            say(err, format!("{}: {why}", path.display()));
            return EXIT_ERROR;
        }
    };
    let sessions: Vec<&SessionRow> = found.iter().map(|(row, _)| *row).collect();
    let result = explain(out, err, &sessions, &path_text, n, &text);
    finish(result, err)
}

/// `FILE:LINE` as the file and the line, when what follows the last colon is a number and the
/// whole is not a file's name; else the whole as the file.
fn split_target(target: &Path) -> (PathBuf, Option<usize>) {
    let text = target.to_string_lossy();
    if let Some((file, line)) = text.rsplit_once(':') {
        if let Ok(n) = line.parse::<usize>() {
            if !target.exists() && !file.is_empty() {
                return (PathBuf::from(file), Some(n));
            }
        }
    }
    (target.to_path_buf(), None)
}

/// Line `n` (from 1) of the file as it is now, without its line ending.
fn line_of(path: &Path, n: usize) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let count = text.lines().count();
    n.checked_sub(1)
        .and_then(|i| text.lines().nth(i))
        .map(|l| l.trim_end().to_owned())
        .ok_or_else(|| format!("has no line {n} (it has {count})"))
}

/// Say which session (of `sessions`, newest first) added `text` as line `n` of `path`, or
/// that none did.
fn explain(
    out: &mut dyn Write,
    err: &mut dyn Write,
    sessions: &[&SessionRow],
    path: &str,
    n: usize,
    text: &str,
) -> io::Result<()> {
    let shown = sanitize::one_line(path);
    writeln!(out, "line {n} of {shown}: {}", sanitize::one_line(text))?;
    if text.trim().is_empty() {
        return writeln!(
            out,
            "the line is blank: no session can be told by it ({} changed the file)",
            sessions.len()
        );
    }
    for row in sessions {
        match added_in(row, path, text) {
            Ok(Some(prompt)) => return write_hit(out, row, prompt.as_deref()),
            Ok(None) => {}
            Err(why) => say(&mut *err, format!("{}: {why}", row.path.display())),
        }
    }
    match sessions.len() {
        0 => writeln!(out, "no session explains it: no session changed this file"),
        1 => writeln!(
            out,
            "no session explains it: the one session that changed this file did not add this text"
        ),
        k => writeln!(
            out,
            "no session explains it: none of the {k} sessions that changed this file added this text"
        ),
    }
}

fn write_hit(out: &mut dyn Write, row: &SessionRow, prompt: Option<&str>) -> io::Result<()> {
    writeln!(
        out,
        "added by session {} (updated {})",
        row.id,
        timefmt::format_short(row.updated_ms)
    )?;
    writeln!(out, "  title:  {}", sanitize::one_line(row.title()))?;
    if let Some(cwd) = &row.meta.cwd {
        writeln!(out, "  folder: {}", sanitize::one_line(cwd))?;
    }
    let prompt = prompt.map_or("(no prompt before the patch)".into(), sanitize::one_line);
    writeln!(out, "  prompt: {prompt}")
}

/// Whether the session in `row`'s file applied a patch that added `text` as a line of `path`
/// (the last such patch counts); the prompt of that patch's turn.
fn added_in(row: &SessionRow, path: &str, text: &str) -> Result<Option<Option<String>>, String> {
    let file = RolloutFile::at(&row.path).map_err(|e| e.to_string())?;
    // Which shapes each role's messages come from, as the transcript reads them.
    let mut state = ScanState::default();
    store::scan_file(&file, &mut state, &ScanOptions::new(Until::End))
        .map_err(|i| i.problem.to_string())?;
    let sources = state.sources();
    let reader = store::open::open_at(&file.path, file.compressed, 0).map_err(|e| e.to_string())?;
    let opts = ReadOptions {
        usage: true,
        source: file.source,
        ..ReadOptions::default()
    };
    let mut records = Records::new(reader, opts, Resume::start());
    let mut prompt: Option<String> = None;
    let mut hit = None;
    while let Some(record) = records.next_record().map_err(|e| e.to_string())? {
        match record {
            Record::Message(msg)
                if msg.role == Role::User && sources.keeps(&msg) && msg.is_real_prompt() =>
            {
                prompt = Some(msg.text);
            }
            Record::Event(Event::PatchApplied {
                changes,
                failure: None,
                ..
            }) if changes.iter().any(|c| adds_line(c, path, text)) => {
                hit = Some(prompt.clone());
            }
            _ => {}
        }
    }
    Ok(hit)
}

/// Whether `change` (of one file) left `text` as an added line of `path`: a line of an added
/// file's content, or a `+` line of an update's diff (of the file, or of a file renamed to it).
fn adds_line(change: &FileChange, path: &str, text: &str) -> bool {
    let of_path = change.path == path || change.move_path.as_deref() == Some(path);
    let Some(diff) = change.diff.as_deref().filter(|_| of_path) else {
        return false;
    };
    let text = text.trim_end();
    match change.kind.as_str() {
        "add" => diff.lines().any(|l| l.trim_end() == text),
        "delete" => false,
        _ => diff
            .lines()
            .filter(|l| !l.starts_with("+++"))
            .filter_map(|l| l.strip_prefix('+'))
            .any(|l| l.trim_end() == text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(kind: &str, diff: &str, to: Option<&str>) -> FileChange {
        FileChange {
            path: "/w/a.py".into(),
            kind: kind.into(),
            move_path: to.map(str::to_owned),
            diff: Some(diff.into()),
        }
    }

    #[test]
    fn only_added_lines_of_the_file_count() {
        let update = change("update", "@@ -1,2 +1,2 @@\n-old\n+new  \n keep\n", None);
        assert!(adds_line(&update, "/w/a.py", "new"));
        assert!(!adds_line(&update, "/w/a.py", "old"));
        assert!(!adds_line(&update, "/w/a.py", "keep"));
        assert!(!adds_line(&update, "/w/b.py", "new"));
        let moved = change("update", "@@\n+x = 1\n", Some("/w/b.py"));
        assert!(adds_line(&moved, "/w/b.py", "x = 1"));
        let added = change("add", "line one\nline two\n", None);
        assert!(adds_line(&added, "/w/a.py", "line two"));
        let deleted = change("delete", "gone\n", None);
        assert!(!adds_line(&deleted, "/w/a.py", "gone"));
    }

    #[test]
    fn file_and_line_are_split_at_the_last_colon() {
        assert_eq!(
            split_target(Path::new("src/a.rs:12")),
            (PathBuf::from("src/a.rs"), Some(12))
        );
        assert_eq!(
            split_target(Path::new("src/a.rs")),
            (PathBuf::from("src/a.rs"), None)
        );
        assert_eq!(split_target(Path::new("a:b")), (PathBuf::from("a:b"), None));
    }
}
