//! Abstract Play records: cell names, turn lists and JSON game records in, turn lists out, through the library and
//! through `oust ap-import` / `oust ap-export`.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;

use oust::abstract_play::{self, ApError};
use oust::notation::{cell_name, parse_cell};
use oust::rng::Rng;
use oust::rules::{Color, Game, Geometry, Move, Shape, Status};
use oust::sgf;
use serde_json::json;

const OUST: &str = env!("CARGO_BIN_EXE_oust");

fn geo(shape: Shape) -> Geometry {
    Geometry::new(shape).unwrap()
}

/// The board variants Abstract Play offers for Oust.
const VARIANTS: [(&str, Shape); 4] = [
    ("hex-6", Shape::Hex { side: 6 }),
    ("hex-7", Shape::Hex { side: 7 }),
    ("hex-8", Shape::Hex { side: 8 }),
    (
        "square-11",
        Shape::Rect {
            width: 11,
            height: 11,
        },
    ),
];

#[test]
fn variants_name_their_boards() {
    for (name, shape) in VARIANTS {
        assert_eq!(abstract_play::parse_variant(name), Ok(shape));
        assert_eq!(abstract_play::variant_name(shape).as_deref(), Ok(name));
    }
    for bad in [
        "hex--7",
        "size-7hex",
        "size-7 triangle",
        "hex-1",
        "hex-14",
        "square-30",
        "rect-5",
        "",
        "hex-+7",
    ] {
        assert!(abstract_play::parse_variant(bad).is_err(), "{bad}");
    }
    assert!(
        abstract_play::variant_name(Shape::Rect {
            width: 7,
            height: 5
        })
        .is_err()
    );
}

/// BOARDS.md: on a hexhex board, reading the rows from the bottom and each row from the left gives the same cells
/// in both notations, rows `a`.. and cells numbered from 1.
#[test]
fn hex_cells_follow_gogui_rows_from_the_bottom() {
    for side in [2, 5, 6, 7, 8, 13] {
        let g = geo(Shape::Hex { side });
        let n = 2 * side - 1;
        let mut seen = 0;
        for y in 0..n {
            let on_row: Vec<_> = (0..n).filter_map(|x| g.point_at(x, y)).collect();
            for (i, &p) in on_row.iter().enumerate() {
                let name = format!("{}{}", char::from(b'a' + y as u8), i + 1);
                assert_eq!(cell_name(&g, p), name);
                assert_eq!(parse_cell(&g, &name), Ok(p));
                assert_eq!(parse_cell(&g, &name.to_uppercase()), Ok(p));
                seen += 1;
            }
        }
        assert_eq!(seen, g.len());
    }
    let g = geo(Shape::Hex { side: 7 });
    let gtp = |cell: &str| g.name(parse_cell(&g, cell).unwrap());
    assert_eq!(gtp("a1"), "A1");
    assert_eq!(gtp("a7"), "G1");
    assert_eq!(gtp("g1"), "A7");
    assert_eq!(gtp("g7"), "G7");
    assert_eq!(gtp("g13"), "N7");
    assert_eq!(gtp("m1"), "G13");
    assert_eq!(gtp("m7"), "N13");
}

/// Square boards letter their columns from `a` including `i`: Abstract Play's `j5` is GTP's `K5`.
#[test]
fn square_columns_include_i() {
    let g = geo(Shape::square(11));
    let gtp = |cell: &str| g.name(parse_cell(&g, cell).unwrap());
    assert_eq!(gtp("a1"), "A1");
    assert_eq!(gtp("h8"), "H8");
    assert_eq!(gtp("i5"), "J5");
    assert_eq!(gtp("j5"), "K5");
    assert_eq!(gtp("k11"), "L11");
    for p in g.points() {
        assert_eq!(parse_cell(&g, &cell_name(&g, p)), Ok(p));
    }
}

#[test]
fn bad_cells_say_what_the_board_has() {
    let hex = geo(Shape::Hex { side: 7 });
    let square = geo(Shape::square(11));
    let msg = |g: &Geometry, cell: &str| parse_cell(g, cell).unwrap_err().to_string();
    let square_cells = "the 11x11 board has columns a to k and rows 1 to 11";
    for (g, cell, has) in [
        (&hex, "g14", "row g has cells g1 to g13"),
        (&hex, "a8", "row a has cells a1 to a7"),
        (&hex, "n1", "the hexagon of side 7 has rows a to m"),
        (&square, "l1", square_cells),
        (&square, "a12", square_cells),
    ] {
        assert_eq!(msg(g, cell), format!("{cell} is off the board: {has}"));
    }
    for bad in ["", "d", "4d", "d0", "d04x", "dd4", "d-4", "é4", "d1234"] {
        assert_eq!(
            msg(&hex, bad),
            format!("'{bad}' is not a cell such as d4 (Abstract Play's notation)"),
            "{bad}"
        );
    }
}

fn list(text: &str, board: Shape) -> Result<Game, ApError> {
    abstract_play::replay(&abstract_play::parse_list(text, board))
}

fn sgf_moves(game: &Game) -> Vec<String> {
    let geo = game.start().geometry();
    game.records()
        .iter()
        .map(|r| {
            let name = match r.mv {
                Move::Place(p) => geo.name(p),
                Move::Pass => "pass".into(),
                Move::Swap => "swap".into(),
            };
            format!("{} {name}", r.color.letter().to_ascii_uppercase())
        })
        .collect()
}

