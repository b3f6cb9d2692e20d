//! Every worked example of RULES.md, played through the rules core.

mod common;

use common::{position, rows};
use oust::rules::{Color, IllegalMove, Move, Outcome, Position, Status};

fn at(pos: &Position, vertex: &str) -> Move {
    let col = vertex.chars().next().unwrap();
    let x = oust::rules::column_index(col).unwrap();
    let y: usize = vertex[1..].parse().unwrap();
    Move::Place(pos.geometry().point_at(x, y - 1).unwrap())
}

#[test]
fn capture_of_two_groups_along_the_new_group() {
    // 3 . X . .   Black B2 joins B1 and B3 into a group of 3 touching white {A2} (1) and {C2, D2} (2).
    // 2 O . O O   Both are removed. As drawn they are all of White's stones, so by rule 7 Black wins at once
    // 1 . X . .   (RULES.md's caption says "places again", which holds when White has stones elsewhere).
    let mut pos = position(&[".X..", "O.OO", ".X.."], Color::Black);
    let report = pos.play(at(&pos, "B2")).unwrap();
    assert_eq!(report.captured, 3);
    assert_eq!(rows(&pos), vec![".X..", ".X..", ".X.."]);
    assert_eq!(report.outcome, Some(Outcome::Win(Color::Black)));
    assert!(!report.extra_turn);
}

#[test]
fn capture_of_two_groups_gives_an_extra_turn_when_stones_remain() {
    // The same shape with a fifth column holding a lone white stone on E1: the capture is an extra turn.
    let mut pos = position(&[".X...", "O.OO.", ".X..O"], Color::Black);
    let report = pos.play(at(&pos, "B2")).unwrap();
    assert_eq!(report.captured, 3);
    assert!(report.extra_turn);
    assert_eq!(report.outcome, None);
    assert_eq!(rows(&pos), vec![".X...", ".X...", ".X..O"]);
    assert_eq!(pos.to_move(), Color::Black, "the capturer places again");
    assert!(pos.extra_turn());
}

#[test]
fn non_capturing_placements_and_an_illegal_join() {
    // 2 . O X .   White A1: no white neighbour: legal, turn ends.
    // 1 . . X .   White D2: only a black neighbour: legal.  White B1: group {B1, B2} of 2 touches black
    //             {C1, C2} of 2: not smaller: illegal.
    let base = position(&[".OX.", "..X."], Color::White);

    let mut pos = base.clone();
    let report = pos.play(at(&pos, "A1")).unwrap();
    assert_eq!((report.captured, report.extra_turn), (0, false));
    assert_eq!(pos.to_move(), Color::Black);

    let mut pos = base.clone();
    pos.play(at(&pos, "D2")).unwrap();
    assert_eq!(pos.to_move(), Color::Black);

    let mut pos = base.clone();
    let err = pos.play(at(&pos, "B1")).unwrap_err();
    assert_eq!(
        err,
        IllegalMove::NotSmaller {
            vertex: "B1".into(),
            color: Color::White,
            group: 2,
            enemy: 2
        }
    );
    assert_eq!(pos, base, "a refused move changes nothing");
    assert_eq!(
        err.to_string(),
        "B1 forms a white group of 2 touching a black group of 2, which is not smaller"
    );
}

