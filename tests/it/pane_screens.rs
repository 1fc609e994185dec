//! Screens of the conversation pane on the demo store (no-colour theme unless a test says):
//! Markdown, highlighted code, tool calls, reasoning, find, the header, a narrow terminal.

use codex_picker::tui::action::{Action, HitStep};
use codex_picker::tui::app::{App, Effect};
use codex_picker::tui::ui::{self, Theme};
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

use super::screens::{all, app, demo, screen, settle, text_of, type_text, Demo};

/// The picker on the demo store with the session matching `query` read in the pane.
fn opened(query: &str, w: u16, h: u16) -> (Demo, App) {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), w, h);
    type_text(&mut app, &mut demo, query);
    app.update(Action::FocusConversation);
    settle(&mut app, &mut demo);
    (demo, app)
}

/// The screen row holding `text`, and the column it starts at.
fn find_cell(term: &Terminal<TestBackend>, text: &str) -> Option<(u16, u16)> {
    let buf = term.backend().buffer();
    for y in 0..buf.area.height {
        let row: String = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect();
        if let Some(byte) = row.find(text) {
            let col = row[..byte].chars().count();
            return Some((u16::try_from(col).unwrap(), y));
        }
    }
    None
}

fn colour_screen(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app, &Theme::new(true))).unwrap();
    term
}

/// Scroll until `text` is near the top of the pane (or, at the end, anywhere on it).
fn scroll_to(app: &mut App, text: &str) {
    let on = |app: &App, n: usize| {
        let p = app.pane();
        p.lines()
            .iter()
            .skip(p.scroll())
            .take(n)
            .any(|l| l.text().contains(text))
    };
    loop {
        if on(app, 3) {
            return;
        }
        let before = app.pane().scroll();
        app.update(Action::Scroll(1));
        if app.pane().scroll() == before {
            assert!(on(app, 30), "{text:?} never came on screen");
            return;
        }
    }
}

#[test]
fn a_reply_with_headings_lists_a_table_and_inline_code() {
    let (_demo, mut app) = opened("checkout rounding", 120, 40);
    scroll_to(&mut app, "What changed");
    let term = screen(&app, 120, 40);
    let text = text_of(&term);
    assert!(text.contains("What changed") && !text.contains("## What changed"));
    assert!(
        !text.contains("**") && !text.contains("```"),
        "no Markdown marks left"
    );
    assert!(
        text.contains("3 × 0.335 │   1.01 │  1.00"),
        "the table is aligned"
    );
    assert!(text.contains("• Regression test: test_total_rounds_once"));
    insta::assert_snapshot!("pane_markdown", term.backend());
}

#[test]
fn python_and_rust_blocks_are_highlighted() {
    for (query, block_word, keyword) in [
        ("checkout rounding", "def total(lines", "def"),
        ("refactor the lexer", "Iterator for Lexer", "fn"),
    ] {
        let (_demo, mut app) = opened(query, 120, 40);
        scroll_to(&mut app, block_word);
        let term = colour_screen(&app, 120, 40);
        let (x, y) = find_cell(&term, &format!("{keyword} ")).expect(keyword);
        let cell = &term.backend().buffer()[(x, y)];
        assert_eq!(cell.fg, Color::Magenta, "{keyword} is drawn as a keyword");
        let comment = find_cell(&term, "# Sum exact").or_else(|| find_cell(&term, "// Skip"));
        let (cx, cy) = comment.expect("a comment");
        assert!(term.backend().buffer()[(cx, cy)]
            .modifier
            .contains(Modifier::ITALIC));
        let name = if query == "refactor the lexer" {
            "pane_rust_block"
        } else {
            "pane_python_block"
        };
        insta::assert_snapshot!(name, screen(&app, 120, 40).backend());
    }
}

#[test]
fn reasoning_is_shown_apart_from_tool_calls() {
    let (_demo, mut app) = opened("checkout rounding", 120, 40);
    app.update(Action::ToggleReasoning);
    let text = text_of(&screen(&app, 120, 40));
    assert!(
        text.contains("Running rg -n 'round' cart/"),
        "the reasoning summary, as Markdown"
    );
    assert!(
        text.contains("tool calls hidden"),
        "tool calls still hidden"
    );
    insta::assert_snapshot!("pane_reasoning", screen(&app, 120, 40).backend());
}

