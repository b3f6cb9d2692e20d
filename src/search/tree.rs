//! The search tree: a fixed arena of nodes shared by the search threads, with atomic statistics.
//!
//! Each node stores the move that leads to it and the colour that made that move (the *mover*: extra turns mean
//! movers do not alternate), its prior, and its statistics from the mover's point of view: visits and twice the sum
//! of results (2 a win, 1 a draw, 0 a loss). A thread adds a visit to each node on its way down, which counts as a
//! loss until the result arrives (virtual loss), and adds the result on its way back. Children of a node are
//! contiguous in the arena, sorted by prior, best first.
//!
//! The pie rule's swap exchanges the players' colours. Below a swap node, colours are those of the game after the
//! swap; the swap node itself and everything above it count in the colours before it (there, the swapper is
//! White). So a swap node's mover is White, its statistics and proof say how the swapper fares, and a result
//! or a proof passing up through a swap node has its colours exchanged (see `mcts::iterate`).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::rules::{Color, Move, Outcome, Point};

/// A node with no children yet.
pub const LEAF: u8 = 0;
/// One thread is creating the node's children.
pub const EXPANDING: u8 = 1;
/// Children created (possibly none: a finished game).
pub const EXPANDED: u8 = 2;

const PASS: u32 = 0xffff;
const SWAP: u32 = 0xfffe;
const MOVER_BIT: u32 = 1 << 16;
const VISIT: u64 = 1 << 32;

/// One node of the tree. All fields are atomic so that threads can share the arena; `info` and `prior` are
/// written once, before the node is published through its parent's `state`.
#[derive(Default)]
pub struct Node {
    stats: AtomicU64,
    first_child: AtomicU32,
    num_children: AtomicU32,
    prior: AtomicU32,
    info: AtomicU32,
    state: AtomicU8,
    proof: AtomicU8,
}

/// A plain copy of a node, for moving subtrees.
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    stats: u64,
    first_child: u32,
    num_children: u32,
    prior: u32,
    info: u32,
    state: u8,
    proof: u8,
}

fn encode_proof(o: Option<Outcome>) -> u8 {
    match o {
        None => 0,
        Some(Outcome::Win(Color::Black)) => 1,
        Some(Outcome::Win(Color::White)) => 2,
        Some(Outcome::Draw) => 3,
    }
}

fn decode_proof(v: u8) -> Option<Outcome> {
    match v {
        1 => Some(Outcome::Win(Color::Black)),
        2 => Some(Outcome::Win(Color::White)),
        3 => Some(Outcome::Draw),
        _ => None,
    }
}

impl Node {
    fn init(&self, mv: Move, mover: Color, prior: f32) {
        let mv_bits = match mv {
            Move::Place(p) => p.index() as u32,
            Move::Pass => PASS,
            Move::Swap => SWAP,
        };
        let mover_bit = if mover == Color::White { MOVER_BIT } else { 0 };
        self.info.store(mv_bits | mover_bit, Ordering::Relaxed);
        self.prior.store(prior.to_bits(), Ordering::Relaxed);
        self.stats.store(0, Ordering::Relaxed);
        self.first_child.store(0, Ordering::Relaxed);
        self.num_children.store(0, Ordering::Relaxed);
        self.proof.store(0, Ordering::Relaxed);
        self.state.store(LEAF, Ordering::Relaxed);
    }

    /// The move leading to this node.
    pub fn mv(&self) -> Move {
        match self.info.load(Ordering::Relaxed) & 0xffff {
            PASS => Move::Pass,
            SWAP => Move::Swap,
            i => Move::Place(Point::from_index(i as usize)),
        }
    }

