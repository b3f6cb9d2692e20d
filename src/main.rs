//! The `oust` binary: command-line flags, logging, and the protocol loop on stdin/stdout.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};
use oust::abstract_play;
use oust::bench::{self, Work};
use oust::gtp::{self, Engine, Options, Reports};
use oust::matches::{
    self, ClockSettings, MatchConfig, OpeningSource, Progress, ResultsFile, Sprt, TimeControl,
};
use oust::notation::move_name;
use oust::rules::{Geometry, Position, Shape, Status};
use oust::{notation, sgf, solve};

/// An engine for the board game Oust, speaking a GTP-style protocol on stdin and stdout.
#[derive(Parser, Debug)]
#[command(name = "oust", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Seed for every random choice; the same seed and commands give the same answers [default: from the clock]
    #[arg(long)]
    seed: Option<u64>,
    /// Board at start-up: N for N x N, WxH, or hexS for the hexhex board of side S (hex5 to hex9 are the usual ones)
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    size: Shape,
    /// Move reports after play and genmove responses: on, off (standard GTP, for strict controllers), or auto (on
    /// until a GoGui controller is detected by its gogui-rules_* commands)
    #[arg(long, default_value = "auto", value_name = "auto|on|off", value_parser = parse_reports)]
    reports: Reports,
    /// Player answering genmove: mcts, uct-plain or random
    #[arg(long)]
    player: Option<String>,
    /// Playouts per move (0: no playout limit)
    #[arg(long)]
    playouts: Option<String>,
    /// Seconds per move, fractions allowed [default: 1, unless --playouts or a clock decides]
    #[arg(long)]
    time_per_move: Option<String>,
    /// Search threads [default: all cores]
    #[arg(long)]
    threads: Option<String>,
    /// The pie rule (RULES.md rule 9): White may answer Black's first placement with 'swap' (the parameter pie)
    #[arg(long)]
    pie: bool,
    /// Any engine parameter (see oust-list-params), as NAME=VALUE; repeatable
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure speed: random playouts and perft (one thread), MCTS search (one and two threads); fixed seeds.
    /// Prints one JSON object on stdout, and each workload as it starts on stderr
    Bench {
        /// Seconds per workload (the MCTS workloads take twice that: a first search warms their tree up)
        #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
        seconds: f64,
        /// Fixed work instead: exactly N uniformly random playouts from the empty --board, one thread
        #[arg(long, value_name = "N", group = "work")]
        playouts: Option<u64>,
        /// Fixed work instead: perft from the empty --board to DEPTH, one thread
        #[arg(long, value_name = "DEPTH", group = "work")]
        perft: Option<usize>,
        /// Fixed work instead: one MCTS search of exactly N playouts from the empty --board (reproducible with
        /// --threads 1)
        #[arg(long, value_name = "N", group = "work")]
        mcts: Option<u64>,
        /// Board of the fixed work: N, WxH or hexS
        #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
        board: Shape,
        /// Search threads of the fixed --mcts work
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Seed of every workload: the same seed and build play the same games
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Validate SGF game records: syntax, every move of every game and variation legal, each game's result (RE)
    /// the one its main line reaches. Exits with status 1 when a record is bad
    SgfCheck {
        /// Read records that give only SZ[2S-1] as this hexhex board (GoGui saves its hexhex games that way;
        /// records written by oust say HX[S] and need no flag)
        #[arg(long, value_name = "hexS", value_parser = parse_size)]
        size: Option<Shape>,
        /// The records to check
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Play a refereed match between two GTP engines and print its results table and summary
    Match(Box<MatchArgs>),
    /// Turn an Abstract Play game into an SGF record, every turn replayed through the rules: its JSON game
    /// record, or a turn list, one turn a line (`d4,e5` or `pass`). Nothing is written when a turn is refused
    ApImport {
        /// The game: JSON when it starts with '{', otherwise a turn list
        file: PathBuf,
        /// Board of a turn list: hex-6, hex-7, hex-8 or square-11 (any hex-S or square-N the engine plays) [default:
        /// hex-7, as on Abstract Play]; a JSON record names its own
        #[arg(long, value_name = "VARIANT")]
        variant: Option<String>,
        /// Write the SGF record to FILE (replacing it) instead of stdout
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Turn an SGF record's main line into an Abstract Play turn list, one turn a line, each turn's placements
    /// joined by commas; the board's variant goes to stderr
    ApExport {
        /// The SGF record
        file: PathBuf,
        /// Read a record that gives only SZ[2S-1] as this hexhex board (as sgf-check --size)
        #[arg(long, value_name = "hexS", value_parser = parse_size)]
        size: Option<Shape>,
        /// Write the turn list to FILE (replacing it) instead of stdout
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Solve a position: its value for the side to move (win, loss or draw under perfect play), a best move, the
    /// distance to the end (fastest win, slowest loss), the principal variation, nodes, speed, table memory and
    /// time. Progress goes to stderr every second. Exits with status 3 when the solve stops unproven ("unknown")
    Solve(SolveArgs),
}

/// The options of `oust solve`.
#[derive(Args, Debug)]
struct SolveArgs {
    /// The empty board to solve: N for N x N, WxH, or hexS
    #[arg(long, value_name = "N|WxH|hexS", default_value = "3", value_parser = parse_size, conflicts_with = "sgf")]
    size: Shape,
    /// Solve the position at the end of this SGF record instead
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Memory for the solver's table (or the tree of --pns), in megabytes; at most the machine's memory
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    memory_mb: u64,
    /// Give up after this many seconds and answer unknown
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    seconds: Option<f64>,
    /// Give up after this many nodes and answer unknown
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// The value of every first move too, one per class of moves equal under the board's symmetries
    #[arg(long)]
    moves: bool,
    /// Settle the value only, not the exact distance (the distance printed is then that of the line found)
    #[arg(long)]
    value_only: bool,
    /// Store positions as they are, not under their symmetric canonical form (a check of the symmetry code)
    #[arg(long)]
    no_symmetry: bool,
    /// No transposition table at all (a check; feasible on tiny boards only)
    #[arg(long)]
    no_table: bool,
    /// Prove or disprove only "the side to move wins" with proof-number search instead (a second algorithm: a
    /// plain tree, no table), within --nodes (default 20000000) nodes and --memory-mb (40 bytes a node)
    #[arg(long)]
    pns: bool,
}

fn parse_reports(s: &str) -> Result<Reports, String> {
    Reports::from_name(s).ok_or_else(|| format!("'{s}' is not auto, on or off"))
}

/// The options of `oust match`.
#[derive(Args, Debug)]
struct MatchArgs {
    /// Shell command that starts engine A, Black in the first game
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    black: Option<String>,
    /// Shell command that starts engine B, White in the first game
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    white: Option<String>,
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 10)]
    games: u64,
    /// Board: N for N x N, WxH, or hexS for the hexhex board of side S
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    size: Shape,
    /// Swap colours every game
    #[arg(long)]
    alternate: bool,
    /// The pie rule (RULES.md rule 9): both engines get 'oust-set-param pie on'; after White's swap they exchange
    /// colours for the rest of the game
    #[arg(long)]
    pie: bool,
    /// Openings, one a line (vertices); each is played twice with colours swapped
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Openings of K random legal placements from --seed; each is played twice with colours swapped
    #[arg(long, value_name = "K")]
    random_openings: Option<usize>,
    /// Number of the first opening to use
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "shard")]
    opening_offset: usize,
    /// Play only shard K of N of the match: a block of its --games (whole opening pairs), with the game numbers,
    /// colours and openings they have in the whole match. Merge the shards' results files with --merge
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Start each engine anew for every game, so that with deterministic engines (fixed seeds and playouts, one
    /// thread) a game depends only on the commands, its opening and its colours: shards then play exactly the
    /// games of one long match
    #[arg(long)]
    fresh_engines: bool,
    /// Longest time for one move, in seconds; sent as 'time_settings 0 S 1' when no --time-settings
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_per_move: Option<f64>,
    /// GTP clock: main time M seconds, then B seconds for every S moves (Canadian byo-yomi)
    #[arg(long, num_args = 3, value_names = ["M", "B", "S"], value_parser = parse_nonnegative)]
    time_settings: Option<Vec<f64>>,
    /// Seconds of lateness beyond its time limits an engine may accumulate (in a game, or in a byo-yomi period) before it loses on time
    #[arg(long, value_name = "S", default_value_t = 0.2, value_parser = parse_nonnegative)]
    grace: f64,
    /// Longest wait in seconds for any response that no clock limits
    #[arg(long, value_name = "S", default_value_t = 30.0, value_parser = parse_seconds)]
    timeout: f64,
    /// Adjudicate a game a draw after N moves
    #[arg(long, value_name = "N")]
    max_moves: Option<usize>,
    /// Games played at once, each with its own pair of engine processes
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Directory for one SGF record per game
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Results file: one tab-separated line per game, written as each game ends
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Directory for the engines' stderr, one file per engine and game
    #[arg(long, value_name = "DIR")]
    log_dir: Option<PathBuf>,
    /// Replace an existing --results file and delete the game-* files of an earlier match in --sgf-dir and
    /// --log-dir (without it, the match refuses to start when it finds them)
    #[arg(long)]
    overwrite: bool,
    /// Stop once the sequential probability ratio test decides (elo0 may be negative: --sprt -5,5,0.05,0.05)
    #[arg(
        long,
        value_name = "ELO0,ELO1,ALPHA,BETA",
        value_parser = parse_sprt,
        allow_hyphen_values = true
    )]
    sprt: Option<Sprt>,
    /// Seed of the random openings, printed in the results file [default: from the clock]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print the summary of results files instead of playing
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["black", "white"])]
    merge: Option<Vec<PathBuf>>,
}

