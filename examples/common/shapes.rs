//! The line shapes of each mirrored codex version, written straight into a byte buffer: session
//! metadata, developer and injected-context rows, `world_state`, turn context, user and
//! assistant messages (with their `response` twins and paginated `item_completed` / `ordinal` /
//! `metadata`), reasoning, tool calls and their outputs.

use std::io::{self, Write};

use super::gen::{
    deep_phrase, escape_into, fmt_ts, plan_scale, Plan, Pools, Rng, Version, INJECTED_ONLY_MARKER,
    PROMPTS, TOOL_ONLY_MARKER, WORDS,
};

pub(crate) struct Writer<'a> {
    pub(crate) buf: Vec<u8>,
    pub(crate) pools: &'a Pools,
    pub(crate) plan: &'a Plan,
    pub(crate) rng: Rng,
    pub(crate) ordinal: u64,
    pub(crate) now_ms: i64,
    pub(crate) users: u32,
    pub(crate) assistants: u32,
    pub(crate) first_user: Option<String>,
    /// What the session did so far (tokens, files changed).
    pub(crate) work: super::work::Work,
    /// Images sent with the next prompt.
    pub(crate) images: usize,
}

impl Writer<'_> {
    pub(crate) fn open(&mut self, kind: &str) {
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

    pub(crate) fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    pub(crate) fn text(&mut self, s: &str) {
        escape_into(&mut self.buf, s);
    }

    pub(crate) fn end(&mut self) {
        self.buf.extend_from_slice(b"}\n");
    }

    pub(crate) fn meta(&mut self) {
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

    pub(crate) fn developer_and_context(&mut self) {
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

    pub(crate) fn turn_context(&mut self) {
        self.open("turn_context");
        self.raw("{\"cwd\":\"/home/dev/work/proj\",\"approval_policy\":\"never\",\"sandbox_policy\":{\"type\":\"workspace-write\",\"network_access\":false},\"model\":\"gpt-5.5\",\"effort\":\"medium\",\"summary\":\"auto\"}");
        self.end();
    }

    pub(crate) fn response_metadata(&mut self) {
        if self.plan.version.paginated() {
            self.raw(",\"metadata\":{\"client_authored\":false,\"mcp_attribution\":{\"status\":\"none\"}}");
        }
    }

    /// A user message in the version's event shape, plus its `response` twin.
    pub(crate) fn user(&mut self, text: &str) {
        let images = std::mem::take(&mut self.images);
        let blocks = self.image_blocks(images);
        self.open("response_item");
        self.raw("{\"type\":\"message\",\"role\":\"user\",\"content\":[");
        for i in 1..=images {
            self.raw(&format!("{{\"type\":\"input_text\",\"text\":\"<image name=[Image #{i}]>\"}},{{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,iVBORw0KGgo=\",\"detail\":\"original\"}},{{\"type\":\"input_text\",\"text\":\"</image>\"}},"));
        }
        self.raw("{\"type\":\"input_text\",\"text\":\"");
        self.text(text);
        self.raw("\"}]");
        self.response_metadata();
        self.raw("}");
        self.end();
        self.open("event_msg");
        if self.plan.version.paginated() {
            self.raw(&format!("{{\"type\":\"item_completed\",\"thread_id\":\"{}\",\"item\":{{\"type\":\"UserMessage\",\"id\":\"u{}\",\"content\":[{blocks}{{\"type\":\"text\",\"text\":\"", self.plan.id, self.ordinal));
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

    pub(crate) fn assistant(&mut self, text: &str, phase: &str) {
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

    pub(crate) fn tool(&mut self, out_len: usize) {
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
        self.token_count();
    }

    /// `n` bytes of pre-escaped filler (base64-like letters when `dense`).
    pub(crate) fn filler_bytes(&mut self, n: usize, dense: bool) {
        let from = self.buf.len();
        push_filler(&mut self.buf, &self.pools.filler, &mut self.rng, n);
        if dense {
            for c in &mut self.buf[from..] {
                if !c.is_ascii_alphanumeric() {
                    *c = b'A';
                }
            }
        }
    }

    pub(crate) fn sentence(&mut self, words: usize) -> String {
        sentence(&mut self.rng, words)
    }
}

/// `words` words of the vocabulary, chosen by `rng`, separated by spaces.
pub(crate) fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::with_capacity(words * 8);
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
    }
    s
}

/// About `n` bytes of `pool` (pre-escaped prose) appended to `buf`, in pieces that start at a
/// word and never end inside an escape, chosen by `rng`.
pub(crate) fn push_filler(buf: &mut Vec<u8>, pool: &[u8], rng: &mut Rng, n: usize) {
    let mut left = n;
    while left > 0 {
        let start = rng.below((pool.len() / 2) as u64) as usize;
        let start = start + pool[start..].iter().position(|&c| c == b' ').unwrap_or(0) + 1;
        let mut end = (start + left).min(pool.len() - 16);
        while end > start && pool[end - 1] == b'\\' {
            end -= 1;
        }
        if end <= start {
            break;
        }
        buf.extend_from_slice(&pool[start..end]);
        left -= end - start;
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
pub(crate) fn write_session(w: &mut Writer, sink: &mut dyn Write) -> io::Result<(u32, u32)> {
    w.meta();
    w.developer_and_context();
    let plan = w.plan;
    let mut turn = 0usize;
    let deep_turn_min = 3;
    let mut deep_written = false;
    let mut written: u64 = 0;
    // Long sessions are compacted once, at the start of a later turn.
    let compact_at = (plan.target > 2_000_000).then_some(4);
    loop {
        if Some(turn) == compact_at {
            w.compaction();
        }
        w.turn_context();
        let prompt = if turn == 0 {
            if plan.version == Version::V171 && w.rng.below(20) == 0 {
                w.images = 1 + w.rng.below(2) as usize;
            }
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
        let planned = w.rng.chance(0.3);
        if planned {
            w.plan_update(0);
        }
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
            if w.rng.chance(0.4) {
                w.patch();
                w.token_count();
            }
        }
        if planned {
            w.plan_update(3);
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
