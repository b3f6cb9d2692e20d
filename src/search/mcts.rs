//! Monte Carlo tree search on the rules core's fast path: PUCT selection with priors from cheap Oust knowledge,
//! biased playouts, an MCTS-solver for proven wins and losses, and tree parallelism with virtual loss.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::rng::Rng;
use crate::rules::{Color, Move, Outcome, Position};

use super::evaluator::NetEval;
use super::leaves::{
    self, HANDMADE_C_PUCT, HANDMADE_FPU_REDUCTION, Leaf, Leaves, Playouts, Worker,
};
pub use super::leaves::{LEARNED_C_PUCT, LEARNED_FPU_REDUCTION, Priors};
use super::policy::PriorWeights;
use super::tree::{EXPANDED, LEAF, MAX_ROOT_VISITS, Padded, Tree, WIN};

/// Which tree search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// The main player: priors, biased playouts, solver.
    Knowledge,
    /// Plain UCT: UCB1, uniform playouts, no knowledge, no solver.
    Plain,
}

/// The exploration constant of a search with the network (`cpuct auto`).
pub const NET_C_PUCT: f32 = 1.0;

/// The first-play urgency reduction of a search with the network (`fpu_reduction auto`).
pub const NET_FPU_REDUCTION: f32 = 0.2;

/// The weight of a playout in a leaf's value with the network (`lambda auto`).
pub const NET_LAMBDA: f32 = 0.0;

/// Settings of one search; fixed while it runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Main player or plain UCT.
    pub flavor: Flavor,
    /// Exploration constant of PUCT (UCB1's constant for plain UCT).
    pub c_puct: f32,
    /// First-play urgency: an unvisited child is valued at the parent's value minus this.
    pub fpu_reduction: f32,
    /// A leaf is expanded on this visit (counting the current one); the root always is.
    pub expand_visits: u32,
    /// Legal candidates a playout move looks at before settling for a non-capture; 0 plays uniformly at random.
    pub playout_candidates: usize,
    /// Prior weights of the kinds of placement (the handmade priors).
    pub weights: PriorWeights,
    /// The priors of the tree: handmade or learned.
    pub priors: Priors,
    /// The network, when it evaluates the leaves: its policy replaces the priors and its value (mixed with a
    /// playout by its lambda) the playout; every leaf is expanded at its first visit.
    pub net: Option<NetEval>,
    /// A root move that every search of the root keeps at [`FORCED_SHARE`] of the root's visits at least, however
    /// little the search thinks of it: the played placement a game review values beside the best one.
    pub forced: Option<Move>,
    /// A root move that every descent takes: the root chooses no move of its own (the Gumbel root search of
    /// [`super::gumbel`] sends each simulation to the move it picked).
    pub root_only: Option<Move>,
    /// The root moves a search may look at (an analysis' `allowMoves` and `avoidMoves`); `None`: every legal move.
    /// A root whose allowed moves are all gone searches none.
    pub root_moves: Option<Arc<[Move]>>,
}

/// The share of the root's visits a [`Config::forced`] move gets at least.
pub const FORCED_SHARE: f32 = 0.15;

impl Default for Config {
    fn default() -> Config {
        Config {
            flavor: Flavor::Knowledge,
            c_puct: HANDMADE_C_PUCT,
            fpu_reduction: HANDMADE_FPU_REDUCTION,
            expand_visits: 2,
            playout_candidates: 2,
            weights: PriorWeights::default(),
            priors: Priors::Handmade,
            net: None,
            forced: None,
            root_only: None,
            root_moves: None,
        }
    }
}

/// What a search runs until: the first limit reached ends it (no limit at all means until stopped).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Playouts of this search.
    pub playouts: Option<u64>,
    /// Wall time.
    pub time: Option<Duration>,
}

/// One root move as the search sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Visits.
    pub visits: u32,
    /// Mean result for the side to move (1 a win), or 0.5 unvisited.
    pub winrate: f32,
    /// Prior probability.
    pub prior: f32,
    /// Proven outcome of the game after this move, if known. For the pie rule's swap it is stated in the colours
    /// before the swap, like every other move's: a win of the side to move is a win of the swapper.
    pub proof: Option<Outcome>,
    /// The principal variation starting with this move, with the colour of each move.
    pub pv: Vec<(Color, Move)>,
    /// The visits of each node of `pv` (as many as `pv` has moves, where the tree has them).
    pub pv_visits: Vec<u32>,
}

