//! Play from solved positions: the main player, given the solver's share of its budget, never lets a proven win
//! go, against `random`, `uct-plain` and itself; against itself a game lasts exactly the solver's distance (the
//! fastest win against the slowest loss). The tree search's own solver agrees with the solver where both prove.

use std::sync::Arc;

use oust::rng::Rng;
use oust::rules::{Color, Game, Geometry, Outcome, Position, Shape, Status};
use oust::search::{Control, PlayerKind, Request, Searcher, Setup, nodes_for_megabytes};
use oust::solve::{self, Solution, Solver, Value, Verdict};

fn setup(player: PlayerKind, solver_share: f64) -> Setup {
    Setup {
        player,
        tree_nodes: nodes_for_megabytes(16),
        solver_share,
        solver_bytes: 16 << 20,
        ..Setup::default()
    }
}

fn solve(solver: &mut Solver, pos: &Position) -> Solution {
    match solver
        .solve(pos, &solve::Limits::default(), &mut |_| {})
        .unwrap()
        .verdict
    {
        Verdict::Solved(s) => s,
        Verdict::Unknown(why) => panic!("unsolved: {why}"),
    }
}

/// Positions of `shape` after a few random moves whose side to move has a proven win.
fn won_positions(shape: &str, count: usize, rng: &mut Rng, solver: &mut Solver) -> Vec<Game> {
    let geo = Arc::new(Geometry::new(Shape::parse(shape).unwrap()).unwrap());
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < 1000 {
        tries += 1;
        let mut game = Game::new(geo.clone());
        for _ in 0..rng.below(5) {
            let pos = game.position();
            if matches!(pos.status(), Status::Over(_)) {
                break;
            }
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            game.play(pos.to_move(), mv).unwrap();
        }
        let pos = game.position();
        if matches!(pos.status(), Status::Ongoing) && solve(solver, pos).value == Value::Win {
            out.push(game);
        }
    }
    out
}

/// Plays `game` to the end: `winner` is the main player with the solver, `other` the opponent. After each of the
/// winner's moves the position is checked to be still won. Returns the outcome and the moves played.
fn play_out(
    mut game: Game,
    other: PlayerKind,
    other_share: f64,
    seed: u64,
    check: &mut Solver,
) -> (Outcome, usize) {
    let winner = game.position().to_move();
    let mut searchers = [Searcher::default(), Searcher::default()];
    let mut moves = 0;
    loop {
        let pos = game.position();
        let me = pos.to_move();
        match pos.status() {
            Status::Over(o) => return (o, moves),
            Status::MustPass | Status::Ongoing => {}
        }
        let (player, share) = if me == winner {
            (PlayerKind::Mcts, 0.5)
        } else {
            (other, other_share)
        };
        let request = Request::playouts(5_000, seed + moves as u64);
        let result =
            searchers[me.index()].search(&game, &setup(player, share), &request, &mut |_| {
                Control::Continue
            });
        let mv = result.best.expect("a move");
        game.play(me, mv).unwrap();
        moves += 1;
        let after = game.position();
        if me == winner && !matches!(after.status(), Status::Over(_)) {
            let value = solve(check, after).value;
            let kept = if after.to_move() == winner {
                value == Value::Win
            } else {
                value == Value::Loss
            };
            assert!(kept, "the move let the win go");
        }
    }
}

const BOARDS: [&str; 6] = ["3", "4x3", "2x5", "2x6", "hex2", "hex3"];

#[test]
fn the_winner_never_lets_the_win_go() {
    let mut rng = Rng::new(5);
    let mut check = Solver::new(solve::Options::default()).unwrap();
    let mut games = 0;
    for shape in BOARDS {
        for (i, game) in won_positions(shape, 3, &mut rng, &mut check)
            .into_iter()
            .enumerate()
        {
            let winner = game.position().to_move();
            for (other, share) in [
                (PlayerKind::Random, 0.0),
                (PlayerKind::UctPlain, 0.0),
                (PlayerKind::Mcts, 0.0),
                (PlayerKind::Mcts, 0.5),
            ] {
                let (outcome, _) = play_out(game.clone(), other, share, 100 * i as u64, &mut check);
                assert_eq!(outcome, Outcome::Win(winner), "{shape} against {other:?}");
                games += 1;
            }
        }
    }
    assert!(games >= 40, "{games} games");
}

#[test]
fn against_itself_a_won_game_lasts_the_solved_distance() {
    let mut rng = Rng::new(6);
    let mut check = Solver::new(solve::Options::default()).unwrap();
    for shape in BOARDS {
        for game in won_positions(shape, 3, &mut rng, &mut check) {
            let distance = solve(&mut check, game.position()).distance;
            let (outcome, moves) = play_out(game.clone(), PlayerKind::Mcts, 0.5, 1, &mut check);
            assert_eq!(outcome, Outcome::Win(game.position().to_move()), "{shape}");
            assert_eq!(moves, distance, "{shape}: fastest win against slowest loss");
        }
    }
}

