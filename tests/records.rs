//! Game records through the protocol (issue 24): the rules a loaded record brings stay with its game, the board a
//! record is read on, board names written as Abstract Play writes them, and paths in quotes.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use oust::gtp::{Engine, Options};
use oust::rng::Rng;
use oust::rules::{Game, Geometry, Shape, Status};
use oust::sgf;

use common::transcript;

fn fresh() -> Engine {
    Engine::new(Options::default()).unwrap()
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites")
        .join(name)
        .display()
        .to_string()
}

/// Issue 24, point 8: a loaded `RU[pie]` record (or a turn list with a swap) plays under the pie rule, but the
/// next `clear_board` returns to the engine's configured setting, both ways.
#[test]
fn a_loaded_record_s_pie_rule_stays_with_its_game() {
    let dir = common::TempDir::new("pie");
    let swap_list = dir.file("swap.txt", "b2\nswap\na1\n");
    let pie = fixture("sgf/pie-swap.sgf");
    let plain = fixture("sgf/gogui-human-game.sgf");
    let mut e = fresh();
    let out = transcript(
        &mut e,
        &format!(
            "1 loadsgf {pie}\n2 oust-get-param pie\n3 clear_board\n4 play b C3\n5 play w swap\n\
             6 loadap {swap_list} square-3\n7 clear_board\n8 play b B2\n9 play w swap\n"
        ),
    );
    assert_eq!(
        out,
        "=1\n\n=2 off\n\n=3\n\n=4\n\n?5 illegal move: swap is illegal: the pie rule is off\n\n\
         =6\n\n=7\n\n=8\n\n?9 illegal move: swap is illegal: the pie rule is off\n\n"
    );
    // The record's own game did have the rule: printsgf says RU[pie] and the swap.
    let out = transcript(&mut e, &format!("loadsgf {pie}\nprintsgf\nshowboard\n"));
    assert!(
        out.contains("RU[pie]") && out.contains("W[swap-sides]"),
        "{out}"
    );
    // Configured on, a record without the rule plays without it, and the next game has it again.
    let mut e = fresh();
    let out = transcript(
        &mut e,
        &format!(
            "1 oust-set-param pie on\n2 loadsgf {plain} 2\n3 play w swap\n4 clear_board\n5 oust-get-param pie\n\
             6 play b C3\n7 play w swap\n"
        ),
    );
    assert_eq!(
        out,
        "=1\n\n=2\n\n?3 illegal move: swap is illegal: the pie rule is off\n\n=4\n\n=5 on\n\n=6\n\n=7 swapped\n\n"
    );
}

/// Issue 24, point 9: `oust-set-param pie off` in a game with a swap is refused for what it is, not as a syntax
/// error; a value the parameter does not take still is one.
#[test]
fn pie_off_after_a_swap_names_the_real_reason() {
    let mut e = fresh();
    let out = transcript(
        &mut e,
        "1 oust-set-param pie on\n2 play b C3\n3 play w swap\n4 oust-set-param pie off\n5 oust-get-param pie\n\
         6 oust-set-param pie maybe\n7 undo\n8 oust-set-param pie off\n",
    );
    assert_eq!(
        out,
        "=1\n\n=2\n\n=3 swapped\n\n\
         ?4 pie: the game has a swap, so the pie rule stays on until a new game (or undo the swap)\n\n=5 on\n\n\
         ?6 syntax error: pie: expected on or off, got 'maybe'\n\n=7\n\n=8\n\n"
    );
}

