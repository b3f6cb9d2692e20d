//! `oust gui`: a board in the browser, served by the binary.
//!
//! The server owns the game ([`session::Session`], through the rules core) and drives a GTP engine as a
//! subprocess with the match referee's [`EngineProcess`](crate::matches::engine::EngineProcess) ([`worker`]). The
//! page (the files of `web/`, built into the binary) draws what the server sends and posts what the user does; it
//! never decides legality. Pushes (engine moves, analysis) reach it as server-sent events. This module is the top
//! layer of the library: nothing below it knows of it.

pub mod board;
mod date;
mod http;
pub mod session;
pub mod tree;
mod worker;

use std::collections::VecDeque;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use crate::gtp::levels::MAX_LEVEL;
use crate::review::Review;
use crate::rules::{Color, Move};

pub use session::{NewGame, Player, Session, Strength};

/// How `oust gui` starts.
#[derive(Clone, Debug)]
pub struct Options {
    /// The first game.
    pub game: NewGame,
    /// The engine's shell command.
    pub engine: String,
    /// The port; 0 picks a free one.
    pub port: u16,
}

/// Lines the GTP console keeps.
const CONSOLE_LINES: usize = 400;

/// What the engine worker is asked to do besides playing.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Request {
    /// A line typed into the console.
    Console(String),
    /// The engine's best move and its winning chance.
    Hint,
    /// Restart the engine.
    Restart,
}

/// The engine's side of the shared state.
#[derive(Debug, Default)]
pub(crate) struct EngineState {
    /// What the engine is doing, for the page (`thinking`, `analysing`, ...); empty when idle.
    pub busy: String,
    /// While the engine thinks about a move: the moves of the position it was asked about.
    pub thinking: Option<Vec<(Color, Move)>>,
    /// Why the engine is out of action (it died, hung or refused the game), with its last stderr lines.
    pub fault: Option<String>,
    /// The engine's name and version.
    pub name: String,
    /// The process id of the engine's shell (its process group), for tests that kill it.
    pub pid: u32,
    /// True when the engine knows `oust-analyze`.
    pub analyze: bool,
    /// True when the engine is oust, with its strength levels (`oust-set-param level`).
    pub levels: bool,
}

/// The visits at which live analysis stops by default: ten times level 10's search (100,000 playouts), some
/// seconds of oust's search on one core; its candidates and their rates hardly move after that. The page's setting
/// (`max_visits`, 0 for no cap) changes it.
pub(crate) const DEFAULT_ANALYSIS_VISITS: u64 = 1_000_000;

/// The analysis shown on the board.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// Live analysis is on.
    pub on: bool,
    /// Live analysis of a position stops once its candidates have this many visits in all; 0: never.
    pub max_visits: u64,
    /// Counts the times live analysis was turned on: each analyses afresh a position analysed to its end before.
    pub started: u64,
    /// The latest entries (JSON as the page draws them) and the number of moves of the position they are for.
    pub entries: Option<(usize, Value)>,
    /// Updates received since analysis started, for the speed figure.
    pub updates: u64,
    /// The last hint.
    pub hint: Option<Value>,
    /// A game review, under way or finished, with the line it is of: it is shown, and saved, only with that line.
    pub review: Option<Review>,
    /// A review has been asked for, with the playouts per position.
    pub review_request: Option<u64>,
}

/// Everything the server's threads share, behind one lock.
pub(crate) struct Shared {
    pub session: Session,
    /// Bumped at every change the page must see.
    pub version: u64,
    pub engine: EngineState,
    pub analysis: Analysis,
    pub requests: VecDeque<Request>,
    pub console: VecDeque<Value>,
    /// Numbers the console lines.
    pub console_count: u64,
    /// Engine-against-engine play is paused.
    pub paused: bool,
    /// One engine move may be played while paused.
    pub step: bool,
    /// Milliseconds between engine moves when both colours are the engine's.
    pub pace_ms: u64,
    /// The engine should not move now (the Stop button): until the next human action.
    pub stopped: bool,
    /// The games of a human against a level since the server started, in order: the level and whether the human
    /// won.
    pub level_results: Vec<(u8, bool)>,
}

impl Shared {
    /// The shared state of a server that starts with `session`.
    pub fn new(session: Session) -> Shared {
        Shared {
            session,
            version: 1,
            engine: EngineState::default(),
            analysis: Analysis {
                max_visits: DEFAULT_ANALYSIS_VISITS,
                ..Analysis::default()
            },
            requests: VecDeque::new(),
            console: VecDeque::new(),
            console_count: 0,
            paused: false,
            step: false,
            pace_ms: 500,
            stopped: false,
            level_results: Vec::new(),
        }
    }

    /// Marks a change for the page.
    pub fn changed(&mut self) {
        self.version += 1;
        if !self.session.level_counted
            && let Some(result) = self.session.level_result()
        {
            self.session.level_counted = true;
            self.level_results.push(result);
        }
    }

