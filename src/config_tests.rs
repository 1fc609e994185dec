use super::*;
use crate::cli::Cli;
use clap::Parser;

/// `text` written as the config file in a fresh folder, and what [`load`] makes of it.
fn load_text(text: &[u8]) -> (PathBuf, Result<Option<FileConfig>, String>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    let loaded = load(&path).map_err(|e| e.to_string());
    (path, loaded)
}

/// The error [`load`] gives for `text`, checked to be one line starting with `<path>:<line>: `.
fn load_error(text: &str, line: usize) -> String {
    let (path, loaded) = load_text(text.as_bytes());
    let err = loaded.expect_err("a broken file is an error");
    assert!(!err.contains('\n'), "more than one line: {err:?}");
    let prefix = format!("{}:{line}: ", path.display());
    assert!(
        err.starts_with(&prefix),
        "{err:?} does not start with {prefix:?}"
    );
    err
}

fn flags_of(args: &[&str]) -> Flags {
    let mut argv = vec!["codex-picker"];
    argv.extend_from_slice(args);
    Cli::try_parse_from(argv).unwrap().config_flags()
}

fn file(text: &str) -> FileConfig {
    parse(text).unwrap()
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_string()).collect()
}

/// The binding `text` holds at `at`, where the action's name starts.
fn binding(conversation: bool, action: &str, keys: &[&str], text: &str, at: &str) -> KeyBinding {
    let start = text.find(at).unwrap();
    KeyBinding {
        conversation,
        action: action.to_owned(),
        keys: strings(keys),
        line: line_of(text.as_bytes(), start),
    }
}

#[test]
fn every_key_is_read() {
    let text = r#"
resume_args = ["--model", "o3", "--sandbox", "workspace-write"]
scope = "all"
sort = "created"
show_exec = false
show_archived = true
theme = "light"
height = "40%"
claude_home = "/home/u/.claude-work"
claude_resume_args = ["--model", "opus"]

[keys]
copy-id = "alt-c"
resume-in-folder = ["ctrl-o", "f5"]

[keys.conversation]
export = "X"

[prices."gpt-5.5"]
input = 1.25
cached_input = 0.125
output = 10
"#;
    let (_, loaded) = load_text(text.as_bytes());
    assert_eq!(
        loaded.unwrap(),
        Some(FileConfig {
            resume_args: Some(strings(&["--model", "o3", "--sandbox", "workspace-write"])),
            scope: Some(Scope::All),
            sort: Some(Sort::Created),
            show_exec: Some(false),
            show_archived: Some(true),
            theme: Some(ThemeName::Light),
            height: Some(Height::Percent(40)),
            claude_home: Some("/home/u/.claude-work".into()),
            claude_resume_args: Some(strings(&["--model", "opus"])),
            keys: Some(KeyBindings(vec![
                binding(false, "copy-id", &["alt-c"], text, "copy-id ="),
                binding(
                    false,
                    "resume-in-folder",
                    &["ctrl-o", "f5"],
                    text,
                    "resume-in-folder ="
                ),
                binding(true, "export", &["X"], text, "export ="),
            ])),
            prices: Some(
                [(
                    "gpt-5.5".to_owned(),
                    crate::prices::Price {
                        input: 1.25,
                        cached_input: Some(0.125),
                        output: 10.0
                    }
                )]
                .into()
            ),
            keys_read: None,
        })
    );
    assert_eq!(file("height = 20").height, Some(Height::Rows(20)));
    assert_eq!(file("height = \"20\"").height, Some(Height::Rows(20)));
    assert_eq!(file("height = \"full\"").height, Some(Height::Full));
    assert_eq!(file("sort = \"tokens\"").sort, Some(Sort::Tokens));
    assert_eq!(file("scope = \"folder\"").scope, Some(Scope::Folder));
    assert_eq!(file("theme = \"dark\"").theme, Some(ThemeName::Dark));
    assert_eq!(file("theme = \"none\"").theme, Some(ThemeName::None));
    assert_eq!(file("sort = \"updated\"").sort, Some(Sort::Updated));
}

