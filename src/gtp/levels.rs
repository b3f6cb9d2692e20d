//! Strength levels: the `level` parameter and `--level`. A level fixes every setting that makes the engine
//! stronger or weaker (docs/levels.md), so that it is the same opponent on every machine: the player, a number of
//! playouts and never a time, how the move is drawn from the search (a temperature), the solver's share, and one
//! search thread, so that with a seed it plays the same game every time.

use crate::rules::Shape;
use crate::search::PlayerKind;

/// What one level fixes beyond the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    /// The player: the policy alone (no search) or the tree search.
    pub player: PlayerKind,
    /// Playouts a move (0 for the policy player, which does not search).
    pub playouts: u64,
    /// The temperature of the move's draw: 0 plays the best move.
    pub temperature: f64,
    /// The solver's share of the budget (0 never solves).
    pub solver_share: f64,
}

/// The strongest level with a number.
pub const MAX_LEVEL: u8 = 10;

/// The name of full strength: the engine's defaults (its time, all its threads), which no level limits.
pub const FULL_STRENGTH: &str = "max";

/// Levels 1 to [`MAX_LEVEL`] on hexhex boards, weakest first. Levels 1 and 2 play from the learned priors without
/// searching, as KaTrain's weakest calibrated players play from the policy; the others search a fixed number of
/// playouts and draw their move from the root's visits at a temperature that falls as the level rises, so that a
/// weaker level prefers the moves a stronger one would consider, only less surely. Level 10 is the defaults at about
/// the playouts one core makes in a second. The table was tuned by short screens and two calibrations, and level
/// 8 by three candidates of 200 games (docs/results/2026-12-04-levels-calibration.md).
pub const HEX_LEVELS: [LevelSpec; MAX_LEVEL as usize] = [
    level(PlayerKind::Policy, 0, 0.7, 0.0),
    level(PlayerKind::Policy, 0, 0.3, 0.0),
    level(PlayerKind::Mcts, 30, 0.8, 0.0),
    level(PlayerKind::Mcts, 120, 0.6, 0.0),
    level(PlayerKind::Mcts, 400, 0.5, 0.05),
    level(PlayerKind::Mcts, 800, 0.4, 0.05),
    level(PlayerKind::Mcts, 1_800, 0.25, 0.1),
    level(PlayerKind::Mcts, 8_000, 0.12, 0.1),
    level(PlayerKind::Mcts, 20_000, 0.1, 0.1),
    level(PlayerKind::Mcts, 100_000, 0.0, 0.1),
];

/// Levels 1 to [`MAX_LEVEL`] on square and rectangular boards: the same kinds of player as [`HEX_LEVELS`], spread
/// wider, because the span from a policy player to level 10 is wider there (about 1,700 Elo on 9x9 against 1,300
/// on hex-7): level 1 is a policy player at a lower temperature, and two levels between 1,800 and 20,000 playouts
/// take the steps that one took.
pub const SQUARE_LEVELS: [LevelSpec; MAX_LEVEL as usize] = [
    level(PlayerKind::Policy, 0, 0.3, 0.0),
    level(PlayerKind::Mcts, 30, 0.8, 0.0),
    level(PlayerKind::Mcts, 120, 0.6, 0.0),
    level(PlayerKind::Mcts, 400, 0.5, 0.05),
    level(PlayerKind::Mcts, 800, 0.4, 0.05),
    level(PlayerKind::Mcts, 1_800, 0.25, 0.1),
    level(PlayerKind::Mcts, 4_000, 0.2, 0.1),
    level(PlayerKind::Mcts, 9_000, 0.15, 0.1),
    level(PlayerKind::Mcts, 20_000, 0.1, 0.1),
    level(PlayerKind::Mcts, 100_000, 0.0, 0.1),
];

/// The levels of boards of `shape`: [`HEX_LEVELS`] or [`SQUARE_LEVELS`].
pub fn levels(shape: Shape) -> &'static [LevelSpec; MAX_LEVEL as usize] {
    if shape.is_hex() {
        &HEX_LEVELS
    } else {
        &SQUARE_LEVELS
    }
}

