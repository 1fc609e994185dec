//! Finding Claude Code's sessions: `<projects>/<project folder>/<session id>.jsonl`, exactly two
//! levels down. A subagent's transcript (`agent-*.jsonl` beside the sessions in older versions,
//! `<session id>/subagents/agent-*.jsonl` now) belongs to its parent and is not a session; nor is
//! any other file. walkdir lists the folders (links not followed); each folder's files are looked
//! at (size, modification time) through the open folder, as Codex's are, the folders on the
//! caller's rayon pool. A missing `projects/` folder is no problem:
//! the user has no Claude Code sessions.

use std::path::Path;

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use walkdir::WalkDir;

use super::names::is_session_name;
use crate::sources::Source;
use crate::store::walk::{look_in_folder, RolloutFile};
use crate::store::FileIssue;

/// Every session file under `projects`, with its size and modification time when `look`.
pub fn walk(projects: &Path, look: bool) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let mut listed: Vec<RolloutFile> = Vec::new();
    let mut issues = Vec::new();
    if !projects.is_dir() {
        return (listed, issues);
    }
    let walker = WalkDir::new(projects)
        .min_depth(2)
        .max_depth(2)
        .follow_links(false);
    for entry in walker {
        match entry {
            Ok(entry) => {
                let name = entry.file_name().as_encoded_bytes();
                if entry.file_type().is_file() && is_session_name(name) {
                    listed.push(RolloutFile::listed_from(entry.into_path(), Source::Claude));
                }
            }
            Err(err) => issues.push(FileIssue::walk(projects, &err)),
        }
    }
    if !look {
        return (listed, issues);
    }
    // walkdir lists a folder's entries together: one group a folder.
    let mut folders: Vec<Vec<RolloutFile>> = Vec::new();
    for file in listed {
        match folders.last_mut() {
            Some(last) if last[0].path.parent() == file.path.parent() => last.push(file),
            _ => folders.push(vec![file]),
        }
    }
    let looked: Vec<Vec<Result<RolloutFile, FileIssue>>> =
        folders.into_par_iter().map(look_in_folder).collect();
    let mut files = Vec::new();
    for one in looked.into_iter().flatten() {
        match one {
            Ok(file) => files.push(file),
            Err(issue) => issues.push(issue),
        }
    }
    (files, issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_session_files_two_levels_down_are_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let projects = dir.path().join("projects");
        let proj = projects.join("-home-u-work-proj");
        let id = "7468aedd-36de-4516-a995-31e1b46b6cf4";
        std::fs::create_dir_all(proj.join(id).join("subagents")).unwrap();
        for name in [
            format!("{id}.jsonl"),
            "agent-a3682dea.jsonl".to_owned(),
            "notes.txt".to_owned(),
            format!("{id}/subagents/agent-a3682dea.jsonl"),
            format!("{id}/custom-title.json"),
        ] {
            std::fs::write(proj.join(name), "{}\n").unwrap();
        }
        std::fs::write(projects.join(format!("{id}.jsonl")), "{}\n").unwrap();
        let (files, issues) = walk(&projects, true);
        assert!(issues.is_empty(), "{issues:?}");
        let paths: Vec<_> = files.iter().map(|f| f.path.clone()).collect();
        assert_eq!(paths, vec![proj.join(format!("{id}.jsonl"))]);
        assert_eq!(files[0].source, Source::Claude);
        assert_eq!(files[0].size, 3);
    }

    #[test]
    fn a_missing_projects_folder_is_no_problem() {
        let dir = tempfile::tempdir().unwrap();
        let (files, issues) = walk(&dir.path().join("projects"), true);
        assert!(files.is_empty() && issues.is_empty());
    }
}
