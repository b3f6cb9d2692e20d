//! The solver: the game-theoretic value of a position under perfect play, with the distance to the end, the best
//! move and the principal variation. No I/O: callers format the results.
//!
//! The search is alpha-beta over scores that encode the outcome and its distance (chess engines' mate scores),
//! with a transposition table keyed by the position's canonical hash under the board's symmetries. Scores are from
//! the side to move's point of view: a win whose game ends `d` placements (and passes) from the root scores
//! `MATE - d`, a loss `-(MATE - d)`, a game without a winner (ruling 8) 0. Extra turns and forced passes are part
//! of the position: after a capture the same player moves again, so the score is not negated.
//!
//! A solve runs in phases: first the value alone (win, loss or no winner, a null-window search around 0), then
//! the exact distance (the fastest win or the slowest loss), then the principal variation read from the table
//! and checked move by move. A solve that is stopped (flag, deadline or node limit) reports [`Verdict::Unknown`],
//! never a guess.
//!
//! ```
//! use std::sync::Arc;
//! use oust::rules::{Geometry, Position};
//! use oust::solve::{Limits, Options, Solver, Value, Verdict};
//!
//! let pos = Position::new(Arc::new(Geometry::rect(3, 2).unwrap()));
//! let mut solver = Solver::new(Options::default()).unwrap();
//! let report = solver.solve(&pos, &Limits::default(), &mut |_| {}).unwrap();
//! let Verdict::Solved(solution) = report.verdict else { panic!("a small board solves") };
//! assert_eq!(solution.value, Value::Win);
//! ```

pub mod pns;
mod table;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rules::{Color, Move, Outcome, PieStage, Point, Position, Status};
use table::{Bound, ENTRY_BYTES, Entry, NO_MOVE, Table};

/// Score of a win at the root itself; a win `d` moves away scores `MATE - d`.
const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are wins or losses.
const DECIDED: i32 = MATE - MAX_PLY as i32 - 1;
/// Deepest line the search follows. A game this long is far beyond any board the solver can finish; a line that
/// reaches it stops the solve with [`StopReason::TooDeep`] (Oust games are finite, but the solver does not rely on
/// it).
pub const MAX_PLY: usize = 2_000;
/// Smallest memory limit: the table needs room to be useful.
pub const MIN_MEMORY_BYTES: usize = 1 << 20;
/// The most empty points a solve without a time or node limit takes on. The largest board proven here, 5x5, has 25
/// and took 446 s and 238 million nodes; every further empty point multiplies the work by about two to five times, so
/// beyond it an unlimited solve would run for hours or days with nothing to show. A position with more empty points
/// is refused ([`SolveError::Unlimited`]) unless the solve has a deadline or a node limit, and then it answers
/// [`Verdict::Unknown`] when the limit comes first.
pub const MAX_UNLIMITED_EMPTY: usize = 25;
/// Nodes between two looks at the clock and the stop flag (a node limit is met exactly).
const CHECK_EVERY: u64 = 256;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither player wins (ruling 8).
    Draw,
}

impl Value {
    /// `win`, `loss` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }

    /// The outcome of the game when `to_move` has this value.
    pub fn outcome(self, to_move: Color) -> Outcome {
        match self {
            Value::Win => Outcome::Win(to_move),
            Value::Loss => Outcome::Win(to_move.opponent()),
            Value::Draw => Outcome::Draw,
        }
    }
}

/// How the solver searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Table memory in bytes (the table is the largest power of two of buckets that fits).
    pub memory_bytes: usize,
    /// Use the transposition table (off only for checks on tiny boards).
    pub table: bool,
    /// Store positions under their canonical form over the board's symmetries.
    pub symmetry: bool,
    /// Find the exact distance (fastest win, slowest loss); without it a solve settles the value only and the
    /// distance is that of a line that keeps the value.
    pub exact_distance: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            memory_bytes: 64 << 20,
            table: true,
            symmetry: true,
            exact_distance: true,
        }
    }
}

/// When a solve gives up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop when set (from another thread).
    pub stop: Option<&'a AtomicBool>,
}

