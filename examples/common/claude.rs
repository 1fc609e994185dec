//! The Claude Code part of a generated store: `<out>/claude/projects/<folder>/<id>.jsonl`, the
//! folder being the session's first `cwd` with every character but an ASCII letter or digit
//! written as `-` (as Claude Code names it, one `-` for each UTF-16 unit), in the shapes Claude
//! Code 2.1.332 records (`claude_shapes.rs`, `claude_work.rs`). The same word source, the same
//! spread in time and the same heavy-tailed sizes as the Codex part; deterministic for a seed.
//! Some sessions are interactive (`cli`), some print mode (`sdk-cli`); some are renamed (the
//! `custom-title` rows, and for some `<id>/custom-title.json`), resumed (a new process's
//! attachments again), compacted, or start a background subagent (`<id>/subagents/agent-*.jsonl`
//! and its `.meta.json`); a few are forks of an earlier print-mode session (its rows copied
//! under the fork's id). Each session's expectations (in `expected.jsonl`, after the Codex ones,
//! their paths under `claude/`) are what a correct reader reports, for a fork of its own part
//! alone: the first human prompt and the number of them (not tool results, meta rows, the
//! compaction's summary, slash commands and their output, task notifications), the responses
//! (by `message.id`) holding text, every edit or write that applied (absolute paths), and each
//! response's usage once (input, cache creation, cache read and output tokens summed). A
//! session forked from holds its fork's copy of its deep phrase too: it has none to check.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use super::claude_shapes::{ClaudeWriter, Tally};
use super::gen::{
    escape_into, fmt_ts, in_parallel, set_mtime, store_path, Expected, GenOptions, Pools, Rng,
    PROMPTS,
};

/// The plan of one Claude Code session, decided before writing.
pub(crate) struct ClaudePlan {
    pub(crate) index: usize,
    pub(crate) id: String,
    pub(crate) created_ms: i64,
    pub(crate) cwd: String,
    pub(crate) branch: String,
    /// Typed in the terminal (`cli`), else print mode (`sdk-cli`).
    pub(crate) interactive: bool,
    pub(crate) target: u64,
    /// How much of the fixed attachments' real size is written (the store's scale, at most 1).
    pub(crate) att_scale: f64,
    pub(crate) renamed: bool,
    pub(crate) title_file: bool,
    pub(crate) subagent: bool,
    pub(crate) compacted: bool,
    /// The plan this session is a fork of.
    pub(crate) fork_of: Option<usize>,
    /// A later session is a fork of this one (which then holds its text too).
    pub(crate) forked: bool,
}

/// The folder Claude Code keeps a session of `cwd` in.
pub fn project_dir(cwd: &str) -> String {
    cwd.chars()
        .flat_map(|c| {
            let n = if c.is_ascii_alphanumeric() {
                0
            } else {
                c.len_utf16()
            };
            std::iter::repeat_n('-', n).chain((n == 0).then_some(c))
        })
        .collect()
}

/// The phrase planted in one deep assistant reply of a Claude Code session.
pub(crate) fn deep_phrase(plan: &ClaudePlan) -> String {
    format!("wombat{}zeta", plan.index)
}

fn folder(rng: &mut Rng, index: usize) -> String {
    match rng.below(20) {
        0 | 1 => format!("/home/dev/work/my_proj.v{}", index % 5),
        2 => format!("/home/dev/work/café-{}", index % 3),
        _ => format!("/home/dev/work/proj{}", index % 37),
    }
}

