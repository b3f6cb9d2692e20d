//! The syntax: a record's main line and the errors of reading one, and the parser of SGF's collections of game
//! trees, which says where (line and column) the text leaves the grammar or what is missing where it breaks off.

use std::fmt::{self, Write as _};

use nom::bytes::complete::take_while1;
use nom::character::complete::{char, multispace0};
use nom::multi::{many0, many1};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::rules::{Color, IllegalMove, Move, Point, Shape};

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
    ///
    /// [`replay`]: super::replay
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
pub(super) type Node = Vec<(String, Vec<String>)>;

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
pub(super) struct TreeNode {
    pub(super) props: Node,
    pub(super) at: usize,
    pub(super) children: Vec<usize>,
}

/// The game trees of an SGF collection, their nodes in one list (deep variations need no recursion).
#[derive(Debug, Default)]
pub(super) struct Collection {
    pub(super) nodes: Vec<TreeNode>,
    /// The root node of each game.
    pub(super) games: Vec<usize>,
}

impl Collection {
    /// The main line from node `from`: the first child at each branch.
    pub(super) fn main_line(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(from), |&n| self.nodes[n].children.first().copied())
    }
}

/// An example of a game tree for syntax errors.
const TREE_EXAMPLE: &str = "(;FF[4]SZ[9];B[dd])";

/// Line and column (from 1, in characters) of byte offset `at` of `text`.
pub(super) fn line_column(text: &str, at: usize) -> (usize, usize) {
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
pub(super) fn collection(text: &str, first_only: bool) -> Result<Collection, SgfError> {
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

#[cfg(test)]
mod tests {
    use crate::sgf::{check, parse};

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
}
