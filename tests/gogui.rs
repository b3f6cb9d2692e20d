//! GoGui support, end to end: exact transcripts of what GoGui 1.6 sends to the program and to the ruler (taken
//! from real sessions), games saved by GoGui, `printsgf` to a file, `oust sgf-check` and `--reports`.

use std::path::{Path, PathBuf};
use std::process::Output;

use oust::gtp::{ANALYZE_COMMANDS, COMMANDS, Engine, Options};
use oust::rules::{Color, Status};
use oust::sgf;

mod common;

use common::transcript;

fn fresh() -> Engine {
    Engine::new(Options::default()).unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suites/sgf")
        .join(name)
}

fn run_binary(args: &[&str], input: &str) -> Output {
    common::run_binary(args, input.as_bytes())
}

/// The program's side of GoGui 1.6 starting `oust --size hex7`, as a logging engine recorded it: GoGui sends its
/// player `boardsize 13`, the side of the rhombus, and the engine stays on the hexhex board of side 7.
#[test]
fn gogui_start_up_on_a_hexhex_board() {
    let input = "name\nprotocol_version\nversion\nlist_commands\ngogui-rules_game_id\nboardsize 13\nclear_board\n\
                 komi 6.5\ngogui-rules_game_id\ngogui-rules_board_size\nname\nprotocol_version\n\
                 gogui-rules_board_size\ngogui-analyze_commands\nboardsize 13\nclear_board\n\
                 gogui-rules_board_size\noust-board\nplay B A1\nplay W N13\nplay B A13\n";
    let out = run_binary(
        &["--size", "hex7", "--playouts", "50", "--threads", "1"],
        input,
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let responses: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(responses[9], "= 13 hex", "{text}");
    assert_eq!(responses[12], "= 13 hex", "{text}");
    assert_eq!(responses[16], "= 13 hex", "{text}");
    assert_eq!(responses[17], "= hex7", "{text}");
    assert_eq!(&responses[18..20], ["=", "="], "{text}");
    assert_eq!(
        responses[20],
        "? illegal move: A13 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not"
    );
    // Any other size is the square board; an engine started on a square board takes boardsize 13 as 13x13.
    let out = run_binary(&["--size", "hex7"], "boardsize 9\noust-board\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "=\n\n= 9x9\n\n");
    let out = run_binary(&[], "oust-board hex7\nboardsize 13\noust-board\n");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=\n\n=\n\n= 13x13\n\n"
    );
}

/// The program's side of a real GoGui 1.6 start-up (computer plays White), as recorded with `gogui -verbose`.
#[test]
fn gogui_program_start_up_and_first_moves() {
    let mut e = fresh();
    let input = "name\nprotocol_version\nversion\ngogui-rules_game_id\nboardsize 9\nclear_board\nkomi 6.5\n\
                 gogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_game_id\nname\nprotocol_version\n\
                 gogui-rules_board_size\ngogui-analyze_commands\nboardsize 9\nclear_board\ngogui-rules_board_size\n\
                 gogui-rules_game_id\nplay B E5\n";
    let expected = format!(
        "= oust\n\n= 2\n\n= {}\n\n= Oust\n\n=\n\n=\n\n=\n\n= Oust\n\n= 9\n\n= Oust\n\n= oust\n\n= 2\n\n= 9\n\n\
         = plist/Legal moves/list_legal\ngfx/Group sizes/oust-group_sizes\ngfx/Heat map/oust-heatmap\n\
         gfx/Principal variation/oust-pv\nstring/Game status/oust-status\n\
         string/Board diagram/showboard\n\n=\n\n=\n\n= 9\n\n= Oust\n\n=\n\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(transcript(&mut e, input), expected);
    assert!(e.gogui_detected());
    assert!(!e.reports());
    // genmove answers exactly one vertex, whatever the engine chooses, and a capture adds nothing to it.
    let out = transcript(&mut e, "genmove w\n");
    let vertex = out
        .strip_prefix("= ")
        .and_then(|r| r.strip_suffix("\n\n"))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(
        e.game().position().geometry().parse_vertex(vertex).is_ok(),
        "{out:?}"
    );
    let out = transcript(
        &mut e,
        "rectangular_boardsize 4 2\noust-setup b XO../...O\ngenmove b\nplay b D2\n",
    );
    assert_eq!(out, "=\n\n=\n\n= A1\n\n=\n\n");
}

/// The ruler's side at the end of a real game that Black (a human) won with D5: GoGui replays the game from
/// `clear_board`, replays the last move once more (which must fail and change nothing), then reads the board and
/// finds no legal moves.
#[test]
fn gogui_ruler_replay_and_game_end() {
    let mut e = fresh();
    let input = "list_commands\ngogui-rules_game_id\ngogui-rules_board_size\nclear_board\nplay B E5\nplay W D6\n\
                 gogui-rules_side_to_move\nplay W D6\nplay W D6\nclear_board\nplay B E5\nplay W D6\nplay B D5\n\
                 gogui-rules_board\ngogui-rules_board_size\ngogui-rules_captured_count\ngogui-rules_side_to_move\n\
                 play B D5\ngogui-rules_legal_moves\ngogui-rules_legal_moves\ngogui-rules_final_result\n";
    let out = transcript(&mut e, input);
    let after_list = out.split_once("\n\n").unwrap().1;
    let expected = "= Oust\n\n= 9\n\n=\n\n=\n\n=\n\n= black\n\n\
        ? illegal move: D6 is occupied by a white stone\n\n\
        ? illegal move: D6 is occupied by a white stone\n\n\
        =\n\n=\n\n=\n\n=\n\n\
        = . . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . X X . . . .\n\
        . . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n\n\
        = 9\n\n= 1 0\n\n= black\n\n\
        ? illegal move: the game is over: B+ (black captured every white stone)\n\n\
        =\n\n=\n\n= Black wins: all white stones captured after 3 placements\n\n";
    assert_eq!(after_list, expected);
}

/// GoGui's load on the ruler: after every move it replays the whole game (three times in GoGui 1.6), each replay
/// followed by the same move sent once more. Replayed here move by move over a real 111-move game.
#[test]
fn gogui_style_replays_of_a_whole_game_reach_the_saved_position() {
    let text = sgf::read_file(&fixture("gogui-cvc-game.sgf")).unwrap();
    let [checked] = sgf::check(&text).unwrap().try_into().unwrap();
    let (record, final_game) = (checked.record, checked.game);
    let moves: Vec<String> = final_game
        .records()
        .iter()
        .map(|r| {
            let name = match r.mv {
                oust::rules::Move::Place(p) => final_game.position().geometry().name(p),
                oust::rules::Move::Pass => "pass".into(),
                oust::rules::Move::Swap => "swap".into(),
            };
            let c = if r.color == Color::Black { 'B' } else { 'W' };
            format!("play {c} {name}\n")
        })
        .collect();
    assert_eq!(moves.len(), record.moves.len());
    let mut e = fresh();
    let mut plays = 0;
    for n in 1..=moves.len() {
        let mut input = String::new();
        for _ in 0..3 {
            input.push_str("clear_board\n");
            input.extend(moves[..n].iter().cloned());
            input.push_str(&moves[n - 1]);
            plays += n + 1;
        }
        let out = transcript(&mut e, &input);
        // Every replayed move succeeds; only the repeated last move fails.
        assert_eq!(
            out.matches("\n?").count() + out.starts_with('?') as usize,
            3
        );
    }
    assert!(plays > 18_000, "{plays}");
    assert_eq!(e.game().position(), final_game.position());
    assert_eq!(
        transcript(
            &mut e,
            "gogui-rules_legal_moves\ngogui-rules_captured_count\n"
        ),
        "=\n\n= 19 50\n\n"
    );
}

/// What the GoGui window showed at the end of each saved game (read off the screenshots), and what loading the
/// file gives.
#[test]
fn games_saved_by_gogui_load_into_the_positions_gogui_showed() {
    let cases = [
        (
            "gogui-cvc-game.sgf",
            111,
            [
                "....OO...",
                "OO.OO....",
                ".OO.OO...",
                "..O.O..OO",
                "OOOOOOOO.",
                ".OOOO..O.",
                "O...OOO.O",
                ".O..OOO..",
                "O..OOOO.O",
            ],
            (19, 50),
        ),
        (
            "gogui-human-game.sgf",
            111,
            [
                ".....OOO.",
                "....OO.O.",
                "...OOO...",
                ".....OOOO",
                "...OOO..O",
                ".....OOOO",
                "......OO.",
                "....O.OO.",
                "...OOOO..",
            ],
            (27, 54),
        ),
    ];
    for (name, moves, rows, captured) in cases {
        let text = sgf::read_file(&fixture(name)).unwrap();
        let [checked] = sgf::check(&text)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .try_into()
            .unwrap();
        let (record, game) = (checked.record, checked.game);
        assert_eq!(record.moves.len(), moves, "{name}");
        assert!(
            record.turns.len() == moves,
            "{name}: GoGui writes PL in every move node"
        );
        let pos = game.position();
        assert_eq!(common::rows(pos), rows, "{name}");
        assert_eq!(
            (pos.captured_by(Color::Black), pos.captured_by(Color::White)),
            captured
        );
        assert!(matches!(pos.status(), Status::Over(_)), "{name}");
        // Written back by oust and read again: the same game.
        let again = sgf::replay(
            &sgf::parse(&sgf::write(&game, &Default::default())).unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(again.position(), pos);
        assert_eq!(again.records(), game.records());
    }
}

fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("test-{name}"))
}

#[test]
fn printsgf_to_a_file_and_loadsgf_back() {
    let dir = temp_dir("printsgf");
    let file = dir.join("game.sgf");
    let file = file.to_str().unwrap();
    let mut e = fresh();
    let input = format!(
        "boardsize 5\nplay b B1\nplay w C1\nplay b D5\nplay w A2\nplay b D1\nplay w E5\nplay b B2\nplay b A5\n\
         genmove w\n\
         printsgf {file}\nshowboard\n"
    );
    let out = transcript(&mut e, &input);
    assert!(out.contains("= capture 2 extra-turn\n\n"), "{out}");
    let board = out.rsplit_once("=\n").unwrap().1.to_string();
    let written = std::fs::read_to_string(file).unwrap();
    assert!(
        written.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[oust:"),
        "{written}"
    );
    assert!(
        written.contains(
            "SZ[5]GN[Oust]PW[oust]\n;B[be];W[ce];B[da];W[ad];B[de];W[ea];B[bd];B[aa]\n;W["
        ),
        "{written}"
    );
    let mut other = fresh();
    let out = transcript(
        &mut other,
        &format!("loadsgf {file}\nshowboard\nprintsgf\n"),
    );
    assert!(out.starts_with("=\n\n=\n"));
    assert!(out.contains(&board), "{out}");
    assert!(out.contains("PW[oust]"), "{out}");
    assert_eq!(other.game().records(), e.game().records());
    // A file that cannot be written is an error naming it; nothing changes.
    let bad = dir.join("no/such/dir/game.sgf");
    let out = transcript(&mut e, &format!("printsgf {}\n", bad.display()));
    assert!(
        out.starts_with(&format!("? cannot write '{}': ", bad.display())),
        "{out}"
    );
}

#[test]
fn a_failed_loadsgf_leaves_the_game_as_it_was() {
    let mut e = fresh();
    transcript(&mut e, "play b D4\nplay w E5\n");
    let before = e.game().clone();
    for file in [
        "illegal-move.sgf",
        "not-sgf.sgf",
        "wrong-turn.sgf",
        "missing.sgf",
    ] {
        let out = transcript(&mut e, &format!("loadsgf {}\n", fixture(file).display()));
        assert!(out.starts_with("? cannot load file "), "{out}");
        assert_eq!(e.game().records(), before.records());
        assert_eq!(e.game().position(), before.position());
    }
    // A move number past the end loads the whole record, as GTP says.
    let out = transcript(
        &mut e,
        &format!("loadsgf {} 200\n", fixture("gogui-cvc-game.sgf").display()),
    );
    assert_eq!(out, "=\n\n");
    assert_eq!(e.game().records().len(), 111);
}

#[test]
fn sgf_check_accepts_good_records_and_refuses_bad_ones() {
    let good = [
        fixture("gogui-cvc-game.sgf"),
        fixture("gogui-human-game.sgf"),
        fixture("gogui-pass-game.sgf"),
    ];
    let args: Vec<&str> = ["sgf-check"]
        .into_iter()
        .chain(good.iter().map(|p| p.to_str().unwrap()))
        .collect();
    let out = run_binary(&args, "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}: ok: 9x9, 111 moves, result W+ (white captured every black stone)\n\
             {}: ok: 9x9, 111 moves, result W+ (white captured every black stone)\n\
             {}: ok: 3x3, 12 moves, result W+ (white captured every black stone)\n",
            good[0].display(),
            good[1].display(),
            good[2].display()
        )
    );
    assert!(out.stderr.is_empty());

    let bad = [
        "illegal-move.sgf",
        "wrong-result.sgf",
        "wrong-turn.sgf",
        "not-sgf.sgf",
        "missing.sgf",
    ]
    .map(fixture);
    let args: Vec<&str> = ["sgf-check", good[0].to_str().unwrap()]
        .into_iter()
        .chain(bad.iter().map(|p| p.to_str().unwrap()))
        .collect();
    let out = run_binary(&args, "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    let d = |i: usize| bad[i].display().to_string();
    assert_eq!(lines.len(), 6, "{err}");
    assert_eq!(
        lines[0],
        format!(
            "{}: move 3 (white C3) is illegal: black is to move: white's placement did not capture",
            d(0)
        )
    );
    assert_eq!(
        lines[1],
        format!("{}: wrong result: RE[B+] but the game is unfinished", d(1))
    );
    assert_eq!(
        lines[2],
        format!(
            "{}: after move 2 the record says white is to move (PL), but by the rules black is",
            d(2)
        )
    );
    assert_eq!(
        lines[3],
        format!(
            "{}: not a valid SGF record: no game tree: expected one such as (;FF[4]SZ[9];B[dd]), but the file has no `(`",
            d(3)
        )
    );
    assert!(
        lines[4].starts_with(&format!("{}: cannot read: ", d(4))),
        "{}",
        lines[4]
    );
    assert_eq!(lines[5], "5 of 6 records are bad");

    // No file at all is a usage error.
    let out = run_binary(&["sgf-check"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// Every game of a collection and every variation is replayed: a bad move anywhere is named by its game, its
/// variation (numbered in the file's order, the main line first) and the line and column of its node.
#[test]
fn sgf_check_replays_every_game_and_every_variation() {
    let good = fixture("games-and-variations.sgf");
    let out = run_binary(&["sgf-check", good.to_str().unwrap()], "");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}: ok: 2 games; game 1: 5x5, 3 moves, unfinished, white to move (main line; 4 variations checked); \
             game 2: 3x3, 1 move, unfinished, white to move\n",
            good.display()
        )
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let bad = ["second-game-illegal.sgf", "variation-illegal.sgf"].map(fixture);
    let out = run_binary(
        &[
            "sgf-check",
            bad[0].to_str().unwrap(),
            bad[1].to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "{}: game 2 of 2, line 3, column 1: move 3 (white C3) is illegal: black is to move: white's placement \
             did not capture\n\
             {}: variation 3, line 5, column 16: move 5 (white B4) is illegal: black is to move: white's placement \
             did not capture\n\
             2 of 2 records are bad\n",
            bad[0].display(),
            bad[1].display()
        )
    );
}

/// An empty, unclosed or truncated record says where it breaks off and what is missing.
#[test]
fn sgf_check_says_where_a_record_breaks_off() {
    let bad = ["empty.sgf", "unclosed.sgf", "truncated.sgf"].map(fixture);
    let mut args = vec!["sgf-check"];
    args.extend(bad.iter().map(|p| p.to_str().unwrap()));
    let out = run_binary(&args, "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "{}: not a valid SGF record: the file is empty: expected a game tree such as (;FF[4]SZ[9];B[dd])\n\
             {}: not a valid SGF record: the record breaks off at line 3, column 1, the end of the file: missing `)` \
             to close the game tree opened at line 1, column 1\n\
             {}: not a valid SGF record: the record breaks off at line 2, column 11, the end of the file, inside the \
             value of W that begins at line 2, column 9: missing `]` and `)` to close the game tree opened at line 1, \
             column 1\n\
             3 of 3 records are bad\n",
            bad[0].display(),
            bad[1].display(),
            bad[2].display()
        )
    );
}

#[test]
fn sgf_check_compares_the_result_with_the_game() {
    // The record with `re` in place of `{}`, checked.
    fn checked(record: &str, re: &str) -> Result<(), String> {
        sgf::check(&record.replace("{}", re))
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    let game = "(;FF[4]GM[1]SZ[4:2]AB[aa]AW[ba]PL[B]RE[{}];B[ab])";
    let check = |re: &str| checked(game, re);
    // Black A1 captures B2, White's only stone: B+.
    assert_eq!(check("B+"), Ok(()));
    assert_eq!(check("b+"), Ok(()));
    assert_eq!(check("?"), Ok(()));
    assert_eq!(check(""), Ok(()));
    assert_eq!(
        check("W+"),
        Err(
            "wrong result: RE[W+] but the moves end the game B+ (black captured every white stone)"
                .into()
        )
    );
    assert_eq!(
        check("0"),
        Err(
            "wrong result: RE[0] but the moves end the game B+ (black captured every white stone)"
                .into()
        )
    );
    assert_eq!(
        check("W+R"),
        Err("wrong result: RE[W+R] (decided off the board) but the moves end the game B+ (black captured every white stone)".into())
    );
    assert_eq!(
        check("B+3.5"),
        Err("wrong result: RE[B+3.5] is not an Oust result: use B+, W+ or 0, or B+R, W+T, B+F and the like".into())
    );
    // An unfinished game may have been resigned, lost on time, or drawn by agreement (Abstract Play's `draw`).
    let unfinished = "(;FF[4]GM[1]SZ[5]RE[{}];B[aa];W[cc])";
    let check = |re: &str| checked(unfinished, re);
    assert_eq!(check("W+Resign"), Ok(()));
    assert_eq!(check("B+T"), Ok(()));
    assert_eq!(check("Void"), Ok(()));
    assert_eq!(check("Draw"), Ok(()));
    assert_eq!(check("0"), Ok(()));
    assert_eq!(
        check("B+"),
        Err("wrong result: RE[B+] but the game is unfinished".into())
    );
}

#[test]
fn the_reports_flag_of_the_binary() {
    let input = "rectangular_boardsize 4 2\noust-setup b XO../...O\ngenmove b\noust-reports\n";
    let out = run_binary(&["--reports", "off"], input);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=\n\n=\n\n= A1\n\n= off off\n\n"
    );
    let out = run_binary(
        &["--reports", "on"],
        &format!("gogui-rules_game_id\n{input}"),
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "= Oust\n\n=\n\n=\n\n= A1 capture 1 extra-turn\n\n= on on\n\n"
    );
    let out = run_binary(&[], &format!("{input}gogui-rules_game_id\noust-reports\n"));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=\n\n=\n\n= A1 capture 1 extra-turn\n\n= auto on\n\n= Oust\n\n= auto off\n\n"
    );
    let out = run_binary(&["--reports", "loud"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("'loud' is not auto, on or off")
    );
}

#[test]
fn every_analyze_command_runs_a_listed_command() {
    const GOGUI_TYPES: &[&str] = &[
        "bwboard", "cboard", "dboard", "eplist", "gfx", "hstring", "hpstring", "param", "plist",
        "pspairs", "pstring", "string", "sboard", "var", "varb", "varc", "varw", "varp", "varpo",
        "none",
    ];
    for a in ANALYZE_COMMANDS {
        assert!(GOGUI_TYPES.contains(&a.kind), "{}", a.kind);
        assert!(!a.label.contains('/') && !a.command.contains('/'));
        let name = a.command.split(' ').next().unwrap();
        assert!(
            COMMANDS.iter().any(|c| c.name == name),
            "analyze command {name} is not a command"
        );
        // Each runs without error on an empty board and on a game in progress.
        let mut e = fresh();
        for setup in ["", "play b D4\nplay w E4\nplay b E5\n"] {
            let out = transcript(&mut e, &format!("{setup}{}\n", a.command));
            assert!(out.rsplit("\n\n").nth(1).unwrap().contains('='), "{out}");
            assert!(!out.contains('?'), "{out}");
        }
    }
}
