//! The command line of the `oust` binary: what it prints on stdout and stderr, its errors and its help.

use std::process::{Command, Output, Stdio};

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
    assert_eq!(steps.len(), 11, "{stderr}");
    assert_eq!(steps[0], "bench [1/11] random playouts on 9x9 (0.01 s)");
    assert_eq!(steps[3], "bench [4/11] random playouts on hex7 (0.01 s)");
    assert_eq!(steps[10], "bench [11/11] MCTS on hex7, 2 threads (0.02 s)");
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
            "--player: expected mcts, uct-plain or random, got 'mcst'",
        ),
        (
            &["--set", "cpuct=-3"],
            "--set cpuct=-3: expected a number from 0 to 100, got '-3'",
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