fn parse_size(s: &str) -> Result<Shape, String> {
    let shape = Shape::parse(s).map_err(|e| e.to_string())?;
    // The rules decide which boards exist.
    Geometry::new(shape).map_err(|e| e.to_string())?;
    Ok(shape)
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

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}' is not K/N with 1 <= K <= N, for example 2/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The first game and the number of games of shard `k` of `n` of a match of `games` games: contiguous blocks of
/// whole pairs of games (an opening's two games stay together), as equal as that allows.
fn shard_games(games: u64, k: u64, n: u64) -> (u64, u64) {
    let block = 2 * games.div_ceil(2).div_ceil(n);
    let first = ((k - 1) * block).min(games);
    (first, block.min(games - first))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

fn parse_nonnegative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds (0 or more)")),
    }
}

fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{s}' is not four numbers elo0,elo1,alpha,beta"))?;
    match parts[..] {
        [elo0, elo1, alpha, beta] => Sprt::new(elo0, elo1, alpha, beta),
        _ => Err(format!("'{s}' is not four numbers elo0,elo1,alpha,beta")),
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Bench {
            seconds,
            playouts,
            perft,
            mcts,
            board,
            threads,
            seed,
        }) => {
            let work = match (playouts, perft, mcts) {
                (Some(n), _, _) => Some(Work::Playouts(n)),
                (_, Some(d), _) => Some(Work::Perft(d)),
                (_, _, Some(n)) => Some(Work::Mcts(n)),
                _ => None,
            };
            let report = match work {
                Some(work) => match bench::fixed(work, board, threads as usize, seed) {
                    Ok(r) => r,
                    Err(e) => return usage_error(Some("bench"), &e),
                },
                None => bench::run(seconds, seed, &mut |step| eprintln!("bench {step}")),
            };
            println!("{report}");
            ExitCode::SUCCESS
        }
        Some(Command::SgfCheck { size, files }) => sgf_check(&files, size),
        Some(Command::Solve(args)) => solve(&args),
        Some(Command::ApImport {
            file,
            variant,
            output,
        }) => finish(ap_import(&file, variant.as_deref()), output.as_deref()),
        Some(Command::ApExport { file, size, output }) => {
            finish(ap_export(&file, size), output.as_deref())
        }
        Some(Command::Match(args)) => match args.merge.as_deref() {
            Some(files) => merge(files, args.sprt.as_ref()),
            None => play_match(&args),
        },
        None => serve(&cli),
    }
}

