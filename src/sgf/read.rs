//! Reading a record's main line (from text, or from a file with a size cap) and replaying it through the rules.

use std::borrow::Cow;
use std::io::Read as _;
use std::path::Path;

use crate::notation::move_name;
use crate::rules::{Color, Game, Geometry, Move, Position, Shape, Status};

use super::syntax::{Node, Record, SgfError, collection};
use super::write::{HEX_PROPERTY, PIE_RULES, RULES_PROPERTY, SWAP_VALUE};

/// Reads the main line of the first game of an SGF collection.
///
/// # Errors
/// [`SgfError::Syntax`] for text that is not SGF (saying where), [`SgfError::Unsupported`] for records of another
/// game, of an unsupported size, or with set-up after the first move.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    parse_for(text, None)
}

/// [`parse`] for an engine whose board is `current` (or for the board a user names, as `--size hex7`): when that
/// is a hexhex board, a record with `SZ[2S-1]` and no `HX` is read as that hexhex board, whichever program wrote
/// it. GoGui saves the games of its hexagonal boards that way, with `SZ` alone; oust writes `HX`, but a record
/// that lost it (or was written by another program under oust's `AP`) is read as the board asked for, not guessed
/// square. A record's own `HX`, or an `SZ` of another size, wins over `current`: [`board_note`] says so.
///
/// # Errors
/// As [`parse`].
pub fn parse_for(text: &str, current: Option<Shape>) -> Result<Record, SgfError> {
    let c = collection(text, true)?;
    record_of(c.main_line(c.games[0]).map(|n| &c.nodes[n].props), current)
}

/// The record of one line of play: `nodes` from a game's root to the end of the line.
pub(super) fn record_of<'n>(
    nodes: impl Iterator<Item = &'n Node>,
    current: Option<Shape>,
) -> Result<Record, SgfError> {
    let mut size: Option<(usize, usize)> = None;
    let mut hex_side: Option<usize> = None;
    let mut to_move = None;
    let mut turns = Vec::new();
    let mut info = Vec::new();
    let mut raw_moves: Vec<(Color, String)> = Vec::new();
    let mut raw_setup: Vec<(Color, String)> = Vec::new();
    let mut node_info = Vec::new();
    for (n, node) in nodes.enumerate() {
        let mut node_pl = None;
        let mut node_extra = Vec::new();
        for (key, values) in node {
            match key.as_str() {
                "SZ" => {
                    let v = values[0].trim();
                    let parsed = match v.split_once(':') {
                        Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
                        None => v.parse().ok().map(|s| (s, s)),
                    };
                    size = Some(
                        parsed.ok_or_else(|| SgfError::Syntax(format!("SZ[{v}] is not a size")))?,
                    );
                }
                HEX_PROPERTY if n == 0 => {
                    let v = values[0].trim();
                    hex_side = Some(v.parse().map_err(|_| {
                        SgfError::Syntax(format!(
                            "{HEX_PROPERTY}[{v}] is not the side of a hexhex board"
                        ))
                    })?);
                }
                "GM" if values[0].trim() != "1" => {
                    return Err(SgfError::Unsupported(format!(
                        "GM[{}]: only GM[1] records are read",
                        values[0]
                    )));
                }
                "AB" | "AW" | "AE" if n > 0 && !raw_moves.is_empty() => {
                    return Err(SgfError::Unsupported(format!("{key} after the first move")));
                }
                "AB" | "AW" => {
                    let color = if key == "AB" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    raw_setup.extend(values.iter().map(|v| (color, v.clone())));
                }
                "PL" => {
                    node_pl = match values[0].trim().to_ascii_uppercase().as_str() {
                        "B" | "BLACK" => Some(Color::Black),
                        "W" | "WHITE" => Some(Color::White),
                        other => {
                            return Err(SgfError::Syntax(format!("PL[{other}] is not a colour")));
                        }
                    }
                }
                "B" | "W" => {
                    let color = if key == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    raw_moves.push((color, values[0].trim().to_string()));
                }
                _ if n == 0 => info.push((key.clone(), values[0].clone())),
                _ => node_extra.push((key.clone(), values[0].clone())),
            }
        }
        node_info.extend(node_extra.into_iter().map(|(k, v)| (raw_moves.len(), k, v)));
        // A PL before any move sets up the side to move; after moves (in the same node as a move, as GoGui
        // writes it, or later) it states who is to move after them.
        if let Some(c) = node_pl {
            if raw_moves.is_empty() {
                to_move = Some(c);
            } else {
                turns.push((raw_moves.len(), c));
            }
        }
    }
    let board = board_of(size, hex_side, current)?;
    let geo = Geometry::shared(board).map_err(|e| SgfError::Unsupported(e.to_string()))?;
    let mut setup = Vec::new();
    for (color, v) in raw_setup {
        for p in geo.sgf_points(&v).map_err(SgfError::Syntax)? {
            setup.push((color, p));
        }
    }
    let mut moves = Vec::new();
    for (color, v) in raw_moves {
        let mv = if v.is_empty() || (v == "tt" && geo.sgf_tt_is_pass()) {
            Move::Pass
        } else if v.eq_ignore_ascii_case(SWAP_VALUE) {
            Move::Swap
        } else {
            Move::Place(geo.sgf_point(&v).map_err(SgfError::Syntax)?)
        };
        moves.push((color, mv));
    }
    let pie = moves.iter().any(|&(_, mv)| mv == Move::Swap)
        || info.iter().any(|(k, v)| {
            k == RULES_PROPERTY
                && v.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w.eq_ignore_ascii_case(PIE_RULES))
        });
    Ok(Record {
        board,
        setup,
        to_move,
        moves,
        turns,
        info,
        node_info,
        pie,
    })
}

