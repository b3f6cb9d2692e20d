//! Checking whole records: every game and every variation replayed through the rules, and each game's result.

use crate::rules::{Color, Game, Outcome, Shape, Status};

use super::read::{record_of, replay};
use super::syntax::{Collection, Record, SgfError, collection, line_column};

/// One game of a checked record: its main line, replayed, and the number of its variations (lines of play, the
/// main line included), all checked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The main line's record.
    pub record: Record,
    /// The main line, replayed.
    pub game: Game,
    /// Lines of play in the game tree, from 1.
    pub variations: usize,
    /// A game a referee adjudicated by the solver ([`super::ADJUDICATION_PROPERTY`]): whether the solver proved
    /// its result again here, within [`ADJUDICATION_RECHECK_NODES`] nodes (false: not within them, and the
    /// record's `RE` is taken as it stands).
    pub adjudicated: Option<bool>,
}

/// The nodes the solver has to prove an adjudicated record's result again.
pub const ADJUDICATION_RECHECK_NODES: u64 = 20_000_000;

/// Most nodes [`check_for`] replays in all, counting the nodes a variation shares with others once per variation:
/// far more than any real record needs, and a bound on the time a crafted one can take.
pub const MAX_CHECKED_NODES: usize = 10_000_000;

/// Validates a whole record: it parses, every move of every game and every variation is legal, and a result (`RE`)
/// of `B+`, `W+`, `0` or `Draw` is the one each game's main line reaches, or, for `0` and `Draw`, a draw agreed
/// before the end. Results decided off the board (`B+R`, `W+Time`, `B+F`, ...) are accepted while the game on the
/// board is unfinished or after it ended without a winner (ruling 8); `?`, `Void` and an empty `RE` state nothing
/// and are accepted. Variations are numbered from 1 in the order of the file, the main line first.
///
/// # Errors
/// The first problem found, as an [`SgfError`]; in a record with more than one game or variation, an
/// [`SgfError::In`] that says which game and variation, and where the move is.
pub fn check(text: &str) -> Result<Vec<Checked>, SgfError> {
    check_for(text, None)
}

/// [`check`] with the board of [`parse_for`]: a record with `SZ[2S-1]` alone is read as the hexhex board
/// `current` when that is one.
///
/// # Errors
/// As [`check`].
///
/// [`parse_for`]: super::parse_for
pub fn check_for(text: &str, current: Option<Shape>) -> Result<Vec<Checked>, SgfError> {
    let c = collection(text, false)?;
    let mut work = 0usize;
    let mut out = Vec::with_capacity(c.games.len());
    for g in 0..c.games.len() {
        let mut main = None;
        let mut adjudicated = None;
        let variations = each_line(text, &c, g, current, &mut work, |_, line| {
            let (record, game) = line?;
            if main.is_none() {
                if let Some(re) = record.get("RE") {
                    let mut outcome = match game.position().status() {
                        Status::Over(o) => Some(o),
                        _ => None,
                    };
                    if outcome.is_none()
                        && let Some(adj) = record.get(super::ADJUDICATION_PROPERTY)
                    {
                        outcome = adjudication(adj, &game)
                            .map_err(|e| wrap(text, &c, g, None, None, e))?;
                        adjudicated = Some(outcome.is_some());
                    }
                    if adjudicated != Some(false) {
                        check_result(re.trim(), outcome)
                            .map_err(|e| wrap(text, &c, g, None, None, e))?;
                    }
                }
                main = Some((record, game));
            }
            Ok(())
        })?;
        if let Some((record, game)) = main {
            out.push(Checked {
                record,
                game,
                variations,
                adjudicated,
            });
        }
    }
    Ok(out)
}

