//! Abstract Play's Oust records: its board variants, its turns (`d4,e5`: every placement of one turn, joined by
//! commas), its JSON game records (the "AP Game Record" schema: a header and rounds of moves) and plain turn
//! lists, one turn a line. A record is replayed turn by turn through the rules into a [`Game`], and a game is
//! written back as turns. Cell names are [`notation::cell_name`]'s. This module works on text only.
//!
//! The first player (seat 1 of Abstract Play) is Black. A capture that leaves its player no placement ends the
//! turn: the rules' forced pass in that extra turn is implied, since a turn of Abstract Play cannot write it.

use std::fmt;

use serde_json::Value;

use crate::notation::{self, CellError};
use crate::rules::{Color, Game, Geometry, IllegalMove, Move, Shape, Status};

/// The board Abstract Play plays when a record names no board variant.
pub const DEFAULT_BOARD: Shape = Shape::Hex { side: 7 };

/// The board of an Abstract Play variant: `hex-S` (hex-6, hex-7, hex-8 on the site; hex-7 is its default) or
/// `square-N` (square-11 on the site). Other sides of the same two forms are read too, as the engine plays them.
///
/// # Errors
/// A message for any other text, or a side the engine does not play.
pub fn parse_variant(text: &str) -> Result<Shape, String> {
    let t = text.trim().to_ascii_lowercase();
    let number = |s: &str| s.parse::<usize>().ok().filter(|_| !s.starts_with('+'));
    let shape = if let Some(side) = t.strip_prefix("hex-").and_then(number) {
        Shape::Hex { side }
    } else if let Some(size) = t.strip_prefix("square-").and_then(number) {
        Shape::square(size)
    } else {
        return Err(format!(
            "unknown Abstract Play board variant '{text}': expected hex-6, hex-7, hex-8 or square-11"
        ));
    };
    shape
        .checked()
        .map_err(|e| format!("board variant '{text}': {e}"))
}

/// The Abstract Play variant of a board, such as `hex-7`.
///
/// # Errors
/// A message for a rectangle that is not square: Abstract Play has none.
pub fn variant_name(board: Shape) -> Result<String, String> {
    match board {
        Shape::Hex { side } => Ok(format!("hex-{side}")),
        Shape::Rect { width, height } if width == height => Ok(format!("square-{width}")),
        Shape::Rect { .. } => Err(format!(
            "Abstract Play has no {board} board: only hexhex and square ones"
        )),
    }
}

/// One turn of a record, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The turn's text, such as `d4,e5` or `pass`.
    pub text: String,
    /// Where the record has it, for messages: `line 3` of a turn list, `round 2, seat 1` of a JSON record.
    pub place: String,
    /// The seat (0 first player, 1 second) the JSON record gives it, checked against the side to move.
    pub seat: Option<usize>,
}

/// An Abstract Play game as read, before it is replayed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApRecord {
    /// The board.
    pub board: Option<Shape>,
    /// The turns in order.
    pub turns: Vec<Turn>,
    /// The players' names, in seating order.
    pub players: [Option<String>; 2],
    /// The winners the record states (seats), when it states results.
    pub winners: Option<Vec<usize>>,
    /// The site's game identifier.
    pub game_id: Option<String>,
    /// The day the game ended, `YYYY-MM-DD`.
    pub date: Option<String>,
}

/// Why an Abstract Play record was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApError {
    /// The text is not JSON, or the JSON ended early.
    Json(String),
    /// JSON, but not an Abstract Play Oust record.
    Record(String),
    /// A turn the rules refuse, or that is not written as one turn.
    Turn {
        /// The turn's number, from 1.
        number: usize,
        /// Where the record has it.
        place: String,
        /// The turn as written.
        text: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ApError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApError::Json(m) => write!(f, "not a JSON game record: {m}"),
            ApError::Record(m) => write!(f, "{m}"),
            ApError::Turn {
                number,
                place,
                text,
                reason,
            } => write!(f, "turn {number} ('{text}', {place}): {reason}"),
        }
    }
}

impl std::error::Error for ApError {}

