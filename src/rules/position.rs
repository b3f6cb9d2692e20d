//! A validated Oust position: stones, groups, side to move and extra turn.
//!
//! Groups in Oust only merge (when a capturing placement joins them) or vanish (when they are captured); they never
//! split. Each group is therefore kept incrementally as a circular list of its stones, with its size and the size
//! of the largest enemy group touching it stored at its root point. A legality test reads the neighbours of the
//! point and those two numbers of each adjacent group, and nothing else.

use std::sync::Arc;

use super::color::Color;
use super::error::{IllegalMove, SwapRefusal, TurnReason};
use super::geometry::{Geometry, MAX_DEGREE, OffBoard, Point, Table};
use super::outcome::Outcome;

/// A move: a placement on a point, a pass (legal only when no placement is) or the pie rule's swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a stone of the side to move on the point.
    Place(Point),
    /// Pass: only when the side to move has no legal placement.
    Pass,
    /// The pie rule's swap (rule 9): White answers Black's first placement by taking over the black stone. No
    /// stone changes and White moves again; only the right to swap is used up.
    Swap,
}

/// Where a game stands with respect to the pie rule's swap (rule 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieStage {
    /// The empty board with Black to move and the pie rule on: White will be able to swap.
    Ahead,
    /// White may swap now.
    Available,
    /// The swap plays no further part (the pie rule is off, the swap was used or passed up).
    None,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has a legal placement.
    Ongoing,
    /// The side to move has no legal placement but the opponent has: the only legal move is a pass.
    MustPass,
    /// The game has ended.
    Over(Outcome),
}

/// What a legal move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveReport {
    /// Number of enemy stones removed.
    pub captured: usize,
    /// True when the mover must place again.
    pub extra_turn: bool,
    /// The player now to move when that player has no legal placement and must pass.
    pub forced_pass: Option<Color>,
    /// How the game ended, when this move ended it.
    pub outcome: Option<Outcome>,
    /// The move was the pie rule's swap: the players exchanged colours and White moves again.
    pub swapped: bool,
}

/// What the rules see when a colour considers a placement on an empty point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// True when the point has a friendly neighbour, so the placement must capture to be legal.
    pub joins: bool,
    /// Size of the group the placement would form.
    pub group: usize,
    /// Size of the largest enemy group that the new group would touch (0 when none).
    pub enemy: usize,
}

impl Probe {
    /// True when the placement is legal.
    #[inline]
    pub fn is_legal(self) -> bool {
        !self.joins || (self.enemy > 0 && self.enemy < self.group)
    }
}

/// Zobrist key toggled while the pie rule's swap is available, so that the position before the swap and the one
/// after it (same stones, White to move) differ.
const SWAP_KEY: u64 = 0x5be0_cd19_137e_2179;
/// Zobrist key toggled on the empty board while the pie rule is on (its value differs from the board without it).
const SWAP_AHEAD_KEY: u64 = 0x1f83_d9ab_fb41_bd6b;

const EMPTY: u8 = 2;
/// Colour of the sentinel slot that stands for every missing neighbour.
const BORDER: u8 = 3;
/// Marks a group whose largest touching enemy group must be recomputed.
const DIRTY: u16 = u16::MAX;

/// Per-point state. Group fields (`size`, `max_adj`) are meaningful at a group's root only.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// `Color as u8`, or `EMPTY`.
    color: u8,
    /// Root point of the stone's group.
    gid: u16,
    /// Group size, at the root.
    size: u16,
    /// Size of the largest enemy group touching the group, at the root (0 when none).
    max_adj: u16,
    /// Stones next to the point: black ones in the low four bits, white ones in the high four (see [`around`]).
    /// Meaningless on the sentinel slot.
    around: u8,
}

/// What a stone of `color` adds to the `around` count of each of its neighbours.
#[inline(always)]
fn around(color: u8) -> u8 {
    1 << (4 * (color & 1))
}

/// The bits of an `around` count that hold the stones of `color`.
#[inline(always)]
fn around_mask(color: u8) -> u8 {
    0x0f << (4 * (color & 1))
}

const EMPTY_SLOT: Slot = Slot {
    color: EMPTY,
    gid: 0,
    size: 0,
    max_adj: 0,
    around: 0,
};

/// All-ones when `b`, zero otherwise: for branch-free selection.
#[inline(always)]
fn mask(b: bool) -> u16 {
    (b as u16).wrapping_neg()
}