/// A 3x3 game checked by hand. Turn 5: c1 joins b1 and c2 into a group of 3 beside White's single a1, captures it,
/// and Black places again on b3 (no black neighbour: the turn ends). Turn 6: a2 joins a3, captures b3, and White
/// places again on c3. After Black's b3, White's a1 and b2 would each form a group of 3 against Black's group of
/// 3: White has no placement and passes. Black's a1 then joins b1, c1 and c2 into a group of 4 beside a2+a3 (2)
/// and c3 (1): both are captured, White has no stone left, and the game is over.
const HAND_3X3: &str = "b1\na1\nc2\na3\nc1,b3\na2,c3\nb3\npass\na1\n";

#[test]
fn a_hand_checked_game_with_extra_placements_and_a_pass() {
    let game = list(HAND_3X3, Shape::square(3)).unwrap();
    assert_eq!(
        sgf_moves(&game),
        [
            "B B1", "W A1", "B C2", "W A3", "B C1", "B B3", "W A2", "W C3", "B B3", "W pass",
            "B A1"
        ]
    );
    let extra: Vec<bool> = game.records().iter().map(|r| r.report.extra_turn).collect();
    assert_eq!(
        extra,
        [
            false, false, false, false, true, false, true, false, false, false, false
        ]
    );
    assert_eq!(
        game.position().status(),
        Status::Over(oust::rules::Outcome::Win(Color::Black))
    );
    assert_eq!(
        abstract_play::turns(&game).unwrap().join("\n") + "\n",
        HAND_3X3
    );
}

#[test]
fn turns_that_are_not_one_turn_are_refused_with_their_number() {
    let board = Shape::square(3);
    let err = |text: &str| list(text, board).unwrap_err().to_string();
    // a3 has no black neighbour: the turn ends there.
    assert_eq!(
        err("b1\na1\na3,c3\n"),
        "turn 3 ('a3,c3', line 3): a3 captures nothing, so the turn ends there, yet it goes on"
    );
    // c1 captures a1 and Black must place again.
    assert_eq!(
        err("b1\na1\nc2\na3\nc1\n"),
        "turn 5 ('c1', line 5): c1 captures, so black must place again, but the turn ends there"
    );
    // After b3, White's b2 forms a group of 3 beside Black's group of 3; a pass while Black could place; an
    // occupied point.
    let refusal = |before: &str, cell: &str| {
        let mut game = list(before, board).unwrap();
        let p = parse_cell(game.start().geometry(), cell).unwrap();
        let color = game.position().to_move();
        game.play(color, Move::Place(p)).unwrap_err().to_string()
    };
    let before = "b1\na1\nc2\na3\nc1,b3\na2,c3\nb3\n";
    assert_eq!(
        err(&format!("{before}b2\n")),
        format!(
            "turn 8 ('b2', line 8): b2 is illegal: {}",
            refusal(before, "b2")
        )
    );
    assert!(
        refusal(before, "b2").contains("not smaller"),
        "{}",
        refusal(before, "b2")
    );
    let mut after_b1 = list("b1", board).unwrap();
    let pass_error = after_b1.play(Color::White, Move::Pass).unwrap_err();
    assert_eq!(
        err("b1\npass\n"),
        format!("turn 2 ('pass', line 2): pass is illegal: {pass_error}")
    );
    assert_eq!(
        err("b1\nb1\n"),
        format!(
            "turn 2 ('b1', line 2): b1 is illegal: {}",
            refusal("b1", "b1")
        )
    );
    assert_eq!(
        err("b1\n\n# a comment\nd1\n"),
        "turn 2 ('d1', line 4): d1 is off the board: the 3x3 board has columns a to c and rows 1 to 3"
    );
    assert_eq!(
        err("b1\na1,\n"),
        "turn 2 ('a1,', line 2): a1 captures nothing, so the turn ends there, yet it goes on"
    );
    assert_eq!(
        err("b1\n,a1\n"),
        "turn 2 (',a1', line 2): an empty placement between commas"
    );
    assert_eq!(
        err("b1\na1\nc2\na3\nc1,pass\n"),
        "turn 5 ('c1,pass', line 5): pass cannot follow a placement in the same turn (a capture that leaves no \
         placement ends the turn)"
    );
    // After the capture of the last white stone the game is over.
    assert_eq!(
        err("b1\na1\nc1,c2\n"),
        "turn 3 ('c1,c2', line 3): c1 ends the game, yet the turn goes on"
    );
    assert_eq!(
        err("b1\na1\nc1\nc2\n"),
        "turn 4 ('c2', line 4): the game is already over: B+ (black captured every white stone)"
    );
}

/// A random game on `shape`, played to the end, with the forced passes the rules demand.
fn random_game(shape: Shape, seed: u64) -> Game {
    let geo = Arc::new(geo(shape));
    let mut game = Game::new(geo);
    let mut rng = Rng::new(seed);
    while !matches!(game.position().status(), Status::Over(_)) {
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        let color = game.position().to_move();
        game.play(color, mv).unwrap();
    }
    game
}

