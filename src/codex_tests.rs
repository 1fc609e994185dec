use super::*;
use crate::shell::Syntax;

#[test]
fn versions_are_read_as_codex_prints_them() {
    assert_eq!(
        parse_version("codex-cli 0.171.0\n"),
        Some(Version(0, 171, 0))
    );
    assert_eq!(
        parse_version("codex-cli 0.172.0-alpha.3"),
        Some(Version(0, 172, 0))
    );
    assert_eq!(parse_version("codex 1.2"), Some(Version(1, 2, 0)));
    assert_eq!(parse_version("codex-cli dev"), None);
    assert_eq!(parse_version(""), None);
    assert!(Version(0, 136, 0) < Version(0, 140, 0));
    assert!(Version(0, 99, 9) < Version(0, 136, 0));
}

#[test]
fn the_error_line_is_taken_from_codexs_output() {
    let stderr = "WARNING: proceeding, even though we could not create PATH aliases\n\
                  Error: failed to archive session\n\nStack backtrace:\n   0: <unknown>\n";
    assert_eq!(
        error_text(stderr).as_deref(),
        Some("failed to archive session")
    );
    let plain = "WARNING: something\nno such session: 0199\n";
    assert_eq!(error_text(plain).as_deref(), Some("no such session: 0199"));
    assert_eq!(error_text("WARNING: only a warning\n"), None);
    assert_eq!(error_text(""), None);
    // Whatever codex prints reaches the status line as one line without control characters.
    let hostile = "Error: bad \x1b[31mred\x1b[0m\u{7}\n";
    let text = error_text(hostile).unwrap();
    assert!(
        !text.contains('\x1b') && !text.contains('\u{7}'),
        "{text:?}"
    );
}

#[test]
fn the_program_is_the_chosen_one_else_codex_on_path() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(bin.join("codex"), "").unwrap();
    std::fs::write(bin.join("my-codex"), "").unwrap();
    let path = Some(bin.clone().into_os_string());
    assert_eq!(program(None, path.clone()), Some(bin.join("codex")));
    assert_eq!(
        program(Some("".into()), path.clone()),
        Some(bin.join("codex"))
    );
    assert_eq!(
        program(Some("my-codex".into()), path.clone()),
        Some(bin.join("my-codex"))
    );
    assert_eq!(
        program(Some("/opt/x/codex".into()), None),
        Some(PathBuf::from("/opt/x/codex"))
    );
    assert_eq!(program(Some("absent".into()), path), None);
    assert_eq!(
        program(None, Some(dir.path().join("none").into_os_string())),
        None
    );
}

#[test]
fn a_command_given_to_the_user_names_a_store_that_is_not_the_default() {
    let user = Path::new("/home/u");
    let default = Codex::new(None, Path::new("/home/u/.codex"), Some(user));
    assert_eq!(default.env_prefix(Syntax::Posix), "");
    let other = Codex::new(None, Path::new("/srv/codex home"), Some(user));
    assert_eq!(
        other.env_prefix(Syntax::Posix),
        "CODEX_HOME='/srv/codex home' "
    );
    let no_home = Codex::new(None, Path::new("/home/u/.codex"), None);
    assert_eq!(
        no_home.env_prefix(Syntax::Posix),
        "CODEX_HOME=/home/u/.codex "
    );
    // A home whose name is not UTF-8 keeps its bytes (as escapes), in each syntax.
    use std::os::unix::ffi::OsStrExt;
    let bytes = Path::new(std::ffi::OsStr::from_bytes(b"/srv/home-\xff"));
    let other = Codex::new(None, bytes, Some(user));
    assert_eq!(
        other.env_prefix(Syntax::Posix),
        r"CODEX_HOME='/srv/home-'$'\xff' "
    );
    assert_eq!(
        other.env_prefix(Syntax::Fish),
        r"CODEX_HOME='/srv/home-'\xff "
    );
}

#[test]
fn without_codex_every_change_says_so() {
    let codex = Codex::new(None, Path::new("/x"), None);
    let err = codex.change(&Change::Archive, "id").unwrap_err();
    assert!(matches!(err, CodexError::NotFound), "{err:?}");
    assert!(err.to_string().contains("`codex` is not on PATH"), "{err}");
}

/// A stand-in codex: prints `version` for `--version`, records the rest, exits with `status`.
#[cfg(unix)]
fn stand_in(dir: &Path, version: &str, status: i32) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("codex");
    let log = dir.join("log");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'codex-cli {version}'; exit 0; fi\n\
             echo \"$CODEX_HOME $*\" >> '{}'\n\
             [ {status} = 0 ] || echo 'Error: failed to do it' >&2\nexit {status}\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[cfg(unix)]
#[test]
fn changes_run_codex_on_the_store_shown_with_its_error_text() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("store");
    let ok = Codex::new(Some(stand_in(dir.path(), "0.171.0", 0)), &home, None);
    ok.change(&Change::Archive, "0199-a").unwrap();
    ok.change(&Change::Delete, "0199-b").unwrap();
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    let h = home.display();
    assert_eq!(
        log,
        format!("{h} archive 0199-a\n{h} delete --force 0199-b\n")
    );

    let failing = Codex::new(Some(stand_in(dir.path(), "0.171.0", 1)), &home, None);
    let err = failing.change(&Change::Unarchive, "0199-c").unwrap_err();
    assert_eq!(err.to_string(), "codex unarchive failed: failed to do it");
}

#[cfg(unix)]
#[test]
fn an_old_codex_is_not_asked_for_commands_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let old = Codex::new(Some(stand_in(dir.path(), "0.138.0", 0)), dir.path(), None);
    assert!(old.supports(&Change::Archive).is_ok());
    let err = old.change(&Change::Delete, "0199-a").unwrap_err();
    assert!(matches!(err, CodexError::TooOld { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "codex 0.138.0 cannot delete sessions: it needs codex 0.140.0 or newer"
    );
    assert!(!dir.path().join("log").exists(), "nothing was run");
}