/// `oust sgf-check`: one line per file, on stdout for a good record and on stderr for a bad one.
fn sgf_check(files: &[PathBuf], board: Option<Shape>) -> ExitCode {
    let mut bad = 0;
    for file in files {
        match check_file(file, board) {
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
        let verb = if bad == 1 { "is" } else { "are" };
        eprintln!(
            "{bad} of {} {verb} bad",
            notation::count(files.len(), "record")
        );
        ExitCode::FAILURE
    }
}

fn check_file(file: &Path, board: Option<Shape>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read: {e}"))?;
    let games = sgf::check_for(&text, board).map_err(|e| e.to_string())?;
    let summaries: Vec<String> = games.iter().map(game_summary).collect();
    Ok(match summaries.as_slice() {
        [one] => one.clone(),
        many => format!(
            "{}; {}",
            notation::count(many.len(), "game"),
            many.iter()
                .enumerate()
                .map(|(i, s)| format!("game {}: {s}", i + 1))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    })
}

/// `9x9, 40 moves, result ...` for a game's main line, then the number of variations checked when there are more.
fn game_summary(checked: &sgf::Checked) -> String {
    let pos = checked.game.position();
    let end = match pos.status() {
        Status::Over(o) => format!("result {}", o.describe()),
        _ => format!("unfinished, {} to move", pos.to_move()),
    };
    let mut out = format!(
        "{}, {}, {end}",
        checked.record.board,
        notation::count(checked.record.moves.len(), "move")
    );
    if checked.variations > 1 {
        out.push_str(&format!(
            " (main line; {} checked)",
            notation::count(checked.variations, "variation")
        ));
    }
    out
}

/// Writes a converted record to `output` (through a temporary file, so that a failed write leaves the old file
/// whole) or to stdout; an error goes to stderr with exit status 1 and nothing is written.
fn finish(converted: Result<String, String>, output: Option<&Path>) -> ExitCode {
    let text = match converted {
        Ok(text) => text,
        Err(why) => {
            eprintln!("oust: {why}");
            return ExitCode::FAILURE;
        }
    };
    let written = match output {
        None => io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .and_then(|()| io::stdout().flush()),
        Some(path) => {
            let mut tmp = path.as_os_str().to_owned();
            tmp.push(".part");
            let tmp = PathBuf::from(tmp);
            std::fs::write(&tmp, &text)
                .and_then(|()| std::fs::rename(&tmp, path))
                .inspect_err(|_| {
                    let _ = std::fs::remove_file(&tmp);
                })
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let to = output.map_or("stdout".to_string(), |p| p.display().to_string());
            eprintln!("oust: cannot write {to}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `oust ap-import`: an Abstract Play game as SGF text.
fn ap_import(file: &Path, variant: Option<&str>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let given = variant.map(abstract_play::parse_variant).transpose()?;
    let record = abstract_play::parse(&text, given.unwrap_or(abstract_play::DEFAULT_BOARD))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if let (Some(given), Some(own)) = (given, record.board)
        && abstract_play::is_json(&text)
        && given != own
    {
        return Err(format!(
            "{}: the record is a game on {}, not on --variant {}",
            file.display(),
            abstract_play::variant_name(own)?,
            variant.unwrap_or_default()
        ));
    }
    let game = abstract_play::replay(&record).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(sgf::write(&game, &abstract_play::sgf_info(&record, &game)))
}

/// `oust ap-export`: an SGF record's main line as an Abstract Play turn list.
fn ap_export(file: &Path, board: Option<Shape>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut games = sgf::check_for(&text, board).map_err(|e| format!("{}: {e}", file.display()))?;
    if games.len() != 1 {
        return Err(format!(
            "{}: the file holds {} games; a turn list holds one",
            file.display(),
            games.len()
        ));
    }
    let checked = games.remove(0);
    if checked.variations > 1 {
        eprintln!(
            "{}: the main line only, of {} lines of play",
            file.display(),
            checked.variations
        );
    }
    let game = checked.game;
    let turns = abstract_play::turns(&game).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!(
        "{}: {} turns on Abstract Play's {}",
        file.display(),
        turns.len(),
        abstract_play::variant_name(game.start().geometry().shape())?
    );
    let mut out = turns.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// A flag that Ctrl-C or SIGTERM sets: the first signal asks the work to stop, a second exits at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupt = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let registered =
            signal_hook::flag::register_conditional_shutdown(signal, 130, interrupt.clone())
                .and_then(|_| signal_hook::flag::register(signal, interrupt.clone()));
        if let Err(e) = registered {
            log::warn!("cannot handle signal {signal}: {e}");
        }
    }
    interrupt
}

fn serve(cli: &Cli) -> ExitCode {
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
            Err(msg) => return usage_error(None, &msg),
        };
    if io::stdin().is_terminal() {
        eprintln!(
            "oust {}: Oust engine on a {} board, speaking GTP. Try 'genmove b', 'showboard', 'list_commands' or 'quit'.",
            env!("CARGO_PKG_VERSION"),
            cli.size
        );
    }
    match gtp::run(
        &mut engine,
        io::BufReader::new(io::stdin()),
        io::stdout().lock(),
    ) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("i/o error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Applies the parameter flags through the same setter as `oust-set-param`.
fn apply_flags(engine: &mut Engine, cli: &Cli) -> Result<(), String> {
    let named = [
        ("player", &cli.player),
        ("playouts", &cli.playouts),
        ("time_per_move", &cli.time_per_move),
        ("threads", &cli.threads),
    ];
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

/// `oust match --merge`: the summary of several results files.
fn merge(files: &[PathBuf], sprt: Option<&Sprt>) -> ExitCode {
    let mut labels: Option<[String; 2]> = None;
    let mut games = Vec::new();
    for path in files {
        let file = match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| ResultsFile::parse(&text))
        {
            Ok(f) => f,
            Err(e) => {
                eprintln!("oust match: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        match &labels {
            None => labels = Some(file.labels.clone()),
            Some(l) if !matches::same_engines(l, &file.labels) => log::warn!(
                "{} is a match of other engines ({} / {}, compared without their --seed); its games are counted \
                 all the same",
                path.display(),
                file.labels[0],
                file.labels[1]
            ),
            Some(_) => {}
        }
        games.extend(file.games);
    }
    let labels = labels.unwrap_or_default();
    let text = format!(
        "files: {}\n{}",
        files.len(),
        matches::format_summary(&labels, &games, sprt, None)
    );
    print_out(&text);
    ExitCode::SUCCESS
}

/// Writes `text` to stdout; a closed stdout (`| head`) is not an error worth a panic.
fn print_out(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// `oust match`: plays the match, then prints the table and the summary.
fn play_match(args: &MatchArgs) -> ExitCode {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let (Some(black), Some(white)) = (&args.black, &args.white) else {
        return usage_error(Some("match"), "--black and --white are required");
    };
    let settings = match args.time_settings.as_deref() {
        None => None,
        Some(&[main, byo_time, stones]) if stones.fract() == 0.0 && stones <= u32::MAX as f64 => {
            Some(ClockSettings {
                main,
                byo_time,
                byo_stones: stones as u32,
            })
        }
        Some(_) => {
            return usage_error(
                Some("match"),
                "--time-settings takes M B S, with S a whole number of moves",
            );
        }
    };
    let openings = match (&args.openings, args.random_openings) {
        (Some(path), _) => OpeningSource::File(path.clone()),
        (None, Some(k)) => OpeningSource::Random(k),
        (None, None) => OpeningSource::None,
    };
    let (first_game, games) = match args.shard {
        None => (0, args.games),
        Some((k, n)) => {
            let (first, count) = shard_games(args.games, k, n);
            if count == 0 {
                return usage_error(
                    Some("match"),
                    &format!(
                        "--shard {k}/{n} has no games: {} games split into blocks of opening pairs leave none for it",
                        args.games
                    ),
                );
            }
            (first, count)
        }
    };
    let config = MatchConfig {
        commands: [black.clone(), white.clone()],
        games,
        board: args.size,
        alternate: args.alternate,
        openings,
        opening_offset: args.opening_offset,
        first_game,
        fresh_engines: args.fresh_engines,
        time: TimeControl::new(args.time_per_move, settings, args.grace, args.timeout),
        max_moves: args.max_moves,
        concurrency: args.concurrency as usize,
        sgf_dir: args.sgf_dir.clone(),
        results: args.results.clone(),
        log_dir: args.log_dir.clone(),
        overwrite: args.overwrite,
        sprt: args.sprt,
        seed,
        progress: Progress::for_stderr(),
        pie: args.pie,
    };
    log::info!("match seed {seed}");
    let interrupt = interrupt_flag();
    let report = match matches::run(&config, &interrupt) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("oust match: {e}");
            return ExitCode::from(2);
        }
    };
    let mut text = matches::format_table(&report.results);
    text.push('\n');
    if report.interrupted {
        text.push_str(&format!(
            "interrupted after {} of {}\n",
            report.results.len(),
            notation::count(config.games, "game")
        ));
    }
    if let Some(stop) = &report.sprt_stop {
        let later = (report.results.len() as u64).saturating_sub(stop.games);
        text.push_str(&format!(
            "stopped by the SPRT after {}: {}",
            notation::count(stop.games, "game"),
            stop.decision.describe()
        ));
        if later > 0 {
            text.push_str(&format!(
                "; {} in progress then played to {} end and {} in the figures below",
                notation::count(later, "game"),
                if later == 1 { "its" } else { "their" },
                if later == 1 { "counts" } else { "count" },
            ));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "engines: A is {}, B is {}\n",
        report.names[0], report.names[1]
    ));
    text.push_str(&matches::format_summary(
        &report.labels,
        &report.results,
        config.sprt.as_ref(),
        report.sprt_stop.as_ref(),
    ));
    print_out(&text);
    if report.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    }
}

/// Nodes of proof-number search without `--nodes`.
const PNS_NODES: u64 = 20_000_000;

/// The machine's memory in bytes (Linux's `MemTotal`), when it can be read.
fn machine_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `oust solve`: the report on stdout, progress on stderr.
fn solve(args: &SolveArgs) -> ExitCode {
    let position = match &args.sgf {
        None => match Geometry::new(args.size) {
            Ok(geo) => Position::new(Arc::new(geo)),
            Err(e) => return usage_error(Some("solve"), &e.to_string()),
        },
        Some(file) => {
            match sgf::read_file(file)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|text| {
                    sgf::parse(&text)
                        .and_then(|record| sgf::replay(&record, None))
                        .map_err(|e| e.to_string())
                }) {
                Ok(game) => game.position().clone(),
                Err(e) => {
                    eprintln!("oust solve: {}: {e}", file.display());
                    return ExitCode::from(2);
                }
            }
        }
    };
    let memory_bytes = usize::try_from(args.memory_mb)
        .unwrap_or(usize::MAX)
        .saturating_mul(1 << 20);
    if let Some(total) = machine_memory_bytes()
        && memory_bytes as u64 > total
    {
        return usage_error(
            Some("solve"),
            &format!(
                "--memory-mb {} is more than this machine's memory ({} MB)",
                args.memory_mb,
                total >> 20
            ),
        );
    }
    let options = solve::Options {
        memory_bytes,
        table: !args.no_table,
        symmetry: !args.no_symmetry,
        exact_distance: !args.value_only,
    };
    let mut solver = match solve::Solver::new(options) {
        Ok(s) => s,
        Err(e) => return usage_error(Some("solve"), &e.to_string()),
    };
    let interrupt = interrupt_flag();
    let limits = solve::Limits {
        deadline: args
            .seconds
            .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s)),
        nodes: args.nodes,
        stop: Some(&interrupt),
    };
    let geo = position.geometry_arc().clone();
    if let Status::Over(o) = position.status() {
        eprintln!(
            "oust solve: the game is over ({}): nothing to solve",
            o.describe()
        );
        return ExitCode::from(2);
    }
    if args.pns {
        let start = std::time::Instant::now();
        let limits = solve::Limits {
            nodes: Some(args.nodes.unwrap_or(PNS_NODES)),
            ..limits
        };
        let result = match solve::pns::prove_win(&position, memory_bytes, &limits) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("oust solve: {e}");
                return ExitCode::from(2);
            }
        };
        let elapsed = start.elapsed().as_secs_f64();
        let verdict = match (result.wins, result.stopped) {
            (Some(true), _) => format!("win for {}", position.to_move()),
            (Some(false), _) => format!("no win for {} (a loss or no winner)", position.to_move()),
            (None, Some(why)) => format!("unknown ({why})"),
            (None, None) => "unknown".to_string(),
        };
        print_out(&format!(
            "value: {verdict}\nnodes: {}\nnodes/s: {:.0}\ntree: {:.1} MB\ntime: {elapsed:.3} s\n",
            result.nodes,
            result.nodes as f64 / elapsed.max(1e-9),
            (result.nodes * solve::pns::NODE_BYTES) as f64 / (1 << 20) as f64,
        ));
        return if result.wins.is_some() {
            ExitCode::SUCCESS
        } else if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            ExitCode::from(130)
        } else {
            ExitCode::from(3)
        };
    }
    eprintln!(
        "oust solve: {} board, {} to move{}, {} empty points; table {} MB",
        geo.size_name(),
        position.to_move(),
        if position.extra_turn() {
            " (extra turn)"
        } else {
            ""
        },
        position.empties().len(),
        args.memory_mb
    );
    let mut progress = |p: &solve::Progress| {
        eprintln!(
            "solve: {:>7.1}s  {}{}  {} nodes  {:.0} nodes/s  table {:.0}% full",
            p.elapsed.as_secs_f64(),
            p.phase,
            p.value
                .map_or_else(String::new, |v| format!(" (value: {})", v.name())),
            p.nodes,
            p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9),
            100.0 * p.table_used as f64 / p.table_capacity.max(1) as f64
        );
    };
    let report = match solver.solve(&position, &limits, &mut progress) {
        Ok(r) => r,
        Err(e @ solve::SolveError::Unlimited { .. }) => {
            eprintln!("oust solve: {e} (--seconds S or --nodes N)");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("oust solve: {e}");
            return ExitCode::from(2);
        }
    };
    let mut text = String::new();
    let mut stats = report.stats;
    let solved = matches!(report.verdict, solve::Verdict::Solved(_));
    match &report.verdict {
        solve::Verdict::Solved(s) => {
            text.push_str(&format!(
                "value: {} for {}\nbest: {}\ndistance: {}{}\npv: {}\n",
                s.value.name(),
                position.to_move(),
                move_name(&geo, s.best),
                s.distance,
                if args.value_only && s.value != solve::Value::Draw {
                    " (of the line found; not proven fastest or slowest)"
                } else {
                    ""
                },
                s.pv.iter()
                    .map(|&(c, m)| format!("{}:{}", c.letter(), move_name(&geo, m)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        solve::Verdict::Unknown(why) => match report.value {
            Some(v) => text.push_str(&format!(
                "value: {} for {} (proven; distance and line unknown: {why})\n",
                v.name(),
                position.to_move()
            )),
            None => text.push_str(&format!("value: unknown ({why})\n")),
        },
    }
    if solved && args.moves {
        let limits = solve::Limits {
            nodes: args.nodes.map(|n| n.saturating_sub(stats.nodes)),
            ..limits
        };
        match solver.move_values(&position, &limits, &mut progress) {
            Ok((Some(values), more)) => {
                stats.nodes += more.nodes;
                stats.elapsed += more.elapsed;
                stats.table_used = more.table_used;
                for v in values {
                    let same: Vec<String> = v.same_as.iter().map(|&m| move_name(&geo, m)).collect();
                    text.push_str(&format!(
                        "move {}: {}{}\n",
                        move_name(&geo, v.mv),
                        v.value.name(),
                        if same.is_empty() {
                            String::new()
                        } else {
                            format!(" (same as {})", same.join(" "))
                        }
                    ));
                }
            }
            Ok((None, _)) => text.push_str("moves: unknown (stopped)\n"),
            Err(e) => text.push_str(&format!("moves: {e}\n")),
        }
    }
    text.push_str(&format!(
        "nodes: {}\nnodes/s: {:.0}\ntable: {:.1} MB, {} of {} entries used\ntime: {:.3} s\n",
        stats.nodes,
        stats.nodes_per_second(),
        stats.table_bytes as f64 / (1 << 20) as f64,
        stats.table_used,
        stats.table_capacity,
        stats.elapsed.as_secs_f64()
    ));
    print_out(&text);
    if solved {
        ExitCode::SUCCESS
    } else if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
        ExitCode::from(130)
    } else {
        ExitCode::from(3)
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_blocks_of_whole_game_pairs() {
        let blocks = |games, n| {
            (1..=n)
                .map(|k| shard_games(games, k, n))
                .collect::<Vec<_>>()
        };
        assert_eq!(blocks(200, 4), [(0, 50), (50, 50), (100, 50), (150, 50)]);
        assert_eq!(blocks(10, 2), [(0, 6), (6, 4)]);
        assert_eq!(blocks(7, 2), [(0, 4), (4, 3)]);
        // More shards than pairs: the last ones are empty (refused on the command line).
        assert_eq!(blocks(3, 4), [(0, 2), (2, 1), (3, 0), (3, 0)]);
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("0/4").is_err());
        assert!(parse_shard("5/4").is_err());
        assert!(parse_shard("1").is_err());
    }
}
