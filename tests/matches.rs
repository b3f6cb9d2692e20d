//! `oust match` end to end: real engines through the binary, a deliberately broken engine (tests/broken_engine.py,
//! a wrapper around the real one) through the library, and every SGF record replayed through the rules.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use oust::matches::{
    self, ClockSettings, GameResult, MatchConfig, OpeningSource, Reason, ResultsFile, Side, Sprt,
    SprtDecision, TimeControl, results_header,
};
use oust::rules::{Color, Shape, Status};
use oust::sgf;

mod common;

use common::TempDir;

const OUST: &str = env!("CARGO_BIN_EXE_oust");

/// Arguments that make `oust` answer `genmove` at once, reproducibly: a short single-threaded search.
const QUICK: &str = "--playouts 30 --threads 1";

fn oust(seed: u64) -> String {
    format!("{OUST} --seed {seed} {QUICK}")
}

fn broken(mode: &str, seed: u64) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken_engine.py");
    format!("python3 {} {mode} {}", script.display(), oust(seed))
}

/// A fresh scratch directory for one test, removed when the test ends, whether it passes or fails.
fn scratch(name: &str) -> TempDir {
    TempDir::new(&format!("match-{name}"))
}

/// Every game's SGF replays legally through the rules and agrees with its results line.
fn check_sgfs(dir: &Path, results: &[GameResult], commands: &[String; 2]) {
    for r in results {
        let path = dir.join(format!("game-{:04}.sgf", r.number));
        let text = fs::read_to_string(&path).unwrap();
        let record = sgf::parse(&text).unwrap();
        let game = sgf::replay(&record, None)
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
        assert_eq!(record.get("RE"), Some(r.sgf_result().as_str()), "{text}");
        assert_eq!(game.records().len(), r.moves, "{text}");
        let status = game.position().status();
        match r.reason {
            Reason::Capture | Reason::NoPlacement => {
                assert_eq!(status, Status::Over(r.outcome), "{text}")
            }
            _ => assert!(!matches!(status, Status::Over(_)), "{text}"),
        }
        let pb = record.get("PB").unwrap();
        assert!(pb.contains(&commands[r.black.index()]), "{pb}");
        if r.reason.is_forfeit() {
            assert!(record.get("C").unwrap().contains(&r.detail), "{text}");
        }
    }
}

/// The summary's words for wins, losses and draws, one of each in the singular: `1 win, 2 losses, 0 draws`.
fn tally(wins: u64, losses: u64, draws: u64) -> String {
    let word = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        word(wins, "win", "wins"),
        word(losses, "loss", "losses"),
        word(draws, "draw", "draws")
    )
}

fn counts(results: &[GameResult], side: Side) -> (u64, u64, u64) {
    let wins = results.iter().filter(|r| r.winner() == Some(side)).count() as u64;
    let losses = results
        .iter()
        .filter(|r| r.winner() == Some(side.other()))
        .count() as u64;
    let draws = results.iter().filter(|r| r.winner().is_none()).count() as u64;
    (wins, losses, draws)
}

/// Runs `oust match` between `commands` with `args`, writing SGF records to `dir/sgf` and the results file to
/// `results`.
fn run_match(commands: &[String; 2], args: &[&str], dir: &Path, results: &Path) -> Output {
    Command::new(OUST)
        .args(["match", "--black", &commands[0], "--white", &commands[1]])
        .args(args)
        .arg("--sgf-dir")
        .arg(dir.join("sgf"))
        .arg("--results")
        .arg(results)
        .output()
        .unwrap()
}

#[test]
fn two_oust_engines_play_twenty_games_and_everything_agrees() {
    let dir = scratch("twenty");
    let commands = [oust(1), oust(2)];
    let results_path = dir.join("results.tsv");
    let out = run_match(
        &commands,
        &["--games", "20", "--size", "7", "--alternate", "--seed", "5"],
        &dir,
        &results_path,
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("game 20/20"), "no progress line: {stderr}");

    let file = ResultsFile::parse(&fs::read_to_string(&results_path).unwrap()).unwrap();
    assert_eq!(file.labels, commands);
    let mut results = file.games;
    results.sort_by_key(|r| r.number);
    assert_eq!(
        results.iter().map(|r| r.number).collect::<Vec<_>>(),
        (1..=20).collect::<Vec<_>>()
    );
    for r in &results {
        assert!(!r.reason.is_forfeit(), "{r:?}");
        let black = if r.number % 2 == 1 { Side::A } else { Side::B };
        assert_eq!(r.black, black, "colours alternate");
    }
    check_sgfs(&dir.join("sgf"), &results, &commands);

    // The printed table has the same games as the results file.
    let table: Vec<Vec<&str>> = stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() >= 9 && w[0].parse::<u64>().is_ok())
        .collect();
    assert_eq!(table.len(), 20, "{stdout}");
    for (row, r) in table.iter().zip(&results) {
        assert_eq!(row[0], r.number.to_string());
        assert_eq!(row[1], r.black.letter().to_string());
        assert_eq!(row[3], r.outcome.code());
        assert_eq!(row[4], r.reason.keyword());
        assert_eq!(row[5], r.moves.to_string());
    }
    // The summary counts the same wins, losses and draws.
    let (w, l, d) = counts(&results, Side::A);
    assert_eq!(w + l + d, 20);
    assert!(stdout.contains("games: 20\n"), "{stdout}");
    assert!(
        stdout.contains(&format!("A: {} (0 lost by forfeit)", tally(w, l, d))),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("B: {} (0 lost by forfeit)", tally(l, w, d))),
        "{stdout}"
    );
    let score = (w as f64 + 0.5 * d as f64) / 20.0;
    assert!(
        stdout.contains(&format!("score of A: {score:.3} ")),
        "{stdout}"
    );

    // The file split in two halves, as two shards would write them, merges into one summary of the same games; the
    // same file twice is refused (it used to count every game twice).
    let text = fs::read_to_string(&results_path).unwrap();
    let half = |first: bool| {
        let path = dir.join(if first { "half-1.tsv" } else { "half-2.tsv" });
        let lines: String = text
            .lines()
            .filter(|l| match l.split('\t').next().unwrap().parse::<u64>() {
                Ok(n) => (n <= 10) == first,
                Err(_) => true,
            })
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(&path, lines).unwrap();
        path
    };
    let merged = Command::new(OUST)
        .args(["match", "--merge"])
        .arg(half(true))
        .arg(half(false))
        .output()
        .unwrap();
    let merged = String::from_utf8(merged.stdout).unwrap();
    assert!(merged.contains("games: 20\n"), "{merged}");
    assert!(
        merged.contains(&format!("A: {} (0 lost by forfeit)\n", tally(w, l, d))),
        "{merged}"
    );
    let twice = Command::new(OUST)
        .args(["match", "--merge"])
        .arg(&results_path)
        .arg(&results_path)
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&twice.stderr).contains(" is given twice: each file counts once"),
        "{}",
        String::from_utf8_lossy(&twice.stderr)
    );
    // A test with a negative elo0, written as SPRT bounds usually are: `--sprt -5,5,...`, not only `--sprt=-5,5,...`.
    let tested = Command::new(OUST)
        .args(["match", "--merge"])
        .arg(&results_path)
        .args(["--sprt", "-5,5,0.05,0.05"])
        .output()
        .unwrap();
    let tested_out = String::from_utf8(tested.stdout).unwrap();
    assert!(
        tested.status.success(),
        "{tested_out}{}",
        String::from_utf8_lossy(&tested.stderr)
    );
    assert!(
        tested_out.contains("\nSPRT elo0 -5 elo1 5 alpha 0.05 beta 0.05: LLR "),
        "{tested_out}"
    );
}

