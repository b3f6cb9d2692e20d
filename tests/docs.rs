//! The documentation cannot drift from the code: every command has a section in protocol.md and every section
//! names a command; README's test command is the one CI runs; every relative link of the documents resolves; and
//! every block marked as a transcript runs against the built binary with exactly the output shown.
//!
//! A transcript is a fenced code block whose info string is `transcript`. It holds one or more commands, each on a
//! line starting with `$ `, run from the repository's root: `oust ARGS` (also written `target/release/oust ARGS` or
//! `cargo run --release -q -- ARGS`). When ARGS is empty or starts with a flag the command is the engine, and the
//! lines up to the next `$` line are a protocol session: a command line, its response (which never holds an empty
//! line), a blank line, and so on. Otherwise the lines up to the next `$` line are what the command writes, its
//! stdout followed by its stderr; for `oust analysis` the lines starting with `< ` are its input, one query a
//! line, and the other lines its answers. `OUST_BLESS_DOCS=1 cargo test --test docs` rewrites every transcript with what the
//! binary answers now (read the diff before committing it).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use regex::Regex;

use oust::gtp::COMMANDS;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
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

/// protocol.md shows the whole response of `gogui-analyze_commands`, docs/gogui.md names every entry of GoGui's analyze
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

    let guide = read("docs/gogui.md").to_lowercase().replace("\n   ", " ");
    let menu = guide
        .split("tools, analyze commands offers")
        .nth(1)
        .and_then(|r| r.split('\n').next())
        .expect("docs/gogui.md describes the analyze menu");
    for entry in oust::gtp::ANALYZE_COMMANDS {
        assert!(
            menu.contains(&entry.label.to_lowercase()),
            "docs/gogui.md's analyze menu lacks '{}': {menu}",
            entry.label
        );
    }
}

/// The documents whose links and transcripts are checked: README, RULES.md, protocol.md and every guide in docs/.
fn documents() -> Vec<String> {
    let mut names: Vec<String> = ["README.md", "RULES.md", "protocol.md"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut guides: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("a docs/ directory")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    // The dated logs of docs/results/ are documents too: their links must resolve.
    guides.extend(
        std::fs::read_dir(root().join("docs/results"))
            .expect("a docs/results/ directory")
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".md"))
            .map(|n| format!("docs/results/{n}")),
    );
    guides.sort();
    names.extend(guides);
    names
}

/// A fenced code block: the lines of its opening and closing fences (from 0), and its info string.
struct Fence {
    open: usize,
    close: usize,
    info: String,
}

/// The fenced code blocks of a Markdown text, as CommonMark finds them: a fence of three or more backticks or
/// tildes opens a block, and a line of at least as many of the same character closes it.
fn fences(text: &str) -> Vec<Fence> {
    let mut found = Vec::new();
    let mut open: Option<(usize, char, usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let Some(c) = trimmed.chars().next().filter(|c| *c == '`' || *c == '~') else {
            continue;
        };
        let run = trimmed.chars().take_while(|&x| x == c).count();
        match &open {
            None if run >= 3 => open = Some((i, c, run, trimmed[run..].trim().to_string())),
            Some((start, f, n, info))
                if c == *f && run >= *n && trimmed.trim_end().len() == run =>
            {
                found.push(Fence {
                    open: *start,
                    close: i,
                    info: info.clone(),
                });
                open = None;
            }
            _ => {}
        }
    }
    if let Some((start, ..)) = open {
        found.push(Fence {
            open: start,
            close: text.lines().count(),
            info: String::new(),
        });
    }
    found
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let blocks = fences(text);
    text.lines()
        .enumerate()
        .filter(|(i, _)| !blocks.iter().any(|f| f.open <= *i && *i <= f.close))
        .map(|(i, l)| (i + 1, l))
        .collect()
}