/// When a record read for the board `asked` (`--size`, or the engine's board) is on another one, read from its own
/// `SZ` and `HX`: a sentence that says which board was used, such as `read as the record's own board, hex6 (from
/// its SZ and HX)`, for the caller to say what it was asked (`not as --size hex7`).
pub fn board_note(record: &Record, asked: Shape) -> Option<String> {
    (record.board != asked).then(|| {
        format!(
            "read as the record's own board, {} (from its SZ and HX)",
            record.board.name()
        )
    })
}

/// The board of a record from its `SZ` and `HX` (see [`parse_for`] for `current`).
fn board_of(
    size: Option<(usize, usize)>,
    hex_side: Option<usize>,
    current: Option<Shape>,
) -> Result<Shape, SgfError> {
    match (size, hex_side) {
        (_, Some(side)) => {
            let board = Shape::Hex { side };
            match size {
                Some(sz) if sz != board.extent() => Err(SgfError::Unsupported(format!(
                    "{HEX_PROPERTY}[{side}] needs SZ[{}], the record has SZ[{}:{}]",
                    board.extent().0,
                    sz.0,
                    sz.1
                ))),
                _ => Ok(board),
            }
        }
        (Some((w, h)), None) => Ok(match current {
            Some(board) if board.is_hex() && board.extent() == (w, h) => {
                log::info!(
                    "SGF record with SZ[{w}] and no {HEX_PROPERTY} read as the {board} board"
                );
                board
            }
            _ => Shape::Rect {
                width: w,
                height: h,
            },
        }),
        (None, None) => {
            log::info!("SGF record without SZ: assuming 19x19");
            Ok(Shape::square(19))
        }
    }
}

