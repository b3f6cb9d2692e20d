//! SGF (FF[4]) records of Oust games: writing a game, reading a record's main line, and replaying it through the
//! rules, which refuse any illegal move with its number. Extra turns are consecutive moves of one colour.
//! [`check`] validates a whole record, result included. This module works on text, apart from [`read_file`],
//! which reads a record file with a size cap.
//!
//! Points are written as Go's SGF writes them (the geometry's [`Geometry::sgf_coord`]). A hexhex board of side S
//! is recorded as `SZ[2S-1]`, the rhombus GoGui draws it on, with the private root property `HX[S]`, since `SZ`
//! alone cannot tell hex side 7 from square 13.

use std::fmt::{self, Write as _};
use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;

use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, multispace0};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, preceded, terminated};
use nom::{IResult, Parser};

use crate::notation::move_name;
use crate::rules::{
    Color, Game, Geometry, IllegalMove, Move, Outcome, Point, Position, Shape, Status,
};

/// Root information written with a game.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// Result (`RE`) when it is not the game's own (a forfeit, say); otherwise taken from the final position.
    pub result: Option<String>,
    /// Root comment (`C`).
    pub comment: Option<String>,
    /// Date (`DT`), as `YYYY-MM-DD`.
    pub date: Option<String>,
}

/// Escapes an SGF text value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF text of `game`, with `info` in the root node.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let start = game.start();
    let geo = start.geometry();
    let (w, h) = geo.dimensions();
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    let _ = write!(out, "AP[oust:{}]", env!("CARGO_PKG_VERSION"));
    if w == h {
        let _ = write!(out, "SZ[{w}]");
    } else {
        let _ = write!(out, "SZ[{w}:{h}]");
    }
    if let Shape::Hex { side } = geo.shape() {
        let _ = write!(out, "{HEX_PROPERTY}[{side}]");
    }
    let _ = write!(out, "GN[Oust]");
    for (key, value) in [("PB", &info.black), ("PW", &info.white), ("DT", &info.date)] {
        if let Some(v) = value {
            let _ = write!(out, "{key}[{}]", escape(v));
        }
    }
    let result = info
        .result
        .clone()
        .or_else(|| match game.position().status() {
            Status::Over(o) => Some(o.code().to_string()),
            _ => None,
        });
    if let Some(r) = result {
        let _ = write!(out, "RE[{}]", escape(&r));
    }
    if let Some(c) = &info.comment {
        let _ = write!(out, "C[{}]", escape(c));
    }
    for (key, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<String> = geo
            .points()
            .filter(|&p| start.color_at(p) == Some(color))
            .map(|p| format!("[{}]", geo.sgf_coord(p)))
            .collect();
        if !stones.is_empty() {
            let _ = write!(out, "{key}{}", stones.concat());
        }
    }
    if !stones_empty(start) || start.to_move() != Color::Black {
        let _ = write!(
            out,
            "PL[{}]",
            if start.to_move() == Color::Black {
                'B'
            } else {
                'W'
            }
        );
    }
    for (i, record) in game.records().iter().enumerate() {
        if i % 8 == 0 {
            out.push('\n');
        }
        let key = if record.color == Color::Black {
            'B'
        } else {
            'W'
        };
        let value = match record.mv {
            Move::Place(p) => geo.sgf_coord(p),
            Move::Pass => String::new(),
        };
        let _ = write!(out, ";{key}[{value}]");
    }
    out.push_str(")\n");
    out
}

fn stones_empty(pos: &Position) -> bool {
    pos.stone_count(Color::Black) + pos.stone_count(Color::White) == 0
}

/// The private root property that marks a hexhex board: `HX[S]` for side S, with `SZ[2S-1]`.
pub const HEX_PROPERTY: &str = "HX";

/// The main line of an SGF record, as far as Oust needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The board (`SZ`, and `HX` for a hexhex board).
    pub board: Shape,
    /// Set-up stones (`AB`, `AW` of the root), as points of the board.
    pub setup: Vec<(Color, Point)>,
    /// Side to move after set-up (`PL` before the first move).
    pub to_move: Option<Color>,
    /// The moves in order, with their colours.
    pub moves: Vec<(Color, Move)>,
    /// Sides to move stated after moves: `(n, colour)` for a `PL` in the node of move `n` (from 1) or in a later
    /// node without a move. GoGui writes one in every move node; [`replay`] checks them against the rules.
    pub turns: Vec<(usize, Color)>,
    /// Other root properties, such as `PB`, `PW` and `RE`, with their first value.
    pub info: Vec<(String, String)>,
}

