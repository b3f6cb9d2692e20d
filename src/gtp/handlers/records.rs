//! Game records through the protocol: `printsgf` and `loadsgf`. The SGF text itself is [`crate::sgf`]'s business;
//! this file reads and writes the files and turns their errors into responses naming the path.

use std::path::Path;

use crate::abstract_play;
use crate::notation::count;
use crate::rules::Color;
use crate::sgf::{self, GameInfo};

use crate::gtp::error::{GtpError, syntax};
use crate::gtp::parse::parse_int;
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;

/// The FILE argument of a command. GTP splits arguments at spaces, so a path cannot hold one: quotes around a
/// path are taken off (`loadsgf "game.sgf"`), and a quote left open is refused with that reason, not read as part
/// of a name or as the next argument.
fn file_arg(arg: &str) -> Result<&str, GtpError> {
    for q in ['"', '\''] {
        if let Some(rest) = arg.strip_prefix(q) {
            return match rest.strip_suffix(q) {
                Some(inner) if !inner.is_empty() && !inner.contains(q) => Ok(inner),
                _ => Err(syntax(format!(
                    "the path {arg} opens a quote it does not close: arguments are split at spaces and quotes do \
                     not join them, so a path cannot hold a space"
                ))),
            };
        }
    }
    Ok(arg)
}

/// `printsgf [FILE]`: the game as an SGF record, as the response or written to FILE (then the response is empty).
pub fn printsgf(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let info = GameInfo {
        black: e.players[Color::Black.index()].clone(),
        white: e.players[Color::White.index()].clone(),
        ..GameInfo::default()
    };
    let text = sgf::write(&e.game, &info);
    match args.first().map(|a| file_arg(a)).transpose()? {
        None => Ok(text.into()),
        Some(file) => std::fs::write(file, &text)
            .map(|()| Reply::Text(String::new()))
            .map_err(|err| GtpError::Failed(format!("cannot write '{file}': {err}"))),
    }
}

/// `loadsgf FILE [MOVE_NUMBER]`: replaces the game by the record's, replayed through the rules up to the position
/// before move MOVE_NUMBER (counted from 1), or to the end; a MOVE_NUMBER past the end loads the whole record, as
/// GTP says. Every failure starts with GTP's `cannot load file`. The record's rules (its pie rule) apply to its game
/// only: the next new game has the engine's configured setting again.
pub fn loadsgf(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let file = file_arg(args[0])?;
    let before = match args.get(1) {
        None => None,
        Some(t) => Some(parse_int(t).filter(|&n| n >= 1).ok_or_else(|| {
            syntax(format!(
                "the move number must be a whole number from 1, got '{t}'"
            ))
        })?),
    };
    let failed = |why: String| GtpError::Failed(format!("cannot load file '{file}': {why}"));
    let text = sgf::read_file(Path::new(file)).map_err(|err| failed(err.to_string()))?;
    let current = e.game.position().geometry().shape();
    let record = sgf::parse_for(&text, Some(current)).map_err(|err| failed(err.to_string()))?;
    if current.is_hex()
        && let Some(note) = sgf::board_note(&record, current)
    {
        log::info!("loadsgf {file}: {note}, not as the engine's {current}");
    }
    let moves = record.moves.len();
    let limit = before.map(|n| usize::try_from(n - 1).unwrap_or(usize::MAX));
    if let Some(n) = before
        && limit.is_some_and(|l| l > moves)
    {
        log::info!(
            "loadsgf {file} {n}: the record has {}, so all of them are played",
            count(moves, "move")
        );
    }
    let game = sgf::replay(&record, limit).map_err(|err| failed(err.to_string()))?;
    log::info!(
        "loaded '{file}': {} of {}",
        game.records().len(),
        count(moves, "move")
    );
    // The record says which rules it was played under (sgf::replay gave its game that pie rule); the engine's
    // configured setting stays for the next new game.
    e.start_loaded(game);
    e.players = [
        record.get("PB").map(str::to_string),
        record.get("PW").map(str::to_string),
    ];
    Ok(Reply::Text(String::new()))
}

/// `loadap FILE [VARIANT]`: replaces the game by an Abstract Play game, replayed turn by turn through the rules:
/// its JSON game record (which names its board; an array of one record is read as that record), or a turn list on
/// the board VARIANT names (`hex-7` or `hex7`, `square-11`, ...; without one, the current board).
pub fn loadap(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let file = file_arg(args[0])?;
    let given = args
        .get(1)
        .map(|v| abstract_play::parse_variant(v))
        .transpose()
        .map_err(syntax)?;
    let failed = |why: String| GtpError::Failed(format!("cannot load file '{file}': {why}"));
    let text = sgf::read_file(Path::new(file)).map_err(|err| failed(err.to_string()))?;
    let board = given.unwrap_or_else(|| e.game.position().geometry().shape());
    let record = abstract_play::parse(&text, board).map_err(|err| failed(err.to_string()))?;
    if let (Some(given), Some(own)) = (given, record.board)
        && given != own
    {
        return Err(failed(format!(
            "the record is a game on {}, not on {}",
            abstract_play::variant_name(own).unwrap_or_else(|_| own.name()),
            args[1]
        )));
    }
    let game = abstract_play::replay(&record).map_err(|err| failed(err.to_string()))?;
    log::info!(
        "loaded '{file}': {} turns, {} moves",
        record.turns.len(),
        game.records().len()
    );
    // An Abstract Play record shows the pie rule only by a swap, which abstract_play::replay turned on for its
    // game alone; the engine's configured setting stays for the next new game.
    e.start_loaded(game);
    e.players = record.players.clone();
    Ok(Reply::Text(String::new()))
}
