//! The HTTP side: the page's files, the JSON API and the event stream, with the checks that keep other sites out:
//! a `Host` that is not this server's loopback address (DNS rebinding) is refused, and so is a state-changing
//! request from a foreign `Origin`. Each request gets a thread; the event streams wait on the shared condition.

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request as HttpRequest, Response, Server};

use crate::rules::{Color, Shape};

use super::board;
use super::session::{NewGame, Player, Session, Strength};
use super::{Hub, Request, Shared};
use crate::gtp::levels::{FULL_STRENGTH, LEVEL_ELO, Level, MAX_LEVEL};
use crate::review::{self, Review};

/// Largest request body read, in bytes: records are small. The page reads it from the state (`max_request_bytes`)
/// and refuses a larger record before sending it.
pub(crate) const MAX_BODY: u64 = 4 * 1024 * 1024;

/// The refusal of a request over [`MAX_BODY`], of `bytes` bytes when its length was given: a record
/// (`/api/load`) is named as such.
fn too_large(path: &str, bytes: Option<u64>) -> String {
    let mib = |n: u64| format!("{:.1} MiB", n as f64 / (1024.0 * 1024.0));
    let what = if path == "/api/load" {
        "the record is over the limit"
    } else {
        "the request is over the limit"
    };
    let size = bytes.map_or_else(
        || "it is larger".to_string(),
        |n| format!("it is {} ({n} bytes)", mib(n)),
    );
    format!(
        "{what}: {size}, and oust gui takes at most {} ({MAX_BODY} bytes) a request",
        mib(MAX_BODY)
    )
}