impl Record {
    /// The value of a root property such as `RE`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The text is not SGF.
    Syntax(String),
    /// SGF, but not an Oust game this engine can play (size, game type, property).
    Unsupported(String),
    /// Move `number` (from 1) is illegal.
    Illegal {
        /// The move's number in the record, from 1.
        number: usize,
        /// Who played it.
        color: Color,
        /// The vertex or `pass`.
        vertex: String,
        /// Why the rules refuse it.
        error: IllegalMove,
    },
    /// After move `number` the record says (with `PL`) that `stated` is to move, but the rules say `actual` is.
    Turn {
        /// The move's number in the record, from 1.
        number: usize,
        /// The side to move the record states.
        stated: Color,
        /// The side to move by the rules.
        actual: Color,
        /// True when `actual` moves again after a capture.
        extra_turn: bool,
    },
    /// The result (`RE`) disagrees with the game the moves play out.
    WrongResult(String),
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::Syntax(m) => write!(f, "not a valid SGF record: {m}"),
            SgfError::Unsupported(m) => write!(f, "unsupported SGF record: {m}"),
            SgfError::Illegal {
                number,
                color,
                vertex,
                error,
            } => {
                write!(f, "move {number} ({color} {vertex}) is illegal: {error}")
            }
            SgfError::Turn {
                number,
                stated,
                actual,
                extra_turn,
            } => {
                write!(
                    f,
                    "after move {number} the record says {stated} is to move (PL), but by the rules {actual} is"
                )?;
                if *extra_turn {
                    write!(f, " (extra turn after a capture)")?;
                }
                Ok(())
            }
            SgfError::WrongResult(m) => write!(f, "wrong result: {m}"),
        }
    }
}

impl std::error::Error for SgfError {}

type Res<'a, T> = IResult<&'a str, T>;
type Node = Vec<(String, Vec<String>)>;

/// `value := "[" (escaped character | any character but "]")* "]"`
fn prop_value(i: &str) -> Res<'_, String> {
    let (rest, _) = char('[').parse(i)?;
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ']' => return Ok((&rest[at + 1..], out)),
            '\\' => match chars.next() {
                Some((_, '\n')) => {}
                Some((_, e)) => out.push(e),
                None => break,
            },
            c => out.push(c),
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

/// `property := ident (value whitespace)+` where `ident` is upper-case letters (lower case ones of FF[3] are skipped)
fn property(i: &str) -> Res<'_, (String, Vec<String>)> {
    let (i, ident) =
        terminated(take_while1(|c: char| c.is_ascii_alphabetic()), multispace0).parse(i)?;
    let (i, values) = many1(terminated(prop_value, multispace0)).parse(i)?;
    let ident: String = ident.chars().filter(char::is_ascii_uppercase).collect();
    Ok((i, (ident, values)))
}

/// `node := ";" whitespace property*`
fn node(i: &str) -> Res<'_, Node> {
    preceded(terminated(char(';'), multispace0), many0(property)).parse(i)
}

/// Deepest nesting of game trees (variations within variations) read. The reader recurses once per level, so
/// deeper text is refused rather than allowed to exhaust the stack; real records nest a few levels.
pub const MAX_NESTING: usize = 1000;

/// `tree := "(" node+ tree* ")"`, flattened to its main line (the first variation at each branch); `depth` is the
/// number of trees around it.
fn tree(i: &str, depth: usize) -> Res<'_, Vec<Node>> {
    let (i, _) = terminated(char('('), multispace0).parse(i)?;
    if depth >= MAX_NESTING {
        return Err(nom::Err::Failure(nom::error::Error::new(
            i,
            nom::error::ErrorKind::TooLarge,
        )));
    }
    let (i, mut nodes) = many1(terminated(node, multispace0)).parse(i)?;
    let (i, children) = many0(terminated(|i| tree(i, depth + 1), multispace0)).parse(i)?;
    let (i, _) = terminated(char(')'), multispace0).parse(i)?;
    if let Some(first) = children.into_iter().next() {
        nodes.extend(first);
    }
    Ok((i, nodes))
}

