//! `oust gui` without a browser, reviews: each placement judged, saved and loaded with the record, cleared by a new
//! game, on a line off the main line, and the default playouts.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::time::Duration;

use oust::gui::{Gui, Player};
use oust::rules::{Move, Shape};
use serde_json::{Value, json};

use gui_common::*;

#[test]
fn a_review_judges_each_placement_by_the_chance_its_side_lost_within_one_search_and_is_saved_and_loaded_with_the_record()
 {
    let (gui, r) = reviewed_game(Shape::square(5), 14, 300);
    let s = state(&gui);
    let rates: Vec<Option<f64>> = r["rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_f64)
        .collect();
    let line = server_game(&gui);
    let records = line.records();
    assert_eq!(rates.len(), records.len() + 1);
    // Every placement's loss comes from the searches of the position before it (oust-judge), with an error, and
    // its class follows the documented thresholds (5, 10, 20) applied to the loss less twice its error; one whose
    // loss alone would be worse says it is uncertain.
    let placements = r["placements"].as_array().unwrap();
    let mut counts = json!({"black": [0, 0, 0, 0, 0.0], "white": [0, 0, 0, 0, 0.0]});
    let class_of = |l: f64| match l {
        l if l >= 20.0 => json!("blunder"),
        l if l >= 10.0 => json!("mistake"),
        l if l >= 5.0 => json!("inaccuracy"),
        _ => Value::Null,
    };
    for p in placements {
        let k = p["k"].as_u64().unwrap() as usize;
        let color = records[k].color;
        assert_eq!(p["color"], color.name());
        assert!(rates[k].is_some(), "no rate at {k}: {r}");
        let (loss, error) = (p["loss"].as_f64().unwrap(), p["error"].as_f64().unwrap());
        assert!((0.0..=100.0).contains(&loss) && error >= 0.0, "{p}");
        assert_eq!(
            p.get("uncertain").is_some(),
            class_of(loss) != class_of((loss - 2.0 * error).max(0.0)),
            "{p}"
        );
        let class = match (loss - 2.0 * error).max(0.0) {
            l if l >= 20.0 => json!("blunder"),
            l if l >= 10.0 => json!("mistake"),
            l if l >= 5.0 => json!("inaccuracy"),
            _ => Value::Null,
        };
        assert_eq!(p["class"], class, "{p}");
        let side = &mut counts[color.name()];
        let slot = match class.as_str() {
            Some("inaccuracy") => 0,
            Some("mistake") => 1,
            Some("blunder") => 2,
            _ => 3,
        };
        side[slot] = json!(side[slot].as_u64().unwrap() + 1);
        side[4] = json!(side[4].as_f64().unwrap() + p["loss"].as_f64().unwrap());
    }
    let judged = records.iter().filter(|rec| rec.mv != Move::Pass).count();
    assert_eq!(placements.len(), judged, "every placement is judged");
    for c in ["black", "white"] {
        let x = &r["summary"][c];
        let k = &counts[c];
        let n = (0..4).map(|i| k[i].as_u64().unwrap()).sum::<u64>();
        assert_eq!(
            (
                x["inaccuracies"].clone(),
                x["mistakes"].clone(),
                x["blunders"].clone(),
                x["judged"].as_u64()
            ),
            (k[0].clone(), k[1].clone(), k[2].clone(), Some(n)),
            "{c}: {x}"
        );
        let average = k[4].as_f64().unwrap() / n as f64;
        assert!(
            (x["average_loss"].as_f64().unwrap() - average).abs() < 0.06,
            "{x}"
        );
    }
    // A random line has mistakes; each position before one has the engine's better placement and its line.
    let mistakes: Vec<&Value> = placements
        .iter()
        .filter(|p| matches!(p["class"].as_str(), Some("mistake" | "blunder")))
        .collect();
    assert!(!mistakes.is_empty(), "{r}");
    for m in &mistakes {
        let k = m["k"].as_u64().unwrap() as usize;
        let pv = r["pv"][k].as_array().unwrap();
        assert!(!pv.is_empty(), "no line at {k}: {r}");
        assert_eq!(pv[0][0], records[k].color.letter().to_string());
    }
    // The saved record holds each position's rate (Sabaki's SBKV, Black's percent) and best line.
    let (_, sgf_text) = get(&gui, "api/sgf");
    assert!(sgf_text.contains("OUSTREVIEW[300]"), "{sgf_text}");
    assert_eq!(
        sgf_text.matches("SBKV[").count(),
        rates.iter().filter(|r| r.is_some()).count(),
        "{sgf_text}"
    );
    let first_move_node = sgf_text.split(";B[").nth(1).unwrap();
    assert!(
        first_move_node.contains(&format!("SBKV[{:.1}]", rates[1].unwrap() * 100.0)),
        "{sgf_text}"
    );
    // Loaded back, the record shows the same review without analysing again.
    let (status, loaded) = post(
        &gui,
        "api/load",
        json!({"name": "reviewed.sgf", "text": sgf_text}),
    );
    assert_eq!(status, 200, "{loaded}");
    assert!(
        loaded["notice"].as_str().unwrap().contains(&format!(
            "it holds a review (win rates of {} positions)",
            rates.len()
        )),
        "{}",
        loaded["notice"]
    );
    let back = &loaded["analysis"]["review"];
    assert_eq!(back["loaded"], true);
    assert_eq!(back["done"], back["total"]);
    assert_eq!(back["pv"], r["pv"]);
    for (a, b) in back["rates"].as_array().unwrap().iter().zip(&rates) {
        assert!(
            (a.as_f64().unwrap() - b.unwrap()).abs() < 0.0006,
            "{a} {b:?}"
        );
    }
    let classes = |v: &Value| -> Vec<(Value, Value)> {
        v["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["k"].clone(), p["class"].clone()))
            .collect()
    };
    // Rates rounded to a tenth of a point may move a loss across a threshold only by that much.
    let (before, after) = (classes(&r), classes(back));
    let differ = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert!(differ <= 1, "{before:?}\n{after:?}");
    assert_eq!(s["moves"].as_u64(), Some(records.len() as u64));
    drop(gui);
}

#[test]
fn a_new_game_or_a_loaded_record_clears_the_review() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let reviewed = |gui: &Gui| {
        for m in ["C3", "A1"] {
            post(gui, "api/play", json!({"move": m}));
        }
        post(gui, "api/review", json!({"playouts": 20}));
        wait_state(gui, Duration::from_secs(20), "the review", |s| {
            s["analysis"]["review"]["total"].is_u64()
                && s["analysis"]["review"]["done"] == s["analysis"]["review"]["total"]
        });
    };
    reviewed(&gui);
    let (status, s) = post(
        &gui,
        "api/load",
        json!({"name": "other.sgf", "text": "(;GM[1]SZ[5];B[ee])"}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        s["analysis"]["review"],
        Value::Null,
        "a stale review after a load"
    );
    post(
        &gui,
        "api/players",
        json!({"black": "human", "white": "human"}),
    );
    post(&gui, "api/new", json!({"board": "5"}));
    reviewed(&gui);
    let (_, s) = post(&gui, "api/new", json!({"board": "5"}));
    assert_eq!(
        s["analysis"]["review"],
        Value::Null,
        "a stale review after a new game"
    );
}

/// A new player's find: a review saved on a line that is no longer the main line (a variation was promoted after the
/// review) was lost on loading, and the main line showed a review of the positions it shares, every count 0.
#[test]
fn a_review_of_a_line_that_is_no_longer_the_main_line_loads_on_that_line() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    for m in ["C3", "A1", "E5", "A5", "E1"] {
        assert_eq!(post(&gui, "api/play", json!({ "move": m })).0, 200);
    }
    post(&gui, "api/review", json!({"playouts": 40}));
    wait_state(&gui, Duration::from_secs(60), "the review", |s| {
        s["analysis"]["review"]["total"].is_u64()
            && s["analysis"]["review"]["done"] == s["analysis"]["review"]["total"]
    });
    // A variation from move 3, made the main line.
    post(&gui, "api/jump", json!({"moves": 2}));
    assert_eq!(post(&gui, "api/play", json!({"move": "B2"})).0, 200);
    assert_eq!(
        post(&gui, "api/variation", json!({"action": "promote"})).0,
        200
    );
    let (_, saved) = get(&gui, "api/sgf");
    assert_eq!(saved.matches("OUSTJUDGE[").count(), 5, "{saved}");
    let (status, loaded) = post(
        &gui,
        "api/load",
        json!({"name": "branch.sgf", "text": saved}),
    );
    assert_eq!(status, 200, "{loaded}");
    assert!(
        loaded["notice"].as_str().unwrap().contains(
            "it holds a review of the variation that leaves the main line at move 3 (win rates of 6 positions)"
        ),
        "{}",
        loaded["notice"]
    );
    // The main line (the promoted variation) shows no review ...
    assert_eq!(turn_names(&loaded)[..3], ["C3", "A1", "B2"]);
    assert_eq!(loaded["analysis"]["review"], Value::Null);
    // ... the reviewed line shows it, whole ...
    let branch = loaded["turns"][2]["branches"][0]["node"].clone();
    let (status, s) = post(&gui, "api/goto", json!({"node": branch}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(turn_names(&s), ["C3", "A1", "E5", "A5", "E1"]);
    let review = &s["analysis"]["review"];
    assert_eq!(review["loaded"], true, "{s}");
    assert_eq!(review["placements"].as_array().unwrap().len(), 5);
    // ... and saving again keeps it.
    let (_, again) = get(&gui, "api/sgf");
    assert_eq!(review_props(&again), review_props(&saved));
}

/// The review's properties of a saved record, in order.
fn review_props(sgf: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(SBKV|OUSTBEST|OUSTJUDGE|OUSTREVIEW)\[[^\]]*\]").unwrap();
    re.find_iter(sgf).map(|m| m.as_str().to_string()).collect()
}

/// Issue 48: `POST /api/review` answers with the review it started (its first position, none done), not
/// `review: null`.
#[test]
fn a_review_answers_with_the_review_it_started() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    for v in ["C3", "A1", "E5"] {
        post(&gui, "api/play", json!({"move": v}));
    }
    post(&gui, "api/undo", json!({"unit": "move"}));
    let (status, s) = post(&gui, "api/review", json!({"playouts": 50}));
    assert_eq!(status, 200);
    let r = &s["analysis"]["review"];
    assert_eq!(
        (&r["playouts"], &r["done"], &r["total"], &r["rates"]),
        (
            &json!(50),
            &json!(0),
            &json!(4),
            &json!([null, null, null, null])
        ),
        "{s}"
    );
    let s = wait_state(&gui, Duration::from_secs(60), "the review", |s| {
        s["analysis"]["review"]["done"] == 4
    });
    assert_eq!(s["analysis"]["review"]["total"], 4);
}

/// Issue 48: a review that asks for no number of playouts takes the default of the board's evaluator: 2,000
/// visits where the engine evaluates with its network (hex-7, 9x9, hex-5, hex-4, 5x5), 20,000 playouts where it
/// evaluates with playouts (hex-3, 4x6); a number given is kept, and a wrong one is refused with the reason.
#[test]
fn a_review_without_playouts_takes_the_default_of_the_boards_evaluator() {
    for (shape, playouts) in [
        (Shape::Hex { side: 7 }, 2_000),
        (Shape::square(9), 2_000),
        (Shape::Hex { side: 5 }, 2_000),
        (Shape::Hex { side: 4 }, 2_000),
        (Shape::square(5), 2_000),
        (Shape::Hex { side: 3 }, 20_000),
        (
            Shape::Rect {
                width: 4,
                height: 6,
            },
            20_000,
        ),
    ] {
        let gui = start(shape, [Player::Human, Player::Human]);
        let (status, s) = post(&gui, "api/review", json!({}));
        assert_eq!(status, 200, "{shape}: {s}");
        assert_eq!(s["analysis"]["review"]["playouts"], playouts, "{shape}");
    }
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let (_, s) = post(&gui, "api/review", json!({"playouts": 300}));
    assert_eq!(s["analysis"]["review"]["playouts"], 300);
    let (status, e) = post(&gui, "api/review", json!({"playouts": "many"}));
    assert_eq!(
        (status, e["error"].as_str()),
        (
            409,
            Some("a review needs 'playouts', from 1 to 10000000, or none for the board's default")
        )
    );
}
