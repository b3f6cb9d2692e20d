//! `oust match`: refereed matches between GTP engines, with statistics.

pub mod stats;

pub use stats::{Sprt, SprtDecision, Wdl};
