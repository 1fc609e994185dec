//! Realistic synthetic Codex stores for benchmarks and tests.
//!
//! Owns the line shapes of several codex versions (0.120-style `user_message`/`agent_message`
//! events, 0.145 with `world_state` rows, 0.160/0.171 paginated `item_completed` rows with an
//! `ordinal` and response `metadata`), heavy-tailed file sizes, injected context, tool calls with
//! large outputs, token counts, applied patches, plans, compactions and images (`work`), names,
//! archived, compressed and exec sessions, and the `expected.jsonl` that
//! says what a correct reader reports for each file. Deterministic for a seed: a tiny built-in
//! PRNG, no dependency. Text is written into big reused buffers with no per-line allocation.

#![allow(
    dead_code,
    reason = "shared by the generator, the benchmark and the tests, each using a part"
)]

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, UNIX_EPOCH};

use super::shapes::{write_session, Writer};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct GenOptions {
    pub sessions: usize,
    pub seed: u64,
    /// Size multiplier: 1.0 gives a median of about 150 KB and about 500 KB mean per session.
    pub scale: f64,
    pub threads: usize,
    /// Claude Code sessions written under `claude/` beside the Codex store (`claude.rs`).
    pub claude: usize,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            sessions: 10_000,
            seed: 1,
            scale: 1.0,
            threads: 2,
            claude: 0,
        }
    }
}

/// What a correct reader reports for one file (one line of `expected.jsonl`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Expected {
    pub id: String,
    pub path: String,
    pub first_user_message: Option<String>,
    pub user_messages: u32,
    pub assistant_messages: u32,
    pub archived: bool,
    /// A phrase written only in one deep assistant reply of this session (none in a store
    /// made elsewhere, such as the real-words store: not checked then).
    #[serde(default)]
    pub deep_phrase: Option<String>,
    /// Every file its applied patches changed (absolute paths, sorted; none when the store's
    /// maker does not say: not checked then).
    #[serde(default)]
    pub files_changed: Option<Vec<String>>,
    /// Codex's last running total of its tokens (none when it wrote no count).
    #[serde(default)]
    pub tokens_total: Option<u64>,
}

/// Written into every tool output and every injected context: a content search must never
/// match it.
pub const TOOL_ONLY_MARKER: &str = "toolonlymarkerqq";
pub const INJECTED_ONLY_MARKER: &str = "injectedonlymarkerqq";

/// A small, fast, deterministic PRNG (splitmix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    /// A standard normal sample (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(1e-12);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

pub(crate) const WORDS: &[&str] = &[
    "the",
    "parser",
    "returns",
    "error",
    "when",
    "config",
    "file",
    "is",
    "missing",
    "cache",
    "refactor",
    "module",
    "test",
    "failing",
    "build",
    "cargo",
    "function",
    "struct",
    "trait",
    "async",
    "runtime",
    "tokio",
    "request",
    "handler",
    "database",
    "migration",
    "query",
    "index",
    "latency",
    "memory",
    "allocation",
    "thread",
    "lock",
    "mutex",
    "channel",
    "stream",
    "buffer",
    "terminal",
    "render",
    "widget",
    "layout",
    "scroll",
    "search",
    "filter",
    "session",
    "picker",
    "rollout",
    "deploy",
    "docker",
    "kubernetes",
    "pipeline",
    "workflow",
    "commit",
    "branch",
    "merge",
    "review",
    "lint",
    "clippy",
    "format",
    "python",
    "script",
    "regex",
    "unicode",
    "utf8",
    "bytes",
    "offset",
    "length",
    "limit",
    "timeout",
    "retry",
    "backoff",
    "metrics",
    "logging",
    "trace",
    "span",
    "release",
    "version",
    "upgrade",
    "dependency",
    "feature",
    "flag",
    "option",
    "argument",
    "default",
    "value",
    "please",
    "could",
    "you",
    "check",
    "why",
    "this",
    "fails",
    "and",
    "then",
    "also",
    "make",
    "sure",
    "that",
    "we",
    "keep",
    "behaviour",
    "stable",
];