/// Plays `games` games of the broken engine (A) in `mode` against a sound `oust` (B), colours alternating.
fn against_broken(
    mode: &str,
    games: u64,
    adjust: impl FnOnce(&mut MatchConfig),
) -> Vec<GameResult> {
    let dir = scratch(mode);
    let mut config = MatchConfig::new(&broken(mode, 1), &oust(2), games);
    config.board = Shape::square(7);
    config.alternate = true;
    config.sgf_dir = Some(dir.join("sgf"));
    config.log_dir = Some(dir.join("logs"));
    adjust(&mut config);
    let report = matches::run(&config, &AtomicBool::new(false)).unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.results.len() as u64, games, "the match finishes");
    check_sgfs(&dir.join("sgf"), &report.results, &config.commands);
    for r in &report.results {
        assert!(
            dir.join(format!("logs/game-{:04}-black.log", r.number))
                .exists(),
            "no stderr log for game {}",
            r.number
        );
    }
    report.results
}

#[track_caller]
fn assert_forfeits(results: &[GameResult], reason: Reason, words: &str) {
    for r in results {
        assert_eq!(r.forfeited_by(), Some(Side::A), "{r:?}");
        assert_eq!(r.reason, reason, "{r:?}");
        assert!(r.detail.contains(words), "{r:?}");
    }
}

#[test]
fn an_illegal_move_is_a_forfeit() {
    let results = against_broken("illegal", 2, |_| {});
    assert_forfeits(&results, Reason::Illegal, "illegal move");
    assert!(
        results[0].detail.contains("Z25 is off the 7x7 board"),
        "{results:?}"
    );
    assert!(results[1].detail.contains("is occupied"), "{results:?}");
}

#[test]
fn garbage_is_a_forfeit() {
    let results = against_broken("garbage", 2, |_| {});
    assert_forfeits(&results, Reason::Malformed, "'banana', which is not a move");
}

#[test]
fn a_crash_mid_game_is_a_forfeit_and_the_engine_restarts() {
    let results = against_broken("crash", 2, |_| {});
    assert_forfeits(&results, Reason::Crash, "exit status 3");
    // Both crashes came after moves were played: the second game had a fresh engine.
    assert!(results.iter().all(|r| r.moves > 0), "{results:?}");
}

#[test]
fn a_hanging_engine_loses_on_time_and_is_replaced() {
    let results = against_broken("hang", 2, |c| {
        c.time = TimeControl::new(Some(0.5), None, 0.5, 30.0);
    });
    assert_forfeits(&results, Reason::Time, "exceeded its time");
    assert!(results.iter().all(|r| r.moves > 0), "{results:?}");
    // The time waited for the hung move is charged to the hung engine, and is its longest answer.
    for r in &results {
        let hung = if r.black == Side::A { 0 } else { 1 };
        assert!(r.time[hung] >= 1.0, "{r:?}");
        assert!(
            r.longest[hung] >= 1.0 && r.longest[hung] <= r.time[hung],
            "{r:?}"
        );
        assert!(r.longest[1 - hung] < 1.0, "{r:?}");
    }
}

/// A scratch directory for test `name` holding an openings file of the one opening `moves`, and that file.
fn one_opening(name: &str, moves: &str) -> (TempDir, PathBuf) {
    let dir = scratch(name);
    let openings = dir.join("openings.txt");
    fs::write(&openings, format!("{moves}\n")).unwrap();
    (dir, openings)
}

#[test]
fn under_absolute_time_the_grace_is_for_the_whole_game() {
    // 0.05 s of sudden death on 9x9 and 0.2 s of grace: an engine 0.15 s late at every move is 0.1 s late with its
    // first answer and out of grace with its second; a grace given afresh for every move would accept its late
    // answers to the end of the game. The opening leaves each side three lone stones, so that the broken engine
    // answers at least twice.
    let (_dir, openings) = one_opening("late-openings", "A1 J9 J1 A9 E5 C7");
    let results = against_broken("late", 2, |c| {
        c.board = Shape::square(9);
        c.openings = OpeningSource::File(openings.clone());
        let clock = ClockSettings {
            main: 0.05,
            byo_time: 0.0,
            byo_stones: 0,
        };
        c.time = TimeControl::new(None, Some(clock), 0.2, 30.0);
    });
    assert_forfeits(&results, Reason::Time, "exceeded its time");
    for r in &results {
        assert!(r.detail.contains("s grace left)"), "{r:?}");
        let late = if r.black == Side::A { 0 } else { 1 };
        // No single answer took the clock and the whole grace, yet the late engine lost, charged exactly those.
        assert!(r.longest[late] < 0.05 + 0.2, "{r:?}");
        assert!((r.time[late] - (0.05 + 0.2)).abs() < 1e-3, "{r:?}");
    }
}

#[test]
fn ignoring_the_extra_turn_is_a_forfeit() {
    // After B A1, W A2, B G7, W G6, Black (the broken engine) can capture A2 with B1 and must then place again.
    let (_dir, openings) = one_opening("openings", "A1 A2 G7 G6");
    let results = against_broken("extra-turn", 1, |c| {
        c.openings = OpeningSource::File(openings.clone());
    });
    assert_forfeits(&results, Reason::ExtraTurn, "passed during its extra turn");
    assert_eq!(results[0].moves, 5, "the opening and the capture");
    assert_eq!(results[0].opening, Some(0));
}

