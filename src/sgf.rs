//! SGF (FF[4]) records of Oust games: writing a game, reading a record's main line, and replaying it through the
//! rules, which refuse any illegal move with its number. Extra turns are consecutive moves of one colour.
//! [`check`] validates a whole record: every game, every variation, and each game's result. A syntax error says
//! where (line and column), and a record that breaks off says what is missing. This module works on text, apart
//! from [`read_file`], which reads a record file with a size cap.
//!
//! Points are written as Go's SGF writes them (the geometry's [`Geometry::sgf_coord`]). A hexhex board of side S
//! is recorded as `SZ[2S-1]`, the rhombus GoGui draws it on, with the private root property `HX[S]`, since `SZ`
//! alone cannot tell hex side 7 from square 13.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::io::Read as _;
use std::path::Path;

use nom::bytes::complete::take_while1;
use nom::character::complete::{char, multispace0};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, terminated};
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
    /// Properties written as they are (such as `SBKV[56.8]`) in the root (index 0) and in the node of each move
    /// (index `n` for move `n`); positions beyond the list get none.
    pub node_properties: Vec<String>,
}

/// Escapes an SGF text value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The root node of `game`'s record, with `info`, ending with its set-up.
fn root_node(game: &Game, info: &GameInfo) -> String {
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
    if game.pie() {
        let _ = write!(out, "{RULES_PROPERTY}[{PIE_RULES}]");
    }
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
    if let Some(extra) = info.node_properties.first() {
        out.push_str(extra);
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
    out
}

/// The SGF text of `game`, with `info` in the root node.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let mut out = root_node(game, info);
    for (i, record) in game.records().iter().enumerate() {
        if i % 8 == 0 {
            out.push('\n');
        }
        move_node_text(&mut out, game, record.color, record.mv);
        if let Some(extra) = info.node_properties.get(i + 1) {
            out.push_str(extra);
        }
    }
    out.push_str(")\n");
    out
}

/// `;B[xy]` for a move of `game`'s board.
fn move_node_text(out: &mut String, game: &Game, color: Color, mv: Move) {
    let geo = game.start().geometry();
    let key = if color == Color::Black { 'B' } else { 'W' };
    let value = match mv {
        Move::Place(p) => geo.sgf_coord(p),
        Move::Pass => String::new(),
        Move::Swap => SWAP_VALUE.to_string(),
    };
    let _ = write!(out, ";{key}[{value}]");
}

/// A move of a game tree for [`write_tree`]: its colour and move, the properties written as they are in its node
/// (such as a review's `SBKV[56.8]`), and the moves tried after it (indices into the same list), the main line's
/// first.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeMove {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub move_: Move,
    /// Properties written after the move in its node.
    pub properties: String,
    /// The moves after it, the main line's first.
    pub children: Vec<usize>,
}

/// The SGF text of a game tree: the root node of `game` (the main line, played: its start, rule and result) with
/// `info` (its `node_properties` but the root's are not used: the moves carry theirs), then `moves` from `first`
/// (the first moves, the main line's first), each variation in SGF's own parentheses.
pub fn write_tree(game: &Game, info: &GameInfo, moves: &[TreeMove], first: &[usize]) -> String {
    let mut out = root_node(game, info);
    // Depth first: a sequence of moves goes on through each node's first child; where a node has several, each
    // goes in parentheses. The stack holds what is left to write: a sequence to start, or a `)`.
    enum Step {
        Sequence(usize, bool),
        Close,
    }
    let mut stack: Vec<Step> = Vec::new();
    let push_branches = |stack: &mut Vec<Step>, children: &[usize]| {
        if children.len() == 1 {
            stack.push(Step::Sequence(children[0], false));
        } else {
            for &k in children.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Sequence(k, true));
            }
        }
    };
    push_branches(&mut stack, first);
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Sequence(start, paren) => {
                if paren {
                    out.push_str("\n(");
                }
                let mut n = start;
                let mut written = 0;
                loop {
                    if written % 8 == 0 && !(paren && written == 0) {
                        out.push('\n');
                    }
                    let m = &moves[n];
                    move_node_text(&mut out, game, m.color, m.move_);
                    out.push_str(&m.properties);
                    written += 1;
                    if m.children.len() == 1 {
                        n = m.children[0];
                        continue;
                    }
                    push_branches(&mut stack, &m.children);
                    break;
                }
            }
        }
    }
    out.push_str(")\n");
    out
}

fn stones_empty(pos: &Position) -> bool {
    pos.stone_count(Color::Black) + pos.stone_count(Color::White) == 0
}

/// The private root property that marks a hexhex board: `HX[S]` for side S, with `SZ[2S-1]`.
pub const HEX_PROPERTY: &str = "HX";

