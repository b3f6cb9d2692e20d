//! Knowledge measured apart from search, on positions the solver settles exactly: how often a policy's favourite
//! placement keeps a won position won (the network's, the learned priors', the handmade priors', and a uniformly
//! random placement's chance), and how well the network's value and a playout estimate predict the exact result.
//!
//! The positions come from uniformly random games on a small board, one position a game at a random turn, so that
//! they are as varied as the board allows; each is solved with every legal placement's value
//! ([`Solver::move_values`]).

use std::sync::Arc;
use std::time::Instant;

use crate::learn::data::{GameData, Sample};
use crate::learn::train::held_out;
use crate::net::{Family, Net, Scratch};
use crate::rng::Rng;
use crate::rules::Game;
use crate::rules::{Geometry, Move, Point, Position, Shape, Status};
use crate::search::learned::Model;
use crate::search::mcts::Config;
use crate::search::policy::{PriorWeights, priors};
use crate::search::random_playout;
use crate::search::{Control, Priors, Request, Searcher, Setup, nodes_for_megabytes};
use crate::solve::{self, Limits, Solver, Value};

/// The most empty points of a board this measures on: each position is solved exactly, move by move.
pub const MAX_CELLS: usize = 20;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Options {
    /// The board (at most [`MAX_CELLS`] points).
    pub shape: Shape,
    /// Positions to sample, one a random game.
    pub positions: usize,
    /// Seed of the random games and of the playouts.
    pub seed: u64,
    /// The network (of the board's family).
    pub net: Arc<Net>,
    /// The learned priors.
    pub model: Arc<Model>,
    /// Random playouts a position for the playout estimate of its value.
    pub playouts: usize,
}

/// How often one policy's favourite placement wins a won position.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyScore {
    /// `network`, `learned priors`, `handmade priors` or `a random placement`.
    pub name: &'static str,
    /// Won positions where its favourite placement wins (for the random placement: the expected count, the sum
    /// over won positions of the share of placements that win).
    pub top_wins: f64,
}

/// How well a value estimate predicts the exact results.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueScore {
    /// `network`, `N playouts` or `the share won` (the same estimate for every position).
    pub name: String,
    /// Seconds its estimates took in all (0 for the share won).
    pub seconds: f64,
    /// Mean log loss (natural log) against the exact result.
    pub log_loss: f64,
    /// Mean squared error against the exact result (0 or 1).
    pub brier: f64,
    /// Share of positions whose result it calls right (above or below one half).
    pub accuracy: f64,
}

/// What [`measure`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Positions measured (with a placement to make and a result that is a win or a loss).
    pub positions: usize,
    /// Of them, won for the side to move.
    pub won: usize,
    /// Drawn positions left out (the rules' ruling 8: no placements for either side).
    pub drawn: usize,
    /// The policies, on the won positions.
    pub policies: Vec<PolicyScore>,
    /// The value estimates, on every position.
    pub values: Vec<ValueScore>,
}