    /// The colour that made the move leading to this node.
    pub fn mover(&self) -> Color {
        if self.info.load(Ordering::Relaxed) & MOVER_BIT != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The prior probability of the move.
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Ordering::Relaxed))
    }

    /// Visits (including those still in flight) and twice the sum of results, for the mover.
    #[inline]
    pub fn stats(&self) -> (u32, u32) {
        let s = self.stats.load(Ordering::Relaxed);
        ((s >> 32) as u32, s as u32)
    }

    /// Visits, including those in flight.
    pub fn visits(&self) -> u32 {
        self.stats().0
    }

    /// The mean result for the mover, or `None` before the first visit.
    pub fn value(&self) -> Option<f32> {
        let (v, s) = self.stats();
        (v > 0).then(|| s as f32 / (2.0 * v as f32))
    }

    /// Counts a visit (a loss until [`Node::add_result`] adds the result).
    #[inline]
    pub fn add_visit(&self) {
        self.stats.fetch_add(VISIT, Ordering::Relaxed);
    }

    /// Adds a result: 2 for a win of the mover, 1 for a draw, 0 for a loss.
    #[inline]
    pub fn add_result(&self, score2: u32) {
        if score2 > 0 {
            self.stats.fetch_add(u64::from(score2), Ordering::Relaxed);
        }
    }

    /// The node's state: [`LEAF`], [`EXPANDING`] or [`EXPANDED`].
    #[inline]
    pub fn state(&self) -> u8 {
        self.state.load(Ordering::Acquire)
    }

    /// Claims the node for expansion; true for exactly one caller.
    pub fn try_begin_expand(&self) -> bool {
        self.state
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Gives up an expansion (the arena is full).
    pub fn abandon_expand(&self) {
        self.state.store(LEAF, Ordering::Release);
    }

    /// Publishes the children created by the expanding thread.
    pub fn finish_expand(&self, first: u32, count: u32) {
        self.first_child.store(first, Ordering::Relaxed);
        self.num_children.store(count, Ordering::Relaxed);
        self.state.store(EXPANDED, Ordering::Release);
    }

    /// The arena range of the children (valid once expanded).
    #[inline]
    pub fn children(&self) -> std::ops::Range<u32> {
        let first = self.first_child.load(Ordering::Relaxed);
        first..first + self.num_children.load(Ordering::Relaxed)
    }

    /// The proven outcome of the game from this node, if known.
    #[inline]
    pub fn proof(&self) -> Option<Outcome> {
        decode_proof(self.proof.load(Ordering::Relaxed))
    }

    /// Records a proven outcome.
    pub fn set_proof(&self, o: Outcome) {
        self.proof.store(encode_proof(Some(o)), Ordering::Relaxed);
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            stats: self.stats.load(Ordering::Relaxed),
            first_child: self.first_child.load(Ordering::Relaxed),
            num_children: self.num_children.load(Ordering::Relaxed),
            prior: self.prior.load(Ordering::Relaxed),
            info: self.info.load(Ordering::Relaxed),
            state: self.state.load(Ordering::Relaxed),
            proof: self.proof.load(Ordering::Relaxed),
        }
    }

    fn restore(&self, s: &Snapshot) {
        self.stats.store(s.stats, Ordering::Relaxed);
        self.first_child.store(s.first_child, Ordering::Relaxed);
        self.num_children.store(s.num_children, Ordering::Relaxed);
        self.prior.store(s.prior, Ordering::Relaxed);
        self.info.store(s.info, Ordering::Relaxed);
        // An expansion cut short stays a leaf.
        self.state.store(
            if s.state == EXPANDING { LEAF } else { s.state },
            Ordering::Relaxed,
        );
        self.proof.store(s.proof, Ordering::Relaxed);
    }
}

/// `n` nodes in zeroed memory.
/// `n` zeroed nodes, or `None` when the allocator refuses them.
fn zeroed_nodes(n: usize) -> Option<Box<[Node]>> {
    let layout = std::alloc::Layout::array::<Node>(n).ok()?;
    // SAFETY: `Node` consists only of atomic integers, for which the all-zero bit pattern is a valid value (the
    // same as `Node::default()`); the layout is non-zero sized because `n >= 1` and `Node` is not a ZST; a null
    // pointer is handled; and the box takes ownership of exactly the allocation made with this layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Node>();
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
    }
}

