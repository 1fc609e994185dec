//! Quoting a word for a POSIX shell, the one way every command line the program shows or copies
//! is written (the resume command, a tool call's command words, the export's header).

/// `word` as a shell reads it back: as is when it holds only safe characters, else in single
/// quotes (a `'` in it written `'\''`).
pub fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn safe_words_stay_bare_and_the_rest_is_quoted() {
        assert_eq!(quote("019ac001-7e2d"), "019ac001-7e2d");
        assert_eq!(quote("/home/me/my dir"), "'/home/me/my dir'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$(rm -rf ~)"), "'$(rm -rf ~)'");
    }
}
