//! What evaluates the leaves of a tree search: where a new node's priors come from and what a leaf is worth. The
//! search ([`super::mcts`]) asks [`Leaves`] and never looks at which evaluator it is, as lc0's backends and
//! KataGo's NNEvaluator serve their searches:
//! - the network ([`NetEval`]: float or integer, through its cache): its policy gives the priors and its value
//!   (mixed with a playout by lambda) the leaf's;
//! - the knowledge of the main player without the network: handmade or learned priors and biased playouts;
//! - plain UCT's: every move at a uniform prior, tried in random order, and uniformly random playouts.

use std::sync::Arc;

use crate::net::Scratch as NetScratch;
use crate::rng::Rng;
use crate::rules::{Color, Move, Outcome, Point, Position};

use super::evaluator::NetEval;
use super::learned::Model;
use super::playout::random_playout;
use super::policy::{PriorWeights, biased_playout, priors, uniform};

/// The exploration constant of a search with the handmade priors, and the default's (`Config::default`).
pub const HANDMADE_C_PUCT: f32 = 1.0;

/// The first-play urgency reduction of a search with the handmade priors, and the default's.
pub const HANDMADE_FPU_REDUCTION: f32 = 0.2;

/// Where the tree's priors come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Priors {
    /// The hand-set weights of the kinds of placement ([`PriorWeights`]).
    Handmade,
    /// A model of placement features fitted to self-play ([`Model`]).
    Learned(Arc<Model>),
}

impl Priors {
    /// The parameter value naming these priors: `handmade` or `learned`.
    pub fn name(&self) -> &'static str {
        match self {
            Priors::Handmade => "handmade",
            Priors::Learned(_) => "learned",
        }
    }

    /// The exploration constant of a search with these priors: 1 with the handmade priors (the engine before the
    /// learned priors, kept as the baseline, though 0.7 measured stronger with them on hex-7), and with the learned
    /// ones [`LEARNED_C_PUCT`], chosen among the values tried with them on hex-7
    /// (docs/results/2026-12-02-exploration-constant.md: 0.2 and 0.3 scored alike, 0.15 and 0.4 lower): they are
    /// sharper and right more often, so the search does better to follow them more closely.
    pub fn c_puct(&self) -> f32 {
        match self {
            Priors::Handmade => HANDMADE_C_PUCT,
            Priors::Learned(_) => LEARNED_C_PUCT,
        }
    }

    /// The first-play urgency reduction of a search with these priors: 0.2 with the handmade priors (the engine
    /// before the learned priors), and with the learned ones [`LEARNED_FPU_REDUCTION`], chosen on hex-7
    /// (docs/results/2026-12-02-first-play-urgency.md: 0.1, 0.4 and 0.6 tried at cpuct 0.3). An unvisited move is
    /// valued further below its parent, so the search widens less and leans on the priors' first choices.
    pub fn fpu_reduction(&self) -> f32 {
        match self {
            Priors::Handmade => HANDMADE_FPU_REDUCTION,
            Priors::Learned(_) => LEARNED_FPU_REDUCTION,
        }
    }
}

/// The exploration constant of the learned priors (see [`Priors::c_puct`]).
pub const LEARNED_C_PUCT: f32 = 0.3;

/// The first-play urgency reduction of the learned priors (see [`Priors::fpu_reduction`]).
pub const LEARNED_FPU_REDUCTION: f32 = 0.4;

/// Scratch space of one search thread.
pub(super) struct Worker {
    pub(super) pos: Position,
    pub(super) path: Vec<u32>,
    pub(super) moves: Vec<(Move, f32)>,
    pub(super) buf: Vec<Point>,
    pub(super) rng: Rng,
    pub(super) net: NetScratch,
}

impl Worker {
    pub(super) fn new(root: &Position, seed: u64) -> Worker {
        Worker {
            pos: root.clone(),
            path: Vec::with_capacity(64),
            moves: Vec::with_capacity(root.geometry().len()),
            buf: Vec::with_capacity(root.geometry().len()),
            rng: Rng::new(seed),
            net: NetScratch::default(),
        }
    }
}

/// The legal moves of `pos` with `priors` (the handmade ones with `weights`, or learned), best first; empty when the
/// game is over.
pub fn move_priors(
    priors_of: &Priors,
    weights: &PriorWeights,
    pos: &Position,
    out: &mut Vec<(Move, f32)>,
) {
    match priors_of {
        Priors::Handmade => priors(pos, weights, out),
        Priors::Learned(model) => model.priors(pos, out),
    }
}

/// What a descent found at its end: a game's result, or an evaluator's value for a side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Leaf {
    Outcome(Outcome),
    /// The chance that this colour wins.
    Value(Color, f32),
}

impl Leaf {
    /// Black's share of a win.
    pub(super) fn black(self) -> f32 {
        match self {
            Leaf::Outcome(Outcome::Win(Color::Black)) => 1.0,
            Leaf::Outcome(Outcome::Win(Color::White)) => 0.0,
            Leaf::Outcome(Outcome::Draw) => 0.5,
            Leaf::Value(Color::Black, v) => v,
            Leaf::Value(Color::White, v) => 1.0 - v,
        }
    }
}

/// The evaluator of a search's leaves, fixed while it runs.
#[derive(Clone, Copy, Debug)]
pub(super) enum Leaves<'a> {
    /// The network, and the playouts its lambda mixes in.
    Network(&'a NetEval, Playouts),
    /// Handmade priors (with their weights) or learned ones, and playouts.
    Knowledge(&'a Priors, &'a PriorWeights, Playouts),
    /// Plain UCT: uniform priors in random order, uniform playouts.
    Uniform(Playouts),
}

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Playouts {
    /// Legal candidates a move looks at before settling for a non-capture; 0: uniformly at random.
    candidates: usize,
    /// Placements after which a playout stops.
    move_cap: usize,
}