/// Why a solve ended without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The stop flag was set.
    Stopped,
    /// The deadline passed.
    Deadline,
    /// The node limit was reached.
    NodeLimit,
    /// A line reached [`MAX_PLY`] moves.
    TooDeep,
    /// The tree of proof-number search filled its memory (alpha-beta's table never does: it replaces entries).
    MemoryFull,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Stopped => "stopped",
            StopReason::Deadline => "out of time",
            StopReason::NodeLimit => "node limit reached",
            StopReason::TooDeep => "a line longer than the solver follows",
            StopReason::MemoryFull => "the tree filled the memory limit",
        })
    }
}

/// A proven value with its best line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value for the side to move.
    pub value: Value,
    /// Moves (placements and passes) to the end of the game under best play: the fastest win or the slowest loss.
    /// For a game without a winner, the length of the principal variation.
    pub distance: usize,
    /// The best move: the first of the principal variation.
    pub best: Move,
    /// The principal variation, with the colour of each move, to the end of the game.
    pub pv: Vec<(Color, Move)>,
}

/// The answer of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proven.
    Solved(Solution),
    /// Not proven: the solve stopped first.
    Unknown(StopReason),
}

/// What a solve cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Positions searched (every visit counts, table hits included).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Bytes of the table.
    pub table_bytes: usize,
    /// Entries of the table in use at the end.
    pub table_used: usize,
    /// Entries the table holds.
    pub table_capacity: usize,
}

impl Stats {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The verdict and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The value, or why there is none.
    pub verdict: Verdict,
    /// The value alone when it was proven but the solve stopped before the distance and line were (also set
    /// when solved).
    pub value: Option<Value>,
    /// Nodes, time, table.
    pub stats: Stats,
}

