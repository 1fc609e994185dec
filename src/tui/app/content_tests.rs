//! Content search: waiting for its index, ranking the rows its answer names, and the `/`
//! prefix. (Opening the pane at a hit is in the pane's tests.)

use super::*;
use crate::search::one_box::Titles;

#[test]
fn content_search_waits_for_its_index_then_runs() {
    let mut app = app_with(all());
    app.update(Action::ToggleContent);
    assert_eq!(app.effective_mode(), SearchMode::Content);
    for c in "deep phrase".chars() {
        app.update(Action::Insert(c));
    }
    assert!(app.content_pending());
    assert!(
        shown(&app).is_empty(),
        "nothing claimed to match before the index exists"
    );
    assert!(content_requests(&mut app).is_empty());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    let outbox = app.take_outbox();
    assert!(
        outbox
            .search
            .iter()
            .any(|r| matches!(r, Request::Note(Note::ContentIndex(_)))),
        "the worker gets the index"
    );
    assert!(
        outbox
            .search
            .iter()
            .any(|r| matches!(r, Request::Ask { ask: Ask::Content { query }, .. } if query == "deep phrase")),
        "the waiting query runs"
    );
}

#[test]
fn content_answers_rank_rows_and_carry_snippets() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.update(Action::ToggleContent);
    app.take_outbox();
    app.update(Action::Insert('z'));
    let (gen, _) = content_requests(&mut app)[0].clone();
    app.apply_content(
        gen,
        vec![
            hit("d", "one zeta", 4..8),
            hit("b", "zeta two", 0..4),
            hit("gone", "x", 0..1),
        ],
    );
    assert_eq!(shown(&app), ["d", "b"], "hit order, unknown paths dropped");
    let d = app.list().visible()[0];
    assert_eq!(app.searches().hit(d).unwrap().snippet, "one zeta");
    app.apply_content(gen - 1, vec![hit("a", "stale", 0..1)]);
    assert_eq!(shown(&app), ["d", "b"], "a stale answer is dropped");
}

#[test]
fn a_leading_slash_searches_inside_conversations() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("/needle".into()));
    assert_eq!(app.effective_mode(), SearchMode::Content);
    assert_eq!(content_requests(&mut app)[0].1, "needle");
    app.update(Action::ToggleContent);
    assert_eq!(
        app.list().query(),
        "needle",
        "Ctrl+F drops the prefix and returns to fuzzy search"
    );
    assert_eq!(app.effective_mode(), SearchMode::Fuzzy);
}

#[test]
fn the_one_box_looks_in_the_conversations_too_once_their_index_is_here() {
    let mut app = app_with(all());
    app.update(Action::Paste("deep phrase".into()));
    assert_eq!(title_search(&mut app), Some((1, false)), "no index yet");
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    let (_, conversations) = title_search(&mut app).expect("asked again with the index");
    assert!(conversations);
    assert_eq!(app.effective_mode(), SearchMode::Fuzzy, "still the one box");
    // fzf's syntax and short queries are for the titles.
    for text in ["'deep", "^deep", "!deep", "ab"] {
        app.update(Action::ClearQuery);
        app.update(Action::Paste(text.into()));
        let (_, conversations) = title_search(&mut app).unwrap();
        assert!(!conversations, "{text}");
    }
}

#[test]
fn own_words_first_then_conversations_then_scattered_letters() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("deep phrase".into()));
    let (gen, _) = title_search(&mut app).unwrap();
    // The search thread's answer: row c's own words hold the query, row a only its letters;
    // the conversations of b and c hold it (and a file no row has).
    app.apply_search(
        gen,
        whole(vec![2, 0], 1),
        vec![
            hit("b", "a deep phrase here", 2..13),
            hit("c", "deep phrase", 0..11),
            hit("gone", "x", 0..1),
        ],
    );
    assert_eq!(shown(&app), ["c", "b", "a"]);
    let (b, c) = (1, 2);
    assert_eq!(
        app.searches().hit(b).map(|h| h.snippet.as_str()),
        Some("a deep phrase here"),
        "a row found in its conversation carries its snippet"
    );
    assert!(
        app.searches().hit(c).is_none(),
        "a row found by its own words shows its title alone"
    );
    // The next keystroke's answer replaces the list; the old one's is stale.
    app.update(Action::Insert('s'));
    let (next, _) = title_search(&mut app).unwrap();
    app.apply_search(next, Titles::in_order(vec![3]), Vec::new());
    assert_eq!(shown(&app), ["d"]);
    assert!(app.searches().hit(b).is_none(), "its snippet went with it");
    app.apply_search(gen, Titles::in_order(vec![0]), Vec::new());
    assert_eq!(shown(&app), ["d"], "a stale answer is dropped");
}

/// The generation of the one-box search queued, and whether it asks for the conversations
/// too, taking the outbox.
fn title_search(app: &mut App) -> Option<(u64, bool)> {
    app.take_outbox().search.iter().find_map(|r| match r {
        Request::Ask {
            gen,
            ask: Ask::Titles { conversations, .. },
        } => Some((*gen, *conversations)),
        _ => None,
    })
}

#[test]
fn a_later_answer_does_not_move_a_reader_who_has_moved() {
    let mut app = listing_a(12);
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("needl".into()));
    let (gen, _) = title_search(&mut app).unwrap();
    app.apply_search(
        gen,
        Titles::in_order(vec![]),
        vec![hit("a", "a needle", 2..8)],
    );
    app.apply_transcript("a".into(), Ok(needles()));
    let opened = app.pane().scroll();
    assert!(
        opened > 0,
        "the one box opens a conversation hit at its hit"
    );
    // The reader moves on, and the next keystroke's answer names the same session.
    app.update(Action::FocusConversation);
    app.update(Action::Scroll(5));
    let moved = app.pane().scroll();
    assert_ne!(moved, opened);
    app.update(Action::Insert('e'));
    let (gen, _) = title_search(&mut app).unwrap();
    app.apply_search(
        gen,
        Titles::in_order(vec![]),
        vec![hit("a", "a needle", 2..8)],
    );
    assert_eq!(
        app.pane().scroll(),
        moved,
        "the reader stays where they went"
    );
}

#[test]
fn a_new_answer_keeps_the_session_being_read() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("deep phrase".into()));
    let (gen, _) = title_search(&mut app).unwrap();
    app.apply_search(gen, whole(vec![1], 1), Vec::new());
    app.update(Action::FocusConversation);
    // A new session the words find comes in and ranks first.
    app.update(Action::Insert('s'));
    let (gen, _) = title_search(&mut app).unwrap();
    app.apply_search(gen, whole(vec![2, 1], 2), Vec::new());
    assert_eq!(shown(&app), ["c", "b"]);
    assert_eq!(selected(&app), "b", "the session being read stays selected");
}

/// Title rows of which the first `n` hold the typed words whole.
fn whole(rows: Vec<usize>, n: usize) -> Titles {
    Titles {
        rows,
        whole: n,
        held: n,
    }
}
