//! Session names from `<home>/session_index.jsonl`: one `{"id","thread_name","updated_at"}` per
//! line, the last line for an id wins. Bad lines are skipped; a missing file, or anything but a
//! regular file, means no names.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use crate::rollout::lines::{LineReader, Step, DEFAULT_MAX_LINE};
use crate::rollout::rules::parse_line;

/// id -> name. An empty name clears an earlier one.
pub(crate) fn read_session_index(path: &Path) -> HashMap<String, String> {
    let mut names = HashMap::new();
    // Only a regular file: opening a named pipe would wait for a writer forever.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return names;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return names;
    };
    read_from(std::io::BufReader::new(file), &mut names);
    names
}

fn read_from(reader: impl BufRead, names: &mut HashMap<String, String>) {
    let mut lines = LineReader::new(reader, DEFAULT_MAX_LINE, true);
    while let Ok(step) = lines.next_line() {
        match step {
            Step::Eof => break,
            Step::TooLong { .. } | Step::PassedOver { .. } => continue,
            Step::Line { .. } => {}
        }
        let Some(value) = parse_line(lines.line()) else {
            continue;
        };
        let id = value.get("id").and_then(|v| v.as_str());
        let name = value.get("thread_name").and_then(|v| v.as_str());
        if let (Some(id), Some(name)) = (id, name) {
            if name.trim().is_empty() {
                names.remove(id);
            } else {
                names.insert(id.to_owned(), name.to_owned());
            }
        }
    }
}

/// The name of session `id` (whose metadata is `meta`) among `names`: none for a fork that has
/// a prompt of its own when its name is its parent's (codex gives a fork its parent's name).
pub(crate) fn own_name<'a>(
    id: &str,
    meta: &crate::rollout::record::Meta,
    has_prompt: bool,
    names: &'a std::collections::HashMap<String, String>,
) -> Option<&'a String> {
    let name = names.get(id)?;
    let parent = meta.forked_from_id.as_deref();
    let inherited = parent.is_some_and(|p| names.get(p) == Some(name));
    (!(inherited && has_prompt)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_entry_wins_and_bad_lines_pass() {
        let text = b"{\"id\":\"a\",\"thread_name\":\"one\"}\nnot json\n{\"id\":\"b\",\"thread_name\":\"bee\"}\n{\"id\":\"a\",\"thread_name\":\"two\"}\n[1]\n{\"id\":\"b\",\"thread_name\":\"";
        let mut names = HashMap::new();
        read_from(&text[..], &mut names);
        assert_eq!(names.get("a").map(String::as_str), Some("two"));
        assert_eq!(names.get("b").map(String::as_str), Some("bee"));
    }
}
