//! `oust gui` without a browser, the engine behind the page: its moves and thinking time, Stop, a search cancelled
//! by a change of the game or a resignation, pondering, and an engine restarted, or killed with its wrapper.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::time::{Duration, Instant};

use oust::gui::{Gui, NewGame, Options, Player, Strength};
use oust::rules::Shape;
use serde_json::{Value, json};

use gui_common::*;

#[test]
fn engine_plays_watches_and_is_restarted_without_losing_the_game() {
    let gui = start(Shape::square(7), [Player::Human, Player::Engine]);
    post(&gui, "api/play", json!({"move": "D4"}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's reply", |s| {
        s["moves"].as_u64() >= Some(2) && s["to_move"] == "black"
    });
    let moves = s["turns"].clone();
    // Kill the engine's whole process group, then ask it to move.
    let pid = s["engine"]["pid"].as_u64().unwrap();
    std::process::Command::new("kill")
        .args(["-9", "--", &format!("-{pid}")])
        .status()
        .unwrap();
    let legal = s["legal"][0].as_str().unwrap().to_string();
    post(&gui, "api/play", json!({"move": legal}));
    let s = wait_state(&gui, Duration::from_secs(20), "the fault", |s| {
        s["engine"]["fault"].is_string()
    });
    let fault = s["engine"]["fault"].as_str().unwrap();
    // Asked for a move, or seen dead while idle.
    assert!(
        fault.contains("the engine, asked '") || fault.contains("ended (killed by signal 9)"),
        "{fault}"
    );
    assert_eq!(s["to_move"], "white", "the human's move is kept");
    post(&gui, "api/restart", json!({}));
    let s = wait_state(
        &gui,
        Duration::from_secs(20),
        "the restarted engine's move",
        |s| {
            s["engine"]["fault"].is_null()
                && s["to_move"] == "black"
                && s["moves"].as_u64() >= Some(4)
        },
    );
    assert_ne!(s["engine"]["pid"].as_u64().unwrap(), pid);
    assert_eq!(
        s["turns"].as_array().unwrap()[..2],
        moves.as_array().unwrap()[..2],
        "moves were lost"
    );
    // The restarted engine knows the game: its console shows the moves sent again.
    let console: Value = serde_json::from_str(&get(&gui, "api/console").1).unwrap();
    let lines: Vec<String> = console["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            format!(
                "{} {}",
                l["dir"].as_str().unwrap(),
                l["text"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l == "! engine restarted; the game was sent again"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "> play b D4"), "{lines:?}");
    // Engine against engine, paused and stepped.
    post(
        &gui,
        "api/new",
        json!({"board": "5", "black": "engine", "white": "engine"}),
    );
    post(&gui, "api/pause", json!({"paused": true}));
    let n = state(&gui)["moves"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let m = state(&gui)["moves"].as_u64().unwrap();
    assert!(m <= n + 1, "paused play went on: {n} -> {m}");
    post(&gui, "api/step", json!({}));
    wait_state(&gui, Duration::from_secs(20), "one step", |s| {
        s["moves"].as_u64() > Some(m)
    });
    post(&gui, "api/pace", json!({"ms": 0}));
    post(&gui, "api/pause", json!({"paused": false}));
    let s = wait_state(
        &gui,
        Duration::from_secs(60),
        "the end of the engine game",
        |s| s["over"] == true,
    );
    assert!(
        s["status"] == "Black wins" || s["status"] == "White wins" || s["status"] == "No winner",
        "{s}"
    );
    // The console takes a command and shows its answer.
    post(&gui, "api/console", json!({"line": "name"}));
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let console: Value = serde_json::from_str(&get(&gui, "api/console").1).unwrap();
        let last = console["lines"]
            .as_array()
            .unwrap()
            .last()
            .cloned()
            .unwrap();
        if last["dir"] == "=" && last["text"] == "oust" {
            break;
        }
        assert!(Instant::now() < until, "no answer to name: {last}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn stop_makes_the_engine_answer_and_hint_and_review_report() {
    let gui = start(Shape::square(7), [Player::Human, Player::Engine]);
    // A long think, stopped: oust's cancellable genmove answers at once with its best move so far, and the engine
    // is not restarted.
    post(&gui, "api/players", json!({"seconds": 60}));
    let pid = state(&gui)["engine"]["pid"].as_u64().unwrap();
    post(&gui, "api/play", json!({"move": "D4"}));
    wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
        s["engine"]["busy"] == "thinking"
    });
    let asked = Instant::now();
    post(&gui, "api/stop", json!({}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's answer", |s| {
        s["moves"] == 2
    });
    // Answered long before the minute its search was set for.
    assert!(asked.elapsed() < Duration::from_secs(20));
    assert_eq!(s["to_move"], "black");
    assert_eq!(
        s["engine"]["pid"].as_u64(),
        Some(pid),
        "the engine was restarted"
    );
    let lines = console_lines(&gui);
    assert!(
        lines.iter().any(|l| l == "> oust-genmove_cancellable w"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "! stopped: the engine answers with its best move so far"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("restarted")), "{lines:?}");
    // The next move is searched as set again, and the engine goes on answering in step.
    post(&gui, "api/players", json!({"playouts": 100}));
    let legal = s["legal"][0].as_str().unwrap().to_string();
    post(&gui, "api/play", json!({"move": legal}));
    wait_state(&gui, Duration::from_secs(20), "the next engine move", |s| {
        s["moves"].as_u64() >= Some(4) && s["to_move"] == "black"
    });
    let console: Value = serde_json::from_str(&get(&gui, "api/console").1).unwrap();
    assert!(
        console["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"] == "oust-set-param playouts 100")
    );
    // A hint: the engine's best placement, legal by the rules.
    post(&gui, "api/hint", json!({}));
    let s = wait_state(&gui, Duration::from_secs(20), "the hint", |s| {
        s["analysis"]["hint"].is_object()
    });
    let hint = s["analysis"]["hint"]["best"]["move"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        s["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == &json!(hint)),
        "{hint}"
    );
    // A review of every position of the record, Black's chances between 0 and 1.
    let moves = s["moves"].as_u64().unwrap() as usize;
    post(&gui, "api/review", json!({"playouts": 50}));
    let s = wait_state(&gui, Duration::from_secs(60), "the review", |s| {
        s["analysis"]["review"]["total"].is_u64()
            && s["analysis"]["review"]["done"] == s["analysis"]["review"]["total"]
    });
    let rates = s["analysis"]["review"]["rates"].as_array().unwrap();
    assert_eq!(rates.len(), moves + 1);
    assert!(
        rates
            .iter()
            .all(|r| r.as_f64().is_some_and(|r| (0.0..=1.0).contains(&r))),
        "{rates:?}"
    );
    let (status, e) = post(&gui, "api/review", json!({"playouts": 0}));
    assert_eq!(
        (status, e["error"].as_str()),
        (
            409,
            Some("a review needs 'playouts', from 1 to 10000000, or none for the board's default")
        )
    );
}

