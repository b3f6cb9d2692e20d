//! The command line of the `oust` binary: what it prints on stdout and stderr, its errors and its help.

mod common;

use std::process::{Command, Output, Stdio};

use regex::Regex;

const OUST: &str = env!("CARGO_BIN_EXE_oust");

fn run(args: &[&str]) -> Output {
    Command::new(OUST)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn bench_shows_each_workload_on_stderr_and_only_json_on_stdout() {
    let out = run(&["bench", "--seconds", "0.01"]);
    assert!(out.status.success());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("{\"random_playouts_per_s\": ") && stdout.ends_with("}\n"),
        "{stdout}"
    );
    let steps: Vec<&str> = stderr.lines().collect();
    assert_eq!(steps.len(), 23, "{stderr}");
    assert_eq!(steps[0], "bench [1/23] random playouts on 9x9 (0.01 s)");
    assert_eq!(steps[3], "bench [4/23] random playouts on hex7 (0.01 s)");
    assert_eq!(steps[10], "bench [11/23] MCTS on hex7, 2 threads (0.02 s)");
    // A game's first moves at the defaults (solver, evaluator, tree reuse), 1 and 2 threads, hex-7 and hex-5.
    assert_eq!(
        steps[11],
        "bench [12/23] 4 moves of a game at the defaults on hex7, 1 thread (0.04 s)"
    );
    assert_eq!(
        steps[14],
        "bench [15/23] 4 moves of a game at the defaults on hex5, 2 threads (0.04 s)"
    );
    assert!(
        Regex::new(
            r#""game_visits_per_s_per_thread": \{"hex7": \{"1": [1-9]\d*, "2": [1-9]\d*\}, "hex5": "#
        )
        .unwrap()
        .is_match(&stdout),
        "{stdout}"
    );
    // The networks: the shipped one and two other sizes, on hex-7 and 9x9.
    // The shipped one in int8 (the engine's default) and in float (the reference).
    assert!(
        steps[15].starts_with("bench [16/23] shipped network "),
        "{stderr}"
    );
    assert!(steps[15].ends_with(" in int8 on hex7 (0.01 s)"), "{stderr}");
    assert!(
        steps[16].ends_with(" in float on hex7 (0.01 s)"),
        "{stderr}"
    );
    assert_eq!(
        steps[17],
        "bench [18/23] network 2x16 (value 32) in int8 on hex7 (0.01 s)"
    );
    assert_eq!(
        steps[22],
        "bench [23/23] network 6x48 (value 32) in int8 on 9x9 (0.01 s)"
    );
    assert!(
        stdout.contains("\"game_eval_cache_hit_rate\": {\"hex7\": {\"1\": 0."),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"net_evals_per_cpu_s\": {\"hex7\": {\"shipped 4x32\": "),
        "{stdout}"
    );
    // The help describes what it measures: not only single-threaded work.
    let help = text(&run(&["bench", "--help"]).stdout);
    assert!(!help.contains("single-threaded"), "{help}");
    assert!(help.contains("two threads"), "{help}");
}

