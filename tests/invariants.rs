//! Invariants over random games, checked against the naive reference implementation in `common`.

mod common;

use std::sync::Arc;

use common::{RefIllegal, Reference};
use oust::rng::Rng;
use oust::rules::{Color, Game, Geometry, IllegalMove, Move, Position, perft};

const SIZES: &[(usize, usize)] = &[
    (2, 2),
    (3, 3),
    (4, 3),
    (3, 5),
    (5, 5),
    (6, 4),
    (7, 7),
    (9, 9),
    (2, 9),
    (11, 8),
];

fn ref_move(mv: Move) -> Option<usize> {
    match mv {
        Move::Place(p) => Some(p.index()),
        Move::Pass | Move::Swap => None,
    }
}

/// Checks one position against the reference: legal list, refusal reasons, every legal move's effect.
fn check_position(pos: &Position, reference: &Reference) {
    pos.check_invariants().unwrap();
    let legal: Vec<Option<usize>> = pos.legal_moves().into_iter().map(ref_move).collect();
    assert_eq!(
        legal,
        reference.moves(),
        "legal moves differ from the reference"
    );
    let color = pos.to_move();
    for p in pos.geometry().points() {
        // The neighbour counts the playouts and priors read agree with the stones around the point.
        let around = |c| {
            pos.geometry()
                .neighbors(p)
                .iter()
                .any(|&q| pos.color_at(q) == Some(c))
        };
        if pos.color_at(p).is_none() {
            assert_eq!(
                pos.touches(p),
                (around(color), around(color.opponent())),
                "{}",
                pos.geometry().name(p)
            );
            // What the playout policy asks of a point: would a placement there join friendly stones into a group
            // larger than every enemy group it touches and than a floor?
            for c in [Color::Black, Color::White] {
                for floor in 0..4 {
                    let expected = reference
                        .joined(c, p.index())
                        .is_some_and(|(group, enemy)| group > enemy.max(floor));
                    assert_eq!(
                        pos.outgrows(c, p, floor),
                        expected,
                        "{} for {c:?} over {floor}",
                        pos.geometry().name(p)
                    );
                }
            }
        }
        let engine = pos.check_placement(color, p);
        match (reference.check(color, p.index()), engine) {
            (Ok(()), Ok(_)) => {}
            (Err(RefIllegal::Occupied), Err(IllegalMove::Occupied { .. })) => {}
            (Err(RefIllegal::NoEnemy(g)), Err(IllegalMove::NoEnemyContact { group, .. })) => {
                assert_eq!(g, group)
            }
            (
                Err(RefIllegal::NotSmaller(g, e)),
                Err(IllegalMove::NotSmaller { group, enemy, .. }),
            ) => {
                assert_eq!((g, e), (group, enemy))
            }
            (r, e) => panic!("{}: reference {r:?}, engine {e:?}", pos.geometry().name(p)),
        }
    }
    // Every listed move plays, with the same effect as in the reference.
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        let report = child.play(mv).unwrap();
        let mut rchild = reference.clone();
        let captured = rchild.play(ref_move(mv));
        assert_eq!(report.captured, captured);
        assert_eq!(Reference::from_position(&child), rchild, "after {mv:?}");
        assert_eq!(report.extra_turn, child.extra_turn());
        child.check_invariants().unwrap();
    }
    // A pass is refused exactly when a placement exists.
    if !matches!(legal.as_slice(), [None]) {
        assert!(pos.clone().play(Move::Pass).is_err());
    }
}

/// Boards larger than this have every [`LARGE_BOARD_STRIDE`]th position of their games checked: a check costs a
/// play of every legal move, so a game costs the cube of the board's points.
const LARGE_BOARD_POINTS: usize = 64;
const LARGE_BOARD_STRIDE: usize = 4;

