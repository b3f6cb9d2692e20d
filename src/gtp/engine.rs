//! The engine's state behind the protocol: the game, the options and the random generator.

use std::sync::Arc;

use crate::rng::Rng;
use crate::rules::{Color, Game, Geometry};
use crate::search::Searcher;
use crate::search::time::{Clock, TimeSystem};

use super::commands::{COMMANDS, CommandSpec};
use super::error::{GtpError, syntax};
use super::params::Settings;

/// Engine settings, from the command line and from the protocol.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the random generator: the same seed and the same commands give the same answers.
    pub seed: u64,
    /// Board width at start-up.
    pub width: usize,
    /// Board height at start-up.
    pub height: usize,
    /// Whether `play` and `genmove` add move reports to their responses.
    pub reports: Reports,
    /// Search settings.
    pub settings: Settings,
}

/// Whether `play` and `genmove` add move reports (`capture N`, `extra-turn`, ...) to their responses. Strict GTP
/// controllers such as GoGui accept only a bare vertex from `genmove`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reports {
    /// Reports on until the controller shows itself to be GoGui by sending a `gogui-rules_*` command; off from
    /// then on.
    #[default]
    Auto,
    /// Always report.
    On,
    /// Never report: standard GTP responses.
    Off,
}

impl Reports {
    /// The mode's name: `auto`, `on` or `off`.
    pub fn name(self) -> &'static str {
        match self {
            Reports::Auto => "auto",
            Reports::On => "on",
            Reports::Off => "off",
        }
    }

    /// The mode named `auto`, `on` or `off` (any case).
    pub fn from_name(name: &str) -> Option<Reports> {
        [Reports::Auto, Reports::On, Reports::Off]
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name))
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            width: 9,
            height: 9,
            reports: Reports::Auto,
            settings: Settings::default(),
        }
    }
}

/// The engine: everything a command can read or change.
#[derive(Debug)]
pub struct Engine {
    pub(crate) game: Game,
    pub(crate) options: Options,
    pub(crate) settings: Settings,
    pub(crate) rng: Rng,
    pub(crate) quit: bool,
    /// True once a `gogui-rules_*` command has arrived: the controller is GoGui.
    pub(crate) gogui: bool,
    /// Names of the players of the current game, Black then White, when known: from a loaded record, or `oust`
    /// for a colour the engine has generated moves for. Reset when a new game starts.
    pub(crate) players: [Option<String>; 2],
    pub(crate) searcher: Searcher,
    /// Clocks of Black and White.
    pub(crate) clocks: [Clock; 2],
    /// Consecutive searches for each colour that ended below the resign threshold.
    pub(crate) low_streak: [u32; 2],
    /// A streaming analysis the session must run after the current command: its interval.
    pub(crate) stream: Option<std::time::Duration>,
}

impl Engine {
    /// An engine with an empty board of the configured size.
    ///
    /// # Errors
    /// A message when the configured board size is not supported.
    pub fn new(options: Options) -> Result<Engine, String> {
        let geo = Geometry::rect(options.width, options.height).map_err(|e| e.to_string())?;
        Ok(Engine {
            game: Game::new(Arc::new(geo)),
            rng: Rng::new(options.seed),
            settings: options.settings.clone(),
            options,
            quit: false,
            gogui: false,
            players: [None, None],
            searcher: Searcher::default(),
            clocks: [
                Clock::new(TimeSystem::Unlimited),
                Clock::new(TimeSystem::Unlimited),
            ],
            low_streak: [0, 0],
            stream: None,
        })
    }

    /// Replaces the game by a new one: both clocks start full again, the resignation counts restart and the
    /// players' names are forgotten. (The search tree notices the new game by itself.)
    pub(crate) fn start_game(&mut self, game: Game) {
        self.game = game;
        self.players = Default::default();
        for clock in &mut self.clocks {
            *clock = Clock::new(clock.system());
        }
        self.low_streak = [0, 0];
    }