/// Every line of play of the first game of a record, in the order of the file (the main line first), each as its
/// record (its own nodes' properties) and replayed through the rules, or with the reason it cannot be (which
/// variation, where its move is, and why), and the number of games in the record. The board is read as
/// [`parse_for`] reads it.
///
/// # Errors
/// [`SgfError::Syntax`] for text that is not SGF, and [`SgfError::Unsupported`] for a tree with more nodes to
/// replay than [`MAX_CHECKED_NODES`].
///
/// [`parse_for`]: super::parse_for
pub fn lines_for(text: &str, current: Option<Shape>) -> Result<LinesOf, SgfError> {
    let c = collection(text, false)?;
    let mut lines = Vec::new();
    each_line(text, &c, 0, current, &mut 0, |_, line| {
        lines.push(line);
        Ok(())
    })?;
    Ok((lines, c.games.len()))
}

/// The lines of a record's first game ([`lines_for`]) and the number of games.
pub type LinesOf = (Vec<Result<(Record, Game), SgfError>>, usize);

/// `error` placed in game `g` of the collection: its variation (from 1, when it has several) and the line and
/// column of node `at`; alone when the record has one game of one line.
fn wrap(
    text: &str,
    c: &Collection,
    g: usize,
    variation: Option<usize>,
    at: Option<usize>,
    error: SgfError,
) -> SgfError {
    let games = c.games.len();
    let lines = leaves(c, c.games[g]);
    if games == 1 && lines == 1 {
        return error;
    }
    SgfError::In {
        game: g + 1,
        games,
        variation: variation.filter(|_| lines > 1),
        at: at.map(|n| line_column(text, c.nodes[n].at)),
        error: Box::new(error),
    }
}

/// Reads and replays every line of game `g`, depth first with the first variations first, handing each to `f`
/// with its number (from 1) as its record and game, or its error placed by [`wrap`]; `work` counts the nodes
/// replayed (a variation's shared nodes once for each). Returns the number of lines.
///
/// # Errors
/// The first error `f` returns, and [`SgfError::Unsupported`] once `work` passes [`MAX_CHECKED_NODES`].
fn each_line(
    text: &str,
    c: &Collection,
    g: usize,
    current: Option<Shape>,
    work: &mut usize,
    mut f: impl FnMut(usize, Result<(Record, Game), SgfError>) -> Result<(), SgfError>,
) -> Result<usize, SgfError> {
    let mut variation = 0;
    // `path` holds the nodes from the root to the node at hand.
    let mut path: Vec<usize> = Vec::new();
    let mut stack = vec![(c.games[g], 0)];
    while let Some((n, depth)) = stack.pop() {
        path.truncate(depth);
        path.push(n);
        let children = &c.nodes[n].children;
        if !children.is_empty() {
            stack.extend(children.iter().rev().map(|&k| (k, depth + 1)));
            continue;
        }
        variation += 1;
        *work += path.len();
        if *work > MAX_CHECKED_NODES {
            return Err(wrap(
                text,
                c,
                g,
                Some(variation),
                None,
                SgfError::Unsupported(format!(
                    "too many variations: checking them all means replaying more than {MAX_CHECKED_NODES} nodes"
                )),
            ));
        }
        let line = record_of(path.iter().map(|&n| &c.nodes[n].props), current)
            .map_err(|e| wrap(text, c, g, Some(variation), None, e))
            .and_then(|record| match replay(&record, None) {
                Ok(game) => Ok((record, game)),
                Err(e) => {
                    let at = match e {
                        SgfError::Illegal { number, .. } | SgfError::Turn { number, .. } => {
                            move_node(c, &path, number)
                        }
                        _ => None,
                    };
                    Err(wrap(text, c, g, Some(variation), at, e))
                }
            });
        f(variation, line)?;
    }
    Ok(variation)
}

/// The number of lines of play (leaves) in the tree from node `root`.
fn leaves(c: &Collection, root: usize) -> usize {
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let children = &c.nodes[n].children;
        if children.is_empty() {
            count += 1;
        }
        stack.extend(children);
    }
    count
}

/// The node of `path` that holds move `number` (from 1).
fn move_node(c: &Collection, path: &[usize], number: usize) -> Option<usize> {
    let mut seen = 0;
    path.iter().copied().find(|&n| {
        seen += c.nodes[n]
            .props
            .iter()
            .filter(|(k, _)| k == "B" || k == "W")
            .count();
        seen >= number
    })
}