#[test]
fn command_line_errors_are_printed_once_in_clap_style() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--threads", "0"],
            "--threads: expected a number from 1 to 256, got '0'",
        ),
        (
            &["--player", "mcst"],
            "--player: expected mcts, uct-plain, random or policy, got 'mcst'",
        ),
        (
            &["--set", "cpuct=-3"],
            "--set cpuct=-3: expected auto or a number from 0 to 100, got '-3'",
        ),
        (
            &["--size", "30"],
            "invalid value '30' for '--size <N|WxH|hexS>': 30x30 is not supported: each side must be 2 to 25",
        ),
        (
            &[
                "match",
                "--black",
                "a",
                "--white",
                "b",
                "--time-settings",
                "1",
                "2",
                "3.5",
            ],
            "--time-settings takes M B S, with S a whole number of moves",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.starts_with(&format!("error: {message}\n")),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.matches(message).count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.ends_with("For more information, try '--help'.\n"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn seed_is_offered_only_where_it_does_something() {
    for (args, offered) in [
        (&["--help"][..], true),
        (&["match", "--help"][..], true),
        (&["sgf-check", "--help"][..], false),
        (&["bench", "--help"][..], true),
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}");
        let help = text(&out.stdout);
        assert_eq!(help.contains("--seed"), offered, "{args:?}: {help}");
    }
    // Where it is offered, it works: the engine's, the match's and the bench's own.
    assert!(run(&["--seed", "3"]).status.success());
    let games = |seed: &str| {
        let out = text(&run(&["bench", "--playouts", "50", "--seed", seed]).stdout);
        out.split(", \"wall_s\"").next().unwrap().to_string()
    };
    assert_eq!(games("3"), games("3"));
    assert_ne!(games("3"), games("4"));
    let out = run(&["sgf-check", "--seed", "3", "x.sgf"]);
    assert_eq!(out.status.code(), Some(2), "refused as an unknown flag");
}

#[test]
fn solve_prints_the_value_line_and_costs() {
    let out = run(&["solve", "--size", "4x3", "--moves", "--memory-mb", "8"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "value: win for black", "{stdout}");
    assert_eq!(lines[1], "best: B2", "{stdout}");
    assert_eq!(lines[2], "distance: 9", "{stdout}");
    assert!(lines[3].starts_with("pv: b:B2 "), "{stdout}");
    assert_eq!(lines[3].split(' ').count(), 10, "{stdout}");
    assert!(stdout.contains("\nmove B2: win (same as C2)\n"), "{stdout}");
    assert!(
        stdout.contains("\nmove A1: loss (same as D1 A3 D3)\n"),
        "{stdout}"
    );
    for key in ["nodes: ", "nodes/s: ", "table: 8.0 MB, ", "time: "] {
        assert!(stdout.contains(&format!("\n{key}")), "{key}: {stdout}");
    }
    // The header is on stderr, never on stdout.
    assert!(text(&out.stderr).starts_with("oust solve: 4x3 board, black to move"));
}

#[test]
fn solve_from_an_sgf_position_and_its_errors() {
    let dir = common::TempDir::new("cli-solve");
    // White to move after B A1 on 2x2: every White move loses.
    let open = dir.join("open.sgf");
    std::fs::write(&open, "(;FF[4]SZ[2];B[ab])").unwrap();
    let out = run(&["solve", "--sgf", open.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("value: loss for white\n"), "{stdout}");
    assert!(stdout.contains("\ndistance: 2\n"), "{stdout}");
    // A finished game (the full 2x2 board of ruling 8) is refused with the reason.
    let over = dir.join("over.sgf");
    std::fs::write(&over, "(;FF[4]SZ[2];B[aa];W[ba];B[bb];W[ab])").unwrap();
    let out = run(&["solve", "--sgf", over.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("the game is over (0 (neither player can place)): nothing to solve"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout).is_empty());
    drop(dir);
    // A node limit gives unknown, never a guess, and exit status 3.
    let out = run(&["solve", "--size", "4", "--nodes", "100", "--memory-mb", "8"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).starts_with("value: unknown (node limit reached)\n"),
        "{}",
        text(&out.stdout)
    );
    // The memory limit is checked before anything runs.
    let out = run(&["solve", "--size", "4", "--memory-mb", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("error: invalid value '0' for '--memory-mb <MB>'"));
}

#[test]
fn solve_refuses_what_it_cannot_finish_and_never_aborts() {
    // More than 25 empty points without a limit: refused at once, with the reason and the way out.
    let out = run(&["solve", "--size", "5x6", "--memory-mb", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "oust solve: 5x6 board, black to move, 30 empty points; table 8 MB\n\
         oust solve: 30 empty points are more than the 25 a solve without a limit takes on (5x5, the largest board \
         proven here, took 7 minutes with 25; each further point multiplies the work): give a time or node limit \
         to try anyway (--seconds S or --nodes N)\n"
    );
    assert!(text(&out.stdout).is_empty());
    // With a limit it runs, and says unknown.
    let out = run(&[
        "solve",
        "--size",
        "hex4",
        "--nodes",
        "2000",
        "--memory-mb",
        "8",
    ]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).starts_with("value: unknown (node limit reached)\nnodes: 2000\n"),
        "{}",
        text(&out.stdout)
    );
    // A table larger than the machine: refused before anything runs.
    let out = run(&["solve", "--memory-mb", "1048576"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: --memory-mb 1048576 is more than this machine's memory ("),
        "{stderr}"
    );
    // Proof-number search keeps its tree within --memory-mb, and obeys --seconds.
    let out = run(&["solve", "--pns", "--size", "4", "--memory-mb", "1"]);
    assert_eq!(out.status.code(), Some(3));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("value: unknown (the tree filled the memory limit)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\ntree: 1.0 MB\n"), "{stdout}");
    let out = run(&["solve", "--pns", "--size", "7", "--seconds", "0.001"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stdout).starts_with("value: unknown (out of time)\n"),
        "{}",
        text(&out.stdout)
    );
    // A position whose side to move cannot place: the pass is the best move (the 3x2 position of
    // tests/suites/solve.tst, as an SGF set-up).
    let dir = common::TempDir::new("cli-solve-pass");
    let pass = dir.join("pass.sgf");
    std::fs::write(&pass, "(;FF[4]SZ[3:2]AB[ca][ab][bb][cb]AW[aa]PL[W])").unwrap();
    let out = run(&["solve", "--sgf", pass.to_str().unwrap(), "--pns"]);
    let pns = text(&out.stdout);
    let out = run(&["solve", "--sgf", pass.to_str().unwrap()]);
    drop(dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("value: loss for white\nbest: pass\ndistance: 2\npv: w:pass b:"),
        "{stdout}"
    );
    assert!(
        pns.starts_with("value: no win for white (a loss or no winner)\n"),
        "{pns}"
    );
}

/// A killed client leaves an engine with nobody to answer: it ends at once, whatever it is doing, instead of
/// thinking on for hours. Here the genmove has a clock of a million seconds and no playout limit (a budget of
/// hours), and the client closes both pipes while it thinks.
#[test]
fn an_engine_whose_client_is_gone_ends_during_a_long_genmove() {
    use std::io::Write;
    let mut child = Command::new(OUST)
        .args(["--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"time_settings 1000000 0 0\ngenmove b\n")
        .unwrap();
    stdin.flush().unwrap();
    // The first answer (to time_settings) shows the engine is at the genmove.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 3];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    assert_eq!(&first, b"=\n\n");
    drop(stdin);
    drop(stdout);
    // Polled for up to 20 s (a bound, not a measurement): the fix ends it within a tenth of a second.
    let mut ended = None;
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            ended = Some(status);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    if ended.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    assert!(
        ended.is_some_and(|s| s.success()),
        "the engine was still thinking 20 s after its client had gone: {ended:?}"
    );
}

/// The end of stdin alone is not a killed client: every command already sent is answered in full (here a
/// fixed-playout genmove), as `oust < commands > answers` needs.
#[test]
fn the_end_of_stdin_still_answers_the_commands_sent_before_it() {
    use std::io::Write;
    let mut child = Command::new(OUST)
        .args(["--threads", "1", "--playouts", "2000", "--seed", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"genmove b\ngenmove w\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers = text(&out.stdout);
    let moves: Vec<&str> = answers.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(moves.len(), 2, "{answers}");
    assert!(moves.iter().all(|m| m.starts_with("= ")), "{answers}");
}

/// Issue 24, point 7: `oust solve --sgf FILE --move N` solves the position before move N of the record (as
/// loadsgf's MOVE_NUMBER), not only its end.
#[test]
fn solve_an_sgf_record_before_a_given_move() {
    let dir = std::env::temp_dir().join(format!("oust-cli-solve-move-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    struct Remove(std::path::PathBuf);
    impl Drop for Remove {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    let _remove = Remove(dir.clone());
    // The full 2x2 board of ruling 8: over at its end, open before.
    let over = dir.join("over.sgf");
    std::fs::write(&over, "(;FF[4]SZ[2];B[aa];W[ba];B[bb];W[ab])").unwrap();
    let file = over.to_str().unwrap();
    let out = run(&["solve", "--sgf", file, "--move", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("value: loss for white\nbest: A1\ndistance: 2\n"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).starts_with(&format!(
        "oust solve: {file}: the position before move 2, after 1 move\noust solve: 2x2 board, white to move, 3 empty \
         points"
    )));
    let out = run(&["solve", "--sgf", file, "--move", "1"]);
    assert!(text(&out.stdout).starts_with("value: win for black\n"));
    // Past the end: the end, which is over.
    let out = run(&["solve", "--sgf", file, "--move", "9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "oust solve: {file}: move 9: the record has 4 moves, so its end is solved\noust solve: the game is over"
        )),
        "{}",
        text(&out.stderr)
    );
    // --move needs --sgf, and counts from 1.
    let out = run(&["solve", "--move", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--sgf <FILE>"));
    let out = run(&["solve", "--sgf", file, "--move", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid value '0' for '--move <N>'"));
}

#[test]
fn a_negative_number_is_refused_for_its_range_and_a_match_of_no_games_is_refused() {
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "match",
                "--black",
                "x",
                "--white",
                "y",
                "--time-per-move",
                "-1",
            ],
            "error: invalid value '-1' for '--time-per-move <S>': '-1' is not a positive number of seconds",
        ),
        (
            &["match", "--black", "x", "--white", "y", "--grace", "-0.5"],
            "error: invalid value '-0.5' for '--grace <S>': '-0.5' is not a number of seconds (0 or more)",
        ),
        (
            &["match", "--black", "x", "--white", "y", "--games", "0"],
            "error: invalid value '0' for '--games <N>': '0' is not a number of games (1 or more)",
        ),
        (
            &["match", "--black", "x", "--white", "y", "--games", "-3"],
            "error: invalid value '-3' for '--games <N>': '-3' is not a number of games (1 or more)",
        ),
        (
            &["--time-per-move", "-1"],
            "error: --time-per-move: expected a number from 0 to 1000000, got '-1'",
        ),
        (
            &["solve", "--seconds", "-1"],
            "error: invalid value '-1' for '--seconds <S>': '-1' is not a positive number of seconds",
        ),
    ];
    for (args, first_line) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr.lines().next(),
            Some(first_line),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("unexpected argument"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}
