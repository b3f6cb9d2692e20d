//! The referee: plays one game between two engines through the rules core, which answers every legality
//! question. Whatever an engine does, the game ends with a result; an engine that breaks the protocol or its clock
//! forfeits, and the reason is recorded.

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::notation::{self, MoveTextError};
use crate::rules::{Color, Game, Geometry, Move, Outcome, Status};

use super::clock::{Clock, TimeControl, seconds};
use super::engine::{EngineProcess, Failure, Reply, board_commands, shorten};
use super::results::{GameResult, Reason, Side};

/// How long a finishing engine may take to quit before it is killed.
pub const QUIT_WAIT: Duration = Duration::from_secs(1);

/// One engine as a worker keeps it across games: its command and, while it runs, its process.
pub struct Seat {
    /// Which engine of the match this is.
    pub side: Side,
    /// The shell command that starts it.
    pub command: String,
    process: Option<EngineProcess>,
    warned_clock: bool,
}

impl Seat {
    /// A seat whose engine starts when the first game needs it.
    pub fn new(side: Side, command: &str) -> Seat {
        Seat {
            side,
            command: command.to_string(),
            process: None,
            warned_clock: false,
        }
    }

    /// Ends the engine: politely with `quit`, or at once.
    pub fn shut_down(&mut self, politely: bool) {
        if let Some(mut p) = self.process.take() {
            if politely {
                p.quit(QUIT_WAIT);
            } else {
                p.kill();
            }
        }
    }

    fn restart_if_dead(&mut self) {
        if self.process.as_ref().is_some_and(|p| !p.is_alive()) {
            self.process = None;
        }
    }
}

/// What a game needs to know beyond the engines.
pub struct GameSpec<'a> {
    /// The game's number, from 1.
    pub number: u64,
    /// The board.
    pub geometry: Arc<Geometry>,
    /// The engine that plays Black.
    pub black: Side,
    /// The opening's number and moves (forced passes included), if any.
    pub opening: Option<(usize, &'a [Move])>,
    /// The clock and the waits.
    pub time: TimeControl,
    /// Moves after which the game is adjudicated a draw.
    pub max_moves: Option<usize>,
    /// Where engines' stderr goes, one file per engine and game.
    pub log_dir: Option<PathBuf>,
    /// Updated with the number of moves played, for the progress display.
    pub moves_played: Option<&'a AtomicUsize>,
    /// The pie rule (RULES.md rule 9): both engines are told, and after a swap they exchange colours.
    pub pie: bool,
    /// Adjudication by the solver (`--adjudicate solver=SECONDS`): before each move the solver has this long to
    /// prove the position; a proven position ends the game with its result.
    pub adjudicate: Option<Duration>,
}

/// The end of a game.
pub enum Played {
    /// The game has a result.
    Finished(GameResult, Game),
    /// The match was interrupted during the game: the moves so far, no result.
    Interrupted(Game),
}

/// Why play stopped before the rules ended the game.
enum Stop {
    /// The engine playing `color` lost: resignation or forfeit.
    Loss {
        color: Color,
        reason: Reason,
        detail: String,
    },
    /// Adjudicated a draw.
    Draw(Reason, String),
    /// The solver proved the position: its result, and how many moves had been played.
    Proven(Outcome, usize),
    Interrupted,
}

fn loss(color: Color, reason: Reason, detail: impl Into<String>) -> Stop {
    Stop::Loss {
        color,
        reason,
        detail: detail.into(),
    }
}

/// The state of a game in progress.
struct Referee<'a, 'b> {
    seats: &'a mut [Seat; 2],
    spec: &'a GameSpec<'b>,
    stop: &'a AtomicBool,
    game: Game,
    /// The engine that plays Black now: `spec.black` until a swap, the other one after it.
    black: Side,
    /// Clocks, time spent and longest answer of each engine, indexed by [`Side`]: a swap exchanges colours, not
    /// clocks.
    clocks: [Option<Clock>; 2],
    time: [f64; 2],
    longest: [f64; 2],
    /// Lateness each engine may still accumulate beyond its time limits before it loses on time: `--grace` at
    /// the start and again at each new byo-yomi period, less every overrun. (A grace for each move would let an
    /// engine whose sudden-death clock is at zero go on answering late for ever.)
    grace_left: [f64; 2],
    /// The solver of `--adjudicate`, made at its first use; its table serves the game's later positions.
    solver: Option<crate::solve::Solver>,
}

/// The memory of the adjudicating solver's table: small, since it has a fraction of a second a position.
const ADJUDICATION_TABLE_BYTES: usize = 16 << 20;