#[test]
fn a_plain_gtp_engine_plays_random_openings_concurrently() {
    // Bare genmove vertices, no move reports: the referee needs none.
    let results = against_broken("good", 8, |c| {
        c.openings = OpeningSource::Random(3);
        c.concurrency = 2;
        c.seed = 11;
    });
    assert!(
        results.iter().all(|r| !r.reason.is_forfeit()),
        "{results:?}"
    );
    // Each opening is played twice, colours swapped.
    for pair in results.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].black, Side::A);
        assert_eq!(pair[1].black, Side::B);
    }
    assert_eq!(results[0].opening, Some(0));
    assert_eq!(results[6].opening, Some(3));
}

#[test]
fn the_sprt_stops_a_decided_match() {
    let mut config = MatchConfig::new(&broken("illegal", 1), &oust(2), 200);
    // H1 says A scores 76%; each loss is then worth about ln(0.24 / 0.5) = -0.73 of log-likelihood ratio.
    config.sprt = Some(Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap());
    config.concurrency = 2;
    let report = matches::run(&config, &AtomicBool::new(false)).unwrap();
    let stop = report.sprt_stop.expect("the test stopped the match");
    assert_eq!(stop.decision, SprtDecision::H0);
    // Every game is a loss of A: the test decides after a handful (each loss adds about -0.73 to the LLR, whose
    // lower bound is ln(0.05 / 0.95) = -2.94: the fifth loss decides), and only the other worker's game in progress
    // may finish after that.
    assert_eq!(stop.games, 5);
    assert!(stop.llr <= -2.94 && stop.llr > -2.94 - 0.8, "{}", stop.llr);
    let n = report.results.len();
    assert!((5..=6).contains(&n), "{n} games");
    assert!(report.results.iter().all(|r| r.winner() == Some(Side::B)));
}

