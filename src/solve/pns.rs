//! Proof-number search: a second, independent algorithm that proves or disproves "the side to move wins", used to
//! check the alpha-beta solver's values and to compare the two by measurement. A plain tree without a table:
//! positions are replayed from the root along the path to the most-proving node.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Limits, SolveError, StopReason};
use crate::rules::{Color, Move, Position, Status};

const INF: u64 = u64::MAX / 4;

struct Node {
    mv: Move,
    parent: u32,
    first: u32,
    count: u32,
    pn: u64,
    dn: u64,
    /// True when the root's side to move chooses here.
    or: bool,
}

/// Bytes of one node of the tree: a search within `memory_bytes` creates at most `memory_bytes / NODE_BYTES` nodes.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// Expansions between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 256;

/// What a proof-number search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnsResult {
    /// `Some(true)` when the side to move wins, `Some(false)` when it does not (a loss or no winner), `None` when
    /// a limit came first.
    pub wins: Option<bool>,
    /// Why it stopped without an answer.
    pub stopped: Option<StopReason>,
    /// Nodes created.
    pub nodes: usize,
}

fn leaf(pos: &Position, me: Color) -> (u64, u64) {
    match pos.status() {
        Status::Over(o) if o.winner() == Some(me) => (0, INF),
        Status::Over(_) => (INF, 0),
        _ => (1, 1),
    }
}

/// Proves or disproves that the side to move of `pos` wins, its tree held within `memory_bytes` (reserved at the
/// start, touched as it grows) and stopped by `limits` (the node limit counts the nodes created).
///
/// # Errors
/// [`SolveError::NoMemory`] when the allocator refuses the tree's memory; [`SolveError::MemoryTooSmall`] when it
/// holds fewer than 2 nodes.
pub fn prove_win(
    pos: &Position,
    memory_bytes: usize,
    limits: &Limits,
) -> Result<PnsResult, SolveError> {
    // Node indices are 32 bits.
    let capacity = (memory_bytes / NODE_BYTES).min(u32::MAX as usize);
    if capacity < 2 {
        return Err(SolveError::MemoryTooSmall {
            bytes: memory_bytes,
        });
    }
    let mut nodes: Vec<Node> = Vec::new();
    nodes
        .try_reserve_exact(capacity)
        .map_err(|_| SolveError::NoMemory {
            bytes: memory_bytes,
        })?;
    let max_nodes = limits
        .nodes
        .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let mut expansions = 0u64;
    let mut stopped = None;
    let me = pos.to_move();
    let (pn, dn) = leaf(pos, me);
    nodes.push(Node {
        mv: Move::Pass,
        parent: u32::MAX,
        first: 0,
        count: 0,
        pn,
        dn,
        or: true,
    });
    let mut work = pos.clone();
    let mut child = pos.clone();
    while nodes[0].pn != 0 && nodes[0].dn != 0 {
        if nodes.len() >= max_nodes {
            stopped = Some(StopReason::NodeLimit);
            break;
        }
        expansions += 1;
        if expansions.is_multiple_of(CHECK_EVERY) {
            if limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                stopped = Some(StopReason::Stopped);
                break;
            }
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                stopped = Some(StopReason::Deadline);
                break;
            }
        }
        // The most-proving node, replaying its moves.
        work.copy_from(pos);
        let mut id = 0usize;
        while nodes[id].count > 0 {
            let n = &nodes[id];
            let range = n.first as usize..(n.first + n.count) as usize;
            let best = if n.or {
                range.min_by_key(|&c| nodes[c].pn)
            } else {
                range.min_by_key(|&c| nodes[c].dn)
            };
            id = best.unwrap_or(id);
            work.play(nodes[id].mv).expect("a child's move is legal");
        }
        // Expand it, when its children fit in the memory.
        let moves = work.legal_moves();
        if nodes.len() + moves.len() > capacity {
            stopped = Some(StopReason::MemoryFull);
            break;
        }
        let first = nodes.len() as u32;
        for &mv in &moves {
            child.copy_from(&work);
            child.play(mv).expect("a legal move");
            let (pn, dn) = leaf(&child, me);
            nodes.push(Node {
                mv,
                parent: id as u32,
                first: 0,
                count: 0,
                pn,
                dn,
                or: child.to_move() == me,
            });
        }
        nodes[id].first = first;
        nodes[id].count = moves.len() as u32;
        // Back up the numbers to the root.
        let mut at = id;
        loop {
            let n = &nodes[at];
            let range = n.first as usize..(n.first + n.count) as usize;
            let (pn, dn) = if n.count == 0 {
                (n.pn, n.dn)
            } else if n.or {
                (
                    range.clone().map(|c| nodes[c].pn).min().unwrap_or(INF),
                    range.map(|c| nodes[c].dn).fold(0, |a, b| (a + b).min(INF)),
                )
            } else {
                (
                    range
                        .clone()
                        .map(|c| nodes[c].pn)
                        .fold(0, |a, b| (a + b).min(INF)),
                    range.map(|c| nodes[c].dn).min().unwrap_or(INF),
                )
            };
            nodes[at].pn = pn;
            nodes[at].dn = dn;
            if at == 0 {
                break;
            }
            at = nodes[at].parent as usize;
        }
    }
    let wins = match (nodes[0].pn, nodes[0].dn) {
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    };
    Ok(PnsResult {
        wins,
        stopped: if wins.is_some() { None } else { stopped },
        nodes: nodes.len(),
    })
}
