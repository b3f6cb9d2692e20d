//! `oust bench`: seeded workloads that measure speed: uniformly random playouts and perft (the rules core, one
//! thread), MCTS search with one and with two threads, the first moves of a game as `genmove` plays them at the
//! defaults with one and with two threads, and the network's evaluations (one thread: the shipped networks and two
//! other sizes).
//!
//! Every figure comes twice: per second of wall time, and per second of CPU time (the measuring thread's own for
//! the one-thread workloads, the whole process's for the searches). On a shared machine the CPU-time figure is the
//! honest one: load from other processes lowers wall-time rates but not CPU-time ones. The fixed-work mode
//! ([`fixed`]) does an exact amount of seeded work, so that instruction counts (`valgrind --tool=callgrind`) can
//! compare two builds exactly.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::gtp::{Engine, Options, Settings};
use crate::net::Precision;
use crate::rng::Rng;
use crate::rules::{Game, Geometry, Position, Shape, perft};
use crate::search::{
    CacheStats, Control, Limits, NetEval, PlayerKind, Request, Searcher, Setup,
    nodes_for_megabytes, random_playout,
};

/// Boards of the playout workloads: three squares and the hexhex board of side 7, the one Oust players use most.
pub const BOARDS: [Shape; 4] = [
    Shape::Rect {
        width: 9,
        height: 9,
    },
    Shape::Rect {
        width: 13,
        height: 13,
    },
    Shape::Rect {
        width: 19,
        height: 19,
    },
    Shape::Hex { side: 7 },
];

/// Which CPU clock a [`Meter`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuClock {
    /// The calling thread's CPU time.
    Thread,
    /// The whole process's CPU time, every thread's.
    Process,
}

/// Seconds of CPU time of `clock` so far.
fn cpu_seconds(clock: CpuClock) -> f64 {
    let id = match clock {
        CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
        CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) writes one timespec through the pointer, which points to a live, properly aligned
    // local; the clock ids are constants every Linux kernel supports. On failure it returns -1 and we report 0.
    let ok = unsafe { libc::clock_gettime(id, &mut ts) } == 0;
    if ok {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// Wall time and CPU time of a piece of work.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    /// Wall-clock seconds.
    pub wall: f64,
    /// CPU seconds.
    pub cpu: f64,
}

impl Times {
    /// `count` per second of wall time and per second of CPU time.
    pub fn rates(&self, count: f64) -> (f64, f64) {
        (count / self.wall.max(1e-9), count / self.cpu.max(1e-9))
    }
}

/// Measures wall time and CPU time from its creation.
pub struct Meter {
    clock: CpuClock,
    wall: Instant,
    cpu: f64,
}

impl Meter {
    /// Starts measuring.
    pub fn start(clock: CpuClock) -> Meter {
        Meter {
            clock,
            wall: Instant::now(),
            cpu: cpu_seconds(clock),
        }
    }

    /// The times so far.
    pub fn read(&self) -> Times {
        Times {
            wall: self.wall.elapsed().as_secs_f64(),
            cpu: cpu_seconds(self.clock) - self.cpu,
        }
    }
}

/// Results of the random-playout workload on one board.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutStats {
    /// The board.
    pub board: Shape,
    /// Completed playouts.
    pub playouts: u64,
    /// Placements over all playouts.
    pub placements: u64,
    /// Playouts stopped by the move cap (should be 0).
    pub capped: u64,
    /// Games Black won (a check that two builds played the same games).
    pub black_wins: u64,
    /// Time spent.
    pub times: Times,
}

impl PlayoutStats {
    /// Mean placements per playout.
    pub fn mean_length(&self) -> f64 {
        self.placements as f64 / self.playouts.max(1) as f64
    }
}

/// Move cap of a playout on a board of `points` points; far beyond any game seen.
pub fn playout_cap(points: usize) -> usize {
    points * 50
}

