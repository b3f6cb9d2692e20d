//! Learned knowledge: the self-play data format, the fit, weights files, and the `priors` parameter.

mod common;

use std::process::Command;

use common::{TempDir, run_binary};
use oust::learn::data;
use oust::learn::selfplay::{SelfplayConfig, play_game};
use oust::learn::train::{self, Dataset, TrainConfig};
use oust::rules::Shape;
use oust::search::Priors;
use oust::search::learned::{Model, feature_count, feature_names};

const OUST: &str = env!("CARGO_BIN_EXE_oust");

/// A few quick self-play games: 5x5 and hex-3 at 40 playouts a move.
fn tiny_games(count: u64) -> Vec<data::GameData> {
    let mut cfg = SelfplayConfig::new(vec![Shape::square(5), Shape::Hex { side: 3 }], 40, 7);
    cfg.opening = 2;
    cfg.setup.config.priors = Priors::Handmade;
    (0..count).map(|n| play_game(&cfg, n).unwrap()).collect()
}

#[test]
fn training_a_tiny_data_set_lowers_the_loss_and_is_deterministic_for_a_seed() {
    let games = tiny_games(6);
    let set = Dataset::new(&games);
    assert!(set.positions() > 20, "{} positions", set.positions());
    let cfg = TrainConfig {
        steps: 60,
        ..TrainConfig::default()
    };
    let before = train::loss(&Model::zero(), &set, cfg.l2);
    let mut losses = Vec::new();
    let model = train::train(&set, &cfg, |_, loss| losses.push(loss));
    let after = train::loss(&model, &set, cfg.l2);
    assert!(after < before - 0.05, "loss {before} -> {after}");
    assert!(losses.last().unwrap() < &losses[0], "{losses:?}");
    // The same data and seed give the same weights, bit for bit; another seed other weights.
    let again = train::train(&set, &cfg, |_, _| {});
    assert_eq!(model, again);
    let other = train::train(&set, &TrainConfig { seed: 2, ..cfg }, |_, _| {});
    assert_ne!(model, other);
}

#[test]
fn weights_files_round_trip() {
    let mut model = Model::zero();
    for (i, w) in model.weights.iter_mut().enumerate() {
        *w = (i as f32 - 200.0) / 7.0 + 1e-6;
    }
    let text = model.to_text(&["a comment".into()]);
    assert!(text.starts_with("oust-weights 1\n# a comment\nfeatures oust-placement-1\n"));
    assert_eq!(Model::parse(&text).unwrap(), model);
    assert_eq!(Model::built_in().weights.len(), feature_count());
    assert_eq!(feature_names().len(), feature_count());
}

#[test]
fn a_weights_file_that_is_missing_corrupt_or_for_other_features_is_refused_at_start() {
    let dir = TempDir::new("weights");
    let good = Model::zero().to_text(&[]);
    let cases = [
        ("missing.txt", None, "missing.txt: No such file"),
        ("empty.txt", Some(String::new()), "the file is empty"),
        (
            "header.txt",
            Some(good.replace("oust-weights 1", "oust-weights 9")),
            "line 1: expected 'oust-weights 1', found 'oust-weights 9'",
        ),
        (
            "version.txt",
            Some(good.replace("features oust-placement-1", "features oust-placement-0")),
            "line 2: weights for feature set 'oust-placement-0', but this engine has 'oust-placement-1'",
        ),
        (
            "cut.txt",
            Some(good.lines().take(20).collect::<Vec<_>>().join("\n")),
            "features have no weight, the first '",
        ),
        (
            "number.txt",
            Some(good.replace("kind.quiet 0", "kind.quiet zero")),
            "line 3: 'zero' is not a weight",
        ),
        (
            "unknown.txt",
            Some(format!("{good}kind.sideways 1\n")),
            "unknown feature 'kind.sideways'",
        ),
        (
            "twice.txt",
            Some(format!("{good}kind.quiet 1\n")),
            "feature 'kind.quiet' given twice",
        ),
    ];
    for (name, text, reason) in cases {
        let path = match text {
            Some(t) => dir.file(name, &t),
            None => dir.join(name).display().to_string(),
        };
        let out = run_binary(&["--set", &format!("weights={path}")], b"genmove b\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}: answered");
        assert!(stderr.contains(reason), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("--set weights={path}")),
            "{stderr}"
        );
    }
    // The same refusal through oust-set-param leaves the weights as they were.
    let path = dir.file("bad.txt", "oust-weights 1\nfeatures nothing\n");
    let out = run_binary(
        &["--threads", "1"],
        format!(
            "oust-set-param weights {path}\noust-get-param weights\noust-set-param weights {}\n\
             oust-get-param weights\noust-get-param priors\n",
            dir.file("good.txt", &good)
        )
        .as_bytes(),
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let good_path = dir.join("good.txt").display().to_string();
    assert_eq!(
        stdout,
        format!(
            "? weights: {path}: line 2: weights for feature set 'nothing', but this engine has 'oust-placement-1'\n\n\
             = built-in\n\n=\n\n= {good_path}\n\n= auto\n\n"
        )
    );
}