/// Plays game `spec` between the engines in `seats` (indexed by [`Side`]), starting any that is not running.
/// `stop` interrupts the game.
pub fn play_game(seats: &mut [Seat; 2], spec: &GameSpec<'_>, stop: &AtomicBool) -> Played {
    let clock = spec.time.clock.map(Clock::new);
    let mut game = Game::new(spec.geometry.clone());
    game.set_pie(spec.pie)
        .expect("a new game has no swap to undo");
    let mut referee = Referee {
        seats,
        spec,
        stop,
        game,
        black: spec.black,
        clocks: [clock, clock],
        time: [0.0; 2],
        longest: [0.0; 2],
        grace_left: [spec.time.grace; 2],
        solver: None,
    };
    let ended = referee.run();
    let Referee {
        game,
        black,
        time: side_time,
        longest: side_longest,
        ..
    } = referee;
    // Results are by colour, and colours belong to the engines as they are at the end (after any swap).
    let by_colour = |v: [f64; 2]| [v[black.index()], v[black.other().index()]];
    let (time, longest) = (by_colour(side_time), by_colour(side_longest));
    let (outcome, reason, detail) = match ended {
        Ok(outcome) => {
            let reason = match outcome {
                Outcome::Win(_) => Reason::Capture,
                Outcome::Draw => Reason::NoPlacement,
            };
            (outcome, reason, String::new())
        }
        Err(Stop::Loss {
            color,
            reason,
            detail,
        }) => {
            // An engine that broke the stream is restarted for the next game.
            if matches!(reason, Reason::Time | Reason::Crash | Reason::Malformed) {
                let side = side_of(black, color);
                seats[side.index()].shut_down(false);
            }
            (Outcome::Win(color.opponent()), reason, detail)
        }
        Err(Stop::Draw(reason, detail)) => (Outcome::Draw, reason, detail),
        Err(Stop::Proven(outcome, moves)) => (
            outcome,
            Reason::Solver,
            format!(
                "proven by the solver after {}",
                notation::count(moves, "move")
            ),
        ),
        Err(Stop::Interrupted) => return Played::Interrupted(game),
    };
    let result = GameResult {
        number: spec.number,
        black,
        outcome,
        reason,
        detail,
        moves: game.records().len(),
        time,
        longest,
        opening: spec.opening.map(|(i, _)| i),
    };
    Played::Finished(result, game)
}

/// The engine playing `color` when `black` plays Black.
fn side_of(black: Side, color: Color) -> Side {
    match color {
        Color::Black => black,
        Color::White => black.other(),
    }
}

impl Referee<'_, '_> {
    fn seat(&mut self, color: Color) -> &mut Seat {
        let side = side_of(self.black, color);
        &mut self.seats[side.index()]
    }

    fn run(&mut self) -> Result<Outcome, Stop> {
        for color in [Color::Black, Color::White] {
            self.start(color)?;
        }
        if let Some((_, moves)) = self.spec.opening {
            for &mv in moves {
                let color = self.game.position().to_move();
                self.game
                    .play(color, mv)
                    .expect("openings are checked by the rules when they are made");
                self.tell_both(color, mv)?;
            }
        }
        loop {
            if let Some(count) = self.spec.moves_played {
                count.store(self.game.records().len(), Ordering::Relaxed);
            }
            let color = match self.game.position().status() {
                Status::Over(outcome) => return Ok(outcome),
                Status::MustPass => {
                    // The referee plays a forced pass itself and tells both engines (protocol.md).
                    let color = self.game.position().to_move();
                    self.game
                        .play(color, Move::Pass)
                        .expect("the rules say a pass is forced");
                    self.tell_both(color, Move::Pass)?;
                    continue;
                }
                Status::Ongoing => self.game.position().to_move(),
            };
            if let Some(outcome) = self.proven() {
                return Err(Stop::Proven(outcome, self.game.records().len()));
            }
            if let Some(max) = self.spec.max_moves
                && self.game.records().len() >= max
            {
                return Err(Stop::Draw(
                    Reason::MaxMoves,
                    format!("adjudicated a draw after {}", notation::count(max, "move")),
                ));
            }
            let mv = self.genmove(color)?;
            self.tell(color.opponent(), color, mv)?;
            if mv == Move::Swap {
                // The players exchange colours: the swapper owns the black stone, and White, who moves next, is
                // played by the engine that started.
                self.black = self.black.other();
            }
        }
    }

