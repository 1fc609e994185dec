//! One test per action on [`App`], plus the background messages.

use super::*;
use crate::rollout::record::Meta;
use crate::rollout::transcript::{Entry, Transcript};
use crate::search::fulltext::{ContentHit, ContentIndex};
use crate::search::one_box::Titles;
use crate::search::title::{self, Haystack, Recency};
use crate::store::engine;
use crate::tui::action::Focus;
use crate::workers::indexer::Event;
use crate::workers::search::{Ask, Note, Request};
use std::path::PathBuf;
use std::sync::Arc;

#[path = "scope_tests.rs"]
mod scope;

#[path = "content_tests.rs"]
mod content;

#[path = "filter_tests.rs"]
mod filter;

#[path = "session_actions_tests.rs"]
mod session_actions;

#[path = "open_elsewhere_tests.rs"]
mod open_elsewhere;

#[path = "rename_tests.rs"]
mod rename;

#[path = "pane_tests.rs"]
mod pane;
#[path = "usage_screen_tests.rs"]
mod usage_screen;

fn row(id: &str, cwd: &str, t: i64, interactive: bool, archived: bool) -> SessionRow {
    SessionRow {
        id: id.into(),
        path: PathBuf::from(format!("/s/{id}.jsonl")),
        preview: format!("preview of {id}"),
        meta: Meta {
            cwd: Some(cwd.into()),
            ..Meta::default()
        },
        updated_ms: t,
        created_ms: Some(1_000 - t),
        interactive,
        archived,
        ..SessionRow::default()
    }
}

/// Five rows: a..d interactive (c in another folder), e exec, f archived.
fn app_with(opts: Options) -> App {
    let mut app = App::new(opts, 10_000);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    app.apply_index(Event::rows(vec![
        row("a", "/w/p", 50, true, false),
        row("b", "/w/p/sub", 40, true, false),
        row("c", "/w/q", 30, true, false),
        row("d", "/w/p", 20, true, false),
        row("e", "/w/p", 10, false, false),
        row("f", "/w/p", 5, true, true),
    ]));
    answer(&mut app);
    app
}

fn all() -> Options {
    Options {
        all: true,
        scope_root: Some("/w/p".into()),
        ..Options::default()
    }
}

/// Answer queued searches like the worker would; drop transcript requests.
fn answer(app: &mut App) {
    for req in app.take_outbox().search {
        if let Request::Ask {
            gen,
            ask: Ask::Titles { query, order, .. },
        } = req
        {
            let hays: Vec<Haystack> = app.rows().iter().map(|r| Haystack::new(r)).collect();
            let mut searcher = title::Searcher::default();
            let ranked = crate::workers::search::titles(&mut searcher, &hays, &query, order);
            app.apply_search(gen, ranked, Vec::new());
        }
    }
}

fn shown(app: &App) -> Vec<&str> {
    app.list()
        .visible()
        .iter()
        .map(|&i| app.rows()[i].id.as_str())
        .collect()
}

fn selected(app: &App) -> &str {
    &app.selected_row().unwrap().id
}

#[test]
fn insert_and_paste_edit_the_query_and_search() {
    let mut app = app_with(all());
    app.update(Action::Insert('c'));
    assert_eq!(app.list().query(), "c");
    assert!(app.searching());
    answer(&mut app);
    assert_eq!(shown(&app)[0], "c");
    app.update(Action::ClearQuery);
    app.update(Action::Paste("  preview of d\n".into()));
    assert_eq!(
        app.list().query(),
        "preview of d",
        "pasted text on one line, trimmed"
    );
    answer(&mut app);
    assert_eq!(selected(&app), "d");
}

#[test]
fn delete_back_word_and_clear() {
    let mut app = app_with(all());
    for c in "ab cd".chars() {
        app.update(Action::Insert(c));
    }
    app.update(Action::DeleteBack);
    assert_eq!(app.list().query(), "ab c");
    app.update(Action::DeleteWord);
    assert_eq!(app.list().query(), "ab ");
    app.update(Action::ClearQuery);
    assert_eq!(app.list().query(), "");
    assert_eq!(shown(&app), vec!["a", "b", "c", "d", "e"], "newest first");
}

