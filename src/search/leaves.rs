//! What evaluates the leaves of a tree search: where a new node's priors come from and what a leaf is worth. The
//! search ([`super::mcts`]) asks [`Leaves`] and never looks at which evaluator it is, as lc0's backends and
//! KataGo's NNEvaluator serve their searches:
//! - the network ([`NetEval`]: float or integer, through its cache): its policy gives the priors and its value
//!   (mixed with a playout by lambda) the leaf's;
//! - the knowledge of the main player without the network: handmade or learned priors and biased playouts;
//! - plain UCT's: every move at a uniform prior, tried in random order, and uniformly random playouts.

use crate::rng::Rng;
use crate::rules::{Color, Move, Outcome, Point, Position};

use super::evaluator::NetEval;
use super::mcts::{Config, Flavor, Worker, move_priors};
use super::playout::random_playout;
use super::policy::{biased_playout, uniform};

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
    /// The priors of the configuration (handmade or learned) and its playouts.
    Knowledge(&'a Config, Playouts),
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

impl<'a> Leaves<'a> {
    /// The evaluator that `cfg` asks for, on a board of `cells` cells.
    pub(super) fn new(cfg: &'a Config, cells: usize) -> Leaves<'a> {
        let move_cap = cells * 50;
        match (cfg.flavor, &cfg.net) {
            (Flavor::Plain, _) => Leaves::Uniform(Playouts {
                candidates: 0,
                move_cap,
            }),
            (Flavor::Knowledge, net) => {
                let playouts = Playouts {
                    candidates: cfg.playout_candidates,
                    move_cap,
                };
                match net {
                    Some(eval) => Leaves::Network(eval, playouts),
                    None => Leaves::Knowledge(cfg, playouts),
                }
            }
        }
    }

    /// The same with playouts capped at `move_cap` placements.
    #[cfg(test)]
    pub(super) fn with_move_cap(self, move_cap: usize) -> Leaves<'a> {
        let cap = |p: Playouts| Playouts { move_cap, ..p };
        match self {
            Leaves::Network(e, p) => Leaves::Network(e, cap(p)),
            Leaves::Knowledge(c, p) => Leaves::Knowledge(c, cap(p)),
            Leaves::Uniform(p) => Leaves::Uniform(cap(p)),
        }
    }

    /// The moves of `w.pos` with their priors into `w.moves`, best first (plain UCT's in random order, the pie rule's
    /// swap among them), and the side to move's value when the evaluator computed one on the way (the network).
    pub(super) fn priors(&self, w: &mut Worker) -> Option<f32> {
        match self {
            Leaves::Network(eval, _) => Some(net_priors(eval, w)),
            Leaves::Knowledge(cfg, _) => {
                move_priors(cfg, &w.pos, &mut w.moves);
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
            Leaves::Network(_, p) | Leaves::Knowledge(_, p) | Leaves::Uniform(p) => p,
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
    let e = eval.evaluate(&w.pos, &mut w.net);
    w.moves.clear();
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
