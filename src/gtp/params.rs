//! Engine parameters: one table, read and written by `oust-list-params`, `oust-get-param`, `oust-set-param` and
//! by the command line's `--set NAME=VALUE` (the named flags are shorthands for some of them).

use std::sync::Arc;

use crate::notation::Notation;
use crate::search::learned::Model;
use crate::search::{EvalCache, PlayerKind};

use crate::net::{self, Family, Net, Precision};

use super::levels::{LEVEL_FIXES, Level};
use super::state::{BUILT_IN_WEIGHTS, Engine, EvaluatorChoice, PriorChoice};

/// One parameter.
pub struct ParamSpec {
    /// Its name.
    pub name: &'static str,
    /// What it does and its range.
    pub help: &'static str,
    /// Its current value, as text.
    pub get: fn(&Engine) -> String,
    /// Sets it from text.
    pub set: fn(&mut Engine, &str) -> Result<(), SetError>,
}

/// Why a parameter was not set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// No parameter has that name.
    Unknown(String),
    /// The value is not one the parameter takes.
    Value(String),
    /// A well-formed value that cannot be taken now: the current game does not allow it (`pie off` in a game with
    /// a swap), or the file it names cannot be read or is not a weights file.
    State(String),
}

impl std::fmt::Display for SetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetError::Unknown(m) | SetError::Value(m) | SetError::State(m) => f.write_str(m),
        }
    }
}

impl From<String> for SetError {
    fn from(m: String) -> SetError {
        SetError::Value(m)
    }
}

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    text: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(v) if v >= lo && v <= hi => Ok(v),
        _ => Err(format!("expected a number from {lo} to {hi}, got '{text}'")),
    }
}

/// `on` or `off` (also `true`/`false`, `1`/`0`).
fn on_off(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(format!("expected on or off, got '{text}'")),
    }
}

/// `auto` (`None`: the value that suits the priors in use) or a number from `lo` to `hi`.
fn auto_or_number(text: &str, lo: f32, hi: f32) -> Result<Option<f32>, String> {
    if text == "auto" {
        return Ok(None);
    }
    number(text, lo, hi)
        .map(Some)
        .map_err(|_| format!("expected auto or a number from {lo} to {hi}, got '{text}'"))
}

/// The text of a value that may be `auto` ([`auto_or_number`]).
fn show_auto(value: Option<f32>) -> String {
    value.map_or("auto".to_string(), |v| v.to_string())
}

/// Sets the network of `family` to the built-in one or the file `v`; a file that cannot be read, is not a network,
/// or is one of the other family is refused, and the network stays as it was.
fn load_net(e: &mut Engine, v: &str, family: Family) -> Result<(), SetError> {
    let net = if v == BUILT_IN_WEIGHTS {
        net::built_in(family)
    } else {
        let unusable = |err: String| SetError::State(format!("{v}: {err}"));
        let bytes = std::fs::read(v).map_err(|err| unusable(err.to_string()))?;
        let net = Net::from_bytes(&bytes, v).map_err(unusable)?;
        if net.family() != family {
            return Err(unusable(format!(
                "a network for {} boards, not {} ones",
                net.family().name(),
                family.name()
            )));
        }
        Arc::new(net)
    };
    e.settings.nets[family as usize] = net;
    e.settings.net_names[family as usize] = v.to_string();
    Ok(())
}

macro_rules! param {
    ($name:literal, $help:literal, |$e:ident| $get:expr, |$s:ident, $v:ident| $set:expr) => {
        ParamSpec {
            name: $name,
            help: $help,
            get: |$e: &Engine| $get.to_string(),
            set: |$s: &mut Engine, $v: &str| {
                $set;
                Ok(())
            },
        }
    };
}

