//! The rules of Oust: geometry, positions, legality, captures, extra turns, passes and results.
//!
//! This module does no I/O and knows nothing of text protocols.

mod error;
mod game;
mod geometry;
mod perft;
mod position;

pub use error::{IllegalMove, TurnReason};
pub use game::{Game, Record};
pub use geometry::{
    BadSize, Color, Geometry, MAX_DEGREE, MAX_SIDE, MIN_SIDE, Point, Shape, column_index,
    column_letter, vertex_name,
};
pub use perft::{PerftLimit, perft};
pub use position::{Move, MoveReport, Outcome, Position, Probe, Status};
