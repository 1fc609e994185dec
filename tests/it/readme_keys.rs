//! The README's two key tables (under "Keys": everywhere, and in the conversation) name the
//! keys the picker's key table binds, row for row, in its order: a key changed in one and not
//! the other fails here.

use codex_picker::tui::keys::{Section, ROWS};

/// The first column of every `| Key | Action |` table in the README's "Keys" section, one list
/// per table.
fn readme_key_tables() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let keys = readme
        .split("\n## ")
        .find(|s| s.starts_with("Keys\n"))
        .expect("a \"## Keys\" section");
    let mut tables = Vec::new();
    let mut lines = keys.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "| Key | Action |" {
            continue;
        }
        lines.next(); // |---|---|
        let mut cells = Vec::new();
        while let Some(row) = lines.next_if(|l| l.starts_with('|')) {
            let cell = row
                .trim_start_matches('|')
                .split(" | ")
                .next()
                .unwrap_or("");
            // `x` and x are the same key: the backticks are the README's formatting.
            cells.push(cell.replace('`', "").trim().to_owned());
        }
        tables.push(cells);
    }
    tables
}

/// The key table's rows of `section` that the README shows, as the help names their keys.
fn table_labels(section: Section) -> Vec<String> {
    ROWS.iter()
        .filter(|r| !r.syntax && r.section == section)
        .map(codex_picker::tui::keys::Row::label)
        .collect()
}

#[test]
fn the_readme_key_tables_are_the_key_table() {
    let tables = readme_key_tables();
    assert_eq!(tables.len(), 2, "two key tables under \"## Keys\"");
    for (readme, section) in tables.iter().zip([Section::List, Section::Conversation]) {
        let table = table_labels(section);
        assert_eq!(
            readme, &table,
            "README's {section:?} key table (left) is not the key table \
             (src/tui/keys/table.rs, right): change the one that is wrong"
        );
    }
}
