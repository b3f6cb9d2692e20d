//! `oust match`: a refereed match between two GTP engines, and `--merge` of results files.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use oust::matches::{
    self, ClockSettings, MatchConfig, OpeningSource, Progress, ResultsFile, Sprt, TimeControl,
};
use oust::notation;
use oust::rules::Shape;

use super::{
    Outcome, UsageError, clock_seed, parse_nonnegative, parse_seconds, parse_size, print_out,
};

/// The options of `oust match`. A negative number is read as a value, so that `--time-per-move -1` is refused for
/// its range rather than taken for an unknown flag.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct MatchArgs {
    /// Shell command that starts engine A, Black in the first game
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    pub black: Option<String>,
    /// Shell command that starts engine B, White in the first game
    #[arg(long, value_name = "CMD", required_unless_present = "merge")]
    pub white: Option<String>,
    /// Games to play
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = parse_games)]
    pub games: u64,
    /// Swap colours every game
    #[arg(long)]
    pub alternate: bool,
    /// Number of the first opening to use
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with = "shard")]
    pub opening_offset: usize,
    /// Play only shard K of N of the match: a block of its --games (whole opening pairs), with the game numbers,
    /// colours and openings they have in the whole match. Merge the shards' results files with --merge
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Stop once the sequential probability ratio test decides (elo0 may be negative: --sprt -5,5,0.05,0.05)
    #[arg(
        long,
        value_name = "ELO0,ELO1,ALPHA,BETA",
        value_parser = parse_sprt,
        allow_hyphen_values = true
    )]
    pub sprt: Option<Sprt>,
    /// Print the summary of results files instead of playing
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["black", "white"])]
    pub merge: Option<Vec<PathBuf>>,
}

/// How games are played, the same for `oust match` and `oust tournament`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Board: N for N x N, WxH, or hexS for the hexhex board of side S
    #[arg(long, value_name = "N|WxH|hexS", default_value = "9", value_parser = parse_size)]
    pub size: Shape,
    /// The pie rule (RULES.md rule 9): both engines get 'oust-set-param pie on'; after White's swap they exchange
    /// colours for the rest of the game
    #[arg(long)]
    pub pie: bool,
    /// Openings, one a line (vertices); each is played twice with colours swapped
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Openings of K random legal placements from --seed; each is played twice with colours swapped. An opening
    /// whose result the solver proves within a few moves is drawn again
    #[arg(long, value_name = "K")]
    pub random_openings: Option<usize>,
    /// Start each engine anew for every game, so that with deterministic engines (fixed seeds and playouts, one
    /// thread) a game depends only on the commands, its opening and its colours: shards then play exactly the
    /// games of one long match
    #[arg(long)]
    pub fresh_engines: bool,
    /// Longest time for one move, in seconds; sent as 'time_settings 0 S 1' when no --time-settings
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub time_per_move: Option<f64>,
    /// GTP clock: main time M seconds, then B seconds for every S moves (Canadian byo-yomi)
    #[arg(long, num_args = 3, value_names = ["M", "B", "S"], value_parser = parse_nonnegative)]
    pub time_settings: Option<Vec<f64>>,
    /// Seconds of lateness beyond its time limits an engine may accumulate (in a game, or in a byo-yomi period) before it loses on time
    #[arg(long, value_name = "S", default_value_t = 0.2, value_parser = parse_nonnegative)]
    pub grace: f64,
    /// Longest wait in seconds for any response that no clock limits
    #[arg(long, value_name = "S", default_value_t = 30.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Adjudicate a game a draw after N moves
    #[arg(long, value_name = "N")]
    pub max_moves: Option<usize>,
    /// Games played at once, each with its own pair of engine processes
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub concurrency: u64,
    /// Directory for one SGF record per game
    #[arg(long, value_name = "DIR")]
    pub sgf_dir: Option<PathBuf>,
    /// Results file: one tab-separated line per game, written as each game ends
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Directory for the engines' stderr, one file per engine and game
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Replace an existing --results file and delete the game-* files of an earlier run in --sgf-dir and
    /// --log-dir (without it, a run refuses to start when it finds them)
    #[arg(long, conflicts_with = "resume")]
    pub overwrite: bool,
    /// Go on with the run of the --results file: its games are kept, and only the missing ones are played, with
    /// the game numbers, colours and openings of an uninterrupted run (the seed is the file's unless given); a
    /// file of other engines or settings is refused, naming what differs
    #[arg(long)]
    pub resume: bool,
    /// End a game once the solver proves its position, with the proven result (marked in the results file and the
    /// record): before each move the solver has SECONDS (default 0.002) to try, its table kept from the game's
    /// earlier positions
    #[arg(long, value_name = "solver[=SECONDS]", value_parser = parse_adjudicate)]
    pub adjudicate: Option<f64>,
    /// Seed of the random openings, printed in the results file [default: from the clock]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