/// Runs uniformly random playouts from the empty `board` until `stop` says so, asked every 64 playouts with the
/// number done (or, with an exact count, until it is reached).
fn playouts(board: Shape, seed: u64, mut stop: impl FnMut(u64) -> bool) -> PlayoutStats {
    let geo = Arc::new(Geometry::new(board).expect("bench boards are valid"));
    let start_pos = Position::new(geo.clone());
    let mut pos = start_pos.clone();
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(geo.len());
    let cap = playout_cap(geo.len());
    let mut stats = PlayoutStats {
        board,
        playouts: 0,
        placements: 0,
        capped: 0,
        black_wins: 0,
        times: Times::default(),
    };
    let meter = Meter::start(CpuClock::Thread);
    while !stop(stats.playouts) {
        pos.copy_from(&start_pos);
        let r = random_playout(&mut pos, &mut rng, &mut buf, cap);
        stats.playouts += 1;
        stats.placements += r.placements as u64;
        stats.capped += u64::from(r.capped);
        stats.black_wins += u64::from(r.outcome.winner() == Some(crate::rules::Color::Black));
    }
    stats.times = meter.read();
    stats
}

/// Runs uniformly random playouts from the empty `board` for about `budget` of wall time.
pub fn playout_workload(board: Shape, budget: Duration, seed: u64) -> PlayoutStats {
    let start = Instant::now();
    playouts(board, seed, |n| {
        n % 64 == 0 && n > 0 && start.elapsed() >= budget
    })
}

/// Perft 5x5 to depth 5, repeated for about `budget`; returns the node count of one run and the times of all.
pub fn perft_workload(budget: Duration) -> (u64, u64, Times) {
    let pos = Position::new(Arc::new(Geometry::square(5).expect("5x5 is valid")));
    let meter = Meter::start(CpuClock::Thread);
    let mut total = 0u64;
    let mut one = 0;
    while total == 0 || meter.read().wall < budget.as_secs_f64() {
        one = perft(&pos, 5, u64::MAX).expect("no limit");
        total += one;
    }
    (one, total, meter.read())
}

/// Boards of the search workload.
pub const SEARCH_BOARDS: [Shape; 3] = [BOARDS[0], BOARDS[2], BOARDS[3]];

/// One search of `player` from the empty `board` with `threads` threads, within `limits`, in a fresh tree whose
/// memory a first search of the same limits has already touched (as in a game, where the tree's memory is reused
/// from move to move). Returns the playouts of the measured search and its times (the process's CPU time).
pub fn search_workload(
    player: PlayerKind,
    board: Shape,
    threads: usize,
    limits: Limits,
    seed: u64,
) -> (u64, Times) {
    let game = Game::new(Arc::new(
        Geometry::new(board).expect("bench boards are valid"),
    ));
    // The bench measures the tree search alone (the default setup has no solver).
    let setup = Setup {
        player,
        threads,
        tree_nodes: nodes_for_megabytes(512),
        ..Setup::default()
    };
    let mut searcher = Searcher::default();
    let request = Request {
        limits,
        seed,
        ..Request::default()
    };
    searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
    searcher.forget();
    let meter = Meter::start(CpuClock::Process);
    let result = searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
    (result.playouts, meter.read())
}

/// Thread counts of the search workload.
pub const SEARCH_THREADS: [usize; 2] = [1, 2];

/// Boards of the game workload: hex-7 (where the default evaluator is the network) and hex-5 (the playouts).
pub const GAME_BOARDS: [Shape; 2] = [BOARDS[3], Shape::Hex { side: 5 }];

/// Moves of the game workload.
pub const GAME_MOVES: usize = 4;

/// The first [`GAME_MOVES`] moves of a game from the empty `board` as `genmove` plays them at the engine's
/// defaults (the board's evaluator, the solver's share first, the default tree, the subtree of the moves played
/// kept from move to move), with `threads` threads and `budget` a move, seeded with `seed`. Returns the tree
/// search's visits (playouts, or the network's evaluations) over all moves, their times (the process's CPU), and
/// the evaluation cache's lookups and hits.
pub fn game_workload(
    board: Shape,
    threads: usize,
    budget: Duration,
    seed: u64,
) -> (u64, Times, CacheStats) {
    let settings = Settings {
        threads,
        time_per_move: budget.as_secs_f64(),
        ..Settings::default()
    };
    let mut engine = Engine::new(Options {
        seed,
        board,
        settings,
        ..Options::default()
    })
    .expect("bench boards are valid");
    let meter = Meter::start(CpuClock::Process);
    let mut visits = 0;
    for _ in 0..GAME_MOVES {
        let result = engine.think();
        visits += result.playouts;
        let color = engine.game.position().to_move();
        match result.best {
            Some(mv) if engine.game.play(color, mv).is_ok() => {}
            _ => break,
        }
    }
    let times = meter.read();
    (visits, times, engine.settings.eval_cache.stats())
}