#[test]
fn moving_and_paging_the_selection() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    assert_eq!(selected(&app), "b");
    app.update(Action::MoveUp);
    app.update(Action::MoveUp);
    assert_eq!(selected(&app), "a", "clamped at the top");
    app.update(Action::Last);
    assert_eq!(selected(&app), "e");
    app.update(Action::First);
    assert_eq!(selected(&app), "a");
    app.update(Action::PageListDown);
    assert_eq!(selected(&app), "e", "a page is longer than five rows");
    app.update(Action::PageListUp);
    assert_eq!(selected(&app), "a");
}

/// An app 120 columns wide and `height` rows tall, listing session `a` alone.
fn listing_a(height: u16) -> App {
    let mut app = App::new(all(), 10_000);
    app.update(Action::Resize(ratatui::layout::Rect::new(
        0, 0, 120, height,
    )));
    app.apply_index(Event::rows(vec![row("a", "/w/p", 50, true, false)]));
    app
}

/// A message entry of `role` (an event, in `phase`), as a transcript holds it.
fn message(role: crate::rollout::record::Role, text: String, phase: Option<&str>) -> Entry {
    Entry::Message {
        role,
        text,
        shape: crate::rollout::record::Shape::Event,
        phase: phase.map(str::to_owned),
        elided: 0,
        images: Vec::new(),
    }
}

/// Thirty replies, the 13th and the 26th holding "needle".
fn needles() -> Transcript {
    let entries = (0..30)
        .map(|i| {
            let text = if i == 12 || i == 25 {
                format!("the NEEDLE is here {i}")
            } else {
                format!("filler {i}")
            };
            message(
                crate::rollout::record::Role::Assistant,
                text,
                Some("final_answer"),
            )
        })
        .collect();
    Transcript {
        entries,
        ..Transcript::default()
    }
}

fn with_transcript(app: &mut App, lines: usize) {
    let id = selected(app).to_owned();
    let text = (0..lines)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let t = Transcript {
        entries: vec![
            message(crate::rollout::record::Role::User, text, None),
            Entry::Tool(crate::rollout::record::ToolCall::new(
                "function_call".into(),
                None,
                crate::rollout::record::ToolDetail::Command {
                    command: "ls".into(),
                    workdir: None,
                    session: None,
                },
            )),
        ],
        ..Transcript::default()
    };
    app.apply_transcript(id, Ok(t));
}

#[test]
fn focus_conversation_and_back() {
    let mut app = app_with(all());
    app.update(Action::FocusConversation);
    assert_eq!(app.screen().focus(), Focus::Conversation);
    app.update(Action::FocusList);
    assert_eq!(app.screen().focus(), Focus::List);
    app.update(Action::FocusConversation);
    assert_eq!(
        app.update(Action::Escape),
        Effect::None,
        "Esc leaves the pane first"
    );
    assert_eq!(app.screen().focus(), Focus::List);
}

#[test]
fn accept_prints_the_id_or_the_command() {
    let mut app = app_with(all());
    app.update(Action::MoveDown);
    assert_eq!(
        app.update(Action::Accept),
        Effect::Quit(Outcome::Print("b".into()))
    );
    // Enter on a fresh picker started with these options.
    let accept = |opts| app_with(opts).update(Action::Accept);
    assert_eq!(
        accept(Options {
            print_command: true,
            ..all()
        }),
        Effect::Quit(Outcome::Print("cd /w/p && codex resume a".into()))
    );
    assert!(matches!(
        accept(Options {
            exec: true,
            ..all()
        }),
        Effect::Quit(Outcome::Exec(_))
    ));
}

#[test]
fn exec_selected_resumes_in_the_sessions_folder() {
    let mut app = app_with(all());
    assert_eq!(
        app.update(Action::ExecSelected),
        Effect::Quit(Outcome::Exec(Launch {
            source: crate::sources::Source::Codex,
            fork: false,
            id: "a".into(),
            cwd: Some("/w/p".into()),
            args: vec![],
        }))
    );
}

#[test]
fn escape_clears_then_quits_and_quit_quits() {
    let mut app = app_with(all());
    app.update(Action::Insert('x'));
    assert_eq!(app.update(Action::Escape), Effect::None);
    assert_eq!(app.list().query(), "");
    assert_eq!(app.update(Action::Escape), Effect::Quit(Outcome::Cancelled));
    app.update(Action::Insert('x'));
    assert_eq!(app.update(Action::Quit), Effect::Quit(Outcome::Cancelled));
}