    /// The result of the position when the solver proves it within its time (`--adjudicate`), with the table it
    /// kept from the game's earlier positions. A solver that cannot be made (no memory) adjudicates nothing.
    fn proven(&mut self) -> Option<Outcome> {
        let budget = self.spec.adjudicate?;
        if self.solver.is_none() {
            let options = crate::solve::Options {
                memory_bytes: ADJUDICATION_TABLE_BYTES,
                exact_distance: false,
                ..crate::solve::Options::default()
            };
            self.solver = crate::solve::Solver::new(options).ok();
        }
        let solver = self.solver.as_mut()?;
        let pos = self.game.position();
        let limits = crate::solve::Limits {
            deadline: Some(Instant::now() + budget),
            nodes: None,
            stop: Some(self.stop),
        };
        let report = solver.solve(pos, &limits, &mut |_| {}).ok()?;
        report.value.map(|v| v.outcome(pos.to_move()))
    }

    /// Starts or reuses the engine of `color` and sets up an empty board and the clock.
    fn start(&mut self, color: Color) -> Result<(), Stop> {
        let number = self.spec.number;
        let log_file = self
            .spec
            .log_dir
            .as_ref()
            .map(|dir| dir.join(format!("game-{number:04}-{}.log", color.name())));
        let seat = self.seat(color);
        seat.restart_if_dead();
        if seat.process.is_none() {
            match EngineProcess::spawn(&seat.command) {
                Ok(p) => seat.process = Some(p),
                Err(e) => {
                    return Err(loss(
                        color,
                        Reason::Crash,
                        format!("{color} could not be started: {e}"),
                    ));
                }
            }
        }
        if let Some(p) = seat.process.as_mut() {
            p.set_label(format!("game {number} {} ({color})", seat.side.letter()));
        }
        if let (Some(path), Some(p)) = (&log_file, &seat.process) {
            match File::create(path) {
                Ok(f) => p.set_log(Some(f)),
                Err(e) => log::warn!("cannot write {}: {e}", path.display()),
            }
        }
        match board_commands(self.spec.geometry.shape()) {
            (line, None) => self.must_accept(color, &line)?,
            // An engine that refuses `oust-board hexS` gets GoGui's `boardsize 2S-1`.
            (line, Some(fallback)) => {
                let limit = self.spec.time.command_limit();
                if !self.send(color, &line, limit)?.ok {
                    log::info!("{color} refused '{line}': sending '{fallback}' instead");
                    self.must_accept(color, &fallback)?;
                }
            }
        }
        if self.spec.pie {
            self.must_accept(color, "oust-set-param pie on")?;
        }
        self.must_accept(color, "clear_board")?;
        if let Some(clock) = self.spec.time.clock {
            self.clock_command(color, &clock.command())?;
        }
        Ok(())
    }

    /// Sends a command to the engine of `color` with the ordinary wait, turning failures into its loss.
    fn send(&mut self, color: Color, line: &str, limit: Duration) -> Result<Reply, Stop> {
        let stop = self.stop;
        let seat = self.seat(color);
        let Some(process) = seat.process.as_mut() else {
            return Err(loss(
                color,
                Reason::Crash,
                format!("{color} is not running"),
            ));
        };
        process.command(line, limit, stop).map_err(|f| match f {
            Failure::Interrupted => Stop::Interrupted,
            Failure::Timeout(d) => loss(
                color,
                Reason::Time,
                format!(
                    "{color} gave no response to '{line}' within {} s",
                    seconds(d.as_secs_f64())
                ),
            ),
            Failure::Closed(how) => loss(
                color,
                Reason::Crash,
                format!("{color}, asked '{line}', {how}"),
            ),
            Failure::Malformed(what) => loss(
                color,
                Reason::Malformed,
                format!("{color} answered '{line}' with {what}"),
            ),
        })
    }

    /// Sends a command the engine must accept: a `?` is a forfeit.
    fn must_accept(&mut self, color: Color, line: &str) -> Result<(), Stop> {
        let limit = self.spec.time.command_limit();
        let reply = self.send(color, line, limit)?;
        if reply.ok {
            Ok(())
        } else {
            Err(loss(
                color,
                Reason::Refused,
                format!("{color} refused '{line}': {}", shorten(&reply.text)),
            ))
        }
    }

    /// Sends a clock command: an engine may refuse it (the referee keeps the clock anyway), with one warning.
    fn clock_command(&mut self, color: Color, line: &str) -> Result<(), Stop> {
        let limit = self.spec.time.command_limit();
        let reply = self.send(color, line, limit)?;
        let seat = self.seat(color);
        if !reply.ok && !seat.warned_clock {
            seat.warned_clock = true;
            log::warn!(
                "engine {} ({}) refused '{line}' ({}); the referee enforces the clock without it",
                seat.side.letter(),
                seat.command,
                shorten(&reply.text)
            );
        }
        Ok(())
    }

