//! Codex's own command line, as the picker runs it: which `codex` (`$CODEX_PICKER_CODEX`, else
//! `codex` on PATH), on which store (every command gets `CODEX_HOME` set to the store the
//! picker shows), whether it is new enough for a command (`codex --version`, asked once), and
//! codex's error text when a command fails. codex-picker changes nothing under a Codex home
//! itself: archiving, unarchiving and deleting are codex's commands, run from here, and a
//! rename is a request to codex's app-server ([`app_server`]), started for it.

pub(crate) mod app_server;
mod error_text;

pub use error_text::error_text;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How long codex's app-server has to answer a rename (it answers in well under a second; its
/// first start on a store can take a few).
pub const APP_SERVER_LIMIT: Duration = Duration::from_secs(15);

/// Why codex cannot do what the picker asks of it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CodexError {
    #[error("`codex` is not on PATH (install the Codex CLI, or set $CODEX_PICKER_CODEX)")]
    NotFound,
    #[error("codex {version} cannot {verb} sessions: it needs codex {since} or newer")]
    TooOld {
        version: Version,
        verb: &'static str,
        since: Version,
    },
    /// The program could not be started (its path, for the message).
    #[error("cannot run {program}: {source}")]
    Run {
        program: String,
        source: Arc<std::io::Error>,
    },
    /// The command ran and failed; codex's own reason.
    #[error("codex {verb} failed: {why}")]
    Failed { verb: &'static str, why: String },
    /// codex's app-server did not set the name.
    #[error("codex rename failed: {0}")]
    Rename(#[source] app_server::AppServerError),
}

/// A codex release, as `codex --version` prints it (`codex-cli 0.171.0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// A change to the store, made by one of codex's commands, or by its app-server (a rename).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Archive,
    Unarchive,
    Delete,
    /// Give the session this name.
    Rename(String),
}

impl Change {
    /// The codex subcommand and its arguments before the session id (none for a rename, which
    /// is a request to the app-server).
    pub fn args(&self) -> &'static [&'static str] {
        match self {
            Change::Archive => &["archive"],
            Change::Unarchive => &["unarchive"],
            // The picker has asked already; codex would ask again on a terminal it does not
            // have (and refuses without one).
            Change::Delete => &["delete", "--force"],
            Change::Rename(_) => &[],
        }
    }

    /// The first release with the command (`archive` and `unarchive` came in 0.136, `delete`
    /// with `--force` in 0.140); `None` when the request's own answer says whether codex can
    /// (a rename: an app-server without `thread/name/set` says so).
    pub fn since(&self) -> Option<Version> {
        match self {
            Change::Archive | Change::Unarchive => Some(Version(0, 136, 0)),
            Change::Delete => Some(Version(0, 140, 0)),
            Change::Rename(_) => None,
        }
    }

    /// "archive", "unarchive", "delete", "rename".
    pub fn verb(&self) -> &'static str {
        match self {
            Change::Archive => "archive",
            Change::Unarchive => "unarchive",
            Change::Delete => "delete",
            Change::Rename(_) => "rename",
        }
    }

    /// "archiving", "unarchiving", "deleting", "renaming".
    pub fn doing(&self) -> &'static str {
        match self {
            Change::Archive => "archiving",
            Change::Unarchive => "unarchiving",
            Change::Delete => "deleting",
            Change::Rename(_) => "renaming",
        }
    }

    /// "archived", "unarchived", "deleted", "renamed".
    pub fn done(&self) -> &'static str {
        match self {
            Change::Archive => "archived",
            Change::Unarchive => "unarchived",
            Change::Delete => "deleted",
            Change::Rename(_) => "renamed",
        }
    }
}

/// The codex to run and the store it acts on. Cheap to clone; the version is asked once.
#[derive(Debug, Clone)]
pub struct Codex {
    /// `None`: not found.
    program: Option<PathBuf>,
    home: PathBuf,
    /// The home is not `~/.codex`: a command given to the user names it.
    home_named: bool,
    version: Arc<OnceLock<Result<Option<Version>, CodexError>>>,
    /// The app-server started for a request, while it runs.
    app_server: app_server::InFlight,
}

impl Codex {
    /// The codex of this environment, acting on the store at `home`.
    pub fn locate(home: &Path) -> Codex {
        let user_home = std::env::var_os("HOME").map(PathBuf::from);
        Codex::new(
            program(
                std::env::var_os("CODEX_PICKER_CODEX"),
                std::env::var_os("PATH"),
            ),
            home,
            user_home.as_deref(),
        )
    }

    /// `program` (`None`: no codex) on the store at `home`; `user_home` tells whether that
    /// store is the default one.
    pub fn new(program: Option<PathBuf>, home: &Path, user_home: Option<&Path>) -> Codex {
        let default = user_home.map(|h| h.join(".codex"));
        Codex {
            program,
            home: home.to_path_buf(),
            home_named: default.as_deref() != Some(home),
            version: Arc::new(OnceLock::new()),
            app_server: app_server::InFlight::default(),
        }
    }

    /// The program, or why there is none.
    pub fn program(&self) -> Result<&Path, CodexError> {
        self.program.as_deref().ok_or(CodexError::NotFound)
    }

