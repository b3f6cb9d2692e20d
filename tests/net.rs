//! The policy and value network: `oust train-net` learns from tiny self-play data, resumes from its checkpoint
//! bit for bit, refuses what it cannot use; the engine refuses bad network files and plays the shipped networks'
//! moves.

mod common;

use std::sync::Arc;

use common::{TempDir, run_binary};
use oust::net::{Family, Net, Scratch};
use oust::rules::{Color, Geometry, Move, Shape};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = run_binary(args, b"");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Thirty quick self-play games on 5x5 at 100 playouts a move.
fn tiny_data(dir: &TempDir) -> String {
    let data = dir.path().join("data.txt").display().to_string();
    let (code, _, err) = run(&[
        "selfplay",
        "--boards",
        "5",
        "--games",
        "30",
        "--playouts",
        "100",
        "--seed",
        "3",
        "--out",
        &data,
    ]);
    assert_eq!(code, 0, "{err}");
    data
}

const TINY: [&str; 14] = [
    "--family",
    "square",
    "--channels",
    "8",
    "--blocks",
    "1",
    "--value-hidden",
    "8",
    "--batch",
    "16",
    "--learning-rate",
    "0.01",
    "--seed",
    "5",
];

fn train(data: &str, out: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["train-net", data, "--out", out];
    args.extend(TINY);
    args.extend(extra);
    run(&args)
}

