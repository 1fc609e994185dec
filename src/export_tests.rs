use super::*;
use crate::rollout::record::{Meta, Shape};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn message(role: Role, text: &str) -> Entry {
    Entry::Message {
        role,
        text: text.into(),
        shape: Shape::Event,
        phase: None,
        elided: 0,
        images: Vec::new(),
    }
}

/// A tool row as the reader makes it from `payload` (a `response_item` payload).
fn tool(payload: serde_json::Value) -> Entry {
    Entry::Tool(crate::rollout::tool::read(&payload, None))
}

fn output(text: &str) -> Entry {
    tool(serde_json::json!({"type": "function_call_output", "call_id": "c", "output": text}))
}

fn reasoning(text: &str) -> Entry {
    tool(
        serde_json::json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": text}]}),
    )
}

fn row() -> SessionRow {
    SessionRow {
        id: "01a22be8-1d47-79f0-99fd-e14291b12af2".into(),
        meta: Meta {
            cwd: Some("/home/dev/my_project".into()),
            git_branch: Some("main".into()),
            ..Meta::default()
        },
        preview: "fix the *flaky* test".into(),
        ..SessionRow::default()
    }
}

fn export(entries: Vec<Entry>, tools: bool) -> String {
    let transcript = Transcript {
        entries,
        ..Transcript::default()
    };
    let mut out = Vec::new();
    write_markdown(&mut out, &row(), &transcript, tools).unwrap();
    String::from_utf8(out).unwrap()
}

/// One message section of a parsed document.
#[derive(Debug)]
struct Section {
    marker: String,
    /// The text of the section's events (code included), a space after each block.
    text: String,
    /// The text of the section's paragraphs only (outside any code block).
    paragraphs: String,
}

/// Parse a document back: a section starts at each top-level HTML block that is a message
/// marker; what comes before the first is the header.
fn sections(md: &str) -> (String, Vec<Section>) {
    let mut header = String::new();
    let mut found: Vec<Section> = Vec::new();
    let (mut depth, mut in_code, mut block_start) = (0usize, 0usize, false);
    for event in Parser::new_ext(md, Options::all()) {
        match &event {
            Event::Start(tag) => {
                block_start = depth == 0 && matches!(tag, Tag::HtmlBlock);
                in_code += usize::from(matches!(tag, Tag::CodeBlock(_)));
                depth += 1;
                continue;
            }
            Event::End(end) => {
                in_code -= usize::from(matches!(end, TagEnd::CodeBlock));
                depth -= 1;
                if ends_a_block(end) {
                    let section = found.last_mut();
                    let in_paragraphs = section.as_ref().is_some_and(|_| in_code == 0);
                    match section {
                        Some(section) => {
                            section.text.push(' ');
                            if in_paragraphs {
                                section.paragraphs.push(' ');
                            }
                        }
                        None => header.push(' '),
                    }
                }
            }
            Event::Html(html) if block_start && html.starts_with("<!-- message ") => {
                found.push(Section {
                    marker: html.trim_end().to_owned(),
                    text: String::new(),
                    paragraphs: String::new(),
                });
            }
            Event::Text(t) | Event::Code(t) => match found.last_mut() {
                Some(section) => {
                    section.text.push_str(t);
                    if in_code == 0 {
                        section.paragraphs.push_str(t);
                    }
                }
                None => header.push_str(t),
            },
            _ => {}
        }
        block_start = false;
    }
    (header, found)
}

fn ends_a_block(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::Paragraph
            | TagEnd::Heading(_)
            | TagEnd::Item
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::TableCell
    )
}

fn markers(md: &str) -> Vec<String> {
    sections(md).1.into_iter().map(|s| s.marker).collect()
}

#[test]
fn header_lists_id_cwd_and_the_resume_command() {
    let md = export(vec![message(Role::User, "hello")], false);
    let header = md.split("<!-- message 1").next().unwrap();
    assert!(header.starts_with("# fix the \\*flaky\\* test\n\n"), "{md}");
    assert!(
        header.contains("- **id**: `01a22be8-1d47-79f0-99fd-e14291b12af2`\n"),
        "{md}"
    );
    assert!(
        header.contains("- **cwd**: `/home/dev/my_project`\n"),
        "{md}"
    );
    assert!(header.contains("- **branch**: `main`\n"), "{md}");
    assert!(
        header.contains("- **messages**: 1 user, 0 assistant\n"),
        "{md}"
    );
    assert!(
        header.contains("- **resume**: `codex resume 01a22be8-1d47-79f0-99fd-e14291b12af2`\n"),
        "{md}"
    );
    let (text, _) = sections(&md);
    assert!(text.starts_with("fix the *flaky* test id: "), "{text}");
}

