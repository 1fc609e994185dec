//! What a picked session is handed back as: its id, the command that resumes it (quoted for a
//! POSIX shell, naming the store when it is not the default one, with the user's own codex
//! arguments), or a codex command to run.

use super::{Launch, Options, Pick};
use crate::session::SessionRow;

pub use crate::shell::quote as shell_quote;

/// How picks are handed back.
#[derive(Debug, Clone)]
pub(super) struct Handoff {
    /// What Enter hands back.
    pub enter: Pick,
    /// The user's arguments for `codex resume` and `codex fork`, after the id.
    pub args: Vec<String>,
    /// `CODEX_HOME=... ` before `codex` in a command given to the user, or nothing.
    pub env: String,
}

impl Handoff {
    pub fn new(opts: &Options) -> Handoff {
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
        }
    }

    /// `cd <cwd> && [CODEX_HOME=<home>] codex resume <id> [args]` (no `cd` when the cwd is
    /// unknown).
    pub fn resume_command(&self, row: &SessionRow) -> String {
        let mut resume = format!("{}codex resume {}", self.env, shell_quote(&row.id));
        for arg in &self.args {
            resume.push(' ');
            resume.push_str(&shell_quote(arg));
        }
        match row.cwd.as_deref() {
            Some(cwd) if !cwd.is_empty() => format!("cd {} && {resume}", shell_quote(cwd)),
            _ => resume,
        }
    }

    /// Run codex on `row`: resume or fork it, in its folder or (`here`) the current one.
    pub fn launch(&self, row: &SessionRow, fork: bool, here: bool) -> Launch {
        Launch {
            fork,
            id: row.id.clone(),
            cwd: if here { None } else { row.cwd.clone() },
            args: self.args.clone(),
        }
    }
}

/// `cd <cwd> && codex resume <id>` for the default store and no arguments of the user's.
pub fn resume_command(row: &SessionRow) -> String {
    Handoff::new(&Options::default()).resume_command(row)
}
