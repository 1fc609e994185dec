//! The content index figures: building it from every file, a query typed one keystroke at a
//! time, saving and loading its cache, and the checks that it finds what the generator hid.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use codex_picker::fulltext::build as content_build;
use codex_picker::fulltext::ContentIndex;

use super::{common::gen, time, Ctx, Table, THREADS};

/// Build the index of `ids` (path -> session id), time its searches and its cache; returns the
/// index as loaded back from its cache.
pub fn figures(t: &mut Table, ctx: &Ctx, ids: &HashMap<PathBuf, String>) -> ContentIndex {
    let targets = content_build::targets_for(&ctx.files, ids);
    let (build_time, built) =
        time(|| content_build::build(None, &targets, &ctx.files, THREADS, &mut |_, _| true));
    let (content, _) = built.expect("content build");
    t.row(
        "content index build (2 threads)",
        build_time,
        Some(ctx.all_floor),
        "<= 2x all-bytes floor",
        build_time <= ctx.all_floor * 2,
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
            // The picker asks for every match on each keystroke.
            let (d, _) = time(|| content.search(&q[..end], usize::MAX));
            samples.push(d);
        }
    }
    samples.sort();
    let p50 = samples[samples.len() / 2];
    let p99 = samples[(samples.len() * 99 / 100).min(samples.len() - 1)];
    let label = "content search p50 (per keystroke, every match)";
    t.row(label, p50, None, "-", true);
    t.row(
        "content search p99 (per keystroke, every match)",
        p99,
        None,
        "< 50 ms",
        p99 < Duration::from_millis(50),
    );
    let cfile = ctx.scratch.join("content.cache");
    let (save_t, _) = time(|| content_build::save(&content, &cfile));
    drop(content);
    let (load_t, loaded) = time(|| content_build::load(&cfile));
    t.row("content cache save", save_t, None, "-", true);
    t.row("content cache load (warm start)", load_t, None, "-", true);
    loaded.expect("content cache loads")
}

pub fn print_stats(content: &ContentIndex) {
    let stats = content.stats();
    println!(
        "content: {} sessions, {} messages, {:.1} MB text, {} messages capped, {} sessions capped, ~{:.1} MB heap",
        stats.sessions,
        stats.messages,
        stats.bytes as f64 / 1e6,
        stats.capped_messages,
        stats.capped_sessions,
        stats.heap_bytes as f64 / 1e6
    );
}

/// Every 50th session is found by its deep phrase alone; tool output and injected context are
/// never found.
pub fn check(content: &ContentIndex, expected: &[gen::Expected]) -> Vec<String> {
    let mut bad = Vec::new();
    for e in expected.iter().step_by((expected.len() / 50).max(1)) {
        let hits = content.search(&e.deep_phrase.to_uppercase(), 10);
        if hits.len() != 1 || hits[0].id != e.id {
            bad.push(format!(
                "{}: content search for its deep phrase gave {} hits",
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