    /// What the page says after a game against a level: the result, the run of equal results at that level, and
    /// the level to try next after two wins in a row (one up) or two losses in a row (one down). Only while the
    /// board shows that game's end: not in a variation, nor once a record is loaded.
    fn level_report(&self) -> Value {
        let Some(&(level, won)) = self
            .level_results
            .last()
            .filter(|_| self.session.level_counted && self.session.level_result().is_some())
        else {
            return Value::Null;
        };
        let run = self
            .level_results
            .iter()
            .rev()
            .take_while(|&&r| r == (level, won))
            .count();
        let suggest = match (won, run >= 2) {
            (true, true) if level < MAX_LEVEL => Some(level + 1),
            (false, true) if level > 1 => Some(level - 1),
            _ => None,
        };
        let mut text = format!(
            "You {} against level {level}.",
            if won { "won" } else { "lost" }
        );
        if run >= 2 {
            text.push_str(&format!(
                " That is {run} {} in a row",
                if won { "wins" } else { "losses" }
            ));
            text.push_str(&match suggest {
                Some(next) => format!(": try level {next}?"),
                None if won => ": this is the strongest level.".to_string(),
                None => ": this is the weakest level.".to_string(),
            });
        }
        json!({"level": level, "won": won, "in_a_row": run, "suggest": suggest, "text": text})
    }

    /// True while the engine thinks about a move that is no longer wanted: the game ended (a resignation, say),
    /// became a record under review, or went to another position, or the side to move is no longer the engine's.
    /// Its search is then cancelled, and its answer dropped.
    pub fn engine_move_moot(&self) -> bool {
        let Some(moves) = &self.engine.thinking else {
            return false;
        };
        let session = &self.session;
        session.over()
            || session.review
            || session.player_to_move() != Player::Engine
            || session.game.records().len() != moves.len()
            || session
                .game
                .records()
                .iter()
                .zip(moves)
                .any(|(r, &(c, mv))| (r.color, r.mv) != (c, mv))
    }

    /// Forgets what was shown of the game before: the analysis, the hint and the review (with a review asked for).
    /// Every new game and every loaded record starts without them.
    pub fn clear_views(&mut self) {
        self.analysis.entries = None;
        self.analysis.hint = None;
        self.analysis.review = None;
        self.analysis.review_request = None;
    }

    /// Adds a console line: `dir` is `>` for a command, `=`/`?` for a response, `!` for the server's own notes.
    pub fn console(&mut self, dir: &str, text: &str) {
        if self.console.len() == CONSOLE_LINES {
            self.console.pop_front();
        }
        self.console_count += 1;
        self.console
            .push_back(json!({"n": self.console_count, "dir": dir, "text": text}));
    }

    /// The state the page draws.
    pub fn state(&self) -> Value {
        let mut v = self.session.state();
        v["version"] = json!(self.version);
        v["engine"] = json!({
            "busy": self.engine.busy,
            "fault": self.engine.fault,
            "name": self.engine.name,
            "pid": self.engine.pid,
            "analyze": self.engine.analyze,
            "levels": self.engine.levels,
        });
        v["paused"] = json!(self.paused);
        v["stopped"] = json!(self.stopped);
        v["pace_ms"] = json!(self.pace_ms);
        let moves = self.session.game.records().len();
        v["analysis"] = json!({
            "on": self.analysis.on,
            "max_visits": self.analysis.max_visits,
            "entries": self.analysis.entries.as_ref().filter(|(n, _)| *n == moves).map(|(_, e)| e),
            "updates": self.analysis.updates,
            "hint": self.analysis.hint,
            // A review is of one line: it shows while that line does.
            "review": self.analysis.review.as_ref()
                .filter(|r| r.line == self.session.line_moves())
                .map(Review::to_json),
        });
        v["level_result"] = self.level_report();
        v["console_last"] = json!(self.console_count);
        v["max_request_bytes"] = json!(http::MAX_BODY);
        v
    }
}

/// The lock and the condition that wakes the worker and the event streams.
pub(crate) struct Hub {
    pub shared: Mutex<Shared>,
    pub wake: Condvar,
    pub quit: AtomicBool,
    /// The Stop button: interrupts the wait for the engine's move.
    pub interrupt: AtomicBool,
    pub port: u16,
}

impl Hub {
    pub fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes everyone waiting for a change.
    pub fn notify(&self) {
        self.wake.notify_all();
    }

    /// Waits for a change (or `timeout`), returning the guard.
    pub fn wait<'a>(
        &self,
        guard: MutexGuard<'a, Shared>,
        timeout: Duration,
    ) -> MutexGuard<'a, Shared> {
        self.wake
            .wait_timeout(guard, timeout)
            .unwrap_or_else(PoisonError::into_inner)
            .0
    }
}

