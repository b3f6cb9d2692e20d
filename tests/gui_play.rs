//! `oust gui` without a browser, playing: undo, redo, jumps and resign, the swap, games against a level, and the
//! state's stones, captures and last turn.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::time::Duration;

use oust::gui::{Gui, NewGame, Options, Player, Strength};
use oust::notation;
use oust::rules::{Color, Geometry, Shape};
use serde_json::{Value, json};

use gui_common::*;

#[test]
fn undo_redo_jump_and_resign() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    for m in ["C3", "A1", "E5", "B2"] {
        post(&gui, "api/play", json!({"move": m}));
    }
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(
        (s["moves"].as_u64(), s["total"].as_u64()),
        (Some(3), Some(4))
    );
    let (_, s) = post(&gui, "api/jump", json!({"moves": 1}));
    assert_eq!(
        (s["moves"].as_u64(), s["status"].as_str()),
        (Some(1), Some("White to move"))
    );
    let (_, s) = post(&gui, "api/redo", json!({"unit": "turn"}));
    assert_eq!(s["moves"], 2);
    let (_, s) = post(&gui, "api/jump", json!({"moves": 4}));
    assert_eq!(s["moves"], 4);
    let (status, s) = post(&gui, "api/resign", json!({}));
    assert_eq!(
        (status, s["status"].as_str(), s["note"].as_str()),
        (200, Some("White wins"), Some("Black resigned"))
    );
    assert!(get(&gui, "api/sgf").1.contains("RE[W+Resign]"));
    assert_eq!(post(&gui, "api/play", json!({"move": "D4"})).0, 409);
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(s["over"], false);
    for _ in 0..3 {
        post(&gui, "api/undo", json!({"unit": "move"}));
    }
    let (status, e) = post(&gui, "api/undo", json!({}));
    assert_eq!(
        (status, e["error"].as_str()),
        (409, Some("cannot undo: no move to take back"))
    );
    // The pie rule: White may swap in answer to Black's first stone, and only then.
    let (_, s) = post(
        &gui,
        "api/new",
        json!({"board": "hex4", "pie": "on", "black": "human", "white": "human"}),
    );
    assert_eq!(
        (s["pie"].as_bool(), s["swap"].as_bool()),
        (Some(true), Some(false))
    );
    let (_, s) = post(&gui, "api/play", json!({"move": "D4"}));
    assert_eq!(s["swap"], true);
    let (status, s) = post(&gui, "api/play", json!({"move": "swap"}));
    assert_eq!(status, 200);
    assert_eq!(s["status"], "White to move");
    assert_eq!(
        s["note"],
        "White swapped: the players exchanged colours. Black (the stone on the board) is now played by the one \
         who swapped, White by the one who placed first, and White moves next"
    );
    assert_eq!(s["swap"], false);
    let (status, e) = post(&gui, "api/play", json!({"move": "swap"}));
    assert_eq!(
        (status, e["error"].as_str()),
        (
            409,
            Some("illegal move: swap is illegal: white has already swapped")
        )
    );
}

