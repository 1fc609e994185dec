//! The rows cache: every change to the store gives the same rows as a cold `--no-cache` run,
//! reading only what changed; a bad cache is rebuilt; two processes at once agree.

use crate::common::{bin, stdout};
use crate::generator::{list, small_store};
use codex_picker::session::SessionRow;
use codex_picker::store::cache::{self, Unusable};
use codex_picker::store::engine::{self, Stats};
use codex_picker::store::Store;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

pub(crate) struct Fixture {
    _dir: tempfile::TempDir,
    pub(crate) home: PathBuf,
    pub(crate) cache: PathBuf,
}

pub(crate) fn fixture(sessions: usize) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("codex");
    small_store(&home, sessions, 5);
    let cache = dir.path().join("xdg").join("rows.cache");
    Fixture {
        _dir: dir,
        home,
        cache,
    }
}

/// What `list` reads: archived sessions too, every file to its end.
pub(crate) fn opts(cache: Option<&Path>) -> engine::Options {
    engine::Options {
        cache: cache.map(Path::to_path_buf),
        ..engine::Options::list(true)
    }
}

pub(crate) fn store_of(f: &Fixture) -> Store {
    Store::codex(f.home.clone())
}

pub(crate) fn cached(f: &Fixture) -> (Vec<SessionRow>, Stats, Option<Unusable>) {
    let (rows, _, finished) = engine::rows(&store_of(f), &opts(Some(&f.cache)));
    (rows, finished.stats, finished.cache_ignored)
}

pub(crate) fn cold(f: &Fixture) -> Vec<SessionRow> {
    engine::rows(&store_of(f), &opts(None)).0
}

/// A plain (not compressed) active rollout of the fixture.
pub(crate) fn plain_file(f: &Fixture) -> PathBuf {
    let rows = cold(f);
    rows.iter()
        .find(|r| !r.archived && r.path.extension().is_some_and(|e| e == "jsonl"))
        .map(|r| r.path.clone())
        .expect("a plain rollout")
}

pub(crate) fn set_mtime(path: &Path, later_secs: u64) {
    let t = SystemTime::now() + Duration::from_secs(later_secs);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

#[test]
fn unchanged_store_reads_nothing() {
    let f = fixture(15);
    let (first, stats, ignored) = cached(&f);
    assert!(matches!(ignored, Some(Unusable::Missing)), "{ignored:?}");
    assert_eq!(stats.rescanned, 15);
    let (second, stats, ignored) = cached(&f);
    assert!(ignored.is_none(), "{ignored:?}");
    assert_eq!(stats.reused, 15);
    assert_eq!(stats.bytes_read, 0);
    assert_eq!(first, second);
    assert_eq!(second, cold(&f));
}

#[test]
fn grown_file_is_read_from_its_old_end() {
    let f = fixture(10);
    cached(&f);
    let path = plain_file(&f);
    let appended = concat!(
        r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"user_message","message":"one more question"}}"#,
        "\n",
        r#"{"timestamp":"2026-01-01T00:00:01.000Z","type":"event_msg","payload":{"type":"agent_message","message":"one more answer"}}"#,
        "\n"
    );
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(appended.as_bytes()).unwrap();
    drop(file);
    set_mtime(&path, 60);
    let (rows, stats, _) = cached(&f);
    assert_eq!(stats.resumed, 1);
    assert_eq!(stats.rescanned, 0);
    assert_eq!(stats.bytes_read, appended.len() as u64);
    assert_eq!(rows, cold(&f));
}

#[test]
fn deleted_and_new_files() {
    let f = fixture(10);
    cached(&f);
    let gone = plain_file(&f);
    let copy = gone
        .with_file_name("rollout-2026-01-01T00-00-00-0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl");
    let text = std::fs::read_to_string(&gone).unwrap();
    std::fs::write(&copy, text).unwrap();
    std::fs::remove_file(&gone).unwrap();
    let (rows, stats, _) = cached(&f);
    assert_eq!(stats.removed, 1);
    assert_eq!(stats.rescanned, 1);
    assert!(rows.iter().all(|r| r.path != gone));
    assert!(rows.iter().any(|r| r.path == copy));
    assert_eq!(rows, cold(&f));
}

