//! `oust gui`'s page in a headless Chromium over WebDriver, analysis: the heat map and its labels, the hint, the
//! engine restarted from the banner, the review's mistakes, and the memory of a long analysis (ignored).

#[path = "common/gui.rs"]
#[macro_use]
#[allow(dead_code)]
mod gui_common;

use std::time::{Duration, Instant};

use oust::gui::{Gui, NewGame, Options, Player, Strength};
use oust::rules::Shape;
use serde_json::{Value, json};

use gui_common::webdriver::{Browser, say_skipped, unavailable};
use gui_common::*;

#[test]
fn browser_analysis_shows_the_heat_map_and_the_engine_is_restarted_from_the_banner() {
    let _lock = browser_or_skip!(
        "browser_analysis_shows_the_heat_map_and_the_engine_is_restarted_from_the_banner"
    );
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    let b = Browser::start(1100, 850);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    click(&b, "G7");
    click(&b, "A1");
    b.click("[data-role=analysis-toggle]");
    b.wait_for(
        "return document.querySelectorAll('[data-heat]').length >= 3 && !document.getElementById('winbar').hidden;",
        json!([]),
        Duration::from_secs(20),
        "the heat map",
    );
    // Updates a second, as the page received them.
    std::thread::sleep(Duration::from_secs(3));
    let rate = b.js(
        "const u = window.__oust.analysisUpdates; const n = u.length; if (n < 2) return 0;
         return (n - 1) / ((u[n - 1].t - u[0].t) / 1000);",
        json!([]),
    );
    report(&format!(
        "speed: live analysis on hex7: {:.1} updates a second reached the page",
        rate.as_f64().unwrap()
    ));
    let text = b.text("[data-role=analysis]");
    assert!(text.starts_with("best "), "{text}");
    // The principal variation as numbered ghost stones when the pointer rests on a candidate.
    let best = b.js(
        "return document.querySelector('.heat-dot.best').parentNode.dataset.heat;",
        json!([]),
    );
    let best = best.as_str().unwrap().to_string();
    b.js(
        "document.querySelector(`[data-vertex='${arguments[0]}']`).dispatchEvent(new MouseEvent('mouseenter'));",
        json!([best]),
    );
    b.wait_for(
        "return document.querySelectorAll('#board .ghost').length >= 1;",
        json!([]),
        Duration::from_secs(5),
        "the PV",
    );
    b.click("[data-role=analysis-toggle]");
    b.wait_for(
        "return document.querySelectorAll('[data-heat]').length === 0;",
        json!([]),
        Duration::from_secs(10),
        "the heat map to go",
    );
    // Kill the engine: the banner says so with the engine's stderr; Restart brings it back with the game.
    let before = shown(&b);
    let pid = state(&gui)["engine"]["pid"].as_u64().unwrap();
    std::process::Command::new("kill")
        .args(["-9", "--", &format!("-{pid}")])
        .status()
        .unwrap();
    post(&gui, "api/players", json!({"black": "engine"}));
    b.wait_for(
        "return !document.querySelector('[data-role=fault]').hidden;",
        json!([]),
        Duration::from_secs(20),
        "the banner",
    );
    let banner = b.text("[data-role=fault]");
    assert!(banner.contains("The engine stopped working"), "{banner}");
    assert_eq!(shown(&b).0, before.0, "the board changed");
    b.click("[data-action=restart]");
    b.wait_for(
        "return document.querySelector('[data-role=fault]').hidden;",
        json!([]),
        Duration::from_secs(20),
        "the restart",
    );
    let s = wait_state(
        &gui,
        Duration::from_secs(30),
        "the restarted engine's move",
        |s| s["moves"].as_u64() >= Some(3) && s["to_move"] == "white",
    );
    assert_eq!(s["turns"][0]["gtp"], "G7");
    assert_eq!(s["turns"][1]["gtp"], "A1");
    wait_drawn(&b, &gui);
    check_board(&b, server_game(&gui).position());
}