#[test]
fn a_game_against_a_level_sets_the_engine_reports_the_result_and_suggests_the_next_level() {
    use oust::gtp::levels::{LEVEL_ELO, MAX_LEVEL};
    let gui = start(Shape::square(5), [Player::Human, Player::Engine]);
    // The levels the dialog offers, with the Elo measured on each board family.
    let levels: Value = serde_json::from_str(&get(&gui, "api/levels").1).unwrap();
    let offered = levels["levels"].as_array().unwrap();
    assert_eq!(offered.len(), usize::from(MAX_LEVEL));
    for (l, e) in offered.iter().zip(LEVEL_ELO) {
        assert_eq!(l["elo"], json!({"hex": e.hex7, "square": e.square9}), "{l}");
        assert!(l["words"].as_str().is_some_and(|w| !w.is_empty()), "{l}");
    }
    assert_eq!(
        offered[0]["words"],
        "a newcomer who has just learnt the rules"
    );
    let before = state(&gui);
    for (args, error) in [
        (
            json!({"level": 0}),
            "expected a level from 1 to 10, or max for full strength, got '0'",
        ),
        (
            json!({"level": 11}),
            "expected a level from 1 to 10, or max for full strength, got '11'",
        ),
        (
            json!({"level": "x"}),
            "expected a level from 1 to 10, or max for full strength, got 'x'",
        ),
        (
            json!({"level": 3, "playouts": 100}),
            "a level fixes the engine's playouts and time: give 'level', or 'seconds' or 'playouts', not both",
        ),
    ] {
        let (status, e) = post(&gui, "api/new", args.clone());
        assert_eq!((status, e["error"].as_str()), (409, Some(error)), "{args}");
    }
    let after = state(&gui);
    assert_eq!(before["strength"], after["strength"]);
    assert_eq!(before["version"], after["version"]);
    // A level reaches the engine as oust's level, and the page says who plays.
    let (status, s) = post(&gui, "api/new", json!({"level": 2}));
    assert_eq!(status, 200);
    assert_eq!(s["strength"], json!({"kind": "level", "value": 2}));
    assert_eq!(s["engine"]["levels"], true);
    post(&gui, "api/play", json!({"move": "C3"}));
    wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["to_move"] == "black" && s["moves"].as_u64() >= Some(2)
    });
    assert!(
        console_lines(&gui)
            .iter()
            .any(|l| l == "> oust-set-param level 2"),
        "{:?}",
        console_lines(&gui)
    );
    assert_eq!(state(&gui)["level_result"], Value::Null);
    // Two losses in a row at level 2: the page suggests level 1.
    post(&gui, "api/resign", json!({}));
    let s = state(&gui);
    assert_eq!(
        s["level_result"],
        json!({"level": 2, "won": false, "in_a_row": 1, "suggest": null, "text": "You lost against level 2."})
    );
    // A new game keeps the level; its result is not shown until it ends.
    let (_, s) = post(&gui, "api/new", json!({}));
    assert_eq!(
        (s["strength"]["value"].as_u64(), &s["level_result"]),
        (Some(2), &Value::Null)
    );
    post(&gui, "api/resign", json!({}));
    assert_eq!(
        state(&gui)["level_result"]["text"],
        "You lost against level 2. That is 2 losses in a row: try level 1?"
    );
    assert_eq!(state(&gui)["level_result"]["suggest"], 1);
    // Undoing the end and resigning again counts the game once.
    post(&gui, "api/undo", json!({"unit": "turn"}));
    post(&gui, "api/resign", json!({}));
    assert_eq!(state(&gui)["level_result"]["in_a_row"], 2);
    // Full strength by name is the engine's default; the level is left.
    let (_, s) = post(&gui, "api/new", json!({"level": "max"}));
    assert_eq!(s["strength"], json!({"kind": "default"}));
}

#[test]
fn an_engine_without_levels_is_refused_a_level() {
    // `gnugo`-like: any GTP engine that lacks oust-set-param. A shell wrapper that hides it from known_command.
    let script = format!(
        "sed -u 's/^known_command oust-set-param$/known_command hidden-set-param/' | {}",
        engine()
    );
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::square(5),
            players: [Player::Human, Player::Engine],
            pie: false,
            strength: Strength::Playouts(100),
        },
        engine: script,
        port: 0,
    })
    .expect("the gui starts");
    let s = wait_state(&gui, Duration::from_secs(10), "the engine's name", |s| {
        !s["engine"]["name"].as_str().unwrap_or("").is_empty()
    });
    assert_eq!(s["engine"]["levels"], false);
    let (status, e) = post(&gui, "api/new", json!({"level": 3}));
    assert_eq!(status, 409);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("has no strength levels: level 3 needs oust's oust-set-param level"),
        "{e}"
    );
    assert_eq!(
        state(&gui)["strength"],
        json!({"kind": "playouts", "value": 100})
    );
}

#[test]
fn a_swap_exchanges_the_seats_and_the_right_side_moves_next() {
    let gui = start(Shape::Hex { side: 4 }, [Player::Human, Player::Human]);
    // The engine places first; the human, White, swaps: the human now plays Black, the engine White, which moves.
    post(
        &gui,
        "api/new",
        json!({"board": "hex4", "pie": "on", "black": "engine", "white": "human"}),
    );
    wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine's first stone",
        |s| s["moves"] == 1 && s["swap"] == true,
    );
    let (status, s) = post(&gui, "api/play", json!({"move": "swap"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        s["players"],
        json!({"black": "human", "white": "engine"}),
        "the seats change with the swap"
    );
    assert_eq!(
        (s["to_move"].as_str(), s["swapped"].as_bool()),
        (Some("white"), Some(true))
    );
    assert_eq!(
        s["note"],
        "White swapped: the players exchanged colours. Black (the stone on the board) is now played by you, White \
         by the engine, and White moves next"
    );
    // White, now the engine, moves next; then the human, as Black.
    let s = wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine's move as White",
        |s| s["moves"].as_u64() >= Some(3) && s["engine"]["busy"] != "thinking",
    );
    assert_eq!(s["turns"][2]["color"], "white");
    assert_eq!(s["to_move"], "black");
    assert!(
        !s["legal"].as_array().unwrap().is_empty(),
        "the human is asked to move"
    );
    // Undoing the turn goes back to the human's turn before the swap, and the seats go back with it.
    let (_, s) = post(&gui, "api/undo", json!({"unit": "turn"}));
    assert_eq!(s["moves"], 1, "{s}");
    assert_eq!(s["players"], json!({"black": "engine", "white": "human"}));
    assert_eq!(s["swap"], true);
}

