//! Strength levels: the `level` parameter and `--level`, their refusals, reproducibility with a seed, levels in
//! `oust match`, and `oust calibrate`'s jobs and fit.

mod common;

use std::fs;
use std::process::{Command, Output, Stdio};

use oust::gtp::levels::{HEX_LEVELS, MAX_LEVEL, SQUARE_LEVELS};
use oust::gtp::{Engine, Options};

const OUST: &str = env!("CARGO_BIN_EXE_oust");

fn run(args: &[&str]) -> Output {
    Command::new(OUST)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn the_level_parameter_sets_a_level_refuses_bad_ones_and_is_left_by_a_change() {
    let mut engine = Engine::new(Options::default()).unwrap();
    // The engine starts on 9x9: the square boards' column.
    let five = SQUARE_LEVELS[4];
    let out = common::transcript(
        &mut engine,
        "oust-get-param level\n\
         oust-set-param level 5\n\
         oust-get-param level\n\
         oust-get-param playouts\n\
         oust-get-param threads\n\
         oust-get-param evaluator\n\
         oust-set-param level 0\n\
         oust-set-param level 11\n\
         oust-set-param level x\n\
         oust-set-param level\n\
         oust-get-param level\n\
         oust-get-param playouts\n\
         oust-set-param playouts 77\n\
         oust-get-param level\n\
         oust-set-param level MAX\n\
         oust-get-param level\n\
         oust-get-param playouts\n\
         oust-get-param temperature\n\
         oust-get-param evaluator\n",
    );
    let range = "expected a level from 1 to 10, or max for full strength";
    let expected = format!(
        "= max\n\n=\n\n= 5\n\n= {playouts}\n\n= 1\n\n= playouts\n\n\
         ? syntax error: level: {range}, got '0'\n\n\
         ? syntax error: level: {range}, got '11'\n\n\
         ? syntax error: level: {range}, got 'x'\n\n\
         ? syntax error: oust-set-param takes 2 arguments (NAME VALUE), got 1\n\n\
         = 5\n\n= {playouts}\n\n=\n\n= none\n\n=\n\n= max\n\n= 0\n\n= 0\n\n= auto\n\n",
        playouts = five.playouts
    );
    assert_eq!(out, expected);
}

#[test]
fn a_level_takes_the_column_of_the_board_it_plays_on() {
    // Level 8 differs between the columns, and follows the board when the board changes under it.
    assert_ne!(SQUARE_LEVELS[7].playouts, HEX_LEVELS[7].playouts);
    let mut engine = Engine::new(Options::default()).unwrap();
    let out = common::transcript(
        &mut engine,
        "oust-set-param level 8
         oust-get-param playouts
         oust-get-param temperature
         oust-board hex7
         oust-get-param level
         oust-get-param playouts
         oust-get-param temperature
         boardsize 7
         oust-get-param playouts
         oust-set-param level 1
         oust-get-param player
         oust-get-param temperature
         oust-board hex5
         oust-get-param temperature
",
    );
    let (s, h) = (SQUARE_LEVELS, HEX_LEVELS);
    assert_eq!(
        out,
        format!(
            "=\n\n= {}\n\n= {}\n\n=\n\n= 8\n\n= {}\n\n= {}\n\n=\n\n= {}\n\n=\n\n= policy\n\n= {}\n\n=\n\n= {}\n\n",
            s[7].playouts,
            s[7].temperature,
            h[7].playouts,
            h[7].temperature,
            s[7].playouts,
            s[0].temperature,
            h[0].temperature,
        )
    );
}

#[test]
fn the_command_line_refuses_bad_levels_and_the_flags_a_level_fixes() {
    let range = "expected a level from 1 to 10, or max for full strength";
    let cases: [(&[&str], String); 10] = [
        (&["--level", "0"], format!("--level: {range}, got '0'")),
        (&["--level", "11"], format!("--level: {range}, got '11'")),
        (&["--level", "x"], format!("--level: {range}, got 'x'")),
        (
            &["--level", "3", "--playouts", "100"],
            "--level 3 fixes what --playouts sets: give one or the other".into(),
        ),
        (
            &["--time-per-move", "2", "--level", "3"],
            "--level 3 fixes what --time-per-move sets: give one or the other".into(),
        ),
        (
            &["--level", "max", "--threads", "2"],
            "--level max fixes what --threads sets: give one or the other".into(),
        ),
        (
            &["--level", "2", "--set", "cpuct=1"],
            "--level 2 fixes what --set cpuct=1 sets: give one or the other".into(),
        ),
        (
            &["--level", "2", "--set", "time-per-move=1"],
            "--level 2 fixes what --set time-per-move=1 sets: give one or the other".into(),
        ),
        (
            &["--set", "level=2", "--playouts", "9"],
            "--set level=2 fixes what --playouts sets: give one or the other".into(),
        ),
        (
            &["--set", "temperature=1", "--set", "level=2"],
            "--set level=2 fixes what --set temperature=1 sets: give one or the other".into(),
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
    }
    // What a level leaves alone goes with it.
    let out = common::run_binary(
        &[
            "--level",
            "4",
            "--seed",
            "3",
            "--pie",
            "--set",
            "notation=ap",
        ],
        b"oust-get-param level\noust-get-param pie\n",
    );
    assert_eq!(text(&out.stdout), "= 4\n\n= on\n\n");
}

/// The engine's answers to self-play of `moves` genmoves on hex-5 at `level` with `seed`.
fn self_play(level: &str, seed: &str, moves: usize) -> String {
    let input = (0..moves)
        .map(|i| {
            if i % 2 == 0 {
                "genmove b\n"
            } else {
                "genmove w\n"
            }
        })
        .collect::<String>();
    let out = common::run_binary(
        &["--size", "hex5", "--level", level, "--seed", seed],
        input.as_bytes(),
    );
    assert!(out.status.success());
    text(&out.stdout)
}

#[test]
fn a_level_with_a_seed_plays_the_same_game_every_time() {
    // Level 1 draws from the priors, level 5 from a search's visits: the seed decides both draws.
    for level in ["1", "5"] {
        let first = self_play(level, "7", 16);
        assert_eq!(first, self_play(level, "7", 16), "level {level}");
        assert_ne!(first, self_play(level, "8", 16), "level {level}");
    }
}

#[test]
fn a_temperature_draws_genmove_s_move_but_not_the_heat_map_s_best() {
    // Hex-5, 200 playouts, six seeds: at temperature 1 the seeds' moves differ, and each seed's heat map shows
    // the search's own best move, the same as at temperature 0.
    let answers = |temperature: &str, command: &str| {
        (1..=6)
            .map(|seed| {
                let out = common::run_binary(
                    &[
                        "--size",
                        "hex5",
                        "--threads",
                        "1",
                        "--playouts",
                        "200",
                        "--seed",
                        &seed.to_string(),
                        "--set",
                        &format!("temperature={temperature}"),
                    ],
                    format!("play b E5\n{command}\n").as_bytes(),
                );
                let stdout = text(&out.stdout);
                let answer = stdout.split("\n\n").nth(1).unwrap().to_string();
                if command == "oust-heatmap" {
                    answer.split(", best ").nth(1).unwrap().to_string()
                } else {
                    answer
                }
            })
            .collect::<Vec<String>>()
    };
    let drawn = answers("1", "reg_genmove w");
    assert!(drawn.iter().any(|m| *m != drawn[0]), "{drawn:?}");
    assert_eq!(answers("1", "oust-heatmap"), answers("0", "oust-heatmap"));
}

/// A's wins in a match of `games` games on hex-5 between two engine commands, through `oust match`.
fn match_wins(a: &str, b: &str, games: &str) -> u64 {
    let out = run(&[
        "match",
        "--black",
        &format!("{OUST} {a}"),
        "--white",
        &format!("{OUST} {b}"),
        "--games",
        games,
        "--size",
        "hex5",
        "--alternate",
        "--random-openings",
        "2",
        "--seed",
        "5",
        "--fresh-engines",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("A: ") && l.contains(" wins, "))
        .unwrap_or_else(|| panic!("{stdout}"));
    line[3..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn levels_take_part_in_matches_and_rise_in_strength() {
    // Deterministic games (fixed seeds, fixed playouts, one thread): the same counts on every machine.
    assert!(match_wins("--level 1 --seed 1", "--player random --seed 2", "10") >= 9);
    assert!(match_wins("--level 4 --seed 1", "--level 1 --seed 2", "10") >= 7);
    assert_eq!(MAX_LEVEL as usize, SQUARE_LEVELS.len());
}

#[test]
fn calibrate_prints_a_ladder_of_sharded_matches() {
    let out = run(&[
        "calibrate",
        "--dir",
        "cal",
        "--levels",
        "2-3",
        "--games",
        "6",
        "--shards",
        "2",
        "--size",
        "9",
        "--seed",
        "4",
        "--oust",
        "oust",
        "--bridge",
        "3,1.5",
        "--print-jobs",
    ]);
    assert!(out.status.success());
    let jobs = text(&out.stdout);
    let expected = [
        (
            "random-policy3",
            "'oust --player policy --set temperature=3 --seed 4'",
            "'oust --player random --seed 5'",
        ),
        (
            "policy3-policy1.5",
            "'oust --player policy --set temperature=1.5 --seed 4'",
            "'oust --player policy --set temperature=3 --seed 5'",
        ),
        (
            "policy1.5-2",
            "'oust --level 2 --seed 4'",
            "'oust --player policy --set temperature=1.5 --seed 5'",
        ),
        ("2-3", "'oust --level 3 --seed 4'", "'oust --level 2 --seed 5'"),
    ]
    .iter()
    .flat_map(|(pair, a, b)| {
        (1..=2).map(move |k| {
            format!(
                "oust match --black {a} --white {b} --games 6 --size 9x9 --alternate --random-openings 2 --seed 4 \
                 --fresh-engines --shard {k}/2 --results cal/pair-{pair}.shard-{k}-of-2.tsv \
                 > cal/pair-{pair}.shard-{k}-of-2.out 2> cal/pair-{pair}.shard-{k}-of-2.log\n"
            )
        })
    })
    .collect::<String>();
    assert_eq!(jobs, expected);
    let bad = run(&["calibrate", "--dir", "cal", "--levels", "0-10"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("'0-10' is not LO-HI with 1 <= LO < HI <= 10"),
        "{}",
        text(&bad.stderr)
    );
    // 200 games are 100 openings: 16 shards of 7 leave the 16th empty.
    let bad = run(&[
        "calibrate",
        "--dir",
        "cal",
        "--shards",
        "16",
        "--print-jobs",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stdout).is_empty());
    assert!(
        text(&bad.stderr).contains(
            "--shards 16 leaves shard 16 of 200 games empty (a shard holds whole pairs of games, one opening \
             each); give --shards 15 or fewer"
        ),
        "{}",
        text(&bad.stderr)
    );
    for bridge in ["2,4", "0", "x", "1,,0.5"] {
        let bad = run(&["calibrate", "--dir", "cal", "--bridge", bridge]);
        assert_eq!(bad.status.code(), Some(2), "{bridge}");
        assert!(
            text(&bad.stderr).contains(&format!(
                "'{bridge}' is not a list of falling temperatures above 0 and at most 100"
            )),
            "{}",
            text(&bad.stderr)
        );
    }
}

#[test]
fn calibrate_bridges_to_each_boards_level_1_by_default() {
    // The bridge's last rung is the policy player just below the column's level 1.
    for (size, rungs) in [
        (
            "hex7",
            "random-policy8 policy8-policy4 policy4-policy2.5 policy2.5-policy1.6 policy1.6-policy1 policy1-1 1-2",
        ),
        (
            "9",
            "random-policy8 policy8-policy4 policy4-policy2.5 policy2.5-policy1.6 policy1.6-policy1 policy1-policy0.7 policy0.7-1 1-2",
        ),
    ] {
        let out = run(&[
            "calibrate",
            "--dir",
            "cal",
            "--size",
            size,
            "--levels",
            "1-2",
            "--print-jobs",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let pairs: Vec<String> = text(&out.stdout)
            .lines()
            .map(|l| {
                let stem = l.split("--results cal/pair-").nth(1).unwrap();
                stem.split(".shard-").next().unwrap().to_string()
            })
            .collect();
        assert_eq!(pairs.join(" "), rungs, "{size}");
    }
}

#[test]
fn calibrate_runs_its_shards_side_by_side_and_fits_the_ladder() {
    let dir = common::TempDir::new("calibrate");
    let dir_arg = dir.path().display().to_string();
    let out = run(&[
        "calibrate",
        "--dir",
        &dir_arg,
        "--levels",
        "1-2",
        "--games",
        "4",
        "--shards",
        "2",
        "--jobs",
        "2",
        "--size",
        "hex4",
        "--bridge",
        "4",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("12 games in 3 pairs from 6 results files\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\npolicy T4 - random  "), "{stdout}");
    assert!(stdout.contains("\nlevel 1 - policy T4  "), "{stdout}");
    assert!(stdout.contains("\nlevel 2 - level 1  "), "{stdout}");
    let ratings = stdout.split("ratings").nth(1).unwrap();
    let names: Vec<&str> = ratings
        .lines()
        .skip(1)
        .map(|l| l.split("  ").next().unwrap().trim())
        .collect();
    assert_eq!(
        names,
        ["random", "policy T4", "level 1", "level 2"],
        "{stdout}"
    );
    // The fit alone reads the same files again.
    let again = run(&["calibrate", "--dir", &dir_arg, "--fit"]);
    assert_eq!(text(&again.stdout), stdout);
}

#[test]
fn calibrate_resumes_the_matches_whose_results_files_are_there() {
    let dir = common::TempDir::new("calibrate-resume");
    let dir_arg = dir.path().display().to_string();
    fs::write(dir.join("pair-2-3.shard-1-of-2.tsv"), "").unwrap();
    let args = |extra: &[&str]| {
        let mut v = vec![
            "calibrate",
            "--dir",
            &dir_arg,
            "--levels",
            "2-3",
            "--games",
            "6",
            "--shards",
            "2",
            "--bridge",
            "none",
            "--oust",
            "oust",
            "--print-jobs",
        ];
        v.extend_from_slice(extra);
        run(&v)
    };
    let out = args(&["--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let jobs = text(&out.stdout);
    let resumed: Vec<&str> = jobs.lines().filter(|l| l.contains(" --resume")).collect();
    assert_eq!(resumed.len(), 1, "{jobs}");
    assert!(
        resumed[0].contains("pair-2-3.shard-1-of-2.tsv --resume >"),
        "{jobs}"
    );
    assert_eq!(jobs.lines().count(), 4, "{jobs}");
    let both = args(&["--resume", "--overwrite"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        text(&both.stderr).contains("cannot be used with"),
        "{}",
        text(&both.stderr)
    );
}