    /// Tells the engine of `to` that `mover` played `mv`.
    fn tell(&mut self, to: Color, mover: Color, mv: Move) -> Result<(), Stop> {
        let line = format!(
            "play {} {}",
            mover.letter(),
            notation::move_name(&self.spec.geometry, mv)
        );
        self.must_accept(to, &line)
    }

    fn tell_both(&mut self, mover: Color, mv: Move) -> Result<(), Stop> {
        self.tell(Color::Black, mover, mv)?;
        self.tell(Color::White, mover, mv)
    }

    /// Asks the engine of `color` for its move and plays it if the rules allow it.
    fn genmove(&mut self, color: Color) -> Result<Move, Stop> {
        let extra_turn = self.game.position().extra_turn();
        let time = self.spec.time;
        // Clocks and times belong to the engine, whatever colour it plays.
        let i = side_of(self.black, color).index();
        let mut limit = time.timeout;
        let mut clocked = false;
        if let Some(allowance) = self.clocks[i].and_then(|c| c.allowance()) {
            limit = allowance;
            clocked = true;
        }
        if let Some(per_move) = time.per_move
            && (!clocked || per_move < limit)
        {
            limit = per_move;
            clocked = true;
        }
        if let Some(clock) = self.clocks[i] {
            self.clock_command(color, &clock.time_left_command(color.letter()))?;
        }
        let grace = self.grace_left[i];
        let wait = if clocked { limit + grace } else { limit };
        let line = format!("genmove {}", color.letter());
        let reply = match self.send(color, &line, Duration::from_secs_f64(wait)) {
            Err(Stop::Loss {
                reason: Reason::Time,
                ..
            }) if clocked => {
                self.time[i] += wait;
                self.longest[i] = self.longest[i].max(wait);
                return Err(loss(
                    color,
                    Reason::Time,
                    format!(
                        "{color} exceeded its time: no move within {} s (limit {} s + {} s grace left)",
                        seconds(wait),
                        seconds(limit),
                        seconds(grace)
                    ),
                ));
            }
            other => other?,
        };
        let used = reply.elapsed.as_secs_f64();
        if clocked {
            log::debug!(
                "game {} {color}: genmove answered in {used:.3} s, allowed {limit:.3} s + {grace:.3} s grace left, margin {:.3} s",
                self.spec.number,
                limit - used
            );
            self.grace_left[i] = (grace - (used - limit).max(0.0)).max(0.0);
        }
        self.time[i] += used;
        self.longest[i] = self.longest[i].max(used);
        if let Some(clock) = self.clocks[i].as_mut()
            && clock.charge(used)
        {
            self.grace_left[i] = time.grace;
        }
        if !reply.ok {
            let (reason, what) = if extra_turn {
                (Reason::ExtraTurn, "during its extra turn")
            } else {
                (Reason::Refused, "on its turn")
            };
            return Err(loss(
                color,
                reason,
                format!("{color} refused '{line}' {what}: {}", shorten(&reply.text)),
            ));
        }
        let Some(token) = reply.text.split_whitespace().next() else {
            return Err(loss(
                color,
                Reason::Malformed,
                format!("{color} answered '{line}' with an empty response"),
            ));
        };
        if token.eq_ignore_ascii_case("resign") {
            return Err(loss(color, Reason::Resign, format!("{color} resigned")));
        }
        let geo = &self.spec.geometry;
        let mv = match notation::parse_move(geo, token) {
            Ok(mv) => mv,
            Err(MoveTextError::OffBoard(e)) => {
                return Err(loss(
                    color,
                    Reason::Illegal,
                    format!("{color} played {token}: illegal move: {e}"),
                ));
            }
            Err(MoveTextError::NotAMove(_)) => {
                return Err(loss(
                    color,
                    Reason::Malformed,
                    format!(
                        "{color} answered '{line}' with '{}', which is not a move",
                        shorten(&reply.text)
                    ),
                ));
            }
        };
        if let Err(e) = self.game.play(color, mv) {
            let name = notation::move_name(geo, mv);
            return Err(if extra_turn && mv == Move::Pass {
                loss(
                    color,
                    Reason::ExtraTurn,
                    format!("{color} passed during its extra turn after a capture: {e}"),
                )
            } else {
                loss(
                    color,
                    Reason::Illegal,
                    format!("{color} played {name}: illegal move: {e}"),
                )
            });
        }
        Ok(mv)
    }
}
