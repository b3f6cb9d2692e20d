//! Notation: moves and positions as text, written and read in this one place.
//!
//! The protocol's responses and arguments, the referee, match openings and SGF errors all name moves with
//! [`move_name`] and read them with [`parse_move`]. The rows of stones of `oust-setup`, GoGui's board rows and the
//! board picture of `showboard` are spelt here too. The [`Geometry`] says which points a board has, where they
//! lie and what they are called; this module only spells: `X` black, `O` white, `.` empty. Abstract Play's cell
//! names ([`cell_name`], [`parse_cell`]) are here too.

use std::fmt;

use crate::rules::{
    Color, Geometry, IllegalMove, LayoutItem, Move, Point, Position, RowLabels, Shape, VertexError,
    column_letter,
};

/// Why a move's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// The text is neither a vertex nor `pass`.
    NotAMove(String),
    /// A vertex of a point the board does not have.
    OffBoard(IllegalMove),
}

/// Why [`Notation::read_move`] refused a move's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadMoveError {
    /// In GTP's notation: [`parse_move`]'s refusal.
    Gtp(MoveTextError),
    /// In Abstract Play's notation: the text is neither a cell nor `pass`.
    NotACell(String),
    /// In Abstract Play's notation: a cell the board does not have.
    Cell(CellError),
}

impl fmt::Display for ReadMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadMoveError::Gtp(e) => write!(f, "{e}"),
            ReadMoveError::NotACell(text) => write!(
                f,
                "expected a cell such as d4 (Abstract Play's notation), or pass, got '{text}'"
            ),
            ReadMoveError::Cell(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadMoveError {}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::NotAMove(text) => {
                write!(f, "expected a vertex such as D4, or pass, got '{text}'")?;
                let mut chars = text.chars();
                let column_i = matches!(chars.next(), Some('I' | 'i'))
                    && !chars.as_str().is_empty()
                    && chars.as_str().bytes().all(|b| b.is_ascii_digit());
                if column_i {
                    write!(
                        f,
                        ": there is no column I (the columns skip it, as in Go: H, J)"
                    )?;
                }
                Ok(())
            }
            MoveTextError::OffBoard(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MoveTextError {}

/// A count and its noun, singular for one: `1 move`, `2 moves`, `0 moves`. The noun takes a plain `s` (see
/// [`count_as`] for one that does not).
pub fn count(n: impl std::fmt::Display, noun: &str) -> String {
    count_as(n, noun, &format!("{noun}s"))
}

/// A count and its noun, `one` for one and `many` otherwise: `1 loss`, `2 losses`.
pub fn count_as(n: impl std::fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// The name of the pie rule's swap, in every notation.
pub const SWAP: &str = "swap";

/// The name of a move on `geo`'s board: a vertex in upper case, such as `D4`, `pass` or `swap`.
pub fn move_name(geo: &Geometry, mv: Move) -> String {
    match mv {
        Move::Place(p) => geo.name(p),
        Move::Pass => "pass".to_string(),
        Move::Swap => SWAP.to_string(),
    }
}

/// Reads a move: a vertex (see [`Geometry::parse_vertex`]), `pass` or `swap`, in any case.
///
/// # Errors
/// [`MoveTextError::NotAMove`] for other text, [`MoveTextError::OffBoard`] for a vertex the board lacks.
pub fn parse_move(geo: &Geometry, text: &str) -> Result<Move, MoveTextError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    if text.eq_ignore_ascii_case(SWAP) {
        return Ok(Move::Swap);
    }
    match geo.parse_vertex(text) {
        Ok(p) => Ok(Move::Place(p)),
        Err(VertexError::Syntax(t)) => Err(MoveTextError::NotAMove(t)),
        Err(VertexError::OffBoard(off)) => Err(MoveTextError::OffBoard(IllegalMove::OffBoard(off))),
    }
}

/// The names moves are written and read in by `play`, `genmove` and `list_legal`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// GTP vertices, such as `D4` (GoGui's names on a hexhex board's rhombus).
    #[default]
    Gtp,
    /// Abstract Play's cell names, such as `d4` ([`cell_name`]).
    AbstractPlay,
}

impl Notation {
    /// `gtp` or `ap`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Gtp => "gtp",
            Notation::AbstractPlay => "ap",
        }
    }

    /// Reads `gtp` or `ap` (any case).
    pub fn parse(text: &str) -> Option<Notation> {
        match text.to_ascii_lowercase().as_str() {
            "gtp" => Some(Notation::Gtp),
            "ap" => Some(Notation::AbstractPlay),
            _ => None,
        }
    }

    /// The name of a move: [`move_name`] or [`cell_name`] (lower case), `pass` or `swap`.
    pub fn move_text(self, geo: &Geometry, mv: Move) -> String {
        match (self, mv) {
            (Notation::AbstractPlay, Move::Place(p)) => cell_name(geo, p),
            _ => move_name(geo, mv),
        }
    }

    /// Reads a move in this notation: a vertex or cell, `pass` or `swap`.
    ///
    /// # Errors
    /// [`ReadMoveError`]: [`parse_move`]'s refusal, or in Abstract Play's notation text that is not a cell, or a
    /// cell the board lacks.
    pub fn read_move(self, geo: &Geometry, text: &str) -> Result<Move, ReadMoveError> {
        match self {
            Notation::Gtp => parse_move(geo, text).map_err(ReadMoveError::Gtp),
            Notation::AbstractPlay if text.eq_ignore_ascii_case("pass") => Ok(Move::Pass),
            Notation::AbstractPlay if text.eq_ignore_ascii_case(SWAP) => Ok(Move::Swap),
            Notation::AbstractPlay => match parse_cell(geo, text) {
                Ok(p) => Ok(Move::Place(p)),
                Err(CellError::Syntax(t)) => Err(ReadMoveError::NotACell(t)),
                Err(e) => Err(ReadMoveError::Cell(e)),
            },
        }
    }

    /// When `text`, refused in this notation, names a point in the other one: which notation is in force, and the
    /// point in its names, for the refusal's end. A GTP vertex typed by habit under `notation ap` (or a cell under
    /// `notation gtp`) is then explained, not just refused: ` (notation ap is in force: Abstract Play's cells; N7 is
    /// a GTP vertex, the cell g13)`.
    pub fn other_reading(self, geo: &Geometry, text: &str) -> Option<String> {
        match self {
            Notation::AbstractPlay => {
                let p = geo.parse_vertex(text).ok()?;
                Some(format!(
                    " (notation ap is in force: Abstract Play's cells; {} is a GTP vertex, the cell {})",
                    geo.name(p),
                    cell_name(geo, p)
                ))
            }
            Notation::Gtp => {
                let p = parse_cell(geo, text).ok()?;
                Some(format!(
                    " (notation gtp is in force: GTP vertices; {} is an Abstract Play cell, the vertex {})",
                    cell_name(geo, p),
                    geo.name(p)
                ))
            }
        }
    }

    /// A refusal of the rules, whose vertices are GTP names, with this notation's names.
    pub fn illegal(self, geo: &Geometry, e: IllegalMove) -> IllegalMove {
        match self {
            Notation::Gtp => e,
            Notation::AbstractPlay => e.renamed(|vertex| {
                geo.parse_vertex(vertex)
                    .map_or_else(|_| vertex.to_string(), |p| cell_name(geo, p))
            }),
        }
    }
}

