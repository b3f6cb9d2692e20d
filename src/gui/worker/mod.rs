//! The engine worker: one thread that owns the engine process and talks GTP to it, through the match referee's
//! [`EngineProcess`]. It keeps the engine's game in step with the server's (undo and play, or the board set up
//! again as the referee sets it up), asks for the engine's moves, streams `oust-analyze`, runs the console's
//! commands and game reviews, and turns any failure of the engine into a fault the page shows, with the engine's
//! last stderr lines. No lock is held while the engine is waited for. Here: the process, the jobs' queue and the
//! requests; game.rs keeps the engine's game in step, jobs.rs does the jobs, answers.rs reads `oust-analyze`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::matches::{EngineProcess, Failure, Reply, describe_status, read_response, shorten};
use crate::notation;
use crate::rules::{Color, Geometry, Move, Shape, Status};

use super::session::{Player, Strength};
use super::{Hub, Request, Shared};
use crate::review::{self, Review};

mod answers;
mod game;
mod jobs;

use answers::{Analyzed, Candidate};

/// Wait for an ordinary command.
const COMMAND_LIMIT: Duration = Duration::from_secs(20);
/// Analysis lines come every this many centiseconds.
const ANALYSIS_INTERVAL_CS: u32 = 20;
/// Playouts of the quick search that answers the Stop button, for an engine without `oust-genmove_cancellable`
/// that has oust's parameters.
const STOP_PLAYOUTS: u64 = 50;
/// The genmove that an input line cuts short: Stop sends an empty line.
const CANCELLABLE_GENMOVE: &str = "oust-genmove_cancellable";
/// How often a cancellable genmove's wait looks at the Stop button.
const STOP_POLL: Duration = Duration::from_millis(50);
/// The id of the command that ends an analysis stream.
const STREAM_END_ID: u32 = 900_001;

/// What the engine has been told: the board, the start, the moves and the strength.
#[derive(Clone, Debug, Default, PartialEq)]
struct Known {
    board: Option<Shape>,
    pie: bool,
    /// The set-up start (`oust-setup` arguments), or empty for the empty board.
    setup: String,
    moves: Vec<(Color, Move)>,
    strength: Option<Strength>,
}

/// The position the engine should have.
#[derive(Clone, Debug)]
struct Target {
    geo: Arc<Geometry>,
    pie: bool,
    setup: String,
    moves: Vec<(Color, Move)>,
    strength: Strength,
}

fn target_of(shared: &Shared) -> Target {
    let game = &shared.session.game;
    let start = game.start();
    let empty = start.stone_count(Color::Black) + start.stone_count(Color::White) == 0
        && start.to_move() == Color::Black
        && !start.extra_turn();
    let setup = if empty {
        String::new()
    } else {
        format!(
            "{} {}{}",
            start.to_move().letter(),
            notation::rows_text(start),
            if start.extra_turn() {
                " extra-turn"
            } else {
                ""
            }
        )
    };
    Target {
        geo: shared.session.geometry().clone(),
        pie: game.pie(),
        setup,
        moves: game.line(),
        strength: shared.session.strength,
    }
}

/// The line shown: the moves up to the position shown, and on as far as its line goes.
fn full_line(shared: &Shared) -> Vec<(Color, Move)> {
    shared.session.line_moves()
}

/// A position analysed to its end (its moves), with the analysis settings then ([`analysis_key`]).
type Analysed = (Vec<(Color, Move)>, (u64, u64));

/// What the worker does next.
enum Job {
    /// The engine is out of action, for this reason.
    Fault(String),
    Request(Request),
    Move(Target),
    Review(u64),
    Analyse(Target),
    /// The engine's game is no longer the page's (a resignation, a new game, a loaded record): it gets the game as
    /// it is, so that it stops pondering on one nobody plays.
    Sync(Target),
}

