//! `oust train-net`: fits the policy and value network to self-play data, with a checkpoint after every epoch from
//! which an interrupted run resumes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use oust::learn::data::{self, GameData};
use oust::learn::netfit::{self, Fit, NetConfig, NetData, Report};
use oust::learn::train::held_out;
use oust::net::{Family, Net, Size};

use super::{Outcome, UsageError, print_out};

/// The options of `oust train-net`.
#[derive(Args, Debug)]
pub struct TrainNetArgs {
    /// Self-play data files (`oust selfplay --out`)
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the network; the checkpoint goes beside it, to FILE.checkpoint
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The boards' family: square (square and rectangular boards) or hex
    #[arg(long, value_name = "FAMILY", value_parser = parse_family)]
    pub family: Family,
    /// Channels of the trunk
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub channels: usize,
    /// Residual blocks of the trunk
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub blocks: usize,
    /// Units of the value head's hidden layer
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub value_hidden: usize,
    /// Passes over the training positions
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub epochs: u64,
    /// Positions a step
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub batch: u64,
    /// Adam's step size at the start (it falls linearly to a tenth by the end)
    #[arg(long, value_name = "X", default_value_t = 0.002)]
    pub learning_rate: f32,
    /// Decoupled weight decay
    #[arg(long, value_name = "X", default_value_t = 0.0001)]
    pub weight_decay: f32,
    /// Weight of the value's loss beside the policy's
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    pub value_weight: f32,
    /// Seed of the starting network, the order of positions, their symmetries and the held-out games
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Threads that share each batch. The same data, settings and threads make the same network; another number
    /// of threads adds the same gradients in another order (a fit's checkpoint goes on only with its own)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Start from this network (of the same family and size) instead of a random one
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Stop after this many epochs in all (the checkpoint keeps them), to split a long fit into parts: the same
    /// command without it goes on
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after: Option<u64>,
}

fn parse_family(s: &str) -> Result<Family, String> {
    Family::parse(s).ok_or_else(|| format!("'{s}' is not a family of boards: square or hex"))
}

/// Writes `bytes` to `path` through a temporary file and a rename, so that an interrupted write leaves the old
/// file whole.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        use std::io::Write;
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// The games of self-play data files, naming the file and the line of the first broken line.
pub(super) fn read_games(paths: &[PathBuf]) -> Result<Vec<GameData>, String> {
    let mut games = Vec::new();
    for path in paths {
        each_game(path, &mut |g| games.push(g))?;
    }
    Ok(games)
}

/// Hands each complete game of the data file `path` to `each`, one at a time.
fn each_game(path: &Path, each: &mut dyn FnMut(GameData)) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let complete = data::parse_each(&text, each).map_err(|e| format!("{}: {e}", path.display()))?;
    if complete < text.len() {
        log::warn!("{}: an unfinished last game is left out", path.display());
    }
    Ok(())
}

fn report_row(name: &str, r: &Report) -> String {
    format!(
        "{name:<10} {:>9} {:>9.4} {:>7.2}% {:>9.4} {:>8.4}\n",
        r.positions,
        r.policy,
        100.0 * r.top1,
        r.value,
        r.brier
    )
}