/// A position: the board with its groups, the side to move, the extra-turn state and the game result.
///
/// Positions come from [`Position::new`] (the empty board), [`Position::setup`] (an arbitrary arrangement) and
/// legal play. [`Position::play`] checks everything; [`Position::place_unchecked`] and
/// [`Position::pass_unchecked`] are the fast path for search and trust the caller.
#[derive(Clone, Debug)]
pub struct Position {
    geo: Arc<Geometry>,
    slots: Table<Slot>,
    /// Next stone of the same group (a circular list), by point.
    next: Table<u16>,
    /// Index into `empties` of each empty point.
    empty_pos: Table<u16>,
    empties: Vec<Point>,
    stones: [u32; 2],
    captured: [u32; 2],
    placements: u32,
    to_move: Color,
    extra_turn: bool,
    winner: Option<Color>,
    last: Option<(Color, Move)>,
    /// The pie rule (rule 9) is on.
    pie: bool,
    /// Scratch list of groups to recompute after a capture, in `dirty[..ndirty]` (kept to avoid allocating).
    dirty: Table<u16>,
    ndirty: usize,
}

impl PartialEq for Position {
    /// Positions are equal when the stones, side to move, extra-turn state, right to swap and result are.
    fn eq(&self, other: &Position) -> bool {
        self.geo.shape() == other.geo.shape()
            && self.to_move == other.to_move
            && self.extra_turn == other.extra_turn
            && self.pie_stage() == other.pie_stage()
            && self.winner == other.winner
            && (0..self.geo.len()).all(|i| self.slots[i].color == other.slots[i].color)
    }
}

impl Position {
    /// The empty board, Black to move.
    pub fn new(geo: Arc<Geometry>) -> Position {
        let stones = vec![None; geo.len()];
        Position::setup(geo, &stones, Color::Black, false)
    }

