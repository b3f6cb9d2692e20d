//! `oust gui`'s page in a headless Chromium over WebDriver, playing: whole games by clicks with every board checked
//! against the rules core, illegal clicks, the swap and resign, the pointer's preview and cell names, the new game
//! dialog and levels, the panel, the engine's moves, Stop, and the page's speed.

#[path = "common/gui.rs"]
#[macro_use]
#[allow(dead_code)]
mod gui_common;

use std::time::{Duration, Instant};

use oust::gui::Player;
use oust::notation;
use oust::rules::{Color, Geometry, Move, Shape, Status};
use serde_json::{Value, json};

use gui_common::webdriver::{Browser, say_skipped, unavailable};
use gui_common::*;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

fn click_times(b: &Browser) -> Vec<f64> {
    b.js("return window.__oust.clicks.map(c => c.ms);", json!([]))
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .collect()
}

#[test]
fn browser_plays_a_whole_hex5_game_against_the_engine_by_clicks() {
    let _lock = browser_or_skip!("browser_plays_a_whole_hex5_game_against_the_engine_by_clicks");
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Engine]);
    let b = Browser::start(1000, 800);
    b.go(&format!(
        "{}?board=hex5&black=human&white=engine",
        gui.url()
    ));
    wait_drawn(&b, &gui);
    let mut clicks = 0;
    loop {
        // Wait for the engine to finish (Black to move, or the end), then compare the page with the rules.
        let s = wait_state(
            &gui,
            Duration::from_secs(30),
            "black's turn or the end",
            |s| s["over"] == true || (s["to_move"] == "black" && s["engine"]["busy"] != "thinking"),
        );
        wait_drawn(&b, &gui);
        let game = server_game(&gui);
        check_board(&b, game.position());
        if s["over"] == true {
            break;
        }
        // A legal placement by the rules core (not by the page), near the centre of what is legal.
        let mut legal = Vec::new();
        game.position().legal_placements(&mut legal);
        legal.sort();
        let p = legal[legal.len() / 2];
        click(&b, &game.position().geometry().name(p));
        clicks += 1;
        assert!(clicks < 200, "the game does not end");
    }
    let (_, status) = shown(&b);
    assert!(
        status.ends_with("wins") || status == "No winner",
        "{status}"
    );
    let note = b.text("[data-role=note]");
    assert!(
        note.contains("captured every") || note.contains("neither player"),
        "the end says why: {note}"
    );
    let mut t = click_times(&b);
    report(&format!(
        "speed: hex5 game of {clicks} clicks; click -> board redrawn median {:.1} ms, max {:.1} ms",
        median(&mut t),
        t.iter().cloned().fold(0.0, f64::max)
    ));
}

#[test]
fn browser_illegal_click_changes_nothing_and_shows_the_reason() {
    let _lock = browser_or_skip!("browser_illegal_click_changes_nothing_and_shows_the_reason");
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&format!("{}?board=9&black=human&white=human", gui.url()));
    wait_drawn(&b, &gui);
    click(&b, "E5");
    click(&b, "A1");
    wait_drawn(&b, &gui);
    let before = shown(&b);
    click(&b, "E6");
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.length > 0;",
        json!([]),
        Duration::from_secs(5),
        "the refusal",
    );
    assert_eq!(
        b.text("[data-role=message]"),
        "illegal move: E6 joins black stones into a group of 2 that touches no white stone"
    );
    assert_eq!(shown(&b), before, "the illegal click changed the board");
    assert_eq!(state(&gui)["moves"], 2);
    check_board(&b, server_game(&gui).position());
    // An occupied cell is refused in the engine's words too.
    click(&b, "A1");
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.includes('occupied');",
        json!([]),
        Duration::from_secs(5),
        "the refusal",
    );
    assert_eq!(
        b.text("[data-role=message]"),
        "illegal move: A1 is occupied by a white stone"
    );
}

