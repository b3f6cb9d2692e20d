//! The command table: the one list from which dispatch, `list_commands`, `known_command` and the documentation
//! check are all derived.

use std::sync::Arc;

use crate::rules::{Color, Game, Geometry, MAX_SIDE, MIN_SIDE, Move, Position, Status, perft};

use super::engine::Engine;
use super::error::{GtpError, syntax};
use super::format::{board_diagram, legal_list, report_tokens, status_line};
use super::parse::{MoveArg, parse_color, parse_float, parse_int, parse_move};
use super::{gogui, records, think};

/// A command handler: the engine and the arguments, already counted against the table's arity.
pub type Handler = fn(&mut Engine, &[&str]) -> Result<String, GtpError>;

/// One protocol command.
pub struct CommandSpec {
    /// The command name.
    pub name: &'static str,
    /// The arguments, as documented, for example `COLOR VERTEX`.
    pub usage: &'static str,
    /// Fewest arguments accepted.
    pub min_args: usize,
    /// Most arguments accepted.
    pub max_args: usize,
    /// One line on what it does.
    pub summary: &'static str,
    /// What runs it.
    pub run: Handler,
}

macro_rules! command {
    ($name:literal, $usage:literal, $min:literal..=$max:literal, $summary:literal, $run:expr) => {
        CommandSpec {
            name: $name,
            usage: $usage,
            min_args: $min,
            max_args: $max,
            summary: $summary,
            run: $run,
        }
    };
}

