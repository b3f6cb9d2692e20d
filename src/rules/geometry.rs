//! Board geometry: the shape of the board and everything that depends on it.
//!
//! A [`Geometry`] is built from a [`Shape`]: a rectangle (a square when both sides are equal) or a hexhex board. It
//! owns every answer that depends on the shape: the points and their neighbour tables, the Zobrist keys, vertex
//! names in both directions, SGF coordinates, and the rows and layout that diagrams and set-ups use. The rules logic
//! only ever asks it for the neighbours of a point, and no code outside this file does grid arithmetic.
//!
//! Points lie on a grid of columns `x` and rows `y`, both counted from 0 at the bottom left, and are named as GTP
//! names them: a column letter (A, B, ... without I) and a row number from 1. A hexhex board of side S lies on
//! GoGui's hexagonal rhombus of 2S-1 columns and 2S-1 rows: it is the set of cells with |x - y| < S, and the six
//! neighbours of a cell are (x-1, y), (x+1, y), (x, y-1), (x, y+1), (x+1, y+1) and (x-1, y-1).

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// Largest number of neighbours a point can have on any supported geometry (6 on a hexagonal board).
pub const MAX_DEGREE: usize = 6;
/// Smallest supported side length of a rectangle.
pub const MIN_SIDE: usize = 2;
/// Largest supported side length of a rectangle: GTP columns are the letters A..Z without I.
pub const MAX_SIDE: usize = 25;
/// Smallest supported side of a hexhex board.
pub const MIN_HEX_SIDE: usize = 2;
/// Largest supported side of a hexhex board: its rhombus of 2S-1 columns must fit the 25 GTP column letters.
pub const MAX_HEX_SIDE: usize = 13;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A rectangular board with orthogonal adjacency (square when both sides are equal).
    Rect {
        /// Number of columns.
        width: usize,
        /// Number of rows.
        height: usize,
    },
    /// A hexhex board: a hexagon of hexagonal cells, `side` cells along each edge, six neighbours inside.
    Hex {
        /// Cells along each of the six edges.
        side: usize,
    },
}

impl Shape {
    /// The square board of `size` x `size`.
    pub fn square(size: usize) -> Shape {
        Shape::Rect {
            width: size,
            height: size,
        }
    }

    /// Reads a board name: `N` for the N x N square, `WxH` for a rectangle of W columns and H rows, `hexS` (or
    /// `hex S`, or `hex-S` as Abstract Play's variants write it) for the hexhex board of side S, `square-N` (or
    /// `squareN`) for the N x N square, in any case. Sizes are not checked here: [`Geometry::new`] does.
    ///
    /// # Errors
    /// [`BadSize::Syntax`] for text that names no board.
    pub fn parse(text: &str) -> Result<Shape, BadSize> {
        let t = text.trim().to_ascii_lowercase();
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(s.parse::<usize>().unwrap_or(usize::MAX))
        };
        let dashed = |s: &'_ str| s.strip_prefix('-').unwrap_or(s).to_string();
        let shape = if let Some(side) = t.strip_prefix("hex") {
            number(&dashed(side)).map(|side| Shape::Hex { side })
        } else if let Some(size) = t.strip_prefix("square") {
            number(&dashed(size)).map(Shape::square)
        } else if let Some((w, h)) = t.split_once('x') {
            number(w)
                .zip(number(h))
                .map(|(width, height)| Shape::Rect { width, height })
        } else {
            number(&t).map(Shape::square)
        };
        shape.ok_or_else(|| BadSize::Syntax(text.to_string()))
    }

    /// The board's name as [`Shape::parse`] reads it: `9x9`, `7x5` or `hex7`.
    pub fn name(self) -> String {
        match self {
            Shape::Rect { width, height } => format!("{width}x{height}"),
            Shape::Hex { side } => format!("hex{side}"),
        }
    }

    /// True for a hexhex board.
    pub fn is_hex(self) -> bool {
        matches!(self, Shape::Hex { .. })
    }

    /// Columns and rows of the grid the points lie on: the rectangle itself, or the hexhex board's rhombus of 2S-1
    /// columns and rows (the board GoGui draws).
    pub fn extent(self) -> (usize, usize) {
        match self {
            Shape::Rect { width, height } => (width, height),
            Shape::Hex { side } => {
                let n = side.saturating_mul(2).saturating_sub(1);
                (n, n)
            }
        }
    }

    /// The shape itself when its sizes are supported.
    ///
    /// # Errors
    /// [`BadSize`] for a rectangle side outside 2..=25 or a hexhex side outside 2..=13.
    pub fn checked(self) -> Result<Shape, BadSize> {
        match self {
            Shape::Rect { width, height } => {
                let ok = |s: usize| (MIN_SIDE..=MAX_SIDE).contains(&s);
                if ok(width) && ok(height) {
                    Ok(self)
                } else {
                    Err(BadSize::Rect { width, height })
                }
            }
            Shape::Hex { side } if (MIN_HEX_SIDE..=MAX_HEX_SIDE).contains(&side) => Ok(self),
            Shape::Hex { side } => Err(BadSize::Hex { side }),
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Why a board was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadSize {
    /// A rectangle with a side outside 2..=25.
    Rect {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// A hexhex board with a side outside 2..=13.
    Hex {
        /// The side asked for.
        side: usize,
    },
    /// Text that names no board.
    Syntax(String),
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadSize::Rect { width, height } => write!(
                f,
                "{width}x{height} is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}"
            ),
            BadSize::Hex { side } => write!(
                f,
                "hex{side} is not supported: a hexhex side must be {MIN_HEX_SIDE} to {MAX_HEX_SIDE}"
            ),
            BadSize::Syntax(text) => write!(
                f,
                "'{text}' is not a board: use N (N x N), WxH, or hexS (the hexhex board of side S)"
            ),
        }
    }
}

impl std::error::Error for BadSize {}

/// A vertex the board does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffBoard {
    /// The vertex as given, upper case (or `point N` for a point index beyond the board).
    pub vertex: String,
    /// The board.
    pub board: Shape,
    /// True when the vertex is on the board's grid all the same: a cut-off corner of a hexhex board's rhombus.
    pub on_grid: bool,
}