/// The number of workloads [`run`] runs.
pub const WORKLOADS: usize = BOARDS.len()
    + 1
    + (SEARCH_BOARDS.len() + GAME_BOARDS.len()) * SEARCH_THREADS.len()
    + 2 * (NET_SIZES.len() + 2);

/// A JSON object of `key: value` pairs.
fn object(items: impl IntoIterator<Item = (String, String)>) -> String {
    let items: Vec<String> = items
        .into_iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// Runs every workload with `seconds` each (the search workloads twice that: a first search warms the tree up),
/// seeded with `seed`, and returns the JSON report. `progress` is told each workload as it starts, as `[i/n] what (seconds)`.
pub fn run(seconds: f64, seed: u64, progress: &mut dyn FnMut(&str)) -> String {
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let start = Instant::now();
    let mut step = 0;
    let mut starting = |what: String, factor: f64| {
        step += 1;
        let secs = format!("{:.2}", budget.as_secs_f64() * factor);
        let secs = secs.trim_end_matches('0').trim_end_matches('.');
        progress(&format!("[{step}/{WORKLOADS}] {what} ({secs} s)"));
    };
    let stats: Vec<PlayoutStats> = BOARDS
        .iter()
        .map(|&b| {
            starting(format!("random playouts on {b}"), 1.0);
            playout_workload(b, budget, seed)
        })
        .collect();
    starting("perft 5x5 to depth 5".to_string(), 1.0);
    let (perft_nodes, perft_total, perft_times) = perft_workload(budget);
    let mut mcts_wall = Vec::new();
    let mut mcts_cpu = Vec::new();
    for board in SEARCH_BOARDS {
        let mut wall = Vec::new();
        let mut cpu = Vec::new();
        for t in SEARCH_THREADS {
            let threads = if t == 1 { "thread" } else { "threads" };
            starting(format!("MCTS on {board}, {t} {threads}"), 2.0);
            let limits = Limits {
                playouts: None,
                time: Some(budget),
            };
            let (n, times) = search_workload(PlayerKind::Mcts, board, t, limits, seed);
            let (per_s, per_cpu_s) = times.rates(n as f64);
            wall.push((t.to_string(), format!("{per_s:.0}")));
            cpu.push((t.to_string(), format!("{per_cpu_s:.0}")));
        }
        mcts_wall.push((board.to_string(), object(wall)));
        mcts_cpu.push((board.to_string(), object(cpu)));
    }
    let (mut game_wall, mut game_thread, mut game_cpu) = (Vec::new(), Vec::new(), Vec::new());
    let mut game_hits = Vec::new();
    for board in GAME_BOARDS {
        let (mut wall, mut per_thread, mut cpu) = (Vec::new(), Vec::new(), Vec::new());
        let mut hits = Vec::new();
        for t in SEARCH_THREADS {
            let threads = if t == 1 { "thread" } else { "threads" };
            starting(
                format!("{GAME_MOVES} moves of a game at the defaults on {board}, {t} {threads}"),
                GAME_MOVES as f64,
            );
            let (n, times, cache) = game_workload(board, t, budget, seed);
            let (per_s, per_cpu_s) = times.rates(n as f64);
            wall.push((t.to_string(), format!("{per_s:.0}")));
            per_thread.push((t.to_string(), format!("{:.0}", per_s / t as f64)));
            cpu.push((t.to_string(), format!("{per_cpu_s:.0}")));
            hits.push((t.to_string(), format!("{:.3}", cache.rate())));
        }
        game_hits.push((board.to_string(), object(hits)));
        game_wall.push((board.to_string(), object(wall)));
        game_thread.push((board.to_string(), object(per_thread)));
        game_cpu.push((board.to_string(), object(cpu)));
    }
    let mut net_cpu = Vec::new();
    for board in [Shape::Hex { side: 7 }, Shape::square(9)] {
        let family = crate::net::Family::of(board);
        let mut per = Vec::new();
        let shipped = crate::net::built_in(family);
        let nets =
            std::iter::once((shipped.size(), Some(shipped))).chain(NET_SIZES.map(|s| (s, None)));
        for (size, net) in nets {
            let shipped = net.is_some();
            let net = net.unwrap_or_else(|| {
                Arc::new(
                    crate::net::Net::random(family, size, seed).expect("bench sizes are valid"),
                )
            });
            // The engine's precision for every size, and the float reference for the shipped one.
            let precisions: &[Precision] = if shipped {
                &[Precision::Int8, Precision::Float]
            } else {
                &[Precision::Int8]
            };
            for &precision in precisions {
                let what = if shipped {
                    "shipped network"
                } else {
                    "network"
                };
                let p = precision.name();
                starting(format!("{what} {size} in {p} on {board}"), 1.0);
                let (n, times) = net_workload(&net, precision, board, budget, seed);
                let label = if shipped { "shipped " } else { "" };
                let suffix = if precision == Precision::Float {
                    " float"
                } else {
                    ""
                };
                per.push((
                    format!("{label}{}x{}{suffix}", size.blocks, size.channels),
                    format!("{:.0}", times.rates(n as f64).1),
                ));
            }
        }
        net_cpu.push((board.to_string(), object(per)));
    }
    let map = |f: &dyn Fn(&PlayoutStats) -> String| {
        object(stats.iter().map(|s| (s.board.to_string(), f(s))))
    };
    let rate = |count: fn(&PlayoutStats) -> u64, cpu: bool| {
        move |s: &PlayoutStats| {
            let (wall_rate, cpu_rate) = s.times.rates(count(s) as f64);
            format!("{:.0}", if cpu { cpu_rate } else { wall_rate })
        }
    };
    let (perft_per_s, perft_per_cpu_s) = perft_times.rates(perft_total as f64);
    let fields = [
        ("random_playouts_per_s", map(&rate(|s| s.playouts, false))),
        (
            "random_playouts_per_cpu_s",
            map(&rate(|s| s.playouts, true)),
        ),
        (
            "random_placements_per_s",
            map(&rate(|s| s.placements, false)),
        ),
        (
            "random_placements_per_cpu_s",
            map(&rate(|s| s.placements, true)),
        ),
        (
            "mean_game_length",
            map(&|s| format!("{:.1}", s.mean_length())),
        ),
        ("capped_playouts", map(&|s| s.capped.to_string())),
        (
            "perft_nodes_per_s",
            object([("5x5_depth5".to_string(), format!("{perft_per_s:.0}"))]),
        ),
        (
            "perft_nodes_per_cpu_s",
            object([("5x5_depth5".to_string(), format!("{perft_per_cpu_s:.0}"))]),
        ),
        ("perft_5x5_depth5_nodes", perft_nodes.to_string()),
        ("mcts_playouts_per_s", object(mcts_wall)),
        ("mcts_playouts_per_cpu_s", object(mcts_cpu)),
        ("game_visits_per_s", object(game_wall)),
        ("game_visits_per_s_per_thread", object(game_thread)),
        ("game_visits_per_cpu_s", object(game_cpu)),
        ("game_eval_cache_hit_rate", object(game_hits)),
        ("net_evals_per_cpu_s", object(net_cpu)),
        ("seconds", format!("{:.2}", start.elapsed().as_secs_f64())),
    ];
    object(fields.into_iter().map(|(k, v)| (k.to_string(), v)))
}

/// An exact amount of work for [`fixed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// This many uniformly random playouts from the empty board.
    Playouts(u64),
    /// Perft from the empty board to this depth.
    Perft(usize),
    /// One MCTS search of exactly this many playouts (reproducible with one thread).
    Mcts(u64),
}