/// Samples the positions, solves them and scores the policies and values.
///
/// # Errors
/// A board larger than [`MAX_CELLS`] points, a network of the other family, or a solver error.
pub fn measure(options: &Options) -> Result<Report, String> {
    let geo = Arc::new(Geometry::new(options.shape).map_err(|e| e.to_string())?);
    if geo.len() > MAX_CELLS {
        return Err(format!(
            "{}: {} points; the knowledge measures solve every position exactly, on boards of at most {MAX_CELLS}",
            options.shape,
            geo.len()
        ));
    }
    let family = Family::of(options.shape);
    if options.net.family() != family {
        return Err(format!(
            "the network is of the {} family, the board {} of the {}",
            options.net.family().name(),
            options.shape,
            family.name()
        ));
    }
    let mut solver = Solver::new(solve::Options::default()).map_err(|e| e.to_string())?;
    // The games and the playouts draw from two generators, so that the positions do not depend on the playouts.
    let mut rng = Rng::new(options.seed);
    let mut playout_rng = Rng::new(options.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut scratch = Scratch::default();
    let handmade = PriorWeights::default();
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    let mut tops = [0.0f64; 4];
    let mut values = [Sums::default(), Sums::default()];
    let (mut positions, mut won, mut drawn) = (0, 0, 0);
    for _ in 0..options.positions {
        let Some((pos, last)) = sample(&geo, &mut rng, &mut buf) else {
            continue;
        };
        let (Some(move_values), _) = solver
            .move_values(&pos, &Limits::default(), &mut |_| {})
            .map_err(|e| e.to_string())?
        else {
            return Err("the solver stopped without a value".to_string());
        };
        let value_of = |p: Point| {
            move_values
                .iter()
                .find(|v| v.mv == Move::Place(p) || v.same_as.contains(&Move::Place(p)))
                .map(|v| v.value)
        };
        let best = move_values
            .iter()
            .map(|v| v.value)
            .max_by_key(|v| match v {
                Value::Win => 2,
                Value::Draw => 1,
                Value::Loss => 0,
            })
            .unwrap_or(Value::Loss);
        if best == Value::Draw {
            drawn += 1;
            continue;
        }
        positions += 1;
        let result = if best == Value::Win { 1.0 } else { 0.0 };
        let clock = Instant::now();
        let e = options.net.evaluate(&pos, last, &mut scratch);
        values[0].seconds += clock.elapsed().as_secs_f64();
        values[0].add(f64::from(e.value), result);
        let clock = Instant::now();
        let estimate = playout_estimate(&pos, options.playouts, &mut playout_rng, &mut buf);
        values[1].seconds += clock.elapsed().as_secs_f64();
        values[1].add(estimate, result);
        if best != Value::Win {
            continue;
        }
        won += 1;
        let wins_with =
            |p: Option<Point>| f64::from(u8::from(p.and_then(value_of) == Some(Value::Win)));
        tops[0] += wins_with(net_favourite(&e.policy));
        moves.clear();
        options.model.priors(&pos, &mut moves);
        tops[1] += wins_with(top_placement(&moves));
        moves.clear();
        priors(&pos, &handmade, &mut moves);
        tops[2] += wins_with(top_placement(&moves));
        let mut placements = Vec::new();
        pos.legal_placements(&mut placements);
        debug_assert!(!placements.is_empty());
        let winning = placements
            .iter()
            .filter(|&&p| value_of(p) == Some(Value::Win))
            .count();
        tops[3] += winning as f64 / placements.len() as f64;
    }
    let names = [
        "network",
        "learned priors",
        "handmade priors",
        "a random placement",
    ];
    Ok(Report {
        positions,
        won,
        drawn,
        policies: names
            .iter()
            .zip(tops)
            .map(|(&name, top_wins)| PolicyScore { name, top_wins })
            .collect(),
        values: vec![
            values[0].score("network".to_string()),
            values[1].score(format!("{} playouts", options.playouts)),
            base_rate(won, positions),
        ],
    })
}

/// The share of won positions as every position's estimate: what a value that knows nothing of the position
/// scores.
fn base_rate(won: usize, positions: usize) -> ValueScore {
    let share = won as f64 / positions.max(1) as f64;
    let mut sums = Sums::default();
    for i in 0..positions {
        sums.add(share, f64::from(u8::from(i < won)));
    }
    sums.score("the share won".to_string())
}

/// The share of `n` uniformly random playouts from `pos` that its side to move wins, pulled half a game towards one
/// half so that its log loss stays finite.
fn playout_estimate(pos: &Position, n: usize, rng: &mut Rng, buf: &mut Vec<Point>) -> f64 {
    let win = Value::Win.outcome(pos.to_move());
    let wins = (0..n)
        .filter(|_| random_playout(&mut pos.clone(), rng, buf, usize::MAX).outcome == win)
        .count();
    (wins as f64 + 0.5) / (n as f64 + 1.0)
}

/// The network's favourite placement.
fn net_favourite(policy: &[(Point, f32)]) -> Option<Point> {
    policy
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|&(p, _)| p)
}