/// Every parameter, in the order `oust-list-params` gives them.
pub static PARAMS: &[ParamSpec] = &[
    param!(
        "player",
        "mcts, uct-plain, random or policy",
        |e| e.settings.player.name(),
        |e, v| {
            e.settings.player = PlayerKind::parse(v)
                .ok_or_else(|| format!("expected mcts, uct-plain, random or policy, got '{v}'"))?
        }
    ),
    param!(
        "playouts",
        "playouts per move, 0 for no limit",
        |e| e.settings.playouts,
        |e, v| { e.settings.playouts = number(v, 0, u64::MAX)? }
    ),
    param!(
        "time_per_move",
        "seconds per move, 0 for the default",
        |e| e.settings.time_per_move,
        |e, v| { e.settings.time_per_move = number(v, 0.0, 1e6)? }
    ),
    param!(
        "threads",
        "search threads, 1 to 256",
        |e| e.settings.threads,
        |e, v| { e.settings.threads = number(v, 1, 256)? }
    ),
    param!(
        "seed",
        "seed of every random choice",
        |e| e.options.seed,
        |e, v| {
            let seed = number(v, 0, u64::MAX)?;
            e.reseed(seed)
        }
    ),
    param!(
        "notation",
        "names of moves in play, genmove and list_legal: gtp (D4) or ap (Abstract Play's d4)",
        |e| e.settings.notation.name(),
        |e, v| {
            e.settings.notation =
                Notation::parse(v).ok_or_else(|| format!("expected gtp or ap, got '{v}'"))?
        }
    ),
    param!(
        "pie",
        "the pie rule (White may answer Black's first placement with swap) of new games and the current one: on or off",
        |e| if e.settings.pie { "on" } else { "off" },
        |e, v| {
            let on = on_off(v)?;
            e.game
                .set_pie(on)
                .map_err(|err| SetError::State(err.to_string()))?;
            e.settings.pie = on
        }
    ),
    param!(
        "ponder",
        "search on the opponent's time after the engine's own move, until the next command: on or off (ignored under a playout limit)",
        |e| if e.settings.ponder { "on" } else { "off" },
        |e, v| { e.settings.ponder = on_off(v)? }
    ),
    param!(
        "resign_threshold",
        "resign below this winning chance, 0 never",
        |e| e.settings.resign_threshold,
        |e, v| { e.settings.resign_threshold = number(v, 0.0, 1.0)? }
    ),
    param!(
        "tree_mb",
        "memory for the search tree in MB, 1 to 65536",
        |e| e.settings.tree_mb,
        |e, v| { e.settings.tree_mb = number(v, 1, 65536)? }
    ),
    param!(
        "solver_share",
        "share of a move's time the solver gets first, 0 (never) to 1",
        |e| e.settings.solver_share,
        |e, v| { e.settings.solver_share = number(v, 0.0, 1.0)? }
    ),
    param!(
        "solver_mb",
        "memory for the solver's table in MB, 1 to 65536",
        |e| e.settings.solver_mb,
        |e, v| { e.settings.solver_mb = number(v, 1, 65536)? }
    ),
    param!(
        "cpuct",
        "exploration constant, 0 to 100, or auto (1 with the handmade priors, 0.3 with the learned ones, 1 with the network)",
        |e| show_auto(e.settings.cpuct),
        |e, v| { e.settings.cpuct = auto_or_number(v, 0.0, 100.0)? }
    ),
    param!(
        "fpu_reduction",
        "value of unvisited moves below the parent's, 0 to 1, or auto (0.2 with the handmade priors, 0.4 with the learned ones, 0.2 with the network)",
        |e| show_auto(e.settings.fpu_reduction),
        |e, v| { e.settings.fpu_reduction = auto_or_number(v, 0.0, 1.0)? }
    ),
    param!(
        "expand_visits",
        "visits before a leaf is expanded, 1 to 1000",
        |e| e.settings.config.expand_visits,
        |e, v| { e.settings.config.expand_visits = number(v, 1, 1000)? }
    ),
    param!(
        "playout_candidates",
        "legal points a playout move looks at, 0 (uniform) to 64",
        |e| e.settings.config.playout_candidates,
        |e, v| { e.settings.config.playout_candidates = number(v, 0, 64)? }
    ),
    param!(
        "priors",
        "the tree's priors: auto (the engine's choice: learned on every board today), learned (fitted to self-play, the weights below) or handmade (the prior_ weights)",
        |e| e.settings.priors.name(),
        |e, v| {
            e.settings.priors = PriorChoice::parse(v)
                .ok_or_else(|| format!("expected auto, learned or handmade, got '{v}'"))?
        }
    ),
    param!(
        "weights",
        "the learned priors' weights: built-in, or a weights file of oust train",
        |e| e.settings.weights,
        |e, v| {
            e.settings.learned = if v == BUILT_IN_WEIGHTS {
                Model::built_in()
            } else {
                let unusable = |err: String| SetError::State(format!("{v}: {err}"));
                let text = std::fs::read_to_string(v).map_err(|err| unusable(err.to_string()))?;
                Arc::new(Model::parse(&text).map_err(|err| unusable(err.to_string()))?)
            };
            e.settings.weights = v.to_string()
        }
    ),
    param!(
        "evaluator",
        "what evaluates the search's leaves: auto (the engine's choice: playouts on every board today), playouts (the priors above and playouts) or network (the network's policy and value, mixed with playouts by lambda)",
        |e| e.settings.evaluator.name(),
        |e, v| {
            e.settings.evaluator = EvaluatorChoice::parse(v)
                .ok_or_else(|| format!("expected auto, playouts or network, got '{v}'"))?
        }
    ),
    param!(
        "lambda",
        "with the network, the weight of a playout in a leaf's value, 0 (the network's value alone) to 1 (the playout's alone), or auto (0 on every board)",
        |e| show_auto(e.settings.lambda),
        |e, v| { e.settings.lambda = auto_or_number(v, 0.0, 1.0)? }
    ),
    param!(
        "net_square",
        "the network of square and rectangular boards: built-in, or a network file of oust train-net",
        |e| e.settings.net_names[0],
        |e, v| { load_net(e, v, Family::Square)? }
    ),
    param!(
        "net_hex",
        "the network of hexhex boards: built-in, or a network file of oust train-net",
        |e| e.settings.net_names[1],
        |e, v| { load_net(e, v, Family::Hex)? }
    ),
    param!(
        "net_precision",
        "how the network is computed: int8 (8-bit integers, the default, the same results on every machine) or float (32-bit floats, the reference, about 2.5 times slower)",
        |e| e.settings.precision.name(),
        |e, v| {
            e.settings.precision =
                Precision::parse(v).ok_or_else(|| format!("expected int8 or float, got '{v}'"))?
        }
    ),
    param!(
        "eval_cache_mb",
        "megabytes of the cache of the network's evaluations, shared by the engine's searches, 0 (none) to 4096",
        |e| e.settings.eval_cache.megabytes(),
        |e, v| { e.settings.eval_cache = Arc::new(EvalCache::new(number(v, 0, 4096)?)) }
    ),
    param!(
        "prior_capture",
        "prior weight of a capture",
        |e| e.settings.config.weights.capture,
        |e, v| { e.settings.config.weights.capture = number(v, 0.0, 1000.0)? }
    ),
    param!(
        "prior_capture_per_stone",
        "extra weight per stone of the largest group captured",
        |e| e.settings.config.weights.capture_per_stone,
        |e, v| { e.settings.config.weights.capture_per_stone = number(v, 0.0, 1000.0)? }
    ),
    param!(
        "prior_quiet",
        "prior weight of a placement touching no enemy stone",
        |e| e.settings.config.weights.quiet,
        |e, v| { e.settings.config.weights.quiet = number(v, 0.0, 1000.0)? }
    ),
    param!(
        "prior_touch",
        "prior weight of a placement touching enemy stones",
        |e| e.settings.config.weights.touch,
        |e, v| { e.settings.config.weights.touch = number(v, 0.0, 1000.0)? }
    ),
    param!(
        "prior_exposed",
        "prior weight of a placement the opponent can capture at once",
        |e| e.settings.config.weights.exposed,
        |e, v| { e.settings.config.weights.exposed = number(v, 0.0, 1000.0)? }
    ),
    param!(
        "temperature",
        "0 plays the best move; above it, up to 100, a move is drawn by its visits (the policy player: its prior) to the power 1/temperature",
        |e| e.settings.temperature,
        |e, v| { e.settings.temperature = number(v, 0.0, 100.0)? }
    ),
    param!(
        "level",
        "strength level, 1 to 10, or max (full strength: the defaults); none once a setting it fixes is changed",
        |e| e.settings.level.map_or("none".to_string(), Level::name),
        |e, v| {
            let level = Level::parse(v)?;
            let shape = e.game().position().geometry().shape();
            e.settings.set_level(level, shape)
        }
    ),
];

