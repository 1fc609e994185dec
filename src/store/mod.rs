//! The Codex session store, read-only: where it is, which files it holds, what each says.
//!
//! Everything here only reads. Nothing is written, renamed, locked or created under the store;
//! per-file problems come back as [`FileIssue`]s and never stop a run.

pub mod cache;
mod cache_codec;
pub mod fork;
pub mod issues;
pub mod names;
pub mod open;
pub mod walk;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::rollout::record::Meta;
use crate::rollout::rules;
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::session::{self, SessionRow};
use crate::timefmt;
use walk::RolloutFile;

/// A file (or folder) that was passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    pub path: PathBuf,
    pub reason: String,
}

impl fmt::Display for FileIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "codex-picker: {}: {}", self.path.display(), self.reason)
    }
}

/// A located store: `<home>/sessions`, `<home>/archived_sessions`, `<home>/session_index.jsonl`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    pub home: PathBuf,
}

impl Store {
    /// `--codex-home`, else `$CODEX_HOME` when set and non-empty, else `~/.codex`. Any bytes
    /// a Unix path may hold are kept as they are.
    pub fn locate(
        flag: Option<&Path>,
        codex_home_env: Option<&std::ffi::OsStr>,
        home_env: Option<&std::ffi::OsStr>,
    ) -> Option<Store> {
        if let Some(dir) = flag {
            return Some(Store {
                home: dir.to_path_buf(),
            });
        }
        if let Some(env) = codex_home_env.filter(|s| !s.is_empty()) {
            return Some(Store {
                home: PathBuf::from(env),
            });
        }
        home_env.filter(|s| !s.is_empty()).map(|h| Store {
            home: Path::new(h).join(".codex"),
        })
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.home.join("sessions")
    }

    pub fn archived_dir(&self) -> PathBuf {
        self.home.join("archived_sessions")
    }

    /// The store has a `sessions/` or `archived_sessions/` folder.
    pub fn exists(&self) -> bool {
        self.sessions_dir().is_dir() || self.archived_dir().is_dir()
    }

    /// Rollout files, archived ones too when asked.
    pub fn files(&self, archived: bool) -> (Vec<RolloutFile>, Vec<FileIssue>) {
        let archived_dir = self.archived_dir();
        walk::find_rollouts(
            &self.sessions_dir(),
            archived.then_some(archived_dir.as_path()),
        )
    }

    /// Every rollout by name only, newest name first (see [`walk::list_rollouts`]).
    pub fn listing(&self, archived: bool) -> (Vec<walk::Listed>, Vec<FileIssue>) {
        let archived_dir = self.archived_dir();
        walk::list_rollouts(
            &self.sessions_dir(),
            archived.then_some(archived_dir.as_path()),
        )
    }

    /// Names from `session_index.jsonl`.
    pub fn names(&self) -> HashMap<String, String> {
        names::read_session_index(&self.home.join("session_index.jsonl"))
    }
}

/// The store named by the flags, or a one-line reason why there is none.
pub fn resolve(args: &crate::cli::StoreArgs) -> Result<Store, String> {
    if args.demo {
        let home = crate::demo::materialize(&crate::paths::cache_dir())
            .map_err(|e| format!("cannot lay out the demo store: {e}"))?;
        return Ok(Store { home });
    }
    let env = std::env::var_os("CODEX_HOME");
    let home = std::env::var_os("HOME");
    let store = Store::locate(args.codex_home.as_deref(), env.as_deref(), home.as_deref())
        .ok_or_else(|| {
            "cannot find a Codex home: set --codex-home DIR or $CODEX_HOME (or try --demo)"
                .to_owned()
        })?;
    if !store.exists() {
        return Err(format!(
            "no Codex sessions at {} (use --codex-home DIR or $CODEX_HOME to point at a Codex home, or --demo to try the built-in demo store)",
            store.home.display()
        ));
    }
    Ok(store)
}

/// Read size of a preview pass and of a full pass.
const PREVIEW_BUF: usize = 32 << 10;
const FULL_BUF: usize = 128 << 10;

/// Continue (or start) a pass over one file.
pub fn scan_file(
    file: &RolloutFile,
    state: &mut ScanState,
    opts: &ScanOptions,
) -> Result<(), FileIssue> {
    let issue = |reason: String| FileIssue {
        path: file.path.clone(),
        reason,
    };
    let buf = match opts.until {
        Until::FirstPrompt => PREVIEW_BUF,
        Until::End => FULL_BUF,
    };
    let reader = open::open_at_with(&file.path, file.compressed, state.offset, buf)
        .map_err(|e| issue(e.to_string()))?;
    // A read error part-way ends the pass like the end of the file once the file is known to
    // be a session (the reader's rule); before that it is the file's problem.
    state.scan(reader, opts).map_err(|e| issue(e.to_string()))
}