/// Why an Abstract Play cell name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellError {
    /// The text is not a cell name: a lower-case letter and a number, such as `d4`.
    Syntax(String),
    /// A well-formed cell name of a cell the board does not have.
    OffBoard {
        /// The cell as given, lower case.
        cell: String,
        /// The cells the board has, in words.
        has: String,
    },
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellError::Syntax(text) => {
                write!(
                    f,
                    "'{text}' is not a cell such as d4 (Abstract Play's notation)"
                )
            }
            CellError::OffBoard { cell, has } => write!(f, "{cell} is off the board: {has}"),
        }
    }
}

impl std::error::Error for CellError {}

/// The first column of row `y` of a hexhex board of side `side` on its rhombus (rows from the bottom, from 0),
/// and the number of cells in that row.
fn hex_row(side: usize, y: usize) -> (usize, usize) {
    let n = 2 * side - 1;
    let first = y.saturating_sub(side - 1);
    let len = n - y.abs_diff(side - 1);
    (first, len)
}

/// Abstract Play's name of `p`, lower case (BOARDS.md, "Abstract Play's notation").
///
/// On a hexhex board the rows are lettered from `a` at the bottom and the cells of a row numbered from 1 at its
/// left end, so that `a1` is GoGui's `A1`. On a square (or rectangular) board the column letters run from `a`
/// *including* `i`, and the row numbers from 1 at the bottom: Abstract Play's `j5` is GTP's `K5`.
pub fn cell_name(geo: &Geometry, p: Point) -> String {
    let (x, y) = geo.coords(p);
    let letter = |i: usize| char::from(b'a' + i as u8);
    match geo.shape() {
        Shape::Hex { side } => format!("{}{}", letter(y), x - hex_row(side, y).0 + 1),
        Shape::Rect { .. } => format!("{}{}", letter(x), y + 1),
    }
}