/// The parameter named `name`, spelt with `_` as in the table or with `-` as in the command-line flags
/// (`time_per_move` or `time-per-move`).
pub fn find_param(name: &str) -> Option<&'static ParamSpec> {
    let name = name.replace('-', "_");
    PARAMS.iter().find(|p| p.name == name)
}

/// Sets a parameter by name, as `oust-set-param` and the command line's `--set NAME=VALUE` do.
///
/// # Errors
/// A message when the name is unknown, the value out of range, or the current game does not allow it.
pub fn set_param(engine: &mut Engine, name: &str, value: &str) -> Result<(), String> {
    try_set_param(engine, name, value).map_err(|e| e.to_string())
}

/// [`set_param`], saying why it failed.
///
/// # Errors
/// [`SetError`].
pub fn try_set_param(engine: &mut Engine, name: &str, value: &str) -> Result<(), SetError> {
    let spec =
        find_param(name).ok_or_else(|| SetError::Unknown(format!("unknown parameter '{name}'")))?;
    (spec.set)(engine, value)?;
    if LEVEL_FIXES.contains(&spec.name) {
        // The settings are no longer those of a level.
        engine.settings.level = None;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::{LEARNED_C_PUCT, LEARNED_FPU_REDUCTION};

    #[test]
    fn a_level_puts_back_every_parameter_it_fixes() {
        let other = |name: &str| match name {
            "player" => "random",
            "priors" => "handmade",
            "weights" => "weights/oust-placement-1.txt",
            "evaluator" => "network",
            "net_square" => "weights/oust-net-square.net",
            "net_hex" => "weights/oust-net-hex.net",
            "net_precision" => "float",
            "time_per_move" => "3",
            _ => "0.45",
        };
        let fresh = |level: &str| {
            let mut e = Engine::new(super::super::Options::default()).unwrap();
            set_param(&mut e, "level", level).unwrap();
            e
        };
        for level in ["1", "5", "10", "max"] {
            let want = fresh(level);
            let mut e = fresh("3");
            for &name in LEVEL_FIXES {
                let value = if name.ends_with("threads")
                    || name.contains("visits")
                    || name.contains("candidates")
                    || name == "playouts"
                {
                    "7"
                } else {
                    other(name)
                };
                set_param(&mut e, name, value)
                    .unwrap_or_else(|err| panic!("{name} {value}: {err}"));
                assert_ne!(
                    (find_param(name).unwrap().get)(&e),
                    (find_param(name).unwrap().get)(&want),
                    "{name}"
                );
                assert_eq!(e.settings.level, None, "{name}");
            }
            set_param(&mut e, "level", level).unwrap();
            for spec in PARAMS {
                assert_eq!(
                    (spec.get)(&e),
                    (spec.get)(&want),
                    "level {level}: {}",
                    spec.name
                );
            }
        }
    }

    #[test]
    fn the_cpuct_and_fpu_reduction_helps_give_the_learned_priors_constants() {
        // The table takes literal help only: this is what keeps it in step with the constants.
        for (name, constant, net) in [
            ("cpuct", LEARNED_C_PUCT, crate::search::NET_C_PUCT),
            (
                "fpu_reduction",
                LEARNED_FPU_REDUCTION,
                crate::search::NET_FPU_REDUCTION,
            ),
        ] {
            let help = find_param(name).unwrap().help;
            assert!(
                help.contains(&format!("{constant} with the learned ones")),
                "{name}: {help}"
            );
            assert!(
                help.contains(&format!("{net} with the network")),
                "{name}: {help}"
            );
        }
    }
}
