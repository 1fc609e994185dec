//! The session actions: the menu, archive and unarchive, the delete question, failures, fork
//! and resume with the user's arguments.

use super::*;
use crate::codex::Change;
use crate::codex::CodexError;
use crate::workers::changes::{After, ChangeError, Done, Request as ChangeRequest};

/// The changes queued since the last look.
fn changes(app: &mut App) -> Vec<ChangeRequest> {
    app.take_outbox().changes
}

fn done(req: ChangeRequest, result: Result<After, ChangeError>) -> Done {
    Done {
        request: req,
        result,
    }
}

#[test]
fn the_menu_lists_every_action_and_takes_a_letter_or_the_cursor() {
    let mut app = app_with(all());
    app.update(Action::OpenMenu);
    assert_eq!(app.actions().dialog(), Some(&Dialog::Menu { cursor: 0 }));
    let items: Vec<Item> = MENU.iter().map(|e| e.item).collect();
    assert_eq!(
        items,
        [
            Item::ResumeInFolder,
            Item::ResumeHere,
            Item::Fork,
            Item::CopyId,
            Item::CopyCommand,
            Item::Export,
            Item::Archive,
            Item::Rename,
            Item::Delete
        ]
    );
    // Up from the top wraps to the bottom.
    app.update(Action::MenuMove(-1));
    assert_eq!(
        app.actions().dialog(),
        Some(&Dialog::Menu {
            cursor: MENU.len() - 1
        })
    );
    app.update(Action::CloseDialog);
    assert_eq!(app.actions().dialog(), None);

    app.update(Action::OpenMenu);
    assert_eq!(
        app.update(Action::MenuPick(Some('i'))),
        Effect::Copy {
            text: "a".into(),
            what: "session id".into()
        }
    );
    assert_eq!(app.actions().dialog(), None, "a pick closes the menu");

    app.update(Action::OpenMenu);
    app.update(Action::MenuMove(1));
    let Effect::Quit(Outcome::Exec(launch)) = app.update(Action::MenuPick(None)) else {
        panic!("the second item resumes here");
    };
    assert_eq!((launch.id.as_str(), launch.cwd), ("a", None));

    // A letter the menu does not have leaves it open; a key that is not the menu's closes it
    // and does what it does.
    app.update(Action::OpenMenu);
    app.update(Action::MenuPick(Some('z')));
    assert!(app.actions().dialog().is_some());
    app.update(Action::MoveDown);
    assert_eq!(app.actions().dialog(), None);
    assert_eq!(selected(&app), "b");
}

#[test]
fn archive_asks_codex_and_the_session_leaves_the_list() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    assert_eq!(app.update(Action::Archive), Effect::None);
    let asked = changes(&mut app);
    assert_eq!(
        asked,
        [ChangeRequest {
            change: Change::Archive,
            id: "b".into(),
            path: PathBuf::from("/s/b.jsonl"),
        }]
    );
    assert_eq!(app.actions().running().unwrap().title, "preview of b");
    assert_eq!(
        shown(&app),
        ["a", "b", "c", "d", "e"],
        "nothing moves before codex is done"
    );

    let moved = PathBuf::from("/h/archived_sessions/b.jsonl");
    app.apply_change(done(asked[0].clone(), Ok(After::Moved(moved.clone()))));
    assert_eq!(shown(&app), ["a", "c", "d", "e"]);
    assert_eq!(selected(&app), "c", "the selection goes to the neighbour");
    assert_eq!(
        app.screen().flash(),
        Some("archived “preview of b” (Ctrl+A shows archived sessions)")
    );
    assert!(app.actions().running().is_none());
    let b = app.rows().iter().find(|r| r.id == "b").unwrap();
    assert!(b.archived && b.path == moved, "the row follows its file");
    let replaced = app.take_outbox().search;
    assert!(
        replaced
            .iter()
            .any(|r| matches!(r, Request::Note(Note::ReplaceRow(_, row)) if row.id == "b" && row.archived)),
        "the search worker's copy follows too"
    );

    // Shown with the archived ones, it is marked and can be brought back.
    app.update(Action::ToggleArchived);
    app.update(Action::First);
    app.update(Action::MoveDown);
    assert_eq!(selected(&app), "b");
    app.update(Action::Archive);
    let asked = changes(&mut app);
    assert_eq!(asked[0].change, Change::Unarchive);
    assert_eq!(asked[0].path, moved);
    let back = PathBuf::from("/s/b.jsonl");
    app.apply_change(done(asked[0].clone(), Ok(After::Moved(back.clone()))));
    assert_eq!(app.screen().flash(), Some("unarchived “preview of b”"));
    assert_eq!(app.selected_row().unwrap().path, back);
    assert!(!app.selected_row().unwrap().archived);
}

