//! Board geometry: the shape of the board and everything that depends on it.
//!
//! A [`Geometry`] is built from a [`Shape`]: a rectangle (a square when both sides are equal) or a hexhex board. It
//! owns every answer that depends on the shape: the points and their neighbour tables, the Zobrist keys, vertex
//! names in both directions, SGF coordinates, and the rows and layout that diagrams and set-ups use. The rules logic
//! only ever asks it for the neighbours of a point, and no code outside this module does grid arithmetic. Here: the
//! points, their neighbours, keys and symmetries; names.rs: vertex names and SGF coordinates; layout.rs: diagrams.
//!
//! Points lie on a grid of columns `x` and rows `y`, both counted from 0 at the bottom left, and are named as GTP
//! names them: a column letter (A, B, ... without I) and a row number from 1. A hexhex board of side S lies on
//! GoGui's hexagonal rhombus of 2S-1 columns and 2S-1 rows: it is the set of cells with |x - y| < S, and the six
//! neighbours of a cell are (x-1, y), (x+1, y), (x, y-1), (x, y+1), (x+1, y+1) and (x-1, y-1).

use std::sync::{Arc, Mutex, PoisonError};

use super::color::Color;
use super::shape::{BadSize, Shape};

mod layout;
mod names;

pub use layout::{Layout, LayoutItem, LayoutLine, RowLabels};
pub use names::{OffBoard, VertexError, column_index, column_letter};

/// Largest number of neighbours a point can have on any supported geometry (6 on a hexagonal board).
pub const MAX_DEGREE: usize = 6;

/// Capacity of every per-point table: more than the largest board (625 points) plus the sentinel slot. Indices
/// are masked with `SLOTS - 1`, so table reads need no bounds checks and can never go out of bounds.
pub(crate) const SLOTS: usize = 1024;

/// Geometries that [`Geometry::shared`] keeps.
pub const SHARED_GEOMETRIES: usize = 8;

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

impl<T> Table<T> {
    /// The entries behind a plain reference, for loops that store into the table: indexing a [`Cells`] reads no
    /// pointer from memory, where indexing the table itself reloads it after every store.
    #[inline(always)]
    pub(crate) fn cells(&mut self) -> Cells<'_, T> {
        Cells(&mut self.0)
    }
}

/// The entries of a [`Table`], borrowed; indices are masked into range as the table's are.
pub(crate) struct Cells<'a, T>(&'a mut [T; SLOTS]);

impl<T> std::ops::Index<usize> for Cells<'_, T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (SLOTS - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Cells<'_, T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (SLOTS - 1)]
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

/// A map of grid coordinates to grid coordinates (a symmetry of the board while it is being built).
type GridMap = Box<dyn Fn(i64, i64) -> (i64, i64)>;

/// The fixed tables of one board: points, adjacency, names and hash keys.
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    /// Columns of the grid.
    width: usize,
    /// Rows of the grid.
    height: usize,
    len: usize,
    adj: Table<[Point; MAX_DEGREE]>,
    degree: Table<u8>,
    /// Each point's neighbours in cyclic order, the sentinel `len` where the board has none.
    ring: Vec<[Point; MAX_DEGREE]>,
    fan: usize,
    keys: Table<[u64; 2]>,
    white_to_move_key: u64,
    extra_turn_key: u64,
    /// Column and row of each point.
    cells: Vec<(u8, u8)>,
    /// The point at each grid position `y * width + x`, `None` where the grid has none.
    grid: Vec<Option<Point>>,
}

