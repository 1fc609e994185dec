//! Renaming: the box opens with the current name, edits like the query, Enter asks codex (its
//! stored name then shows in the row, the search's copy and the header), Esc keeps the name,
//! and codex's refusal is the status line.

use super::*;
use crate::codex::{Change, CodexError};
use crate::workers::changes::{After, Done};

fn typed(app: &App) -> Option<&str> {
    match app.actions().dialog() {
        Some(Dialog::Rename { name, .. }) => Some(name),
        _ => None,
    }
}

#[test]
fn the_box_opens_with_the_current_name_and_edits_like_the_query() {
    let mut app = app_with(all());
    app.update(Action::Rename);
    assert_eq!(typed(&app), Some(""), "a without a name starts empty");
    app.update(Action::Type("release notes ".into()));
    app.update(Action::Insert('!'));
    app.update(Action::DeleteBack);
    // A paste goes in on one line.
    app.update(Action::Paste("2.4\nfinal".into()));
    assert_eq!(typed(&app), Some("release notes 2.4 final"));
    app.update(Action::DeleteWord);
    assert_eq!(typed(&app), Some("release notes 2.4 "));
    // Keys that are not edits do nothing while it is open.
    app.update(Action::MoveDown);
    app.update(Action::ToggleSort);
    assert_eq!(selected(&app), "a");
    assert_eq!(app.list().query(), "", "nothing reached the query");
    app.update(Action::Escape);
    assert_eq!(app.actions().dialog(), None);
    assert_eq!(app.screen().flash(), Some("name unchanged"));
    assert!(app.take_outbox().changes.is_empty());

    // A long name is cut, and says so.
    app.update(Action::Rename);
    app.update(Action::Paste("x".repeat(MAX_NAME_CHARS + 5)));
    assert_eq!(typed(&app).map(|n| n.chars().count()), Some(MAX_NAME_CHARS));
    assert!(app
        .screen()
        .flash()
        .unwrap()
        .contains("first 200 characters"));
}

#[test]
fn enter_asks_codex_and_the_stored_name_shows_everywhere() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    app.update(Action::Rename);
    app.update(Action::Type("  release notes ".into()));
    app.update(Action::Accept);
    assert_eq!(app.actions().dialog(), None);
    let asked = app.take_outbox().changes;
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].change, Change::Rename("  release notes ".into()));
    assert_eq!(asked[0].id, "b");
    assert_eq!(app.actions().running().unwrap().change.doing(), "renaming");

    app.apply_change(Done {
        request: asked[0].clone(),
        result: Ok(After::Named("release notes".into())),
    });
    let b = app.rows().iter().find(|r| r.id == "b").unwrap();
    assert_eq!(b.title(), "release notes");
    assert_eq!(
        app.screen().flash(),
        Some("renamed “preview of b” to “release notes”")
    );
    assert_eq!(selected(&app), "b", "the selection stays on it");
    let header: Vec<String> = app
        .pane()
        .lines()
        .iter()
        .map(|l| l.spans.iter().map(|(s, _)| s.as_str()).collect())
        .collect();
    assert!(
        header.iter().any(|l| l.contains("release notes")),
        "{header:?}"
    );
    assert!(app.take_outbox().search.iter().any(
        |r| matches!(r, Request::Note(Note::ReplaceRow(_, row)) if row.name.as_deref() == Some("release notes"))
    ));

    // The box opens with that name now; Enter on it unchanged asks nothing.
    app.update(Action::Rename);
    assert_eq!(typed(&app), Some("release notes"));
    app.update(Action::Accept);
    assert_eq!(app.screen().flash(), Some("name unchanged"));
    assert!(app.take_outbox().changes.is_empty());
}

#[test]
fn codexs_refusal_is_shown_and_the_name_stays() {
    let mut app = app_with(all());
    app.update(Action::Rename);
    app.update(Action::Accept);
    let asked = app.take_outbox().changes;
    assert_eq!(asked[0].change, Change::Rename(String::new()));
    let why = CodexError::Failed {
        verb: "rename",
        why: "thread name must not be empty".to_owned(),
    };
    app.apply_change(Done {
        request: asked[0].clone(),
        result: Err(why.into()),
    });
    assert_eq!(
        app.screen().flash(),
        Some("codex rename failed: thread name must not be empty")
    );
    assert_eq!(app.selected_row().unwrap().name, None);
}