impl fmt::Display for OffBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is off the {} board", self.vertex, self.board)?;
        if self.on_grid && self.board.is_hex() {
            let (w, h) = self.board.extent();
            write!(
                f,
                ": GoGui's {w}x{h} rhombus has it, but the hexagon does not"
            )?;
        }
        Ok(())
    }
}

/// Why a vertex name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// The text is not a vertex name: a column letter (A..Z without I) and a row number from 1 to 25.
    Syntax(String),
    /// A well-formed vertex name of a point this board does not have.
    OffBoard(OffBoard),
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexError::Syntax(text) => write!(f, "'{text}' is not a vertex such as D4"),
            VertexError::OffBoard(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VertexError {}

/// What a line of a board diagram shows at a given column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutItem {
    /// A point of the board.
    Point(Point),
    /// The label of the column of this index (counted from 0 at the left), spelt by the notation in use.
    Column(usize),
}

/// One line of a board diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutLine {
    /// The row number shown at the left (and, on rectangles, at the right); `None` on a line of column letters.
    pub number: Option<usize>,
    /// What the line shows, left to right, each at its character column. Items are at least two columns apart, so
    /// the column on each side of a point is free (for a mark such as parentheses).
    pub items: Vec<(usize, LayoutItem)>,
}

/// What stands at the two ends of a diagram's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLabels {
    /// The row's number on both sides (rectangles, whose columns are straight).
    Numbers,
    /// The names of the row's first and last points, just before and after them (hexhex boards: their columns
    /// slant, so that column letters can stand in line with only the columns that reach the top or bottom row).
    Names,
}

