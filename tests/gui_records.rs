//! `oust gui` without a browser, records: SGF loaded and saved (names, date, the engine's settings), broken and
//! oversized uploads refused, a loaded record's report of what was left out, and variations.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use oust::gui::Player;
use oust::rules::{Geometry, Move, Shape};
use oust::{notation, sgf};
use serde_json::{Value, json};

use gui_common::*;

#[test]
fn records_load_save_and_broken_uploads_are_refused() {
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Human]);
    for m in ["C3", "E5", "A1"] {
        assert_eq!(post(&gui, "api/play", json!({"move": m})).0, 200);
    }
    let saved = get(&gui, "api/sgf").1;
    assert!(
        saved.contains("HX[5]") && saved.contains(";B[") && saved.contains("Played with oust gui"),
        "{saved}"
    );
    let turns = get(&gui, "api/ap").1;
    assert_eq!(turns, "c3\ne5\na1\n");
    // A broken upload: the move number and why; the board is unchanged.
    let before = state(&gui);
    // An upload refused with a 409, and its error.
    let refused = |name: &str, text: &str| {
        let (status, e) = post(&gui, "api/load", json!({"name": name, "text": text}));
        assert_eq!(status, 409);
        e["error"].as_str().unwrap().to_string()
    };
    assert_eq!(
        refused("bad.txt", "c3\nc3\n"),
        "bad.txt: turn 2 ('c3', line 2): c3 is illegal: C3 is occupied by a black stone"
    );
    let e = refused("bad.sgf", "(;GM[1]SZ[5];B[cc];W[cc])");
    assert!(
        e.starts_with("bad.sgf: move 2 (white C3) is illegal"),
        "{e}"
    );
    let e = refused("junk", "{\"not\": 1");
    assert!(e.starts_with("junk: not a JSON game record"), "{e}");
    let after = state(&gui);
    for key in ["board", "stones", "moves", "turns"] {
        assert_eq!(before[key], after[key], "{key} changed");
    }
    // The saved record loads back, and so does an Abstract Play JSON record.
    post(&gui, "api/new", json!({"board": "9"}));
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "saved.sgf", "text": saved}),
    );
    assert_eq!(status, 200, "{s} {saved}");
    assert_eq!(
        (s["board"].as_str(), s["moves"].as_u64()),
        (Some("hex5"), Some(3))
    );
    let ap = r#"{"header": {"game": {"name": "Oust", "variants": ["hex-5"]}, "players": [{"name": "A"}, {"name": "B"}]},
                "moves": [["c3", "e5"], ["a1"]]}"#;
    let (status, s) = post(&gui, "api/load", json!({"name": "game.json", "text": ap}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["turns"].as_array().unwrap().len(), 3);
    assert_eq!(s["source"], "game.json");
}