fn json_record(
    variant: Option<&str>,
    turns: &[String],
    names: [&str; 2],
    results: [i64; 2],
) -> String {
    let rounds: Vec<serde_json::Value> = turns
        .chunks(2)
        .enumerate()
        .map(|(i, c)| {
            // Both forms of a move entry: a plain string, and an object with "move".
            if i % 2 == 0 {
                json!(c)
            } else {
                json!(c.iter().map(|t| json!({"move": t})).collect::<Vec<_>>())
            }
        })
        .collect();
    let mut game = json!({"name": "Oust"});
    if let Some(v) = variant {
        game["variants"] = json!([v]);
    }
    json!({
        "header": {
            "game": game,
            "event": null,
            "site": {"name": "Abstract Play", "gameid": "7d5e1c2a-test"},
            "date-start": "2025-03-01T10:00:00.000Z",
            "date-end": "2025-03-04T18:30:00.000Z",
            "date-generated": "2025-03-04T18:30:01.000Z",
            "players": [
                {"name": names[0], "userid": "u1", "result": results[0]},
                {"name": names[1], "userid": "u2", "result": results[1]}
            ]
        },
        "moves": rounds
    })
    .to_string()
}

/// Random games on the four variants: turns out, then back in as a turn list, as a JSON record and through SGF,
/// give the same moves.
#[test]
fn round_trips_on_every_variant() {
    for (name, shape) in VARIANTS {
        for seed in 1..=4 {
            let game = random_game(shape, seed);
            let turns = abstract_play::turns(&game).unwrap();
            let text = turns.join("\n");
            let back = list(&text, shape).unwrap();
            assert_eq!(sgf_moves(&back), sgf_moves(&game), "{name} seed {seed}");
            let winner = game.position().winner().map(|c| c == Color::Black);
            let results = match winner {
                Some(true) => [1, 0],
                Some(false) => [0, 1],
                None => [0, 0],
            };
            let variant = (name != "hex-7").then_some(name);
            let json = json_record(variant, &turns, ["Ann", "Bob"], results);
            let record = abstract_play::parse_json(&json).unwrap();
            assert_eq!(record.board, Some(shape));
            let from_json = abstract_play::replay(&record).unwrap();
            assert_eq!(
                sgf_moves(&from_json),
                sgf_moves(&game),
                "{name} seed {seed}"
            );
            let text = sgf::write(&from_json, &abstract_play::sgf_info(&record, &from_json));
            assert!(text.contains("PB[Ann]PW[Bob]"), "{text}");
            assert!(text.contains("DT[2025-03-04]"), "{text}");
            let reread = sgf::check(&text).unwrap().remove(0).game;
            assert_eq!(abstract_play::turns(&reread).unwrap(), turns);
        }
    }
}

#[test]
fn json_records_that_are_not_oust_records_are_refused() {
    let turns: Vec<String> = ["b1", "a1"].map(String::from).to_vec();
    let good = json_record(Some("square-3"), &turns, ["A", "B"], [0, 0]);
    assert!(abstract_play::parse_json(&good).is_ok());
    let err = |text: &str| abstract_play::parse_json(text).unwrap_err().to_string();
    let cut = &good[..good.len() / 2];
    assert!(
        err(cut)
            .starts_with("not a JSON game record: the JSON ends early, the file may be truncated"),
        "{}",
        err(cut)
    );
    assert_eq!(
        err("{\"header\": {\"game\": {\"name\": \"Oust\"}}, \"moves\": [[\"d4\" \"e5\"]]}"),
        "not a JSON game record: expected `,` or `]` at line 1 column 56"
    );
    assert_eq!(
        err(&good.replace("\"Oust\"", "\"Go\"")),
        "the record is a game of 'Go', not Oust"
    );
    assert_eq!(
        err(&good.replace("square-3", "hex-7x")),
        "unknown Abstract Play variant 'hex-7x': oust reads only the board variants (hex-6, hex-7, hex-8, \
         square-11, or the site's labels such as 'size-7 hex')"
    );
    assert_eq!(
        err(&good.replace("square-3", "fast")),
        "unknown Abstract Play variant 'fast': oust reads only the board variants (hex-6, hex-7, hex-8, \
         square-11, or the site's labels such as 'size-7 hex')"
    );
    assert_eq!(
        err("{\"moves\": []}"),
        "not an Abstract Play Oust record: no \"header\" object"
    );
    assert_eq!(
        err("{\"header\": {\"game\": {\"name\": \"Oust\"}}, \"moves\": [[\"a1\", 3]]}"),
        "not an Abstract Play Oust record: round 1, seat 2: a move that is neither a string nor an object"
    );
    assert_eq!(
        err(
            "{\"header\": {\"game\": {\"name\": \"Oust\"}}, \"moves\": [[\"a1\", \"b1\", \"c1\"]]}"
        ),
        "not an Abstract Play Oust record: round 1 of \"moves\" has 3 entries, one per seat of two"
    );
    // A turn in the wrong seat.
    let record = abstract_play::parse_json(
        "{\"header\": {\"game\": {\"name\": \"Oust\", \"variants\": [\"square-3\"]}}, \"moves\": [[\"b1\", null], [\"a1\"]]}",
    )
    .unwrap();
    assert_eq!(
        abstract_play::replay(&record).unwrap_err().to_string(),
        "turn 2 ('a1', round 2, seat 1): it is in seat 1's place, but white (seat 2) is to move"
    );
}

/// The directory of this test process's scratch files.
fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("oust-ap-{}", std::process::id()))
}

fn scratch(name: &str) -> PathBuf {
    let dir = scratch_dir();
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Removes the directory of [`scratch`]'s files when dropped: the test that writes them holds one, so that the
/// directory goes when the test ends, passed or failed.
struct RemoveScratch;

impl Drop for RemoveScratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(scratch_dir());
    }
}