/// The worker: the engine and what it knows.
pub(crate) struct Worker {
    hub: Arc<Hub>,
    command: String,
    process: Option<EngineProcess>,
    known: Known,
    /// The engine knows `oust-set-param` (oust's parameters), `oust-analyze` and `oust-genmove_cancellable`.
    oust_params: bool,
    analyze: bool,
    /// The engine judges a placement within one search (`oust-judge`), for the review.
    judge: bool,
    /// The engine's seed at its start (`oust-get-param seed`): each position of a review is judged at a seed made
    /// from it ([`review::position_seed`]), as `oust review --seed` judges it.
    seed: Option<u64>,
    /// The engine's threads at its start (`oust-get-param threads`, as its command line set them), put back after
    /// `level max`, which would set them to every core.
    threads: Option<String>,
    cancellable: bool,
    /// The last engine move, for the pace of engine-against-engine play.
    last_move: Instant,
    /// The position whose analysis stream ended by itself (nothing to analyse) or at the cap, not to be started
    /// again while the analysis settings ([`analysis_key`]) stay the same.
    analysed_out: Option<Analysed>,
}

/// The text of a failure, with the engine's last stderr lines when there are any.
fn describe(process: &EngineProcess, line: &str, f: &Failure) -> String {
    let tail = process.stderr_tail();
    let what = match f {
        Failure::Timeout(d) => format!(
            "the engine gave no response to '{line}' within {} s (it hangs)",
            d.as_secs()
        ),
        Failure::Closed(how) => format!("the engine, asked '{line}', {how}"),
        Failure::Malformed(m) => format!("the engine answered '{line}' with {m}"),
        Failure::Interrupted => format!("'{line}' was interrupted"),
    };
    if tail.is_empty() || what.contains(&tail) {
        what
    } else {
        format!("{what}; its stderr ended with: {tail}")
    }
}

impl Worker {
    /// Starts the engine and checks that it answers GTP.
    ///
    /// # Errors
    /// Why the engine could not be started or did not answer, with its stderr.
    pub fn start(hub: Arc<Hub>, command: &str) -> Result<Worker, String> {
        let mut w = Worker {
            hub,
            command: command.to_string(),
            process: None,
            known: Known::default(),
            oust_params: false,
            analyze: false,
            judge: false,
            seed: None,
            threads: None,
            cancellable: false,
            last_move: Instant::now(),
            analysed_out: None,
        };
        w.launch()
            .map_err(|e| format!("the engine '{command}' did not start: {e}"))?;
        let target = target_of(&w.hub.lock());
        w.sync(&target)
            .map_err(|e| format!("the engine '{command}' refused the game: {e}"))?;
        Ok(w)
    }

    /// Starts (or starts again) the engine and asks its name and what it knows.
    fn launch(&mut self) -> Result<(), String> {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        let mut p = EngineProcess::spawn(&self.command).map_err(|e| e.to_string())?;
        p.set_label("gui engine".to_string());
        let pid = p.id();
        self.process = Some(p);
        self.known = Known::default();
        let name = self.ask("name")?;
        let version = self.ask("version").unwrap_or_default();
        self.analyze = self.ask("known_command oust-analyze").as_deref() == Ok("true");
        self.judge = self.ask("known_command oust-judge").as_deref() == Ok("true");
        self.oust_params = self.ask("known_command oust-set-param").as_deref() == Ok("true");
        self.seed = if self.oust_params {
            self.ask("oust-get-param seed")
                .ok()
                .and_then(|s| s.trim().parse().ok())
        } else {
            None
        };
        self.threads = if self.oust_params {
            self.ask("oust-get-param threads").ok()
        } else {
            None
        };
        self.cancellable = self
            .ask(&format!("known_command {CANCELLABLE_GENMOVE}"))
            .as_deref()
            == Ok("true");
        let mut s = self.hub.lock();
        s.engine.name = format!("{name} {version}").trim().to_string();
        s.engine.pid = pid;
        s.engine.analyze = self.analyze;
        s.engine.levels = self.oust_params;
        s.engine.fault = None;
        s.changed();
        drop(s);
        self.hub.notify();
        Ok(())
    }

    /// Sends `line`, logs both ways in the console, and gives the reply; a failure of the engine is an error
    /// (the engine is then out of action until a restart).
    fn send(&mut self, line: &str, limit: Duration) -> Result<Reply, String> {
        let Some(p) = self.process.as_mut() else {
            return Err("the engine is not running".to_string());
        };
        self.hub.lock().console(">", line);
        let result = p.command(line, limit, &self.hub.interrupt);
        logged(&self.hub, p, line, result)
    }

