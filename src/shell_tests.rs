use super::{assignment, exact, quote, Syntax};

#[test]
fn safe_words_stay_bare_and_the_rest_is_quoted() {
    assert_eq!(quote("019ac001-7e2d"), "019ac001-7e2d");
    assert_eq!(quote("/home/me/my dir"), "'/home/me/my dir'");
    assert_eq!(quote("it's"), r"'it'\''s'");
    assert_eq!(quote(""), "''");
    assert_eq!(quote("$(rm -rf ~)"), "'$(rm -rf ~)'");
    // zsh would run `=ls` as the path of ls.
    assert_eq!(quote("=ls"), "'=ls'");
    assert_eq!(quote("--model=o3"), "--model=o3");
}

#[test]
fn exact_quotes_posix_words_as_quote_does_when_they_are_printable() {
    for word in [
        "019ac001-7e2d",
        "/home/me/my dir",
        "it's",
        "",
        "$(rm -rf ~)",
        "=ls",
        "é ü",
    ] {
        assert_eq!(
            exact(Syntax::Posix, word.as_bytes()),
            quote(word),
            "{word:?}"
        );
    }
}

#[test]
fn fish_single_quotes_escape_backslashes_and_quotes() {
    assert_eq!(exact(Syntax::Fish, b"/srv/a b"), "'/srv/a b'");
    assert_eq!(exact(Syntax::Fish, br"it's"), r"'it\'s'");
    // A POSIX-quoted `\'` would end fish's quote early: here it stays inside.
    assert_eq!(exact(Syntax::Fish, br"x\'; rm -rf ~"), r"'x\\\'; rm -rf ~'");
    assert_eq!(exact(Syntax::Fish, b""), "''");
}

#[test]
fn controls_and_bytes_that_are_not_utf8_are_escaped_never_raw() {
    let word = b"/tmp/a\x1b]52;c;x\x07b\nc\xff\xfe";
    let posix = exact(Syntax::Posix, word);
    assert_eq!(
        posix,
        r"'/tmp/a'$'\x1b'']52;c;x'$'\x07''b'$'\x0a''c'$'\xff\xfe'"
    );
    let fish = exact(Syntax::Fish, word);
    assert_eq!(fish, r"'/tmp/a'\x1b']52;c;x'\x07'b'\x0a'c'\xff\xfe");
    for text in [posix, fish] {
        assert!(
            text.chars().all(|c| (' '..='~').contains(&c)),
            "only printable ASCII: {text:?}"
        );
    }
}

#[test]
fn bidirectional_controls_are_escaped_as_their_bytes() {
    assert_eq!(
        exact(Syntax::Posix, "a\u{202e}b".as_bytes()),
        r"'a'$'\xe2\x80\xae''b'"
    );
    assert_eq!(exact(Syntax::Fish, "\u{2066}".as_bytes()), r"\xe2\x81\xa6");
}

#[test]
fn an_assignment_quotes_its_value() {
    assert_eq!(
        assignment(Syntax::Posix, "CODEX_HOME", b"/srv/my home"),
        "CODEX_HOME='/srv/my home' "
    );
    assert_eq!(
        assignment(Syntax::Fish, "CODEX_HOME", b"/srv/home\xff"),
        r"CODEX_HOME='/srv/home'\xff "
    );
}