#[test]
fn the_summary_of_a_match_the_sprt_stopped_says_where_it_stopped_and_counts_every_game() {
    // As above, through the command: A loses every game, the fifth loss decides, and the other worker's game in
    // progress may end after that. The summary must not contradict the stop ("no decision yet" after one more game).
    let out = Command::new(OUST)
        .args([
            "match",
            "--black",
            &broken("illegal", 1),
            "--white",
            &oust(2),
        ])
        .args([
            "--games",
            "200",
            "--concurrency",
            "2",
            "--sprt",
            "0,200,0.05,0.05",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    let stop = "stopped by the SPRT after 5 games: H0 accepted (the difference is at most elo0)";
    let line = |prefix: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line: {stdout}"))
            .to_string()
    };
    let sprt = line("SPRT elo0 0 elo1 200 alpha 0.05 beta 0.05: ");
    assert!(!stdout.contains("no decision yet"), "{stdout}");
    match line("games: ").as_str() {
        "games: 5" => {
            assert_eq!(line("stopped by the SPRT"), stop);
            assert!(
                sprt.ends_with("): H0 accepted (the difference is at most elo0)"),
                "{sprt}"
            );
        }
        "games: 6" => {
            assert_eq!(
                line("stopped by the SPRT"),
                format!(
                    "{stop}; 1 game in progress then played to its end and counts in the figures below"
                )
            );
            assert!(
                sprt.contains("H0 accepted (the difference is at most elo0) after 5 games, LLR -"),
                "{sprt}"
            );
            assert!(
                sprt.contains("; with the 1 game in progress then, over all 6 games, LLR -"),
                "{sprt}"
            );
        }
        other => panic!("{other}: {stdout}"),
    }
}

#[test]
fn an_interrupt_abandons_the_game_in_progress() {
    let dir = scratch("interrupt");
    let mut config = MatchConfig::new(&broken("hang", 1), &oust(2), 3);
    config.board = Shape::square(7);
    config.sgf_dir = Some(dir.join("sgf"));
    config.results = Some(dir.join("results.tsv"));
    config.log_dir = Some(dir.join("logs"));
    let interrupt = AtomicBool::new(false);
    let report = thread::scope(|s| {
        s.spawn(|| {
            // Once the first game has started, the broken engine hangs at its second move.
            let log = dir.join("logs/game-0001-black.log");
            while !log.exists() {
                thread::sleep(Duration::from_millis(20));
            }
            thread::sleep(Duration::from_millis(300));
            interrupt.store(true, Ordering::SeqCst);
        });
        matches::run(&config, &interrupt).unwrap()
    });
    assert!(report.interrupted);
    assert!(report.results.is_empty(), "{:?}", report.results);
    // The abandoned game is on disk without a result; the results file has its header and no game.
    let text = fs::read_to_string(dir.join("sgf/game-0001.sgf")).unwrap();
    assert!(!text.contains("RE["), "{text}");
    sgf::replay(&sgf::parse(&text).unwrap(), None).unwrap();
    let file = ResultsFile::parse(&fs::read_to_string(dir.join("results.tsv")).unwrap()).unwrap();
    assert!(file.games.is_empty());
}

#[test]
fn an_engine_that_does_not_start_is_a_clear_error() {
    let config = MatchConfig::new("exit 1", &oust(2), 2);
    let err = matches::run(&config, &AtomicBool::new(false)).unwrap_err();
    assert!(
        err.starts_with("engine A (exit 1) did not answer 'name'"),
        "{err}"
    );
}

#[test]
fn a_time_per_move_is_used_nearly_in_full_and_never_lost_on() {
    // `--time-per-move 0.2` is sent as `time_settings 0 0.2 1`: one stone per period, so oust may use nearly all
    // of each period (it once used 80% less 0.06 s: 0.1 s of the 0.2).
    let dir = scratch("time-per-move");
    let results_path = dir.join("results.tsv");
    let engine = |seed: u64| format!("{OUST} --seed {seed} --threads 1");
    let out = Command::new(OUST)
        .args(["match", "--black", &engine(1), "--white", &engine(2)])
        .args(["--games", "2", "--size", "5", "--alternate"])
        .args(["--time-per-move", "0.2", "--results"])
        .arg(&results_path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    let file = ResultsFile::parse(&fs::read_to_string(&results_path).unwrap()).unwrap();
    assert_eq!(file.games.len(), 2);
    // No loss on time, nor any other forfeit.
    assert!(
        file.games.iter().all(|g| !g.reason.is_forfeit()),
        "{:?}",
        file.games
    );
    for side in [Side::A, Side::B] {
        let longest = file
            .games
            .iter()
            .flat_map(|g| {
                [Color::Black, Color::White]
                    .into_iter()
                    .filter(move |&c| g.side_of(c) == side)
                    .map(move |c| g.longest[c.index()])
            })
            .fold(0.0, f64::max);
        assert!(
            (0.15..0.4).contains(&longest),
            "engine {side:?}: longest answer {longest} s\n{stdout}"
        );
    }
}

#[test]
fn an_engine_that_does_not_start_says_why_from_its_stderr() {
    // A mistyped flag: clap's error and its suggestion, with --log-dir given.
    let dir = scratch("no-start");
    let typo = format!("{OUST} --thread 1");
    let out = Command::new(OUST)
        .args([
            "match",
            "--black",
            &oust(1),
            "--white",
            &typo,
            "--games",
            "1",
        ])
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .arg("--results")
        .arg(dir.join("results.tsv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // No results file is left to refuse the next attempt.
    assert!(!dir.join("results.tsv").exists());
    assert!(
        stderr.contains(&format!(
            "engine B ({typo}) did not answer 'name': closed its output: exit status 2; its stderr ended with: \
             error: unexpected argument '--thread' found | tip: a similar argument exists: '--threads'"
        )),
        "{stderr}"
    );

    // A command that is not on PATH: sh's "not found", without --log-dir.
    let config = MatchConfig::new("oust-no-such-engine --seed 1", &oust(2), 1);
    let err = matches::run(&config, &AtomicBool::new(false)).unwrap_err();
    assert!(
        err.starts_with("engine A (oust-no-such-engine --seed 1) did not answer 'name'"),
        "{err}"
    );
    assert!(err.contains("exit status 127"), "{err}");
    // dash says "sh: 1: NAME: not found", bash "sh: line 1: NAME: command not found".
    let tail = err.split("its stderr ended with: ").nth(1).unwrap_or("");
    assert!(
        tail.contains("oust-no-such-engine") && tail.contains("not found"),
        "{err}"
    );

    // An engine that exits at once: its referee either reads the end of its output or finds its input closed
    // when it writes `name`, whichever comes first. Both are reported alike, with the exit status.
    for _ in 0..20 {
        let config = MatchConfig::new(&oust(1), "exit 3", 1);
        let err = matches::run(&config, &AtomicBool::new(false)).unwrap_err();
        assert_eq!(
            err, "engine B (exit 3) did not answer 'name': closed its output: exit status 3",
            "{err}"
        );
    }
}

#[test]
fn a_second_match_refuses_to_mix_its_outputs_with_the_first_unless_told_to_overwrite() {
    let dir = scratch("overwrite");
    let results = dir.join("results.tsv");
    let (sgf_dir, logs) = (dir.join("sgf"), dir.join("logs"));
    let run = |games: &str, extra: &[&str], outputs: &[(&str, &Path)]| {
        let mut cmd = Command::new(OUST);
        cmd.args(["match", "--black", &oust(1), "--white", &oust(2)])
            .args(["--games", games, "--size", "5"])
            .args(extra);
        for (flag, path) in outputs {
            cmd.arg(flag).arg(path);
        }
        let out = cmd.output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let all = [
        ("--results", results.as_path()),
        ("--sgf-dir", sgf_dir.as_path()),
        ("--log-dir", logs.as_path()),
    ];
    let (code, stderr) = run("3", &[], &all);
    assert_eq!(code, Some(0), "{stderr}");
    let first = fs::read_to_string(&results).unwrap();

    // Each output of the first match stops the second one, which says which and how to go on.
    for (flag, path) in all {
        let (code, stderr) = run("1", &[], &[(flag, path)]);
        assert_eq!(code, Some(2), "{flag}: {stderr}");
        assert!(
            stderr.contains(&path.display().to_string())
                && stderr.contains(&format!("another {flag}, or --overwrite")),
            "{flag}: {stderr}"
        );
    }
    assert_eq!(fs::read_to_string(&results).unwrap(), first);
    assert!(sgf_dir.join("game-0003.sgf").exists());

    // With --overwrite, the old games are gone and the results file is the new match's.
    let (code, stderr) = run("1", &["--overwrite"], &all);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("deleted 3 game records (game-*.sgf)")
            && stderr.contains("deleted 6 engine logs")
            && stderr.contains("replacing"),
        "{stderr}"
    );
    assert!(sgf_dir.join("game-0001.sgf").exists());
    assert!(!sgf_dir.join("game-0002.sgf").exists());
    assert!(!logs.join("game-0003-white.log").exists());
    let file = ResultsFile::parse(&fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(file.games.len(), 1);
}

#[test]
fn merging_shards_whose_engines_differ_only_in_their_seeds_gives_no_warning() {
    let dir = scratch("merge-seeds");
    let game = "1\tA\tB\tB+\tcapture\t9\t0.1\t0.1\t0.1\t0.1\t-\t";
    let shard = |name: &str, a: &str, b: &str, settings: &str| {
        let path = dir.join(name);
        let labels = [a.to_string(), b.to_string()];
        fs::write(
            &path,
            format!("{}{game}\n", results_header(&labels, settings)),
        )
        .unwrap();
        path
    };
    let merge = |files: &[&PathBuf]| {
        let out = Command::new(OUST)
            .args(["match", "--merge"])
            .args(files)
            .output()
            .unwrap();
        assert!(out.status.success());
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.contains(&format!("games: {}\n", files.len())),
            "{stdout}"
        );
        String::from_utf8(out.stderr).unwrap()
    };
    // docs/matches.md's sharding: each shard's engines have their own seeds, the match its own offset.
    let s0 = shard(
        "s0.tsv",
        "oust --seed 1 --threads 1",
        "oust --seed=2 --player uct-plain",
        "size 7x7, games 100, seed 7, random-openings 4",
    );
    let s1 = shard(
        "s1.tsv",
        "oust --seed 3 --threads 1",
        "oust --seed=4 --player uct-plain",
        "size 7x7, games 100, seed 7, random-openings 4, opening-offset 50",
    );
    let stderr = merge(&[&s0, &s1]);
    assert!(!stderr.contains("other engines"), "{stderr}");
    // Anything else that differs still warns.
    let other = shard(
        "other.tsv",
        "oust --seed 5 --threads 2",
        "oust --seed=6 --player uct-plain",
        "size 7x7, games 100",
    );
    let stderr = merge(&[&s0, &s1, &other]);
    assert!(
        stderr.contains("is a match of other engines") && stderr.contains("other.tsv"),
        "{stderr}"
    );
}

#[test]
fn a_match_says_what_it_plays_at_once_and_shows_a_long_game_in_progress() {
    // The broken engine hangs at its second move for the whole 12 s it is allowed: a game of 12 s.
    let hang = broken("hang", 1);
    let out = Command::new(OUST)
        .args([
            "match",
            "--black",
            &hang,
            "--white",
            &oust(2),
            "--games",
            "1",
        ])
        .args(["--size", "5", "--time-per-move", "12", "--grace", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "match: A = {hang} (oust {v}), B = {} (oust {v})",
            oust(2),
            v = env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(
        lines[1],
        "match: 1 game on 5x5, 12 s a move (time_settings 0 12 1, 0 s grace), 1 at once"
    );
    // Not a terminal: one line on the game in progress after 10 s of silence, then the game's line.
    let playing: Vec<&&str> = lines.iter().filter(|l| l.starts_with("playing")).collect();
    assert_eq!(playing.len(), 1, "{stderr}");
    assert!(
        playing[0].starts_with("playing game 1 at move ")
            && playing[0].contains(" (0/1 done, ")
            && playing[0].ends_with(" since the start)"),
        "{stderr}"
    );
    assert!(lines[3].starts_with("game 1/1: A 0-1-0"), "{stderr}");
}

#[test]
fn debug_lines_name_the_game_and_the_engine() {
    let out = Command::new(OUST)
        .args(["match", "--black", &oust(1), "--white", &oust(2)])
        .args([
            "--games",
            "2",
            "--size",
            "4",
            "--alternate",
            "--concurrency",
            "2",
        ])
        .env("RUST_LOG", "oust::matches=debug")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let mut seen = Vec::new();
    for line in stderr.lines().filter(|l| l.contains("-> genmove")) {
        // "... game 2 B (black) -> genmove b": game 1 has A as Black, game 2 B.
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "->").unwrap();
        assert!(at >= 4, "no game and engine before '->': {line}");
        let [game, number, side, colour] = words[at - 4..at] else {
            unreachable!()
        };
        assert_eq!(game, "game", "{line}");
        let black = if number == "1" { "A" } else { "B" };
        let expected = if side == black { "(black)" } else { "(white)" };
        assert_eq!(colour, expected, "{line}");
        assert_eq!(words[at + 2], &expected[1..2], "{line}");
        seen.push((number, side));
    }
    for game in [("1", "A"), ("1", "B"), ("2", "A"), ("2", "B")] {
        assert!(
            seen.contains(&game),
            "{game:?} never asked to move: {stderr}"
        );
    }
}

#[test]
fn an_engine_that_hangs_at_start_up_shows_its_stderr_so_far() {
    let mut config = MatchConfig::new("echo waiting for a licence >&2; sleep 10", &oust(2), 1);
    config.time = TimeControl::new(None, None, 0.2, 0.5);
    let err = matches::run(&config, &AtomicBool::new(false)).unwrap_err();
    assert!(
        err.ends_with(
            "did not answer 'name': no response within 0.500 s; its stderr so far: waiting for a licence"
        ),
        "{err}"
    );
}

#[test]
fn hexhex_matches_with_random_openings_record_their_board() {
    let dir = scratch("hex");
    let commands = [oust(3), oust(4)];
    let results_path = dir.join("results.tsv");
    let out = run_match(
        &commands,
        &[
            "--games",
            "6",
            "--size",
            "hex4",
            "--random-openings",
            "2",
            "--seed",
            "8",
            "--concurrency",
            "2",
        ],
        &dir,
        &results_path,
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = fs::read_to_string(&results_path).unwrap();
    assert!(text.contains("size hex4"), "{text}");
    let mut results = ResultsFile::parse(&text).unwrap().games;
    results.sort_by_key(|r| r.number);
    assert_eq!(results.len(), 6);
    for r in &results {
        assert!(!r.reason.is_forfeit(), "{r:?}");
        assert!(r.opening.is_some());
    }
    check_sgfs(&dir.join("sgf"), &results, &commands);
    let record = fs::read_to_string(dir.join("sgf/game-0001.sgf")).unwrap();
    assert!(record.contains("SZ[7]HX[4]"), "{record}");
    let parsed = sgf::parse(&record).unwrap();
    assert_eq!(parsed.board, Shape::Hex { side: 4 });
}

#[test]
fn an_engine_without_oust_board_gets_gogui_boardsize_for_a_hexhex_board() {
    // A plain GTP engine started on the hexhex board takes boardsize 7 for it, as GoGui's players do.
    let mut config = MatchConfig::new(
        &broken("plain", 5).replace("--seed 5", "--seed 5 --size hex4"),
        &oust(6),
        2,
    );
    config.board = Shape::Hex { side: 4 };
    config.alternate = true;
    let report = matches::run(&config, &AtomicBool::new(false)).unwrap();
    assert_eq!(report.results.len(), 2);
    for r in &report.results {
        assert!(!r.reason.is_forfeit(), "{r:?}");
    }
    // Started on a square board it plays by the square board's rules: sooner or later it plays off the hexagon,
    // or refuses a move that is legal only with six neighbours. Never a silent game on the wrong board.
    let mut config = MatchConfig::new(&broken("plain", 5), &oust(6), 4);
    config.board = Shape::Hex { side: 4 };
    config.alternate = true;
    let report = matches::run(&config, &AtomicBool::new(false)).unwrap();
    let forfeits: Vec<&GameResult> = report
        .results
        .iter()
        .filter(|r| r.reason.is_forfeit())
        .collect();
    assert!(!forfeits.is_empty(), "{:?}", report.results);
    for r in forfeits {
        assert_eq!(r.forfeited_by(), Some(Side::A), "{r:?}");
        assert!(
            matches!(r.reason, Reason::Refused | Reason::Illegal),
            "{r:?}"
        );
    }
}

/// The moves of every game in `dir`'s SGF records, by game number.
fn recorded_games(dir: &Path) -> Vec<(String, String)> {
    let mut games: Vec<(String, String)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap();
            let moves = sgf::parse(&text).unwrap().moves;
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            (name, format!("{moves:?}"))
        })
        .collect();
    games.sort();
    games
}

#[test]
fn shards_run_side_by_side_play_the_games_of_one_long_match() {
    shards_play_the_games_of_one_long_match("shards", |script| {
        let children: Vec<_> = ["1", "2"]
            .iter()
            .map(|k| Command::new("sh").arg(script).arg(k).spawn().unwrap())
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
    });
}

/// docs/matches.md's recipe: the shards run by GNU parallel. Outside CI it is skipped, saying so, where GNU parallel
/// is missing.
#[test]
fn shards_run_by_gnu_parallel_play_the_games_of_one_long_match() {
    let installed = Command::new("parallel").arg("--version").output().is_ok();
    if !common::needs_tool(
        "shards_run_by_gnu_parallel_play_the_games_of_one_long_match",
        "GNU parallel",
        installed,
    ) {
        return;
    }
    shards_play_the_games_of_one_long_match("shards-parallel", |script| {
        let out = Command::new("parallel")
            .args(["-j", "2", "sh"])
            .arg(script)
            .args([":::", "1", "2"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// A match of 10 games played whole, then in 2 shards by `run_shards` (given a script that plays shard `$1`):
/// the shards' results and games are the whole match's, and they merge.
fn shards_play_the_games_of_one_long_match(name: &str, run_shards: impl FnOnce(&Path)) {
    let dir = scratch(name);
    // Deterministic engines (fixed seeds, playouts, one thread), started anew for every game.
    let commands = [oust(11), oust(12)];
    let common = [
        "--games",
        "10",
        "--size",
        "5",
        "--random-openings",
        "2",
        "--seed",
        "3",
        "--fresh-engines",
    ];
    let whole = dir.join("whole");
    let out = run_match(&commands, &common, &whole, &dir.join("whole.tsv"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The same match in 2 shards, run side by side by GNU parallel, each with its own outputs.
    let script = dir.join("shard.sh");
    let mut line = format!(
        "exec '{OUST}' match --black '{}' --white '{}' {} --shard \"$1\"/2",
        commands[0],
        commands[1],
        common.join(" ")
    );
    line.push_str(&format!(
        " --results \"{}/shard-$1.tsv\" --sgf-dir \"{}/shard-$1/sgf\"",
        dir.display(),
        dir.display()
    ));
    fs::write(&script, line).unwrap();
    run_shards(&script);

    // Merged, the shards' results are the whole match's, game for game (times apart), and so are the games.
    let results = |path: PathBuf| {
        ResultsFile::parse(&fs::read_to_string(path).unwrap())
            .unwrap()
            .games
    };
    let key = |r: &GameResult| (r.number, r.black, r.outcome, r.reason, r.moves, r.opening);
    let mut whole_results: Vec<_> = results(dir.join("whole.tsv")).iter().map(key).collect();
    let mut shard_results: Vec<_> = [1, 2]
        .iter()
        .flat_map(|k| results(dir.join(format!("shard-{k}.tsv"))))
        .map(|r| key(&r))
        .collect();
    whole_results.sort_by_key(|k| k.0);
    shard_results.sort_by_key(|k| k.0);
    assert_eq!(whole_results.len(), 10);
    assert_eq!(shard_results, whole_results);
    let mut shard_games = recorded_games(&dir.join("shard-1/sgf"));
    shard_games.extend(recorded_games(&dir.join("shard-2/sgf")));
    shard_games.sort();
    assert_eq!(shard_games, recorded_games(&whole.join("sgf")));
    // Shard 1 played games 1 to 6 (three opening pairs), shard 2 games 7 to 10.
    assert_eq!(
        recorded_games(&dir.join("shard-2/sgf"))[0].0,
        "game-0007.sgf"
    );
    let merged = Command::new(OUST)
        .args(["match", "--merge"])
        .arg(dir.join("shard-1.tsv"))
        .arg(dir.join("shard-2.tsv"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&merged.stdout).contains("games: 10"));
    assert!(
        merged.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
}

/// A playout limit is a cap whatever clock runs beside it: fixed-seed, fixed-playout, one-thread engines play the
/// same games with a (long enough) clock as without one, and again when the match is run a second time. Before,
/// a clock gave the solver a tenth of each move's time instead of its node share of the playouts, and two runs
/// under `--time-per-move 0.5` played different games.
#[test]
fn fixed_playout_engines_play_the_same_games_with_or_without_a_clock() {
    let dir = scratch("clock-repro");
    let engine = |seed: u64| format!("{OUST} --seed {seed} --playouts 300 --threads 1");
    let commands = [engine(21), engine(22)];
    let common = [
        "--games",
        "2",
        "--size",
        "7",
        "--seed",
        "4",
        "--fresh-engines",
    ];
    let mut runs = Vec::new();
    for (name, clock) in [
        ("none", &[][..]),
        ("first", &["--time-per-move", "2"][..]),
        ("second", &["--time-per-move", "2"][..]),
    ] {
        let args: Vec<&str> = common.iter().chain(clock).copied().collect();
        let out = run_match(
            &commands,
            &args,
            &dir.join(name),
            &dir.join(format!("{name}.tsv")),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        runs.push(recorded_games(&dir.join(name).join("sgf")));
    }
    assert_eq!(runs[0].len(), 2);
    assert_eq!(runs[1], runs[0], "a clock changed the games");
    assert_eq!(
        runs[2], runs[1],
        "a second run under the clock changed the games"
    );
}

/// Counts and their nouns agree: '1 move', not '1 moves', in the start line and the adjudication.
#[test]
fn one_move_is_one_move_in_the_start_line_and_the_results() {
    let dir = scratch("one-move");
    let random = format!("{OUST} --player random");
    let results = dir.join("results.txt");
    let out = run_match(
        &[random.clone(), random],
        &[
            "--games",
            "2",
            "--size",
            "3",
            "--random-openings",
            "1",
            "--max-moves",
            "1",
        ],
        &dir,
        &results,
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with(
                "match: 2 games on 3x3, random openings of 1 move (63 drawn again as decided; 1 kept decided, every draw was), "
            )),
        "{stderr}"
    );
    let text = fs::read_to_string(&results).unwrap();
    assert_eq!(
        text.matches("\tadjudicated a draw after 1 move\n").count(),
        2,
        "{text}"
    );
}

/// Who placed the first stone and who swapped, from a game's record: `Some(swapper)` when White's first move was
/// the pie rule's swap.
fn swapper(dir: &Path, r: &GameResult) -> Option<Side> {
    let text = fs::read_to_string(dir.join(format!("game-{:04}.sgf", r.number))).unwrap();
    let record = sgf::parse(&text).unwrap();
    assert!(record.pie, "RU[pie] in every record of a pie match: {text}");
    let swapped = record
        .moves
        .get(1)
        .is_some_and(|&(c, mv)| c == Color::White && mv == oust::rules::Move::Swap);
    assert_eq!(swapped, text.contains("W[swap-sides]"), "{text}");
    // After a swap, the engine that swapped owns Black: PB names it, and the results line says so.
    swapped.then_some(r.black)
}

#[test]
fn a_pie_match_between_two_engines_credits_the_colours_after_the_swap() {
    let dir = scratch("pie");
    let commands = [oust(1), oust(2)];
    let results_path = dir.join("results.tsv");
    let out = run_match(
        &commands,
        &[
            "--games",
            "8",
            "--size",
            "5",
            "--pie",
            "--random-openings",
            "1",
            "--seed",
            "3",
        ],
        &dir,
        &results_path,
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let text = fs::read_to_string(&results_path).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("# settings:") && l.contains(" pie")),
        "{text}"
    );
    let results = ResultsFile::parse(&text).unwrap().games;
    assert_eq!(results.len(), 8);
    check_sgfs(&dir.join("sgf"), &results, &commands);
    let mut swaps = 0;
    for r in &results {
        assert!(!r.reason.is_forfeit(), "{r:?}");
        // Openings are played twice with colours exchanged: A starts as Black in odd games.
        let started_black = if r.number % 2 == 1 { Side::A } else { Side::B };
        match swapper(&dir.join("sgf"), r) {
            Some(side) => {
                swaps += 1;
                assert_eq!(side, started_black.other(), "the swapper is White's engine");
                assert_eq!(r.black, started_black.other(), "{r:?}");
            }
            None => assert_eq!(r.black, started_black, "{r:?}"),
        }
    }
    assert!(
        swaps > 0 && swaps < 8,
        "{swaps} swaps: both decisions should occur"
    );
    let (w, l, d) = counts(&results, Side::A);
    assert!(
        stdout.contains(&format!("A: {}", tally(w, l, d))),
        "{stdout}"
    );
}

#[test]
fn a_swap_at_the_wrong_time_is_a_forfeit() {
    // Without the pie rule every swap is illegal.
    let results = against_broken("swap", 2, |_| {});
    assert_forfeits(
        &results,
        Reason::Illegal,
        "swap is illegal: the pie rule is off",
    );
    // With it, a second swap is never legal, whoever answers it.
    let results = against_broken("swap-late", 2, |c| c.pie = true);
    assert_forfeits(&results, Reason::Illegal, "swap is illegal");
    // As Black (game 1) a swap is a forfeit; as White answering the opening stone (game 2) it is the rule, and the
    // broken engine then owns Black.
    let results = against_broken("swap", 2, |c| c.pie = true);
    assert_forfeits(
        &results[..1],
        Reason::Illegal,
        "swap is illegal: only white may swap",
    );
    assert!(!results[1].reason.is_forfeit(), "{:?}", results[1]);
    assert_eq!(results[1].black, Side::A, "{:?}", results[1]);
}

#[test]
fn merging_a_file_or_a_shard_twice_is_refused_naming_them() {
    let dir = scratch("merge-twice");
    let labels = ["oust --seed 1".to_string(), "oust --seed 2".to_string()];
    let line = |n: u64| format!("{n}\tA\tB\tB+\tcapture\t9\t0.1\t0.1\t0.1\t0.1\t-\t\n");
    let write = |name: &str, settings: &str, games: std::ops::RangeInclusive<u64>| {
        let path = dir.join(name);
        let mut text = results_header(&labels, settings);
        for n in games {
            text.push_str(&line(n));
        }
        fs::write(&path, text).unwrap();
        path
    };
    let shard1 = write("shard-1.tsv", "size 7x7, games 4, seed 7", 1..=4);
    let shard2 = write(
        "shard-2.tsv",
        "size 7x7, games 4, seed 7, games 5 to 8",
        5..=8,
    );
    let merge = |files: &[&Path]| {
        Command::new(OUST)
            .args(["match", "--merge"])
            .args(files)
            .output()
            .unwrap()
    };
    let out = merge(&[&shard1, &shard2]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("games: 8\n"));
    // The same file twice, by one name or by two: refused, nothing counted (it used to say games: 8 from 4).
    for second in [shard1.clone(), dir.join(".").join("shard-1.tsv")] {
        let out = merge(&[&shard1, &second]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let named = if second.as_os_str() == shard1.as_os_str() {
            format!("{} is given twice", shard1.display())
        } else {
            format!(
                "{} and {} are the same file",
                shard1.display(),
                second.display()
            )
        };
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("oust match: {named}: each file counts once\n")
        );
    }
    // The same shard twice, as a copy: the same games of one match.
    let copy = dir.join("copy.tsv");
    fs::copy(&shard2, &copy).unwrap();
    let out = merge(&[&shard1, &shard2, &copy]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "oust match: {} and {} hold the same 4 games of one match (5, 6, 7, 8): the same shard twice?; each \
             game counts once: merge every shard's file once\n",
            shard2.display(),
            copy.display()
        )
    );
    // Another match may number its games as this one does.
    let other = write("other.tsv", "size 7x7, games 4, seed 8", 1..=4);
    let out = merge(&[&shard1, &other]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("games: 8\n"));
}

#[test]
fn a_scratch_directory_is_removed_even_when_its_test_fails() {
    let mut path = PathBuf::new();
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let dir = scratch("failing");
        path = dir.to_path_buf();
        fs::write(dir.join("results.tsv"), "#\n").unwrap();
        assert!(path.exists());
        panic!("a failing test");
    }));
    assert!(failed.is_err());
    assert!(
        !path.as_os_str().is_empty() && !path.exists(),
        "{} is left behind",
        path.display()
    );
}

#[test]
fn a_missing_gnu_parallel_skips_the_recipe_test_with_one_line_and_fails_it_under_ci() {
    assert_eq!(common::missing_tool("t", "GNU parallel", true, true), None);
    assert_eq!(
        common::missing_tool("t", "GNU parallel", false, false).as_deref(),
        Some("SKIPPED t: GNU parallel is not installed (apt-get install parallel)")
    );
    let refused =
        std::panic::catch_unwind(|| common::missing_tool("t", "GNU parallel", false, true));
    let message = *refused.unwrap_err().downcast::<String>().unwrap();
    assert_eq!(
        message,
        "CI must run t, but GNU parallel is not installed (.ci/run installs it)"
    );
}

#[test]
fn a_match_writes_its_warnings_in_the_style_of_its_other_messages() {
    let dir = scratch("style");
    let results = dir.join("results.tsv");
    fs::write(&results, "old\n").unwrap();
    let out = Command::new(OUST)
        .args(["match", "--black", &oust(1), "--white", &oust(2)])
        .args(["--games", "1", "--size", "4", "--overwrite", "--results"])
        .arg(&results)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    // Once '[2026-12-01T21:34:11Z WARN  oust::matches::runner] --overwrite: replacing ...' among plain lines.
    assert_eq!(
        stderr.lines().next(),
        Some(
            format!(
                "oust match: warning: --overwrite: replacing {}",
                results.display()
            )
            .as_str()
        ),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .all(|l| !l.starts_with('[') && !l.contains(" WARN ")),
        "{stderr}"
    );
    // The merge's warning too.
    let other = dir.join("other.tsv");
    fs::write(
        &other,
        results_header(
            &["x".to_string(), "y".to_string()],
            "size 4x4, games 1, seed 3",
        ),
    )
    .unwrap();
    let out = Command::new(OUST)
        .args(["match", "--merge"])
        .arg(&results)
        .arg(&other)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "oust match: warning: {} is a match of other engines",
            other.display()
        )),
        "{stderr}"
    );
}

/// The games of a results file as the test compares them: number, who had Black, opening, result and length.
fn game_keys(path: &Path) -> Vec<(u64, Side, Option<usize>, String, usize)> {
    let mut games = ResultsFile::parse(&fs::read_to_string(path).unwrap())
        .unwrap()
        .games;
    games.sort_by_key(|g| g.number);
    games
        .iter()
        .map(|g| {
            (
                g.number,
                g.black,
                g.opening,
                g.outcome.code().to_string(),
                g.moves,
            )
        })
        .collect()
}

#[test]
fn a_match_killed_three_times_and_resumed_plays_exactly_the_games_of_an_uninterrupted_one() {
    let dir = scratch("resume");
    // Fresh engines: each game depends only on the commands, its opening and its colours.
    let match_args = |results: &Path| -> Vec<String> {
        let mut v: Vec<String> = ["match", "--black", &oust(1), "--white", &oust(2)]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(
            [
                "--games",
                "16",
                "--size",
                "5",
                "--random-openings",
                "2",
                "--seed",
                "9",
                "--fresh-engines",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        v.extend([
            "--concurrency".to_string(),
            "2".to_string(),
            "--results".to_string(),
        ]);
        v.push(results.display().to_string());
        v
    };
    let whole = dir.join("whole.tsv");
    let out = Command::new(OUST)
        .args(match_args(&whole))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = game_keys(&whole);
    assert_eq!(expected.len(), 16);

    let cut = dir.join("cut.tsv");
    // Killed at three moments, the first before any game ends; each run resumes the one before it.
    for (round, wait_ms) in [0u64, 500, 300].into_iter().enumerate() {
        let mut args = match_args(&cut);
        if round > 0 {
            args.push("--resume".into());
            // The seed comes from the file.
            let at = args.iter().position(|a| a == "--seed").unwrap();
            args.drain(at..at + 2);
        }
        // The results file is written once both engines answered: from then on it can be resumed.
        common::kill_once_written(OUST, &args, &cut, wait_ms);
    }
    // A last line cut short by the kill is read up to its last whole game.
    let mut text = fs::read_to_string(&cut).unwrap();
    let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    let before = ResultsFile::parse(whole).unwrap().games.len();
    assert!(
        before < 16,
        "the kills came too late: {before} games already"
    );
    if text.ends_with('\n') {
        text.push_str("17\tA\tB");
        fs::write(&cut, &text).unwrap();
    }
    let mut args = match_args(&cut);
    args.push("--resume".into());
    let out = Command::new(OUST).args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("its last line was cut short"), "{stderr}");
    assert_eq!(game_keys(&cut), expected, "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("games: 16\n"), "{stdout}");

    // Another match's file is refused before any game, naming what differs.
    let mut other = match_args(&cut);
    other.push("--resume".into());
    let at = other.iter().position(|a| a == "16").unwrap();
    other[at] = "20".into();
    let out = Command::new(OUST).args(&other).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is the results file of another match: its settings have games 16 where this run has games 20"),
        "{stderr}"
    );
    // A missing file is refused too.
    let mut missing = match_args(&dir.join("none.tsv"));
    missing.push("--resume".into());
    let out = Command::new(OUST).args(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot resume from"));
}

#[test]
fn a_match_adjudicated_by_the_solver_ends_proven_games_and_its_records_check() {
    let dir = scratch("adjudicate");
    let results = dir.join("results.tsv");
    let out = run_match(
        &[oust(1), oust(2)],
        &[
            "--games",
            "4",
            "--size",
            "hex5",
            "--random-openings",
            "2",
            "--seed",
            "7",
            "--adjudicate",
            "solver=0.01",
        ],
        &dir,
        &results,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let file = ResultsFile::parse(&fs::read_to_string(&results).unwrap()).unwrap();
    assert!(
        file.settings.contains("adjudicate solver=0.01"),
        "{}",
        file.settings
    );
    let adjudicated: Vec<&GameResult> = file
        .games
        .iter()
        .filter(|g| g.reason == Reason::Solver)
        .collect();
    assert!(
        !adjudicated.is_empty(),
        "no game adjudicated: {:?}",
        file.games
    );
    for g in adjudicated {
        assert!(
            g.detail.starts_with("proven by the solver after "),
            "{}",
            g.detail
        );
        let path = dir.join("sgf").join(format!("game-{:04}.sgf", g.number));
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("OUSTADJ[solver {}]", g.moves)),
            "{text}"
        );
        let checked = sgf::check(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(checked[0].adjudicated, Some(true), "{text}");
        // The command line names the adjudication.
        let check = Command::new(OUST)
            .arg("sgf-check")
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&check.stdout);
        assert!(
            check.status.success() && said.contains("adjudicated by the solver after"),
            "{said}"
        );
        // A result the solver does not prove is refused.
        let wrong = if g.outcome == oust::rules::Outcome::Win(Color::Black) {
            text.replace("RE[B+]", "RE[W+]")
        } else {
            text.replace("RE[W+]", "RE[B+]")
        };
        assert!(sgf::check(&wrong).is_err(), "{wrong}");
    }
    // A bad value is refused before any game.
    let out = run_match(
        &[oust(1), oust(2)],
        &["--games", "1", "--adjudicate", "oracle"],
        &dir,
        &dir.join("x.tsv"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not solver or solver=SECONDS"));
}
