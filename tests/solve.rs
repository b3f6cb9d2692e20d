//! The solver: the values of the small boards, agreement with the exhaustive reference in tests/common and with
//! itself without symmetry or table, principal variations that replay through the rules, limits and errors.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use oust::rng::Rng;
use oust::rules::{Color, Geometry, Move, Outcome, Position, Shape, Status};
use oust::solve::{Limits, Options, Solution, SolveError, Solver, StopReason, Value, Verdict};

fn options(table: bool, symmetry: bool) -> Options {
    Options {
        memory_bytes: 16 << 20,
        table,
        symmetry,
        exact_distance: true,
    }
}

/// The solution `solver` finds for `pos`, without limits.
fn solution(solver: &mut Solver, pos: &Position) -> Solution {
    match solver
        .solve(pos, &Limits::default(), &mut |_| {})
        .unwrap()
        .verdict
    {
        Verdict::Solved(s) => s,
        Verdict::Unknown(why) => panic!("unsolved: {why}"),
    }
}

fn solve_with(pos: &Position, options: Options) -> Solution {
    solution(&mut Solver::new(options).unwrap(), pos)
}

/// `start` after `plies` random moves, or fewer when the game ends first; `None` when it is over.
fn random_position(start: &Position, plies: usize, rng: &mut Rng) -> Option<Position> {
    let mut pos = start.clone();
    for _ in 0..plies {
        if matches!(pos.status(), Status::Over(_)) {
            break;
        }
        let moves = pos.legal_moves();
        pos.play(moves[rng.below(moves.len())]).unwrap();
    }
    (!matches!(pos.status(), Status::Over(_))).then_some(pos)
}

/// Proof-number search within `nodes` nodes (and the memory they take).
fn prove_win(pos: &Position, nodes: u64) -> oust::solve::pns::PnsResult {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    oust::solve::pns::prove_win(pos, nodes as usize * oust::solve::pns::NODE_BYTES, &limits)
        .unwrap()
}

fn empty(shape: &str) -> Position {
    Position::new(Arc::new(
        Geometry::new(Shape::parse(shape).unwrap()).unwrap(),
    ))
}

/// Replays the line through the checked rules: each move legal and by the colour stated, the game over at its end
/// with the outcome the value promises.
fn check_line(pos: &Position, s: &Solution) {
    let mut p = pos.clone();
    for &(color, mv) in &s.pv {
        assert_eq!(p.to_move(), color, "colour of a move of the line");
        p.play(mv).unwrap_or_else(|e| panic!("line move: {e}"));
    }
    assert_eq!(
        p.status(),
        Status::Over(s.value.outcome(pos.to_move())),
        "the line ends the game"
    );
    assert_eq!(s.best, s.pv[0].1);
    if s.value != Value::Draw {
        assert_eq!(
            s.pv.len(),
            s.distance,
            "the line is as long as the distance"
        );
    }
}

/// The empty boards that solve in well under a second: value for Black and distance under best play. Each value
/// is also checked against the exhaustive reference below, and without symmetry.
const BOARDS: &[(&str, Value, usize)] = &[
    ("2", Value::Win, 3),
    ("3x2", Value::Win, 3),
    ("2x3", Value::Win, 3),
    ("2x4", Value::Win, 6),
    ("2x5", Value::Win, 9),
    ("2x6", Value::Win, 12),
    ("2x7", Value::Loss, 19),
    ("3", Value::Win, 3),
    ("3x4", Value::Win, 9),
    ("3x5", Value::Win, 12),
    ("4", Value::Win, 13),
    ("hex2", Value::Win, 3),
    ("hex3", Value::Win, 3),
];

#[test]
fn small_boards_have_the_published_values() {
    for &(shape, value, distance) in BOARDS {
        let pos = empty(shape);
        let s = solve_with(&pos, options(true, true));
        assert_eq!((s.value, s.distance), (value, distance), "{shape}");
        check_line(&pos, &s);
        let plain = solve_with(&pos, options(true, false));
        assert_eq!(
            (plain.value, plain.distance),
            (value, distance),
            "{shape} without symmetry"
        );
    }
}

#[test]
fn values_agree_with_the_exhaustive_reference() {
    for &(shape, value, _) in BOARDS.iter().filter(|b| b.0 != "2x7" && b.0 != "4") {
        let pos = empty(shape);
        let exact = common::solve(&pos, &mut HashMap::new());
        assert_eq!(value.outcome(Color::Black), exact, "{shape}");
    }
}

#[test]
fn tiny_boards_solve_the_same_without_a_table() {
    for shape in ["2", "3x2", "hex2", "3", "2x4", "2x5"] {
        let pos = empty(shape);
        let with = solve_with(&pos, options(true, true));
        let without = solve_with(&pos, options(false, false));
        assert_eq!(
            (with.value, with.distance),
            (without.value, without.distance),
            "{shape}"
        );
    }
}

