use super::*;

fn texts(r: &Rendered) -> Vec<String> {
    r.lines.iter().map(PaneLine::text).collect()
}

fn parts_of(r: &Rendered, word: &str) -> Vec<Part> {
    r.lines
        .iter()
        .flat_map(|l| l.spans.iter())
        .filter(|(s, _)| s.contains(word))
        .map(|(_, p)| *p)
        .collect()
}

#[test]
fn headings_lose_their_hashes_and_emphasis_its_stars() {
    let r = render(
        "## 2.4 Running\n\n**Running** the `cargo test` step",
        60,
        Part::AssistantText,
    );
    assert_eq!(
        texts(&r),
        vec!["2.4 Running", "", "Running the cargo test step"]
    );
    assert_eq!(parts_of(&r, "2.4"), vec![Part::Heading(2)]);
    assert_eq!(parts_of(&r, "Running").last(), Some(&Part::Strong));
    assert_eq!(parts_of(&r, "cargo test"), vec![Part::InlineCode]);
}

#[test]
fn nested_and_numbered_lists_indent_their_items() {
    let md = "1. first\n2. second\n   - inner one\n   - inner two\n3. third";
    let r = render(md, 40, Part::AssistantText);
    assert_eq!(
        texts(&r),
        vec![
            "1. first",
            "2. second",
            "   ◦ inner one",
            "   ◦ inner two",
            "3. third"
        ]
    );
}

#[test]
fn a_long_item_wraps_under_its_text_not_its_marker() {
    let r = render("- alpha beta gamma delta", 12, Part::UserText);
    assert_eq!(texts(&r), vec!["• alpha beta", "  gamma", "  delta"]);
}

#[test]
fn quotes_links_and_rules() {
    let r = render(
        "> quoted words\n\nsee [the docs](https://example.com/x) now\n\n---\n\n<https://a.b/>",
        40,
        Part::AssistantText,
    );
    let t = texts(&r);
    assert_eq!(t[0], "▎ quoted words");
    assert_eq!(t[2], "see the docs (https://example.com/x) now");
    assert!(t[4].starts_with("────"));
    assert_eq!(t[6], "https://a.b/", "an autolink is shown once");
    assert_eq!(parts_of(&r, "https://example.com/x"), vec![Part::LinkUrl]);
}

#[test]
fn a_fenced_block_is_recorded_for_highlighting_with_its_lines() {
    let md = "Try:\n\n```rust\nfn main() {}\n```\n\nDone.";
    let r = render(md, 40, Part::AssistantText);
    assert_eq!(
        texts(&r),
        vec!["Try:", "", "╭ rust", "│ fn main() {}", "", "Done."]
    );
    assert_eq!(r.code.len(), 1);
    let block = &r.code[0];
    assert_eq!((block.first, block.count), (3, 1));
    let lit = block.highlighted();
    assert_eq!(lit.len(), block.count);
    assert_eq!(lit[0].text(), "│ fn main() {}");
    assert!(lit[0]
        .spans
        .iter()
        .any(|(s, p)| s == "fn" && *p == Part::Code(Code::Keyword)));
}

#[test]
fn tables_align_when_they_fit_and_become_records_when_not() {
    let md = "| name | size |\n|:-----|-----:|\n| a | 1 |\n| bbbb | 22 |";
    let r = render(md, 40, Part::AssistantText);
    assert_eq!(
        texts(&r),
        vec!["name │ size", "─────┼─────", "a    │    1", "bbbb │   22"]
    );
    let narrow = render(md, 8, Part::AssistantText);
    let t = texts(&narrow);
    assert!(t.contains(&"name: a".to_owned()), "{t:?}");
    assert!(t.contains(&"size: 22".to_owned()), "{t:?}");
}

#[test]
fn entities_cannot_smuggle_an_escape_character() {
    let r = render(
        "a &#27;[31m red &#x9b;2J b\u{1b}[0m",
        40,
        Part::AssistantText,
    );
    for line in &r.lines {
        for (s, _) in &line.spans {
            assert!(!s.chars().any(crate::sanitize::is_dangerous), "{s:?}");
        }
    }
}
