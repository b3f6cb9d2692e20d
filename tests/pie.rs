//! The pie rule (RULES.md rule 9): the rules core's swap, its refusals, undo, hashing and perft; the solver and the
//! tree search weighing the swap against every placement (swapping a won opening, keeping a lost one).

use std::sync::Arc;

use oust::rules::{
    Color, Game, Geometry, IllegalMove, Move, PieStage, Position, Shape, Status, SwapRefusal, perft,
};
use oust::search::{Control, Request, Searcher, Setup, nodes_for_megabytes};
use oust::solve::{self, Solver, Value, Verdict};

fn geo(shape: &str) -> Arc<Geometry> {
    Arc::new(Geometry::new(Shape::parse(shape).unwrap()).unwrap())
}

fn pie_game(shape: &str) -> Game {
    let mut game = Game::new(geo(shape));
    game.set_pie(true).unwrap();
    game
}

fn at(game: &Game, name: &str) -> Move {
    Move::Place(game.position().geometry().parse_vertex(name).unwrap())
}

fn refusal(err: IllegalMove) -> SwapRefusal {
    match err {
        IllegalMove::SwapNotAllowed { why } => why,
        other => panic!("not a swap refusal: {other}"),
    }
}

#[test]
fn the_swap_is_white_s_answer_to_black_s_first_placement_only() {
    for shape in ["5", "hex3"] {
        let mut off = Game::new(geo(shape));
        // C3 is the centre of 5x5 and a cell of hex3 in GTP names.
        let c = at(&off, "C3");
        let mut game = pie_game(shape);
        assert_eq!(
            refusal(game.play(Color::White, Move::Swap).unwrap_err()),
            SwapRefusal::NoStone
        );
        assert_eq!(
            refusal(game.play(Color::Black, Move::Swap).unwrap_err()),
            SwapRefusal::Black
        );
        assert_eq!(game.position().pie_stage(), PieStage::Ahead);
        game.play(Color::Black, c).unwrap();
        off.play(Color::Black, c).unwrap();
        assert_eq!(
            refusal(off.play(Color::White, Move::Swap).unwrap_err()),
            SwapRefusal::PieOff
        );
        assert!(!off.position().legal_moves().contains(&Move::Swap));
        let before = game.position().clone();
        assert_eq!(before.pie_stage(), PieStage::Available);
        assert_eq!(before.legal_moves().last(), Some(&Move::Swap));
        assert_eq!(
            before.legal_moves().len(),
            off.position().legal_moves().len() + 1
        );
        // The right to swap is part of the position: same stones, different positions and hashes.
        assert_ne!(before.hash(), off.position().hash());
        assert_ne!(&before, off.position());
        assert_eq!(
            refusal(game.play(Color::Black, Move::Swap).unwrap_err()),
            SwapRefusal::Black
        );
        let report = game.play(Color::White, Move::Swap).unwrap();
        assert!(report.swapped && !report.extra_turn && report.captured == 0);
        let after = game.position();
        assert_eq!(after.to_move(), Color::White);
        assert_eq!(after.stone_count(Color::Black), 1);
        assert_eq!(after.stone_count(Color::White), 0);
        assert_eq!(after.status(), Status::Ongoing);
        assert_eq!(after.pie_stage(), PieStage::None);
        assert!(!after.legal_moves().contains(&Move::Swap));
        // After the swap, the position is White to move with the right used up: as without the pie rule.
        assert_eq!(after, off.position());
        assert_eq!(after.hash(), off.position().hash());
        after.check_invariants().unwrap();
        assert_eq!(
            refusal(game.play(Color::White, Move::Swap).unwrap_err()),
            SwapRefusal::Used
        );
        // Black's turn is White's again after the swap.
        assert!(matches!(
            game.play(Color::Black, at(&game, "A1")).unwrap_err(),
            IllegalMove::NotYourTurn { .. }
        ));
        assert!(
            game.set_pie(false).is_err(),
            "a game with a swap keeps the rule"
        );
        // Undo takes the swap back, and the swap is available again.
        assert_eq!(game.undo().unwrap().mv, Move::Swap);
        assert_eq!(game.position(), &before);
        assert_eq!(game.position().hash(), before.hash());
        // After White's first placement the moment has passed.
        game.play(Color::White, at(&game, "A1")).unwrap();
        assert_eq!(
            refusal(game.play(Color::White, Move::Swap).unwrap_err()),
            SwapRefusal::TooLate
        );
        assert!(game.set_pie(false).is_ok());
    }
}

#[test]
fn a_set_up_position_never_allows_the_swap() {
    let g = geo("4");
    let mut stones = vec![None; g.len()];
    stones[5] = Some(Color::Black);
    let mut pos = Position::setup(g, &stones, Color::White, false);
    pos.set_pie(true);
    assert_eq!(pos.pie_stage(), PieStage::None);
    assert_eq!(
        refusal(pos.play_as(Color::White, Move::Swap).unwrap_err()),
        SwapRefusal::TooLate
    );
}