#[test]
fn an_empty_file_sets_nothing() {
    let (_, loaded) = load_text(b"# nothing yet\n");
    assert_eq!(loaded.unwrap(), Some(FileConfig::default()));
}

#[test]
fn a_missing_file_or_folder_is_no_config() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(load(&dir.path().join("config.toml")), Ok(None));
    assert_eq!(
        load(&dir.path().join("none/codex-picker/config.toml")),
        Ok(None)
    );
    // A file where a folder of the path would be.
    std::fs::write(dir.path().join("plain"), "").unwrap();
    assert_eq!(load(&dir.path().join("plain/config.toml")), Ok(None));
}

#[test]
fn an_unknown_key_names_the_file_the_line_and_the_key() {
    let err = load_error("sort = \"created\"\n\nscop = \"all\"\n", 3);
    assert!(err.contains("unknown field `scop`"), "{err}");
    assert!(err.contains("expected one of"), "{err}");
}

#[test]
fn a_value_of_the_wrong_type_names_its_line() {
    let err = load_error("scope = \"all\"\nshow_exec = \"yes\"\n", 2);
    assert!(err.contains("bool"), "{err}");
    let err = load_error("sort = \"oldest\"\n", 1);
    assert!(err.contains("oldest"), "{err}");
    load_error("\n\nresume_args = \"--model o3\"\n", 3);
    load_error("resume_args = [\"--model\", 3]\n", 1);
}

#[test]
fn a_height_too_small_or_not_a_height_names_its_line() {
    let err = load_error("theme = \"light\"\nheight = 2\n", 2);
    assert!(err.contains("at least 3 rows"), "{err}");
    let err = load_error("\nheight = \"150%\"\n", 2);
    assert!(err.contains("1% to 100%"), "{err}");
    let err = load_error("height = true\n", 1);
    assert!(err.contains("expected \"full\", a number of rows"), "{err}");
}

#[test]
fn the_keys_table_is_read_as_written_each_line_with_its_number() {
    // What the names and keys mean is the key table's to say (its tests): any name and any
    // key text is read.
    let text = "theme = \"light\"\n\n[keys]\nfly = \"f2\"\ncopy-id = [\"banana\", \"alt-c\"]\n\
                quit = []\n[keys.conversation]\nexport = \"]\"\n";
    let keys = file(text).keys.expect("a [keys] table");
    let read: Vec<(bool, &str, Vec<&str>, usize)> = keys
        .0
        .iter()
        .map(|b| {
            let keys = b.keys.iter().map(String::as_str).collect();
            (b.conversation, b.action.as_str(), keys, b.line)
        })
        .collect();
    assert_eq!(
        read,
        vec![
            (false, "fly", vec!["f2"], 4),
            (false, "copy-id", vec!["banana", "alt-c"], 5),
            (false, "quit", vec![], 6),
            (true, "export", vec!["]"], 8),
        ]
    );
}

#[test]
fn a_keys_line_of_the_wrong_type_names_its_line() {
    let err = load_error("[keys]\ncopy-id = 3\n", 2);
    assert!(
        err.contains("a key (\"ctrl-o\") or a list of keys"),
        "{err}"
    );
    let err = load_error("[keys]\n\ncopy-id = [\"f2\", true]\n", 3);
    assert!(err.contains("invalid type"), "{err}");
}

#[test]
fn a_syntax_error_names_its_line() {
    load_error("scope = \"all\"\nsort = \"created\"\nshow_exec = \n", 3);
    load_error("scope = \"all\"\n\n[unclosed\n", 3);
    load_error("scope = \"all\"\nscope = \"folder\"\n", 2);
}