    /// `CODEX_HOME=<home> ` for a command given to the user, when the store is not the
    /// default one (empty otherwise), in `syntax`, the home's bytes exactly.
    pub fn env_prefix(&self, syntax: crate::shell::Syntax) -> String {
        use std::os::unix::ffi::OsStrExt;
        if self.home_named {
            crate::shell::assignment(syntax, "CODEX_HOME", self.home.as_os_str().as_bytes())
        } else {
            String::new()
        }
    }

    /// `codex <args>` on this store: `CODEX_HOME` set whatever the environment says.
    pub fn command(&self) -> Result<Command, CodexError> {
        let mut cmd = Command::new(self.program()?);
        cmd.env("CODEX_HOME", &self.home);
        Ok(cmd)
    }

    /// Whether this codex has `change`'s command: it is found and, when its version can be
    /// read, at least as new as the command. `codex --version` is asked the first time only.
    pub fn supports(&self, change: &Change) -> Result<(), CodexError> {
        self.program()?;
        let Some(since) = change.since() else {
            return Ok(());
        };
        let version = self.version.get_or_init(|| self.ask_version()).clone()?;
        match version {
            Some(version) if version < since => Err(CodexError::TooOld {
                version,
                verb: change.verb(),
                since,
            }),
            // A version that cannot be read is given the benefit of the doubt: the command's
            // own error says the rest.
            _ => Ok(()),
        }
    }

    fn ask_version(&self) -> Result<Option<Version>, CodexError> {
        let out = self
            .command()?
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.run_error(e))?;
        Ok(parse_version(&String::from_utf8_lossy(&out.stdout)))
    }

    /// Run `codex <change> <id>` to its end, without a terminal (a rename: ask codex's
    /// app-server, within [`APP_SERVER_LIMIT`]); codex's error text when it fails.
    pub fn change(&self, change: &Change, id: &str) -> Result<(), CodexError> {
        if let Change::Rename(name) = change {
            return self.rename(id, name).map(drop);
        }
        self.supports(change)?;
        let out = self
            .command()?
            .args(change.args())
            .arg(id)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.run_error(e))?;
        if out.status.success() {
            return Ok(());
        }
        let why = error_text(&String::from_utf8_lossy(&out.stderr))
            .or_else(|| error_text(&String::from_utf8_lossy(&out.stdout)))
            .unwrap_or_else(|| match out.status.code() {
                Some(code) => format!("it exited with status {code}"),
                None => "it was killed".to_owned(),
            });
        Err(CodexError::Failed {
            verb: change.verb(),
            why,
        })
    }

    /// This program could not be started.
    pub fn run_error(&self, e: std::io::Error) -> CodexError {
        CodexError::Run {
            program: self.program_name(),
            source: Arc::new(e),
        }
    }

    /// Name the session `id` `name` through codex's app-server; the name codex stored (white
    /// space trimmed), or why not.
    pub fn rename(&self, id: &str, name: &str) -> Result<String, CodexError> {
        let cmd = self.command()?;
        app_server::set_thread_name(cmd, id, name, APP_SERVER_LIMIT, &self.app_server)
            .map_err(CodexError::Rename)
    }

    /// Stop the app-server started for a request, if one is running (the picker is quitting).
    pub fn stop_app_server(&self) {
        self.app_server.stop();
    }

    /// The program's path for a message (`codex` when none was found).
    pub fn program_name(&self) -> String {
        self.program
            .as_deref()
            .map(crate::sanitize::path_line)
            .unwrap_or_else(|| "codex".to_owned())
    }
}

/// `$CODEX_PICKER_CODEX` when set and non-empty, else `codex` found on `path`.
pub fn program(chosen: Option<OsString>, path: Option<OsString>) -> Option<PathBuf> {
    program_named("codex", chosen, path)
}

/// `chosen` (a path, or a name looked up on `path`) when set and non-empty, else `name` found
/// on `path`.
pub fn program_named(
    name: &str,
    chosen: Option<OsString>,
    path: Option<OsString>,
) -> Option<PathBuf> {
    if let Some(chosen) = chosen.filter(|c| !c.is_empty()) {
        let chosen = PathBuf::from(chosen);
        if chosen.components().count() > 1 {
            return Some(chosen);
        }
        return on_path(chosen.as_os_str(), path?);
    }
    on_path(name.as_ref(), path?)
}

fn on_path(name: &std::ffi::OsStr, path: OsString) -> Option<PathBuf> {
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The version in `codex --version`'s output (`codex-cli 0.171.0`, a pre-release suffix
/// ignored).
pub fn parse_version(text: &str) -> Option<Version> {
    let word = text
        .split_whitespace()
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
    let mut parts = word
        .split(|c: char| !c.is_ascii_digit())
        .map(|p| p.parse::<u32>().ok());
    let major = parts.next()??;
    let minor = parts.next()??;
    let patch = parts.next().flatten().unwrap_or(0);
    Some(Version(major, minor, patch))
}

#[cfg(test)]
#[path = "codex_tests.rs"]
mod tests;