/// Positions from random play on small boards, extra turns and forced passes included, solved three ways.
#[test]
fn random_positions_agree_with_the_reference_and_without_symmetry() {
    let mut rng = Rng::new(11);
    let mut memo: HashMap<(Shape, u64), HashMap<u64, Outcome>> = HashMap::new();
    let mut kinds = [0usize; 3];
    for shape in ["3", "4x3", "hex2", "2x5", "3x4", "hex3"] {
        let start = empty(shape);
        let mut solver = Solver::new(options(true, true)).unwrap();
        let mut plain = Solver::new(options(true, false)).unwrap();
        for _ in 0..40 {
            // The reference takes tens of seconds on the empty hex3 board (checked once, in
            // values_agree_with_the_exhaustive_reference): here hex3 positions are two plies in at least.
            let plies = if shape == "hex3" {
                2 + rng.below(6)
            } else {
                rng.below(8)
            };
            let Some(pos) = random_position(&start, plies, &mut rng) else {
                continue;
            };
            let exact = common::solve(&pos, memo.entry((pos.geometry().shape(), 0)).or_default());
            let s = solution(&mut solver, &pos);
            let p = solution(&mut plain, &pos);
            assert_eq!(s.value.outcome(pos.to_move()), exact, "{shape}");
            assert_eq!((s.value, s.distance), (p.value, p.distance), "{shape}");
            check_line(&pos, &s);
            kinds[match s.value {
                Value::Win => 0,
                Value::Loss => 1,
                Value::Draw => 2,
            }] += 1;
        }
    }
    assert!(kinds[0] > 0 && kinds[1] > 0, "wins and losses: {kinds:?}");
}

#[test]
fn a_full_board_without_a_winner_is_a_game_over_error() {
    let mut pos = empty("2");
    for v in ["A2", "B2", "B1", "A1"] {
        let p = pos.geometry().parse_vertex(v).unwrap();
        pos.play(Move::Place(p)).unwrap();
    }
    let err = Solver::new(Options::default())
        .unwrap()
        .solve(&pos, &Limits::default(), &mut |_| {})
        .unwrap_err();
    assert_eq!(err, SolveError::GameOver(Outcome::Draw));
    assert!(err.to_string().contains("game is over"), "{err}");
}

#[test]
fn a_draw_is_found() {
    // White's only move, A1, touches no white stone: a quiet placement that fills the board, and then neither
    // player can place (ruling 8).
    let pos = common::position(&["XO", ".X"], Color::White);
    let s = solve_with(&pos, options(true, true));
    assert_eq!(s.value, Value::Draw);
    check_line(&pos, &s);
}

#[test]
fn a_forced_pass_is_part_of_the_line() {
    // White's only empty point, B2, joins A2 into a group of 2 that touches the black group of 4: illegal, so
    // White must pass; the line starts with the pass.
    let pos = common::position(&["O.X", "XXX"], Color::White);
    assert_eq!(pos.status(), Status::MustPass);
    let s = solve_with(&pos, options(true, true));
    assert_eq!(s.best, Move::Pass);
    check_line(&pos, &s);
}

#[test]
fn limits_answer_unknown() {
    let pos = empty("4");
    let mut solver = Solver::new(options(true, true)).unwrap();
    let limits = Limits {
        nodes: Some(100),
        ..Limits::default()
    };
    let report = solver.solve(&pos, &limits, &mut |_| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Unknown(StopReason::NodeLimit));
    let stop = AtomicBool::new(true);
    let limits = Limits {
        stop: Some(&stop),
        ..Limits::default()
    };
    let mut solver = Solver::new(options(true, true)).unwrap();
    let report = solver.solve(&pos, &limits, &mut |_| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Unknown(StopReason::Stopped));
    let limits = Limits {
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    };
    let mut solver = Solver::new(options(true, true)).unwrap();
    let report = solver.solve(&pos, &limits, &mut |_| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Unknown(StopReason::Deadline));
}

#[test]
fn a_memory_limit_below_the_minimum_is_refused() {
    let err = Solver::new(Options {
        memory_bytes: 1000,
        ..Options::default()
    })
    .unwrap_err();
    assert!(matches!(err, SolveError::MemoryTooSmall { .. }));
    assert!(err.to_string().contains("minimum"), "{err}");
}

#[test]
fn move_values_find_the_winning_first_moves() {
    // 4x3 (4 columns, 3 rows): only B2 and C2 win, one class under the board's symmetries.
    let pos = empty("4x3");
    let mut solver = Solver::new(options(true, true)).unwrap();
    let (values, _) = solver
        .move_values(&pos, &Limits::default(), &mut |_| {})
        .unwrap();
    let values = values.unwrap();
    let geo = pos.geometry();
    let wins: Vec<String> = values
        .iter()
        .filter(|v| v.value == Value::Win)
        .flat_map(|v| std::iter::once(v.mv).chain(v.same_as.iter().copied()))
        .map(|m| oust::notation::move_name(geo, m))
        .collect();
    assert_eq!(wins, ["B2", "C2"]);
    let all: usize = values.iter().map(|v| 1 + v.same_as.len()).sum();
    assert_eq!(all, 12);
}

