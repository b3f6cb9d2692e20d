//! The board's shape: a rectangle (a square when both sides are equal) or a hexhex board, the sizes oust plays,
//! and the error of one it does not.

use std::fmt;

/// Smallest supported side length of a rectangle.
pub const MIN_SIDE: usize = 2;
/// Largest supported side length of a rectangle: GTP columns are the letters A..Z without I.
pub const MAX_SIDE: usize = 25;
/// Smallest supported side of a hexhex board.
pub const MIN_HEX_SIDE: usize = 2;
/// Largest supported side of a hexhex board: its rhombus of 2S-1 columns must fit the 25 GTP column letters.
pub const MAX_HEX_SIDE: usize = 13;

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

    /// Number of points on the board: width x height, or 3S(S-1)+1 on a hexhex board of side S.
    pub fn points(self) -> usize {
        match self {
            Shape::Rect { width, height } => width.saturating_mul(height),
            Shape::Hex { side } => side
                .saturating_mul(side.saturating_sub(1))
                .saturating_mul(3)
                .saturating_add(1),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
