//! Filters typed into the query (`dir:`, `branch:`, `date:`): rows pass them in either mode,
//! the words left are what is searched, and a filter that cannot be read says so.

use super::*;
use crate::search::one_box::Titles;
use crate::tui::ui::status::status_text;

#[test]
fn a_folder_filter_alone_lists_the_rows_in_that_folder() {
    let mut app = app_with(all());
    app.update(Action::Paste("dir:SUB".into()));
    answer(&mut app);
    assert_eq!(shown(&app), ["b"]);
    assert!(app.take_outbox().search.is_empty(), "nothing to search");
}

#[test]
fn the_words_beside_a_filter_are_searched_and_the_answer_filtered() {
    let mut app = app_with(all());
    app.take_outbox();
    app.update(Action::Paste("preview cwd:/w/q".into()));
    let outbox = app.take_outbox();
    let queries: Vec<&str> = outbox
        .search
        .iter()
        .filter_map(|r| match r {
            Request::Ask {
                ask: Ask::Titles { query, .. },
                ..
            } => Some(query.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(queries, ["preview"]);
    for req in outbox.search {
        if let Request::Ask {
            gen,
            ask: Ask::Titles { .. },
        } = req
        {
            app.apply_search(gen, Titles::in_order(vec![0, 1, 2, 3]), Vec::new());
        }
    }
    assert_eq!(shown(&app), ["c"]);
}

#[test]
fn content_hits_pass_the_filters_too() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.update(Action::ToggleContent);
    app.take_outbox();
    app.update(Action::Paste("zeta dir:sub".into()));
    let (gen, query) = content_requests(&mut app)[0].clone();
    assert_eq!(query, "zeta");
    app.apply_content(gen, vec![hit("d", "zeta", 0..4), hit("b", "zeta", 0..4)]);
    assert_eq!(shown(&app), ["b"]);
}

#[test]
fn a_filter_that_cannot_be_read_is_said_on_the_status_line() {
    let mut app = app_with(all());
    app.update(Action::Paste("date:someday".into()));
    answer(&mut app);
    let status = status_text(&app);
    assert!(status.starts_with("date:someday is not a date"), "{status}");
    assert_eq!(shown(&app).len(), 5, "an unread filter hides nothing");
}

/// What the status line counts: shown + every hidden count = every session known.
fn counts_add_up(app: &App) -> bool {
    let h = app.list().hidden();
    app.list().visible().len() + h.scope + h.exec + h.archived == app.live_rows()
}

#[test]
fn the_counts_add_up_over_every_filter_after_a_deletion_and_an_unreadable_folder() {
    let mut app = app_with(Options {
        all: false,
        ..all()
    });
    let toggles = [
        Action::ToggleScope,
        Action::ToggleExec,
        Action::ToggleArchived,
    ];
    let check_all = |app: &mut App, when: &str| {
        for combo in 0..8u8 {
            for (bit, toggle) in toggles.iter().enumerate() {
                if combo & (1 << bit) != 0 {
                    app.update(toggle.clone());
                }
            }
            assert!(
                counts_add_up(app),
                "{when}, toggles {combo:03b}: {:?}",
                app.list().hidden()
            );
            for (bit, toggle) in toggles.iter().enumerate() {
                if combo & (1 << bit) != 0 {
                    app.update(toggle.clone());
                }
            }
        }
    };
    check_all(&mut app, "at start");
    assert_eq!(app.live_rows(), 6);
    app.apply_index(Event::Run(engine::Event::Removed(vec![PathBuf::from(
        "/s/b.jsonl",
    )])));
    app.apply_index(Event::Run(engine::Event::Removed(vec![PathBuf::from(
        "/s/f.jsonl",
    )])));
    assert_eq!(app.live_rows(), 4, "deleted sessions are counted nowhere");
    check_all(&mut app, "after deletions");
    let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    app.apply_index(Event::Run(engine::Event::Issue(
        crate::store::FileIssue::io("/s/2026", &denied),
    )));
    check_all(&mut app, "with an unreadable folder");
}

#[test]
fn a_date_filter_counts_from_the_clock_the_loop_gives() {
    const DAY: i64 = 86_400_000;
    let now = 10 * DAY;
    let mut app = App::new(all(), now);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    app.apply_index(Event::rows(vec![
        row("fresh", "/w/p", now - DAY / 24, true, false),
        row("old", "/w/p", now - 3 * DAY, true, false),
    ]));
    app.update(Action::Paste("date:<2d".into()));
    answer(&mut app);
    assert_eq!(shown(&app), ["fresh"]);
    // Five days on, neither was updated within two days.
    app.set_now(now + 5 * DAY);
    app.update(Action::ClearQuery);
    app.update(Action::Paste("date:<2d".into()));
    answer(&mut app);
    assert!(shown(&app).is_empty(), "{:?}", shown(&app));
}
