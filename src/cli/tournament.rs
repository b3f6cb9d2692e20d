//! `oust tournament`: several engines, a round-robin or a gauntlet, one results file, and the ratings of all.

use std::process::ExitCode;

use clap::Args;
use oust::matches::schedule::Format;
use oust::matches::tournament::{self, Entrant, TournamentConfig};

use super::matches::PlayArgs;
use super::{Outcome, UsageError, match_interrupts, print_out};

/// The options of `oust tournament`. A negative number is read as a value, as `oust match` reads it.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct TournamentArgs {
    /// An engine: its name (one word, no '=') and the shell command that starts it; two or more
    #[arg(long = "engine", value_name = "NAME=CMD", value_parser = Entrant::parse, required_unless_present = "merge")]
    pub engines: Vec<Entrant>,
    /// Who plays whom: every engine against every other (round-robin), or the first against each of the others
    /// (gauntlet)
    #[arg(long, value_name = "FORMAT", default_value = "round-robin", value_parser = Format::parse)]
    pub format: Format,
    /// Games of each pairing, an even number: each opening is played with both colours
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    pub games: u64,
    /// The engine rated 0 [default: the first]
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// Play only shard K of N of the tournament: a block of its opening rounds (an opening's two games in every
    /// pairing), with the game numbers, colours and openings they have in the whole tournament. Merge the shards'
    /// results files with --merge
    #[arg(long, value_name = "K/N", value_parser = super::matches::parse_shard)]
    pub shard: Option<(u64, u64)>,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Print the report of results files (a tournament's shards) instead of playing
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["engines", "shard"])]
    pub merge: Option<Vec<std::path::PathBuf>>,
}

/// `oust tournament`: checks everything, plays the games (or the missing ones with `--resume`), prints the report.
pub fn run(args: &TournamentArgs) -> Outcome {
    if let Some(files) = &args.merge {
        return Ok(merge(files, args.anchor.as_deref()));
    }
    let anchor =
        tournament::anchor_index(&args.engines, args.anchor.as_deref()).map_err(UsageError)?;
    let first = |i: usize| {
        args.engines
            .get(i)
            .map_or(String::new(), |e| e.command.clone())
    };
    let config = TournamentConfig {
        entrants: args.engines.clone(),
        format: args.format,
        anchor,
        base: args.play.config([first(0), first(1)], args.games)?,
        shard: args.shard,
    };
    config.check().map_err(UsageError)?;
    log::info!("tournament seed {}", config.base.seed);
    let (finish, interrupt) = match_interrupts();
    let report = match tournament::run(&config, &finish, &interrupt) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("oust tournament: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    print_out(&tournament::format_report(&config, &report));
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// `oust tournament --merge`: the report of a tournament's shards, every game counted once.
fn merge(files: &[std::path::PathBuf], anchor: Option<&str>) -> ExitCode {
    let mut texts = Vec::new();
    for path in files {
        match std::fs::read_to_string(path) {
            Ok(text) => texts.push((path.display().to_string(), text)),
            Err(e) => {
                eprintln!("oust tournament: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    match tournament::merge(&texts, anchor) {
        Ok((config, results)) => {
            let report = tournament::TournamentReport {
                names: Vec::new(),
                results,
                interrupted: false,
            };
            print_out(&format!(
                "files: {}\n{}",
                files.len(),
                tournament::format_report(&config, &report)
            ));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oust tournament: {e}");
            ExitCode::from(2)
        }
    }
}