/// Replays the first `limit` moves of `record` (all when `None`) through the rules, checking the sides to move
/// that the record states ([`Record::turns`]) while the game is on.
///
/// # Errors
/// [`SgfError::Illegal`] with the number of the first illegal move, [`SgfError::Turn`] for a stated side to
/// move the rules disagree with.
pub fn replay(record: &Record, limit: Option<usize>) -> Result<Game, SgfError> {
    let geo = Geometry::shared(record.board).map_err(|e| SgfError::Unsupported(e.to_string()))?;
    let mut game = if record.setup.is_empty() && record.to_move.is_none() {
        Game::new(geo.clone())
    } else {
        let mut stones = vec![None; geo.len()];
        for &(c, p) in &record.setup {
            stones[p.index()] = Some(c);
        }
        Game::from_position(Position::setup(
            geo.clone(),
            &stones,
            record.to_move.unwrap_or(Color::Black),
            false,
        ))
    };
    game.set_pie(record.pie)
        .expect("a game without moves has no swap");
    // The stated sides in the order of their moves (a parsed record has them so already; the sort is stable, so
    // the statements about one move keep their order), walked once alongside the moves.
    let turns: Cow<[(usize, Color)]> = if record.turns.is_sorted_by_key(|&(n, _)| n) {
        Cow::Borrowed(&record.turns)
    } else {
        let mut turns = record.turns.clone();
        turns.sort_by_key(|&(n, _)| n);
        Cow::Owned(turns)
    };
    let mut turns = turns.iter().peekable();
    for (i, &(color, mv)) in record
        .moves
        .iter()
        .take(limit.unwrap_or(usize::MAX))
        .enumerate()
    {
        game.play(color, mv).map_err(|error| SgfError::Illegal {
            number: i + 1,
            color,
            vertex: move_name(&geo, mv),
            error,
        })?;
        let pos = game.position();
        while turns.next_if(|&&(n, _)| n < i + 1).is_some() {}
        while let Some(&(_, stated)) = turns.next_if(|&&(n, _)| n == i + 1) {
            if !matches!(pos.status(), Status::Over(_)) && stated != pos.to_move() {
                return Err(SgfError::Turn {
                    number: i + 1,
                    stated,
                    actual: pos.to_move(),
                    extra_turn: pos.extra_turn(),
                });
            }
        }
    }
    Ok(game)
}

