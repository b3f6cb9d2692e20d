//! `oust gui`: the server's API and its refusals (no browser), and the page in a real headless Chromium driven
//! over WebDriver. Every board the page shows is checked against the rules core. Outside CI, the browser tests say
//! plainly on stderr that they were skipped when Chromium or chromedriver is missing; under CI they fail then.

#[path = "common/webdriver.rs"]
mod webdriver;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use oust::gui::{Gui, NewGame, Options, Player, Strength};
use oust::rules::{Color, Geometry, Move, Position, Shape, Status};
use oust::{notation, sgf};
use serde_json::{Value, json};
use webdriver::{Browser, say_skipped, unavailable};

/// The engine the tests drive: this crate's binary, one thread, quick moves.
fn engine() -> String {
    format!("'{}' --threads 1", env!("CARGO_BIN_EXE_oust"))
}

fn start(board: Shape, players: [Player; 2]) -> Gui {
    Gui::start(&Options {
        game: NewGame {
            board,
            players,
            pie: false,
            strength: Strength::Playouts(150),
        },
        engine: engine(),
        port: 0,
    })
    .expect("the gui starts")
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

/// GET `path`: status and body.
fn get(gui: &Gui, path: &str) -> (u16, String) {
    let mut r = agent().get(&format!("{}{path}", gui.url())).call().unwrap();
    let status = r.status().as_u16();
    (status, r.body_mut().read_to_string().unwrap())
}

/// POST `args` as JSON to `path`: status and JSON body.
fn post(gui: &Gui, path: &str, args: Value) -> (u16, Value) {
    let mut r = agent()
        .post(&format!("{}{path}", gui.url()))
        .header("Content-Type", "application/json")
        .send(args.to_string())
        .unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap())
}

fn state(gui: &Gui) -> Value {
    serde_json::from_str(&get(gui, "api/state").1).unwrap()
}