#[test]
fn browser_swap_changes_seats_leaves_nothing_under_the_pointer_and_resign_asks_first() {
    let _lock = browser_or_skip!(
        "browser_swap_changes_seats_leaves_nothing_under_the_pointer_and_resign_asks_first"
    );
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Human]);
    let b = Browser::start(1100, 800);
    b.go(&format!(
        "{}?board=hex5&black=engine&white=human&pie=on",
        gui.url()
    ));
    wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine's first stone",
        |s| s["board"] == "hex5" && s["moves"] == 1 && s["swap"] == true,
    );
    // The engine thinks a while as White after the swap, so that the page can be looked at meanwhile.
    post(&gui, "api/players", json!({"seconds": 1.5}));
    wait_drawn(&b, &gui);
    let at = b.js(
        "const e = document.querySelector('[data-action=swap]'); const r = e.getBoundingClientRect();
         return [r.x + r.width / 2, r.y + r.height / 2, getComputedStyle(e).visibility];",
        json!([]),
    );
    assert_eq!(at[2], "visible", "Swap is offered");
    b.click("[data-action=swap]");
    wait_state(&gui, Duration::from_secs(10), "the swap", |s| {
        s["moves"].as_u64() >= Some(2)
    });
    wait_drawn(&b, &gui);
    // Where Swap was, no button now stands under the pointer (Resign least of all).
    let under = b.js(
        "const e = document.elementFromPoint(arguments[0], arguments[1]); const b = e && e.closest('button');
         return b ? (b.dataset.action || b.id) : null;",
        json!([at[0], at[1]]),
    );
    assert_eq!(
        under,
        Value::Null,
        "a button took Swap's place under the pointer"
    );
    // The seats changed, and the page says who is who.
    let players = b.text("#players");
    assert!(
        players.starts_with("Black: you · White: engine · seats swapped"),
        "{players}"
    );
    let note = b.text("[data-role=note]");
    assert!(
        note.contains("Black (the stone on the board) is now played by you, White by the engine"),
        "{note}"
    );
    // The swap as the page shows it, for a person to look at: OUST_GUI_SWAP_SCREENSHOT=PATH writes it there.
    if let Some(path) = std::env::var_os("OUST_GUI_SWAP_SCREENSHOT") {
        std::fs::write(path, b.screenshot()).unwrap();
    }
    // White, now the engine, moves; then the human, Black.
    wait_state(
        &gui,
        Duration::from_secs(20),
        "the engine's move as White",
        |s| {
            s["moves"].as_u64() >= Some(3)
                && s["to_move"] == "black"
                && s["engine"]["busy"] != "thinking"
        },
    );
    wait_drawn(&b, &gui);
    // Resign asks first; "Keep playing" changes nothing; confirmed, it resigns the human (Black).
    b.click("[data-action=resign]");
    b.wait_for(
        "return document.getElementById('resign-dialog').open;",
        json!([]),
        Duration::from_secs(5),
        "the confirmation",
    );
    assert_eq!(b.text("#resign-text"), "Resign as Black (you)? White wins.");
    b.click("#resign-cancel");
    b.wait_for(
        "return !document.getElementById('resign-dialog').open;",
        json!([]),
        Duration::from_secs(5),
        "the dialog to close",
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(state(&gui)["over"], false, "Keep playing resigned");
    b.click("[data-action=resign]");
    b.wait_for(
        "return document.getElementById('resign-dialog').open;",
        json!([]),
        Duration::from_secs(5),
        "the confirmation",
    );
    b.click("#resign-ok");
    let s = wait_state(&gui, Duration::from_secs(10), "the resignation", |s| {
        s["over"] == true
    });
    assert_eq!(
        (s["status"].as_str(), s["note"].as_str()),
        (Some("White wins"), Some("Black resigned"))
    );
}

#[test]
fn browser_nine_by_nine_with_extra_turns_and_a_forced_pass() {
    let _lock = browser_or_skip!("browser_nine_by_nine_with_extra_turns_and_a_forced_pass");
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&format!("{}?board=9&black=human&white=human", gui.url()));
    wait_drawn(&b, &gui);
    let geo = std::sync::Arc::new(Geometry::square(9).unwrap());
    let mut game = oust::rules::Game::new(geo.clone());
    let (mut extra_turns, mut forced) = (0, 0);
    // The first moves through the API (the server plays them as the page's clicks do), the last ones by clicks.
    const CLICKED_FROM: usize = 50;
    for (i, v) in NINE_GAME.split_whitespace().enumerate() {
        let mv = notation::parse_move(&geo, v).unwrap();
        let color = game.position().to_move();
        let report = game.play(color, mv).unwrap();
        if game.position().status() == Status::MustPass {
            let c = game.position().to_move();
            game.play(c, Move::Pass).unwrap();
        }
        if i < CLICKED_FROM {
            assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
            if i + 1 == CLICKED_FROM {
                wait_drawn(&b, &gui);
                check_board(&b, game.position());
            }
            continue;
        }
        // The click waits for the page to draw the server's answer (the forced pass included).
        click(&b, v);
        check_board(&b, game.position());
        let note = b.text("[data-role=note]");
        let who = |c: Color| if c == Color::Black { "Black" } else { "White" };
        if report.extra_turn && report.outcome.is_none() && report.forced_pass.is_none() {
            extra_turns += 1;
            // The captured stones are shown for a moment as they disappear.
            let vanishing = b.js(
                "return document.querySelectorAll('#board .captured').length;",
                json!([]),
            );
            // (Those of a capture just before may still be fading.)
            assert!(
                vanishing.as_u64().unwrap() as usize >= report.captured,
                "captured stones shown: {vanishing}"
            );
            assert_eq!(
                note,
                format!(
                    "{} places again: extra turn after capturing {}",
                    who(color),
                    report.captured
                )
            );
            assert!(
                b.text("[data-role=status]")
                    .starts_with(&format!("{} to move", who(color)))
            );
        }
        if let Some(c) = report.forced_pass {
            forced += 1;
            assert_eq!(
                note,
                format!("{} had no legal placement and passed (forced)", who(c))
            );
            let moves = b.js("return Array.from(document.querySelectorAll('#moves li')).map(l => l.textContent);", json!([]));
            assert_eq!(
                moves.as_array().unwrap().last().unwrap(),
                "pass",
                "the move list shows the pass"
            );
        }
    }
    assert!(
        extra_turns >= 2 && forced == 1,
        "{extra_turns} extra turns, {forced} forced passes"
    );
    let mut t = click_times(&b);
    report(&format!(
        "speed: 9x9, {} clicks; click -> board redrawn median {:.1} ms",
        t.len(),
        median(&mut t)
    ));
}

