//! Gumbel root search for self-play (Danihelka, Guez, Schrittwieser and Silver, "Policy improvement by planning
//! with Gumbel", ICLR 2022; the `gumbel_muzero_policy` of google-deepmind/mctx): a second way of searching the
//! same tree with the same evaluator as [`super::mcts`].
//!
//! At the root, `considered` moves are sampled without replacement by Gumbel-top-k on the priors' logits, and
//! Sequential Halving spreads the simulations over them: each phase gives every move still in the running the same
//! visits, then keeps the better half by `gumbel + logit + sigma(q)`. Below the root every simulation is the usual
//! PUCT descent ([`Config::root_only`] sends it into the move chosen). The move played is the last one standing,
//! and the policy target is the improved policy `softmax(logit + sigma(completed q))`, where a move the search never
//! reached gets the mixed value of the root. That target improves on the priors however few the simulations, which
//! is what lets self-play run at 16 to 32 simulations a move where PUCT's visit counts need hundreds.

use crate::rng::Rng;
use crate::rules::{Game, Move, Outcome, Status};

use super::mcts::{self, Config, Flavor, Simulator};
use super::tree::{EXPANDED, Tree};
use super::{Searcher, Setup};

/// The settings of a Gumbel root search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gumbel {
    /// Simulations a move, beside the root's own evaluation.
    pub simulations: u32,
    /// Moves sampled at the root (`m`; fewer when fewer are legal).
    pub considered: usize,
}

/// What a Gumbel root search chose.
#[derive(Clone, Debug, PartialEq)]
pub struct GumbelResult {
    /// The move to play.
    pub best: Move,
    /// The improved policy over every root move, summing to 1 (empty when the move was forced).
    pub policy: Vec<(Move, f32)>,
    /// Simulations run.
    pub simulations: u32,
}

/// The weight of the completed Q-values against the logits (mctx's `value_scale`).
const VALUE_SCALE: f32 = 0.1;
/// Visits added to the most visited move's in the Q-values' weight (mctx's `maxvisit_init`).
const MAXVISIT_INIT: f32 = 50.0;
/// Mixed into a search's seed for its Gumbel noise.
const GUMBEL_SEED: u64 = 0x6a09_e667_f3bc_c908;