/// `oust train-net`.
pub fn run(args: &TrainNetArgs) -> Outcome {
    let start = Instant::now();
    let cfg = NetConfig {
        family: args.family,
        size: Size {
            channels: args.channels,
            blocks: args.blocks,
            value_hidden: args.value_hidden,
        },
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        learning_rate: args.learning_rate,
        weight_decay: args.weight_decay,
        value_weight: args.value_weight,
        seed: args.seed,
        threads: args.threads as usize,
    };
    for (name, v) in [
        ("--learning-rate", cfg.learning_rate),
        ("--weight-decay", cfg.weight_decay),
        ("--value-weight", cfg.value_weight),
    ] {
        if !(0.0..=10.0).contains(&v) {
            return Err(UsageError(format!("{name} {v}: a number from 0 to 10")));
        }
    }
    let init = match &args.init {
        Some(path) => {
            let bytes = fs::read(path)
                .map_err(|e| UsageError(format!("--init {}: {e}", path.display())))?;
            Some(
                Net::from_bytes(&bytes, &path.display().to_string())
                    .map_err(|e| UsageError(format!("--init {}: {e}", path.display())))?,
            )
        }
        None => None,
    };
    // A file at a time: each file's games go into the fit's own form of their positions, and the games'
    // memory (the rules core's positions, the moves' lists, several times the fit's) is given back at once.
    let mut train_set = NetData::default();
    let mut test_set = NetData::default();
    let mut game_count = 0;
    // The networks that played the data, when it says (self-play with the network's priors records each game's).
    let mut played: Vec<(Option<u64>, usize)> = Vec::new();
    for path in &args.data {
        let mut add = |g: GameData| {
            game_count += 1;
            if Family::of(g.board) != cfg.family {
                return;
            }
            match played.iter_mut().find(|(n, _)| *n == g.net) {
                Some((_, count)) => *count += 1,
                None => played.push((g.net, 1)),
            }
            if held_out(g.number, cfg.seed) {
                test_set.add([&g], cfg.family);
            } else {
                train_set.add([&g], cfg.family);
            }
        };
        if let Err(e) = each_game(path, &mut add) {
            eprintln!("oust train-net: {e}");
            return Ok(ExitCode::from(2));
        }
    }
    if train_set.is_empty() {
        eprintln!(
            "oust train-net: the data has no position on a {} board to train on",
            cfg.family.name()
        );
        return Ok(ExitCode::from(2));
    }
    log::info!(
        "{} positions to train on, {} held out; loaded in {:.1} s",
        train_set.len(),
        test_set.len(),
        start.elapsed().as_secs_f64()
    );
    let mut recipe = cfg.recipe();
    if let Some(path) = &args.init {
        recipe.push_str(&format!(" init={}", path.display()));
    }
    let fingerprint = train_set.fingerprint();
    let mut checkpoint = args.out.as_os_str().to_owned();
    checkpoint.push(".checkpoint");
    let checkpoint = PathBuf::from(checkpoint);
    let mut fit = match fs::read(&checkpoint) {
        Ok(bytes) => match Fit::from_bytes(&bytes, &recipe, fingerprint) {
            Ok(fit) => {
                log::info!(
                    "resuming from {} after epoch {}",
                    checkpoint.display(),
                    fit.epoch
                );
                fit
            }
            Err(e) => {
                eprintln!(
                    "oust train-net: {}: {e}; remove it to start again, or write elsewhere with --out",
                    checkpoint.display()
                );
                return Ok(ExitCode::from(2));
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Fit::new(&cfg, init).map_err(UsageError)?
        }
        Err(e) => {
            eprintln!("oust train-net: {}: {e}", checkpoint.display());
            return Ok(ExitCode::from(2));
        }
    };
    let mut text = format!(
        "data: {} games, {} positions on {} boards to train on, {} held out\n",
        game_count,
        train_set.len(),
        cfg.family.name(),
        test_set.len()
    );
    if played.iter().any(|(n, _)| n.is_some()) {
        let list: Vec<String> = played
            .iter()
            .map(|(n, count)| match n {
                Some(n) => format!("{n:016x} ({count} games)"),
                None => format!("not recorded ({count} games)"),
            })
            .collect();
        text.push_str(&format!("played by the networks {}\n", list.join(", ")));
    }
    text.push_str("           positions   policy    top-1     value    brier\n");
    while fit.epoch < cfg.epochs {
        let epoch_start = Instant::now();
        let mut last_log = Instant::now();
        let total = train_set.len();
        let e = fit.epoch + 1;
        let report = fit.epoch(&train_set, &cfg, &mut |done| {
            if last_log.elapsed().as_secs_f64() >= 10.0 {
                last_log = Instant::now();
                log::info!("epoch {e}: {done} of {total} positions");
            }
        });
        let bytes = fit.to_bytes(&recipe, fingerprint);
        if let Err(err) = write_atomic(&checkpoint, &bytes) {
            eprintln!("oust train-net: {}: {err}", checkpoint.display());
            return Ok(ExitCode::from(2));
        }
        let held = netfit::evaluate(&fit.net, &test_set, cfg.threads);
        log::info!(
            "epoch {e} in {:.0} s: train policy {:.4} top-1 {:.1}% value {:.4}; held out policy {:.4} top-1 {:.1}% value {:.4} brier {:.4}",
            epoch_start.elapsed().as_secs_f64(),
            report.policy,
            100.0 * report.top1,
            report.value,
            held.policy,
            100.0 * held.top1,
            held.value,
            held.brier
        );
        text.push_str(&report_row(&format!("epoch {e}"), &report));
        if args.stop_after.is_some_and(|n| fit.epoch as u64 >= n) && fit.epoch < cfg.epochs {
            text.push_str(&format!(
                "stopped after epoch {e} of {}: the checkpoint {} holds it; the same command without \
                 --stop-after goes on\n",
                cfg.epochs,
                checkpoint.display()
            ));
            print_out(&text);
            return Ok(ExitCode::SUCCESS);
        }
    }
    let train_final = netfit::evaluate(&fit.net, &train_set, cfg.threads);
    let held = netfit::evaluate(&fit.net, &test_set, cfg.threads);
    text.push_str(&report_row("train", &train_final));
    if held.positions > 0 {
        text.push_str(&report_row("held out", &held));
    }
    let comment = format!(
        "fitted by oust train-net: {recipe}\non {} positions of {} games ({} held out)",
        train_set.len(),
        game_count,
        test_set.len()
    );
    if let Err(e) = write_atomic(&args.out, &fit.net.to_bytes(&comment)) {
        eprintln!("oust train-net: {}: {e}", args.out.display());
        return Ok(ExitCode::from(2));
    }
    text.push_str(&format!(
        "network {} written to {} after {} epochs in {:.1} s\n",
        cfg.size,
        args.out.display(),
        cfg.epochs,
        start.elapsed().as_secs_f64()
    ));
    print_out(&text);
    Ok(ExitCode::SUCCESS)
}