fn make_plans(opts: &GenOptions) -> Vec<ClaudePlan> {
    let mut rng = Rng::new(opts.seed ^ 0xC1A0_DE00_C0DE);
    let n = opts.claude;
    let start_ms: i64 = 1_735_689_600_000; // 2025-01-01, as the Codex part
    let span_ms: i64 = 700 * 86_400_000;
    let mut plans: Vec<ClaudePlan> = Vec::with_capacity(n);
    for index in 0..n {
        let created_ms =
            start_ms + (span_ms / n.max(1) as i64) * index as i64 + rng.below(3_600_000) as i64;
        // Log-normal sizes: median 180 KB (the attachments of a start alone are over 100 KB).
        let mut size = 180_000.0 * (1.4 * rng.normal()).exp();
        if rng.below(2000) == 0 {
            size = 30_000_000.0 + rng.below(30_000_000) as f64;
        }
        let target = (size.min(80_000_000.0) * opts.scale) as u64;
        let (a, b) = (rng.next(), rng.next());
        let id = format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xFFFF,
            a & 0xFFF,
            0x8000 | (index as u64 & 0x3FFF),
            (b & 0xFFFF_FFFF_FFFF) ^ index as u64
        );
        let mut cwd = folder(&mut rng, index);
        let interactive = rng.chance(0.5);
        let renamed = interactive && rng.chance(0.2);
        let title_file = renamed && rng.chance(0.5);
        let subagent = rng.chance(0.08);
        let compacted = target as f64 > 1_500_000.0 * opts.scale || rng.chance(0.05);
        let mut fork_of = None;
        if rng.chance(0.03) {
            fork_of = (index.saturating_sub(10)..index).rev().find(|&j| {
                let p: &ClaudePlan = &plans[j];
                !p.interactive && !p.compacted && p.fork_of.is_none() && p.target < 1_000_000
            });
        }
        if let Some(j) = fork_of {
            plans[j].forked = true;
            cwd = plans[j].cwd.clone();
        }
        plans.push(ClaudePlan {
            index,
            id,
            created_ms,
            branch: if index % 3 == 0 {
                "main".to_owned()
            } else {
                format!("feature/c{}", index % 13)
            },
            cwd,
            interactive: interactive && fork_of.is_none(),
            target,
            att_scale: opts.scale.clamp(0.02, 1.0),
            renamed: renamed && fork_of.is_none(),
            title_file: title_file && fork_of.is_none(),
            subagent: subagent && fork_of.is_none(),
            compacted: compacted && fork_of.is_none(),
            fork_of,
            forked: false,
        });
    }
    plans
}

/// The session's title after `/rename`.
pub(crate) fn title(plan: &ClaudePlan) -> String {
    format!("Renamed claude session {}", plan.index)
}

fn first_prompt(plan: &ClaudePlan) -> String {
    let base = PROMPTS[plan.index % PROMPTS.len()];
    if plan.fork_of.is_some() {
        format!("In the fork: {base} another way (task {})", plan.index)
    } else {
        format!("{base} (claude task {})", plan.index)
    }
}

/// A file beside the session's own (a subagent's transcript, its metadata, the title file):
/// its path under `<id>/` and its bytes.
type Extra = (String, Vec<u8>);

/// Write the conversation of `w.plan` (the parent's, when copying into a fork): turns of a
/// prompt, model responses with tool calls and a final answer, until the planned size is
/// reached and the deep phrase written. A fork's own part is `fork_turns` turns.
fn conversation(
    w: &mut ClaudeWriter,
    sink: &mut dyn Write,
    extras: &mut Vec<Extra>,
    fork_turns: Option<usize>,
) -> io::Result<()> {
    let plan = w.plan;
    let mut deep_written = false;
    let mut turn = 0;
    loop {
        let resumed = turn > 0 && w.rng.chance(0.12);
        let prompt = if turn == 0 {
            first_prompt(plan)
        } else {
            let n = 5 + w.rng.below(40) as usize;
            w.sentence(n)
        };
        let start = turn == 0 || resumed;
        if plan.interactive {
            if start {
                w.side("mode", "\"mode\":\"normal\"");
                w.side("permission-mode", "\"permissionMode\":\"auto\"");
            }
            let id = w.last_uuid.clone().unwrap_or_default();
            let ts = fmt_ts(w.now_ms);
            w.side("file-history-snapshot", &format!("\"messageId\":\"{id}\",\"snapshot\":{{\"messageId\":\"{id}\",\"trackedFileBackups\":{{}},\"timestamp\":\"{ts}\"}},\"isSnapshotUpdate\":false"));
        } else {
            w.queued(&prompt);
        }
        if plan.compacted && turn == 3 {
            w.compaction(plan.interactive);
        }
        w.prompt(&prompt);
        if start && fork_turns.is_none() {
            w.process_attachments();
        }
        let pending = model_turn(w, turn, start, &prompt)?;
        let req = w.api_request(false, None);
        w.response();
        let n = 20 + w.rng.below(200) as usize;
        let mut answer = w.sentence(n);
        let last = match fork_turns {
            Some(t) => turn + 1 >= t,
            None => w.size >= plan.target,
        };
        if !deep_written && (turn >= 3 || last) {
            answer.push_str(&format!(" The culprit was {}.", deep_phrase(plan)));
            deep_written = true;
        }
        w.say(&answer, "end_turn", &req);
        if let Some((agent, task, call)) = pending {
            subagent_report(w, extras, &agent, &task, &call);
        }
        turn_end(w, turn, &prompt);
        turn += 1;
        if w.buf.len() > (8 << 20) {
            sink.write_all(&w.buf)?;
            w.buf.clear();
        }
        if last && deep_written {
            break;
        }
    }
    Ok(())
}