/// Reads an Abstract Play cell name such as `d4` (any case; see [`cell_name`]).
///
/// # Errors
/// [`CellError::Syntax`] for text that is not a letter and a number; [`CellError::OffBoard`] for a cell the board
/// lacks, saying which cells it has.
pub fn parse_cell(geo: &Geometry, text: &str) -> Result<Point, CellError> {
    let syntax = || CellError::Syntax(text.to_string());
    let lower = text.to_ascii_lowercase();
    let mut chars = lower.chars();
    let letter = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(syntax)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    let number: usize = digits.parse().map_err(|_| syntax())?;
    if number == 0 {
        return Err(syntax());
    }
    let index = usize::from(letter as u8 - b'a');
    let last = |i: usize| char::from(b'a' + i.saturating_sub(1) as u8);
    let off = |has: String| CellError::OffBoard {
        cell: lower.clone(),
        has,
    };
    match geo.shape() {
        Shape::Hex { side } => {
            let rows = 2 * side - 1;
            if index >= rows {
                return Err(off(format!(
                    "the hexagon of side {side} has rows a to {}",
                    last(rows)
                )));
            }
            let (first, len) = hex_row(side, index);
            if number > len {
                return Err(off(format!(
                    "row {letter} has cells {letter}1 to {letter}{len}"
                )));
            }
            geo.point_at(first + number - 1, index)
                .ok_or_else(|| off(format!("row {letter} has cells {letter}1 to {letter}{len}")))
        }
        Shape::Rect { width, height } => geo.point_at(index, number - 1).ok_or_else(|| {
            off(format!(
                "the {width}x{height} board has columns a to {} and rows 1 to {height}",
                last(width)
            ))
        }),
    }
}

/// The character of a point: `X` black, `O` white, `.` empty.
pub fn stone_char(stone: Option<Color>) -> char {
    match stone {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// The stone a set-up character stands for: `X` or `B` black, `O` or `W` white, `.` or `-` empty, in any case.
fn stone_of(ch: char) -> Option<Option<Color>> {
    match ch.to_ascii_uppercase() {
        'X' | 'B' => Some(Some(Color::Black)),
        'O' | 'W' => Some(Some(Color::White)),
        '.' | '-' => Some(None),
        _ => None,
    }
}

/// The stones of `pos` as set-up rows: the rows of [`Geometry::rows`] from the top, separated by `/`, for
/// example `XO../...O`. [`parse_rows`] reads them back.
pub fn rows_text(pos: &Position) -> String {
    let rows: Vec<String> = pos
        .geometry()
        .rows()
        .iter()
        .map(|(_, points)| {
            points
                .iter()
                .map(|&p| stone_char(pos.color_at(p)))
                .collect()
        })
        .collect();
    rows.join("/")
}

/// Why set-up rows were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowsError {
    /// The text has the wrong number of rows.
    RowCount {
        /// Rows of the board.
        expected: usize,
        /// Rows given.
        got: usize,
    },
    /// A row has the wrong number of points.
    RowLength {
        /// The row's number (from 1 at the bottom).
        row: usize,
        /// Points given.
        got: usize,
        /// Points of the board's row.
        expected: usize,
        /// True when the board's rows are not all equally long (a hexhex board).
        uneven: bool,
    },
    /// A character that is not a point.
    BadChar {
        /// The character.
        ch: char,
        /// The row's number (from 1 at the bottom).
        row: usize,
    },
}

impl fmt::Display for RowsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowsError::RowCount { expected, got } => {
                write!(f, "the board has {expected} rows, the setup gives {got}")
            }
            RowsError::RowLength {
                row,
                got,
                expected,
                uneven: false,
            } => write!(
                f,
                "row {row} has {}, the board is {expected} wide",
                count(*got, "point")
            ),
            RowsError::RowLength {
                row, got, expected, ..
            } => write!(
                f,
                "row {row} has {}, the board's row {row} has {expected}",
                count(*got, "point")
            ),
            RowsError::BadChar { ch, row } => write!(
                f,
                "'{ch}' in row {row} is not a point: use X or B, O or W, and . or -"
            ),
        }
    }
}

impl std::error::Error for RowsError {}

