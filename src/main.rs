//! The `oust` binary: command-line flags, logging, and the protocol loop on stdin/stdout.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use oust::gtp::{self, Engine, Options, Reports};

/// An engine for the board game Oust, speaking a GTP-style protocol on stdin and stdout.
#[derive(Parser, Debug)]
#[command(name = "oust", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Seed for every random choice; the same seed and commands give the same answers [default: from the clock]
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// Board at start-up: N for N x N, or WxH
    #[arg(long, default_value = "9", value_parser = parse_size)]
    size: (usize, usize),
    /// Move reports after play and genmove responses: on, off (standard GTP, for strict controllers), or auto (on
    /// until a GoGui controller is detected by its gogui-rules_* commands)
    #[arg(long, default_value = "auto", value_name = "auto|on|off", value_parser = parse_reports)]
    reports: Reports,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure the rules core: seeded single-threaded workloads, printed as one JSON object
    Bench {
        /// Seconds per workload
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
    },
}

fn parse_reports(s: &str) -> Result<Reports, String> {
    Reports::from_name(s).ok_or_else(|| format!("'{s}' is not auto, on or off"))
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let parse = |t: &str| {
        t.parse::<usize>()
            .map_err(|_| format!("'{s}' is not N or WxH"))
    };
    match s.split_once(['x', 'X']) {
        Some((w, h)) => Ok((parse(w)?, parse(h)?)),
        None => parse(s).map(|n| (n, n)),
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench { seconds }) => {
            let report = oust::bench::run(seconds);
            println!("{report}");
            ExitCode::SUCCESS
        }
        None => serve(&cli),
    }
}

fn serve(cli: &Cli) -> ExitCode {
    let seed = cli.seed.unwrap_or_else(clock_seed);
    log::info!("seed {seed}");
    let options = Options {
        seed,
        width: cli.size.0,
        height: cli.size.1,
        reports: cli.reports,
    };
    let mut engine = match Engine::new(options) {
        Ok(e) => e,
        Err(msg) => {
            log::error!("{msg}");
            eprintln!("oust: {msg}");
            return ExitCode::from(2);
        }
    };
    if io::stdin().is_terminal() {
        eprintln!(
            "oust {}: Oust engine on a {}x{} board, speaking GTP. Try 'genmove b', 'showboard', 'list_commands' or 'quit'.",
            env!("CARGO_PKG_VERSION"),
            cli.size.0,
            cli.size.1
        );
    }
    match gtp::run(&mut engine, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("i/o error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
