//! The rules of Oust: geometry, positions, legality, captures, extra turns, passes and results.
//!
//! This module does no I/O and knows nothing of text protocols.

mod color;
mod error;
mod game;
mod geometry;
mod outcome;
mod perft;
mod position;
mod shape;

pub use color::Color;
pub use error::{IllegalMove, SwapRefusal, TurnReason};
pub use game::{Game, Record, SwapInHistory};
pub(crate) use geometry::SLOTS;
pub use geometry::{
    Geometry, Layout, LayoutItem, LayoutLine, MAX_DEGREE, OffBoard, Point, RowLabels, VertexError,
    column_index, column_letter,
};
pub use outcome::Outcome;
pub use perft::{PerftLimit, perft};
pub use position::{Move, MoveReport, PieStage, Position, Probe, Status};
pub use shape::{BadSize, MAX_HEX_SIDE, MAX_SIDE, MIN_HEX_SIDE, MIN_SIDE, Shape};