/// The root of a search as the protocol layer reports it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RootInfo {
    /// Root moves with at least one visit, most visited first (with the move that would be played first).
    pub moves: Vec<MoveStats>,
    /// Visits of the root.
    pub visits: u64,
    /// Playouts of the search so far.
    pub playouts: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Proven outcome of the root position, if known.
    pub proof: Option<Outcome>,
    /// Every root move the search may look at, with its prior (the policy at the root), best first.
    pub priors: Vec<(Move, f32)>,
}

/// What the monitor callback asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Keep searching.
    Continue,
    /// Stop now.
    Stop,
}

/// Runs single simulations on the calling thread, one at a time, each seeded on its own: what a caller that picks
/// every simulation's root move itself needs ([`super::gumbel`]), without a thread or a monitor a simulation. A
/// simulation seeded with `seed` is the one playout of [`run`] on one thread seeded so.
pub(super) struct Simulator {
    worker: Worker,
}

impl Simulator {
    pub(super) fn new(root: &Position) -> Simulator {
        Simulator {
            worker: Worker::new(root, 0),
        }
    }

    /// One simulation from `root` on `tree` (no pruning: a full tree only stops growing).
    pub(super) fn simulate(&mut self, tree: &Tree, root: &Position, cfg: &Config, seed: u64) {
        let stop = AtomicBool::new(false);
        let sh = Shared::new(tree, root, cfg, &stop, (0, 1), None);
        self.worker.rng = Rng::new(seed);
        if tree.node(tree.root()).proof().is_none() {
            iterate(&sh, &mut self.worker);
        }
    }
}

/// Everything the search threads share.
/// The counters that threads write have cache lines of their own, apart from the settings every thread reads.
struct Shared<'a> {
    tree: &'a Tree,
    root: &'a Position,
    cfg: &'a Config,
    limit: u64,
    /// What evaluates the leaves.
    leaves: Leaves<'a>,
    /// Set from outside to stop the search; never written here.
    stop: &'a AtomicBool,
    playouts: Padded<AtomicU64>,
    /// Set by the monitor (deadline, callback) or by a worker past the deadline to end this search.
    halt: Padded<AtomicBool>,
    /// When the search must end. Every worker checks it at every playout, so that the answer leaves on time even
    /// when the thread that watches the search is not scheduled.
    deadline: Option<Instant>,
    /// The longest time between two checks of the deadline by one worker (one playout, and any time the worker was
    /// not running), in nanoseconds: what a search past its deadline was doing.
    longest_step: Padded<AtomicU64>,
    /// True while the search may pause to prune a full tree: workers then end when it fills.
    may_prune: Padded<AtomicBool>,
}

impl<'a> Shared<'a> {
    /// The shared state of a search from `root` of at most `limit` playouts (counting from `done`), with no pause
    /// to prune until told.
    fn new(
        tree: &'a Tree,
        root: &'a Position,
        cfg: &'a Config,
        stop: &'a AtomicBool,
        (done, limit): (u64, u64),
        deadline: Option<Instant>,
    ) -> Shared<'a> {
        Shared {
            tree,
            root,
            cfg,
            limit,
            leaves: leaves_of(cfg, root.geometry().len()),
            stop,
            playouts: Padded(AtomicU64::new(done)),
            halt: Padded(AtomicBool::new(false)),
            deadline,
            longest_step: Padded(AtomicU64::new(0)),
            may_prune: Padded(AtomicBool::new(false)),
        }
    }
}

/// The evaluator of the leaves that `cfg` asks for, on a board of `cells` cells: plain UCT's, the network, or the
/// priors with playouts.
fn leaves_of(cfg: &Config, cells: usize) -> Leaves<'_> {
    let playouts = Playouts::new(cfg.playout_candidates, cells);
    match (cfg.flavor, &cfg.net) {
        (Flavor::Plain, _) => Leaves::Uniform(Playouts::new(0, cells)),
        (Flavor::Knowledge, Some(eval)) => Leaves::Network(eval, playouts),
        (Flavor::Knowledge, None) => Leaves::Knowledge(&cfg.priors, &cfg.weights, playouts),
    }
}