/// True when `text` looks like a JSON record rather than a turn list: its first non-blank character is `{`.
pub fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Reads a plain turn list: one turn a line (`d4,e5` or `pass`), blank lines and lines starting with `#` ignored.
pub fn parse_list(text: &str, board: Shape) -> ApRecord {
    let turns = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Turn {
            text: l.trim().to_string(),
            place: format!("line {}", i + 1),
            seat: None,
        })
        .collect();
    ApRecord {
        board: Some(board),
        turns,
        ..ApRecord::default()
    }
}

fn describe_json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Eof => "the JSON ends early, the file may be truncated".to_string(),
        _ => e.to_string(),
    };
    if what.contains(" at line ") {
        what
    } else {
        format!("{what} (at line {}, column {})", e.line(), e.column())
    }
}

/// Reads Abstract Play's JSON game record (the "AP Game Record" schema): `header.game` must name Oust, its board
/// variant (none: [`DEFAULT_BOARD`]) comes from `header.game.variants`, the players and results from
/// `header.players`, and the turns from `moves`, rounds of one entry per seat (a string, an object with `move`,
/// or `null` for a seat that did not play the round).
///
/// # Errors
/// [`ApError::Json`] for text that is not JSON, [`ApError::Record`] for JSON that is not an Oust record.
pub fn parse_json(text: &str) -> Result<ApRecord, ApError> {
    let root: Value =
        serde_json::from_str(text).map_err(|e| ApError::Json(describe_json_error(&e)))?;
    let bad = |m: &str| ApError::Record(format!("not an Abstract Play Oust record: {m}"));
    let header = root
        .get("header")
        .filter(|h| h.is_object())
        .ok_or_else(|| bad("no \"header\" object"))?;
    let game = header
        .get("game")
        .ok_or_else(|| bad("no \"game\" in the header"))?;
    let name = game
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("the header's game has no name"))?;
    if !name.eq_ignore_ascii_case("oust") {
        return Err(ApError::Record(format!(
            "the record is a game of '{name}', not Oust"
        )));
    }
    let mut board = DEFAULT_BOARD;
    match game.get("variants") {
        None | Some(Value::Null) => {}
        Some(Value::Array(variants)) => {
            for v in variants {
                let v = v
                    .as_str()
                    .ok_or_else(|| bad("a variant that is not a string"))?;
                if v.starts_with("hex-") || v.starts_with("square-") {
                    board = parse_variant(v).map_err(ApError::Record)?;
                } else {
                    return Err(ApError::Record(format!(
                        "unknown Abstract Play variant '{v}': oust reads only the board variants"
                    )));
                }
            }
        }
        Some(_) => return Err(bad("\"variants\" is not a list")),
    }
    let mut record = ApRecord {
        board: Some(board),
        ..ApRecord::default()
    };
    if let Some(players) = header.get("players") {
        let players = players
            .as_array()
            .ok_or_else(|| bad("\"players\" is not a list"))?;
        if players.len() != 2 {
            return Err(bad(&format!(
                "Oust has two players, the record lists {}",
                players.len()
            )));
        }
        let mut results = Vec::new();
        for (seat, p) in players.iter().enumerate() {
            record.players[seat] = p.get("name").and_then(Value::as_str).map(str::to_string);
            results.push(p.get("result").and_then(Value::as_i64));
        }
        if let [Some(a), Some(b)] = results[..] {
            record.winners = Some(match a.cmp(&b) {
                std::cmp::Ordering::Greater => vec![0],
                std::cmp::Ordering::Less => vec![1],
                std::cmp::Ordering::Equal => vec![0, 1],
            });
        }
    }
    if let Some(site) = header.get("site") {
        record.game_id = match site.get("gameid") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
    }
    record.date = header
        .get("date-end")
        .and_then(Value::as_str)
        .and_then(|d| d.get(..10))
        .filter(|d| {
            d.bytes().enumerate().all(|(i, b)| {
                if i == 4 || i == 7 {
                    b == b'-'
                } else {
                    b.is_ascii_digit()
                }
            })
        })
        .map(str::to_string);
    let rounds = root
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no \"moves\" list"))?;
    for (r, round) in rounds.iter().enumerate() {
        let entries = round
            .as_array()
            .ok_or_else(|| bad(&format!("round {} of \"moves\" is not a list", r + 1)))?;
        if entries.len() > 2 {
            return Err(bad(&format!(
                "round {} of \"moves\" has {} entries, one per seat of two",
                r + 1,
                entries.len()
            )));
        }
        for (seat, entry) in entries.iter().enumerate() {
            let text = match entry {
                Value::Null => continue,
                Value::String(s) => s.clone(),
                Value::Object(o) => match o.get("move") {
                    Some(Value::String(s)) => s.clone(),
                    _ => {
                        return Err(bad(&format!(
                            "round {}, seat {}: an entry without a \"move\" string",
                            r + 1,
                            seat + 1
                        )));
                    }
                },
                _ => {
                    return Err(bad(&format!(
                        "round {}, seat {}: a move that is neither a string nor an object",
                        r + 1,
                        seat + 1
                    )));
                }
            };
            record.turns.push(Turn {
                text,
                place: format!("round {}, seat {}", r + 1, seat + 1),
                seat: Some(seat),
            });
        }
    }
    Ok(record)
}