#[test]
fn proof_number_search_agrees_on_the_small_boards() {
    for &(shape, value, _) in BOARDS {
        let pos = empty(shape);
        let r = prove_win(&pos, 20_000_000);
        assert_eq!(r.wins, Some(value == Value::Win), "{shape}");
    }
    // And on random positions, extra turns and forced passes included.
    let mut rng = Rng::new(12);
    let mut solver = Solver::new(options(true, true)).unwrap();
    for shape in ["3", "4x3", "hex2", "2x5", "hex3"] {
        for _ in 0..20 {
            let plies = rng.below(8);
            let Some(pos) = random_position(&empty(shape), plies, &mut rng) else {
                continue;
            };
            let s = solution(&mut solver, &pos);
            let r = prove_win(&pos, 5_000_000);
            assert_eq!(r.wins, Some(s.value == Value::Win), "{shape}");
        }
    }
}

#[test]
fn a_large_position_needs_a_limit() {
    // 9x3 with 25 empty points: solved without a limit (Black's A2 joins A1 and takes B1, White's only stone).
    let pos = common::position(&[".........", ".........", "XO......."], Color::Black);
    assert_eq!(pos.empties().len(), oust::solve::MAX_UNLIMITED_EMPTY);
    let s = solve_with(&pos, options(true, true));
    assert_eq!((s.value, s.distance), (Value::Win, 1));
    assert_eq!(oust::notation::move_name(pos.geometry(), s.best), "A2");
    // One empty point more: refused up front, value and move values alike, with the reason.
    let pos = common::position(&[".........", ".........", "X........"], Color::White);
    let mut solver = Solver::new(options(true, true)).unwrap();
    let err = solver
        .solve(&pos, &Limits::default(), &mut |_| {})
        .unwrap_err();
    assert_eq!(err, SolveError::Unlimited { empty: 26 });
    assert_eq!(
        err.to_string(),
        "26 empty points are more than the 25 a solve without a limit takes on (5x5, the largest board proven \
         here, took 7 minutes with 25; each further point multiplies the work): give a time or node limit to try \
         anyway"
    );
    let err = solver
        .move_values(&pos, &Limits::default(), &mut |_| {})
        .unwrap_err();
    assert_eq!(err, SolveError::Unlimited { empty: 26 });
    // With a limit it runs, and says unknown when the limit comes first.
    let limits = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    let report = solver.solve(&pos, &limits, &mut |_| {}).unwrap();
    assert_eq!(report.verdict, Verdict::Unknown(StopReason::NodeLimit));
    assert_eq!(report.stats.nodes, 1000);
}

#[test]
fn a_table_the_system_refuses_is_an_error_not_an_abort() {
    // A petabyte: beyond any machine's address space.
    let bytes = 1usize << 50;
    let mut solver = Solver::new(Options {
        memory_bytes: bytes,
        ..Options::default()
    })
    .unwrap();
    let err = solver
        .solve(&empty("3"), &Limits::default(), &mut |_| {})
        .unwrap_err();
    assert_eq!(err, SolveError::NoMemory { bytes });
    assert_eq!(
        err.to_string(),
        "no memory for a table of 1073741824 MB: the system refused it"
    );
}

#[test]
fn proof_number_search_stops_at_its_limits() {
    use oust::solve::pns::{NODE_BYTES, prove_win as pns};
    let pos = empty("4");
    // The tree's memory: it stops before it would need more.
    let r = pns(&pos, 1000 * NODE_BYTES, &Limits::default()).unwrap();
    assert_eq!((r.wins, r.stopped), (None, Some(StopReason::MemoryFull)));
    assert!(r.nodes <= 1000 && r.nodes > 900, "{}", r.nodes);
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let r = pns(&pos, 1 << 26, &limits).unwrap();
    assert_eq!((r.wins, r.stopped), (None, Some(StopReason::NodeLimit)));
    assert!((5000..5100).contains(&r.nodes), "{}", r.nodes);
    let limits = Limits {
        deadline: Some(std::time::Instant::now()),
        ..Limits::default()
    };
    let r = pns(&pos, 1 << 26, &limits).unwrap();
    assert_eq!((r.wins, r.stopped), (None, Some(StopReason::Deadline)));
    let stop = AtomicBool::new(true);
    let limits = Limits {
        stop: Some(&stop),
        ..Limits::default()
    };
    let r = pns(&pos, 1 << 26, &limits).unwrap();
    assert_eq!((r.wins, r.stopped), (None, Some(StopReason::Stopped)));
    // Room for fewer than two nodes is refused.
    assert!(matches!(
        pns(&pos, NODE_BYTES, &Limits::default()),
        Err(SolveError::MemoryTooSmall { .. })
    ));
    // Proven within the limits: no stop reason.
    let r = pns(&empty("3"), 1 << 20, &Limits::default()).unwrap();
    assert_eq!((r.wins, r.stopped), (Some(true), None));
}