/// Issue 48: a record over the size limit on a request (4 MiB) is refused as such, naming the limit, whether its
/// length is given or not, not as "the request is not JSON: EOF while parsing".
#[test]
fn a_record_over_the_size_limit_is_refused_naming_the_limit() {
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Human]);
    let limit = state(&gui)["max_request_bytes"].as_u64().unwrap();
    assert_eq!(limit, 4 * 1024 * 1024);
    let before = state(&gui);
    for mb in [5, 30] {
        let text = format!("(;GM[1]HX[5]C[{}])", "x".repeat(mb * 1_000_000));
        let (status, e) = post(&gui, "api/load", json!({"name": "big.sgf", "text": text}));
        let e = e["error"].as_str().unwrap().to_string();
        assert_eq!(status, 413, "{e}");
        assert!(
            e.starts_with("the record is over the limit: it is ")
                && e.ends_with("and oust gui takes at most 4.0 MiB (4194304 bytes) a request"),
            "{e}"
        );
        assert!(!e.contains("JSON"), "{e}");
        // The page shows it as the refusal of the upload; the game is unchanged.
        let s = state(&gui);
        assert_eq!(s["refusal"].as_str(), Some(e.as_str()));
        assert_eq!(
            (&s["stones"], &s["moves"]),
            (&before["stones"], &before["moves"])
        );
    }
    // Without a length (chunked), the body is read up to the limit and refused.
    let host = format!("127.0.0.1:{}", gui.port());
    let mut c = TcpStream::connect(("127.0.0.1", gui.port())).unwrap();
    let head = format!(
        "POST /api/play HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    );
    c.write_all(head.as_bytes()).unwrap();
    let chunk = "x".repeat(1 << 20);
    for _ in 0..5 {
        let _ = c.write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    }
    let _ = c.write_all(b"0\r\n\r\n");
    let mut out = String::new();
    let _ = c.read_to_string(&mut out);
    assert!(
        out.starts_with("HTTP/1.1 413"),
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(
        out.contains(
            "the request is over the limit: it is larger, and oust gui takes at most 4.0 MiB"
        ),
        "{}",
        &out[..out.len().min(600)]
    );
    // Just under the limit is read.
    let (status, e) = post(
        &gui,
        "api/load",
        json!({"name": "padded.sgf", "text": format!("(;GM[1]HX[5]C[{}];B[cc])", "x".repeat(4_000_000))}),
    );
    assert_eq!(status, 200, "{e}");
}

#[test]
fn a_loaded_record_opens_for_review_with_its_names_and_says_what_was_left_out() {
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Engine]);
    // A hex-7 record of 3 placements, White to move, with its players' names.
    let geo = std::sync::Arc::new(Geometry::hex(7).unwrap());
    let mut game = oust::rules::Game::new(geo.clone());
    for v in ["G7", "A1", "M13"] {
        let c = game.position().to_move();
        game.play(c, notation::parse_move(&geo, v).unwrap())
            .unwrap();
    }
    let info = sgf::GameInfo {
        black: Some("Alice".into()),
        white: Some("Bob".into()),
        ..sgf::GameInfo::default()
    };
    let text = sgf::write(&game, &info);
    let (status, s) = post(&gui, "api/load", json!({"name": "three.sgf", "text": text}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        s["notice"],
        "loaded three.sgf: 3 moves, White to move; open for review: nobody moves until you choose who plays on"
    );
    assert_eq!(s["review"], true);
    assert_eq!(s["names"], json!({"black": "Alice", "white": "Bob"}));
    assert_eq!(s["legal"], json!([]), "no one is asked to move");
    // The engine plays White, but adds nothing to a record under review; nor does a click.
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(
        state(&gui)["moves"],
        3,
        "the engine added a move to the loaded record"
    );
    let (status, e) = post(&gui, "api/play", json!({"move": "B2"}));
    assert_eq!(status, 409);
    assert!(
        e["error"].as_str().unwrap().contains("open for review"),
        "{e}"
    );
    let saved = get(&gui, "api/sgf").1;
    assert!(
        saved.contains("PB[Alice]") && saved.contains("PW[Bob]"),
        "{saved}"
    );
    // The user chooses who plays on: the engine as White, which then moves.
    let (_, s) = post(
        &gui,
        "api/players",
        json!({"black": "human", "white": "engine"}),
    );
    assert_eq!(s["review"], false);
    wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine to play on",
        |s| s["moves"] == 4 && s["engine"]["busy"] != "thinking",
    );
    // A collection of two games, and a game with variations: what was left out is said plainly.
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "two.sgf", "text": "(;GM[1]SZ[5];B[cc];W[aa])(;GM[1]SZ[5];B[bb])"}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        s["notice"],
        "loaded two.sgf: 2 moves, Black to move; open for review: nobody moves until you choose who plays on; \
         the file holds 2 games: only the first was loaded, the other was left out"
    );
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "lines.sgf", "text": "(;GM[1]SZ[5];B[cc](;W[aa])(;W[ee];B[ab])(;W[ea]))"}),
    );
    assert_eq!(status, 200, "{s}");
    assert!(
        s["notice"].as_str().unwrap().ends_with(
            "; its first game has 3 lines of play: the main line is shown, and the move list shows where the \
             other 2 branch off"
        ),
        "{s}"
    );
    assert_eq!(s["moves"], 2);
    assert_eq!(
        (s["lines"].as_u64(), &s["variation"]),
        (Some(3), &Value::Null)
    );
    let branches = &s["turns"][1]["branches"];
    assert_eq!(
        branches
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (
                b["gtp"].as_str().unwrap(),
                b["at"].as_u64().unwrap(),
                b["main"].as_bool().unwrap()
            ))
            .collect::<Vec<_>>(),
        [("E1", 2, false), ("E5", 2, false)],
        "{s}"
    );
    // A variation that the rules refuse is left out, and said so; the others load.
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "bad.sgf", "text": "(;GM[1]SZ[5];B[cc](;W[aa])(;W[ee];W[ab]))"}),
    );
    assert_eq!(status, 200, "{s}");
    assert!(
        s["notice"].as_str().unwrap().ends_with(
            "; 1 variation was left out, as the rules refuse it: variation 2, line 1, column 34: move 3 (white \
             A4) is illegal: black is to move: white's placement did not capture"
        ),
        "{s}"
    );
    assert_eq!(s["lines"], 1);
}