/// Every command the engine knows, in the order `list_commands` gives them.
pub static COMMANDS: &[CommandSpec] = &[
    command!("protocol_version", "", 0..=0, "GTP version: 2", |_, _| Ok(
        "2".into()
    )),
    command!("name", "", 0..=0, "engine name", |_, _| Ok("oust".into())),
    command!("version", "", 0..=0, "engine version", |_, _| Ok(env!(
        "CARGO_PKG_VERSION"
    )
    .into())),
    command!(
        "known_command",
        "NAME",
        1..=1,
        "true if NAME is a command",
        known_command
    ),
    command!(
        "list_commands",
        "",
        0..=0,
        "every command, one per line",
        list_commands
    ),
    command!("quit", "", 0..=0, "end the session", quit),
    command!(
        "boardsize",
        "SIZE",
        1..=1,
        "new empty SIZE x SIZE board",
        boardsize
    ),
    command!(
        "rectangular_boardsize",
        "WIDTH HEIGHT",
        2..=2,
        "new empty WIDTH x HEIGHT board",
        rect_boardsize
    ),
    command!(
        "clear_board",
        "",
        0..=0,
        "empty the board, Black to move",
        clear_board
    ),
    command!(
        "komi",
        "KOMI",
        1..=1,
        "accepted and ignored (Oust has no komi)",
        komi
    ),
    command!(
        "play",
        "COLOR MOVE",
        2..=2,
        "play a move, report captures and extra turns",
        gogui::play
    ),
    command!(
        "genmove",
        "COLOR",
        1..=1,
        "choose and play a move",
        gogui::genmove
    ),
    command!(
        "reg_genmove",
        "COLOR",
        1..=1,
        "choose a move without playing it",
        think::reg_genmove
    ),
    command!("undo", "", 0..=0, "take back the last move", undo),
    command!(
        "showboard",
        "",
        0..=0,
        "board diagram and game state",
        |e, _| Ok(board_diagram(e.game.position()))
    ),
    command!(
        "list_legal",
        "",
        0..=0,
        "legal moves of the side to move",
        list_legal
    ),
    command!(
        "final_score",
        "",
        0..=0,
        "B+, W+ or 0 once the game is over",
        final_score
    ),
    command!(
        "perft",
        "DEPTH",
        1..=1,
        "number of move sequences DEPTH moves long",
        perft_cmd
    ),
    command!(
        "oust-setup",
        "COLOR ROWS [extra-turn]",
        2..=3,
        "set up a position",
        setup
    ),
    command!(
        "oust-status",
        "",
        0..=0,
        "side to move, extra turn, counts, result",
        |e, _| { Ok(status_line(e.game.position())) }
    ),
    command!(
        "oust-reports",
        "[auto|on|off]",
        0..=1,
        "move reports in play and genmove responses",
        gogui::reports
    ),
    command!(
        "printsgf",
        "[FILE]",
        0..=1,
        "the game as an SGF record",
        records::printsgf
    ),
    command!(
        "loadsgf",
        "FILE [MOVE_NUMBER]",
        1..=2,
        "load a game from an SGF record",
        records::loadsgf
    ),
    command!(
        "gogui-rules_game_id",
        "",
        0..=0,
        "GoGui ruler: the game, Oust",
        gogui::game_id
    ),
    command!(
        "gogui-rules_board",
        "",
        0..=0,
        "GoGui ruler: the board as rows of X, O and .",
        gogui::board
    ),
    command!(
        "gogui-rules_board_size",
        "",
        0..=0,
        "GoGui ruler: N, or W H",
        gogui::board_size
    ),
    command!(
        "gogui-rules_legal_moves",
        "",
        0..=0,
        "GoGui ruler: legal moves, empty at the end",
        gogui::legal_moves
    ),
    command!(
        "gogui-rules_side_to_move",
        "",
        0..=0,
        "GoGui ruler: black or white",
        gogui::side_to_move
    ),
    command!(
        "gogui-rules_final_result",
        "",
        0..=0,
        "GoGui ruler: the result as a sentence",
        gogui::final_result
    ),
    command!(
        "gogui-rules_captured_count",
        "",
        0..=0,
        "GoGui ruler: stones captured by Black, by White",
        gogui::captured_count
    ),
    command!(
        "gogui-analyze_commands",
        "",
        0..=0,
        "GoGui analyze menu entries",
        gogui::analyze_commands
    ),
    command!(
        "oust-group_sizes",
        "",
        0..=0,
        "GoGui gfx: group size of every stone",
        gogui::group_sizes
    ),
    command!(
        "time_settings",
        "MAIN BYO_YOMI_TIME BYO_YOMI_STONES",
        3..=3,
        "set both clocks",
        think::time_settings
    ),
    command!(
        "kgs-time_settings",
        "SYSTEM [NUMBERS]",
        1..=4,
        "set both clocks, KGS style",
        think::kgs_time_settings
    ),
    command!(
        "time_left",
        "COLOR TIME STONES",
        3..=3,
        "what is left on a clock",
        think::time_left
    ),
    command!(
        "oust-list-params",
        "",
        0..=0,
        "every parameter and its value",
        think::list_params
    ),
    command!(
        "oust-get-param",
        "NAME",
        1..=1,
        "a parameter's value",
        think::get_param
    ),
    command!(
        "oust-set-param",
        "NAME VALUE",
        2..=2,
        "set a parameter",
        think::set_param
    ),
    command!(
        "oust-analyze",
        "[INTERVAL]",
        0..=1,
        "stream the search until the next command",
        think::analyze
    ),
    command!(
        "oust-heatmap",
        "",
        0..=0,
        "search, then a gfx heat map of the moves",
        think::heatmap
    ),
    command!(
        "oust-pv",
        "",
        0..=0,
        "search, then the principal variation as gfx",
        think::pv
    ),
];

/// Largest perft depth accepted.
const MAX_PERFT_DEPTH: u64 = 64;
/// Perft gives up after this many nodes, so that no command can keep the engine busy for long (a few seconds).
pub const PERFT_NODE_LIMIT: u64 = 200_000_000;

fn known_command(_: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    Ok(COMMANDS.iter().any(|c| c.name == args[0]).to_string())
}

