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

#[test]
fn words_no_title_holds_are_looked_for_in_the_conversations() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("deep phrase".into()));
    let gen = title_search(&mut app).expect("the title search runs first");
    assert_eq!(app.effective_mode(), SearchMode::Fuzzy);
    app.apply_search(gen, Vec::new());
    assert!(app.searches().fell_back());
    assert_eq!(app.effective_mode(), SearchMode::Content);
    let (gen, query) = content_requests(&mut app)[0].clone();
    assert_eq!(query, "deep phrase");
    app.apply_content(gen, vec![hit("b", "a deep phrase here", 2..13)]);
    assert_eq!(
        shown(&app),
        ["b"],
        "the conversation's session is listed, with its hit"
    );
    // The next keystroke starts with the title search again.
    app.update(Action::Insert('s'));
    assert!(!app.searches().fell_back());
    assert_eq!(app.effective_mode(), SearchMode::Fuzzy);
}

#[test]
fn a_title_match_or_a_short_query_keeps_the_title_search() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    // Row a's title is "preview of a": a query it holds as written stays with the titles.
    for (text, ranked) in [("ab", vec![]), ("of a", vec![0]), ("PREVIEW", vec![3, 0])] {
        app.update(Action::Paste(text.into()));
        let gen = title_search(&mut app).unwrap();
        app.apply_search(gen, ranked);
        assert!(!app.searches().fell_back(), "{text}");
        assert_eq!(app.effective_mode(), SearchMode::Fuzzy, "{text}");
        app.update(Action::ClearQuery);
    }
}

#[test]
fn letters_a_title_holds_only_inside_a_longer_word_are_looked_for_in_the_conversations() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    // Row a's title is "preview of a": it holds "view" only inside "preview".
    app.update(Action::Paste("view".into()));
    let gen = title_search(&mut app).unwrap();
    app.apply_search(gen, vec![0]);
    assert!(app.searches().fell_back());
    assert_eq!(content_requests(&mut app)[0].1, "view");
}

#[test]
fn when_no_conversation_holds_the_words_the_title_matches_come_back() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    app.update(Action::Paste("xqzv".into()));
    let gen = title_search(&mut app).unwrap();
    app.apply_search(gen, vec![2]);
    let (gen, _) = content_requests(&mut app)[0].clone();
    app.apply_content(gen, Vec::new());
    assert!(!app.searches().fell_back());
    let gen = title_search(&mut app).expect("the title search is asked again");
    app.apply_search(gen, vec![2]);
    assert!(
        content_requests(&mut app).is_empty(),
        "not tried twice for one query"
    );
    assert_eq!(shown(&app), ["c"]);
}

#[test]
fn a_fallback_decided_while_rows_came_in_is_checked_again_when_they_are_all_in() {
    let mut app = app_with(all());
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.take_outbox();
    // Started with a query: no title held it when the first answer came.
    app.update(Action::Paste("preview of a".into()));
    let gen = title_search(&mut app).unwrap();
    app.apply_search(gen, vec![]);
    assert!(app.searches().fell_back());
    app.apply_index(Event::Finished {
        rows: 4,
        issues: 0,
        elapsed: std::time::Duration::ZERO,
    });
    assert!(
        !app.searches().fell_back(),
        "every row is in: the titles again"
    );
    let gen = title_search(&mut app).expect("the title search runs again");
    app.apply_search(gen, vec![0]);
    assert_eq!(app.effective_mode(), SearchMode::Fuzzy);
    assert_eq!(shown(&app), ["a"]);
}

/// The generation of the title search queued, taking the outbox.
fn title_search(app: &mut App) -> Option<u64> {
    app.take_outbox().search.iter().find_map(|r| match r {
        Request::Search { gen, .. } => Some(*gen),
        _ => None,
    })
}