/// Where a board diagram puts each point and coordinate: rows from the top, with column labels above and below.
/// On a hexhex board each row is shifted half a cell to the right of the row above it, as GoGui draws its
/// rhombus, so that the six neighbours of a cell are the cells around it; a column's label then stands one step
/// beyond its end cell, along its slant, and only where that step leads off the board above the top row or below
/// the bottom row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The lines, from the top.
    pub lines: Vec<LayoutLine>,
    /// Characters of the widest line of items, the free column after its last item included.
    pub width: usize,
    /// What stands at the ends of each row.
    pub row_labels: RowLabels,
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

    /// The point at column `x` and row `y` of the grid, both counted from 0 at the bottom left, if the board has
    /// one there.
    pub fn point_at(&self, x: usize, y: usize) -> Option<Point> {
        if x < self.width && y < self.height {
            self.grid[y * self.width + x]
        } else {
            None
        }
    }

    /// Column and row of `p` on the grid, counted from 0 at the bottom left.
    pub fn coords(&self, p: Point) -> (usize, usize) {
        let (x, y) = self.cells[p.index()];
        (x as usize, y as usize)
    }

    /// The GTP name of `p`, upper case, for example `D4`.
    pub fn name(&self, p: Point) -> String {
        let (x, y) = self.coords(p);
        format!("{}{}", COLUMNS[x] as char, y + 1)
    }

    /// The point a GTP vertex name such as `D4` names (any case).
    ///
    /// # Errors
    /// [`VertexError::Syntax`] when the text is not a column letter (A..Z without I) and a row number from 1 to
    /// 25; [`VertexError::OffBoard`] for a vertex of a point this board lacks.
    pub fn parse_vertex(&self, text: &str) -> Result<Point, VertexError> {
        let syntax = || VertexError::Syntax(text.to_string());
        let mut chars = text.chars();
        let x = chars.next().and_then(column_index).ok_or_else(syntax)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let y = match digits.parse::<usize>() {
            Ok(n) if (1..=MAX_SIDE).contains(&n) => n - 1,
            _ => return Err(syntax()),
        };
        self.point_at(x, y).ok_or_else(|| {
            VertexError::OffBoard(OffBoard {
                vertex: format!("{}{}", COLUMNS[x] as char, y + 1),
                board: self.shape,
                on_grid: x < self.width && y < self.height,
            })
        })
    }

    /// The board size as [`Shape::name`] gives it, for example `9x9` or `hex7`.
    pub fn size_name(&self) -> String {
        self.shape.name()
    }

    /// The SGF coordinates of `p`: its column and its row counted from the top, as letters (`a` to `z`, then `A`
    /// to `Z`), as SGF writes the points of a Go board. A hexhex board uses the coordinates of its rhombus.
    pub fn sgf_coord(&self, p: Point) -> String {
        let (x, y) = self.coords(p);
        let letter = |i: usize| {
            char::from(if i < 26 {
                b'a' + i as u8
            } else {
                b'A' + (i - 26) as u8
            })
        };
        format!("{}{}", letter(x), letter(self.height - 1 - y))
    }

    /// Column and row (from the bottom) of an SGF point value such as `dd`, when it is on the grid.
    fn sgf_cell(&self, v: &str) -> Option<(usize, usize)> {
        let index = |c: char| match c {
            'a'..='z' => Some(c as usize - 'a' as usize),
            'A'..='Z' => Some(c as usize - 'A' as usize + 26),
            _ => None,
        };
        let mut chars = v.chars();
        match (
            chars.next().and_then(index),
            chars.next().and_then(index),
            chars.next(),
        ) {
            (Some(x), Some(y), None) if x < self.width && y < self.height => {
                Some((x, self.height - 1 - y))
            }
            _ => None,
        }
    }

    fn not_sgf_point(&self, v: &str) -> String {
        format!("[{v}] is not a point of a {} board", self.size_name())
    }

    /// The point of an SGF point value such as `dd`.
    ///
    /// # Errors
    /// A message when the value is not a point of this board.
    pub fn sgf_point(&self, v: &str) -> Result<Point, String> {
        self.sgf_cell(v)
            .and_then(|(x, y)| self.point_at(x, y))
            .ok_or_else(|| self.not_sgf_point(v))
    }

    /// The points of an SGF point list entry: one point, or a compressed rectangle `aa:cc` of the grid (whose
    /// cells off a hexhex board are left out).
    ///
    /// # Errors
    /// A message when a corner is not on the grid, or a single point not on the board.
    pub fn sgf_points(&self, v: &str) -> Result<Vec<Point>, String> {
        let Some((a, b)) = v.split_once(':') else {
            return Ok(vec![self.sgf_point(v)?]);
        };
        let (x1, y1) = self.sgf_cell(a).ok_or_else(|| self.not_sgf_point(a))?;
        let (x2, y2) = self.sgf_cell(b).ok_or_else(|| self.not_sgf_point(b))?;
        let mut out = Vec::new();
        for x in x1.min(x2)..=x1.max(x2) {
            for y in y1.min(y2)..=y1.max(y2) {
                out.extend(self.point_at(x, y));
            }
        }
        Ok(out)
    }

    /// True when SGF's old pass value `tt` is a pass on this board (grids up to 19 x 19, where `tt` is no point).
    pub fn sgf_tt_is_pass(&self) -> bool {
        self.width <= 19 && self.height <= 19
    }

    /// The rows of the board from the top, each with its number (from 1 at the bottom) and its points from the
    /// left: `oust-setup` lists them in this order. A hexhex board of side S has rows of S to 2S-1 points.
    pub fn rows(&self) -> Vec<(usize, Vec<Point>)> {
        (0..self.height)
            .rev()
            .map(|y| {
                let points = (0..self.width)
                    .filter_map(|x| self.point_at(x, y))
                    .collect();
                (y + 1, points)
            })
            .collect()
    }

    /// The side of the square grid GoGui draws the board on (GoGui draws square grids only): the side of a square,
    /// the longer side of a rectangle, 2S-1 for a hexhex board of side S.
    pub fn square_side(&self) -> usize {
        self.width.max(self.height)
    }

    /// The rows of that square grid (see [`Geometry::square_side`]) from the top, left to right, with `None` where
    /// the board has no point: the cut-off corners of a hexhex board's rhombus, the rows or columns beyond a
    /// rectangle's shorter side. The rows GoGui's `gogui-rules_board` wants.
    pub fn grid_rows(&self) -> Vec<Vec<Option<Point>>> {
        let n = self.square_side();
        (0..n)
            .rev()
            .map(|y| (0..n).map(|x| self.point_at(x, y)).collect())
            .collect()
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

    /// Where a board diagram shows each point and coordinate (see [`Layout`]).
    pub fn layout(&self) -> Layout {
        match self.shape {
            Shape::Rect { width, height } => {
                let letters = LayoutLine {
                    number: None,
                    items: (0..width)
                        .map(|x| (1 + 2 * x, LayoutItem::Column(x)))
                        .collect(),
                };
                let mut lines = vec![letters.clone()];
                for y in (0..height).rev() {
                    lines.push(LayoutLine {
                        number: Some(y + 1),
                        items: (0..width)
                            .filter_map(|x| self.point_at(x, y))
                            .map(|p| (1 + 2 * self.coords(p).0, LayoutItem::Point(p)))
                            .collect(),
                    });
                }
                lines.push(letters);
                Layout {
                    lines,
                    width: 2 * width + 1,
                    row_labels: RowLabels::Numbers,
                }
            }
            Shape::Hex { side } => self.hex_layout(side),
        }
    }

    /// The layout of a hexhex board: cell (x, y) at character column 2x + (h - 1 - y) + 1; the label of a column
    /// whose top cell is on the top row one step above it, and of one whose bottom cell is on the bottom row one
    /// step below it, along the column's slant. The other columns end on the left and right edges, where a label
    /// would stand beside a row that does not have that column: the rows' end names say where those rows start
    /// and end instead.
    fn hex_layout(&self, side: usize) -> Layout {
        let h = self.height;
        // Line 0 is the letters above the board, line h + 1 those below; row y is line h - y.
        let mut lines: Vec<LayoutLine> = (0..h + 2)
            .map(|i| LayoutLine {
                number: (1..=h).contains(&i).then(|| h + 1 - i),
                items: Vec::new(),
            })
            .collect();
        let column = |x: usize, line: usize| 2 * x + line;
        for p in self.points() {
            let (x, y) = self.coords(p);
            lines[h - y]
                .items
                .push((column(x, h - y), LayoutItem::Point(p)));
        }
        for x in 0..self.width {
            let label = LayoutItem::Column(x);
            if x + 1 >= side {
                lines[0].items.push((column(x, 0), label));
            }
            if x < side {
                lines[h + 1].items.push((column(x, h + 1), label));
            }
        }
        let mut width = 0;
        for line in &mut lines {
            line.items.sort_by_key(|&(c, _)| c);
            width = width.max(line.items.last().map_or(0, |&(c, _)| c + 2));
        }
        Layout {
            lines,
            width,
            row_labels: RowLabels::Names,
        }
    }
}