/// Plays `games` random games on `geo`, checking their positions against the reference (every position on boards
/// of up to [`LARGE_BOARD_POINTS`] points); returns the positions checked.
fn check_random_games(geo: &Arc<Geometry>, games: usize, rng: &mut Rng) -> usize {
    let stride = if geo.len() > LARGE_BOARD_POINTS {
        LARGE_BOARD_STRIDE
    } else {
        1
    };
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::new(geo.clone());
        for ply in 0.. {
            let moves = pos.legal_moves();
            // The last position (the game over) is always checked.
            if ply % stride == 0 || moves.is_empty() {
                let reference = Reference::from_position(&pos);
                check_position(&pos, &reference);
                positions += 1;
            }
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
    positions
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = Rng::new(2024);
    let mut positions = 0;
    for &(w, h) in SIZES {
        let games = if w * h > 50 { 6 } else { 40 };
        let geo = Arc::new(Geometry::rect(w, h).unwrap());
        positions += check_random_games(&geo, games, &mut rng);
    }
    assert!(positions > 3000, "only {positions} positions checked");
}

#[test]
fn random_hexhex_games_agree_with_the_reference() {
    let mut rng = Rng::new(2026);
    let mut positions = 0;
    for side in 2..=9 {
        let games = match side {
            2..=4 => 40,
            5..=6 => 4,
            _ => 1,
        };
        let geo = Arc::new(Geometry::hex(side).unwrap());
        positions += check_random_games(&geo, games, &mut rng);
    }
    assert!(positions > 1500, "only {positions} positions checked");
}

#[test]
fn undo_restores_every_position_and_hash() {
    let mut rng = Rng::new(7);
    for &(w, h) in SIZES {
        for _ in 0..10 {
            let mut game = Game::new(Arc::new(Geometry::rect(w, h).unwrap()));
            let mut seen = vec![game.position().clone()];
            loop {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                game.play(game.position().to_move(), mv).unwrap();
                seen.push(game.position().clone());
            }
            assert_eq!(game.records().len() + 1, seen.len());
            while let Some(expected) = seen.pop() {
                assert_eq!(game.position(), &expected);
                assert_eq!(game.position().hash(), expected.hash());
                expected.check_invariants().unwrap();
                if game.undo().is_none() {
                    assert!(seen.is_empty());
                }
            }
            assert!(game.undo().is_none());
        }
    }
}

#[test]
fn hash_depends_on_side_to_move_and_extra_turn_only_besides_stones() {
    let geo = Arc::new(Geometry::square(5).unwrap());
    let stones = vec![None; geo.len()];
    let a = Position::setup(geo.clone(), &stones, Color::Black, false);
    let b = Position::setup(geo.clone(), &stones, Color::White, false);
    let c = Position::setup(geo.clone(), &stones, Color::Black, true);
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    // Transpositions: the same stones reached by different orders hash alike.
    let mut x = Position::new(geo.clone());
    let mut y = Position::new(geo.clone());
    let p = |i| Move::Place(geo.point_at(i, i).unwrap());
    for mv in [p(0), p(1), p(2), p(3)] {
        x.play(mv).unwrap();
    }
    for mv in [p(2), p(3), p(0), p(1)] {
        y.play(mv).unwrap();
    }
    assert_eq!(x.hash(), y.hash());
    assert_eq!(x, y);
}

#[test]
fn refused_moves_change_nothing() {
    let mut rng = Rng::new(99);
    let mut game = Game::new(Arc::new(Geometry::square(6).unwrap()));
    let mut refused = 0;
    while !game.position().legal_moves().is_empty() {
        let before = game.position().clone();
        for p in before.geometry().points() {
            if game.position().is_legal(p) && before.color_at(p).is_none() {
                continue;
            }
            assert!(game.play(before.to_move(), Move::Place(p)).is_err());
            assert!(
                game.play(before.to_move().opponent(), Move::Place(p))
                    .is_err()
            );
            refused += 2;
            assert_eq!(game.position(), &before);
            assert_eq!(game.position().hash(), before.hash());
        }
        let moves = before.legal_moves();
        game.play(before.to_move(), moves[rng.below(moves.len())])
            .unwrap();
    }
    assert!(refused > 100);
}

#[test]
fn perft_agrees_with_the_reference_on_set_up_positions() {
    let cases: &[(&[&str], Color, usize)] = &[
        (&[".X..", "O.OO", ".X.."], Color::Black, 4),
        (&[".OX.", "..X."], Color::White, 5),
        (&["XXXO", "....", "...O"], Color::Black, 4),
        (&["OX", ".X"], Color::White, 3),
        (&["X.O.X", ".O.X.", "X.O..", "....O"], Color::White, 3),
    ];
    for (rows, to_move, depth) in cases {
        let pos = common::position(rows, *to_move);
        let reference = Reference::from_position(&pos);
        for d in 1..=*depth {
            assert_eq!(
                perft(&pos, d, u64::MAX).unwrap(),
                reference.perft(d),
                "{rows:?} depth {d}"
            );
        }
    }
}