/// An engine without `oust-genmove_cancellable` (oust behind tests/broken_engine.py): Stop restarts it, and as it
/// has oust's parameters it answers from a quick search; its game is sent again.
#[test]
fn stop_restarts_an_engine_without_the_cancellable_genmove() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken_engine.py");
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::square(7),
            players: [Player::Human, Player::Engine],
            pie: false,
            strength: Strength::Playouts(150),
        },
        engine: format!("python3 '{}' no-cancel {}", script.display(), engine()),
        port: 0,
    })
    .expect("the gui starts");
    post(&gui, "api/players", json!({"seconds": 60}));
    let pid = state(&gui)["engine"]["pid"].as_u64().unwrap();
    post(&gui, "api/play", json!({"move": "D4"}));
    wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
        s["engine"]["busy"] == "thinking"
    });
    post(&gui, "api/stop", json!({}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's answer", |s| {
        s["moves"] == 2
    });
    assert_eq!(s["to_move"], "black");
    assert_ne!(s["engine"]["pid"].as_u64(), Some(pid), "no restart");
    let lines = console_lines(&gui);
    assert!(lines.iter().any(|l| l == "> genmove w"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "! stopped: the engine was restarted and answers from a quick search"),
        "{lines:?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("oust-genmove_cancellable w")),
        "{lines:?}"
    );
    // The restarted engine plays on in step with the game.
    post(&gui, "api/players", json!({"playouts": 100}));
    let legal = s["legal"][0].as_str().unwrap().to_string();
    post(&gui, "api/play", json!({"move": legal}));
    wait_state(&gui, Duration::from_secs(20), "the next engine move", |s| {
        s["moves"].as_u64() >= Some(4) && s["to_move"] == "black" && s["engine"]["fault"].is_null()
    });
}

