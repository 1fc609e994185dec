//! Content search: waiting for its index, ranking the rows its answer names, and the `/`
//! prefix. (Opening the pane at a hit is in the pane's tests.)

use super::*;

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
            .any(|r| matches!(r, Request::ContentIndex(_))),
        "the worker gets the index"
    );
    assert!(
        outbox
            .search
            .iter()
            .any(|r| matches!(r, Request::ContentSearch { query, .. } if query == "deep phrase")),
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
