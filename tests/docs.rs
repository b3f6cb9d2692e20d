//! The documentation cannot drift from the code: every command has a section in protocol.md and every section
//! names a command; README's test command is the one CI runs.

use std::collections::BTreeSet;

use oust::gtp::COMMANDS;

fn read(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

#[test]
fn every_command_is_documented_and_every_section_is_a_command() {
    let doc = read("protocol.md");
    let sections: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("### `").and_then(|r| r.strip_suffix('`')))
        .map(str::to_string)
        .collect();
    let commands: BTreeSet<String> = COMMANDS.iter().map(|c| c.name.to_string()).collect();
    let undocumented: Vec<_> = commands.difference(&sections).collect();
    let stale: Vec<_> = sections.difference(&commands).collect();
    assert!(
        undocumented.is_empty(),
        "commands without a section in protocol.md: {undocumented:?}"
    );
    assert!(
        stale.is_empty(),
        "sections of protocol.md for unknown commands: {stale:?}"
    );
    assert_eq!(COMMANDS.len(), commands.len(), "a command is listed twice");
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = read("README.md");
    let ci = read(".ci/run");
    let after = readme
        .split("Run the tests")
        .nth(1)
        .expect("README has a 'Run the tests' part");
    let command = after
        .lines()
        .find(|l| l.starts_with("cargo "))
        .expect("a cargo command")
        .trim();
    assert!(
        ci.lines().any(|l| l.trim() == command),
        "CI does not run `{command}` verbatim"
    );
}