#[test]
fn browser_speed_on_hex7_and_19x19() {
    let _lock = browser_or_skip!("browser_speed_on_hex7_and_19x19");
    for (board, shape) in [("hex7", Shape::Hex { side: 7 }), ("19", Shape::square(19))] {
        let gui = start(shape, [Player::Human, Player::Human]);
        let b = Browser::start(1200, 900);
        b.go(&format!(
            "{}?board={board}&black=human&white=human",
            gui.url()
        ));
        wait_drawn(&b, &gui);
        let mut game = oust::rules::Game::new(std::sync::Arc::new(Geometry::new(shape).unwrap()));
        for i in 0..24 {
            let mut legal = Vec::new();
            game.position().legal_placements(&mut legal);
            legal.sort();
            let p = legal[(i * 7919) % legal.len()];
            let color = game.position().to_move();
            game.play(color, Move::Place(p)).unwrap();
            click(&b, &game.position().geometry().name(p));
        }
        wait_drawn(&b, &gui);
        check_board(&b, game.position());
        // Refusals are as quick: a click on an occupied cell.
        let occupied = game.records()[0].mv;
        if let Move::Place(p) = occupied {
            for _ in 0..5 {
                click(&b, &game.position().geometry().name(p));
            }
        }
        let mut t = click_times(&b);
        let refusals: Vec<f64> = b
            .js(
                "return window.__oust.clicks.filter(c => !c.ok).map(c => c.ms);",
                json!([]),
            )
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_f64)
            .collect();
        report(&format!(
            "speed: {board}: click -> redrawn board median {:.1} ms, max {:.1} ms over {} clicks; refusal shown max {:.1} ms",
            median(&mut t),
            t.iter().cloned().fold(0.0, f64::max),
            t.len(),
            refusals.iter().cloned().fold(0.0, f64::max)
        ));
    }
}

/// Issue 48: the hover preview (a ghost stone on the cell under the pointer) is for a mouse only. On a touch screen
/// `:hover` sticks to the last cell tapped, and left a ghost there once its stone was captured.
#[test]
fn browser_the_hover_preview_is_for_a_mouse_only() {
    let _lock = browser_or_skip!("browser_the_hover_preview_is_for_a_mouse_only");
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let fill = "return getComputedStyle(document.querySelector('[data-vertex=C3] .hover')).fill;";
    let hovered = "return document.querySelector('[data-vertex=C3]').matches(':hover');";
    // With a mouse, the pointer on a legal cell shows Black's ghost stone there.
    assert_eq!(
        b.js("return matchMedia('(hover: hover)').matches;", json!([])),
        json!(true)
    );
    b.hover("[data-vertex=C3]");
    assert_eq!(b.js(hovered, json!([])), json!(true));
    assert_eq!(b.js(fill, json!([])), json!("rgba(20, 20, 20, 0.45)"));
    // A touch screen: the cell last tapped keeps :hover, and shows no ghost.
    b.cdp(
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": true, "maxTouchPoints": 5}),
    );
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    assert_eq!(
        b.js("return matchMedia('(hover: none)').matches;", json!([])),
        json!(true)
    );
    b.hover("[data-vertex=C3]");
    assert_eq!(b.js(hovered, json!([])), json!(true));
    assert_eq!(
        b.js(fill, json!([])),
        json!("rgba(0, 0, 0, 0)"),
        "a ghost stone on a touch screen"
    );
    // Nor does a tap preview a candidate's line with live analysis: no pointer would come to take it away. (A
    // loaded record under review, where the tap places nothing.)
    post(
        &gui,
        "api/load",
        json!({"name": "r.sgf", "text": "(;GM[1]SZ[5];B[cc];W[aa])"}),
    );
    post(&gui, "api/analysis", json!({"on": true}));
    let s = wait_state(
        &gui,
        Duration::from_secs(20),
        "candidates with lines",
        |s| {
            s["analysis"]["entries"]["moves"][0]["pv"]
                .as_array()
                .is_some_and(|p| p.len() >= 2)
        },
    );
    let best = s["analysis"]["entries"]["moves"][0]["move"]
        .as_str()
        .unwrap()
        .to_string();
    wait_drawn(&b, &gui);
    let ghosts = "return document.querySelectorAll('#board .pv > *').length;";
    let enter = "document.querySelector(`[data-vertex='${arguments[0]}']`).dispatchEvent(new MouseEvent(arguments[1]));";
    b.js(enter, json!([best, "mouseenter"]));
    assert!(
        b.js(ghosts, json!([])).as_u64() >= Some(2),
        "a mouse's pointer shows the line"
    );
    b.js(enter, json!([best, "mouseleave"]));
    assert_eq!(b.js(ghosts, json!([])), json!(0));
    // A phone's browser follows a tap's pointer events with the compatibility mouse events (mouseenter among
    // them), which WebDriver's touch actions in Chromium do not send: the page gets that sequence as a phone sends it.
    b.js(
        "const g = document.querySelector(`[data-vertex='${arguments[0]}']`);
         g.dispatchEvent(new PointerEvent('pointerenter', {pointerType: 'touch'}));
         g.dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', bubbles: true}));
         g.dispatchEvent(new MouseEvent('mouseenter'));",
        json!([best]),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        b.js(ghosts, json!([])),
        json!(0),
        "a tap drew the line of {best}"
    );
}

