//! Failures of protocol commands. Their text follows the GTP v2 wording where the spec has one.

use std::fmt;

use crate::rules::IllegalMove;

/// A failed command; the response is `?` followed by this text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    /// The command name is not in the command table. The name is shown after `unknown command:`, with a hint when
    /// a known command is near it (GTP controllers read only the first words).
    UnknownCommand {
        /// The name as it arrived (cut short when very long).
        name: String,
        /// What to try instead, such as `did you mean quit?`.
        hint: Option<String>,
    },
    /// The line or an argument does not parse, or the argument count is wrong.
    Syntax(String),
    /// `boardsize` or `rectangular_boardsize` with a size the engine does not support.
    UnacceptableSize(String),
    /// `undo` with no move to take back.
    CannotUndo,
    /// `play` with a move the rules refuse.
    Illegal(IllegalMove),
    /// Any other failure, stated in full.
    Failed(String),
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::UnknownCommand { name, hint } => {
                write!(f, "unknown command: {name}")?;
                if let Some(hint) = hint {
                    write!(f, " ({hint})")?;
                }
                Ok(())
            }
            GtpError::Syntax(m) => write!(f, "syntax error: {m}"),
            GtpError::UnacceptableSize(m) => write!(f, "unacceptable size: {m}"),
            GtpError::CannotUndo => f.write_str("cannot undo: no move to take back"),
            GtpError::Illegal(e) => write!(f, "illegal move: {e}"),
            GtpError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GtpError {}

/// A syntax error with the given message.
pub fn syntax(msg: impl Into<String>) -> GtpError {
    GtpError::Syntax(msg.into())
}
