//! `oust gui`'s page in a headless Chromium over WebDriver, layout and keys: the desktop header, a phone's buttons,
//! what stays in view, the keys and the help overlay, and the screenshots of docs/ (ignored).

#[path = "common/gui.rs"]
#[macro_use]
#[allow(dead_code)]
mod gui_common;

use std::time::Duration;

use oust::gui::Player;
use oust::rules::Shape;
use serde_json::{Value, json};

use gui_common::webdriver::{Browser, say_skipped, unavailable};
use gui_common::*;

/// Whether the element matching `css` shows whole in the window, and in its scrolling panel, without scrolling (and
/// not under whose turn it is, which stays at the top of the panel on a wide screen).
fn in_view(b: &Browser, css: &str) -> Value {
    b.js(
        "const e = document.querySelector(arguments[0]), r = e.getBoundingClientRect();
         const p = e.closest('aside'), a = p ? p.getBoundingClientRect() : {top: 0, bottom: innerHeight};
         const t = document.getElementById('turn-box');
         const top = p && t && !t.contains(e) && getComputedStyle(t).position === 'sticky'
           ? Math.max(a.top, t.getBoundingClientRect().bottom) : a.top;
         return [r.height > 0 && r.top >= Math.max(0, top) - 1 && r.bottom <= Math.min(innerHeight, a.bottom) + 1,
                 r.top, r.bottom, a.bottom, innerHeight, p ? p.scrollTop : 0];",
        json!([css]),
    )
}

/// Issue 48: on a desktop the header stays one row (1000 px wide, and engine against engine at 1280) and the page
/// fits the window; at 1280x800 a review's explanation of a mistake and the Previous and Next buttons show without
/// scrolling.
#[test]
fn browser_the_desktop_header_is_one_row_and_a_review_shows_without_scrolling() {
    let _lock = browser_or_skip!(
        "browser_the_desktop_header_is_one_row_and_a_review_shows_without_scrolling"
    );
    // One row: the middles of the header's items (those shown) lie within a few pixels of each other.
    let rows = "const h = document.querySelector('header');
        const mids = Array.from(h.children).filter(e => e.offsetParent && getComputedStyle(e).visibility !== 'hidden')
          .map(e => e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2);
        return [Math.max(...mids) - Math.min(...mids) < 8 ? 1 : 2, document.documentElement.scrollHeight <= innerHeight,
                h.getBoundingClientRect().height];";
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Engine]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let v = b.js(rows, json!([]));
    assert_eq!((&v[0], &v[1]), (&json!(1), &json!(true)), "at 1000 px: {v}");
    drop(b);
    post(&gui, "api/pause", json!({"paused": true}));
    post(
        &gui,
        "api/players",
        json!({"black": "engine", "white": "engine"}),
    );
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    assert_eq!(
        b.js("return document.getElementById('watch').hidden;", json!([])),
        json!(false)
    );
    let v = b.js(rows, json!([]));
    assert_eq!(
        (&v[0], &v[1]),
        (&json!(1), &json!(true)),
        "engine against engine at 1280 px: {v}"
    );
    // The review of docs/level3-level5-hex7.sgf, at Black's blunder.
    post(
        &gui,
        "api/players",
        json!({"black": "human", "white": "human"}),
    );
    let record = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/level3-level5-hex7.sgf"),
    )
    .unwrap();
    let (status, _) = post(
        &gui,
        "api/load",
        json!({"name": "level3-level5-hex7.sgf", "text": record}),
    );
    assert_eq!(status, 200);
    post(&gui, "api/jump", json!({"moves": 20}));
    wait_drawn(&b, &gui);
    b.click("[data-action=next-mistake]");
    wait_state(&gui, Duration::from_secs(10), "the blunder", |s| {
        s["moves"] == 20
    });
    wait_drawn(&b, &gui);
    b.wait_for(
        "return document.getElementById('mistake-text').textContent.includes('lost');",
        json!([]),
        Duration::from_secs(10),
        "the explanation",
    );
    if let Some(path) = std::env::var_os("OUST_GUI_REVIEW_SCREENSHOT") {
        std::fs::write(path, b.screenshot()).unwrap();
    }
    for css in [
        "#mistake-text",
        "[data-action=prev-mistake]",
        "[data-action=next-mistake]",
    ] {
        let v = in_view(&b, css);
        assert_eq!(v[0], json!(true), "{css} is out of view: {v}");
    }
}