/// Issue 48: the name of the cell under the pointer is shown, in the notation chosen, so that a hint's "J9" can be
/// found on a hexhex board whose columns run along slants.
#[test]
fn browser_the_cell_under_the_pointer_is_named() {
    let _lock = browser_or_skip!("browser_the_cell_under_the_pointer_is_named");
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let named = "[data-role=cell-name]";
    assert_eq!(b.text(named), "");
    b.hover("[data-vertex=J9]");
    assert_eq!(b.text(named), "J9");
    // Abstract Play's name once the toggle is on.
    b.click("#notation");
    let geo = Geometry::hex(7).unwrap();
    let ap = notation::cell_name(&geo, geo.parse_vertex("J9").unwrap());
    b.hover("[data-vertex=J9]");
    assert_eq!(b.text(named), ap);
    b.click("#notation");
    b.hover("[data-vertex=J9]");
    assert_eq!(b.text(named), "J9");
    // Off the board, nothing.
    b.hover("#status");
    assert_eq!(b.text(named), "");
}

/// A new player's find: the name of the cell under the pointer was small, in the board area's far corner. It shows
/// beside the cell (above it and to the right, below it or to the left at the board area's edges), at 20 px or more
/// on a light label, inside the board area and never over the cell itself; a tap names the cell tapped the same way.
#[test]
fn browser_the_cell_name_shows_beside_the_cell_under_the_pointer() {
    let _lock = browser_or_skip!("browser_the_cell_name_shows_beside_the_cell_under_the_pointer");
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    // The label's text, its distance to the cell's box (0: they overlap), whether it lies inside the board area,
    // its font size and its background.
    let label = "const l = document.querySelector('[data-role=cell-name]'), r = l.getBoundingClientRect();
        const c = document.querySelector(`[data-vertex='${arguments[0]}']`).getBoundingClientRect();
        const a = document.getElementById('board-area').getBoundingClientRect();
        const dx = Math.max(0, r.left - c.right, c.left - r.right), dy = Math.max(0, r.top - c.bottom, c.top - r.bottom);
        const inside = r.left >= a.left && r.right <= a.right && r.top >= a.top && r.bottom <= a.bottom;
        const st = getComputedStyle(l);
        return [l.textContent, Math.hypot(dx, dy), inside, parseFloat(st.fontSize), st.backgroundColor, r.width];";
    let check = |v: &str, how: &str| {
        let m = b.js(label, json!([v]));
        assert_eq!(m[0], json!(v), "{how} {v}: {m}");
        let dist = m[1].as_f64().unwrap();
        assert!(
            dist > 0.0 && dist <= 80.0,
            "{how} {v}: the label is not beside the cell: {m}"
        );
        assert_eq!(
            m[2],
            json!(true),
            "{how} {v}: the label leaves the board area: {m}"
        );
        assert!(m[3].as_f64() >= Some(20.0), "{how} {v}: {m}");
        assert!(
            m[4] != json!("rgba(0, 0, 0, 0)"),
            "{how} {v}: no background: {m}"
        );
    };
    // The middle, and the cells at the ends of the board, where the label turns to keep inside the board area.
    for v in ["J9", "N13", "N7", "G1", "A1", "A7", "G13"] {
        b.hover(&format!("[data-vertex={v}]"));
        check(v, "pointer on");
    }
    // Off the board, nothing.
    b.hover("#status");
    let m = b.js(label, json!(["J9"]));
    assert_eq!((&m[0], &m[5]), (&json!(""), &json!(0)), "{m}");
    // A tap on a phone: its pointer events, then the compatibility mouseenter (as in the hover preview's test).
    b.resize(390, 844);
    b.wait_for(
        "return matchMedia('(max-width: 760px)').matches;",
        json!([]),
        Duration::from_secs(5),
        "the phone's layout",
    );
    for v in ["N7", "A7", "J9"] {
        b.js(
            "const g = document.querySelector(`[data-vertex='${arguments[0]}']`);
             g.dispatchEvent(new PointerEvent('pointerenter', {pointerType: 'touch'}));
             g.dispatchEvent(new PointerEvent('pointerdown', {pointerType: 'touch', bubbles: true}));
             g.dispatchEvent(new MouseEvent('mouseenter'));",
            json!([v]),
        );
        check(v, "tap on");
    }
}