#[test]
fn delete_asks_first_and_only_y_deletes() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    app.update(Action::Delete);
    assert!(matches!(
        app.actions().dialog(),
        Some(Dialog::ConfirmDelete { id, .. }) if id == "b"
    ));
    app.update(Action::Confirm(false));
    assert_eq!(app.actions().dialog(), None);
    assert_eq!(app.screen().flash(), Some("not deleted"));
    assert!(changes(&mut app).is_empty(), "no answer but y deletes");

    // Anything else that reaches the question (a paste) cancels it too.
    app.update(Action::Delete);
    app.update(Action::Paste("y".into()));
    assert_eq!(app.actions().dialog(), None);
    assert!(changes(&mut app).is_empty());
    assert_eq!(app.list().query(), "", "the paste was not typed either");

    app.update(Action::Delete);
    app.update(Action::Confirm(true));
    let asked = changes(&mut app);
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].change.clone(), asked[0].id.as_str()),
        (Change::Delete, "b")
    );
    app.apply_change(done(asked[0].clone(), Ok(After::Gone)));
    assert_eq!(shown(&app), ["a", "c", "d", "e"]);
    assert_eq!(selected(&app), "c");
    assert_eq!(app.screen().flash(), Some("deleted “preview of b”"));
    assert_eq!(app.live_rows(), 5, "a deleted session is counted nowhere");
}

#[test]
fn a_failed_change_says_codexs_reason_and_changes_nothing() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    app.update(Action::Archive);
    let asked = changes(&mut app);
    // A second change waits for the first.
    app.update(Action::Delete);
    assert_eq!(app.actions().dialog(), None);
    assert_eq!(
        app.screen().flash(),
        Some("codex is still archiving “preview of b”: one change at a time")
    );
    let why = ChangeError::Codex(CodexError::Failed {
        verb: "archive",
        why: "failed to archive session".into(),
    });
    app.apply_change(done(asked[0].clone(), Err(why)));
    assert_eq!(
        app.screen().flash(),
        Some("codex archive failed: failed to archive session")
    );
    assert_eq!(shown(&app), ["a", "b", "c", "d", "e"]);
    assert_eq!(selected(&app), "b");
    assert!(!app.rows().iter().any(|r| r.archived && r.id == "b"));
    assert!(app.actions().running().is_none());
}

#[test]
fn a_change_codex_did_elsewhere_drops_the_row_and_says_so() {
    let mut app = app_with(all());
    app.update(Action::Archive);
    let asked = changes(&mut app);
    app.apply_change(done(asked[0].clone(), Ok(After::Lost)));
    assert_eq!(shown(&app), ["b", "c", "d", "e"]);
    assert!(app.screen().flash().unwrap().contains("restart to see it"));
}

#[test]
fn fork_and_resume_take_the_users_arguments_and_store() {
    let opts = Options {
        resume_args: vec!["--model".into(), "o3 mini".into()],
        codex_env: "CODEX_HOME=/srv/h ".into(),
        print_command: true,
        ..all()
    };
    let mut app = app_with(opts);
    let Effect::Quit(Outcome::Exec(fork)) = app.update(Action::Fork) else {
        panic!("Alt+F forks");
    };
    assert_eq!(
        fork,
        Launch {
            source: crate::sources::Source::Codex,
            fork: true,
            id: "a".into(),
            cwd: Some("/w/p".into()),
            args: vec!["--model".into(), "o3 mini".into()],
        }
    );
    let Effect::Quit(Outcome::Exec(here)) = app.update(Action::ResumeHere) else {
        panic!("resume here");
    };
    assert!(!here.fork && here.cwd.is_none());
    let want = "cd /w/p && CODEX_HOME=/srv/h codex resume a --model 'o3 mini'";
    assert_eq!(
        app.update(Action::Accept),
        Effect::Quit(Outcome::Print(want.into()))
    );
    assert!(matches!(app.update(Action::CopyCommand), Effect::Copy { text, .. } if text == want));
}

