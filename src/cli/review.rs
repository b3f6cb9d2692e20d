//! `oust review`: many records reviewed at once, every position of every record in one queue searched on all
//! cores ([`oust::analysis::pool`]), each judged as `oust gui`'s review judges it ([`oust::review`]), each record
//! written as an SGF with the review in its nodes, as `oust gui` saves it, and a summary table on stdout.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Instant;

use clap::Args;
use oust::analysis::pool::Pool;
use oust::gtp::{self, Engine, Options, Reports};
use oust::gui::session::{NewGame, Session};
use oust::review::{self, Review, Step};
use oust::rules::{Color, Game, Move, Shape, Status};

use super::{Outcome, UsageError, parse_size, print_out};

/// The options of `oust review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// SGF records, or Abstract Play records (JSON or a turn list); each record's main line is reviewed
    #[arg(value_name = "RECORD", required = true)]
    pub records: Vec<PathBuf>,
    /// Where the reviewed records go, each as NAME-review.sgf [default: beside each record]
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Visits (or playouts) a position [default: as oust gui's review: 2000 where the network evaluates, 20000
    /// where playouts do]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub visits: Option<u64>,
    /// Positions searched at once, each on a tree of its own [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub positions: Option<u64>,
    /// Search threads of each position
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// The seed of the searches: position k of a record is judged at a seed made from it and k, as oust gui
    /// judges it with an engine started with this seed
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Review only shard K of N of the records: every N-th record from the K-th, in the order given, so that N
    /// machines (GNU parallel, Slurm) review a set of records between them, each record as one machine would
    #[arg(long, value_name = "K/N", value_parser = super::matches::parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// The board of Abstract Play records, which do not say theirs (an SGF record names its own)
    #[arg(long, value_name = "N|WxH|hexS", default_value = "hex7", value_parser = parse_size)]
    pub size: Shape,
}

/// A record read and ready to review.
struct Record {
    path: PathBuf,
    session: Session,
    game: Arc<Game>,
    line: Vec<(Color, Move)>,
    visits: u64,
    steps: Vec<Option<Step>>,
    left: usize,
}

