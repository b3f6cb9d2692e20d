//! `oust` with no subcommand: the engine, speaking the protocol on stdin and stdout.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use oust::gtp::{self, Engine, Options, Reports};
use oust::rules::Shape;

use super::{Outcome, UsageError, clock_seed, parse_size};

/// The engine's flags, given before any subcommand: `oust --size hex7 --playouts 2000`. A negative number is read
/// as a value (`--time-per-move -1` is refused for its range, not taken for a flag).
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Seed for every random choice; the same seed and commands give the same answers [default: from the clock]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Board at start-up: N for N x N, WxH, or hexS for the hexhex board of side S (hex5 to hex9 are the usual ones)
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    pub size: Shape,
    /// Move reports after play and genmove responses: on, off (standard GTP, for strict controllers), or auto (on
    /// until a GoGui controller is detected by its gogui-rules_* commands)
    #[arg(long, default_value = "auto", value_name = "auto|on|off", value_parser = parse_reports)]
    pub reports: Reports,
    /// Strength level: 1 (weakest) to 10 (the defaults at a fixed second's playouts on one core), or max for full
    /// strength; fixes the player, playouts, temperature, solver share and threads (docs/levels.md), so it
    /// refuses the flags and --set parameters that set them
    #[arg(long, value_name = "1..10|max")]
    pub level: Option<String>,
    /// Player answering genmove: mcts, uct-plain, random or policy
    #[arg(long)]
    pub player: Option<String>,
    /// Playouts per move (0: no playout limit)
    #[arg(long)]
    pub playouts: Option<String>,
    /// Seconds per move, fractions allowed [default: 1, unless --playouts or a clock decides]
    #[arg(long)]
    pub time_per_move: Option<String>,
    /// Search threads [default: all cores]
    #[arg(long)]
    pub threads: Option<String>,
    /// The pie rule (RULES.md rule 9): White may answer Black's first placement with 'swap' (the parameter pie)
    #[arg(long)]
    pub pie: bool,
    /// Any engine parameter (see oust-list-params), as NAME=VALUE; repeatable
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

fn parse_reports(s: &str) -> Result<Reports, String> {
    Reports::from_name(s).ok_or_else(|| format!("'{s}' is not auto, on or off"))
}

/// Runs the engine until `quit` or the end of its input.
pub fn run(cli: &EngineArgs) -> Outcome {
    let seed = cli.seed.unwrap_or_else(clock_seed);
    log::info!("seed {seed}");
    let options = Options {
        seed,
        board: cli.size,
        reports: cli.reports,
        ..Options::default()
    };
    let mut engine =
        match Engine::new(options).and_then(|mut e| apply_flags(&mut e, cli).map(|()| e)) {
            Ok(e) => e,
            Err(msg) => return Err(UsageError(msg)),
        };
    if io::stdin().is_terminal() {
        eprintln!(
            "oust {}: Oust engine on a {} board, speaking GTP. Try 'genmove b', 'showboard', 'list_commands' or 'quit'.",
            env!("CARGO_PKG_VERSION"),
            cli.size
        );
    }
    watch_for_a_gone_client();
    match gtp::run(
        &mut engine,
        io::BufReader::new(io::stdin()),
        io::stdout().lock(),
    ) {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            log::error!("i/o error: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Applies the parameter flags through the same setter as `oust-set-param`: the level first, refusing beside it
/// every flag and `--set` parameter it fixes.
pub(super) fn apply_flags(engine: &mut Engine, cli: &EngineArgs) -> Result<(), String> {
    let named = [
        ("player", &cli.player),
        ("playouts", &cli.playouts),
        ("time_per_move", &cli.time_per_move),
        ("threads", &cli.threads),
    ];
    let set_name = |pair: &str| {
        pair.split_once('=')
            .map_or(pair, |(n, _)| n)
            .replace('-', "_")
    };
    // The level, from --level or from a --set level=N, and how the command line gave it.
    let level = match &cli.level {
        Some(level) => {
            gtp::set_param(engine, "level", level).map_err(|e| format!("--level: {e}"))?;
            Some((format!("--level {level}"), None))
        }
        None => cli
            .set
            .iter()
            .position(|pair| set_name(pair) == "level")
            .map(|i| (format!("--set {}", cli.set[i]), Some(i))),
    };
    if let Some((given, own)) = level {
        if let Some((name, _)) = named.iter().find(|(_, v)| v.is_some()) {
            let flag = name.replace('_', "-");
            return Err(format!(
                "{given} fixes what --{flag} sets: give one or the other"
            ));
        }
        for (i, pair) in cli.set.iter().enumerate() {
            if Some(i) != own && gtp::levels::fixes(&set_name(pair)) {
                return Err(format!(
                    "{given} fixes what --set {pair} sets: give one or the other"
                ));
            }
        }
    }
    for (name, value) in named {
        if let Some(v) = value {
            gtp::set_param(engine, name, v)
                .map_err(|e| format!("--{}: {e}", name.replace('_', "-")))?;
        }
    }
    if cli.pie {
        gtp::set_param(engine, "pie", "on").map_err(|e| format!("--pie: {e}"))?;
    }
    for pair in &cli.set {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--set {pair}: expected NAME=VALUE"))?;
        gtp::set_param(engine, name, value).map_err(|e| format!("--set {pair}: {e}"))?;
    }
    Ok(())
}

/// How often the watchdog of [`watch_for_a_gone_client`] looks at stdout.
const CLIENT_CHECK: Duration = Duration::from_millis(100);

/// Ends the process within [`CLIENT_CHECK`] of the client's going away, whatever the engine is doing: when
/// nothing reads stdout any more (the pipe's reading end is closed, as when the controller was killed), no answer
/// can be delivered, and a long search or solve would only burn the machine. The end of stdin alone does not end
/// work already asked for: `oust < commands > answers` answers every command before it quits.
pub(super) fn watch_for_a_gone_client() {
    let spawned = std::thread::Builder::new()
        .name("client-watch".into())
        .spawn(|| {
            loop {
                std::thread::sleep(CLIENT_CHECK);
                if stdout_is_broken() {
                    log::info!("stdout is closed: the client is gone; exiting");
                    std::process::exit(0);
                }
            }
        });
    if let Err(e) = spawned {
        log::warn!("cannot watch for the client's end: {e}");
    }
}

/// True when stdout is a pipe or socket whose other end is closed.
fn stdout_is_broken() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, a zero timeout.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP) != 0
}