/// Issue 24, point 7: `hex7` and `hex-7` name the same board everywhere: in `loadap`'s VARIANT, in `oust-board`
/// and in the board names of the command line.
#[test]
fn hex7_and_hex_dash_7_name_the_same_board() {
    let dir = common::TempDir::new("names");
    let turns = dir.file("hex.txt", "g7\na1\nm7\n");
    for name in ["hex7", "hex-7", "HEX7"] {
        assert_eq!(Shape::parse(name), Ok(Shape::Hex { side: 7 }), "{name}");
        assert_eq!(
            oust::abstract_play::parse_variant(name),
            Ok(Shape::Hex { side: 7 }),
            "{name}"
        );
    }
    assert_eq!(Shape::parse("square-11"), Ok(Shape::square(11)));
    let mut e = fresh();
    let out = transcript(
        &mut e,
        &format!(
            "1 loadap {turns} hex7\n2 oust-board\n3 oust-board hex-6\n4 loadap {turns} hex-7\n5 oust-board\n\
             6 loadap {turns} hex--7\n"
        ),
    );
    assert_eq!(
        out,
        "=1\n\n=2 hex7\n\n=3\n\n=4\n\n=5 hex7\n\n?6 syntax error: unknown Abstract Play board variant 'hex--7': \
         expected hex-6, hex-7, hex-8 or square-11 (also written hex7, or as the site's labels such as 'size-7 \
         hex')\n\n"
    );
    assert_eq!(e.game().records().len(), 3);
    let out = Command::new(env!("CARGO_BIN_EXE_oust"))
        .args(["--size", "hex-7"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 24, point 7: a path in quotes. GTP splits arguments at spaces: quotes around a path are taken off, and a
/// quote left open is refused for that reason instead of a wrong move number or a missing file.
#[test]
fn quoted_paths_are_read_or_refused_for_what_they_are() {
    let dir = common::TempDir::new("quotes");
    let printed = dir.join("printed.sgf").display().to_string();
    let pie = fixture("sgf/pie-swap.sgf");
    let mut e = fresh();
    let out = transcript(
        &mut e,
        &format!(
            "1 loadsgf \"{pie}\"\n2 loadsgf '{pie}' 2\n3 printsgf \"{printed}\"\n4 loadsgf \"my game.sgf\"\n\
             5 loadsgf \"my game.sgf\" 3\n6 loadap \"my game.json\"\n7 loadsgf \"\"\n"
        ),
    );
    assert_eq!(
        out,
        "=1\n\n=2\n\n=3\n\n\
         ?4 syntax error: the path \"my opens a quote it does not close: arguments are split at spaces and quotes \
         do not join them, so a path cannot hold a space\n\n\
         ?5 syntax error: loadsgf takes 1 to 2 arguments (FILE [MOVE_NUMBER]), got 3; arguments are split at \
         spaces, and quotes do not join them\n\n\
         ?6 syntax error: the path \"my opens a quote it does not close: arguments are split at spaces and quotes \
         do not join them, so a path cannot hold a space\n\n\
         ?7 syntax error: the path \"\" opens a quote it does not close: arguments are split at spaces and quotes \
         do not join them, so a path cannot hold a space\n\n"
    );
    assert_eq!(e.game().records().len(), 1);
    assert!(std::fs::read_to_string(&printed).unwrap().contains("B[ee]"));
}

/// A random hexhex game of side 7 played to the end, as oust writes it but without its `HX[7]`: an `AP[oust:...]`
/// record with `SZ[13]` alone.
fn hex7_record_without_hx(seed: u64) -> (String, Game) {
    let geo = Arc::new(Geometry::new(Shape::Hex { side: 7 }).unwrap());
    let mut game = Game::new(geo);
    let mut rng = Rng::new(seed);
    while !matches!(game.position().status(), Status::Over(_)) {
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        let color = game.position().to_move();
        game.play(color, mv).unwrap();
    }
    let text = sgf::write(&game, &sgf::GameInfo::default()).replace("HX[7]", "");
    assert!(text.contains("AP[oust:") && text.contains("SZ[13]GN"));
    (text, game)
}

/// Issue 24, point 5: a record without oust's hexhex property is read on the board asked for (`--size hex7`, or
/// the engine's hexhex board for `loadsgf`), not guessed square from its `AP`; where the record's own board
/// property says otherwise, that board is used and the note says so.
#[test]
fn the_board_asked_for_wins_over_the_guess() {
    let hex7 = Shape::Hex { side: 7 };
    let (text, game) = hex7_record_without_hx(3);
    // As 13x13 the moves are another game, refused or different.
    if let Ok(square) = sgf::check(&text) {
        assert_ne!(square[0].game.records(), game.records());
    }
    let record = sgf::parse_for(&text, Some(hex7)).unwrap();
    assert_eq!(record.board, hex7);
    assert_eq!(sgf::board_note(&record, hex7), None);
    let checked = sgf::check_for(&text, Some(hex7)).unwrap();
    assert_eq!(checked[0].game.records(), game.records());
    // The record's own HX wins over the board asked for, and the note says which was used.
    let hex6 = sgf::parse_for("(;FF[4]GM[1]SZ[11]HX[6];B[ff])", Some(hex7)).unwrap();
    assert_eq!(hex6.board, Shape::Hex { side: 6 });
    assert_eq!(
        sgf::board_note(&hex6, hex7).as_deref(),
        Some("read as the record's own board, hex6 (from its SZ and HX)")
    );
    let dir = common::TempDir::new("board");
    let file = dir.file("hex7.sgf", &text);
    let mut e = fresh();
    let out = transcript(
        &mut e,
        &format!("oust-board hex7\nloadsgf {file}\noust-board\n"),
    );
    assert_eq!(out, "=\n\n=\n\n= hex7\n\n");
    assert_eq!(e.game().records(), game.records());
    let hex6 = dir.file("hex6.sgf", "(;FF[4]GM[1]SZ[11]HX[6];B[ff])");
    for command in ["sgf-check", "ap-export"] {
        let run = |file: &str| {
            Command::new(env!("CARGO_BIN_EXE_oust"))
                .args([command, "--size", "hex7", file])
                .output()
                .unwrap()
        };
        let out = run(&file);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{command}: {stderr}");
        assert!(!stderr.contains("own board"), "{stderr}");
        // The record's HX[6] against --size hex7: its own board is used, and stderr says so.
        let out = run(&hex6);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{command}: {stderr}");
        assert!(
            stderr.starts_with(&format!(
                "{hex6}: read as the record's own board, hex6 (from its SZ and HX), not as --size hex7\n"
            )),
            "{command}: {stderr}"
        );
    }
}