#[test]
fn the_state_counts_stones_and_captures_and_keeps_the_last_turn_until_the_next() {
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let geo = std::sync::Arc::new(Geometry::square(9).unwrap());
    let mut game = oust::rules::Game::new(geo.clone());
    let k = first_capturing_move();
    let moves: Vec<&str> = NINE_GAME.split_whitespace().collect();
    // Up to and with the capture, and the placement after it that ends the turn (NINE_GAME's does not capture).
    for v in &moves[..k + 2] {
        let c = game.position().to_move();
        game.play(c, notation::parse_move(&geo, v).unwrap())
            .unwrap();
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    let capture = &game.records()[k];
    let mover = capture.color;
    let s = state(&gui);
    let taken = |c: Color| -> usize {
        game.records()
            .iter()
            .filter(|r| r.color == c)
            .map(|r| r.report.captured)
            .sum()
    };
    assert_eq!(
        s["captures"],
        json!({"black": taken(Color::Black), "white": taken(Color::White)})
    );
    assert!(taken(mover) >= capture.report.captured && capture.report.captured > 0);
    assert_eq!(
        (s["stones_black"].as_u64(), s["stones_white"].as_u64()),
        (
            Some(game.position().stone_count(Color::Black) as u64),
            Some(game.position().stone_count(Color::White) as u64)
        )
    );
    // The turn is over (the other side is to move, the note under the status says nothing of it), and the last
    // turn still says what it captured and that it gave an extra turn.
    assert_ne!(s["to_move"], mover.name());
    assert_eq!(s["note"], "");
    let t = &s["last_turn"];
    assert_eq!(
        (&t["color"], &t["passed"], &t["goes_on"]),
        (&json!(mover.name()), &json!(false), &json!(false)),
        "{t}"
    );
    let placed: Vec<(&str, u64)> = t["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["gtp"].as_str().unwrap(), p["captured"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        placed,
        [
            (moves[k], capture.report.captured as u64),
            (moves[k + 1], 0)
        ]
    );
    // Until the next turn: then it is that one's.
    let (_, s) = post(&gui, "api/play", json!({"move": moves[k + 2]}));
    assert_eq!(s["last_turn"]["color"], mover.opponent().name());
    // Taken back, the capture is the last turn again, going on (its extra turn to come), and its stones are not
    // counted as captured any more once it is taken back too.
    post(&gui, "api/undo", json!({"unit": "move"}));
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(s["last_turn"]["goes_on"], true);
    assert_eq!(s["last_turn"]["placements"].as_array().unwrap().len(), 1);
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(
        s["captures"][mover.name()].as_u64().unwrap() as usize,
        taken(mover) - capture.report.captured
    );
    let (_, s) = post(&gui, "api/jump", json!({"moves": 0}));
    assert_eq!(
        (&s["last_turn"], &s["captures"]),
        (&Value::Null, &json!({"black": 0, "white": 0}))
    );
}

/// Rule 7: nothing follows the capture that wins, so the last turn says it won, not that it gave an extra turn.
#[test]
fn the_last_turn_of_a_won_game_ends_with_the_winning_capture() {
    let gui = start(Shape::square(3), [Player::Human, Player::Human]);
    for v in ["A1", "B1", "A2"] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    let s = state(&gui);
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(
        s["last_turn"],
        json!({"color": "black", "passed": false, "goes_on": false, "resigned": false,
               "placements": [{"gtp": "A2", "ap": "a2", "captured": 1, "ends": true}]})
    );
    // Taken back and played again short of the end, the same capture is no winner: it does not end the game.
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(s["last_turn"]["placements"][0]["ends"], false, "{s}");
    // Issue 48: a capture that gives an extra turn, and a resignation in that extra turn: the game is over, but
    // the capture did not win it; the turn says it was resigned.
    let gui = start(Shape::square(4), [Player::Human, Player::Human]);
    // White's C1 joins B1 into a group of 2 that captures Black's A1; Black keeps D4.
    for v in ["A1", "B1", "D4", "C1"] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    let s = state(&gui);
    assert_eq!(
        (
            &s["to_move"],
            &s["last_turn"]["goes_on"],
            &s["last_turn"]["placements"][0]["captured"]
        ),
        (&json!("white"), &json!(true), &json!(1)),
        "{s}"
    );
    let (_, s) = post(&gui, "api/resign", json!({}));
    assert_eq!(s["over"], true);
    assert_eq!(
        s["last_turn"],
        json!({"color": "white", "passed": false, "goes_on": false, "resigned": true,
               "placements": [{"gtp": "C1", "ap": "c1", "captured": 1, "ends": false}]}),
        "{s}"
    );
}
