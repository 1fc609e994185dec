//! What went wrong, in codex's own words: the one line of its output that says it.

/// The line of codex's output that says what went wrong, on one line: its `Error: ...` line,
/// else its last line that is neither a warning nor a backtrace.
pub fn error_text(output: &str) -> Option<String> {
    let lines: Vec<&str> = output.lines().map(str::trim).collect();
    let error = lines.iter().find_map(|l| {
        l.strip_prefix("Error:")
            .or_else(|| l.strip_prefix("error:"))
    });
    let line = match error {
        Some(e) => e.trim(),
        None => lines
            .iter()
            .take_while(|l| !l.starts_with("Stack backtrace"))
            .filter(|l| !l.is_empty() && !l.starts_with("WARNING"))
            .last()?,
    };
    let line = crate::sanitize::one_line(line);
    (!line.is_empty()).then(|| crate::textwidth::truncate(&line, 200))
}