/// The Sequential Halving schedule of `simulations` simulations over `considered` moves: for each simulation, the
/// visits a move must have had to be chosen for it (mctx's `get_sequence_of_considered_visits`). Each phase gives
/// the moves still in the running `max(1, simulations / (ceil(log2(considered)) * running))` more visits each, then
/// halves them (to two at least).
pub fn schedule(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let phases = considered.next_power_of_two().trailing_zeros() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut running = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (phases * running)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..running]);
            for v in &mut visits[..running] {
                *v += 1;
            }
        }
        running = (running / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// The root's moves as the Gumbel search weighs them.
struct Root {
    ids: Vec<u32>,
    moves: Vec<Move>,
    logits: Vec<f32>,
    /// The priors, the logits' softmax.
    priors: Vec<f32>,
    /// The Gumbel noise; minus infinity for a move not sampled.
    gumbel: Vec<f32>,
}

/// The completed, rescaled and weighted Q-values of the root's moves (mctx's `qtransform_completed_by_mix_value`):
/// a visited move's mean value for the side to move, an unvisited one the root's mixed value (the network's value
/// `raw` with the visited moves' values weighted by their priors), all rescaled to 0..1 and scaled by
/// `(MAXVISIT_INIT + most visits) * VALUE_SCALE`.
fn completed_q(tree: &Tree, root: &Root, raw: f32) -> Vec<f32> {
    let me = tree.node(root.ids[0]).mover();
    let stats: Vec<(u32, f32)> = root
        .ids
        .iter()
        .map(|&c| {
            let n = tree.node(c);
            let q = match n.proof() {
                Some(Outcome::Win(w)) => f32::from(u8::from(w == me)),
                Some(Outcome::Draw) => 0.5,
                None => n.value().unwrap_or(0.0),
            };
            let visits = if n.proof().is_some() {
                n.visits().max(1)
            } else {
                n.visits()
            };
            (visits, q)
        })
        .collect();
    let priors = &root.priors;
    let total: u32 = stats.iter().map(|s| s.0).sum();
    let (mut weight, mut weighted) = (0.0f32, 0.0f32);
    for (s, p) in stats.iter().zip(priors) {
        if s.0 > 0 {
            weight += p.max(f32::MIN_POSITIVE);
            weighted += p.max(f32::MIN_POSITIVE) * s.1;
        }
    }
    let mixed = if weight > 0.0 {
        (raw + total as f32 * weighted / weight) / (total as f32 + 1.0)
    } else {
        raw
    };
    let q: Vec<f32> = stats
        .iter()
        .map(|s| if s.0 > 0 { s.1 } else { mixed })
        .collect();
    let low = q.iter().copied().fold(f32::INFINITY, f32::min);
    let high = q.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let most = stats.iter().map(|s| s.0).max().unwrap_or(0);
    let scale = (MAXVISIT_INIT + most as f32) * VALUE_SCALE;
    q.iter()
        .map(|&x| scale * (x - low) / (high - low).max(1e-8))
        .collect()
}

fn softmax(x: &[f32]) -> Vec<f32> {
    let top = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = x.iter().map(|&v| (v - top).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.iter().map(|&v| v / sum).collect()
}

/// The index of the move among those with `visits` visits whose `gumbel + logit + q` is highest (mctx's
/// `score_considered`).
fn pick(tree: &Tree, root: &Root, q: &[f32], visits: u32) -> Option<usize> {
    (0..root.ids.len())
        .filter(|&i| root.gumbel[i].is_finite() && tree.node(root.ids[i]).visits() == visits)
        .max_by(|&a, &b| {
            let score = |i: usize| root.gumbel[i] + root.logits[i] + q[i];
            score(a).total_cmp(&score(b))
        })
}

impl Searcher {
    /// Chooses a move for the side to move of `game` by a Gumbel root search of `gumbel` on `setup`'s tree settings
    /// and evaluator (one thread, a fresh tree), its noise and simulations seeded with `seed`. `None` when the game
    /// is over; a forced move (a pass, a single legal move) is answered without a search and with no policy.
    pub fn gumbel(
        &mut self,
        game: &Game,
        setup: &Setup,
        gumbel: Gumbel,
        seed: u64,
    ) -> Option<GumbelResult> {
        let pos = game.position();
        let forced = |mv| {
            Some(GumbelResult {
                best: mv,
                policy: Vec::new(),
                simulations: 0,
            })
        };
        match pos.status() {
            Status::Over(_) => return None,
            Status::MustPass => return forced(Move::Pass),
            Status::Ongoing => {}
        }
        let legal = pos.legal_moves();
        if legal.len() == 1 {
            return forced(legal[0]);
        }
        let mut config = Config {
            flavor: Flavor::Knowledge,
            ..setup.config.clone()
        };
        self.forget();
        self.prepare(game, Flavor::Knowledge, setup.tree_nodes);
        let tree = &self.kept.as_ref().expect("prepared").tree;
        let mut simulator = Simulator::new(pos);
        let mut run = |tree: &Tree, config: &Config, k: u64| {
            simulator.simulate(
                tree,
                pos,
                config,
                seed.wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            );
        };
        // The root's expansion: its moves and their priors.
        run(tree, &config, 0);
        let node = tree.node(tree.root());
        if node.state() != EXPANDED || node.children().is_empty() {
            return forced(legal[0]);
        }
        let ids: Vec<u32> = node.children().collect();
        let mut rng = Rng::new(seed ^ GUMBEL_SEED);
        let mut root = Root {
            moves: ids.iter().map(|&c| tree.node(c).mv()).collect(),
            logits: ids
                .iter()
                .map(|&c| tree.node(c).prior().max(1e-12).ln())
                .collect(),
            gumbel: ids
                .iter()
                .map(|_| {
                    let u = rng.unit().clamp(1e-12, 1.0 - 1e-12);
                    -(-u.ln()).ln() as f32
                })
                .collect(),
            priors: Vec::new(),
            ids,
        };
        root.priors = softmax(&root.logits);
        // Gumbel-top-k: the moves sampled are the `considered` best by noise plus logit.
        let considered = gumbel.considered.clamp(1, root.ids.len());
        let mut order: Vec<usize> = (0..root.ids.len()).collect();
        order.sort_by(|&a, &b| {
            (root.gumbel[b] + root.logits[b]).total_cmp(&(root.gumbel[a] + root.logits[a]))
        });
        for &i in &order[considered..] {
            root.gumbel[i] = f32::NEG_INFINITY;
        }
        // The network's own value of the root for the side to move, or the root's first result.
        let raw = match &config.net {
            Some(eval) => {
                eval.evaluate(pos, &mut crate::net::Scratch::default())
                    .value
            }
            None => {
                let n = tree.node(tree.root());
                let v = n.value().unwrap_or(0.5);
                if n.mover() == pos.to_move() {
                    v
                } else {
                    1.0 - v
                }
            }
        };
        let mut done = 0;
        for (k, &visits) in schedule(considered, gumbel.simulations as usize)
            .iter()
            .enumerate()
        {
            if tree.node(tree.root()).proof().is_some() {
                break;
            }
            let q = completed_q(tree, &root, raw);
            let Some(i) = pick(tree, &root, &q, visits) else {
                break;
            };
            config.root_only = Some(root.moves[i]);
            run(tree, &config, k as u64 + 1);
            done += 1;
        }
        let q = completed_q(tree, &root, raw);
        let best = if tree.node(tree.root()).proof().is_some() {
            tree.node(mcts::best_child(tree, tree.root())).mv()
        } else {
            let most = root
                .ids
                .iter()
                .zip(&root.gumbel)
                .filter(|(_, g)| g.is_finite())
                .map(|(&c, _)| tree.node(c).visits())
                .max()
                .unwrap_or(0);
            pick(tree, &root, &q, most).map_or(root.moves[order[0]], |i| root.moves[i])
        };
        let improved: Vec<f32> = root.logits.iter().zip(&q).map(|(l, q)| l + q).collect();
        Some(GumbelResult {
            best,
            policy: root.moves.iter().copied().zip(softmax(&improved)).collect(),
            simulations: done,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Family, built_in};
    use crate::notation::parse_rows;
    use crate::rules::{Color, Geometry, Position, Shape};
    use crate::search::{NET_C_PUCT, NET_FPU_REDUCTION, NetEval};

    fn game(shape: Shape, rows: &str) -> Game {
        let geo = Geometry::shared(shape).unwrap();
        let stones = parse_rows(&geo, rows).unwrap();
        Game::from_position(Position::setup(geo, &stones, Color::Black, false))
    }

    fn network_setup() -> Setup {
        let mut setup = Setup::default();
        setup.config.net = Some(NetEval::new(
            built_in(Family::Hex),
            0.0,
            crate::net::Precision::Float,
        ));
        setup.config.expand_visits = 1;
        setup.config.c_puct = NET_C_PUCT;
        setup.config.fpu_reduction = NET_FPU_REDUCTION;
        setup
    }

    #[test]
    fn a_placement_that_wins_at_once_is_played_when_every_move_is_considered() {
        // C5 joins A5 B5 into three stones next to White's only stone: it captures it and wins.
        let g = game(Shape::square(5), "XX.O./...../...../...../.....");
        let legal = g.position().legal_moves().len();
        let mut searcher = Searcher::default();
        let gumbel = Gumbel {
            simulations: 64,
            considered: legal,
        };
        let r = searcher.gumbel(&g, &Setup::default(), gumbel, 3).unwrap();
        let c5 = Move::Place(g.position().geometry().parse_vertex("C5").unwrap());
        assert_eq!(r.best, c5);
        let top = r.policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(top.0, c5, "{:?}", r.policy);
    }

    #[test]
    fn the_improved_policy_covers_every_legal_move_sums_to_one_and_repeats_for_a_seed() {
        let g = game(
            Shape::Hex { side: 5 },
            "...../....../...X.../......../........./......../....O../....../.....",
        );
        let setup = network_setup();
        let gumbel = Gumbel {
            simulations: 32,
            considered: 16,
        };
        let mut searcher = Searcher::default();
        let r = searcher.gumbel(&g, &setup, gumbel, 11).unwrap();
        let legal = g.position().legal_moves();
        assert_eq!(r.policy.len(), legal.len());
        assert!(
            r.policy
                .iter()
                .all(|(mv, p)| legal.contains(mv) && *p >= 0.0)
        );
        let sum: f32 = r.policy.iter().map(|m| m.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        assert!(legal.contains(&r.best));
        assert_eq!(r.simulations, 32);
        // The same seed, the same search, in a searcher that searched before.
        assert_eq!(searcher.gumbel(&g, &setup, gumbel, 11).unwrap(), r);
        // A game over has no move.
        let mut over = game(Shape::square(5), "XX.O./...../...../...../.....");
        let c5 = Move::Place(over.position().geometry().parse_vertex("C5").unwrap());
        over.play(Color::Black, c5).unwrap();
        assert_eq!(searcher.gumbel(&over, &Setup::default(), gumbel, 1), None);
    }

    #[test]
    fn the_schedule_halves_the_moves_as_mctx_does() {
        // mctx's get_sequence_of_considered_visits(4, 16): two phases of 2 visits each to 4, then 2 moves.
        assert_eq!(
            schedule(4, 16),
            vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        );
        // (16, 32): one visit each to 16 moves, then to 8, then two each to 4, where the budget ends.
        let s = schedule(16, 32);
        assert_eq!(&s[..16], &[0; 16]);
        assert_eq!(&s[16..24], &[1; 8]);
        assert_eq!(&s[24..], &[2, 2, 2, 2, 3, 3, 3, 3]);
        assert_eq!(schedule(1, 3), vec![0, 1, 2]);
        assert_eq!(schedule(2, 0), Vec::<u32>::new());
    }

    #[test]
    fn the_softmax_sums_to_one_and_keeps_the_order() {
        let p = softmax(&[1.0, 3.0, 2.0]);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[1] > p[2] && p[2] > p[0]);
    }
}