/// A value alone on its cache line, so that threads writing it do not slow down threads reading its neighbours.
#[derive(Default)]
#[repr(align(64))]
pub struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The arena and the index of its root. The allocation counter, written at every expansion, has a cache line of
/// its own: the arena's address, read at every step of every thread, must not share one with it.
pub struct Tree {
    nodes: Box<[Node]>,
    root: u32,
    used: Padded<AtomicUsize>,
    full: Padded<AtomicBool>,
}

impl Tree {
    /// An arena of `capacity` nodes (at least 1), holding a fresh root. The memory comes zeroed from the
    /// allocator, so pages are only touched (and committed) as the tree grows, and creating a large arena is
    /// instant.
    pub fn new(capacity: usize) -> Tree {
        Tree::try_new(capacity).expect("memory for the search tree")
    }

    /// [`Tree::new`], or `None` when the allocator refuses that much memory (a tree larger than the machine).
    pub fn try_new(capacity: usize) -> Option<Tree> {
        let nodes = zeroed_nodes(capacity.max(1))?;
        let tree = Tree {
            nodes,
            used: Padded(AtomicUsize::new(1)),
            full: Padded(AtomicBool::new(false)),
            root: 0,
        };
        tree.nodes[0].init(Move::Pass, Color::White, 1.0);
        Some(tree)
    }

    /// Number of nodes the arena holds.
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in use.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed).min(self.nodes.len())
    }

    /// True once an expansion failed for lack of room.
    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// The root's index.
    #[inline]
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Makes node `id`, a descendant of the root, the root. Its subtree keeps its statistics and proofs; the rest
    /// of the old tree stays in the arena until [`Tree::compact`].
    pub fn set_root(&mut self, id: u32) {
        self.root = id;
        self.full.store(false, Ordering::Relaxed);
    }

    /// The node with index `id`.
    #[inline]
    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// Empties the tree; the new root's mover is `mover` (the colour that moved into the root position).
    pub fn reset(&mut self, mover: Color) {
        self.root = 0;
        self.used.store(1, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
        self.nodes[0].init(Move::Pass, mover, 1.0);
    }

    /// Creates `moves.len()` children, returning the index of the first, or `None` when the arena is full.
    pub fn alloc_children(&self, moves: &[(Move, f32)], mover: Color) -> Option<u32> {
        let n = moves.len();
        let first = self.used.fetch_add(n, Ordering::Relaxed);
        if first + n > self.nodes.len() {
            self.full.store(true, Ordering::Relaxed);
            return None;
        }
        for (i, &(mv, prior)) in moves.iter().enumerate() {
            self.nodes[first + i].init(mv, mover, prior);
        }
        Some(first as u32)
    }

    /// Moves the root's subtree to the start of the arena, dropping every other node, and keeps its statistics
    /// and proofs. Needs exclusive access (no search running).
    pub fn compact(&mut self) {
        let id = self.root;
        // Breadth first: each copied node's children are copied as one block, and its `first_child` is moved from
        // the old block to the new one.
        let mut out: Vec<Snapshot> = vec![self.nodes[id as usize].snapshot()];
        let mut i = 0;
        while i < out.len() {
            let s = out[i];
            if s.state == EXPANDED && s.num_children > 0 {
                let base = out.len();
                out.extend(
                    (0..s.num_children)
                        .map(|k| self.nodes[(s.first_child + k) as usize].snapshot()),
                );
                out[i].first_child = base as u32;
            } else if s.state != EXPANDED {
                out[i].num_children = 0;
            }
            i += 1;
        }
        for (i, s) in out.iter().enumerate() {
            self.nodes[i].restore(s);
        }
        self.used.store(out.len(), Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
        self.root = 0;
    }
}
