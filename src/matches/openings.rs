//! Openings: sequences of moves played by the referee before the engines take over. Each is checked by the rules
//! when it is made or read, so a game never starts from an illegal position.

use std::sync::Arc;

use crate::notation::{self, MoveTextError};
use crate::rng::Rng;
use crate::rules::{Game, Geometry, Move, Status};

/// Plays `moves` from the empty board and returns them with the forced passes the rules require added where they
/// fall (the referee plays those passes itself in a game, too).
///
/// # Errors
/// A message naming the first illegal move, or saying that the opening ends the game.
pub fn complete(geo: &Arc<Geometry>, moves: &[Move]) -> Result<Vec<Move>, String> {
    let mut game = Game::new(geo.clone());
    let mut out = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        if game.position().status() == Status::MustPass && mv != Move::Pass {
            let color = game.position().to_move();
            game.play(color, Move::Pass)
                .map_err(|e| format!("forced pass before move {}: {e}", i + 1))?;
            out.push(Move::Pass);
        }
        let color = game.position().to_move();
        game.play(color, mv).map_err(|e| {
            let name = notation::move_name(geo, mv);
            format!("move {} ({color} {name}) is illegal: {e}", i + 1)
        })?;
        out.push(mv);
    }
    if let Status::Over(outcome) = game.position().status() {
        return Err(format!(
            "the opening ends the game ({})",
            outcome.describe()
        ));
    }
    Ok(out)
}

/// Reads an openings file: one opening a line, its moves as GTP vertices (or `pass`) separated by spaces or
/// commas, colours following the rules from Black's first placement (a capture gives an extra turn). Blank lines
/// and text after `#` are skipped.
///
/// # Errors
/// A message with the line number of the first opening that does not parse or is illegal on this board, or when
/// the file has no opening.
pub fn parse_openings(text: &str, geo: &Arc<Geometry>) -> Result<Vec<Vec<Move>>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let tokens: Vec<&str> = line
            .split([' ', '\t', ','])
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            continue;
        }
        let mut moves = Vec::new();
        for t in tokens {
            let mv = notation::parse_move(geo, t).map_err(|e| match e {
                MoveTextError::OffBoard(e) => format!("line {}: {e}", i + 1),
                MoveTextError::NotAMove(_) => format!("line {}: '{t}' is not a vertex", i + 1),
            })?;
            moves.push(mv);
        }
        openings.push(complete(geo, &moves).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    if openings.is_empty() {
        return Err("the file has no opening".into());
    }
    Ok(openings)
}

/// Opening number `index` of the random openings of `seed`: `placements` uniformly random legal placements (with
/// any forced passes between them). It depends only on the board, `placements`, `seed` and `index`, so shards of a
/// match that start at different opening offsets play the same openings as one long match would.
///
/// # Errors
/// A message when no such opening exists on this board (too many placements).
pub fn random_opening(
    geo: &Arc<Geometry>,
    placements: usize,
    seed: u64,
    index: usize,
) -> Result<Vec<Move>, String> {
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    'attempt: for _ in 0..1000 {
        let mut game = Game::new(geo.clone());
        let mut placed = 0;
        while placed < placements {
            let pos = game.position();
            let color = pos.to_move();
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'attempt;
            }
            let mv = moves[rng.below(moves.len())];
            if game.play(color, mv).is_err() {
                continue 'attempt;
            }
            if mv != Move::Pass {
                placed += 1;
            }
        }
        if !matches!(game.position().status(), Status::Over(_)) {
            return Ok(game.records().iter().map(|r| r.mv).collect());
        }
    }
    Err(format!(
        "found no random opening of {placements} placements that leaves the {} game going",
        geo.size_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(w: usize, h: usize) -> Arc<Geometry> {
        Arc::new(Geometry::rect(w, h).unwrap())
    }

    #[test]
    fn files_are_read_and_checked() {
        let g = geo(5, 5);
        let text = "# openings\nC3 D4\n\nA1, B2 # two moves\n";
        let openings = parse_openings(text, &g).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].len(), 2);
        let err = parse_openings("C3 C3\n", &g).unwrap_err();
        assert!(
            err.starts_with("line 1: move 2 (white C3) is illegal"),
            "{err}"
        );
        assert!(
            parse_openings("Z9\n", &g)
                .unwrap_err()
                .contains("off the 5x5")
        );
        assert!(parse_openings("hello\n", &g).is_err());
        assert!(parse_openings("# nothing\n", &g).is_err());
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let g = geo(7, 7);
        let a = random_opening(&g, 4, 9, 3).unwrap();
        assert_eq!(a, random_opening(&g, 4, 9, 3).unwrap());
        assert_ne!(a, random_opening(&g, 4, 9, 4).unwrap());
        assert_eq!(complete(&g, &a).unwrap(), a);
        let placements = a.iter().filter(|&&m| m != Move::Pass).count();
        assert_eq!(placements, 4);
        assert!(random_opening(&geo(2, 2), 9, 1, 0).is_err());
    }
}