/// CPU seconds the process `pid` has used so far (user and system), from /proc.
fn cpu_seconds(pid: u64) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[test]
fn a_game_resigned_while_the_engine_thinks_leaves_the_engine_idle() {
    // A new player's find: at a strength that ponders, the engine searched on for 40 s after the resignation.
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Engine]);
    post(&gui, "api/players", json!({"seconds": 4.0}));
    post(&gui, "api/play", json!({"move": "E5"}));
    let s = wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
        s["engine"]["busy"] == "thinking"
    });
    let pid = s["engine"]["pid"].as_u64().unwrap();
    assert_eq!(post(&gui, "api/resign", json!({})).0, 200);
    let until = Instant::now() + Duration::from_secs(20);
    while !console_lines(&gui)
        .iter()
        .any(|l| l.contains("came after the game ended: dropped"))
    {
        assert!(Instant::now() < until, "{:?}", console_lines(&gui));
        std::thread::sleep(Duration::from_millis(50));
    }
    // The engine is given the game as it ended (its dropped move taken back), which ends its pondering.
    wait_state(
        &gui,
        Duration::from_secs(10),
        "the engine to be idle",
        |s| s["engine"]["busy"] == "",
    );
    std::thread::sleep(Duration::from_millis(300));
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_seconds(pid) - before;
    assert!(
        used < 0.2,
        "the engine used {used:.2} s of CPU in a second after the game ended"
    );
    assert!(
        console_lines(&gui).iter().any(|l| l.ends_with("undo")),
        "{:?}",
        console_lines(&gui)
    );
}

#[test]
fn resign_resigns_the_human_and_an_engine_answer_after_the_end_is_dropped() {
    // The repro: the human (Black) places, then resigns while the engine thinks.
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Engine]);
    post(&gui, "api/players", json!({"seconds": 1.0}));
    post(&gui, "api/play", json!({"move": "E5"}));
    wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
        s["engine"]["busy"] == "thinking"
    });
    let (status, s) = post(&gui, "api/resign", json!({}));
    assert_eq!(
        (status, s["status"].as_str(), s["note"].as_str()),
        (200, Some("White wins"), Some("Black resigned")),
        "Resign resigns the human who clicked it, not the engine to move"
    );
    // The engine's answer arrives after the end: it is dropped, and the console says so.
    let until = Instant::now() + Duration::from_secs(20);
    while !console_lines(&gui)
        .iter()
        .any(|l| l.contains("came after the game ended: dropped"))
    {
        assert!(Instant::now() < until, "{:?}", console_lines(&gui));
        std::thread::sleep(Duration::from_millis(50));
    }
    let s = state(&gui);
    assert_eq!(
        (s["moves"].as_u64(), s["over"].as_bool()),
        (Some(1), Some(true))
    );
    let saved = get(&gui, "api/sgf").1;
    assert!(
        saved.contains("RE[W+Resign]") && saved.contains(";B[") && !saved.contains(";W["),
        "a move after the result: {saved}"
    );
    assert_eq!(post(&gui, "api/resign", json!({})).0, 409);
    // Between two engines no one asked to resign: refused, with the reason.
    post(
        &gui,
        "api/new",
        json!({"board": "5", "black": "engine", "white": "engine"}),
    );
    post(&gui, "api/pause", json!({"paused": true}));
    let (status, e) = post(&gui, "api/resign", json!({}));
    assert_eq!(status, 409);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .starts_with("both colours are played by the engine"),
        "{e}"
    );
}

