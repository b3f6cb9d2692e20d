//! The board and the position: new boards, set-ups, and what the position looks like.

use std::sync::Arc;

use crate::notation;
use crate::rules::{BadSize, Game, Geometry, Position, Shape, perft};

use crate::gtp::args;
use crate::gtp::error::{GtpError, syntax};
use crate::gtp::format::{board_diagram, status_line};
use crate::gtp::parse::{parse_float, parse_int};
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;

/// Largest perft depth accepted.
const MAX_PERFT_DEPTH: u64 = 64;
/// Perft gives up after this many nodes, so that no command can keep the engine busy for long (a few seconds).
pub const PERFT_NODE_LIMIT: u64 = 200_000_000;

/// Starts a new game on an empty board of `shape`.
fn new_board(e: &mut Engine, shape: Shape) -> Result<Reply, GtpError> {
    let geo = Geometry::shared(shape).map_err(|err| {
        GtpError::UnacceptableSize(match err {
            BadSize::Rect { width, height } => format!(
                "{width}x{height}: each side must be {} to {}",
                crate::rules::MIN_SIDE,
                crate::rules::MAX_SIDE
            ),
            BadSize::Hex { side } => format!(
                "hex{side}: a hexhex side must be {} to {}",
                crate::rules::MIN_HEX_SIDE,
                crate::rules::MAX_HEX_SIDE
            ),
            BadSize::Syntax(text) => text,
        })
    })?;
    e.start_game(Game::new(geo));
    Ok(Reply::Text(String::new()))
}

/// `boardsize SIZE`: a new SIZE x SIZE board; but an engine started on a board that GoGui draws on an N x N grid
/// (a hexhex board of side (N+1)/2, a rectangle whose longer side is N) takes `boardsize N` for that start-up board.
/// GoGui sends its player only the side of the grid it draws, and starts its ruler with the player's command line.
pub fn boardsize(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let n = args::size(args[0], "the size").map_err(|err| {
        // A board name such as 7x5 or hex7: point to the command that takes it.
        let hint = match Shape::parse(args[0]) {
            _ if args[0].bytes().all(|b| b.is_ascii_digit()) => return err,
            Ok(Shape::Rect { width, height }) => {
                format!("for a {width} x {height} board use rectangular_boardsize {width} {height}")
            }
            Ok(Shape::Hex { side }) => format!("for a hexhex board use oust-board hex{side}"),
            Err(_) => return err,
        };
        syntax(format!(
            "the size must be a whole number, got '{}' ({hint})",
            args[0]
        ))
    })?;
    let start = e.options.board;
    if start != Shape::square(n)
        && let Ok(geo) = Geometry::shared(start)
        && geo.square_side() == n
    {
        log::info!("boardsize {n}: a new game on the {start} board the engine was started on");
        return new_board(e, start);
    }
    new_board(e, Shape::square(n))
}

/// `rectangular_boardsize WIDTH HEIGHT`: a new WIDTH x HEIGHT board.
pub fn rect_boardsize(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let width = args::size(args[0], "the width")?;
    let height = args::size(args[1], "the height")?;
    new_board(e, Shape::Rect { width, height })
}

/// `oust-board [BOARD]`: a new board of any shape (`9`, `7x5`, `hex7`), or the current board's name.
pub fn board(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let Some(&text) = args.first() else {
        return Ok(e.game.position().geometry().size_name().into());
    };
    let shape = Shape::parse(text).map_err(|_| {
        syntax(format!(
            "expected a board such as 9, 7x5 or hex7, got '{text}'"
        ))
    })?;
    new_board(e, shape)
}

/// `clear_board`: the same board, empty, Black to move.
pub fn clear_board(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    e.start_game(Game::new(Arc::clone(e.game.position().geometry_arc())));
    Ok(Reply::Text(String::new()))
}

/// `komi KOMI`: accepted and ignored.
pub fn komi(_: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    parse_float(args[0])
        .ok_or_else(|| syntax(format!("komi must be a number, got '{}'", args[0])))?;
    Ok(Reply::Text(String::new()))
}

/// `showboard`: the board diagram and the game state.
pub fn showboard(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(board_diagram(e.game.position(), e.settings.notation).into())
}

/// `oust-status`: the one-line state summary.
pub fn status(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(status_line(e.game.position()).into())
}

/// `perft DEPTH`.
pub fn perft_cmd(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let depth = parse_int(args[0])
        .filter(|&d| d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| {
            syntax(format!(
                "depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, got '{}'",
                args[0]
            ))
        })?;
    perft(e.game.position(), depth as usize, PERFT_NODE_LIMIT)
        .map(|n| n.to_string().into())
        .map_err(|err| GtpError::Failed(err.to_string()))
}

/// `oust-setup COLOR ROWS [extra-turn]`: ROWS lists the rows from the top, separated by `/` (see
/// [`notation::parse_rows`]).
pub fn setup(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let to_move = args::color(args[0])?;
    let extra = match args.get(2) {
        None => false,
        Some(t) if t.eq_ignore_ascii_case("extra-turn") => true,
        Some(t) => {
            return Err(syntax(format!(
                "the third argument can only be 'extra-turn', got '{t}'"
            )));
        }
    };
    let geo = Arc::clone(e.game.position().geometry_arc());
    let stones = notation::parse_rows(&geo, args[1]).map_err(|err| syntax(err.to_string()))?;
    e.start_game(Game::from_position(Position::setup(
        geo, &stones, to_move, extra,
    )));
    Ok(Reply::Text(String::new()))
}