fn apply(pos: &mut Position, mv: Move) {
    match mv {
        Move::Place(p) => {
            pos.place_unchecked(p);
        }
        Move::Pass => pos.pass_unchecked(),
        Move::Swap => pos.swap_unchecked(),
    }
}

/// An outcome in the colours of the other side of a swap: the players exchanged colours there.
pub(crate) fn across_swap(o: Outcome) -> Outcome {
    match o {
        Outcome::Win(c) => Outcome::Win(c.opponent()),
        Outcome::Draw => Outcome::Draw,
    }
}

/// The outcome `o`, stated in the colours of the position of node `mv` leads to, in the colours of that node's
/// parent: the same, unless the move was a swap.
fn to_parent_frame(mv: Move, o: Outcome) -> Outcome {
    if mv == Move::Swap { across_swap(o) } else { o }
}

/// Picks the child of `id` to descend into, for `me`, the side to move there.
fn select(sh: &Shared, id: u32, me: Color) -> u32 {
    let tree = sh.tree;
    let node = tree.node(id);
    let children = node.children();
    let (nv, ns) = node.stats();
    debug_assert!(!children.is_empty(), "select on a node without children");
    let cfg = sh.cfg;
    if let Some(only) = cfg.root_only
        && id == tree.root()
        && let Some(c) = children.clone().find(|&c| tree.node(c).mv() == only)
    {
        return c;
    }
    if let Some(forced) = cfg.forced
        && id == tree.root()
        && let Some(c) = children.clone().find(|&c| tree.node(c).mv() == forced)
        && tree.node(c).proof().is_none()
        && (tree.node(c).visits() as f32) < FORCED_SHARE * nv as f32
    {
        return c;
    }
    let allowed = |c: u32| {
        id != tree.root()
            || cfg
                .root_moves
                .as_ref()
                .is_none_or(|only| only.contains(&tree.node(c).mv()))
    };
    let mut best = children.start;
    let mut best_score = f32::NEG_INFINITY;
    match cfg.flavor {
        Flavor::Knowledge => {
            let parent_q = if nv > 0 {
                let q = ns as f32 / (WIN as f32 * nv as f32);
                // The node's statistics are its mover's, in its parent's colours: below a swap node the swapper,
                // who moved as White, owns Black.
                let owner = if node.mv() == Move::Swap {
                    node.mover().opponent()
                } else {
                    node.mover()
                };
                if owner == me { q } else { 1.0 - q }
            } else {
                0.5
            };
            let fpu = parent_q - cfg.fpu_reduction;
            let explore = cfg.c_puct * (nv.max(1) as f32).sqrt();
            for c in children.filter(|&c| allowed(c)) {
                let child = tree.node(c);
                let (v, s) = child.stats();
                let q = match child.proof() {
                    Some(Outcome::Win(w)) if w == me => return c,
                    Some(Outcome::Win(_)) => continue,
                    Some(Outcome::Draw) => 0.5,
                    None if v == 0 => fpu,
                    None => s as f32 / (WIN as f32 * v as f32),
                };
                let score = q + explore * child.prior() / (1.0 + v as f32);
                if score > best_score {
                    best_score = score;
                    best = c;
                }
                // Children are sorted by prior and picked untouched in that order, so the touched ones form a
                // prefix: no child after the first untouched one can score higher.
                if v == 0 {
                    break;
                }
            }
        }
        Flavor::Plain => {
            let log_n = (nv.max(1) as f32).ln();
            for c in children.filter(|&c| allowed(c)) {
                let child = tree.node(c);
                let (v, s) = child.stats();
                if v == 0 {
                    return c;
                }
                let score =
                    s as f32 / (WIN as f32 * v as f32) + cfg.c_puct * (log_n / v as f32).sqrt();
                if score > best_score {
                    best_score = score;
                    best = c;
                }
            }
        }
    }
    best
}

