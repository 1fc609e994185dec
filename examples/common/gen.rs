//! Realistic synthetic Codex stores for benchmarks and tests.
//!
//! Owns the line shapes of several codex versions (0.120-style `user_message`/`agent_message`
//! events, 0.145 with `world_state` rows, 0.160/0.171 paginated `item_completed` rows with an
//! `ordinal` and response `metadata`), heavy-tailed file sizes, injected context, tool calls with
//! large outputs, names, archived, compressed and exec sessions, and the `expected.jsonl` that
//! says what a correct reader reports for each file. Deterministic for a seed: a tiny built-in
//! PRNG, no dependency. Text is written into big reused buffers with no per-line allocation.

#![allow(dead_code)]

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, UNIX_EPOCH};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct GenOptions {
    pub sessions: usize,
    pub seed: u64,
    /// Size multiplier: 1.0 gives a median of about 150 KB and about 500 KB mean per session.
    pub scale: f64,
    pub threads: usize,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            sessions: 10_000,
            seed: 1,
            scale: 1.0,
            threads: 2,
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
    /// A phrase written only in one deep assistant reply of this session.
    pub deep_phrase: String,
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

const WORDS: &[&str] = &[
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

const PROMPTS: &[&str] = &[
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
struct Pools {
    /// Prose with `\n` escapes, for tool output (cut points land on spaces).
    filler: Vec<u8>,
    base_instructions: String,
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
    let mut base = String::from("You are Codex, a coding agent based on GPT-5. ");
    while base.len() < 9_000 {
        base.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        base.push(' ');
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
enum Version {
    V120,
    V145,
    V160,
    V171,
}

impl Version {
    fn name(self) -> &'static str {
        match self {
            Version::V120 => "0.120.0",
            Version::V145 => "0.145.0",
            Version::V160 => "0.160.0",
            Version::V171 => "0.171.0",
        }
    }
    fn paginated(self) -> bool {
        matches!(self, Version::V160 | Version::V171)
    }
}

/// The plan of one session, decided before writing.
struct Plan {
    index: usize,
    id: String,
    created_ms: i64,
    version: Version,
    exec: bool,
    archived: bool,
    compressed: bool,
    named: bool,
    target: u64,
    /// Write one tool output over 20 MB (exactly one session of the store).
    giant_line: bool,
}

fn fmt_ts(ms: i64) -> String {
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

struct Writer<'a> {
    buf: Vec<u8>,
    pools: &'a Pools,
    plan: &'a Plan,
    rng: Rng,
    ordinal: u64,
    now_ms: i64,
    users: u32,
    assistants: u32,
    first_user: Option<String>,
}

impl Writer<'_> {
    fn open(&mut self, kind: &str) {
        let ts = fmt_ts(self.now_ms);
        self.now_ms += 1 + self.rng.below(900) as i64;
        self.buf.extend_from_slice(b"{\"timestamp\":\"");
        self.buf.extend_from_slice(ts.as_bytes());
        self.buf.extend_from_slice(b"\",");
        if self.plan.version.paginated() {
            self.buf.extend_from_slice(b"\"ordinal\":");
            self.buf
                .extend_from_slice(self.ordinal.to_string().as_bytes());
            self.buf.push(b',');
            self.ordinal += 1;
        }
        self.buf.extend_from_slice(b"\"type\":\"");
        self.buf.extend_from_slice(kind.as_bytes());
        self.buf.extend_from_slice(b"\",\"payload\":");
    }

    fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn text(&mut self, s: &str) {
        escape_into(&mut self.buf, s);
    }

    fn end(&mut self) {
        self.buf.extend_from_slice(b"}\n");
    }

    fn meta(&mut self) {
        let p = self.plan;
        self.open("session_meta");
        self.raw("{");
        if p.version != Version::V120 {
            self.raw(&format!("\"session_id\":\"{}\",", p.id));
        }
        let (originator, source) = if p.exec {
            ("codex_exec", "exec")
        } else {
            ("codex_cli_rs", "cli")
        };
        self.raw(&format!(
            "\"id\":\"{}\",\"timestamp\":\"{}\",\"cwd\":\"/home/dev/work/proj{}\",\"originator\":\"{originator}\",\"cli_version\":\"{}\",\"source\":\"{source}\",\"model_provider\":\"openai\",",
            p.id,
            fmt_ts(p.created_ms),
            p.index % 37,
            p.version.name()
        ));
        if p.version.paginated() {
            self.raw("\"history_mode\":\"paginated\",");
        }
        self.raw("\"base_instructions\":{\"text\":\"");
        let base = self.pools.base_instructions.clone();
        self.text(&base);
        self.raw(&format!(
            "\"}},\"git\":{{\"commit_hash\":\"abc{}\",\"branch\":\"feature/b{}\"}}}}",
            p.index,
            p.index % 11
        ));
        self.end();
    }

    fn developer_and_context(&mut self) {
        self.open("response_item");
        self.raw("{\"type\":\"message\",\"role\":\"developer\",\"content\":[{\"type\":\"input_text\",\"text\":\"<permissions instructions>\\nFilesystem sandboxing defines which files can be read or written.\\n</permissions instructions>\"}]}");
        self.end();
        // The two-part injected message: AGENTS.md, then the environment context.
        self.open("response_item");
        let idx = self.plan.index;
        self.raw(&format!("{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"# AGENTS.md instructions for /home/dev/work/proj{idx}\\n\\n<INSTRUCTIONS>\\n# Project rules\\n\\n- {INJECTED_ONLY_MARKER} always run make test.\\n</INSTRUCTIONS>\"}},{{\"type\":\"input_text\",\"text\":\"<environment_context>\\n  <cwd>/home/dev/work/proj{idx}</cwd>\\n  <shell>bash</shell>\\n</environment_context>\"}}]}}"));
        self.end();
        if self.plan.version != Version::V120 {
            self.open("world_state");
            self.raw("{\"full\":true,\"state\":{\"agents_md\":{},\"apps_instructions\":false,\"environments\":{\"local\":{\"cwd\":\"/home/dev/work/proj\",\"status\":\"available\",\"shell\":\"bash\"}},\"current_date\":\"2026-11-30\",\"timezone\":\"Etc/UTC\"}}");
            self.end();
        }
    }

    fn turn_context(&mut self) {
        self.open("turn_context");
        self.raw("{\"cwd\":\"/home/dev/work/proj\",\"approval_policy\":\"never\",\"sandbox_policy\":{\"type\":\"workspace-write\",\"network_access\":false},\"model\":\"gpt-5.5\",\"effort\":\"medium\",\"summary\":\"auto\"}");
        self.end();
    }

    fn response_metadata(&mut self) {
        if self.plan.version.paginated() {
            self.raw(",\"metadata\":{\"client_authored\":false,\"mcp_attribution\":{\"status\":\"none\"}}");
        }
    }

    /// A user message in the version's event shape, plus its `response` twin.
    fn user(&mut self, text: &str) {
        self.open("response_item");
        self.raw("{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"");
        self.text(text);
        self.raw("\"}]");
        self.response_metadata();
        self.raw("}");
        self.end();
        self.open("event_msg");
        if self.plan.version.paginated() {
            self.raw(&format!("{{\"type\":\"item_completed\",\"thread_id\":\"{}\",\"item\":{{\"type\":\"UserMessage\",\"id\":\"u{}\",\"content\":[{{\"type\":\"text\",\"text\":\"", self.plan.id, self.ordinal));
            self.text(text);
            self.raw("\",\"text_elements\":[]}]}}");
        } else {
            self.raw("{\"type\":\"user_message\",\"message\":\"");
            self.text(text);
            self.raw("\",\"images\":[],\"local_images\":[],\"text_elements\":[]}");
        }
        self.end();
        self.users += 1;
        if self.first_user.is_none() && !text.trim().is_empty() {
            self.first_user = Some(text.to_owned());
        }
    }

    fn assistant(&mut self, text: &str, phase: &str) {
        self.open("event_msg");
        if self.plan.version.paginated() {
            self.raw(&format!("{{\"type\":\"item_completed\",\"thread_id\":\"{}\",\"item\":{{\"type\":\"AgentMessage\",\"id\":\"m{}\",\"content\":[{{\"type\":\"Text\",\"text\":\"", self.plan.id, self.ordinal));
            self.text(text);
            self.raw(&format!("\"}}],\"phase\":\"{phase}\"}}}}"));
        } else {
            self.raw("{\"type\":\"agent_message\",\"message\":\"");
            self.text(text);
            self.raw(&format!(
                "\",\"phase\":\"{phase}\",\"memory_citation\":null}}"
            ));
        }
        self.end();
        self.open("response_item");
        self.raw("{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"");
        self.text(text);
        self.raw(&format!("\"}}],\"phase\":\"{phase}\""));
        self.response_metadata();
        self.raw("}");
        self.end();
        self.assistants += 1;
    }

    fn tool(&mut self, out_len: usize) {
        let call = self.ordinal;
        self.open("response_item");
        self.raw("{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"**Checking the code**\"}],\"content\":null,\"encrypted_content\":\"gAAAAB");
        let n = 200 + self.rng.below(1200) as usize;
        self.filler_bytes(n, true);
        self.raw("\"}");
        self.end();
        self.open("response_item");
        self.raw(&format!("{{\"type\":\"function_call\",\"name\":\"exec_command\",\"arguments\":\"{{\\\"cmd\\\": \\\"rg -n cache src | head -200\\\"}}\",\"call_id\":\"call_{call}\"}}"));
        self.end();
        self.open("response_item");
        self.raw(&format!("{{\"type\":\"function_call_output\",\"call_id\":\"call_{call}\",\"output\":\"Process exited with code 0\\nOutput:\\n{TOOL_ONLY_MARKER} "));
        self.filler_bytes(out_len, false);
        self.raw("\"}");
        self.end();
        if self.plan.version != Version::V120 {
            self.open("event_msg");
            self.raw("{\"type\":\"token_count\",\"info\":{\"total_token_usage\":{\"input_tokens\":1001,\"output_tokens\":20,\"total_tokens\":1021}},\"rate_limits\":null}");
            self.end();
        }
    }

    /// `n` bytes of pre-escaped filler (base64-like letters when `dense`).
    fn filler_bytes(&mut self, n: usize, dense: bool) {
        let pool = &self.pools.filler;
        let mut left = n;
        while left > 0 {
            let start = self.rng.below((pool.len() / 2) as u64) as usize;
            let start = start + pool[start..].iter().position(|&c| c == b' ').unwrap_or(0) + 1;
            let mut end = (start + left).min(pool.len() - 16);
            while end > start && pool[end - 1] == b'\\' {
                end -= 1;
            }
            if end <= start {
                break;
            }
            if dense {
                let from = self.buf.len();
                self.buf.extend_from_slice(&pool[start..end]);
                for c in &mut self.buf[from..] {
                    if !c.is_ascii_alphanumeric() {
                        *c = b'A';
                    }
                }
            } else {
                self.buf.extend_from_slice(&pool[start..end]);
            }
            left -= end - start;
        }
    }

    fn sentence(&mut self, words: usize) -> String {
        let mut s = String::with_capacity(words * 8);
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[self.rng.below(WORDS.len() as u64) as usize]);
        }
        s
    }
}

fn first_prompt(rng: &mut Rng, index: usize) -> String {
    let base = PROMPTS[index % PROMPTS.len()];
    match rng.below(20) {
        0 => format!("# {base}\nSee the log below."),
        1 => format!("<div class=\"x\"> {base}"),
        2 => format!("# Context from my IDE setup:\n\n## Active file: src/lib.rs\n\n## My request for Codex:\n{base}"),
        _ => format!("{base} (task {index})"),
    }
}

/// Write one session into `w.buf` (flushing to `sink` as it grows); returns its expectations.
fn write_session(w: &mut Writer, sink: &mut dyn Write) -> io::Result<(u32, u32)> {
    w.meta();
    w.developer_and_context();
    let plan = w.plan;
    let mut turn = 0usize;
    let deep_turn_min = 3;
    let mut deep_written = false;
    let mut written: u64 = 0;
    loop {
        w.turn_context();
        let prompt = if turn == 0 {
            if w.rng.below(50) == 0 {
                // A white-space-only prompt first: the preview moves on to the next one.
                w.user("   \n ");
            }
            first_prompt(&mut w.rng, plan.index)
        } else {
            let n = 5 + w.rng.below(40) as usize;
            w.sentence(n)
        };
        w.user(&prompt);
        let tools = 1 + w.rng.below(6) as usize;
        for t in 0..tools {
            if w.rng.chance(0.4) {
                let n = 8 + w.rng.below(30) as usize;
                let note = w.sentence(n);
                w.assistant(&note, "commentary");
            }
            let big = if plan.giant_line && turn == 1 && t == 0 {
                21 << 20
            } else {
                let x = (8.3 + 1.3 * w.rng.normal()).exp() * plan_scale(plan);
                (x as usize).clamp(64, 4 << 20)
            };
            w.tool(big);
        }
        let n = 20 + w.rng.below(200) as usize;
        let mut answer = w.sentence(n);
        let last_chance = written + w.buf.len() as u64 >= plan.target;
        if !deep_written && (turn >= deep_turn_min || last_chance) {
            answer.push_str(&format!(" The culprit was {}.", deep_phrase(plan)));
            deep_written = true;
        }
        w.assistant(&answer, "final_answer");
        turn += 1;
        if w.buf.len() > (8 << 20) {
            written += w.buf.len() as u64;
            sink.write_all(&w.buf)?;
            w.buf.clear();
        }
        if written + w.buf.len() as u64 >= plan.target && deep_written {
            break;
        }
    }
    Ok((w.users, w.assistants))
}

fn plan_scale(plan: &Plan) -> f64 {
    (plan.target as f64 / 150_000.0).clamp(0.05, 4.0).sqrt()
}

/// The phrase planted in one deep assistant reply of a session.
fn deep_phrase(plan: &Plan) -> String {
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
    let mtime = UNIX_EPOCH + Duration::from_millis(w.now_ms as u64);
    fs::File::options()
        .write(true)
        .open(&path)?
        .set_modified(mtime)?;
    let mut buf = w.buf;
    buf.clear();
    let expected = Expected {
        id: plan.id.clone(),
        path: path
            .strip_prefix(out)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned(),
        first_user_message: w.first_user.clone(),
        user_messages: users,
        assistant_messages: assistants,
        archived: plan.archived,
        deep_phrase: deep_phrase(plan),
    };
    Ok((expected, buf))
}

/// Generate a store under `out` (which should be empty or absent); returns total bytes written.
pub fn generate(out: &Path, opts: &GenOptions) -> io::Result<u64> {
    fs::create_dir_all(out.join("sessions"))?;
    fs::create_dir_all(out.join("archived_sessions"))?;
    let plans = make_plans(opts);
    let pools = make_pools(opts.seed);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Expected>>> =
        Mutex::new((0..plans.len()).map(|_| None).collect());
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..opts.threads.max(1) {
            s.spawn(|| {
                let mut buf = Vec::with_capacity(1 << 20);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(plan) = plans.get(i) else { break };
                    match generate_one(out, plan, &pools, std::mem::take(&mut buf)) {
                        Ok((e, b)) => {
                            buf = b;
                            results.lock().expect("results")[i] = Some(e);
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
    let mut expected = io::BufWriter::new(fs::File::create(out.join("expected.jsonl"))?);
    let mut names = io::BufWriter::new(fs::File::create(out.join("session_index.jsonl"))?);
    for (plan, e) in plans.iter().zip(results.into_inner().expect("results")) {
        let e = e.expect("every session generated");
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