#[test]
fn sort_toggle_orders_by_creation() {
    let mut app = app_with(all());
    app.update(Action::ToggleSort);
    assert_eq!(app.list().order(), Recency::Created);
    assert_eq!(shown(&app), vec!["e", "d", "c", "b", "a"]);
}

#[test]
fn the_list_starts_in_the_order_asked() {
    let app = app_with(Options {
        order: Recency::Created,
        ..all()
    });
    assert_eq!(app.list().order(), Recency::Created);
    assert_eq!(shown(&app), vec!["e", "d", "c", "b", "a"]);
}

#[test]
fn exec_and_archived_toggles_are_counted() {
    let mut app = app_with(all());
    assert_eq!(
        app.list().hidden().archived,
        1,
        "archived hidden by default"
    );
    app.update(Action::ToggleExec);
    assert_eq!(app.list().hidden().exec, 1);
    assert!(!shown(&app).contains(&"e"));
    app.update(Action::ToggleArchived);
    assert_eq!(app.list().hidden().archived, 0);
    assert!(shown(&app).contains(&"f"));
    let app = app_with(Options {
        hide_exec: true,
        show_archived: true,
        ..all()
    });
    assert_eq!(
        (app.list().hidden().exec, app.list().hidden().archived),
        (1, 0)
    );
}

#[test]
fn tools_toggle_shows_tool_lines() {
    let mut app = app_with(all());
    with_transcript(&mut app, 2);
    let has_tool = |app: &App| {
        app.pane()
            .lines()
            .iter()
            .any(|l| l.text().contains("▸ $ ls"))
    };
    assert!(!has_tool(&app));
    app.update(Action::ToggleTools);
    assert!(has_tool(&app));
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let mut app = app_with(all());
    app.update(Action::ToggleHelp);
    assert!(app.screen().help());
    app.update(Action::ToggleHelp);
    assert!(!app.screen().help());
    app.update(Action::ToggleHelp);
    app.update(Action::MoveDown);
    assert!(!app.screen().help());
}

#[test]
fn copy_id_and_command() {
    let mut app = app_with(all());
    assert_eq!(
        app.update(Action::CopyId),
        Effect::Copy {
            text: "a".into(),
            what: "session id".into()
        }
    );
    let mut r = row("x", "/w/it's here", 1, true, false);
    r.id = "id1".into();
    assert_eq!(
        Handoff::new(&Options::default()).resume_command(&r),
        r"cd '/w/it'\''s here' && codex resume id1"
    );
    assert!(
        matches!(app.update(Action::CopyCommand), Effect::Copy { text, .. } if text == "cd /w/p && codex resume a")
    );
}

#[test]
fn the_resume_command_is_quoted_for_the_shell_asked_for() {
    use crate::shell::Syntax;
    let mut r = row("x", r"/w/it's \ here", 1, true, false);
    r.id = "id\u{1b}]0;x\u{7}".into();
    let handoff = |shell| {
        super::resume::Handoff::new(&Options {
            shell,
            resume_args: vec!["--model".into(), "o3 mini".into()],
            ..Options::default()
        })
    };
    assert_eq!(
        handoff(Syntax::Posix).resume_command(&r),
        r"cd '/w/it'\''s \ here' && codex resume 'id'$'\x1b'']0;x'$'\x07' --model 'o3 mini'"
    );
    assert_eq!(
        handoff(Syntax::Fish).resume_command(&r),
        r"cd '/w/it\'s \\ here' && codex resume 'id'\x1b']0;x'\x07 --model 'o3 mini'"
    );
    // A folder that reads as an option is still the folder.
    r.meta.cwd = Some("-rf".into());
    assert!(handoff(Syntax::Posix)
        .resume_command(&r)
        .starts_with("cd -- -rf && "));
}

