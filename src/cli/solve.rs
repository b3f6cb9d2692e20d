//! `oust solve`: the exact value of a position, by alpha-beta with a table or by proof-number search.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use oust::notation::{self, move_name};
use oust::rules::{Geometry, Position, Shape, Status};
use oust::{sgf, solve};

use super::{Outcome, UsageError, interrupt_flag, parse_seconds, parse_size, print_out};

/// The options of `oust solve` (negative numbers are values, refused for their range).
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct SolveArgs {
    /// The empty board to solve: N for N x N, WxH, or hexS
    #[arg(long, value_name = "N|WxH|hexS", default_value = "3", value_parser = parse_size, conflicts_with = "sgf")]
    pub size: Shape,
    /// Solve the position at the end of this SGF record instead (its main line)
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// With --sgf: the position before move N of the record instead of its end (counted from 1, as loadsgf's
    /// MOVE_NUMBER: 1 is the start position); a record with fewer moves is solved at its end
    #[arg(long = "move", value_name = "N", requires = "sgf", value_parser = clap::value_parser!(u64).range(1..))]
    pub move_number: Option<u64>,
    /// Memory for the solver's table (or the tree of --pns), in megabytes; at most the machine's memory
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub memory_mb: u64,
    /// Give up after this many seconds and answer unknown
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
    /// Give up after this many nodes and answer unknown
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The value of every first move too, one per class of moves equal under the board's symmetries
    #[arg(long)]
    pub moves: bool,
    /// Settle the value only, not the exact distance (the distance printed is then that of the line found)
    #[arg(long)]
    pub value_only: bool,
    /// Store positions as they are, not under their symmetric canonical form (a check of the symmetry code)
    #[arg(long)]
    pub no_symmetry: bool,
    /// No transposition table at all (a check; feasible on tiny boards only)
    #[arg(long)]
    pub no_table: bool,
    /// Prove or disprove only "the side to move wins" with proof-number search instead (a second algorithm: a
    /// plain tree, no table), within --nodes (default 20000000) nodes and --memory-mb (40 bytes a node)
    #[arg(long)]
    pub pns: bool,
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
pub fn run(args: &SolveArgs) -> Outcome {
    let position = match &args.sgf {
        None => match Geometry::new(args.size) {
            Ok(geo) => Position::new(Arc::new(geo)),
            Err(e) => return Err(UsageError(e.to_string())),
        },
        Some(file) => {
            match sgf::read_file(file)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|text| {
                    let record = sgf::parse(&text).map_err(|e| e.to_string())?;
                    let moves = record.moves.len();
                    let limit = args
                        .move_number
                        .map(|n| usize::try_from(n - 1).unwrap_or(usize::MAX));
                    if let (Some(n), Some(limit)) = (args.move_number, limit) {
                        if limit > moves {
                            eprintln!(
                                "oust solve: {}: move {n}: the record has {}, so its end is solved",
                                file.display(),
                                notation::count(moves, "move")
                            );
                        } else {
                            eprintln!(
                                "oust solve: {}: the position before move {n}, after {}",
                                file.display(),
                                notation::count(limit, "move")
                            );
                        }
                    }
                    sgf::replay(&record, limit).map_err(|e| e.to_string())
                }) {
                Ok(game) => game.position().clone(),
                Err(e) => {
                    eprintln!("oust solve: {}: {e}", file.display());
                    return Ok(ExitCode::from(2));
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
        return Err(UsageError(format!(
            "--memory-mb {} is more than this machine's memory ({} MB)",
            args.memory_mb,
            total >> 20
        )));
    }
    let options = solve::Options {
        memory_bytes,
        table: !args.no_table,
        symmetry: !args.no_symmetry,
        exact_distance: !args.value_only,
    };
    let mut solver = match solve::Solver::new(options) {
        Ok(s) => s,
        Err(e) => return Err(UsageError(e.to_string())),
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
        return Ok(ExitCode::from(2));
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
                return Ok(ExitCode::from(2));
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
        return Ok(if result.wins.is_some() {
            ExitCode::SUCCESS
        } else if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            ExitCode::from(130)
        } else {
            ExitCode::from(3)
        });
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
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            eprintln!("oust solve: {e}");
            return Ok(ExitCode::from(2));
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
    Ok(if solved {
        ExitCode::SUCCESS
    } else if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
        ExitCode::from(130)
    } else {
        ExitCode::from(3)
    })
}
