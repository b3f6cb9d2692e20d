//! `oust tournament`: a round-robin resumed after kills plays exactly the games of an uninterrupted one, bad
//! engines and files are refused before any game, and Ctrl-C finishes the games in progress (twice: abandons them).

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

mod common;

use common::TempDir;

const OUST: &str = env!("CARGO_BIN_EXE_oust");

/// An engine that answers at once and reproducibly.
fn quick(seed: u64) -> String {
    format!("{OUST} --seed {seed} --playouts 30 --threads 1")
}

/// The arguments of a round-robin of three quick engines, 4 games a pairing on 5x5, results in `results`.
fn round_robin(results: &Path) -> Vec<String> {
    let mut v: Vec<String> = vec!["tournament".into()];
    for (name, seed) in [("one", 1), ("two", 2), ("three", 3)] {
        v.push("--engine".into());
        v.push(format!("{name}={}", quick(seed)));
    }
    for a in [
        "--games",
        "4",
        "--size",
        "5",
        "--random-openings",
        "2",
        "--seed",
        "9",
        "--fresh-engines",
        "--concurrency",
        "2",
        "--results",
    ] {
        v.push(a.into());
    }
    v.push(results.display().to_string());
    v
}

fn run(args: &[String]) -> Output {
    Command::new(OUST).args(args).output().unwrap()
}

/// The run was refused (exit status 2) with `message` on stderr.
fn refused(out: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(message), "{message}: {stderr}");
}

/// Each game's line without its times: what a run that plays the same games must reproduce.
fn game_keys(path: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).unwrap();
    let mut keys: Vec<Vec<String>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("game\t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            [0, 1, 2, 3, 4, 5, 10]
                .iter()
                .map(|&i| f[i].to_string())
                .collect()
        })
        .collect();
    keys.sort_by_key(|k| k[0].parse::<u64>().unwrap());
    keys
}

#[test]
fn a_round_robin_killed_three_times_and_resumed_plays_exactly_the_games_of_an_uninterrupted_one() {
    let dir = TempDir::new("tournament-resume");
    let whole = dir.join("whole.tsv");
    let out = run(&round_robin(&whole));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = game_keys(&whole);
    assert_eq!(expected.len(), 12);
    // Interleaved by opening pair: games 1-2 one - two, 3-4 one - three, 5-6 two - three, then the next opening.
    let pairs: Vec<(&str, &str)> = expected
        .iter()
        .map(|k| (k[1].as_str(), k[2].as_str()))
        .collect();
    assert_eq!(
        &pairs[..6],
        [
            ("one", "two"),
            ("two", "one"),
            ("one", "three"),
            ("three", "one"),
            ("two", "three"),
            ("three", "two")
        ]
    );
    assert_eq!(expected[0][6], "0");
    assert_eq!(expected[6][6], "1");
    assert!(stdout.starts_with("12 of 12 games played\n"), "{stdout}");
    for part in [
        "ratings (Elo; one = 0;",
        "cross-table",
        "pairings",
        "one - two: ",
    ] {
        assert!(stdout.contains(part), "{part}: {stdout}");
    }

    let cut = dir.join("cut.tsv");
    for (round, wait_ms) in [0u64, 300, 200].into_iter().enumerate() {
        let mut args = round_robin(&cut);
        if round > 0 {
            args.push("--resume".into());
        }
        common::kill_once_written(OUST, &args, &cut, wait_ms);
    }
    let before = game_keys(&cut).len();
    assert!(
        before < 12,
        "the kills came too late: {before} games already"
    );
    let mut args = round_robin(&cut);
    args.push("--resume".into());
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(game_keys(&cut), expected);

    // A file of other engines or settings is refused, naming what differs; so are a missing file and a match's.
    let mut other = round_robin(&cut);
    other[2] = format!("one={}", quick(7));
    other.push("--resume".into());
    refused(
        &run(&other),
        "is the results file of another tournament: its engines are one=",
    );
    let mut missing = round_robin(&dir.join("none.tsv"));
    missing.push("--resume".into());
    refused(&run(&missing), "cannot resume from");
    let match_file = dir.join("match.tsv");
    fs::write(
        &match_file,
        "# oust match results, format 2\n# A: a\n# B: b\n# settings: size 5\n",
    )
    .unwrap();
    let mut matched = round_robin(&match_file);
    matched.push("--resume".into());
    refused(&run(&matched), "not a tournament's results file");
    // Without --resume or --overwrite a results file is not replaced.
    refused(&run(&round_robin(&cut)), "already exists");
}