/// The first placement of a list sorted best first.
fn top_placement(moves: &[(Move, f32)]) -> Option<Point> {
    moves.iter().find_map(|&(m, _)| match m {
        Move::Place(p) => Some(p),
        _ => None,
    })
}

/// A position of a uniformly random game at a random turn after the first, with a placement to make, and its last
/// placement; `None` when the game had no such position.
fn sample(
    geo: &Arc<Geometry>,
    rng: &mut Rng,
    buf: &mut Vec<Point>,
) -> Option<(Position, Option<Point>)> {
    let mut pos = Position::new(geo.clone());
    let mut line = Vec::new();
    while !matches!(pos.status(), Status::Over(_)) {
        buf.clear();
        pos.legal_placements(buf);
        let last = match pos.last_move() {
            Some((_, Move::Place(p))) => Some(p),
            _ => None,
        };
        if !buf.is_empty() && last.is_some() {
            line.push((pos.clone(), last));
        }
        let mv = if buf.is_empty() {
            Move::Pass
        } else {
            Move::Place(buf[rng.below(buf.len())])
        };
        pos.play(mv).ok()?;
    }
    if line.is_empty() {
        return None;
    }
    let i = rng.below(line.len());
    Some(line.swap_remove(i))
}

/// Running sums of a value estimate's errors.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    n: usize,
    log_loss: f64,
    brier: f64,
    right: usize,
    seconds: f64,
}

impl Sums {
    fn add(&mut self, estimate: f64, result: f64) {
        let p = estimate.clamp(1e-6, 1.0 - 1e-6);
        self.n += 1;
        self.log_loss -= result * p.ln() + (1.0 - result) * (1.0 - p).ln();
        self.brier += (estimate - result).powi(2);
        self.right += usize::from((estimate > 0.5) == (result > 0.5));
    }

    fn score(self, name: String) -> ValueScore {
        let n = self.n.max(1) as f64;
        ValueScore {
            name,
            log_loss: self.log_loss / n,
            brier: self.brier / n,
            accuracy: self.right as f64 / n,
            seconds: self.seconds,
        }
    }
}

/// What to measure on self-play data ([`measure_data`]).
#[derive(Clone, Debug)]
pub struct DataOptions {
    /// The networks of square and of hexhex boards.
    pub nets: [Arc<Net>; 2],
    /// The learned priors (and the reference search's priors).
    pub model: Arc<Model>,
    /// At most this many positions a board, spread evenly over its held-out games.
    pub positions: usize,
    /// Playouts of the reference search each position's favourite placements are compared with (0: none).
    pub search_playouts: u64,
    /// Random playouts a position for the playout estimate of its value.
    pub playouts: usize,
    /// The seed of the held-out games (as `oust train-net --seed`), of the playouts and of the searches.
    pub seed: u64,
    /// Every game of the data, not only the held-out ones: the data is a held-out set of its own.
    pub all_games: bool,
}

