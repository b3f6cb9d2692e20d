//! The players: move choice on top of the rules core. Nothing here formats protocol text.
//!
//! [`Searcher`] owns the search tree between moves, so that the subtree below the moves played since the last
//! search is reused.

mod evaluator;
pub mod gumbel;
pub mod learned;
mod leaves;
pub mod mcts;
mod playout;
pub mod policy;
mod simple;
pub mod time;
mod tree;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use evaluator::{CacheStats, EvalCache, NetEval};
pub use gumbel::{Gumbel, GumbelResult};
pub use mcts::{
    Config, Control, FORCED_SHARE, Flavor, Limits, MoveStats, NET_C_PUCT, NET_FPU_REDUCTION,
    NET_LAMBDA, Priors, RootInfo, combined_loss, judged_loss,
};
pub use playout::{PlayoutResult, play_random, random_playout};
pub use simple::choose_quick;

use crate::rng::Rng;
use crate::rules::{Color, Game, Move, Outcome, Position, Shape, Status};
use crate::solve::{self, Solution, SolveError, Solver, Value, Verdict};
use tree::{EXPANDED, Tree};

/// Which player chooses the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// The main player: MCTS with knowledge and a solver.
    Mcts,
    /// Plain UCT with uniform random playouts, no knowledge (a baseline).
    UctPlain,
    /// Uniformly random legal moves (a baseline).
    Random,
    /// No search: a move drawn from the tree's priors, sharpened or flattened by [`Setup::temperature`] (the
    /// most likely move at temperature 0), as KaTrain's weakest calibrated players play from the policy alone.
    Policy,
}

impl PlayerKind {
    /// The name used on the command line and in parameters.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Mcts => "mcts",
            PlayerKind::UctPlain => "uct-plain",
            PlayerKind::Random => "random",
            PlayerKind::Policy => "policy",
        }
    }

    /// The player named `s`.
    pub fn parse(s: &str) -> Option<PlayerKind> {
        [
            PlayerKind::Mcts,
            PlayerKind::UctPlain,
            PlayerKind::Random,
            PlayerKind::Policy,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// Bytes of one tree node.
pub const NODE_BYTES: usize = std::mem::size_of::<tree::Node>();

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play, or `None` when the game is over.
    pub best: Option<Move>,
    /// The root seen by the search (empty when no search ran).
    pub info: RootInfo,
    /// Playouts of this search.
    pub playouts: u64,
    /// Root visits kept from the previous search.
    pub reused: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Nodes the solver spent in this search (before the tree search, and refining its proof).
    pub solver_nodes: u64,
}

impl SearchResult {
    /// Estimated winning chance of the side to move, when the search looked at the position.
    pub fn winrate(&self) -> Option<f32> {
        self.info.moves.first().map(|m| m.winrate)
    }
}

/// The tree and what it was built for, kept between searches.
struct Kept {
    tree: Tree,
    flavor: Flavor,
    /// The board the tree was built on: the hash of an empty board is the same on every board.
    shape: Shape,
    start_hash: u64,
    /// The pie rule was on: the tree has swap nodes exactly where the rules allow them.
    pie: bool,
    moves: Vec<(Color, Move)>,
    /// The capacity asked for; the tree may be smaller when the memory could not be had.
    requested: usize,
}

/// Solver nodes a search may spend for each playout of its playout limit and each unit of
/// [`Setup::solver_share`] (a share of 0.1 gives the solver two nodes a playout). Once the tree search has proven
/// the root, the solver that looks for the fastest win gets this many nodes for each playout left unused. Both
/// hold whether or not a clock runs too: a playout limit always bounds the solver's work.
pub const SOLVER_NODES_PER_PLAYOUT: f64 = 20.0;

/// Runs searches and keeps the tree between them, and the solver with its table.
#[derive(Default)]
pub struct Searcher {
    kept: Option<Kept>,
    solver: Option<Solver>,
    /// Solver nodes spent in the search under way.
    solver_spent: u64,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("tree_nodes", &self.kept.as_ref().map(|k| k.tree.used()))
            .field("solver", &self.solver)
            .finish()
    }
}

/// What one search is asked to do.
#[derive(Clone, Copy, Debug, Default)]
pub struct Request<'a> {
    /// When to stop.
    pub limits: Limits,
    /// Seed of the search's random choices.
    pub seed: u64,
    /// Stops the search when set from another thread.
    pub stop: Option<&'a AtomicBool>,
    /// How often the monitor sees the root (analysis); `None` never.
    pub interval: Option<Duration>,
}