/// Stop on the page while the engine thinks for a minute: the engine's move, its best so far, appears at once as
/// any engine move does, and the engine is not restarted.
#[test]
fn browser_stop_plays_the_engine_s_best_move_so_far_without_a_restart() {
    let _lock =
        browser_or_skip!("browser_stop_plays_the_engine_s_best_move_so_far_without_a_restart");
    let gui = start(Shape::square(7), [Player::Human, Player::Engine]);
    post(&gui, "api/players", json!({"seconds": 60}));
    let pid = state(&gui)["engine"]["pid"].as_u64().unwrap();
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    click(&b, "D4");
    b.wait_for(
        "return !document.querySelector('[data-action=stop]').hidden;",
        json!([]),
        Duration::from_secs(10),
        "the Stop button while the engine thinks",
    );
    let asked = Instant::now();
    b.click("[data-action=stop]");
    b.wait_for(
        "return document.querySelectorAll('#board [data-stone]').length === 2
            && document.querySelector('[data-action=stop]').hidden;",
        json!([]),
        Duration::from_secs(20),
        "the engine's move on the page",
    );
    // Long before the minute the search was set for.
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(10), "{took:?}");
    let s = state(&gui);
    assert_eq!(
        (s["moves"].as_u64(), s["to_move"].as_str()),
        (Some(2), Some("black"))
    );
    assert_eq!(
        s["engine"]["pid"].as_u64(),
        Some(pid),
        "the engine was restarted"
    );
    wait_drawn(&b, &gui);
    check_board(&b, server_game(&gui).position());
    let lines = console_lines(&gui);
    assert!(
        lines
            .iter()
            .any(|l| l == "! stopped: the engine answers with its best move so far"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("restarted")), "{lines:?}");
}