/// Reads either form: a JSON record when the text starts with `{`, otherwise a turn list on `board` (the JSON
/// record names its own board).
///
/// # Errors
/// As [`parse_json`].
pub fn parse(text: &str, board: Shape) -> Result<ApRecord, ApError> {
    if is_json(text) {
        parse_json(text)
    } else {
        Ok(parse_list(text, board))
    }
}

fn seat_color(seat: usize) -> Color {
    if seat == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn describe_illegal(cell: &str, e: &IllegalMove) -> String {
    format!("{cell} is illegal: {e}")
}

fn outcome_text(game: &Game) -> String {
    match game.position().status() {
        Status::Over(o) => o.describe(),
        _ => "the game is unfinished".to_string(),
    }
}

/// Replays `record` turn by turn through the rules.
///
/// # Errors
/// [`ApError::Turn`] for the first turn that is illegal, that places again after a non-capturing placement, that
/// stops after a capture when its player must place again, that comes after the end, or whose seat is not the
/// side to move; [`ApError::Record`] for a board the engine does not play.
pub fn replay(record: &ApRecord) -> Result<Game, ApError> {
    let board = record.board.unwrap_or(DEFAULT_BOARD);
    let geo = Geometry::shared(board).map_err(|e| ApError::Record(e.to_string()))?;
    let mut game = Game::new(geo.clone());
    // After a swap (the pie rule) the seats exchange colours.
    let mut swapped = false;
    for (i, turn) in record.turns.iter().enumerate() {
        let fail = |reason: String| ApError::Turn {
            number: i + 1,
            place: turn.place.clone(),
            text: turn.text.clone(),
            reason,
        };
        let color = game.position().to_move();
        if let Status::Over(outcome) = game.position().status() {
            return Err(fail(format!(
                "the game is already over: {}",
                outcome.describe()
            )));
        }
        if let Some(seat) = turn.seat
            && (seat_color(seat) != color) != swapped
        {
            return Err(fail(format!(
                "it is in seat {}'s place, but {color} (seat {}) is to move",
                seat + 1,
                if (color == Color::Black) != swapped {
                    1
                } else {
                    2
                }
            )));
        }
        let text: String = turn
            .text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if text == "pass" {
            game.play(color, Move::Pass)
                .map_err(|e| fail(format!("pass is illegal: {e}")))?;
            continue;
        }
        if text == notation::SWAP {
            // A swap turn says the game was played with the pie rule.
            game.set_pie(true).map_err(|e| fail(e.to_string()))?;
            game.play(color, Move::Swap)
                .map_err(|e| fail(e.to_string()))?;
            swapped = true;
            continue;
        }
        if text.is_empty() {
            return Err(fail("an empty turn".to_string()));
        }
        let cells: Vec<&str> = text.split(',').collect();
        for (k, cell) in cells.iter().enumerate() {
            if cell.is_empty() {
                return Err(fail("an empty placement between commas".to_string()));
            }
            let p = notation::parse_cell(&geo, cell).map_err(|e| match e {
                CellError::Syntax(_) if *cell == "pass" => fail(
                    "pass cannot follow a placement in the same turn (a capture that leaves no placement ends the turn)"
                        .to_string(),
                ),
                e => fail(e.to_string()),
            })?;
            let report = game
                .play(color, Move::Place(p))
                .map_err(|e| fail(describe_illegal(cell, &e)))?;
            let last = k + 1 == cells.len();
            let over = matches!(game.position().status(), Status::Over(_));
            if !last && (!report.extra_turn || over) {
                return Err(fail(if over {
                    format!("{cell} ends the game, yet the turn goes on")
                } else {
                    format!("{cell} captures nothing, so the turn ends there, yet it goes on")
                }));
            }
            if last && report.extra_turn && !over {
                if game.position().status() != Status::MustPass {
                    return Err(fail(format!(
                        "{cell} captures, so {color} must place again, but the turn ends there"
                    )));
                }
                // The capture left its player no placement: the extra turn is a forced pass, which Abstract
                // Play's turn cannot write, so the turn ends with the capture.
                game.play(color, Move::Pass)
                    .map_err(|e| fail(format!("the forced pass after {cell}: {e}")))?;
            }
        }
    }
    if let Some(winners) = &record.winners {
        let played = match game.position().status() {
            Status::Over(o) => Some(
                o.winner()
                    .map_or(vec![0, 1], |c| vec![if c == Color::Black { 0 } else { 1 }]),
            ),
            _ => None,
        };
        if let Some(played) = played
            && &played != winners
        {
            return Err(ApError::Record(format!(
                "the record's result (seat {} won) is not the one its moves reach ({})",
                winners
                    .iter()
                    .map(|s| (s + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" and "),
                outcome_text(&game)
            )));
        }
    }
    Ok(game)
}

/// The turns of `game` in Abstract Play's notation, one string per turn: the placements of a turn joined by
/// commas, or `pass`.
///
/// # Errors
/// A message when the game starts from a set-up position or its board is one Abstract Play lacks.
pub fn turns(game: &Game) -> Result<Vec<String>, String> {
    let start = game.start();
    let geo = start.geometry();
    variant_name(geo.shape())?;
    if start.stone_count(Color::Black) + start.stone_count(Color::White) > 0
        || start.to_move() != Color::Black
    {
        return Err(
            "the record starts from a set-up position, which an Abstract Play turn list cannot give"
                .to_string(),
        );
    }
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for record in game.records() {
        let text = match record.mv {
            Move::Place(p) => notation::cell_name(geo, p),
            // A pass in a turn that captured: the capture left no placement, and the turn ends with it.
            Move::Pass if open => {
                open = false;
                continue;
            }
            Move::Pass => "pass".to_string(),
            Move::Swap => notation::SWAP.to_string(),
        };
        match out.last_mut() {
            Some(last) if open => {
                last.push(',');
                last.push_str(&text);
            }
            _ => out.push(text),
        }
        open = record.report.extra_turn;
    }
    Ok(out)
}

/// The root information an SGF record of an imported game gets: players, date and the site's game id. When
/// Abstract Play states a result that the moves do not reach (a resignation or a timeout there), the root comment
/// says so; `RE` is left out, since the record does not say how the game was decided.
pub fn sgf_info(record: &ApRecord, game: &Game) -> crate::sgf::GameInfo {
    let mut comment = String::from("Imported from Abstract Play");
    if let Some(id) = &record.game_id {
        comment.push_str(&format!(", game {id}"));
    }
    if let (Some(winners), Status::Ongoing | Status::MustPass) =
        (&record.winners, game.position().status())
    {
        match winners[..] {
            [seat] => {
                let c = seat_color(seat);
                comment.push_str(&format!(
                    ". Abstract Play gives the win to {c} before the end on the board (a resignation or a timeout)"
                ));
            }
            _ => comment.push_str(". Abstract Play records a draw before the end on the board"),
        }
    }
    crate::sgf::GameInfo {
        black: record.players[0].clone(),
        white: record.players[1].clone(),
        result: None,
        comment: Some(comment),
        date: record.date.clone(),
    }
}