/// What [`measure_data`] found on one board.
#[derive(Clone, Debug, PartialEq)]
pub struct DataReport {
    /// The board.
    pub board: Shape,
    /// Held-out games of the board, and positions measured.
    pub games: usize,
    /// Positions measured.
    pub positions: usize,
    /// For each policy (`network`, `learned priors`, `handmade priors`): its favourite placement is the data's
    /// most visited one, and (with a reference search) the search's best.
    pub policies: Vec<(&'static str, f64, Option<f64>)>,
    /// The value estimates against the games' results.
    pub values: Vec<ValueScore>,
}

/// On the held-out games of self-play data (one game in ten, as `oust train-net` holds them out with the same
/// seed), for each board: how often each policy's favourite placement is the data's most visited one and a
/// reference search's best, and how well the network's value and a playout estimate predict the games' results.
/// Positions of games stopped without a result are left out.
pub fn measure_data(games: &[GameData], options: &DataOptions) -> Vec<DataReport> {
    let mut boards: Vec<Shape> = Vec::new();
    for g in games {
        if !boards.contains(&g.board) {
            boards.push(g.board);
        }
    }
    let mut playout_rng = Rng::new(options.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut scratch = Scratch::default();
    let handmade = PriorWeights::default();
    let mut searcher = Searcher::default();
    let learned = Priors::Learned(options.model.clone());
    let setup = Setup {
        threads: 1,
        tree_nodes: nodes_for_megabytes(256),
        solver_share: 0.1,
        solver_bytes: 64 << 20,
        config: Config {
            c_puct: learned.c_puct(),
            fpu_reduction: learned.fpu_reduction(),
            priors: learned,
            ..Config::default()
        },
        ..Setup::default()
    };
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    let mut reports = Vec::new();
    for board in boards {
        let held: Vec<&GameData> = games
            .iter()
            .filter(|g| {
                g.board == board
                    && g.winner.is_some()
                    && (options.all_games || held_out(g.number, options.seed))
            })
            .collect();
        let samples: Vec<(&GameData, &Sample)> = held
            .iter()
            .flat_map(|g| g.samples.iter().map(move |s| (*g, s)))
            .filter(|(_, s)| s.moves.iter().any(|m| m.1 > 0))
            .collect();
        let step = samples.len().div_ceil(options.positions.max(1)).max(1);
        let net = &options.nets[Family::of(board) as usize];
        let mut agree = [[0usize; 2]; 3];
        let mut values = [Sums::default(), Sums::default()];
        let mut n = 0;
        let mut won = 0;
        for (i, (game, sample)) in samples.iter().step_by(step).enumerate() {
            let pos = &sample.position;
            let result = f64::from(u8::from(game.winner == Some(pos.to_move())));
            n += 1;
            won += usize::from(result > 0.5);
            let most_visited = sample.moves.iter().max_by_key(|m| m.1).map(|m| m.0);
            let best = (options.search_playouts > 0).then(|| {
                let request =
                    Request::playouts(options.search_playouts, options.seed.wrapping_add(i as u64));
                let game = Game::from_position(pos.clone());
                searcher.clear();
                searcher
                    .search(&game, &setup, &request, &mut |_| Control::Continue)
                    .best
            });
            let clock = Instant::now();
            let e = net.evaluate(pos, sample.last.map(|l| l.1), &mut scratch);
            values[0].seconds += clock.elapsed().as_secs_f64();
            values[0].add(f64::from(e.value), result);
            let net_top = net_favourite(&e.policy);
            moves.clear();
            options.model.priors(pos, &mut moves);
            let learned_top = top_placement(&moves);
            moves.clear();
            priors(pos, &handmade, &mut moves);
            let handmade_top = top_placement(&moves);
            for (k, top) in [net_top, learned_top, handmade_top].into_iter().enumerate() {
                let top = top.map(Move::Place);
                agree[k][0] += usize::from(top.is_some() && top == most_visited);
                agree[k][1] += usize::from(top.is_some() && Some(top) == best);
            }
            let clock = Instant::now();
            let estimate = playout_estimate(pos, options.playouts, &mut playout_rng, &mut buf);
            values[1].seconds += clock.elapsed().as_secs_f64();
            values[1].add(estimate, result);
        }
        let share = |k: usize| agree[k][0] as f64 / n.max(1) as f64;
        let search_share =
            |k: usize| (options.search_playouts > 0).then(|| agree[k][1] as f64 / n.max(1) as f64);
        reports.push(DataReport {
            board,
            games: held.len(),
            positions: n,
            policies: ["network", "learned priors", "handmade priors"]
                .into_iter()
                .enumerate()
                .map(|(k, name)| (name, share(k), search_share(k)))
                .collect(),
            values: vec![
                values[0].score("network".to_string()),
                values[1].score(format!("{} playouts", options.playouts)),
                base_rate(won, n),
            ],
        });
    }
    reports
}