#[test]
fn browser_new_game_dialog_and_a_phone_sized_window() {
    let _lock = browser_or_skip!("browser_new_game_dialog_and_a_phone_sized_window");
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Engine]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.click("[data-action=new]");
    let set = |id: &str, value: &str| {
        b.js(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
            json!([id, value]),
        );
    };
    set("new-kind", "rect");
    set("new-a", "7");
    set("new-b", "5");
    set("new-white", "human");
    set("new-strength", "playouts");
    set("new-strength-value", "300");
    b.click("#new-pie");
    b.click("#new-ok");
    let s = wait_state(&gui, Duration::from_secs(10), "the new game", |s| {
        s["board"] == "7x5"
    });
    assert_eq!(s["players"], json!({"black": "human", "white": "human"}));
    assert_eq!(s["pie"], true);
    assert_eq!(s["strength"], json!({"kind": "playouts", "value": 300}));
    b.wait_for(
        "return document.querySelectorAll('[data-vertex]').length === 35;",
        json!([]),
        Duration::from_secs(10),
        "the 7x5 board",
    );
    // A size oust does not play is refused in the dialog, which stays open.
    b.click("[data-action=new]");
    set("new-kind", "hex");
    b.js("document.getElementById('new-a').max = 99;", json!([]));
    set("new-a", "14");
    b.click("#new-ok");
    b.wait_for(
        "return document.getElementById('new-error').textContent.length > 0;",
        json!([]),
        Duration::from_secs(10),
        "the refusal",
    );
    assert!(
        b.text("#new-error").contains("14"),
        "{}",
        b.text("#new-error")
    );
    assert_eq!(state(&gui)["board"], "7x5");
    b.js("document.getElementById('new-dialog').close();", json!([]));
    // On a phone-sized window the whole hex-7 board is on the screen, across its whole width, under a header of
    // one row.
    post(&gui, "api/new", json!({"board": "hex7"}));
    b.resize(390, 844);
    b.wait_for(
        "return document.querySelectorAll('[data-vertex]').length === 127;",
        json!([]),
        Duration::from_secs(10),
        "the hex-7 board",
    );
    let measure = || {
        b.js(
            "const r = Array.from(document.querySelectorAll('[data-vertex] .tile')).map(t => t.getBoundingClientRect());
             const area = document.getElementById('board-area');
             return {left: Math.min(...r.map(x => x.left)), right: Math.max(...r.map(x => x.right)),
                     cell: Math.min(...r.map(x => x.width)), inner: document.documentElement.clientWidth,
                     board: (() => { const svg = document.getElementById('board'), vb = svg.viewBox.baseVal,
                       r = svg.getBoundingClientRect(); return Math.min(r.width / vb.width, r.height / vb.height) * vb.width; })(),
                     header: document.querySelector('header').getBoundingClientRect().height,
                     pans: area.scrollWidth > area.clientWidth + 1,
                     zoom: !!document.getElementById('zoom') && !document.getElementById('zoom').hidden};",
            json!([]),
        )
    };
    let fit = measure();
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
    assert!(
        f(&fit, "left") >= 0.0 && f(&fit, "right") <= f(&fit, "inner"),
        "the board leaves the screen: {fit}"
    );
    // (The board drawn, its coordinates included: the SVG's scale times the width of its view box.)
    assert!(
        f(&fit, "board") >= 0.99 * f(&fit, "inner"),
        "the board does not take the width: {fit}"
    );
    assert!(
        f(&fit, "header") <= 50.0,
        "the header wraps into more than one row: {fit}"
    );
    // Its cells are too small for a fingertip (hex-7 is 13 cells across): Zoom in makes them at least 32 px, and
    // the board pans sideways; a tap plays at either end of the widest row.
    assert!(f(&fit, "cell") < 32.0 && fit["zoom"] == true, "{fit}");
    b.tap("#zoom");
    let zoomed = measure();
    assert!(
        f(&zoomed, "cell") >= 32.0 && zoomed["pans"] == true,
        "zoomed: {zoomed}"
    );
    assert!(
        f(&zoomed, "header") <= 50.0,
        "the header wraps into more than one row: {zoomed}"
    );
    report(&format!(
        "phone window {} px wide: hex-7 cells {:.0} px wide, zoomed {:.0} px",
        f(&fit, "inner"),
        f(&fit, "cell"),
        f(&zoomed, "cell")
    ));
    let ends = b.js(
        "const c = Array.from(document.querySelectorAll('[data-vertex]')).map(g => [g.dataset.vertex, g.getBoundingClientRect()]);
         c.sort((a, b) => a[1].left - b[1].left);
         return [c[0][0], c[c.length - 1][0], c[c.length - 1][1].right > document.documentElement.clientWidth];",
        json!([]),
    );
    assert_eq!(
        ends[2], true,
        "the right end is off the screen until panned"
    );
    for (i, end) in [&ends[1], &ends[0]].into_iter().enumerate() {
        b.tap(&format!("[data-vertex=\"{}\"]", end.as_str().unwrap()));
        let s = wait_state(&gui, Duration::from_secs(10), "the tapped placement", |s| {
            s["moves"] == json!(i + 1)
        });
        assert_eq!(s["last"], *end);
    }
    wait_drawn(&b, &gui);
    check_board(&b, server_game(&gui).position());
    b.tap("#zoom");
    let back = measure();
    assert!(
        f(&back, "right") <= f(&back, "inner") && back["pans"] == false,
        "{back}"
    );
    // Moves played keep the board on the screen: the move list, below it, scrolls to its last entry by itself,
    // and the page does not jump there.
    post(&gui, "api/new", json!({"board": "hex7"}));
    wait_drawn(&b, &gui);
    b.js("window.scrollTo(0, 0);", json!([]));
    play_some(&gui, Shape::Hex { side: 7 }, 30, 1);
    wait_drawn(&b, &gui);
    let scrolled = b.js(
        "const ol = document.getElementById('moves'); const cur = ol.querySelector('.current').getBoundingClientRect();
         const box = ol.getBoundingClientRect();
         return [window.scrollY, ol.scrollTop > 0, cur.bottom <= box.bottom + 1 && cur.top >= box.top - 1];",
        json!([]),
    );
    assert_eq!(
        scrolled,
        json!([0, true, true]),
        "[page scroll, list scrolled, last entry shown]"
    );
}

