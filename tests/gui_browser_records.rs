//! `oust gui`'s page in a headless Chromium over WebDriver, records: loaded, stepped and saved, broken and oversized
//! uploads refused, the move list, and the variations (branches, promote, delete).

#[path = "common/gui.rs"]
#[macro_use]
#[allow(dead_code)]
mod gui_common;

use std::time::{Duration, Instant};

use oust::gui::Player;
use oust::rules::{Geometry, Shape};
use oust::{notation, sgf};
use serde_json::json;

use gui_common::webdriver::{Browser, say_skipped, unavailable};
use gui_common::*;

#[test]
fn browser_records_load_step_save_and_a_broken_upload_is_refused() {
    let _lock = browser_or_skip!("browser_records_load_step_save_and_a_broken_upload_is_refused");
    let gui = start(Shape::square(9), [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.js(
        "document.querySelectorAll('details').forEach(d => d.open = true);",
        json!([]),
    );
    // An SGF record of a hex-5 game (oust's HX property), opened with the file picker.
    let geo = std::sync::Arc::new(Geometry::hex(5).unwrap());
    let mut game = oust::rules::Game::new(geo.clone());
    for v in ["C3", "E5", "A1", "G7"] {
        let c = game.position().to_move();
        game.play(c, notation::parse_move(&geo, v).unwrap())
            .unwrap();
    }
    let text = sgf::write(&game, &sgf::GameInfo::default());
    let dir = std::env::temp_dir().join(format!("oust-gui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hex5.sgf");
    std::fs::write(&file, &text).unwrap();
    b.type_into("#file", file.to_str().unwrap());
    b.wait_for(
        "return document.querySelector('svg#board').dataset.board === 'hex5' && window.__oust.version >= 0 \
         && document.querySelectorAll('[data-stone]').length === 4;",
        json!([]),
        Duration::from_secs(10),
        "the loaded record",
    );
    check_board(&b, game.position());
    // The page says what was loaded, and offers who plays on; nobody moves meanwhile.
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.startsWith('loaded hex5.sgf');",
        json!([]),
        Duration::from_secs(5),
        "the loaded message",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        b.text("[data-role=message]")
            .starts_with("loaded hex5.sgf: 4 moves"),
        "{}",
        b.text("[data-role=message]")
    );
    // What a record held is no error: it is not in the error red that a refusal is in (below).
    let message_colour = || {
        b.js(
            "const m = document.querySelector('[data-role=message]');
             const red = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim();
             const probe = document.createElement('span'); probe.style.color = red; document.body.append(probe);
             const redRgb = getComputedStyle(probe).color; probe.remove();
             return [m.classList.contains('error'), getComputedStyle(m).color === redRgb];",
            json!([]),
        )
    };
    assert_eq!(message_colour(), json!([false, false]), "a notice in red");
    assert_eq!(
        b.js(
            "return document.querySelector('[data-role=play-on]').hidden;",
            json!([])
        ),
        json!(false)
    );
    // Step back and forth with the arrow keys; every board shown is the rules' position.
    let mut positions = vec![game.position().clone()];
    let mut g = game.clone();
    while g.undo().is_some() {
        positions.push(g.position().clone());
    }
    for (i, pos) in positions.iter().enumerate().skip(1) {
        b.keys("\u{E012}");
        wait_state(&gui, Duration::from_secs(5), "a step back", |s| {
            s["moves"] == json!(4 - i)
        });
        wait_drawn(&b, &gui);
        check_board(&b, pos);
    }
    for i in 1..=4 {
        b.keys("\u{E014}");
        wait_state(&gui, Duration::from_secs(5), "a step on", |s| {
            s["moves"] == json!(i)
        });
    }
    wait_drawn(&b, &gui);
    check_board(&b, game.position());
    // A click in the move list jumps there.
    b.click("#moves li[data-moves=\"2\"]");
    wait_state(&gui, Duration::from_secs(5), "the jump", |s| {
        s["moves"] == 2
    });
    wait_drawn(&b, &gui);
    check_board(&b, &positions[2]);
    // Save: the page's download is the record, with the moves after the jump too.
    let saved = b.js(
        "const done = arguments[arguments.length - 1]; return fetch(document.getElementById('save-sgf').href).then(r => r.text());",
        json!([]),
    );
    let saved = sgf::replay(&sgf::parse(saved.as_str().unwrap()).unwrap(), None).unwrap();
    assert_eq!(saved.position(), game.position(), "the saved record");
    // An Abstract Play record, pasted.
    let ap = r#"{"header": {"game": {"name": "Oust", "variants": ["hex-6"]}, "players": [{"name": "A"}, {"name": "B"}]},
                "moves": [["f6", "a1"], ["k1"]]}"#;
    b.js(
        "document.getElementById('paste').value = arguments[0];",
        json!([ap]),
    );
    b.click("[data-action=load-paste]");
    b.wait_for(
        "return document.querySelector('svg#board').dataset.board === 'hex6' && document.querySelectorAll('[data-stone]').length === 3;",
        json!([]),
        Duration::from_secs(10),
        "the Abstract Play record",
    );
    let record = oust::abstract_play::parse(ap, Shape::Hex { side: 6 }).unwrap();
    let ap_game = oust::abstract_play::replay(&record).unwrap();
    wait_drawn(&b, &gui);
    check_board(&b, ap_game.position());
    let list = b.js(
        "return Array.from(document.querySelectorAll('#moves li')).map(l => l.textContent);",
        json!([]),
    );
    assert_eq!(list, json!(["start", "F6", "A1", "F11"]));
    b.click("#notation");
    let list = b.js(
        "return Array.from(document.querySelectorAll('#moves li')).map(l => l.textContent);",
        json!([]),
    );
    assert_eq!(
        list,
        json!(["start", "f6", "a1", "k1"]),
        "Abstract Play's names"
    );
    let label = b.js("return Array.from(document.querySelectorAll('#board .label')).filter(l => l.getAttribute('visibility') !== 'hidden').map(l => l.textContent).includes('k');", json!([]));
    assert_eq!(
        label,
        json!(true),
        "the row letters of Abstract Play are shown"
    );
    b.click("#notation");
    // A broken upload: refused with the turn and why, and the board stays as it was.
    let before = shown(&b);
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "f6\na1\nf6\n").unwrap();
    b.type_into("#file", broken.to_str().unwrap());
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.includes('broken.txt');",
        json!([]),
        Duration::from_secs(10),
        "the refusal",
    );
    assert_eq!(
        b.text("[data-role=message]"),
        "broken.txt: turn 3 ('f6', line 3): f6 is illegal: F6 is occupied by a black stone"
    );
    assert_eq!(
        message_colour(),
        json!([true, true]),
        "a refusal not in red"
    );
    assert_eq!(shown(&b), before, "the broken upload changed the board");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 48: a pasted record, or a file, over the size limit is refused by the page before it is sent, naming the