/// A game of `plies` random moves from the empty board, or fewer when it ends first.
fn random_game(geo: &Arc<Geometry>, plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new(geo.clone());
    for _ in 0..plies {
        let pos = game.position();
        if !matches!(pos.status(), Status::Ongoing) {
            break;
        }
        let moves = pos.legal_moves();
        game.play(pos.to_move(), moves[rng.below(moves.len())])
            .unwrap();
    }
    game
}

#[test]
fn the_tree_search_solver_agrees_with_the_solver() {
    let mut rng = Rng::new(7);
    let mut check = Solver::new(solve::Options::default()).unwrap();
    let mut proofs = 0;
    for shape in ["3", "4x3", "2x5", "hex2", "hex3", "3x4"] {
        let geo = Arc::new(Geometry::new(Shape::parse(shape).unwrap()).unwrap());
        for _ in 0..10 {
            let plies = rng.below(6);
            let game = random_game(&geo, plies, &mut rng);
            if !matches!(game.position().status(), Status::Ongoing) {
                continue;
            }
            let request = Request::playouts(3_000, 3);
            let result = Searcher::default().search(
                &game,
                &setup(PlayerKind::Mcts, 0.0),
                &request,
                &mut |_| Control::Continue,
            );
            let solution = solve(&mut check, game.position());
            let me: Color = game.position().to_move();
            if let Some(proof) = result.info.proof {
                assert_eq!(proof, solution.value.outcome(me), "{shape}");
                proofs += 1;
            }
            // A move the tree search proves winning is a winning move.
            if let Some(best) = result
                .info
                .moves
                .iter()
                .find(|m| m.proof == Some(Outcome::Win(me)))
            {
                let mut after = game.clone();
                after.play(me, best.mv).unwrap();
                let pos = after.position();
                if !matches!(pos.status(), Status::Over(_)) {
                    let v = solve(&mut check, pos).value;
                    assert_eq!(v.outcome(pos.to_move()), Outcome::Win(me), "{shape}");
                }
            }
        }
    }
    assert!(proofs >= 10, "{proofs} proofs");
}

/// Where the tree search proves the root before its playouts run out, and the solver's small share of the budget
/// did not, the solver gets the rest of the budget: genmove plays the fastest win or the slowest loss, never just
/// some move the tree proved. The tree's proof, the solver's value and the move all agree, and the game after the
/// move is one move shorter than the solver's distance.
#[test]
fn a_tree_proof_is_played_at_the_solvers_distance() {
    let mut rng = Rng::new(8);
    let mut check = Solver::new(solve::Options::default()).unwrap();
    // Positions where the tree search ran and proved a win or a loss.
    let (mut wins, mut losses) = (0, 0);
    for shape in ["3x4", "hex3", "2x6", "3x5", "4"] {
        let geo = Arc::new(Geometry::new(Shape::parse(shape).unwrap()).unwrap());
        for _ in 0..12 {
            let plies = 2 + rng.below(6);
            let game = random_game(&geo, plies, &mut rng);
            let pos = game.position().clone();
            if !matches!(pos.status(), Status::Ongoing) || pos.legal_moves().len() < 2 {
                continue;
            }
            let me = pos.to_move();
            let search = |share: f64| {
                let request = Request::playouts(2_000, 5);
                Searcher::default().search(
                    &game,
                    &setup(PlayerKind::Mcts, share),
                    &request,
                    &mut |_| Control::Continue,
                )
            };
            // A share of 0.005 gives the solver 200 nodes first: too few for most of these positions.
            let result = search(0.005);
            if result.playouts == 0 {
                continue;
            }
            let Some(proof) = result.info.proof else {
                continue;
            };
            let solution = solve(&mut check, &pos);
            assert_eq!(
                proof,
                solution.value.outcome(me),
                "{shape}: the proofs disagree"
            );
            if solution.value == Value::Draw {
                // A draw has no fastest or slowest line to keep.
                continue;
            }
            let mut distance_after = |mv| {
                let mut after = pos.clone();
                after.play(mv).unwrap();
                match after.status() {
                    Status::Over(o) => (o, 0),
                    _ => {
                        let s = solve(&mut check, &after);
                        (s.value.outcome(after.to_move()), s.distance)
                    }
                }
            };
            let best = result.best.unwrap();
            assert_eq!(
                result.info.moves[0].mv, best,
                "{shape}: the move played leads"
            );
            assert_eq!(
                distance_after(best),
                (proof, solution.distance - 1),
                "{shape}: {best:?} is not on a line of the solver's distance {}",
                solution.distance
            );
            if solution.value == Value::Win {
                wins += 1;
            } else {
                losses += 1;
            }
        }
    }
    // On these positions the tree search's own choice (share 0) happened to be at the solver's distance too, so
    // this checks agreement; it does not single out the refinement.
    assert!(wins >= 5 && losses >= 2, "{wins} wins, {losses} losses");
}
