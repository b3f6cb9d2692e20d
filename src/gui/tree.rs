//! The moves of a game and its variations, as a tree: nothing played is ever dropped. Each position's children are
//! the moves tried from it, the main line's first. The page shows one line at a time: the path from the start to
//! the position shown, then on through the child each position last went to. This module knows moves only; the
//! session replays them through the rules.

use crate::rules::{Color, Move};

/// A node's number in the tree; [`ROOT`] is the start.
pub type NodeId = usize;

/// The start of the game: the node without a move.
pub const ROOT: NodeId = 0;

#[derive(Clone, Debug)]
struct Node {
    /// The colour and the move that lead here (none for the root).
    mv: Option<(Color, Move)>,
    parent: NodeId,
    /// The moves tried from here, the main line's first.
    children: Vec<NodeId>,
    /// The child the line shown goes on through (the one last gone to).
    next: Option<NodeId>,
    /// How long the engine thought for this move, in seconds.
    seconds: Option<f64>,
}

/// The game tree and the position shown.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    current: NodeId,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// A tree with the start alone.
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node {
                mv: None,
                parent: ROOT,
                children: Vec::new(),
                next: None,
                seconds: None,
            }],
            current: ROOT,
        }
    }

    /// The position shown.
    pub fn current(&self) -> NodeId {
        self.current
    }

    /// The move that leads to `n` (none for the root).
    pub fn mv(&self, n: NodeId) -> Option<(Color, Move)> {
        self.nodes[n].mv
    }

    /// The node that `n` follows (the root for the root).
    pub fn parent(&self, n: NodeId) -> NodeId {
        self.nodes[n].parent
    }

    /// The moves tried from `n`, the main line's first.
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        &self.nodes[n].children
    }

    /// True when `n` is a node of this tree (not deleted).
    pub fn contains(&self, n: NodeId) -> bool {
        n < self.nodes.len() && (n == ROOT || self.children(self.parent(n)).contains(&n))
    }

    /// The nodes from the start (excluded) to `n` (included).
    pub fn path_to(&self, mut n: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        while n != ROOT {
            path.push(n);
            n = self.nodes[n].parent;
        }
        path.reverse();
        path
    }

    /// The line shown: the path to the position shown, then on through each position's `next` child.
    pub fn line(&self) -> Vec<NodeId> {
        let mut line = self.path_to(self.current);
        let mut n = self.current;
        while let Some(k) = self.nodes[n].next {
            line.push(k);
            n = k;
        }
        line
    }

    /// The moves of [`Tree::line`].
    pub fn line_moves(&self) -> Vec<(Color, Move)> {
        self.line().into_iter().filter_map(|n| self.mv(n)).collect()
    }

    /// The main line: the first child from the start on.
    pub fn main_line(&self) -> Vec<NodeId> {
        std::iter::successors(self.children(ROOT).first().copied(), |&n| {
            self.children(n).first().copied()
        })
        .collect()
    }

    /// The nodes of the line that `moves` play from the start, if the tree holds it.
    pub fn find_line(&self, moves: &[(Color, Move)]) -> Option<Vec<NodeId>> {
        let mut n = ROOT;
        let mut nodes = Vec::with_capacity(moves.len());
        for &m in moves {
            n = self
                .children(n)
                .iter()
                .copied()
                .find(|&k| self.mv(k) == Some(m))?;
            nodes.push(n);
        }
        Some(nodes)
    }

    /// The next node of the line shown after the position shown, if the line goes on.
    pub fn next(&self) -> Option<NodeId> {
        self.nodes[self.current].next
    }

    /// The child of the position shown reached by `mv`, if it was tried.
    fn child(&self, color: Color, mv: Move) -> Option<NodeId> {
        self.children(self.current)
            .iter()
            .copied()
            .find(|&k| self.mv(k) == Some((color, mv)))
    }

    /// Goes on by `mv` (which the rules have just allowed): to the child it was tried as, else to a new child, the
    /// last of its parent's (a variation, or the main line where there was none). The line shown goes through it.
    /// Returns true when the move made a new node.
    pub fn advance(&mut self, color: Color, mv: Move) -> bool {
        let (k, new) = match self.child(color, mv) {
            Some(k) => (k, false),
            None => {
                let k = self.nodes.len();
                self.nodes.push(Node {
                    mv: Some((color, mv)),
                    parent: self.current,
                    children: Vec::new(),
                    next: None,
                    seconds: None,
                });
                self.nodes[self.current].children.push(k);
                (k, true)
            }
        };
        self.nodes[self.current].next = Some(k);
        self.current = k;
        new
    }

    /// Goes back one move along the line shown; returns the move taken back.
    pub fn back(&mut self) -> Option<(Color, Move)> {
        let mv = self.mv(self.current)?;
        self.current = self.parent(self.current);
        Some(mv)
    }

    /// Goes to `n` and makes the line shown pass through it (each node of its path becomes its parent's `next`),
    /// going on after it as it last did.
    pub fn go_to(&mut self, n: NodeId) {
        for k in self.path_to(n) {
            let p = self.parent(k);
            self.nodes[p].next = Some(k);
        }
        self.current = n;
    }

    /// Makes the line shown the main line: each of its nodes becomes the first of its parent's children. Returns
    /// false when it was the main line already.
    pub fn promote(&mut self) -> bool {
        let mut changed = false;
        for k in self.line() {
            let p = self.parent(k);
            let children = &mut self.nodes[p].children;
            if let Some(at) = children.iter().position(|&c| c == k)
                && at > 0
            {
                children.remove(at);
                children.insert(0, k);
                changed = true;
            }
        }
        changed
    }

    /// The deepest node of the line shown where it leaves another line (a node that is not its parent's first
    /// child): the first move of the innermost variation the line goes through. None on the main line.
    pub fn variation_start(&self) -> Option<NodeId> {
        self.line()
            .into_iter()
            .rev()
            .find(|&k| self.children(self.parent(k)).first() != Some(&k))
    }

    /// The first node of the line shown that leaves the main line, if it does.
    pub fn leaves_main_line(&self) -> Option<NodeId> {
        self.line()
            .into_iter()
            .find(|&k| self.children(self.parent(k)).first() != Some(&k))
    }

    /// The number of moves from the start to `n`.
    pub fn depth(&self, n: NodeId) -> usize {
        self.path_to(n).len()
    }

    /// Deletes the subtree that starts at `n` (not the root). The line shown then goes on through the main line of
    /// `n`'s parent; when the position shown was in the subtree, it becomes `n`'s parent. Returns the number of
    /// moves deleted.
    pub fn delete(&mut self, n: NodeId) -> usize {
        if n == ROOT || !self.contains(n) {
            return 0;
        }
        let p = self.parent(n);
        self.nodes[p].children.retain(|&c| c != n);
        if self.nodes[p].next == Some(n) {
            self.nodes[p].next = self.nodes[p].children.first().copied();
        }
        if self.path_to(self.current).contains(&n) {
            self.current = p;
        }
        let mut count = 0;
        let mut stack = vec![n];
        while let Some(k) = stack.pop() {
            count += 1;
            stack.append(&mut self.nodes[k].children);
            self.nodes[k].next = None;
        }
        count
    }

    /// How long the engine thought for the move of `n`.
    pub fn seconds(&self, n: NodeId) -> Option<f64> {
        self.nodes[n].seconds
    }

    /// Notes how long the engine thought for the move of `n`.
    pub fn set_seconds(&mut self, n: NodeId, seconds: f64) {
        if n != ROOT {
            self.nodes[n].seconds = Some(seconds);
        }
    }

    /// The number of lines of play (positions without a child), the main line included; 0 for a tree without
    /// moves.
    pub fn lines(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![ROOT];
        while let Some(n) = stack.pop() {
            let children = self.children(n);
            if children.is_empty() && n != ROOT {
                count += 1;
            }
            stack.extend(children);
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    fn place(i: usize) -> Move {
        Move::Place(Point::from_index(i))
    }

    #[test]
    fn a_move_that_differs_starts_a_variation_and_nothing_is_lost() {
        let mut t = Tree::new();
        for i in 0..4 {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert!(t.advance(c, place(i)));
        }
        let main = t.main_line();
        assert_eq!(main.len(), 4);
        t.back();
        t.back();
        assert_eq!(t.line(), main, "going back keeps the line");
        assert!(
            !t.advance(Color::Black, place(2)),
            "the game's own move is followed"
        );
        assert_eq!(t.line(), main);
        t.back();
        assert!(t.advance(Color::Black, place(9)));
        assert_eq!(t.line().len(), 3, "a new move ends the line shown");
        assert_eq!(t.main_line(), main, "the main line is kept");
        assert_eq!(t.lines(), 2);
        assert_eq!(t.variation_start(), Some(t.current()));
        t.go_to(main[3]);
        assert_eq!(t.line(), main);
        t.go_to(t.children(main[1])[1]);
        assert!(t.promote());
        assert_eq!(t.main_line().len(), 3);
        assert_eq!(t.variation_start(), None);
        t.go_to(main[3]);
        let start = t.variation_start().unwrap();
        assert_eq!(start, main[2]);
        assert_eq!(t.delete(start), 2);
        assert_eq!(t.current(), main[1]);
        assert_eq!(t.lines(), 1);
        assert_eq!(t.line().len(), 3, "the line goes on through the main line");
        assert!(!t.contains(main[3]));
    }
}
