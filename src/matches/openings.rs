//! Openings: sequences of moves played by the referee before the engines take over. Each is checked by the rules
//! when it is made or read, so a game never starts from an illegal position.

use std::sync::Arc;

use crate::notation::{self, MoveTextError};
use crate::rng::Rng;
use crate::rules::{Game, Geometry, Move, Position, Status};
use crate::solve::{self, Limits, Report, Solution, Solver, Verdict};

use super::config::{MatchConfig, OpeningSource};

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

/// Solver nodes spent on a drawn opening to find out whether it already decides the game. At this budget the
/// solver proves the wins of a few placements (a lone stone taken with an extra turn, a chain of captures), and a
/// drawn opening takes about 10 ms to check.
pub const DECIDED_NODES: u64 = 20_000;

/// Moves (placements and passes) to the end of the game under best play within which a proven result counts as
/// decided by the opening.
pub const DECIDED_DISTANCE: usize = 8;

/// A random opening that leaves the game to the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnOpening {
    /// The placements, with any forced passes between them.
    pub moves: Vec<Move>,
    /// Openings drawn before it and drawn again because the solver proved their result.
    pub rejected: usize,
    /// The solver proved the result of this one too: every one of [`DRAWS`] draws was decided (a board the
    /// solver settles at once, such as 3x3), and the first was kept.
    pub decided: bool,
}

/// Openings drawn at most for one undecided opening.
pub const DRAWS: usize = 64;

/// Plays `placements` uniformly random legal placements from the empty board with `rng`; `None` when a line
/// runs out of moves or ends the game on the way.
fn draw(geo: &Arc<Geometry>, placements: usize, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new(geo.clone());
    let mut placed = 0;
    while placed < placements {
        let pos = game.position();
        let color = pos.to_move();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len())];
        game.play(color, mv).ok()?;
        if mv != Move::Pass {
            placed += 1;
        }
    }
    (!matches!(game.position().status(), Status::Over(_))).then_some(game)
}