#[test]
fn browser_review_marks_the_mistakes_and_next_mistake_shows_the_engines_placement_and_line() {
    let _lock = browser_or_skip!(
        "browser_review_marks_the_mistakes_and_next_mistake_shows_the_engines_placement_and_line"
    );
    let (gui, r) = reviewed_game(Shape::Hex { side: 5 }, 24, 300);
    let s = state(&gui);
    let b = Browser::start(1200, 900);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.wait_for(
        "return !document.getElementById('review-summary').hidden;",
        json!([]),
        Duration::from_secs(10),
        "the review's summary",
    );
    // Each side's counts and average loss, as the server judged them.
    for c in ["black", "white"] {
        let cells = b.js(
            "return Array.from(document.querySelectorAll(`#review-summary tr[data-side='${arguments[0]}'] td`)).map(td => td.textContent);",
            json!([c]),
        );
        let x = &r["summary"][c];
        assert_eq!(
            cells,
            json!([
                format!("{}{}", c[..1].to_uppercase(), &c[1..]),
                x["inaccuracies"].to_string(),
                x["mistakes"].to_string(),
                x["blunders"].to_string(),
                format!("{:.1}", x["average_loss"].as_f64().unwrap()),
            ])
        );
    }
    // The graph has its axes: 0, 50% and 100%, and turn numbers as the move list counts.
    let axes = b.js(
        "return Array.from(document.querySelectorAll('#graph text[data-axis=y]')).map(t => t.textContent);",
        json!([]),
    );
    assert_eq!(axes, json!(["0", "50%", "100%"]));
    let ticks = b.js(
        "return Array.from(document.querySelectorAll('#graph text[data-axis=x]')).map(t => Number(t.textContent));",
        json!([]),
    );
    let turns = s["turns"].as_array().unwrap().len() as u64;
    assert!(
        ticks
            .as_array()
            .unwrap()
            .iter()
            .all(|t| (1..=turns).contains(&t.as_u64().unwrap()))
            && ticks.as_array().unwrap().len() >= 3,
        "{ticks}"
    );
    // A mark for every judged placement, in its side's colour, named as the move list names its turn.
    let judged: Vec<&Value> = r["placements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["class"].is_null())
        .collect();
    let marks = b.js(
        "return Array.from(document.querySelectorAll('#graph circle[data-mark]')).map(c => [Number(c.dataset.mark), c.dataset.color, c.dataset.class, c.querySelector('title').textContent]);",
        json!([]),
    );
    let marks = marks.as_array().unwrap();
    assert_eq!(marks.len(), judged.len(), "{marks:?}");
    let list = b.js(
        "return Array.from(document.querySelectorAll('#moves li')).map(li => [li.value, li.textContent, li.dataset.judged || null, li.title]);",
        json!([]),
    );
    let turn_of = |k: u64| {
        s["turns"]
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t["moves"].as_u64().unwrap() > k)
            .unwrap()
            + 1
    };
    for (m, p) in marks.iter().zip(&judged) {
        assert_eq!((&m[0], &m[1], &m[2]), (&p["k"], &p["color"], &p["class"]));
        let n = turn_of(p["k"].as_u64().unwrap());
        let label = list[n][1].as_str().unwrap();
        assert!(
            m[3].as_str()
                .unwrap()
                .starts_with(&format!("{n}. {label} (")),
            "{m} against the list's {n}. {label}"
        );
        // The move list marks the turn with its worst placement.
        assert!(list[n][2].is_string(), "turn {n} unmarked: {list}");
        // What it lost is said the same way on the graph and in the move list (a new player found the list
        // leaving out the error that sets the class), with the error where the searches disagree.
        let words = m[3].as_str().unwrap().split_once("): ").unwrap().1;
        let error = p["error"].as_f64().unwrap_or(0.0);
        if p["proof"].is_null() && error > 0.0 {
            assert!(words.contains(&format!(" ± {error} points")), "{words}");
        }
        if list[n][2] == p["class"] {
            assert!(
                list[n][3].as_str().unwrap().contains(words),
                "{} against {words}",
                list[n][3]
            );
        }
    }
    // "Next mistake" (the button, then the key) goes to the position before each mistake in turn, marks the
    // engine's placement and plays out its line.
    let mistakes: Vec<u64> = judged
        .iter()
        .filter(|p| p["class"] != "inaccuracy")
        .map(|p| p["k"].as_u64().unwrap())
        .collect();
    assert!(mistakes.len() >= 2, "{r}");
    post(&gui, "api/jump", json!({"moves": 0}));
    for (i, &k) in mistakes.iter().take(2).enumerate() {
        if i == 0 {
            b.click("[data-action=next-mistake]");
        } else {
            b.keys("n");
        }
        wait_state(
            &gui,
            Duration::from_secs(10),
            "the mistake's position",
            |s| s["moves"].as_u64() == Some(k),
        );
        let best = r["pv"][k as usize][0][1].as_str().unwrap().to_string();
        b.wait_for(
            "const m = document.querySelector('#board .best-mark'); return !!m && m.dataset.best === arguments[0];",
            json!([best]),
            Duration::from_secs(10),
            "the engine's placement on the board",
        );
        let text = b.text("#mistake-text");
        assert!(
            text.contains(&format!("The engine prefers {best}.")) && text.contains(" lost "),
            "{text}"
        );
    }
    b.click("#play-line");
    let pv_len = r["pv"][mistakes[1] as usize].as_array().unwrap().len();
    b.wait_for(
        "return document.querySelectorAll('#board .pv .ghost').length >= Math.min(arguments[0], 2);",
        json!([pv_len]),
        Duration::from_secs(10),
        "the engine's line as ghost stones",
    );
    b.keys("p");
    wait_state(&gui, Duration::from_secs(10), "the previous mistake", |s| {
        s["moves"].as_u64() == Some(mistakes[0])
    });
}

