//! Perft regression: node counts from `tests/perft.txt`, checked against the engine and, where the tree is small
//! enough, against the naive reference implementation too.

mod common;

use std::sync::Arc;

use common::Reference;
use oust::notation;
use oust::rules::{Color, Geometry, Position, Shape, perft};

/// Stops a runaway count; the data file's largest entry is far below it.
const NODE_LIMIT: u64 = 50_000_000;
/// The reference is slow: it checks a line's counts while their running total stays below this, or below
/// `OUST_REFERENCE_BUDGET` when that is set (to check deeper counts once, outside CI).
const REFERENCE_BUDGET: u64 = 400_000;

fn reference_budget() -> u64 {
    std::env::var("OUST_REFERENCE_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(REFERENCE_BUDGET)
}

fn parse_position(size: &str, to_move: &str, rows: &str) -> Position {
    let geo = Arc::new(Geometry::new(Shape::parse(size).expect("a board")).unwrap());
    let to_move = if to_move == "b" {
        Color::Black
    } else {
        Color::White
    };
    let stones = if rows == "-" {
        vec![None; geo.len()]
    } else {
        notation::parse_rows(&geo, rows).expect("rows of the board")
    };
    Position::setup(geo, &stones, to_move, false)
}

#[test]
fn perft_counts_match_the_data_file() {
    let data = include_str!("perft.txt");
    let (mut checked, mut by_reference) = (0, 0);
    for line in data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let pos = parse_position(fields[0], fields[1], fields[2]);
        let reference = Reference::from_position(&pos);
        let mut spent = 0;
        for (i, expected) in fields[3..].iter().enumerate() {
            let expected: u64 = expected.parse().unwrap();
            let got = perft(&pos, i + 1, NODE_LIMIT).unwrap();
            assert_eq!(got, expected, "{line}: depth {}", i + 1);
            checked += 1;
            spent += expected;
            if spent <= reference_budget() {
                assert_eq!(
                    reference.perft(i + 1),
                    expected,
                    "{line}: reference at depth {}",
                    i + 1
                );
                by_reference += 1;
            }
        }
    }
    assert!(checked >= 120, "only {checked} counts checked");
    assert!(
        by_reference >= 80,
        "only {by_reference} counts checked by the reference"
    );
}

#[test]
fn perft_stops_at_its_node_limit() {
    let pos = parse_position("9x9", "b", "-");
    let err = perft(&pos, 4, 1_000_000).unwrap_err();
    assert_eq!(err.limit, 1_000_000);
}