/// Why a scanned file is not a session, if it is not.
pub fn not_a_session(file: &RolloutFile, state: &ScanState) -> Option<FileIssue> {
    if state.meta.is_some() || state.saw_message {
        return None;
    }
    let reason = issues::not_a_session_reason(file.size, state.skipped_lines);
    Some(FileIssue {
        path: file.path.clone(),
        reason,
    })
}

/// Build the row of a scanned file.
pub fn row_from_scan(
    file: &RolloutFile,
    state: &ScanState,
    names: &HashMap<String, String>,
) -> SessionRow {
    row_from_parts(
        file,
        state,
        state.meta.clone().unwrap_or_default(),
        state.first_prompt().map(str::to_owned),
        state.thread_name.clone(),
        names,
    )
}

/// [`row_from_scan`] from a state that is no longer needed: its strings are moved, not copied.
pub fn row_from_state(
    file: &RolloutFile,
    mut state: ScanState,
    names: &HashMap<String, String>,
) -> SessionRow {
    let meta = state.meta.take().unwrap_or_default();
    let first = state.take_first_prompt();
    let thread_name = state.thread_name.take();
    row_from_parts(file, &state, meta, first, thread_name, names)
}

fn row_from_parts(
    file: &RolloutFile,
    state: &ScanState,
    meta: Meta,
    first: Option<String>,
    thread_name: Option<String>,
    names: &HashMap<String, String>,
) -> SessionRow {
    // The file name is only needed when the metadata has no id.
    let id = meta.id.clone().unwrap_or_else(|| {
        let file_name = file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        session::uuid_from_file_name(&file_name).map_or_else(|| file_name.clone(), str::to_owned)
    });
    let (user, assistant) = state.counts();
    let name = fork::own_name(&id, &meta, first.is_some(), names)
        .cloned()
        .or(thread_name);
    SessionRow {
        preview: first
            .as_deref()
            .map(rules::preview_line)
            .unwrap_or_default(),
        first_user_message: first,
        created_ms: meta.timestamp.as_deref().and_then(timefmt::parse_rfc3339),
        created_at: meta.timestamp,
        updated_ms: file.mtime_ms,
        interactive: session::is_interactive_source(meta.source.as_deref()),
        cwd: meta.cwd,
        git_branch: meta.git_branch,
        source: meta.source,
        originator: meta.originator,
        cli_version: meta.cli_version,
        model_provider: meta.model_provider,
        forked_from_id: meta.forked_from_id,
        history_base: meta.history_base,
        archived: file.archived,
        name,
        user_messages: state.complete.then_some(user),
        assistant_messages: state.complete.then_some(assistant),
        size: file.size,
        skipped_lines: state.skipped_lines,
        id,
        path: file.path.clone(),
    }
}

/// Summarise one file from the start.
pub fn summarise(
    file: &RolloutFile,
    until: Until,
    names: &HashMap<String, String>,
) -> Result<(SessionRow, ScanState), FileIssue> {
    let mut state = ScanState::default();
    scan_file(file, &mut state, &ScanOptions::new(until))?;
    if let Some(issue) = not_a_session(file, &state) {
        return Err(issue);
    }
    Ok((row_from_scan(file, &state, names), state))
}

/// Options of a listing.
#[derive(Debug, Clone, Copy)]
pub struct ListOptions {
    pub archived: bool,
    pub until: Until,
}

/// Summarise `files` on up to `threads` threads, in no particular order.
pub fn summarise_all(
    files: &[RolloutFile],
    until: Until,
    names: &HashMap<String, String>,
    threads: usize,
) -> (Vec<SessionRow>, Vec<FileIssue>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut rows = Vec::new();
        let mut issues = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(file) = files.get(i) else { break };
            match summarise(file, until, names) {
                Ok((row, _)) => rows.push(row),
                Err(issue) => issues.push(issue),
            }
        }
        (rows, issues)
    };
    let threads = threads.clamp(1, 16);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let (mut rows, mut issues) = work();
        for handle in handles {
            if let Ok((r, i)) = handle.join() {
                rows.extend(r);
                issues.extend(i);
            }
        }
        (rows, issues)
    })
}

/// Free a large structure on a thread of its own: tens of thousands of small frees are not
/// worth waiting for on the way to the output.
pub fn drop_later<T: Send + 'static>(value: T) {
    // When no thread can be had, the failed spawn frees the value here.
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

/// Threads worth using for reading: the machine's cores, at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(8))
}