/// The result of an adjudicated game (`OUSTADJ[solver N]`, N the moves played when the solver proved it), as the
/// solver proves it again at the end of the record's line: the outcome to hold `RE` against, or `None` when it
/// cannot be proven within [`ADJUDICATION_RECHECK_NODES`] (`RE` is then taken as it stands).
///
/// # Errors
/// [`SgfError::WrongResult`] when the property is not `solver N` with N the moves of the line.
fn adjudication(value: &str, game: &Game) -> Result<Option<Outcome>, SgfError> {
    let moves = game.records().len();
    let n = value
        .trim()
        .strip_prefix("solver ")
        .and_then(|n| n.trim().parse::<usize>().ok());
    if n != Some(moves) {
        return Err(SgfError::WrongResult(format!(
            "{}[{value}] must be 'solver N', N the moves played ({moves})",
            super::ADJUDICATION_PROPERTY
        )));
    }
    let options = crate::solve::Options {
        exact_distance: false,
        ..crate::solve::Options::default()
    };
    let pos = game.position();
    let report = crate::solve::Solver::new(options).ok().and_then(|mut s| {
        let limits = crate::solve::Limits {
            deadline: None,
            nodes: Some(ADJUDICATION_RECHECK_NODES),
            stop: None,
        };
        s.solve(pos, &limits, &mut |_| {}).ok()
    });
    Ok(report
        .and_then(|r| r.value)
        .map(|v| v.outcome(pos.to_move())))
}

fn check_result(re: &str, outcome: Option<Outcome>) -> Result<(), SgfError> {
    let played = outcome.map_or_else(
        || "the game is unfinished".to_string(),
        |o| format!("the moves end the game {}", o.describe()),
    );
    let upper = re.to_ascii_uppercase();
    let claimed = match upper.as_str() {
        "" | "?" | "VOID" => return Ok(()),
        "B+" => Some(Outcome::Win(Color::Black)),
        "W+" => Some(Outcome::Win(Color::White)),
        "0" | "DRAW" => Some(Outcome::Draw),
        _ => None,
    };
    if let Some(claimed) = claimed {
        // A draw is also what players agree before the end (Abstract Play's `draw`).
        return if outcome == Some(claimed) || (claimed == Outcome::Draw && outcome.is_none()) {
            Ok(())
        } else {
            Err(SgfError::WrongResult(format!("RE[{re}] but {played}")))
        };
    }
    let off_board = ["R", "RESIGN", "T", "TIME", "F", "FORFEIT"];
    let decided_off_board = ["B+", "W+"].iter().any(|p| {
        upper
            .strip_prefix(p)
            .is_some_and(|rest| off_board.contains(&rest))
    });
    match (decided_off_board, outcome) {
        // After a game over without a winner (ruling 8) a game can still be decided off the board: Abstract Play,
        // which has no such ruling, asks both players to pass until one resigns or runs out of time.
        (true, None | Some(Outcome::Draw)) => Ok(()),
        (true, Some(_)) => Err(SgfError::WrongResult(format!(
            "RE[{re}] (decided off the board) but {played}"
        ))),
        (false, _) => Err(SgfError::WrongResult(format!(
            "RE[{re}] is not an Oust result: use B+, W+ or 0, or B+R, W+T, B+F and the like"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checking_every_variation_has_a_bound() {
        // 5000 nodes in a line, each with a side variation: replaying every variation from the root means
        // about 12.5 million nodes.
        let n = 5000;
        let text = format!(
            "(;SZ[5]{})",
            "(;C[side])(;C[main]".repeat(n) + &")".repeat(n)
        );
        let err = check(&text).unwrap_err().to_string();
        assert!(
            err.ends_with(&format!(
                "unsupported SGF record: too many variations: checking them all means replaying more than \
                 {MAX_CHECKED_NODES} nodes"
            )),
            "{err}"
        );
    }
}
