//! `oust gui`'s server without a browser: the HTTP API's refusals and bad requests, the Host and Origin checks, and a
//! start that fails with its reason (a wrong engine, a port in use) or prints one address line.

#[path = "common/gui.rs"]
#[allow(dead_code, unused_macros)]
mod gui_common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use oust::gui::{Gui, NewGame, Options, Player};
use oust::rules::{Geometry, Shape};
use serde_json::{Value, json};

use gui_common::*;

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
