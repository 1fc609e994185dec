//! `show --markdown` on every session of the fixture stores (the real codex files, the
//! split-roles store, the committed hostile cases): the document parses back with
//! pulldown-cmark into one section per message, each `show --json` message in its own section,
//! in order, its first words there; no control character is printed.

use std::path::{Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde_json::Value;

use crate::common::*;

/// Every fixture store the other tests read.
fn stores() -> Vec<PathBuf> {
    let mut homes: Vec<PathBuf> = ["0.120.0", "0.145.0", "0.160.0", "0.171.0"]
        .iter()
        .map(|v| real_fixtures().join(v))
        .collect();
    homes.push(fixtures().join("split-roles"));
    homes.push(fixtures().join("hostile/home"));
    homes
}

fn show(home: &Path, path: &str, view: &[&str]) -> String {
    let mut args = vec!["show", path, "--codex-home", home.to_str().unwrap()];
    args.extend_from_slice(view);
    let out = run(&args);
    assert!(
        out.status.success(),
        "show {path} {view:?}: {}",
        stderr(&out)
    );
    stdout(&out)
}

/// A message section of a parsed document: its marker's number and role, and the text of its
/// events.
#[derive(Debug)]
struct Section {
    number: u32,
    role: String,
    text: String,
}

/// `<!-- message N role -->` as (N, role).
fn marker(html: &str) -> Option<(u32, String)> {
    let inner = html.trim_end().strip_prefix("<!-- message ")?;
    let (number, role) = inner.strip_suffix(" -->")?.split_once(' ')?;
    Some((number.parse().ok()?, role.to_owned()))
}

/// The sections of a document: each starts at a top-level HTML block that is a message
/// marker (a marker inside a container or a code block, or an HTML block's later line, starts
/// none). A section's text is the text of its events, code and raw HTML included, a space
/// after each block.
fn sections(md: &str) -> Vec<Section> {
    let mut found: Vec<Section> = Vec::new();
    let (mut depth, mut block_start) = (0usize, false);
    for event in Parser::new_ext(md, Options::all()) {
        let piece = match &event {
            Event::Start(tag) => {
                block_start = depth == 0 && matches!(tag, Tag::HtmlBlock);
                depth += 1;
                continue;
            }
            Event::End(end) => {
                depth -= 1;
                let block = matches!(
                    end,
                    TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::CodeBlock
                );
                (if block { " " } else { "" }).into()
            }
            Event::Html(html) if block_start => {
                if let Some((number, role)) = marker(html) {
                    let text = String::new();
                    found.push(Section { number, role, text });
                }
                html.clone()
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => t.clone(),
            _ => "".into(),
        };
        block_start = false;
        if let Some(section) = found.last_mut() {
            section.text.push_str(&piece);
        }
    }
    found
}

/// Text as its words: every run of letters and digits, so that what Markdown makes of the
/// punctuation around them (emphasis, headings, escapes, smart quotes) does not matter.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The words of a message's first 40 characters, as the export prints it (controls removed); a
/// word cut at the 40th character is left out.
fn first_words(text: &str) -> Vec<String> {
    let clean = codex_picker::sanitize::for_document(text);
    let head: String = clean.chars().take(40).collect();
    let mut first = words(&head);
    let cut_in_a_word = head.ends_with(char::is_alphanumeric)
        && clean[head.len()..].starts_with(char::is_alphanumeric);
    if cut_in_a_word {
        first.pop();
    }
    first
}

fn holds_in_order(haystack: &[String], needle: &[String]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|w| w == needle)
}

/// The Markdown of one session agrees with its JSON messages.
fn check_session(home: &Path, path: &str, tools: bool) {
    let messages = json_lines(&show(home, path, &["--json"]));
    let view: &[&str] = if tools {
        &["--markdown", "--tools"]
    } else {
        &["--markdown"]
    };
    let md = show(home, path, view);
    let what = format!("{path} {view:?}");
    assert!(
        !md.chars().any(codex_picker::sanitize::is_dangerous),
        "{what}: a control character is printed"
    );
    assert!(md.starts_with("# "), "{what}: a title first:\n{md}");
    let found = sections(&md);
    assert_eq!(
        found.len(),
        messages.len(),
        "{what}: one section a message\n{md}"
    );
    for (i, (section, message)) in found.iter().zip(&messages).enumerate() {
        assert_eq!(section.number as usize, i + 1, "{what}: numbered in order");
        assert_eq!(
            message["role"],
            section.role.as_str(),
            "{what}: message {}",
            i + 1
        );
        let text = message["text"].as_str().unwrap();
        let want = first_words(text);
        assert!(
            holds_in_order(&words(&section.text), &want),
            "{what}: message {} starts {want:?}, its section holds {:?}",
            i + 1,
            section.text
        );
    }
}

#[test]
fn every_fixture_session_parses_back_to_its_messages() {
    let mut checked = 0;
    for home in stores() {
        let rows: Vec<Value> = list_json(&home, &[]);
        assert!(!rows.is_empty(), "{}", home.display());
        for row in &rows {
            let path = row["path"].as_str().unwrap();
            check_session(&home, path, false);
            check_session(&home, path, true);
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} sessions checked");
}

#[test]
fn markdown_and_json_cannot_be_asked_together() {
    let home = real_fixtures().join("0.171.0");
    let home = home.to_str().unwrap();
    let out = run(&[
        "show",
        "01a22be8-1d47",
        "--markdown",
        "--json",
        "--codex-home",
        home,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}