#[test]
fn a_claude_code_session_is_resumed_by_claude_in_its_folder() {
    use crate::shell::Syntax;
    use crate::sources::Source;
    let mut r = row("x", "/w/my proj.v2", 1, true, false);
    r.source = Source::Claude;
    r.id = "df14ae24-154d-48ef-a460-f34c23d45f9b".into();
    let opts = Options {
        shell: Syntax::Posix,
        resume_args: vec!["--model".into(), "o3".into()],
        claude_args: vec!["--model".into(), "opus".into()],
        claude_env: "CLAUDE_CONFIG_DIR='/w/cc' ".into(),
        ..Options::default()
    };
    let handoff = super::resume::Handoff::new(&opts);
    assert_eq!(
        handoff.resume_command(&r),
        "cd '/w/my proj.v2' && CLAUDE_CONFIG_DIR='/w/cc' claude --resume \
         df14ae24-154d-48ef-a460-f34c23d45f9b --model opus"
    );
    // Run, it is claude's, in the session's folder, with claude's arguments.
    let launch = handoff.launch(&r, true, false);
    assert_eq!(launch.source, Source::Claude);
    assert!(launch.fork);
    assert_eq!(launch.cwd.as_deref(), Some("/w/my proj.v2"));
    assert_eq!(launch.args, ["--model", "opus"]);
}

#[test]
fn claude_code_has_no_command_to_archive_rename_or_delete_and_says_so() {
    let mut app = App::new(all(), 10_000);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 12)));
    let mut claude = row("a", "/w/p", 50, true, false);
    claude.source = crate::sources::Source::Claude;
    app.apply_index(Event::rows(vec![claude]));
    answer(&mut app);
    for action in [
        Action::Archive,
        Action::Delete,
        Action::Rename,
        Action::ResumeHere,
    ] {
        assert_eq!(app.update(action.clone()), Effect::None, "{action:?}");
        assert!(
            app.actions().dialog().is_none(),
            "{action:?} opened a dialog"
        );
        assert!(
            app.actions().running().is_none(),
            "{action:?} started a change"
        );
        let said = app.screen().flash().unwrap_or_default().to_owned();
        assert!(said.contains("Claude Code"), "{action:?}: {said}");
    }
}

#[test]
fn suspend_is_an_effect() {
    let mut app = app_with(all());
    assert_eq!(app.update(Action::Suspend), Effect::Suspend);
}

#[test]
fn resize_narrow_hides_the_pane() {
    let mut app = app_with(all());
    assert!(app.screen().geometry().conversation.width > 0);
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 80, 24)));
    assert_eq!(app.screen().geometry().conversation.width, 0);
    app.update(Action::FocusConversation);
    assert_eq!(
        app.screen().geometry().conversation.width,
        80,
        "→ opens it full width"
    );
}

#[test]
fn click_selects_and_wheel_scrolls() {
    let mut app = app_with(all());
    with_transcript(&mut app, 100);
    app.update(Action::Click(5, 3));
    assert_eq!(selected(&app), "c", "third list line");
    with_transcript(&mut app, 100);
    let x = app.screen().geometry().conversation.x + 3;
    app.update(Action::Wheel {
        col: x,
        row: 4,
        down: true,
    });
    assert_eq!(app.pane().scroll(), 3);
    app.update(Action::Wheel {
        col: 5,
        row: 4,
        down: true,
    });
    assert_eq!(
        selected(&app),
        "e",
        "wheel over the list moves the selection (clamped)"
    );
}

#[test]
fn stale_search_answers_are_dropped() {
    let mut app = app_with(all());
    app.update(Action::Insert('c'));
    let first = app.take_outbox();
    app.update(Action::Insert('c'));
    answer(&mut app);
    let shown_now = shown(&app).len();
    if let Some(Request::Ask { gen, .. }) = first.search.into_iter().find(|r| {
        matches!(
            r,
            Request::Ask {
                ask: Ask::Titles { .. },
                ..
            }
        )
    }) {
        app.apply_search(gen, Titles::in_order(vec![0, 1, 2, 3, 4, 5]), Vec::new());
    }
    assert_eq!(
        shown(&app).len(),
        shown_now,
        "an older generation changes nothing"
    );
}

fn hit(id: &str, snippet: &str, at: std::ops::Range<usize>) -> ContentHit {
    ContentHit {
        path: PathBuf::from(format!("/s/{id}.jsonl")),
        id: id.into(),
        score: 1.0,
        hits: 1,
        first_message: 0,
        snippet: snippet.into(),
        snippet_match: at,
        updated_ms: 0,
        every_word_typed: true,
    }
}

/// The content searches queued, as (gen, query).
fn content_requests(app: &mut App) -> Vec<(u64, String)> {
    app.take_outbox()
        .search
        .into_iter()
        .filter_map(|r| match r {
            Request::Ask {
                gen,
                ask: Ask::Content { query },
            } => Some((gen, query)),
            _ => None,
        })
        .collect()
}
