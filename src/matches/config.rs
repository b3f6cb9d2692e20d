//! A match's settings: the engines, the games, the board, openings, clocks, outputs and tests, and their one-line
//! description in the results file (what `--resume` compares).

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::time::Duration;

use crate::rules::Shape;

use super::clock::{TimeControl, seconds};
use super::stats::Sprt;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game starts from the empty board.
    None,
    /// One opening a line of this file (see [`super::parse_openings`]).
    File(PathBuf),
    /// This many random legal placements, from the match seed.
    Random(usize),
}

/// How progress is shown on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Not at all.
    Off,
    /// The engines and settings at the start, one line per finished game, and a line on the games in progress
    /// when nothing was printed for [`PLAYING_EVERY_LINES`].
    Lines,
    /// The engines and settings at the start, then one line, rewritten after each game and every
    /// [`PLAYING_EVERY_TERMINAL`] with the games in progress (for a terminal).
    Overwrite,
}

/// Without a terminal, the longest silence before a line on the games in progress.
pub const PLAYING_EVERY_LINES: Duration = Duration::from_secs(10);
/// On a terminal, how often the progress line shows the games in progress.
pub const PLAYING_EVERY_TERMINAL: Duration = Duration::from_secs(1);

impl Progress {
    /// `Overwrite` when stderr is a terminal, `Lines` otherwise.
    pub fn for_stderr() -> Progress {
        if io::stderr().is_terminal() {
            Progress::Overwrite
        } else {
            Progress::Lines
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The shell commands of engines A (Black in the first game) and B.
    pub commands: [String; 2],
    /// Games to play.
    pub games: u64,
    /// The board.
    pub board: Shape,
    /// Swap colours every game (always done with openings).
    pub alternate: bool,
    /// The openings.
    pub openings: OpeningSource,
    /// The number of the first opening used (for shards of one match).
    pub opening_offset: usize,
    /// The match's number of the first game played (0 for the first): a shard of a longer match starts further
    /// on. Game numbers, colours and openings continue as in the whole match (it must be even when openings are
    /// used, so that an opening's two games stay together).
    pub first_game: u64,
    /// Start each engine anew for every game, so that with deterministic engines a game depends only on the
    /// engines' commands, its opening and its colours, not on the games an engine process played before.
    pub fresh_engines: bool,
    /// Clock, limits and waits.
    pub time: TimeControl,
    /// Moves after which a game is adjudicated a draw.
    pub max_moves: Option<usize>,
    /// Games played at once.
    pub concurrency: usize,
    /// Where each game's SGF goes.
    pub sgf_dir: Option<PathBuf>,
    /// The results file.
    pub results: Option<PathBuf>,
    /// Where engines' stderr goes, one file per engine and game.
    pub log_dir: Option<PathBuf>,
    /// Replace an existing results file and delete the game files (`game-*.sgf`, `game-*.log`) of an earlier
    /// match in the output directories; without it, a match refuses to start when it finds them.
    pub overwrite: bool,
    /// Go on with the match of the results file (`--resume`): the games it holds are kept and counted, and only
    /// the missing ones are played, with the game numbers, colours and openings of an uninterrupted run.
    pub resume: bool,
    /// Adjudication by the solver: its time a position (`--adjudicate solver=SECONDS`).
    pub adjudicate: Option<Duration>,
    /// A sequential test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Seed of the random openings.
    pub seed: u64,
    /// The progress display.
    pub progress: Progress,
    /// The pie rule (RULES.md rule 9): engines are told with `oust-set-param pie on`; after a swap they exchange
    /// colours for the rest of the game, and results and records credit the colours as they are at the end.
    pub pie: bool,
}

impl MatchConfig {
    /// A match of `games` games between two commands on a 9x9 board, with defaults for the rest.
    pub fn new(black: &str, white: &str, games: u64) -> MatchConfig {
        MatchConfig {
            commands: [black.to_string(), white.to_string()],
            games,
            board: Shape::square(9),
            alternate: false,
            openings: OpeningSource::None,
            opening_offset: 0,
            first_game: 0,
            fresh_engines: false,
            time: TimeControl::new(None, None, 0.2, 30.0),
            max_moves: None,
            concurrency: 1,
            sgf_dir: None,
            results: None,
            log_dir: None,
            overwrite: false,
            resume: false,
            adjudicate: None,
            sprt: None,
            seed: 1,
            progress: Progress::Off,
            pie: false,
        }
    }

    /// The settings in one line, for the results file.
    pub fn describe(&self) -> String {
        let mut parts = vec![
            format!("size {}", self.board),
            format!("games {}", self.games),
            format!("seed {}", self.seed),
        ];
        if self.alternate {
            parts.push("alternate".into());
        }
        if self.pie {
            parts.push("pie".into());
        }
        match &self.openings {
            OpeningSource::None => {}
            OpeningSource::File(p) => parts.push(format!("openings {}", p.display())),
            OpeningSource::Random(k) => parts.push(format!("random-openings {k}")),
        }
        if self.opening_offset > 0 {
            parts.push(format!("opening-offset {}", self.opening_offset));
        }
        if self.first_game > 0 {
            parts.push(format!(
                "games {} to {}",
                self.first_game + 1,
                self.first_game + self.games
            ));
        }
        if self.fresh_engines {
            parts.push("fresh-engines".into());
        }
        if let Some(c) = self.time.clock {
            parts.push(c.command());
        }
        if let Some(s) = self.time.per_move {
            parts.push(format!("time-per-move {s}"));
        }
        if let Some(m) = self.max_moves {
            parts.push(format!("max-moves {m}"));
        }
        if let Some(d) = self.adjudicate {
            parts.push(format!("adjudicate solver={}", d.as_secs_f64()));
        }
        parts.join(", ")
    }

    /// The clock in words, for the start line.
    pub(super) fn clock_text(&self) -> String {
        let t = &self.time;
        let grace = format!("{} s grace", seconds(t.grace));
        match (t.clock, t.per_move) {
            (Some(c), Some(s)) if c.main == 0.0 && c.byo_time == s && c.byo_stones == 1 => {
                format!("{} s a move ({}, {grace})", seconds(s), c.command())
            }
            (Some(c), Some(s)) => {
                format!(
                    "clock {}, at most {} s a move, {grace}",
                    c.command(),
                    seconds(s)
                )
            }
            (Some(c), None) if c.unlimited() => format!("{} (no time limit)", c.command()),
            (Some(c), None) => format!("clock {}, {grace}", c.command()),
            (None, _) => format!("no clock (at most {} s a response)", seconds(t.timeout)),
        }
    }
}