/// Reads set-up rows (see [`rows_text`]; `B`, `W` and `-` are accepted too, in any case): the stone of every
/// point, indexed by point.
///
/// # Errors
/// A [`RowsError`] for the wrong number of rows or points in a row, or a character that is not a point.
pub fn parse_rows(geo: &Geometry, text: &str) -> Result<Vec<Option<Color>>, RowsError> {
    // Every row of the grid holds points (a hexhex board's rows too), so the count is known before the rows are
    // listed: text for another board is refused without building them.
    let (_, height) = geo.dimensions();
    let given: Vec<&str> = text.split('/').collect();
    if given.len() != height {
        return Err(RowsError::RowCount {
            expected: height,
            got: given.len(),
        });
    }
    let board_rows = geo.rows();
    debug_assert_eq!(board_rows.len(), height);
    let uneven = geo.shape().is_hex();
    let mut stones = vec![None; geo.len()];
    for ((row, points), text) in board_rows.iter().zip(given) {
        let cells: Vec<char> = text.chars().collect();
        if cells.len() != points.len() {
            return Err(RowsError::RowLength {
                row: *row,
                got: cells.len(),
                expected: points.len(),
                uneven,
            });
        }
        for (&p, ch) in points.iter().zip(cells) {
            stones[p.index()] = stone_of(ch).ok_or(RowsError::BadChar { ch, row: *row })?;
        }
    }
    Ok(stones)
}

/// The board as GoGui's `gogui-rules_board` wants it: the rows of the grid from the top, one a line, points
/// separated by spaces, `?` where the grid has no point (the cut-off corners of a hexhex board's rhombus).
pub fn grid_text(pos: &Position) -> String {
    let rows: Vec<String> = pos
        .geometry()
        .grid_rows()
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|p| p.map_or('?', |p| stone_char(pos.color_at(p))).to_string())
                .collect();
            cells.join(" ")
        })
        .collect();
    rows.join("\n")
}