    /// Restarts the random generator from `seed`.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.options.seed = seed;
        self.rng = Rng::new(seed);
    }

    /// The clock of `color`.
    pub(crate) fn clock_mut(&mut self, color: Color) -> &mut Clock {
        &mut self.clocks[color.index()]
    }

    /// Sets a parameter by name, as `oust-set-param` does.
    ///
    /// # Errors
    /// A message when the name is unknown or the value out of range.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        let spec =
            super::params::find_param(name).ok_or_else(|| format!("unknown parameter '{name}'"))?;
        (spec.set)(self, value)
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The engine's settings.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// True when `play` and `genmove` add move reports to their responses (see [`Reports`]).
    pub fn reports(&self) -> bool {
        match self.options.reports {
            Reports::Auto => !self.gogui,
            Reports::On => true,
            Reports::Off => false,
        }
    }

    /// True once a `gogui-rules_*` command has shown the controller to be GoGui.
    pub fn gogui_detected(&self) -> bool {
        self.gogui
    }

    /// True once `quit` has been executed.
    pub fn wants_quit(&self) -> bool {
        self.quit
    }

    /// Runs one command and returns its response text or its failure.
    ///
    /// # Errors
    /// The command's [`GtpError`]; the state is then unchanged.
    pub fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, GtpError> {
        let spec = find(name).ok_or(GtpError::UnknownCommand)?;
        if args.len() < spec.min_args || args.len() > spec.max_args {
            return Err(arity_error(spec, args.len()));
        }
        self.guarded(|engine| (spec.run)(engine, args))
    }

    /// Runs `f`, turning a panic (a bug) into an `internal error` answer so that the session goes on. The game
    /// itself is never left half changed (it only ever pushes a finished position or pops one), but the search
    /// tree might be, so it is dropped.
    pub(crate) fn guarded<T>(
        &mut self,
        f: impl FnOnce(&mut Engine) -> Result<T, GtpError>,
    ) -> Result<T, GtpError> {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))) {
            Ok(result) => result,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                log::error!("internal error (a bug, please report it): {what}");
                self.searcher.clear();
                self.stream = None;
                Err(GtpError::Failed(format!(
                    "internal error: {what}; the search tree was dropped, the game is as it was"
                )))
            }
        }
    }
}

/// The command table entry named `name`.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

fn arity_error(spec: &CommandSpec, got: usize) -> GtpError {
    let expected = match (spec.min_args, spec.max_args) {
        (0, 0) => "no arguments".to_string(),
        (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
        (a, b) => format!("{a} to {b} arguments"),
    };
    let usage = if spec.usage.is_empty() {
        String::new()
    } else {
        format!(" ({})", spec.usage)
    };
    syntax(format!("{} takes {expected}{usage}, got {got}", spec.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_command_is_an_error_answer_and_the_session_goes_on() {
        let mut e = Engine::new(Options::default()).unwrap();
        e.settings.playouts = 50;
        e.execute("play", &["b", "D4"]).unwrap();
        e.execute("genmove", &["w"]).unwrap();
        let before = e.game.records().to_vec();
        let got: Result<(), GtpError> = e.guarded(|_| panic!("search thread fell over"));
        assert_eq!(
            got.unwrap_err().to_string(),
            "internal error: search thread fell over; the search tree was dropped, the game is as it was"
        );
        assert_eq!(e.game.records(), &before[..]);
        let formatted: Result<(), GtpError> = e.guarded(|_| panic!("{} stones", 3));
        assert_eq!(
            formatted.unwrap_err().to_string(),
            "internal error: 3 stones; the search tree was dropped, the game is as it was"
        );
        // The engine goes on, with a fresh tree.
        assert!(e.execute("genmove", &["b"]).is_ok());
        assert_eq!(e.game.records().len(), before.len() + 1);
    }
}
