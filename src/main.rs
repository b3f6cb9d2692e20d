//! The `oust` binary: command-line flags, logging, and the protocol loop on stdin/stdout.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use oust::gtp::{self, Engine, Options, Reports};
use oust::rules::Status;
use oust::sgf;

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
    /// Validate SGF game records: syntax, every move legal, the result (RE) the one the moves reach. Exits with
    /// status 1 when a record is bad
    SgfCheck {
        /// The records to check
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
        Some(Command::SgfCheck { files }) => sgf_check(&files),
        None => serve(&cli),
    }
}

/// `oust sgf-check`: one line per file, on stdout for a good record and on stderr for a bad one.
fn sgf_check(files: &[PathBuf]) -> ExitCode {
    let mut bad = 0;
    for file in files {
        match check_file(file) {
            Ok(summary) => println!("{}: ok: {summary}", file.display()),
            Err(why) => {
                eprintln!("{}: {why}", file.display());
                bad += 1;
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{bad} of {} records are bad", files.len());
        ExitCode::FAILURE
    }
}

fn check_file(file: &Path) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read: {e}"))?;
    let (record, game) = sgf::check(&text).map_err(|e| e.to_string())?;
    let pos = game.position();
    let end = match pos.status() {
        Status::Over(o) => format!("result {}", o.describe()),
        _ => format!("unfinished, {} to move", pos.to_move()),
    };
    Ok(format!(
        "{}x{}, {} moves, {end}",
        record.width,
        record.height,
        record.moves.len()
    ))
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
