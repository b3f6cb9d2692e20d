//! `oust match`: refereed matches between GTP engines, with statistics.
//!
//! Two engines, each any shell command that starts a GTP engine, play a series of games. The referee is the rules
//! core: it asks the engine to move for `genmove`, checks every move, tells the other engine with `play`, plays
//! forced passes itself, and turns every failure of an engine (illegal move, malformed response, crash, time,
//! ignored extra turn) into a forfeit with its reason. Each finished game is written at once: a line of the results
//! file and an SGF record. The summary gives the score and the Elo difference with 95% intervals, the likelihood of
//! superiority and, with a test, the SPRT's log-likelihood ratio. Results files of several shards of a match merge
//! into one summary.

mod clock;
mod config;
mod engine;
pub mod ladder;
mod openings;
mod outputs;
pub mod penta;
mod progress;
pub mod rating;
mod referee;
mod results;
mod runner;
pub mod schedule;
pub mod stats;
pub mod tournament;

pub use clock::{Clock, ClockSettings, TimeControl};
pub use config::{MatchConfig, OpeningSource, Progress};
pub use engine::{
    EngineProcess, Failure, MAX_RESPONSE_LINES, Reply, board_commands, describe_status,
    read_response, responses_in, shorten,
};
pub use openings::{complete as complete_opening, parse_openings, random_opening};
pub use results::{
    GameResult, RESULTS_COLUMNS, RESULTS_MAGIC, Reason, ResultsFile, Side, Tally, format_summary,
    format_table, merge_results, results_header, same_engines, without_seed,
};
pub use runner::{MatchReport, run, run_until};
pub use stats::{Sprt, SprtDecision, SprtStop, Wdl};
