//! The scope (this folder or every folder) and the selection while the first index streams in.

use super::*;

#[test]
fn scope_toggle_and_count() {
    let mut app = app_with(Options {
        scope_root: Some("/w/p".into()),
        ..Options::default()
    });
    assert_eq!(app.filters().scope(), Scope::Folder);
    assert_eq!(
        shown(&app),
        vec!["a", "b", "d", "e"],
        "the folder and below"
    );
    assert_eq!(app.list().hidden().scope, 1);
    app.update(Action::ToggleScope);
    assert_eq!(app.filters().scope(), Scope::All);
    assert_eq!(app.list().hidden().scope, 0);
}

/// A picker started in `folder` before any row has arrived.
fn empty_app_in(folder: &str) -> App {
    let mut app = App::new(
        Options {
            scope_root: Some(folder.into()),
            ..Options::default()
        },
        10_000,
    );
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    app
}

#[test]
fn while_indexing_a_folder_without_sessions_so_far_shows_every_folder() {
    let mut app = empty_app_in("/w/p");
    app.apply_index(Event::Run(engine::Event::Found { total: 3 }));
    app.apply_index(Event::rows(vec![row("c", "/w/q", 30, true, false)]));
    assert_eq!(app.filters().scope(), Scope::Folder);
    assert_eq!(app.filters().effective_scope(), Scope::All);
    assert_eq!(shown(&app), vec!["c"], "rows already read are not hidden");
    let status = crate::tui::ui::status::status_text(&app);
    assert!(status.contains("none in this folder so far"), "{status}");
    // The first session of the folder makes the folder scope apply.
    app.apply_index(Event::rows(vec![row("a", "/w/p", 50, true, false)]));
    assert_eq!(app.filters().effective_scope(), Scope::Folder);
    assert_eq!(shown(&app), vec!["a"]);
    assert_eq!(app.list().hidden().scope, 1);
}

#[test]
fn while_indexing_the_selection_follows_the_top_until_the_user_moves() {
    let mut app = App::new(all(), 10_000);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    app.apply_index(Event::rows(vec![row("b", "/w/p", 40, true, false)]));
    app.apply_index(Event::rows(vec![row("a", "/w/p", 50, true, false)]));
    assert_eq!(shown(&app), vec!["a", "b"]);
    assert_eq!(
        app.selected_row().unwrap().id,
        "a",
        "the newest session, not the first read"
    );
    app.update(Action::MoveDown);
    app.apply_index(Event::rows(vec![row("z", "/w/p", 60, true, false)]));
    assert_eq!(
        app.selected_row().unwrap().id,
        "b",
        "a chosen row stays chosen"
    );
    app.update(Action::First);
    app.apply_index(Event::finished(3, 0, std::time::Duration::ZERO));
    // A session that appears later (codex running beside the picker) does not move the reader.
    app.apply_index(Event::rows(vec![row("new", "/w/p", 70, true, false)]));
    assert_eq!(app.selected_row().unwrap().id, "z");
}

#[test]
fn tab_while_the_folder_scope_waits_chooses_the_folder() {
    let mut app = empty_app_in("/w/p");
    app.apply_index(Event::rows(vec![row("c", "/w/q", 30, true, false)]));
    assert_eq!(shown(&app), vec!["c"]);
    app.update(Action::ToggleScope);
    assert_eq!(
        app.filters().effective_scope(),
        Scope::Folder,
        "what the list showed was all folders"
    );
    assert!(shown(&app).is_empty());
    app.apply_index(Event::finished(1, 0, std::time::Duration::ZERO));
    assert_eq!(
        app.filters().effective_scope(),
        Scope::Folder,
        "a chosen scope is kept"
    );
}

#[test]
fn folder_without_sessions_falls_back_to_all_and_says_so() {
    let mut app = app_with(Options {
        scope_root: Some("/elsewhere".into()),
        ..Options::default()
    });
    app.apply_index(Event::finished(6, 0, std::time::Duration::ZERO));
    assert_eq!(app.filters().scope(), Scope::All);
    assert!(app
        .screen()
        .flash()
        .unwrap()
        .contains("no sessions in /elsewhere"));
}
