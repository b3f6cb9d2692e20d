//! Abstract Play's Oust records: its board variants, its turns (`d4,e5`: every placement of one turn, joined by
//! commas), its JSON game records (the "AP Game Record" schema: a header and rounds of moves, one record or an
//! array of them, as the site publishes them) and plain turn lists, one turn a line. A record is replayed turn by
//! turn through the rules into a [`Game`], and a game is written back as turns. Cell names are
//! [`notation::cell_name`]'s. This module works on text only.
//!
//! The first player (seat 1 of Abstract Play) is Black. A capture that leaves its player no placement ends the
//! turn: the rules' forced pass in that extra turn is implied, since a turn of Abstract Play cannot write it.
//!
//! Two differences with the site's own rules code are bridged here. A game ends by a final entry that is not a
//! placement ([`Ending`]: `resign`, `timeout`, `draw`, `abandoned`), whose result the record's header gives. And
//! where neither player can place, oust ends the game without a winner (ruling 8), while the site, which has no
//! such ruling, asks both players to pass until one resigns or times out: those passes are read as trailing
//! passes after the end.

use std::fmt;

use serde_json::Value;

use crate::notation::{self, CellError};
use crate::rules::{Color, Game, Geometry, IllegalMove, Move, Outcome, Shape, Status};

/// The board Abstract Play plays when a record names no board variant.
pub const DEFAULT_BOARD: Shape = Shape::Hex { side: 7 };

/// The board of an Abstract Play variant: its id, `hex-S` (hex-6, hex-7, hex-8 on the site; hex-7 is its default)
/// or `square-N` (square-11 on the site), also written without the dash as the engine names boards (`hex7`,
/// `square11`), or the English label the site's records give it (`size-7 hex`, `size-11 square`). Other sides of
/// the same forms are read too, as the engine plays them.
///
/// # Errors
/// A message for any other text, or a side the engine does not play.
pub fn parse_variant(text: &str) -> Result<Shape, String> {
    let t = text.trim().to_ascii_lowercase();
    // The site's label `size-7 hex` is the id `hex-7`.
    let id = match t
        .strip_prefix("size-")
        .and_then(|rest| rest.split_once(' '))
    {
        Some((n, kind)) => format!("{}-{n}", kind.trim()),
        None => t,
    };
    let side = |rest: &str| {
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<usize>().unwrap_or(usize::MAX))
    };
    let shape = if let Some(side) = id.strip_prefix("hex").and_then(side) {
        Shape::Hex { side }
    } else if let Some(size) = id.strip_prefix("square").and_then(side) {
        Shape::square(size)
    } else {
        return Err(format!(
            "unknown Abstract Play board variant '{text}': expected hex-6, hex-7, hex-8 or square-11 (also \
             written hex7, or as the site's labels such as 'size-7 hex')"
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

/// How a game on Abstract Play ended when not on the board: the record's last entry, in the slot of the seat that
/// was to move. It does not say who resigned or ran out of time (a player may resign while the other is to move):
/// the record's header names the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `resign`.
    Resign,
    /// `timeout`.
    Timeout,
    /// `draw`: a draw the players agreed.
    Draw,
    /// `abandoned`: no result.
    Abandoned,
}

impl Ending {
    /// The entry as the site writes it.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Resign => "resign",
            Ending::Timeout => "timeout",
            Ending::Draw => "draw",
            Ending::Abandoned => "abandoned",
        }
    }

    /// The ending a turn's text names (any case, spaces ignored), if any.
    pub fn parse(text: &str) -> Option<Ending> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        [
            Ending::Resign,
            Ending::Timeout,
            Ending::Draw,
            Ending::Abandoned,
        ]
        .into_iter()
        .find(|e| t.eq_ignore_ascii_case(e.name()))
    }

    /// What it was, for comments: `a resignation`.
    fn describe(self) -> &'static str {
        match self {
            Ending::Resign => "a resignation",
            Ending::Timeout => "a timeout",
            Ending::Draw => "an agreed draw",
            Ending::Abandoned => "abandonment",
        }
    }
}

/// An Abstract Play game as read, before it is replayed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApRecord {
    /// The board.
    pub board: Option<Shape>,
    /// The turns in order, a final [`Ending`] entry included.
    pub turns: Vec<Turn>,
    /// The players' names, in seating order.
    pub players: [Option<String>; 2],
    /// The winners the record states (seats), when it states results: one seat, both (a draw) or none (an
    /// abandoned game).
    pub winners: Option<Vec<usize>>,
    /// The site's game identifier.
    pub game_id: Option<String>,
    /// The day the game ended, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// The header's `pie-invoked`: the site exchanged the players (it writes no swap move for that).
    pub pie_invoked: bool,
}

