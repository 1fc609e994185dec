//! What the user installs once, checked by the programs that read it: each `init` snippet passes
//! its shell's syntax check and loads without a word in a non-interactive shell, `completions
//! bash` registers its completion in bash (zsh's and fish's pass their syntax checks), `man`
//! renders with `man -l`, and the quoting of printed commands reads back byte for byte in bash,
//! zsh and fish, whatever the bytes.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;

use crate::common::{run, stderr, stdout};
use crate::shell_integration::have_shell;
use codex_picker::shell::{exact, Syntax};

/// Run `program args…` with `input` on stdin; its status, stdout and stderr.
fn feed(program: &str, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// `codex-picker <args>`'s stdout, checked to have succeeded.
fn printed(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn each_init_snippet_passes_its_shells_syntax_check() {
    for (shell, check) in [
        ("bash", &["-n"][..]),
        ("zsh", &["-n"][..]),
        ("fish", &["--no-execute"][..]),
    ] {
        if !have_shell(shell) {
            continue;
        }
        let snippet = printed(&["init", shell]);
        let out = feed(shell, check, snippet.as_bytes());
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{shell}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn each_init_snippet_loads_quietly_and_defines_cxp() {
    for (shell, args, probe) in [
        (
            "bash",
            &["--norc", "--noprofile", "-s"][..],
            "type cxp >/dev/null && echo ok\n",
        ),
        (
            "zsh",
            &["-f", "-s"][..],
            "whence -w cxp >/dev/null && echo ok\n",
        ),
        (
            "fish",
            &["--no-config"][..],
            "functions -q cxp; and echo ok\n",
        ),
    ] {
        if !have_shell(shell) {
            continue;
        }
        let script = printed(&["init", shell]) + probe;
        let out = feed(shell, args, script.as_bytes());
        assert_eq!(
            (stdout(&out).as_str(), stderr(&out).as_str()),
            ("ok\n", ""),
            "{shell}"
        );
    }
}

#[test]
fn bash_completions_register_for_codex_picker() {
    let script = printed(&["completions", "bash"]) + "complete -p codex-picker\n";
    let out = feed("bash", &["--norc", "--noprofile", "-s"], script.as_bytes());
    let said = stdout(&out);
    assert!(
        said.starts_with("complete ") && said.trim_end().ends_with(" codex-picker"),
        "{said:?} {}",
        stderr(&out)
    );
    // The completion offers the commands and the picker's flags.
    let function = said
        .split_whitespace()
        .skip_while(|w| *w != "-F")
        .nth(1)
        .expect("complete -F <function>");
    let script = printed(&["completions", "bash"])
        + "COMP_WORDS=(codex-picker ''); COMP_CWORD=1; COMP_LINE='codex-picker '; COMP_POINT=13\n"
        + &format!(
            "{function} codex-picker '' codex-picker; printf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
        );
    let out = feed("bash", &["--norc", "--noprofile", "-s"], script.as_bytes());
    let words: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    for want in [
        "init",
        "completions",
        "man",
        "list",
        "--print-command",
        "--theme",
    ] {
        assert!(words.iter().any(|w| w == want), "{want} in {words:?}");
    }
}

#[test]
fn zsh_and_fish_completions_pass_their_syntax_checks() {
    for (shell, check) in [("zsh", &["-n"][..]), ("fish", &["--no-execute"][..])] {
        if !have_shell(shell) {
            continue;
        }
        let script = printed(&["completions", shell]);
        assert!(script.contains("codex-picker"), "{shell}");
        let out = feed(shell, check, script.as_bytes());
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
    }
    for shell in ["elvish", "powershell"] {
        assert!(printed(&["completions", shell]).contains("codex-picker"));
    }
}

#[test]
fn the_man_page_renders_with_every_command() {
    let page = printed(&["man"]);
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "roff");
    assert!(page.contains(".TH codex-picker 1"), "the page's title");
    if Command::new("man").arg("--version").output().is_err() {
        // Without man-db the roff is only checked for its sections.
        eprintln!("man is not installed: the page was not rendered");
        return;
    }
    let out = Command::new("sh")
        .args(["-c", "MANWIDTH=100 man -l - 2>&1"])
        .env("MAN_KEEP_FORMATTING", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(page.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("warning"), "{text}");
    for want in [
        "codex-picker - Find a past OpenAI Codex CLI session and resume it",
        "--print-command",
        "--theme",
        "codex-picker-list",
        "codex-picker-init",
        "codex-picker-completions",
    ] {
        assert!(
            text.contains(want),
            "{want:?} in the rendered page:\n{text}"
        );
    }
}

/// The words, quoted in `syntax`, printed back by `shell` each followed by a NUL.
fn read_back(shell: &str, syntax: Syntax, words: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let quoted: Vec<String> = words.iter().map(|w| exact(syntax, w)).collect();
    let script = format!("command printf '%s\\0' {}", quoted.join(" "));
    let args: &[&str] = match shell {
        "fish" => &["--no-config", "-c"],
        "zsh" => &["-f", "-c"],
        _ => &["--norc", "--noprofile", "-c"],
    };
    let out = Command::new(shell)
        .args(args)
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success(), "{shell}: {}", stderr(&out));
    let mut got: Vec<Vec<u8>> = out.stdout.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    got.pop();
    got
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any bytes but NUL (no path or argument holds one): the quoted word is printable ASCII
    /// or UTF-8 text with no control character, and each shell reads back the very bytes.
    #[test]
    fn quoted_words_read_back_exactly_in_each_shell(
        words in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(1u8..=255, 0..12),
                "[ -~]{0,12}".prop_map(String::into_bytes),
                "\\PC{0,6}".prop_map(String::into_bytes),
                prop::collection::vec(prop::sample::select(&b"'\"\\$`!*?~#;&|<>(){}[] \t\n\x1b\x7f=%"[..]), 0..8),
            ],
            1..24,
        )
    ) {
        for (shell, syntax) in [("bash", Syntax::Posix), ("zsh", Syntax::Posix), ("fish", Syntax::Fish)] {
            if !have_shell(shell) {
                continue;
            }
            for w in &words {
                let q = exact(syntax, w);
                prop_assert!(!q.chars().any(|c| c.is_control() || codex_picker::sanitize::is_dangerous(c)), "{q:?}");
            }
            prop_assert_eq!(&read_back(shell, syntax, &words), &words, "{}", shell);
        }
    }
}
