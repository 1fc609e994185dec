//! What a picked session is handed back as: its id, the command that resumes it (quoted for the
//! shell asked for, POSIX unless `--shell fish`, naming the store when it is not the default
//! one, with the user's own arguments), or a command to run: `codex resume` for a Codex
//! session, `claude --resume` (in the session's folder, the only one it is found from) for a
//! Claude Code one.

use super::types::{Launch, Options, Pick};
use crate::session::SessionRow;
use crate::shell::Syntax;
use crate::sources::Source;

/// How picks are handed back.
#[derive(Debug, Clone)]
pub(super) struct Handoff {
    /// What Enter hands back.
    pub enter: Pick,
    /// The user's arguments for `codex resume` and `codex fork`, after the id.
    pub args: Vec<String>,
    /// `CODEX_HOME=... ` before `codex` in a command given to the user, or nothing.
    pub env: String,
    /// The user's arguments for `claude --resume`, after the id.
    pub claude_args: Vec<String>,
    /// `CLAUDE_CONFIG_DIR=... ` before `claude` in a command given to the user, or nothing.
    pub claude_env: String,
    /// The shell a command given to the user is written for.
    pub syntax: Syntax,
}

impl Handoff {
    pub(super) fn new(opts: &Options) -> Handoff {
        Handoff {
            enter: if opts.exec {
                Pick::Exec
            } else if opts.print_command {
                Pick::Command
            } else {
                Pick::Id
            },
            args: opts.resume_args.clone(),
            env: opts.codex_env.clone(),
            claude_args: opts.claude_args.clone(),
            claude_env: opts.claude_env.clone(),
            syntax: opts.shell,
        }
    }

    /// `cd <cwd> && [CODEX_HOME=<home>] codex resume <id> [args]` (no `cd` when the cwd is
    /// unknown; `cd --` when it starts with `-`), every word quoted exactly for the shell: it
    /// is run as it is by the shell integration.
    pub(super) fn resume_command(&self, row: &SessionRow) -> String {
        let q = |word: &str| crate::shell::exact(self.syntax, word.as_bytes());
        let mut resume = match row.source {
            Source::Codex => format!("{}codex resume {}", self.env, q(&row.id)),
            Source::Claude => format!("{}claude --resume {}", self.claude_env, q(&row.id)),
        };
        for arg in self.args_of(row.source) {
            resume.push(' ');
            resume.push_str(&q(arg));
        }
        match row.meta.cwd.as_deref() {
            Some(cwd) if !cwd.is_empty() => {
                let dashes = if cwd.starts_with('-') { "-- " } else { "" };
                format!("cd {dashes}{} && {resume}", q(cwd))
            }
            _ => resume,
        }
    }

    /// Run the session's agent on `row`: resume or fork it, in its folder or (`here`) the
    /// current one.
    pub(super) fn launch(&self, row: &SessionRow, fork: bool, here: bool) -> Launch {
        Launch {
            source: row.source,
            fork,
            id: row.id.clone(),
            cwd: if here { None } else { row.meta.cwd.clone() },
            args: self.args_of(row.source).to_vec(),
        }
    }

    /// The user's own arguments for the agent of `source`.
    fn args_of(&self, source: Source) -> &[String] {
        match source {
            Source::Codex => &self.args,
            Source::Claude => &self.claude_args,
        }
    }
}
