//! Which rows of a Claude Code transcript are off its conversation. Rows link to the row before
//! them by `parentUuid` (at a compaction, whose `parentUuid` is null, by `logicalParentUuid`); a
//! rewind or an edited prompt starts a new branch from an earlier row, and Claude Code goes on
//! from the last row written. The conversation is the chain that ends at the last row with a
//! `uuid`; rows of abandoned branches are off it. Read in a pass of its own before the records
//! are, as only the end of the file says which branch won.

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead};

use serde::Deserialize;

/// The uuids of rows not on the conversation (empty when the transcript never branched).
pub type OffChain = HashSet<Box<str>>;

#[derive(Deserialize)]
struct Link {
    uuid: Option<String>,
    #[serde(rename = "parentUuid")]
    parent: Option<String>,
    #[serde(rename = "logicalParentUuid")]
    logical_parent: Option<String>,
}

/// The rows of the transcript `reader` gives that are off its conversation. Lines that are not
/// JSON objects link nothing.
pub fn off_chain<R: BufRead>(mut reader: R) -> io::Result<OffChain> {
    let mut parent_of: HashMap<Box<str>, Option<Box<str>>> = HashMap::new();
    let mut order: Vec<Box<str>> = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        // Rows that cannot link anything are not parsed (most rows carry a uuid, though).
        if memchr::memmem::find(&line, b"\"uuid\"").is_none() {
            continue;
        }
        let Ok(link) = serde_json::from_slice::<Link>(&line) else {
            continue;
        };
        let Some(uuid) = link.uuid.filter(|u| !u.is_empty()) else {
            continue;
        };
        let parent = link
            .parent
            .or(link.logical_parent)
            .map(String::into_boxed_str);
        let uuid = uuid.into_boxed_str();
        if parent_of.insert(uuid.clone(), parent).is_none() {
            order.push(uuid);
        }
    }
    let mut on: HashSet<&str> = HashSet::new();
    let mut at = order.last().map(|u| &**u);
    while let Some(uuid) = at.filter(|u| !on.contains(u)) {
        on.insert(uuid);
        at = parent_of.get(uuid).and_then(|p| p.as_deref());
    }
    if on.len() == order.len() {
        return Ok(OffChain::new());
    }
    let off = order
        .iter()
        .filter(|u| !on.contains(&***u))
        .cloned()
        .collect();
    Ok(off)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(uuid: &str, parent: Option<&str>) -> String {
        let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
        format!(r#"{{"type":"user","uuid":"{uuid}","parentUuid":{parent}}}"#)
    }

    fn off(lines: &[String]) -> Vec<String> {
        let text = lines.join("\n");
        let mut got: Vec<String> = off_chain(text.as_bytes())
            .unwrap()
            .into_iter()
            .map(String::from)
            .collect();
        got.sort();
        got
    }

    #[test]
    fn a_straight_transcript_has_nothing_off_it() {
        let lines = [row("a", None), row("b", Some("a")), row("c", Some("b"))];
        assert!(off(&lines).is_empty());
    }

    #[test]
    fn a_rewind_leaves_the_abandoned_branch_off() {
        // a <- b <- c, then a rewind back to a: d <- e.
        let lines = [
            row("a", None),
            row("b", Some("a")),
            row("c", Some("b")),
            "{\"type\":\"custom-title\",\"customTitle\":\"x\"}".to_owned(),
            "not json".to_owned(),
            row("d", Some("a")),
            row("e", Some("d")),
        ];
        assert_eq!(off(&lines), ["b", "c"]);
    }

    #[test]
    fn a_compaction_links_through_its_logical_parent() {
        let lines = [
            row("a", None),
            row("b", Some("a")),
            r#"{"type":"system","subtype":"compact_boundary","uuid":"k","parentUuid":null,"logicalParentUuid":"b"}"#.to_owned(),
            row("c", Some("k")),
        ];
        assert!(off(&lines).is_empty());
    }
}