/// limit; the refusal stays until the next action.
#[test]
fn browser_a_record_over_the_size_limit_is_refused_before_it_is_sent() {
    let _lock =
        browser_or_skip!("browser_a_record_over_the_size_limit_is_refused_before_it_is_sent");
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Human]);
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.js(
        "document.querySelectorAll('details').forEach(d => d.open = true);
         window.__sent = [];
         const f = window.fetch;
         window.fetch = (u, o) => { if (String(u).includes('load')) window.__sent.push(String(u)); return f(u, o); };
         document.getElementById('paste').value = '(;GM[1]HX[5]C[' + 'x'.repeat(5 * 1000 * 1000) + '])';",
        json!([]),
    );
    b.click("[data-action=load-paste]");
    let message = "[data-role=message]";
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.includes('over the limit');",
        json!([]),
        Duration::from_secs(10),
        "the refusal of the pasted record",
    );
    let text = b.text(message);
    assert!(
        text.starts_with("the record is over the limit: it is 4.8 MiB (")
            && text.ends_with("and oust gui takes at most 4.0 MiB (4194304 bytes) a request"),
        "{text}"
    );
    assert_eq!(
        b.js("return window.__sent;", json!([])),
        json!([]),
        "sent anyway"
    );
    // It stays through the next state the server pushes.
    post(&gui, "api/analysis", json!({"on": false}));
    wait_drawn(&b, &gui);
    assert_eq!(b.text(message), text);
    // A 30 MB file: refused before it is read.
    let dir = std::env::temp_dir().join(format!("oust-gui-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.sgf");
    std::fs::write(&big, "x".repeat(30 * 1000 * 1000)).unwrap();
    b.type_into("#file", big.to_str().unwrap());
    b.wait_for(
        "return document.querySelector('[data-role=message]').textContent.includes('28.6 MiB');",
        json!([]),
        Duration::from_secs(10),
        "the refusal of the file",
    );
    assert_eq!(
        b.js("return window.__sent;", json!([])),
        json!([]),
        "sent anyway"
    );
    assert_eq!(state(&gui)["moves"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 48: the move list shows its current entry whole after every move, to the last turn of the game, even when
/// the engine's thinking time makes that entry wrap onto a second line.
#[test]
fn browser_the_move_list_shows_its_current_entry_whole_to_the_end_of_the_game() {
    let _lock = browser_or_skip!(
        "browser_the_move_list_shows_its_current_entry_whole_to_the_end_of_the_game"
    );
    let gui = start(Shape::square(7), [Player::Human, Player::Human]);
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    // A narrow panel, so that a turn of several placements with its time takes two lines.
    b.js(
        "document.querySelector('aside').style.flexBasis = '140px';",
        json!([]),
    );
    post(&gui, "api/pace", json!({"ms": 150}));
    post(
        &gui,
        "api/players",
        json!({"black": "engine", "white": "engine"}),
    );
    // After each drawing (scripts run between them), the current entry lies within the list's visible inside
    // (a horizontal scrollbar, say, would cover its bottom).
    let check = "const ol = document.getElementById('moves'), li = ol.querySelector('.current');
        if (!li) return null;
        const top = ol.getBoundingClientRect().top + ol.clientTop, bottom = top + ol.clientHeight;
        const r = li.getBoundingClientRect();
        return [r.top >= top - 1 && r.bottom <= bottom + 1, li.textContent, r.height, bottom - r.bottom];";
    let until = Instant::now() + Duration::from_secs(120);
    let mut wrapped = 0;
    loop {
        let over = state(&gui)["over"] == true;
        if over {
            wait_drawn(&b, &gui);
        }
        let v = b.js(check, json!([]));
        if !v.is_null() {
            assert_eq!(v[0], json!(true), "the current entry is cut off: {v}");
            wrapped += usize::from(v[2].as_f64().unwrap() > 30.0);
        }
        if over {
            break;
        }
        assert!(Instant::now() < until, "the game did not end");
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(wrapped > 0, "no entry took two lines");
    // The last turn is the current entry, and the list is scrolled to its very end.
    let end = b.js(
        "const ol = document.getElementById('moves');
         return [ol.lastElementChild.classList.contains('current'), ol.scrollHeight - ol.scrollTop - ol.clientHeight];",
        json!([]),
    );
    assert_eq!(end[0], json!(true), "{end}");
    assert!(end[1].as_f64().unwrap() <= 1.0, "{end}");
}

/// Issue 48, part 2: the move list shows the branches of the line, a click goes into one, and the variation's bar
/// promotes it to the main line or deletes it.
#[test]
fn browser_the_move_list_shows_branches_and_the_variation_bar_promotes_and_deletes() {
    let _lock = browser_or_skip!(
        "browser_the_move_list_shows_branches_and_the_variation_bar_promotes_and_deletes"
    );
    let gui = start(Shape::square(7), [Player::Human, Player::Human]);
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "lines.sgf", "text": VARIATIONS_SGF}),
    );
    assert_eq!(status, 200, "{s}");
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let rows = "return [...document.querySelectorAll('#moves li')].map(li => li.textContent);";
    assert_eq!(
        b.js(rows, json!([])),
        json!(["start", "D4", "A7", "G1", "or B7F1", "A1", "G7", "B6"]),
        "the branches under the turn they are the alternatives of"
    );
    assert!(
        b.js(
            "return document.getElementById('variation-bar').hidden;",
            json!([])
        ) == json!(true)
    );
    // Into the second variation: the list shows its line, the bar says where it leaves the main line.
    b.click("[data-role=branches] button:nth-of-type(2)");
    let s = wait_state(&gui, Duration::from_secs(5), "the variation", |s| {
        s["moves"] == 3
    });
    assert_eq!(turn_names(&s), ["D4", "A7", "F1", "G2"]);
    wait_drawn(&b, &gui);
    assert_eq!(
        b.text("#variation-text"),
        "A variation: this line leaves the main line at placement 3."
    );
    assert_eq!(
        b.js(rows, json!([])),
        json!(["start", "D4", "A7", "F1", "or G1 (main line)B7", "G2"])
    );
    b.click("[data-action=promote-line]");
    let s = wait_state(&gui, Duration::from_secs(5), "the promotion", |s| {
        s["variation"].is_null()
    });
    assert_eq!(turn_names(&s), ["D4", "A7", "F1", "G2"]);
    wait_drawn(&b, &gui);
    assert_eq!(
        b.js(
            "return document.getElementById('variation-bar').hidden;",
            json!([])
        ),
        json!(true)
    );
    // The old main line, now a variation, is deleted from its bar.
    b.click("[data-role=branches] button:nth-of-type(1)");
    wait_state(&gui, Duration::from_secs(5), "the old main line", |s| {
        !s["variation"].is_null()
    });
    wait_drawn(&b, &gui);
    // Delete asks first: the second click deletes.
    b.click("[data-action=delete-variation]");
    b.click("[data-action=delete-variation]");
    let s = wait_state(&gui, Duration::from_secs(5), "the deletion", |s| {
        s["lines"] == 2
    });
    assert_eq!(
        (turn_names(&s), s["moves"].as_u64()),
        (
            vec!["D4".to_string(), "A7".into(), "F1".into(), "G2".into()],
            Some(2)
        )
    );
    wait_drawn(&b, &gui);
    assert_eq!(
        b.text("#message"),
        "deleted the variation from placement 3: 4 moves"
    );
}

/// A 7x7 record whose variation at the third placement (B7) has two lines of its own (G1 A1, and G7).
const NESTED_SGF: &str = "(;GM[1]SZ[7];B[dd];W[aa](;B[gg];W[ag])(;B[ba](;W[gg];B[ag])(;W[ga])))";

/// A new player's find: Delete variation deleted at once. Its first click asks in the button itself how many moves it
/// would delete (no dialog); a second click deletes them; a click elsewhere, or 5 s, leaves everything as it was.
#[test]
fn browser_delete_variation_asks_first_in_its_button() {
    let _lock = browser_or_skip!("browser_delete_variation_asks_first_in_its_button");
    let gui = start(Shape::square(7), [Player::Human, Player::Human]);
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "nested.sgf", "text": NESTED_SGF}),
    );
    assert_eq!(status, 200, "{s}");
    // Into the variation B7, then its line G1 A1.
    let s = post(
        &gui,
        "api/goto",
        json!({"node": s["turns"][2]["branches"][0]["node"]}),
    )
    .1;
    let (status, s) = post(
        &gui,
        "api/goto",
        json!({"node": s["turns"][3]["branches"][0]["node"]}),
    );
    assert_eq!(
        turn_names(&s),
        ["D4", "A7", "B7", "G1", "A1"],
        "{status} {s}"
    );
    let b = Browser::start(1280, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let button = "[data-action=delete-variation]";
    let asks = "Delete 3 moves and 1 other line from them? Click again";
    // One click asks and deletes nothing.
    b.click(button);
    assert_eq!(b.text(button), asks);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(state(&gui)["lines"], 3);
    // A click elsewhere leaves it as it was; so does the time running out.
    b.click("header .title");
    assert_eq!(b.text(button), "Delete variation");
    b.click(button);
    assert_eq!(b.text(button), asks);
    b.wait_for(
        "return document.querySelector('[data-action=delete-variation]').textContent === 'Delete variation';",
        json!([]),
        Duration::from_secs(8),
        "the question to time out",
    );
    assert_eq!(state(&gui)["lines"], 3);
    // Two clicks delete: the variation with its two lines, four moves.
    b.click(button);
    b.click(button);
    let s = wait_state(&gui, Duration::from_secs(5), "the deletion", |s| {
        s["lines"] == 1
    });
    assert_eq!(turn_names(&s), ["D4", "A7", "G1", "A1"]);
    wait_drawn(&b, &gui);
    assert_eq!(
        b.text("#message"),
        "deleted the variation from placement 3: 4 moves"
    );
    assert_eq!(b.text(button), "Delete variation");
}