/// Reviews every record; exits with 1 when a record could not be read or written.
pub fn run(args: &ReviewArgs) -> Outcome {
    let started = Instant::now();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| {
            UsageError(format!(
                "--out {}: cannot make the directory: {e}",
                dir.display()
            ))
        })?;
    }
    let mut failed = false;
    let mut records = Vec::new();
    let (k, n) = args.shard.unwrap_or((1, 1));
    let mine = args
        .records
        .iter()
        .enumerate()
        .filter(|(i, _)| *i as u64 % n == k - 1);
    for (_, path) in mine {
        match read(path, args) {
            Ok(r) => records.push(r),
            Err(e) => {
                log::error!("{}: {e}; not reviewed", path.display());
                failed = true;
            }
        }
    }
    let positions = args.positions.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let total: usize = records.iter().map(|r| r.left).sum();
    let positions = positions.min(total.max(1));
    // One set of options for every engine: they share the network's evaluation cache, so that a position's
    // search finds what the searches of the positions before and after it evaluated.
    let options = Options {
        seed: args.seed,
        reports: Reports::Off,
        ..Options::default()
    };
    let mut engines = Vec::with_capacity(positions);
    for _ in 0..positions {
        let mut engine = Engine::new(options.clone()).map_err(UsageError)?;
        gtp::set_param(&mut engine, "threads", &args.threads.to_string()).map_err(UsageError)?;
        engines.push(engine);
    }
    let pool =
        Pool::new(engines).map_err(|e| UsageError(format!("cannot start the searches: {e}")))?;
    let (done, results) = mpsc::channel();
    // Each record's positions in as many runs as there are positions at once, taken in turn (0, n/2, 1, n/2+1, ...
    // for two): each thread then mostly follows one run, a position after the one before it, whose searches
    // evaluated much of what it meets (the evaluation cache holds them).
    for (r, record) in records.iter().enumerate() {
        let n = record.steps.len();
        let runs = positions.min(n);
        let run_len = n.div_ceil(runs);
        let order = (0..run_len)
            .flat_map(|i| (0..runs).map(move |j| j * run_len + i))
            .filter(|&k| k < n);
        for k in order {
            let (game, visits, seed, done) =
                (record.game.clone(), record.visits, args.seed, done.clone());
            pool.submit(
                0,
                None,
                Box::new(move |engine| {
                    let step = gtp::set_param(engine, "playouts", &visits.to_string())
                        .map(|()| {
                            review::review_position(
                                engine,
                                &game,
                                k,
                                review::position_seed(seed, k),
                            )
                        })
                        .unwrap_or_default();
                    let _ = done.send((r, k, step));
                }),
            );
        }
    }
    drop(done);
    let mut finished = 0;
    for (r, k, step) in results {
        let record = &mut records[r];
        record.steps[k] = Some(step);
        record.left -= 1;
        finished += 1;
        if finished % 10 == 0 || finished == total {
            log::info!(
                "{finished} of {total} positions reviewed, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        if record.left == 0 && !write(record, args) {
            failed = true;
        }
    }
    pool.finish();
    print_out(&format!("{}\n", table(&records)));
    log::info!(
        "{} records, {total} positions in {:.1} s",
        records.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Reads a record as `oust gui` loads it.
fn read(path: &Path, args: &ReviewArgs) -> Result<Record, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut session = Session::new(&NewGame {
        board: args.size,
        ..NewGame::default()
    })?;
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    session.load(&text, &name)?;
    let line = session.line_moves();
    let mut game = session.game.clone();
    while game.undo().is_some() {}
    for &(c, mv) in &line {
        game.play(c, mv)
            .map_err(|e| format!("its line cannot be replayed: {e}"))?;
    }
    let shape = game.position().geometry().shape();
    let visits = args
        .visits
        .unwrap_or_else(|| review::default_playouts(shape));
    let positions = line.len() + 1;
    Ok(Record {
        path: path.to_path_buf(),
        session,
        game: Arc::new(game),
        line,
        visits,
        steps: vec![None; positions],
        left: positions,
    })
}

/// The review of a record, whole.
fn assembled(record: &Record) -> Review {
    let steps: Vec<Step> = record
        .steps
        .iter()
        .map(|s| s.clone().unwrap_or_default())
        .collect();
    let result = match record.game.position().status() {
        // As oust gui: a game from an empty board (a set-up position's result says nothing of its play).
        Status::Over(o)
            if record.game.start().stone_count(Color::Black)
                + record.game.start().stone_count(Color::White)
                == 0 =>
        {
            Some(o)
        }
        _ => None,
    };
    Review::assemble(record.visits, &record.line, steps, result, None)
}

/// Where a record's review goes.
fn out_path(record: &Record, args: &ReviewArgs) -> PathBuf {
    let stem = record
        .path
        .file_stem()
        .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
    let dir = args.out.clone().unwrap_or_else(|| {
        record
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    });
    dir.join(format!("{stem}-review.sgf"))
}

/// Writes a record with its review; false when it cannot be written.
fn write(record: &Record, args: &ReviewArgs) -> bool {
    let review = assembled(record);
    let text = record.session.sgf(
        &format!("oust {}", env!("CARGO_PKG_VERSION")),
        Some(&review),
    );
    let path = out_path(record, args);
    match std::fs::write(&path, text) {
        Ok(()) => {
            log::info!(
                "{}: reviewed into {}",
                record.path.display(),
                path.display()
            );
            true
        }
        Err(e) => {
            log::error!(
                "{}: cannot write {}: {e}",
                record.path.display(),
                path.display()
            );
            false
        }
    }
}

/// The summary: per record and side, the placements judged, each class's count and the average loss.
fn table(records: &[Record]) -> String {
    let mut rows = vec![[
        "record".to_string(),
        "side".into(),
        "placements".into(),
        "inaccuracies".into(),
        "mistakes".into(),
        "blunders".into(),
        "average loss".into(),
    ]];
    for record in records {
        let summary = assembled(record).judgement().summary;
        for (side, s) in ["Black", "White"].into_iter().zip(summary) {
            rows.push([
                record.path.display().to_string(),
                side.to_string(),
                s.judged.to_string(),
                s.inaccuracies.to_string(),
                s.mistakes.to_string(),
                s.blunders.to_string(),
                format!("{:.1}", s.average_loss()),
            ]);
        }
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(c, cell)| {
                    if c < 2 {
                        format!("{cell:<w$}", w = widths[c])
                    } else {
                        format!("{cell:>w$}", w = widths[c])
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