/// Does exactly `work` on `board` with `seed` (and `threads` for a search) and returns a one-line JSON report: the
/// work done, its result counts (the same in every build that plays the same games) and its times.
pub fn fixed(work: Work, board: Shape, threads: usize, seed: u64) -> Result<String, String> {
    Geometry::new(board).map_err(|e| e.to_string())?;
    let mut out = String::from("{");
    let _ = write!(out, "\"board\": \"{board}\"");
    let (count, times) = match work {
        Work::Playouts(n) => {
            let s = playouts(board, seed, |done| done >= n);
            let _ = write!(
                out,
                ", \"workload\": \"random playouts\", \"seed\": {seed}, \"playouts\": {}, \"placements\": {}, \
                 \"black_wins\": {}, \"capped\": {}",
                s.playouts, s.placements, s.black_wins, s.capped
            );
            (s.playouts, s.times)
        }
        Work::Perft(depth) => {
            let geo = Arc::new(Geometry::new(board).map_err(|e| e.to_string())?);
            let pos = Position::new(geo);
            let meter = Meter::start(CpuClock::Thread);
            let nodes = perft(&pos, depth, u64::MAX).map_err(|e| e.to_string())?;
            let _ = write!(
                out,
                ", \"workload\": \"perft\", \"depth\": {depth}, \"nodes\": {nodes}"
            );
            (nodes, meter.read())
        }
        Work::Mcts(n) => {
            let limits = Limits {
                playouts: Some(n),
                time: None,
            };
            let (done, times) = search_workload(PlayerKind::Mcts, board, threads, limits, seed);
            let _ = write!(
                out,
                ", \"workload\": \"mcts\", \"seed\": {seed}, \"threads\": {threads}, \"playouts\": {done}"
            );
            (done, times)
        }
    };
    let (per_s, per_cpu_s) = times.rates(count as f64);
    let _ = write!(
        out,
        ", \"wall_s\": {:.3}, \"cpu_s\": {:.3}, \"per_s\": {per_s:.0}, \"per_cpu_s\": {per_cpu_s:.0}}}",
        times.wall, times.cpu
    );
    Ok(out)
}