impl PlayArgs {
    /// The settings of a run of `games` games (a pairing's, in a tournament) between `commands`.
    ///
    /// # Errors
    /// `--resume` without `--results`, or a clock whose stones are not a whole number.
    pub fn config(&self, commands: [String; 2], games: u64) -> Result<MatchConfig, UsageError> {
        // A resumed run takes the seed of its results file unless one is given (and then it must be that one).
        let seed = match (self.seed, self.resume, &self.results) {
            (Some(seed), _, _) => seed,
            (None, true, Some(path)) => resumed_seed(path).unwrap_or_else(clock_seed),
            (None, _, _) => clock_seed(),
        };
        if self.resume && self.results.is_none() {
            return Err(UsageError(
                "--resume needs --results FILE, the results to go on with".into(),
            ));
        }
        let settings = match self.time_settings.as_deref() {
            None => None,
            Some(&[main, byo_time, stones])
                if stones.fract() == 0.0 && stones <= u32::MAX as f64 =>
            {
                Some(ClockSettings {
                    main,
                    byo_time,
                    byo_stones: stones as u32,
                })
            }
            Some(_) => {
                return Err(UsageError(
                    "--time-settings takes M B S, with S a whole number of moves".to_string(),
                ));
            }
        };
        let openings = match (&self.openings, self.random_openings) {
            (Some(path), _) => OpeningSource::File(path.clone()),
            (None, Some(k)) => OpeningSource::Random(k),
            (None, None) => OpeningSource::None,
        };
        let mut config = MatchConfig::new(&commands[0], &commands[1], games);
        config.board = self.size;
        config.openings = openings;
        config.fresh_engines = self.fresh_engines;
        config.time = TimeControl::new(self.time_per_move, settings, self.grace, self.timeout);
        config.max_moves = self.max_moves;
        config.concurrency = self.concurrency as usize;
        config.sgf_dir = self.sgf_dir.clone();
        config.results = self.results.clone();
        config.log_dir = self.log_dir.clone();
        config.overwrite = self.overwrite;
        config.resume = self.resume;
        config.adjudicate = self.adjudicate.map(Duration::from_secs_f64);
        config.seed = seed;
        config.progress = Progress::for_stderr();
        config.pie = self.pie;
        Ok(config)
    }
}

/// `oust match`: plays it, or with `--merge` sums up results files.
pub fn run(args: &MatchArgs) -> Outcome {
    match args.merge.as_deref() {
        Some(files) => Ok(merge(files, args.sprt.as_ref())),
        None => play_match(args),
    }
}

/// A number of games, 1 or more.
fn parse_games(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("'{s}' is not a number of games (1 or more)")),
    }
}

pub(super) fn parse_shard(s: &str) -> Result<(u64, u64), String> {
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
pub(super) fn shard_games(games: u64, k: u64, n: u64) -> (u64, u64) {
    let block = 2 * games.div_ceil(2).div_ceil(n);
    let first = ((k - 1) * block).min(games);
    (first, block.min(games - first))
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

/// `oust match --merge`: the summary of several results files, each file and each game counted once.
fn merge(files: &[PathBuf], sprt: Option<&Sprt>) -> ExitCode {
    let mut labels: Option<[String; 2]> = None;
    let mut read: Vec<(String, ResultsFile)> = Vec::new();
    let mut canonical: Vec<PathBuf> = Vec::new();
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
        // The same file twice, under one name or two (`a.tsv`, `./a.tsv`, a link).
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if let Some(i) = canonical.iter().position(|c| *c == real) {
            let first = &files[i];
            let names = if first.as_os_str() == path.as_os_str() {
                format!("{} is given twice", path.display())
            } else {
                format!(
                    "{} and {} are the same file",
                    first.display(),
                    path.display()
                )
            };
            eprintln!("oust match: {names}: each file counts once");
            return ExitCode::from(2);
        }
        canonical.push(real);
        read.push((path.display().to_string(), file));
    }
    let games = match matches::merge_results(&read) {
        Ok(games) => games,
        Err(e) => {
            eprintln!("oust match: {e}");
            return ExitCode::from(2);
        }
    };
    let labels = labels.unwrap_or_default();
    let text = format!(
        "files: {}\n{}",
        files.len(),
        matches::format_summary(&labels, &games, sprt, None)
    );
    print_out(&text);
    ExitCode::SUCCESS
}

/// The solver's time a position: `solver` (0.002 s) or `solver=SECONDS`.
fn parse_adjudicate(s: &str) -> Result<f64, String> {
    let bad =
        || format!("'{s}' is not solver or solver=SECONDS (a number of seconds from 0.0001 to 60)");
    match s.split_once('=') {
        None if s == "solver" => Ok(0.002),
        Some(("solver", secs)) => secs
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0001..=60.0).contains(x))
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The seed written in a results file's settings line (`seed 7`), when it can be read.
fn resumed_seed(path: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix("# settings: "))?;
    line.split(", ")
        .find_map(|p| p.strip_prefix("seed ")?.parse().ok())
}

/// `oust match`: plays the match, then prints the table and the summary.
fn play_match(args: &MatchArgs) -> Outcome {
    let (Some(black), Some(white)) = (&args.black, &args.white) else {
        return Err(UsageError("--black and --white are required".to_string()));
    };
    let (first_game, games) = match args.shard {
        None => (0, args.games),
        Some((k, n)) => {
            let (first, count) = shard_games(args.games, k, n);
            if count == 0 {
                return Err(UsageError(format!(
                    "--shard {k}/{n} has no games: {} games split into blocks of opening pairs leave none for it",
                    args.games
                )));
            }
            (first, count)
        }
    };
    let mut config = args.play.config([black.clone(), white.clone()], games)?;
    config.alternate = args.alternate;
    config.opening_offset = args.opening_offset;
    config.first_game = first_game;
    config.sprt = args.sprt;
    let seed = config.seed;
    log::info!("match seed {seed}");
    let (finish, interrupt) = super::match_interrupts();
    let report = match matches::run_until(&config, &finish, &interrupt) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("oust match: {e}");
            return Ok(ExitCode::from(2));
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
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
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