/// Issue 48: Resign (or a new game, or an undo) while the engine thinks for a minute cancels its search at once:
/// the engine is no longer shown as thinking (so Stop goes), its answer is dropped, and it is not restarted.
#[test]
fn a_change_of_the_game_while_the_engine_thinks_cancels_its_search_at_once() {
    let gui = start(Shape::Hex { side: 5 }, [Player::Human, Player::Engine]);
    post(&gui, "api/players", json!({"seconds": 60}));
    let pid = state(&gui)["engine"]["pid"].as_u64();
    let think = |mv: &str| {
        assert_eq!(post(&gui, "api/play", json!({"move": mv})).0, 200);
        wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
            s["engine"]["busy"] == "thinking"
        });
    };
    let cancelled = |what: &str| {
        let asked = Instant::now();
        let s = wait_state(&gui, Duration::from_secs(50), what, |s| {
            s["engine"]["busy"] != "thinking"
        });
        assert!(
            asked.elapsed() < Duration::from_secs(5),
            "{what}: the search ran on for {:?}",
            asked.elapsed()
        );
        s
    };
    think("E5");
    let (status, _) = post(&gui, "api/resign", json!({}));
    assert_eq!(status, 200);
    cancelled("the search to end after Resign");
    let s = wait_state(&gui, Duration::from_secs(5), "the answer dropped", |_| {
        console_lines(&gui)
            .iter()
            .any(|l| l.contains("came after the game ended: dropped"))
    });
    assert_eq!(
        (s["moves"].as_u64(), s["over"].as_bool()),
        (Some(1), Some(true))
    );
    assert!(
        console_lines(&gui).iter().any(|l| l
            == "! cancelled: the game changed while the engine thought; its answer is dropped"),
        "{:?}",
        console_lines(&gui)
    );
    // A new game while it thinks, and a move taken back while it thinks.
    post(&gui, "api/new", json!({"board": "hex5"}));
    think("E5");
    post(&gui, "api/new", json!({"board": "hex5"}));
    let s = cancelled("the search to end after New game");
    assert_eq!(s["moves"], 0, "{s}");
    think("E5");
    post(&gui, "api/undo", json!({"unit": "move"}));
    let s = cancelled("the search to end after an undo");
    assert_eq!(s["moves"], 0, "{s}");
    // The engine was not restarted, and it plays on in step with the game.
    assert_eq!(state(&gui)["engine"]["pid"].as_u64(), pid);
    post(&gui, "api/players", json!({"playouts": 100}));
    post(&gui, "api/play", json!({"move": "E5"}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
        s["moves"] == 2
    });
    assert!(s["engine"]["fault"].is_null(), "{s}");
    let game = server_game(&gui);
    assert_eq!(game.records().len(), 2);
    // An engine without the cancellable genmove is restarted, and asked for no move.
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken_engine.py");
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::square(7),
            players: [Player::Human, Player::Engine],
            pie: false,
            strength: Strength::Seconds(60.0),
        },
        engine: format!("python3 '{}' no-cancel {}", script.display(), engine()),
        port: 0,
    })
    .expect("the gui starts");
    post(&gui, "api/play", json!({"move": "D4"}));
    wait_state(&gui, Duration::from_secs(10), "the engine to think", |s| {
        s["engine"]["busy"] == "thinking"
    });
    let asked = Instant::now();
    post(&gui, "api/resign", json!({}));
    let s = wait_state(&gui, Duration::from_secs(50), "the restart", |s| {
        s["engine"]["busy"].as_str() == Some("")
    });
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(
        (s["moves"].as_u64(), s["over"].as_bool()),
        (Some(1), Some(true))
    );
    let lines = console_lines(&gui);
    assert!(
        lines.iter().any(|l| l
            == "! the game changed while the engine thought: it was restarted, and no move is asked"),
        "{lines:?}"
    );
}