fn list_commands(_: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn quit(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    e.quit = true;
    Ok(String::new())
}

fn size_arg(token: &str, what: &str) -> Result<usize, GtpError> {
    let n = parse_int(token)
        .ok_or_else(|| syntax(format!("{what} must be a whole number, got '{token}'")))?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

fn new_board(e: &mut Engine, width: usize, height: usize) -> Result<String, GtpError> {
    let geo = Geometry::rect(width, height).map_err(|_| {
        GtpError::UnacceptableSize(format!(
            "{width}x{height}: each side must be {MIN_SIDE} to {MAX_SIDE}"
        ))
    })?;
    e.start_game(Game::new(Arc::new(geo)));
    Ok(String::new())
}

fn boardsize(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let n = size_arg(args[0], "the size")?;
    new_board(e, n, n)
}

fn rect_boardsize(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let w = size_arg(args[0], "the width")?;
    let h = size_arg(args[1], "the height")?;
    new_board(e, w, h)
}

fn clear_board(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    e.start_game(Game::new(Arc::clone(e.game.position().geometry_arc())));
    Ok(String::new())
}

fn komi(_: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    parse_float(args[0])
        .ok_or_else(|| syntax(format!("komi must be a number, got '{}'", args[0])))?;
    Ok(String::new())
}

/// Parses a colour argument.
pub(crate) fn color_arg(token: &str) -> Result<Color, GtpError> {
    parse_color(token).ok_or_else(|| {
        syntax(format!(
            "expected a colour (b, black, w, white), got '{token}'"
        ))
    })
}

/// Parses a move argument and places it on the current board.
pub(crate) fn move_arg(pos: &Position, token: &str) -> Result<Move, GtpError> {
    match parse_move(token) {
        Some(MoveArg::Pass) => Ok(Move::Pass),
        Some(MoveArg::Vertex(v)) => pos
            .geometry()
            .point_checked(v.x, v.y)
            .map(Move::Place)
            .map_err(GtpError::Illegal),
        None => Err(syntax(format!(
            "expected a vertex such as D4, or pass, got '{token}'"
        ))),
    }
}

/// `play` with its move report; the table runs it through [`gogui::play`].
pub(super) fn play(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let color = color_arg(args[0])?;
    let mv = move_arg(e.game.position(), args[1])?;
    let report = e.game.play(color, mv).map_err(GtpError::Illegal)?;
    Ok(report_tokens(&report))
}

fn undo(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    e.game
        .undo()
        .map(|_| String::new())
        .ok_or(GtpError::CannotUndo)
}

fn list_legal(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    Ok(legal_list(e.game.position()))
}

fn final_score(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    match e.game.position().status() {
        Status::Over(o) => Ok(o.code().to_string()),
        _ => Err(GtpError::Failed("game is not over".into())),
    }
}

fn perft_cmd(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let depth = parse_int(args[0])
        .filter(|&d| d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| {
            syntax(format!(
                "depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, got '{}'",
                args[0]
            ))
        })?;
    perft(e.game.position(), depth as usize, PERFT_NODE_LIMIT)
        .map(|n| n.to_string())
        .map_err(|err| GtpError::Failed(err.to_string()))
}

/// `oust-setup COLOR ROWS [extra-turn]`: ROWS lists the rows from the top, separated by `/`, with `X` (or `B`)
/// for black, `O` (or `W`) for white and `.` (or `-`) for empty, in any case.
fn setup(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let to_move = color_arg(args[0])?;
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
    let (w, h) = geo.dimensions();
    let rows: Vec<&str> = args[1].split('/').collect();
    if rows.len() != h {
        return Err(syntax(format!(
            "the board has {h} rows, the setup gives {}",
            rows.len()
        )));
    }
    let mut stones = vec![None; geo.len()];
    for (r, row) in rows.iter().enumerate() {
        let y = h - 1 - r;
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != w {
            return Err(syntax(format!(
                "row {} has {} points, the board is {w} wide",
                y + 1,
                cells.len()
            )));
        }
        for (x, ch) in cells.into_iter().enumerate() {
            let p = geo.point_at(x, y).expect("inside the board");
            stones[p.index()] = match ch.to_ascii_uppercase() {
                'X' | 'B' => Some(Color::Black),
                'O' | 'W' => Some(Color::White),
                '.' | '-' => None,
                _ => {
                    return Err(syntax(format!(
                        "'{ch}' in row {} is not a point: use X or B, O or W, and . or -",
                        y + 1
                    )));
                }
            };
        }
    }
    e.start_game(Game::from_position(Position::setup(
        geo, &stones, to_move, extra,
    )));
    Ok(String::new())
}
