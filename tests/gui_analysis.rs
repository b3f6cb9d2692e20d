//! `oust gui` without a browser, live analysis and the console: the cap of visits, the console's position, and its
//! moves and refusals.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::time::Duration;

use oust::gui::Player;
use oust::rules::Shape;
use serde_json::json;

use gui_common::*;

/// Issue 48: live analysis stops at a cap of visits a position (1,000,000 by default, a setting), and the engine
/// is then idle until the position or the cap changes.
#[test]
fn live_analysis_stops_at_its_cap_of_visits() {
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Human]);
    assert_eq!(state(&gui)["analysis"]["max_visits"], 1_000_000);
    let (status, s) = post(&gui, "api/analysis", json!({"max_visits": 3000}));
    assert_eq!(status, 200);
    assert_eq!(
        (&s["analysis"]["max_visits"], &s["analysis"]["on"]),
        (&json!(3000), &json!(false)),
        "the cap alone does not toggle the analysis"
    );
    post(&gui, "api/analysis", json!({"on": true}));
    let capped = |cap: u64| {
        let s = wait_state(&gui, Duration::from_secs(30), "the cap", |s| {
            s["analysis"]["entries"]["capped"] == cap && s["engine"]["busy"] == ""
        });
        let visits = s["analysis"]["entries"]["visits"].as_u64().unwrap();
        assert!(visits >= cap, "{visits}");
        s
    };
    let s = capped(3000);
    // Idle: no more updates.
    std::thread::sleep(Duration::from_millis(800));
    let later = state(&gui);
    assert_eq!(later["analysis"]["updates"], s["analysis"]["updates"]);
    assert_eq!(later["engine"]["busy"], "");
    // Turned off and on, it analyses the position again (to its cap); a higher cap analyses on; a new position
    // is analysed again.
    post(&gui, "api/analysis", json!({"on": false}));
    post(&gui, "api/analysis", json!({"on": true}));
    capped(3000);
    post(&gui, "api/analysis", json!({"max_visits": 8000}));
    capped(8000);
    post(&gui, "api/play", json!({"move": "E5"}));
    let s = capped(8000);
    assert_eq!(s["analysis"]["entries"]["to_move"], "white");
    let (status, e) = post(&gui, "api/analysis", json!({"max_visits": 5}));
    assert_eq!(
        (status, e["error"].as_str()),
        (
            409,
            Some(
                "the analysis cap 'max_visits' is 0 (none) or from 100 to 100000000 visits, got 5"
            )
        )
    );
}

/// Issue 48: the console's commands see the position the page shows: after an undo, `showboard` shows the board
/// after the undo, not the engine's board where it was last used.
#[test]
fn the_console_shows_the_position_the_page_shows() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    for v in ["C3", "A1", "E5", "A5"] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    // The hint brings the engine to the fourth placement.
    post(&gui, "api/hint", json!({}));
    wait_state(&gui, Duration::from_secs(20), "the hint", |s| {
        s["analysis"]["hint"].is_object() && s["engine"]["busy"] == ""
    });
    post(&gui, "api/undo", json!({"unit": "move"}));
    let (_, s) = post(&gui, "api/undo", json!({"unit": "move"}));
    assert_eq!(s["moves"], 2);
    let board = console_answer(&gui, "showboard");
    assert!(
        board.contains("last move: white A1") && board.contains("stones: black 1, white 1"),
        "{board}"
    );
    assert!(board.contains(" 3 . . X . . 3"), "{board}");
}

#[test]
fn console_moves_go_through_the_pages_game_and_commands_that_would_change_the_engines_are_refused()
{
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let (status, s) = post(&gui, "api/console", json!({"line": "play b C3"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["moves"].as_u64(), s["last"].as_str()),
        (Some(1), Some("C3"))
    );
    let refused = |line: &str| {
        let (status, e) = post(&gui, "api/console", json!({"line": line}));
        assert_eq!(status, 409, "{line}: {e}");
        e["error"].as_str().unwrap().to_string()
    };
    assert_eq!(
        refused("play b A1"),
        "it is white's turn in the page's game, not black's"
    );
    assert_eq!(
        refused("play w C3"),
        "illegal move: C3 is occupied by a black stone"
    );
    assert_eq!(
        refused("boardsize 7"),
        "boardsize is not sent to the engine: it would change the engine's board, not the page's: use New game…"
    );
    assert!(refused("genmove w").starts_with("genmove is not sent to the engine"));
    assert!(
        refused("oust-genmove_cancellable w")
            .starts_with("oust-genmove_cancellable is not sent to the engine")
    );
    assert!(refused("2 clear_board").starts_with("clear_board is not sent to the engine"));
    // An alias of a refused command is refused too (the aliases are the command table's).
    assert!(
        refused("size 7")
            .starts_with("size is not sent to the engine: it would change the engine's board")
    );
    assert!(refused("bye").starts_with("bye is not sent to the engine: it would end the engine"));
    assert_eq!(state(&gui)["moves"], 1);
    let (status, s) = post(&gui, "api/console", json!({"line": "white A1"}));
    assert_eq!((status, s["moves"].as_u64()), (200, Some(2)));
    let (status, s) = post(&gui, "api/console", json!({"line": "undo"}));
    assert_eq!((status, s["moves"].as_u64()), (200, Some(1)));
    let lines = console_lines(&gui);
    for want in [
        "> play b C3",
        "! 'play b C3' was played on the page's game",
        "? it is white's turn in the page's game, not black's",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    // The engine follows the page's game: asked for a move, it plays on the board the page shows.
    post(&gui, "api/engine-move", json!({}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["moves"] == 2 && s["engine"]["busy"] != "thinking"
    });
    assert_eq!(s["turns"][0]["gtp"], "C3");
}