/// The page's files, built into the binary.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../../web/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/board.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../../web/style.css"),
    ),
];

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn json_response(status: u16, v: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(v.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn error(status: u16, message: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    json_response(status, &json!({"error": message}))
}

/// Serves requests until the server is unblocked.
pub(crate) fn serve(hub: Arc<Hub>, server: Arc<Server>) {
    while let Ok(request) = server.recv() {
        if hub.quit.load(Ordering::SeqCst) {
            break;
        }
        let hub = hub.clone();
        let spawned = thread::Builder::new()
            .name("gui-request".into())
            .spawn(move || handle(&hub, request));
        if let Err(e) = spawned {
            log::warn!("cannot start a thread for a request: {e}");
        }
    }
}

fn header_value<'a>(request: &'a HttpRequest, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// Why a request is refused before it is looked at: a foreign `Host` (DNS rebinding), or a state-changing
/// request from a foreign `Origin`.
pub(crate) fn refusal(
    port: u16,
    host: Option<&str>,
    origin: Option<&str>,
    changes: bool,
) -> Option<String> {
    let ours = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    match host {
        Some(h) if ours.iter().any(|o| o.eq_ignore_ascii_case(h)) => {}
        Some(h) => {
            return Some(format!(
                "refused: Host '{h}' is not this server (127.0.0.1:{port} or localhost:{port})"
            ));
        }
        None => return Some("refused: no Host header".to_string()),
    }
    if changes
        && let Some(o) = origin
        && !ours
            .iter()
            .any(|ok| o.eq_ignore_ascii_case(&format!("http://{ok}")))
    {
        return Some(format!(
            "refused: a request from Origin '{o}' may not change the game"
        ));
    }
    None
}

fn handle(hub: &Arc<Hub>, mut request: HttpRequest) {
    let changes = *request.method() != Method::Get && *request.method() != Method::Head;
    if let Some(why) = refusal(
        hub.port,
        header_value(&request, "Host"),
        header_value(&request, "Origin"),
        changes,
    ) {
        let _ = request.respond(error(403, &why));
        return;
    }
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("/").to_string();
    if !changes {
        if path == "/api/events" {
            events(hub, request);
            return;
        }
        let response = get(hub, &path);
        let _ = request.respond(response);
        return;
    }
    if let Some(n) = request.body_length()
        && n as u64 > MAX_BODY
    {
        let _ = request.respond(refuse_large(hub, &path, Some(n as u64)));
        return;
    }
    let mut body = String::new();
    if let Err(e) = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut body)
    {
        let _ = request.respond(error(400, &format!("cannot read the request: {e}")));
        return;
    }
    if body.len() as u64 > MAX_BODY {
        // A body without a length (chunked) that goes on past the limit.
        let _ = request.respond(refuse_large(hub, &path, None));
        return;
    }
    let args: Value = if body.trim().is_empty() {
        json!({})
    } else {
        match serde_json::from_str(&body) {
            Ok(v) => v,
            Err(e) => {
                let _ = request.respond(error(400, &format!("the request is not JSON: {e}")));
                return;
            }
        }
    };
    let response = post(hub, &path, &args);
    let _ = request.respond(response);
}

/// The answer to a request over [`MAX_BODY`]: 413, with the reason, which the page shows as the refusal of an
/// upload (`/api/load`) until the next action.
fn refuse_large(hub: &Hub, path: &str, bytes: Option<u64>) -> Response<std::io::Cursor<Vec<u8>>> {
    let why = too_large(path, bytes);
    let mut s = hub.lock();
    if path == "/api/load" {
        s.session.refusal = Some(why.clone());
        s.changed();
    }
    let state = s.state();
    drop(s);
    hub.notify();
    json_response(413, &json!({"error": why, "state": state}))
}

fn get(hub: &Hub, path: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    if let Some((_, kind, text)) = ASSETS.iter().find(|(p, _, _)| *p == path) {
        return Response::from_string(*text)
            .with_header(header("Content-Type", kind))
            .with_header(header("Cache-Control", "no-cache"));
    }
    let s = hub.lock();
    match path {
        "/api/state" => json_response(200, &s.state()),
        "/api/levels" => json_response(200, &levels_json()),
        "/api/layout" => json_response(200, &board::layout(s.session.geometry())),
        "/api/console" => json_response(200, &json!({"lines": s.console})),
        "/api/sgf" => {
            Response::from_string(s.session.sgf(&s.engine.name, s.analysis.review.as_ref()))
                .with_header(header("Content-Type", "application/x-go-sgf"))
                .with_header(header(
                    "Content-Disposition",
                    &format!(
                        "attachment; filename=\"oust-{}.sgf\"",
                        s.session.geometry().size_name()
                    ),
                ))
        }
        "/api/ap" => match s.session.ap_turns() {
            Ok(text) => Response::from_string(text)
                .with_header(header("Content-Type", "text/plain; charset=utf-8"))
                .with_header(header(
                    "Content-Disposition",
                    &format!(
                        "attachment; filename=\"oust-{}.txt\"",
                        s.session.geometry().size_name()
                    ),
                )),
            Err(e) => error(409, &e),
        },
        _ => error(404, &format!("no such page: {path}")),
    }
}

/// The text of a string argument.
fn text<'a>(args: &'a Value, key: &str) -> Result<&'a str, String> {
    args[key]
        .as_str()
        .ok_or_else(|| format!("the request needs '{key}', a string"))
}

/// Reads the settings of a new game: `board` (`9`, `7x5`, `hex7`), `black`, `white` (`human`, `engine`), `pie`
/// (true or `on`), and `seconds` or `playouts` per engine move.
pub(crate) fn new_game(args: &Value, current: &NewGame) -> Result<NewGame, String> {
    let mut game = current.clone();
    if let Some(b) = args["board"].as_str() {
        game.board = Shape::parse(b)
            .and_then(Shape::checked)
            .map_err(|e| e.to_string())?;
    }
    for (i, key) in ["black", "white"].iter().enumerate() {
        if let Some(p) = args[*key].as_str() {
            game.players[i] = Player::parse(p)?;
        }
    }
    match &args["pie"] {
        Value::Bool(b) => game.pie = *b,
        Value::String(s) => game.pie = matches!(s.as_str(), "on" | "true" | "1"),
        _ => {}
    }
    if let Some(s) = args["seconds"].as_f64() {
        if !(s > 0.0 && s <= 3600.0) {
            return Err(format!(
                "seconds per move must be more than 0 and at most 3600, got {s}"
            ));
        }
        game.strength = Strength::Seconds(s);
    } else if let Some(n) = args["playouts"].as_u64() {
        if n == 0 || n > 100_000_000 {
            return Err(format!(
                "playouts per move must be from 1 to 100000000, got {n}"
            ));
        }
        game.strength = Strength::Playouts(n);
    } else if args["strength"] == "default" {
        game.strength = Strength::Default;
    }
    if let Some(level) = level_arg(&args["level"])? {
        if !args["seconds"].is_null() || !args["playouts"].is_null() {
            return Err(
                "a level fixes the engine's playouts and time: give 'level', or 'seconds' or 'playouts', not both"
                    .to_string(),
            );
        }
        game.strength = level;
    }
    Ok(game)
}

