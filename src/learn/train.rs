//! Fitting the learned priors: softmax regression of the search's visit shares on placement features, with an L2
//! penalty, by full-batch gradient descent (Adam steps). It is Coulom's generalised Bradley-Terry model (a move's
//! strength the product of its features' strengths) fitted to whole visit distributions instead of the one move
//! played, which is why it is not fitted by minorization-maximization: MM's closed-form updates are for counts of
//! wins, and visit shares are fractional targets; the gradient of the softmax handles them directly, and the
//! penalty (a Gaussian prior on the log-strengths, as Coulom's virtual games are) keeps rare patterns near zero.
//!
//! Every sum runs in a fixed order on one thread, so a fit depends only on the data and the seed.

use crate::rng::splitmix64;
use crate::search::learned::{Context, MAX_ACTIVE, Model, feature_count, placement_features};
use crate::search::policy::{PriorWeights, priors as handmade_priors};

use super::data::GameData;

/// The positions of some games as the fit sees them: the features of every legal placement and its share of the
/// search's visits.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Feature indices of every move, move after move.
    features: Vec<u16>,
    /// Where each move's features start in `features` (one more entry than moves).
    move_start: Vec<u32>,
    /// Where each position's moves start (one more entry than positions).
    position_start: Vec<u32>,
    /// Each move's share of its position's visits.
    target: Vec<f32>,
    /// Each move's handmade prior.
    handmade: Vec<f32>,
    /// Each position's most visited move (the first of equals), as an index among its moves.
    best: Vec<u32>,
}

impl Dataset {
    /// The positions of `games`.
    pub fn new<'a>(games: impl IntoIterator<Item = &'a GameData>) -> Dataset {
        let mut d = Dataset {
            move_start: vec![0],
            position_start: vec![0],
            ..Dataset::default()
        };
        let weights = PriorWeights::default();
        let mut hand = Vec::new();
        let mut f = [0u16; MAX_ACTIVE];
        for game in games {
            for s in &game.samples {
                let total: u64 = s.moves.iter().map(|m| u64::from(m.1)).sum();
                handmade_priors(&s.position, &weights, &mut hand);
                let cx = Context::new(&s.position, s.last);
                for &(mv, visits) in &s.moves {
                    let crate::rules::Move::Place(p) = mv else {
                        continue;
                    };
                    let n = placement_features(&s.position, &cx, p, &mut f).unwrap_or(0);
                    d.features.extend_from_slice(&f[..n]);
                    d.move_start.push(d.features.len() as u32);
                    d.target.push((f64::from(visits) / total as f64) as f32);
                    d.handmade
                        .push(hand.iter().find(|h| h.0 == mv).map_or(0.0, |h| h.1));
                }
                let moves = &s.moves;
                let best = (0..moves.len())
                    .max_by(|&a, &b| moves[a].1.cmp(&moves[b].1).then(b.cmp(&a)))
                    .unwrap_or(0);
                d.best.push(best as u32);
                d.position_start.push(d.target.len() as u32);
            }
        }
        d
    }

    /// Positions held.
    pub fn positions(&self) -> usize {
        self.best.len()
    }

    /// Moves held, over all positions.
    pub fn moves(&self) -> usize {
        self.target.len()
    }

    fn moves_of(&self, position: usize) -> std::ops::Range<usize> {
        self.position_start[position] as usize..self.position_start[position + 1] as usize
    }

    fn features_of(&self, mv: usize) -> &[u16] {
        &self.features[self.move_start[mv] as usize..self.move_start[mv + 1] as usize]
    }
}

/// How well some priors predict the search on a data set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fit {
    /// Mean cross-entropy of the priors against the visit shares, in nats a position (lower is better).
    pub cross_entropy: f64,
    /// Mean log-likelihood of the most visited move, in nats a position (higher is better).
    pub log_likelihood: f64,
    /// Share of positions whose highest prior is the most visited move (a tie of `k` moves counting `1/k`).
    pub accuracy: f64,
}

/// Scores priors given move by move (`prior(move index)`) against the data.
fn evaluate(d: &Dataset, mut prior: impl FnMut(usize) -> f64) -> Fit {
    let mut fit = Fit::default();
    if d.positions() == 0 {
        return fit;
    }
    for pos in 0..d.positions() {
        let moves = d.moves_of(pos);
        let best = moves.start + d.best[pos] as usize;
        // The highest prior, and how many moves share it: a tie counts as a guess among them (the data lists
        // the most visited move first, so taking the first of equals would favour priors that tie).
        let (mut top, mut ties, mut best_prior) = (f64::NEG_INFINITY, 0usize, 0.0);
        for m in moves {
            let p = prior(m).max(1e-12);
            fit.cross_entropy -= f64::from(d.target[m]) * p.ln();
            if m == best {
                fit.log_likelihood += p.ln();
                best_prior = p;
            }
            if p > top {
                (top, ties) = (p, 1);
            } else if p == top {
                ties += 1;
            }
        }
        if best_prior == top {
            fit.accuracy += 1.0 / ties as f64;
        }
    }
    let n = d.positions() as f64;
    fit.cross_entropy /= n;
    fit.log_likelihood /= n;
    fit.accuracy /= n;
    fit
}

