//! Sessions another codex has open: the holder is known per row, the header names it, and
//! resume, fork and archive ask first; `y` goes ahead, anything else leaves it.

use super::*;
use crate::codex::Change;
use crate::store::locks::{Held, Holder, HolderKind, Snapshot};

const PID: u32 = 4242;

/// Session `id` held by pid 4242.
fn held(id: &str) -> Snapshot {
    let holder = Holder {
        pid: PID,
        kind: HolderKind::Codex,
    };
    Snapshot::Shown(Held::from_pairs([(id.to_owned(), holder)]))
}

fn pane_text(app: &App) -> String {
    app.pane()
        .lines()
        .iter()
        .map(|l| l.spans.iter().map(|(s, _)| s.as_str()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn only_the_held_session_has_a_holder_and_its_header_names_it() {
    let mut app = app_with(all());
    assert!(app.apply_locks(held("b")));
    assert!(!app.apply_locks(held("b")), "the same locks change nothing");
    let holders: Vec<(&str, Option<u32>)> = app
        .rows()
        .iter()
        .map(|r| (r.id.as_str(), app.holder_of(r).map(|h| h.pid)))
        .collect();
    assert_eq!(
        holders,
        [
            ("a", None),
            ("b", Some(PID)),
            ("c", None),
            ("d", None),
            ("e", None),
            ("f", None)
        ]
    );
    assert!(!pane_text(&app).contains("open in codex"), "a is not held");
    app.update(Action::MoveDown);
    assert!(
        pane_text(&app).contains("● open in codex, pid 4242"),
        "{}",
        pane_text(&app)
    );
    // Closed in the other codex: the header says so at the next read of the locks.
    app.apply_locks(Snapshot::Shown(Held::default()));
    assert!(!pane_text(&app).contains("open in codex"));
}

#[test]
fn resume_fork_and_archive_of_a_held_session_ask_first() {
    let opts = Options {
        print_command: true,
        ..all()
    };
    let mut app = app_with(opts);
    app.apply_locks(held("a"));
    for action in [
        Action::Accept,
        Action::ExecSelected,
        Action::ResumeHere,
        Action::Fork,
        Action::Archive,
    ] {
        assert_eq!(app.update(action.clone()), Effect::None, "{action:?}");
        let Some(Dialog::ConfirmOpen { holder, then, .. }) = app.actions().dialog() else {
            panic!("{action:?} asks first: {:?}", app.actions().dialog());
        };
        assert_eq!((holder.pid, then), (PID, &action));
        app.update(Action::Confirm(false));
        assert_eq!(app.actions().dialog(), None);
    }
    assert_eq!(app.screen().flash(), Some("not archived"));
    assert!(app.take_outbox().changes.is_empty(), "nothing was archived");

    // y goes ahead, once.
    app.update(Action::Accept);
    assert_eq!(
        app.update(Action::Confirm(true)),
        Effect::Quit(Outcome::Print("cd /w/p && codex resume a".into()))
    );
    app.update(Action::Archive);
    app.update(Action::Confirm(true));
    let asked = app.take_outbox().changes;
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].change, Change::Archive);
    assert_eq!(app.actions().dialog(), None);

    // A session nobody else has open is not asked about.
    let mut app = app_with(all());
    app.apply_locks(held("a"));
    app.update(Action::MoveDown);
    assert!(matches!(
        app.update(Action::Fork),
        Effect::Quit(Outcome::Exec(Launch { fork: true, .. }))
    ));
}

#[test]
fn the_question_is_about_its_session_and_any_other_key_leaves_it() {
    let mut app = app_with(all());
    app.apply_locks(held("a"));
    app.update(Action::Fork);
    // A key that is not an answer cancels it and is not typed.
    app.update(Action::Insert('y'));
    assert_eq!(app.actions().dialog(), None);
    assert_eq!(app.list().query(), "");
    assert_eq!(app.screen().flash(), Some("not forked"));

    // When the session asked about is no longer selected, y does nothing.
    app.update(Action::Fork);
    app.rows.remove(&[PathBuf::from("/s/a.jsonl")]);
    app.refilter(Reselect::Keep);
    assert_eq!(app.update(Action::Confirm(true)), Effect::None);
    assert!(app.screen().flash().unwrap().contains("no longer selected"));
}

#[test]
fn locks_that_cannot_be_read_mark_nothing() {
    let mut app = app_with(all());
    app.apply_locks(Snapshot::NotShown("not on this system".into()));
    assert_eq!(app.locks_not_shown(), Some("not on this system"));
    assert!(app.rows().iter().all(|r| app.holder_of(r).is_none()));
    assert!(matches!(
        app.update(Action::ExecSelected),
        Effect::Quit(Outcome::Exec(_))
    ));
}

/// The picker's last row, drawn `width` by `height`.
fn last_row(app: &mut App, width: u16, height: u16) -> String {
    use ratatui::backend::TestBackend;
    app.update(Action::Resize(ratatui::layout::Rect::new(
        0, 0, width, height,
    )));
    let mut term = ratatui::Terminal::new(TestBackend::new(width, height)).unwrap();
    let theme = crate::tui::ui::Theme::new(false);
    term.draw(|f| crate::tui::ui::draw(f, app, &theme)).unwrap();
    let buf = term.backend().buffer();
    let row: String = (0..width)
        .map(|x| buf[(x, height - 1)].symbol().to_owned())
        .collect();
    row.trim_end().to_owned()
}

#[test]
fn in_a_few_rows_the_questions_are_one_line_naming_the_holder() {
    let mut app = app_with(all());
    app.apply_locks(held("a"));
    app.update(Action::Accept);
    let row = last_row(&mut app, 120, 5);
    assert!(
        row.starts_with("“")
            && row.ends_with("” open in another codex (pid 4242): resume anyway? y/n"),
        "{row}"
    );
    app.update(Action::Confirm(false));
    app.update(Action::Delete);
    let row = last_row(&mut app, 120, 5);
    assert!(
        row.starts_with("delete “")
            && row.ends_with(
                "”, open in another codex (pid 4242)? y delete · any other key: keep it"
            ),
        "{row}"
    );
    // Tall enough for its box: the box, and the status line under it.
    assert!(last_row(&mut app, 120, 13).starts_with("Enter pick"));
}