/// The `level` of a new game: 1 to [`MAX_LEVEL`] (a number or its text), or `max` for full strength (the engine's
/// defaults); `None` when absent.
fn level_arg(value: &Value) -> Result<Option<Strength>, String> {
    let text = match value {
        Value::Null => return Ok(None),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match Level::parse(&text)? {
        Level::Number(n) => Ok(Some(Strength::Level(n))),
        Level::Full => Ok(Some(Strength::Default)),
    }
}

/// Refuses a level for an engine that has none (one without `oust-set-param`).
fn levels_known(s: &Shared, strength: Strength) -> Result<(), String> {
    match strength {
        Strength::Level(n) if !s.engine.levels => Err(format!(
            "the engine ({}) has no strength levels: level {n} needs oust's oust-set-param level; choose seconds or playouts a move",
            s.engine.name
        )),
        _ => Ok(()),
    }
}

/// What each level is like, in words a newcomer reads, as Lichess and KaTrain name theirs: from what each level
/// does (levels.md: 1 and 2 play on instinct, from the learned priors, without reading ahead; 3 and up read a
/// growing number of playouts; 10 is the engine's own search) and how far apart their measured Elo are. Oust has
/// no rated human players to calibrate against: these are comparisons, not ratings.
pub(crate) const LEVEL_WORDS: [&str; MAX_LEVEL as usize] = [
    "a newcomer who has just learnt the rules",
    "a beginner who plays by eye",
    "a beginner who sees the simple captures",
    "a casual player",
    "a casual player who reads ahead",
    "a club player",
    "a strong club player",
    "an expert",
    "a strong expert",
    "the engine's own search on one core, about a second a move",
];

/// The levels the new-game dialog offers, with what each is like and its measured Elo above the random player.
fn levels_json() -> Value {
    let levels: Vec<Value> = LEVEL_ELO
        .iter()
        .zip(1..=MAX_LEVEL)
        .zip(LEVEL_WORDS)
        .map(|((e, n), words)| {
            json!({"level": n, "words": words, "elo": {"hex": e.hex7, "square": e.square9}})
        })
        .collect();
    json!({
        "levels": levels,
        "full": FULL_STRENGTH,
        "measured": "Elo above the uniformly random player, measured by oust calibrate on hex-7 (for hexhex boards) and 9x9 (for the others): docs/results.md",
    })
}

/// The settings of the game `session` holds, as the new-game dialog starts from them.
fn current_game(session: &Session) -> NewGame {
    NewGame {
        board: session.geometry().shape(),
        players: session.players,
        pie: session.game.pie(),
        strength: session.strength,
    }
}

fn post(hub: &Hub, path: &str, args: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut s = hub.lock();
    let result: Result<(), String> = match path {
        "/api/play" => text(args, "move").and_then(|m| s.session.play_text(m)),
        "/api/new" => {
            let current = current_game(&s.session);
            new_game(args, &current).and_then(|g| {
                levels_known(&s, g.strength)?;
                s.session = Session::new(&g)?;
                s.clear_views();
                Ok(())
            })
        }
        "/api/players" => {
            let current = current_game(&s.session);
            new_game(args, &current).and_then(|g| {
                levels_known(&s, g.strength)?;
                s.session.play_on(g.players);
                s.session.strength = g.strength;
                Ok(())
            })
        }
        "/api/undo" => {
            let turn = args["unit"] != "move";
            if s.session.undo(turn) {
                // Against the engine, a turn taken back returns to the human's turn.
                let engine_next = s.session.player_to_move() == Player::Engine;
                if turn && engine_next && s.session.players.contains(&Player::Human) {
                    s.session.undo(true);
                }
                Ok(())
            } else {
                Err("cannot undo: no move to take back".to_string())
            }
        }
        "/api/redo" => {
            if s.session.redo(args["unit"] != "move") {
                Ok(())
            } else {
                Err("nothing to redo".to_string())
            }
        }
        "/api/jump" => match args["moves"].as_u64() {
            Some(n) => {
                s.session.jump(n as usize);
                Ok(())
            }
            None => Err("the request needs 'moves', a number".to_string()),
        },
        "/api/goto" => match args["node"].as_u64() {
            Some(n) => s.session.go_to(n as usize),
            None => Err("the request needs 'node', a number from the move list's branches".to_string()),
        },
        "/api/variation" => match args["action"].as_str() {
            Some("promote") => s.session.promote(),
            Some("delete") => s.session.delete_variation(),
            _ => Err("the request needs 'action': promote (make the line shown the main line) or delete \
                      (delete its innermost variation)"
                .to_string()),
        },
        "/api/resign" => resign(&mut s.session),
        "/api/load" => {
            let name = args["name"].as_str().unwrap_or("the record").to_string();
            text(args, "text").and_then(|t| {
                s.session.load(t, &name)?;
                s.clear_views();
                s.analysis.review = s.session.loaded_review.take();
                Ok(())
            })
        }
        "/api/engine-move" => {
            // Play on from here: the engine moves for the side to move, following the line where its move is the
            // line's next one and starting a variation otherwise; nothing of the line is forgotten.
            s.session.review = false;
            s.session.pass_if_forced(true);
            s.session.engine_plays_on = true;
            let c = s.session.game.position().to_move();
            s.session.players[c.index()] = Player::Engine;
            s.stopped = false;
            s.paused = false;
            Ok(())
        }
        "/api/stop" => {
            if s.engine.busy == "thinking" {
                hub.interrupt.store(true, Ordering::SeqCst);
            } else {
                // Between moves of engine-against-engine play: no further engine move until asked.
                s.stopped = true;
            }
            Ok(())
        }
        "/api/pause" => {
            s.paused = args["paused"].as_bool().unwrap_or(!s.paused);
            s.stopped = false;
            Ok(())
        }
        "/api/step" => {
            s.paused = true;
            s.step = true;
            s.stopped = false;
            Ok(())
        }
        "/api/pace" => match args["ms"].as_u64() {
            Some(ms) if ms <= 60_000 => {
                s.pace_ms = ms;
                Ok(())
            }
            _ => Err("the pace is a number of milliseconds from 0 to 60000".to_string()),
        },
        "/api/analysis" => analysis_settings(&mut s, args),
        "/api/hint" => {
            s.requests.push_back(Request::Hint);
            Ok(())
        }
        "/api/review" => match (args["playouts"].is_null(), args["playouts"].as_u64()) {
            // None asked for: the default of the board's evaluator.
            (true, _) => {
                let playouts = review::default_playouts(s.session.geometry().shape());
                start_review(&mut s, playouts)
            }
            (false, Some(n)) if (1..=10_000_000).contains(&n) => start_review(&mut s, n),
            _ => Err(
                "a review needs 'playouts', from 1 to 10000000, or none for the board's default"
                    .to_string(),
            ),
        },
        "/api/restart" => {
            s.requests.push_back(Request::Restart);
            Ok(())
        }
        "/api/console" => text(args, "line").and_then(|l| {
            let l = l.trim();
            if l.is_empty() || l.contains('\n') || l.len() > 4096 {
                Err("a console command is one line of at most 4096 bytes".to_string())
            } else {
                console(&mut s, l)
            }
        }),
        _ => {
            return error(404, &format!("no such action: {path}"));
        }
    };
    match result {
        Ok(()) => {
            if !matches!(path, "/api/stop" | "/api/hint" | "/api/console") {
                s.stopped &= !matches!(path, "/api/play" | "/api/new");
            }
            // A resignation, a new game, an undo... while the engine thinks: its move is no longer wanted, and its
            // search is cancelled at once (its answer is dropped) rather than left to run for the rest of its time.
            if s.engine_move_moot() {
                hub.interrupt.store(true, Ordering::SeqCst);
            }
            s.changed();
            let state = s.state();
            drop(s);
            hub.notify();
            json_response(200, &state)
        }
        Err(e) => {
            if matches!(path, "/api/play" | "/api/load") {
                s.session.refusal = Some(e.clone());
                s.changed();
            }
            let state = s.state();
            drop(s);
            hub.notify();
            json_response(409, &json!({"error": e, "state": state}))
        }
    }
}

/// Live analysis on or off (`on`; without it, and without `max_visits`, it toggles), and its cap (`max_visits`:
/// 0 for none, or 100 to 100,000,000 visits a position).
/// Asks for a review at `playouts` a position, and shows it started, at its first position, in the answer and on
/// the page at once.
fn start_review(s: &mut Shared, playouts: u64) -> Result<(), String> {
    s.analysis.review_request = Some(playouts);
    s.analysis.review = Some(Review::started(playouts, s.session.line_moves()));
    Ok(())
}

fn analysis_settings(s: &mut Shared, args: &Value) -> Result<(), String> {
    let cap = &args["max_visits"];
    if !cap.is_null() {
        match cap.as_u64() {
            Some(n) if n == 0 || (100..=100_000_000).contains(&n) => s.analysis.max_visits = n,
            _ => {
                return Err(format!(
                    "the analysis cap 'max_visits' is 0 (none) or from 100 to 100000000 visits, got {cap}"
                ));
            }
        }
        if args["on"].is_null() {
            return Ok(());
        }
    }
    let was = s.analysis.on;
    s.analysis.on = args["on"].as_bool().unwrap_or(!s.analysis.on);
    if s.analysis.on && !was {
        s.analysis.started += 1;
    }
    s.analysis.updates = 0;
    if !s.analysis.on {
        s.analysis.entries = None;
    }
    Ok(())
}

/// Resigns for the human who asked: the one human against the engine, or the side to move between two humans.
/// Between two engines no one asked, and it is refused.
fn resign(session: &mut Session) -> Result<(), String> {
    if session.over() {
        return Err("the game is over".to_string());
    }
    if session.review {
        return Err(
            "this record is open for review: no one plays it until you choose who plays on"
                .to_string(),
        );
    }
    let humans: Vec<Color> = [Color::Black, Color::White]
        .into_iter()
        .filter(|c| session.players[c.index()] == Player::Human)
        .collect();
    let color = match humans[..] {
        [] => {
            return Err(
                "both colours are played by the engine: there is no one to resign for (Pause stops their play)"
                    .to_string(),
            );
        }
        [c] => c,
        _ => session.game.position().to_move(),
    };
    session.resigned = Some(color);
    session.notice = None;
    Ok(())
}

/// Why the console refuses a command that would change the engine's game behind the page's back, or `None` for
/// a command it sends to the engine.
fn console_refusal(name: &str) -> Option<&'static str> {
    // The command the name means, so that every alias of a refused command (gtp/commands.rs) is refused too.
    Some(match crate::gtp::meaning(name)? {
        "genmove" | "kgs-genmove_cleanup" | "oust-genmove_cancellable" => {
            "it would make the engine move outside the page's game: use Engine move"
        }
        "boardsize" | "rectangular_boardsize" | "oust-board" | "clear_board" => {
            "it would change the engine's board, not the page's: use New game…"
        }
        "loadsgf" | "loadap" => "it would load a record outside the page's game: use Records",
        "oust-setup" => {
            "it would set up a position outside the page's game: load a record in Records"
        }
        "quit" => "it would end the engine: use Restart engine to start it again",
        _ => return None,
    })
}