/// The fit of `model` to `d`.
pub fn evaluate_model(model: &Model, d: &Dataset) -> Fit {
    let probs = probabilities(
        &model
            .weights
            .iter()
            .map(|&w| f64::from(w))
            .collect::<Vec<_>>(),
        d,
    );
    evaluate(d, |m| probs[m])
}

/// The fit of the handmade priors to `d`.
pub fn evaluate_handmade(d: &Dataset) -> Fit {
    evaluate(d, |m| f64::from(d.handmade[m]))
}

/// The softmax probability of every move of `d` under weights `w`.
fn probabilities(w: &[f64], d: &Dataset) -> Vec<f64> {
    let mut probs = vec![0.0; d.moves()];
    for pos in 0..d.positions() {
        let moves = d.moves_of(pos);
        let mut top = f64::NEG_INFINITY;
        for m in moves.clone() {
            let s: f64 = d.features_of(m).iter().map(|&f| w[usize::from(f)]).sum();
            probs[m] = s;
            top = top.max(s);
        }
        let mut total = 0.0;
        for m in moves.clone() {
            probs[m] = (probs[m] - top).exp();
            total += probs[m];
        }
        for m in moves {
            probs[m] /= total;
        }
    }
    probs
}

/// The settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Full-batch steps.
    pub steps: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// Weight of the L2 penalty, per weight, added to the mean cross-entropy.
    pub l2: f64,
    /// Seed of the starting weights' small random offsets (which break no symmetry the data does not, but make
    /// the seed's part in the result visible and tested).
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            steps: 300,
            learning_rate: 0.05,
            l2: 1e-4,
            seed: 1,
        }
    }
}

/// The penalised loss (mean cross-entropy plus the L2 term) at `w`, and its gradient.
fn loss_and_gradient(w: &[f64], d: &Dataset, l2: f64) -> (f64, Vec<f64>) {
    let probs = probabilities(w, d);
    let n = d.positions().max(1) as f64;
    let mut grad = vec![0.0; w.len()];
    let mut loss = 0.0;
    for (m, &p) in probs.iter().enumerate() {
        let t = f64::from(d.target[m]);
        if t > 0.0 {
            loss -= t * p.max(1e-300).ln();
        }
        let g = (p - t) / n;
        for &f in d.features_of(m) {
            grad[usize::from(f)] += g;
        }
    }
    loss /= n;
    for (g, &x) in grad.iter_mut().zip(w) {
        loss += 0.5 * l2 * x * x;
        *g += l2 * x;
    }
    (loss, grad)
}

/// Fits a model to `d`; `progress` sees each step's number and loss.
pub fn train(d: &Dataset, cfg: &TrainConfig, mut progress: impl FnMut(usize, f64)) -> Model {
    let k = feature_count();
    let mut state = cfg.seed;
    let mut w: Vec<f64> = (0..k)
        .map(|_| (splitmix64(&mut state) >> 11) as f64 / (1u64 << 53) as f64 * 0.02 - 0.01)
        .collect();
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m1 = vec![0.0; k];
    let mut m2 = vec![0.0; k];
    for step in 1..=cfg.steps {
        let (loss, grad) = loss_and_gradient(&w, d, cfg.l2);
        progress(step, loss);
        for i in 0..k {
            m1[i] = b1 * m1[i] + (1.0 - b1) * grad[i];
            m2[i] = b2 * m2[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m1[i] / (1.0 - b1.powi(step as i32));
            let vh = m2[i] / (1.0 - b2.powi(step as i32));
            w[i] -= cfg.learning_rate * mh / (vh.sqrt() + eps);
        }
    }
    Model {
        weights: w.iter().map(|&x| x as f32).collect(),
    }
}

/// The loss of `model` on `d` under the penalty `l2`, as [`train`] minimises it.
pub fn loss(model: &Model, d: &Dataset, l2: f64) -> f64 {
    let w: Vec<f64> = model.weights.iter().map(|&x| f64::from(x)).collect();
    loss_and_gradient(&w, d, l2).0
}

/// True when game `number` is held out of the fit for testing: a tenth of the games, chosen by `seed`.
pub fn held_out(number: u64, seed: u64) -> bool {
    let mut s = seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    splitmix64(&mut s).is_multiple_of(10)
}
