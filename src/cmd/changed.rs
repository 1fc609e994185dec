//! The sessions that changed a file, for `list --file PATH` and `blame FILE`: the path made
//! absolute against the current folder (as codex writes the paths it changed), each session's
//! changed files (from the rows, read whole by the index engine) matched against it, newest
//! first, and printed with the change and when.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use super::output;
use crate::rollout::usage::{Change, FileRef};
use crate::sanitize;
use crate::session::SessionRow;
use crate::store::locks::Snapshot;
use crate::timefmt::{self, Millis};

/// `path` as codex would have written it: absolute (a relative one taken from `cwd`), `.` and
/// `..` resolved by name, and the folder it is in resolved through symbolic links when it
/// exists (the file itself may be gone: a session may have deleted it).
pub(super) fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut clean = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                clean.pop();
            }
            other => clean.push(other),
        }
    }
    let real_parent = clean.parent().and_then(|p| p.canonicalize().ok());
    match (real_parent, clean.file_name()) {
        (Some(parent), Some(name)) => parent.join(name),
        _ => clean,
    }
}

/// What `row` did to the file at `path` (absolute): a change of that file, a rename to it, or
/// (when `path` is a folder) the first change of a file in it.
pub(super) fn change_of<'a>(row: &'a SessionRow, path: &str) -> Option<FileRef<'a>> {
    let files = &row.usage.as_ref()?.files;
    let is = |p: &str| p == path;
    let below = |p: &str| {
        p.strip_prefix(path.trim_end_matches('/'))
            .is_some_and(|rest| rest.starts_with('/'))
    };
    files
        .iter()
        .find(|f| is(f.path) || f.to.is_some_and(is))
        .or_else(|| {
            files
                .iter()
                .find(|f| below(f.path) || f.to.is_some_and(below))
        })
}

/// The sessions among `rows` (newest first) that changed `path`, each with its change.
pub(super) fn sessions_that_changed<'a>(
    rows: &'a [SessionRow],
    path: &str,
) -> Vec<(&'a SessionRow, FileRef<'a>)> {
    rows.iter()
        .filter_map(|r| Some((r, change_of(r, path)?)))
        .collect()
}

/// The change as a reader says it: `added`, `modified`, `deleted`, `renamed to <path>`.
pub(super) fn said(change: FileRef) -> String {
    match change.change {
        Change::Add => "added".to_owned(),
        Change::Modify => "modified".to_owned(),
        Change::Delete => "deleted".to_owned(),
        Change::Rename => format!(
            "renamed to {}",
            sanitize::one_line(change.to.unwrap_or("?"))
        ),
    }
}

/// One line per session: when it was last updated (age and date), its change, its id and
/// title; every text from a rollout neutralised.
pub(super) fn write_text(
    out: &mut dyn Write,
    found: &[(&SessionRow, FileRef)],
    now: Millis,
) -> io::Result<()> {
    for (row, change) in found {
        writeln!(
            out,
            "{:>4}  {}  {:<9} {}  {}",
            timefmt::relative(row.updated_ms, now),
            timefmt::format_short(row.updated_ms),
            said(*change),
            row.id,
            sanitize::one_line(row.title())
        )?;
    }
    Ok(())
}

/// One JSON line per session: the row as `list --json` writes it (`open_elsewhere` from
/// `locks`), with `file`, the change.
pub(super) fn write_json(
    out: &mut dyn Write,
    found: &[(&SessionRow, FileRef)],
    locks: &Snapshot,
) -> io::Result<()> {
    for (row, change) in found {
        let line = output::row_json_live(row, locks);
        let head = line.strip_suffix('}').unwrap_or(&line);
        let mut file = Vec::new();
        let mut o = crate::json_out::Object::new(&mut file);
        o.str("path", change.path)
            .str("change", change.change.as_str());
        if let Some(to) = &change.to {
            o.str("to", to);
        }
        o.end();
        out.write_all(head.as_bytes())?;
        out.write_all(b",\"file\":")?;
        out.write_all(&file)?;
        out.write_all(b"}\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::usage::{ChangedFile, Usage};

    #[test]
    fn a_path_is_made_absolute_by_name() {
        let cwd = Path::new("/nonexistent-base/w/proj");
        assert_eq!(
            absolute(Path::new("./src/../main.py"), cwd),
            PathBuf::from("/nonexistent-base/w/proj/main.py")
        );
        assert_eq!(
            absolute(Path::new("/nonexistent-base/a/./b"), cwd),
            PathBuf::from("/nonexistent-base/a/b")
        );
    }

    #[test]
    fn a_file_a_rename_and_a_folder_are_found() {
        let file = |path: &str, change, to: Option<&str>| ChangedFile {
            path: path.into(),
            change,
            to: to.map(str::to_owned),
        };
        let row = SessionRow {
            usage: Some(Box::new(Usage {
                files: [
                    file("/w/main.py", Change::Modify, None),
                    file("/w/src/util.py", Change::Rename, Some("/w/src/helpers.py")),
                ]
                .into_iter()
                .collect(),
                ..Usage::default()
            })),
            ..SessionRow::default()
        };
        let found = |p| change_of(&row, p).map(|c| c.path);
        assert_eq!(found("/w/main.py"), Some("/w/main.py"));
        assert_eq!(found("/w/src/helpers.py"), Some("/w/src/util.py"));
        assert_eq!(found("/w/src"), Some("/w/src/util.py"));
        assert_eq!(found("/w/src/"), Some("/w/src/util.py"));
        assert_eq!(found("/w/mai"), None);
        assert_eq!(found("/w/main.py.bak"), None);
    }
}