/// The root property (SGF's rules property) that says the game was played with the pie rule: `RU[pie]`.
pub const RULES_PROPERTY: &str = "RU";
/// The value of [`RULES_PROPERTY`] for the pie rule.
pub const PIE_RULES: &str = "pie";
/// The value of the pie rule's swap as a move: `W[swap-sides]`, as HexGui writes an exchange of sides.
pub const SWAP_VALUE: &str = "swap-sides";

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
    /// Other properties of the nodes after the root (such as a review's `SBKV`), each with the number of moves
    /// played up to and including its node, and its first value.
    pub node_info: Vec<(usize, String, String)>,
    /// The pie rule: `RU[pie]` in the root, or a swap among the moves.
    pub pie: bool,
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
    /// A problem in one game or variation of a record that has several: which, and where its move is.
    In {
        /// The game, from 1.
        game: usize,
        /// The games in the record.
        games: usize,
        /// The variation, from 1 (the main line) in the order of the file, when the game has several and the
        /// problem is in a line of play.
        variation: Option<usize>,
        /// Line and column (from 1) of the node with the move at fault, if a move is.
        at: Option<(usize, usize)>,
        /// The problem.
        error: Box<SgfError>,
    },
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
            SgfError::In {
                game,
                games,
                variation,
                at,
                error,
            } => {
                let mut place = Vec::new();
                if *games > 1 {
                    place.push(format!("game {game} of {games}"));
                }
                match variation {
                    Some(1) => place.push("variation 1 (the main line)".to_string()),
                    Some(v) => place.push(format!("variation {v}")),
                    None => {}
                }
                if let Some((line, column)) = at {
                    place.push(format!("line {line}, column {column}"));
                }
                if place.is_empty() {
                    write!(f, "{error}")
                } else {
                    write!(f, "{}: {error}", place.join(", "))
                }
            }
        }
    }
}

impl std::error::Error for SgfError {}

/// Where the text of a record leaves the SGF grammar, as the node parsers below report it.
#[derive(Debug)]
struct Broken<'a> {
    /// The text from the point where it goes wrong.
    at: &'a str,
    problem: Problem<'a>,
}

#[derive(Debug)]
enum Problem<'a> {
    /// A parser did not match (the caller says what it expected there).
    Unexpected,
    /// A property identifier without a value after it.
    NoValue(&'a str),
    /// A value whose closing `]` never comes: its property and the text from its `[`.
    UnclosedValue { ident: &'a str, start: &'a str },
}

impl<'a> nom::error::ParseError<&'a str> for Broken<'a> {
    fn from_error_kind(at: &'a str, _: nom::error::ErrorKind) -> Self {
        Broken {
            at,
            problem: Problem::Unexpected,
        }
    }

    fn append(_: &'a str, _: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Broken<'a>>;
type Node = Vec<(String, Vec<String>)>;

/// `value := "[" (escaped character | any character but "]")* "]"`; a value the text ends in is a failure.
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
    Err(nom::Err::Failure(Broken {
        at: &rest[rest.len()..],
        problem: Problem::UnclosedValue {
            ident: "",
            start: i,
        },
    }))
}

/// `property := ident (value whitespace)+` where `ident` is upper-case letters (lower case ones of FF[3] are skipped)
fn property(i: &str) -> Res<'_, (String, Vec<String>)> {
    let (i, ident) = take_while1(|c: char| c.is_ascii_alphabetic()).parse(i)?;
    let (i, _) = multispace0.parse(i)?;
    let (i, values) = many1(terminated(prop_value, multispace0))
        .parse(i)
        .map_err(|e| match e {
            nom::Err::Error(_) => nom::Err::Failure(Broken {
                at: i,
                problem: Problem::NoValue(ident),
            }),
            nom::Err::Failure(Broken {
                at,
                problem: Problem::UnclosedValue { start, .. },
            }) => nom::Err::Failure(Broken {
                at,
                problem: Problem::UnclosedValue { ident, start },
            }),
            other => other,
        })?;
    let ident: String = ident.chars().filter(char::is_ascii_uppercase).collect();
    Ok((i, (ident, values)))
}

/// `node := ";" whitespace property*`
fn node(i: &str) -> Res<'_, Node> {
    preceded(terminated(char(';'), multispace0), many0(property)).parse(i)
}

/// One node of a collection: its properties, where its `;` is (a byte offset) and its children, which are the next
/// node of its sequence or the first node of each variation.
#[derive(Debug)]
struct TreeNode {
    props: Node,
    at: usize,
    children: Vec<usize>,
}

