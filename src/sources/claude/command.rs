//! Claude Code's own command line, as the picker runs it and hands it back: which `claude`
//! (`$CODEX_PICKER_CLAUDE`, else `claude` on PATH), on which config folder (`CLAUDE_CONFIG_DIR`
//! set to the one the picker shows, named in a command given to the user when it is not
//! `~/.claude`), and the words that resume a session (`--resume <id>`) or fork it
//! (`--resume <id> --fork-session`). `claude --resume` finds a session only from the folder it
//! was started in, so the picker runs it there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why `claude` cannot be run.
pub const NOT_FOUND: &str =
    "`claude` is not on PATH (install Claude Code, or set $CODEX_PICKER_CLAUDE)";

/// The Claude Code of this environment, on one config folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claude {
    program: Option<PathBuf>,
    home: Option<PathBuf>,
    /// The config folder is not `~/.claude`: a command given to the user names it.
    home_named: bool,
}

impl Claude {
    /// The `claude` of this environment, on the config folder `home`.
    pub fn locate(home: Option<&Path>) -> Claude {
        let user_home = std::env::var_os("HOME").map(PathBuf::from);
        let chosen = std::env::var_os("CODEX_PICKER_CLAUDE");
        Claude::new(
            program(chosen, std::env::var_os("PATH")),
            home,
            user_home.as_deref(),
        )
    }

    /// `program` (`None`: no claude) on the config folder `home`; `user_home` tells whether
    /// that folder is the default one.
    pub fn new(program: Option<PathBuf>, home: Option<&Path>, user_home: Option<&Path>) -> Claude {
        let default = user_home.map(|h| h.join(".claude"));
        Claude {
            program,
            home: home.map(Path::to_path_buf),
            home_named: home.is_some() && default.as_deref() != home,
        }
    }

    /// `CLAUDE_CONFIG_DIR=<home> ` for a command given to the user, when the config folder
    /// is not the default one (empty otherwise), in `syntax`, the folder's bytes exactly.
    pub fn env_prefix(&self, syntax: crate::shell::Syntax) -> String {
        match &self.home {
            Some(home) if self.home_named => crate::shell::assignment(
                syntax,
                "CLAUDE_CONFIG_DIR",
                home.as_os_str().as_encoded_bytes(),
            ),
            _ => String::new(),
        }
    }

    /// `claude` on this config folder, or why there is none.
    pub fn command(&self) -> Result<Command, &'static str> {
        let program = self.program.as_deref().ok_or(NOT_FOUND)?;
        let mut cmd = Command::new(program);
        if let Some(home) = &self.home {
            cmd.env("CLAUDE_CONFIG_DIR", home);
        }
        Ok(cmd)
    }

    /// Whether there is a `claude` to run.
    pub fn found(&self) -> Result<(), &'static str> {
        self.program.as_ref().map(|_| ()).ok_or(NOT_FOUND)
    }
}

/// The words after `claude` that resume the session `id`, or fork it into a new one.
pub fn resume_words(id: &str, fork: bool) -> Vec<&str> {
    let mut words = vec!["--resume", id];
    if fork {
        words.push("--fork-session");
    }
    words
}

/// `$CODEX_PICKER_CLAUDE` when set and non-empty, else `claude` found on `path`.
fn program(chosen: Option<OsString>, path: Option<OsString>) -> Option<PathBuf> {
    crate::codex::program_named("claude", chosen, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Syntax;

    #[test]
    fn the_config_folder_is_named_only_when_it_is_not_the_default() {
        let home = Path::new("/home/u");
        let default = Claude::new(None, Some(&home.join(".claude")), Some(home));
        assert_eq!(default.env_prefix(Syntax::Posix), "");
        let other = Claude::new(None, Some(Path::new("/w/cc home")), Some(home));
        assert_eq!(
            other.env_prefix(Syntax::Posix),
            "CLAUDE_CONFIG_DIR='/w/cc home' "
        );
        assert_eq!(other.command().unwrap_err(), NOT_FOUND);
    }

    #[test]
    fn resume_and_fork_words() {
        assert_eq!(resume_words("abc", false), ["--resume", "abc"]);
        assert_eq!(
            resume_words("abc", true),
            ["--resume", "abc", "--fork-session"]
        );
    }
}