#[test]
fn rewritten_files_are_read_again() {
    let f = fixture(10);
    cached(&f);
    let path = cold(&f)
        .into_iter()
        .find(|r| {
            !r.archived
                && r.path.extension().is_some_and(|e| e == "jsonl")
                && r.first_user_message
                    .as_deref()
                    .is_some_and(|m| m.contains("(task"))
        })
        .map(|r| r.path)
        .expect("a plain rollout with a task prompt");
    // Same size, new text, new mtime: truncated then rewritten.
    let text = std::fs::read_to_string(&path).unwrap();
    let rewritten = text.replace("(task", "(TASK");
    assert_eq!(rewritten.len(), text.len());
    std::fs::write(&path, &rewritten).unwrap();
    set_mtime(&path, 120);
    let (rows, stats, _) = cached(&f);
    assert_eq!(stats.rescanned, 1);
    assert_eq!(rows, cold(&f));
    let row = rows.iter().find(|r| r.path == path).unwrap();
    assert!(row.first_user_message.as_deref().unwrap().contains("(TASK"));
    // Shrunk: the first lines only.
    let head: String = rewritten
        .lines()
        .take(8)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, head).unwrap();
    set_mtime(&path, 180);
    let (rows, stats, _) = cached(&f);
    assert_eq!(stats.rescanned, 1);
    assert_eq!(rows, cold(&f));
}

#[test]
fn corrupt_or_old_cache_is_rebuilt() {
    let f = fixture(8);
    let (good, _, _) = cached(&f);
    let bytes = std::fs::read(&f.cache).unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 10;
    flipped[last] ^= 0x20;
    // The same body under an older format version.
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = String::from_utf8(bytes[..nl].to_vec()).unwrap();
    let version = header.split(' ').nth(2).unwrap().to_owned();
    let mut old = header.replacen(&version, "v0", 1).into_bytes();
    old.extend_from_slice(&bytes[nl..]);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("garbage", b"\x00\xffnot a cache at all".to_vec()),
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("flipped byte", flipped),
        ("old format", old),
        ("empty", Vec::new()),
    ];
    for (what, content) in cases {
        std::fs::write(&f.cache, content).unwrap();
        let (rows, stats, ignored) = cached(&f);
        assert!(ignored.is_some(), "{what}: the cache was trusted");
        assert_eq!(stats.rescanned, 8, "{what}");
        assert_eq!(rows, good, "{what}");
        let (_, stats, ignored) = cached(&f);
        assert!(ignored.is_none(), "{what}: not rebuilt: {ignored:?}");
        assert_eq!(stats.reused, 8, "{what}: not rebuilt");
    }
}

