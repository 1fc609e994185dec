//! Taps on the engine's whole read: a session the tap wants is read whole once, for its row
//! and for the tap; one it does not want, and whose cached state is whole, is not looked at.

use crate::cache::{fixture, store_of, Fixture};
use codex_picker::rollout::transcript::{Transcript, TranscriptOptions};
use codex_picker::session::SessionRow;
use codex_picker::store::engine::{self, Finished, Kind, Tap};
use codex_picker::store::walk::RolloutFile;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A file a tap was given: its path, and its session id and message count when it was read.
type Taken = (PathBuf, Option<(String, usize)>);

/// A tap that wants the files `wants` picks, and records what it is given.
struct Recorder {
    wants: Box<dyn Fn(&RolloutFile) -> bool + Send + Sync>,
    taken: Mutex<Vec<Taken>>,
    ended: AtomicBool,
}

impl Recorder {
    fn new(wants: impl Fn(&RolloutFile) -> bool + Send + Sync + 'static) -> Arc<Recorder> {
        Arc::new(Recorder {
            wants: Box::new(wants),
            taken: Mutex::new(Vec::new()),
            ended: AtomicBool::new(false),
        })
    }
}

impl Tap for Recorder {
    fn options(&self) -> TranscriptOptions {
        TranscriptOptions::messages_only()
    }

    fn wants(&self, files: &[RolloutFile]) -> Vec<bool> {
        files.iter().map(|f| (self.wants)(f)).collect()
    }

    fn take(&self, file: &RolloutFile, read: Option<(&SessionRow, Transcript)>) {
        let read = read.map(|(row, t)| (row.id.clone(), t.messages().count()));
        self.taken.lock().unwrap().push((file.path.clone(), read));
    }

    fn settled(&self) -> bool {
        true
    }

    fn end(&self) {
        self.ended.store(true, Ordering::Relaxed);
    }
}

/// A whole read of `f` after the picker's first run, tapped by `tap`: the rows it sends (by
/// path, the last of each) and its end.
fn whole_read(f: &Fixture, tap: &Arc<Recorder>) -> (BTreeMap<PathBuf, SessionRow>, Finished) {
    let store = store_of(f);
    let opts = |kind| engine::Options {
        cache: Some(f.cache.clone()),
        ..engine::Options::new(kind, true)
    };
    let (first, _, _) = engine::rows(&store, &opts(Kind::First));
    assert_eq!(first.len(), 12);
    let whole = engine::Options {
        tap: Some(tap.clone() as Arc<dyn Tap>),
        ..opts(Kind::Whole)
    };
    let mut rows = BTreeMap::new();
    let mut finished = None;
    engine::run(&store, &whole, &mut |event| {
        match event {
            engine::Event::Updated(r) => rows.extend(r.into_iter().map(|r| (r.path.clone(), r))),
            engine::Event::Finished(f) => finished = Some(*f),
            _ => {}
        }
        true
    });
    (rows, finished.expect("the run ended"))
}

#[test]
fn a_session_the_tap_wants_is_read_whole_once_for_its_row_and_the_tap() {
    let f = fixture(12);
    // A cold listing reads each file once, from its start to its end.
    let (mut listed, _, cold) = engine::rows(&store_of(&f), &engine::Options::list(true));
    let tap = Recorder::new(|_| true);
    let (rows, finished) = whole_read(&f, &tap);
    let stats = &finished.stats;
    assert_eq!((stats.rescanned, stats.resumed), (12, 0), "{stats:?}");
    assert_eq!(
        stats.bytes_read, cold.stats.bytes_read,
        "each file read once, from its start"
    );
    let taken = tap.taken.lock().unwrap();
    assert_eq!(taken.len(), 12);
    for (path, read) in taken.iter() {
        let (id, messages) = read.as_ref().expect("a session");
        assert_eq!(&rows[path].id, id, "{}", path.display());
        assert!(*messages > 0, "{}", path.display());
    }
    assert!(tap.ended.load(Ordering::Relaxed));
    // The rows are whole: those `list` makes.
    listed.sort_by(|a, b| a.path.cmp(&b.path));
    assert_eq!(rows.into_values().collect::<Vec<_>>(), listed);
}

#[test]
fn a_whole_cached_session_the_tap_does_not_want_is_not_looked_at() {
    let f = fixture(12);
    // Every state whole in the cache.
    let (rows, _) = whole_read(&f, &Recorder::new(|_| true));
    assert_eq!(rows.len(), 12);
    let none = Recorder::new(|_| false);
    let (rows, finished) = whole_read(&f, &none);
    assert!(rows.is_empty(), "rows sent again: {}", rows.len());
    assert_eq!(finished.stats.bytes_read, 0);
    assert!(none.taken.lock().unwrap().is_empty());
    // One wanted: only it is read, and its row sent again.
    let (files, _) = store_of(&f).files(true);
    let wanted = files[3].path.clone();
    let one = Recorder::new(move |f| f.path == wanted);
    let (rows, finished) = whole_read(&f, &one);
    assert_eq!(one.taken.lock().unwrap().len(), 1);
    assert_eq!(rows.len(), 1);
    assert_eq!(finished.stats.rescanned, 1);
}