/// The game trees of an SGF collection, their nodes in one list (deep variations need no recursion).
#[derive(Debug, Default)]
struct Collection {
    nodes: Vec<TreeNode>,
    /// The root node of each game.
    games: Vec<usize>,
}

impl Collection {
    /// The main line from node `from`: the first child at each branch.
    fn main_line(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(from), |&n| self.nodes[n].children.first().copied())
    }
}

/// An example of a game tree for syntax errors.
const TREE_EXAMPLE: &str = "(;FF[4]SZ[9];B[dd])";

/// Line and column (from 1, in characters) of byte offset `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// `line L, column C` of the place where `rest`, a tail of `text`, starts.
fn place(text: &str, rest: &str) -> String {
    let (line, column) = line_column(text, text.len() - rest.len());
    format!("line {line}, column {column}")
}

/// `'c'` for the next character of `rest`.
fn next_char(rest: &str) -> String {
    rest.chars()
        .next()
        .map_or_else(|| "the end of the file".to_string(), |c| format!("'{c}'"))
}

/// A game tree being read: where its `(` is, the node its first node follows (`None` for a game), the last node
/// read so far, and whether a variation has begun (after which only variations and `)` may follow).
struct Open<'a> {
    paren: &'a str,
    parent: Option<usize>,
    last: Option<usize>,
    variations: bool,
}

/// The message for a record that ends while game trees are open, `inside` a value or not.
fn broke_off(text: &str, open: &[Open], inside: Option<(&str, &str)>) -> String {
    let mut out = format!(
        "the record breaks off at {}, the end of the file",
        place(text, &text[text.len()..])
    );
    let mut missing = Vec::new();
    if let Some((ident, start)) = inside {
        let _ = write!(
            out,
            ", inside the value of {ident} that begins at {}",
            place(text, start)
        );
        missing.push("`]`".to_string());
    }
    let innermost = open.last().map(|o| o.paren);
    if inside.is_none() && open.last().is_some_and(|o| o.last.is_none()) {
        missing.push("a node (`;`)".to_string());
    }
    match open.len() {
        0 => {}
        1 => missing.push("`)`".to_string()),
        n => missing.push(format!("{n} `)`")),
    }
    let _ = write!(out, ": missing {}", missing.join(" and "));
    if let Some(paren) = innermost {
        let (first, what) = match open.len() {
            1 => ("", "game tree"),
            _ => (", the first", "variation"),
        };
        let _ = write!(
            out,
            "{first} to close the {what} opened at {}",
            place(text, paren)
        );
    }
    out
}