/// A line typed into the console. Moves (`play`, `black`, `white`, `move`) and `undo` go through the page's game,
/// as a click and the undo button do; commands that would change the engine's game outside it are refused with the
/// reason; everything else is sent to the engine.
fn console(s: &mut Shared, line: &str) -> Result<(), String> {
    let mut words = line.split_whitespace().peekable();
    // A GTP command may start with a numeric id.
    words.next_if(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let name = words.next().unwrap_or("");
    let args: Vec<&str> = words.collect();
    let result = match name {
        "play" | "black" | "white" | "move" => console_play(&mut s.session, name, &args),
        "undo" if args.is_empty() => {
            if s.session.undo(false) {
                Ok(())
            } else {
                Err("cannot undo: no move to take back".to_string())
            }
        }
        _ => match console_refusal(name) {
            Some(why) => Err(format!("{name} is not sent to the engine: {why}")),
            None => {
                s.requests.push_back(Request::Console(line.to_string()));
                return Ok(());
            }
        },
    };
    s.console(">", line);
    match &result {
        Ok(()) => {
            s.console("!", &format!("'{line}' was played on the page's game"));
            s.console("=", "");
        }
        Err(e) => s.console("?", e),
    }
    result
}

/// `play COLOUR MOVE` (or `black MOVE`, `white MOVE`, `move MOVE`) from the console, on the page's game: for a
/// human side to move only, as a click.
fn console_play(session: &mut Session, name: &str, args: &[&str]) -> Result<(), String> {
    let to_move = session.game.position().to_move();
    let (color, mv) = match (name, args) {
        ("play", [c, mv]) => (Some(*c), *mv),
        ("black", [mv]) => (Some("b"), *mv),
        ("white", [mv]) => (Some("w"), *mv),
        ("move", [mv]) => (None, *mv),
        _ => {
            return Err(format!(
                "syntax error: {} (the console plays a move on the page's game)",
                if name == "play" {
                    "play takes a colour and a move, such as 'play b D4'"
                } else {
                    "one move, such as D4"
                }
            ));
        }
    };
    if let Some(c) = color {
        let c = match c.to_ascii_lowercase().as_str() {
            "b" | "black" => Color::Black,
            "w" | "white" => Color::White,
            _ => {
                return Err(format!(
                    "syntax error: expected a colour (b or w), got '{c}'"
                ));
            }
        };
        if c != to_move {
            return Err(format!(
                "it is {to_move}'s turn in the page's game, not {c}'s"
            ));
        }
    }
    if session.players[to_move.index()] == Player::Engine && !session.over() {
        return Err(format!(
            "{to_move} is played by the engine: the console plays a human's move (Engine move lets the engine play)"
        ));
    }
    session.play_text(mv)
}

/// The event stream: the whole state at each change (at most every 40 ms), and a comment every 15 s to find
/// closed connections.
fn events(hub: &Hub, request: HttpRequest) {
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                Connection: keep-alive\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    let mut sent = 0;
    loop {
        let mut s = hub.lock();
        let mut waited = Duration::ZERO;
        while s.version == sent && waited < Duration::from_secs(15) {
            if hub.quit.load(Ordering::SeqCst) {
                return;
            }
            s = hub.wait(s, Duration::from_millis(500));
            waited += Duration::from_millis(500);
        }
        if hub.quit.load(Ordering::SeqCst) {
            return;
        }
        let message = if s.version == sent {
            ": still here\n\n".to_string()
        } else {
            sent = s.version;
            format!("event: state\ndata: {}\n\n", s.state())
        };
        drop(s);
        if out
            .write_all(message.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            return;
        }
        thread::sleep(Duration::from_millis(40));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_and_origin_checks() {
        assert_eq!(refusal(80, Some("127.0.0.1:80"), None, true), None);
        assert_eq!(
            refusal(80, Some("localhost:80"), Some("http://localhost:80"), true),
            None
        );
        assert!(
            refusal(80, Some("evil.example:80"), None, false)
                .unwrap()
                .contains("Host 'evil.example:80'")
        );
        assert!(
            refusal(80, Some("127.0.0.1:80"), Some("http://evil.example"), true)
                .unwrap()
                .contains("Origin")
        );
        // A foreign origin may read (the browser keeps the answer from it), not change.
        assert_eq!(
            refusal(80, Some("127.0.0.1:80"), Some("http://evil.example"), false),
            None
        );
    }
}
