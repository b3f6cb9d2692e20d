//! `oust bench`: fixed-seed speed measurements, one JSON object on stdout.

use std::process::ExitCode;

use clap::Args;
use oust::bench::{self, Work};
use oust::rules::Shape;

use super::{Outcome, UsageError, parse_seconds, parse_size};

/// The options of `oust bench` (negative numbers are values, refused for their range).
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// Seconds per workload (the MCTS workloads take twice that: a first search warms their tree up; the game
    /// workloads four times, a move each)
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Fixed work instead: exactly N uniformly random playouts from the empty --board, one thread
    #[arg(long, value_name = "N", group = "work")]
    pub playouts: Option<u64>,
    /// Fixed work instead: perft from the empty --board to DEPTH, one thread
    #[arg(long, value_name = "DEPTH", group = "work")]
    pub perft: Option<usize>,
    /// Fixed work instead: one MCTS search of exactly N playouts from the empty --board (reproducible with
    /// --threads 1)
    #[arg(long, value_name = "N", group = "work")]
    pub mcts: Option<u64>,
    /// Board of the fixed work: N, WxH or hexS
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    pub board: Shape,
    /// Search threads of the fixed --mcts work
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Seed of every workload: the same seed and build play the same games
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the chosen work and prints its report.
pub fn run(args: &BenchArgs) -> Outcome {
    let work = match (args.playouts, args.perft, args.mcts) {
        (Some(n), _, _) => Some(Work::Playouts(n)),
        (_, Some(d), _) => Some(Work::Perft(d)),
        (_, _, Some(n)) => Some(Work::Mcts(n)),
        _ => None,
    };
    let report = match work {
        Some(work) => {
            bench::fixed(work, args.board, args.threads as usize, args.seed).map_err(UsageError)?
        }
        None => bench::run(args.seconds, args.seed, &mut |step| {
            eprintln!("bench {step}")
        }),
    };
    println!("{report}"); // stdout-ok: the subcommand's own report, not the protocol
    Ok(ExitCode::SUCCESS)
}
