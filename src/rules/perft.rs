//! Perft: the number of move sequences of a given length, the rules' regression test and speed measure.

use std::fmt;

use super::geometry::Point;
use super::position::Position;

/// Perft stopped because it visited more nodes than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftLimit {
    /// The node limit that was exceeded.
    pub limit: u64,
}

impl fmt::Display for PerftLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft stopped after visiting more than {} nodes",
            self.limit
        )
    }
}

impl std::error::Error for PerftLimit {}

/// Counts the leaves of the game tree `depth` moves deep from `pos`. A forced pass counts as a move, and so does the
/// pie rule's swap while it is available; a finished game has no moves.
///
/// # Errors
/// [`PerftLimit`] when more than `node_limit` interior and leaf nodes would be visited.
pub fn perft(pos: &Position, depth: usize, node_limit: u64) -> Result<u64, PerftLimit> {
    let mut stack = vec![pos.clone(); depth + 1];
    let mut moves: Vec<Vec<Point>> = (0..=depth)
        .map(|_| Vec::with_capacity(pos.geometry().len()))
        .collect();
    let mut visited = 0u64;
    perft_at(&mut stack, &mut moves, depth, &mut visited, node_limit)
}

/// Fills `out` with the legal placements of `pos`; returns true when the only legal move is a pass.
fn moves_of(pos: &Position, out: &mut Vec<Point>) -> bool {
    out.clear();
    pos.legal_placements(out);
    out.is_empty() && pos.winner().is_none() && pos.has_legal_placement(pos.to_move().opponent())
}

fn perft_at(
    stack: &mut [Position],
    moves: &mut [Vec<Point>],
    depth: usize,
    visited: &mut u64,
    limit: u64,
) -> Result<u64, PerftLimit> {
    if depth == 0 {
        return Ok(1);
    }
    let (here, below) = stack.split_first_mut().expect("a position per depth");
    let (mine, rest) = moves.split_first_mut().expect("a move list per depth");
    let pass = moves_of(here, mine);
    let swap = here.swap_available();
    let count = mine.len() as u64 + u64::from(pass) + u64::from(swap);
    *visited += count;
    if *visited > limit {
        return Err(PerftLimit { limit });
    }
    if depth == 1 {
        return Ok(count);
    }
    let mut total = 0;
    let child = &mut below[0];
    if pass {
        child.copy_from(here);
        child.pass_unchecked();
        return perft_at(below, rest, depth - 1, visited, limit);
    }
    if swap {
        child.copy_from(here);
        child.swap_unchecked();
        let (below, rest) = (&mut *below, &mut *rest);
        total += perft_at(below, rest, depth - 1, visited, limit)?;
    }
    for &p in mine.iter() {
        below[0].copy_from(here);
        below[0].place_unchecked(p);
        total += perft_at(below, rest, depth - 1, visited, limit)?;
    }
    Ok(total)
}
