//! The players: move choice on top of the rules core. Nothing here formats protocol text.

mod playout;
mod simple;

pub use playout::{PlayoutResult, play_random, random_playout};
pub use simple::choose_quick;
