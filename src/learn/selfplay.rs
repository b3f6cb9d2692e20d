//! Self-play games for training data: the engine plays itself at a fixed number of playouts on one thread, from a
//! random opening. A game depends only on the settings and its number, so shards of a run, or a resumed run, make
//! exactly the games of one long run.

use std::sync::Arc;

use crate::matches::random_opening;
use crate::net::{Family, Net, Precision};
use crate::rules::{Game, Geometry, Move, Shape, Status};
use crate::search::learned::last_placement;
use crate::search::{
    Control, Gumbel, NET_C_PUCT, NET_FPU_REDUCTION, NET_LAMBDA, NetEval, Request, Searcher, Setup,
    nodes_for_megabytes,
};

use super::data::{GameData, Sample};

/// What a self-play run plays.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The boards, game `i` on `boards[i % boards.len()]`.
    pub boards: Vec<Shape>,
    /// Playouts a move.
    pub playouts: u64,
    /// The run's seed.
    pub seed: u64,
    /// Random legal placements that open each game (not recorded).
    pub opening: usize,
    /// The searcher's settings (one thread).
    pub setup: Setup,
    /// The name of the searches' priors as the data records it: `handmade`, `learned` or `learned:FILE`, or
    /// `network` (the built-in networks) or `network:FILE,...`.
    pub priors: String,
    /// The networks of square and of hexhex boards, when the network evaluates the searches' leaves.
    pub nets: Option<[Arc<Net>; 2]>,
    /// A Gumbel root search over this many sampled moves ([`crate::search::gumbel`]) with `playouts`
    /// simulations, instead of PUCT's: the data's policy targets are then its improved policy.
    pub gumbel: Option<usize>,
    /// How the network is computed, when it evaluates the leaves.
    pub precision: Precision,
}

impl SelfplayConfig {
    /// The engine's own search at `playouts` a move: one thread, a 64 MB tree, the solver with its usual share.
    pub fn new(boards: Vec<Shape>, playouts: u64, seed: u64) -> SelfplayConfig {
        SelfplayConfig {
            boards,
            playouts,
            seed,
            opening: 4,
            setup: Setup {
                threads: 1,
                tree_nodes: nodes_for_megabytes(64),
                solver_share: 0.1,
                solver_bytes: 16 << 20,
                ..Setup::default()
            },
            priors: "handmade".into(),
            nets: None,
            gumbel: None,
            precision: Precision::default(),
        }
    }

    /// The board of game `number`.
    pub fn board(&self, number: u64) -> Shape {
        self.boards[(number % self.boards.len() as u64) as usize]
    }
}

/// Placements at most of one game, for each point of the board: a game still going then is stopped, its result
/// `-`.
pub const PLACEMENTS_PER_POINT: usize = 4;

/// Plays game `number` of the run.
///
/// # Errors
/// A message when the board has no random opening of the configured length.
pub fn play_game(cfg: &SelfplayConfig, number: u64) -> Result<GameData, String> {
    let board = cfg.board(number);
    let geo: Arc<Geometry> = Geometry::shared(board).map_err(|e| e.to_string())?;
    let opening = random_opening(&geo, cfg.opening, cfg.seed, number as usize)?;
    let mut game = Game::new(geo.clone());
    for mv in opening {
        let color = game.position().to_move();
        game.play(color, mv).map_err(|e| e.to_string())?;
    }
    let game_seed = cfg.seed ^ number.wrapping_mul(0xd1b5_4a32_d192_ed03);
    let mut setup = cfg.setup.clone();
    if let Some(nets) = &cfg.nets {
        // The search of the engine's `evaluator network` at its constants.
        setup.config.net = Some(NetEval::new(
            nets[Family::of(board) as usize].clone(),
            NET_LAMBDA,
            cfg.precision,
        ));
        setup.config.expand_visits = 1;
        setup.config.c_puct = NET_C_PUCT;
        setup.config.fpu_reduction = NET_FPU_REDUCTION;
    }
    let mut searcher = Searcher::default();
    let mut samples = Vec::new();
    let cap = PLACEMENTS_PER_POINT * geo.len();
    let mut winner = None;
    for ply in 0u64.. {
        let pos = game.position();
        let color = pos.to_move();
        match pos.status() {
            Status::Over(outcome) => {
                winner = outcome.winner();
                break;
            }
            Status::MustPass => {
                game.play(color, Move::Pass).map_err(|e| e.to_string())?;
                continue;
            }
            _ => {}
        }
        if pos.placements() >= cap {
            break;
        }
        let search_seed = game_seed.wrapping_add(ply);
        let (best, moves) = match cfg.gumbel {
            Some(considered) => {
                searched_gumbel(&mut searcher, &game, &setup, cfg, considered, search_seed)?
            }
            None => searched(&mut searcher, &game, &setup, cfg.playouts, search_seed)?,
        };
        if moves.iter().any(|m| m.1 > 0) {
            samples.push(Sample {
                position: pos.clone(),
                last: last_placement(pos),
                moves,
            });
        }
        game.play(color, best).map_err(|e| e.to_string())?;
    }
    Ok(GameData {
        number,
        board,
        winner,
        samples,
        playouts: cfg.playouts,
        seed: cfg.seed,
        recipe: Some((cfg.opening, cfg.priors.clone())),
        net: cfg
            .nets
            .as_ref()
            .map(|nets| nets[Family::of(board) as usize].checksum()),
        gumbel: cfg.gumbel,
    })
}

/// The move of PUCT's search at `playouts`, and every legal placement with its visits, most visited first.
fn searched(
    searcher: &mut Searcher,
    game: &Game,
    setup: &Setup,
    playouts: u64,
    seed: u64,
) -> Result<(Move, Vec<(Move, u32)>), String> {
    let pos = game.position();
    let request = Request::playouts(playouts, seed);
    let result = searcher.search(game, setup, &request, &mut |_| Control::Continue);
    let best = result
        .best
        .ok_or_else(|| "the search found no move in a game still going".to_string())?;
    let mut moves: Vec<(Move, u32)> = Vec::new();
    if result.info.moves.iter().any(|m| m.visits > 0) {
        moves = pos
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Place(_)))
            .map(|mv| {
                let visits = result
                    .info
                    .moves
                    .iter()
                    .find(|s| s.mv == mv)
                    .map_or(0, |s| s.visits);
                (mv, visits)
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    }
    Ok((best, moves))
}

/// The move of a Gumbel root search, and every legal placement with its share of the improved policy in
/// [`GUMBEL_POLICY_UNITS`], largest first.
fn searched_gumbel(
    searcher: &mut Searcher,
    game: &Game,
    setup: &Setup,
    cfg: &SelfplayConfig,
    considered: usize,
    seed: u64,
) -> Result<(Move, Vec<(Move, u32)>), String> {
    let gumbel = Gumbel {
        simulations: u32::try_from(cfg.playouts).unwrap_or(u32::MAX),
        considered,
    };
    let result = searcher
        .gumbel(game, setup, gumbel, seed)
        .ok_or_else(|| "the search found no move in a game still going".to_string())?;
    let mut moves: Vec<(Move, u32)> = result
        .policy
        .iter()
        .filter(|m| matches!(m.0, Move::Place(_)))
        .map(|&(mv, p)| (mv, (p * GUMBEL_POLICY_UNITS as f32).round() as u32))
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    Ok((result.best, moves))
}

/// The units of a Gumbel search's improved policy in the data: a move's share, in ten-thousandths.
pub const GUMBEL_POLICY_UNITS: u32 = 10_000;