/// Network sizes that [`run`] measures beside the shipped networks: a smaller and a larger one.
pub const NET_SIZES: [crate::net::Size; 2] = [
    crate::net::Size {
        channels: 16,
        blocks: 2,
        value_hidden: 32,
    },
    crate::net::Size {
        channels: 48,
        blocks: 6,
        value_hidden: 32,
    },
];

/// Evaluations of `net` at `precision` (no cache) on positions of random games on `board` (seeded with `seed`) for
/// `budget`, one thread: the evaluations done and their times (the thread's CPU time).
pub fn net_workload(
    net: &Arc<crate::net::Net>,
    precision: Precision,
    board: Shape,
    budget: Duration,
    seed: u64,
) -> (u64, Times) {
    let geo = Arc::new(Geometry::new(board).expect("bench boards are valid"));
    let mut rng = Rng::new(seed);
    // Positions along random games, several moves apart.
    let mut positions = Vec::new();
    let mut buf = Vec::new();
    while positions.len() < 64 {
        let mut pos = Position::new(geo.clone());
        let mut last = None;
        for _ in 0..rng.below(geo.len()) {
            buf.clear();
            pos.legal_placements(&mut buf);
            if buf.is_empty() || pos.winner().is_some() {
                break;
            }
            let p = buf[rng.below(buf.len())];
            pos.place_unchecked(p);
            last = Some(p);
        }
        if pos.winner().is_none() && !pos.legal_moves().is_empty() {
            positions.push((pos, last));
        }
    }
    let mut scratch = crate::net::Scratch::default();
    let eval = NetEval::new(net.clone(), 0.0, precision);
    let meter = Meter::start(CpuClock::Thread);
    let mut n = 0u64;
    while n < 8 || meter.read().wall < budget.as_secs_f64() {
        let (pos, _) = &positions[n as usize % positions.len()];
        let e = eval.evaluate(pos, &mut scratch);
        std::hint::black_box(e);
        n += 1;
    }
    (n, meter.read())
}