/// A new player's find: after a placement that started a variation, "Black to move" was out of the panel's view. At
/// 1280x800 the panel scrolls by itself: in a reviewed game to the review's explanation at each position (it stays
/// scrolled once a placement leaves the reviewed line and the review goes), and by hand to the move list. Whose turn
/// it is stays at the top of the panel's view whatever scrolls it.
#[test]
fn browser_whose_turn_it_is_stays_in_view_after_a_placement_in_a_variation() {
    let _lock =
        browser_or_skip!("browser_whose_turn_it_is_stays_in_view_after_a_placement_in_a_variation");
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    // Back to placement `at`, and a click on the board on another cell than the line's next placement.
    let place_off_the_line = |at: u64| {
        let next = post(&gui, "api/jump", json!({"moves": at + 1})).1["last"].clone();
        let s = post(&gui, "api/jump", json!({"moves": at})).1;
        wait_drawn(&b, &gui);
        let cell = s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|&v| *v != next)
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        click(&b, &cell);
        wait_state(&gui, Duration::from_secs(5), "the variation", |s| {
            s["variation"]["innermost"] == json!(at + 1)
        });
        wait_drawn(&b, &gui);
        in_view(&b, "[data-role=status]")
    };
    play_some(&gui, Shape::Hex { side: 7 }, 30, 5);
    let v = place_off_the_line(12);
    assert_eq!(v[0], json!(true), "a game's variation: {v}");
    // A reviewed record (docs/level3-level5-hex7.sgf, its review in it), played on by both sides from its blunder.
    let record = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/level3-level5-hex7.sgf"),
    )
    .unwrap();
    let (status, _) = post(
        &gui,
        "api/load",
        json!({"name": "level3-level5-hex7.sgf", "text": record}),
    );
    assert_eq!(status, 200);
    wait_drawn(&b, &gui);
    b.click("[data-play-on='human,human']");
    wait_state(&gui, Duration::from_secs(5), "both sides played on", |s| {
        s["review"] == false
    });
    let v = place_off_the_line(20);
    assert!(v[5].as_f64() > Some(0.0), "the panel is not scrolled: {v}");
    assert_eq!(v[0], json!(true), "a reviewed record's variation: {v}");
    assert_eq!(b.text("[data-role=status]"), "White to move");
    // The panel scrolled by hand to the end of the move list, and the next placement of the variation.
    b.js(
        "const a = document.querySelector('aside'); a.scrollTop = a.scrollHeight;",
        json!([]),
    );
    let cell = state(&gui)["legal"][0].as_str().unwrap().to_string();
    click(&b, &cell);
    wait_drawn(&b, &gui);
    let v = in_view(&b, "[data-role=status]");
    assert_eq!(
        v[0],
        json!(true),
        "the panel scrolled to the move list: {v}"
    );
}

/// A new player's find: on a phone 390 px wide the header's buttons were cut off when more of them showed than fit
/// in its row (it scrolled sideways). Every button of the header and of the board area lies whole on the screen
/// (inside the page's width, the scrollbar left out, and inside any box that clips or scrolls it): with the pie
/// rule's Swap, with Stop while the engine thinks, with engine against engine's Pause, Step and pace, and zoomed in.
/// (`?`, the keyboard's overlay, is not shown on a phone.)
#[test]
fn browser_every_button_shows_whole_on_a_phone() {
    let _lock = browser_or_skip!("browser_every_button_shows_whole_on_a_phone");
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    post(
        &gui,
        "api/new",
        json!({"board": "hex7", "black": "human", "white": "human", "pie": true}),
    );
    let b = Browser::start(1000, 900);
    b.resize(390, 844);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let cut = "const w = document.documentElement.clientWidth, out = [], names = [];
        for (const e of document.querySelectorAll('header button, header label, #board-area button')) {
          if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
          const r = e.getBoundingClientRect(), name = e.dataset.action || e.id || e.textContent.trim();
          names.push(name);
          let whole = r.left >= 0 && r.right <= w + 0.5;
          for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
            const s = getComputedStyle(p), q = p.getBoundingClientRect();
            if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
            whole = whole && r.left >= q.left - 0.5 && r.right <= q.right + 0.5 && r.top >= q.top - 0.5 && r.bottom <= q.bottom + 0.5;
          }
          if (!whole) out.push([name, r.left, r.right, w]);
        }
        return [out, names];";
    let check = |what: &str, must: &str| {
        let v = b.js(cut, json!([]));
        assert_eq!(
            v[0],
            json!([]),
            "{what}: buttons cut off ([name, left, right, width]): {v}"
        );
        assert!(
            v[1].as_array().unwrap().contains(&json!(must)),
            "{what}: {must} is not shown: {v}"
        );
    };
    // The pie rule: after Black's first stone, White may swap.
    post(&gui, "api/play", json!({"move": "D4"}));
    wait_drawn(&b, &gui);
    check("Swap", "swap");
    check("Zoom in", "zoom");
    b.tap("#zoom");
    check("zoomed in", "zoom");
    b.tap("#zoom");
    // The engine thinking (a minute a move): Stop.
    post(&gui, "api/players", json!({"seconds": 60}));
    post(&gui, "api/players", json!({"white": "engine"}));
    b.wait_for(
        "return !document.querySelector('[data-action=stop]').hidden;",
        json!([]),
        Duration::from_secs(10),
        "Stop while the engine thinks",
    );
    check("Stop", "stop");
    post(&gui, "api/stop", json!({}));
    wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["moves"] == 2 && s["engine"]["busy"] != "thinking"
    });
    // Engine against engine, paused: Resume, Step and the pace.
    post(&gui, "api/pause", json!({"paused": true}));
    post(
        &gui,
        "api/players",
        json!({"black": "engine", "white": "engine"}),
    );
    wait_drawn(&b, &gui);
    check("engine against engine", "step");
    check("engine against engine", "resign");
}