pub(crate) const PROMPTS: &[&str] = &[
    "Fix the failing test in the parser module",
    "Why does the build break after the dependency upgrade?",
    "Add a retry with backoff to the request handler",
    "Refactor the cache so it survives a crash",
    "Explain what this repository does",
    "Make the search case-insensitive for Ünïcode names like ÉCOLE and Straße",
    "Write a migration that adds an index on sessions.updated_at",
    "The terminal flickers when scrolling fast, find out why",
];

/// Vocabulary slices for generated text, pre-escaped for JSON (no quote, backslash or control).
pub(crate) struct Pools {
    /// Prose with `\n` escapes, for tool output (cut points land on spaces).
    pub(crate) filler: Vec<u8>,
    pub(crate) base_instructions: String,
}

fn make_pools(seed: u64) -> Pools {
    let mut rng = Rng::new(seed ^ 0xF00D);
    let mut filler = Vec::with_capacity(4 << 20);
    let mut col = 0;
    while filler.len() < (4 << 20) {
        let w = WORDS[rng.below(WORDS.len() as u64) as usize];
        filler.extend_from_slice(w.as_bytes());
        col += w.len() + 1;
        if col > 70 {
            filler.extend_from_slice(b"\\n ");
            col = 0;
        } else {
            filler.push(b' ');
        }
        if rng.below(4000) == 0 {
            filler.extend_from_slice(TOOL_ONLY_MARKER.as_bytes());
            filler.push(b' ');
        }
    }
    // Shaped like codex's own (14 to 22 KB): markdown lines, headings, a few quoted words and
    // non-ASCII punctuation, so each `session_meta` row costs a reader what a real one does.
    let mut base =
        String::from("You are Codex, a coding agent based on GPT-5.\n\n# Personality\n\n");
    let mut col = 0;
    while base.len() < 16_000 {
        let w = WORDS[rng.below(WORDS.len() as u64) as usize];
        match rng.below(60) {
            0 => base.push_str(&format!("\"{w}\"")),
            1 => base.push_str(&format!("{w} —")),
            _ => base.push_str(w),
        }
        col += w.len() + 1;
        if rng.below(400) == 0 {
            base.push_str("\n\n## Section\n\n- ");
            col = 0;
        } else if col > 70 {
            base.push_str("\n- ");
            col = 0;
        } else {
            base.push(' ');
        }
    }
    Pools {
        filler,
        base_instructions: base,
    }
}

/// Append `s` to `out` as the inside of a JSON string.
pub fn escape_into(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\t' => b"\\t",
            b'\r' => b"\\r",
            c if c < 0x20 => {
                out.extend_from_slice(&b[start..i]);
                out.extend_from_slice(format!("\\u{c:04x}").as_bytes());
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&b[start..i]);
        out.extend_from_slice(esc);
        start = i + 1;
    }
    out.extend_from_slice(&b[start..]);
}

/// Codex versions whose shapes are mirrored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Version {
    V120,
    V145,
    V160,
    V171,
}

impl Version {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Version::V120 => "0.120.0",
            Version::V145 => "0.145.0",
            Version::V160 => "0.160.0",
            Version::V171 => "0.171.0",
        }
    }
    pub(crate) fn paginated(self) -> bool {
        matches!(self, Version::V160 | Version::V171)
    }
}

/// The plan of one session, decided before writing.
pub(crate) struct Plan {
    pub(crate) index: usize,
    pub(crate) id: String,
    pub(crate) created_ms: i64,
    pub(crate) version: Version,
    pub(crate) exec: bool,
    pub(crate) archived: bool,
    pub(crate) compressed: bool,
    pub(crate) named: bool,
    pub(crate) target: u64,
    /// Write one tool output over 20 MB (exactly one session of the store).
    pub(crate) giant_line: bool,
}