    /// An arbitrary arrangement of stones (indexed by point), with the given side to move and extra-turn state.
    ///
    /// Any arrangement is accepted: set-up positions need not be reachable. Counters of placements and captures
    /// start at zero.
    ///
    /// # Panics
    /// When `stones.len()` differs from the number of points.
    pub fn setup(
        geo: Arc<Geometry>,
        stones: &[Option<Color>],
        to_move: Color,
        extra_turn: bool,
    ) -> Position {
        assert_eq!(stones.len(), geo.len(), "setup needs one entry per point");
        let n = geo.len();
        let mut slots = Table::new(EMPTY_SLOT);
        slots[n] = Slot {
            color: BORDER,
            gid: n as u16,
            size: 0,
            max_adj: 0,
            around: 0,
        };
        let mut pos = Position {
            slots,
            next: Table::new(0),
            empty_pos: Table::new(0),
            empties: Vec::with_capacity(n),
            stones: [0; 2],
            captured: [0; 2],
            placements: 0,
            to_move,
            extra_turn,
            winner: None,
            last: None,
            pie: false,
            dirty: Table::new(0),
            ndirty: 0,
            geo,
        };
        for (i, s) in stones.iter().enumerate() {
            let p = Point::from_index(i);
            match s {
                Some(c) => {
                    pos.slots[i].color = *c as u8;
                    pos.stones[c.index()] += 1;
                }
                None => pos.add_empty(p),
            }
        }
        // Groups by flood fill: each group's stones form a ring rooted at the first stone found.
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        for i in 0..n {
            if pos.slots[i].color == EMPTY || seen[i] {
                continue;
            }
            let color = pos.slots[i].color;
            let root = i as u16;
            let mut size = 0u16;
            let mut prev = root;
            seen[i] = true;
            stack.push(i);
            while let Some(s) = stack.pop() {
                size += 1;
                pos.slots[s].gid = root;
                if s != i {
                    pos.next[prev as usize] = s as u16;
                    prev = s as u16;
                }
                for &q in pos.geo.neighbors(Point::from_index(s)) {
                    let q = q.index();
                    if !seen[q] && pos.slots[q].color == color {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            pos.next[prev as usize] = root;
            pos.slots[i].size = size;
        }
        for i in 0..n {
            let mut count = 0u8;
            for &q in pos.geo.neighbors(Point::from_index(i)) {
                let c = pos.slots[q.index()].color;
                if c != EMPTY {
                    count += around(c);
                }
            }
            pos.slots[i].around = count;
        }
        for i in 0..n {
            if pos.slots[i].color != EMPTY && pos.slots[i].gid == i as u16 {
                pos.slots[i].max_adj = pos.compute_max_adj::<MAX_DEGREE>(i as u16);
            }
        }
        pos
    }

    /// Makes `self` a copy of `other`, reusing `self`'s memory. The fast way to reset a search position.
    pub fn copy_from(&mut self, other: &Position) {
        if !Arc::ptr_eq(&self.geo, &other.geo) {
            self.geo = Arc::clone(&other.geo);
        }
        self.slots.copy_prefix(&other.slots, other.geo.len() + 1);
        self.next.copy_prefix(&other.next, other.geo.len() + 1);
        self.empty_pos
            .copy_prefix(&other.empty_pos, other.geo.len() + 1);
        self.empties.clone_from(&other.empties);
        self.stones = other.stones;
        self.captured = other.captured;
        self.placements = other.placements;
        self.to_move = other.to_move;
        self.extra_turn = other.extra_turn;
        self.winner = other.winner;
        self.last = other.last;
        self.pie = other.pie;
    }

    /// The board's geometry.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The shared handle to the board's geometry.
    pub fn geometry_arc(&self) -> &Arc<Geometry> {
        &self.geo
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// True when the side to move captured and is placing again.
    #[inline]
    pub fn extra_turn(&self) -> bool {
        self.extra_turn
    }

    /// The player who captured every enemy stone, once that has happened.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Zobrist hash of the stones, the side to move, the extra-turn state and the right to swap.
    ///
    /// Computed from the stones on each call, in time linear in the board size: placements do not keep it up to
    /// date, because nothing that plays many of them asks for it (the solver keeps hashes of its own, under the
    /// board's symmetries), and keeping it cost random playouts 3.5% of their instructions.
    pub fn hash(&self) -> u64 {
        let mut hash = 0;
        for p in self.geo.points() {
            if let Some(color) = self.color_at(p) {
                hash ^= self.geo.stone_key(p, color);
            }
        }
        if self.to_move == Color::White {
            hash ^= self.geo.white_to_move_key();
        }
        if self.extra_turn {
            hash ^= self.geo.extra_turn_key();
        }
        match self.pie_stage() {
            PieStage::Ahead => hash ^ SWAP_AHEAD_KEY,
            PieStage::Available => hash ^ SWAP_KEY,
            PieStage::None => hash,
        }
    }

    /// Where the game stands with respect to the pie rule's swap: still ahead, available now, or out of the
    /// picture (pie off, used, passed, or a game that did not start from the empty board).
    #[inline]
    pub fn pie_stage(&self) -> PieStage {
        if !self.pie || self.placements > 1 {
            PieStage::None
        } else if self.swap_available() {
            PieStage::Available
        } else if self.placements == 0 && self.stones == [0, 0] && self.to_move == Color::Black {
            PieStage::Ahead
        } else {
            PieStage::None
        }
    }

    /// True when the pie rule (rule 9) is on for this game.
    #[inline]
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// Switches the pie rule on or off. It matters only at White's first move, which [`Position::swap_available`]
    /// recognises from the position itself.
    pub fn set_pie(&mut self, on: bool) {
        self.pie = on;
    }

    /// True when the side to move may play [`Move::Swap`]: the pie rule is on, and White is to move in answer to
    /// Black's first placement on the empty board (one black stone, no other placement since the empty board).
    #[inline]
    pub fn swap_available(&self) -> bool {
        self.pie
            && self.placements == 1
            && matches!(self.last, Some((Color::Black, Move::Place(_))))
            && self.stones == [1, 0]
    }

    /// Why [`Move::Swap`] is illegal for `color` here, or `None` when it is legal.
    pub fn swap_refusal(&self, color: Color) -> Option<SwapRefusal> {
        if !self.pie {
            Some(SwapRefusal::PieOff)
        } else if color == Color::Black {
            Some(SwapRefusal::Black)
        } else if self.swap_available() {
            None
        } else if matches!(self.last, Some((_, Move::Swap))) {
            Some(SwapRefusal::Used)
        } else if self.placements == 0 && self.stones == [0, 0] {
            Some(SwapRefusal::NoStone)
        } else {
            Some(SwapRefusal::TooLate)
        }
    }

    /// Plays the swap without checking that it is available: the right to swap is used up, White moves again.
    pub fn swap_unchecked(&mut self) {
        self.last = Some((self.to_move, Move::Swap));
    }

    /// Number of stones of `color` on the board.
    #[inline]
    pub fn stone_count(&self, color: Color) -> usize {
        self.stones[color.index()] as usize
    }

    /// Number of enemy stones `color` has captured since the position was set up.
    pub fn captured_by(&self, color: Color) -> usize {
        self.captured[color.index()] as usize
    }

    /// Number of placements played since the position was set up.
    pub fn placements(&self) -> usize {
        self.placements as usize
    }

    /// The last move played and who played it, if any since set-up.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.last
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.slots[p.index()].color {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// Size of the group containing the stone on `p` (0 for an empty point).
    pub fn group_size_at(&self, p: Point) -> usize {
        let s = self.slots[p.index()];
        if s.color == EMPTY {
            0
        } else {
            self.slots[s.gid as usize].size as usize
        }
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[Point] {
        &self.empties
    }

    /// Why the side to move is who it is.
    pub fn turn_reason(&self) -> TurnReason {
        if self.extra_turn {
            return TurnReason::ExtraTurn;
        }
        match self.last {
            None => TurnReason::Start,
            Some((_, Move::Pass)) => TurnReason::AfterPass,
            Some((_, Move::Place(_))) => TurnReason::Alternation,
            Some((_, Move::Swap)) => TurnReason::AfterSwap,
        }
    }

    /// What a placement of `color` on the empty point `p` would form.
    #[inline]
    pub fn probe(&self, color: Color, p: Point) -> Probe {
        match self.geo.fan() {
            4 => self.quick_probe_n::<4>(color as u8, p),
            _ => self.quick_probe_n::<MAX_DEGREE>(color as u8, p),
        }
    }

    /// A probe that settles points without a friendly neighbour from one look at the neighbours.
    #[inline(always)]
    fn quick_probe_n<const N: usize>(&self, me: u8, p: Point) -> Probe {
        let (joins, enemy) = self.contacts_n::<N>(me, p);
        if joins {
            self.probe_n::<N>(me, p).0
        } else {
            Probe {
                joins: false,
                group: 1,
                enemy: enemy as usize,
            }
        }
    }

    /// [`Position::probe`] for a neighbour table of `N` entries, without data-dependent branches: the colours
    /// around a random point are unpredictable, and mispredicted branches would dominate the cost. Also returns
    /// the group root of each friendly neighbour (`u16::MAX` for the other entries).
    #[inline(always)]
    fn probe_n<const N: usize>(&self, me: u8, p: Point) -> (Probe, [u16; N]) {
        let nb = self.geo.padded_neighbors(p);
        let enemy_color = me ^ 1;
        let mut gids = [u16::MAX; N];
        let mut group = 1u16;
        let mut enemy = 0u16;
        for i in 0..N {
            let s = self.slots[nb[i].index()];
            let root = self.slots[s.gid as usize];
            let friendly = s.color == me;
            let mut seen = false;
            for &g in &gids[..i] {
                seen |= g == s.gid;
            }
            group += root.size & mask(friendly & !seen);
            enemy = enemy
                .max((root.max_adj & mask(friendly)) | (root.size & mask(s.color == enemy_color)));
            gids[i] = s.gid | mask(!friendly);
        }
        (
            Probe {
                joins: group > 1,
                group: group as usize,
                enemy: enemy as usize,
            },
            gids,
        )
    }

    /// True when `color` may place on `p`, which must be empty.
    #[inline]
    pub fn is_legal_for(&self, color: Color, p: Point) -> bool {
        match self.geo.fan() {
            4 => self.is_legal_n::<4>(color as u8, p),
            _ => self.is_legal_n::<MAX_DEGREE>(color as u8, p),
        }
    }

    #[inline(always)]
    fn is_legal_n<const N: usize>(&self, me: u8, p: Point) -> bool {
        // Most points have no friendly neighbour and are legal at once; only the others need the group sums.
        let joins = self.slots[p.index()].around & around_mask(me) != 0;
        !joins || self.joining_is_legal_n::<N>(me, p)
    }

    /// Whether a placement of `me` on `p`, which has a friendly neighbour, is legal. The new group has between
    /// `big + 1` and `sum + 1` stones, where `big` is the largest friendly group next to `p` and `sum` adds up the
    /// friendly neighbours' groups, a group counted once per neighbour of `p` in it. The largest enemy group it
    /// would touch nearly always decides against those bounds; only in between are the groups told apart.
    #[inline(always)]
    fn joining_is_legal_n<const N: usize>(&self, me: u8, p: Point) -> bool {
        let (enemy, big, sum) = self.joining_bounds_n::<N>(me, p);
        if enemy == 0 || enemy > sum {
            false
        } else if enemy <= big {
            true
        } else {
            self.probe_n::<N>(me, p).0.is_legal()
        }
    }

    /// For a placement of `me` on `p`: the size of the largest enemy group it would touch (directly or through the
    /// friendly groups it joins), the largest friendly group next to `p`, and the sum of the friendly neighbours'
    /// groups, a group counted once per neighbour of `p` in it. The group the placement forms has between
    /// `big + 1` and `sum + 1` stones.
    #[inline(always)]
    fn joining_bounds_n<const N: usize>(&self, me: u8, p: Point) -> (u16, u16, u16) {
        let nb = self.geo.padded_neighbors(p);
        let enemy_color = me ^ 1;
        let (mut enemy, mut big, mut sum) = (0u16, 0u16, 0u16);
        for &q in &nb[..N] {
            let s = self.slots[q.index()];
            let root = self.slots[s.gid as usize];
            let friendly = mask(s.color == me);
            enemy =
                enemy.max((root.max_adj & friendly) | (root.size & mask(s.color == enemy_color)));
            let size = root.size & friendly;
            big = big.max(size);
            sum += size;
        }
        (enemy, big, sum)
    }

    /// True when a placement of `color` on the empty point `p` would join friendly stones into a group larger than
    /// `floor` and than every enemy group it would touch. With `floor` 1 and no enemy group in reach, that is any
    /// joining placement: the policy asks it of a point next to a stone that is not on the board yet.
    #[inline]
    pub fn outgrows(&self, color: Color, p: Point, floor: usize) -> bool {
        match self.geo.fan() {
            4 => self.outgrows_n::<4>(color as u8, p, floor),
            _ => self.outgrows_n::<MAX_DEGREE>(color as u8, p, floor),
        }
    }

    #[inline(always)]
    fn outgrows_n<const N: usize>(&self, me: u8, p: Point, floor: usize) -> bool {
        let (enemy, big, sum) = self.joining_bounds_n::<N>(me, p);
        let beat = usize::from(enemy).max(floor);
        if sum == 0 || beat > usize::from(sum) {
            false
        } else if beat <= usize::from(big) {
            true
        } else {
            self.probe_n::<N>(me, p).0.group > beat
        }
    }

    /// Whether `me` has a stone next to `p`, and the size of the largest enemy group next to `p`.
    #[inline(always)]
    fn contacts_n<const N: usize>(&self, me: u8, p: Point) -> (bool, u16) {
        let nb = self.geo.padded_neighbors(p);
        let enemy_color = me ^ 1;
        let mut joins = false;
        let mut enemy = 0u16;
        for &q in &nb[..N] {
            let s = self.slots[q.index()];
            joins |= s.color == me;
            enemy = enemy.max(self.slots[s.gid as usize].size & mask(s.color == enemy_color));
        }
        (joins, enemy)
    }

    /// True when the side to move may place on the empty point `p`.
    #[inline]
    pub fn is_legal(&self, p: Point) -> bool {
        self.is_legal_for(self.to_move, p)
    }

    /// Whether the side to move has a stone next to `p`, and whether its opponent has one, read from the counts of
    /// neighbouring stones kept for every point. A placement on an empty point with a friendly neighbour joins (and
    /// captures when legal); one without is always legal, and quiet when no enemy stone is next to it either.
    #[inline(always)]
    pub fn touches(&self, p: Point) -> (bool, bool) {
        let me = self.to_move as u8;
        let a = self.slots[p.index()].around;
        (a & around_mask(me) != 0, a & around_mask(me ^ 1) != 0)
    }

    /// True when the side to move has a friendly stone next to `p`: a legal placement there captures.
    #[inline]
    pub fn joins_friendly(&self, p: Point) -> bool {
        let me = self.to_move as u8;
        self.geo
            .neighbors(p)
            .iter()
            .any(|q| self.slots[q.index()].color == me)
    }

    /// True when `color` has at least one legal placement.
    pub fn has_legal_placement(&self, color: Color) -> bool {
        self.winner.is_none() && self.empties.iter().any(|&p| self.is_legal_for(color, p))
    }

    /// Where the game stands: ongoing, a forced pass, or over.
    pub fn status(&self) -> Status {
        if let Some(w) = self.winner {
            Status::Over(Outcome::Win(w))
        } else if self.has_legal_placement(self.to_move) {
            Status::Ongoing
        } else if self.has_legal_placement(self.to_move.opponent()) {
            Status::MustPass
        } else {
            Status::Over(Outcome::Draw)
        }
    }

    /// Appends the legal placements of the side to move to `out`, in point order.
    pub fn legal_placements(&self, out: &mut Vec<Point>) {
        if self.winner.is_some() {
            return;
        }
        for (i, s) in self.slots.prefix(self.geo.len()).iter().enumerate() {
            let p = Point::from_index(i);
            if s.color == EMPTY && self.is_legal(p) {
                out.push(p);
            }
        }
    }

    /// The legal moves of the side to move: its placements in point order, then [`Move::Swap`] while the pie rule
    /// allows it; `[Pass]` when it must pass, and nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut points = Vec::new();
        self.legal_placements(&mut points);
        if points.is_empty() {
            return match self.status() {
                Status::MustPass => vec![Move::Pass],
                _ => Vec::new(),
            };
        }
        let mut moves: Vec<Move> = points.into_iter().map(Move::Place).collect();
        if self.swap_available() {
            moves.push(Move::Swap);
        }
        moves
    }

    /// Checks a placement of `color` on `p` and says why it is illegal. Turn order is not checked here.
    ///
    /// # Errors
    /// [`IllegalMove::OffBoard`], [`IllegalMove::Occupied`], [`IllegalMove::NoEnemyContact`] or
    /// [`IllegalMove::NotSmaller`].
    pub fn check_placement(&self, color: Color, p: Point) -> Result<Probe, IllegalMove> {
        if p.index() >= self.geo.len() {
            return Err(IllegalMove::OffBoard(OffBoard {
                vertex: format!("point {}", p.index()),
                board: self.geo.shape(),
                on_grid: false,
            }));
        }
        if let Some(stone) = self.color_at(p) {
            return Err(IllegalMove::Occupied {
                vertex: self.geo.name(p),
                stone,
            });
        }
        let probe = self.probe(color, p);
        if probe.is_legal() {
            Ok(probe)
        } else if probe.enemy == 0 {
            Err(IllegalMove::NoEnemyContact {
                vertex: self.geo.name(p),
                color,
                group: probe.group,
            })
        } else {
            Err(IllegalMove::NotSmaller {
                vertex: self.geo.name(p),
                color,
                group: probe.group,
                enemy: probe.enemy,
            })
        }
    }

    /// Plays `mv` for `color`, checking that it is `color`'s turn and that the move is legal.
    ///
    /// # Errors
    /// Any [`IllegalMove`]; the position is then unchanged.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<MoveReport, IllegalMove> {
        let status = self.status();
        if let Status::Over(outcome) = status {
            return Err(IllegalMove::GameOver { outcome });
        }
        if mv == Move::Swap
            && let Some(why) = self.swap_refusal(color)
        {
            return Err(IllegalMove::SwapNotAllowed { why });
        }
        if color != self.to_move {
            return Err(IllegalMove::NotYourTurn {
                color,
                to_move: self.to_move,
                reason: self.turn_reason(),
                must_pass: status == Status::MustPass,
            });
        }
        self.play_checked(status, mv)
    }

    /// Plays `mv` for the side to move, checking that it is legal.
    ///
    /// # Errors
    /// Any [`IllegalMove`] but `NotYourTurn`; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<MoveReport, IllegalMove> {
        let status = self.status();
        if let Status::Over(outcome) = status {
            return Err(IllegalMove::GameOver { outcome });
        }
        self.play_checked(status, mv)
    }

    fn play_checked(&mut self, status: Status, mv: Move) -> Result<MoveReport, IllegalMove> {
        let captured = match mv {
            Move::Pass => {
                if status == Status::Ongoing {
                    let example = self
                        .empties
                        .iter()
                        .copied()
                        .filter(|&p| self.is_legal(p))
                        .min();
                    let example = example.map_or_else(String::new, |p| self.geo.name(p));
                    return Err(IllegalMove::PassNotAllowed {
                        color: self.to_move,
                        example,
                    });
                }
                self.pass_unchecked();
                0
            }
            Move::Place(p) => {
                self.check_placement(self.to_move, p)?;
                self.place_unchecked(p)
            }
            Move::Swap => {
                if let Some(why) = self.swap_refusal(self.to_move) {
                    return Err(IllegalMove::SwapNotAllowed { why });
                }
                self.swap_unchecked();
                0
            }
        };
        let mut report = MoveReport {
            captured,
            extra_turn: self.extra_turn,
            swapped: mv == Move::Swap,
            ..MoveReport::default()
        };
        match self.status() {
            Status::Ongoing => {}
            Status::MustPass => report.forced_pass = Some(self.to_move),
            Status::Over(outcome) => report.outcome = Some(outcome),
        }
        Ok(report)
    }

    /// Passes for the side to move without checking that a pass is legal.
    pub fn pass_unchecked(&mut self) {
        self.last = Some((self.to_move, Move::Pass));
        self.end_turn();
    }

    /// Places a stone of the side to move on the empty point `p` when that is legal and returns the number of
    /// stones captured; returns `None` and changes nothing when it is illegal. The search's fast path: the
    /// legality test and the placement share one look at the neighbours.
    #[inline]
    pub fn try_place(&mut self, p: Point) -> Option<usize> {
        match self.geo.fan() {
            4 => self.try_place_n::<4>(p),
            _ => self.try_place_n::<MAX_DEGREE>(p),
        }
    }

    /// Places a stone of the side to move on `p` and returns the number of stones captured. The caller
    /// guarantees that `p` is empty and the placement legal (see [`Position::is_legal`]); an illegal placement
    /// panics in debug builds and is ignored in release builds.
    #[inline]
    pub fn place_unchecked(&mut self, p: Point) -> usize {
        let captured = self.try_place(p);
        debug_assert!(
            captured.is_some(),
            "illegal placement on {}",
            self.geo.name(p)
        );
        captured.unwrap_or(0)
    }

    /// [`Position::try_place`] for a loop that has already looked up the geometry's [`Geometry::fan`], which must
    /// be `N`: the search's playouts decide it once per playout rather than once per placement.
    #[inline(always)]
    pub fn try_place_with<const N: usize>(&mut self, p: Point) -> Option<usize> {
        debug_assert_eq!(N, self.geo.fan());
        self.try_place_n::<N>(p)
    }

    /// [`Position::is_legal`] for a loop that has already looked up the geometry's [`Geometry::fan`], which must
    /// be `N`.
    #[inline(always)]
    pub fn is_legal_with<const N: usize>(&self, p: Point) -> bool {
        debug_assert_eq!(N, self.geo.fan());
        self.is_legal_n::<N>(self.to_move as u8, p)
    }

    #[inline(always)]
    fn try_place_n<const N: usize>(&mut self, p: Point) -> Option<usize> {
        let color = self.to_move;
        let me = color as u8;
        let enemy_color = me ^ 1;
        let pi = p.index();
        debug_assert_eq!(self.slots[pi].color, EMPTY);
        // The point's count of neighbouring stones says whether the placement joins friendly stones.
        let nb = self.geo.padded_neighbors(p);
        let joins = self.slots[pi].around & around_mask(me) != 0;
        if !joins {
            // Non-capturing: a new group of one. Every enemy group next to it now touches a group of size 1, and
            // the new stone touches the largest of them. Other neighbours stand for the sentinel, whose size is
            // always 0 and whose `max_adj` no test uses (placements and removals write it).
            self.note_placement(p, color);
            let sentinel = self.geo.len() as u16;
            let mut enemy_max = 0;
            let mut slots = self.slots.cells();
            for &q in &nb[..N] {
                let s = slots[q.index()];
                slots[q.index()].around = s.around.wrapping_add(around(me));
                let target =
                    std::hint::select_unpredictable(s.color == enemy_color, s.gid, sentinel);
                let r = &mut slots[target as usize];
                enemy_max = enemy_max.max(r.size);
                r.max_adj = r.max_adj.max(1);
            }
            let a = slots[pi].around;
            slots[pi] = Slot {
                color: me,
                gid: pi as u16,
                size: 1,
                max_adj: enemy_max,
                around: a,
            };
            self.next[pi] = pi as u16;
            self.end_turn();
            return Some(0);
        }
        if !self.joining_is_legal_n::<N>(me, p) {
            return None;
        }
        self.note_placement(p, color);
        Some(self.capture::<N>(p, color))
    }

    /// Bookkeeping shared by every placement: the empty list, counters and last move.
    #[inline(always)]
    fn note_placement(&mut self, p: Point, color: Color) {
        self.remove_empty(p);
        self.stones[color.index()] += 1;
        self.placements += 1;
        self.last = Some((color, Move::Place(p)));
    }

    /// The capturing part of a legal placement of `color` on `p`, next to friendly groups.
    fn capture<const N: usize>(&mut self, p: Point, color: Color) -> usize {
        let me = color as u8;
        let pi = p.index();
        let nb = self.geo.padded_neighbors(p);
        // The distinct friendly groups around `p`, and the size of the group they form with the new stone; the
        // largest keeps its root.
        let mut roots = [u16::MAX; MAX_DEGREE];
        let mut nroots = 0;
        let mut root = u16::MAX;
        let mut total = 1u16;
        for &q in &nb[..N] {
            let s = self.slots[q.index()];
            let g = s.gid;
            if s.color == me && !roots[..nroots].contains(&g) {
                roots[nroots] = g;
                nroots += 1;
                let size = self.slots[g as usize].size;
                total += size;
                if root == u16::MAX || size > self.slots[root as usize].size {
                    root = g;
                }
            }
        }
        self.slots[pi].color = me;
        self.slots[pi].gid = root;
        for &q in &nb[..N] {
            let a = &mut self.slots[q.index()].around;
            *a = a.wrapping_add(around(me));
        }
        let roots = &roots[..nroots];
        // Only the friendly groups that touched an enemy group can reach one. Marking all of them as already
        // queued for recomputation keeps them out of the queue while enemy stones next to them are removed: the
        // new group touches no enemy group once the capture is over.
        let mut touched = [0u16; MAX_DEGREE];
        let mut ntouched = 0;
        for &r in roots {
            let g = &mut self.slots[r as usize];
            touched[ntouched] = r;
            ntouched += usize::from(g.max_adj != 0);
            g.max_adj = DIRTY;
        }
        // Every enemy group touching the new group goes.
        let mut captured = 0;
        for &q in &nb[..N] {
            captured += self.capture_if_enemy::<N>(q, color);
        }
        let enemies = around_mask(me ^ 1);
        for &r in &touched[..ntouched] {
            let mut s = r;
            loop {
                if self.slots[s as usize].around & enemies != 0 {
                    for &q in &self.geo.padded_neighbors(Point::from_index(s as usize))[..N] {
                        captured += self.capture_if_enemy::<N>(q, color);
                    }
                }
                s = self.next[s as usize];
                if s == r {
                    break;
                }
            }
        }
        // Merge the friendly groups and the new stone into the largest one's ring.
        for &r in roots {
            if r == root {
                continue;
            }
            let mut s = r;
            loop {
                self.slots[s as usize].gid = root;
                s = self.next[s as usize];
                if s == r {
                    break;
                }
            }
            let a = self.next[root as usize];
            self.next[root as usize] = self.next[r as usize];
            self.next[r as usize] = a;
        }
        self.next[pi] = self.next[root as usize];
        self.next[root as usize] = pi as u16;
        self.slots[root as usize].size = total;
        self.slots[root as usize].max_adj = 0;
        // Other friendly groups that lost an enemy neighbour.
        while self.ndirty > 0 {
            self.ndirty -= 1;
            let r = self.dirty[self.ndirty];
            self.slots[r as usize].max_adj = self.compute_max_adj::<N>(r);
        }
        self.captured[color.index()] += captured as u32;
        let won = self.stones[color.opponent().index()] == 0;
        if won {
            self.winner = Some(color);
        }
        self.extra_turn = !won;
        captured
    }

    /// Removes the enemy group on `q`, if `q` holds an enemy stone, and returns the number of stones removed.
    /// Friendly groups that touched a removed stone are queued for recomputation, unless already marked.
    #[inline(always)]
    fn capture_if_enemy<const N: usize>(&mut self, q: Point, mover: Color) -> usize {
        let s = self.slots[q.index()];
        if s.color != mover.opponent() as u8 {
            return 0;
        }
        self.remove_group::<N>(s.gid, mover)
    }

    /// Removes the enemy group rooted at `r` (see [`Position::capture_if_enemy`]).
    #[inline(never)]
    fn remove_group<const N: usize>(&mut self, r: u16, mover: Color) -> usize {
        let enemy = mover.opponent();
        let sentinel = self.geo.len() as u16;
        let mut x = r;
        let mut n = 0;
        loop {
            let next = self.next[x as usize];
            let px = Point::from_index(x as usize);
            self.slots[x as usize].color = EMPTY;
            self.add_empty(px);
            n += 1;
            // Without data-dependent branches: a neighbour that is not a friendly stone marks the sentinel instead
            // (whose `max_adj` no test uses) and is never queued.
            let mut slots = self.slots.cells();
            let mut dirty = self.dirty.cells();
            for &y in &self.geo.padded_neighbors(px)[..N] {
                let sy = slots[y.index()];
                slots[y.index()].around = sy.around.wrapping_sub(around(enemy as u8));
                let friendly = sy.color == mover as u8;
                let g = std::hint::select_unpredictable(friendly, sy.gid, sentinel);
                let fresh = friendly & (slots[g as usize].max_adj != DIRTY);
                slots[g as usize].max_adj = DIRTY;
                dirty[self.ndirty] = g;
                self.ndirty += usize::from(fresh);
            }
            x = next;
            if x == r {
                break;
            }
        }
        self.stones[enemy.index()] -= n as u32;
        n
    }

    /// The size of the largest enemy group touching the group rooted at `r`.
    fn compute_max_adj<const N: usize>(&self, r: u16) -> u16 {
        let enemy_color = self.slots[r as usize].color ^ 1;
        let enemies = around_mask(enemy_color);
        let mut best = 0;
        let mut s = r;
        loop {
            if self.slots[s as usize].around & enemies != 0 {
                for &q in &self.geo.padded_neighbors(Point::from_index(s as usize))[..N] {
                    let t = self.slots[q.index()];
                    best = best.max(self.slots[t.gid as usize].size & mask(t.color == enemy_color));
                }
            }
            s = self.next[s as usize];
            if s == r {
                break;
            }
        }
        best
    }

    fn end_turn(&mut self) {
        self.to_move = self.to_move.opponent();
        self.extra_turn = false;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p.index()] as usize;
        let last = self.empties.pop().expect("an empty point to remove");
        if last != p {
            self.empties[i] = last;
            self.empty_pos[last.index()] = i as u16;
        }
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_pos[p.index()] = self.empties.len() as u16;
        self.empties.push(p);
    }

    /// Recomputes every incremental structure from the stones alone and reports the first disagreement.
    /// For tests and debugging; linear in the board size.
    ///
    /// # Errors
    /// A description of the first inconsistency found.
    pub fn check_invariants(&self) -> Result<(), String> {
        let stones: Vec<Option<Color>> = self.geo.points().map(|p| self.color_at(p)).collect();
        let fresh = Position::setup(
            Arc::clone(&self.geo),
            &stones,
            self.to_move,
            self.extra_turn,
        );
        if fresh.stones != self.stones {
            return Err(format!(
                "stone counts {:?} should be {:?}",
                self.stones, fresh.stones
            ));
        }
        for p in self.geo.points() {
            let (a, b) = (self.slots[p.index()], fresh.slots[p.index()]);
            if a.around != b.around {
                return Err(format!(
                    "{} counts {:#x} stones around it, should be {:#x}",
                    self.geo.name(p),
                    a.around,
                    b.around
                ));
            }
            if a.color == EMPTY {
                if self.empties.get(self.empty_pos[p.index()] as usize) != Some(&p) {
                    return Err(format!(
                        "empty point {} is not in the empty list",
                        self.geo.name(p)
                    ));
                }
                continue;
            }
            let (ra, rb) = (self.slots[a.gid as usize], fresh.slots[b.gid as usize]);
            if ra.size != rb.size || ra.max_adj != rb.max_adj {
                return Err(format!(
                    "group at {}: size {} max_adj {} should be {} and {}",
                    self.geo.name(p),
                    ra.size,
                    ra.max_adj,
                    rb.size,
                    rb.max_adj
                ));
            }
            // Same group in both: the other stones of the group agree on the root.
            for &q in self.geo.neighbors(p) {
                let (qa, qb) = (self.slots[q.index()], fresh.slots[q.index()]);
                if qa.color == a.color && (qa.gid == a.gid) != (qb.gid == b.gid) {
                    return Err(format!(
                        "{} and {} disagree on their group",
                        self.geo.name(p),
                        self.geo.name(q)
                    ));
                }
            }
        }
        if self.empties.len() != self.geo.len() - (self.stones[0] + self.stones[1]) as usize {
            return Err("empty list has the wrong length".to_string());
        }
        Ok(())
    }
}