/// The legal moves of `pos` with the priors of `cfg` (handmade or learned), best first; empty when the game is
/// over.
pub fn move_priors(cfg: &Config, pos: &Position, out: &mut Vec<(Move, f32)>) {
    leaves::move_priors(&cfg.priors, &cfg.weights, pos, out)
}

/// Creates the children of leaf `id` at position `pos`; a finished game gets a proof instead. With a network,
/// returns its value of the position for the side to move.
fn expand(sh: &Shared, id: u32, w: &mut Worker) -> Option<f32> {
    let node = sh.tree.node(id);
    let value = sh.leaves.priors(w);
    if w.moves.is_empty() {
        node.set_proof(w.pos.winner().map_or(Outcome::Draw, Outcome::Win));
        node.finish_expand(0, 0);
        return None;
    }
    if sh.leaves.adds_swap() && w.pos.swap_available() {
        add_swap(&mut w.moves);
    }
    match sh.tree.alloc_children(&w.moves, w.pos.to_move()) {
        Some(first) => node.finish_expand(first, w.moves.len() as u32),
        None => node.abandon_expand(),
    }
    value
}

/// Adds the pie rule's swap to the placements `moves` (sorted by prior, best first), with the prior of the best
/// placement, so that the search weighs it as seriously as the best-looking placement; priors are renormalised.
fn add_swap(moves: &mut Vec<(Move, f32)>) {
    let top = moves.first().map_or(1.0, |m| m.1);
    moves.insert(0, (Move::Swap, top));
    let total: f32 = moves.iter().map(|m| m.1).sum();
    for m in moves.iter_mut() {
        m.1 /= total;
    }
}

/// Re-derives the proof of `id` from its children's; true when it is now proven.
fn update_proof(tree: &Tree, id: u32) -> bool {
    let node = tree.node(id);
    if node.proof().is_some() {
        return true;
    }
    if node.state() != EXPANDED || node.children().is_empty() {
        return false;
    }
    let me = tree.node(node.children().start).mover();
    // Children's proofs are in this node's colours; this node's own proof is in its parent's.
    let mv = node.mv();
    let (mut all, mut draw) = (true, false);
    for c in node.children() {
        match tree.node(c).proof() {
            Some(Outcome::Win(w)) if w == me => {
                node.set_proof(to_parent_frame(mv, Outcome::Win(me)));
                return true;
            }
            Some(Outcome::Win(_)) => {}
            Some(Outcome::Draw) => draw = true,
            None => all = false,
        }
    }
    if all {
        node.set_proof(to_parent_frame(
            mv,
            if draw {
                Outcome::Draw
            } else {
                Outcome::Win(me.opponent())
            },
        ));
    }
    all
}

/// Visits a leaf needs before it is expanded: the configured number while the arena is less than a quarter full,
/// then twice as many for each further quarter, so that a long search spreads its memory over the whole search
/// instead of filling the arena early and growing no more.
fn expand_threshold(sh: &Shared) -> u32 {
    let quarters = 4 * sh.tree.used() / sh.tree.capacity();
    sh.cfg
        .expand_visits
        .saturating_mul(1 << quarters.min(3))
        .max(sh.tree.floor())
}

