//! The README's two key tables (under "Keys": everywhere, and in the conversation) name the
//! keys the picker's key table binds by default, row for row, in its order: a key changed in
//! one and not the other fails here.

use codex_picker::tui::keys::{Keymap, Section};

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

/// The key table's rows of `section` that the README shows, as the help names their default
/// keys.
fn table_labels(section: Section) -> Vec<String> {
    Keymap::default()
        .rows()
        .iter()
        .filter(|r| !r.syntax && r.section == section)
        .map(codex_picker::tui::keys::KeyRow::label)
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

/// The README's "Rebinding keys" section.
fn rebinding_section() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let start = readme
        .find("### Rebinding keys\n")
        .expect("a \"### Rebinding keys\" section");
    let rest = &readme[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end].to_owned()
}

/// The `code` words of the README's sentence that starts with `lead`, up to its full stop.
fn names_after(section: &str, lead: &str) -> Vec<String> {
    let at = section.find(lead).unwrap_or_else(|| panic!("{lead:?}"));
    let sentence = &section[at + lead.len()..];
    let sentence = &sentence[..sentence.find(".\n").expect("a full stop")];
    sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_readme_names_every_action_of_each_table_in_order() {
    let section = rebinding_section();
    let keys = Keymap::default();
    for (lead, table) in [
        (
            "The actions under `[keys]`, in the order of the key table above:",
            Section::List,
        ),
        ("Under `[keys.conversation]`:", Section::Conversation),
    ] {
        let table: Vec<String> = keys
            .binds(table)
            .map(|b| b.action.name().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(names_after(&section, lead), table, "{lead}");
    }
}

#[test]
fn the_readmes_rebinding_example_is_taken_and_shows_in_the_help() {
    let section = rebinding_section();
    let example = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block");
    let file = codex_picker::config::parse(example).expect("the example is a valid config");
    let keys = Keymap::new(&file.keys.expect("a [keys] table")).expect("its keys are taken");
    let labels: Vec<String> = keys
        .rows()
        .iter()
        .map(codex_picker::tui::keys::KeyRow::label)
        .collect();
    assert!(labels.contains(&"Ctrl+O, F5".to_owned()), "{labels:?}");
    assert!(
        labels.contains(&"Alt+A / (none) / Alt+F / F2".to_owned()),
        "{labels:?}"
    );
    assert!(labels.contains(&"j / k / } / {".to_owned()), "{labels:?}");
    assert!(keys.footer(Section::List).contains("Ctrl+K tools"));
}