/// The policy loss of each `epoch N` row of a report.
fn epoch_losses(report: &str) -> Vec<f64> {
    report
        .lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_tiny_network_learns_the_captures_and_a_resumed_fit_is_the_same_bit_for_bit() {
    let dir = TempDir::new("net-train");
    let data = tiny_data(&dir);
    let straight = dir.path().join("straight.net").display().to_string();
    let (code, report, err) = train(&data, &straight, &["--epochs", "6"]);
    assert_eq!(code, 0, "{err}");
    let losses = epoch_losses(&report);
    assert_eq!(losses.len(), 6, "{report}");
    assert!(
        losses[5] < losses[0] - 0.2,
        "the policy loss falls: {losses:?}\n{report}"
    );
    assert!(report.contains("held out"), "{report}");
    let data_line = report.lines().find(|l| l.starts_with("data: ")).unwrap();
    assert!(data_line.starts_with("data: 30 games, "), "{data_line}");

    // The same games in two files, read one after the other: the same data and the same network.
    let text = std::fs::read_to_string(&data).unwrap();
    let split = text.find("\ng 11 ").unwrap();
    let split = split + 1 + text[split + 1..].find('\n').unwrap() + 1;
    let first = dir.path().join("first.txt").display().to_string();
    let second = dir.path().join("second.txt").display().to_string();
    std::fs::write(&first, &text[..split]).unwrap();
    std::fs::write(&second, &text[split..]).unwrap();
    let two = dir.path().join("two.net").display().to_string();
    let mut args = vec!["train-net", &first, &second, "--out", &two, "--epochs", "6"];
    args.extend(TINY);
    let (code, report_two, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(report_two.contains(data_line), "{report_two}");
    assert_eq!(
        std::fs::read(&two).unwrap(),
        std::fs::read(&straight).unwrap()
    );

    // Black to move on 5x5: the lone white C3 can be taken by joining B3 from A3, B2 or B4.
    let geo = Arc::new(Geometry::new(Shape::square(5)).unwrap());
    let pos = common::position(&[".....", ".....", ".XO..", ".....", "...X."], Color::Black);
    let captures: Vec<_> = ["A3", "B2", "B4"]
        .iter()
        .map(|v| geo.parse_vertex(v).unwrap())
        .collect();
    for &c in &captures {
        assert!(pos.is_legal(c));
    }
    let net = Net::from_bytes(&std::fs::read(&straight).unwrap(), "straight").unwrap();
    let e = net.evaluate(&pos, None, &mut Scratch::default());
    let best = e.policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert!(
        captures.contains(&best.0),
        "the network's first choice {} is not a capture: {:?}",
        geo.name(best.0),
        e.policy
            .iter()
            .map(|(p, q)| (geo.name(*p), *q))
            .collect::<Vec<_>>()
    );
    let capture_mass: f32 = e
        .policy
        .iter()
        .filter(|p| captures.contains(&p.0))
        .map(|p| p.1)
        .sum();
    assert!(
        capture_mass > 0.5,
        "the captures hold {capture_mass} of the policy"
    );

    // Stopped after two epochs and run again, the fit ends with the same network as the straight one.
    let parts = dir.path().join("parts.net").display().to_string();
    let (code, report, err) = train(&data, &parts, &["--epochs", "6", "--stop-after", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(report.contains("stopped after epoch 2 of 6"), "{report}");
    assert!(!std::path::Path::new(&parts).exists());
    let (code, report, err) = train(&data, &parts, &["--epochs", "6"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        epoch_losses(&report).len(),
        4,
        "epochs 3 to 6 ran: {report}"
    );
    assert_eq!(
        std::fs::read(&parts).unwrap(),
        std::fs::read(&straight).unwrap()
    );

    // The checkpoint of one run is not taken for another's.
    let (code, _, err) = train(&data, &parts, &["--epochs", "6", "--weight-decay", "0.001"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("parts.net.checkpoint: it is a checkpoint of another run ("),
        "{err}"
    );
    assert!(err.contains("remove it to start again"), "{err}");
}

/// `--threads` shares each batch among threads: the same threads make the same network (byte for byte, its report
/// too), which learns as one thread's does; a checkpoint goes on only with its own number of threads.
#[test]
fn a_fit_on_two_threads_is_repeatable_and_learns_as_one_thread_does() {
    let dir = TempDir::new("net-threads");
    let data = tiny_data(&dir);
    let out = |name: &str| dir.path().join(name).display().to_string();
    let (code, one, err) = train(&data, &out("one.net"), &["--epochs", "6"]);
    assert_eq!(code, 0, "{err}");
    let (code, two, err) = train(&data, &out("two.net"), &["--epochs", "6", "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    let (code, again, err) = train(
        &data,
        &out("again.net"),
        &["--epochs", "6", "--threads", "2"],
    );
    assert_eq!(code, 0, "{err}");
    let without_times = |r: &str| -> Vec<String> {
        r.lines()
            .filter(|l| !l.starts_with("network "))
            .map(String::from)
            .collect()
    };
    assert_eq!(without_times(&two), without_times(&again));
    assert_eq!(
        std::fs::read(out("two.net")).unwrap(),
        std::fs::read(out("again.net")).unwrap()
    );
    assert_ne!(
        std::fs::read(out("one.net")).unwrap(),
        std::fs::read(out("two.net")).unwrap(),
        "two threads add the gradients in another order"
    );
    let (l1, l2) = (epoch_losses(&one), epoch_losses(&two));
    assert!(
        (l1[5] - l2[5]).abs() < 0.05 && l2[5] < l2[0] - 0.2,
        "{l1:?} {l2:?}"
    );
    // A checkpoint of one thread is not resumed with two.
    let (code, _, _) = train(
        &data,
        &out("parts.net"),
        &["--epochs", "6", "--stop-after", "1"],
    );
    assert_eq!(code, 0);
    let (code, _, err) = train(
        &data,
        &out("parts.net"),
        &["--epochs", "6", "--threads", "2"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("it is a checkpoint of another run (")
            && err.contains("; threads=- there, 2 here)"),
        "{err}"
    );
}

#[test]
fn broken_data_and_a_wrong_starting_network_are_refused_with_the_reason() {
    let dir = TempDir::new("net-bad-data");
    let data = tiny_data(&dir);
    let text = std::fs::read_to_string(&data).unwrap();
    // The result of the first position line becomes 'x'.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first = lines.iter().position(|l| l.starts_with("p ")).unwrap();
    let mut fields: Vec<&str> = lines[first].split(' ').collect();
    fields[3] = "x";
    lines[first] = fields.join(" ");
    let broken = dir.file("broken.txt", &(lines.join("\n") + "\n"));
    let out = dir.path().join("x.net").display().to_string();
    let (code, _, err) = train(&broken, &out, &["--epochs", "1"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "oust train-net: {broken}: line {}: 'x' is not a result",
            first + 1
        )),
        "{err}"
    );
    // No position of the family asked for.
    let (code, _, err) = run(&["train-net", &data, "--out", &out, "--family", "hex"]);
    assert_eq!(code, 2);
    assert!(err.contains("no position on a hex board"), "{err}");
    // A starting network of another family or size.
    let hex = dir.path().join("hex.net");
    std::fs::write(&hex, oust::net::BUILT_IN_HEX).unwrap();
    let (code, _, err) = train(&data, &out, &["--init", &hex.display().to_string()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the starting network is for hex boards, not square"),
        "{err}"
    );
    assert!(!std::path::Path::new(&out).exists());
}

#[test]
fn a_network_file_that_is_missing_damaged_or_of_the_other_family_is_refused_and_the_network_kept() {
    let dir = TempDir::new("net-files");
    let good = oust::net::BUILT_IN_HEX.to_vec();
    let cut = dir.path().join("cut.net");
    std::fs::write(&cut, &good[..good.len() - 100]).unwrap();
    let square = dir.path().join("square.net");
    std::fs::write(&square, oust::net::BUILT_IN_SQUARE).unwrap();
    let version = dir.path().join("version.net");
    let text_end = good.windows(5).position(|w| w == b"data\n").unwrap();
    let mut other = String::from_utf8(good[..text_end].to_vec())
        .unwrap()
        .replace("oust-input-1", "oust-input-9");
    other.push_str("data\n");
    let mut other = other.into_bytes();
    other.extend(&good[text_end + 5..]);
    std::fs::write(&version, other).unwrap();
    let priors = dir.file("priors.txt", "oust-weights 1\nfeatures oust-placement-1\n");
    let text = dir.file("text.txt", "hello\n");
    let cases = [
        ("missing.net".to_string(), "No such file or directory"),
        (cut.display().to_string(), "truncated: "),
        (
            square.display().to_string(),
            "a network for square boards, not hex ones",
        ),
        (
            version.display().to_string(),
            "its inputs are 'oust-input-9', and this engine computes 'oust-input-1'",
        ),
        (
            priors,
            "a weights file of the learned priors (oust train), not a network",
        ),
        (
            text,
            "not a network file (it does not start with 'oust-net 1')",
        ),
    ];
    for (file, reason) in &cases {
        let input = format!("oust-set-param net_hex {file}\noust-get-param net_hex\n");
        let out = run_binary(&["--size", "hex5"], input.as_bytes());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with(&format!("? net_hex: {file}: ")) && stdout.contains(reason),
            "{file}: {stdout}"
        );
        assert!(stdout.ends_with("\n\n= built-in\n\n"), "{stdout}");
        // At start, the same file stops the engine with the reason.
        let out = run_binary(&["--set", &format!("net_hex={file}")], b"");
        assert_ne!(out.status.code(), Some(0));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(reason),
            "{file}"
        );
    }
    // A good file is taken.
    let hex = dir.path().join("hex.net");
    std::fs::write(&hex, &good).unwrap();
    let input = format!(
        "oust-set-param net_hex {}\noust-get-param net_hex\n",
        hex.display()
    );
    let out = run_binary(&["--size", "hex5"], input.as_bytes());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("=\n\n= {}\n\n", hex.display())
    );
}

/// The shipped networks' moves at a fixed number of visits, one thread and a seed, in int8 (the default) and in
/// float (the reference; on hex-5 its moves are those of the engine before int8): a change to the networks, the
/// inputs, the quantization or the search shows here.
#[test]
fn the_shipped_networks_play_these_moves() {
    let script = "genmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let mut answers = Vec::new();
    for precision in ["int8", "float"] {
        for size in ["9", "hex5"] {
            let out = run_binary(
                &[
                    "--size",
                    size,
                    "--threads",
                    "1",
                    "--playouts",
                    "300",
                    "--seed",
                    "1",
                    "--set",
                    "evaluator=network",
                    "--set",
                    &format!("net_precision={precision}"),
                ],
                script.as_bytes(),
            );
            answers.push(
                String::from_utf8_lossy(&out.stdout)
                    .replace("\n\n", " ")
                    .trim()
                    .to_string(),
            );
        }
    }
    assert_eq!(
        answers,
        [
            "= B2 = E2 = G3 = C4",
            "= B5 = B2 = H5 = E7",
            "= H8 = H5 = F6 = F3",
            "= H8 = E8 = C5 = E2"
        ]
    );
}

/// `evaluator auto` (the default) is the network on the boards where it measured stronger at equal time, every board
/// of at least 25 points, and playouts on smaller ones: the default's moves are the network's on 9x9, 7x7, 13x13,
/// 7x11, 5x5, 6x6, 4x8, 3x12, 2x20, 15x15, 19x19, 21x21, 25x25 (the largest), hex-4, hex-5, hex-6, hex-7, hex-9, hex-10
/// and hex-13 (the largest), and the playouts' on 4x6, at a fixed number of playouts and a seed.
#[test]
fn auto_evaluates_with_the_network_on_the_boards_where_it_measured_stronger() {
    let script = b"genmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let moves = |size: &str, evaluator: Option<&str>| {
        let mut args = vec![
            "--size",
            size,
            "--threads",
            "1",
            "--playouts",
            "200",
            "--seed",
            "4",
        ];
        if let Some(e) = evaluator {
            args.extend(["--set", e]);
        }
        String::from_utf8_lossy(&run_binary(&args, script).stdout).into_owned()
    };
    for (size, network) in [
        ("9", true),
        ("7", true),
        ("13", true),
        ("7x11", true),
        ("5", true),
        ("6", true),
        ("4x8", true),
        ("3x12", true),
        ("2x20", true),
        ("4x6", false),
        ("15", true),
        ("19", true),
        ("21", true),
        ("25", true),
        ("hex6", true),
        ("hex7", true),
        ("hex9", true),
        ("hex5", true),
        ("hex4", true),
        ("hex10", true),
        ("hex13", true),
    ] {
        let auto = moves(size, None);
        let net = moves(size, Some("evaluator=network"));
        let playouts = moves(size, Some("evaluator=playouts"));
        assert_ne!(
            net, playouts,
            "{size}: the two evaluators must differ for the test to tell"
        );
        let expected = if network { &net } else { &playouts };
        assert_eq!(
            &auto, expected,
            "{size}: auto should evaluate with the network: {network}"
        );
    }
}

/// The network's value agrees with the result of a won position, and its policy covers the legal placements.
#[test]
fn the_shipped_networks_evaluate_every_board_of_their_family() {
    for shape in [
        Shape::square(5),
        Shape::square(19),
        Shape::Rect {
            width: 7,
            height: 5,
        },
        Shape::Hex { side: 4 },
        Shape::Hex { side: 9 },
    ] {
        let geo = Arc::new(Geometry::new(shape).unwrap());
        let mut pos = oust::rules::Position::new(geo.clone());
        pos.play(Move::Place(geo.points().next().unwrap())).unwrap();
        let net = oust::net::built_in(Family::of(shape));
        let e = net.evaluate(&pos, None, &mut Scratch::default());
        assert_eq!(e.policy.len(), geo.len() - 1, "{shape}");
        assert!((0.0..=1.0).contains(&e.value), "{shape}");
    }
}

/// `args` exit with status 2, nothing on stdout, and `message` on stderr.
fn assert_refused(args: &[&str], message: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert!(err.contains(message), "{args:?}: {err}");
}

/// The policy block of `oust knowledge`'s report: each policy's line.
fn policy_lines(report: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("policy "))
        .skip(1)
        .take_while(|l| !l.starts_with("value "))
        .map(str::to_string)
        .collect()
}

/// `oust knowledge` samples positions of random games on a small board, solves each exactly, and scores the
/// policies' favourite placements and the values against the exact results: the network's and the learned
/// priors' favourites win far more won positions than a random placement does, the same positions whatever the
/// playouts, and a board too large to solve or a network of the other family is refused.
#[test]
fn knowledge_scores_the_policies_and_values_on_exactly_solved_positions() {
    let args = [
        "knowledge",
        "--size",
        "4x4",
        "--positions",
        "300",
        "--seed",
        "2",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "300 positions on 4x4 (264 won and 36 lost for the side to move; 0 drawn left out), seed 2, "
        ),
        "{out}"
    );
    assert_eq!(
        policy_lines(&out),
        [
            "network                96.2%  (254.0 of 264)",
            "learned priors         95.8%  (253.0 of 264)",
            "handmade priors        76.5%  (202.0 of 264)",
            "a random placement     38.4%  (101.3 of 264)",
        ],
        "{out}"
    );
    let values: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("value "))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(values.len(), 3, "{out}");
    assert_eq!(values[0][..4], ["network", "0.1995", "0.0595", "89.3%"]);
    assert_eq!(
        values[1][..5],
        ["16", "playouts", "0.5965", "0.2042", "63.0%"]
    );
    assert_eq!(
        values[2][..6],
        ["the", "share", "won", "0.3669", "0.1056", "88.0%"]
    );
    // More playouts change their own line only.
    let (code, more, err) = run(&[&args[..], &["--playouts", "48"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(policy_lines(&more), policy_lines(&out));
    assert!(more.contains("\n48 playouts "), "{more}");
    assert!(
        more.contains("\nnetwork                0.1995  0.0595   89.3%"),
        "{more}"
    );

    let dir = TempDir::new("knowledge");
    let square = dir.path().join("square.net");
    std::fs::write(&square, oust::net::BUILT_IN_SQUARE).unwrap();
    let square = square.display().to_string();
    for (args, message) in [
        (
            vec!["knowledge", "--size", "5x5"],
            "error: 5x5: 25 points; the knowledge measures solve every position exactly, on boards of at most 20",
        ),
        (
            vec!["knowledge", "--size", "hex3", "--net", &square],
            "not a network for hex boards, the family of hex3",
        ),
        (
            vec!["knowledge", "--size", "4x4", "--net", "missing.net"],
            "--net missing.net: No such file or directory",
        ),
        (
            vec!["knowledge", "--size", "4x4", "--positions", "0"],
            "--positions",
        ),
    ] {
        assert_refused(&args, message);
    }
}

/// `oust knowledge --data` measures on the held-out games of self-play data (those `oust train-net` holds out with
/// the same seed): each policy's favourite against the most visited placement and a reference search's best, and
/// the values against the games' results; the same data and seed give the same report, and data it cannot use is
/// refused with the reason.
#[test]
fn knowledge_on_self_play_data_measures_its_held_out_games() {
    let dir = TempDir::new("knowledge-data");
    let data = tiny_data(&dir);
    let args = [
        "knowledge",
        "--data",
        &data,
        "--positions",
        "40",
        "--search-playouts",
        "300",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let without_times = |report: &str| -> Vec<String> {
        report
            .lines()
            .filter(|l| !l.ends_with(" s"))
            .map(|l| match l.strip_suffix(" us") {
                // The time's width varies from run to run, and so does the padding before it.
                Some(timed) => timed
                    .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
                    .trim_end()
                    .to_string(),
                None => l.to_string(),
            })
            .collect()
    };
    let lines = without_times(&out);
    assert_eq!(
        lines[..5],
        [
            "20 positions of 3 held-out games on 5x5 (seed 1)",
            "policy               its favourite is the most visited  is the 300-playout search's best",
            "network                50.0%    50.0%",
            "learned priors         45.0%    60.0%",
            "handmade priors        30.0%    35.0%",
        ],
        "{out}"
    );
    assert!(
        out.contains("\nnetwork                0.1661  0.0509   90.0%"),
        "{out}"
    );
    assert!(
        out.contains("\nthe share won          0.6474  0.2275   65.0%"),
        "{out}"
    );
    let (_, again, _) = run(&args);
    assert_eq!(without_times(&again), lines);
    // Without the reference search, one column.
    let (code, out, err) = run(&[
        "knowledge",
        "--data",
        &data,
        "--positions",
        "40",
        "--search-playouts",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\npolicy               its favourite is the most visited\nnetwork                50.0%\n"), "{out}");
    // Every game of the data, a held-out set of its own that no fit reads: more games than the one in ten.
    let (code, out, err) = run(&[
        "knowledge",
        "--data",
        &data,
        "--all-games",
        "--positions",
        "1000",
        "--search-playouts",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    let games: usize = first
        .split(" positions of ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        games > 3 && first.ends_with(" games on 5x5 (all the data's games)"),
        "{first}"
    );

    let bad = dir.file("bad.txt", "garbage\n");
    for (args, message) in [
        (
            vec!["knowledge", "--data", &bad],
            format!("{bad}: line 1: not a position line"),
        ),
        (
            vec!["knowledge", "--data", &data, "--size", "7"],
            "the data has no held-out position on 7x7 of a game with a result".to_string(),
        ),
        (
            vec!["knowledge"],
            "give --size, a board to solve positions on, or --data".to_string(),
        ),
        (
            vec!["knowledge", "--size", "4x4", "--all-games"],
            "--data".to_string(),
        ),
    ] {
        assert_refused(&args, &message);
    }
}

/// Self-play with the network's priors records, in each game's line, the checksum of the network that played it
/// (a weights file's `checksum` line); a run resumed with another network is refused with the reason, and a fit
/// says which networks played its data.
#[test]
fn self_play_records_its_network_and_a_fit_says_which_networks_played_its_data() {
    let dir = TempDir::new("net-played");
    let data = dir.path().join("played.txt").display().to_string();
    // A copy of the shipped hex network, under a name of its own.
    let shipped = std::fs::read(format!(
        "{}/weights/oust-net-hex.net",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let file = dir.path().join("mine.net").display().to_string();
    std::fs::write(&file, &shipped).unwrap();
    let selfplay_with = |games: &str, extra: &[&str]| {
        let args = [
            "selfplay",
            "--boards",
            "hex3",
            "--games",
            games,
            "--playouts",
            "8",
            "--priors",
            "network",
            "--net",
            &file,
            "--seed",
            "4",
            "--out",
            &data,
        ];
        run(&[&args[..], extra].concat())
    };
    let selfplay = |games: &str| selfplay_with(games, &[]);
    let (code, _, err) = selfplay("2");
    assert_eq!(code, 0, "{err}");
    let header = String::from_utf8_lossy(&shipped[..600]).to_string();
    let sum = header
        .lines()
        .find_map(|l| l.strip_prefix("checksum "))
        .unwrap()
        .to_string();
    let text = std::fs::read_to_string(&data).unwrap();
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("g ")).collect();
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|l| l.ends_with(&format!(" priors=network-int8:{file} net={sum}"))),
        "{games:?}"
    );
    // Data of the integer network is not resumed with the float one: the priors it records differ.
    let (code, _, err) = selfplay_with("4", &["--precision", "float"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "priors network-int8:{file}, PUCT), which is not game 0 of this run"
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
    // The same file now holds another network: the run is not resumed with it, and the data stays as it was.
    let mut net = Net::from_bytes(&shipped, "shipped").unwrap();
    net.params_mut()[0] += 0.5;
    std::fs::write(&file, net.to_bytes("")).unwrap();
    let (code, _, err) = selfplay("4");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "holds game 0 played by the network of checksum {sum}, and this run's network is {:016x}",
            net.checksum()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&data).unwrap(), text);
    let out = dir.path().join("fit.net").display().to_string();
    let (code, report, err) = run(&[
        "train-net",
        &data,
        "--family",
        "hex",
        "--channels",
        "8",
        "--blocks",
        "1",
        "--value-hidden",
        "8",
        "--epochs",
        "1",
        "--seed",
        "7",
        "--out",
        &out,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        report.contains(&format!("\nplayed by the networks {sum} (2 games)\n")),
        "{report}"
    );
}

/// A seeded search with the integer network plays the same moves on the AVX2 kernels and on the plain loop (forced
/// here, as on a machine without AVX2), and the same with or without the evaluation cache, however small: the cache
/// gives back exactly what the network computes. The float network, the reference, plays its own moves.
#[test]
fn the_integer_network_plays_the_same_moves_on_both_kernels_and_with_its_cache() {
    use oust::net::Precision;
    use oust::rules::Game;
    use oust::search::{
        Control, EvalCache, NET_C_PUCT, NET_FPU_REDUCTION, NetEval, Request, Searcher, Setup,
    };
    let play = |shape: Shape, eval: &dyn Fn() -> NetEval| {
        let mut game = Game::new(Arc::new(Geometry::new(shape).unwrap()));
        let mut setup = Setup {
            threads: 1,
            ..Setup::default()
        };
        setup.config.expand_visits = 1;
        setup.config.c_puct = NET_C_PUCT;
        setup.config.fpu_reduction = NET_FPU_REDUCTION;
        let mut searcher = Searcher::default();
        let mut moves = Vec::new();
        for i in 0..6 {
            setup.config.net = Some(eval());
            let request = Request::playouts(150, 7 + i);
            let result = searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
            let mv = result.best.unwrap();
            let color = game.position().to_move();
            game.play(color, mv).unwrap();
            let visits: Vec<u32> = result.info.moves.iter().map(|m| m.visits).collect();
            moves.push((mv, visits));
        }
        moves
    };
    for shape in [Shape::square(9), Shape::Hex { side: 5 }] {
        let net = oust::net::built_in(Family::of(shape));
        let int8 = || NetEval::new(net.clone(), 0.0, Precision::Int8);
        let wide = play(shape, &int8);
        assert_eq!(wide, play(shape, &|| int8().plain_kernels()), "{shape}");
        let cache = Arc::new(EvalCache::new(8));
        assert_eq!(
            wide,
            play(shape, &|| int8().with_cache(cache.clone())),
            "{shape}"
        );
        let stats = cache.stats();
        assert!(
            stats.hits > 0 && stats.hits < stats.lookups,
            "{shape}: {stats:?}"
        );
        // A cache of no bytes, which keeps nothing, changes nothing either.
        let tiny = Arc::new(EvalCache::new(0));
        assert_eq!(
            wide,
            play(shape, &|| int8().with_cache(tiny.clone())),
            "{shape}"
        );
        let float = play(shape, &|| NetEval::new(net.clone(), 0.0, Precision::Float));
        // The searches' visits tell the precisions apart, even where they choose the same moves.
        assert_ne!(
            wide, float,
            "{shape}: the two precisions should differ for the test to tell"
        );
    }
}

/// `oust-list-params` says what `evaluator auto` means on the board, and why where it is not the network;
/// `oust-get-param` still reads `auto`.
#[test]
fn the_parameter_list_says_what_auto_evaluates_with_here() {
    for (size, here) in [
        ("9", "network"),
        ("hex13", "network"),
        ("5", "network"),
        ("25", "network"),
        ("hex4", "network"),
        (
            "4x6",
            "playouts, as the solver decides the games of boards under 25 points from their first moves",
        ),
        (
            "hex3",
            "playouts, as the solver decides the games of boards under 25 points from their first moves",
        ),
    ] {
        let out = run_binary(
            &["--size", size],
            b"oust-list-params\noust-get-param evaluator\n",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("\nevaluator auto (here: {here})\n")),
            "{size}: {stdout}"
        );
        assert!(stdout.ends_with("\n\n= auto\n\n"), "{size}: {stdout}");
    }
}

/// A capture of the opponent's last stone ends the game in the network's tree as in the playouts': with the tree
/// search alone (no solver's share), the line after it is that capture and nothing more, where the network's policy
/// once offered the extra turn's placements of a finished game and its value stood in for the win.
#[test]
fn the_networks_tree_ends_the_game_at_the_last_capture() {
    for evaluator in ["evaluator=network", "evaluator=playouts"] {
        let out = run_binary(
            &[
                "--size",
                "7x5",
                "--threads",
                "1",
                "--playouts",
                "40",
                "--seed",
                "1",
                "--set",
                evaluator,
                "--set",
                "solver_share=0",
            ],
            b"play b C3\nplay w D3\noust-pv\n",
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("\n= VAR b C2\n"), "{evaluator}: {stdout}");
    }
}