/// A running GUI server: its address, and its threads until it is dropped.
pub struct Gui {
    hub: Arc<Hub>,
    server: Arc<tiny_http::Server>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Gui {
    /// Starts the engine and the server on 127.0.0.1.
    ///
    /// # Errors
    /// A message for a port in use (naming it), or an engine that does not start or does not answer GTP (with its
    /// stderr).
    pub fn start(options: &Options) -> Result<Gui, String> {
        let session = Session::new(&options.game)?;
        let listener = TcpListener::bind(("127.0.0.1", options.port))
            .map_err(|e| format!("cannot listen on 127.0.0.1 port {}: {e}", options.port))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?
            .port();
        let hub = Arc::new(Hub {
            shared: Mutex::new(Shared::new(session)),
            wake: Condvar::new(),
            quit: AtomicBool::new(false),
            interrupt: AtomicBool::new(false),
            port,
        });
        let engine = worker::Worker::start(hub.clone(), &options.engine)?;
        let server = Arc::new(
            tiny_http::Server::from_listener(listener, None)
                .map_err(|e| format!("cannot serve on port {port}: {e}"))?,
        );
        let mut threads = vec![
            thread::Builder::new()
                .name("gui-engine".into())
                .spawn(move || engine.run())
                .map_err(|e| e.to_string())?,
        ];
        let (h, s) = (hub.clone(), server.clone());
        threads.push(
            thread::Builder::new()
                .name("gui-http".into())
                .spawn(move || http::serve(h, s))
                .map_err(|e| e.to_string())?,
        );
        Ok(Gui {
            hub,
            server,
            threads,
        })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.hub.port
    }

    /// The page's address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.hub.port)
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        self.hub.quit.store(true, Ordering::SeqCst);
        self.hub.notify();
        self.server.unblock();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Opens `url` in the user's browser: `$BROWSER`, else `xdg-open`. Returns false when neither could be started.
pub fn open_browser(url: &str) -> bool {
    let mut candidates: Vec<String> = Vec::new();
    if let Ok(b) = std::env::var("BROWSER") {
        candidates.extend(b.split(':').filter(|s| !s.is_empty()).map(String::from));
    }
    candidates.push("xdg-open".to_string());
    candidates.into_iter().any(|cmd| {
        std::process::Command::new(&cmd)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;

    fn shared(level: u8) -> Shared {
        let session = Session::new(&NewGame {
            strength: Strength::Level(level),
            ..NewGame::default()
        })
        .unwrap();
        Shared::new(session)
    }

    /// The page's report after `results` (the last one being the game on the board).
    fn report(level: u8, results: &[(u8, bool)]) -> Value {
        let mut s = shared(level);
        s.level_results = results.to_vec();
        s.session.level_counted = true;
        s.session.resigned = Some(Color::White);
        s.level_report()
    }

    #[test]
    fn two_wins_in_a_row_suggest_the_level_above_and_two_losses_the_level_below() {
        assert_eq!(report(3, &[(3, true)])["suggest"], Value::Null);
        assert_eq!(report(3, &[(2, true), (3, true)])["suggest"], Value::Null);
        assert_eq!(report(3, &[(3, false), (3, true)])["suggest"], Value::Null);
        let r = report(3, &[(3, true), (3, true)]);
        assert_eq!(
            (r["suggest"].as_u64(), r["text"].as_str()),
            (
                Some(4),
                Some("You won against level 3. That is 2 wins in a row: try level 4?")
            )
        );
        assert_eq!(report(3, &[(3, true), (3, true), (3, true)])["in_a_row"], 3);
        assert_eq!(report(5, &[(5, false), (5, false)])["suggest"], 4);
        let top = report(MAX_LEVEL, &[(MAX_LEVEL, true), (MAX_LEVEL, true)]);
        assert_eq!(top["suggest"], Value::Null);
        assert!(
            top["text"]
                .as_str()
                .unwrap()
                .ends_with("this is the strongest level.")
        );
        assert_eq!(report(1, &[(1, false), (1, false)])["suggest"], Value::Null);
        // A game not yet counted (still going, or a new one) reports nothing.
        let mut s = shared(3);
        s.level_results = vec![(3, true), (3, true)];
        assert_eq!(s.level_report(), Value::Null);
    }

    #[test]
    fn a_game_against_a_level_is_counted_once_when_it_ends() {
        let mut s = shared(4);
        s.changed();
        assert!(s.level_results.is_empty());
        // The human (Black) resigns.
        s.session.resigned = Some(Color::Black);
        s.changed();
        s.changed();
        assert_eq!(s.level_results, [(4, false)]);
        assert_eq!(s.level_report()["text"], "You lost against level 4.");
        // A new player's find: the report stayed in a variation and after loading a record.
        s.session.resigned = None;
        assert_eq!(
            s.level_report(),
            Value::Null,
            "a position where the game goes on"
        );
        s.session.resigned = Some(Color::Black);
        s.session.review = true;
        assert_eq!(s.level_report(), Value::Null, "a record under review");
        // Between two humans nobody played the level.
        let mut s = shared(4);
        s.session.players = [Player::Human, Player::Human];
        s.session.resigned = Some(Color::White);
        s.changed();
        assert!(s.level_results.is_empty());
    }
}