fn opening_rng(seed: u64, index: usize) -> Rng {
    Rng::new(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn no_opening(geo: &Geometry, placements: usize, what: &str) -> String {
    format!(
        "found no random opening of {placements} placements that leaves the {} game {what}",
        geo.size_name()
    )
}

/// Opening number `index` of the random openings of `seed`: `placements` uniformly random legal placements (with
/// any forced passes between them). It depends only on the board, `placements`, `seed` and `index`, so shards of a
/// match that start at different opening offsets play the same openings as one long match would. The opening
/// may decide the game (see [`undecided_opening`]); self-play draws its openings so.
///
/// # Errors
/// A message when no such opening exists on this board (too many placements).
pub fn random_opening(
    geo: &Arc<Geometry>,
    placements: usize,
    seed: u64,
    index: usize,
) -> Result<Vec<Move>, String> {
    let mut rng = opening_rng(seed, index);
    (0..1000)
        .find_map(|_| draw(geo, placements, &mut rng))
        .map(|game| game.records().iter().map(|r| r.mv).collect())
        .ok_or_else(|| no_opening(geo, placements, "going"))
}

/// Whether the solver proves the result of `pos` within [`DECIDED_NODES`] nodes: the side to move wins at once
/// or within a few placements, or cannot escape a loss.
/// The solver's table is cleared first, so that the answer does not depend on the positions solved before.
pub fn decided(pos: &Position, solver: &mut Solver) -> bool {
    solver.clear();
    let limits = Limits {
        nodes: Some(DECIDED_NODES),
        ..Limits::default()
    };
    matches!(
        solver.solve(pos, &limits, &mut |_| {}),
        Ok(Report {
            verdict: Verdict::Solved(Solution { distance, .. }),
            ..
        }) if distance <= DECIDED_DISTANCE
    )
}

/// A solver for [`decided`]: a small table, no exact distance.
///
/// # Panics
/// Never: the table's memory is above the solver's minimum.
pub fn opening_solver() -> Solver {
    Solver::new(solve::Options {
        memory_bytes: 4 << 20,
        ..solve::Options::default()
    })
    .expect("4 MB is above the solver's minimum table")
}

/// Opening number `index` of the undecided random openings of `seed`: openings are drawn as by
/// [`random_opening`] until one leaves a result that the solver does not prove in [`DECIDED_NODES`] nodes within
/// [`DECIDED_DISTANCE`] moves ([`decided`]). When [`DRAWS`] draws are all decided, the first is kept and marked
/// so. It depends only on the board, `placements`, `seed` and `index`, as random openings do.
///
/// # Errors
/// A message when no opening leaves the game going (a board too small for the placements).
pub fn undecided_opening(
    geo: &Arc<Geometry>,
    placements: usize,
    seed: u64,
    index: usize,
    solver: &mut Solver,
) -> Result<DrawnOpening, String> {
    let mut rng = opening_rng(seed, index);
    let mut first = None;
    for _ in 0..1000 {
        let Some(game) = draw(geo, placements, &mut rng) else {
            continue;
        };
        let moves: Vec<Move> = game.records().iter().map(|r| r.mv).collect();
        if !decided(game.position(), solver) {
            let rejected = first.map_or(0, |(_, n)| n);
            return Ok(DrawnOpening {
                moves,
                rejected,
                decided: false,
            });
        }
        let (_, n) = first.get_or_insert((moves, 0));
        *n += 1;
        if *n == DRAWS {
            break;
        }
    }
    first
        .map(|(moves, rejected)| DrawnOpening {
            moves,
            rejected: rejected - 1,
            decided: true,
        })
        .ok_or_else(|| no_opening(geo, placements, "going"))
}

/// A match's openings, each with its number.
pub(super) type Openings = Vec<(usize, Vec<Move>)>;

/// What drawing a match's random openings rejected.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct OpeningDraws {
    /// Openings drawn and drawn again because the solver proved their result.
    pub rejected: usize,
    /// Openings kept although decided: every draw for them was (a board the solver settles at once).
    pub kept_decided: usize,
}

/// The openings of `rounds` opening pairs from `first_round` on (after `--opening-offset`), each with its number.
pub(super) fn load_openings(
    config: &MatchConfig,
    geometry: &Arc<Geometry>,
    first_round: u64,
    rounds: u64,
) -> Result<(Openings, OpeningDraws), String> {
    let first = config.opening_offset + first_round as usize;
    match &config.openings {
        OpeningSource::None => Ok((Vec::new(), OpeningDraws::default())),
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let all =
                parse_openings(&text, geometry).map_err(|e| format!("{}: {e}", path.display()))?;
            let n = all.len();
            let mut list: Vec<(usize, Vec<Move>)> = all.into_iter().enumerate().collect();
            list.rotate_left(first % n);
            Ok((list, OpeningDraws::default()))
        }
        OpeningSource::Random(k) => {
            let count = rounds.max(1) as usize;
            let mut solver = opening_solver();
            let mut draws = OpeningDraws::default();
            let mut list = Vec::with_capacity(count);
            for i in first..first + count {
                let drawn = undecided_opening(geometry, *k, config.seed, i, &mut solver)?;
                draws.rejected += drawn.rejected;
                draws.kept_decided += usize::from(drawn.decided);
                list.push((i, drawn.moves));
            }
            log::info!(
                "random openings: {count} used, {} rejected as decided, {} kept decided",
                draws.rejected,
                draws.kept_decided
            );
            Ok((list, draws))
        }
    }
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

    /// Plays `moves` from the empty board.
    fn position(g: &Arc<Geometry>, moves: &[Move]) -> Game {
        let mut game = Game::new(g.clone());
        for &mv in moves {
            let color = game.position().to_move();
            game.play(color, mv).unwrap();
        }
        game
    }

    #[test]
    fn an_opening_whose_lone_stone_is_taken_at_once_is_decided() {
        let g = Arc::new(Geometry::hex(7).unwrap());
        let mut solver = opening_solver();
        // White's stone touches Black's: Black extends, takes it with a group of two and wins.
        let a = notation::parse_move(&g, "D4").unwrap();
        let b = notation::parse_move(&g, "E4").unwrap();
        let far = notation::parse_move(&g, "J9").unwrap();
        assert!(decided(position(&g, &[a, b]).position(), &mut solver));
        assert!(!decided(position(&g, &[a, far]).position(), &mut solver));
    }

    #[test]
    fn undecided_openings_are_reproducible_and_skip_the_decided_ones() {
        let g = Arc::new(Geometry::hex(7).unwrap());
        let mut solver = opening_solver();
        let mut rejected = 0;
        for index in 0..60 {
            let drawn = undecided_opening(&g, 2, 5, index, &mut solver).unwrap();
            assert!(!drawn.decided);
            assert_eq!(
                drawn,
                undecided_opening(&g, 2, 5, index, &mut solver).unwrap()
            );
            let game = position(&g, &drawn.moves);
            assert!(!decided(game.position(), &mut opening_solver()));
            rejected += drawn.rejected;
            // The first draw of the index is the plain random opening; it is kept when nothing was rejected.
            let plain = random_opening(&g, 2, 5, index).unwrap();
            assert_eq!(drawn.rejected == 0, plain == drawn.moves, "opening {index}");
        }
        // About one two-placement opening in ten on hex-7 puts the stones side by side.
        assert!((2..=20).contains(&rejected), "{rejected} rejected of 60");
    }

    #[test]
    fn on_a_board_the_solver_settles_the_first_draw_is_kept_and_marked_decided() {
        let g = geo(3, 3);
        let mut solver = opening_solver();
        let drawn = undecided_opening(&g, 1, 5, 0, &mut solver).unwrap();
        assert!(drawn.decided);
        assert_eq!(drawn.rejected, DRAWS - 1);
        assert_eq!(drawn.moves, random_opening(&g, 1, 5, 0).unwrap());
        assert!(undecided_opening(&geo(2, 2), 9, 1, 0, &mut solver).is_err());
    }
}
