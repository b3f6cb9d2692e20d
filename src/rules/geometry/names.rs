//! Names of points: GTP vertices in both directions (a column letter without I and a row number), SGF coordinates
//! (a hexhex board's on GoGui's rhombus), and the errors of a vertex the board does not have.

use std::fmt;

use super::{Geometry, Point};
use crate::rules::shape::{MAX_SIDE, Shape};

/// GTP column letters: A..Z without I.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

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

impl Geometry {
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
    fn column_letters_skip_i() {
        assert_eq!(column_index('h'), Some(7));
        assert_eq!(column_index('I'), None);
        assert_eq!(column_index('j'), Some(8));
        let g = Geometry::square(25).unwrap();
        assert_eq!(g.name(g.point_at(24, 0).unwrap()), "Z1");
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
}