#[test]
fn find_moves_to_the_match_and_marks_it() {
    let (_demo, mut app) = opened("checkout rounding", 120, 30);
    app.update(Action::FindStart);
    for c in "refund path".chars() {
        app.update(Action::FindKey(Some(c)));
    }
    app.update(Action::FindEnd(true));
    let term = screen(&app, 120, 30);
    let (x, y) = find_cell(&term, "refund path").expect("the match is on screen");
    let cell = &term.backend().buffer()[(x, y)];
    assert!(
        cell.modifier.contains(Modifier::REVERSED),
        "the current match stands out"
    );
    assert!(app
        .screen()
        .flash()
        .is_some_and(|f| f.contains("match 1 of 1")));
    insta::assert_snapshot!("pane_find", term.backend());
}

#[test]
fn message_and_prompt_jumps() {
    let (_demo, mut app) = opened("checkout rounding", 120, 12);
    app.update(Action::Jump {
        step: HitStep::Next,
        prompts: true,
    });
    app.update(Action::Jump {
        step: HitStep::Next,
        prompts: true,
    });
    let top = app.pane().lines()[app.pane().scroll() + 1].text();
    assert_eq!(top, "▍ USER", "the second prompt's header is at the top");
    assert!(app.pane().lines()[app.pane().scroll() + 2]
        .text()
        .contains("refund path"));
    app.update(Action::Jump {
        step: HitStep::Previous,
        prompts: false,
    });
    let top = app.pane().lines()[app.pane().scroll() + 1].text();
    assert!(top.starts_with("▍ ASSISTANT"), "{top}");
    app.update(Action::PaneEnd(false));
    assert_eq!(app.pane().scroll(), 0);
}

#[test]
fn the_header_shows_both_prompts_and_a_missing_folder() {
    let (_demo, app) = opened("checkout rounding", 120, 40);
    let text = text_of(&screen(&app, 120, 40));
    assert!(text.contains("first       The checkout total is off by one cent"));
    assert!(text.contains("latest      Does the same bug exist in the"));
    assert!(text.contains("this folder no longer exists"));
}

#[test]
fn a_narrow_pane_wraps_markdown_without_overflow() {
    let (_demo, mut app) = opened("checkout rounding", 26, 40);
    scroll_to(&mut app, "What changed");
    let term = screen(&app, 26, 40);
    let text = text_of(&term);
    assert!(
        text.contains("cart: 3 × 0.335"),
        "a table too wide becomes records"
    );
    assert!(text.contains("after: 1.00"));
    insta::assert_snapshot!("pane_narrow", term.backend());
}

#[test]
fn tool_calls_collapsed_and_one_expanded() {
    let (_demo, mut app) = opened("checkout rounding", 120, 40);
    app.update(Action::ToggleTools);
    let text = text_of(&screen(&app, 120, 40));
    assert!(
        text.contains("▸ $ rg -n 'round' cart/  ✓ exit 0 · 41 ms"),
        "command, status, duration:\n{text}"
    );
    scroll_to(&mut app, "apply_patch");
    let collapsed = text_of(&screen(&app, 120, 40));
    assert!(collapsed.contains("▸ apply_patch: 2 files"));
    assert!(
        collapsed.contains("M cart/total.py")
            && collapsed.contains("A tests/test_total_rounds_once.py")
    );
    assert!(
        !collapsed.contains("*** Begin Patch"),
        "collapsed: the files, not the patch"
    );
    app.update(Action::Expand { all: false });
    let term = screen(&app, 120, 40);
    let expanded = text_of(&term);
    assert!(expanded.contains("▾ apply_patch: 2 files"));
    assert!(
        expanded.contains("│ +    line_total = Decimal(str(price)) * qty"),
        "the whole patch:\n{expanded}"
    );
    insta::assert_snapshot!("pane_tool_expanded", term.backend());
    app.update(Action::Expand { all: false });
    assert!(
        text_of(&screen(&app, 120, 40)).contains("▸ apply_patch: 2 files"),
        "collapsed again"
    );
}

#[test]
fn export_and_copy_hand_back_the_conversation() {
    let (_demo, mut app) = opened("checkout rounding", 120, 40);
    let Effect::Write { name, text } = app.update(Action::Export) else {
        panic!("x writes a file");
    };
    assert_eq!(name, "codex-session-019ac001.md");
    assert!(text.starts_with("# checkout rounding fix"), "{text}");
    assert!(text.contains("## 2 · Assistant · commentary"));
    assert!(
        !text.contains("**tool**"),
        "tool calls hidden, so not exported"
    );
    app.update(Action::Jump {
        step: HitStep::Next,
        prompts: true,
    });
    let Effect::Copy { text, what } = app.update(Action::CopyMessage) else {
        panic!("c copies");
    };
    assert_eq!(what, "message");
    assert!(text.starts_with("The checkout total is off by one cent"));
}
