//! The `oust` binary: parses the command line, starts logging, and hands each subcommand to its module in
//! `cli/`. With no subcommand it is the engine, speaking the protocol on stdin and stdout.

mod cli;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use cli::{
    UsageError, analysis, bench, calibrate, gui, learn, matches, netfit, records, review, serve,
    solve, tournament,
};

/// An engine for the board game Oust, speaking a GTP-style protocol on stdin and stdout.
#[derive(Parser, Debug)]
#[command(
    name = "oust",
    version,
    about,
    args_conflicts_with_subcommands = true,
    allow_negative_numbers = true,
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    engine: serve::EngineArgs,
}

/// One example of each use, shown at the end of `oust --help`.
const EXAMPLES: &str = "\
Examples:
  oust --size hex7                            the engine on hex-7, speaking GTP on stdin/stdout
  oust bench --mcts 20000 --board 9           one fixed-seed 20,000-playout search, timed
  oust sgf-check game.sgf                     check every move and the result of a record
  oust match --black oust --white \"oust --player random\" --games 20
                                              a refereed match of 20 games on 9x9
  oust --level 3                              the engine at strength level 3 of 10
  oust calibrate --dir cal --size hex7 --shards 8 --jobs 2
                                              the levels' Elo: a ladder of matches through GNU parallel
  oust ap-import game.json -o game.sgf        an Abstract Play game as SGF
  oust ap-export game.sgf                     an SGF record as an Abstract Play turn list
  oust solve --size 4                         the exact value of the empty 4x4 board
  oust gui --size hex7                        play, watch and analyse in the browser
  oust selfplay --boards 9,hex7 --games 200 --out data.txt
                                              training data from self-play
  oust train data.txt --out weights.txt       fit the learned priors to it
  oust train-net data.txt --family hex --out hex.net
                                              fit the policy and value network to it