#[test]
fn browser_keys_home_end_turns_hint_analysis_and_the_help_overlay() {
    let _lock = browser_or_skip!("browser_keys_home_end_turns_hint_analysis_and_the_help_overlay");
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    // NINE_GAME to two placements after its first capturing turn: a turn of two placements, then one.
    let k = first_capturing_move();
    let moves: Vec<&str> = NINE_GAME.split_whitespace().collect();
    for v in &moves[..k + 3] {
        assert_eq!(post(&gui, "api/play", json!({"move": v})).0, 200);
    }
    let total = k + 3;
    wait_drawn(&b, &gui);
    let at = |n: usize, what: &str| {
        wait_state(&gui, Duration::from_secs(5), what, |s| {
            s["moves"] == json!(n)
        });
        wait_drawn(&b, &gui);
    };
    b.keys("\u{E011}"); // Home
    at(0, "Home: the start");
    b.keys("\u{E010}"); // End
    at(total, "End: the end");
    b.keys("\u{E013}"); // Up: back one turn (one placement)
    at(total - 1, "Up: one turn back");
    b.keys("\u{E013}"); // Up: back over the capturing turn of two placements
    at(total - 3, "Up: the capturing turn back");
    b.keys("\u{E015}"); // Down: forward one turn
    at(total - 1, "Down: the capturing turn again");
    b.keys("\u{E00E}"); // PageUp
    at(total - 3, "PageUp: a turn back");
    b.keys("\u{E00F}"); // PageDown
    at(total - 1, "PageDown: a turn on");
    b.keys("\u{E012}"); // Left: one placement
    at(total - 2, "Left: a placement back");
    b.keys("\u{E010}");
    at(total, "End again");
    // a: analysis on and off; h: a hint.
    b.keys("a");
    wait_state(&gui, Duration::from_secs(5), "analysis on", |s| {
        s["analysis"]["on"] == true
    });
    b.keys("a");
    wait_state(&gui, Duration::from_secs(5), "analysis off", |s| {
        s["analysis"]["on"] == false
    });
    b.keys("h");
    wait_state(&gui, Duration::from_secs(20), "the hint", |s| {
        s["analysis"]["hint"]["best"]["move"].is_string()
    });
    // ?: the overlay lists every key, n and p for the review's mistakes among them; ? again closes it.
    b.keys("?");
    b.wait_for(
        "return document.querySelector('[data-role=help]').open;",
        json!([]),
        Duration::from_secs(5),
        "the help overlay",
    );
    let rows = b.js(
        "return Array.from(document.querySelectorAll('#help-keys tr')).map(r => [r.cells[0].textContent, r.cells[1].textContent]);",
        json!([]),
    );
    let listed: Vec<String> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].as_str().unwrap().to_string())
        .collect();
    for key in [
        "←",
        "→",
        "↑ or PgUp",
        "↓ or PgDn",
        "Home",
        "End",
        "h",
        "a",
        "n",
        "p",
        "?",
    ] {
        assert!(
            listed.iter().any(|l| l == key),
            "{key} is not listed: {rows}"
        );
    }
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r == &json!(["p", "previous mistake"])),
        "{rows}"
    );
    // Keys do nothing else while it is open.
    b.keys("\u{E011}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(state(&gui)["moves"], json!(total));
    b.keys("?");
    b.wait_for(
        "return !document.querySelector('[data-role=help]').open;",
        json!([]),
        Duration::from_secs(5),
        "the overlay to close",
    );
}

