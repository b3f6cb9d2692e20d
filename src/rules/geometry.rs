//! Board geometry: points, adjacency tables, vertex names and Zobrist keys.
//!
//! The rules logic only ever asks a [`Geometry`] for the neighbours of a point, so a new board shape (the
//! hexagonal variant) is a new constructor here and nothing else.

use std::fmt;

use super::error::IllegalMove;

/// Largest number of neighbours a point can have on any supported geometry (6 on a hexagonal board).
pub const MAX_DEGREE: usize = 6;
/// Smallest supported side length.
pub const MIN_SIDE: usize = 2;
/// Largest supported side length: GTP columns are the letters A..Z without I.
pub const MAX_SIDE: usize = 25;

/// Capacity of every per-point table: more than the largest board (625 points) plus the sentinel slot. Indices
/// are masked with `SLOTS - 1`, so table reads need no bounds checks and can never go out of bounds.
pub(crate) const SLOTS: usize = 1024;

/// A fixed-capacity per-point table indexed by point index, masked into range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table<T>(Box<[T; SLOTS]>);

impl<T: Copy> Table<T> {
    /// A table with every entry set to `fill`.
    pub(crate) fn new(fill: T) -> Table<T> {
        let boxed: Box<[T]> = vec![fill; SLOTS].into_boxed_slice();
        Table(
            boxed
                .try_into()
                .unwrap_or_else(|_| unreachable!("the vector has SLOTS entries")),
        )
    }

    /// Copies the first `n` entries of `other`.
    #[inline]
    pub(crate) fn copy_prefix(&mut self, other: &Table<T>, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }

    /// The first `n` entries.
    #[inline]
    pub(crate) fn prefix(&self, n: usize) -> &[T] {
        &self.0[..n]
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (SLOTS - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (SLOTS - 1)]
    }
}

/// GTP column letters: A..Z without I.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point of the board, as an index into the geometry's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point's index, `0..geometry.len()`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The point with the given index. The caller keeps it below the geometry's `len()`.
    #[inline]
    pub fn from_index(index: usize) -> Point {
        debug_assert!(index < u16::MAX as usize);
        Point(index as u16)
    }
}

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black, who moves first.
    Black = 0,
    /// White.
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's name in lower case: `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The colour's one-letter GTP name in lower case: `b` or `w`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The shape of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A rectangular board with orthogonal adjacency (square when both sides are equal).
    Rect {
        /// Number of columns.
        width: usize,
        /// Number of rows.
        height: usize,
    },
}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSize {
    /// The width asked for.
    pub width: usize,
    /// The height asked for.
    pub height: usize,
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{} is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}",
            self.width, self.height
        )
    }
}

impl std::error::Error for BadSize {}

/// The fixed tables of one board: adjacency, names and hash keys.
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    len: usize,
    adj: Table<[Point; MAX_DEGREE]>,
    degree: Table<u8>,
    fan: usize,
    keys: Table<[u64; 2]>,
    white_to_move_key: u64,
    extra_turn_key: u64,
}

impl Geometry {
    /// A square board of `size` x `size`.
    ///
    /// # Errors
    /// [`BadSize`] when `size` is outside 2..=25.
    pub fn square(size: usize) -> Result<Geometry, BadSize> {
        Geometry::rect(size, size)
    }

