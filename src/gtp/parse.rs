//! nom parsers for command lines and their arguments (vertices are the geometry's, through [`crate::notation`]). Each parser is named after the grammar it parses; nom stays
//! inside this module, and failures leave it as plain messages.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::multi::separated_list0;
use nom::number::complete::double;
use nom::sequence::{pair, preceded, terminated};
use nom::{IResult, Parser};

use crate::rules::Color;

type Res<'a, T> = IResult<&'a str, T>;

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine<'a> {
    /// The numeric id, when one was given.
    pub id: Option<u64>,
    /// The command name.
    pub name: &'a str,
    /// The arguments, split at spaces.
    pub args: Vec<&'a str>,
}

/// `id := digit+` (fits in 64 bits)
fn id(i: &str) -> Res<'_, u64> {
    map_res(digit1, str::parse::<u64>).parse(i)
}

/// `word := (any character but space)+`
fn word(i: &str) -> Res<'_, &str> {
    take_while1(|c| c != ' ').parse(i)
}

/// `command_line := [id space+] word (space+ word)* space*`, on a preprocessed line.
fn command_line(i: &str) -> Res<'_, CommandLine<'_>> {
    map(
        terminated(
            pair(
                opt(terminated(id, space1)),
                pair(word, opt(preceded(space1, separated_list0(space1, word)))),
            ),
            space0,
        ),
        |(id, (name, args))| CommandLine {
            id,
            name,
            args: args.unwrap_or_default(),
        },
    )
    .parse(i)
}

/// Why a command line could not be split into id, name and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line is only an id.
    MissingCommand(u64),
    /// The line starts with a number too large to be an id.
    BadId,
}

/// Splits a preprocessed, non-empty line into id, command name and arguments.
///
/// # Errors
/// [`LineError`] when the line has an id but no command, or an id that does not fit in 64 bits.
pub fn parse_command_line(line: &str) -> Result<CommandLine<'_>, LineError> {
    let first = line.split(' ').next().unwrap_or("");
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        let Ok((_, n)) = all_consuming(id).parse(first) else {
            return Err(LineError::BadId);
        };
        if first.len() == line.len() {
            return Err(LineError::MissingCommand(n));
        }
    }
    match all_consuming(command_line).parse(line) {
        Ok((_, c)) => Ok(c),
        // A preprocessed non-empty line always splits; keep a plain error for safety.
        Err(_) => Err(LineError::BadId),
    }
}

/// `color := "b" | "black" | "w" | "white"` (any case)
fn color(i: &str) -> Res<'_, Color> {
    alt((
        value(Color::Black, alt((tag_no_case("black"), tag_no_case("b")))),
        value(Color::White, alt((tag_no_case("white"), tag_no_case("w")))),
    ))
    .parse(i)
}

/// `int := digit+` (fits in 64 bits)
fn int(i: &str) -> Res<'_, u64> {
    map_res(digit1, str::parse::<u64>).parse(i)
}

/// `float := decimal number, optionally signed, with optional fraction and exponent`
fn float(i: &str) -> Res<'_, f64> {
    double(i)
}

/// Applies `parser` to the whole of `token`.
fn whole<'a, T>(
    token: &'a str,
    parser: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
) -> Option<T> {
    all_consuming(parser).parse(token).ok().map(|(_, v)| v)
}

/// Parses a colour token: `b`, `black`, `w` or `white`, in any case.
pub fn parse_color(token: &str) -> Option<Color> {
    whole(token, color)
}

/// Parses a non-negative integer token.
pub fn parse_int(token: &str) -> Option<u64> {
    whole(token, int)
}

/// Parses a finite decimal number token.
pub fn parse_float(token: &str) -> Option<f64> {
    whole(token, float).filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines() {
        let c = parse_command_line("12 play b D4").unwrap();
        assert_eq!((c.id, c.name, c.args), (Some(12), "play", vec!["b", "D4"]));
        let c = parse_command_line("name").unwrap();
        assert_eq!((c.id, c.name, c.args.len()), (None, "name", 0));
        let c = parse_command_line("12abc x").unwrap();
        assert_eq!((c.id, c.name), (None, "12abc"));
        assert_eq!(parse_command_line("7"), Err(LineError::MissingCommand(7)));
        assert_eq!(
            parse_command_line("99999999999999999999 name"),
            Err(LineError::BadId)
        );
        let c = parse_command_line("play  b   D4").unwrap();
        assert_eq!(c.args, vec!["b", "D4"]);
    }

    #[test]
    fn tokens() {
        assert_eq!(parse_color("BLACK"), Some(Color::Black));
        assert_eq!(parse_color("w"), Some(Color::White));
        assert_eq!(parse_color("bl"), None);
        assert_eq!(parse_int("19"), Some(19));
        assert_eq!(parse_int("-1"), None);
        assert_eq!(parse_float("6.5"), Some(6.5));
        assert_eq!(parse_float("-0.5"), Some(-0.5));
        assert_eq!(parse_float("x"), None);
        assert_eq!(parse_float("inf"), None);
    }
}