/// The screenshots of docs/ (run with `--ignored`; writes docs/gui-*.png, or into the folder
/// `OUST_GUI_SHOTS` names).
#[test]
#[ignore]
fn screenshots() {
    if let Some(why) = unavailable() {
        say_skipped("screenshots", &why);
        return;
    }
    let _lock = browser_lock();
    let docs = std::env::var_os("OUST_GUI_SHOTS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs"),
        std::path::PathBuf::from,
    );
    std::fs::create_dir_all(&docs).unwrap();
    // A hex-7 game in progress with live analysis, the pointer on the best candidate.
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Engine]);
    play_some(&gui, Shape::Hex { side: 7 }, 0, 0);
    post(&gui, "api/players", json!({"white": "human"}));
    play_some(&gui, Shape::Hex { side: 7 }, 14, 3);
    post(&gui, "api/players", json!({"white": "engine"}));
    let b = Browser::start(1280, 860);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.click("[data-role=analysis-toggle]");
    b.wait_for(
        "return document.querySelectorAll('[data-heat]').length >= 5;",
        json!([]),
        Duration::from_secs(20),
        "the heat map",
    );
    std::thread::sleep(Duration::from_secs(4));
    let best = b.js(
        "return document.querySelector('.heat-dot.best').parentNode.dataset.heat;",
        json!([]),
    );
    b.js(
        "document.querySelector(`[data-vertex='${arguments[0]}']`).dispatchEvent(new MouseEvent('mouseenter'));",
        json!([best]),
    );
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(docs.join("gui-hex7-analysis.png"), b.screenshot()).unwrap();
    drop(b);
    drop(gui);
    // A review of a hex-7 game with its mistakes marked: level 3 against level 5 (docs/levels.md), the record with
    // its review loaded, at the position before Black's decisive blunder (J9, placement 21, turn 21), the engine's
    // placement ringed and its line played out.
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    // The record is read from docs/ whichever folder the screenshots go to.
    let record = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/level3-level5-hex7.sgf"),
    )
    .unwrap();
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "level3-level5-hex7.sgf", "text": record}),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["analysis"]["review"]["loaded"], true);
    post(&gui, "api/jump", json!({"moves": 20}));
    let b = Browser::start(1280, 1000);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.click("[data-action=next-mistake]");
    wait_state(&gui, Duration::from_secs(10), "the blunder", |s| {
        s["moves"] == 20
    });
    b.click("#play-line");
    b.js(
        "document.getElementById('mistake-text').scrollIntoView({block: 'end'});",
        json!([]),
    );
    std::thread::sleep(Duration::from_millis(2500));
    std::fs::write(docs.join("gui-review.png"), b.screenshot()).unwrap();
    drop(b);
    drop(gui);
    // A move list with variations: a 7x7 record whose line shown is a variation, the branches under the turn they
    // replace and the variation's bar above.
    let gui = start(Shape::square(7), [Player::Human, Player::Human]);
    post(
        &gui,
        "api/load",
        json!({"name": "lines.sgf", "text": VARIATIONS_SGF}),
    );
    let s = state(&gui);
    let (status, s) = post(
        &gui,
        "api/goto",
        json!({"node": s["turns"][2]["branches"][1]["node"]}),
    );
    assert_eq!(
        (status, s["variation"]["from"].as_u64()),
        (200, Some(3)),
        "{s}"
    );
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.js(
        "document.getElementById('variation-bar').scrollIntoView({block: 'center'});",
        json!([]),
    );
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(docs.join("gui-variations.png"), b.screenshot()).unwrap();
    drop(b);
    drop(gui);
    // A 19x19 board in the middle of a game, in Abstract Play's names.
    let gui = start(Shape::square(19), [Player::Human, Player::Human]);
    play_some(&gui, Shape::square(19), 70, 11);
    let b = Browser::start(1280, 900);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(docs.join("gui-19x19.png"), b.screenshot()).unwrap();
    drop(b);
    drop(gui);
    // A hex-7 game in the middle on a phone (390 px wide) against the engine, which has just moved: the whole
    // board across the width, and zoomed in for tapping.
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    play_some(&gui, Shape::Hex { side: 7 }, 15, 2);
    let engine = state(&gui)["to_move"].as_str().unwrap().to_string();
    post(&gui, "api/players", json!({engine.as_str(): "engine"}));
    wait_state(&gui, Duration::from_secs(30), "the engine's turn", |s| {
        s["to_move"] != engine.as_str() && s["engine"]["busy"] != "thinking"
    });
    let b = Browser::start(1000, 900);
    b.resize(390, 844);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(docs.join("gui-phone-hex7.png"), b.screenshot()).unwrap();
    b.tap("#zoom");
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(docs.join("gui-phone-hex7-zoomed.png"), b.screenshot()).unwrap();
}
