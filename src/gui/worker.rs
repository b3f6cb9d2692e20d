//! The engine worker: one thread that owns the engine process and talks GTP to it, through the match referee's
//! [`EngineProcess`]. It keeps the engine's game in step with the server's (undo and play, or the board set up
//! again as the referee sets it up), asks for the engine's moves, streams `oust-analyze`, runs the console's
//! commands and game reviews, and turns any failure of the engine into a fault the page shows, with the engine's
//! last stderr lines. No lock is held while the engine is waited for.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::matches::{EngineProcess, Failure, Reply, describe_status, read_response, shorten};
use crate::notation;
use crate::rules::{Color, Geometry, Move, Shape, Status};

use super::session::{Player, Strength};
use super::{Hub, Request, Shared};
use crate::review;

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

    /// Sets up the board as the referee does: `boardsize`, `rectangular_boardsize`, or `oust-board hexS` with
    /// GoGui's `boardsize 2S-1` for an engine that refuses it.
    fn board(&mut self, shape: Shape) -> Result<(), String> {
        match shape {
            Shape::Rect { width, height } if width == height => {
                self.ask(&format!("boardsize {width}"))?;
            }
            Shape::Rect { width, height } => {
                self.ask(&format!("rectangular_boardsize {width} {height}"))?;
            }
            Shape::Hex { .. } => {
                let line = format!("oust-board {shape}");
                if !self.send(&line, COMMAND_LIMIT)?.ok {
                    self.ask(&format!("boardsize {}", shape.extent().0))?;
                }
            }
        }
        Ok(())
    }

    /// True when the engine holds another game than `target`'s (another start, or a move the page's game does not
    /// have): it may be pondering on a game nobody plays. A game the page has played on from the engine's is not
    /// stale: the engine's next use sends the moves.
    fn stale(&self, target: &Target) -> bool {
        self.process.is_some()
            && self.known.board.is_some()
            && (self.known.board != Some(target.geo.shape())
                || self.known.pie != target.pie
                || self.known.setup != target.setup
                || !target.moves.starts_with(&self.known.moves))
    }

    /// Brings the engine to `target`: the moves it has beyond the common start are taken back with `undo`, and
    /// the rest played; a new board, start or pie rule sets everything up again.
    fn sync(&mut self, target: &Target) -> Result<(), String> {
        let shape = target.geo.shape();
        if self.known.strength != Some(target.strength) {
            self.strength(target.strength)?;
            self.known.strength = Some(target.strength);
        }
        let same_start = self.known.board == Some(shape)
            && self.known.pie == target.pie
            && self.known.setup == target.setup;
        let common = if same_start {
            self.known
                .moves
                .iter()
                .zip(&target.moves)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        let mut fresh = !same_start;
        if same_start {
            while self.known.moves.len() > common {
                if self.send("undo", COMMAND_LIMIT)?.ok {
                    self.known.moves.pop();
                } else {
                    fresh = true;
                    break;
                }
            }
        }
        if fresh {
            let strength = self.known.strength;
            self.known = Known {
                strength,
                ..Known::default()
            };
            self.board(shape)?;
            if self.oust_params {
                self.ask(&format!(
                    "oust-set-param pie {}",
                    if target.pie { "on" } else { "off" }
                ))?;
            }
            self.ask("clear_board")?;
            if !target.setup.is_empty() {
                self.ask(&format!("oust-setup {}", target.setup))?;
            }
            self.known.board = Some(shape);
            self.known.pie = target.pie;
            self.known.setup = target.setup.clone();
        }
        for &(c, mv) in &target.moves[self.known.moves.len()..] {
            self.ask(&format!(
                "play {} {}",
                c.letter(),
                notation::move_name(&target.geo, mv)
            ))?;
            self.known.moves.push((c, mv));
        }
        Ok(())
    }

    /// Sends the strength: oust's `level`, or its `playouts` and `time_per_move` after `level max` has put back
    /// what a level fixes; `time_settings` for another engine, which has no levels (the page offers them only to
    /// an engine that knows `oust-set-param`).
    fn strength(&mut self, strength: Strength) -> Result<(), String> {
        let (playouts, seconds) = match strength {
            Strength::Default | Strength::Level(_) => (0, 0.0),
            Strength::Playouts(n) => (n, 0.0),
            Strength::Seconds(s) => (0, s),
        };
        if self.oust_params {
            if let Strength::Level(n) = strength {
                self.ask(&format!("oust-set-param level {n}"))?;
                return Ok(());
            }
            self.ask("oust-set-param level max")?;
            if let Some(threads) = self.threads.clone() {
                self.ask(&format!("oust-set-param threads {threads}"))?;
            }
            self.ask(&format!("oust-set-param playouts {playouts}"))?;
            self.ask(&format!("oust-set-param time_per_move {seconds}"))?;
            // Think on the person's time too (ignored under a playout limit; an oust before `ponder` refuses it,
            // and plays as it always did).
            let _ = self.ask("oust-set-param ponder on");
        } else if seconds > 0.0 {
            // Byo-yomi of one move per period: the per-move time of standard GTP.
            let _ = self.send(
                &format!("time_settings 0 {} 1", seconds.ceil()),
                COMMAND_LIMIT,
            )?;
        }
        Ok(())
    }

    /// How long a `genmove` may take before the engine counts as hung.
    fn move_limit(strength: Strength) -> Duration {
        match strength {
            Strength::Seconds(s) => Duration::from_secs_f64(s * 3.0 + 15.0),
            Strength::Playouts(n) => Duration::from_secs(30 + n / 1000),
            Strength::Default => Duration::from_secs(30),
            // Every level answers in about a second or less on one core (level 10: 100,000 playouts).
            Strength::Level(_) => Duration::from_secs(60),
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
                    && s.analysis
                        .review
                        .as_ref()
                        .is_none_or(|r| r["done"] == r["total"]);
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

    /// Asks the engine for its move and plays it, unless the game changed meanwhile.
    fn engine_move(&mut self, target: &Target) -> Result<(), String> {
        self.sync(target)?;
        let to_move = {
            let s = self.hub.lock();
            s.session.game.position().to_move()
        };
        let asked = Instant::now();
        {
            // From here a change of the game cancels the search (`Shared::engine_move_moot`); one made since the
            // move was asked for means it is not wanted at all.
            let mut s = self.hub.lock();
            s.engine.thinking = Some(target.moves.clone());
            if s.engine_move_moot() {
                s.engine.thinking = None;
                return Ok(());
            }
        }
        self.set_busy("thinking");
        if self.cancellable {
            // Stop makes it answer at once with its best move so far, which is played as any other.
            let line = format!("{CANCELLABLE_GENMOVE} {}", to_move.letter());
            let reply = self.send_cancellable(&line, Self::move_limit(target.strength))?;
            return self.engine_answer(target, to_move, &line, &reply, asked);
        }
        let line = format!("genmove {}", to_move.letter());
        let reply = match self.send(&line, Self::move_limit(target.strength)) {
            Err(_) if self.hub.interrupt.load(Ordering::SeqCst) => {
                // Stop, for an engine without `oust-genmove_cancellable`: GTP has no way to make `genmove`
                // answer at once, so the engine is started again (the game is sent again). An engine with oust's
                // parameters then answers at once with a move of a tiny search; another engine is left waiting
                // until the user asks it for a move.
                let moot = self.hub.lock().engine_move_moot();
                self.hub.interrupt.store(false, Ordering::SeqCst);
                self.launch()?;
                if moot {
                    // The game changed: no move is wanted, and the engine gets the game as it is now.
                    let now = target_of(&self.hub.lock());
                    self.sync(&now)?;
                    self.hub.lock().console(
                        "!",
                        "the game changed while the engine thought: it was restarted, and no move is asked",
                    );
                    self.set_busy("");
                    return Ok(());
                }
                if !self.oust_params {
                    self.sync(target)?;
                    self.set_busy("");
                    return Ok(());
                }
                let quick = Target {
                    strength: Strength::Playouts(STOP_PLAYOUTS),
                    ..target.clone()
                };
                self.sync(&quick)?;
                {
                    let mut s = self.hub.lock();
                    s.stopped = false;
                    s.console(
                        "!",
                        "stopped: the engine was restarted and answers from a quick search",
                    );
                }
                self.send(&line, Self::move_limit(quick.strength))?
            }
            other => other?,
        };
        self.engine_answer(target, to_move, &line, &reply, asked)
    }

    /// Plays the engine's answer `reply` to `line`, its move for `to_move` in `target` asked for at `asked`, unless
    /// the game changed meanwhile.
    fn engine_answer(
        &mut self,
        target: &Target,
        to_move: Color,
        line: &str,
        reply: &Reply,
        asked: Instant,
    ) -> Result<(), String> {
        self.last_move = Instant::now();
        let thought = asked.elapsed().as_secs_f64();
        // A move no longer wanted (the game changed, or the seat is no longer the engine's) is not played.
        let wanted = !self.hub.lock().engine_move_moot();
        self.set_busy("");
        // A Stop clicked after the answer came, before the engine was no longer shown as thinking, is forgotten:
        // none can come now, and a stale one would interrupt the next command.
        self.hub.interrupt.store(false, Ordering::SeqCst);
        let geo = target.geo.clone();
        if !reply.ok {
            let mut s = self.hub.lock();
            s.session.refusal = Some(format!("the engine refused '{line}': {}", reply.text));
            s.stopped = true;
            s.changed();
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        let token = reply
            .text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        let mut s = self.hub.lock();
        if s.session.over() || s.session.review {
            // The game ended (a resignation, say) or became a record under review while the engine thought:
            // nothing is added to it.
            let why = if s.session.over() {
                "the game ended"
            } else {
                "the game became a record under review"
            };
            log::warn!("the engine's answer '{token}' to '{line}' came after {why}: dropped");
            s.console(
                "!",
                &format!("the engine's answer '{token}' came after {why}: dropped"),
            );
            // The engine played it, if it is a move: the next use of the engine takes it back.
            if let Ok(mv) = notation::parse_move(&geo, &token) {
                self.known.moves.push((to_move, mv));
            }
            s.changed();
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        if token.eq_ignore_ascii_case("resign") {
            if wanted && target_of(&s).moves == target.moves {
                s.session.resigned = Some(to_move);
                s.changed();
            }
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        let mv = match notation::parse_move(&geo, &token) {
            Ok(mv) => mv,
            Err(e) => {
                drop(s);
                return Err(format!(
                    "the engine answered '{line}' with '{token}', which is not a move: {e}"
                ));
            }
        };
        // The engine has played it, whatever happens to it here.
        self.known.moves.push((to_move, mv));
        if wanted && target_of(&s).moves == target.moves {
            match s.session.play(mv) {
                Ok(()) => s.session.record_thinking(target.moves.len(), thought),
                Err(e) => {
                    s.session.refusal = Some(format!("the engine played {token}: {e}"));
                    s.stopped = true;
                }
            }
            s.changed();
        } else {
            s.console(
                "!",
                &format!("the engine's answer '{token}' came after the game changed: dropped"),
            );
            s.changed();
        }
        drop(s);
        self.hub.notify();
        Ok(())
    }

    /// Ends a running analysis stream: any command ends it; this one has an id to find its response by.
    fn end_stream(&mut self) -> Result<(), String> {
        let Some(p) = self.process.as_mut() else {
            return Ok(());
        };
        let line = format!("{STREAM_END_ID} name");
        p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
        let until = Instant::now() + COMMAND_LIMIT;
        let mut seen = false;
        while Instant::now() < until {
            match p.stream_line(Duration::from_millis(200)) {
                Ok(Some(l)) if l.starts_with(&format!("={STREAM_END_ID}")) => seen = true,
                Ok(Some(l)) if seen && l.trim().is_empty() => return Ok(()),
                Ok(_) => {}
                Err(f) => return Err(describe(p, &line, &f)),
            }
        }
        Err(format!(
            "the engine did not end its analysis stream within {} s (it hangs)",
            COMMAND_LIMIT.as_secs()
        ))
    }

    /// Streams `oust-analyze` on `target` until something else needs the engine.
    fn analyse(&mut self, target: &Target) -> Result<(), String> {
        // oust's `oust-analyze` stops streaming once a `playouts` limit is reached: analyse without one.
        self.sync(&Target {
            strength: Strength::Default,
            ..target.clone()
        })?;
        let color = {
            let s = self.hub.lock();
            s.session.game.position().to_move()
        };
        let key = analysis_key(&self.hub.lock());
        let cap = key.0;
        self.set_busy("analysing");
        let line = format!("oust-analyze {} {ANALYSIS_INTERVAL_CS}", color.letter());
        self.hub.lock().console(">", &line);
        let Some(p) = self.process.as_mut() else {
            return Err("the engine is not running".to_string());
        };
        p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
        let mut started = false;
        let mut got_info = false;
        let mut last_line = Instant::now();
        loop {
            let Some(p) = self.process.as_mut() else {
                return Ok(());
            };
            let got = p
                .stream_line(Duration::from_millis(50))
                .map_err(|f| describe(p, &line, &f))?;
            if let Some(l) = got {
                last_line = Instant::now();
                if !started {
                    if l.trim().is_empty() {
                        continue;
                    }
                    started = true;
                    if l.starts_with('?') {
                        // Refused (the engine thinks another colour is to move, say): try again after a new sync.
                        let _ = p.stream_line(Duration::from_millis(500));
                        let mut s = self.hub.lock();
                        s.console("?", l.trim_start_matches('?').trim());
                        drop(s);
                        self.analysed_out = Some((target.moves.clone(), key));
                        return Ok(());
                    }
                    continue;
                }
                if l.trim().is_empty() {
                    // The stream ended by itself: nothing to analyse here, or oust's search proved the position
                    // at once (it streams nothing then): ask its solver for the proven result and its distance.
                    self.analysed_out = Some((target.moves.clone(), key));
                    if !got_info && self.oust_params {
                        self.proven(target, color)?;
                    }
                    return Ok(());
                }
                got_info = true;
                let mut entries = parse_info(&l, color);
                if cap > 0 && entries["visits"].as_u64().is_some_and(|v| v >= cap) {
                    // The cap: the analysis of this position stops here, until the position or the cap changes.
                    entries["capped"] = json!(cap);
                    self.publish_analysis(target, entries);
                    self.analysed_out = Some((target.moves.clone(), key));
                    return self.end_stream();
                }
                self.publish_analysis(target, entries);
            } else if last_line.elapsed() > COMMAND_LIMIT {
                return Err(format!(
                    "the engine sent no analysis for {} s (it hangs)",
                    COMMAND_LIMIT.as_secs()
                ));
            }
            let s = self.hub.lock();
            let stop = self.hub.quit.load(Ordering::SeqCst)
                || !s.analysis.on
                || analysis_key(&s) != key
                || !s.requests.is_empty()
                || s.analysis.review_request.is_some()
                || target_of(&s).moves != target.moves
                || (s.session.player_to_move() == Player::Engine
                    && !s.session.review
                    && !s.session.over()
                    && s.session.engine_may_move()
                    && !s.paused
                    && !s.stopped);
            drop(s);
            if stop {
                return self.end_stream();
            }
        }
    }

    /// True when the analysis of the position after `moves` ended (at the cap, or by itself) with the settings
    /// `key` in force now.
    fn analysed(&self, moves: &[(Color, Move)], key: (u64, u64)) -> bool {
        matches!(&self.analysed_out, Some((m, k)) if m == moves && *k == key)
    }

    /// The solver's result for a position the search proved at once: `oust-solve 2` answers `win MOVE N`,
    /// `loss MOVE N`, `draw MOVE N` or `unknown`; shown as the analysis of that position.
    fn proven(&mut self, target: &Target, color: Color) -> Result<(), String> {
        let reply = self.send("oust-solve 2", COMMAND_LIMIT)?;
        let words: Vec<&str> = reply.text.split_whitespace().collect();
        let (proof, mv, distance) = match words[..] {
            [proof @ ("win" | "loss" | "draw"), mv, n] if reply.ok => (proof, mv, n),
            _ => return Ok(()),
        };
        let rate = match proof {
            "win" => 1.0,
            "loss" => 0.0,
            _ => 0.5,
        };
        let black = if color == Color::Black {
            rate
        } else {
            1.0 - rate
        };
        let entries = json!({
            "to_move": color.name(),
            "moves": [{"move": mv, "visits": 0, "winrate": rate, "order": 0, "proof": proof}],
            "black": black,
            "max_visits": 1,
            "proof": proof,
            "distance": distance.parse::<u64>().ok(),
        });
        self.publish_analysis(target, entries);
        Ok(())
    }

    /// Shows `entries` as the analysis of `target`'s position, and tells the pages.
    fn publish_analysis(&self, target: &Target, entries: Value) {
        let mut s = self.hub.lock();
        s.analysis.entries = Some((target.moves.len(), entries));
        s.analysis.updates += 1;
        s.changed();
        drop(s);
        self.hub.notify();
    }

    /// The engine's best move with its winning chance: from the live analysis, from one second of
    /// `oust-analyze`, or from `reg_genmove` for an engine without it.
    fn hint(&mut self) -> Result<(), String> {
        let target = target_of(&self.hub.lock());
        self.sync(&Target {
            strength: Strength::Default,
            ..target.clone()
        })?;
        self.set_busy("hint");
        let color = self.hub.lock().session.game.position().to_move();
        let hint = if self.analyze {
            let line = format!("oust-analyze {} 100", color.letter());
            self.hub.lock().console(">", &line);
            let Some(p) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
            let until = Instant::now() + Duration::from_millis(1500);
            let mut best = Value::Null;
            while Instant::now() < until {
                match p.stream_line(Duration::from_millis(100)) {
                    Ok(Some(l)) if l.starts_with("info") => {
                        best = parse_info(&l, color)["moves"][0].clone();
                    }
                    Ok(Some(l)) if l.starts_with('?') => break,
                    Ok(_) => {}
                    Err(f) => return Err(describe(p, &line, &f)),
                }
            }
            self.end_stream()?;
            best
        } else {
            let reply = self.ask(&format!("reg_genmove {}", color.letter()))?;
            json!({"move": reply.split_whitespace().next().unwrap_or("")})
        };
        let mut s = self.hub.lock();
        s.analysis.hint = Some(json!({"moves": target.moves.len(), "best": hint}));
        s.changed();
        drop(s);
        self.set_busy("");
        Ok(())
    }

    /// Judges every placement of the record within one search of the position before it (`oust-judge`, at
    /// `playouts` playouts, the played placement kept at a share of the visits): that search gives the position's
    /// winning chance, the engine's line and what the played placement lost. The last position, which has no
    /// placement to judge, gets a rate from `oust-heatmap`. Progress is shown; any change of the game cancels it.
    fn review(&mut self, playouts: u64) -> Result<(), String> {
        let target = {
            let s = self.hub.lock();
            Target {
                moves: full_line(&s),
                ..target_of(&s)
            }
        };
        let total = target.moves.len() + 1;
        let started = Instant::now();
        let mut steps: Vec<review::Step> = vec![review::Step::default(); total];
        let fixed = Target {
            strength: Strength::Playouts(playouts),
            ..target.clone()
        };
        self.set_busy("reviewing");
        for k in 0..total {
            let step = Target {
                moves: target.moves[..k].to_vec(),
                ..fixed.clone()
            };
            {
                let mut s = self.hub.lock();
                if full_line(&s) != target.moves || self.hub.quit.load(Ordering::SeqCst) {
                    s.analysis.review = None;
                    s.changed();
                    return Ok(());
                }
                let per = started.elapsed().as_secs_f64() / k.max(1) as f64;
                let rates: Vec<Value> = steps.iter().map(|s| json!(s.rate)).collect();
                s.analysis.review = Some(json!({
                    "playouts": playouts, "done": k, "total": total,
                    "eta_s": if k == 0 { Value::Null } else { json!((per * (total - k) as f64).round()) },
                    "rates": rates,
                }));
                s.changed();
            }
            self.hub.notify();
            self.sync(&step)?;
            if let Some(seed) = self.seed {
                self.ask(&format!(
                    "oust-set-param seed {}",
                    review::position_seed(seed, k)
                ))?;
            }
            steps[k] = match target.moves.get(k).filter(|_| self.judge) {
                // A pass is forced: nothing to judge, and nothing to search.
                Some(&(_, Move::Pass)) => review::Step::default(),
                Some(&(color, mv)) => {
                    let command = format!("oust-judge {}", notation::move_name(&target.geo, mv));
                    let reply = self.send(&command, Self::move_limit(fixed.strength))?;
                    review::Step::from_judgement(color, &reply.text)
                }
                // The last position, or an engine without `oust-judge`: the heat map's rate (and line); the
                // placements are then judged by the difference of the rates before and after them.
                None => {
                    let reply = self.send("oust-heatmap", Self::move_limit(fixed.strength))?;
                    let pv = if self.analyze && review::heatmap_rate(&reply.text).is_some() {
                        Some(self.send("oust-pv", COMMAND_LIMIT)?.text)
                    } else {
                        None
                    };
                    review::Step::from_heatmap(&reply.text, pv.as_deref())
                }
            };
        }
        // A finished game's last position has no search: its rate is the result.
        let mut game = crate::rules::Game::new(target.geo.clone());
        let _ = game.set_pie(target.pie);
        let over =
            target.setup.is_empty() && target.moves.iter().all(|&(c, mv)| game.play(c, mv).is_ok());
        let result = match game.position().status() {
            Status::Over(outcome) if over => Some(outcome),
            _ => None,
        };
        let mut s = self.hub.lock();
        s.analysis.review_line = Some(target.moves.clone());
        s.analysis.review = Some(review::assemble(
            playouts,
            &target.moves,
            steps,
            result,
            Some((started.elapsed().as_secs_f64() * 10.0).round() / 10.0),
        ));
        s.changed();
        drop(s);
        self.set_busy("");
        Ok(())
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

/// The entries of one `oust-analyze` line: `info move V visits N winrate W prior P order K [proof R] pv C V ...`,
/// repeated; the win rates are the side to move's. Returns the moves sorted by `order`, with Black's winning chance
/// of the best.
fn parse_info(line: &str, to_move: Color) -> Value {
    let mut moves: Vec<Value> = Vec::new();
    for chunk in line.split("info ").filter(|c| !c.trim().is_empty()) {
        let words: Vec<&str> = chunk.split_whitespace().collect();
        let mut entry = json!({});
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "move" | "proof" if i + 1 < words.len() => {
                    entry[words[i]] = json!(words[i + 1]);
                    i += 2;
                }
                "visits" | "winrate" | "prior" | "order" if i + 1 < words.len() => {
                    entry[words[i]] = json!(words[i + 1].parse::<f64>().unwrap_or(0.0));
                    i += 2;
                }
                "pv" => {
                    let pv: Vec<Value> = words[i + 1..]
                        .chunks(2)
                        .filter(|c| c.len() == 2)
                        .map(|c| json!([c[0], c[1]]))
                        .collect();
                    entry["pv"] = json!(pv);
                    i = words.len();
                }
                _ => i += 1,
            }
        }
        if entry.get("move").is_some() {
            moves.push(entry);
        }
    }
    moves.sort_by(|a, b| {
        a["order"]
            .as_f64()
            .unwrap_or(0.0)
            .total_cmp(&b["order"].as_f64().unwrap_or(0.0))
    });
    let best = moves.first().and_then(|m| m["winrate"].as_f64());
    let black = best.map(|w| if to_move == Color::Black { w } else { 1.0 - w });
    let max_visits = moves
        .iter()
        .filter_map(|m| m["visits"].as_f64())
        .fold(0.0, f64::max);
    let visits: f64 = moves.iter().filter_map(|m| m["visits"].as_f64()).sum();
    json!({
        "to_move": to_move.name(),
        "moves": moves,
        "black": black,
        "max_visits": max_visits,
        "visits": visits as u64,
        "proof": moves.first().and_then(|m| m.get("proof")).cloned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysis_lines_and_heatmap_text_are_read() {
        let v = parse_info(
            "info move E5 visits 1520 winrate 0.5623 prior 0.0280 order 0 pv b E5 w C3 info move D4 visits \
             310 winrate 0.4 prior 0.1 order 1 proof loss pv b D4",
            Color::White,
        );
        assert_eq!(v["moves"][0]["move"], "E5");
        assert_eq!(v["moves"][0]["pv"], json!([["b", "E5"], ["w", "C3"]]));
        assert_eq!(v["moves"][1]["proof"], "loss");
        assert!((v["black"].as_f64().unwrap() - 0.4377).abs() < 1e-9);
        assert_eq!(
            review::heatmap_rate(
                "INFLUENCE C5 1.00\nTEXT 80913 playouts, white to move, best C5 (56.8%)"
            ),
            Some(1.0 - 0.568)
        );
    }
}