/// An engine whose analysis says every candidate wins 0.42% of the time and whose every principal variation is
/// `b G7 w A1 b D4`: a decided position's win rates, and a variation over stones on the board once G7 and A1 are
/// played (vertices hold no `i`, so `[^i]*` ends at the next `info`).
fn engine_with_fixed_analysis() -> String {
    format!(
        "{} | sed -u -e 's/winrate [0-9.]*/winrate 0.0042/g' -e 's/pv [^i]*/pv b G7 w A1 b D4 /g'",
        engine()
    )
}

#[test]
fn browser_heat_map_labels_in_percent_with_a_legend_no_ghost_on_a_stone_and_the_hint_on_the_board()
{
    let _lock = browser_or_skip!(
        "browser_heat_map_labels_in_percent_with_a_legend_no_ghost_on_a_stone_and_the_hint_on_the_board"
    );
    // The labels' numbers: whole percents, and the decimals that tell apart candidates near 0 and 100.
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    let b = Browser::start(1100, 850);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    let labels = b.js_async(
        "const done = arguments[arguments.length - 1];
         import('/board.js').then(m => done([0.5, 0.573, 0.0042, 0.0123, 0.9962, 0.99962, 0.99996, 0.00004, 1, 0]
           .map(m.percentLabel).concat([m.heatLabel({proof: 'win'}), m.heatLabel({proof: 'loss'})])),
           e => done(String(e)));",
        json!([]),
    );
    assert_eq!(
        labels,
        json!([
            "50%", "57%", "0.4%", "1%", "99.6%", "99.96%", ">99.99%", "<0.01%", "100%", "0%", "W",
            "L"
        ])
    );
    drop(b);
    drop(gui);
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::Hex { side: 7 },
            players: [Player::Human, Player::Human],
            pie: false,
            strength: Strength::Playouts(150),
        },
        engine: engine_with_fixed_analysis(),
        port: 0,
    })
    .expect("the gui starts");
    let b = Browser::start(1100, 850);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    click(&b, "G7");
    click(&b, "A1");
    b.click("[data-role=analysis-toggle]");
    b.wait_for(
        "return document.querySelectorAll('.heat-text').length >= 3;",
        json!([]),
        Duration::from_secs(20),
        "the heat map's labels",
    );
    let texts = b.js(
        "return Array.from(document.querySelectorAll('.heat-text')).map(t => t.textContent);",
        json!([]),
    );
    for t in texts.as_array().unwrap() {
        assert!(
            t == "0.4%" || t == "W" || t == "L" || t == "D",
            "a label of a decided position: {texts}"
        );
    }
    assert_eq!(
        b.js(
            "return document.querySelector('[data-role=heat-legend]').hidden;",
            json!([])
        ),
        json!(false)
    );
    let legend = b.text("[data-role=heat-legend]");
    assert!(
        legend.contains("W a proven win") && legend.contains("L a proven loss"),
        "{legend}"
    );
    // The variation's ghost stones: D4, and none on the stones of G7 and A1.
    let best = b.js(
        "return document.querySelector('.heat-dot.best').parentNode.dataset.heat;",
        json!([]),
    );
    b.js(
        "document.querySelector(`[data-vertex='${arguments[0]}']`).dispatchEvent(new MouseEvent('mouseenter'));",
        json!([best]),
    );
    b.wait_for(
        "return document.querySelectorAll('#board .ghost').length >= 1;",
        json!([]),
        Duration::from_secs(5),
        "the PV",
    );
    let ghosts = b.js(
        "const at = (x, y) => Array.from(document.querySelectorAll('[data-vertex]')).find(g => {
           const s = g.querySelector('.stone'); return s.getAttribute('cx') === x && s.getAttribute('cy') === y; });
         return Array.from(document.querySelectorAll('#board .ghost')).map(c => {
           const g = at(c.getAttribute('cx'), c.getAttribute('cy'));
           return [g.dataset.vertex, g.querySelector('.stone').getAttribute('data-stone')]; });",
        json!([]),
    );
    assert_eq!(ghosts, json!([["D4", null]]), "ghost stones on stones");
    b.js(
        "document.querySelector(`[data-vertex='${arguments[0]}']`).dispatchEvent(new MouseEvent('mouseleave'));",
        json!([best]),
    );
    // The hint: said in words and ringed on the board.
    b.click("[data-action=hint]");
    let s = wait_state(&gui, Duration::from_secs(20), "the hint", |s| {
        s["analysis"]["hint"]["best"]["move"].is_string()
    });
    let hint = s["analysis"]["hint"]["best"]["move"].as_str().unwrap();
    b.wait_for(
        "return document.querySelectorAll(`#board .hint-mark[data-hint='${arguments[0]}']`).length === 1;",
        json!([hint]),
        Duration::from_secs(10),
        "the hint on the board",
    );
    assert!(
        b.text("[data-role=analysis]")
            .contains(&format!("Hint: {hint} (0.4")),
        "{}",
        b.text("[data-role=analysis]")
    );
    // A move played: the hint was for the position before, and its mark goes.
    let other = if hint == "D4" { "E5" } else { "D4" };
    click(&b, other);
    b.wait_for(
        "return document.querySelectorAll('#board .hint-mark').length === 0;",
        json!([]),
        Duration::from_secs(10),
        "the hint's mark to go",
    );
}

