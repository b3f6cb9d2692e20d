//! A game: the position plus its full history, with undo back to the start.

use std::sync::Arc;

use super::color::Color;
use super::error::IllegalMove;
use super::geometry::Geometry;
use super::position::{Move, MoveReport, Position};

/// The pie rule cannot be switched off in a game whose moves include a swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapInHistory;

impl std::fmt::Display for SwapInHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "the game has a swap, so the pie rule stays on until a new game (or undo the swap)",
        )
    }
}

impl std::error::Error for SwapInHistory {}

/// One move of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// What it did.
    pub report: MoveReport,
}

/// A game from a starting position (the empty board or a set-up one), with every position since kept for undo.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    records: Vec<Record>,
}

impl Game {
    /// A new game on an empty board of the given geometry.
    pub fn new(geo: Arc<Geometry>) -> Game {
        Game::from_position(Position::new(geo))
    }

    /// A new game starting from `start`.
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            records: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played since the start, in order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The moves played since the start with their colours, in order: the game's line.
    pub fn line(&self) -> Vec<(Color, Move)> {
        self.records.iter().map(|r| (r.color, r.mv)).collect()
    }

    /// Plays `mv` for `color`.
    ///
    /// # Errors
    /// Any [`IllegalMove`]; the game is then unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<MoveReport, IllegalMove> {
        let mut next = self.position().clone();
        let report = next.play_as(color, mv)?;
        self.positions.push(next);
        self.records.push(Record { color, mv, report });
        Ok(report)
    }

    /// True when the pie rule (rule 9) is on for this game.
    pub fn pie(&self) -> bool {
        self.start().pie()
    }

    /// Switches the pie rule on or off for the whole game, its history included (so that undo keeps it).
    ///
    /// # Errors
    /// Switching it off in a game that has a swap; the game is then unchanged.
    pub fn set_pie(&mut self, on: bool) -> Result<(), SwapInHistory> {
        if !on && self.records.iter().any(|r| r.mv == Move::Swap) {
            return Err(SwapInHistory);
        }
        for pos in &mut self.positions {
            pos.set_pie(on);
        }
        Ok(())
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Record> {
        let record = self.records.pop()?;
        self.positions.pop();
        Some(record)
    }
}
