//! The picker in a few rows (`--height 5`), on ratatui's TestBackend: the query line and the
//! list alone, the conversation a key away over the list, and every dialog and the help cut to
//! the rows there are (or asked on one line) rather than drawn past them.

use codex_picker::tui::action::Action;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;

use crate::screens::{all, app, demo, screen, settle};

/// The screen's lines, without the trailing blanks.
fn lines(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            let line: String = (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect();
            line.trim_end().to_owned()
        })
        .collect()
}

#[test]
fn five_rows_are_the_query_line_and_four_rows_of_list() {
    let mut demo = demo();
    let app = app(&mut demo, all(), 120, 5);
    let shown = lines(&screen(&app, 120, 5));
    assert!(shown[0].starts_with("❯ type to search"), "{shown:#?}");
    assert!(
        shown[1].starts_with("▶   7m ⑂ Draft the 2.4 release notes"),
        "{shown:#?}"
    );
    for line in &shown[2..] {
        assert!(
            !line.contains('▶') && line.contains("work/"),
            "a session on every row:\n{shown:#?}"
        );
    }
    assert!(
        !shown
            .iter()
            .any(|l| l.contains("Enter pick") || l.contains(" of ")),
        "no keys' line, no status line:\n{shown:#?}"
    );
    assert!(
        !shown.iter().any(|l| l.contains('│') || l.contains('┃')),
        "no pane beside the list"
    );
}

#[test]
fn the_lines_around_the_list_go_keys_first_then_status() {
    let mut demo = demo();
    for (rows, list, status, keys) in [
        (3, 2, false, false),
        (7, 6, false, false),
        (8, 6, true, false),
        (9, 6, true, true),
        (12, 9, true, true),
    ] {
        let app = app(&mut demo, all(), 120, rows);
        let shown = lines(&screen(&app, 120, rows));
        let sessions = shown.iter().filter(|l| l.contains("work/")).count();
        assert_eq!(sessions, list, "{rows} rows:\n{shown:#?}");
        let has_status = shown.iter().any(|l| l.contains("(all folders)"));
        assert_eq!(has_status, status, "{rows} rows:\n{shown:#?}");
        let has_keys = shown.iter().any(|l| l.starts_with("Enter pick"));
        assert_eq!(has_keys, keys, "{rows} rows:\n{shown:#?}");
        // From 9 rows the full layout: the conversation beside the list.
        let beside = shown[1].contains('│') || shown[1].contains('┃');
        assert_eq!(beside, rows >= 9, "{rows} rows:\n{shown:#?}");
    }
}

#[test]
fn the_conversation_is_a_key_away_over_the_list() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 5);
    app.update(Action::MoveDown);
    settle(&mut app, &mut demo);
    let before = lines(&screen(&app, 120, 5));
    assert!(before[2].starts_with("▶ "), "{before:#?}");
    app.update(Action::FocusConversation);
    settle(&mut app, &mut demo);
    let shown = lines(&screen(&app, 120, 5));
    assert!(shown[0].starts_with("❯ "), "{shown:#?}");
    assert!(
        shown[1].starts_with(" id          019ac003-"),
        "→ opens the conversation over the list, full width:\n{shown:#?}"
    );
    assert!(
        !shown
            .iter()
            .any(|l| l.contains('▶') || l.contains("work/webshop")),
        "{shown:#?}"
    );
    app.update(Action::FocusList);
    let shown = lines(&screen(&app, 120, 5));
    assert_eq!(shown, before, "← brings the list back as it was");
    // Esc in the conversation goes back to the list too.
    app.update(Action::FocusConversation);
    app.update(Action::Escape);
    assert_eq!(lines(&screen(&app, 120, 5)), before);
}

#[test]
fn the_menu_keeps_its_cursor_in_view_in_five_rows() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 5);
    app.update(Action::OpenMenu);
    let shown = lines(&screen(&app, 120, 5));
    assert!(shown[0].contains(" actions "), "{shown:#?}");
    assert!(
        shown[4].contains('└'),
        "the box's bottom on the last row:\n{shown:#?}"
    );
    let first = shown[1].clone();
    for _ in 0..8 {
        app.update(Action::MenuMove(1));
    }
    let shown = lines(&screen(&app, 120, 5));
    assert!(
        shown[0].contains(" actions ") && shown[4].contains('└'),
        "{shown:#?}"
    );
    assert!(
        !shown.contains(&first),
        "the last item is in view, the first scrolled away:\n{shown:#?}"
    );
}

#[test]
fn the_delete_question_is_one_line_naming_the_session() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 5);
    app.update(Action::Delete);
    let shown = lines(&screen(&app, 120, 5));
    assert!(
        shown[4].starts_with("delete “Draft the 2.4 release notes")
            && shown[4].ends_with("? y delete · any other key: keep it"),
        "on the last row:\n{shown:#?}"
    );
    assert!(
        shown[0].starts_with("❯ ") && shown[1].starts_with("▶ "),
        "{shown:#?}"
    );
    // Narrow, the title is cut, the answer keys stay.
    app.update(Action::Resize(Rect::new(0, 0, 60, 5)));
    let shown = lines(&screen(&app, 60, 5));
    assert!(
        shown[4].ends_with("? y delete · any other key: keep it"),
        "{shown:#?}"
    );
    // At 13 rows, the box as before.
    app.update(Action::Resize(Rect::new(0, 0, 120, 13)));
    let shown = lines(&screen(&app, 120, 13));
    assert!(
        shown.iter().any(|l| l.contains(" delete this session? ")),
        "{shown:#?}"
    );
}

#[test]
fn a_message_takes_the_last_row_while_it_lasts() {
    let mut demo = demo();
    let mut app = app(&mut demo, all(), 120, 5);
    app.update(Action::Reread);
    let shown = lines(&screen(&app, 120, 5));
    assert_eq!(shown[4], "reading the store again", "{shown:#?}");
    app.update(Action::MoveDown);
    let shown = lines(&screen(&app, 120, 5));
    assert!(
        shown[4].contains("work/"),
        "the list's row again:\n{shown:#?}"
    );
}

#[test]
fn every_dialog_and_the_help_stay_within_a_few_rows() {
    let mut demo = demo();
    for rows in 3..=13 {
        for open in [
            Action::OpenMenu,
            Action::Delete,
            Action::Rename,
            Action::ToggleHelp,
        ] {
            for width in [120, 40] {
                let mut app = app(&mut demo, all(), width, rows);
                app.update(open.clone());
                let shown = lines(&screen(&app, width, rows));
                assert_eq!(shown.len(), usize::from(rows));
                let text = shown.join("\n");
                let tops = text.matches('┌').count();
                let bottoms = text.matches('└').count();
                assert_eq!(
                    tops, bottoms,
                    "{open:?} in {width}x{rows}: a whole box:\n{text}"
                );
            }
        }
    }
}
