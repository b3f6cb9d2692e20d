//! Perft regression: node counts from `tests/perft.txt`.

use std::sync::Arc;

use oust::rules::{Color, Geometry, Position, perft};

/// Stops a runaway count; the data file's largest entry is far below it.
const NODE_LIMIT: u64 = 50_000_000;

fn parse_position(size: &str, to_move: &str, rows: &str) -> Position {
    let (w, h) = size.split_once('x').expect("size WxH");
    let geo = Arc::new(Geometry::rect(w.parse().unwrap(), h.parse().unwrap()).unwrap());
    let to_move = if to_move == "b" {
        Color::Black
    } else {
        Color::White
    };
    let (w, h) = geo.dimensions();
    let mut stones = vec![None; geo.len()];
    if rows != "-" {
        let rows: Vec<&str> = rows.split('/').collect();
        assert_eq!(rows.len(), h, "row count");
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), w, "row width");
            for (x, ch) in row.chars().enumerate() {
                let y = h - 1 - r;
                stones[y * w + x] = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    '.' => None,
                    _ => panic!("bad cell {ch}"),
                };
            }
        }
    }
    Position::setup(geo, &stones, to_move, false)
}

#[test]
fn perft_counts_match_the_data_file() {
    let data = include_str!("perft.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let pos = parse_position(fields[0], fields[1], fields[2]);
        for (i, expected) in fields[3..].iter().enumerate() {
            let expected: u64 = expected.parse().unwrap();
            let got = perft(&pos, i + 1, NODE_LIMIT).unwrap();
            assert_eq!(got, expected, "{line}: depth {}", i + 1);
            checked += 1;
        }
    }
    assert!(checked >= 29, "only {checked} counts checked");
}