#[test]
fn a_key_with_control_characters_is_shown_inert() {
    let err = load_error("\"\\u001b[31mred\" = 1\n", 1);
    assert!(!err.chars().any(crate::sanitize::is_dangerous), "{err:?}");
}

#[test]
fn a_file_that_is_not_utf8_names_the_line() {
    let (path, loaded) = load_text(b"scope = \"all\"\nsort = \"cr\xffated\"\n");
    assert_eq!(loaded, Err(format!("{}:2: not UTF-8 text", path.display())));
}

#[test]
fn a_folder_or_a_huge_file_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let err = load(dir.path()).unwrap_err();
    assert!(matches!(err, ConfigError::Unreadable { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("{}: not a regular file", dir.path().display())
    );
    let (_, loaded) = load_text(&vec![b'#'; 2 << 20]);
    assert!(loaded.unwrap_err().ends_with(": larger than 1024 KiB"));
}

#[test]
fn the_path_is_under_an_absolute_xdg_config_home_else_home() {
    let os = |s: &'static str| Some(OsStr::new(s));
    let want = |p: &str| Some(PathBuf::from(p));
    assert_eq!(
        path_from(os("/x/conf"), os("/home/u")),
        want("/x/conf/codex-picker/config.toml")
    );
    let home = want("/home/u/.config/codex-picker/config.toml");
    assert_eq!(path_from(None, os("/home/u")), home);
    assert_eq!(path_from(os(""), os("/home/u")), home);
    assert_eq!(path_from(os("rel/conf"), os("/home/u")), home);
    assert_eq!(
        path_from(os("/x/conf"), None),
        want("/x/conf/codex-picker/config.toml")
    );
    assert_eq!(path_from(None, None), None);
    assert_eq!(path_from(os(""), os("")), None);
    assert_eq!(path_from(None, os("home/u")), None);
}

#[test]
fn without_file_or_flags_the_defaults_hold() {
    let s = merge(FileConfig::default(), flags_of(&[]));
    assert_eq!(s, Settings::default());
    assert_eq!(
        s,
        Settings {
            scope: Scope::Folder,
            sort: Sort::Updated,
            show_exec: true,
            show_archived: false,
            resume_args: Vec::new(),
            claude_resume_args: Vec::new(),
            theme: ThemeName::Dark,
            height: Height::Full,
            keys: KeyBindings::default(),
            prices: crate::prices::Prices::new(),
        }
    );
}

#[test]
fn the_file_overrides_the_defaults() {
    let f = file(
        "resume_args = [\"--model\", \"o3\"]\nscope = \"all\"\nsort = \"created\"\n\
         show_exec = false\nshow_archived = true\ntheme = \"light\"\nheight = 15\n\
         claude_resume_args = [\"--model\", \"opus\"]\n",
    );
    assert_eq!(
        merge(f, Flags::default()),
        Settings {
            scope: Scope::All,
            sort: Sort::Created,
            show_exec: false,
            show_archived: true,
            resume_args: strings(&["--model", "o3"]),
            claude_resume_args: strings(&["--model", "opus"]),
            theme: ThemeName::Light,
            height: Height::Rows(15),
            keys: KeyBindings::default(),
            prices: crate::prices::Prices::new(),
        }
    );
}

#[test]
fn flags_override_the_file_both_ways() {
    let on = file("scope = \"all\"\nsort = \"created\"\nshow_exec = false\nshow_archived = true\n");
    let s = merge(
        on,
        flags_of(&[
            "--scope",
            "folder",
            "--sort",
            "updated",
            "--show-exec",
            "--no-archived",
        ]),
    );
    assert_eq!(
        (s.scope, s.sort, s.show_exec, s.show_archived),
        (Scope::Folder, Sort::Updated, true, false)
    );

    let off =
        file("scope = \"folder\"\nsort = \"updated\"\nshow_exec = true\nshow_archived = false\n");
    let s = merge(
        off.clone(),
        flags_of(&[
            "--scope",
            "all",
            "--sort",
            "created",
            "--no-exec",
            "--archived",
        ]),
    );
    assert_eq!(
        (s.scope, s.sort, s.show_exec, s.show_archived),
        (Scope::All, Sort::Created, false, true)
    );
    assert_eq!(merge(off, flags_of(&["--all"])).scope, Scope::All);

    let light = file("theme = \"light\"\n");
    assert_eq!(
        merge(light.clone(), flags_of(&["--theme", "dark"])).theme,
        ThemeName::Dark
    );
    assert_eq!(merge(light, flags_of(&[])).theme, ThemeName::Light);
    assert_eq!(
        merge(FileConfig::default(), flags_of(&["--theme", "none"])).theme,
        ThemeName::None
    );

    let inline = file("height = \"40%\"\n");
    assert_eq!(
        merge(inline.clone(), flags_of(&["--height", "full"])).height,
        Height::Full
    );
    assert_eq!(
        merge(inline.clone(), flags_of(&["--height", "20"])).height,
        Height::Rows(20)
    );
    assert_eq!(merge(inline, flags_of(&[])).height, Height::Percent(40));
}

#[test]
fn of_two_opposite_flags_the_last_one_wins() {
    let f = flags_of(&["--no-exec", "--show-exec"]);
    assert_eq!(f.show_exec, Some(true));
    assert_eq!(
        flags_of(&["--show-exec", "--no-exec"]).show_exec,
        Some(false)
    );
    assert_eq!(
        flags_of(&["--archived", "--no-archived"]).show_archived,
        Some(false)
    );
    assert_eq!(
        flags_of(&["--no-archived", "--archived"]).show_archived,
        Some(true)
    );
    assert_eq!(
        flags_of(&["--all", "--scope", "folder"]).scope,
        Some(Scope::Folder)
    );
    assert_eq!(
        flags_of(&["--scope", "folder", "--all"]).scope,
        Some(Scope::All)
    );
    assert_eq!(
        flags_of(&["--all", "--scope", "all"]).scope,
        Some(Scope::All)
    );
    assert_eq!(flags_of(&[]), Flags::default());
}

#[test]
fn resume_args_after_dashes_replace_the_files() {
    let f = file("resume_args = [\"--model\", \"o3\"]\n");
    let s = merge(f.clone(), flags_of(&["--", "--sandbox", "read-only"]));
    assert_eq!(s.resume_args, strings(&["--sandbox", "read-only"]));
    let s = merge(f, flags_of(&["--all"]));
    assert_eq!(s.resume_args, strings(&["--model", "o3"]));
}

#[test]
fn a_bad_flag_value_is_a_usage_error() {
    for args in [
        ["--scope", "mine"],
        ["--sort", "oldest"],
        ["--theme", "solarized"],
        ["--shell", "csh"],
        ["--height", "2"],
        ["--height", "0%"],
        ["--height", "tall"],
    ] {
        let mut argv = vec!["codex-picker"];
        argv.extend_from_slice(&args);
        assert!(Cli::try_parse_from(argv).is_err(), "{args:?}");
    }
}

#[test]
fn the_sort_is_the_lists_order() {
    assert_eq!(Recency::from(Sort::Updated), Recency::Updated);
    assert_eq!(Recency::from(Sort::Created), Recency::Created);
}

#[test]
fn the_readmes_example_sets_every_key() {
    let readme = include_str!("../README.md");
    let example = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block in the README");
    let f = file(example);
    assert!(f.resume_args.is_some() && f.scope.is_some() && f.sort.is_some());
    assert!(f.show_exec.is_some() && f.show_archived.is_some());
    assert!(f.theme.is_some() && f.height.is_some());
    let keys = f.keys.expect("a [keys] table");
    assert!(keys.0.iter().any(|b| b.conversation) && keys.0.iter().any(|b| !b.conversation));
}