/// `collection := whitespace tree` (only the first game is read); text before the first `(` is ignored
fn collection(i: &str) -> Res<'_, Vec<Node>> {
    preceded(
        take_while(|c| c != '('),
        delimited(multispace0, |i| tree(i, 0), multispace0),
    )
    .parse(i)
}

/// Reads the main line of the first game of an SGF collection.
///
/// # Errors
/// [`SgfError::Syntax`] for text that is not SGF, [`SgfError::Unsupported`] for records of another game, of an
/// unsupported size, or with set-up after the first move.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    parse_for(text, None)
}

/// [`parse`] for an engine whose board is `current`: when that is a hexhex board, a record with `SZ[2S-1]` and no
/// `HX` is read as that hexhex board. GoGui saves the games of its hexagonal boards that way, with `SZ` alone.
/// Records written by oust (`AP[oust:...]`) say `HX` for every hexhex board, so theirs are read as they say.
///
/// # Errors
/// As [`parse`].
pub fn parse_for(text: &str, current: Option<Shape>) -> Result<Record, SgfError> {
    let nodes = match collection(text) {
        Ok((_, nodes)) => nodes,
        Err(nom::Err::Failure(e)) if e.code == nom::error::ErrorKind::TooLarge => {
            return Err(SgfError::Unsupported(format!(
                "variations nested more than {MAX_NESTING} deep"
            )));
        }
        Err(_) => {
            return Err(SgfError::Syntax(
                "expected a game tree such as (;FF[4]SZ[9];B[dd])".into(),
            ));
        }
    };
    let mut size: Option<(usize, usize)> = None;
    let mut hex_side: Option<usize> = None;
    let mut to_move = None;
    let mut turns = Vec::new();
    let mut info = Vec::new();
    let mut raw_moves: Vec<(Color, String)> = Vec::new();
    let mut raw_setup: Vec<(Color, String)> = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        let mut node_pl = None;
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
                _ => {}
            }
        }
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
    // A square record of oust's own is square whatever board the reader is on (it would say HX otherwise).
    let by_oust = info
        .iter()
        .any(|(k, v)| k == "AP" && v.starts_with("oust:"));
    let board = board_of(size, hex_side, current.filter(|_| !by_oust))?;
    let geo = Geometry::new(board).map_err(|e| SgfError::Unsupported(e.to_string()))?;
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
        } else {
            Move::Place(geo.sgf_point(&v).map_err(SgfError::Syntax)?)
        };
        moves.push((color, mv));
    }
    Ok(Record {
        board,
        setup,
        to_move,
        moves,
        turns,
        info,
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
    let geo =
        Arc::new(Geometry::new(record.board).map_err(|e| SgfError::Unsupported(e.to_string()))?);
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
        let stated = record.turns.iter().filter(|&&(n, _)| n == i + 1);
        for &(_, stated) in stated {
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

/// Validates a whole record: it parses, every move is legal, and a result (`RE`) of `B+`, `W+`, `0` or `Draw`
/// is the one the moves reach. Results decided off the board (`B+R`, `W+Time`, `B+F`, ...) are accepted while
/// the game on the board is unfinished; `?`, `Void` and an empty `RE` state nothing and are accepted.
///
/// # Errors
/// The first problem found, as an [`SgfError`].
pub fn check(text: &str) -> Result<(Record, Game), SgfError> {
    check_for(text, None)
}

/// [`check`] with the board of [`parse_for`]: a record with `SZ[2S-1]` alone is read as the hexhex board
/// `current` when that is one.
///
/// # Errors
/// As [`check`].
pub fn check_for(text: &str, current: Option<Shape>) -> Result<(Record, Game), SgfError> {
    let record = parse_for(text, current)?;
    let game = replay(&record, None)?;
    let outcome = match game.position().status() {
        Status::Over(o) => Some(o),
        _ => None,
    };
    if let Some(re) = record.get("RE") {
        check_result(re.trim(), outcome)?;
    }
    Ok((record, game))
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
        return if outcome == Some(claimed) {
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
        (true, None) => Ok(()),
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

    fn play_all(game: &mut Game, moves: &[(usize, usize)]) {
        for &(x, y) in moves {
            let c = game.position().to_move();
            let p = game.position().geometry().point_at(x, y).unwrap();
            game.play(c, Move::Place(p)).unwrap();
        }
    }

    #[test]
    fn written_games_read_back_to_the_same_position() {
        let mut game = Game::new(Arc::new(Geometry::rect(7, 5).unwrap()));
        play_all(&mut game, &[(0, 0), (1, 1), (2, 2), (3, 3), (0, 1), (6, 4)]);
        let info = GameInfo {
            black: Some("a]b".into()),
            white: Some("w\\x".into()),
            ..GameInfo::default()
        };
        let text = write(&game, &info);
        assert!(text.starts_with("(;FF[4]GM[1]CA[UTF-8]"), "{text}");
        assert!(text.contains("SZ[7:5]"));
        assert!(text.contains("PB[a\\]b]PW[w\\\\x]"));
        let record = parse(&text).unwrap();
        assert_eq!(record.get("PB"), Some("a]b"));
        let back = replay(&record, None).unwrap();
        assert_eq!(back.position(), game.position());
        assert_eq!(back.records(), game.records());
    }

    #[test]
    fn hexhex_games_say_so_and_read_back() {
        let geo = Arc::new(Geometry::hex(3).unwrap());
        let mut game = Game::new(geo.clone());
        for name in ["C3", "E5", "A1", "C1", "E3"] {
            let c = game.position().to_move();
            let p = geo.parse_vertex(name).unwrap();
            game.play(c, Move::Place(p)).unwrap();
        }
        let text = write(&game, &GameInfo::default());
        assert!(text.contains("SZ[5]HX[3]"), "{text}");
        let record = parse(&text).unwrap();
        assert_eq!(record.board, Shape::Hex { side: 3 });
        let back = replay(&record, None).unwrap();
        assert_eq!(back.position(), game.position());
        // GoGui writes SZ alone: a square board, unless the reader is on the hexhex board of that rhombus.
        let gogui = text.replace("HX[3]", "").replace(
            &format!("AP[oust:{}]", env!("CARGO_PKG_VERSION")),
            "AP[GoGui:1.6.0]",
        );
        assert_eq!(parse(&gogui).unwrap().board, Shape::square(5));
        let on_hex = parse_for(&gogui, Some(Shape::Hex { side: 3 })).unwrap();
        assert_eq!(replay(&on_hex, None).unwrap().position(), game.position());
        assert_eq!(
            parse_for(&gogui, Some(Shape::Hex { side: 4 }))
                .unwrap()
                .board,
            Shape::square(5)
        );
        // A point of the rhombus off the hexagon, and a side that does not fit SZ.
        assert_eq!(
            parse("(;SZ[5]HX[3];B[aa])").unwrap_err().to_string(),
            "not a valid SGF record: [aa] is not a point of a hex3 board"
        );
        assert_eq!(
            parse("(;SZ[9]HX[3])").unwrap_err().to_string(),
            "unsupported SGF record: HX[3] needs SZ[5], the record has SZ[9:9]"
        );
        assert!(matches!(parse("(;HX[14])"), Err(SgfError::Unsupported(_))));
    }

    #[test]
    fn extra_turns_are_consecutive_moves_of_one_colour() {
        // Black A1 captures B2 (White's stones elsewhere keep the game going), then Black places again.
        let rows = [".....", ".....", ".....", "XO..O", "....."];
        let geo = Arc::new(Geometry::square(5).unwrap());
        let mut stones = vec![None; 25];
        for (r, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = geo.point_at(x, 4 - r).unwrap();
                stones[p.index()] = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
            }
        }
        let mut game = Game::from_position(Position::setup(geo, &stones, Color::Black, false));
        play_all(&mut game, &[(0, 2), (3, 3)]);
        let text = write(&game, &GameInfo::default());
        assert!(text.contains(";B[ac];B[db]"), "{text}");
        assert!(text.contains("AB[ad]AW[bd][ed]PL[B]"), "{text}");
        let back = replay(&parse(&text).unwrap(), None).unwrap();
        assert_eq!(back.position(), game.position());
    }

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
