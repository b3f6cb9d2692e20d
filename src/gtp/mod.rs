//! The GTP-style text protocol: line reading and preprocessing, nom parsers, the command table, the engine state
//! and the response format. Legality is never computed here: every rule question goes to [`crate::rules`].

mod commands;
mod engine;
mod error;
mod format;
mod gogui;
mod input;
mod parse;
mod records;

use std::io::{self, BufRead, Write};

pub use commands::{COMMANDS, CommandSpec, Handler};
pub use engine::{Engine, Options, Reports};
pub use error::GtpError;
pub use gogui::{ANALYZE_COMMANDS, AnalyzeSpec};
pub use input::{MAX_LINE, RawLine, preprocess, read_line};
pub use parse::{
    CommandLine, LineError, MoveArg, VertexArg, parse_color, parse_command_line, parse_float,
    parse_int, parse_move, parse_vertex,
};

/// The response to one raw input line, or `None` for a line GTP says to skip (empty, blank or only a comment).
pub fn respond_to(engine: &mut Engine, raw: &RawLine) -> Option<String> {
    if raw.truncated {
        let id = leading_id(&raw.bytes);
        let err = GtpError::Failed(format!(
            "line too long: more than {MAX_LINE} bytes; the command was ignored"
        ));
        log::warn!("input line longer than {MAX_LINE} bytes ignored");
        return Some(format::response(id, &Err(err)));
    }
    let line = preprocess(&raw.bytes)?;
    log::debug!("<- {line}");
    let response = match parse_command_line(&line) {
        Ok(cmd) => format::response(cmd.id, &engine.execute(cmd.name, &cmd.args)),
        Err(LineError::MissingCommand(id)) => {
            format::response(Some(id), &Err(error::syntax("no command after the id")))
        }
        Err(LineError::BadId) => format::response(
            None,
            &Err(error::syntax("the id must be a whole number below 2^64")),
        ),
    };
    log::debug!("-> {}", response.trim_end());
    Some(response)
}

/// The id at the start of a line that was too long to parse, when it has one.
fn leading_id(bytes: &[u8]) -> Option<u64> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let next = bytes.get(digits).copied();
    if digits == 0 || !matches!(next, Some(b' ' | b'\t')) {
        return None;
    }
    std::str::from_utf8(&bytes[..digits]).ok()?.parse().ok()
}

/// Runs the protocol until `quit` or the end of the input. Each response is written whole and flushed here, and
/// nowhere else.
///
/// # Errors
/// I/O errors of the input or output.
pub fn run<R: BufRead, W: Write>(
    engine: &mut Engine,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    while let Some(raw) = read_line(&mut input)? {
        if let Some(response) = respond_to(engine, &raw) {
            output.write_all(response.as_bytes())?;
            output.flush()?;
        }
        if engine.wants_quit() {
            break;
        }
    }
    Ok(())
}