/// Every session of the store, newest first, with the problems met.
pub fn list(store: &Store, opts: ListOptions) -> (Vec<SessionRow>, Vec<FileIssue>) {
    let (files, mut issues) = store.files(opts.archived);
    let names = store.names();
    let (mut rows, more) = summarise_all(&files, opts.until, &names, default_threads());
    issues.extend(more);
    issues.extend(issues::duplicate_ids(&rows));
    for row in &mut rows {
        fork::fill_from_parent(row, &mut files.as_slice());
    }
    // A total order (path breaks the last ties), so the sort needs no stable scratch copy.
    SessionRow::sort_updated_desc(&mut rows);
    issues.sort_by(|a, b| a.path.cmp(&b.path));
    (rows, issues)
}

/// What [`list_cached`] did with the cache.
#[derive(Debug, Clone, Default)]
pub struct CacheReport {
    /// Why an existing cache was not used (missing, corrupt, old format...).
    pub ignored: Option<String>,
    pub stats: cache::RefreshStats,
    /// The cache had anything to change (and was saved, unless saving is not allowed).
    pub changed: bool,
    /// Saving the cache failed (the listing is still right).
    pub save_error: Option<String>,
}

/// What a store walk found: the rollouts and the problems met.
pub type Walked = (Vec<RolloutFile>, Vec<FileIssue>);

/// What [`list_walked`] starts from besides the walk: the session names and the rows cache as
/// loaded (read while the store is walked: neither needs the other).
pub struct Loaded {
    pub names: HashMap<String, String>,
    pub cache: cache::RowCache,
    pub outcome: cache::LoadOutcome,
}

/// The names and the rows cache at `cache_file`.
pub fn load_cached(store: &Store, cache_file: &Path) -> Loaded {
    let names = store.names();
    let (cache, outcome) = cache::RowCache::load(cache_file, &store.home);
    Loaded {
        names,
        cache,
        outcome,
    }
}

/// [`list`] through the rows cache at `cache_file`: unchanged files are not read, grown ones are
/// read on from where the last run stopped, and the cache is saved when anything changed.
pub fn list_cached(
    store: &Store,
    opts: ListOptions,
    cache_file: &Path,
) -> (Vec<SessionRow>, Vec<FileIssue>, CacheReport) {
    let (walked, loaded) = walk_beside(store, opts.archived, || load_cached(store, cache_file));
    list_walked(store, opts, cache_file, walked, loaded)
}

/// Walk the store (archived sessions too when `archived`) while `side` runs on a thread of its
/// own (loading what the walk's result is then checked against); both results.
pub fn walk_beside<T: Send>(
    store: &Store,
    archived: bool,
    side: impl FnOnce() -> T + Send,
) -> (Walked, T) {
    std::thread::scope(|scope| {
        let side = scope.spawn(side);
        let walked = store.files(archived);
        match side.join() {
            Ok(done) => (walked, done),
            Err(payload) => std::panic::resume_unwind(payload),
        }
    })
}

/// [`list_cached`] once the store is walked and the cache loaded.
pub fn list_walked(
    store: &Store,
    opts: ListOptions,
    cache_file: &Path,
    (files, mut issues): Walked,
    loaded: Loaded,
) -> (Vec<SessionRow>, Vec<FileIssue>, CacheReport) {
    let Loaded {
        names,
        cache: mut rc,
        outcome,
    } = loaded;
    let mut report = CacheReport::default();
    if let cache::LoadOutcome::Ignored(why) = outcome {
        report.ignored = Some(why);
    }
    let entries = rc.entries.len();
    // Rows are made on the threads that settle each file (decoding or reading its state).
    let (mut rows, more, mut stats) = cache::refresh(
        &mut rc,
        &files,
        opts.until,
        default_threads(),
        |file, state| row_from_state(file, state, &names),
    );
    issues.extend(more);
    // Walked paths are distinct: when each entry was found by one, none is gone.
    if stats.cached != entries {
        stats.removed = rc.retain_walked(&files, opts.archived).len();
    }
    report.changed = stats.changed_cache() || report.ignored.is_some();
    if report.changed && cache::allowed(cache_file, &store.home) {
        if let Err(e) = rc.save(cache_file) {
            report.save_error = Some(e.to_string());
        }
    }
    drop_later(rc);
    // Telling that no id is there twice is cheap; naming the copies is not.
    let mut ids = std::collections::HashSet::with_capacity_and_hasher(
        rows.len(),
        cache::BytesHash::default(),
    );
    if !rows.iter().all(|r| ids.insert(r.id.as_str())) {
        issues.extend(issues::duplicate_ids(&rows));
    }
    drop(ids);
    for row in &mut rows {
        fork::fill_from_parent(row, &mut files.as_slice());
    }
    // A total order (path breaks the last ties), so the sort needs no stable scratch copy.
    SessionRow::sort_updated_desc(&mut rows);
    issues.sort_by(|a, b| a.path.cmp(&b.path));
    report.stats = stats;
    (rows, issues, report)
}
