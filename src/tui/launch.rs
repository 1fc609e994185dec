//! Running `codex resume <id>` in the session's folder (Ctrl+O, `--exec`), after the picker has
//! given the terminal back; the picker exits with codex's status.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `codex` on PATH, if installed.
pub fn find_codex() -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join("codex"))
        .find(|p| p.is_file())
}

/// Run codex and return the exit code to leave with.
pub fn resume(codex: &Path, id: &str, cwd: Option<&str>) -> i32 {
    let mut cmd = Command::new(codex);
    cmd.arg("resume").arg(id);
    match cwd.filter(|c| Path::new(c).is_dir()) {
        Some(dir) => {
            cmd.current_dir(dir);
        }
        None => {
            if let Some(c) = cwd {
                eprintln!(
                    "codex-picker: the session's folder {} no longer exists; resuming here",
                    crate::sanitize::one_line(c)
                );
            }
        }
    }
    match cmd.status() {
        Ok(status) => status.code().unwrap_or(crate::cmd::EXIT_ERROR),
        Err(e) => {
            eprintln!("codex-picker: cannot run {}: {e}", codex.display());
            crate::cmd::EXIT_ERROR
        }
    }
}
