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

/// protocol.md shows the whole response of `gogui-analyze_commands`, README names every entry of GoGui's analyze
/// menu, and both agree with what the engine answers.
#[test]
fn the_documented_analyze_menu_is_the_engine_s() {
    let mut engine = oust::gtp::Engine::new(oust::gtp::Options::default()).unwrap();
    let mut out = Vec::new();
    oust::gtp::run(
        &mut engine,
        std::io::Cursor::new(b"gogui-analyze_commands\n".to_vec()),
        &mut out,
    )
    .unwrap();
    let answered = String::from_utf8(out).unwrap();

    let doc = read("protocol.md");
    let section = doc
        .split("### `gogui-analyze_commands`")
        .nth(1)
        .expect("a section for gogui-analyze_commands");
    let example = section
        .split("```\n")
        .nth(1)
        .expect("an example in the section");
    let documented = example
        .strip_prefix("gogui-analyze_commands\n")
        .expect("the example sends the command");
    assert_eq!(
        documented,
        answered.trim_end_matches('\n').to_string() + "\n"
    );

    let readme = read("README.md").to_lowercase().replace("\n   ", " ");
    let menu = readme
        .split("tools, analyze commands offers")
        .nth(1)
        .and_then(|r| r.split('\n').next())
        .expect("README describes the analyze menu");
    for entry in oust::gtp::ANALYZE_COMMANDS {
        assert!(
            menu.contains(&entry.label.to_lowercase()),
            "README's analyze menu lacks '{}': {menu}",
            entry.label
        );
    }
}