pub(crate) fn fmt_ts(ms: i64) -> String {
    // Civil date from days since the epoch (Howard Hinnant's algorithm).
    let secs = ms.div_euclid(1000);
    let milli = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

pub(crate) fn plan_scale(plan: &Plan) -> f64 {
    (plan.target as f64 / 150_000.0).clamp(0.05, 4.0).sqrt()
}

/// The phrase planted in one deep assistant reply of a session.
pub(crate) fn deep_phrase(plan: &Plan) -> String {
    format!("quokka{}zeta", plan.index)
}

fn make_plans(opts: &GenOptions) -> Vec<Plan> {
    let mut rng = Rng::new(opts.seed);
    let n = opts.sessions;
    let start_ms: i64 = 1_735_689_600_000; // 2025-01-01
    let span_ms: i64 = 700 * 86_400_000;
    let giant = if n > 0 {
        rng.below(n as u64) as usize
    } else {
        0
    };
    let mut plans: Vec<Plan> = (0..n)
        .map(|index| {
            let created_ms =
                start_ms + (span_ms / n.max(1) as i64) * index as i64 + rng.below(3_600_000) as i64;
            let version = match rng.below(4) {
                0 => Version::V120,
                1 => Version::V145,
                2 => Version::V160,
                _ => Version::V171,
            };
            // Log-normal sizes: median 150 KB, mean about 500 KB.
            let mut size = 150_000.0 * (1.55 * rng.normal()).exp();
            if rng.below(2000) == 0 {
                size = 50_000_000.0 + rng.below(20_000_000) as f64;
            }
            let target = (size.min(80_000_000.0) * opts.scale) as u64;
            let r = rng.next();
            let id = format!(
                "{:08x}-{:04x}-7{:03x}-{:04x}-{:012x}",
                (created_ms >> 16) as u32,
                (created_ms & 0xFFFF) as u16,
                (r >> 52) & 0xFFF,
                0x8000 | (index as u64 & 0x3FFF),
                (r & 0xFFFF_FFFF_FFFF) ^ index as u64
            );
            Plan {
                index,
                id,
                created_ms,
                version,
                exec: rng.chance(0.15),
                archived: rng.chance(0.05),
                compressed: rng.chance(0.08),
                named: rng.chance(0.1),
                target,
                giant_line: index == giant,
            }
        })
        .collect();
    if opts.scale < 0.5 {
        // A small store keeps the 20 MB line out.
        for p in &mut plans {
            p.giant_line = false;
        }
    }
    plans
}

fn rollout_path(out: &Path, plan: &Plan) -> PathBuf {
    let ts = fmt_ts(plan.created_ms);
    let name = format!(
        "rollout-{}T{}-{}-{}-{}.jsonl{}",
        &ts[..10],
        &ts[11..13],
        &ts[14..16],
        &ts[17..19],
        plan.id,
        if plan.compressed { ".zst" } else { "" }
    );
    if plan.archived {
        out.join("archived_sessions").join(name)
    } else {
        out.join("sessions")
            .join(&ts[..4])
            .join(&ts[5..7])
            .join(&ts[8..10])
            .join(name)
    }
}

fn generate_one(
    out: &Path,
    plan: &Plan,
    pools: &Pools,
    buf: Vec<u8>,
) -> io::Result<(Expected, Vec<u8>)> {
    let path = rollout_path(out, plan);
    fs::create_dir_all(path.parent().expect("a parent folder"))?;
    let mut w = Writer {
        buf,
        pools,
        plan,
        rng: Rng::new(plan.created_ms as u64 ^ plan.index as u64),
        ordinal: 0,
        now_ms: plan.created_ms,
        users: 0,
        assistants: 0,
        first_user: None,
        work: Default::default(),
        images: 0,
    };
    let file = fs::File::create(&path)?;
    let (users, assistants) = if plan.compressed {
        let mut enc = zstd::stream::write::Encoder::new(io::BufWriter::new(file), 1)?;
        let counts = write_session(&mut w, &mut enc)?;
        enc.write_all(&w.buf)?;
        enc.finish()?.flush()?;
        counts
    } else {
        let mut file = file;
        let counts = write_session(&mut w, &mut file)?;
        file.write_all(&w.buf)?;
        counts
    };
    set_mtime(&path, UNIX_EPOCH + Duration::from_millis(w.now_ms as u64))?;
    let mut buf = w.buf;
    buf.clear();
    let expected = Expected {
        id: plan.id.clone(),
        path: store_path(out, &path),
        first_user_message: w.first_user.clone(),
        user_messages: users,
        assistant_messages: assistants,
        archived: plan.archived,
        deep_phrase: Some(deep_phrase(plan)),
        files_changed: Some(w.work.files.iter().cloned().collect()),
        tokens_total: w.work.counted.then_some(w.work.tokens[4]),
    };
    Ok((expected, buf))
}

/// Give the file at `path` the modification time `mtime` (a generated session's last write).
pub fn set_mtime(path: &Path, mtime: std::time::SystemTime) -> io::Result<()> {
    fs::File::options()
        .write(true)
        .open(path)?
        .set_modified(mtime)
}

/// `path` as an expectation names it: relative to the store `out`.
pub fn store_path(out: &Path, path: &Path) -> String {
    path.strip_prefix(out)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// `make(i, buffer)` for every `i` below `n`, on `threads` threads, each thread reusing one
/// write buffer; the results in index order, or the first error.
pub fn in_parallel<T: Send>(
    n: usize,
    threads: usize,
    make: impl Fn(usize, Vec<u8>) -> io::Result<(T, Vec<u8>)> + Sync,
) -> io::Result<Vec<T>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut buf = Vec::with_capacity(1 << 20);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    match make(i, std::mem::take(&mut buf)) {
                        Ok((made, b)) => {
                            buf = b;
                            results.lock().expect("results")[i] = Some(made);
                        }
                        Err(e) => {
                            *failure.lock().expect("failure") = Some(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("failure") {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|made| made.expect("every session generated"))
        .collect())
}

/// Generate a store under `out` (which should be empty or absent), and its Claude Code part
/// under `out/claude` when `opts.claude` asks for one; returns total bytes written.
pub fn generate(out: &Path, opts: &GenOptions) -> io::Result<u64> {
    fs::create_dir_all(out.join("sessions"))?;
    fs::create_dir_all(out.join("archived_sessions"))?;
    let plans = make_plans(opts);
    let pools = make_pools(opts.seed);
    let results = in_parallel(plans.len(), opts.threads, |i, buf| {
        generate_one(out, &plans[i], &pools, buf)
    })?;
    let claude = match opts.claude {
        0 => Vec::new(),
        _ => super::claude::generate(out, opts, &pools)?,
    };
    let mut expected = io::BufWriter::new(fs::File::create(out.join("expected.jsonl"))?);
    let mut names = io::BufWriter::new(fs::File::create(out.join("session_index.jsonl"))?);
    for (plan, e) in plans.iter().zip(results) {
        serde_json::to_writer(&mut expected, &e)?;
        expected.write_all(b"\n")?;
        if plan.named {
            writeln!(
                names,
                "{{\"id\":\"{}\",\"thread_name\":\"Named session {}\",\"updated_at\":\"{}\"}}",
                plan.id,
                plan.index,
                fmt_ts(plan.created_ms)
            )?;
        }
    }
    for e in &claude {
        serde_json::to_writer(&mut expected, e)?;
        expected.write_all(b"\n")?;
    }
    expected.flush()?;
    names.flush()?;
    let mut total = 0;
    for entry in walkdir::WalkDir::new(out).into_iter().flatten() {
        if entry.file_type().is_file() {
            total += entry.metadata().map_or(0, |m| m.len());
        }
    }
    Ok(total)
}

/// Read `expected.jsonl` of a generated store.
pub fn read_expected(out: &Path) -> io::Result<Vec<Expected>> {
    let text = fs::read_to_string(out.join("expected.jsonl"))?;
    text.lines()
        .map(|l| serde_json::from_str(l).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)))
        .collect()
}
