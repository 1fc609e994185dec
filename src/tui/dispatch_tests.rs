//! The hand-over rules: indexer batches taken in together, conversations held while the top
//! row is still changing, and the loop woken by the answers it waits for.

use super::*;
use crate::rollout::record::Meta;
use crate::session::SessionRow;
use crate::tui::action::Action;
use crate::tui::app::Options;
use crate::workers::conversation_reader::ReadError;
use crate::workers::job::ByHand;
use crate::workers::wake::{Source, Wakeup};
use std::path::PathBuf;
use std::sync::mpsc;

fn row(id: &str, t: i64) -> SessionRow {
    SessionRow {
        id: id.into(),
        path: PathBuf::from(format!("/s/{id}.jsonl")),
        preview: format!("preview of {id}"),
        meta: Meta {
            cwd: Some("/w".into()),
            ..Meta::default()
        },
        updated_ms: t,
        interactive: true,
        ..SessionRow::default()
    }
}

fn app() -> App {
    let mut app = App::new(
        Options {
            all: true,
            ..Options::default()
        },
        10_000,
    );
    app.update(Action::Resize(ratatui::layout::Rect::new(0, 0, 120, 20)));
    app
}

/// The workers' ends: the indexer's channel, and the jobs played by the test.
struct Ends {
    index: mpsc::Sender<Event>,
    _search: ByHand<Search>,
    reader: ByHand<Reader>,
}

fn workers() -> (Workers, Ends) {
    let (index, index_rx) = mpsc::channel();
    let wakeup = Wakeup::new().unwrap();
    let (search_job, search) = ByHand::job(wakeup.waker(Source::Answer));
    let (reader_job, reader) = ByHand::job(wakeup.waker(Source::Answer));
    let workers = Workers::new(wakeup, index_rx, search_job, reader_job);
    let ends = Ends {
        index,
        _search: search,
        reader,
    };
    (workers, ends)
}

/// The session of the conversation the reader was asked for last, if any.
fn read_asked(ends: &Ends) -> Option<String> {
    ends.reader.asked().map(|(_, job)| job.id)
}

fn previews(app: &App) -> Vec<String> {
    let mut p: Vec<String> = app.rows().iter().map(|r| r.preview.clone()).collect();
    p.sort();
    p
}

#[test]
fn the_first_batch_is_drawn_alone_then_the_waiting_batches_are_taken_at_once() {
    let mut app = app();
    let (tx, rx) = mpsc::channel();
    tx.send(Event::Run(engine::Event::Found { total: 4 }))
        .unwrap();
    tx.send(Event::rows(vec![row("a", 10)])).unwrap();
    tx.send(Event::Run(engine::Event::Progress { done: 1, total: 4 }))
        .unwrap();
    tx.send(Event::rows(vec![row("b", 20)])).unwrap();
    tx.send(Event::rows(vec![row("c", 30), row("d", 40)]))
        .unwrap();
    let mut renamed = row("b", 20);
    renamed.preview = "renamed b".into();
    tx.send(Event::updated(vec![renamed])).unwrap();
    tx.send(Event::Run(engine::Event::Progress { done: 4, total: 4 }))
        .unwrap();

    let first = drain_index(&mut app, &rx);
    assert!(first.applied && first.backlog && first.open);
    assert_eq!(
        app.rows().len(),
        1,
        "the first screenful is drawn before the rest"
    );

    let rest = drain_index(&mut app, &rx);
    assert!(rest.applied && !rest.backlog && rest.open);
    assert_eq!(
        previews(&app),
        ["preview of a", "preview of c", "preview of d", "renamed b"],
        "every waiting batch, and the update after them, in one turn"
    );
    assert_eq!(app.index().progress(), Some((4, 4)));

    drop(tx);
    assert!(!drain_index(&mut app, &rx).open);
}

#[test]
fn a_conversation_waits_for_the_top_row_to_settle_while_the_first_index_streams_in() {
    let mut app = app();
    let (mut workers, ends) = workers();
    app.apply_index(Event::rows(vec![row("a", 10)]));
    app.apply_index(Event::rows(vec![row("b", 20)]));
    assert!(app.follows_top());
    workers.send(&mut app);
    assert!(
        read_asked(&ends).is_none(),
        "not read while the top may change"
    );
    let (job, _) = workers.held.as_ref().expect("the newest ask is held");
    assert_eq!(job.id, "b");
    let until = workers.held_until(&app).expect("the loop wakes to send it");
    assert!(
        until > Instant::now() && until <= Instant::now() + TOP_SETTLE,
        "when the top has had time to settle"
    );

    // The top stayed the same long enough: its conversation is read.
    if let Some((_, since)) = workers.held.as_mut() {
        *since = Instant::now()
            .checked_sub(TOP_SETTLE)
            .expect("a clock past its start");
    }
    workers.send(&mut app);
    assert_eq!(read_asked(&ends).as_deref(), Some("b"));
    assert!(workers.held.is_none());

    // Once the index is complete, a conversation is read as soon as it is asked for.
    app.apply_index(Event::rows(vec![row("c", 30)]));
    app.apply_index(Event::finished(3, 0, Duration::ZERO));
    assert!(!app.follows_top());
    workers.send(&mut app);
    assert_eq!(read_asked(&ends).as_deref(), Some("c"));
}

#[test]
fn once_the_index_is_done_the_conversation_wakes_the_loop_when_it_arrives() {
    let mut app = app();
    let (mut workers, ends) = workers();
    drop(ends.index);
    assert!(!workers.drain_index(&mut app).open);
    app.apply_index(Event::rows(vec![row("a", 10), row("b", 20)]));
    app.apply_index(Event::finished(2, 0, Duration::ZERO));
    workers.send(&mut app);
    let (gen, job) = ends
        .reader
        .asked()
        .expect("read at once: the index is complete");
    assert!(
        workers.awaiting(&app),
        "nothing else runs, yet the answer is on its way"
    );
    assert!(workers.held_until(&app).is_none(), "nothing held back");
    workers.woken();
    let start = Instant::now();
    workers.wakeup().wait(Duration::from_millis(50)).unwrap();
    assert!(
        start.elapsed() >= Duration::from_millis(50),
        "nothing has rung yet: the loop sleeps"
    );
    ends.reader.answer(
        gen,
        Loaded {
            id: job.id,
            result: Err(ReadError::Open(std::io::ErrorKind::NotFound.into())),
        },
    );
    let start = Instant::now();
    workers.wakeup().wait(Duration::from_secs(10)).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the answer woke the loop"
    );
    workers.woken();
    assert!(!workers.index_news(), "the indexer had nothing to say");
    assert!(workers.take_answers(&mut app));
    assert!(!workers.awaiting(&app), "nothing left to wait for");
}