/// A raw HTTP/1.1 request with the given headers; the status and body of the answer.
fn raw(gui: &Gui, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", gui.port())).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out[9..12].parse().unwrap();
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

/// Waits until `f` holds of the server's state.
fn wait_state(gui: &Gui, limit: Duration, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + limit;
    loop {
        let s = state(gui);
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < until, "timed out waiting for {what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The game the server holds, replayed through the rules from its SGF download.
fn server_game(gui: &Gui) -> oust::rules::Game {
    let (status, text) = get(gui, "api/sgf");
    assert_eq!(status, 200);
    let record = sgf::parse(&text).unwrap();
    let mut game = sgf::replay(&record, None).unwrap();
    // The download's main line goes on after the position shown (these tests play no variation): go back to it.
    let moves = state(gui)["moves"].as_u64().unwrap() as usize;
    while game.records().len() > moves {
        game.undo();
    }
    game
}

#[test]
fn play_refusals_and_bad_requests() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let (status, s) = post(&gui, "api/play", json!({"move": "C3"}));
    assert_eq!(status, 200);
    assert_eq!(s["status"], "White to move");
    assert_eq!(s["last"], "C3");
    post(&gui, "api/play", json!({"move": "A1"}));
    let before = state(&gui);
    // The engine's words for an illegal placement, and nothing changes.
    let (status, e) = post(&gui, "api/play", json!({"move": "C4"}));
    assert_eq!(status, 409);
    assert_eq!(
        e["error"],
        "illegal move: C4 joins black stones into a group of 2 that touches no white stone"
    );
    let after = state(&gui);
    for key in ["stones", "to_move", "moves", "turns", "legal"] {
        assert_eq!(before[key], after[key], "{key} changed");
    }
    assert_eq!(after["refusal"], e["error"]);
    let (status, e) = post(&gui, "api/play", json!({"move": "C3"}));
    assert_eq!(
        (status, e["error"].as_str().unwrap()),
        (409, "illegal move: C3 is occupied by a black stone")
    );
    let (status, e) = post(&gui, "api/play", json!({"move": "F9"}));
    assert_eq!(status, 409);
    assert!(
        e["error"].as_str().unwrap().starts_with("illegal move: F9"),
        "{e}"
    );
    let (status, e) = post(&gui, "api/play", json!({"vertex": "C3"}));
    assert_eq!(
        (status, e["error"].as_str().unwrap()),
        (409, "the request needs 'move', a string")
    );
    let (status, body) = raw(
        &gui,
        "POST",
        "/api/play",
        &[("Host", &format!("127.0.0.1:{}", gui.port()))],
        "{not json",
    );
    assert_eq!(status, 400);
    assert!(body.contains("the request is not JSON"), "{body}");
    assert_eq!(get(&gui, "api/nothing").0, 404);
    assert_eq!(post(&gui, "api/nothing", json!({})).0, 404);
    // New games: every board oust supports, and the refusal of one it does not.
    let (status, e) = post(&gui, "api/new", json!({"board": "hex14"}));
    assert_eq!(status, 409);
    assert!(e["error"].as_str().unwrap().contains("14"), "{e}");
    let (status, e) = post(&gui, "api/new", json!({"board": "9", "black": "robot"}));
    assert_eq!(
        (status, e["error"].as_str().unwrap()),
        (409, "a player is human or engine, got 'robot'")
    );
    for board in ["2", "25", "7x5", "25x2", "hex2", "hex13"] {
        let (status, s) = post(
            &gui,
            "api/new",
            json!({"board": board, "black": "human", "white": "human"}),
        );
        assert_eq!(status, 200, "{board}: {s}");
        let shape = Shape::parse(board).unwrap();
        let geo = Geometry::new(shape).unwrap();
        let layout: Value = serde_json::from_str(&get(&gui, "api/layout").1).unwrap();
        assert_eq!(
            layout["cells"].as_array().unwrap().len(),
            geo.len(),
            "{board}"
        );
        assert_eq!(s["legal"].as_array().unwrap().len(), geo.len(), "{board}");
    }
}

#[test]
fn foreign_host_and_origin_are_refused() {
    let gui = start(Shape::square(5), [Player::Human, Player::Human]);
    let port = gui.port();
    let ours = format!("127.0.0.1:{port}");
    let local = format!("localhost:{port}");
    assert_eq!(
        raw(&gui, "GET", "/api/state", &[("Host", &ours)], "").0,
        200
    );
    assert_eq!(raw(&gui, "GET", "/", &[("Host", &local)], "").0, 200);
    // DNS rebinding: a page of evil.example that resolves to 127.0.0.1 sends its own name as the Host.
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1:1".to_string(),
        format!("127.0.0.2:{port}"),
    ] {
        let (status, body) = raw(&gui, "GET", "/api/state", &[("Host", &host)], "");
        assert_eq!(status, 403, "{host}");
        assert!(
            body.contains(&format!("Host '{host}' is not this server")),
            "{body}"
        );
    }
    let (status, body) = raw(&gui, "GET", "/api/state", &[], "");
    assert_eq!((status, body.contains("no Host header")), (403, true));
    // A foreign page may not change the game.
    let play = r#"{"move": "C3"}"#;
    let (status, body) = raw(
        &gui,
        "POST",
        "/api/play",
        &[("Host", &ours), ("Origin", "http://evil.example")],
        play,
    );
    assert_eq!(status, 403);
    assert!(
        body.contains("Origin 'http://evil.example' may not change the game"),
        "{body}"
    );
    let (status, _) = raw(
        &gui,
        "POST",
        "/api/play",
        &[
            ("Host", &ours),
            ("Origin", &format!("http://localhost:{}", port + 1)),
        ],
        play,
    );
    assert_eq!(status, 403);
    assert_eq!(
        state(&gui)["moves"],
        0,
        "the refused requests changed the game"
    );
    let (status, _) = raw(
        &gui,
        "POST",
        "/api/play",
        &[("Host", &ours), ("Origin", &format!("http://{ours}"))],
        play,
    );
    assert_eq!(status, 200);
    assert_eq!(state(&gui)["moves"], 1);
}

#[test]
fn a_wrong_engine_or_a_port_in_use_fails_at_start_with_the_reason() {
    let options = |engine: &str, port: u16| Options {
        game: NewGame::default(),
        engine: engine.to_string(),
        port,
    };
    let e = Gui::start(&options("/nonexistent/engine --flag", 0))
        .err()
        .unwrap();
    assert!(
        e.starts_with("the engine '/nonexistent/engine --flag' did not start: "),
        "{e}"
    );
    assert!(e.contains("not found") || e.contains("No such file"), "{e}");
    // An engine that is no GTP engine at all.
    let e = Gui::start(&options("echo hello", 0)).err().unwrap();
    assert!(e.contains("did not start") && e.contains("hello"), "{e}");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let e = Gui::start(&options(&engine(), port)).err().unwrap();
    assert!(
        e.starts_with(&format!("cannot listen on 127.0.0.1 port {port}: ")),
        "{e}"
    );
}

#[test]
fn the_binary_prints_one_address_line_and_refuses_a_wrong_engine() {
    let bin = env!("CARGO_BIN_EXE_oust");
    let out = std::process::Command::new(bin)
        .args(["gui", "--no-browser", "--engine", "/nonexistent/engine"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("oust gui: the engine '/nonexistent/engine' did not start"),
        "{err}"
    );
    let mut child = std::process::Command::new(bin)
        .args(["gui", "--no-browser", "--size", "hex5", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8(line).unwrap();
    let re = regex::Regex::new(r"^http://127\.0\.0\.1:(\d+)/$").unwrap();
    let port: u16 = re.captures(&line).expect("one address line")[1]
        .parse()
        .unwrap();
    // The default engine is this binary; the first game is the board of --size.
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut body = String::new();
    s.read_to_string(&mut body).unwrap();
    assert!(
        body.contains("\"board\":\"hex5\"") && body.contains("\"name\":\"oust "),
        "{body}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    // Issue 48: --seed seeds the default engine; with --engine it is refused, with the reason.
    let mut child = std::process::Command::new(bin)
        .args(["gui", "--no-browser", "--size", "5", "--seed", "4321"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut line = Vec::new();
    while stdout.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8(line).unwrap();
    let port: u16 = re.captures(&line).expect("one address line")[1]
        .parse()
        .unwrap();
    let host = format!("127.0.0.1:{port}");
    let ask = |body: &str| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "POST /api/console HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    };
    assert!(ask(r#"{"line": "oust-get-param seed"}"#).starts_with("HTTP/1.1 200"));
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "GET /api/console HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut body = String::new();
        s.read_to_string(&mut body).unwrap();
        if body.contains(r#""text":"4321""#) {
            break;
        }
        assert!(Instant::now() < until, "{body}");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let out = std::process::Command::new(bin)
        .args(["gui", "--no-browser", "--engine", "oust", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("oust gui: --seed seeds the default engine"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

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

/// Starts a human-against-human game on `shape`, plays `n` placements of the fixed pseudo-random line, and reviews
/// it at `playouts` a position; the finished review.
fn reviewed_game(shape: Shape, n: usize, playouts: u64) -> (Gui, Value) {
    let gui = start(shape, [Player::Human, Player::Human]);
    play_some(&gui, shape, n, 3);
    post(&gui, "api/review", json!({"playouts": playouts}));
    let s = wait_state(&gui, Duration::from_secs(120), "the review", |s| {
        s["analysis"]["review"]["total"].is_u64()
            && s["analysis"]["review"]["done"] == s["analysis"]["review"]["total"]
    });
    let review = s["analysis"]["review"].clone();
    (gui, review)
}

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

/// The lines of the console, as `DIR TEXT`.
/// Sends `line` through the console and waits (at most 20 s) for the engine's successful answer to it.
fn console_answer(gui: &Gui, line: &str) -> String {
    assert_eq!(post(gui, "api/console", json!({"line": line})).0, 200);
    let until = Instant::now() + Duration::from_secs(20);
    let sent = format!("> {line}");
    loop {
        let lines = console_lines(gui);
        let asked = lines.iter().rposition(|l| *l == sent);
        if let Some(answer) = asked.and_then(|i| lines[i..].iter().find(|l| l.starts_with('='))) {
            return answer.clone();
        }
        assert!(Instant::now() < until, "{lines:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn console_lines(gui: &Gui) -> Vec<String> {
    let console: Value = serde_json::from_str(&get(gui, "api/console").1).unwrap();
    console["lines"]
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
        .collect()
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
    // The issue's repro: the human (Black) places, then resigns while the engine thinks.
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

/// The first capture of `NINE_GAME` that gives an extra turn: the number of moves before it.
fn first_capturing_move() -> usize {
    let geo = std::sync::Arc::new(Geometry::square(9).unwrap());
    let mut game = oust::rules::Game::new(geo.clone());
    for (i, v) in NINE_GAME.split_whitespace().enumerate() {
        let c = game.position().to_move();
        let report = game
            .play(c, notation::parse_move(&geo, v).unwrap())
            .unwrap();
        if report.captured > 0 && report.extra_turn {
            return i;
        }
    }
    panic!("NINE_GAME has no capture");
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

/// The moves of a line, by turn, as the move list names them.
fn turn_names(s: &Value) -> Vec<String> {
    s["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["gtp"].as_str().unwrap().to_string())
        .collect()
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

// ---------------------------------------------------------------------------------------------------------------
// The browser tests. One at a time: each starts its own Chromium.

static BROWSER: Mutex<()> = Mutex::new(());

fn browser_lock() -> MutexGuard<'static, ()> {
    BROWSER.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Prints a measurement past the harness's capture of output.
fn report(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The stones the page shows, by GTP vertex, and its status line.
fn shown(b: &Browser) -> (Vec<(String, Option<String>)>, String) {
    let v = b.js(
        "return [Array.from(document.querySelectorAll('[data-vertex]')).map(c => {
            const s = c.matches('[data-stone]') ? c : c.querySelector('[data-stone]');
            return [c.dataset.vertex, s ? s.getAttribute('data-stone') : null]; }),
          document.querySelector('[data-role=status]').textContent];",
        json!([]),
    );
    let cells = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c[0].as_str().unwrap().to_string(),
                c[1].as_str().map(String::from),
            )
        })
        .collect();
    (cells, v[1].as_str().unwrap().to_string())
}

/// Checks that the page shows `pos`: every cell of the board once, each with its stone, and the status line.
fn check_board(b: &Browser, pos: &Position) {
    let (cells, status) = shown(b);
    let geo = pos.geometry();
    assert_eq!(cells.len(), geo.len(), "cells shown");
    for (v, stone) in &cells {
        let p = geo.parse_vertex(v).unwrap_or_else(|e| panic!("{v}: {e}"));
        let want = pos.color_at(p).map(|c| c.name().to_string());
        assert_eq!(
            stone, &want,
            "the page shows {v} as {stone:?}, the rules say {want:?}"
        );
    }
    let want = match pos.status() {
        Status::Over(o) => match o.winner() {
            Some(Color::Black) => "Black wins",
            Some(Color::White) => "White wins",
            None => "No winner",
        },
        _ if pos.to_move() == Color::Black => "Black to move",
        _ => "White to move",
    };
    assert!(
        status.starts_with(want),
        "status '{status}', the rules say '{want}'"
    );
}

/// Waits until the page has drawn the server's state `version` or a later one.
fn wait_drawn(b: &Browser, gui: &Gui) {
    let version = state(gui)["version"].as_u64().unwrap();
    b.wait_for(
        "return window.__oust && window.__oust.version >= arguments[0];",
        json!([version]),
        Duration::from_secs(10),
        "the page to draw the state",
    );
}

/// Clicks a cell (WebDriver's element click, as a user clicks) and waits until the page has drawn its answer
/// (the board, or the refusal).
fn click(b: &Browser, vertex: &str) {
    let before = b.js("return window.__oust.clicks.length;", json!([]));
    b.click(&format!("[data-vertex=\"{vertex}\"]"));
    let answered = b.js_async(
        "const [n, done] = arguments; const t0 = Date.now();
         (function poll() { if (window.__oust.clicks.length > n) done(true);
           else if (Date.now() - t0 > 10000) done(false); else setTimeout(poll, 2); })();",
        json!([before]),
    );
    assert_eq!(answered, json!(true), "no answer to the click on {vertex}");
}

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

macro_rules! browser_or_skip {
    ($name:expr) => {{
        if let Some(why) = unavailable() {
            say_skipped($name, &why);
            return;
        }
        browser_lock()
    }};
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

/// A 9x9 game (found by random play) with captures that give extra turns (two of them after move 50), and a
/// forced pass at move 88.
const NINE_GAME: &str = "J7 A9 G6 C7 C2 G1 B6 E4 F4 H2 D3 J5 H1 H7 B9 G7 H4 D8 E9 H8 E1 A1 A3 D1 F2 A4 A5 F1 J8 D2 \
    F5 E1 J2 G3 B7 C5 C1 H6 F6 G1 B8 J9 C4 F8 C6 H3 H9 A8 B5 E7 A6 J4 G6 A9 A5 B3 H8 A9 J9 E2 A6 H5 G8 E5 F4 J6 C6 J3 \
    E3 F9 G9 B4 E8 A3 H5 H4 J9 E2 H2 D5 F9 B4 C6 J4 J6 E4 C3";

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

/// A 7x7 record with a main line of six placements (D4 A7 G1 A1 G7 B6) and two variations at the third (B7 A6,
/// F1 G2), for the move list's branches.
const VARIATIONS_SGF: &str =
    "(;GM[1]SZ[7];B[dd];W[aa](;B[gg];W[ag];B[ga];W[bb])(;B[ba];W[ab])(;B[fg];W[gf]))";

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

/// Plays `n` placements of a fixed pseudo-random legal line through the page's API (for the screenshots).
fn play_some(gui: &Gui, shape: Shape, n: usize, seed: usize) {
    let mut game = oust::rules::Game::new(std::sync::Arc::new(Geometry::new(shape).unwrap()));
    for i in 0..n {
        if game.position().status() != Status::Ongoing {
            break;
        }
        let mut legal = Vec::new();
        game.position().legal_placements(&mut legal);
        legal.sort();
        let p = legal[(i * 7919 + seed) % legal.len()];
        let c = game.position().to_move();
        game.play(c, Move::Place(p)).unwrap();
        if game.position().status() == Status::MustPass {
            let c = game.position().to_move();
            game.play(c, Move::Pass).unwrap();
        }
        let name = game.position().geometry().name(p);
        assert_eq!(post(gui, "api/play", json!({"move": name})).0, 200);
    }
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

/// Issue 48: a review that asks for no number of playouts takes the default of the board's evaluator: 2,000
/// visits where the engine evaluates with its network (hex-7, 9x9, hex-5), 20,000 playouts where it evaluates with
/// playouts (hex-4, 5x5); a number given is kept, and a wrong one is refused with the reason.
#[test]
fn a_review_without_playouts_takes_the_default_of_the_boards_evaluator() {
    for (shape, playouts) in [
        (Shape::Hex { side: 7 }, 2_000),
        (Shape::square(9), 2_000),
        (Shape::Hex { side: 5 }, 2_000),
        (Shape::Hex { side: 4 }, 20_000),
        (Shape::square(5), 20_000),
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