/// Largest record file [`read_file`] reads, in bytes: far more than any Oust game needs.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a record file. Bytes that are not UTF-8 (FF[3] files are often Latin-1) become U+FFFD, which can only
/// matter inside text values such as comments, never in moves.
///
/// # Errors
/// I/O errors, and `InvalidData` for a file larger than [`MAX_FILE_BYTES`].
pub fn read_file(path: &Path) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {MAX_FILE_BYTES} bytes, which no game record is"),
        ));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn illegal_moves_are_refused_with_their_number() {
        let text = "(;FF[4]GM[1]SZ[5];B[aa];W[bb];W[cc])";
        let err = replay(&parse(text).unwrap(), None).unwrap_err();
        match &err {
            SgfError::Illegal {
                number: 3,
                color: Color::White,
                vertex,
                ..
            } => assert_eq!(vertex, "C3"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            err.to_string(),
            "move 3 (white C3) is illegal: black is to move: white's placement did not capture"
        );
        // A limit stops before the bad move.
        assert_eq!(
            replay(&parse(text).unwrap(), Some(2))
                .unwrap()
                .records()
                .len(),
            2
        );
    }

    #[test]
    fn variations_comments_and_passes() {
        let text = "junk before (;GM[1]FF[4]SZ[3]C[a comment with \\] and\\\nline]\n ;B[aa] (;W[cc];B[]) (;W[bb]))";
        let record = parse(text).unwrap();
        let geo = Geometry::new(record.board).unwrap();
        let moves: Vec<(Color, String)> = record
            .moves
            .iter()
            .map(|&(c, mv)| (c, move_name(&geo, mv)))
            .collect();
        assert_eq!(
            moves,
            vec![
                (Color::Black, "A3".to_string()),
                (Color::White, "C1".to_string()),
                (Color::Black, "pass".to_string())
            ]
        );
        assert_eq!(record.get("C"), Some("a comment with ] andline"));
    }

    #[test]
    fn pl_before_the_moves_sets_up_after_them_states_the_turn() {
        // GoGui writes the side to move after each move in the move's node; property order does not matter.
        let text = "(;FF[4]SZ[4:2]AB[aa]AW[ba][db]PL[B];B[ab]PL[B];PL[B]W[cb];C[no move]PL[W])";
        let record = parse(text).unwrap();
        assert_eq!(record.to_move, Some(Color::Black));
        assert_eq!(
            record.turns,
            vec![(1, Color::Black), (2, Color::Black), (2, Color::White)]
        );
        // Move 2 is a white move while Black has an extra turn: illegal before any PL is looked at.
        assert!(matches!(
            replay(&record, None),
            Err(SgfError::Illegal { number: 2, .. })
        ));
        // After Black A1 captures B2 (White keeps D1), Black is to move again: PL[W] there is wrong.
        let err = replay(
            &parse("(;SZ[4:2]AB[aa]AW[ba][db];B[ab]PL[W])").unwrap(),
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "after move 1 the record says white is to move (PL), but by the rules black is (extra turn after a capture)"
        );
        // Once the game is over the stated side is not checked (GoGui asks its ruler anyway).
        assert!(replay(&parse("(;SZ[4:2]AB[aa]AW[ba];B[ab]PL[W])").unwrap(), None).is_ok());
    }

    #[test]
    fn a_long_record_stating_every_turn_replays_and_its_turns_are_checked() {
        // A random game of hundreds of moves with a PL after every move, as GoGui writes it: replay walks the
        // stated sides alongside the moves (it used to scan all of them for each move).
        let geo = Arc::new(Geometry::square(19).unwrap());
        let mut game = Game::new(geo);
        let mut rng = crate::rng::Rng::new(5);
        let mut record = Record {
            board: Shape::square(19),
            setup: Vec::new(),
            to_move: None,
            moves: Vec::new(),
            turns: Vec::new(),
            info: Vec::new(),
            node_info: Vec::new(),
            pie: false,
        };
        loop {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let (color, mv) = (game.position().to_move(), moves[rng.below(moves.len())]);
            game.play(color, mv).unwrap();
            record.moves.push((color, mv));
            record
                .turns
                .push((record.moves.len(), game.position().to_move()));
        }
        let len = record.moves.len();
        assert!(len > 300, "{len} moves");
        assert_eq!(replay(&record, None).unwrap().position(), game.position());
        // A wrong side in the middle is found at its move, and only the moves up to the limit are checked.
        let wrong = len / 2;
        let (_, side) = record.turns[wrong - 1];
        record.turns[wrong - 1].1 = side.opponent();
        let turn_error = |record: &Record| match replay(record, None) {
            Err(SgfError::Turn { number, stated, .. }) => (number, stated),
            other => panic!("{other:?}"),
        };
        assert_eq!(turn_error(&record), (wrong, side.opponent()));
        assert!(replay(&record, Some(wrong - 1)).is_ok());
        // Statements in another order (a record built by hand) are checked as in move order.
        record.turns.reverse();
        record.turns.push((wrong, side));
        assert_eq!(turn_error(&record), (wrong, side.opponent()));
        record.turns.retain(|&(n, c)| !(n == wrong && c != side));
        assert_eq!(replay(&record, None).unwrap().position(), game.position());
    }

    #[test]
    fn bad_records() {
        assert!(matches!(parse("hello"), Err(SgfError::Syntax(_))));
        assert!(matches!(
            parse("(;GM[2]SZ[9])"),
            Err(SgfError::Unsupported(_))
        ));
        assert!(matches!(parse("(;SZ[30])"), Err(SgfError::Unsupported(_))));
        assert!(matches!(parse("(;SZ[5];B[zz])"), Err(SgfError::Syntax(_))));
        assert!(matches!(parse("(;SZ[5];B[aa]"), Err(SgfError::Syntax(_))));
    }
}