'oust SUBCOMMAND --help' gives a subcommand's options.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure speed with fixed seeds: playouts, perft, MCTS search
    ///
    /// Measure speed: random playouts and perft (one thread), MCTS search and a game's first moves at the
    /// defaults (one and two threads), the networks' evaluations; fixed seeds.
    /// Prints one JSON object on stdout, and each workload as it starts on stderr
    Bench(bench::BenchArgs),
    /// Check SGF records: every move legal, every result right
    ///
    /// Validate SGF game records: syntax, every move of every game and variation legal, each game's result (RE)
    /// the one its main line reaches. Exits with status 1 when a record is bad
    SgfCheck(records::SgfCheckArgs),
    /// Referee a match between two GTP engines
    ///
    /// Play a refereed match between two GTP engines and print its results table and summary
    Match(Box<matches::MatchArgs>),
    /// Referee a tournament of several GTP engines: round-robin or gauntlet, and the ratings of all
    ///
    /// Play every pairing of the engines (round-robin) or the first against each other (gauntlet), each pairing
    /// a match of the same openings and colours, and print the ratings of all engines fitted from all the games,
    /// the cross-table and each pairing's score. --resume goes on with an interrupted tournament
    Tournament(Box<tournament::TournamentArgs>),
    /// Measure the strength levels' Elo: a ladder of matches, sharded through GNU parallel, and its fit
    ///
    /// Play the uniformly random player against the lowest level and each level against the next with oust
    /// match, the matches split into shards that GNU parallel runs (or that --print-jobs prints for another
    /// scheduler), then fit the Elo of every level above the random player from the results files in --dir
    Calibrate(calibrate::CalibrateArgs),
    /// Turn Abstract Play games (a JSON record, an array of them, or a turn list) into SGF
    ///
    /// Turn an Abstract Play game into an SGF record, every turn replayed through the rules: its JSON game
    /// record, an array of records (one SGF collection), or a turn list, one turn a line (`d4,e5` or `pass`).
    /// Nothing is written when a turn of a single game is refused; of an array, the records that replay are
    /// written, the others reported by their number, and the exit status is 1
    ApImport(records::ApImportArgs),
    /// Turn an SGF record into an Abstract Play turn list
    ///
    /// Turn an SGF record's main line into an Abstract Play turn list, one turn a line, each turn's placements
    /// joined by commas; the board's variant goes to stderr
    ApExport(records::ApExportArgs),
    /// Solve a position exactly: its value, a best move, the distance
    ///
    /// Solve a position: its value for the side to move (win, loss or draw under perfect play), a best move, the
    /// distance to the end (fastest win, slowest loss), the principal variation, nodes, speed, table memory and
    /// time. Progress goes to stderr every second. Exits with status 3 when the solve stops unproven ("unknown")
    Solve(solve::SolveArgs),
    /// Play, watch, review and analyse Oust in the browser
    ///
    /// Serve a board page on 127.0.0.1, print its address on stdout and open it in the browser: play against
    /// the engine (any GTP engine with --engine), watch engine games, analyse and review, open and save records
    Gui(gui::GuiArgs),
    /// Play the engine against itself for training data
    ///
    /// Play the engine against itself at a fixed number of playouts on one thread, from random openings, and
    /// write every searched position with each legal placement's visits and the game's result (docs/learning.md).
    /// Shards make exactly the games of one long run; a file cut short is resumed after its last whole game
    Selfplay(learn::SelfplayArgs),
    /// Fit the learned priors to self-play data
    ///
    /// Fit the learned priors (a softmax over placement features) to self-play data, holding one game in ten out,
    /// and report the fit of the handmade and the learned priors on both parts; writes a weights file
    Train(learn::TrainArgs),
    /// Fit the policy and value network to self-play data
    ///
    /// Fit the policy and value network of one family of boards (square or hex) to self-play data: the policy to
    /// the visit shares, the value to the results; one game in ten is held out. A checkpoint after every epoch
    /// (FILE.checkpoint) lets an interrupted run go on when the same command is run again
    TrainNet(netfit::TrainNetArgs),
    /// Measure the network and the priors on exactly solved positions
    ///
    /// Sample positions from uniformly random games on a small board (at most 20 points), solve each with every
    /// legal placement's value, and report how often the network's, the learned priors' and the handmade priors'
    /// favourite placement wins a won position (beside a random placement's chance), and the log loss, Brier
    /// score and share right of the network's value and of a playout estimate against the exact results
    Knowledge(learn::KnowledgeArgs),
    /// Analyse positions for programs: JSON queries on stdin, JSON answers on stdout
    ///
    /// The JSON analysis engine (docs/analysis.md), as KataGo's: one query a line on stdin (a game's moves and
    /// the turns to analyse), one answer a line on stdout for each turn, as searches finish; many positions are
    /// searched at once, each on a tree of its own. Closing stdin finishes what was asked, then exits
    Analysis(analysis::AnalysisArgs),
    /// Review records: every placement judged, each record saved with its review, a summary table
    ///
    /// Review SGF and Abstract Play records as oust gui's review does, every position of every record searched
    /// at once on all cores: each record is written as an SGF with the review in its nodes (NAME-review.sgf), and
    /// a table of each side's inaccuracies, mistakes, blunders and average loss goes to stdout. A record that
    /// cannot be read is named with the reason, the others are still reviewed, and the exit status is 1
    Review(review::ReviewArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let subcommand = cli.command.as_ref().map(|c| match c {
        Command::Bench(_) => "bench",
        Command::SgfCheck(_) => "sgf-check",
        Command::Match(_) => "match",
        Command::Tournament(_) => "tournament",
        Command::Calibrate(_) => "calibrate",
        Command::ApImport(_) => "ap-import",
        Command::ApExport(_) => "ap-export",
        Command::Solve(_) => "solve",
        Command::Gui(_) => "gui",
        Command::Selfplay(_) => "selfplay",
        Command::Train(_) => "train",
        Command::TrainNet(_) => "train-net",
        Command::Knowledge(_) => "knowledge",
        Command::Analysis(_) => "analysis",
        Command::Review(_) => "review",
    });
    cli::init_logging(subcommand);
    let (name, outcome) = match &cli.command {
        Some(Command::Bench(args)) => (Some("bench"), bench::run(args)),
        Some(Command::SgfCheck(args)) => (Some("sgf-check"), Ok(records::sgf_check(args))),
        Some(Command::Match(args)) => (Some("match"), matches::run(args)),
        Some(Command::Tournament(args)) => (Some("tournament"), tournament::run(args)),
        Some(Command::Calibrate(args)) => (Some("calibrate"), calibrate::run(args)),
        Some(Command::ApImport(args)) => (Some("ap-import"), Ok(records::run_ap_import(args))),
        Some(Command::ApExport(args)) => (Some("ap-export"), Ok(records::run_ap_export(args))),
        Some(Command::Solve(args)) => (Some("solve"), solve::run(args)),
        Some(Command::Gui(args)) => (Some("gui"), gui::run(args)),
        Some(Command::Selfplay(args)) => (Some("selfplay"), learn::selfplay(args)),
        Some(Command::Train(args)) => (Some("train"), learn::train(args)),
        Some(Command::TrainNet(args)) => (Some("train-net"), netfit::run(args)),
        Some(Command::Knowledge(args)) => (Some("knowledge"), learn::knowledge(args)),
        Some(Command::Analysis(args)) => (Some("analysis"), analysis::run(args)),
        Some(Command::Review(args)) => (Some("review"), review::run(args)),
        None => (None, serve::run(&cli.engine)),
    };
    outcome.unwrap_or_else(|UsageError(message)| usage_error(name, &message))
}

/// Prints a command-line error once, as clap prints its own (`error: ...` and where to find help), and gives
/// clap's exit status for it (2). `subcommand` names the subcommand whose help the hint points to.
fn usage_error(subcommand: Option<&str>, message: &str) -> ExitCode {
    let mut command = Cli::command();
    command.build();
    let error = match subcommand.and_then(|name| command.find_subcommand_mut(name)) {
        Some(sub) => sub.error(ErrorKind::ValueValidation, message),
        None => command.error(ErrorKind::ValueValidation, message),
    };
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}