/// The model's work on a prompt: one to six responses, each a tool call (the first of a
/// subagent session's first turn starts its subagent). Returns the subagent started.
fn model_turn(
    w: &mut ClaudeWriter,
    turn: usize,
    start: bool,
    prompt: &str,
) -> io::Result<Option<(String, String, String)>> {
    let calls = 1 + w.rng.below(6) as usize;
    let mut pending = None;
    for c in 0..calls {
        let req = w.api_request(start && c == 0, (start && c == 0).then_some(prompt));
        w.response();
        if w.rng.chance(0.3) {
            w.think(&req);
        }
        if w.rng.chance(0.4) {
            let n = 8 + w.rng.below(30) as usize;
            let note = w.sentence(n);
            w.say(&note, "tool_use", &req);
        }
        if w.plan.subagent && turn == 0 && c == 0 {
            pending = Some(w.agent_call(&req));
        } else {
            let scale = (w.plan.target as f64 / 180_000.0).clamp(0.05, 4.0).sqrt();
            let x = (8.3 + 1.3 * w.rng.normal()).exp() * scale;
            w.tool((x as usize).clamp(64, 4 << 20), &req);
        }
        if start && c == 0 {
            w.big_attachment("prompt_snapshot", "systemPrompt", 56_000, 0);
        }
    }
    Ok(pending)
}

/// The subagent's transcript (kept beside the session) and its report coming back.
fn subagent_report(
    w: &mut ClaudeWriter,
    extras: &mut Vec<Extra>,
    agent: &str,
    task: &str,
    call: &str,
) {
    let n = 10 + w.rng.below(30) as usize;
    let report = format!("Subagent report: {}", w.sentence(n));
    let transcript = w.subagent_transcript(agent, task, &report);
    let meta = format!("{{\"agentType\":\"general-purpose\",\"isBuiltIn\":true,\"description\":\"Survey the code\",\"toolUseId\":\"{call}\",\"spawnDepth\":1,\"requestShape\":\"background\",\"model\":\"claude-opus-5-5\",\"finished\":true}}");
    extras.push((format!("subagents/agent-{agent}.jsonl"), transcript));
    extras.push((
        format!("subagents/agent-{agent}.meta.json"),
        meta.into_bytes(),
    ));
    w.task_notification(agent, call, &report);
    let req = w.api_request(false, None);
    w.response();
    let n = 10 + w.rng.below(40) as usize;
    let note = w.sentence(n);
    w.say(&note, "end_turn", &req);
}

/// The rows after a turn: `last-prompt`, the turn's duration, the title again.
fn turn_end(w: &mut ClaudeWriter, turn: usize, prompt: &str) {
    let leaf = w.last_uuid.clone().unwrap_or_default();
    let mut esc = Vec::new();
    escape_into(&mut esc, prompt);
    let esc = String::from_utf8(esc).expect("utf-8");
    w.side(
        "last-prompt",
        &format!("\"lastPrompt\":\"{esc}\",\"leafUuid\":\"{leaf}\""),
    );
    if w.plan.interactive {
        let ms = 200 + w.rng.below(90_000);
        w.system(
            "turn_duration",
            &format!(",\"durationMs\":{ms},\"messageCount\":{}", 4 + turn * 6),
            false,
        );
    }
    if w.plan.renamed {
        let t = title(w.plan);
        if turn == 0 {
            w.rename(&t);
        } else {
            w.title_rows(&t);
        }
    }
}

