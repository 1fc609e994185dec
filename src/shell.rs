//! Writing words for a shell: [`quote`] for a command line the program shows (a tool call's
//! command words, the export's header), [`exact`] for a command a shell will run (the resume
//! command printed, copied or handed to the shell integration), and [`init`], the snippets that
//! bind the picker to a key in bash, zsh and fish.

pub(crate) mod init;

/// `word` as a shell reads it back: as is when it holds only safe characters, else in single
/// quotes (a `'` in it written `'\''`).
pub fn quote(word: &str) -> String {
    if is_bare(word.as_bytes()) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The syntax a command is written in for a shell to run: POSIX quoting with `$'…'` escapes
/// (bash, zsh, ksh, busybox, POSIX.1-2024 sh), or fish's, whose single quotes take `\\` and
/// `\'` and whose escapes stand outside quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Syntax {
    /// sh, bash, zsh, ksh
    #[default]
    #[value(name = "sh", alias = "bash", alias = "zsh", alias = "posix")]
    Posix,
    /// fish
    Fish,
}

/// `word`'s bytes as `syntax` reads them back exactly, written in printable text only: a
/// control character (newline and tab too), a bidirectional control, a line or paragraph
/// separator and every byte that is not UTF-8 is written as an escape (`$'\x1b'` in POSIX
/// shells, `\x1b` in fish), never raw, so the command is safe to show on a terminal and stays
/// on one line; everything else is in single quotes unless the word is made only of characters
/// no shell expands.
pub fn exact(syntax: Syntax, word: &[u8]) -> String {
    if is_bare(word) {
        // Only ASCII, so this is the word itself.
        return String::from_utf8_lossy(word).into_owned();
    }
    let mut out = String::with_capacity(word.len() + 2);
    let mut plain = String::new();
    let mut escaped = Vec::new();
    let flush_plain = |plain: &mut String, out: &mut String| {
        if !plain.is_empty() {
            quoted_run(syntax, plain, out);
            plain.clear();
        }
    };
    for chunk in word.utf8_chunks() {
        for c in chunk.valid().chars() {
            if needs_escape(c) {
                flush_plain(&mut plain, &mut out);
                let mut buf = [0; 4];
                escaped.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            } else {
                escape_run(syntax, &escaped, &mut out);
                escaped.clear();
                plain.push(c);
            }
        }
        if !chunk.invalid().is_empty() {
            flush_plain(&mut plain, &mut out);
            escaped.extend_from_slice(chunk.invalid());
        }
    }
    flush_plain(&mut plain, &mut out);
    escape_run(syntax, &escaped, &mut out);
    if out.is_empty() {
        out.push_str("''");
    }
    out
}

/// `NAME=<value> `, the assignment before a command that sets `NAME` for it alone (fish 3.1 and
/// newer read it as POSIX shells do).
pub fn assignment(syntax: Syntax, name: &str, value: &[u8]) -> String {
    format!("{name}={} ", exact(syntax, value))
}

/// Whether no shell changes `word` read bare: letters, digits and `-_./:@%+=,`, and not an
/// `=` first (zsh expands `=cmd` to the command's path).
fn is_bare(word: &[u8]) -> bool {
    let safe = |b: &u8| b.is_ascii_alphanumeric() || b"-_./:@%+=,".contains(b);
    !word.is_empty() && word[0] != b'=' && word.iter().all(safe)
}

/// A character written as an escape rather than in quotes.
fn needs_escape(c: char) -> bool {
    c.is_control() || crate::sanitize::is_dangerous(c)
}

/// Printable text in single quotes.
fn quoted_run(syntax: Syntax, text: &str, out: &mut String) {
    out.push('\'');
    match syntax {
        Syntax::Posix => out.push_str(&text.replace('\'', r"'\''")),
        Syntax::Fish => out.push_str(&text.replace('\\', r"\\").replace('\'', r"\'")),
    }
    out.push('\'');
}

/// Bytes as hex escapes: `$'\xHH…'` (POSIX) or `\xHH…` outside quotes (fish).
fn escape_run(syntax: Syntax, bytes: &[u8], out: &mut String) {
    use std::fmt::Write;
    if bytes.is_empty() {
        return;
    }
    if syntax == Syntax::Posix {
        out.push_str("$'");
    }
    for b in bytes {
        let _ = write!(out, "\\x{b:02x}");
    }
    if syntax == Syntax::Posix {
        out.push('\'');
    }
}

#[cfg(test)]
#[path = "shell_tests.rs"]
mod tests;