/// GitHub's anchor for a heading: the text as rendered (no code marks, emphasis or link targets), in lower case,
/// without punctuation other than `-` and `_`, spaces turned into `-`.
fn slug(heading: &str) -> String {
    let link = Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap();
    let text = link.replace_all(heading, "$1").replace(['`', '*'], "");
    text.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings, numbered as GitHub numbers repeated ones (`name`, `name-1`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let Some(heading) = line
            .strip_prefix('#')
            .map(|r| r.trim_start_matches('#'))
            .and_then(|r| r.strip_prefix(' '))
        else {
            continue;
        };
        let base = slug(heading);
        let mut name = base.clone();
        let mut n = 0;
        while seen.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        seen.insert(name);
    }
    // Explicit anchors, such as RULES.md's `<a id="rule-9"></a>`.
    let explicit = Regex::new(r#"<a (?:id|name)="([^"]+)""#).unwrap();
    for (_, line) in prose_lines(text) {
        seen.extend(explicit.captures_iter(line).map(|c| c[1].to_string()));
    }
    seen
}

/// Every relative link of a document: (line, target), without code spans and code blocks.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let code = Regex::new(r"`[^`]*`").unwrap();
    let inline = Regex::new(r#"\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)"#).unwrap();
    let definition = Regex::new(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)").unwrap();
    let mut links = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = code.replace_all(line, "``");
        for target in inline
            .captures_iter(&line)
            .chain(definition.captures_iter(&line))
            .map(|c| c[1].to_string())
        {
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push((number, target));
            }
        }
    }
    links
}