/// The moves of 66caae5 (the engine before the learned priors), at 300 playouts, seed 5, one thread.
const HANDMADE_9X9: &str = "= C1\n\n= G2\n\n= B2\n\n= E1\n\n=\n\n= A1\n\n= B1 capture 1 extra-turn\n\n\
? black is to move: extra turn after a capture\n\n=\n\n=\n\n= C1\n\n= D4\n\n= A3\n\n= B5\n\n= E1\n\n=\n\n";
const HANDMADE_HEX5: &str = "= B1\n\n= E3\n\n= B3\n\n= H4\n\n= C6\n\n= E6\n\n=\n\n";

/// Six genmoves from the empty board.
const SIX_MOVES: &[u8] =
    b"genmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nquit\n";

/// The engine's answers to `input` on `size` with the parameters `settings` (`NAME=VALUE`), at 300 playouts,
/// seed 5, one thread, evaluating with the priors and playouts (which `evaluator auto` is not on every board).
fn answers(size: &str, settings: &[&str], input: &[u8]) -> String {
    answers_at_seed(size, "5", settings, input)
}

/// [`answers`] under another seed.
fn answers_at_seed(size: &str, seed: &str, settings: &[&str], input: &[u8]) -> String {
    let mut args = vec![
        "--size",
        size,
        "--threads",
        "1",
        "--playouts",
        "300",
        "--seed",
        seed,
        "--set",
        "evaluator=playouts",
    ];
    for setting in settings {
        args.extend(["--set", setting]);
    }
    String::from_utf8(run_binary(&args, input).stdout).unwrap()
}

#[test]
fn handmade_priors_play_the_moves_of_the_engine_before_the_learned_ones() {
    let input = b"genmove b\ngenmove w\ngenmove b\ngenmove w\nplay b E5\ngenmove w\ngenmove b\ngenmove w\n\
                  boardsize 5\nclear_board\ngenmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\nquit\n";
    assert_eq!(answers("9", &["priors=handmade"], input), HANDMADE_9X9);
    assert_eq!(
        answers("hex5", &["priors=handmade"], SIX_MOVES),
        HANDMADE_HEX5
    );
}

