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
    #[arg(long = "engine", value_name = "NAME=CMD", value_parser = Entrant::parse, required = true)]
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
    #[command(flatten)]
    pub play: PlayArgs,
}

/// `oust tournament`: checks everything, plays the games (or the missing ones with `--resume`), prints the report.
pub fn run(args: &TournamentArgs) -> Outcome {
    let anchor = match &args.anchor {
        None => 0,
        Some(name) => args
            .engines
            .iter()
            .position(|e| &e.name == name)
            .ok_or_else(|| {
                UsageError(format!(
                    "--anchor {name} is not one of the engines ({})",
                    args.engines
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
    };
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
