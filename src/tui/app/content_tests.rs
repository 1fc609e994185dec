//! Content search: waiting for its index, ranking the rows its answer names, the `/` prefix,
//! and the pane opened at the first hit with `n` jumping between hits.

use super::*;

fn hit(id: &str, snippet: &str, at: std::ops::Range<usize>) -> ContentHit {
    ContentHit {
        path: PathBuf::from(format!("/s/{id}.jsonl")),
        id: id.into(),
        hits: 1,
        first_message: 0,
        snippet: snippet.into(),
        snippet_match: at,
        updated_ms: 0,
    }
}

/// The content searches queued, as (gen, query).
fn content_requests(app: &mut App) -> Vec<(u64, String)> {
    app.take_outbox()
        .search
        .into_iter()
        .filter_map(|r| match r {
            Request::ContentSearch { gen, query } => Some((gen, query)),
            _ => None,
        })
        .collect()
}

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
fn the_pane_opens_at_the_first_hit_and_n_jumps() {
    let mut app = App::new(all(), 10_000);
    app.update(Action::Resize(120, 12));
    app.apply_index(Event::Rows(vec![row("a", "/w/p", 50, true, false)]));
    app.apply_index(Event::ContentReady(Arc::new(ContentIndex::default())));
    app.update(Action::ToggleContent);
    app.update(Action::Paste("needle".into()));
    let (gen, _) = content_requests(&mut app)[0].clone();
    app.apply_content(gen, vec![hit("a", "a needle", 2..8)]);
    let mut entries = Vec::new();
    for i in 0..30 {
        let text = if i == 12 || i == 25 {
            format!("the NEEDLE is here {i}")
        } else {
            format!("filler {i}")
        };
        entries.push(Entry::Message {
            role: crate::rollout::rules::Role::Assistant,
            text,
            shape: crate::rollout::rules::Shape::Event,
            phase: Some("final_answer".into()),
            elided: 0,
        });
    }
    let t = Transcript {
        entries,
        ..Transcript::default()
    };
    app.apply_transcript("a".into(), Ok(t));
    assert_eq!(app.pane().hit_lines().len(), 2);
    let first = app.pane().hit_lines()[0];
    assert!(app.pane().lines()[first]
        .text()
        .contains("NEEDLE is here 12"));
    assert!(
        app.pane().scroll() > 0 && app.pane().scroll() <= first,
        "opened at the first hit"
    );
    app.update(Action::JumpHit(HitStep::Next));
    assert!(app.pane().scroll() > first, "n goes to the next hit");
    assert_eq!(app.screen().flash(), Some("match 2 of 2"));
    app.update(Action::JumpHit(HitStep::Next));
    assert_eq!(
        app.screen().flash(),
        Some("match 1 of 2"),
        "and wraps around"
    );
}
