//! The quick player: a capture when one exists, otherwise a random legal move.

use crate::rng::Rng;
use crate::rules::{Move, Point, Position};

/// A legal move for the side to move: a uniformly chosen capturing placement when there is one, otherwise a
/// uniformly chosen legal placement, `Pass` when a pass is forced, `None` when the game is over.
pub fn choose_quick(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let mut legal: Vec<Point> = Vec::new();
    pos.legal_placements(&mut legal);
    if legal.is_empty() {
        return pos.legal_moves().first().copied();
    }
    let captures: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| pos.joins_friendly(p))
        .collect();
    let pool = if captures.is_empty() {
        &legal
    } else {
        &captures
    };
    Some(Move::Place(pool[rng.below(pool.len())]))
}
