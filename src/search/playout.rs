//! Uniformly random playouts, the baseline workload of `oust bench` and of plain UCT.

use crate::rng::Rng;
use crate::rules::{MAX_DEGREE, Move, Outcome, Point, Position};

/// How many random empty points to try before listing every legal placement, out of `empties` empty points. Any
/// value keeps the choice exactly uniform: each try is uniform over the empty points and accepted only when legal.
/// Trying about half as many points as the list would scan costs less than the scan whenever at least a few
/// percent of the empty points are legal, which is nearly always (measured: under 1% of moves fall back).
#[inline]
fn rejection_tries(empties: usize) -> usize {
    4 + empties / 2
}

/// Plays a legal move of the side to move chosen exactly uniformly among the legal placements, or a pass when
/// none exists and the opponent can place. Returns the move, or `None` (and changes nothing) when the game is
/// over. `buf` is scratch space.
pub fn play_random(pos: &mut Position, rng: &mut Rng, buf: &mut Vec<Point>) -> Option<Move> {
    match pos.geometry().fan() {
        4 => play_random_n::<4>(pos, rng, buf),
        _ => play_random_n::<MAX_DEGREE>(pos, rng, buf),
    }
}

/// [`play_random`] on a geometry whose neighbour tables have `N` entries.
#[inline(always)]
fn play_random_n<const N: usize>(
    pos: &mut Position,
    rng: &mut Rng,
    buf: &mut Vec<Point>,
) -> Option<Move> {
    if pos.winner().is_some() || pos.empties().is_empty() {
        return None;
    }
    for _ in 0..rejection_tries(pos.empties().len()) {
        let p = pos.empties()[rng.below(pos.empties().len())];
        if pos.try_place_with::<N>(p).is_some() {
            return Some(Move::Place(p));
        }
    }
    buf.clear();
    buf.extend(
        pos.empties()
            .iter()
            .copied()
            .filter(|&p| pos.is_legal_with::<N>(p)),
    );
    if !buf.is_empty() {
        let p = buf[rng.below(buf.len())];
        pos.place_unchecked(p);
        return Some(Move::Place(p));
    }
    if pos.has_legal_placement(pos.to_move().opponent()) {
        pos.pass_unchecked();
        return Some(Move::Pass);
    }
    None
}

/// The end of a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// How the game ended (`Draw` also when the move cap was reached).
    pub outcome: Outcome,
    /// Placements played.
    pub placements: usize,
    /// True when the playout hit the move cap instead of ending.
    pub capped: bool,
}

/// Plays uniformly random moves from `pos` to the end of the game, at most `max_moves` moves.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut Rng,
    buf: &mut Vec<Point>,
    max_moves: usize,
) -> PlayoutResult {
    match pos.geometry().fan() {
        4 => random_playout_n::<4>(pos, rng, buf, max_moves),
        _ => random_playout_n::<MAX_DEGREE>(pos, rng, buf, max_moves),
    }
}

fn random_playout_n<const N: usize>(
    pos: &mut Position,
    rng: &mut Rng,
    buf: &mut Vec<Point>,
    max_moves: usize,
) -> PlayoutResult {
    // The generator's state stays in a local for the whole playout, out of the caller's memory.
    let mut local = rng.clone();
    let result = playout_loop::<N>(pos, &mut local, buf, max_moves);
    *rng = local;
    result
}

#[inline(always)]
fn playout_loop<const N: usize>(
    pos: &mut Position,
    rng: &mut Rng,
    buf: &mut Vec<Point>,
    max_moves: usize,
) -> PlayoutResult {
    let mut placements = 0;
    for _ in 0..max_moves {
        match play_random_n::<N>(pos, rng, buf) {
            Some(Move::Place(_)) => placements += 1,
            Some(Move::Pass | Move::Swap) => {}
            None => {
                let outcome = pos.winner().map_or(Outcome::Draw, Outcome::Win);
                return PlayoutResult {
                    outcome,
                    placements,
                    capped: false,
                };
            }
        }
    }
    PlayoutResult {
        outcome: Outcome::Draw,
        placements,
        capped: true,
    }
}
