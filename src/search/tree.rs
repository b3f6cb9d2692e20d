//! The search tree: a fixed arena of nodes shared by the search threads, with atomic statistics.
//!
//! Each node stores the move that leads to it and the colour that made that move (the *mover*: extra turns mean
//! movers do not alternate), its prior, and its statistics from the mover's point of view: visits and the sum of
//! results in units of [`WIN`] a win ([`WIN`] a win, half of it a draw, 0 a loss; a network's value in between). A thread adds a visit to each node on its way down, which counts as a
//! loss until the result arrives (virtual loss), and adds the result on its way back. Children of a node are
//! contiguous in the arena, sorted by prior, best first.
//!
//! The pie rule's swap exchanges the players' colours. Below a swap node, colours are those of the game after the
//! swap; the swap node itself and everything above it count in the colours before it (there, the swapper is
//! White). So a swap node's mover is White, its statistics and proof say how the swapper fares, and a result
//! or a proof passing up through a swap node has its colours exchanged (see `mcts::iterate`).

use std::sync::atomic::{
    AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering,
};

use crate::rules::{Color, Move, Outcome, Point};

/// A node with no children yet.
pub const LEAF: u8 = 0;
/// One thread is creating the node's children.
pub const EXPANDING: u8 = 1;
/// Children created (possibly none: a finished game).
pub const EXPANDED: u8 = 2;

/// The move bits of a pass and of a swap (points are below 0x7ffe: boards have at most 625).
const PASS: u16 = 0x7fff;
const SWAP: u16 = 0x7ffe;
/// The bit of the move word that says White made the move.
const MOVER_BIT: u16 = 1 << 15;
const VISIT: u64 = 1 << 32;

/// The score of a win in a node's statistics: a draw scores half of it, and a network's value a whole number of
/// sixteenths of a win. The scores of a node's visits share 32 bits, so a node holds at most 2^32 / 16 = 2^28
/// visits: a search ends at [`MAX_ROOT_VISITS`].
pub const WIN: u32 = 16;

/// The visits at which a search ends, well within the 2^28 that a node's score can count.
pub const MAX_ROOT_VISITS: u32 = 1 << 27;

/// One node of the tree: 24 bytes. All fields are atomic so that threads can share the arena; `mv` and `prior` are
/// written once, before the node is published through its parent's `state`.
#[derive(Default)]
pub struct Node {
    stats: AtomicU64,
    first_child: AtomicU32,
    prior: AtomicU32,
    /// The move's point index (or [`PASS`]), with [`MOVER_BIT`].
    mv: AtomicU16,
    num_children: AtomicU16,
    state: AtomicU8,
    proof: AtomicU8,
}

