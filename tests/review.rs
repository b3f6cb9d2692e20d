//! `oust review`: records reviewed in a batch judge every placement exactly as `oust gui`'s review does at the same
//! seed and visits; a record that cannot be read is named, and the others are still reviewed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use oust::gui::{Gui, NewGame, Options, Player, Strength};
use oust::rules::Shape;
use serde_json::{Value, json};

const RECORDS: [&str; 2] = [
    "docs/level1-by-hand-hex5.sgf",
    "docs/level1-by-hand-9x9.sgf",
];
const VISITS: u64 = 120;
const SEED: u64 = 7;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oust-review-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The review's properties of a saved record, node by node, in order.
fn review_properties(sgf: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(SBKV|OUSTBEST|OUSTJUDGE|OUSTREVIEW)\[[^\]]*\]").unwrap();
    re.find_iter(sgf).map(|m| m.as_str().to_string()).collect()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// The record reviewed in `oust gui` with an engine of one thread seeded with [`SEED`]: its saved SGF.
fn gui_review(record: &str) -> String {
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::square(9),
            players: [Player::Human, Player::Human],
            pie: false,
            strength: Strength::Playouts(VISITS),
        },
        engine: format!("'{}' --threads 1 --seed {SEED}", env!("CARGO_BIN_EXE_oust")),
        port: 0,
    })
    .expect("the gui starts");
    let post = |path: &str, body: Value| {
        let mut r = agent()
            .post(&format!("{}{path}", gui.url()))
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .unwrap();
        assert_eq!(
            r.status().as_u16(),
            200,
            "{path}: {}",
            r.body_mut().read_to_string().unwrap()
        );
    };
    let get = |path: &str| {
        agent()
            .get(&format!("{}{path}", gui.url()))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap()
    };
    let text = std::fs::read_to_string(root().join(record)).unwrap();
    post("api/load", json!({"name": record, "text": text}));
    post("api/review", json!({"playouts": VISITS}));
    let until = Instant::now() + Duration::from_secs(240);
    loop {
        let s: Value = serde_json::from_str(&get("api/state")).unwrap();
        let r = &s["analysis"]["review"];
        if r["total"].is_u64() && r["done"] == r["total"] {
            break;
        }
        assert!(Instant::now() < until, "the review did not finish: {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
    get("api/sgf")
}

#[test]
fn a_batch_review_judges_as_the_gui_does_at_the_same_seed() {
    let out = scratch("same");
    let status = Command::new(env!("CARGO_BIN_EXE_oust"))
        .args(["review", "--positions", "2", "--threads", "1"])
        .args([
            "--visits",
            &VISITS.to_string(),
            "--seed",
            &SEED.to_string(),
            "--out",
        ])
        .arg(&out)
        .args(RECORDS)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let table = String::from_utf8(status.stdout).unwrap();
    assert!(table.starts_with("record "), "{table}");
    assert_eq!(table.lines().count(), 5, "{table}");
    for record in RECORDS {
        let stem = Path::new(record)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let batch = std::fs::read_to_string(out.join(format!("{stem}-review.sgf"))).unwrap();
        let batch = review_properties(&batch);
        let gui = review_properties(&gui_review(record));
        assert!(batch.len() > 60, "{record}: {batch:?}");
        assert_eq!(
            batch, gui,
            "{record}: the batch review and the gui's differ"
        );
    }
}

#[test]
fn an_unreadable_record_is_named_and_the_others_are_reviewed() {
    let out = scratch("bad");
    let bad = out.join("broken.sgf");
    std::fs::write(&bad, "(;GM[1]SZ[5];B[zz])").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_oust"))
        .args(["review", "--visits", "20", "--out"])
        .arg(&out)
        .arg(&bad)
        .arg(root().join(RECORDS[0]))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("broken.sgf: ") && stderr.contains("not reviewed"),
        "{stderr}"
    );
    assert!(out.join("level1-by-hand-hex5-review.sgf").exists());
    assert!(!out.join("broken-review.sgf").exists());
    let table = String::from_utf8(run.stdout).unwrap();
    assert_eq!(table.lines().count(), 3, "{table}");
}
