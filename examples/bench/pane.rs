//! The conversation pane: time from a session's transcript being asked for (through the
//! transcript worker, as the picker asks) to its first screen (read, Markdown rendered, code on
//! screen highlighted), to the whole session read, the slowest page while paging to its end,
//! and the peak memory of a process holding it, for the median-size session and the largest
//! one.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use codex_picker::store::walk::RolloutFile;
use codex_picker::store::Store;
use codex_picker::tui::app::{Pane, PaneContext};
use codex_picker::workers::conversation_reader;
use codex_picker::workers::wake::Waker;

use super::{Ctx, Table};

const CTX: PaneContext = PaneContext {
    width: 80,
    height: 40,
    content_query: None,
    open_in: None,
};

/// What opening one session in the pane cost.
struct Opened {
    /// Of which reading what the first screen shows (the start of a large file).
    read: Duration,
    first_screen: Duration,
    /// Until the whole session was read and the pane showed it.
    whole: Duration,
    slowest_page: Duration,
    lines: usize,
}

/// Open `file` as the picker does: its row, then its conversation from the transcript worker
/// (a large file's start first, then the whole), then page to its end.
fn open(store: &Store, file: &RolloutFile) -> Opened {
    let names = std::collections::HashMap::new();
    let started = Instant::now();
    let (row, _) = codex_picker::store::summarise(
        file,
        codex_picker::rollout::summary::Until::FirstPrompt,
        &names,
    )
    .expect("summarise");
    let mut reader = conversation_reader::spawn(store.clone(), Waker::noop());
    let mut pane = Pane::default();
    let job = pane.show(Some(&row), &CTX).expect("a transcript to read");
    assert!(reader.read(job), "the transcript worker");
    let mut loaded = || {
        reader
            .recv_timeout(Duration::from_secs(600))
            .expect("an answer")
            .answer
    };
    let first = loaded();
    let read = started.elapsed();
    let mut partial = first.result.as_ref().is_ok_and(|t| t.partial);
    pane.loaded(first.id, first.result, Some(&row), &CTX);
    let first_screen = started.elapsed();
    while partial {
        let next = loaded();
        partial = next.result.as_ref().is_ok_and(|t| t.partial);
        pane.loaded(next.id, next.result, Some(&row), &CTX);
    }
    let whole = started.elapsed();
    let mut slowest_page = Duration::ZERO;
    while pane.scroll() + CTX.height < pane.line_total() {
        let before = pane.scroll();
        let t = Instant::now();
        pane.scroll_by(CTX.height as i64, CTX.height);
        slowest_page = slowest_page.max(t.elapsed());
        if pane.scroll() == before {
            break;
        }
    }
    Opened {
        read,
        first_screen,
        whole,
        slowest_page,
        lines: pane.lines().len(),
    }
}

/// The child process: open `file` in a pane, page to its end, print the peak resident set (KB).
pub fn probe(store: &Path, file: &Path) {
    // As the picker sets it.
    codex_picker::memory::return_freed_memory_promptly();
    let store = super::sources::store(store.to_path_buf());
    let file = RolloutFile::at(file).expect("the file");
    let opened = open(&store, &file);
    println!(
        "{} {} {:?} {:?} {:?} {:?}",
        super::rss::vm_hwm_kb(),
        opened.lines,
        opened.read,
        opened.first_screen,
        opened.slowest_page,
        opened.whole
    );
}

pub fn figures(t: &mut Table, ctx: &Ctx) {
    let mut by_size: Vec<&RolloutFile> = ctx.files.iter().collect();
    by_size.sort_by_key(|f| f.size);
    let (Some(median), Some(largest)) = (by_size.get(by_size.len() / 2), by_size.last()) else {
        return;
    };
    for (what, file) in [("median", median), ("largest", largest)] {
        let opened = open(&ctx.store, file);
        let mb = file.size as f64 / 1e6;
        t.row(
            &format!(
                "pane: first screen of the {what} session ({mb:.1} MB, {} lines)",
                opened.lines
            ),
            opened.first_screen,
            None,
            "< 100 ms",
            opened.first_screen < Duration::from_millis(100),
        );
        t.row(
            &format!("pane: the whole {what} session read and shown"),
            opened.whole,
            None,
            "",
            true,
        );
        t.row(
            &format!("pane: slowest page down to the end, {what} session"),
            opened.slowest_page,
            None,
            "< 16 ms",
            opened.slowest_page < Duration::from_millis(16),
        );
        let out = Command::new(std::env::current_exe().expect("own path"))
            .arg("--pane-probe")
            .arg(ctx.dir())
            .arg(&file.path)
            .output()
            .expect("run the pane probe");
        let kb: u64 = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(u64::MAX);
        println!("pane: peak RSS of a process with the {what} session open and paged to its end: {:.1} MB", kb as f64 / 1024.0);
    }
}