/// `n` with a comma between thousands, as the page writes an Elo: 1,420.
fn thousands(n: i32) -> String {
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

#[test]
fn browser_levels_in_the_new_game_dialog_with_their_elo_and_the_next_level_after_two_losses() {
    use oust::gtp::levels::LEVEL_ELO;
    let _lock = browser_or_skip!(
        "browser_levels_in_the_new_game_dialog_with_their_elo_and_the_next_level_after_two_losses"
    );
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Engine]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.click("[data-action=new]");
    let set = |id: &str, value: &str| {
        b.js(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event('change'));",
            json!([id, value]),
        );
    };
    let option = |level: u8| {
        b.js(
            "const o = document.querySelector(`#new-strength option[value='level:${arguments[0]}']`); return o ? [o.textContent, o.title] : null;",
            json!([level]),
        )
    };
    // Issue 48: each level says what it is like, in words; its Elo is in the tooltip, hex-7's on a hexhex board,
    // 9x9's on a square one.
    let elo = |n: i32| {
        format!(
            "about {} Elo above the random player (measured between engines, not people)",
            thousands(n)
        )
    };
    assert_eq!(
        option(3),
        json!([
            "Level 3: a beginner who sees the simple captures",
            elo(LEVEL_ELO[2].hex7)
        ])
    );
    assert_eq!(option(6)[0], json!("Level 6: a club player"));
    set("new-kind", "square");
    set("new-a", "5");
    assert_eq!(
        option(3),
        json!([
            "Level 3: a beginner who sees the simple captures",
            elo(LEVEL_ELO[2].square9)
        ])
    );
    set("new-strength", "level:3");
    assert_eq!(
        b.js(
            "return document.getElementById('new-strength-value').hidden;",
            json!([])
        ),
        json!(true),
        "a level takes no number of seconds or playouts"
    );
    b.click("#new-ok");
    let s = wait_state(&gui, Duration::from_secs(10), "the new game", |s| {
        s["board"] == "5x5"
    });
    assert_eq!(s["strength"], json!({"kind": "level", "value": 3}));
    b.wait_for(
        "return document.getElementById('players').textContent.includes('White: engine, level 3');",
        json!([]),
        Duration::from_secs(10),
        "the players line",
    );
    // Two losses in a row: the page says so and offers level 2, which starts at a click.
    post(&gui, "api/resign", json!({}));
    post(&gui, "api/new", json!({}));
    post(&gui, "api/resign", json!({}));
    b.wait_for(
        "return !document.getElementById('level-result').hidden && !document.getElementById('next-level').hidden;",
        json!([]),
        Duration::from_secs(10),
        "the suggestion",
    );
    assert_eq!(
        b.text("#level-result-text"),
        "You lost against level 3. That is 2 losses in a row: try level 2?"
    );
    assert_eq!(
        b.text("#next-level"),
        "Play level 2 (a beginner who plays by eye)"
    );
    assert_eq!(
        b.js(
            "return document.getElementById('next-level').title;",
            json!([])
        ),
        json!(elo(LEVEL_ELO[1].square9))
    );
    b.click("#next-level");
    let s = wait_state(&gui, Duration::from_secs(10), "level 2", |s| {
        s["strength"]["value"] == 2
    });
    assert_eq!(
        (s["board"].as_str(), s["over"].as_bool()),
        (Some("5x5"), Some(false))
    );
    b.wait_for(
        "return document.getElementById('level-result').hidden;",
        json!([]),
        Duration::from_secs(10),
        "the result to go with the new game",
    );
}

#[test]
fn browser_the_panel_shows_stones_captures_the_last_turn_and_the_engines_thinking_time() {
    let _lock = browser_or_skip!(
        "browser_the_panel_shows_stones_captures_the_last_turn_and_the_engines_thinking_time"
    );
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    // Two humans up to the end of NINE_GAME's first capturing turn.
    let k = first_capturing_move();
    let moves: Vec<&str> = NINE_GAME.split_whitespace().collect();
    for v in &moves[..k + 2] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    wait_drawn(&b, &gui);
    let s = state(&gui);
    let tally = |what: &str| b.text(&format!("[data-tally={what}]"));
    for c in ["black", "white"] {
        assert_eq!(
            tally(&format!("{c}-stones")),
            s[format!("stones_{c}")].to_string()
        );
        assert_eq!(
            tally(&format!("{c}-captured")),
            s["captures"][c].to_string()
        );
    }
    let mover = s["last_turn"]["color"].as_str().unwrap();
    let n = s["last_turn"]["placements"][0]["captured"]
        .as_u64()
        .unwrap();
    assert_eq!(
        b.text("[data-role=last-turn]"),
        format!(
            "{}'s last turn: {} captured {n}, extra turn · {}",
            if mover == "black" { "Black" } else { "White" },
            moves[k],
            moves[k + 1]
        )
    );
    // The engine takes the side to move: its turn stays readable after it, with its thinking time in the list.
    let engine_color = s["to_move"].as_str().unwrap().to_string();
    post(
        &gui,
        "api/players",
        json!({engine_color.as_str(): "engine"}),
    );
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's turn", |s| {
        s["to_move"] != engine_color.as_str() && s["engine"]["busy"] != "thinking"
    });
    wait_drawn(&b, &gui);
    let last = b.text("[data-role=last-turn]");
    assert!(
        last.starts_with(&format!(
            "{}'s last turn: ",
            if engine_color == "black" {
                "Black"
            } else {
                "White"
            }
        )),
        "{last}"
    );
    let turn = s["turns"].as_array().unwrap().last().unwrap();
    let seconds = turn["seconds"].as_f64().expect("the engine's time");
    let li = b.js(
        "const li = document.querySelector(`#moves li[data-moves='${arguments[0]}']`);
         return [li.querySelector('.think') ? li.querySelector('.think').textContent : null, li.title];",
        json!([turn["moves"]]),
    );
    let shown = format!("{seconds:.1} s");
    assert_eq!(li[0], json!(format!(" {shown}")), "{li}");
    assert_eq!(
        li[1],
        json!(format!("the engine thought {shown} for this turn"))
    );
    // Issue 48: Abstract Play's names, all at once: the last turn names its cells so, as the list does, and the
    // list keeps its thinking times.
    b.click("#notation");
    let geo = Geometry::square(9).unwrap();
    let ap = |gtp: &str| {
        gtp.split(',')
            .map(|v| notation::cell_name(&geo, geo.parse_vertex(v).unwrap()))
            .collect::<Vec<_>>()
    };
    let engine_cells = ap(turn["gtp"].as_str().unwrap());
    let last = b.text("[data-role=last-turn]");
    for (cell, gtp) in engine_cells
        .iter()
        .zip(turn["gtp"].as_str().unwrap().split(','))
    {
        assert!(last.contains(cell.as_str()), "{last} lacks {cell}");
        if !cell.eq_ignore_ascii_case(gtp) {
            assert!(!last.contains(gtp), "{last} still says {gtp}");
        }
    }
    let li = b.js(
        "const li = document.querySelector(`#moves li[data-moves='${arguments[0]}']`);
         return [li.querySelector('.think') ? li.querySelector('.think').textContent : null, li.textContent];",
        json!([turn["moves"]]),
    );
    assert_eq!(li[0], json!(format!(" {shown}")), "the time went: {li}");
    assert!(
        li[1].as_str().unwrap().starts_with(&engine_cells.join(",")),
        "{li}"
    );
    b.click("#notation");
    // Rule 7: nothing follows the winning capture; a capture in a turn resigned in its extra turn won nothing.
    let humans = json!({"black": "human", "white": "human"});
    let mut args = humans.clone();
    args["board"] = json!("3");
    post(&gui, "api/new", args);
    for v in ["A1", "B1", "A2"] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    wait_drawn(&b, &gui);
    assert_eq!(
        b.text("[data-role=last-turn]"),
        "Black's last turn: A2 captured 1 and won"
    );
    let mut args = humans;
    args["board"] = json!("4");
    post(&gui, "api/new", args);
    for v in ["A1", "B1", "D4", "C1"] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    post(&gui, "api/resign", json!({}));
    wait_drawn(&b, &gui);
    assert_eq!(
        b.text("[data-role=last-turn]"),
        "White's last turn: C1 captured 1, extra turn · then resigned"
    );
}

