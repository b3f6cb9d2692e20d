//! SGF (FF[4]) records of Oust games: writing a game, reading a record's main line, and replaying it through the
//! rules, which refuse any illegal move with its number. Extra turns are consecutive moves of one colour.
//! [`check`] validates a whole record: every game, every variation, and each game's result. A syntax error says
//! where (line and column), and a record that breaks off says what is missing. This module works on text, apart
//! from [`read_file`], which reads a record file with a size cap.
//!
//! Points are written as Go's SGF writes them (the geometry's [`Geometry::sgf_coord`]). A hexhex board of side S
//! is recorded as `SZ[2S-1]`, the rhombus GoGui draws it on, with the private root property `HX[S]`, since `SZ`
//! alone cannot tell hex side 7 from square 13.
//!
//! [`Geometry::sgf_coord`]: crate::rules::Geometry::sgf_coord

mod check;
mod read;
mod syntax;
mod write;

pub use check::{
    ADJUDICATION_RECHECK_NODES, Checked, LinesOf, MAX_CHECKED_NODES, check, check_for, lines_for,
};
pub use read::{MAX_FILE_BYTES, board_note, parse, parse_for, read_file, replay};
pub use syntax::{Record, SgfError};
pub use write::{
    ADJUDICATION_PROPERTY, GameInfo, HEX_PROPERTY, PIE_RULES, RULES_PROPERTY, SWAP_VALUE, TreeMove,
    write, write_tree,
};