    /// Sends `line`, an `oust-genmove_cancellable`, and waits at most `limit` for its response, as
    /// [`Worker::send`] does; the Stop button meanwhile sends an empty line, which makes the engine answer at once
    /// with its best move so far. An empty line has no response of its own, so the response read is the move's
    /// whether the line came before or after the engine answered; nothing is left to read.
    fn send_cancellable(&mut self, line: &str, limit: Duration) -> Result<Reply, String> {
        let Some(p) = self.process.as_mut() else {
            return Err("the engine is not running".to_string());
        };
        self.hub.lock().console(">", line);
        let start = Instant::now();
        let deadline = start + limit;
        let hub = &self.hub;
        let mut stopped = false;
        let result = p.send_line(line).and_then(|()| {
            read_response(&mut || {
                loop {
                    if !stopped && hub.interrupt.swap(false, Ordering::SeqCst) {
                        stopped = true;
                        let mut s = hub.lock();
                        let note = if s.engine_move_moot() {
                            "cancelled: the game changed while the engine thought; its answer is dropped"
                        } else {
                            "stopped: the engine answers with its best move so far"
                        };
                        s.console("!", note);
                        drop(s);
                        p.send_line("")?;
                    }
                    if Instant::now() >= deadline {
                        return Err(Failure::Timeout(limit));
                    }
                    if let Some(l) = p.stream_line(STOP_POLL)? {
                        return Ok(l);
                    }
                }
            })
        });
        let result = result.map(|(ok, text)| Reply {
            ok,
            text,
            elapsed: start.elapsed(),
        });
        logged(&self.hub, p, line, result)
    }

    /// Sends a command that must succeed and returns its text.
    fn ask(&mut self, line: &str) -> Result<String, String> {
        let reply = self.send(line, COMMAND_LIMIT)?;
        if reply.ok {
            Ok(reply.text)
        } else {
            Err(format!(
                "the engine refused '{line}': {}",
                shorten(&reply.text)
            ))
        }
    }