/// Issue 48, part 2: a placement that differs from the line's next one starts a variation; the main line is kept,
/// the move list shows the branches and goes to any of them, a variation is promoted or deleted, and the saved SGF
/// holds them as SGF's own tree and loads back with them.
#[test]
fn a_placement_off_the_line_starts_a_variation_and_nothing_is_lost() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    for m in ["C3", "A1", "E5", "A5"] {
        assert_eq!(post(&gui, "api/play", json!({ "move": m })).0, 200);
    }
    post(&gui, "api/jump", json!({"moves": 1}));
    // The line's own next move is followed with the rest of the line.
    let (_, s) = post(&gui, "api/play", json!({"move": "A1"}));
    assert_eq!(
        (s["moves"].as_u64(), s["total"].as_u64()),
        (Some(2), Some(4))
    );
    assert_eq!(
        (&s["variation"], s["lines"].as_u64()),
        (&Value::Null, Some(1))
    );
    post(&gui, "api/jump", json!({"moves": 1}));
    let (status, s) = post(&gui, "api/play", json!({"move": "E1"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["moves"].as_u64(), s["total"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        s["variation"],
        json!({"from": 2, "innermost": 2, "lines": 2})
    );
    assert_eq!(turn_names(&s), ["C3", "E1"]);
    let branch = &s["turns"][1]["branches"][0];
    assert_eq!(
        (&branch["gtp"], &branch["at"], &branch["main"]),
        (&json!("A1"), &json!(2), &json!(true)),
        "{s}"
    );
    let (_, s) = post(&gui, "api/play", json!({"move": "B2"}));
    assert_eq!(turn_names(&s), ["C3", "E1", "B2"]);
    // The main line is one click away, whole.
    let (status, s) = post(&gui, "api/goto", json!({"node": branch["node"]}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(turn_names(&s), ["C3", "A1", "E5", "A5"]);
    assert_eq!(
        (s["moves"].as_u64(), &s["variation"]),
        (Some(2), &Value::Null)
    );
    let variation = s["turns"][1]["branches"][0]["node"].clone();
    // Saved as SGF's own tree, which the SGF checker replays line by line.
    let (_, text) = get(&gui, "api/sgf");
    assert!(
        text.contains(";B[cc]\n(;W[ae];B[ea];W[aa])\n(;W[ee];B[bd]))"),
        "{text}"
    );
    let checked = sgf::check(&text).unwrap();
    assert_eq!(checked[0].variations, 2);
    // Errors change nothing.
    let before = state(&gui);
    for (path, args, error) in [
        (
            "api/variation",
            json!({"action": "delete"}),
            "the line shown is the main line: it has no variation to delete (go into one through the move list's \
             branches)",
        ),
        (
            "api/variation",
            json!({"action": "promote"}),
            "the line shown is the main line already",
        ),
        (
            "api/variation",
            json!({"action": "drop"}),
            "the request needs 'action': promote (make the line shown the main line) or delete (delete its \
             innermost variation)",
        ),
        (
            "api/goto",
            json!({"node": 99}),
            "there is no position 99 in the game's tree: its variation was deleted",
        ),
        (
            "api/goto",
            json!({"node": "E1"}),
            "the request needs 'node', a number from the move list's branches",
        ),
    ] {
        let (status, e) = post(&gui, path, args.clone());
        assert_eq!(
            (status, e["error"].as_str()),
            (409, Some(error)),
            "{path} {args}"
        );
    }
    let after = state(&gui);
    assert_eq!(
        (&after["stones"], &after["turns"], &after["lines"]),
        (&before["stones"], &before["turns"], &before["lines"])
    );
    // Promoted, the variation is the main line; the old main line is a variation, and deleted.
    post(&gui, "api/goto", json!({ "node": variation }));
    let (status, s) = post(&gui, "api/variation", json!({"action": "promote"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (&s["variation"], s["notice"].as_str()),
        (&Value::Null, Some("this line is now the main line"))
    );
    let (_, text) = get(&gui, "api/sgf");
    assert!(
        text.contains(";B[cc]\n(;W[ee];B[bd])\n(;W[ae];B[ea];W[aa]))"),
        "{text}"
    );
    // Loaded back, the record has both lines.
    let (status, s) = post(&gui, "api/load", json!({"name": "lines.sgf", "text": text}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (s["lines"].as_u64(), turn_names(&s)),
        (Some(2), vec!["C3".to_string(), "E1".into(), "B2".into()])
    );
    post(
        &gui,
        "api/players",
        json!({"black": "human", "white": "human"}),
    );
    let old = s["turns"][1]["branches"][0]["node"].clone();
    post(&gui, "api/goto", json!({ "node": old }));
    post(&gui, "api/jump", json!({"moves": 3}));
    let (status, s) = post(&gui, "api/variation", json!({"action": "delete"}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (
            s["notice"].as_str(),
            s["moves"].as_u64(),
            s["lines"].as_u64()
        ),
        (
            Some("deleted the variation from placement 2: 3 moves"),
            Some(1),
            Some(1)
        )
    );
    assert_eq!(turn_names(&s), ["C3", "E1", "B2"]);
    let (_, text) = get(&gui, "api/sgf");
    assert_eq!(
        text.matches("\n(").count(),
        0,
        "no variation is left: {text}"
    );
}

/// Issue 48, part 2: the engine plays on in whichever line the player continues, and Play on from the middle of
/// a line keeps the line.
#[test]
fn the_engine_plays_on_in_the_line_the_player_continues() {
    let gui = start(Shape::square(5), [Player::Human, Player::Engine]);
    post(&gui, "api/play", json!({"move": "C3"}));
    wait_state(&gui, Duration::from_secs(20), "the engine's reply", |s| {
        s["moves"] == 2 && s["engine"]["busy"] != "thinking"
    });
    // A corner the engine left empty: a placement away from C3, legal at once.
    let game = server_game(&gui);
    let geo = game.position().geometry_arc().clone();
    let corner = ["A1", "E1", "A5", "E5"]
        .into_iter()
        .find(|v| {
            notation::parse_move(&geo, v).is_ok_and(|m| match m {
                Move::Place(p) => game.position().color_at(p).is_none(),
                _ => false,
            })
        })
        .unwrap();
    post(&gui, "api/play", json!({ "move": corner }));
    let main = wait_state(&gui, Duration::from_secs(20), "the engine's reply", |s| {
        s["moves"].as_u64() >= Some(4)
            && (s["to_move"] == "black" || s["over"] == true)
            && s["engine"]["busy"] != "thinking"
    });
    let main_line = turn_names(&main);
    post(&gui, "api/jump", json!({"moves": 0}));
    post(&gui, "api/play", json!({"move": "E1"}));
    let s = wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine's reply in the variation",
        |s| s["moves"] == 2 && s["to_move"] == "black" && s["engine"]["busy"] != "thinking",
    );
    assert_eq!(
        (s["lines"].as_u64(), s["variation"]["from"].as_u64()),
        (Some(2), Some(1)),
        "{s}"
    );
    let (_, s) = post(
        &gui,
        "api/goto",
        json!({"node": s["turns"][0]["branches"][0]["node"]}),
    );
    assert_eq!(turn_names(&s), main_line, "the main line is kept");
    // Play on from the middle of the main line, at the engine's turn: it moves, and the line it leaves is kept.
    post(&gui, "api/jump", json!({"moves": 1}));
    post(&gui, "api/engine-move", json!({}));
    wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["moves"] == 2 && s["engine"]["busy"] != "thinking"
    });
    let (_, text) = get(&gui, "api/sgf");
    let game = sgf::replay(&sgf::parse(&text).unwrap(), None).unwrap();
    assert_eq!(
        game.records().len(),
        main_line
            .iter()
            .map(|t| t.split(',').count())
            .sum::<usize>()
    );
}

#[test]
fn the_saved_sgf_names_the_players_the_date_and_the_engines_settings_and_loads_back() {
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Engine]);
    post(&gui, "api/play", json!({"move": "E5"}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's reply", |s| {
        s["moves"].as_u64() >= Some(2) && s["to_move"] == "black"
    });
    let engine = s["engine"]["name"].as_str().unwrap().to_string();
    assert!(engine.starts_with("oust "), "name and version: {engine}");
    let (_, text) = get(&gui, "api/sgf");
    assert!(text.contains("PB[Human]"), "{text}");
    assert!(text.contains(&format!("PW[{engine}]")), "{text}");
    let date = regex::Regex::new(r"DT\[(\d{4})-(\d\d)-(\d\d)\]")
        .unwrap()
        .captures(&text)
        .unwrap_or_else(|| panic!("no DT: {text}"));
    let (year, month, day): (u32, u32, u32) = (
        date[1].parse().unwrap(),
        date[2].parse().unwrap(),
        date[3].parse().unwrap(),
    );
    assert!(
        year >= 2025 && (1..=12).contains(&month) && (1..=31).contains(&day),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "C[Played with oust gui. Black: human; White: engine. Engine: {engine}, 150 playouts a move]"
        )),
        "{text}"
    );
    // It reads back: through the SGF reader, and loaded into the page with its players and date kept.
    let record = sgf::parse(&text).unwrap();
    assert_eq!(record.get("PW"), Some(engine.as_str()));
    let game = sgf::replay(&record, None).unwrap();
    assert_eq!(game.records().len(), s["moves"].as_u64().unwrap() as usize);
    let (status, s) = post(&gui, "api/load", json!({"name": "saved.sgf", "text": text}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["names"], json!({"black": "Human", "white": engine}));
    let (_, again) = get(&gui, "api/sgf");
    assert!(again.contains(&date[0]), "the date is kept: {again}");
    // A record made elsewhere keeps its own root comment, not one that says it was played here; once the game goes
    // on differently in the page, the comment says where.
    let elsewhere = regex::Regex::new(r"C\[Played with oust gui[^\]]*\]")
        .unwrap()
        .replace(&text, "C[oust match, game 1]")
        .to_string();
    assert_ne!(elsewhere, text);
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "match.sgf", "text": elsewhere}),
    );
    assert_eq!(status, 200, "{s}");
    let (_, kept) = get(&gui, "api/sgf");
    assert!(kept.contains("C[oust match, game 1]"), "{kept}");
    assert!(!kept.contains("Played with oust gui"), "{kept}");
    let second = s["turns"][1]["gtp"].as_str().unwrap().to_string();
    post(&gui, "api/jump", json!({"moves": 1}));
    post(
        &gui,
        "api/players",
        json!({"black": "human", "white": "human"}),
    );
    let other = if second == "E1" { "E9" } else { "E1" };
    let (status, s) = post(&gui, "api/play", json!({"move": other}));
    assert_eq!((status, s["moves"].as_u64()), (200, Some(2)), "{s}");
    // The placement starts a variation: the loaded line stays the main line, and the comment says so.
    let (_, added) = get(&gui, "api/sgf");
    assert!(
        added.contains(
            "C[oust match, game 1\n\nVariations added in oust gui. Black: human; White: human."
        ),
        "{added}"
    );
    let (status, _) = post(&gui, "api/variation", json!({"action": "promote"}));
    assert_eq!(status, 200);
    let (_, went_on) = get(&gui, "api/sgf");
    assert!(
        went_on.contains(
            "C[oust match, game 1\n\nContinued in oust gui after placement 1 of the loaded record. Black: human; \
             White: human."
        ),
        "{went_on}"
    );
    // A level is named as such.
    post(&gui, "api/new", json!({"board": "5", "level": 3}));
    let (_, text) = get(&gui, "api/sgf");
    assert!(
        text.contains(&format!("Engine: {engine}, level 3]")),
        "{text}"
    );
}