impl Geometry {
    /// The board of the given shape.
    ///
    /// # Errors
    /// [`BadSize`] when the shape's sizes are not supported (see [`Shape::checked`]).
    pub fn new(shape: Shape) -> Result<Geometry, BadSize> {
        let shape = shape.checked()?;
        let (width, height) = shape.extent();
        let on_board = |x: usize, y: usize| match shape {
            Shape::Rect { .. } => true,
            Shape::Hex { side } => x.abs_diff(y) < side,
        };
        // Points row by row from the bottom left.
        let mut grid = vec![None; width * height];
        let mut cells = Vec::new();
        for y in 0..height {
            for x in 0..width {
                if on_board(x, y) {
                    grid[y * width + x] = Some(Point(cells.len() as u16));
                    cells.push((x as u8, y as u8));
                }
            }
        }
        let len = cells.len();
        // Neighbour order: left, right, down, up, then the two diagonals of the hexagonal grid. Any order is
        // correct; this one is fixed for reproducibility.
        let directions: &[(isize, isize)] = match shape {
            Shape::Rect { .. } => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
            Shape::Hex { .. } => &[(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)],
        };
        // Missing neighbours point at the sentinel index `len`, which positions keep as an off-board slot.
        let mut adj = Table::new([Point(len as u16); MAX_DEGREE]);
        let mut degree = Table::new(0u8);
        // The point one step (dx, dy) from grid position (x, y), if the board has one there.
        let step = |(x, y): (u8, u8), (dx, dy): (isize, isize)| -> Option<Point> {
            let qx = (x as usize).checked_add_signed(dx)?;
            let qy = (y as usize).checked_add_signed(dy)?;
            if qx < width && qy < height {
                grid[qy * width + qx]
            } else {
                None
            }
        };
        for (p, &cell) in cells.iter().enumerate() {
            let mut n = 0;
            for q in directions.iter().filter_map(|&d| step(cell, d)) {
                adj[p][n] = q;
                n += 1;
            }
            degree[p] = n as u8;
        }
        // The same neighbours in cyclic order around the point (east, then counter-clockwise on the grid), with
        // the gaps kept: what local patterns are read from.
        let cyclic: &[(isize, isize)] = match shape {
            Shape::Rect { .. } => &[(1, 0), (0, 1), (-1, 0), (0, -1)],
            Shape::Hex { .. } => &[(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)],
        };
        let ring = cells
            .iter()
            .map(|&cell| {
                let mut r = [Point(len as u16); MAX_DEGREE];
                for (slot, &d) in r.iter_mut().zip(cyclic) {
                    if let Some(q) = step(cell, d) {
                        *slot = q;
                    }
                }
                r
            })
            .collect();
        // Fixed keys so that hashes are the same in every run and every build.
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ len as u64;
        if shape.is_hex() {
            state ^= 0x6865_7868_6578_0000;
        }
        let mut next = move || crate::rng::splitmix64(&mut state);
        let mut keys = Table::new([0u64; 2]);
        for i in 0..len {
            keys[i] = [next(), next()];
        }
        let white_to_move_key = next();
        let extra_turn_key = next();
        Ok(Geometry {
            shape,
            width,
            height,
            len,
            adj,
            degree,
            ring,
            fan: directions.len(),
            keys,
            white_to_move_key,
            extra_turn_key,
            cells,
            grid,
        })
    }

    /// The board of the given shape, shared: the geometries of the last few shapes asked for are kept, so that
    /// code that starts engines or reads records over and over on the same boards (a `loadsgf` reads and
    /// replays a record on geometries of its own; the fuzz targets run thousands of them a second) builds each
    /// once. At most [`SHARED_GEOMETRIES`] are kept, the least recently used one leaving first.
    ///
    /// # Errors
    /// [`BadSize`] when the shape's sizes are not supported (see [`Shape::checked`]).
    pub fn shared(shape: Shape) -> Result<Arc<Geometry>, BadSize> {
        static KEPT: Mutex<Vec<Arc<Geometry>>> = Mutex::new(Vec::new());
        let shape = shape.checked()?;
        let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = kept.iter().position(|g| g.shape == shape) {
            let geo = kept.remove(i);
            kept.push(Arc::clone(&geo));
            return Ok(geo);
        }
        let geo = Arc::new(Geometry::new(shape)?);
        if kept.len() == SHARED_GEOMETRIES {
            kept.remove(0);
        }
        kept.push(Arc::clone(&geo));
        Ok(geo)
    }

    /// A square board of `size` x `size`.
    ///
    /// # Errors
    /// [`BadSize`] when `size` is outside 2..=25.
    pub fn square(size: usize) -> Result<Geometry, BadSize> {
        Geometry::new(Shape::square(size))
    }

    /// A rectangular board of `width` columns and `height` rows.
    ///
    /// # Errors
    /// [`BadSize`] when a side is outside 2..=25.
    pub fn rect(width: usize, height: usize) -> Result<Geometry, BadSize> {
        Geometry::new(Shape::Rect { width, height })
    }