fn session_path(out: &Path, plan: &ClaudePlan) -> PathBuf {
    out.join("claude")
        .join("projects")
        .join(project_dir(&plan.cwd))
        .join(format!("{}.jsonl", plan.id))
}

/// Write one session (and the files beside it); returns its expectations.
fn generate_one(
    out: &Path,
    plans: &[ClaudePlan],
    i: usize,
    pools: &Pools,
    buf: Vec<u8>,
) -> io::Result<(Expected, Vec<u8>)> {
    let plan = &plans[i];
    let path = session_path(out, plan);
    fs::create_dir_all(path.parent().expect("a parent folder"))?;
    let mut file = io::BufWriter::new(fs::File::create(&path)?);
    let mut extras = Vec::new();
    let mut w = ClaudeWriter::new(plan, pools, buf);
    if let Some(j) = plan.fork_of {
        // The fork's file: its prompt queued, the parent's rows copied, then its own part.
        let own = ClaudeWriter::new(plan, pools, Vec::new());
        w.side("mode", "\"mode\":\"normal\"");
        w.size = 0;
        w.plan = &plans[j];
        w.rng = ClaudeWriter::new(&plans[j], pools, Vec::new()).rng;
        w.now_ms = plans[j].created_ms;
        w.copying = Some(plans[j].id.clone());
        conversation(&mut w, &mut file, &mut Vec::new(), None)?;
        w.copying = None;
        w.plan = plan;
        w.rng = own.rng;
        w.now_ms = w.now_ms.max(plan.created_ms);
        w.tally = Tally::default();
        let turns = 1 + w.rng.below(3) as usize;
        conversation(&mut w, &mut file, &mut extras, Some(turns))?;
    } else {
        conversation(&mut w, &mut file, &mut extras, None)?;
    }
    let cost = format!(
        "\"totalCostUSD\":{}.{:02},\"totalLinesAdded\":{},\"hasUnknownModelCost\":false",
        w.rng.below(20),
        w.rng.below(100),
        w.tally.files.len()
    );
    w.side("cost-state", &cost);
    file.write_all(&w.buf)?;
    file.flush()?;
    drop(file);
    let mtime = UNIX_EPOCH + Duration::from_millis(w.now_ms as u64);
    if plan.title_file {
        let body = format!(
            "{{\"customTitle\":\"{}\",\"by\":\"user\",\"at\":\"{}\"}}",
            title(plan),
            fmt_ts(w.now_ms)
        );
        extras.push(("custom-title.json".to_owned(), body.into_bytes()));
    }
    let beside = path.with_extension("");
    for (name, bytes) in &extras {
        let p = beside.join(name);
        fs::create_dir_all(p.parent().expect("a parent folder"))?;
        fs::write(&p, bytes)?;
        set_mtime(&p, mtime)?;
    }
    set_mtime(&path, mtime)?;
    let mut buf = std::mem::take(&mut w.buf);
    buf.clear();
    let expected = Expected {
        id: plan.id.clone(),
        path: store_path(out, &path),
        first_user_message: w.tally.first_user.clone(),
        user_messages: w.tally.users,
        assistant_messages: w.tally.assistants,
        archived: false,
        deep_phrase: (!plan.forked).then(|| deep_phrase(plan)),
        files_changed: Some(w.tally.files.iter().cloned().collect()),
        tokens_total: Some(w.tally.tokens),
    };
    Ok((expected, buf))
}

/// Generate the Claude Code part of a store under `out/claude` (`opts.claude` sessions);
/// returns their expectations, in plan order.
pub fn generate(out: &Path, opts: &GenOptions, pools: &Pools) -> io::Result<Vec<Expected>> {
    let plans = make_plans(opts);
    fs::create_dir_all(out.join("claude").join("projects"))?;
    in_parallel(plans.len(), opts.threads, |i, buf| {
        generate_one(out, &plans, i, pools, buf)
    })
}
