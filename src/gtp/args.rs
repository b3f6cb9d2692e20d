//! Command arguments as values: each converter reads one argument token and says exactly what was wrong with it.

use crate::notation::{MoveTextError, Notation, ReadMoveError};
use crate::rules::{Color, Geometry, Move};

use super::error::{GtpError, syntax};
use super::parse::{parse_color, parse_float, parse_int};

/// A colour: `b`, `black`, `w` or `white`, in any case.
pub fn color(token: &str) -> Result<Color, GtpError> {
    parse_color(token).ok_or_else(|| {
        syntax(format!(
            "expected a colour (b, black, w, white), got '{token}'"
        ))
    })
}

/// A move on the board of `geo` in `notation`: a vertex such as `D4` (GTP's) or a cell such as `d4` (Abstract
/// Play's), or `pass`. A well-formed vertex or cell off the board is an illegal move.
///
/// A text refused in `notation` that names a point in the other notation is refused with a word on the notation in
/// force (see [`Notation::other_reading`]).
pub fn mv(geo: &Geometry, notation: Notation, token: &str) -> Result<Move, GtpError> {
    let err = match notation.read_move(geo, token) {
        Ok(m) => return Ok(m),
        Err(ReadMoveError::Gtp(MoveTextError::OffBoard(illegal))) => GtpError::Illegal(illegal),
        Err(ReadMoveError::Cell(e)) => GtpError::Failed(format!("illegal move: {e}")),
        Err(e) => syntax(e.to_string()),
    };
    Err(match notation.other_reading(geo, token) {
        Some(hint) => GtpError::Failed(format!("{err}{hint}")),
        None => err,
    })
}

/// A whole number used as a size (`what` names it in the error).
pub fn size(token: &str, what: &str) -> Result<usize, GtpError> {
    let n = parse_int(token)
        .ok_or_else(|| syntax(format!("{what} must be a whole number, got '{token}'")))?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// A number of seconds from 0 to 10^7.
pub fn seconds(token: &str, what: &str) -> Result<f64, GtpError> {
    parse_float(token)
        .filter(|&v| (0.0..=1e7).contains(&v))
        .ok_or_else(|| {
            syntax(format!(
                "{what} must be a number of seconds from 0 to 10000000, got '{token}'"
            ))
        })
}

/// A whole number that fits in 32 bits.
pub fn count(token: &str, what: &str) -> Result<u32, GtpError> {
    parse_int(token)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| syntax(format!("{what} must be a whole number, got '{token}'")))
}