impl Request<'_> {
    /// A search of exactly `playouts` playouts, with no time limit, its random choices seeded with `seed`.
    pub fn playouts(playouts: u64, seed: u64) -> Self {
        Request {
            limits: Limits {
                playouts: Some(playouts),
                time: None,
            },
            seed,
            ..Request::default()
        }
    }
}

/// Settings of a search beyond the tree [`Config`].
#[derive(Clone, Debug)]
pub struct Setup {
    /// The player.
    pub player: PlayerKind,
    /// Tree settings.
    pub config: Config,
    /// Search threads.
    pub threads: usize,
    /// Tree capacity in nodes.
    pub tree_nodes: usize,
    /// Share of a move's budget the main player first gives the solver (0 never): of its time, and under a playout
    /// limit (with or without a clock) [`SOLVER_NODES_PER_PLAYOUT`] nodes a playout times the share, whichever
    /// ends first. A proven position is played from
    /// the solver's line: the fastest win, the slowest loss.
    pub solver_share: f64,
    /// Memory of the solver's table in bytes.
    pub solver_bytes: usize,
    /// A cap on the nodes of each solve, on top of its time or node share (`None`: no cap).
    pub solver_nodes: Option<u64>,
    /// How the move is drawn from what the search saw: 0 plays the best move; above 0, a move is drawn with a
    /// chance proportional to its root visits (for the [`PlayerKind::Policy`] player, its prior) raised to the
    /// power 1 / temperature, so that 1 follows the visits as they are and a lower temperature sharpens them. The
    /// draw is seeded from the request's seed; analysis never draws.
    pub temperature: f64,
}

impl Default for Setup {
    /// The tree search of the main player alone: one thread, a tree of 64 MB, no solver.
    fn default() -> Setup {
        Setup {
            player: PlayerKind::Mcts,
            config: Config::default(),
            threads: 1,
            tree_nodes: nodes_for_megabytes(64),
            solver_share: 0.0,
            solver_bytes: 0,
            solver_nodes: None,
            temperature: 0.0,
        }
    }
}

impl Searcher {
    /// Forgets the kept tree and the solver's table and frees their memory.
    pub fn clear(&mut self) {
        self.kept = None;
        self.solver = None;
    }

    /// Solves `pos` with the kept solver (a new one when the memory limit changed; its table is kept between
    /// solves on the same board).
    ///
    /// # Errors
    /// As [`Solver::solve`], and [`SolveError::MemoryTooSmall`].
    pub fn solve(
        &mut self,
        pos: &Position,
        memory_bytes: usize,
        limits: &solve::Limits,
    ) -> Result<solve::Report, SolveError> {
        if self
            .solver
            .as_ref()
            .is_none_or(|s| s.options().memory_bytes != memory_bytes)
        {
            self.solver = None;
            self.solver = Some(Solver::new(solve::Options {
                memory_bytes,
                ..solve::Options::default()
            })?);
        }
        let solver = self.solver.as_mut().expect("just made");
        let report = solver.solve(pos, limits, &mut |_| {})?;
        log::debug!(
            "solver: {:?} in {} nodes, {:.3}s, table {} of {} entries",
            report.verdict,
            report.stats.nodes,
            report.stats.elapsed.as_secs_f64(),
            report.stats.table_used,
            report.stats.table_capacity
        );
        Ok(report)
    }

    /// The solver's solution of `pos` within `deadline` or `nodes` (neither: no solve), `None` when it stops first
    /// or cannot run (a warning says why).
    fn solve_within(
        &mut self,
        pos: &Position,
        setup: &Setup,
        deadline: Option<Instant>,
        nodes: Option<u64>,
        stop: &AtomicBool,
    ) -> Option<Solution> {
        if deadline.is_none() && nodes.is_none() {
            return None;
        }
        let nodes = match (nodes, setup.solver_nodes) {
            (Some(n), Some(cap)) => Some(n.min(cap)),
            (n, cap) => n.or(cap),
        };
        let limits = solve::Limits {
            deadline,
            nodes,
            stop: Some(stop),
        };
        let report = self.solve(pos, setup.solver_bytes, &limits);
        if let Ok(r) = &report {
            self.solver_spent += r.stats.nodes;
        }
        match report {
            Ok(report) => match report.verdict {
                Verdict::Solved(solution) => Some(solution),
                Verdict::Unknown(_) => None,
            },
            Err(e) => {
                log::warn!("solver: {e}");
                None
            }
        }
    }