fn oust(args: &[&str]) -> Output {
    Command::new(OUST).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn ap_import_and_export_through_the_binary() {
    let _remove = RemoveScratch;
    let turns = scratch("hand.txt");
    std::fs::write(&turns, HAND_3X3).unwrap();
    let out = oust(&[
        "ap-import",
        "--variant",
        "square-3",
        turns.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "(;FF[4]GM[1]CA[UTF-8]AP[oust:0.1.0]SZ[3]GN[Oust]RE[B+]C[Imported from Abstract Play]\n\
         ;B[bc];W[ac];B[cb];W[aa];B[cc];B[ba];W[ab];W[ca]\n\
         ;B[ba];W[];B[ac])\n"
            .replace("0.1.0", env!("CARGO_PKG_VERSION"))
    );
    let sgf_file = scratch("hand.sgf");
    let out = oust(&[
        "ap-import",
        "--variant",
        "square-3",
        turns.to_str().unwrap(),
        "-o",
        sgf_file.to_str().unwrap(),
    ]);
    assert!(out.status.success() && out.stdout.is_empty());
    let out = oust(&["ap-export", sgf_file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), HAND_3X3);
    assert!(text(&out.stderr).contains("9 turns on Abstract Play's square-3"));

    // A refused turn writes nothing, and an existing output stays whole.
    let bad = scratch("bad.txt");
    std::fs::write(&bad, "b1\na1\na3,c3\n").unwrap();
    let out = oust(&[
        "ap-import",
        "--variant",
        "square-3",
        bad.to_str().unwrap(),
        "-o",
        sgf_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        format!(
            "oust: {}: turn 3 ('a3,c3', line 3): a3 captures nothing, so the turn ends there, yet it goes on\n",
            bad.display()
        )
    );
    assert!(std::fs::read_to_string(&sgf_file).unwrap().contains("W[]"));

    // The default board is hex-7, Abstract Play's own; a JSON record names its board.
    let json = scratch("game.json");
    std::fs::write(
        &json,
        json_record(
            Some("hex-6"),
            &["a1".into(), "f11".into()],
            ["Ann", "Bob"],
            [0, 0],
        ),
    )
    .unwrap();
    let out = oust(&["ap-import", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("SZ[11]HX[6]GN[Oust]PB[Ann]PW[Bob]DT[2025-03-04]"));
    assert!(text(&out.stdout).contains(
        "C[Imported from Abstract Play, game 7d5e1c2a-test. Abstract Play records no winner before the end on the \
         board (an abandoned game)]"
    ));
    let out = oust(&["ap-import", "--variant", "hex-7", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("the record is a game on hex-6, not on --variant hex-7\n"));
    let out = oust(&["ap-import", "--variant", "hex-9x", json.to_str().unwrap()]);
    assert_eq!(
        text(&out.stderr),
        "oust: unknown Abstract Play board variant 'hex-9x': expected hex-6, hex-7, hex-8 or square-11 (also \
         written hex7, or as the site's labels such as 'size-7 hex')\n"
    );
    std::fs::write(
        &json,
        "{\"header\": {\"game\": {\"name\": \"Oust\"}}, \"mov",
    )
    .unwrap();
    let out = oust(&["ap-import", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("the JSON ends early, the file may be truncated"));

    // Export refuses what Abstract Play cannot hold.
    let rect = scratch("rect.sgf");
    std::fs::write(&rect, "(;FF[4]GM[1]SZ[5:3];B[aa])").unwrap();
    let out = oust(&["ap-export", rect.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .ends_with("Abstract Play has no 5x3 board: only hexhex and square ones\n"),
        "{}",
        text(&out.stderr)
    );
    let setup = scratch("setup.sgf");
    std::fs::write(&setup, "(;FF[4]GM[1]SZ[5]AB[aa];B[cc])").unwrap();
    let out = oust(&["ap-export", setup.to_str().unwrap()]);
    assert!(text(&out.stderr).ends_with(
        "the record starts from a set-up position, which an Abstract Play turn list cannot give\n"
    ));
}

/// A capture that leaves its player no placement ends the turn: the rules' forced pass is implied.
#[test]
fn a_capture_that_leaves_no_placement_ends_the_turn() {
    for seed in 1..=3000 {
        let game = random_game(Shape::square(4), seed);
        let records = game.records();
        let found = records
            .windows(2)
            .any(|w| w[0].report.extra_turn && w[1].mv == Move::Pass && w[1].color == w[0].color);
        if !found {
            continue;
        }
        let turns = abstract_play::turns(&game).unwrap();
        assert!(!turns.iter().any(|t| t.contains("pass") && t.contains(',')));
        let back = list(&turns.join("\n"), Shape::square(4)).unwrap();
        assert_eq!(sgf_moves(&back), sgf_moves(&game));
        return;
    }
    panic!("no game in 3000 has a capture followed by a forced pass");
}

// ---- Records as the site publishes them (gameslib's genRecord through the site's records job) ----

/// A record in the site's form: the variant's English label in `header.game.variants` (or none), the variant id
/// only in `header.site.gameid` after `#oust:` (empty for the default hex-7), each winner's result 1 and everyone
/// else's 0, and rounds of one entry per seat (a string; an object with `move` and `result` where the site adds
/// what happened).
fn site_record(labels: &[&str], id_variant: &str, turns: &[String], results: [i64; 2]) -> String {
    let rounds: Vec<serde_json::Value> = turns
        .chunks(2)
        .enumerate()
        .map(|(i, c)| {
            if i % 3 == 2 {
                json!(
                    c.iter()
                        .map(|t| json!({"move": t, "result": [{"type": "place", "where": t}]}))
                        .collect::<Vec<_>>()
                )
            } else {
                json!(c)
            }
        })
        .collect();
    json!({
        "header": {
            "game": {"name": "Oust", "variants": labels},
            "site": {
                "name": "Abstract Play",
                "gameid": format!("0b7e9a52-5d1c-4c7e-9a41-2f3d1e6b8c90#oust:{id_variant}")
            },
            "date-start": "2025-06-01T09:12:44.000Z",
            "date-end": "2025-06-09T21:03:10.512Z",
            "date-generated": "2025-06-10T00:00:02.000Z",
            "players": [
                {"name": "Ann", "userid": "5c0d6e1f", "is_ai": false, "result": results[0]},
                {"name": "Bob", "userid": "9a8b7c6d", "is_ai": false, "result": results[1]}
            ],
            "turn-model": "sequential"
        },
        "moves": rounds
    })
    .to_string()
}

/// The results the site gives a game the board decides.
fn board_results(game: &Game) -> [i64; 2] {
    match game.position().winner() {
        Some(Color::Black) => [1, 0],
        Some(Color::White) => [0, 1],
        None => [1, 1],
    }
}

/// Issue 24, point 1: the board comes from the site's English label (`size-7 hex`) or from the game id
/// (`#oust:hex-6`, `#oust:` for the default hex-7); the ids keep working; two places that disagree are refused,
/// naming both.
#[test]
fn site_labels_and_game_ids_name_the_board() {
    let labels = [
        ("size-6 hex", "hex-6"),
        ("size-7 hex", ""),
        ("size-8 hex", "hex-8"),
        ("size-11 square", "square-11"),
    ];
    for ((label, id), (name, shape)) in labels.into_iter().zip(VARIANTS) {
        assert_eq!(abstract_play::parse_variant(label), Ok(shape), "{label}");
        let game = random_game(shape, 7);
        let turns = abstract_play::turns(&game).unwrap();
        let results = board_results(&game);
        // Label and id together, as the site writes them; each alone; the id in the variants.
        for (variants, id) in [
            (vec![label], id),
            (vec![], id),
            (vec![label], "x"),
            (vec![name], id),
        ] {
            let json = site_record(&variants, id, &turns, results);
            let record = abstract_play::parse_json(&json)
                .unwrap_or_else(|e| panic!("{name} {variants:?} {id}: {e}"));
            assert_eq!(record.board, Some(shape), "{name} {variants:?} {id}");
            let back = abstract_play::replay(&record).unwrap();
            assert_eq!(sgf_moves(&back), sgf_moves(&game), "{name}");
        }
    }
    // The engine's own names, and the label's spacing and case.
    for (text, side) in [
        ("hex7", 7),
        ("HEX-8", 8),
        ("Size-6 Hex", 6),
        ("size-7  hex", 7),
    ] {
        assert_eq!(
            abstract_play::parse_variant(text),
            Ok(Shape::Hex { side }),
            "{text}"
        );
    }
    assert_eq!(
        abstract_play::parse_variant("square11"),
        Ok(Shape::square(11))
    );
    let turns: Vec<String> = vec!["g7".into(), "a1".into()];
    let err = |labels: &[&str], id: &str| {
        abstract_play::parse_json(&site_record(labels, id, &turns, [0, 0]))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(&["size-6 hex"], ""),
        "the record names two boards: its variants say 'size-6 hex' (hex-6), its game id \
         '0b7e9a52-5d1c-4c7e-9a41-2f3d1e6b8c90#oust:' says hex-7"
    );
    assert_eq!(
        err(&["size-7 hex"], "square-11"),
        "the record names two boards: its variants say 'size-7 hex' (hex-7), its game id \
         '0b7e9a52-5d1c-4c7e-9a41-2f3d1e6b8c90#oust:square-11' says square-11"
    );
    assert_eq!(
        err(&["size-6 hex", "size-8 hex"], "hex-6"),
        "the record's variants name two boards: 'size-6 hex' and 'size-8 hex'"
    );
}

/// A random hex-7 game cut short: its turns up to and without the last `cut` turns, with the side to move then.
fn unfinished_hex7(seed: u64, cut: usize) -> (Vec<String>, Game) {
    let game = random_game(Shape::Hex { side: 7 }, seed);
    let mut turns = abstract_play::turns(&game).unwrap();
    turns.truncate(turns.len() - cut);
    let played = list(&turns.join("\n"), Shape::Hex { side: 7 }).unwrap();
    (turns, played)
}

/// Imports a site record: its SGF text, which `sgf::check` accepts.
fn import(json: &str) -> String {
    let record = abstract_play::parse_json(json).unwrap();
    let game = abstract_play::replay(&record).unwrap();
    let text = sgf::write(&game, &abstract_play::sgf_info(&record, &game));
    sgf::check(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    text
}

/// Issue 24, point 2: a game that ends by resignation, timeout, agreed draw or abandonment has a last entry
/// `resign`, `timeout`, `draw` or `abandoned`, in the slot of the seat to move. RE comes from the header's result
/// (`B+R`, `W+T`, `0`; none when abandoned), whoever's slot the entry is in, and the comment says the board did not
/// reach the end.
#[test]
fn final_entries_end_the_game_with_the_header_s_result() {
    let (mut turns, game) = unfinished_hex7(11, 6);
    assert_eq!(game.position().status(), Status::Ongoing);
    let to_move_seat = usize::from(game.position().to_move() == Color::White);
    let re = |text: &str| {
        text.split("RE[")
            .nth(1)
            .map(|r| r.split(']').next().unwrap().to_string())
    };
    let comment = |text: &str| {
        text.split("C[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap()
            .to_string()
    };
    turns.push("resign".into());
    // The seat to move resigns (the other seat wins), and the seat to move wins (the other resigned while not
    // to move): the slot does not say who resigned, the header does.
    for (results, code) in [([1, 0], "B+R"), ([0, 1], "W+R")] {
        let text = import(&site_record(&["size-7 hex"], "", &turns, results));
        assert_eq!(re(&text).as_deref(), Some(code), "{text}");
        let c = comment(&text);
        assert!(
            c.contains("The board did not reach the end: the game ended by a resignation, and Abstract Play gives the win to"),
            "{c}"
        );
        assert!(text.contains("PB[Ann]PW[Bob]DT[2025-06-09]"), "{text}");
    }
    let n = turns.len();
    turns[n - 1] = "timeout".into();
    let text = import(&site_record(&["size-7 hex"], "", &turns, [0, 1]));
    assert_eq!(re(&text).as_deref(), Some("W+T"));
    assert!(comment(&text).ends_with(
        "The board did not reach the end: the game ended by a timeout, and Abstract Play gives the win to white"
    ));
    turns[n - 1] = "draw".into();
    let text = import(&site_record(&["size-7 hex"], "", &turns, [1, 1]));
    assert_eq!(re(&text).as_deref(), Some("0"));
    assert!(comment(&text).ends_with("the game ended by an agreed draw"));
    // Abandoned: both results 0, no RE, and not called a draw.
    turns[n - 1] = "abandoned".into();
    let text = import(&site_record(&["size-7 hex"], "", &turns, [0, 0]));
    assert_eq!(re(&text), None, "{text}");
    assert!(comment(&text).ends_with("the game ended by abandonment, with no result"));
    assert!(!comment(&text).contains("draw"));
    // The entry sits in the slot of the seat to move, as a string or as an object.
    let json = site_record(&["size-7 hex"], "", &turns, [0, 0]);
    let record = abstract_play::parse_json(&json).unwrap();
    assert_eq!(record.turns.last().unwrap().seat, Some(to_move_seat));
    assert_eq!(record.ending(), Some(abstract_play::Ending::Abandoned));

    // Refusals: results that do not fit the entry, an entry that is not last, an entry after a win on the board.
    let refusal = |turns: &[String], results: [i64; 2]| {
        let record =
            abstract_play::parse_json(&site_record(&["size-7 hex"], "", turns, results)).unwrap();
        abstract_play::replay(&record).unwrap_err().to_string()
    };
    turns[n - 1] = "resign".into();
    assert_eq!(
        refusal(&turns, [1, 1]),
        format!(
            "turn {n} ('resign', round {}, seat {}): the game ends with 'resign', but the record's header gives a draw",
            n.div_ceil(2),
            to_move_seat + 1
        )
    );
    turns[n - 1] = "draw".into();
    assert!(
        refusal(&turns, [0, 1])
            .ends_with("the game ends with 'draw', but the record's header gives seat 2 won")
    );
    turns[n - 1] = "resign".into();
    turns.push("g7".into());
    assert!(
        refusal(&turns, [1, 0]).ends_with(&format!(
            "the game ended with 'resign' (turn {n}), yet the record goes on"
        )),
        "{}",
        refusal(&turns, [1, 0])
    );
    let won = random_game(Shape::Hex { side: 7 }, 12);
    let mut turns = abstract_play::turns(&won).unwrap();
    turns.push("resign".into());
    assert!(
        refusal(&turns, board_results(&won)).contains("the game is already over: "),
        "{}",
        refusal(&turns, board_results(&won))
    );
}

/// Issue 24, point 3: a file that is an array of records (the site's published files) gives each record, a bad one
/// in its place without stopping the others; an array of one record is that record.
#[test]
fn arrays_of_records_give_every_record() {
    let a = random_game(Shape::Hex { side: 6 }, 1);
    let b = random_game(Shape::square(11), 2);
    let (mut c, _) = unfinished_hex7(3, 4);
    c.push("timeout".into());
    let rec = |labels: &[&str], id: &str, turns: Vec<String>, results| {
        site_record(labels, id, &turns, results)
    };
    let records = [
        rec(
            &["size-6 hex"],
            "hex-6",
            abstract_play::turns(&a).unwrap(),
            board_results(&a),
        ),
        rec(
            &["size-11 square"],
            "square-11",
            vec!["a1".into(), "z9".into()],
            [1, 0],
        ),
        rec(
            &["size-11 square"],
            "square-11",
            abstract_play::turns(&b).unwrap(),
            board_results(&b),
        ),
        rec(&["size-7 hex"], "", c, [1, 0]),
        "{\"header\": {\"game\": {\"name\": \"Hex\"}}, \"moves\": []}".to_string(),
    ];
    let array = format!("[\n{}\n]\n", records.join(",\n"));
    assert!(abstract_play::is_json(&array));
    let read = abstract_play::parse_records(&array).unwrap();
    assert_eq!(read.len(), 5);
    let replayed: Vec<Result<Game, String>> = read
        .into_iter()
        .map(|r| {
            r.map_err(|e| e.to_string())
                .and_then(|r| abstract_play::replay(&r).map_err(|e| e.to_string()))
        })
        .collect();
    assert_eq!(sgf_moves(replayed[0].as_ref().unwrap()), sgf_moves(&a));
    assert_eq!(
        replayed[1].as_ref().unwrap_err(),
        "turn 2 ('z9', round 1, seat 2): z9 is off the board: the 11x11 board has columns a to k and rows 1 to 11"
    );
    assert_eq!(sgf_moves(replayed[2].as_ref().unwrap()), sgf_moves(&b));
    assert!(replayed[3].is_ok());
    assert_eq!(
        replayed[4].as_ref().unwrap_err(),
        "the record is a game of 'Hex', not Oust"
    );
    // One record in an array is that record; more are refused by the one-record reader, saying so.
    let one = format!("[{}]", records[0]);
    assert_eq!(
        abstract_play::parse_json(&one).unwrap(),
        abstract_play::parse_json(&records[0]).unwrap()
    );
    assert_eq!(
        abstract_play::parse_json(&array).unwrap_err().to_string(),
        "the file is an array of 5 records, not one record"
    );
    assert_eq!(
        abstract_play::parse(&one, Shape::square(3)).unwrap().board,
        Some(Shape::Hex { side: 6 })
    );
}

/// The turns of a square-11 game that fills the board as a checkerboard: 121 quiet placements, after which
/// neither player can place (ruling 8: over without a winner).
fn checkerboard_11() -> Vec<String> {
    let g = geo(Shape::square(11));
    let cells = |parity: usize| -> Vec<String> {
        (0..11)
            .flat_map(|y| (0..11).map(move |x| (x, y)))
            .filter(|(x, y)| (x + y) % 2 == parity)
            .map(|(x, y)| cell_name(&g, g.point_at(x, y).unwrap()))
            .collect()
    };
    let (black, white) = (cells(0), cells(1));
    let mut turns = Vec::new();
    for (i, b) in black.iter().enumerate() {
        turns.push(b.clone());
        if let Some(w) = white.get(i) {
            turns.push(w.clone());
        }
    }
    turns
}

/// Issue 24, point 4: where neither player can place, oust ends the game without a winner, and the site asks
/// both players to pass for ever. Trailing passes are accepted and told in a comment; a resignation or timeout
/// after them is imported as that, with the winner the header names.
#[test]
fn ruling_8_trailing_passes_and_a_resignation_after_them() {
    let mut turns = checkerboard_11();
    assert_eq!(turns.len(), 121);
    let full = list(&turns.join("\n"), Shape::square(11)).unwrap();
    assert_eq!(
        full.position().status(),
        Status::Over(oust::rules::Outcome::Draw)
    );
    turns.extend(["pass", "pass", "pass"].map(String::from));
    // As a turn list: the passes are accepted, the board's result is 0.
    let game = list(&turns.join("\n"), Shape::square(11)).unwrap();
    assert_eq!(game.records().len(), 121);
    let record = abstract_play::parse_list(&turns.join("\n"), Shape::square(11));
    let text = sgf::write(&game, &abstract_play::sgf_info(&record, &game));
    assert!(text.contains("RE[0]"), "{text}");
    assert!(
        text.contains(
            "The board ends without a winner: neither player can place (oust's ruling 8, result 0); Abstract Play, \
             which has no such ruling, asks both players to pass there, and the record has 3 passes after it"
        ),
        "{text}"
    );
    // As the site has it: a timeout after the passes, the header naming White (seat 2) the winner.
    turns.push("timeout".into());
    let json = site_record(&["size-11 square"], "square-11", &turns, [0, 1]);
    let text = import(&json);
    assert!(text.contains("RE[W+T]"), "{text}");
    assert!(
        text.contains("3 passes after it. After that the game ended by a timeout, and Abstract Play gives the win to white"),
        "{text}"
    );
    // Without the timeout the header's winner is one the board does not reach: refused, as before.
    turns.pop();
    let record = abstract_play::parse_json(&site_record(
        &["size-11 square"],
        "square-11",
        &turns,
        [0, 1],
    ))
    .unwrap();
    assert_eq!(
        abstract_play::replay(&record).unwrap_err().to_string(),
        "the record's result (seat 2 won) is not the one its moves reach (0 (neither player can place)), and no \
         resignation or timeout ends the record"
    );
    // Only passes may follow the end.
    turns.push("a1".into());
    assert_eq!(
        list(&turns.join("\n"), Shape::square(11))
            .unwrap_err()
            .to_string(),
        "turn 125 ('a1', line 125): the game is already over: 0 (neither player can place)"
    );
}

/// Issue 24, point 5: the site offers no pie rule for Oust; where it offers one it exchanges the players and marks
/// the record (`pie-invoked`), writing no swap move. Such a mark is told in the comment and changes no move; oust's
/// own `swap` turn still reads.
#[test]
fn the_site_marks_the_pie_rule_and_writes_no_swap() {
    let game = random_game(Shape::Hex { side: 6 }, 4);
    let turns = abstract_play::turns(&game).unwrap();
    let json = site_record(&["size-6 hex"], "hex-6", &turns, board_results(&game)).replacen(
        "\"turn-model\"",
        "\"pie-invoked\":true,\"turn-model\"",
        1,
    );
    let record = abstract_play::parse_json(&json).unwrap();
    assert!(record.pie_invoked);
    let back = abstract_play::replay(&record).unwrap();
    assert!(!back.pie());
    assert_eq!(sgf_moves(&back), sgf_moves(&game));
    let info = abstract_play::sgf_info(&record, &back);
    assert!(
        info.comment.as_deref().unwrap().ends_with(
            "The record says the pie rule was invoked: Abstract Play exchanges the players for it and writes no \
             swap move, so the players are as the record lists them"
        ),
        "{:?}",
        info.comment
    );
    // oust's own extension: a `swap` turn, after which the seats play the other colours.
    let swapped = list("b2\nswap\na1\n", Shape::square(3)).unwrap();
    assert!(swapped.pie());
    assert_eq!(sgf_moves(&swapped), ["B B2", "W swap", "W A1"]);
}

/// Issue 24, points 1 to 3 through the binary: `oust ap-import` of a site record file that is an array gives one
/// SGF collection of the records it imports; a refused record is reported with its index and left out, the others
/// are written, and the exit status is 1. `--variant hex7` reads as `--variant hex-7`.
#[test]
fn ap_import_of_an_array_of_site_records() {
    let dir = common::TempDir::new("array");
    let site = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/suites/ap/site-hex7-resign.json"
    ))
    .unwrap();
    let hex6 = random_game(Shape::Hex { side: 6 }, 9);
    let records = [
        site.clone(),
        site_record(
            &["size-11 square"],
            "square-11",
            &["a1".into(), "z9".into()],
            [1, 0],
        ),
        site_record(
            &["size-6 hex"],
            "hex-6",
            &abstract_play::turns(&hex6).unwrap(),
            board_results(&hex6),
        ),
    ];
    let array = dir.file("records.json", &format!("[{}]", records.join(",")));
    let out = oust(&["ap-import", &array]);
    assert_eq!(out.status.code(), Some(1));
    let collection = text(&out.stdout);
    assert_eq!(collection.matches("(;FF[4]").count(), 2, "{collection}");
    assert!(collection.starts_with(
        "(;FF[4]GM[1]CA[UTF-8]AP[oust:0.1.0]SZ[13]HX[7]GN[Oust]PB[Ann]PW[Bob]DT[2025-05-02]RE[W+R]C[Imported from \
         Abstract Play, game 3f6c2d90-8b1e-4a57-b0c4-71e9d2a5f318#oust:. The board did not reach the end: the game \
         ended by a resignation, and Abstract Play gives the win to white]\n;B[gg];W[am];B[ma];W[gm];B[ag];W[mg])\n"
            .replace("0.1.0", env!("CARGO_PKG_VERSION"))
            .as_str()
    ));
    assert!(collection.contains("SZ[11]HX[6]"));
    assert_eq!(
        text(&out.stderr),
        format!(
            "oust: {array}: record 2 of 3 (game 0b7e9a52-5d1c-4c7e-9a41-2f3d1e6b8c90#oust:square-11): turn 2 ('z9', \
             round 1, seat 2): z9 is off the board: the 11x11 board has columns a to k and rows 1 to 11\n\
             oust: {array}: 2 of 3 imported, 1 refused\n"
        )
    );
    // Into a file: the same collection, which sgf-check reads as two games.
    let sgf_file = dir.join("records.sgf").display().to_string();
    let out = oust(&["ap-import", &array, "-o", &sgf_file]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&sgf_file).unwrap(), collection);
    let out = oust(&["sgf-check", &sgf_file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(": ok: 2 games; game 1: hex7, 6 moves, unfinished"));
    // Every record refused: nothing written.
    let bad = dir.file("bad.json", &format!("[{}]", records[1]));
    let out = oust(&["ap-import", &bad, "-o", &sgf_file]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).ends_with("no record imported, of 1 record\n"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&sgf_file).unwrap(), collection);
    // A single site record; --variant in the engine's spelling.
    let one = dir.file("one.json", &site);
    for variant in ["hex7", "hex-7"] {
        let out = oust(&["ap-import", "--variant", variant, &one]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("RE[W+R]"));
    }
    let out = oust(&["ap-import", "--variant", "hex6", &one]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("the record is a game on hex-7, not on --variant hex6\n"));
}

/// The guide's examples (docs/abstract-play.md) show the repository's site records as they are; tests/docs.rs runs
/// its transcripts, so what `oust ap-import` writes of them is checked there.
#[test]
fn the_guide_shows_the_site_records_as_they_are() {
    let root = env!("CARGO_MANIFEST_DIR");
    let guide = std::fs::read_to_string(format!("{root}/docs/abstract-play.md")).unwrap();
    let json =
        std::fs::read_to_string(format!("{root}/tests/suites/ap/site-hex7-resign.json")).unwrap();
    assert!(
        guide.contains(&format!("```json\n{json}```\n")),
        "the guide shows tests/suites/ap/site-hex7-resign.json"
    );
    for file in ["site-hex7-resign.json", "site-records.json"] {
        assert!(
            guide.contains(&format!(
                "```transcript\n$ oust ap-import tests/suites/ap/{file}\n"
            )),
            "{file}"
        );
    }
    // The array holds that record and a bad one.
    let array =
        std::fs::read_to_string(format!("{root}/tests/suites/ap/site-records.json")).unwrap();
    let records = abstract_play::parse_records(&array).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(
        records[0].as_ref().unwrap(),
        &abstract_play::parse_json(&json).unwrap()
    );
}
