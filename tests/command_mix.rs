//! Random mixes of commands, the kind a GUI, a script and a user produce together: board changes, moves, undo,
//! set-ups, parameter changes, analysis. Every command must be answered, and never with an internal error (the
//! engine's own legality check of a chosen move, or a caught panic). This found the kept search tree being
//! reused on another board.

use std::io::Cursor;

use oust::gtp::{self, Engine, Options, Settings};
use oust::rng::Rng;

const BOARDS: [&str; 9] = [
    "boardsize 2",
    "boardsize 3",
    "boardsize 5",
    "boardsize 9",
    "rectangular_boardsize 3 2",
    "rectangular_boardsize 2 3",
    "rectangular_boardsize 5 4",
    "rectangular_boardsize 25 2",
    "clear_board",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

fn command(rng: &mut Rng) -> String {
    let colour = pick(rng, &["b", "w"]);
    match rng.below(100) {
        0..=7 => pick(rng, &BOARDS).to_string(),
        8..=34 => format!("genmove {colour}"),
        35..=39 => format!("reg_genmove {colour}"),
        40..=54 => format!(
            "play {colour} {}{}",
            pick(rng, &["A", "B", "C", "D", "E", "F", "G", "H", "J"]),
            1 + rng.below(9)
        ),
        55..=64 => "undo".to_string(),
        65..=67 => format!(
            "oust-set-param player {}",
            pick(rng, &["mcts", "uct-plain", "random"])
        ),
        68..=69 => format!("oust-set-param tree_mb {}", pick(rng, &["1", "2", "16"])),
        70..=71 => format!("oust-set-param threads {}", pick(rng, &["1", "2"])),
        72..=73 => format!(
            "oust-set-param expand_visits {}",
            pick(rng, &["1", "2", "8"])
        ),
        74..=76 => {
            let rows: Vec<String> = (0..3)
                .map(|_| (0..3).map(|_| pick(rng, &["X", "O", ".", "."])).collect())
                .collect();
            let extra = pick(rng, &["", " extra-turn"]);
            format!("oust-setup {colour} {}{extra}", rows.join("/"))
        }
        77..=78 => "oust-heatmap".to_string(),
        79..=80 => "oust-pv".to_string(),
        81..=82 => "list_legal".to_string(),
        83..=84 => format!("play {colour} pass"),
        85..=86 => "time_settings 0 1 1".to_string(),
        87..=88 => format!("oust-reports {}", pick(rng, &["on", "off", "auto"])),
        89..=90 => "printsgf".to_string(),
        91..=92 => "oust-analyze 0.01".to_string(),
        93..=94 => format!("oust-solve {}", pick(rng, &["0", "0.05"])),
        95 => format!(
            "oust-set-param solver_share {}",
            pick(rng, &["0", "0.1", "1"])
        ),
        _ => "showboard".to_string(),
    }
}

/// Runs the mixes of 300 commands made from `seeds`.
fn mixes(seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let commands: Vec<String> = (0..300).map(|_| command(&mut rng)).collect();
        // Ids make every answer countable, streamed analysis included (its answer is a block of its own).
        let input: String = commands
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} {c}\n", i + 1))
            .collect();
        let mut engine = Engine::new(Options {
            seed,
            settings: Settings {
                playouts: 100,
                threads: 2,
                ..Settings::default()
            },
            ..Options::default()
        })
        .unwrap();
        let mut out = Vec::new();
        gtp::run(&mut engine, Cursor::new(input.into_bytes()), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        for (i, c) in commands.iter().enumerate() {
            let id = i + 1;
            let answered = out.contains(&format!("\n={id}"))
                || out.contains(&format!("\n?{id} "))
                || out.starts_with(&format!("={id}"))
                || out.starts_with(&format!("?{id} "));
            assert!(answered, "seed {seed}: no answer to '{id} {c}'");
        }
        if let Some(line) = out.lines().find(|l| l.contains("internal error")) {
            panic!("seed {seed}: {line}\ninput:\n{}", commands.join("\n"));
        }
    }
}

#[test]
fn random_command_mixes_never_meet_an_internal_error() {
    mixes(0..12);
}

/// More mixes than the suite's time allows (minutes): `cargo test --profile release-tests --test command_mix -- --ignored`.
#[test]
#[ignore]
fn many_random_command_mixes_never_meet_an_internal_error() {
    mixes(12..200);
}