/// One iteration: descend, expand, play out, back up.
fn iterate(sh: &Shared, w: &mut Worker) {
    let tree = sh.tree;
    w.pos.copy_from(sh.root);
    w.path.clear();
    let mut id = tree.root();
    tree.node(id).add_visit();
    w.path.push(id);
    let leaf = loop {
        let node = tree.node(id);
        // The state before the proof: a node seen EXPANDED (an acquire load) shows the proof its expander wrote
        // before publishing it. Read the other way round, a finished game that another thread expands in between
        // the two loads looks like a node with neither a proof nor children, and the descent would go astray.
        let state = node.state();
        if let Some(o) = node.proof() {
            // The proof is in the parent's colours; the backup below wants the node's own.
            break Leaf::Outcome(to_parent_frame(node.mv(), o));
        }
        match state {
            // Only a finished game has no children, and it has its proof; should one ever lack it, the game's end
            // is right here all the same.
            EXPANDED if node.children().is_empty() => {
                break Leaf::Outcome(w.pos.winner().map_or(Outcome::Draw, Outcome::Win));
            }
            EXPANDED => {
                let child = select(sh, id, w.pos.to_move());
                let c = tree.node(child);
                c.add_visit();
                apply(&mut w.pos, c.mv());
                w.path.push(child);
                id = child;
            }
            LEAF if (id == tree.root() || node.visits() >= expand_threshold(sh))
                && !tree.is_full()
                && node.try_begin_expand() =>
            {
                let me = w.pos.to_move();
                let value = expand(sh, id, w);
                match value {
                    // The evaluator valued the new node on the way (the network): that is the leaf's worth.
                    Some(v) if node.proof().is_none() => break sh.leaves.mix(w, me, v),
                    // Expanded without a value, or proven (the proof ends the descent at the next step): go on.
                    _ if node.state() == EXPANDED => {}
                    // Not expanded after all (the tree filled): a leaf.
                    _ => break sh.leaves.leaf(w),
                }
            }
            _ => break sh.leaves.leaf(w),
        }
    };
    // The result in the colours of each node's parent, from the leaf up: a swap exchanges them. A fractional
    // value is rounded to a whole score at random, up or down in proportion, so that its mean is exact.
    let mut black = match leaf {
        Leaf::Outcome(_) => (leaf.black() * WIN as f32) as u32,
        Leaf::Value(..) => {
            let x = leaf.black().clamp(0.0, 1.0) * WIN as f32;
            let low = x.floor();
            low as u32 + u32::from(((x - low) as f64) > w.rng.unit())
        }
    };
    for &n in w.path.iter().rev() {
        let node = tree.node(n);
        if node.mv() == Move::Swap {
            black = WIN - black;
        }
        node.add_result(if node.mover() == Color::Black {
            black
        } else {
            WIN - black
        });
    }
    if sh.cfg.flavor == Flavor::Knowledge
        && tree.node(*w.path.last().expect("root")).proof().is_some()
    {
        for &n in w.path.iter().rev().skip(1) {
            if !update_proof(tree, n) {
                break;
            }
        }
    }
}

fn worker_loop(sh: &Shared, w: &mut Worker) {
    let mut last = Instant::now();
    let mut longest = Duration::ZERO;
    loop {
        if sh.deadline.is_some() {
            let now = Instant::now();
            longest = longest.max(now - last);
            last = now;
        }
        if sh.stop.load(Ordering::Relaxed)
            || sh.halt.load(Ordering::Relaxed)
            || sh.tree.node(sh.tree.root()).proof().is_some()
            || sh.tree.node(sh.tree.root()).visits() >= MAX_ROOT_VISITS
            || (sh.tree.is_full() && sh.may_prune.load(Ordering::Relaxed))
        {
            break;
        }
        if sh.deadline.is_some_and(|d| last >= d) {
            sh.halt.store(true, Ordering::Relaxed);
            break;
        }
        if sh.playouts.fetch_add(1, Ordering::Relaxed) >= sh.limit {
            break;
        }
        iterate(sh, w);
    }
    sh.longest_step
        .fetch_max(longest.as_nanos() as u64, Ordering::Relaxed);
}

/// Counts a worker out and wakes the thread waiting for the workers when dropped, at the end of the worker's
/// thread however it ends.
struct Finished<'a> {
    count: &'a AtomicUsize,
    waiter: std::thread::Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.waiter.unpark();
    }
}

/// Time a search keeps in hand before its deadline for pruning a full tree: the pause must not make it late.
fn prune_margin(last_prune: Duration) -> Duration {
    Duration::from_millis(500).max(last_prune * 4)
}

