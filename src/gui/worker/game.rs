//! Keeping the engine's game in step with the server's: its board, its moves (undo and play, or the board set up
//! again as the match referee sets it up), and its strength.

use super::*;
use crate::matches::board_commands;

impl Worker {
    /// Sets up the board as the referee does ([`board_commands`]): `boardsize`, `rectangular_boardsize`, or
    /// `oust-board hexS` with GoGui's `boardsize 2S-1` for an engine that refuses it.
    pub(super) fn board(&mut self, shape: Shape) -> Result<(), String> {
        match board_commands(shape) {
            (line, None) => {
                self.ask(&line)?;
            }
            (line, Some(fallback)) => {
                if !self.send(&line, COMMAND_LIMIT)?.ok {
                    self.ask(&fallback)?;
                }
            }
        }
        Ok(())
    }

    /// True when the engine holds another game than `target`'s (another start, or a move the page's game does not
    /// have): it may be pondering on a game nobody plays. A game the page has played on from the engine's is not
    /// stale: the engine's next use sends the moves.
    pub(super) fn stale(&self, target: &Target) -> bool {
        self.process.is_some()
            && self.known.board.is_some()
            && (self.known.board != Some(target.geo.shape())
                || self.known.pie != target.pie
                || self.known.setup != target.setup
                || !target.moves.starts_with(&self.known.moves))
    }

    /// Brings the engine to `target`: the moves it has beyond the common start are taken back with `undo`, and
    /// the rest played; a new board, start or pie rule sets everything up again.
    pub(super) fn sync(&mut self, target: &Target) -> Result<(), String> {
        let shape = target.geo.shape();
        if self.known.strength != Some(target.strength) {
            self.strength(target.strength)?;
            self.known.strength = Some(target.strength);
        }
        let same_start = self.known.board == Some(shape)
            && self.known.pie == target.pie
            && self.known.setup == target.setup;
        let common = if same_start {
            self.known
                .moves
                .iter()
                .zip(&target.moves)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        let mut fresh = !same_start;
        if same_start {
            while self.known.moves.len() > common {
                if self.send("undo", COMMAND_LIMIT)?.ok {
                    self.known.moves.pop();
                } else {
                    fresh = true;
                    break;
                }
            }
        }
        if fresh {
            let strength = self.known.strength;
            self.known = Known {
                strength,
                ..Known::default()
            };
            self.board(shape)?;
            if self.oust_params {
                self.ask(&format!(
                    "oust-set-param pie {}",
                    if target.pie { "on" } else { "off" }
                ))?;
            }
            self.ask("clear_board")?;
            if !target.setup.is_empty() {
                self.ask(&format!("oust-setup {}", target.setup))?;
            }
            self.known.board = Some(shape);
            self.known.pie = target.pie;
            self.known.setup = target.setup.clone();
        }
        for &(c, mv) in &target.moves[self.known.moves.len()..] {
            self.ask(&format!(
                "play {} {}",
                c.letter(),
                notation::move_name(&target.geo, mv)
            ))?;
            self.known.moves.push((c, mv));
        }
        Ok(())
    }

    /// Sends the strength: oust's `level`, or its `playouts` and `time_per_move` after `level max` has put back
    /// what a level fixes; `time_settings` for another engine, which has no levels (the page offers them only to
    /// an engine that knows `oust-set-param`).
    pub(super) fn strength(&mut self, strength: Strength) -> Result<(), String> {
        let (playouts, seconds) = match strength {
            Strength::Default | Strength::Level(_) => (0, 0.0),
            Strength::Playouts(n) => (n, 0.0),
            Strength::Seconds(s) => (0, s),
        };
        if self.oust_params {
            if let Strength::Level(n) = strength {
                self.ask(&format!("oust-set-param level {n}"))?;
                return Ok(());
            }
            self.ask("oust-set-param level max")?;
            if let Some(threads) = self.threads.clone() {
                self.ask(&format!("oust-set-param threads {threads}"))?;
            }
            self.ask(&format!("oust-set-param playouts {playouts}"))?;
            self.ask(&format!("oust-set-param time_per_move {seconds}"))?;
            // Think on the person's time too (ignored under a playout limit; an oust before `ponder` refuses it,
            // and plays as it always did).
            let _ = self.ask("oust-set-param ponder on");
        } else if seconds > 0.0 {
            // Byo-yomi of one move per period: the per-move time of standard GTP.
            let _ = self.send(
                &format!("time_settings 0 {} 1", seconds.ceil()),
                COMMAND_LIMIT,
            )?;
        }
        Ok(())
    }

    /// How long a `genmove` may take before the engine counts as hung.
    pub(super) fn move_limit(strength: Strength) -> Duration {
        match strength {
            Strength::Seconds(s) => Duration::from_secs_f64(s * 3.0 + 15.0),
            Strength::Playouts(n) => Duration::from_secs(30 + n / 1000),
            Strength::Default => Duration::from_secs(30),
            // Every level answers in about a second or less on one core (level 10: 100,000 playouts).
            Strength::Level(_) => Duration::from_secs(60),
        }
    }
}