/// Leaves of the game tree by the plain API: legal_moves and play.
fn naive_perft(pos: &Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play(mv).unwrap();
            naive_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_counts_the_swap_as_a_move() {
    for shape in ["3", "4x3", "hex2", "hex3"] {
        let game = pie_game(shape);
        let pos = game.position();
        let n = pos.geometry().len() as u64;
        assert_eq!(perft(pos, 2, u64::MAX).unwrap(), n * n, "{shape}");
        for depth in 1..=4 {
            assert_eq!(
                perft(pos, depth, u64::MAX).unwrap(),
                naive_perft(pos, depth),
                "{shape} depth {depth}"
            );
        }
        let plain = Game::new(geo(shape));
        assert_eq!(
            perft(plain.position(), 2, u64::MAX).unwrap(),
            n * (n - 1),
            "{shape}"
        );
    }
}

/// The value for the side to move and the solver's best move.
fn solved(pos: &Position) -> (Value, Move) {
    let mut solver = Solver::new(solve::Options::default()).unwrap();
    match solver
        .solve(pos, &solve::Limits::default(), &mut |_| {})
        .unwrap()
        .verdict
    {
        Verdict::Solved(s) => (s.value, s.best),
        Verdict::Unknown(why) => panic!("unsolved: {why}"),
    }
}

#[test]
fn the_solver_swaps_exactly_the_won_openings() {
    // 3x4: Black's only winning first moves are B2 and B3 (docs/results.md, solved boards).
    for (opening, black_wins) in [("B2", true), ("B3", true), ("A1", false), ("B1", false)] {
        let mut game = pie_game("3x4");
        game.play(Color::Black, at(&game, opening)).unwrap();
        let (value, best) = solved(game.position());
        assert_eq!(best == Move::Swap, black_wins, "{opening}: {best:?}");
        assert_eq!(
            value,
            Value::Win,
            "{opening}: the second player wins either way"
        );
    }
    // So with the pie rule, the first player of 3x4 loses: every opening is swapped or lost.
    let (value, _) = solved(pie_game("3x4").position());
    assert_eq!(value, Value::Loss);
}

fn tree_search(game: &Game, playouts: u64, seed: u64) -> Move {
    genmove(game, playouts, seed, 16, 0.0)
}

/// The move of one single-threaded search of `playouts` playouts, with a tree of `tree_mb` MB and the given
/// solver share.
fn genmove(game: &Game, playouts: u64, seed: u64, tree_mb: usize, solver_share: f64) -> Move {
    let setup = Setup {
        tree_nodes: nodes_for_megabytes(tree_mb),
        solver_share,
        solver_bytes: 16 << 20,
        ..Setup::default()
    };
    let request = Request::playouts(playouts, seed);
    Searcher::default()
        .search(game, &setup, &request, &mut |_| Control::Continue)
        .best
        .expect("a move")
}

#[test]
fn the_tree_search_swaps_a_won_opening_and_keeps_a_lost_one() {
    for seed in [1, 2] {
        for (opening, swap) in [("B2", true), ("A1", false)] {
            let mut game = pie_game("3x4");
            game.play(Color::Black, at(&game, opening)).unwrap();
            let mv = tree_search(&game, 3000, seed);
            assert_eq!(mv == Move::Swap, swap, "{opening}, seed {seed}: {mv:?}");
        }
    }
}

/// The swap maps of docs/results/2026-11-30-first-move-advantage.md: for each first black placement (one per
/// symmetry class), whether `genmove w` with the pie rule on (one thread, a fixed number of playouts, solver share
/// as by default) answers `swap`. Prints one diagram per board and seed (`S` swapped, `.` not). Minutes of CPU:
/// `cargo test --profile release-tests --test pie -- --ignored --nocapture swap_maps`; `OUST_SWAP_BOARDS` (default
/// `7,9,13,hex5,hex7`), `OUST_SWAP_PLAYOUTS` (default 5000) and `OUST_SWAP_SEEDS` (default `1,2`) change it.
#[test]
#[ignore]
fn swap_maps() {
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let playouts: u64 = var("OUST_SWAP_PLAYOUTS", "5000").parse().unwrap();
    let seeds: Vec<u64> = var("OUST_SWAP_SEEDS", "1,2")
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    for board in var("OUST_SWAP_BOARDS", "7,9,13,hex5,hex7").split(',') {
        let g = geo(board);
        let syms = g.symmetries();
        for &seed in &seeds {
            let started = std::time::Instant::now();
            let mut swapped = vec![None::<bool>; g.len()];
            let mut classes = 0;
            for p in g.points() {
                if swapped[p.index()].is_some() {
                    continue;
                }
                classes += 1;
                let mut game = pie_game(board);
                game.play(Color::Black, Move::Place(p)).unwrap();
                let mv = genmove(&game, playouts, seed, 256, 0.1);
                for s in &syms {
                    swapped[s[p.index()].index()] = Some(mv == Move::Swap);
                }
            }
            let stones: Vec<Option<Color>> = swapped
                .iter()
                .map(|&s| s.unwrap().then_some(Color::Black))
                .collect();
            let pos = Position::setup(g.clone(), &stones, Color::Black, false);
            let count = swapped.iter().filter(|&&s| s == Some(true)).count();
            println!(
                "{board}, seed {seed}, {playouts} playouts: {count} of {} first placements swapped ({classes} classes, {:.1} s)",
                g.len(),
                started.elapsed().as_secs_f64()
            );
            println!(
                "{}",
                oust::notation::picture(&pos, oust::notation::Notation::Gtp).replace('X', "S")
            );
        }
    }
}
