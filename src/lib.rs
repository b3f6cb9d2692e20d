//! `oust`: an engine for the board game Oust (Mark Steere, 2007).
//!
//! The crate has three layers: [`rules`] (the game, no I/O), [`search`] (move choice) and [`gtp`] (the text
//! protocol). The board's shape (square, rectangle or hexhex) belongs to the rules' geometry alone, and
//! [`notation`] is the one place where moves and rows of stones become text and back. Beside them, [`sgf`] reads
//! and writes game records and [`matches`] referees matches between GTP engines. On top of them all, [`gui`] serves a
//! board page in the browser. The binary's `main.rs` and its `cli/` modules only wire them to the command line.
//!
//! ```
//! use std::sync::Arc;
//! use oust::rules::{Color, Geometry, Move, Position};
//!
//! let geo = Arc::new(Geometry::square(9).unwrap());
//! let mut pos = Position::new(geo.clone());
//! let d4 = geo.parse_vertex("D4").unwrap();
//! let report = pos.play(Move::Place(d4)).unwrap();
//! assert_eq!(report.captured, 0);
//! assert_eq!(pos.to_move(), Color::White);
//! ```
#![deny(missing_docs)]

pub mod abstract_play;
pub mod analysis;
pub mod bench;
#[doc(hidden)]
pub mod fuzzing;
pub mod gtp;
pub mod gui;
pub mod learn;
pub mod matches;
pub mod net;
pub mod notation;
pub mod review;
pub mod rng;
pub mod rules;
pub mod search;
pub mod sgf;
pub mod solve;