/// The GTP letter of column `x` (from 0 at the left: `A`, ..., `H`, `J`, ...), or `None` beyond the last (`Z`).
pub fn column_letter(x: usize) -> Option<char> {
    COLUMNS.get(x).map(|&c| char::from(c))
}

/// The column index of a GTP column letter (case-insensitive), or `None` for `I` and non-letters.
pub fn column_index(letter: char) -> Option<usize> {
    let up = letter.to_ascii_uppercase() as u8;
    COLUMNS.iter().position(|&c| c == up)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn column_letters_skip_i() {
        assert_eq!(column_index('h'), Some(7));
        assert_eq!(column_index('I'), None);
        assert_eq!(column_index('j'), Some(8));
        let g = Geometry::square(25).unwrap();
        assert_eq!(g.name(g.point_at(24, 0).unwrap()), "Z1");
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

    #[test]
    fn hex_vertices_follow_gogui_names() {
        let g = Geometry::hex(7).unwrap();
        let at = |name: &str| g.parse_vertex(name).unwrap();
        assert_eq!(g.name(at("a1")), "A1");
        assert_eq!(at("A1"), Point::from_index(0));
        // The centre and its six neighbours: left, right, below, above, upper right, lower left.
        let centre = at("G7");
        let names: Vec<String> = g.neighbors(centre).iter().map(|&q| g.name(q)).collect();
        assert_eq!(names, ["F7", "H7", "G6", "G8", "H8", "F6"]);
        // Corners of the rhombus outside the hexagon, and a vertex beyond it.
        assert_eq!(
            g.parse_vertex("A13").unwrap_err().to_string(),
            "A13 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not"
        );
        assert!(matches!(
            g.parse_vertex("N1"),
            Err(VertexError::OffBoard(_))
        ));
        assert_eq!(
            g.parse_vertex("P5").unwrap_err().to_string(),
            "P5 is off the hex7 board"
        );
        assert_eq!(
            g.parse_vertex("I5"),
            Err(VertexError::Syntax("I5".to_string()))
        );
        assert_eq!(g.name(at("N13")), "N13");
        // Rows have 7 to 13 cells.
        let lengths: Vec<usize> = g.rows().iter().map(|(_, r)| r.len()).collect();
        assert_eq!(lengths, [7, 8, 9, 10, 11, 12, 13, 12, 11, 10, 9, 8, 7]);
        assert_eq!(g.rows()[0].0, 13);
        // SGF coordinates are those of the rhombus.
        assert_eq!(g.sgf_coord(at("A1")), "am");
        assert_eq!(g.sgf_point("am"), Ok(at("A1")));
        assert!(g.sgf_point("aa").is_err());
        assert_eq!(g.sgf_points("aa:cc").unwrap().len(), 0);
        assert_eq!(g.sgf_points("ak:cm").unwrap().len(), 9);
        // A rectangle across the cut-off corner keeps only the cells of the hexagon.
        assert_eq!(g.sgf_points("ae:cg").unwrap().len(), 6);
    }

    #[test]
    fn board_names_parse() {
        assert_eq!(Shape::parse("9"), Ok(Shape::square(9)));
        assert_eq!(
            Shape::parse("7X5"),
            Ok(Shape::Rect {
                width: 7,
                height: 5
            })
        );
        assert_eq!(Shape::parse("HEX7"), Ok(Shape::Hex { side: 7 }));
        assert_eq!(Shape::parse("hex 7"), Ok(Shape::Hex { side: 7 }));
        assert!(Shape::parse("hex").is_err());
        assert!(Shape::parse("9x").is_err());
        assert!(Shape::parse("-9").is_err());
        assert_eq!(Shape::Hex { side: 5 }.to_string(), "hex5");
        assert_eq!(Shape::square(9).to_string(), "9x9");
    }

    #[test]
    fn hex_layout_puts_neighbours_around_each_cell() {
        let g = Geometry::hex(3).unwrap();
        let layout = g.layout();
        let mut at = std::collections::HashMap::new();
        for (line, l) in layout.lines.iter().enumerate() {
            for &(col, item) in &l.items {
                if let LayoutItem::Point(p) = item {
                    at.insert(p, (line as isize, col as isize));
                }
            }
        }
        assert_eq!(at.len(), g.len());
        for p in g.points() {
            let (l, c) = at[&p];
            for &q in g.neighbors(p) {
                let (lq, cq) = at[&q];
                // Same line two columns apart, or an adjacent line one column apart.
                let d = ((lq - l).abs(), (cq - c).abs());
                assert!(d == (0, 2) || d == (1, 1), "{} {}", g.name(p), g.name(q));
            }
        }
        assert_eq!(layout.row_labels, RowLabels::Names);
        assert_eq!(layout.lines.len(), 7);
        // Column labels only above the top row and below the bottom row: C, D, E above, A, B, C below.
        let labels = |line: &LayoutLine| -> Vec<usize> {
            line.items
                .iter()
                .filter_map(|&(_, item)| match item {
                    LayoutItem::Column(x) => Some(x),
                    LayoutItem::Point(_) => None,
                })
                .collect()
        };
        assert_eq!(labels(&layout.lines[0]), [2, 3, 4]);
        assert_eq!(labels(&layout.lines[6]), [0, 1, 2]);
        assert!(layout.lines[1..6].iter().all(|l| labels(l).is_empty()));
    }
}
