//! The memory probe: a picker-like process (the indexer with its content phase, every row and the
//! content index held, a few searches) run as a child of the benchmark, reporting its peak
//! resident set.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;

use codex_picker::session::SessionRow;
use codex_picker::store::CacheSetup;
use codex_picker::workers::indexer::{self, Event, IndexOptions};

/// The picker's work in a process of its own: the indexer with the content phase (its cache in
/// `cache`, which starts empty, as on a first run),
/// keeping every row and the content index as the picker would, then a few searches. Prints
/// the peak resident set (VmHWM, KB).
pub fn probe(store: &Path, cache: &Path, threads: usize) {
    codex_picker::memory::small_pages();
    codex_picker::memory::return_freed_memory_promptly();
    let rx = indexer::spawn(
        super::sources::store(store.to_path_buf()),
        IndexOptions {
            threads,
            ..IndexOptions::default()
        },
        CacheSetup {
            dir: Some(cache.to_path_buf()),
            content: true,
        },
    );
    // As the picker's `Rows`: a list, and each row's place by path.
    let mut rows: Vec<Arc<SessionRow>> = Vec::new();
    let mut by_path: HashMap<OsString, usize> = HashMap::new();
    let mut content = None;
    for ev in rx {
        match ev {
            Event::Run(ev) | Event::Whole(ev) => {
                for row in ev.into_rows().unwrap_or_default() {
                    match by_path.get(row.path.as_os_str()) {
                        Some(&i) => rows[i] = row,
                        None => {
                            by_path.insert(row.path.clone().into_os_string(), rows.len());
                            rows.push(row);
                        }
                    }
                }
            }
            Event::ContentReady(c) => content = Some(c),
            _ => {}
        }
    }
    let content = content.expect("content index");
    for q in ["retry", "the culprit", "quokka12zeta"] {
        content.search(q, 200);
    }
    println!("{} {}", vm_hwm_kb(), rows.len());
}

pub fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
