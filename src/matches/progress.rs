//! The progress display on stderr: the start lines, a line per finished game, and the games in progress.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use crate::notation;

use super::config::{
    MatchConfig, OpeningSource, PLAYING_EVERY_LINES, PLAYING_EVERY_TERMINAL, Progress,
};
use super::openings::OpeningDraws;
use super::results::{Side, Tally};
use super::schedule::Field;

/// What one worker is playing, for the progress display.
#[derive(Default)]
pub(super) struct Playing {
    /// The game's number, 0 between games.
    pub game: AtomicU64,
    /// Moves played in it so far.
    pub moves: AtomicUsize,
}

fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The progress display on stderr: the start lines, a line per finished game, and the games in progress.
pub(super) struct Display<'a> {
    config: &'a MatchConfig,
    field: &'a Field,
    /// The run's games, every pairing's.
    total: u64,
    /// Games a resumed run held at its start (not counted for the time left).
    held: u64,
    started: Instant,
    /// When a line was last written.
    shown: Instant,
    /// The line of the last finished game (empty before the first).
    finished: String,
    /// A terminal line is open (written without its newline).
    open: bool,
}

impl<'a> Display<'a> {
    pub(super) fn new(
        config: &'a MatchConfig,
        field: &'a Field,
        total: u64,
        held: u64,
    ) -> Display<'a> {
        let now = Instant::now();
        Display {
            config,
            field,
            total,
            held,
            started: now,
            shown: now,
            finished: String::new(),
            open: false,
        }
    }

    pub(super) fn write(&mut self, line: &str) {
        let mut err = io::stderr().lock();
        let _ = match self.config.progress {
            Progress::Off => return,
            Progress::Overwrite => write!(err, "\r{line}\x1b[K"),
            Progress::Lines => writeln!(err, "{line}"),
        };
        let _ = err.flush();
        self.open = self.config.progress == Progress::Overwrite;
        self.shown = Instant::now();
    }

    /// A line of its own, whatever the progress display (a terminal's open line is ended first).
    pub(super) fn note(&mut self, text: &str) {
        if self.config.progress == Progress::Off {
            return;
        }
        self.end();
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{text}").and_then(|()| err.flush());
        self.shown = Instant::now();
    }

    /// The engines, the games, the board, the clock and the concurrency: two lines for a match, a line an engine
    /// and one for the games for a tournament.
    pub(super) fn start(&mut self, names: &[String], workers: usize, draws: OpeningDraws) {
        let c = self.config;
        if c.progress == Progress::Off {
            return;
        }
        let mut games = format!("{} on {}", notation::count(c.games, "game"), c.board);
        match &c.openings {
            OpeningSource::None if c.alternate => games.push_str(", colours alternating"),
            OpeningSource::None => {}
            OpeningSource::File(p) => games.push_str(&format!(", openings from {}", p.display())),
            OpeningSource::Random(k) => {
                games.push_str(&format!(
                    ", random openings of {} ({} drawn again as decided",
                    notation::count(*k, "move"),
                    draws.rejected
                ));
                if draws.kept_decided > 0 {
                    games.push_str(&format!(
                        "; {} kept decided, every draw was",
                        draws.kept_decided
                    ));
                }
                games.push(')');
            }
        }
        let commands = &self.field.commands;
        let text = match &self.field.names {
            None => format!(
                "match: A = {} ({}), B = {} ({})\nmatch: {games}, {}, {workers} at once",
                commands[0],
                names[0],
                commands[1],
                names[1],
                c.clock_text()
            ),
            Some(called) => {
                let mut text = String::new();
                for (i, command) in commands.iter().enumerate() {
                    text.push_str(&format!(
                        "tournament: {} = {command} ({})\n",
                        called[i], names[i]
                    ));
                }
                text.push_str(&format!(
                    "tournament: {} of {games}, {}, {workers} at once",
                    notation::count(self.field.pairings.len() as u64, "pairing"),
                    c.clock_text()
                ));
                text
            }
        };
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{text}").and_then(|()| err.flush());
        self.shown = Instant::now();
    }

    /// A game of `pairing` finished (`done` of the run's games now): the pairing's tally, score and Elo
    /// difference, and the time left.
    pub(super) fn finished(&mut self, pairing: usize, tally: &Tally, done: u64) {
        let config = self.config;
        let wdl = tally.a;
        let who = match &self.field.names {
            None => "A".to_string(),
            Some(_) => format!(
                "{} - {}",
                self.field.called(pairing, Side::A),
                self.field.called(pairing, Side::B)
            ),
        };
        let mut line = format!(
            "game {done}/{}: {who} {}-{}-{} (W-L-D)",
            self.total, wdl.wins, wdl.losses, wdl.draws
        );
        if let (Some(s), Some(elo), Some((lo, hi))) = (wdl.score(), wdl.elo(), wdl.elo_interval()) {
            let half = (hi - lo) / 2.0;
            if elo.is_finite() && half.is_finite() {
                line.push_str(&format!(", score {s:.3}, Elo {elo:+.0} +/- {half:.0}"));
            } else {
                line.push_str(&format!(", score {s:.3}"));
            }
        }
        if let Some(test) = &config.sprt {
            line.push_str(&format!(", LLR {:.2}", test.llr(wdl)));
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = self.total.saturating_sub(done);
        let here = done.saturating_sub(self.held);
        if here > 0 && left > 0 {
            line.push_str(&format!(
                ", about {} left",
                duration_text(elapsed / here as f64 * left as f64)
            ));
        }
        self.write(&line);
        self.finished = line;
    }

    /// The games in progress and their moves so far, when it is time: every [`PLAYING_EVERY_TERMINAL`] on a
    /// terminal, after [`PLAYING_EVERY_LINES`] of silence otherwise.
    pub(super) fn playing(&mut self, playing: &[Playing], done: u64) {
        let every = match self.config.progress {
            Progress::Off => return,
            Progress::Lines => PLAYING_EVERY_LINES,
            Progress::Overwrite => PLAYING_EVERY_TERMINAL,
        };
        if self.shown.elapsed() < every {
            return;
        }
        let mut games: Vec<(u64, usize)> = playing
            .iter()
            .map(|p| {
                (
                    p.game.load(Ordering::Relaxed),
                    p.moves.load(Ordering::Relaxed),
                )
            })
            .filter(|&(game, _)| game > 0)
            .collect();
        if games.is_empty() {
            return;
        }
        games.sort_unstable();
        let list: Vec<String> = games
            .iter()
            .map(|(game, moves)| format!("game {game} at move {moves}"))
            .collect();
        let playing = format!("playing {}", list.join(", "));
        let line = match self.config.progress {
            Progress::Overwrite if !self.finished.is_empty() => {
                format!("{}; {playing}", self.finished)
            }
            _ => format!(
                "{playing} ({done}/{} done, {} since the start)",
                self.total,
                duration_text(self.started.elapsed().as_secs_f64())
            ),
        };
        self.write(&line);
    }

    /// Ends an open terminal line.
    pub(super) fn end(&mut self) {
        if self.open {
            let _ = writeln!(io::stderr());
            self.open = false;
        }
    }
}