#[test]
fn join_that_touches_no_enemy_is_illegal() {
    // 2 O . . .   White A1: group {A1, A2} of 2 touches no black stone (condition a).
    // 1 . . . X
    let base = position(&["O...", "...X"], Color::White);
    let mut pos = base.clone();
    let err = pos.play(at(&pos, "A1")).unwrap_err();
    assert_eq!(
        err,
        IllegalMove::NoEnemyContact {
            vertex: "A1".into(),
            color: Color::White,
            group: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "A1 joins white stones into a group of 2 that touches no black stone"
    );
    assert_eq!(pos, base);
}

#[test]
fn enemy_groups_touching_any_stone_of_the_new_group_count() {
    // 3 X X X O   Black A2: G = {A2, A3, B3, C3}; the new stone touches no white stone but C3 touches D3.
    // 2 . . . .   As drawn D3 is White's only stone, so Black wins at once (rule 7).
    // 1 . . . .
    let mut pos = position(&["XXXO", "....", "...."], Color::Black);
    let report = pos.play(at(&pos, "A2")).unwrap();
    assert_eq!(report.captured, 1);
    assert_eq!(rows(&pos), vec!["XXX.", "X...", "...."]);
    assert_eq!(report.outcome, Some(Outcome::Win(Color::Black)));
    assert!(!report.extra_turn);
}

#[test]
fn enemy_groups_touching_any_stone_count_with_white_stones_left() {
    // The same shape with a second white stone far away: the capture gives an extra turn instead.
    let mut pos = position(&["XXXO", "....", "...O"], Color::Black);
    let report = pos.play(at(&pos, "A2")).unwrap();
    assert_eq!(report.captured, 1);
    assert!(report.extra_turn);
    assert_eq!(pos.to_move(), Color::Black);
    assert_eq!(rows(&pos), vec!["XXX.", "X...", "...O"]);
}

#[test]
fn capturing_the_last_stone_wins_without_an_extra_placement() {
    // 2 X O . .   Black A1: {A1, A2} of 2 touches white {B2} of 1: capture, White's last stone: Black wins.
    // 1 . . . .
    let mut pos = position(&["XO..", "...."], Color::Black);
    let report = pos.play(at(&pos, "A1")).unwrap();
    assert_eq!(report.captured, 1);
    assert_eq!(report.outcome, Some(Outcome::Win(Color::Black)));
    assert!(!report.extra_turn);
    assert_eq!(pos.status(), Status::Over(Outcome::Win(Color::Black)));
    assert!(pos.legal_moves().is_empty());
    let err = pos.play(at(&pos, "C1")).unwrap_err();
    assert_eq!(
        err,
        IllegalMove::GameOver {
            outcome: Outcome::Win(Color::Black)
        }
    );
}

#[test]
fn full_two_by_two_board_ends_without_a_winner() {
    // B A2, W B2, B B1, W A1 fills the board with isolated stones: nobody can place: no winner (ruling 8).
    let mut pos = Position::new(std::sync::Arc::new(
        oust::rules::Geometry::square(2).unwrap(),
    ));
    let mut last = None;
    for v in ["A2", "B2", "B1", "A1"] {
        last = Some(pos.play(at(&pos, v)).unwrap());
    }
    assert_eq!(rows(&pos), vec!["XO", "OX"]);
    assert_eq!(last.unwrap().outcome, Some(Outcome::Draw));
    assert_eq!(pos.status(), Status::Over(Outcome::Draw));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.play(Move::Pass).unwrap_err(),
        IllegalMove::GameOver {
            outcome: Outcome::Draw
        }
    );
}

#[test]
fn the_first_placements_cannot_end_the_game() {
    // Rule 7: White has no stones before its first placement, yet Black has not won.
    let mut pos = Position::new(std::sync::Arc::new(
        oust::rules::Geometry::square(3).unwrap(),
    ));
    pos.play(at(&pos, "B2")).unwrap();
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.winner(), None);
}

#[test]
fn full_board_of_isolated_stones_is_a_draw() {
    let pos = position(&["XOX", "OXO", "XOX"], Color::White);
    assert_eq!(pos.status(), Status::Over(Outcome::Draw));
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn a_join_into_a_smaller_group_is_refused_and_a_lone_point_is_legal() {
    // 3 . O O   White to move. A3 joins {B3, C3} into 3 stones touching the black group of 5: illegal.
    // 2 X X X   C1 has only black neighbours: legal.
    // 1 X X .
    let mut pos = position(&[".OO", "XXX", "XX."], Color::White);
    assert_eq!(pos.legal_moves(), vec![at(&pos, "C1")]);
    pos.play(at(&pos, "C1")).unwrap();
    // Black A3 forms a group of 6 touching white {B3, C3} (2) and, through B1 and C2, white C1 (1): all go.
    let report = pos.play(at(&pos, "A3")).unwrap();
    assert_eq!(report.captured, 3);
    assert_eq!(report.outcome, Some(Outcome::Win(Color::Black)));
}

#[test]
fn must_pass_when_only_the_opponent_can_place() {
    // 2 O X      White to move; the empty point A1 joins white A2 into {A1, A2} of 2 touching black {B1, B2}
    // 1 . X      of 2: not smaller: illegal. Black can place A1 ({A1,B1,B2} of 3 touches white A2 of 1). So
    //            White has no legal placement and must pass.
    let mut pos = position(&["OX", ".X"], Color::White);
    assert_eq!(pos.status(), Status::MustPass);
    assert_eq!(pos.legal_moves(), vec![Move::Pass]);
    let err = pos.play_as(Color::Black, at(&pos, "A1")).unwrap_err();
    assert!(err.to_string().starts_with("white is to move"), "{err}");
    assert!(err.to_string().contains("must pass"), "{err}");
    let report = pos.play(Move::Pass).unwrap();
    assert_eq!(report, Default::default());
    assert_eq!(pos.to_move(), Color::Black);
    let report = pos.play(at(&pos, "A1")).unwrap();
    assert_eq!(report.outcome, Some(Outcome::Win(Color::Black)));
}

#[test]
fn pass_is_refused_while_a_placement_is_legal() {
    let mut pos = position(&["..", ".."], Color::Black);
    let err = pos.play(Move::Pass).unwrap_err();
    assert_eq!(
        err,
        IllegalMove::PassNotAllowed {
            color: Color::Black,
            example: "A1".into()
        }
    );
}

#[test]
fn wrong_colour_gets_the_reason() {
    let mut pos = position(&["XO..", "...O"], Color::Black);
    pos.play(at(&pos, "A1")).unwrap();
    let err = pos.play_as(Color::White, at(&pos, "C1")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "black is to move: extra turn after a capture"
    );
}
