//! `oust analysis`: the JSON analysis engine (docs/analysis.md) on stdin and stdout.

use std::io;
use std::process::ExitCode;

use clap::Args;
use oust::analysis::{self, Config, Defaults, Perspective};
use oust::gtp::{Engine, Options, Reports};
use oust::rules::Shape;

use super::serve::{EngineArgs, apply_flags, watch_for_a_gone_client};
use super::{Outcome, UsageError, clock_seed, parse_size};

/// The options of `oust analysis`.
#[derive(Args, Debug)]
pub struct AnalysisArgs {
    /// Positions searched at once, each on a tree of its own (KataGo's numAnalysisThreads) [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub positions: Option<u64>,
    /// Search threads of each position (KataGo's numSearchThreadsPerAnalysisThread)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Visits a position for a query without maxVisits
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=analysis::query::MAX_VISITS))]
    pub max_visits: u64,
    /// The board of a query without board: N for N x N, WxH, or hexS
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    pub size: Shape,
    /// Whose winning chances the answers give: SIDETOMOVE, BLACK or WHITE (KataGo's reportAnalysisWinratesAs)
    #[arg(long, value_name = "SIDE", default_value = "SIDETOMOVE", value_parser = parse_perspective)]
    pub report_winrates_as: Perspective,
    /// Seed of every search: a turn's search is seeded from it, the query's id and the turn [default: from the
    /// clock]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Any engine parameter for every query (see oust-list-params), as NAME=VALUE; repeatable
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

fn parse_perspective(s: &str) -> Result<Perspective, String> {
    Perspective::parse(s).ok_or_else(|| format!("'{s}' is not SIDETOMOVE, BLACK or WHITE"))
}

/// Runs the analysis engine until its input ends and every query is answered.
pub fn run(args: &AnalysisArgs) -> Outcome {
    let seed = args.seed.unwrap_or_else(clock_seed);
    log::info!("seed {seed}");
    let positions = args.positions.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let flags = EngineArgs {
        seed: Some(seed),
        size: args.size,
        reports: Reports::Off,
        level: None,
        player: None,
        playouts: None,
        time_per_move: None,
        threads: Some(args.threads.to_string()),
        pie: false,
        set: args.set.clone(),
    };
    let options = Options {
        seed,
        board: args.size,
        reports: Reports::Off,
        ..Options::default()
    };
    let mut engines = Vec::with_capacity(positions);
    for _ in 0..positions {
        let engine = Engine::new(options.clone())
            .and_then(|mut e| apply_flags(&mut e, &flags).map(|()| e))
            .map_err(UsageError)?;
        engines.push(engine);
    }
    let config = Config {
        positions,
        defaults: Defaults {
            board: args.size,
            max_visits: args.max_visits,
        },
        seed,
        perspective: args.report_winrates_as,
    };
    watch_for_a_gone_client();
    match analysis::serve(
        engines,
        config,
        io::BufReader::new(io::stdin()),
        Box::new(io::stdout()),
    ) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            log::error!("i/o error: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