    /// The hexhex board of side `side`.
    ///
    /// # Errors
    /// [`BadSize`] when `side` is outside 2..=13.
    pub fn hex(side: usize) -> Result<Geometry, BadSize> {
        Geometry::new(Shape::Hex { side })
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

    /// Columns and rows of the grid the points lie on (see [`Shape::extent`]).
    pub fn dimensions(&self) -> (usize, usize) {
        (self.width, self.height)
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

    /// The neighbours of `p` in cyclic order around it, starting east and turning counter-clockwise on the grid
    /// ([`Geometry::fan`] of them: 4 on square grids, 6 on hexagonal ones), with the sentinel index `len()` where
    /// the board has none. Local patterns are read from it.
    #[inline]
    pub fn ring(&self, p: Point) -> &[Point] {
        &self.ring[p.index()][..self.fan]
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

    /// The board's symmetries: each is the image of every point (indexed by point) under a map of the board onto
    /// itself that keeps adjacency. The identity comes first. A square has 8 (rotations and reflections), a
    /// rectangle 4 (the identity, both reflections and the half turn), a hexhex board 12 (six rotations, each with
    /// or without a reflection).
    pub fn symmetries(&self) -> Vec<Vec<Point>> {
        let (w, h) = (self.width as i64, self.height as i64);
        // Each map sends grid coordinates to grid coordinates.
        let maps: Vec<GridMap> = match self.shape {
            Shape::Rect { width, height } => {
                let mut maps: Vec<GridMap> = vec![
                    Box::new(|x, y| (x, y)),
                    Box::new(move |x, y| (w - 1 - x, y)),
                    Box::new(move |x, y| (x, h - 1 - y)),
                    Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
                ];
                if width == height {
                    maps.push(Box::new(|x, y| (y, x)));
                    maps.push(Box::new(move |x, y| (w - 1 - y, x)));
                    maps.push(Box::new(move |x, y| (y, h - 1 - x)));
                    maps.push(Box::new(move |x, y| (w - 1 - y, h - 1 - x)));
                }
                maps
            }
            Shape::Hex { side } => {
                // Offsets from the centre; the turn by 60 degrees is (dx, dy) -> (dx - dy, dx), and swapping dx
                // and dy is a reflection.
                let c = side as i64 - 1;
                let mut maps: Vec<GridMap> = Vec::new();
                for mirror in [false, true] {
                    for turns in 0..6 {
                        maps.push(Box::new(move |x, y| {
                            let (mut dx, mut dy) = (x - c, y - c);
                            if mirror {
                                (dx, dy) = (dy, dx);
                            }
                            for _ in 0..turns {
                                (dx, dy) = (dx - dy, dx);
                            }
                            (dx + c, dy + c)
                        }));
                    }
                }
                maps
            }
        };
        maps.iter()
            .map(|f| {
                self.points()
                    .map(|p| {
                        let (x, y) = self.coords(p);
                        let (u, v) = f(x as i64, y as i64);
                        usize::try_from(u)
                            .ok()
                            .zip(usize::try_from(v).ok())
                            .and_then(|(u, v)| self.point_at(u, v))
                            .unwrap_or_else(|| {
                                unreachable!("a symmetry maps the board onto itself")
                            })
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::shape::{MAX_HEX_SIDE, MIN_HEX_SIDE};

    #[test]
    fn rings_list_the_neighbours_in_turn_around_each_point() {
        for shape in [
            Shape::square(5),
            Shape::Rect {
                width: 6,
                height: 3,
            },
            Shape::Hex { side: 4 },
        ] {
            let geo = Geometry::new(shape).unwrap();
            let off = Point(geo.len() as u16);
            for p in geo.points() {
                let ring = geo.ring(p);
                assert_eq!(ring.len(), geo.fan());
                let mut on: Vec<Point> = ring.iter().copied().filter(|&q| q != off).collect();
                let mut nb = geo.neighbors(p).to_vec();
                on.sort();
                nb.sort();
                assert_eq!(on, nb, "{}", geo.name(p));
                // On the hexagonal grid each neighbour touches the next one round the ring; opposite entries are
                // always two steps apart in the same line.
                for i in 0..ring.len() {
                    let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                    if shape.is_hex() && a != off && b != off {
                        assert!(
                            geo.neighbors(a).contains(&b),
                            "{} {}",
                            geo.name(a),
                            geo.name(b)
                        );
                    }
                    let o = ring[(i + ring.len() / 2) % ring.len()];
                    if a != off && o != off {
                        let (ax, ay) = geo.coords(a);
                        let (ox, oy) = geo.coords(o);
                        let (px, py) = geo.coords(p);
                        assert_eq!((ax + ox, ay + oy), (2 * px, 2 * py));
                    }
                }
            }
        }
    }

    #[test]
    fn shared_geometries_are_built_once_per_shape() {
        let a = Geometry::shared(Shape::Rect {
            width: 11,
            height: 4,
        })
        .unwrap();
        let b = Geometry::shared(Shape::Rect {
            width: 11,
            height: 4,
        })
        .unwrap();
        assert!(
            Arc::ptr_eq(&a, &b),
            "the same shape gives the same geometry"
        );
        assert_eq!(
            a.shape(),
            Shape::Rect {
                width: 11,
                height: 4
            }
        );
        assert_eq!(a.len(), 44);
        let hex = Geometry::shared(Shape::Hex { side: 4 }).unwrap();
        assert_eq!(hex.len(), Geometry::hex(4).unwrap().len());
        assert!(matches!(
            Geometry::shared(Shape::square(26)),
            Err(BadSize::Rect { .. })
        ));
        assert!(matches!(
            Geometry::shared(Shape::Hex { side: 1 }),
            Err(BadSize::Hex { .. })
        ));
        // More shapes than are kept (rarely used ones, that other tests running at the same time do not ask for): the
        // first one is built again, and is the same board.
        for side in 2..2 + SHARED_GEOMETRIES {
            Geometry::shared(Shape::Rect {
                width: side,
                height: 23,
            })
            .unwrap();
        }
        let again = Geometry::shared(Shape::Rect {
            width: 11,
            height: 4,
        })
        .unwrap();
        assert!(!Arc::ptr_eq(&again, &a), "the first shape was dropped");
        assert_eq!(again.shape(), a.shape());
        assert_eq!(again.len(), a.len());
    }

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
        let mut boards = vec![Geometry::rect(7, 5).unwrap()];
        boards.extend((MIN_HEX_SIDE..=MAX_HEX_SIDE).map(|s| Geometry::hex(s).unwrap()));
        for g in boards {
            for p in g.points() {
                for &q in g.neighbors(p) {
                    assert!(g.neighbors(q).contains(&p), "{} {}", g.name(p), g.name(q));
                    assert_ne!(p, q);
                }
            }
        }
    }

    #[test]
    fn symmetries_are_permutations_that_keep_adjacency() {
        let boards = [
            (Geometry::square(4).unwrap(), 8),
            (Geometry::rect(5, 3).unwrap(), 4),
            (Geometry::hex(2).unwrap(), 12),
            (Geometry::hex(4).unwrap(), 12),
        ];
        for (g, count) in boards {
            let syms = g.symmetries();
            assert_eq!(syms.len(), count, "{}", g.size_name());
            assert!(syms[0].iter().enumerate().all(|(i, p)| p.index() == i));
            let mut distinct = syms.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), count, "distinct maps on {}", g.size_name());
            for s in &syms {
                let mut image: Vec<usize> = s.iter().map(|p| p.index()).collect();
                image.sort_unstable();
                assert!(image.iter().enumerate().all(|(i, &j)| i == j));
                for p in g.points() {
                    for &q in g.neighbors(p) {
                        assert!(g.neighbors(s[p.index()]).contains(&s[q.index()]));
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_outside_range_are_refused() {
        assert!(Geometry::square(1).is_err());
        assert!(Geometry::square(26).is_err());
        assert!(Geometry::rect(25, 2).is_ok());
        assert!(Geometry::hex(1).is_err());
        assert!(Geometry::hex(14).is_err());
        assert_eq!(
            Geometry::hex(14).unwrap_err().to_string(),
            "hex14 is not supported: a hexhex side must be 2 to 13"
        );
        assert_eq!(Geometry::hex(13).unwrap().dimensions(), (25, 25));
    }

    #[test]
    fn hexhex_boards_have_their_cells_and_degrees() {
        for side in MIN_HEX_SIDE..=MAX_HEX_SIDE {
            let g = Geometry::hex(side).unwrap();
            assert_eq!(g.len(), 3 * side * side - 3 * side + 1, "side {side}");
            assert_eq!(g.fan(), 6);
            let mut by_degree = [0usize; 7];
            for p in g.points() {
                by_degree[g.neighbors(p).len()] += 1;
            }
            // Six corners, the other edge cells, the interior.
            let edge = 6 * (side - 2);
            assert_eq!(
                by_degree,
                [0, 0, 0, 6, edge, 0, g.len() - 6 - edge],
                "side {side}"
            );
        }
    }
}