impl ApRecord {
    /// The record's final entry, when it is an [`Ending`].
    pub fn ending(&self) -> Option<Ending> {
        self.turns.last().and_then(|t| Ending::parse(&t.text))
    }
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

/// True when `text` looks like JSON rather than a turn list: its first non-blank character is `{` (a record) or
/// `[` (an array of records, as the site publishes them).
pub fn is_json(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{') || t.starts_with('[')
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

fn parse_value(text: &str) -> Result<Value, ApError> {
    serde_json::from_str(text).map_err(|e| ApError::Json(describe_json_error(&e)))
}

/// Reads one of Abstract Play's JSON game records (the "AP Game Record" schema, as the site's records job writes
/// it with gameslib's `genRecord`): `header.game` must name Oust; the board comes from `header.game.variants`
/// (ids such as `hex-6`, or the site's English labels such as `size-6 hex`) and from the variant part of
/// `header.site.gameid` (`<uuid>#oust:hex-6`, or `<uuid>#oust:` for the default [`DEFAULT_BOARD`]), which must
/// agree; the players and results come from `header.players`, the turns from `moves`, rounds of one entry per seat
/// (a string, an object with `move`, or `null` for a seat that did not play the round). A file that is an array
/// holding exactly one record is read as that record.
///
/// # Errors
/// [`ApError::Json`] for text that is not JSON, [`ApError::Record`] for JSON that is not an Oust record (an array
/// of several records among them: [`parse_records`] reads those).
pub fn parse_json(text: &str) -> Result<ApRecord, ApError> {
    match parse_value(text)? {
        Value::Array(items) if items.len() == 1 => record_of(&items[0]),
        Value::Array(items) => Err(ApError::Record(format!(
            "the file is an array of {} records, not one record",
            items.len()
        ))),
        root => record_of(&root),
    }
}

/// Reads a JSON file of the site's: one record, or an array of records (the site's published record files, per
/// player, per game type or all of them), each read as [`parse_json`] reads one. A record that is refused does not
/// stop the others.
///
/// # Errors
/// [`ApError::Json`] for text that is not JSON; each record's own error in its place of the list.
pub fn parse_records(text: &str) -> Result<Vec<Result<ApRecord, ApError>>, ApError> {
    Ok(match parse_value(text)? {
        Value::Array(items) => items.iter().map(record_of).collect(),
        root => vec![record_of(&root)],
    })
}

/// The board the variant part of a game id names: `<uuid>#oust:hex-6` is hex-6, `<uuid>#oust:` the default board.
/// `None` when the id has no variant part of Oust's, or names no board there.
fn board_of_game_id(id: &str) -> Option<Shape> {
    let (_, tail) = id.rsplit_once('#')?;
    let (game, variants) = tail.split_once(':')?;
    if !game.trim().eq_ignore_ascii_case("oust") {
        return None;
    }
    let ids: Vec<&str> = variants
        .split(|c: char| c == ',' || c == '|' || c.is_whitespace())
        .filter(|v| !v.is_empty())
        .collect();
    if ids.is_empty() {
        return Some(DEFAULT_BOARD);
    }
    ids.iter().find_map(|v| parse_variant(v).ok())
}

fn record_of(root: &Value) -> Result<ApRecord, ApError> {
    let bad = |m: &str| ApError::Record(format!("not an Abstract Play Oust record: {m}"));
    if !root.is_object() {
        return Err(bad("not a JSON object"));
    }
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
    // The board the variants name, with the variant as written.
    let mut named: Option<(Shape, String)> = None;
    match game.get("variants") {
        None | Some(Value::Null) => {}
        Some(Value::Array(variants)) => {
            for v in variants {
                let v = v
                    .as_str()
                    .ok_or_else(|| bad("a variant that is not a string"))?;
                let board = parse_variant(v).map_err(|_| {
                    ApError::Record(format!(
                        "unknown Abstract Play variant '{v}': oust reads only the board variants (hex-6, hex-7, \
                         hex-8, square-11, or the site's labels such as 'size-7 hex')"
                    ))
                })?;
                if let Some((other, first)) = &named
                    && *other != board
                {
                    return Err(ApError::Record(format!(
                        "the record's variants name two boards: '{first}' and '{v}'"
                    )));
                }
                named = Some((board, v.to_string()));
            }
        }
        Some(_) => return Err(bad("\"variants\" is not a list")),
    }
    let mut record = ApRecord::default();
    if let Some(site) = header.get("site") {
        record.game_id = match site.get("gameid") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
    }
    let from_id = record.game_id.as_deref().and_then(board_of_game_id);
    let board = match (named, from_id) {
        (Some((a, v)), Some(b)) if a != b => {
            return Err(ApError::Record(format!(
                "the record names two boards: its variants say '{v}' ({}), its game id '{}' says {}",
                variant_name(a).unwrap_or_else(|_| a.name()),
                record.game_id.as_deref().unwrap_or_default(),
                variant_name(b).unwrap_or_else(|_| b.name())
            )));
        }
        (Some((a, _)), _) => a,
        (None, Some(b)) => b,
        (None, None) => DEFAULT_BOARD,
    };
    record.board = Some(board);
    record.pie_invoked = header.get("pie-invoked") == Some(&Value::Bool(true));
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
            results.push(p.get("result").and_then(Value::as_f64));
        }
        // The site gives each winner 1 and everyone else 0: a draw makes both winners, an abandoned game neither.
        if let [Some(a), Some(b)] = results[..] {
            record.winners = Some(match a.partial_cmp(&b) {
                Some(std::cmp::Ordering::Greater) => vec![0],
                Some(std::cmp::Ordering::Less) => vec![1],
                _ if a > 0.0 => vec![0, 1],
                _ => Vec::new(),
            });
        }
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

/// Reads either form: a JSON record when the text starts with `{` (or an array of one record, `[`), otherwise a
/// turn list on `board` (the JSON record names its own board).
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

/// The colour `seat` plays in `game`: seat 1 is Black, unless a swap exchanged the colours.
fn seat_color_in(game: &Game, seat: usize) -> Color {
    let c = seat_color(seat);
    if game.records().iter().any(|r| r.mv == Move::Swap) {
        c.opponent()
    } else {
        c
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

/// What the header's results say, for messages: `seat 1 won`, `a draw`, `no winner`.
fn winners_text(winners: &[usize]) -> String {
    match winners {
        [seat] => format!("seat {} won", seat + 1),
        [] => "no winner".to_string(),
        _ => "a draw".to_string(),
    }
}

/// Checks that the header's results fit the final entry: one winner for a resignation or a timeout, a draw for
/// `draw`, no winner for `abandoned`.
fn check_ending(ending: Ending, winners: Option<&Vec<usize>>) -> Result<(), String> {
    let Some(winners) = winners else {
        return Ok(());
    };
    let fits = match ending {
        Ending::Resign | Ending::Timeout => winners.len() == 1,
        Ending::Draw => winners.len() == 2,
        Ending::Abandoned => winners.is_empty(),
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "the game ends with '{}', but the record's header gives {}",
            ending.name(),
            winners_text(winners)
        ))
    }
}

/// The number of `pass` turns a replayed record has after a game over without a winner (ruling 8): Abstract
/// Play, which has no such ruling, asks both players to pass there, until one resigns or times out.
fn trailing_passes(record: &ApRecord, game: &Game) -> usize {
    if game.position().status() != Status::Over(Outcome::Draw) {
        return 0;
    }
    let end = record.turns.len() - usize::from(record.ending().is_some());
    record.turns[..end]
        .iter()
        .rev()
        .take_while(|t| t.text.trim().eq_ignore_ascii_case("pass"))
        .count()
}

/// Replays `record` turn by turn through the rules. A final [`Ending`] entry (`resign`, `timeout`, `draw`,
/// `abandoned`) ends the record, in any seat's slot; `pass` turns after a game over without a winner (ruling 8)
/// are accepted, as the site asks for them there.
///
/// # Errors
/// [`ApError::Turn`] for the first turn that is illegal, that places again after a non-capturing placement, that
/// stops after a capture when its player must place again, that comes after the end, or whose seat is not the
/// side to move; [`ApError::Record`] for a board the engine does not play, or for results in the header that
/// neither the board nor the final entry gives.
pub fn replay(record: &ApRecord) -> Result<Game, ApError> {
    let board = record.board.unwrap_or(DEFAULT_BOARD);
    let geo = Geometry::shared(board).map_err(|e| ApError::Record(e.to_string()))?;
    let mut game = Game::new(geo.clone());
    // After a swap (the pie rule) the seats exchange colours.
    let mut swapped = false;
    let mut ending = None;
    for (i, turn) in record.turns.iter().enumerate() {
        let fail = |reason: String| ApError::Turn {
            number: i + 1,
            place: turn.place.clone(),
            text: turn.text.clone(),
            reason,
        };
        let color = game.position().to_move();
        let text: String = turn
            .text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(e) = ending {
            return Err(fail(format!(
                "the game ended with '{}' (turn {i}), yet the record goes on",
                Ending::name(e)
            )));
        }
        let status = game.position().status();
        if let Some(e) = Ending::parse(&text) {
            if let Status::Over(o @ Outcome::Win(_)) = status {
                return Err(fail(format!("the game is already over: {}", o.describe())));
            }
            check_ending(e, record.winners.as_ref()).map_err(fail)?;
            ending = Some(e);
            continue;
        }
        if let Status::Over(outcome) = status {
            if outcome == Outcome::Draw && text == "pass" {
                // Neither player can place: oust's game is over (ruling 8), the site's asks for passes.
                continue;
            }
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
    if let (Some(winners), None) = (&record.winners, ending) {
        let played = match game.position().status() {
            Status::Over(o) => Some(o.winner().map_or(vec![0, 1], |c| {
                vec![usize::from(seat_color_in(&game, 0) != c)]
            })),
            _ => None,
        };
        if let Some(played) = played
            && &played != winners
        {
            return Err(ApError::Record(format!(
                "the record's result ({}) is not the one its moves reach ({}), and no resignation or timeout \
                 ends the record",
                winners_text(winners),
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

/// The root information an SGF record of an imported game gets: players, date, the site's game id, and the
/// result. A game that ends with a final entry gets `RE` from the header's result as SGF writes it (`B+R`, `W+T`,
/// `0` for an agreed draw; none for an abandoned game or a header without results), and a root comment that says
/// the board did not reach the end. Passes after a game over without a winner (ruling 8) are told in the comment.
/// When Abstract Play states a result that the moves do not reach and no final entry says how (older records), the
/// comment says so and `RE` is left out.
pub fn sgf_info(record: &ApRecord, game: &Game) -> crate::sgf::GameInfo {
    let mut comment = String::from("Imported from Abstract Play");
    if let Some(id) = &record.game_id {
        comment.push_str(&format!(", game {id}"));
    }
    let status = game.position().status();
    let ended_on_board = matches!(status, Status::Over(_));
    let passes = trailing_passes(record, game);
    if status == Status::Over(Outcome::Draw) {
        comment.push_str(
            ". The board ends without a winner: neither player can place (oust's ruling 8, result 0)",
        );
        if passes > 0 {
            comment.push_str(&format!(
                "; Abstract Play, which has no such ruling, asks both players to pass there, and the record \
                 has {passes} pass{} after it",
                if passes == 1 { "" } else { "es" }
            ));
        }
    }
    let winner_color = |winners: &Option<Vec<usize>>| match winners.as_deref() {
        Some([seat]) => Some(seat_color_in(game, *seat)),
        _ => None,
    };
    let mut result = None;
    match record.ending() {
        Some(ending) => {
            comment.push_str(&format!(
                ". {} the game ended by {}",
                if ended_on_board {
                    "After that"
                } else {
                    "The board did not reach the end:"
                },
                ending.describe()
            ));
            match (ending, winner_color(&record.winners)) {
                (Ending::Resign | Ending::Timeout, Some(c)) => {
                    let code = if ending == Ending::Resign { "R" } else { "T" };
                    result = Some(format!("{}+{code}", c.letter().to_ascii_uppercase()));
                    comment.push_str(&format!(", and Abstract Play gives the win to {c}"));
                }
                (Ending::Resign | Ending::Timeout, None) => {
                    comment.push_str(", and the record names no winner");
                }
                (Ending::Draw, _) => result = Some("0".to_string()),
                (Ending::Abandoned, _) => comment.push_str(", with no result"),
            }
        }
        None if !ended_on_board => match (&record.winners, winner_color(&record.winners)) {
            (_, Some(c)) => comment.push_str(&format!(
                ". Abstract Play gives the win to {c} before the end on the board (a resignation or a timeout)"
            )),
            (Some(w), None) if w.len() == 2 => {
                comment.push_str(". Abstract Play records a draw before the end on the board");
            }
            (Some(_), None) => comment.push_str(
                ". Abstract Play records no winner before the end on the board (an abandoned game)",
            ),
            (None, None) => {}
        },
        None => {}
    }
    if record.pie_invoked {
        comment.push_str(
            ". The record says the pie rule was invoked: Abstract Play exchanges the players for it and writes no \
             swap move, so the players are as the record lists them",
        );
    }
    crate::sgf::GameInfo {
        black: record.players[0].clone(),
        white: record.players[1].clone(),
        result,
        comment: Some(comment),
        date: record.date.clone(),
        node_properties: Vec::new(),
    }
}