#[test]
fn the_engines_thinking_time_is_kept_with_its_moves() {
    let gui = start(Shape::square(5), [Player::Human, Player::Engine]);
    post(&gui, "api/play", json!({"move": "C3"}));
    let s = wait_state(&gui, Duration::from_secs(20), "the engine's reply", |s| {
        s["moves"].as_u64() >= Some(2) && s["to_move"] == "black"
    });
    let turns = s["turns"].as_array().unwrap();
    assert_eq!(turns[0]["seconds"], Value::Null, "the human's turn");
    let t = turns[1]["seconds"]
        .as_f64()
        .expect("the engine's thinking time");
    assert!(t > 0.0 && t < 20.0, "{t}");
    // Taken back and redone, the move keeps its time; another line forgets it.
    post(&gui, "api/undo", json!({"unit": "move"}));
    let (_, s) = post(&gui, "api/redo", json!({"unit": "move"}));
    assert_eq!(s["turns"][1]["seconds"].as_f64(), Some(t));
    post(&gui, "api/players", json!({"white": "human"}));
    post(&gui, "api/undo", json!({"unit": "move"}));
    let white = s["turns"][1]["gtp"].as_str().unwrap();
    let other = if white == "A1" { "E5" } else { "A1" };
    let (status, s) = post(&gui, "api/play", json!({"move": other}));
    assert_eq!(status, 200);
    assert_eq!(s["turns"][1]["seconds"], Value::Null, "{s}");
    // The engine's move is kept in the line it was played in, with its time.
    let node = s["turns"][1]["branches"][0]["node"].clone();
    let (status, s) = post(&gui, "api/goto", json!({ "node": node }));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["turns"][1]["seconds"].as_f64(), Some(t), "{s}");
}

/// The processes whose parent is `pid`, from /proc.
fn children(pid: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `PID (COMM) STATE PPID ...`: the command may hold spaces, so read after its closing parenthesis.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 1..]
            .split_whitespace()
            .collect();
        if fields.get(1).and_then(|p| p.parse::<u64>().ok()) == Some(pid) {
            out.push(entry.file_name().to_string_lossy().parse().unwrap_or(0));
        }
    }
    out
}

/// True while `pid` runs (a zombie has ended).
fn running(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !matches!(
            s[s.rfind(')').unwrap() + 1..].split_whitespace().next(),
            Some("Z" | "X")
        )
    })
}

#[test]
fn a_killed_engine_wrapper_takes_the_engine_down_and_the_page_says_so() {
    // A wrapper shell that stays between the server and the engine (`; exit` keeps `sh -c` from exec'ing it).
    let gui = Gui::start(&Options {
        game: NewGame {
            board: Shape::square(5),
            players: [Player::Human, Player::Human],
            pie: false,
            strength: Strength::Playouts(150),
        },
        engine: format!("{}; exit", engine()),
        port: 0,
    })
    .expect("the gui starts");
    let pid = state(&gui)["engine"]["pid"].as_u64().unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    let engine_pid = loop {
        if let Some(&c) = children(pid).first() {
            break c;
        }
        assert!(Instant::now() < until, "the wrapper started no engine");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Kill the wrapper alone, not its group.
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let s = wait_state(&gui, Duration::from_secs(10), "the fault", |s| {
        s["engine"]["fault"].is_string()
    });
    let fault = s["engine"]["fault"].as_str().unwrap();
    assert!(
        fault.starts_with(&format!(
            "the engine's process (pid {pid}) ended (killed by signal 9); its process group was killed with it"
        )),
        "{fault}"
    );
    let until = Instant::now() + Duration::from_secs(5);
    while running(engine_pid) {
        assert!(
            Instant::now() < until,
            "the engine {engine_pid} runs on as an orphan"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Restart brings the engine back.
    post(&gui, "api/restart", json!({}));
    wait_state(&gui, Duration::from_secs(20), "the restart", |s| {
        s["engine"]["fault"].is_null() && s["engine"]["pid"].as_u64() != Some(pid)
    });
}

/// Issue 47: in a game against a person at the engine's default strength or seconds a move, oust ponders (thinks
/// on the person's time); at a level it does not, so that a level stays the opponent its calibration measured.
#[test]
fn the_engine_ponders_against_a_person_except_at_a_level() {
    for (strength, ponder) in [
        (Strength::Seconds(0.2), "= on"),
        (Strength::Level(3), "= off"),
    ] {
        let gui = Gui::start(&Options {
            game: NewGame {
                board: Shape::square(5),
                players: [Player::Human, Player::Engine],
                pie: false,
                strength,
            },
            engine: engine(),
            port: 0,
        })
        .expect("the gui starts");
        assert_eq!(post(&gui, "api/play", json!({"move": "C3"})).0, 200);
        wait_state(&gui, Duration::from_secs(20), "the engine's move", |s| {
            s["moves"].as_u64() >= Some(2) && s["engine"]["busy"] == ""
        });
        let answer = console_answer(&gui, "oust-get-param ponder");
        assert_eq!(answer, ponder, "{strength:?}");
    }
}
