//! `oust selfplay` (training data) and `oust train` (the learned priors fitted to it).

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use clap::Args;
use oust::learn::data::{self, GameData};
use oust::learn::knowledge;
use oust::learn::selfplay::{SelfplayConfig, play_game};
use oust::learn::train::{self, Dataset, Fit, TrainConfig};
use oust::net::{self, Family, Net, Precision};
use oust::notation;
use oust::rules::Shape;
use oust::search::Priors;
use oust::search::learned::Model;

use super::matches::{parse_shard, shard_games};
use super::{Outcome, UsageError, interrupt_flag, parse_size, print_out};

/// The options of `oust selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Boards, separated by commas: game i is on the (i mod count)-th
    #[arg(long, value_name = "LIST", default_value = "9", value_delimiter = ',', value_parser = parse_size)]
    pub boards: Vec<Shape>,
    /// Games of the whole run
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// Playouts a move (one thread)
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Seed of the openings and the searches: the same seed makes the same data
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Random legal placements that open each game (not recorded)
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub opening: usize,
    /// Play only shard K of N of the run: a block of its games, with the numbers they have in the whole run
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The data file; a file that holds the first games of this run (or shard) is resumed after its last
    /// complete game
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The priors of the searches: learned or handmade, or network (the network's policy and value)
    #[arg(long, value_name = "KIND", default_value = "handmade")]
    pub priors: String,
    /// With --priors network: a network file of oust train-net, which replaces the built-in network of its family
    /// (give one for each family at most)
    #[arg(long, value_name = "FILE")]
    pub net: Vec<PathBuf>,
    /// Weights file of the learned priors (the built-in ones by default)
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Search each move by a Gumbel root search over M moves sampled from the priors (Sequential Halving of the
    /// --playouts simulations among them), instead of PUCT: the data's policy targets are then its improved
    /// policy (docs/learning.md)
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub gumbel: Option<u64>,
    /// Stop once the file holds the first N games of the run (or shard): a prefix that a later command without
    /// it goes on from, so that a fit's data can be made again to the game
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after: Option<u64>,
    /// With --priors network: compute it in int8 (the engine's default, several times faster) or float (the
    /// reference, as data before int8 was played); the data records it (priors=network-int8 or priors=network)
    #[arg(long, value_name = "P", default_value = "int8", value_parser = parse_precision)]
    pub precision: Precision,
}

/// `--precision`: int8 or float.
fn parse_precision(s: &str) -> Result<Precision, String> {
    Precision::parse(s).ok_or_else(|| format!("expected int8 or float, got '{s}'"))
}

/// The priors `--priors` and `--weights` ask for.
fn priors_from(kind: &str, weights: Option<&Path>) -> Result<Priors, String> {
    match (kind, weights) {
        ("handmade", None) => Ok(Priors::Handmade),
        ("handmade", Some(_)) => Err("--weights is for --priors learned".into()),
        ("learned", None) => Ok(Priors::Learned(Model::built_in())),
        ("learned", Some(path)) => {
            let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Model::parse(&text)
                .map(|m| Priors::Learned(Arc::new(m)))
                .map_err(|e| format!("{}: {e}", path.display()))
        }
        (other, _) => Err(format!(
            "--priors takes learned, handmade or network, not '{other}'"
        )),
    }
}

/// The networks of both families: the built-in ones, each replaced by the file of its family among `files`.
fn nets_from(files: &[PathBuf]) -> Result<[Arc<Net>; 2], String> {
    let mut nets = [net::built_in(Family::Square), net::built_in(Family::Hex)];
    let mut given = [false; 2];
    for path in files {
        let bytes = fs::read(path).map_err(|e| format!("--net {}: {e}", path.display()))?;
        let n = Net::from_bytes(&bytes, &path.display().to_string())
            .map_err(|e| format!("--net {}: {e}", path.display()))?;
        let f = n.family() as usize;
        if given[f] {
            return Err(format!(
                "--net {}: a second network for {} boards",
                path.display(),
                n.family().name()
            ));
        }
        given[f] = true;
        nets[f] = Arc::new(n);
    }
    Ok(nets)
}

/// The games a data file holds already, checked to be the first of `range` of this run.
fn resume(path: &Path, cfg: &SelfplayConfig, first: u64, count: u64) -> Result<u64, String> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let (games, complete) = data::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for (i, g) in games.iter().enumerate() {
        let number = first + i as u64;
        let recipe = (cfg.opening, cfg.priors.clone());
        if i as u64 >= count
            || g.number != number
            || g.board != cfg.board(number)
            || g.playouts != cfg.playouts
            || g.seed != cfg.seed
            || g.recipe.as_ref() != Some(&recipe)
            || g.gumbel != cfg.gumbel
        {
            let (opening, priors) = g.recipe.clone().map_or(
                ("unrecorded".to_string(), "unrecorded".to_string()),
                |(o, p)| (o.to_string(), p),
            );
            let search = g.gumbel.map_or("PUCT".to_string(), |m| {
                format!("a Gumbel search over {m} moves")
            });
            return Err(format!(
                "{} holds game {} ({}, {} playouts, seed {}, opening {opening}, priors {priors}, {search}), which \
                 is not game {number} of this run: give another --out, or the settings that made it",
                path.display(),
                g.number,
                g.board.name(),
                g.playouts,
                g.seed
            ));
        }
        let ours = cfg
            .nets
            .as_ref()
            .map(|nets| nets[Family::of(g.board) as usize].checksum());
        if let (Some(theirs), Some(ours)) = (g.net, ours)
            && theirs != ours
        {
            return Err(format!(
                "{} holds game {} played by the network of checksum {theirs:016x}, and this run's network is \
                 {ours:016x}: give another --out, or the network that made it (--net)",
                path.display(),
                g.number
            ));
        }
    }
    if complete < text.len() {
        log::warn!(
            "{}: dropping an unfinished game after game {} ({} bytes)",
            path.display(),
            games.last().map_or("none".into(), |g| g.number.to_string()),
            text.len() - complete
        );
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(complete as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(games.len() as u64)
}

fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// `oust selfplay`: plays the run's games (or a shard's) and appends each finished game to `--out`.
pub fn selfplay(args: &SelfplayArgs) -> Outcome {
    let mut cfg = SelfplayConfig::new(args.boards.clone(), args.playouts, args.seed);
    cfg.opening = args.opening;
    cfg.gumbel = args.gumbel.map(|m| m as usize);
    if args.priors == "network" {
        if args.weights.is_some() {
            return Err(UsageError("--weights is for --priors learned".into()));
        }
        cfg.nets = Some(nets_from(&args.net).map_err(UsageError)?);
        cfg.precision = args.precision;
        let name = match args.precision {
            Precision::Float => "network",
            Precision::Int8 => "network-int8",
        };
        cfg.priors = if args.net.is_empty() {
            name.into()
        } else {
            let files: Vec<String> = args.net.iter().map(|p| p.display().to_string()).collect();
            format!("{name}:{}", files.join(","))
        };
    } else {
        if !args.net.is_empty() {
            return Err(UsageError("--net is for --priors network".into()));
        }
        cfg.setup.config.priors =
            priors_from(&args.priors, args.weights.as_deref()).map_err(UsageError)?;
        cfg.priors = match (&args.priors[..], &args.weights) {
            ("learned", Some(path)) => format!("learned:{}", path.display()),
            (name, _) => name.to_string(),
        };
    }
    let (first, count) = match args.shard {
        None => (0, args.games),
        Some((k, n)) => shard_games(args.games, k, n),
    };
    if count == 0 {
        return Err(UsageError(format!(
            "this shard of {} games has none",
            args.games
        )));
    }
    let mut file = match OpenOptions::new().create(true).append(true).open(&args.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("oust selfplay: {}: {e}", args.out.display());
            return Ok(ExitCode::from(2));
        }
    };
    // One writer a file: a second run on it (the same shard started twice) would append the same games again.
    if let Err(e) = file.try_lock() {
        let why = match e {
            std::fs::TryLockError::WouldBlock => {
                "another oust selfplay is writing it (the same run or shard started twice?); wait for it to end, \
                 or stop it"
                    .to_string()
            }
            std::fs::TryLockError::Error(e) => format!("cannot lock it: {e}"),
        };
        eprintln!("oust selfplay: {}: {why}", args.out.display());
        return Ok(ExitCode::from(2));
    }
    let done = match resume(&args.out, &cfg, first, count) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("oust selfplay: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if done > 0 {
        eprintln!(
            "oust selfplay: {} holds {} of this run already; resuming",
            args.out.display(),
            notation::count(done, "game")
        );
    }
    let interrupt = interrupt_flag();
    let start = Instant::now();
    let mut last_report = start;
    let (mut positions, mut played) = (0usize, 0u64);
    let end = first + args.stop_after.map_or(count, |n| n.min(count));
    for number in first + done..end {
        if interrupt.load(Ordering::Relaxed) {
            eprintln!(
                "oust selfplay: interrupted; the file holds every finished game, and a rerun resumes"
            );
            return Ok(ExitCode::from(130));
        }
        let game = match play_game(&cfg, number) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("oust selfplay: game {number}: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        // One write of the whole game, then to the disk: a cut leaves at most an unfinished last game.
        if let Err(e) = file
            .write_all(game.to_text().as_bytes())
            .and_then(|()| file.sync_data())
        {
            eprintln!("oust selfplay: {}: {e}", args.out.display());
            return Ok(ExitCode::from(2));
        }
        positions += game.samples.len();
        played += 1;
        let left = end - number - 1;
        if last_report.elapsed().as_secs_f64() >= 2.0 || left == 0 {
            last_report = Instant::now();
            let each = start.elapsed().as_secs_f64() / played as f64;
            eprintln!(
                "oust selfplay: game {} of {} ({}, {} positions); {each:.2} s a game; ETA {}",
                number - first + 1,
                end - first,
                game.board.name(),
                game.samples.len(),
                clock(each * left as f64)
            );
        }
    }
    print_out(&format!(
        "{} games played ({} of them before), {positions} positions, {:.1} s\n",
        done + played,
        done,
        start.elapsed().as_secs_f64()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The options of `oust train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Self-play data files (`oust selfplay --out`)
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the weights
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Full-batch steps of the fit
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().steps)]
    pub steps: usize,
    /// The L2 penalty on each weight
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().l2)]
    pub l2: f64,
    /// Adam's step size
    #[arg(long, value_name = "X", default_value_t = TrainConfig::default().learning_rate)]
    pub learning_rate: f64,
    /// Seed of the starting weights and of the choice of held-out games
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().seed)]
    pub seed: u64,
}

fn fit_row(name: &str, train: &Fit, test: &Fit) -> String {
    format!(
        "{name:<9} {:>9.4} {:>9.4} {:>8.2}% {:>9.4} {:>9.4} {:>8.2}%\n",
        train.cross_entropy,
        train.log_likelihood,
        100.0 * train.accuracy,
        test.cross_entropy,
        test.log_likelihood,
        100.0 * test.accuracy
    )
}

/// `oust train`: reads the data, fits the model on nine games in ten and reports both priors on both parts.
pub fn train(args: &TrainArgs) -> Outcome {
    let start = Instant::now();
    let mut games: Vec<GameData> = Vec::new();
    for path in &args.data {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("oust train: {}: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        };
        match data::parse(&text) {
            Ok((g, complete)) => {
                if complete < text.len() {
                    log::warn!("{}: an unfinished last game is left out", path.display());
                }
                games.extend(g);
            }
            Err(e) => {
                eprintln!("oust train: {}: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        }
    }
    let cfg = TrainConfig {
        steps: args.steps,
        learning_rate: args.learning_rate,
        l2: args.l2,
        seed: args.seed,
    };
    let (test_games, train_games): (Vec<&GameData>, Vec<&GameData>) = games
        .iter()
        .partition(|g| train::held_out(g.number, cfg.seed));
    let train_set = Dataset::new(train_games.iter().copied());
    let test_set = Dataset::new(test_games.iter().copied());
    if train_set.positions() == 0 {
        eprintln!("oust train: the data has no position to train on");
        return Ok(ExitCode::from(2));
    }
    let mut boards: Vec<String> = games.iter().map(|g| g.board.name()).collect();
    boards.sort();
    boards.dedup();
    let model = train::train(&train_set, &cfg, |step, loss| {
        if step == 1 || step % 50 == 0 || step == cfg.steps {
            log::info!("step {step}: loss {loss:.5}");
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let comment = vec![
        format!(
            "fitted by oust train --steps {} --l2 {} --learning-rate {} --seed {}",
            cfg.steps, cfg.l2, cfg.learning_rate, cfg.seed
        ),
        format!(
            "on {} games ({}), {} positions, {} held out",
            games.len(),
            boards.join(", "),
            train_set.positions() + test_set.positions(),
            test_set.positions()
        ),
    ];
    if let Err(e) = fs::write(&args.out, model.to_text(&comment)) {
        eprintln!("oust train: {}: {e}", args.out.display());
        return Ok(ExitCode::from(2));
    }
    let mut text = format!(
        "data: {} games on {}, {} positions ({} moves) to train on, {} positions of {} games held out\n",
        games.len(),
        boards.join(", "),
        train_set.positions(),
        train_set.moves(),
        test_set.positions(),
        test_games.len()
    );
    text.push_str(&format!(
        "loss (cross-entropy plus L2) {:.4}, after {} steps in {seconds:.1} s\n",
        train::loss(&model, &train_set, cfg.l2),
        cfg.steps
    ));
    text.push_str("priors    train: CE       LL   accuracy  held out: CE   LL   accuracy\n");
    text.push_str(&fit_row(
        "handmade",
        &train::evaluate_handmade(&train_set),
        &train::evaluate_handmade(&test_set),
    ));
    text.push_str(&fit_row(
        "learned",
        &train::evaluate_model(&model, &train_set),
        &train::evaluate_model(&model, &test_set),
    ));
    text.push_str(&format!("weights written to {}\n", args.out.display()));
    print_out(&text);
    Ok(ExitCode::SUCCESS)
}

/// The options of `oust knowledge`.
#[derive(Args, Debug)]
pub struct KnowledgeArgs {
    /// The board to sample and solve positions on: at most 20 points (4x4, 4x5 and hex3 are the usual ones). With
    /// --data, only the data's positions on this board
    #[arg(long, value_name = "N|WxH|hexS", value_parser = parse_size)]
    pub size: Option<Shape>,
    /// Self-play data files (`oust selfplay --out`): measure on their held-out games instead of solved positions
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Positions to sample, one from each uniformly random game; with --data, at most this many a board, spread
    /// evenly over its held-out games
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub positions: u64,
    /// Random playouts a position for the playout estimate of its value
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub playouts: u64,
    /// With --data: playouts of the reference search (the engine's, with the learned priors, one thread) whose
    /// best move each policy's favourite is compared with; 0 for none
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub search_playouts: u64,
    /// Seed of the random games and the playouts; with --data, of the held-out games (as `oust train-net --seed`)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// With --data: measure on every game of the data, not on the one game in ten that a fit holds out: for a
    /// held-out set of its own, which no fit reads (docs/learning.md)
    #[arg(long, requires = "data")]
    pub all_games: bool,
    /// A network file instead of the built-in network of its family (repeatable, one a family)
    #[arg(long, value_name = "FILE")]
    pub net: Vec<PathBuf>,
    /// Weights file of the learned priors (the built-in ones by default)
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

/// `oust knowledge`: the policies and values measured on exactly solved positions, or on self-play data.
pub fn knowledge(args: &KnowledgeArgs) -> Outcome {
    let nets = nets_from(&args.net).map_err(UsageError)?;
    let Priors::Learned(model) =
        priors_from("learned", args.weights.as_deref()).map_err(UsageError)?
    else {
        unreachable!("learned priors asked for")
    };
    if !args.data.is_empty() {
        return knowledge_on_data(args, nets, model);
    }
    let Some(shape) = args.size else {
        return Err(UsageError(
            "give --size, a board to solve positions on, or --data, self-play data".into(),
        ));
    };
    let family = Family::of(shape);
    if !args.net.is_empty() && Arc::ptr_eq(&nets[family as usize], &net::built_in(family)) {
        return Err(UsageError(format!(
            "--net: not a network for {} boards, the family of {shape}",
            family.name(),
        )));
    }
    let options = knowledge::Options {
        shape,
        positions: args.positions as usize,
        seed: args.seed,
        net: nets[family as usize].clone(),
        model,
        playouts: args.playouts as usize,
    };
    let start = Instant::now();
    let report = knowledge::measure(&options).map_err(UsageError)?;
    let mut text = format!(
        "{} positions on {shape} ({} won and {} lost for the side to move; {} drawn left out), seed {}, {:.1} s\n",
        report.positions,
        report.won,
        report.positions - report.won,
        report.drawn,
        args.seed,
        start.elapsed().as_secs_f64()
    );
    text.push_str("policy               its favourite placement wins, of the won positions\n");
    for p in &report.policies {
        text.push_str(&format!(
            "{:<20} {:>6.1}%  ({:.1} of {})\n",
            p.name,
            100.0 * p.top_wins / report.won.max(1) as f64,
            p.top_wins,
            report.won
        ));
    }
    text.push_str(&value_lines(&report.values, report.positions));
    print_out(&text);
    Ok(ExitCode::SUCCESS)
}

/// The value block of a knowledge report.
fn value_lines(values: &[knowledge::ValueScore], positions: usize) -> String {
    let mut text =
        "value                log loss  Brier   right, of all the positions  time a position\n"
            .to_string();
    for v in values {
        text.push_str(&format!(
            "{:<20} {:>8.4}  {:.4}  {:>5.1}%                        {:>6.1} us\n",
            v.name,
            v.log_loss,
            v.brier,
            100.0 * v.accuracy,
            1e6 * v.seconds / positions.max(1) as f64
        ));
    }
    text
}

/// `oust knowledge --data`: the measures on self-play data's held-out games, board by board.
fn knowledge_on_data(args: &KnowledgeArgs, nets: [Arc<Net>; 2], model: Arc<Model>) -> Outcome {
    let games = match super::netfit::read_games(&args.data) {
        Ok(g) => g,
        Err(e) => {
            log::error!("{e}");
            return Ok(ExitCode::from(2));
        }
    };
    let games: Vec<_> = games
        .into_iter()
        .filter(|g| args.size.is_none_or(|s| g.board == s))
        .collect();
    let options = knowledge::DataOptions {
        nets,
        model,
        positions: args.positions as usize,
        search_playouts: args.search_playouts,
        playouts: args.playouts as usize,
        seed: args.seed,
        all_games: args.all_games,
    };
    let start = Instant::now();
    let reports = knowledge::measure_data(&games, &options);
    if reports.iter().all(|r| r.positions == 0) {
        let board = args.size.map_or(String::new(), |s| format!(" on {s}"));
        return Err(UsageError(format!(
            "the data has no {}position{board} of a game with a result to measure on",
            if args.all_games { "" } else { "held-out " }
        )));
    }
    let mut text = String::new();
    for r in &reports {
        text.push_str(&if args.all_games {
            format!(
                "{} positions of {} games on {} (all the data's games)\n",
                r.positions, r.games, r.board
            )
        } else {
            format!(
                "{} positions of {} held-out games on {} (seed {})\n",
                r.positions, r.games, r.board, args.seed
            )
        });
        let reference = if args.search_playouts > 0 {
            format!("  is the {}-playout search's best", args.search_playouts)
        } else {
            String::new()
        };
        text.push_str(&format!(
            "policy               its favourite is the most visited{reference}\n"
        ));
        for (name, visited, searched) in &r.policies {
            let searched = searched.map_or(String::new(), |x| format!("  {:>6.1}%", 100.0 * x));
            text.push_str(&format!("{name:<20} {:>6.1}%{searched}\n", 100.0 * visited));
        }
        text.push_str(&value_lines(&r.values, r.positions));
    }
    text.push_str(&format!("{:.1} s\n", start.elapsed().as_secs_f64()));
    print_out(&text);
    Ok(ExitCode::SUCCESS)
}