    /// The solver's move when it proves `pos` within its share of `limits`.
    fn solved_move(
        &mut self,
        pos: &Position,
        setup: &Setup,
        limits: Limits,
        start: Instant,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        let share = setup.solver_share;
        if share <= 0.0 {
            return None;
        }
        // Every limit is a cap: a playout limit bounds the solver's nodes even when a clock also runs, so that a
        // fixed-playout search plays the same moves with or without a (long enough) clock.
        let deadline = limits.time.map(|t| start + t.mul_f64(share.min(1.0)));
        let nodes = limits
            .playouts
            .map(|p| (p as f64 * share * SOLVER_NODES_PER_PLAYOUT) as u64);
        if nodes == Some(0) {
            return None;
        }
        let solution = self.solve_within(pos, setup, deadline, nodes, stop)?;
        let mut info = RootInfo::default();
        lead_with(&mut info, pos.to_move(), &solution);
        Some(SearchResult {
            best: Some(solution.best),
            info,
            playouts: 0,
            reused: 0,
            elapsed: start.elapsed(),
            solver_nodes: self.solver_spent,
        })
    }

    /// When the tree search has proven the root a win or a loss before its budget ran out, the solver gets the
    /// rest of the budget to find the fastest win or the slowest loss (the tree search proves a value, not a
    /// distance). Its move replaces the tree's, and leads `result.info`. A value that contradicts the tree's proof
    /// is a bug: it is logged, and the solver's move is played.
    fn refine_proof(
        &mut self,
        pos: &Position,
        setup: &Setup,
        limits: Limits,
        start: Instant,
        stop: &AtomicBool,
        result: &mut SearchResult,
    ) {
        let me = pos.to_move();
        let Some(proof @ Outcome::Win(_)) = result.info.proof else {
            return;
        };
        let deadline = limits.time.map(|t| start + t);
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return;
        }
        // The playouts the tree search left unused, in solver nodes, whether or not a clock also runs.
        let nodes = limits
            .playouts
            .map(|p| (p.saturating_sub(result.playouts) as f64 * SOLVER_NODES_PER_PLAYOUT) as u64);
        if nodes == Some(0) {
            return;
        }
        let Some(solution) = self.solve_within(pos, setup, deadline, nodes, stop) else {
            return;
        };
        if solution.value.outcome(me) != proof {
            log::error!(
                "the tree search proved {} but the solver {} for {me}: playing the solver's move",
                proof.describe(),
                solution.value.name()
            );
        }
        log::debug!(
            "solver: the tree's proof refined: {} {} in {}",
            solution.value.name(),
            crate::notation::move_name(pos.geometry(), solution.best),
            solution.distance
        );
        result.best = Some(solution.best);
        lead_with(&mut result.info, me, &solution);
    }

    /// Forgets what the kept tree knows but keeps its memory, so that the next search starts from nothing.
    pub fn forget(&mut self) {
        if let Some(kept) = self.kept.as_mut() {
            kept.tree.reset(Color::White);
            kept.moves.clear();
            kept.start_hash = 0;
        }
    }

    /// Chooses a move for the side to move of `game` as `request` asks. `monitor` is called every few
    /// milliseconds, with the root every `request.interval` (analysis), and may stop the search.
    ///
    /// The steps: a position with nothing to search answers at once ([`quick_answer`]); the solver has its share
    /// ([`Searcher::solved_move`]); the kept tree is prepared ([`Searcher::prepare`]); the tree search runs
    /// ([`Searcher::tree_search`]); the move is chosen from the tree ([`Searcher::choose`]); the solver may then
    /// refine the proof ([`Searcher::refine_proof`]).
    pub fn search(
        &mut self,
        game: &Game,
        setup: &Setup,
        request: &Request,
        monitor: &mut dyn FnMut(Option<&RootInfo>) -> Control,
    ) -> SearchResult {
        let start = Instant::now();
        let pos = game.position();
        self.solver_spent = 0;
        if let Some(answer) = quick_answer(pos, setup, request, start) {
            return answer;
        }
        let never = AtomicBool::new(false);
        let stop = request.stop.unwrap_or(&never);
        if setup.player == PlayerKind::Mcts
            && request.interval.is_none()
            && let Some(solved) = self.solved_move(pos, setup, request.limits, start, stop)
        {
            log_overrun(
                request.limits,
                solved.elapsed,
                &[("solver", solved.elapsed)],
            );
            return solved;
        }
        let solver_done = start.elapsed();
        let flavor = if setup.player == PlayerKind::Mcts {
            Flavor::Knowledge
        } else {
            Flavor::Plain
        };
        let config = Config {
            flavor,
            ..setup.config.clone()
        };
        let reused = self.prepare(game, flavor, setup.tree_nodes);
        let prepared = start.elapsed();
        let (run, pruning) = self.tree_search(pos, setup, &config, request, start, monitor);
        let searched = start.elapsed();
        let mut result = self.choose(pos, setup, &config, request, run.playouts, reused);
        self.log_tree(&result, start);
        if setup.player == PlayerKind::Mcts
            && setup.solver_share > 0.0
            && request.interval.is_none()
        {
            self.refine_proof(pos, setup, request.limits, start, stop, &mut result);
        }
        result.elapsed = start.elapsed();
        result.solver_nodes = self.solver_spent;
        log_overrun(
            request.limits,
            result.elapsed,
            &[
                ("solver", solver_done),
                ("tree preparation", prepared - solver_done),
                ("tree search", (searched - prepared).saturating_sub(pruning)),
                ("pruning", pruning),
                ("root info and proof refinement", result.elapsed - searched),
                (
                    "longest gap between a thread's deadline checks",
                    run.longest_step,
                ),
            ],
        );
        result
    }

    /// The tree search from the prepared tree, with what is left of the time limit since `start`, and the time it
    /// spent pruning. A search stopped before it began (a Stop while the solver had its share) runs a short one of
    /// its own, so that the answer is a searched move rather than the priors' favourite; and when no iteration ran
    /// at all (the solver's share took the whole budget, or the budget was nothing), one iteration expands the root,
    /// so that a move rests at least on the root's evaluation (the network's policy, or the priors and a playout).
    fn tree_search(
        &mut self,
        pos: &Position,
        setup: &Setup,
        config: &Config,
        request: &Request,
        start: Instant,
        monitor: &mut dyn FnMut(Option<&RootInfo>) -> Control,
    ) -> (mcts::Run, Duration) {
        let never = AtomicBool::new(false);
        let stop = request.stop.unwrap_or(&never);
        let kept = self.kept.as_mut().expect("prepared");
        let pruned_before = kept.tree.pruning_time();
        // The time limit counts from the start of the search, preparation included.
        let mut limits = Limits {
            time: request
                .limits
                .time
                .map(|t| t.saturating_sub(start.elapsed())),
            ..request.limits
        };
        let knowledge = config.flavor == Flavor::Knowledge;
        let tree_stop = if knowledge && stop.load(Ordering::SeqCst) {
            limits = Limits {
                playouts: Some(STOPPED_PLAYOUTS),
                time: None,
            };
            &never
        } else {
            stop
        };
        let mut run = mcts::run(
            &mut kept.tree,
            pos,
            config,
            limits,
            setup.threads,
            request.seed,
            tree_stop,
            request.interval,
            monitor,
        );
        if knowledge
            && request.interval.is_none()
            && kept.tree.node(kept.tree.root()).state() != EXPANDED
        {
            let one = Limits {
                playouts: Some(1),
                time: None,
            };
            let more = mcts::run(
                &mut kept.tree,
                pos,
                config,
                one,
                1,
                request.seed,
                &never,
                None,
                monitor,
            );
            run.playouts += more.playouts;
        }
        let pruning = kept.tree.pruning_time().saturating_sub(pruned_before);
        (run, pruning)
    }

    /// The move the searched tree chooses, with the root's report: the best child; the priors' favourite when no
    /// child was visited; the quick player's move when the tree has no root at all. With a temperature, the move is
    /// drawn from the visits instead (and leads the report).
    fn choose(
        &self,
        pos: &Position,
        setup: &Setup,
        config: &Config,
        request: &Request,
        playouts: u64,
        reused: u64,
    ) -> SearchResult {
        let kept = self.kept.as_ref().expect("prepared");
        let seed = request.seed;
        let stopped = request.stop.is_some_and(|s| s.load(Ordering::SeqCst));
        let mut result = SearchResult {
            best: None,
            info: RootInfo::default(),
            playouts,
            reused,
            elapsed: Duration::ZERO,
            solver_nodes: 0,
        };
        let root = kept.tree.node(kept.tree.root());
        if root.state() == EXPANDED && !root.children().is_empty() {
            let unvisited = root.children().all(|c| kept.tree.node(c).visits() == 0);
            let best = if unvisited {
                // Only the root's evaluation: its priors' favourite (children come best first).
                root.children().start
            } else {
                mcts::best_child(&kept.tree, kept.tree.root())
            };
            result.best = Some(kept.tree.node(best).mv());
        } else if config.flavor == Flavor::Knowledge && stopped {
            // No iteration ran although the short search of a stopped move should have (it should not happen, but a
            // move must be answered): the priors' most likely move, which the policy player plays at temperature 0.
            let mut priors = Vec::new();
            mcts::move_priors(config, pos, &mut priors);
            result.best = priors
                .first()
                .map(|&(mv, _)| mv)
                .or_else(|| choose_quick(pos, &mut Rng::new(seed)));
        } else {
            // No iteration ran (a zero budget): fall back on the quick player.
            result.best = choose_quick(pos, &mut Rng::new(seed));
        }
        result.info = mcts::root_info(&kept.tree, pos, result.playouts);
        if setup.temperature > 0.0 && request.interval.is_none() && !result.info.moves.is_empty() {
            let weights: Vec<f64> = result
                .info
                .moves
                .iter()
                .map(|m| f64::from(m.visits))
                .collect();
            let chosen = draw(&weights, setup.temperature, &mut Rng::new(seed ^ DRAW_SEED));
            // The drawn move leads the report, as the move played does.
            let stats = result.info.moves.remove(chosen);
            result.best = Some(stats.mv);
            result.info.moves.insert(0, stats);
        }
        result
    }

    /// The debug log's line about a search: its playouts, time, reuse and the tree's nodes.
    fn log_tree(&self, result: &SearchResult, start: Instant) {
        let Some(kept) = self.kept.as_ref() else {
            return;
        };
        log::debug!(
            "search: {} in {:.3}s, {} reused visits, {} nodes of {} bytes{}{}",
            crate::notation::count(result.playouts, "playout"),
            start.elapsed().as_secs_f64(),
            result.reused,
            kept.tree.used(),
            NODE_BYTES,
            match kept.tree.prunes() {
                0 => String::new(),
                n => format!(", pruned {n} times"),
            },
            if kept.tree.is_full() {
                " (tree full)"
            } else {
                ""
            }
        );
    }

    /// Makes the kept tree's root the current position, reusing the subtree of the moves played since the last
    /// search when there is one. Returns the root visits kept.
    fn prepare(&mut self, game: &Game, flavor: Flavor, capacity: usize) -> u64 {
        let moves: Vec<(Color, Move)> = game.line();
        let start_hash = game.start().hash();
        let pos = game.position();
        let shape = pos.geometry().shape();
        let root_mover = if pos.extra_turn() {
            pos.to_move()
        } else {
            pos.to_move().opponent()
        };
        if let Some(kept) = self.kept.as_mut() {
            let compatible = kept.flavor == flavor
                && kept.shape == shape
                && kept.start_hash == start_hash
                && kept.pie == pos.pie()
                && kept.requested == capacity.max(1)
                && moves.starts_with(&kept.moves);
            if compatible {
                let mut id = kept.tree.root();
                let mut found = true;
                for &(color, mv) in &moves[kept.moves.len()..] {
                    // A swap node counts in the colours before the swap, a root in its own: start afresh.
                    if mv == Move::Swap {
                        found = false;
                        break;
                    }
                    let node = kept.tree.node(id);
                    let next = (node.state() == EXPANDED)
                        .then(|| {
                            node.children().find(|&c| {
                                let c = kept.tree.node(c);
                                c.mv() == mv && c.mover() == color
                            })
                        })
                        .flatten();
                    match next {
                        Some(c) => id = c,
                        None => {
                            found = false;
                            break;
                        }
                    }
                }
                if found {
                    let moved = id != kept.tree.root();
                    kept.tree.set_root(id);
                    // The nodes of the moves not played are unreachable now: compact at once, so that the next
                    // search grows into their memory rather than into pages never touched (the engine's memory
                    // stays near one move's tree, not the whole game's), and the expansion threshold, which rises
                    // with the nodes in use, counts only the live tree.
                    if moved {
                        let began = Instant::now();
                        let before = kept.tree.used();
                        kept.tree.compact();
                        log::debug!(
                            "search: the kept subtree compacted from {before} to {} nodes in {:.3}s",
                            kept.tree.used(),
                            began.elapsed().as_secs_f64()
                        );
                    }
                    kept.moves = moves;
                    // Compaction moves the root, so ask the tree where it is.
                    return u64::from(kept.tree.node(kept.tree.root()).visits());
                }
            }
            if kept.requested == capacity.max(1) {
                kept.tree.reset(root_mover);
                kept.flavor = flavor;
                kept.shape = shape;
                kept.start_hash = start_hash;
                kept.pie = pos.pie();
                kept.moves = moves;
                return 0;
            }
        }
        let mut tree = allocate(capacity);
        tree.reset(root_mover);
        self.kept = Some(Kept {
            tree,
            flavor,
            shape,
            start_hash,
            pie: pos.pie(),
            moves,
            requested: capacity.max(1),
        });
        0
    }
}