#[test]
fn the_priors_cpuct_and_fpu_parameters_are_listed_and_auto_takes_the_learned_priors_at_their_own_constants()
 {
    let out = run_binary(
        &["--threads", "1", "--playouts", "50", "--seed", "3"],
        b"oust-get-param priors\noust-set-param priors handmade\noust-get-param priors\n\
          oust-set-param priors clever\noust-get-param cpuct\noust-set-param cpuct 0.25\noust-get-param cpuct\n\
          oust-set-param cpuct 101\noust-get-param cpuct\noust-list-params\noust-set-param cpuct auto\n\
          oust-get-param cpuct\noust-get-param fpu_reduction\noust-set-param fpu_reduction 1.5\n\
          oust-set-param fpu_reduction 0.3\noust-get-param fpu_reduction\noust-set-param fpu_reduction auto\n\
          oust-get-param fpu_reduction\n",
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(
            "= auto\n\n=\n\n= handmade\n\n? syntax error: priors: expected auto, learned or handmade, got 'clever'\n\n\
             = auto\n\n=\n\n= 0.25\n\n\
             ? syntax error: cpuct: expected auto or a number from 0 to 100, got '101'\n\n= 0.25\n\n\
             = player mcts\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("\ncpuct 0.25\n"), "{stdout}");
    assert!(
        stdout.contains("\npriors handmade\nweights built-in\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\nfpu_reduction auto\n"), "{stdout}");
    assert!(
        stdout.ends_with(
            "\n\n=\n\n= auto\n\n= auto\n\n\
             ? syntax error: fpu_reduction: expected auto or a number from 0 to 1, got '1.5'\n\n\
             =\n\n= 0.3\n\n=\n\n= auto\n\n"
        ),
        "{stdout}"
    );
    // auto is learned on every board, at the learned priors' cpuct of 0.3 and fpu_reduction of 0.4: the same moves,
    // and not those of the other priors, of the learned priors at cpuct 1 or 0.5 (the constant before), or at
    // fpu_reduction 0.2 (the one before). The handmade priors keep cpuct 1 and fpu_reduction 0.2 (the test above).
    let moves = |settings: &[&str]| ["9", "hex5"].map(|size| answers(size, settings, SIX_MOVES));
    let auto = moves(&[]);
    assert_eq!(auto, moves(&["priors=learned"]));
    assert_eq!(
        auto,
        moves(&["priors=learned", "cpuct=0.3", "fpu_reduction=0.4"])
    );
    // Each of these differs on both boards; cpuct 1 on hex5 only (at fpu_reduction 0.4 and 300 playouts, 9x9 plays
    // the same six moves at cpuct 1, 0.5 and 0.3).
    for other in [
        moves(&["priors=handmade"]),
        moves(&["priors=learned", "fpu_reduction=0.2"]),
    ] {
        assert!(auto[0] != other[0] && auto[1] != other[1], "{other:?}");
    }
    assert_ne!(auto, moves(&["priors=learned", "cpuct=1"]));
    // cpuct 0.5 plays the same six moves as 0.3 on both boards at seed 5, but not on hex5 at seed 1.
    let hex5_seed_1 = |settings: &[&str]| answers_at_seed("hex5", "1", settings, SIX_MOVES);
    let auto = hex5_seed_1(&[]);
    assert_eq!(auto, hex5_seed_1(&["cpuct=0.3"]));
    assert_ne!(auto, hex5_seed_1(&["cpuct=0.5"]));
    assert_eq!(
        answers(
            "hex5",
            &["priors=handmade", "cpuct=1", "fpu_reduction=0.2"],
            SIX_MOVES
        ),
        HANDMADE_HEX5
    );
}

/// `oust selfplay` of the test's run, at `playouts` a move from `opening` random placements.
fn selfplay_at(playouts: &str, opening: &str, args: &[&str]) -> std::process::Output {
    Command::new(OUST)
        .arg("selfplay")
        .args(["--boards", "5,hex3", "--seed", "4"])
        .args(["--playouts", playouts, "--opening", opening])
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

fn selfplay(args: &[&str]) -> std::process::Output {
    selfplay_at("30", "2", args)
}

#[test]
fn selfplay_shards_and_a_resumed_run_make_the_data_of_one_run() {
    let dir = TempDir::new("selfplay");
    let path = |name: &str| dir.join(name).display().to_string();
    let out = selfplay(&["--games", "6", "--out", &path("whole.txt")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("6 games played (0 of them before), ")
    );
    let whole = std::fs::read_to_string(path("whole.txt")).unwrap();
    let (games, len) = data::parse(&whole).unwrap();
    assert_eq!(len, whole.len());
    assert_eq!(
        games.iter().map(|g| g.number).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(games[1].board, Shape::Hex { side: 3 });
    // Every game's lines read back into the same lines.
    assert_eq!(games.iter().map(|g| g.to_text()).collect::<String>(), whole);
    let mut shards = String::new();
    for k in 1..=3 {
        let name = format!("shard{k}.txt");
        let out = selfplay(&[
            "--games",
            "6",
            "--shard",
            &format!("{k}/3"),
            "--out",
            &path(&name),
        ]);
        assert!(out.status.success());
        shards.push_str(&std::fs::read_to_string(path(&name)).unwrap());
    }
    assert_eq!(shards, whole);
    // A run cut in the middle of a position line of its last game with positions resumes after the game before
    // and makes the same file.
    let last_position = whole.rfind("\np ").unwrap() + 1;
    let cut = &whole[..last_position + 10];
    let before = cut.lines().filter(|l| l.starts_with("g ")).count();
    assert!(before < 6);
    std::fs::write(path("cut.txt"), cut).unwrap();
    let out = selfplay(&["--games", "6", "--out", &path("cut.txt")]);
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with(&format!("6 games played ({before} of them before), "))
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("dropping an unfinished game"));
    assert_eq!(std::fs::read_to_string(path("cut.txt")).unwrap(), whole);
    // A file of another run is not appended to.
    let out = selfplay_at("31", "2", &["--games", "6", "--out", &path("whole.txt")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "holds game 0 (5x5, 30 playouts, seed 4, opening 2, priors handmade, PUCT), which is not game 0 of this run"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Another opening or other priors are another run too.
    let whole_path = path("whole.txt");
    for out in [
        selfplay_at("30", "3", &["--games", "6", "--out", &whole_path]),
        selfplay(&["--games", "6", "--priors", "learned", "--out", &whole_path]),
    ] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("which is not game 0 of this run"),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::read_to_string(path("whole.txt")).unwrap(), whole);
}

#[test]
fn gumbel_selfplay_records_its_improved_policy_and_resumes_only_its_own_run() {
    let dir = TempDir::new("gumbel");
    let path = |name: &str| dir.join(name).display().to_string();
    let gumbel = |out: &str, games: &str| {
        selfplay_at(
            "16",
            "2",
            &["--games", games, "--gumbel", "4", "--out", &path(out)],
        )
    };
    let out = gumbel("g.txt", "4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(path("g.txt")).unwrap();
    let (games, len) = data::parse(&text).unwrap();
    assert_eq!(len, text.len());
    assert_eq!(games.len(), 4);
    assert_eq!(games.iter().map(|g| g.to_text()).collect::<String>(), text);
    for g in &games {
        assert_eq!(g.gumbel, Some(4));
        assert_eq!(g.playouts, 16);
        assert!(!g.samples.is_empty());
        for s in &g.samples {
            // The improved policy of every legal placement in ten-thousandths: each rounded, so the sum is off
            // by half a unit a move at most.
            let sum: u32 = s.moves.iter().map(|m| m.1).sum();
            assert!(sum.abs_diff(10_000) * 2 <= s.moves.len() as u32, "{sum}");
            assert_eq!(s.moves.len(), s.position.legal_moves().len());
        }
    }
    for line in text.lines().filter(|l| l.starts_with("g ")) {
        assert!(line.ends_with(" priors=handmade gumbel=4"), "{line}");
    }
    // Two of its games, then the rest: the same file.
    let out = gumbel("half.txt", "4");
    assert!(out.status.success());
    let first_two: usize = text.match_indices("\ng 1 ").next().unwrap().0;
    let cut = &text[..text[first_two + 1..].find('\n').unwrap() + first_two + 2];
    std::fs::write(path("half.txt"), cut).unwrap();
    let out = gumbel("half.txt", "4");
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("4 games played (2 of them before), ")
    );
    assert_eq!(std::fs::read_to_string(path("half.txt")).unwrap(), text);
    // PUCT's run, or another number of sampled moves, is another run.
    for out in [
        selfplay_at("16", "2", &["--games", "4", "--out", &path("g.txt")]),
        selfplay_at(
            "16",
            "2",
            &["--games", "4", "--gumbel", "8", "--out", &path("g.txt")],
        ),
    ] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("priors handmade, a Gumbel search over 4 moves), which is not game 0"),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::read_to_string(path("g.txt")).unwrap(), text);
    // A file another run is writing is left alone.
    let held = std::fs::File::open(path("g.txt")).unwrap();
    held.lock().unwrap();
    let out = gumbel("g.txt", "6");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("g.txt: another oust selfplay is writing it"),
        "{stderr}"
    );
    drop(held);
    assert_eq!(std::fs::read_to_string(path("g.txt")).unwrap(), text);
    // A broken setting is named.
    let bad = text.replacen(" gumbel=4\n", " gumbel=0\n", 1);
    let err = data::parse(&bad).unwrap_err();
    assert!(
        err.contains("expected gumbel=M (a positive number), found 'gumbel=0'"),
        "{err}"
    );
    let bad = text.replacen(" gumbel=4\n", " gumbel=4 gumbel=4\n", 1);
    let err = data::parse(&bad).unwrap_err();
    assert!(
        err.contains("expected net=CHECKSUM or gumbel=M after priors=, found 'gumbel=4'"),
        "{err}"
    );
}

#[test]
fn oust_train_reads_selfplay_data_and_names_a_broken_line() {
    let dir = TempDir::new("train");
    let text: String = tiny_games(10).iter().map(|g| g.to_text()).collect();
    let data = dir.file("data.txt", &text);
    let weights = dir.join("w.txt").display().to_string();
    let out = Command::new(OUST)
        .args(["train", &data, "--out", &weights, "--steps", "30"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("data: 10 games on 5x5, hex3, "),
        "{stdout}"
    );
    assert!(stdout.contains("\nhandmade "), "{stdout}");
    assert!(stdout.contains("\nlearned "), "{stdout}");
    Model::parse(&std::fs::read_to_string(&weights).unwrap()).unwrap();
    // The engine plays with those weights.
    let out = run_binary(
        &[
            "--threads",
            "1",
            "--playouts",
            "20",
            "--set",
            &format!("weights={weights}"),
        ],
        b"genmove b\n",
    );
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("= "));
    // Line 3 broken three ways.
    let lines: Vec<&str> = text.lines().collect();
    for (broken, reason) in [
        (
            lines[2].replacen("p ", "q ", 1),
            "line 3: not a position line",
        ),
        (
            {
                let mut fields: Vec<&str> = lines[2].split(' ').collect();
                fields[3] = "x";
                fields.join(" ")
            },
            "line 3: 'x' is not a result",
        ),
        (
            format!("{}:7", lines[2].trim_end_matches(char::is_numeric)),
            "line 3: ",
        ),
    ] {
        let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        copy[2] = broken;
        let bad = dir.file("bad.txt", &(copy.join("\n") + "\n"));
        let out = Command::new(OUST)
            .args(["train", &bad, "--out", &weights])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("bad.txt: {reason}")), "{stderr}");
    }
}

/// Runs scripts/rl-loop.sh from the repository's root with tiny settings.
fn rl_loop(dir: &std::path::Path, rounds: &str, sprt: &str) -> std::process::Output {
    // The gate's games are deterministic (fixed visits and seeds, fresh engines), so its verdict is too.
    Command::new("bash")
        .arg("scripts/rl-loop.sh")
        .arg(dir)
        .arg(rounds)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("OUST", OUST)
        .env("BOARDS", "hex4,hex3")
        .env("GAMES", "4")
        .env("VISITS", "16")
        .env("JOBS", "2")
        .env("EPOCHS", "1")
        .env("GATE_SIZE", "hex4")
        .env("GATE_VISITS", "16")
        .env("GATE_GAMES", "8")
        .env("GATE_SPRT", sprt)
        .output()
        .unwrap()
}

/// The loop plays, fits and gates; a rejected round leaves the best network as it was and the next round adds
/// games to the same generation; an accepted one makes the next generation play with it; a gate cut short is
/// played again and reaches the same verdict with the same games.
#[test]
fn the_loop_keeps_only_a_network_its_gate_accepts_and_resumes_a_cut_gate() {
    let dir = TempDir::new("rl-loop");
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
    // An SPRT that eight games cannot decide: rejected.
    let out = rl_loop(&dir, "1", "0,50,0.05,0.05");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read("gen-1/round-1/verdict"), "rejected\n");
    let games = read("gen-1/round-1/gate.tsv");
    // Cut in its gate: the verdict and the gate's output are gone; the rerun plays the same games again.
    std::fs::remove_file(dir.join("gen-1/round-1/verdict")).unwrap();
    std::fs::remove_file(dir.join("gen-1/round-1/gate.out")).unwrap();
    // The settings are the first run's: this SPRT is not used.
    let out = rl_loop(&dir, "1", "-1000,-900,0.05,0.05");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read("gen-1/round-1/verdict"), "rejected\n");
    let times = |t: &str| {
        let mut games: Vec<String> = t
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').take(6).collect::<Vec<_>>().join("\t"))
            .collect();
        games.sort();
        games
    };
    assert_eq!(times(&read("gen-1/round-1/gate.tsv")), times(&games));
    assert!(!dir.join("gen-1/round-2").exists());
    // The next round is a second round of generation 1, fitted on both rounds' games.
    let out = rl_loop(&dir, "1", "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        read("log").contains("gen-1/round-2/candidate.net from the built-in network on 4 files")
    );

    // An SPRT that accepts at once: generation 2 then plays with generation 1's network.
    let dir2 = TempDir::new("rl-loop-accept");
    let out = rl_loop(&dir2, "2", "-1000,-500,0.3,0.3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(dir2.join("log")).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir2.join("gen-1/round-1/verdict")).unwrap(),
        "accepted\n",
        "{log}"
    );
    let net1 = dir2.join("gen-1/round-1/candidate.net");
    assert!(
        log.contains(&format!("network {}", net1.display())),
        "{log}"
    );
    assert!(dir2.join("gen-2/round-1/candidate.net").exists(), "{log}");

    // Bad arguments are refused with the reason.
    let out = rl_loop(&dir2, "many", "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("ROUNDS must be a positive number, not 'many'")
    );
}

/// `--stop-after N` leaves the first N games of a shard, and the same command without it goes on to the shard's
/// end: the file is then the shard's, game for game.
#[test]
fn selfplay_stops_after_a_prefix_of_its_shard_and_goes_on_from_it() {
    let dir = TempDir::new("selfplay-stop");
    let path = |name: &str| dir.join(name).display().to_string();
    let whole = selfplay(&[
        "--games",
        "8",
        "--shard",
        "2/2",
        "--out",
        &path("whole.txt"),
    ]);
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let cut = &["--games", "8", "--shard", "2/2", "--out", &path("cut.txt")];
    let out = selfplay(&[cut.as_slice(), &["--stop-after", "3"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("cut.txt")).unwrap();
    let numbers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("g "))
        .map(|l| l.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(numbers, ["4", "5", "6"]);
    let out = selfplay(cut);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("cut.txt")).unwrap(),
        std::fs::read_to_string(dir.join("whole.txt")).unwrap()
    );
}
