//! The command handlers, grouped by topic. Each takes the engine and its arguments (already counted against the
//! command table) and returns a [`Reply`](super::reply::Reply) or a [`GtpError`](super::error::GtpError). They
//! depend on the state, the argument converters and the formatter below them, never on each other or on the
//! command table above them.

pub mod board;
pub mod clock;
pub mod gogui;
pub mod params;
pub mod play;
pub mod records;
pub mod think;