/// The temperatures of the policy players that `oust calibrate` puts between the random player and level 1 by
/// default on boards of `shape`, highest first: rungs about 100 to 500 Elo apart, so that no pair is a clean sweep.
/// Their lowest rungs are the policy players that were levels 1 and 2 before the columns split, whose steps the
/// first calibration measured.
pub fn bridge(shape: Shape) -> &'static [f64] {
    if shape.is_hex() {
        &[8.0, 4.0, 2.5, 1.6, 1.0]
    } else {
        &[8.0, 4.0, 2.5, 1.6, 1.0, 0.7]
    }
}

/// A level's Elo above the uniformly random player, as `oust calibrate` measured it
/// (docs/results/2026-12-04-levels-calibration.md), rounded to tens: on hex-7 for the hexhex boards and on 9x9 for
/// the square and rectangular ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelElo {
    /// On hex-7.
    pub hex7: i32,
    /// On 9x9.
    pub square9: i32,
}

/// The measured Elo of levels 1 to [`MAX_LEVEL`], each board family's column on its board
/// (docs/results/2026-12-04-levels-calibration.md: the command, seeds and games that measured them). `oust gui`
/// offers the levels with these numbers.
pub const LEVEL_ELO: [LevelElo; MAX_LEVEL as usize] = [
    elo(1580, 1660),
    elo(1750, 1790),
    elo(1910, 1940),
    elo(2040, 2130),
    elo(2180, 2300),
    elo(2260, 2500),
    elo(2380, 2650),
    elo(2520, 2740),
    elo(2590, 2810),
    elo(2750, 3000),
];

const fn elo(hex7: i32, square9: i32) -> LevelElo {
    LevelElo { hex7, square9 }
}

const fn level(
    player: PlayerKind,
    playouts: u64,
    temperature: f64,
    solver_share: f64,
) -> LevelSpec {
    LevelSpec {
        player,
        playouts,
        temperature,
        solver_share,
    }
}

/// The parameters a level fixes. Setting one of them by hand leaves the level (`level` then reads `none`), and the
/// command line refuses them beside `--level`.
pub const LEVEL_FIXES: &[&str] = &[
    "player",
    "playouts",
    "time_per_move",
    "threads",
    "temperature",
    "solver_share",
    "cpuct",
    "fpu_reduction",
    "expand_visits",
    "playout_candidates",
    "priors",
    "weights",
    "prior_capture",
    "prior_capture_per_stone",
    "prior_quiet",
    "prior_touch",
    "prior_exposed",
    "evaluator",
    "lambda",
    "net_square",
    "net_hex",
    "net_precision",
];

/// True when a level fixes the parameter `name` (spelt with `_` or `-`), or `name` is `level` itself.
pub fn fixes(name: &str) -> bool {
    let name = name.replace('-', "_");
    name == "level" || LEVEL_FIXES.contains(&name.as_str())
}

/// A strength level: a numbered one, or full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Level 1 to [`MAX_LEVEL`].
    Number(u8),
    /// The defaults: full strength, by time and on every core.
    Full,
}

impl Level {
    /// The level named `text`: a number from 1 to [`MAX_LEVEL`], or [`FULL_STRENGTH`] (any case).
    ///
    /// # Errors
    /// A message that gives the range.
    pub fn parse(text: &str) -> Result<Level, String> {
        if text.eq_ignore_ascii_case(FULL_STRENGTH) {
            return Ok(Level::Full);
        }
        match text.parse::<u8>() {
            Ok(n) if (1..=MAX_LEVEL).contains(&n) => Ok(Level::Number(n)),
            _ => Err(format!(
                "expected a level from 1 to {MAX_LEVEL}, or {FULL_STRENGTH} for full strength, got '{text}'"
            )),
        }
    }

    /// The level's name, as `oust-get-param level` gives it.
    pub fn name(self) -> String {
        match self {
            Level::Number(n) => n.to_string(),
            Level::Full => FULL_STRENGTH.to_string(),
        }
    }

    /// What the level fixes beyond the defaults on boards of `shape` (`None` for full strength, which is the
    /// defaults).
    pub fn spec(self, shape: Shape) -> Option<LevelSpec> {
        match self {
            Level::Number(n) => levels(shape).get(usize::from(n).checked_sub(1)?).copied(),
            Level::Full => None,
        }
    }
}
