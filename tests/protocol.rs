//! Exact-byte transcripts of the protocol framing, in process and through the real binary.

mod common;

use std::io::Cursor;
use std::process::{Command, Output};

use oust::gtp::{self, Engine, MAX_LINE, Options, Settings};
use oust::rng::Rng;

/// Engine options for quick, reproducible thinking: one thread, 100 playouts per move.
fn quick() -> Options {
    Options {
        settings: Settings {
            playouts: 100,
            threads: 1,
            ..Settings::default()
        },
        ..Options::default()
    }
}

/// Flags for the same through the binary.
const QUICK: [&str; 4] = ["--playouts", "100", "--threads", "1"];

fn transcript(input: &[u8]) -> String {
    let mut engine = Engine::new(quick()).unwrap();
    let mut out = Vec::new();
    gtp::run(&mut engine, Cursor::new(input.to_vec()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn run_binary(args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oust"));
    cmd.args(args).env_remove("RUST_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    common::run_with_input(&mut cmd, input)
}

#[test]
fn hexhex_showboard_is_a_hexagon_with_its_coordinates() {
    let out = transcript(
        b"oust-board hex7\nplay b G7\nplay w A1\nplay b N13\nplay w N7\nplay b A7\nshowboard\n",
    );
    let diagram = out.rsplit("=\n\n").next().unwrap();
    // Each row between the names of its first and last cells; the letters of the columns that reach the top or
    // the bottom row stand in line with their slant, and no letter stands beside a row that lacks its column.
    assert_eq!(
        diagram,
        concat!(
            "=\n",
            "        G H J K L M N\n",
            "     G13 . . . . . . X N13\n",
            "    F12 . . . . . . . . N12\n",
            "   E11 . . . . . . . . . N11\n",
            "  D10 . . . . . . . . . . N10\n",
            "  C9 . . . . . . . . . . . N9\n",
            " B8 . . . . . . . . . . . . N8\n",
            "A7(X). . . . . X . . . . . O N7\n",
            " A6 . . . . . . . . . . . . M6\n",
            "  A5 . . . . . . . . . . . L5\n",
            "   A4 . . . . . . . . . . K4\n",
            "    A3 . . . . . . . . . J3\n",
            "     A2 . . . . . . . . H2\n",
            "      A1 O . . . . . . G1\n",
            "          A B C D E F G\n",
            "white to move\n",
            "stones: black 3, white 2; captured: by black 0, by white 0\n",
            "last move: black A7\n",
            "result: none (game in progress)\n\n",
        )
    );
    // Side 2, the smallest: the last placement in parentheses at the end of its row.
    let out = transcript(b"oust-board hex2\nplay b C2\nshowboard\n");
    assert!(
        out.contains("=\n   B C\n B3 . . C3\nA2 . .(X)C2\n A1 . . B1\n     A B\nwhite to move\n"),
        "{out}"
    );
}

#[test]
fn hexhex_showboard_names_a_placement_where_it_stands() {
    // The stone of `play b D10` stands right after the name D10, and the row's letters name cells it has: the old
    // diagram showed it after a `C`, and `play b C10` is off the board.
    let out = transcript(b"oust-board hex7\nplay b D10\nshowboard\nplay w C10\n");
    assert!(out.contains("\n  D10(X). . . . . . . . . N10\n"), "{out}");
    assert!(out.ends_with("? illegal move: C10 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not\n\n"), "{out}");
    for line in out.lines().filter(|l| l.contains(" . ")) {
        let first = line.split_whitespace().next().unwrap();
        let name = first.split('(').next().unwrap();
        assert!(
            transcript(format!("oust-board hex7\nplay b {name}\n").as_bytes())
                .ends_with("=\n\n=\n\n"),
            "{name} in {line}"
        );
    }
}

#[test]
fn showboard_follows_abstract_play_notation() {
    // Abstract Play's rows, lettered from a at the bottom, each between its first and last cell; no GTP letters.
    let out = transcript(
        b"oust-board hex3\noust-set-param notation ap\nplay b c5\nplay w a3\nshowboard\n",
    );
    let diagram = out.rsplit("=\n\n").next().unwrap();
    assert_eq!(
        diagram,
        concat!(
            "=\n",
            "  e1 . . . e3\n",
            " d1 . . . . d4\n",
            "c1 . . . . X c5\n",
            " b1 . . . . b4\n",
            "  a1 . .(O)a3\n",
            "black to move\n",
            "stones: black 1, white 1; captured: by black 0, by white 0\n",
            "last move: white a3\n",
            "result: none (game in progress)\n\n",
        )
    );
    // On a square board Abstract Play's column letters include i: its j is GTP's K.
    let out = transcript(b"boardsize 11\noust-set-param notation ap\nplay b j5\nshowboard\n");
    assert!(out.contains("\n   a b c d e f g h i j k\n"), "{out}");
    assert!(out.contains("\n 5 . . . . . . . . .(X). 5\n"), "{out}");
    assert!(out.contains("last move: black j5\n"), "{out}");
}

#[test]
fn ids_are_echoed_on_success_and_failure() {
    assert_eq!(
        transcript(b"1 name\n2 frobnicate\nname\nfrobnicate\n"),
        "=1 oust\n\n?2 unknown command: frobnicate\n\n= oust\n\n? unknown command: frobnicate\n\n"
    );
}

#[test]
fn unknown_commands_are_named_with_the_command_they_are_near() {
    let long = "x".repeat(100);
    let cases = [
        (
            "PLAY W E5",
            "unknown command: PLAY (commands are lower case: did you mean play?)",
        ),
        ("exit", "unknown command: exit (did you mean quit?)"),
        (
            "help",
            "unknown command: help (list_commands lists every command)",
        ),
        (
            "HELP me",
            "unknown command: HELP (list_commands lists every command)",
        ),
        (
            "showbord",
            "unknown command: showbord (did you mean showboard?)",
        ),
        ("nmae", "unknown command: nmae (did you mean name?)"),
        (
            "genmvoe b",
            "unknown command: genmvoe (did you mean genmove?)",
        ),
        (
            "genmove_black",
            "unknown command: genmove_black (did you mean genmove?)",
        ),
        (
            "setup b X",
            "unknown command: setup (did you mean oust-setup?)",
        ),
        (
            "list-commands",
            "unknown command: list-commands (did you mean list_commands?)",
        ),
        (
            "lz-analyze b 50",
            "unknown command: lz-analyze (did you mean oust-analyze?)",
        ),
        ("frobnicate", "unknown command: frobnicate"),
        ("go", "unknown command: go"),
        ("xyzzy", "unknown command: xyzzy"),
    ];
    for (line, message) in cases {
        assert_eq!(
            transcript(format!("3 {line}\n").as_bytes()),
            format!("?3 {message}\n\n"),
            "{line}"
        );
    }
    assert_eq!(
        transcript(format!("{long}\n").as_bytes()),
        format!("? unknown command: {}...\n\n", &long[..40])
    );
}

#[test]
fn comments_blank_lines_and_whitespace_get_no_response() {
    let input = b"# a comment\n\n   \n\t\nname # trailing comment\n  \t 3 \t protocol_version  \n";
    assert_eq!(transcript(input), "= oust\n\n=3 2\n\n");
}

#[test]
fn control_characters_are_dropped_and_crlf_is_accepted() {
    assert_eq!(
        transcript(b"na\x01me\r\n4 pro\x7ftocol_version\r\n"),
        "= oust\n\n=4 2\n\n"
    );
}

#[test]
fn an_id_alone_or_an_oversized_id_is_a_syntax_error() {
    assert_eq!(
        transcript(b"17\n"),
        "?17 syntax error: no command after the id\n\n"
    );
    assert_eq!(
        transcript(b"123456789012345678901234567890 name\n"),
        "? syntax error: the id must be a whole number below 2^64\n\n"
    );
}

#[test]
fn invalid_utf8_is_an_unknown_command_or_a_syntax_error() {
    assert_eq!(
        transcript(b"\xff\xfe\n5 play b \xc3\x28\n"),
        "? unknown command: \u{fffd}\u{fffd}\n\n?5 syntax error: expected a vertex such as D4, or pass, got '\u{fffd}('\n\n"
    );
}

#[test]
fn an_oversized_line_is_refused_and_the_next_line_is_read() {
    let mut input = b"8 play b ".to_vec();
    input.extend(std::iter::repeat_n(b'A', 2 * 1024 * 1024));
    input.extend_from_slice(b"\n9 showboard\n10 oust-status\n");
    let out = transcript(&input);
    let expected_first =
        format!("?8 line too long: more than {MAX_LINE} bytes; the command was ignored\n\n");
    assert!(out.starts_with(&expected_first), "{out}");
    assert!(out.ends_with("=10 to-move b extra-turn no must-pass no stones-b 0 stones-w 0 captured-b 0 captured-w 0 placements 0 result none\n\n"));
}

#[test]
fn the_line_cap_counts_the_command_not_comments_or_padding() {
    // A megabyte of comment, of spaces between the words, of control characters: short commands all the same.
    let mut input = b"1 name # ".to_vec();
    input.extend("a long comment ".repeat(70_000).as_bytes());
    input.extend_from_slice(b"\n2 play");
    input.extend(std::iter::repeat_n(b' ', 1024 * 1024));
    input.extend_from_slice(b"b D4\n3 oust-status\x00");
    input.extend(std::iter::repeat_n(b'\x00', 1024 * 1024));
    input.extend_from_slice(b"\n");
    assert_eq!(
        transcript(&input),
        "=1 oust\n\n=2\n\n=3 to-move w extra-turn no must-pass no stones-b 1 stones-w 0 captured-b 0 captured-w 0 placements 1 result none\n\n"
    );
}

#[test]
fn multi_line_responses_have_no_blank_line_inside() {
    let out = transcript(b"boardsize 3\n1 showboard\n2 list_commands\n");
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 3);
    assert_eq!(
        responses[1],
        "=1\n   A B C\n 3 . . . 3\n 2 . . . 2\n 1 . . . 1\n   A B C\nblack to move\nstones: black 0, white 0; captured: by black 0, by white 0\nlast move: none\nresult: none (game in progress)"
    );
    let commands: Vec<&str> = responses[2].trim_start_matches("=2 ").lines().collect();
    let table: Vec<&str> = gtp::COMMANDS.iter().map(|c| c.name).collect();
    assert_eq!(commands, table);
}

#[test]
fn quit_answers_and_stops_reading() {
    assert_eq!(transcript(b"1 quit\n2 name\n"), "=1\n\n");
}

#[test]
fn end_of_input_without_newline_still_runs_the_last_command() {
    assert_eq!(
        transcript(b"1 name\n2 protocol_version"),
        "=1 oust\n\n=2 2\n\n"
    );
}

#[test]
fn failed_commands_leave_the_state_unchanged() {
    let mut engine = Engine::new(quick()).unwrap();
    let mut out = Vec::new();
    gtp::run(
        &mut engine,
        &b"play b D4\nplay w D5\nplay b E5\n"[..],
        &mut out,
    )
    .unwrap();
    let before = engine.game().position().clone();
    let records = engine.game().records().len();
    let bad: &[&[u8]] = &[
        b"play b D6",
        b"play w D4",
        b"play w Z1",
        b"play w pass",
        b"play",
        b"genmove b",
        b"undo x",
        b"boardsize 0",
        b"rectangular_boardsize 3",
        b"oust-setup b XX",
        b"perft 99",
        b"final_score",
        b"komi x",
        b"\xff",
    ];
    for line in bad {
        let mut out = Vec::new();
        gtp::run(&mut engine, *line, &mut out).unwrap();
        assert!(out.starts_with(b"?"), "{}", String::from_utf8_lossy(line));
        assert_eq!(
            engine.game().position(),
            &before,
            "{}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(engine.game().records().len(), records);
    }
}

#[test]
fn random_garbage_never_breaks_the_framing() {
    let mut rng = Rng::new(11);
    let words = [
        "play",
        "genmove",
        "b",
        "w",
        "D4",
        "pass",
        "undo",
        "12",
        "boardsize",
        "5",
        "perft",
        "2",
        "#",
        "\t",
        "list_legal",
        "oust-setup",
        "X./.O",
        "showboard",
        "komi",
        "-1",
        "\x00",
        "\u{e9}",
    ];
    let mut engine = Engine::new(Options { seed: 3, ..quick() }).unwrap();
    for _ in 0..3000 {
        let n = rng.below(6);
        let mut line: Vec<u8> = Vec::new();
        for _ in 0..n {
            if rng.below(4) == 0 {
                // Any byte but the newline, so that each iteration sends exactly one line.
                line.push(match rng.below(256) as u8 {
                    b'\n' => b'\r',
                    b => b,
                });
            } else {
                line.extend_from_slice(words[rng.below(words.len())].as_bytes());
            }
            line.push(b' ');
        }
        line.push(b'\n');
        let mut out = Vec::new();
        if gtp::run(&mut engine, Cursor::new(line), &mut out).unwrap() == gtp::Ended::Quit {
            break;
        }
        let text = String::from_utf8(out).unwrap();
        if text.is_empty() {
            continue;
        }
        assert!(text.starts_with(['=', '?']), "{text:?}");
        assert!(
            text.ends_with("\n\n") && !text[..text.len() - 2].contains("\n\n"),
            "{text:?}"
        );
        engine.game().position().check_invariants().unwrap();
    }
}

#[test]
fn binary_exits_zero_on_end_of_input_and_after_quit() {
    let out = run_binary(&["--seed", "1"], b"1 name\n", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"=1 oust\n\n");
    let out = run_binary(&[], b"quit\nname\n", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"=\n\n");
    let out = run_binary(&[], b"", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn binary_stdout_carries_only_responses_even_with_debug_logging() {
    let input = b"1 boardsize 5\n2 genmove b\n3 genmove w\n4 showboard\nbogus\n5 oust-heatmap\n\
                  6 oust-set-param resign_threshold 0.1\n7 genmove b\n8 loadsgf none.sgf\n";
    let args = [&["--seed", "4"][..], &QUICK[..]].concat();
    let quiet = run_binary(&args, input, &[]);
    let loud = run_binary(&args, input, &[("RUST_LOG", "trace")]);
    assert_eq!(quiet.stdout, loud.stdout);
    let log = String::from_utf8_lossy(&loud.stderr);
    assert!(!log.is_empty(), "debug logging should write to stderr");
    assert!(log.contains("<- 2 genmove b"), "{log}");
    assert!(log.contains("low streak"), "{log}");
    // Readable text, not Rust's Debug forms.
    for debug in ["Some(", "None", "Ok(", "Err(", "{ "] {
        assert!(!log.contains(debug), "{debug} in the log:\n{log}");
    }
}

#[test]
fn binary_survives_a_two_megabyte_line_and_garbage() {
    let mut input = vec![b'x'; 2 * 1024 * 1024];
    input.extend_from_slice(b"\n\x00\x01\xff\xfe garbage\n1 name\n");
    let out = run_binary(&[], &input, &[]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("=1 oust\n\n"), "{text}");
    assert_eq!(text.matches("\n\n").count(), 3);
}

#[test]
fn parameter_names_take_either_spelling_on_the_command_line() {
    let out = run_binary(
        &["--set", "time-per-move=0.25", "--set", "tree_mb=8"],
        b"oust-get-param time_per_move\noust-get-param tree-mb\n",
        &[],
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "= 0.25\n\n= 8\n\n");
}

#[test]
fn genmove_is_reproducible_with_a_seed() {
    let input = b"boardsize 7\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nshowboard\n";
    let args = [&["--seed", "42"][..], &QUICK[..]].concat();
    let a = run_binary(&args, input, &[]);
    let b = run_binary(&args, input, &[]);
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(
        String::from_utf8_lossy(&a.stdout).matches("\n\n").count(),
        8
    );
}

#[test]
fn binary_starts_on_nine_by_nine_and_accepts_a_size_flag() {
    let out = run_binary(&[], b"list_legal\n", &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.split_whitespace().count(), 1 + 81);
    let out = run_binary(&["--size", "5x3"], b"list_legal\n", &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.split_whitespace().count(), 1 + 15);
}

#[test]
fn a_name_valid_only_in_the_other_notation_says_which_notation_is_in_force() {
    let out = transcript(
        b"oust-board hex7\noust-set-param notation ap\nplay b N7\nplay b z5\n\
          oust-set-param notation gtp\nplay w m1\nplay w A13\n\
          boardsize 11\nplay b i5\noust-set-param notation ap\nplay b L5\noust-status\n",
    );
    assert_eq!(
        out,
        "=\n\n=\n\n\
         ? illegal move: n7 is off the board: the hexagon of side 7 has rows a to m (notation ap is in force: Abstract Play's cells; N7 is a GTP vertex, the cell g13)\n\n\
         ? illegal move: z5 is off the board: the hexagon of side 7 has rows a to m\n\n\
         =\n\n\
         ? illegal move: M1 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not (notation gtp is in force: GTP vertices; m1 is an Abstract Play cell, the vertex G13)\n\n\
         ? illegal move: A13 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not\n\n\
         =\n\n\
         ? syntax error: expected a vertex such as D4, or pass, got 'i5': there is no column I (the columns skip it, as in Go: H, J) (notation gtp is in force: GTP vertices; i5 is an Abstract Play cell, the vertex J5)\n\n\
         =\n\n\
         ? illegal move: l5 is off the board: the 11x11 board has columns a to k and rows 1 to 11 (notation ap is in force: Abstract Play's cells; L5 is a GTP vertex, the cell k5)\n\n\
         = to-move b extra-turn no must-pass no stones-b 0 stones-w 0 captured-b 0 captured-w 0 placements 0 result none\n\n"
    );
}
