//! The content index figures: building it from every file, a query typed one keystroke at a
//! time, saving and loading its cache, and the checks that it finds what the generator hid.

use std::time::Duration;

use codex_picker::search::fulltext::{tap, ContentIndex};
use codex_picker::workers::search::PICKER_CONTENT_RESULTS;

use super::keystrokes::Typed;
use super::{common::gen, time, Ctx, Table, THREADS};

/// Build the index of the store's sessions on disk from nothing, open it again with nothing
/// changed, and time a query typed one keystroke at a time; returns the index.
pub fn figures(t: &mut Table, ctx: &Ctx) -> ContentIndex {
    let dir = ctx.scratch.join("content.index");
    let _ = std::fs::remove_dir_all(&dir);
    // A listing of the store that the index taps: the index is only ever built so.
    let build = || {
        let progress = Box::new(|_, _, _: &ContentIndex| true);
        tap::index_store(&ctx.store, Some(&dir), THREADS, progress).expect("content build")
    };
    let (build_time, (built, _)) = time(build);
    drop(built);
    t.row(
        "content index build from nothing (2 threads, on disk)",
        build_time,
        Some(ctx.all_floor),
        "< 8 s",
        build_time < Duration::from_secs(8),
    );
    let (open_time, (content, stats)) = time(build);
    assert_eq!(stats.read, 0, "nothing changed, nothing read");
    t.row(
        "content index opened again (nothing changed)",
        open_time,
        None,
        "-",
        true,
    );
    let queries = [
        "retry with backoff",
        "kubernetes deploy pipeline",
        "quokka4321zeta",
        "école straße",
        "the culprit was",
    ];
    let mut samples = Vec::new();
    for q in queries {
        for end in (1..=q.len()).filter(|&e| q.is_char_boundary(e)) {
            // What the picker asks on each keystroke.
            let (d, _) = time(|| content.search(&q[..end], PICKER_CONTENT_RESULTS));
            samples.push((d, q[..end].to_owned()));
        }
    }
    let keys = Typed::new(samples);
    println!("slowest keystrokes: {}", keys.slowest(4));
    let (p50, p99) = (keys.p50(), keys.p99());
    let label = "content search p50 (per keystroke)";
    t.row(label, p50, None, "-", true);
    t.row(
        "content search p99 (per keystroke)",
        p99,
        None,
        "< 30 ms",
        p99 < Duration::from_millis(30),
    );
    content
}

pub fn print_stats(content: &ContentIndex) {
    let stats = content.stats();
    println!(
        "content index: {} sessions, {} messages, {:.1} MB on disk",
        stats.sessions,
        stats.messages,
        stats.disk_bytes as f64 / 1e6,
    );
}

/// Every 50th session is found first by its deep phrase alone; tool output and injected context are
/// never found.
pub fn check(content: &ContentIndex, expected: &[gen::Expected]) -> Vec<String> {
    let mut bad = Vec::new();
    for e in expected.iter().step_by((expected.len() / 50).max(1)) {
        let Some(phrase) = &e.deep_phrase else {
            continue;
        };
        // Near spellings of other sessions' phrases match too (one typo); this one comes first.
        let hits = content.search(&phrase.to_uppercase(), 10);
        if hits.first().map(|h| h.id.as_str()) != Some(e.id.as_str()) {
            bad.push(format!(
                "{}: content search for its deep phrase does not put it first ({} hits)",
                e.id,
                hits.len()
            ));
        }
    }
    for marker in [gen::TOOL_ONLY_MARKER, gen::INJECTED_ONLY_MARKER] {
        if !content.search(marker, 10).is_empty() {
            bad.push(format!("content search matched {marker}"));
        }
    }
    bad
}