#[test]
fn browser_engine_move_says_it_hands_over_the_seat_and_the_pace_and_a_pause_are_shown() {
    let _lock = browser_or_skip!(
        "browser_engine_move_says_it_hands_over_the_seat_and_the_pace_and_a_pause_are_shown"
    );
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    click(&b, "C3");
    // White, a human's seat: the button says what it does, and asks first.
    let title = b.js(
        "return document.querySelector('[data-action=engine-move]').title;",
        json!([]),
    );
    assert_eq!(
        title,
        json!(
            "White will be played by the engine from now on: it moves at once from this position"
        )
    );
    b.click("[data-action=engine-move]");
    b.wait_for(
        "return document.querySelector('[data-role=engine-dialog]').open;",
        json!([]),
        Duration::from_secs(5),
        "the question",
    );
    assert_eq!(
        b.text("#engine-text"),
        "White will be played by the engine from now on: it moves at once from this position."
    );
    assert_eq!(b.text("#engine-ok"), "Engine plays White");
    b.click("#engine-cancel");
    std::thread::sleep(Duration::from_millis(300));
    let s = state(&gui);
    assert_eq!(
        (s["players"]["white"].as_str(), s["moves"].as_u64()),
        (Some("human"), Some(1)),
        "Cancel handed over the seat"
    );
    b.click("[data-action=engine-move]");
    b.wait_for(
        "return document.querySelector('[data-role=engine-dialog]').open;",
        json!([]),
        Duration::from_secs(5),
        "the question",
    );
    b.click("#engine-ok");
    wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["players"]["white"] == "engine" && s["moves"].as_u64() >= Some(2)
    });
    // Engine against engine: the pace slider shows its value, and a paused game says so.
    post(&gui, "api/pause", json!({"paused": true}));
    post(&gui, "api/pace", json!({"ms": 1500}));
    post(&gui, "api/players", json!({"black": "engine"}));
    wait_drawn(&b, &gui);
    b.wait_for(
        "return document.getElementById('pace-value').textContent === '1.5 s';",
        json!([]),
        Duration::from_secs(5),
        "the pace's value",
    );
    let status = b.text("[data-role=status]");
    assert!(status.contains("(paused"), "{status}");
    // Moving the slider shows the new value at once.
    b.js(
        "const p = document.getElementById('pace'); p.value = 300; p.dispatchEvent(new Event('input'));",
        json!([]),
    );
    assert_eq!(b.text("#pace-value"), "0.3 s");
    post(&gui, "api/pause", json!({"paused": false}));
    wait_drawn(&b, &gui);
    let status = b.text("[data-role=status]");
    assert!(!status.contains("paused"), "{status}");
}