    /// A rectangular board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`BadSize`] when a side is outside 2..=25.
    pub fn rect(width: usize, height: usize) -> Result<Geometry, BadSize> {
        let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(BadSize { width, height });
        }
        let len = width * height;
        // Missing neighbours point at the sentinel index `len`, which positions keep as an off-board slot.
        let mut adj = Table::new([Point(len as u16); MAX_DEGREE]);
        let mut degree = Table::new(0u8);
        for y in 0..height {
            for x in 0..width {
                let p = y * width + x;
                let mut n = 0;
                let mut push = |q: usize| {
                    adj[p][n] = Point(q as u16);
                    n += 1;
                };
                // Order: left, right, down, up. Any order is correct; this one is fixed for reproducibility.
                if x > 0 {
                    push(p - 1);
                }
                if x + 1 < width {
                    push(p + 1);
                }
                if y > 0 {
                    push(p - width);
                }
                if y + 1 < height {
                    push(p + width);
                }
                degree[p] = n as u8;
            }
        }
        Ok(Geometry::with_tables(
            Shape::Rect { width, height },
            len,
            adj,
            degree,
            4,
        ))
    }

    fn with_tables(
        shape: Shape,
        len: usize,
        adj: Table<[Point; MAX_DEGREE]>,
        degree: Table<u8>,
        fan: usize,
    ) -> Geometry {
        // Fixed keys so that hashes are the same in every run and every build.
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ len as u64;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut keys = Table::new([0u64; 2]);
        for i in 0..len {
            keys[i] = [next(), next()];
        }
        let white_to_move_key = next();
        let extra_turn_key = next();
        Geometry {
            shape,
            len,
            adj,
            degree,
            fan,
            keys,
            white_to_move_key,
            extra_turn_key,
        }
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: every geometry has at least 4 points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Width and height of the bounding rectangle.
    pub fn dimensions(&self) -> (usize, usize) {
        match self.shape {
            Shape::Rect { width, height } => (width, height),
        }
    }

    /// Every point, in index order (row by row from the bottom left).
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        (0..self.len()).map(Point::from_index)
    }

    /// The neighbours of `p`.
    #[inline]
    pub fn neighbors(&self, p: Point) -> &[Point] {
        let i = p.index();
        &self.adj[i][..self.degree[i] as usize]
    }

    /// The neighbour table entry of `p`: its neighbours, then the sentinel index `len()` up to
    /// [`Geometry::fan`] entries (and beyond). For branch-free loops that must not borrow the geometry.
    #[inline]
    pub(crate) fn padded_neighbors(&self, p: Point) -> [Point; MAX_DEGREE] {
        self.adj[p.index()]
    }

    /// The number of neighbour table entries a loop must visit: 4 on square grids, 6 on hexagonal ones.
    #[inline]
    pub fn fan(&self) -> usize {
        self.fan
    }

    /// Zobrist key of a stone of `color` on `p`.
    #[inline]
    pub(crate) fn stone_key(&self, p: Point, color: Color) -> u64 {
        self.keys[p.index()][color.index()]
    }

    /// Zobrist key toggled when White is to move.
    #[inline]
    pub(crate) fn white_to_move_key(&self) -> u64 {
        self.white_to_move_key
    }

    /// Zobrist key toggled during an extra turn.
    #[inline]
    pub(crate) fn extra_turn_key(&self) -> u64 {
        self.extra_turn_key
    }

    /// The point at column `x` and row `y`, both counted from 0 at the bottom left.
    pub fn point_at(&self, x: usize, y: usize) -> Option<Point> {
        let (w, h) = self.dimensions();
        (x < w && y < h).then(|| Point::from_index(y * w + x))
    }

    /// The point at column `x` and row `y`, or the rules' off-board error.
    ///
    /// # Errors
    /// [`IllegalMove::OffBoard`] when the vertex is outside the board.
    pub fn point_checked(&self, x: usize, y: usize) -> Result<Point, IllegalMove> {
        self.point_at(x, y).ok_or_else(|| IllegalMove::OffBoard {
            vertex: vertex_name(x, y),
            width: self.dimensions().0,
            height: self.dimensions().1,
        })
    }

    /// Column and row of `p`, counted from 0 at the bottom left.
    pub fn coords(&self, p: Point) -> (usize, usize) {
        let (w, _) = self.dimensions();
        (p.index() % w, p.index() / w)
    }

    /// The GTP name of `p`, upper case, for example `D4`.
    pub fn name(&self, p: Point) -> String {
        let (x, y) = self.coords(p);
        vertex_name(x, y)
    }

    /// The board size as `WxH`, for example `9x9`.
    pub fn size_name(&self) -> String {
        let (w, h) = self.dimensions();
        format!("{w}x{h}")
    }
}

/// The GTP name of column `x` and row `y` (from 0), upper case. Columns past Z are written `?`.
pub fn vertex_name(x: usize, y: usize) -> String {
    let col = COLUMNS.get(x).map_or('?', |&c| c as char);
    format!("{col}{}", y + 1)
}

/// The column index of a GTP column letter (case-insensitive), or `None` for `I` and non-letters.
pub fn column_index(letter: char) -> Option<usize> {
    let up = letter.to_ascii_uppercase() as u8;
    COLUMNS.iter().position(|&c| c == up)
}

/// The GTP column letter of column `x`.
pub fn column_letter(x: usize) -> char {
    COLUMNS[x] as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_and_centre_degrees() {
        let g = Geometry::rect(4, 3).unwrap();
        assert_eq!(g.len(), 12);
        assert_eq!(g.neighbors(g.point_at(0, 0).unwrap()).len(), 2);
        assert_eq!(g.neighbors(g.point_at(1, 0).unwrap()).len(), 3);
        assert_eq!(g.neighbors(g.point_at(1, 1).unwrap()).len(), 4);
        assert_eq!(g.name(g.point_at(3, 2).unwrap()), "D3");
    }

    #[test]
    fn adjacency_is_symmetric() {
        let g = Geometry::rect(7, 5).unwrap();
        for p in g.points() {
            for &q in g.neighbors(p) {
                assert!(g.neighbors(q).contains(&p));
            }
        }
    }

    #[test]
    fn sizes_outside_range_are_refused() {
        assert!(Geometry::square(1).is_err());
        assert!(Geometry::square(26).is_err());
        assert!(Geometry::rect(25, 2).is_ok());
    }

    #[test]
    fn column_letters_skip_i() {
        assert_eq!(column_index('h'), Some(7));
        assert_eq!(column_index('I'), None);
        assert_eq!(column_index('j'), Some(8));
        assert_eq!(column_letter(24), 'Z');
    }
}
