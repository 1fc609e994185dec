//! The picker's config file, from outside: a broken file stops the picker before it takes the
//! terminal, with one line on stderr that names the file and the line; `list` does not read it.

use std::path::PathBuf;
use std::process::{Output, Stdio};

use crate::common::{bin, stderr, stdout};

/// A config folder holding `text` as `codex-picker/config.toml`, and the file's path.
fn config_home(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("codex-picker").join("config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn run_with(config: &tempfile::TempDir, args: &[&str]) -> Output {
    bin()
        .env("XDG_CONFIG_HOME", config.path())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run codex-picker")
}

#[test]
fn a_broken_config_file_is_one_line_and_exit_2_before_any_screen() {
    let (dir, path) = config_home("sort = \"created\"\n\nscop = \"all\"\n");
    let out = run_with(&dir, &["--demo"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let want = format!(
        "codex-picker: {}:3: unknown field `scop`, expected one of ",
        path.display()
    );
    assert!(err.starts_with(&want), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.ends_with('\n'), "{err:?}");
    assert!(out.stdout.is_empty(), "{:?}", stdout(&out));
}

#[test]
fn a_value_of_the_wrong_type_names_its_line() {
    let (dir, path) = config_home("scope = \"all\"\nshow_exec = \"yes\"\n");
    let out = run_with(&dir, &["--demo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let want = format!("codex-picker: {}:2: ", path.display());
    assert!(
        err.starts_with(&want) && err.lines().count() == 1,
        "{err:?}"
    );
}

#[test]
fn list_does_not_read_the_config_file() {
    let (dir, _) = config_home("scop = \"all\"\n");
    let out = run_with(&dir, &["list", "--json", "--demo"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).is_empty());
}

#[test]
fn too_small_a_height_is_an_error_that_says_the_minimum() {
    let (dir, path) = config_home("theme = \"light\"\nheight = 2\n");
    let out = run_with(&dir, &["--demo"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "codex-picker: {}:2: height 2: too small, the picker needs at least 3 rows\n",
            path.display()
        )
    );
    let (dir, _) = config_home("");
    let out = run_with(&dir, &["--demo", "--height", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("'--height <HEIGHT>': height 1: too small, the picker needs at least 3 rows"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_keys_line_that_cannot_be_taken_is_one_line_naming_its_line() {
    for (text, line, reason) in [
        (
            "theme = \"dark\"\n[keys]\nfly = \"f2\"\n",
            3,
            "unknown action `fly` in [keys], expected one of pick, resume-in-folder,",
        ),
        (
            "[keys]\ncopy-id = \"alt-c\"\n\nresume-in-folder = \"ctrl-banana\"\n",
            4,
            "key `ctrl-banana`: unknown key name",
        ),
        (
            "[keys]\n\n\ncopy-id = \"ctrl-o\"\n",
            4,
            "Ctrl+O would give both copy-id and resume-in-folder (its default) in [keys]: \
             give resume-in-folder other keys too",
        ),
    ] {
        let (dir, path) = config_home(text);
        let out = run_with(&dir, &["--demo"]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = stderr(&out);
        let want = format!("codex-picker: {}:{line}: {reason}", path.display());
        assert!(err.starts_with(&want), "{err:?}\nwant {want:?}");
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(out.stdout.is_empty());
    }
}