/// Runs a search from `root` on `tree` (which holds the root, possibly with statistics from an earlier search)
/// with `threads` threads until a limit, the stop flag or a proof of the root ends it. `monitor` is called every
/// few milliseconds, with the root once every `interval`, and may stop the search. Returns the playouts done
/// and the longest step of a worker.
///
/// When the tree fills up, the threads pause while [`Tree::prune`] frees half of it, and the search goes on
/// growing the tree where its visits go; not within a short margin of the deadline, where the search goes on
/// with the tree it has.
#[allow(clippy::too_many_arguments)]
pub fn run(
    tree: &mut Tree,
    root: &Position,
    cfg: &Config,
    limits: Limits,
    threads: usize,
    seed: u64,
    stop: &AtomicBool,
    interval: Option<Duration>,
    monitor: &mut dyn FnMut(Option<&RootInfo>) -> Control,
) -> Run {
    let limit = limits.playouts.unwrap_or(u64::MAX);
    let threads = threads.max(1);
    let start = Instant::now();
    let deadline = limits.time.map(|t| start + t);
    // Each worker on cache lines of its own: the fields a playout writes at every move (the position's counters,
    // the generator) must not share a line with another thread's.
    let mut workers: Vec<Padded<Worker>> = (0..threads)
        .map(|t| {
            Padded(Worker::new(
                root,
                seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ))
        })
        .collect();
    let mut playouts = 0;
    let mut longest_step = Duration::ZERO;
    let mut next_report = interval.map(|i| start + i);
    let mut last_prune = Duration::ZERO;
    // Pruning that frees little would pause the search again at once: then the search goes on without it.
    let mut can_prune = true;
    loop {
        let sh = Shared::new(tree, root, cfg, stop, (playouts, limit), deadline);
        let margin = prune_margin(last_prune);
        let may_prune = |now: Instant| can_prune && deadline.is_none_or(|d| now + margin < d);
        sh.may_prune
            .store(may_prune(Instant::now()), Ordering::Relaxed);
        // Each worker counts itself out and wakes this thread when it ends (panicking included), so that a short
        // search returns at once rather than at the next tick of the loop below.
        let waiter = std::thread::current();
        let finished = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for worker in workers.iter_mut() {
                let sh = &sh;
                let out = Finished {
                    count: &finished,
                    waiter: waiter.clone(),
                };
                s.spawn(move || {
                    let _out = out;
                    worker_loop(sh, &mut worker.0);
                });
            }
            // Wait for every thread to end, however it ends: a thread that panicked must not leave this loop
            // waiting (the scope then passes its panic on).
            while finished.load(Ordering::SeqCst) < threads {
                let now = Instant::now();
                let mut wake = now + Duration::from_millis(5);
                if let Some(d) = deadline {
                    if now >= d {
                        sh.halt.store(true, Ordering::Relaxed);
                    }
                    wake = wake.min(d);
                }
                if !may_prune(now) {
                    sh.may_prune.store(false, Ordering::Relaxed);
                }
                let due = next_report.filter(|&at| now >= at);
                // Once the search is ending, the monitor has had its say: it is not called again.
                if !sh.halt.load(Ordering::Relaxed) {
                    let playouts = sh.playouts.load(Ordering::Relaxed).min(sh.limit);
                    let info = due.map(|_| root_info(sh.tree, root, playouts));
                    if monitor(info.as_ref()) == Control::Stop {
                        sh.halt.store(true, Ordering::Relaxed);
                    }
                }
                if let (Some(at), Some(every)) = (due, interval) {
                    next_report = Some(at.max(now) + every);
                }
                if let Some(at) = next_report {
                    wake = wake.min(at);
                }
                std::thread::park_timeout(
                    wake.saturating_duration_since(Instant::now())
                        .max(Duration::from_micros(200)),
                );
            }
        });
        // A worker that ends at the limit has counted one playout too many.
        playouts = sh.playouts.load(Ordering::Relaxed).min(limit);
        longest_step = longest_step.max(Duration::from_nanos(
            sh.longest_step.load(Ordering::Relaxed),
        ));
        let ended = sh.halt.load(Ordering::Relaxed)
            || stop.load(Ordering::Relaxed)
            || playouts >= limit
            || tree.node(tree.root()).proof().is_some();
        if ended || !(tree.is_full() && sh.may_prune.load(Ordering::Relaxed)) {
            return Run {
                playouts,
                longest_step,
            };
        }
        let began = Instant::now();
        let pruned = tree.prune();
        last_prune = began.elapsed();
        can_prune = pruned.after <= tree.capacity() / 2;
        log::debug!(
            "search: tree full after {}: {} nodes pruned to {} (children kept from {} visits) in {:.3}s",
            crate::notation::count(playouts, "playout"),
            pruned.before,
            pruned.after,
            pruned.min_visits,
            last_prune.as_secs_f64()
        );
    }
}