/// A plain copy of a node, for moving nodes.
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    stats: u64,
    first_child: u32,
    prior: u32,
    mv: u16,
    num_children: u16,
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
            Move::Place(p) => p.index() as u16,
            Move::Pass => PASS,
            Move::Swap => SWAP,
        };
        let mover_bit = if mover == Color::White { MOVER_BIT } else { 0 };
        self.mv.store(mv_bits | mover_bit, Ordering::Relaxed);
        self.prior.store(prior.to_bits(), Ordering::Relaxed);
        self.stats.store(0, Ordering::Relaxed);
        self.first_child.store(0, Ordering::Relaxed);
        self.num_children.store(0, Ordering::Relaxed);
        self.proof.store(0, Ordering::Relaxed);
        self.state.store(LEAF, Ordering::Relaxed);
    }

    /// The move leading to this node.
    pub fn mv(&self) -> Move {
        match self.mv.load(Ordering::Relaxed) & !MOVER_BIT {
            PASS => Move::Pass,
            SWAP => Move::Swap,
            i => Move::Place(Point::from_index(i as usize)),
        }
    }

    /// The colour that made the move leading to this node.
    pub fn mover(&self) -> Color {
        if self.mv.load(Ordering::Relaxed) & MOVER_BIT != 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// The prior probability of the move.
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Ordering::Relaxed))
    }

    /// Visits (including those still in flight) and the sum of results in units of [`WIN`], for the mover.
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
        (v > 0).then(|| s as f32 / (WIN as f32 * v as f32))
    }

    /// Counts a visit (a loss until [`Node::add_result`] adds the result).
    #[inline]
    pub fn add_visit(&self) {
        self.stats.fetch_add(VISIT, Ordering::Relaxed);
    }

    /// Adds a result: [`WIN`] for a win of the mover, half of it for a draw, 0 for a loss, or a value in between.
    #[inline]
    pub fn add_result(&self, score: u32) {
        if score > 0 {
            self.stats.fetch_add(u64::from(score), Ordering::Relaxed);
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
        let count =
            u16::try_from(count).expect("children fit in 16 bits: boards have at most 625 points");
        self.first_child.store(first, Ordering::Relaxed);
        self.num_children.store(count, Ordering::Relaxed);
        self.state.store(EXPANDED, Ordering::Release);
    }

    /// The arena range of the children (valid once expanded).
    #[inline]
    pub fn children(&self) -> std::ops::Range<u32> {
        let first = self.first_child.load(Ordering::Relaxed);
        first..first + u32::from(self.num_children.load(Ordering::Relaxed))
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
            prior: self.prior.load(Ordering::Relaxed),
            mv: self.mv.load(Ordering::Relaxed),
            num_children: self.num_children.load(Ordering::Relaxed),
            state: self.state.load(Ordering::Relaxed),
            proof: self.proof.load(Ordering::Relaxed),
        }
    }

    fn restore(&self, s: &Snapshot) {
        self.stats.store(s.stats, Ordering::Relaxed);
        self.first_child.store(s.first_child, Ordering::Relaxed);
        self.num_children.store(s.num_children, Ordering::Relaxed);
        self.prior.store(s.prior, Ordering::Relaxed);
        self.mv.store(s.mv, Ordering::Relaxed);
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
    /// Visits a leaf needs before it is expanded, set by [`Tree::prune`] to the visits below which it dropped
    /// children (0 before any pruning).
    floor: u32,
    /// Prunings since the tree was last reset.
    prunes: u32,
    /// Time those prunings took.
    pruning: std::time::Duration,
    used: Padded<AtomicUsize>,
    full: Padded<AtomicBool>,
}