    /// Takes the engine out of action with `why`.
    fn fault(&mut self, why: String) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.known = Known::default();
        let mut s = self.hub.lock();
        s.engine.fault = Some(why);
        s.engine.busy.clear();
        s.engine.thinking = None;
        s.changed();
        drop(s);
        self.hub.notify();
    }

    fn set_busy(&self, what: &str) {
        let mut s = self.hub.lock();
        if what != "thinking" {
            s.engine.thinking = None;
        }
        if s.engine.busy != what {
            s.engine.busy = what.to_string();
            s.changed();
            drop(s);
            self.hub.notify();
        }
    }

    /// The next job, or waits for one.
    fn next_job(&mut self) -> Option<Job> {
        let mut s = self.hub.lock();
        loop {
            if self.hub.quit.load(Ordering::SeqCst) {
                return None;
            }
            // A wrapper (the shell of `sh -c`, say) that died takes its process group with it, and the page says so.
            if s.engine.fault.is_none()
                && let Some(p) = self.process.as_mut()
                && let Some(status) = p.leader_ended()
            {
                let tail = p.stderr_tail();
                let mut why = format!(
                    "the engine's process (pid {}) ended ({}); its process group was killed with it",
                    p.id(),
                    describe_status(status)
                );
                if !tail.is_empty() {
                    why.push_str(&format!("; its stderr ended with: {tail}"));
                }
                return Some(Job::Fault(why));
            }
            if let Some(r) = s.requests.pop_front() {
                return Some(Job::Request(r));
            }
            if s.engine.fault.is_none() {
                let session = &s.session;
                let both = session.players == [Player::Engine, Player::Engine];
                let pace = Duration::from_millis(if both { s.pace_ms } else { 0 });
                let may_move = !s.paused || s.step;
                let engine_to_move = session.player_to_move() == Player::Engine
                    && !session.over()
                    && !session.review
                    && session.engine_may_move()
                    && session.game.position().status() == Status::Ongoing
                    && !s.stopped
                    && s.analysis.review.as_ref().is_none_or(Review::is_finished);
                if let Some(playouts) = s.analysis.review_request.take() {
                    return Some(Job::Review(playouts));
                }
                if engine_to_move && may_move {
                    let wait = pace.saturating_sub(self.last_move.elapsed());
                    if wait.is_zero() {
                        s.step = false;
                        return Some(Job::Move(target_of(&s)));
                    }
                    s = self.hub.wait(s, wait);
                    continue;
                }
                let target = target_of(&s);
                if s.analysis.on
                    && self.analyze
                    && !s.session.over()
                    && !self.analysed(&target.moves, analysis_key(&s))
                {
                    return Some(Job::Analyse(target));
                }
                if self.stale(&target) {
                    return Some(Job::Sync(target));
                }
            }
            if !s.engine.busy.is_empty() {
                s.engine.busy.clear();
                s.engine.thinking = None;
                s.changed();
                self.hub.notify();
            }
            s = self.hub.wait(s, Duration::from_millis(500));
        }
    }

    /// Runs until the server quits.
    pub fn run(mut self) {
        while let Some(job) = self.next_job() {
            let result = match job {
                Job::Fault(why) => Err(why),
                Job::Request(r) => self.request(r),
                Job::Move(target) => self.engine_move(&target),
                Job::Review(playouts) => self.review(playouts),
                Job::Analyse(target) => self.analyse(&target),
                Job::Sync(target) => self.sync(&Target {
                    strength: self.known.strength.unwrap_or(target.strength),
                    ..target
                }),
            };
            if let Err(e) = result {
                self.fault(e);
            }
        }
        if let Some(p) = self.process.take() {
            p.quit(Duration::from_millis(500));
        }
    }

    fn request(&mut self, r: Request) -> Result<(), String> {
        match r {
            Request::Restart => {
                self.hub.interrupt.store(false, Ordering::SeqCst);
                self.set_busy("restarting");
                self.launch()?;
                let target = target_of(&self.hub.lock());
                self.sync(&target)?;
                let mut s = self.hub.lock();
                s.console("!", "engine restarted; the game was sent again");
                s.changed();
                Ok(())
            }
            Request::Console(line) => {
                // The engine's game is brought to the position the page shows first: `showboard` shows the page's
                // board, not where the engine was last used (before an undo, say).
                let target = target_of(&self.hub.lock());
                self.sync(&target)?;
                let reply = self.send(&line, COMMAND_LIMIT)?;
                let _ = reply;
                // Anything typed may have changed the engine's game: set it up again before the next use.
                let name = line.split_whitespace().next().unwrap_or("");
                let harmless = [
                    "name",
                    "version",
                    "protocol_version",
                    "list_commands",
                    "known_command",
                    "showboard",
                    "oust-status",
                    "oust-get-param",
                    "oust-list-params",
                    "list_legal",
                    "final_score",
                    "gogui-rules_board",
                    "gogui-rules_legal_moves",
                    "gogui-rules_side_to_move",
                    "printsgf",
                ];
                if !harmless.contains(&name) {
                    let strength = None;
                    self.known = Known {
                        strength,
                        ..Known::default()
                    };
                    self.analysed_out = None;
                }
                Ok(())
            }
            Request::Hint => self.hint(),
        }
    }
}

/// What starts an analysis afresh when it changes: the cap, and the analysis turned on again.
fn analysis_key(s: &Shared) -> (u64, u64) {
    (s.analysis.max_visits, s.analysis.started)
}

/// Logs the engine's answer to `line` in the console (its response, or why it failed: the engine is then out of
/// action until a restart), tells the page, and gives the reply or the failure's words.
fn logged(
    hub: &Hub,
    p: &EngineProcess,
    line: &str,
    result: Result<Reply, Failure>,
) -> Result<Reply, String> {
    let mut s = hub.lock();
    let out = match result {
        Ok(reply) => {
            s.console(if reply.ok { "=" } else { "?" }, &reply.text);
            Ok(reply)
        }
        Err(f) => {
            let text = describe(p, line, &f);
            s.console("!", &text);
            Err(text)
        }
    };
    s.changed();
    drop(s);
    hub.notify();
    out
}