/// A look at a running solve, for progress reports.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The phase: `value`, `distance` or `line`.
    pub phase: &'static str,
    /// The value, once the first phase has proven it.
    pub value: Option<Value>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Table entries in use.
    pub table_used: usize,
    /// Table entries it holds.
    pub table_capacity: usize,
}

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game is over: there is nothing to solve.
    GameOver(Outcome),
    /// The memory limit is below [`MIN_MEMORY_BYTES`].
    MemoryTooSmall {
        /// The limit asked for, in bytes.
        bytes: usize,
    },
    /// The board has more points than a table entry can name.
    BoardTooLarge {
        /// Points of the board.
        points: usize,
    },
    /// The allocator refused the memory of the table (a limit beyond what the machine has).
    NoMemory {
        /// The table's size, in bytes.
        bytes: usize,
    },
    /// A solve without a deadline or a node limit of a position with more than [`MAX_UNLIMITED_EMPTY`] empty
    /// points: it would run for hours or days.
    Unlimited {
        /// Empty points of the position.
        empty: usize,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::GameOver(o) => {
                write!(f, "the game is over ({}): nothing to solve", o.describe())
            }
            SolveError::MemoryTooSmall { bytes } => write!(
                f,
                "a memory limit of {bytes} bytes is below the solver's minimum of {} MB",
                MIN_MEMORY_BYTES >> 20
            ),
            SolveError::BoardTooLarge { points } => {
                write!(f, "a board of {points} points is too large for the solver")
            }
            SolveError::NoMemory { bytes } => write!(
                f,
                "no memory for a table of {} MB: the system refused it",
                bytes >> 20
            ),
            SolveError::Unlimited { empty } => write!(
                f,
                "{empty} empty points are more than the {MAX_UNLIMITED_EMPTY} a solve without a limit takes on \
                 (5x5, the largest board proven here, took 7 minutes with 25; each further point multiplies the \
                 work): give a time or node limit to try anyway"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// The value of each root move, for tables of winning first moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The value for the side that plays it.
    pub value: Value,
    /// The other root moves that are the same as this one under a symmetry of the board.
    pub same_as: Vec<Move>,
}

/// Signal that a search stopped before its answer.
struct Abort(StopReason);

/// Symmetry-aware hashing: each stone's keys under every symmetry, laid out so one stone XORs one small array.
struct Hasher {
    /// `keys[2 * p + c][s]`: the key of a stone of colour `c` on the image of point `p` under symmetry `s`.
    keys: Vec<[u64; 12]>,
    /// The images of each point under each symmetry: `perm[s][p]`.
    perm: Vec<Vec<u16>>,
    /// The inverse maps.
    inverse: Vec<Vec<u16>>,
    side_key: u64,
    extra_key: u64,
    /// Toggled while the pie rule's swap is available.
    swap_key: u64,
    /// Toggled on the empty board with the pie rule on.
    swap_ahead_key: u64,
}

impl Hasher {
    fn new(pos: &Position, symmetry: bool) -> Hasher {
        let geo = pos.geometry();
        let mut syms = geo.symmetries();
        if !symmetry {
            syms.truncate(1);
        }
        let n = geo.len();
        let mut state = 0x5851_f42d_4c95_7f2du64 ^ (n as u64) << 17;
        let mut next = move || crate::rng::splitmix64(&mut state);
        let base: Vec<u64> = (0..2 * n).map(|_| next()).collect();
        let perm: Vec<Vec<u16>> = syms
            .iter()
            .map(|s| s.iter().map(|p| p.index() as u16).collect())
            .collect();
        let inverse: Vec<Vec<u16>> = perm
            .iter()
            .map(|s| {
                let mut inv = vec![0u16; n];
                for (p, &q) in s.iter().enumerate() {
                    inv[q as usize] = p as u16;
                }
                inv
            })
            .collect();
        let mut keys = vec![[0u64; 12]; 2 * n];
        for p in 0..n {
            for c in 0..2 {
                for (s, map) in perm.iter().enumerate() {
                    keys[2 * p + c][s] = base[2 * map[p] as usize + c];
                }
            }
        }
        Hasher {
            keys,
            perm,
            inverse,
            side_key: next(),
            extra_key: next(),
            swap_key: next(),
            swap_ahead_key: next(),
        }
    }

    /// The canonical hash of `pos` and the symmetry that gives it.
    #[inline]
    fn canonical(&self, pos: &Position) -> (u64, usize) {
        let mut h = [0u64; 12];
        let n = pos.geometry().len();
        for p in 0..n {
            if let Some(c) = pos.color_at(Point::from_index(p)) {
                let k = &self.keys[2 * p + c.index()];
                for s in 0..12 {
                    h[s] ^= k[s];
                }
            }
        }
        let mut extra = 0;
        if pos.to_move() == Color::White {
            extra ^= self.side_key;
        }
        if pos.extra_turn() {
            extra ^= self.extra_key;
        }
        match pos.pie_stage() {
            PieStage::Ahead => extra ^= self.swap_ahead_key,
            PieStage::Available => extra ^= self.swap_key,
            PieStage::None => {}
        }
        let mut best = (u64::MAX, 0);
        for (s, &v) in h.iter().enumerate().take(self.perm.len()) {
            let v = v ^ extra;
            if v < best.0 {
                best = (v, s);
            }
        }
        best
    }

    /// A move of the position in the canonical frame of symmetry `s`.
    fn to_canonical(&self, mv: Move, s: usize) -> u16 {
        match mv {
            Move::Place(p) => self.perm[s][p.index()],
            Move::Pass => NO_MOVE - 1,
            Move::Swap => NO_MOVE - 2,
        }
    }

    /// A stored move back in the position's own frame.
    fn in_own_frame(&self, mv: u16, s: usize) -> Option<Move> {
        match mv {
            NO_MOVE => None,
            m if m == NO_MOVE - 1 => Some(Move::Pass),
            m if m == NO_MOVE - 2 => Some(Move::Swap),
            m => self.inverse[s]
                .get(m as usize)
                .map(|&p| Move::Place(Point::from_index(p as usize))),
        }
    }
}

/// A table score for a score at `ply`: wins and losses are stored as distances from the position.
fn to_table(score: i32, ply: usize) -> i16 {
    let s = if score > DECIDED {
        score + ply as i32
    } else if score < -DECIDED {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// The score at `ply` of a table score.
fn from_table(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s > DECIDED {
        s - ply as i32
    } else if s < -DECIDED {
        s + ply as i32
    } else {
        s
    }
}

/// Solves positions; keeps its table between solves of positions of the same board.
pub struct Solver {
    options: Options,
    table: Option<Table>,
    hasher: Option<Hasher>,
    /// The shape the hasher and table were built for.
    shape: Option<crate::rules::Shape>,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("options", &self.options)
            .field("table_used", &self.table.as_ref().map(Table::used))
            .finish()
    }
}

impl Solver {
    /// A solver with the given options. The table is allocated at the first solve.
    ///
    /// # Errors
    /// [`SolveError::MemoryTooSmall`] when the memory limit is below [`MIN_MEMORY_BYTES`] (with the table on).
    pub fn new(options: Options) -> Result<Solver, SolveError> {
        if options.table && options.memory_bytes < MIN_MEMORY_BYTES {
            return Err(SolveError::MemoryTooSmall {
                bytes: options.memory_bytes,
            });
        }
        Ok(Solver {
            options,
            table: None,
            hasher: None,
            shape: None,
        })
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        if let Some(t) = self.table.as_mut() {
            t.clear();
        }
    }

    fn prepare(&mut self, pos: &Position) -> Result<(), SolveError> {
        let n = pos.geometry().len();
        if n >= (NO_MOVE - 1) as usize {
            return Err(SolveError::BoardTooLarge { points: n });
        }
        let shape = pos.geometry().shape();
        if self.shape != Some(shape) {
            self.hasher = Some(Hasher::new(pos, self.options.symmetry));
            self.shape = Some(shape);
            if let Some(t) = self.table.as_mut() {
                t.clear();
            }
        }
        if self.options.table && self.table.is_none() {
            let bytes = self.options.memory_bytes;
            self.table = Some(Table::try_with_bytes(bytes).ok_or(SolveError::NoMemory { bytes })?);
        }
        Ok(())
    }

    /// Refuses a solve without a limit of a position too large to finish ([`MAX_UNLIMITED_EMPTY`]).
    fn check_limits(pos: &Position, limits: &Limits) -> Result<(), SolveError> {
        let empty = pos.empties().len();
        if limits.deadline.is_none() && limits.nodes.is_none() && empty > MAX_UNLIMITED_EMPTY {
            return Err(SolveError::Unlimited { empty });
        }
        Ok(())
    }

    /// Solves `pos` for its side to move. `progress` is called about once a second.
    ///
    /// # Errors
    /// [`SolveError::GameOver`] when the game has ended; [`SolveError::BoardTooLarge`] for a board of more points
    /// than the table can name; [`SolveError::Unlimited`] for a position of more than [`MAX_UNLIMITED_EMPTY`]
    /// empty points without a deadline or node limit; [`SolveError::NoMemory`] when the table's memory cannot be
    /// had.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Report, SolveError> {
        if let Status::Over(o) = pos.status() {
            return Err(SolveError::GameOver(o));
        }
        Self::check_limits(pos, limits)?;
        self.prepare(pos)?;
        let mut search = Search::new(self, pos, limits, progress);
        let verdict = match search.run() {
            Ok(solution) => Verdict::Solved(solution),
            Err(Abort(reason)) => Verdict::Unknown(reason),
        };
        let stats = search.stats();
        Ok(Report {
            verdict,
            value: search.value,
            stats,
        })
    }

    /// The value of every legal move of `pos` for its side to move, one move per class of moves that a symmetry
    /// of the position maps onto each other. `None` when a limit stopped it.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn move_values(
        &mut self,
        pos: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(Option<Vec<MoveValue>>, Stats), SolveError> {
        if let Status::Over(o) = pos.status() {
            return Err(SolveError::GameOver(o));
        }
        Self::check_limits(pos, limits)?;
        self.prepare(pos)?;
        let mut search = Search::new(self, pos, limits, progress);
        let values = search.move_values().ok();
        let stats = search.stats();
        Ok((values, stats))
    }
}

/// One solve in progress.
struct Search<'s, 'l> {
    table: Option<&'s mut Table>,
    hasher: &'s Hasher,
    exact_distance: bool,
    limits: &'l Limits<'l>,
    progress: &'l mut dyn FnMut(&Progress),
    phase: &'static str,
    /// `stack[ply]` is the position at `ply`.
    stack: Vec<Position>,
    /// Move lists by ply.
    moves: Vec<Vec<Move>>,
    /// Scratch list of quiet placements.
    quiet: Vec<Move>,
    /// The value, once proven.
    value: Option<Value>,
    nodes: u64,
    start: Instant,
    next_check: u64,
    next_progress: Duration,
}

impl<'s, 'l> Search<'s, 'l> {
    fn new(
        solver: &'s mut Solver,
        pos: &Position,
        limits: &'l Limits<'l>,
        progress: &'l mut dyn FnMut(&Progress),
    ) -> Search<'s, 'l> {
        Search {
            table: solver.table.as_mut().filter(|_| solver.options.table),
            hasher: solver.hasher.as_ref().expect("prepared"),
            exact_distance: solver.options.exact_distance,
            limits,
            progress,
            phase: "value",
            stack: vec![pos.clone()],
            moves: vec![Vec::new()],
            quiet: Vec::new(),
            value: None,
            nodes: 0,
            start: Instant::now(),
            next_check: CHECK_EVERY.min(limits.nodes.unwrap_or(u64::MAX)),
            next_progress: Duration::from_secs(1),
        }
    }

    fn stats(&self) -> Stats {
        let (bytes, used, capacity) = self
            .table
            .as_ref()
            .map_or((0, 0, 0), |t| (t.bytes(), t.used(), t.capacity()));
        Stats {
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            table_bytes: bytes,
            table_used: used,
            table_capacity: capacity,
        }
    }

    /// Looks at the limits; called every [`CHECK_EVERY`] nodes, and when the node limit is reached.
    fn check(&mut self) -> Result<(), Abort> {
        self.next_check = (self.nodes + CHECK_EVERY).min(
            self.limits
                .nodes
                .filter(|&n| n > self.nodes)
                .unwrap_or(u64::MAX),
        );
        if self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(Abort(StopReason::Stopped));
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            return Err(Abort(StopReason::NodeLimit));
        }
        let now = Instant::now();
        if self.limits.deadline.is_some_and(|d| now >= d) {
            return Err(Abort(StopReason::Deadline));
        }
        let elapsed = now.duration_since(self.start);
        if elapsed >= self.next_progress {
            self.next_progress = elapsed + Duration::from_secs(1);
            let stats = self.stats();
            (self.progress)(&Progress {
                phase: self.phase,
                value: self.value,
                nodes: self.nodes,
                elapsed,
                table_used: stats.table_used,
                table_capacity: stats.table_capacity,
            });
        }
        Ok(())
    }

    /// The whole solve: value, distance, line.
    fn run(&mut self) -> Result<Solution, Abort> {
        // The value: a null window around 0.
        let v = self.alphabeta(0, -1, 1)?;
        let value = match v {
            v if v >= 1 => Value::Win,
            v if v <= -1 => Value::Loss,
            _ => Value::Draw,
        };
        self.value = Some(value);
        // The exact score.
        let score = match value {
            Value::Draw => 0,
            _ if !self.exact_distance => v,
            Value::Win => {
                self.phase = "distance";
                self.alphabeta(0, 0, MATE + 1)?
            }
            Value::Loss => {
                self.phase = "distance";
                self.alphabeta(0, -MATE - 1, 0)?
            }
        };
        self.phase = "line";
        let pv = self.principal_variation(score)?;
        let root = &self.stack[0];
        let me = root.to_move();
        let best = pv.first().map(|&(_, m)| m).unwrap_or(Move::Pass);
        // With the exact distance on, the line's length is the distance; otherwise the line keeps the value.
        let distance = match value {
            Value::Draw => pv.len(),
            _ if self.exact_distance => (MATE - score.abs()) as usize,
            _ => pv.len(),
        };
        debug_assert!(pv.first().is_none_or(|&(c, _)| c == me));
        Ok(Solution {
            value,
            distance,
            best,
            pv,
        })
    }

    /// The legal moves at `ply`, the table's move (if legal) first, then captures, then quiet placements;
    /// `[Pass]` for a forced pass; empty when neither player can place.
    fn generate(&mut self, ply: usize, first: Option<Move>) {
        let mut list = std::mem::take(&mut self.moves[ply]);
        let mut quiet = std::mem::take(&mut self.quiet);
        list.clear();
        quiet.clear();
        let pos = &self.stack[ply];
        // A table move that is not legal here (a hash collision) is ignored.
        let first = first.filter(|&m| match m {
            Move::Place(p) => pos.color_at(p).is_none() && pos.is_legal(p),
            Move::Pass => false,
            Move::Swap => pos.swap_available(),
        });
        if let Some(m) = first {
            list.push(m);
        }
        let mut any = first.is_some();
        if pos.swap_available() && first != Some(Move::Swap) {
            list.push(Move::Swap);
        }
        for &p in pos.empties() {
            if pos.is_legal(p) {
                any = true;
                let m = Move::Place(p);
                if Some(m) == first {
                    continue;
                }
                if pos.joins_friendly(p) {
                    list.push(m);
                } else {
                    quiet.push(m);
                }
            }
        }
        list.extend_from_slice(&quiet);
        if !any && pos.has_legal_placement(pos.to_move().opponent()) {
            list.push(Move::Pass);
        }
        self.moves[ply] = list;
        self.quiet = quiet;
    }

    /// Plays `mv` from `ply` into `ply + 1`; true when the score changes sign: the side to move changes, or the
    /// pie rule's swap is played (White moves again, but the swapper now owns Black, so its score is Black's).
    fn play(&mut self, ply: usize, mv: Move) -> bool {
        if self.stack.len() == ply + 1 {
            self.stack.push(self.stack[ply].clone());
            self.moves.push(Vec::new());
        }
        let (here, below) = self.stack.split_at_mut(ply + 1);
        let child = &mut below[0];
        child.copy_from(&here[ply]);
        match mv {
            Move::Place(p) => {
                child.place_unchecked(p);
            }
            Move::Pass => child.pass_unchecked(),
            Move::Swap => child.swap_unchecked(),
        }
        mv == Move::Swap || child.to_move() != here[ply].to_move()
    }

    /// The score of the position at `ply` (fail-soft alpha-beta).
    fn alphabeta(&mut self, ply: usize, mut alpha: i32, mut beta: i32) -> Result<i32, Abort> {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check()?;
        }
        let pos = &self.stack[ply];
        if let Some(w) = pos.winner() {
            let s = MATE - ply as i32;
            return Ok(if w == pos.to_move() { s } else { -s });
        }
        if ply >= MAX_PLY {
            return Err(Abort(StopReason::TooDeep));
        }
        // No win comes sooner than the next move, no loss later than the longest line.
        let fastest = MATE - ply as i32 - 1;
        if alpha >= fastest {
            return Ok(fastest);
        }
        beta = beta.min(fastest);
        let alpha_orig = alpha;
        let (key, sym) = if self.table.is_some() {
            self.hasher.canonical(pos)
        } else {
            (0, 0)
        };
        let mut first = None;
        if let Some(e) = self.table.as_ref().and_then(|t| t.probe(key)) {
            let s = from_table(e.score, ply);
            match e.bound {
                Bound::Exact => return Ok(s),
                Bound::Lower if s >= beta => return Ok(s),
                Bound::Upper if s <= alpha => return Ok(s),
                Bound::Lower => alpha = alpha.max(s),
                Bound::Upper => beta = beta.min(s),
            }
            if alpha >= beta {
                return Ok(s);
            }
            first = self.hasher.in_own_frame(e.mv, sym);
        }
        self.generate(ply, first);
        let count = self.moves[ply].len();
        if count == 0 {
            // Neither player can place: no winner.
            return Ok(0);
        }
        let start_nodes = self.nodes;
        let mut best = -MATE - 1;
        let mut best_move = self.moves[ply][0];
        for i in 0..count {
            let mv = self.moves[ply][i];
            let flips = self.play(ply, mv);
            let s = if flips {
                -self.alphabeta(ply + 1, -beta, -alpha)?
            } else {
                self.alphabeta(ply + 1, alpha, beta)?
            };
            if s > best {
                best = s;
                best_move = mv;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(t) = self.table.as_mut() {
            let bound = if best <= alpha_orig {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let work = 64 - (self.nodes - start_nodes).leading_zeros();
            t.store(Entry {
                key,
                score: to_table(best, ply),
                mv: self.hasher.to_canonical(best_move, sym),
                bound,
                work: work as u8,
            });
        }
        Ok(best)
    }

    /// The score at `ply` after `mv`, from the point of view of the side to move at `ply`.
    fn score_after(&mut self, ply: usize, mv: Move, alpha: i32, beta: i32) -> Result<i32, Abort> {
        Ok(if self.play(ply, mv) {
            -self.alphabeta(ply + 1, -beta, -alpha)?
        } else {
            self.alphabeta(ply + 1, alpha, beta)?
        })
    }

    /// The line from the root that keeps the root's `score`, read move by move: at each position the first move
    /// whose score reaches the position's. With the exact distance on, the score is exact and the line keeps it;
    /// otherwise the line keeps the value (a win stays a win, a draw a draw; every move of a lost position loses).
    fn principal_variation(&mut self, score: i32) -> Result<Vec<(Color, Move)>, Abort> {
        let mut line = Vec::new();
        let mut ply = 0;
        let mut target = score;
        while ply < MAX_PLY && self.stack[ply].winner().is_none() {
            let pos = &self.stack[ply];
            let me = pos.to_move();
            let first = match self.table.as_ref() {
                Some(t) => {
                    let (key, sym) = self.hasher.canonical(pos);
                    t.probe(key)
                        .and_then(|e| self.hasher.in_own_frame(e.mv, sym))
                }
                None => None,
            };
            self.generate(ply, first);
            let moves = self.moves[ply].clone();
            if moves.is_empty() {
                break;
            }
            // The score a move must reach: the exact score, or the value's smallest score.
            let need = if self.exact_distance || target == 0 {
                target
            } else if target > 0 {
                1
            } else {
                -MATE - 1
            };
            let mut chosen = None;
            for mv in moves {
                if self.score_after(ply, mv, need - 1, need)? >= need {
                    chosen = Some(mv);
                    break;
                }
            }
            let Some(mv) = chosen else {
                // Only a wrong score gets here; end the line rather than guess.
                log::warn!("solver: no move keeps the score {target} at ply {ply}");
                break;
            };
            let flips = self.play(ply, mv);
            line.push((me, mv));
            ply += 1;
            if flips {
                target = -target;
            }
        }
        Ok(line)
    }

    /// Each legal root move's value, one move per symmetry class.
    fn move_values(&mut self) -> Result<Vec<MoveValue>, Abort> {
        self.generate(0, None);
        let moves = self.moves[0].clone();
        let mut out: Vec<(u64, MoveValue)> = Vec::new();
        for mv in moves {
            self.play(0, mv);
            let key = self.hasher.canonical(&self.stack[1]).0
                ^ u64::from(self.stack[1].winner().is_some());
            if let Some((_, class)) = out.iter_mut().find(|(k, _)| *k == key) {
                class.same_as.push(mv);
                continue;
            }
            let s = self.score_after(0, mv, -1, 1)?;
            let value = match s {
                s if s >= 1 => Value::Win,
                s if s <= -1 => Value::Loss,
                _ => Value::Draw,
            };
            out.push((
                key,
                MoveValue {
                    mv,
                    value,
                    same_as: Vec::new(),
                },
            ));
        }
        Ok(out.into_iter().map(|(_, v)| v).collect())
    }
}

/// Bytes of one table entry.
pub const TABLE_ENTRY_BYTES: usize = ENTRY_BYTES;