impl Playouts {
    /// Playouts that look at `candidates` legal points a move (0: uniformly random ones), capped at 50 placements
    /// a cell of the board.
    pub(super) fn new(candidates: usize, cells: usize) -> Playouts {
        Playouts {
            candidates,
            move_cap: cells * 50,
        }
    }
}

impl<'a> Leaves<'a> {
    /// The same with playouts capped at `move_cap` placements.
    #[cfg(test)]
    pub(super) fn with_move_cap(self, move_cap: usize) -> Leaves<'a> {
        let cap = |p: Playouts| Playouts { move_cap, ..p };
        match self {
            Leaves::Network(e, p) => Leaves::Network(e, cap(p)),
            Leaves::Knowledge(priors, weights, p) => Leaves::Knowledge(priors, weights, cap(p)),
            Leaves::Uniform(p) => Leaves::Uniform(cap(p)),
        }
    }

    /// The moves of `w.pos` with their priors into `w.moves`, best first (plain UCT's in random order, the pie rule's
    /// swap among them), and the side to move's value when the evaluator computed one on the way (the network).
    pub(super) fn priors(&self, w: &mut Worker) -> Option<f32> {
        match self {
            Leaves::Network(eval, _) => Some(net_priors(eval, w)),
            Leaves::Knowledge(priors_of, weights, _) => {
                move_priors(priors_of, weights, &w.pos, &mut w.moves);
                None
            }
            Leaves::Uniform(_) => {
                uniform(&w.pos, &mut w.moves);
                // Plain UCT tries unvisited moves in random order.
                for i in (1..w.moves.len()).rev() {
                    let j = w.rng.below(i + 1);
                    w.moves.swap(i, j);
                }
                None
            }
        }
    }

    /// True when the search adds the pie rule's swap to [`Leaves::priors`]'s moves itself (plain UCT's uniform list
    /// has it already).
    pub(super) fn adds_swap(&self) -> bool {
        !matches!(self, Leaves::Uniform(_))
    }

    /// What the leaf `w.pos`, not expanded, is worth: the network's value, or a playout's result.
    pub(super) fn leaf(&self, w: &mut Worker) -> Leaf {
        match self {
            Leaves::Network(_, _) if w.pos.winner().is_some() => {
                Leaf::Outcome(w.pos.winner().map_or(Outcome::Draw, Outcome::Win))
            }
            Leaves::Network(eval, _) => {
                let me = w.pos.to_move();
                let v = if eval.lambda < 1.0 {
                    eval.evaluate(&w.pos, &mut w.net).value
                } else {
                    0.5
                };
                self.mix(w, me, v)
            }
            Leaves::Knowledge(..) | Leaves::Uniform(_) => Leaf::Outcome(self.playout(w)),
        }
    }

    /// The value `v` for `me` that [`Leaves::priors`] gave, as the leaf's worth: mixed with a playout from `w.pos`
    /// by the network's lambda.
    pub(super) fn mix(&self, w: &mut Worker, me: Color, v: f32) -> Leaf {
        let lambda = match self {
            Leaves::Network(eval, _) => eval.lambda,
            _ => 0.0,
        };
        if lambda <= 0.0 {
            return Leaf::Value(me, v);
        }
        let z = match self.playout(w) {
            Outcome::Win(c) if c == me => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        };
        Leaf::Value(me, (1.0 - lambda) * v + lambda * z)
    }

    /// Plays the rest of the game from `w.pos` and returns how it ended.
    pub(super) fn playout(&self, w: &mut Worker) -> Outcome {
        // The generator's state stays in a local for the whole playout, out of the worker's memory.
        let mut rng = w.rng.clone();
        let outcome = self.playout_with(&mut w.pos, &mut rng, &mut w.buf);
        w.rng = rng;
        outcome
    }

    /// A playout from `pos` with the generator `rng` and the buffer `buf`.
    pub(super) fn playout_with(
        &self,
        pos: &mut Position,
        rng: &mut Rng,
        buf: &mut Vec<Point>,
    ) -> Outcome {
        let p = match self {
            Leaves::Network(_, p) | Leaves::Knowledge(_, _, p) | Leaves::Uniform(p) => p,
        };
        if p.candidates > 0 {
            biased_playout(pos, rng, p.candidates, buf, p.move_cap)
        } else {
            random_playout(pos, rng, buf, p.move_cap).outcome
        }
    }
}

/// The network's evaluation of `w.pos`: the priors of its legal moves into `w.moves`, sorted best first, and the
/// side to move's chance to win.
fn net_priors(eval: &NetEval, w: &mut Worker) -> f32 {
    w.moves.clear();
    if let Some(winner) = w.pos.winner() {
        // A finished game has no moves (the network's policy would still offer the placements of the extra turn
        // that the winning capture earned) and is worth what its end says, not what the network guesses.
        return if winner == w.pos.to_move() { 1.0 } else { 0.0 };
    }
    let e = eval.evaluate(&w.pos, &mut w.net);
    if e.policy.is_empty() {
        if let Some(Move::Pass) = w.pos.legal_moves().first() {
            w.moves.push((Move::Pass, 1.0));
        }
    } else {
        w.moves
            .extend(e.policy.iter().map(|&(p, prior)| (Move::Place(p), prior)));
        // Best first; equal priors in point order.
        w.moves.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    e.value
}