/// What [`run`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Playouts done.
    pub playouts: u64,
    /// Under a time limit, the longest time one worker took between two of its checks of the deadline: one
    /// playout, and any time the operating system did not run the worker (zero without a time limit).
    pub longest_step: Duration,
}

/// The principal variation from node `id`: most visited children, as deep as the tree goes.
fn pv_from(tree: &Tree, id: u32, out: &mut Vec<(Color, Move)>, visits: &mut Vec<u32>) {
    let mut id = id;
    loop {
        let node = tree.node(id);
        if node.state() != EXPANDED || node.children().is_empty() {
            return;
        }
        let best = best_child(tree, id);
        let b = tree.node(best);
        if b.visits() == 0 {
            return;
        }
        out.push((b.mover(), b.mv()));
        visits.push(b.visits());
        id = best;
    }
}

/// The child of `id` to play: a proven win (a move that ends the game at once first), otherwise the most visited
/// child not proven lost, otherwise the most visited.
pub fn best_child(tree: &Tree, id: u32) -> u32 {
    let node = tree.node(id);
    let children = node.children();
    let me = tree.node(children.start).mover();
    let key = |c: u32| {
        let n = tree.node(c);
        let (class, quick) = match n.proof() {
            Some(Outcome::Win(w)) if w == me => (
                3,
                u8::from(n.state() == EXPANDED && n.children().is_empty()),
            ),
            Some(Outcome::Win(_)) => (0, 0),
            _ => (1, 0),
        };
        (
            class,
            quick,
            n.visits(),
            (n.value().unwrap_or(0.0) * 1e6) as u32,
        )
    };
    children
        .max_by_key(|&c| key(c))
        .expect("an expanded node with children")
}

/// What the played root move lost against the best one, as a share of a win, with the standard error of that
/// difference: 0 when they are the same move (the search's first choice is never marked), `None` when the played
/// move has no value (the search never reached it). A proven value has no error; an unproven one the binomial
/// error of its visits' results (`sqrt(w (1 - w) / n)`), taken as independent for the two moves. A loss is never
/// below 0: a played move that reads better than the best one on fewer visits lost nothing.
pub fn judged_loss(
    best: (Move, Option<&MoveStats>),
    played: (Move, Option<&MoveStats>),
) -> Option<(f64, f64)> {
    if best.0 == played.0 {
        return Some((0.0, 0.0));
    }
    let (b, p) = (best.1?, played.1?);
    if p.proof.is_none() && p.visits == 0 {
        return None;
    }
    let error = |m: &MoveStats| {
        if m.proof.is_some() {
            0.0
        } else {
            let w = f64::from(m.winrate);
            (w * (1.0 - w) / f64::from(m.visits.max(1))).sqrt()
        }
    };
    let loss = (f64::from(b.winrate) - f64::from(p.winrate)).max(0.0);
    Some((loss, error(b).hypot(error(p))))
}

