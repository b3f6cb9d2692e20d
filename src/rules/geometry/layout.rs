//! Where a board diagram puts each point and label: rows from the top, a hexhex board's rows shifted half a cell as
//! GoGui draws its rhombus.

use super::{Geometry, Point};
use crate::rules::shape::Shape;

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

impl Geometry {
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

#[cfg(test)]
mod tests {
    use super::*;

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