#[test]
fn every_relative_link_resolves_inside_the_repository() {
    let root = root().canonicalize().unwrap();
    let mut broken = Vec::new();
    for name in documents() {
        let text = read(&name);
        let dir = Path::new(&name).parent().unwrap().to_path_buf();
        for (line, target) in relative_links(&text) {
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file: PathBuf = if path.is_empty() {
                PathBuf::from(&name)
            } else {
                dir.join(path)
            };
            let resolved = match root.join(&file).canonicalize() {
                Ok(r) if r.starts_with(&root) => r,
                Ok(_) => {
                    broken.push(format!(
                        "{name}:{line}: {target} points outside the repository"
                    ));
                    continue;
                }
                Err(e) => {
                    broken.push(format!("{name}:{line}: {target}: {e}"));
                    continue;
                }
            };
            if let Some(anchor) = anchor {
                let is_markdown = resolved.extension().is_some_and(|e| e == "md");
                let known = is_markdown
                    && anchors(&std::fs::read_to_string(&resolved).unwrap()).contains(anchor);
                if !known {
                    broken.push(format!(
                        "{name}:{line}: {target}: no heading has the anchor #{anchor}"
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A clone holds nothing outside itself: no document names the project's files kept beyond the repository, linked
/// or not (README once sent readers to `../shared/RULES.md`). Links are checked above; this catches plain text.
#[test]
fn no_document_names_a_file_outside_the_repository() {
    let outside = ["../shared", "/work/", "BOARDS.md", "STYLE.md"];
    let mut found = Vec::new();
    for name in documents() {
        for (i, line) in read(&name).lines().enumerate() {
            if outside.iter().any(|o| line.contains(o)) {
                found.push(format!("{name}:{}: {line}", i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "names of files outside the repository:\n{}",
        found.join("\n")
    );
}

/// Cargo.toml names no `repository` until the project has a real public home: a published crate would link to a
/// place that does not exist.
#[test]
fn cargo_toml_names_no_repository_that_does_not_exist() {
    let manifest = read("Cargo.toml");
    let named: Vec<&str> = manifest
        .lines()
        .filter(|l| l.trim_start().starts_with("repository"))
        .collect();
    assert!(
        named.is_empty(),
        "Cargo.toml names a repository, but the project has no public home yet: {named:?}"
    );
}

#[test]
fn the_link_checker_finds_what_it_should() {
    assert_eq!(
        slug("Refereed matches (`oust match`)"),
        "refereed-matches-oust-match"
    );
    assert_eq!(
        slug("### `gogui-rules_board`".trim_start_matches("### ")),
        "gogui-rules_board"
    );
    assert_eq!(slug("Try [them](x.md) *now*"), "try-them-now");
    assert!(anchors("1. <a id=\"rule-1\"></a>**Start.**\n").contains("rule-1"));
    let text = "# A\n## A\n```\n# not a heading [x](nowhere.md)\n```\nSee [b](b.md#c) and `[d](e.md)`.\n\n[f]: ../g.md\n";
    let nested = "````\n```transcript\n$ oust\n```\n````\n```transcript\n$ oust\n```\n";
    let blocks = transcript_blocks("nested", nested);
    assert_eq!(
        blocks.len(),
        1,
        "a transcript shown inside another block is not run"
    );
    assert_eq!((blocks[0].start, blocks[0].end), (5, 7));
    assert_eq!(
        anchors(text),
        BTreeSet::from(["a".to_string(), "a-1".to_string()])
    );
    assert_eq!(
        relative_links(text),
        vec![(6, "b.md#c".to_string()), (8, "../g.md".to_string())]
    );
    assert!(relative_links("[site](https://example.com) [mail](mailto:a@b)").is_empty());
}

#[test]
fn readme_is_a_front_door_that_links_every_guide() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines, more than 300");
    // The guides; the dated logs of docs/results/ are reached through docs/results.md.
    for name in documents()
        .iter()
        .filter(|n| n.starts_with("docs/") && !n.starts_with("docs/results/"))
    {
        assert!(
            readme.contains(&format!("]({name})")) || readme.contains(&format!("]({name}#")),
            "README does not link {name}"
        );
    }
    assert!(
        readme.contains("](RULES.md)"),
        "README does not link RULES.md"
    );
    assert!(
        read("protocol.md").contains("](RULES.md"),
        "protocol.md does not link RULES.md"
    );
    // The two commands: the engine on an empty 9x9 board, and the tests.
    assert!(readme.lines().any(|l| l.trim() == "cargo run --release"));
    assert!(
        readme
            .lines()
            .any(|l| l.trim() == "cargo test --profile release-tests")
    );
}

/// One transcript block: where it is, and its lines between the fences.
struct Block {
    file: String,
    start: usize,
    end: usize,
    /// The fence's indentation (a block inside a list item), taken off every line of the body.
    indent: String,
    body: Vec<String>,
}

fn transcript_blocks(file: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    fences(text)
        .into_iter()
        .filter(|f| f.info == "transcript")
        .map(|f| {
            assert!(
                f.close < lines.len(),
                "{file}:{}: a transcript is not closed",
                f.open + 1
            );
            let fence = lines[f.open];
            let indent = fence[..fence.len() - fence.trim_start().len()].to_string();
            let body = lines[f.open + 1..f.close]
                .iter()
                .map(|l| l.strip_prefix(indent.as_str()).unwrap_or(l).to_string())
                .collect();
            Block {
                file: file.to_string(),
                start: f.open,
                end: f.close,
                indent,
                body,
            }
        })
        .collect()
}

/// A command line's words, as a shell splits them: spaces separate, quotes group. Pipes, redirections and
/// variables are not transcripts.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ' | '\t') => words.extend(word.take()),
            (None, '|' | '>' | '<' | '$' | '`' | ';' | '&' | '\\') => {
                return Err(format!(
                    "'{c}' is not supported in a transcript's command: {line}"
                ));
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("an unclosed quote: {line}"));
    }
    words.extend(word);
    Ok(words)
}

/// The arguments of a transcript command after the program's name.
fn oust_arguments(line: &str) -> Result<Vec<String>, String> {
    let words = words(line)?;
    for program in [
        &["oust"][..],
        &["target/release/oust"],
        &["cargo", "run", "--release", "-q", "--"],
    ] {
        if words.len() >= program.len() && words[..program.len()] == *program {
            return Ok(words[program.len()..].to_vec());
        }
    }
    Err(format!("a transcript runs only oust: {line}"))
}

/// Runs one command of a transcript and gives back the lines the block should hold for it (the `$` line first).
fn run_command(line: &str, shown: &[String]) -> Result<Vec<String>, String> {
    let args = oust_arguments(line.strip_prefix("$ ").unwrap())?;
    let engine = args.first().is_none_or(|a| a.starts_with('-'));
    let mut command = Command::new(env!("CARGO_BIN_EXE_oust"));
    command
        .args(&args)
        .current_dir(root())
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut lines = vec![line.to_string()];
    if args.first().is_some_and(|a| a == "analysis") {
        // The analysis engine: the queries are the lines that start with `< `, all sent at once; the answers
        // follow them, one a line.
        let queries: Vec<&String> = shown.iter().filter(|l| l.starts_with("< ")).collect();
        let input = queries
            .iter()
            .map(|q| format!("{}\n", &q[2..]))
            .collect::<String>();
        let (stdout, stderr) = run(command, &input)?;
        lines.extend(queries.iter().map(|q| q.to_string()));
        lines.extend((stdout + &stderr).lines().map(str::to_string));
    } else if engine {
        // The commands are the lines that start an exchange: the first, and each after a blank line.
        let mut commands = Vec::new();
        let mut after_blank = true;
        for l in shown {
            if after_blank && !l.is_empty() {
                commands.push(l.clone());
            }
            after_blank = l.is_empty();
        }
        let input = commands
            .iter()
            .map(|c| format!("{c}\n"))
            .collect::<String>();
        let output = run(command, &input)?;
        let responses: Vec<&str> = output.0.split_terminator("\n\n").collect();
        if responses.len() != commands.len() {
            return Err(format!(
                "{} commands got {} responses:\n{}",
                commands.len(),
                responses.len(),
                output.0
            ));
        }
        for (i, (c, r)) in commands.iter().zip(responses).enumerate() {
            if i > 0 {
                lines.push(String::new());
            }
            lines.push(c.clone());
            lines.extend(r.lines().map(str::to_string));
        }
    } else {
        let (stdout, stderr) = run(command, "")?;
        let text = stdout + &stderr;
        lines.extend(text.trim_end_matches('\n').lines().map(str::to_string));
    }
    Ok(lines)
}

fn run(mut command: Command, input: &str) -> Result<(String, String), String> {
    use std::io::Write;
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start oust: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    writer
        .join()
        .unwrap()
        .map_err(|e| format!("writing to oust: {e}"))?;
    Ok((
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    ))
}

/// What a transcript block should hold: every command run again, its output in place of the shown one.
fn rerun(block: &Block) -> Result<Vec<String>, String> {
    let mut starts: Vec<usize> = (0..block.body.len())
        .filter(|&i| block.body[i].starts_with("$ "))
        .collect();
    if starts.first() != Some(&0) {
        return Err("a transcript starts with a `$ ` command line".to_string());
    }
    starts.push(block.body.len());
    let mut lines = Vec::new();
    for pair in starts.windows(2) {
        let shown = &block.body[pair[0] + 1..pair[1]];
        lines.extend(run_command(&block.body[pair[0]], shown)?);
        // A blank line at the end (the last response's, or one before the next `$`) is layout, not output.
        if shown.last().is_some_and(|l| l.is_empty()) {
            lines.push(String::new());
        }
    }
    Ok(lines)
}

#[test]
fn every_transcript_runs_as_shown() {
    let bless = std::env::var_os("OUST_BLESS_DOCS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for name in documents() {
        let text = read(&name);
        let blocks = transcript_blocks(&name, &text);
        let mut new_lines: Vec<String> = text.lines().map(str::to_string).collect();
        for block in blocks.iter().rev() {
            count += 1;
            match rerun(block) {
                Ok(lines) if lines == block.body => {}
                Ok(lines) => {
                    let at = (0..).find(|&i| lines.get(i) != block.body.get(i)).unwrap();
                    failures.push(format!(
                        "{}:{}: the transcript differs from line {}: shown {:?}, answered {:?}; the binary \
                         answers:\n```transcript\n{}\n```",
                        block.file,
                        block.start + 1,
                        block.start + 2 + at,
                        block.body.get(at).map_or("(nothing)", String::as_str),
                        lines.get(at).map_or("(nothing)", String::as_str),
                        lines.join("\n")
                    ));
                    let indented = lines.iter().map(|l| {
                        if l.is_empty() {
                            String::new()
                        } else {
                            format!("{}{l}", block.indent)
                        }
                    });
                    new_lines.splice(block.start + 1..block.end, indented);
                }
                Err(e) => failures.push(format!("{}:{}: {e}", block.file, block.start + 1)),
            }
        }
        if bless && new_lines.join("\n") + "\n" != text {
            std::fs::write(root().join(&name), new_lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(count >= 3, "only {count} transcripts found");
    assert!(
        failures.is_empty() || bless,
        "{}\n(OUST_BLESS_DOCS=1 rewrites the transcripts with these answers)",
        failures.join("\n\n")
    );
}

/// The backquoted words of `text`.
fn quoted(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The text of `doc` between `start` and the next `end` after it.
fn between<'a>(doc: &'a str, start: &str, end: &str) -> &'a str {
    let from = doc.find(start).unwrap_or_else(|| panic!("no '{start}'")) + start.len();
    let len = doc[from..]
        .find(end)
        .unwrap_or_else(|| panic!("no '{end}' after '{start}'"));
    &doc[from..from + len]
}

/// protocol.md lists the commands that follow `notation` twice, in the parameter table and in "Abstract Play's
/// notation": both lists name exactly the commands whose answers change with it.
#[test]
fn the_notation_lists_name_every_command_that_follows_the_notation() {
    let doc = read("protocol.md");
    let in_table = quoted(between(&doc, "| `notation` | names of moves in ", ":"));
    let in_section = quoted(between(
        &doc,
        "(or `--set notation=ap` on the command line) makes ",
        " name moves as Abstract Play does",
    ));
    assert_eq!(in_table, in_section);
    // Each probe is answered twice from the same start, once in each notation; a command follows the notation when
    // its answer (the probe's last) differs.
    let probes = [
        "play w A1",
        "genmove b",
        // Cancelled at once by the end of the input: a move all the same.
        "oust-genmove_cancellable b",
        "reg_genmove b",
        "list_legal",
        "showboard",
        "oust-solve 10",
        "oust-suggest b",
        "oust-judge D4",
        "oust-heatmap",
        "oust-pv",
        "oust-status",
        "gogui-rules_legal_moves",
        "gogui-rules_board",
        "printsgf",
        "final_score",
        "oust-group_sizes",
    ];
    let answer = |notation: &str, probe: &str| {
        let input = format!(
            "oust-set-param seed 1\noust-set-param playouts 200\noust-set-param threads 1\noust-board hex3\n\
             oust-setup b ..O/..../..O../.X../X..\noust-set-param notation {notation}\n{probe}\n"
        );
        let mut engine = oust::gtp::Engine::new(oust::gtp::Options::default()).unwrap();
        let mut out = Vec::new();
        oust::gtp::run(
            &mut engine,
            std::io::Cursor::new(input.into_bytes()),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        text.trim_end().rsplit("\n\n").next().unwrap().to_string()
    };
    let follows: BTreeSet<String> = probes
        .iter()
        .filter(|probe| answer("gtp", probe) != answer("ap", probe))
        .map(|probe| probe.split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(
        in_table, follows,
        "the lists, and the commands that follow the notation"
    );
}

/// The engine's every first token of a `genmove` answer is in protocol.md's grammar of it, `resign` included.
#[test]
fn the_documented_genmove_answers_include_resign() {
    let doc = read("protocol.md");
    let tokens = quoted(between(
        &doc,
        "The first token of a `genmove` response is always ",
        ".",
    ));
    // On 4x4, Black's B2 wins against any defence: White resigns at its second low search.
    let mut engine = oust::gtp::Engine::new(oust::gtp::Options::default()).unwrap();
    let mut out = Vec::new();
    let input =
        "oust-set-param threads 1\noust-set-param seed 1\noust-set-param resign_threshold 0.3\n\
                 oust-set-param playouts 3000\nboardsize 4\nplay b B2\ngenmove w\n"
            .to_string()
            + &"genmove b\ngenmove w\n".repeat(5);
    oust::gtp::run(
        &mut engine,
        std::io::Cursor::new(input.into_bytes()),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("\n= resign\n\n"), "{text}");
    for token in ["resign", "pass", "swap"] {
        assert!(tokens.contains(token), "{token} is not among {tokens:?}");
    }
}

/// What `oust match` sends to set up a board is what docs/matches.md says, hexhex boards included, and its option
/// table names every board `--size` takes.
#[test]
fn the_referee_s_board_set_up_is_documented_as_sent() {
    let guide = read("docs/matches.md");
    let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let section = flat(between(&guide, "## What the engines receive", "\n## "));
    for command in [
        "boardsize N",
        "rectangular_boardsize W H",
        "oust-board hexS",
        "boardsize 2S-1",
        "oust-set-param pie on",
    ] {
        assert!(
            section.contains(&format!("`{command}`")),
            "docs/matches.md: {command}"
        );
    }
    let size_row = guide
        .lines()
        .find(|l| l.starts_with("| `--size N`"))
        .expect("the match options' --size row");
    for board in ["--size N", "--size WxH", "--size hexS"] {
        assert!(size_row.contains(&format!("`{board}`")), "{size_row}");
    }
}