/// The answer to a search with nothing to search: the game is over (no move), the side to move must pass, it has a
/// single legal move (unless an analysis asks to see the future), or the player needs no tree (random, or the policy
/// drawn without search).
fn quick_answer(
    pos: &Position,
    setup: &Setup,
    request: &Request,
    start: Instant,
) -> Option<SearchResult> {
    let mut result = SearchResult {
        best: None,
        info: RootInfo::default(),
        playouts: 0,
        reused: 0,
        elapsed: Duration::ZERO,
        solver_nodes: 0,
    };
    match pos.status() {
        Status::Over(_) => return Some(result),
        Status::MustPass => {
            result.best = Some(Move::Pass);
            return Some(result);
        }
        Status::Ongoing => {}
    }
    let moves = pos.legal_moves();
    if moves.len() == 1 && request.interval.is_none() {
        result.best = Some(moves[0]);
        return Some(result);
    }
    match setup.player {
        PlayerKind::Random => {
            let mut rng = Rng::new(request.seed);
            result.best = Some(moves[rng.below(moves.len())]);
        }
        PlayerKind::Policy => {
            let mut priors = Vec::new();
            mcts::move_priors(&setup.config, pos, &mut priors);
            let weights: Vec<f64> = priors.iter().map(|&(_, p)| f64::from(p)).collect();
            let chosen = draw(
                &weights,
                setup.temperature,
                &mut Rng::new(request.seed ^ DRAW_SEED),
            );
            result.best = priors.get(chosen).map(|&(mv, _)| mv).or(Some(moves[0]));
        }
        PlayerKind::Mcts | PlayerKind::UctPlain => return None,
    }
    result.elapsed = start.elapsed();
    Some(result)
}