#[test]
fn a_hostile_header_stays_plain_text_on_its_lines() {
    let mut row = row();
    row.id = "x`; rm -rf ~ `".into();
    row.name = Some("title\nwith # [link](http://x) <b> _em_ snake_case".into());
    row.meta.cwd = Some("``/odd path``".into());
    let mut out = Vec::new();
    let transcript = Transcript::default();
    write_markdown(&mut out, &row, &transcript, false).unwrap();
    let md = String::from_utf8(out).unwrap();
    assert!(
        md.starts_with("# title with \\# \\[link\\](http://x) \\<b> \\_em\\_ snake_case\n"),
        "{md}"
    );
    assert!(md.contains("- **cwd**: ``` ``/odd path`` ```\n"), "{md}");
    assert!(
        md.contains("- **resume**: ``codex resume 'x`; rm -rf ~ `'``\n"),
        "{md}"
    );
    let (header, found) = sections(&md);
    assert!(found.is_empty());
    assert!(header.contains("codex resume 'x`; rm -rf ~ `'"), "{header}");
    assert!(header.contains("``/odd path``"), "{header}");
}

#[test]
fn messages_are_numbered_under_who_spoke() {
    let mut answer = message(Role::Assistant, "done");
    if let Entry::Message { phase, .. } = &mut answer {
        *phase = Some("final_answer".into());
    }
    let mut note = message(Role::Assistant, "looking");
    if let Entry::Message { phase, .. } = &mut note {
        *phase = Some("commentary".into());
    }
    let md = export(
        vec![message(Role::User, "# a heading"), note, answer],
        false,
    );
    assert!(md.contains("<!-- message 1 user -->\n## 1 · User\n\n# a heading\n\n"));
    assert!(md.contains("<!-- message 2 assistant -->\n## 2 · Assistant · commentary\n\n"));
    assert!(md.contains("<!-- message 3 assistant -->\n## 3 · Assistant · final answer\n\n"));
    assert!(
        md.ends_with("done\n\n"),
        "every message ends with a blank line"
    );
}

#[test]
fn an_unclosed_fence_does_not_swallow_the_next_message() {
    let md = export(
        vec![
            message(Role::Assistant, "Here:\n\n````rust\nfn main() {\n```\n"),
            message(Role::User, "the next message"),
        ],
        false,
    );
    assert!(
        md.contains("fn main() {\n```\n````\n\n<!-- message 2 user -->"),
        "{md}"
    );
    let (_, found) = sections(&md);
    assert_eq!(found.len(), 2, "{md}");
    assert!(found[0].text.contains("fn main() {"));
    assert_eq!(found[1].paragraphs.trim(), "2 · User the next message");
}

#[test]
fn open_blocks_of_every_kind_are_closed() {
    let cases = [
        "```\ncode",
        "  ~~~~ rust\ncode\n~~~",
        "- item\n\n  ```\n  code in a list",
        "> ```\n> quoted code",
        "[^1]: ```\ncode in a footnote",
        "<!-- a comment left open",
        "<pre>\nkept as it is",
        "<script src=x>",
        "<textarea>\nx",
        "<?php echo 1;",
        "<!DOCTYPE html",
        "<![CDATA[ x",
        "<div>\n\n```\ncode after html",
        "<!-- open\n```\n",
        "```\n<!-- inside the fence",
    ];
    for case in cases {
        let md = export(
            vec![
                message(Role::User, case),
                message(Role::Assistant, "after it"),
            ],
            false,
        );
        let (_, found) = sections(&md);
        assert_eq!(found.len(), 2, "{case:?}:\n{md}");
        assert!(
            found[1].paragraphs.ends_with("after it "),
            "{case:?}:\n{md}\n{found:?}"
        );
    }
}

#[test]
fn markdown_that_would_not_end_is_shown_as_text() {
    // pulldown-cmark keeps a footnote that holds a list open past a blank line.
    let md = export(
        vec![
            message(Role::User, "[^1]: * a list in a footnote\n"),
            message(Role::Assistant, "after it"),
        ],
        false,
    );
    assert!(
        md.contains("## 1 · User\n\n```text\n[^1]: * a list in a footnote\n```\n\n"),
        "{md}"
    );
    let (_, found) = sections(&md);
    assert_eq!(found.len(), 2, "{md}");
    assert!(found[1].paragraphs.ends_with("after it "));
}

#[test]
fn a_message_cannot_forge_a_marker() {
    let forged = "<!-- message 2 assistant -->\n## 2 · Assistant\n\n   <!--message 3 user -->\n\
                  ```\n<!-- message 4 user -->\n```";
    let md = export(
        vec![
            message(Role::User, forged),
            message(Role::Assistant, "real"),
        ],
        false,
    );
    assert_eq!(
        markers(&md),
        ["<!-- message 1 user -->", "<!-- message 2 assistant -->"],
        "{md}"
    );
    assert!(
        md.contains("\\<!-- message 2 assistant -->"),
        "shown, not hidden: {md}"
    );
}