/// The loss of a placement judged by several independent searches, each `(loss, error)` of [`judged_loss`]: their
/// mean, with the larger of two errors of that mean, the binomial one of the searches' visits and the one their
/// spread shows (for two searches, half their difference: the run-to-run noise that the visits alone do not
/// see). A placement that one of two searches ranks first so never reads as lost beyond its error.
pub fn combined_loss(parts: &[(f64, f64)]) -> Option<(f64, f64)> {
    if parts.is_empty() {
        return None;
    }
    let n = parts.len() as f64;
    let mean = parts.iter().map(|p| p.0).sum::<f64>() / n;
    let binomial = parts.iter().map(|p| p.1 * p.1).sum::<f64>().sqrt() / n;
    let spread = if parts.len() > 1 {
        let var = parts.iter().map(|p| (p.0 - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (var / n).sqrt()
    } else {
        0.0
    };
    Some((mean, binomial.max(spread)))
}

/// The root as the protocol layer reports it.
pub fn root_info(tree: &Tree, root: &Position, playouts: u64) -> RootInfo {
    let node = tree.node(tree.root());
    let mut info = RootInfo {
        visits: u64::from(node.visits()),
        playouts,
        nodes: tree.used(),
        proof: node.proof(),
        moves: Vec::new(),
        priors: Vec::new(),
    };
    if node.state() != EXPANDED || node.children().is_empty() {
        return info;
    }
    let me = root.to_move();
    let best = best_child(tree, tree.root());
    info.priors = node
        .children()
        .map(|c| (tree.node(c).mv(), tree.node(c).prior()))
        .collect();
    for c in node.children() {
        let child = tree.node(c);
        if child.visits() == 0 && c != best {
            continue;
        }
        let mut pv = vec![(me, child.mv())];
        let mut pv_visits = vec![child.visits()];
        pv_from(tree, c, &mut pv, &mut pv_visits);
        info.moves.push(MoveStats {
            mv: child.mv(),
            visits: child.visits(),
            winrate: match child.proof() {
                Some(Outcome::Win(w)) => f32::from(u8::from(w == me)),
                Some(Outcome::Draw) => 0.5,
                None => child.value().unwrap_or(0.5),
            },
            prior: child.prior(),
            proof: child.proof(),
            pv,
            pv_visits,
        });
    }
    // The move that would be played first, then by visits.
    let best_mv = tree.node(best).mv();
    info.moves
        .sort_by_key(|m| (m.mv != best_mv, std::cmp::Reverse(m.visits)));
    info
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;

    use super::*;
    use crate::rules::Geometry;

    /// A node that another thread has just expanded as a finished game can look, to a thread that read it in
    /// between, like a node with no children and no proof. The descent must end there, with the game's result,
    /// and not wander off to node 0 playing moves onto occupied points (which corrupted the position and hung
    /// the search in a real match).
    #[test]
    fn descent_stops_at_a_node_without_children_or_proof() {
        // 2x2, Black to move: X at A1 and B1, O at B2. The only move, A2, captures O's last stone and wins.
        let geo = Arc::new(Geometry::square(2).unwrap());
        let stones = [
            Some(Color::Black),
            Some(Color::Black),
            None,
            Some(Color::White),
        ];
        let root = Position::setup(geo, &stones, Color::Black, false);
        let a2 = root.empties()[0];
        assert_eq!(root.legal_moves(), vec![Move::Place(a2)]);

        let mut tree = Tree::new(16);
        tree.reset(Color::White);
        let first = tree
            .alloc_children(&[(Move::Place(a2), 1.0)], Color::Black)
            .unwrap();
        assert!(tree.node(0).try_begin_expand());
        tree.node(0).finish_expand(first, 1);
        // The finished game as the racing thread saw it: expanded, no children, proof not yet visible.
        assert!(tree.node(first).try_begin_expand());
        tree.node(first).finish_expand(0, 0);

        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let cfg = Config::default();
            let never = AtomicBool::new(false);
            let sh = Shared {
                leaves: leaves_of(&cfg, root.geometry().len()).with_move_cap(200),
                ..Shared::new(&tree, &root, &cfg, &never, (0, u64::MAX), None)
            };
            let mut w = Worker {
                pos: root.clone(),
                path: Vec::new(),
                moves: Vec::new(),
                buf: Vec::new(),
                rng: Rng::new(1),
                net: crate::net::Scratch::default(),
            };
            iterate(&sh, &mut w);
            let valid = w.pos.check_invariants();
            let stats = (tree.node(0).stats(), tree.node(first).stats());
            tx.send((w.path.clone(), valid, w.pos.winner(), stats))
                .unwrap();
        });
        // Before the fix the descent looped (release) or panicked on an illegal placement (debug): either way no
        // answer comes.
        let (path, valid, winner, stats) = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the iteration ends");
        assert_eq!(path, vec![0, first]);
        assert_eq!(valid, Ok(()));
        assert_eq!(winner, Some(Color::Black));
        // One visit each; the win counts WIN for Black (the child's mover) and 0 for the root's mover, White.
        assert_eq!(stats, ((1, 0), (1, WIN)));
    }
}
