//! `oust bench`: fixed, seeded workloads that measure speed: uniformly random playouts and perft (the rules core,
//! one thread), and MCTS search with one and with two threads.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::rng::Rng;
use crate::rules::{Game, Geometry, Position, Shape, perft};
use crate::search::{
    Config, Control, Limits, PlayerKind, Request, Searcher, Setup, nodes_for_megabytes,
    random_playout,
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

/// Results of the random-playout workload on one board size.
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
    /// Wall time spent.
    pub elapsed: Duration,
}

impl PlayoutStats {
    /// Playouts per second.
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }

    /// Placements per second.
    pub fn placements_per_s(&self) -> f64 {
        self.placements as f64 / self.elapsed.as_secs_f64()
    }

    /// Mean placements per playout.
    pub fn mean_length(&self) -> f64 {
        self.placements as f64 / self.playouts.max(1) as f64
    }
}

/// Move cap of a playout on a board of `points` points; far beyond any game seen.
pub fn playout_cap(points: usize) -> usize {
    points * 50
}

/// Runs uniformly random playouts from the empty `board` for about `budget`.
pub fn playout_workload(board: Shape, budget: Duration, seed: u64) -> PlayoutStats {
    let geo = Arc::new(Geometry::new(board).expect("bench boards are valid"));
    let start_pos = Position::new(geo.clone());
    let mut pos = start_pos.clone();
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(geo.len());
    let cap = playout_cap(geo.len());
    let (mut playouts, mut placements, mut capped) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    loop {
        // Check the clock every 64 playouts only.
        for _ in 0..64 {
            pos.copy_from(&start_pos);
            let r = random_playout(&mut pos, &mut rng, &mut buf, cap);
            playouts += 1;
            placements += r.placements as u64;
            capped += u64::from(r.capped);
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    PlayoutStats {
        board,
        playouts,
        placements,
        capped,
        elapsed: start.elapsed(),
    }
}

/// Perft 5x5 to depth 5, repeated for about `budget`; returns nodes per second and the node count of one run.
pub fn perft_workload(budget: Duration) -> (f64, u64) {
    let pos = Position::new(Arc::new(Geometry::square(5).expect("5x5 is valid")));
    let start = Instant::now();
    let mut total = 0u64;
    let mut one = 0;
    while total == 0 || start.elapsed() < budget {
        one = perft(&pos, 5, u64::MAX).expect("no limit");
        total += one;
    }
    (total as f64 / start.elapsed().as_secs_f64(), one)
}

/// Boards of the search workload.
pub const SEARCH_BOARDS: [Shape; 3] = [BOARDS[0], BOARDS[2], BOARDS[3]];

/// Search playouts per second of `player` from the empty `board` with `threads` threads, searching
/// for about `budget`, with a fresh tree in memory that a first search of the same length has already touched (as
/// in a game, where the tree's memory is reused from move to move).
pub fn search_workload(
    player: PlayerKind,
    board: Shape,
    threads: usize,
    budget: Duration,
    seed: u64,
) -> f64 {
    let game = Game::new(Arc::new(
        Geometry::new(board).expect("bench boards are valid"),
    ));
    let setup = Setup {
        player,
        config: Config::default(),
        threads,
        tree_nodes: nodes_for_megabytes(512),
    };
    let mut searcher = Searcher::default();
    let request = Request {
        limits: Limits {
            playouts: None,
            time: Some(budget),
        },
        seed,
        ..Request::default()
    };
    searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
    searcher.forget();
    let start = Instant::now();
    let result = searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
    result.playouts as f64 / start.elapsed().as_secs_f64()
}

/// Thread counts of the search workload.
pub const SEARCH_THREADS: [usize; 2] = [1, 2];

/// The number of workloads [`run`] runs.
pub const WORKLOADS: usize = BOARDS.len() + 1 + SEARCH_BOARDS.len() * SEARCH_THREADS.len();

/// Runs every workload with `seconds` each (the search workloads twice that: a first search warms the tree up)
/// and returns the JSON report. `progress` is told each workload as it starts, as `[i/n] what (seconds)`.
pub fn run(seconds: f64, progress: &mut dyn FnMut(&str)) -> String {
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
            playout_workload(b, budget, 1)
        })
        .collect();
    starting("perft 5x5 to depth 5".to_string(), 1.0);
    let (perft_rate, perft_nodes) = perft_workload(budget);
    let mut mcts = Vec::new();
    for board in SEARCH_BOARDS {
        let rates: Vec<String> = SEARCH_THREADS
            .iter()
            .map(|&t| {
                let threads = if t == 1 { "thread" } else { "threads" };
                starting(format!("MCTS on {board}, {t} {threads}"), 2.0);
                format!(
                    "\"{t}\": {:.0}",
                    search_workload(PlayerKind::Mcts, board, t, budget, 1)
                )
            })
            .collect();
        mcts.push(format!("\"{board}\": {{{}}}", rates.join(", ")));
    }
    let map = |f: &dyn Fn(&PlayoutStats) -> String| {
        let items: Vec<String> = stats
            .iter()
            .map(|s| format!("\"{}\": {}", s.board, f(s)))
            .collect();
        format!("{{{}}}", items.join(", "))
    };
    let mut out = String::from("{");
    let _ = write!(
        out,
        "\"random_playouts_per_s\": {}",
        map(&|s| format!("{:.0}", s.playouts_per_s()))
    );
    let _ = write!(
        out,
        ", \"random_placements_per_s\": {}",
        map(&|s| format!("{:.0}", s.placements_per_s()))
    );
    let _ = write!(
        out,
        ", \"mean_game_length\": {}",
        map(&|s| format!("{:.1}", s.mean_length()))
    );
    let _ = write!(
        out,
        ", \"capped_playouts\": {}",
        map(&|s| s.capped.to_string())
    );
    let _ = write!(
        out,
        ", \"perft_nodes_per_s\": {{\"5x5_depth5\": {perft_rate:.0}}}"
    );
    let _ = write!(out, ", \"perft_5x5_depth5_nodes\": {perft_nodes}");
    let _ = write!(out, ", \"mcts_playouts_per_s\": {{{}}}", mcts.join(", "));
    let _ = write!(out, ", \"seconds\": {:.2}}}", start.elapsed().as_secs_f64());
    out
}
