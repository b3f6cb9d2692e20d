//! What a command handler answers: a value, not text. [`super::format::reply_text`] turns it into the response
//! text, applying the move-report mode in one place; the session acts on the replies that are not text (a
//! stream, the end of the session).

use std::time::Duration;

use crate::rules::MoveReport;

/// A handler's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A plain response text.
    Text(String),
    /// `play`: what the move did. Its report tokens are the response when reports are on; otherwise it is empty.
    Played(MoveReport),
    /// `genmove`: the move's name (a vertex or `pass`) and what it did. The response is the name, followed by the
    /// report tokens when reports are on.
    Generated {
        /// The move, as text.
        name: String,
        /// What it did.
        report: MoveReport,
    },
    /// Stream analysis lines until the next command arrives.
    Stream {
        /// Time between two lines.
        interval: Duration,
        /// Most moves a line reports, the most visited first; `None` for every searched move.
        max_moves: Option<usize>,
    },
    /// Answer, then end the session.
    Quit,
}

impl From<String> for Reply {
    fn from(text: String) -> Reply {
        Reply::Text(text)
    }
}

impl From<&str> for Reply {
    fn from(text: &str) -> Reply {
        Reply::Text(text.to_string())
    }
}
