//! Runs the regression suites in `tests/suites/*.tst`, written in the GNU Go / gogui-regress format: numbered
//! commands, each followed by `#? [pattern]` (a regular expression the whole response text must match) or
//! `#? [pattern]*` (the command must fail, with an error text matching the pattern). `gogui-regress` runs the same
//! files unchanged; it treats the `*` cases as expected failures.
//!
//! The whole file is fed to the engine as it is, comments and blank lines included, so the suites also check
//! that those lines get no response. Every response must be framed exactly: `=id` or `?id` with the command's id,
//! then the text, then one blank line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use oust::gtp::{self, Engine, Options};
use regex::Regex;

/// One command line of a suite and what its response must be.
struct Case {
    line: usize,
    command: String,
    id: Option<u64>,
    pattern: Option<String>,
    expect_error: bool,
}

fn suite_files() -> Vec<PathBuf> {
    let dir = suite_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    files.sort();
    files
}

fn parse_suite(text: &str, name: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut previous_was_command = false;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            assert!(
                previous_was_command,
                "{name}:{}: #? does not follow a command",
                i + 1
            );
            let rest = rest.trim();
            let (body, expect_error) = match rest.strip_suffix('*') {
                Some(b) => (b, true),
                None => (rest, false),
            };
            let inner = body.strip_prefix('[').and_then(|b| b.strip_suffix(']'));
            let inner = inner.unwrap_or_else(|| panic!("{name}:{}: pattern needs brackets", i + 1));
            let case = cases.last_mut().unwrap();
            case.pattern = Some(inner.trim().to_string());
            case.expect_error = expect_error;
            previous_was_command = false;
            continue;
        }
        previous_was_command = false;
        let Some(line) = gtp::preprocess(raw.as_bytes()) else {
            continue;
        };
        let id = line.split(' ').next().and_then(|t| t.parse::<u64>().ok());
        cases.push(Case {
            line: i + 1,
            command: line,
            id,
            pattern: None,
            expect_error: false,
        });
        previous_was_command = true;
    }
    cases
}

/// Splits engine output into responses (each ends with a blank line).
fn split_responses(output: &str) -> Vec<String> {
    let mut responses = Vec::new();
    let mut rest = output;
    while let Some(end) = rest.find("\n\n") {
        responses.push(rest[..end].to_string());
        rest = &rest[end + 2..];
    }
    assert!(
        rest.is_empty(),
        "output ends with an unterminated response: {rest:?}"
    );
    responses
}

fn check_suite(name: &str, cases: &[Case], output: &str) -> usize {
    let responses = split_responses(output);
    let quit_at = cases
        .iter()
        .position(|c| c.command.split(' ').any(|t| t == "quit"));
    let expected_count = quit_at.map_or(cases.len(), |q| q + 1);
    assert_eq!(
        responses.len(),
        expected_count,
        "{name}: number of responses"
    );
    let mut checked = 0;
    for (case, response) in cases.iter().zip(&responses) {
        let ctx = format!("{name}:{} `{}` -> {response:?}", case.line, case.command);
        let mark = response.chars().next().unwrap();
        let header = match case.id {
            Some(id) => format!("{mark}{id}"),
            None => mark.to_string(),
        };
        assert!(
            response.starts_with(&header),
            "{ctx}: header should be {header}"
        );
        let after = &response[header.len()..];
        assert!(
            after.is_empty() || after.starts_with([' ', '\n']),
            "{ctx}: bad framing"
        );
        assert!(
            !after.contains("\n\n"),
            "{ctx}: blank line inside a response"
        );
        let is_error = mark == '?';
        // The response text as gogui-regress extracts it: from the first space, trimmed.
        let text = response.find(' ').map_or("", |i| response[i..].trim());
        match &case.pattern {
            Some(pattern) => {
                assert_eq!(
                    is_error,
                    case.expect_error,
                    "{ctx}: expected {}",
                    if case.expect_error { "?" } else { "=" }
                );
                let re = Regex::new(&format!(r"(?sm)\A(?:{pattern})\z"))
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert!(
                    re.is_match(text),
                    "{ctx}: text {text:?} does not match [{pattern}]"
                );
                checked += 1;
            }
            None => assert!(!is_error, "{ctx}: command without a pattern failed"),
        }
    }
    checked
}

/// The suites' directory: file names in the suites (`loadsgf sgf/...`) are relative to it, as gogui-regress runs
/// the engine there.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suites")
}

#[test]
fn suites_pass_in_process() {
    // The engine opens files relative to the working directory. The other test here uses absolute paths only, so
    // changing this process's directory is safe.
    std::env::set_current_dir(suite_dir()).unwrap();
    let mut total = 0;
    for file in suite_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let cases = parse_suite(&text, &name);
        let mut engine = Engine::new(Options::default()).unwrap();
        // Thinking limits come from each suite's own `oust-set-param` lines, as under gogui-regress.
        let mut out = Vec::new();
        gtp::run(
            &mut engine,
            std::io::Cursor::new(text.clone().into_bytes()),
            &mut out,
        )
        .unwrap();
        total += check_suite(&name, &cases, &String::from_utf8(out).unwrap());
    }
    assert!(total >= 200, "only {total} checks in the suites");
}

#[test]
fn suites_pass_through_the_binary() {
    for file in suite_files() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let cases = parse_suite(&text, &name);
        let mut child = Command::new(env!("CARGO_BIN_EXE_oust"))
            .current_dir(suite_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = text.clone();
        // Write from another thread so that a full stdout pipe cannot deadlock the test.
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        assert!(out.status.success(), "{name}: exit status {:?}", out.status);
        check_suite(&name, &cases, &String::from_utf8(out.stdout).unwrap());
    }
}