/// What [`Tree::prune`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruned {
    /// Nodes before.
    pub before: usize,
    /// Nodes after.
    pub after: usize,
    /// Nodes with fewer visits than this lost their children.
    pub min_visits: u32,
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
            floor: 0,
            prunes: 0,
            pruning: std::time::Duration::ZERO,
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

    /// Visits a leaf needs before it is expanded, whatever the configuration says: the threshold of the last
    /// [`Tree::prune`], 0 before any.
    #[inline]
    pub fn floor(&self) -> u32 {
        self.floor
    }

    /// Prunings since the tree was last reset or given a new root.
    pub fn prunes(&self) -> u32 {
        self.prunes
    }

    /// The time those prunings took.
    pub fn pruning_time(&self) -> std::time::Duration {
        self.pruning
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
        self.floor = 0;
        self.prunes = 0;
        self.pruning = std::time::Duration::ZERO;
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
        self.floor = 0;
        self.prunes = 0;
        self.pruning = std::time::Duration::ZERO;
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

    /// True when node `id` keeps its children in a compaction that drops the children of nodes with fewer than
    /// `min_visits` visits (the root always keeps them).
    fn keeps_children(&self, id: u32, min_visits: u32) -> bool {
        let node = self.node(id);
        node.state() == EXPANDED
            && node.num_children.load(Ordering::Relaxed) > 0
            && (id == self.root || node.visits() >= min_visits)
    }

    /// Calls `f` with every node of the root's subtree that keeps its children under `min_visits` (see
    /// [`Tree::keeps_children`]), parents before their children.
    fn for_each_kept(&self, min_visits: u32, mut f: impl FnMut(u32, &Node)) {
        let mut stack = Vec::with_capacity(256);
        if self.keeps_children(self.root, min_visits) {
            stack.push(self.root);
        }
        while let Some(id) = stack.pop() {
            let node = self.node(id);
            f(id, node);
            stack.extend(
                node.children()
                    .filter(|&c| self.keeps_children(c, min_visits)),
            );
        }
    }

    /// Moves the root's subtree to the start of the arena, dropping every other node, and keeps its statistics
    /// and proofs. Needs exclusive access (no search running).
    pub fn compact(&mut self) {
        self.compact_keeping(0);
    }

    /// Frees at least half of the arena when it is full, for a search that goes on: the nodes with the fewest
    /// visits lose their children (subtrees and all), and leaves need as many visits as the least visited node
    /// that kept its children before they are expanded again. The kept nodes keep their statistics and proofs; a
    /// node that lost its children keeps its own. The threshold is the smallest power of two, at least the last
    /// one, that leaves at most half the arena in use. Needs exclusive access (no search running).
    pub fn prune(&mut self) -> Pruned {
        let began = std::time::Instant::now();
        let before = self.used();
        // Nodes kept for each threshold 2^k: the children of every node with at least 2^k visits (the root's
        // always). A child never has more visits than its parent, so those nodes are all reachable.
        let mut by_log = [0usize; 33];
        let mut root_children = 0;
        self.for_each_kept(0, |id, node| {
            let n = node.children().len();
            if id == self.root {
                root_children = n;
            } else {
                by_log[node.visits().max(1).ilog2() as usize] += n;
            }
        });
        let budget = self.capacity() / 2;
        let mut kept = 1 + root_children + by_log.iter().sum::<usize>();
        let mut k = if self.floor > 0 {
            self.floor.ilog2() as usize
        } else {
            0
        };
        kept -= by_log[..k].iter().sum::<usize>();
        while kept > budget && k < 32 {
            kept -= by_log[k];
            k += 1;
        }
        let min_visits = if k >= 32 { u32::MAX } else { 1u32 << k };
        self.compact_keeping(min_visits);
        self.floor = self.floor.max(min_visits);
        self.prunes += 1;
        self.pruning += began.elapsed();
        Pruned {
            before,
            after: self.used(),
            min_visits,
        }
    }

    /// Slides the root's subtree down to the start of the arena, in place: every block of children that stays
    /// moves down, never up, in arena order. Nodes with fewer than `min_visits` visits lose their children (0 keeps
    /// them all).
    fn compact_keeping(&mut self, min_visits: u32) {
        // The blocks that stay, by their old start: the root alone, and the children of each node keeping them.
        let mut blocks: Vec<(u32, u32)> = vec![(self.root, 1)];
        self.for_each_kept(min_visits, |_, node| {
            let c = node.children();
            blocks.push((c.start, c.end - c.start));
        });
        blocks.sort_unstable();
        let mut starts = Vec::with_capacity(blocks.len());
        let mut next = 0u32;
        for &(_, len) in &blocks {
            starts.push(next);
            next += len;
        }
        let new_start = |old: u32| {
            let i = blocks
                .binary_search_by_key(&old, |b| b.0)
                .expect("a kept node's children are a kept block");
            starts[i]
        };
        for (i, &(old, len)) in blocks.iter().enumerate() {
            for k in 0..len {
                let (src, dst) = (old + k, starts[i] + k);
                let mut s = self.nodes[src as usize].snapshot();
                if self.keeps_children(src, min_visits) {
                    s.first_child = new_start(s.first_child);
                } else if s.state != EXPANDED || s.num_children > 0 {
                    // A leaf, an expansion cut short, or children dropped: a leaf now.
                    s.state = LEAF;
                    s.first_child = 0;
                    s.num_children = 0;
                }
                if src == self.root {
                    self.root = dst;
                }
                self.nodes[dst as usize].restore(&s);
            }
        }
        self.used.store(next as usize, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::rules::{Geometry, Position};
    use crate::search::mcts::{Config, Control, Limits, run};

    /// A node and its subtree as plain values: what a compaction must keep.
    #[derive(Clone, Debug, PartialEq)]
    struct Sub {
        mv: Move,
        mover: Color,
        stats: (u32, u32),
        prior: f32,
        proof: Option<Outcome>,
        state: u8,
        children: Vec<Sub>,
    }

    fn sub(tree: &Tree, id: u32) -> Sub {
        let n = tree.node(id);
        Sub {
            mv: n.mv(),
            mover: n.mover(),
            stats: n.stats(),
            prior: n.prior(),
            proof: n.proof(),
            state: n.state(),
            children: if n.state() == EXPANDED {
                n.children().map(|c| sub(tree, c)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// `s` as a pruning at `min_visits` leaves it: below the root, nodes with fewer visits lose their children.
    fn pruned(s: &Sub, min_visits: u32, is_root: bool) -> Sub {
        let mut s = s.clone();
        if !s.children.is_empty() && !is_root && s.stats.0 < min_visits {
            s.children.clear();
            s.state = LEAF;
        }
        s.children = s
            .children
            .iter()
            .map(|c| pruned(c, min_visits, false))
            .collect();
        s
    }

    fn count(s: &Sub) -> usize {
        1 + s.children.iter().map(count).sum::<usize>()
    }

    /// Every node of the root's subtree lies below `used()`, is reached once, and has at least as many visits as
    /// its children together; the subtree has exactly `used()` nodes (unless an allocation failed).
    fn check_arena(tree: &Tree) {
        let mut seen = vec![false; tree.used()];
        let mut stack = vec![tree.root()];
        while let Some(id) = stack.pop() {
            assert!(
                (id as usize) < tree.used(),
                "node {id} beyond {}",
                tree.used()
            );
            assert!(!seen[id as usize], "node {id} reached twice");
            seen[id as usize] = true;
            let n = tree.node(id);
            if n.state() == EXPANDED {
                let below: u64 = n.children().map(|c| u64::from(tree.node(c).visits())).sum();
                assert!(
                    below <= u64::from(n.visits()),
                    "node {id}: {below} visits below {}",
                    n.visits()
                );
                stack.extend(n.children());
            } else {
                assert_eq!(n.state(), LEAF);
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "nodes in use outside the root's subtree"
        );
    }

    fn search(tree: &mut Tree, pos: &Position, playouts: u64) -> u64 {
        let never = AtomicBool::new(false);
        let limits = Limits {
            playouts: Some(playouts),
            time: None,
        };
        run(
            tree,
            pos,
            &Config::default(),
            limits,
            1,
            5,
            &never,
            None,
            &mut |_| Control::Continue,
        )
        .playouts
    }

    fn board(size: usize) -> Position {
        Position::new(Arc::new(Geometry::square(size).unwrap()))
    }

    #[test]
    fn a_node_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
    }

    #[test]
    fn compact_keeps_the_new_roots_subtree_exactly() {
        let pos = board(5);
        let mut tree = Tree::new(200_000);
        tree.reset(Color::White);
        search(&mut tree, &pos, 3000);
        assert_eq!(tree.prunes(), 0);
        // Two moves down: the most visited child of the most visited child.
        let best = |t: &Tree, id: u32| {
            t.node(id)
                .children()
                .max_by_key(|&c| t.node(c).visits())
                .unwrap()
        };
        let id = best(&tree, best(&tree, tree.root()));
        let before = sub(&tree, id);
        assert!(
            count(&before) > 100,
            "a subtree worth moving: {}",
            count(&before)
        );
        tree.set_root(id);
        tree.compact();
        assert_eq!(tree.root(), 0);
        assert_eq!(sub(&tree, tree.root()), before);
        assert_eq!(tree.used(), count(&before));
        check_arena(&tree);
    }

    #[test]
    fn prune_drops_the_children_of_the_least_visited_nodes() {
        let pos = board(5);
        let mut tree = Tree::new(60_000);
        tree.reset(Color::White);
        search(&mut tree, &pos, 4000);
        let before = sub(&tree, tree.root());
        let used = tree.used();
        assert_eq!(count(&before), used);
        let report = tree.prune();
        assert_eq!(report.before, used);
        assert!(report.min_visits.is_power_of_two());
        assert_eq!(tree.floor(), report.min_visits);
        assert_eq!(tree.prunes(), 1);
        let expected = pruned(&before, report.min_visits, true);
        assert_eq!(sub(&tree, tree.root()), expected);
        assert_eq!(report.after, count(&expected));
        assert_eq!(tree.used(), report.after);
        assert!(report.after <= tree.capacity() / 2, "{report:?}");
        // The smallest such threshold: half of it would have kept more than half of the arena.
        if report.min_visits > 1 {
            let more = pruned(&before, report.min_visits / 2, true);
            assert!(
                count(&more) > tree.capacity() / 2,
                "{report:?}: {}",
                count(&more)
            );
        }
        check_arena(&tree);
    }

    #[test]
    fn a_search_in_a_small_arena_prunes_and_goes_on_growing() {
        let pos = board(7);
        let mut tree = Tree::new(20_000);
        tree.reset(Color::White);
        let done = search(&mut tree, &pos, 30_000);
        assert_eq!(done, 30_000);
        assert_eq!(u64::from(tree.node(tree.root()).visits()), 30_000);
        // Filled, pruned, and filled again: the tree grew after its first pruning.
        assert!(tree.prunes() >= 2, "{} prunings", tree.prunes());
        assert!(tree.floor() > Config::default().expand_visits);
        check_arena(&tree);
    }
}