#[test]
fn actions_need_a_selected_session() {
    let mut app = App::new(all(), 10_000);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    for action in [Action::OpenMenu, Action::Archive, Action::Delete] {
        assert_eq!(app.update(action), Effect::None);
        assert_eq!(app.actions().dialog(), None);
        assert_eq!(app.screen().flash(), Some("no session selected"));
    }
    assert_eq!(app.update(Action::Fork), Effect::None);
    assert!(changes(&mut app).is_empty());
}

#[test]
fn reading_the_store_again_does_not_bring_back_what_was_deleted_or_moved() {
    let mut app = app_with(all());
    app.update(Action::Archive);
    let asked = changes(&mut app);
    let moved = PathBuf::from("/h/archived_sessions/a.jsonl");
    app.apply_change(done(asked[0].clone(), Ok(After::Moved(moved.clone()))));
    app.update(Action::Delete);
    app.update(Action::Confirm(true));
    let asked = changes(&mut app);
    app.apply_change(done(asked[0].clone(), Ok(After::Gone)));
    assert_eq!(shown(&app), ["c", "d", "e"]);
    // The store is read again: the new run first sends its cache, written before the changes.
    app.index_restarted();
    app.apply_index(Event::rows(vec![
        row("a", "/w/p", 50, true, false),
        row("b", "/w/p/sub", 40, true, false),
    ]));
    answer(&mut app);
    assert_eq!(
        shown(&app),
        ["c", "d", "e"],
        "nothing comes back before the walk"
    );
    // Then the walk: the moved file is new to it, the old paths are gone.
    app.apply_index(Event::Run(engine::Event::Found { total: 5 }));
    let mut archived = row("a", "/w/p", 50, true, true);
    archived.path = moved;
    app.apply_index(Event::rows(vec![archived]));
    app.apply_index(Event::Run(engine::Event::Removed(vec![
        PathBuf::from("/s/a.jsonl"),
        PathBuf::from("/s/b.jsonl"),
    ])));
    answer(&mut app);
    assert_eq!(shown(&app), ["c", "d", "e"]);
    assert_eq!(app.live_rows(), 5, "a (archived) c d e f");
}

#[test]
fn a_run_that_walked_before_a_change_does_not_bring_back_the_old_paths() {
    let mut app = app_with(all());
    // The store is being read again, its walk done, when codex archives a and deletes b.
    app.index_restarted();
    app.apply_index(Event::Run(engine::Event::Found { total: 6 }));
    app.update(Action::Archive);
    let asked = changes(&mut app);
    let moved = PathBuf::from("/h/archived_sessions/a.jsonl");
    app.apply_change(done(asked[0].clone(), Ok(After::Moved(moved))));
    app.update(Action::Delete);
    app.update(Action::Confirm(true));
    let asked = changes(&mut app);
    app.apply_change(done(asked[0].clone(), Ok(After::Gone)));
    assert_eq!(shown(&app), ["c", "d", "e"]);
    // That run's rows, read before the changes, name the old paths.
    app.apply_index(Event::updated(vec![
        row("a", "/w/p", 50, true, false),
        row("b", "/w/p/sub", 40, true, false),
    ]));
    answer(&mut app);
    assert_eq!(shown(&app), ["c", "d", "e"], "the old paths stay empty");
    app.apply_index(Event::finished(6, 0, std::time::Duration::ZERO));
    // A later run walks after the changes: a file put back at an old path is a session again.
    app.index_restarted();
    app.apply_index(Event::Run(engine::Event::Found { total: 6 }));
    app.apply_index(Event::rows(vec![row("b", "/w/p/sub", 40, true, false)]));
    answer(&mut app);
    assert_eq!(shown(&app), ["b", "c", "d", "e"]);
}