/// The server's resident memory (this process, which hosts it), in KB.
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Memory during a long live analysis: the server's and the page's, sampled each 20 s (run with `--ignored`;
/// `OUST_GUI_MINUTES` sets the length, 2 by default). Reports, asserts nothing about time.
#[test]
#[ignore]
fn analysis_memory() {
    if let Some(why) = unavailable() {
        say_skipped("analysis_memory", &why);
        return;
    }
    let _lock = browser_lock();
    let minutes: u64 = std::env::var("OUST_GUI_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(2);
    let gui = start(Shape::Hex { side: 7 }, [Player::Human, Player::Human]);
    post(&gui, "api/play", json!({"move": "G7"}));
    post(&gui, "api/play", json!({"move": "A1"}));
    let b = Browser::start(1000, 800);
    b.go(&gui.url());
    wait_drawn(&b, &gui);
    b.click("[data-role=analysis-toggle]");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(minutes * 60) {
        std::thread::sleep(Duration::from_secs(20));
        let page = b.js(
            "return [performance.memory.usedJSHeapSize, window.__oust.renders];",
            json!([]),
        );
        report(&format!(
            "memory after {:>4} s: server RSS {} KB, page JS heap {} KB, {} renders, {} analysis updates",
            started.elapsed().as_secs(),
            rss_kb(),
            page[0].as_u64().unwrap_or(0) / 1024,
            page[1],
            state(&gui)["analysis"]["updates"]
        ));
    }
}