/// Playouts of the search that answers a move stopped before its tree search began.
pub const STOPPED_PLAYOUTS: u64 = 200;

/// Mixed into a search's seed for the draw of its move at a temperature, so that the draw does not repeat the
/// first numbers the search's own generators took.
const DRAW_SEED: u64 = 0x5DEE_CE66_D1CE_5EED;

/// The index of one of `weights` drawn with a chance proportional to `weight^(1 / temperature)`; a temperature
/// of 0 (or below) takes the largest weight, the first of equal ones. Weights of 0 are never drawn unless all are;
/// an empty list gives 0.
pub fn draw(weights: &[f64], temperature: f64, rng: &mut Rng) -> usize {
    let best = weights
        .iter()
        .enumerate()
        .fold(0, |b, (i, &w)| if w > weights[b] { i } else { b });
    if temperature <= 0.0 || weights.len() < 2 || weights[best].is_nan() || weights[best] <= 0.0 {
        return best;
    }
    // In logarithms, relative to the largest weight, so that a low temperature cannot overflow.
    let top = weights[best].ln();
    let tempered: Vec<f64> = weights
        .iter()
        .map(|&w| {
            if w > 0.0 {
                ((w.ln() - top) / temperature).exp()
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = tempered.iter().sum();
    let mut point = rng.unit() * total;
    for (i, &t) in tempered.iter().enumerate() {
        if point < t {
            return i;
        }
        point -= t;
    }
    best
}

/// How far past its time limit a search may run before it is logged, at `info` level, with where its time went.
pub const OVERRUN_LOGGED: Duration = Duration::from_millis(50);

/// Logs a search that ran past its time limit by more than [`OVERRUN_LOGGED`], with the time of each of its
/// `phases` (those that took any).
fn log_overrun(limits: Limits, elapsed: Duration, phases: &[(&str, Duration)]) {
    let Some(budget) = limits.time else {
        return;
    };
    if elapsed <= budget + OVERRUN_LOGGED {
        return;
    }
    let phases: Vec<String> = phases
        .iter()
        .filter(|(_, t)| !t.is_zero())
        .map(|(name, t)| format!("{name} {:.3}s", t.as_secs_f64()))
        .collect();
    log::info!(
        "search: {:.3}s for a budget of {:.3}s, {:.0} ms over: {}",
        elapsed.as_secs_f64(),
        budget.as_secs_f64(),
        (elapsed - budget).as_secs_f64() * 1000.0,
        phases.join(", ")
    );
}

/// Puts the solver's move first in `info`, with its proof and the solver's line, and the root's proof.
fn lead_with(info: &mut RootInfo, me: Color, solution: &Solution) {
    let outcome = solution.value.outcome(me);
    let winrate = match solution.value {
        Value::Win => 1.0,
        Value::Loss => 0.0,
        Value::Draw => 0.5,
    };
    let stats = match info.moves.iter().position(|m| m.mv == solution.best) {
        Some(i) => info.moves.remove(i),
        None => MoveStats {
            mv: solution.best,
            visits: 0,
            winrate,
            prior: 1.0,
            proof: None,
            pv: Vec::new(),
            pv_visits: Vec::new(),
        },
    };
    info.moves.insert(
        0,
        MoveStats {
            winrate,
            proof: Some(outcome),
            pv: solution.pv.clone(),
            pv_visits: Vec::new(),
            ..stats
        },
    );
    info.proof = Some(outcome);
}

/// A tree of `capacity` nodes, or of the most nodes the allocator grants when it refuses that many (the
/// `tree_mb` parameter may ask for more memory than the machine has): a search never aborts the engine.
fn allocate(capacity: usize) -> Tree {
    let mut size = capacity.max(1);
    loop {
        if let Some(tree) = Tree::try_new(size) {
            if size < capacity {
                log::warn!(
                    "no memory for a search tree of {capacity} nodes: using {size} nodes instead"
                );
            }
            return tree;
        }
        if size == 1 {
            return Tree::new(1);
        }
        size /= 2;
    }
}

/// Tree capacity in nodes for a memory budget in megabytes.
pub fn nodes_for_megabytes(mb: usize) -> usize {
    (mb.max(1) * 1024 * 1024 / NODE_BYTES).max(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_follows_the_weights_to_the_power_of_one_over_the_temperature() {
        let weights = [0.0, 3.0, 1.0, 3.0];
        let mut rng = Rng::new(5);
        // At temperature 0 the largest weight, the first of equal ones; an empty or all-zero list gives 0.
        assert_eq!(draw(&weights, 0.0, &mut rng), 1);
        assert_eq!(draw(&[], 1.0, &mut rng), 0);
        assert_eq!(draw(&[0.0, 0.0], 1.0, &mut rng), 0);
        let counts = |temperature: f64| {
            let mut rng = Rng::new(9);
            let mut n = [0u32; 4];
            for _ in 0..7000 {
                n[draw(&weights, temperature, &mut rng)] += 1;
            }
            n
        };
        // At 1, in proportion to the weights (3 : 1 : 3 of 7000); at 0.5, to their squares (9 : 1 : 9 of 7000).
        let one = counts(1.0);
        assert_eq!(one[0], 0);
        assert!(
            (2800..3200).contains(&one[1]) && (850..1150).contains(&one[2]),
            "{one:?}"
        );
        let half = counts(0.5);
        assert_eq!(half[0], 0);
        assert!((250..480).contains(&half[2]), "{half:?}");
        // A tiny temperature does not overflow: only the largest weights are drawn.
        let cold = counts(0.001);
        assert_eq!((cold[0], cold[2]), (0, 0), "{cold:?}");
    }
}