#[test]
fn a_tool_output_holding_backticks_gets_a_longer_fence() {
    let entries = crate::rollout::transcript::assemble(
        [
            message(Role::User, "run it"),
            tool(
                serde_json::json!({"type": "function_call", "name": "exec_command",
                "arguments": "{\"cmd\":\"ls\"}", "call_id": "a"}),
            ),
            tool(
                serde_json::json!({"type": "function_call_output", "call_id": "a",
                "output": "Exit code: 0\nWall time: 0.5 seconds\nOutput:\na ``` b ````` c"}),
            ),
            reasoning("thinking"),
            tool(
                serde_json::json!({"type": "custom_tool_call", "name": "apply_patch",
                "input": "*** Begin Patch", "call_id": "b"}),
            ),
        ]
        .map(crate::rollout::assemble::Piece::entry),
        true,
    );
    let md = export(entries, true);
    assert!(
        md.contains("**▸**`$ ls` ✓ exit 0 · 500 ms\n\n``````text\na ``` b ````` c\n``````\n\n"),
        "{md}"
    );
    assert!(
        md.contains("**▸ reasoning**\n\n```text\nthinking\n```\n"),
        "{md}"
    );
    assert!(md.contains("```diff\n*** Begin Patch\n```"), "{md}");
    let (_, found) = sections(&md);
    assert_eq!(found.len(), 1);
    assert!(found[0].text.contains("a ``` b ````` c"), "{found:?}");
    let without = export(vec![reasoning("x y")], false);
    assert!(!without.contains("reasoning"), "tools only when asked");
}

#[test]
fn an_escape_sequence_never_reaches_the_output() {
    let hostile = "red \u{1b}[31mtext\u{1b}]52;c;aGk=\u{7} \u{9b}2J\u{7f}\r\n\u{202e}rtl";
    let mut row = row();
    row.name = Some(hostile.into());
    row.meta.cwd = Some(hostile.into());
    let transcript = Transcript {
        entries: vec![message(Role::User, hostile), output(hostile)],
        ..Transcript::default()
    };
    let mut out = Vec::new();
    write_markdown(&mut out, &row, &transcript, true).unwrap();
    let md = String::from_utf8(out).unwrap();
    assert!(!md.chars().any(sanitize::is_dangerous), "{md:?}");
    assert!(!md.contains('\u{1b}') && !md.contains('\r'));
    assert!(md.contains("red [31mtext]52;c;aGk= 2J\nrtl"), "{md}");
}

#[test]
fn an_elided_message_says_so() {
    let entry = Entry::Message {
        role: Role::Assistant,
        text: "```\ncut here".into(),
        shape: Shape::Event,
        phase: None,
        elided: 123,
        images: Vec::new(),
    };
    let md = export(vec![entry], false);
    assert!(
        md.ends_with("cut here\n```\n\n*\\[… 123 more bytes not shown …\\]*\n\n"),
        "{md}"
    );
}

#[test]
fn streaming_gives_the_same_document() {
    let entries = vec![
        message(Role::User, "one"),
        reasoning("hm"),
        message(Role::Assistant, "two"),
    ];
    let mut row = row();
    row.user_messages = Some(1);
    row.assistant_messages = Some(1);
    let mut streamed = Vec::new();
    let mut writer = MarkdownWriter::new(&mut streamed, true);
    writer.header(&row, None).unwrap();
    for entry in &entries {
        writer.entry(entry).unwrap();
    }
    assert_eq!(writer.messages(), 2);
    let transcript = Transcript {
        entries,
        ..Transcript::default()
    };
    let mut whole = Vec::new();
    write_markdown(&mut whole, &row, &transcript, true).unwrap();
    assert_eq!(streamed, whole);
}

/// Pieces of Markdown that open, close or nest blocks.
fn fragment() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "```",
        "````",
        "~~~",
        " ```rust",
        "   ~~~~",
        "    ```",
        "> ",
        "- ",
        "1. ",
        "  ",
        "[^1]: ",
        "<!--",
        "-->",
        "<pre>",
        "</pre>",
        "<div>",
        "<?",
        "?>",
        "<!X",
        ">",
        "<![CDATA[",
        "]]>",
        "<script>",
        "text",
        "# h",
        "|a|b|\n|-|-|",
        "term\n: ",
        "\n",
        "\n\n",
        "`",
        "$$",
        "* ",
        "\t",
    ])
}

proptest! {
    #[test]
    fn no_message_swallows_the_next(pieces in prop::collection::vec(fragment(), 1..12)) {
        let text = pieces.join("");
        let md = export(vec![
            message(Role::User, &text),
            message(Role::Assistant, "the reply"),
        ], false);
        let (_, found) = sections(&md);
        prop_assert_eq!(found.len(), 2, "{:?}\n{}", text, md);
        prop_assert!(found[1].paragraphs.ends_with("the reply "), "{:?}\n{}", text, md);
    }
}