#[test]
fn bad_engines_and_settings_are_refused_before_any_game() {
    let dir = TempDir::new("tournament-bad");
    let results = dir.join("r.tsv");
    let cases: [(&[&str], &str); 7] = [
        (&["--engine", "a=x"], "two engines or more"),
        (
            &["--engine", "a=x", "--engine", "a=y"],
            "engine 'a' is named twice",
        ),
        (
            &["--engine", "a b=x", "--engine", "c=y"],
            "has a space: a name is one word",
        ),
        (
            &["--engine", "ax", "--engine", "c=y"],
            "'ax' is not NAME=CMD",
        ),
        (
            &["--engine", "=x", "--engine", "c=y"],
            "an engine's name is empty",
        ),
        (
            &["--engine", "a=x", "--engine", "c=y", "--games", "3"],
            "--games 3 a pairing: give an even number",
        ),
        (
            &["--engine", "a=x", "--engine", "c=y", "--anchor", "z"],
            "--anchor z is not one of the engines (a, c)",
        ),
    ];
    for (args, message) in cases {
        let mut all: Vec<String> = vec!["tournament".into()];
        all.extend(args.iter().map(|s| s.to_string()));
        all.extend(["--results".into(), results.display().to_string()]);
        let out = run(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!results.exists(), "{args:?}");
    }
    // A gauntlet: the first engine against each other, and no other pairing.
    let out = run(&[
        "tournament".into(),
        "--format".into(),
        "gauntlet".into(),
        "--engine".into(),
        format!("hero={}", quick(1)),
        "--engine".into(),
        format!("b={}", quick(2)),
        "--engine".into(),
        format!("c={}", quick(3)),
        "--games".into(),
        "2".into(),
        "--size".into(),
        "4".into(),
        "--seed".into(),
        "1".into(),
        "--results".into(),
        results.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let keys = game_keys(&results);
    let names: Vec<(&str, &str)> = keys
        .iter()
        .map(|k| (k[1].as_str(), k[2].as_str()))
        .collect();
    assert_eq!(
        names,
        [("hero", "b"), ("b", "hero"), ("hero", "c"), ("c", "hero")]
    );
}

/// Starts a tournament of slow games and sends it `signals` SIGINTs once its first game is under way.
fn interrupted(dir: &Path, signals: usize) -> (Output, Vec<Vec<String>>) {
    let results = dir.join("r.tsv");
    let slow = |seed: u64| format!("{OUST} --seed {seed} --playouts 3000 --threads 1");
    let args: Vec<String> = vec![
        "tournament".into(),
        "--engine".into(),
        format!("a={}", slow(1)),
        "--engine".into(),
        format!("b={}", slow(2)),
        "--games".into(),
        "20".into(),
        "--size".into(),
        "7".into(),
        "--seed".into(),
        "1".into(),
        "--results".into(),
        results.display().to_string(),
        "--sgf-dir".into(),
        dir.join("sgf").display().to_string(),
        "--log-dir".into(),
        dir.join("logs").display().to_string(),
    ];
    let child = Command::new(OUST)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !dir.join("logs/game-0001-black.log").exists() {
        assert!(started.elapsed() < Duration::from_secs(30));
        thread::sleep(Duration::from_millis(10));
    }
    thread::sleep(Duration::from_millis(200));
    for _ in 0..signals {
        // SAFETY: kill(2) on our own child's pid, which it still is: it is only waited for below.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGINT);
        }
        thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    (out, game_keys(&results))
}

#[test]
fn ctrl_c_once_finishes_the_games_in_progress_and_twice_abandons_them() {
    let dir = TempDir::new("tournament-ctrl-c");
    let (out, games) = interrupted(&dir, 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("finishing the games in progress"),
        "{stderr}"
    );
    // The game in progress was played to its end: its record has a result, and no game was started after it.
    assert_eq!(games.len(), 1, "{stderr}");
    let record = fs::read_to_string(dir.join("sgf/game-0001.sgf")).unwrap();
    assert!(record.contains("RE["), "{record}");
    assert!(!dir.join("sgf/game-0002.sgf").exists());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("1 of 20 games played\ninterrupted: resume it"),
        "{stdout}"
    );

    let dir = TempDir::new("tournament-ctrl-c-twice");
    let (out, games) = interrupted(&dir, 2);
    assert_eq!(out.status.code(), Some(130));
    assert!(games.is_empty());
    let record = fs::read_to_string(dir.join("sgf/game-0001.sgf")).unwrap();
    assert!(!record.contains("RE["), "{record}");
}

#[test]
fn shards_play_the_games_of_the_whole_tournament_and_merge_into_its_report() {
    let dir = TempDir::new("tournament-shards");
    let whole = dir.join("whole.tsv");
    let out = run(&round_robin(&whole));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole_report = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut parts = Vec::new();
    for k in 1..=2 {
        let file = dir.join(format!("shard-{k}.tsv"));
        let mut args = round_robin(&file);
        args.extend(["--shard".into(), format!("{k}/2")]);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Two opening rounds, one each: six games, numbered as in the whole tournament.
        let keys = game_keys(&file);
        assert_eq!(keys.len(), 6);
        assert_eq!(keys[0][0], if k == 1 { "1" } else { "7" });
        parts.push(keys);
        let text = fs::read_to_string(&file).unwrap();
        assert!(text.contains(&format!(", rounds {k} to {k}\n")), "{text}");
    }
    let merged: Vec<Vec<String>> = parts.concat();
    assert_eq!(merged, game_keys(&whole));
    let files = [dir.join("shard-2.tsv"), dir.join("shard-1.tsv")];
    let mut args: Vec<String> = vec!["tournament".into(), "--merge".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same ratings, cross-table and pairings as the whole run's report.
    let tail = |r: &str| r[r.find("\nratings").unwrap()..].to_string();
    assert_eq!(tail(&stdout), tail(&whole_report));
    assert!(
        stdout.starts_with("files: 2\n12 of 12 games played\n"),
        "{stdout}"
    );
    // A shard twice counts its games twice: refused.
    let twice = run(&[
        "tournament".into(),
        "--merge".into(),
        files[0].display().to_string(),
        files[0].display().to_string(),
    ]);
    refused(&twice, "is in both");
    // Too many shards for the rounds: refused before any game.
    let mut args = round_robin(&dir.join("none.tsv"));
    args.extend(["--shard".into(), "3/3".into()]);
    refused(&run(&args), "--shard 3/3 has no games");
}