/// The board picture of `showboard` in `notation`, one line per line of the geometry's
/// [`Layout`](crate::rules::Layout): the points, the last placement in parentheses, and the coordinates. On a
/// rectangle: column letters above and below (Abstract Play's run from `a` *including* `i`), row numbers on both
/// sides. On a hexhex board: each row between the names of its first and last points (`A7 . . . N7`, or Abstract
/// Play's `g1 . . . g13`), and in GTP's notation the letters of the columns that reach the top or bottom row, in
/// line with their slant. Every line ends with a newline and none with a space.
pub fn picture(pos: &Position, notation: Notation) -> String {
    let geo = pos.geometry();
    let layout = geo.layout();
    let last = match pos.last_move() {
        Some((_, Move::Place(p))) => Some(p),
        _ => None,
    };
    let label = |x: usize| match notation {
        Notation::Gtp => column_letter(x),
        Notation::AbstractPlay => u8::try_from(x).ok().map(|x| char::from(b'a' + x)),
    };
    // Each line's row number and its texts at their character columns (which may start left of 0 before the
    // shift below).
    type Texts = Vec<(isize, String)>;
    let mut lines: Vec<(Option<usize>, Texts)> = Vec::new();
    for line in &layout.lines {
        let mut texts: Vec<(isize, String)> = Vec::new();
        for &(col, item) in &line.items {
            let col = col as isize;
            match item {
                // Abstract Play has no names for a hexhex board's slanted columns: the rows' names say it all.
                LayoutItem::Column(_)
                    if notation == Notation::AbstractPlay
                        && layout.row_labels == RowLabels::Names => {}
                LayoutItem::Column(x) => {
                    texts.push((col, label(x).map_or_else(String::new, String::from)));
                }
                LayoutItem::Point(p) => {
                    let stone = stone_char(pos.color_at(p));
                    if last == Some(p) {
                        texts.push((col - 1, format!("({stone})")));
                    } else {
                        texts.push((col, stone.to_string()));
                    }
                }
            }
        }
        let points: Vec<(usize, Point)> = line
            .items
            .iter()
            .filter_map(|&(col, item)| match item {
                LayoutItem::Point(p) => Some((col, p)),
                LayoutItem::Column(_) => None,
            })
            .collect();
        if layout.row_labels == RowLabels::Names
            && let (Some(&(first_col, first)), Some(&(last_col, last))) =
                (points.first(), points.last())
        {
            let name = |p: Point| notation.move_text(geo, Move::Place(p));
            let first = name(first);
            texts.push((first_col as isize - 1 - first.len() as isize, first));
            texts.push((last_col as isize + 2, name(last)));
        }
        if !texts.is_empty() {
            lines.push((line.number, texts));
        }
    }
    // Rows with names start at the left margin; a rectangle's columns stay where the numbers leave them.
    let shift = match layout.row_labels {
        RowLabels::Numbers => 0,
        RowLabels::Names => lines
            .iter()
            .flat_map(|(_, texts)| texts.iter().map(|&(col, _)| col))
            .min()
            .unwrap_or(0),
    };
    let mut out = String::new();
    for (number, texts) in lines {
        let mut body: Vec<char> = Vec::new();
        for (col, text) in texts {
            let at = (col - shift) as usize;
            for (i, ch) in text.chars().enumerate() {
                if body.len() <= at + i {
                    body.resize(at + i + 1, ' ');
                }
                body[at + i] = ch;
            }
        }
        let body: String = body.into_iter().collect();
        let text = match (layout.row_labels, number) {
            (RowLabels::Numbers, Some(n)) => {
                format!("{n:>2}{body:<width$}{n}", width = layout.width)
            }
            (RowLabels::Numbers, None) => format!("  {body}"),
            (RowLabels::Names, _) => body,
        };
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn moves_round_trip_on_every_point() {
        for geo in [Geometry::rect(7, 5).unwrap(), Geometry::hex(4).unwrap()] {
            for p in geo.points() {
                let name = move_name(&geo, Move::Place(p));
                assert_eq!(parse_move(&geo, &name), Ok(Move::Place(p)));
                assert_eq!(parse_move(&geo, &name.to_lowercase()), Ok(Move::Place(p)));
            }
            assert_eq!(parse_move(&geo, "PASS"), Ok(Move::Pass));
            assert_eq!(move_name(&geo, Move::Pass), "pass");
            assert_eq!(parse_move(&geo, "Swap"), Ok(Move::Swap));
            assert_eq!(move_name(&geo, Move::Swap), "swap");
            assert_eq!(
                Notation::AbstractPlay.read_move(&geo, "swap"),
                Ok(Move::Swap)
            );
            assert!(matches!(
                parse_move(&geo, "x"),
                Err(MoveTextError::NotAMove(_))
            ));
        }
    }

    #[test]
    fn column_i_is_named_as_missing() {
        let geo = Geometry::square(9).unwrap();
        let message = |text: &str| parse_move(&geo, text).unwrap_err().to_string();
        assert_eq!(
            message("i5"),
            "expected a vertex such as D4, or pass, got 'i5': there is no column I (the columns skip it, as in Go: H, J)"
        );
        assert_eq!(
            message("I"),
            "expected a vertex such as D4, or pass, got 'I'"
        );
        assert_eq!(
            message("IX"),
            "expected a vertex such as D4, or pass, got 'IX'"
        );
    }

    #[test]
    fn vertex_syntax() {
        let geo = Geometry::square(25).unwrap();
        let at = |x, y| Ok(Move::Place(geo.point_at(x, y).unwrap()));
        assert_eq!(parse_move(&geo, "d4"), at(3, 3));
        assert_eq!(parse_move(&geo, "J1"), at(8, 0));
        for bad in [
            "I1",
            "A0",
            "A26",
            "A99999999999999999999999",
            "A",
            "4D",
            "A1x",
            "",
        ] {
            assert_eq!(
                parse_move(&geo, bad),
                Err(MoveTextError::NotAMove(bad.to_string())),
                "{bad}"
            );
        }
    }

    #[test]
    fn rows_round_trip_on_a_hexhex_board() {
        let geo = Arc::new(Geometry::hex(2).unwrap());
        let stones = parse_rows(&geo, "xo/.b-/w.").unwrap();
        let pos = Position::setup(geo.clone(), &stones, Color::Black, false);
        assert_eq!(rows_text(&pos), "XO/.X./O.");
        assert_eq!(grid_text(&pos), "? X O\n. X .\nO . ?");
        assert_eq!(
            parse_rows(&geo, "xo/.b/w.").unwrap_err().to_string(),
            "row 2 has 2 points, the board's row 2 has 3"
        );
        assert_eq!(
            parse_rows(&geo, "xo/.b.").unwrap_err().to_string(),
            "the board has 3 rows, the setup gives 2"
        );
        assert_eq!(
            parse_rows(&geo, "xo/.b./w").unwrap_err().to_string(),
            "row 1 has 1 point, the board's row 1 has 2"
        );
        assert_eq!(count(1, "move"), "1 move");
        assert_eq!(count(0, "move"), "0 moves");
        assert_eq!(count_as(1, "loss", "losses"), "1 loss");
        assert_eq!(count_as(3, "loss", "losses"), "3 losses");
    }
}