#[test]
fn two_processes_at_once_agree() {
    let f = fixture(30);
    let xdg = f.cache.parent().unwrap().join("shared");
    let want = list(&f.home, None);
    let spawn = || {
        bin()
            .args(["list", "--json", "--archived", "--codex-home"])
            .arg(&f.home)
            .env("XDG_CACHE_HOME", &xdg)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let rows: Vec<serde_json::Value> = crate::common::json_lines(&stdout(&out));
        assert_eq!(rows, want);
    }
    assert_eq!(list(&f.home, Some(&xdg)), want);
    // Whatever the race left, it is one whole, valid cache.
    let files: Vec<_> = std::fs::read_dir(xdg.join("codex-picker"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(files.iter().all(|n| n.ends_with(".cache")), "{files:?}");
}

#[test]
fn cache_clear_and_never_inside_the_home() {
    let f = fixture(4);
    let xdg = f.cache.parent().unwrap().join("clear");
    list(&f.home, Some(&xdg));
    let indexed = bin()
        .args(["list", "--content", "anything", "--codex-home"])
        .arg(&f.home)
        .env("XDG_CACHE_HOME", &xdg)
        .output()
        .unwrap();
    assert!(indexed.status.success());
    let out = bin()
        .args(["cache", "clear"])
        .env("XDG_CACHE_HOME", &xdg)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with("removed ") && text.contains("rows-") && text.contains(".index"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_dir(xdg.join("codex-picker")).unwrap().count(),
        0
    );
    // A cache folder inside the Codex home is never written.
    let before = walk(&f.home);
    let inside = f.home.join("xdg");
    assert_eq!(list(&f.home, Some(&inside)), list(&f.home, None));
    assert_eq!(walk(&f.home), before);
    assert!(!cache::allowed(
        &inside.join("codex-picker/x.cache"),
        &f.home
    ));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().path().to_path_buf())
        .collect();
    v.sort();
    v
}

#[test]
fn indexer_starts_from_the_cache_and_reports_removals() {
    use codex_picker::store::CacheSetup;
    use codex_picker::workers::indexer::{self, Event, IndexOptions};
    let f = fixture(12);
    let setup = CacheSetup {
        dir: Some(f.cache.parent().unwrap().join("index")),
        content: true,
    };
    let events = |setup: &CacheSetup| -> Vec<Event> {
        indexer::spawn(
            Store::codex(f.home.clone()),
            IndexOptions::default(),
            setup.clone(),
        )
        .into_iter()
        .collect()
    };
    let content_of = |run: &[Event]| {
        // The content index, then the end of the whole read, which ends the run.
        let end = matches!(run.last(), Some(Event::Whole(engine::Event::Finished(_))));
        assert!(end, "{:?}", run.last());
        run.iter()
            .rev()
            .find_map(|e| match e {
                Event::ContentReady(c) => Some(c.clone()),
                _ => None,
            })
            .expect("a content index")
    };
    let cold_run = events(&setup);
    assert!(matches!(
        cold_run[0],
        Event::Run(engine::Event::Found { total: 12 })
    ));
    let content = content_of(&cold_run);
    assert_eq!(
        content.len(),
        12,
        "every session searchable on a cold start"
    );
    let warm = events(&setup);
    let Event::Run(engine::Event::Rows(first)) = &warm[0] else {
        panic!("the first event is not the cached rows: {:?}", warm[0]);
    };
    assert_eq!(first.len(), 12);
    // Nothing changed: no row is sent again, none removed (the cached rows aside).
    assert!(!warm.iter().any(|e| matches!(
        e,
        Event::Run(engine::Event::Updated(_) | engine::Event::Removed(_))
            | Event::Whole(
                engine::Event::Rows(_) | engine::Event::Updated(_) | engine::Event::Removed(_)
            )
    )));
    let gone = plain_file(&f);
    std::fs::remove_file(&gone).unwrap();
    let after = events(&setup);
    let removed: Vec<&PathBuf> = after
        .iter()
        .filter_map(|e| match e {
            Event::Run(engine::Event::Removed(p)) | Event::Whole(engine::Event::Removed(p)) => {
                Some(p)
            }
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(removed, vec![&gone]);
    assert_eq!(content_of(&after).len(), 11);
}

/// A fixture of `sessions` sessions read once by the indexer with its cache in `dir` (the
/// fixture's `index` folder), that folder, and the rows cache file there.
pub(crate) fn indexed(sessions: usize) -> (Fixture, PathBuf, PathBuf) {
    let f = fixture(sessions);
    let dir = f.cache.parent().unwrap().join("index");
    indexer_rows(&f, Some(dir.clone()));
    let file = cache::cache_file(&dir, &f.home, "rows");
    (f, dir, file)
}

/// Rows of one indexer run, by path, fork titles and removals applied.
pub(crate) fn indexer_rows(f: &Fixture, dir: Option<PathBuf>) -> Vec<SessionRow> {
    use codex_picker::store::CacheSetup;
    use codex_picker::workers::indexer::{self, Event, IndexOptions};
    let mut rows = std::collections::BTreeMap::new();
    let rx = indexer::spawn(
        Store::codex(f.home.clone()),
        IndexOptions::default(),
        CacheSetup {
            dir,
            content: false,
        },
    );
    for event in rx {
        let (Event::Run(event) | Event::Whole(event)) = event else {
            continue;
        };
        match event {
            engine::Event::Removed(paths) => paths.iter().for_each(|p| drop(rows.remove(p))),
            event => rows.extend(
                event
                    .into_rows()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|r| (r.path.clone(), Arc::unwrap_or_clone(r))),
            ),
        }
    }
    rows.into_values().collect()
}

#[test]
fn indexer_gives_the_same_rows_cold_cached_and_warm() {
    let f = fixture(30);
    let dir = f.cache.parent().unwrap().join("index");
    let no_cache = indexer_rows(&f, None);
    assert_eq!(no_cache.len(), 30);
    // The preview, then every file read to its end: the rows `list` makes.
    let mut whole = engine::rows(&store_of(&f), &engine::Options::list(true)).0;
    whole.sort_by(|a, b| a.path.cmp(&b.path));
    assert_eq!(no_cache, whole, "a cold index reads as list does");
    assert_eq!(
        indexer_rows(&f, Some(dir.clone())),
        no_cache,
        "cold, cache written"
    );
    assert_eq!(
        indexer_rows(&f, Some(dir)),
        no_cache,
        "warm, from the cache"
    );
}

/// The body of a rows cache file: its first section (with the length and checksum in front of
/// it) and the rest.
fn cache_sections(file: &Path) -> (Vec<u8>, Vec<u8>) {
    let bytes = std::fs::read(file).unwrap();
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let body = &bytes[nl + 1..];
    let len = u64::from_le_bytes(body[..8].try_into().unwrap()) as usize;
    (body[..16 + len].to_vec(), body[16 + len..].to_vec())
}

#[test]
fn the_first_section_holds_the_newest_sessions() {
    let f = fixture(300);
    cached(&f);
    let head = cache::RowCache::head(&f.cache, &f.home);
    assert_eq!(head.len(), cache::HEAD_ROWS);
    let (mut files, _) = Store::codex(f.home.clone()).files(true);
    files.sort_by(|a, b| {
        b.mtime_ms
            .cmp(&a.mtime_ms)
            .then_with(|| a.path.cmp(&b.path))
    });
    let got: Vec<_> = head.entries().iter().map(|e| head.file(e)).collect();
    assert_eq!(got, files[..cache::HEAD_ROWS]);
    // Each state is the one the whole cache holds.
    let rows = cold(&f);
    for e in head.entries() {
        let (file, state) = (head.file(e), head.state(e).unwrap());
        let row = rows.iter().find(|r| r.path == file.path).unwrap();
        assert_eq!(state.first_prompt(), row.first_user_message.as_deref());
    }
}

#[test]
fn indexer_with_the_rest_of_its_cache_damaged_corrects_the_first_rows() {
    let (f, dir, file) = indexed(30);
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0x20;
    std::fs::write(&file, bytes).unwrap();
    // The first section is whole and its rows are sent; one of them is gone since.
    assert_eq!(cache::RowCache::head(&file, &f.home).len(), 30);
    std::fs::remove_file(plain_file(&f)).unwrap();
    assert_eq!(indexer_rows(&f, Some(dir.clone())), indexer_rows(&f, None));
    assert_eq!(
        indexer_rows(&f, Some(dir)),
        indexer_rows(&f, None),
        "rebuilt"
    );
}

#[test]
fn indexer_whose_first_section_is_older_than_the_rest_shows_no_stale_row() {
    let (f, dir, file) = indexed(10);
    let (old_head, _) = cache_sections(&file);
    // A file grows and the cache is written again: a reader may then take the first section
    // from the file before and the rest from the file after.
    let path = plain_file(&f);
    let line = r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"agent_message","message":"later"}}"#;
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(line);
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    set_mtime(&path, 60);
    indexer_rows(&f, Some(dir.clone()));
    let (_, new_rest) = cache_sections(&file);
    let spliced = [old_head, new_rest].concat();
    cache::write_envelope(&file, "rows", cache::rows_version(), &spliced).unwrap();
    let rows = indexer_rows(&f, Some(dir));
    assert_eq!(rows, indexer_rows(&f, None));
    let row = rows.iter().find(|r| r.path == path).unwrap();
    assert_eq!(row.size, std::fs::metadata(&path).unwrap().len());
}

#[test]
fn a_file_that_is_not_a_session_does_not_make_the_cache_be_saved_again() {
    let f = fixture(6);
    let day = cold(&f)[0].path.parent().unwrap().to_path_buf();
    std::fs::write(
        day.join("rollout-2026-01-01T00-00-00-00000000-0000-0000-0000-00000000000e.jsonl"),
        b"",
    )
    .unwrap();
    let store = store_of(&f);
    // `list`: the first run saves the cache, the second has nothing to change.
    let (_, issues, first) = engine::rows(&store, &opts(Some(&f.cache)));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(first.changed);
    let (_, issues, second) = engine::rows(&store, &opts(Some(&f.cache)));
    assert_eq!(issues.len(), 1);
    assert!(!second.changed, "{:?}", second.stats);
    // The indexer: its rows cache is not written again either.
    let dir = f.cache.parent().unwrap().join("indexer");
    indexer_rows(&f, Some(dir.clone()));
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("rows-"))
        .expect("the indexer's rows cache");
    let long_ago = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(long_ago)
        .unwrap();
    indexer_rows(&f, Some(dir));
    let mtime = std::fs::metadata(&file).unwrap().modified().unwrap();
    assert_eq!(mtime, long_ago, "the indexer saved an unchanged cache");
}