/// `collection := text* tree (whitespace tree)*` with `tree := "(" node+ tree* ")"`: every game tree (only the
/// first with `first_only`), read iteratively. Text before the first `(` and after the last game is ignored.
///
/// # Errors
/// [`SgfError::Syntax`] saying where the text leaves the grammar, or where it breaks off and what is missing.
fn collection(text: &str, first_only: bool) -> Result<Collection, SgfError> {
    let syntax = SgfError::Syntax;
    let Some(first) = text.find('(') else {
        return Err(syntax(if text.trim().is_empty() {
            format!("the file is empty: expected a game tree such as {TREE_EXAMPLE}")
        } else {
            format!("no game tree: expected one such as {TREE_EXAMPLE}, but the file has no `(`")
        }));
    };
    let mut c = Collection::default();
    let mut open: Vec<Open> = Vec::new();
    let mut i = &text[first..];
    loop {
        i = i.trim_start();
        let Some(top) = open.last_mut() else {
            if i.starts_with('(') && (!first_only || c.games.is_empty()) {
                open.push(Open {
                    paren: i,
                    parent: None,
                    last: None,
                    variations: false,
                });
                i = &i[1..];
                continue;
            }
            break;
        };
        match i.chars().next() {
            None => return Err(syntax(broke_off(text, &open, None))),
            Some(';') if !top.variations => {
                let (rest, props) = match node(i) {
                    Ok(parsed) => parsed,
                    Err(nom::Err::Failure(Broken {
                        problem: Problem::UnclosedValue { ident, start },
                        ..
                    })) => return Err(syntax(broke_off(text, &open, Some((ident, start))))),
                    Err(nom::Err::Failure(Broken {
                        at,
                        problem: Problem::NoValue(ident),
                    })) => {
                        return Err(syntax(format!(
                            "{}: property {ident} has no value: expected `[`, got {}",
                            place(text, at),
                            next_char(at)
                        )));
                    }
                    Err(_) => return Err(syntax(format!("{}: expected a node", place(text, i)))),
                };
                let id = c.nodes.len();
                c.nodes.push(TreeNode {
                    props,
                    at: text.len() - i.len(),
                    children: Vec::new(),
                });
                match top.last.or(top.parent) {
                    Some(parent) => c.nodes[parent].children.push(id),
                    None => c.games.push(id),
                }
                top.last = Some(id);
                i = rest;
            }
            Some('(') if top.last.is_some() => {
                top.variations = true;
                let parent = top.last;
                open.push(Open {
                    paren: i,
                    parent,
                    last: None,
                    variations: false,
                });
                i = &i[1..];
            }
            Some(')') if top.last.is_some() => {
                open.pop();
                i = &i[1..];
            }
            Some(_) => {
                let expected = if top.last.is_none() {
                    "a node (`;`) after `(`"
                } else if top.variations {
                    "`(` or `)` after a variation"
                } else {
                    "`;`, `(` or `)`"
                };
                return Err(syntax(format!(
                    "{}: expected {expected}, got {}",
                    place(text, i),
                    next_char(i)
                )));
            }
        }
    }
    Ok(c)
}

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
fn record_of<'n>(
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
}

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
pub fn check_for(text: &str, current: Option<Shape>) -> Result<Vec<Checked>, SgfError> {
    let c = collection(text, false)?;
    let mut work = 0usize;
    let mut out = Vec::with_capacity(c.games.len());
    for g in 0..c.games.len() {
        let mut main = None;
        let variations = each_line(text, &c, g, current, &mut work, |_, line| {
            let (record, game) = line?;
            if main.is_none() {
                if let Some(re) = record.get("RE") {
                    let outcome = match game.position().status() {
                        Status::Over(o) => Some(o),
                        _ => None,
                    };
                    check_result(re.trim(), outcome)
                        .map_err(|e| wrap(text, &c, g, None, None, e))?;
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
    use std::sync::Arc;

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
    fn syntax_errors_say_where_the_record_goes_wrong() {
        let msg = |t: &str| {
            parse(t)
                .unwrap_err()
                .to_string()
                .replace("not a valid SGF record: ", "")
        };
        assert_eq!(
            msg(" \n"),
            "the file is empty: expected a game tree such as (;FF[4]SZ[9];B[dd])"
        );
        assert_eq!(
            msg("hello"),
            "no game tree: expected one such as (;FF[4]SZ[9];B[dd]), but the file has no `(`"
        );
        assert_eq!(
            msg("("),
            "the record breaks off at line 1, column 2, the end of the file: missing a node (`;`) and `)` to close \
             the game tree opened at line 1, column 1"
        );
        assert_eq!(
            msg("(;SZ[5];B[aa](;W[bb]\n(;B[cc]"),
            "the record breaks off at line 2, column 8, the end of the file: missing 3 `)`, the first to close the \
             variation opened at line 2, column 1"
        );
        assert_eq!(
            msg("(;SZ[5]C[a\\]"),
            "the record breaks off at line 1, column 13, the end of the file, inside the value of C that begins at \
             line 1, column 9: missing `]` and `)` to close the game tree opened at line 1, column 1"
        );
        assert_eq!(
            msg("(;FF[4]\n SZ 5;B[aa])"),
            "line 2, column 5: property SZ has no value: expected `[`, got '5'"
        );
        assert_eq!(
            msg("(x)"),
            "line 1, column 2: expected a node (`;`) after `(`, got 'x'"
        );
        assert_eq!(
            msg("(;SZ[5];B[aa] 5)"),
            "line 1, column 15: expected `;`, `(` or `)`, got '5'"
        );
        assert_eq!(
            msg("(;SZ[5];B[aa] x)"),
            "line 1, column 16: property x has no value: expected `[`, got ')'"
        );
        assert_eq!(
            msg("(;SZ[5];B[aa](;W[bb]);B[cc])"),
            "line 1, column 22: expected `(` or `)` after a variation, got ';'"
        );
        // Columns count characters, not bytes.
        assert_eq!(
            msg("(;C[\u{e9}t\u{e9}] 5)"),
            "line 1, column 10: expected `;`, `(` or `)`, got '5'"
        );
    }

    #[test]
    fn deep_variations_are_read_without_recursion() {
        // 100 000 nested variations: a recursive parser overflows its stack.
        let depth = 100_000;
        let text = format!("(;SZ[5]{}{})", "(;C[x]".repeat(depth), ")".repeat(depth));
        let checked = check(&text).unwrap();
        assert_eq!(checked.len(), 1);
        assert_eq!(checked[0].variations, 1);
        let unclosed = format!("(;SZ[5]{}", "(;C[x]".repeat(depth));
        assert!(
            parse(&unclosed)
                .unwrap_err()
                .to_string()
                .ends_with(&format!(
                    "missing {} `)`, the first to close the variation opened at line 1, column {}",
                    depth + 1,
                    8 + 6 * (depth - 1)
                ))
        );
    }

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
