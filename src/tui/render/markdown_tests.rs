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

mod never {
    use super::*;
    use proptest::prelude::*;

    /// Markdown-ish text: syntax pieces, entities, controls and escapes, wide characters.
    fn markdownish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("# ".to_owned()),
            Just("\n".to_owned()),
            Just("\n\n".to_owned()),
            Just("- ".to_owned()),
            Just("1. ".to_owned()),
            Just("> ".to_owned()),
            Just("```rust\n".to_owned()),
            Just("```\n".to_owned()),
            Just("~~~py\n".to_owned()),
            Just("| a | b |\n|---|:-:|\n".to_owned()),
            Just("**".to_owned()),
            Just("_".to_owned()),
            Just("`".to_owned()),
            Just("[x](http://e/\u{1b}]8;;)".to_owned()),
            Just("&#27;[2J".to_owned()),
            Just("&#x9b;".to_owned()),
            Just("\u{1b}[31m".to_owned()),
            Just("\u{9b}1;2H".to_owned()),
            Just("\u{202e}".to_owned()),
            Just("\t".to_owned()),
            Just("\r".to_owned()),
            Just("<b>html</b>".to_owned()),
            Just("日本語🚀".to_owned()),
            "[a-z ]{0,12}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn rendering_never_lets_a_control_character_through(text in markdownish(), width in 1usize..100) {
            let r = render(&text, width, Part::AssistantText);
            let mut lines = r.lines.clone();
            for block in &r.code {
                lines.extend(block.highlighted());
            }
            for line in &lines {
                for (s, _) in &line.spans {
                    prop_assert!(!s.chars().any(|c| crate::sanitize::is_dangerous(c) || c == '\t' || c == '\n'), "{:?}", s);
                }
            }
            for block in &r.code {
                prop_assert_eq!(block.highlighted().len(), block.count);
            }
        }
    }
}
