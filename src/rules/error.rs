//! Why a move is refused.

use std::fmt;

use super::color::Color;
use super::geometry::OffBoard;
use super::outcome::Outcome;

/// Why the side to move is who it is, for turn errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnReason {
    /// No move has been played: Black moves first (or the position was set up that way).
    Start,
    /// The previous player's placement did not capture, so the turn passed.
    Alternation,
    /// The player to move captured and must place again.
    ExtraTurn,
    /// The previous player passed.
    AfterPass,
    /// White swapped (the pie rule) and moves again.
    AfterSwap,
}

/// Why the pie rule's swap is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapRefusal {
    /// The pie rule is off.
    PieOff,
    /// Black asked to swap; only White may.
    Black,
    /// No stone has been placed yet.
    NoStone,
    /// White has already swapped.
    Used,
    /// The moment has passed (White has moved, or the game did not start from the empty board).
    TooLate,
}

impl fmt::Display for SwapRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SwapRefusal::PieOff => "the pie rule is off",
            SwapRefusal::Black => "only white may swap, as its first move",
            SwapRefusal::NoStone => "black has not placed its first stone yet",
            SwapRefusal::Used => "white has already swapped",
            SwapRefusal::TooLate => {
                "white may swap only in answer to black's first placement on the empty board"
            }
        })
    }
}

/// A move the rules refuse. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The vertex is outside the board.
    OffBoard(OffBoard),
    /// The point already holds a stone.
    Occupied {
        /// The vertex.
        vertex: String,
        /// The colour of the stone there.
        stone: Color,
    },
    /// The colour asked to move is not the side to move.
    NotYourTurn {
        /// The colour that tried to move.
        color: Color,
        /// The side to move.
        to_move: Color,
        /// Why it is that side's turn.
        reason: TurnReason,
        /// True when the side to move has no placement and must pass.
        must_pass: bool,
    },
    /// The placement joins friendly stones, but the new group touches no enemy stone (condition a).
    NoEnemyContact {
        /// The vertex.
        vertex: String,
        /// The mover.
        color: Color,
        /// Size of the group the placement would form.
        group: usize,
    },
    /// The new group touches an enemy group that is not strictly smaller (condition b).
    NotSmaller {
        /// The vertex.
        vertex: String,
        /// The mover.
        color: Color,
        /// Size of the group the placement would form.
        group: usize,
        /// Size of the largest enemy group it touches.
        enemy: usize,
    },
    /// A pass while the mover has a legal placement.
    PassNotAllowed {
        /// The mover.
        color: Color,
        /// One legal placement, as an example.
        example: String,
    },
    /// The game has ended.
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
    /// The pie rule's swap is not available.
    SwapNotAllowed {
        /// Why.
        why: SwapRefusal,
    },
}

impl IllegalMove {
    /// The same refusal with every vertex name passed through `rename` (another notation's names).
    pub fn renamed(self, rename: impl Fn(&str) -> String) -> IllegalMove {
        match self {
            IllegalMove::OffBoard(mut off) => {
                off.vertex = rename(&off.vertex);
                IllegalMove::OffBoard(off)
            }
            IllegalMove::Occupied { vertex, stone } => IllegalMove::Occupied {
                vertex: rename(&vertex),
                stone,
            },
            IllegalMove::NoEnemyContact {
                vertex,
                color,
                group,
            } => IllegalMove::NoEnemyContact {
                vertex: rename(&vertex),
                color,
                group,
            },
            IllegalMove::NotSmaller {
                vertex,
                color,
                group,
                enemy,
            } => IllegalMove::NotSmaller {
                vertex: rename(&vertex),
                color,
                group,
                enemy,
            },
            IllegalMove::PassNotAllowed { color, example } => IllegalMove::PassNotAllowed {
                color,
                example: rename(&example),
            },
            other @ (IllegalMove::NotYourTurn { .. }
            | IllegalMove::GameOver { .. }
            | IllegalMove::SwapNotAllowed { .. }) => other,
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(off) => write!(f, "{off}"),
            IllegalMove::Occupied { vertex, stone } => {
                write!(f, "{vertex} is occupied by a {stone} stone")
            }
            IllegalMove::NotYourTurn {
                to_move,
                reason,
                must_pass,
                ..
            } => {
                write!(f, "{to_move} is to move: ")?;
                match reason {
                    TurnReason::Start => write!(f, "no move has been played yet")?,
                    TurnReason::Alternation => {
                        write!(f, "{}'s placement did not capture", to_move.opponent())?
                    }
                    TurnReason::ExtraTurn => write!(f, "extra turn after a capture")?,
                    TurnReason::AfterPass => write!(f, "{} passed", to_move.opponent())?,
                    TurnReason::AfterSwap => write!(f, "{to_move} swapped and moves again")?,
                }
                if *must_pass {
                    write!(f, " ({to_move} has no legal placement and must pass)")?;
                }
                Ok(())
            }
            IllegalMove::NoEnemyContact {
                vertex,
                color,
                group,
            } => write!(
                f,
                "{vertex} joins {color} stones into a group of {group} that touches no {} stone",
                color.opponent()
            ),
            IllegalMove::NotSmaller {
                vertex,
                color,
                group,
                enemy,
            } => write!(
                f,
                "{vertex} forms a {color} group of {group} touching a {} group of {enemy}, which is not smaller",
                color.opponent()
            ),
            IllegalMove::PassNotAllowed { color, example } => {
                write!(
                    f,
                    "{color} cannot pass while a placement is legal (for example {example})"
                )
            }
            IllegalMove::GameOver { outcome } => {
                write!(f, "the game is over: {}", outcome.describe())
            }
            IllegalMove::SwapNotAllowed { why } => write!(f, "swap is illegal: {why}"),
        }
    }
}

impl std::error::Error for IllegalMove {}
