//! The command table: the one list from which dispatch, `list_commands`, `known_command` and the documentation
//! check are all derived. It sits on top of the handlers and is the only module that knows them all.

use super::error::{GtpError, syntax};
use super::handlers::{board, clock, gogui, params, play, records, think};
use super::reply::Reply;
use super::state::Engine;

/// A command handler: the engine and the arguments, already counted against the table's arity.
pub type Handler = fn(&mut Engine, &[&str]) -> Result<Reply, GtpError>;

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
    /// The next input line (or the end of the input) stops its search, which then answers with what it has: the
    /// session watches the input while it runs and raises the engine's cancel flag, which every search looks at.
    pub cancellable: bool,
}

macro_rules! command {
    ($name:literal, $usage:literal, $min:literal..=$max:literal, $summary:literal, $run:expr) => {
        command!(@ $name, $usage, $min..=$max, $summary, $run, false)
    };
    (cancellable $name:literal, $usage:literal, $min:literal..=$max:literal, $summary:literal, $run:expr) => {
        command!(@ $name, $usage, $min..=$max, $summary, $run, true)
    };
    (@ $name:literal, $usage:literal, $min:literal..=$max:literal, $summary:literal, $run:expr, $cancellable:literal) => {
        CommandSpec {
            name: $name,
            usage: $usage,
            min_args: $min,
            max_args: $max,
            summary: $summary,
            run: $run,
            cancellable: $cancellable,
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
        board::boardsize
    ),
    command!(
        "rectangular_boardsize",
        "WIDTH HEIGHT",
        2..=2,
        "new empty WIDTH x HEIGHT board",
        board::rect_boardsize
    ),
    command!(
        "oust-board",
        "[BOARD]",
        0..=1,
        "new empty board: N, WxH or hexS; or the board's name",
        board::board
    ),
    command!(
        "clear_board",
        "",
        0..=0,
        "empty the board, Black to move",
        board::clear_board
    ),
    command!(
        "komi",
        "KOMI",
        1..=1,
        "accepted and ignored (Oust has no komi)",
        board::komi
    ),
    command!(
        "play",
        "COLOR MOVE",
        2..=2,
        "play a move, report captures and extra turns",
        play::play
    ),
    command!(
        "genmove",
        "COLOR",
        1..=1,
        "choose and play a move",
        think::genmove
    ),
    command!(
        cancellable "oust-genmove_cancellable",
        "COLOR",
        1..=1,
        "genmove that answers its best move so far as soon as the next line arrives",
        think::genmove
    ),
    command!(
        "reg_genmove",
        "COLOR",
        1..=1,
        "choose a move without playing it",
        think::reg_genmove
    ),
    command!("undo", "", 0..=0, "take back the last move", play::undo),
    command!(
        "showboard",
        "",
        0..=0,
        "board diagram and game state",
        board::showboard
    ),
    command!(
        "list_legal",
        "",
        0..=0,
        "legal moves of the side to move",
        play::list_legal
    ),
    command!(
        "final_score",
        "",
        0..=0,
        "B+, W+ or 0 once the game is over",
        play::final_score
    ),
    command!(
        "perft",
        "DEPTH",
        1..=1,
        "number of move sequences DEPTH moves long",
        board::perft_cmd
    ),
    command!(
        "oust-setup",
        "COLOR ROWS [extra-turn]",
        2..=3,
        "set up a position",
        board::setup
    ),
    command!(
        "oust-status",
        "",
        0..=0,
        "side to move, extra turn, counts, result",
        board::status
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
        "loadap",
        "FILE [VARIANT]",
        1..=2,
        "load an Abstract Play game: its JSON game record or a turn list",
        records::loadap
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
        "GoGui ruler: N, W H, or N hex",
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
        clock::time_settings
    ),
    command!(
        "kgs-time_settings",
        "SYSTEM [NUMBERS]",
        1..=4,
        "set both clocks, KGS style",
        clock::kgs_time_settings
    ),
    command!(
        "time_left",
        "COLOR TIME STONES",
        3..=3,
        "what is left on a clock",
        clock::time_left
    ),
    command!(
        "oust-list-params",
        "",
        0..=0,
        "every parameter and its value",
        params::list
    ),
    command!(
        "oust-get-param",
        "NAME",
        1..=1,
        "a parameter's value",
        params::get
    ),
    command!(
        "oust-set-param",
        "NAME VALUE",
        2..=2,
        "set a parameter",
        params::set
    ),
    command!(
        "oust-analyze",
        "[COLOR] [INTERVAL] [interval CENTISECONDS] [maxmoves N]",
        0..=6,
        "stream the search until the next command",
        think::analyze
    ),
    command!(
        "oust-suggest",
        "COLOR [play]",
        1..=2,
        "search: the best move, its win rate, visits and variation; played with play",
        think::suggest
    ),
    command!(
        "oust-heatmap",
        "",
        0..=0,
        "search, then a gfx heat map of the moves",
        think::heatmap
    ),
    command!(
        "oust-judge",
        "MOVE",
        1..=1,
        "search with MOVE forced: the best move, MOVE, and what MOVE lost",
        think::judge
    ),
    command!(
        "oust-solve",
        "[SECONDS]",
        0..=1,
        "prove the position: win|loss|draw MOVE DISTANCE, or unknown",
        think::solve
    ),
    command!(
        "oust-pv",
        "",
        0..=0,
        "search, then the principal variation as gfx",
        think::pv
    ),
];

/// The command table entry named `name`.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// Runs one command: looks it up, checks its number of arguments and runs its handler, turning a panic (a bug)
/// into an `internal error` answer.
///
/// # Errors
/// The command's [`GtpError`]; the state is then unchanged.
pub fn execute(engine: &mut Engine, name: &str, args: &[&str]) -> Result<Reply, GtpError> {
    engine.commands += 1;
    let spec = find(name).ok_or_else(|| unknown_command(name))?;
    if args.len() < spec.min_args || args.len() > spec.max_args {
        return Err(arity_error(spec, args));
    }
    let reply = engine.guarded(|engine| (spec.run)(engine, args));
    engine.warm_network();
    reply
}

/// The command that `name` means: itself when it is one, or the command an alias of [`ALIASES`] names (the engine
/// answers an alias with a hint rather than running it; a controller in front of it, as `oust gui`'s console, may
/// treat both alike).
pub fn meaning(name: &str) -> Option<&'static str> {
    find(name).map(|c| c.name).or_else(|| {
        let lower = name.to_ascii_lowercase();
        ALIASES
            .iter()
            .find(|(alias, _)| *alias == lower)
            .map(|&(_, command)| command)
    })
}

/// Names people type for a command, and the command they mean (checked in lower case). `help` has a hint of its
/// own.
const ALIASES: &[(&str, &str)] = &[
    ("exit", "quit"),
    ("bye", "quit"),
    ("q", "quit"),
    ("commands", "list_commands"),
    ("black", "play"),
    ("white", "play"),
    ("move", "play"),
    ("genmove_black", "genmove"),
    ("genmove_white", "genmove"),
    ("kgs-genmove_cleanup", "genmove"),
    ("board", "showboard"),
    ("show", "showboard"),
    ("print", "showboard"),
    ("legal", "list_legal"),
    ("legal_moves", "list_legal"),
    ("score", "final_score"),
    ("new", "clear_board"),
    ("clear", "clear_board"),
    ("size", "boardsize"),
    ("load", "loadsgf"),
    ("save", "printsgf"),
    ("savesgf", "printsgf"),
    ("lz-analyze", "oust-analyze"),
    ("analyze", "oust-analyze"),
    ("kata-analyze", "oust-analyze"),
    ("genmove_analyze", "oust-suggest"),
    ("lz-genmove_analyze", "oust-suggest"),
    ("kata-genmove_analyze", "oust-suggest"),
    ("suggest", "oust-suggest"),
    ("params", "oust-list-params"),
    ("set", "oust-set-param"),
    ("get", "oust-get-param"),
];

/// Longest part of an unknown name repeated in the error.
const MAX_NAME_SHOWN: usize = 40;

/// The error for a name that is not a command: the name, and a hint when a command is near it (another case, a
/// common alias, `oust-` left out, `-` for `_`, or one or two letters off). Nothing is guessed when no command is
/// close.
fn unknown_command(name: &str) -> GtpError {
    let shown = match name.char_indices().nth(MAX_NAME_SHOWN) {
        Some((cut, _)) => format!("{}...", &name[..cut]),
        None => name.to_string(),
    };
    GtpError::UnknownCommand {
        name: shown,
        hint: hint(name),
    }
}

fn hint(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    if lower != name && find(&lower).is_some() {
        return Some(format!("commands are lower case: did you mean {lower}?"));
    }
    if lower == "help" || lower == "?" {
        return Some("list_commands lists every command".into());
    }
    if let Some(&(_, command)) = ALIASES.iter().find(|(alias, _)| *alias == lower) {
        return Some(format!("did you mean {command}?"));
    }
    let normal = |s: &str| s.replace('-', "_");
    let prefixed = format!("oust-{lower}");
    if let Some(c) = COMMANDS
        .iter()
        .find(|c| c.name == prefixed || normal(c.name) == normal(&lower))
    {
        return Some(format!("did you mean {}?", c.name));
    }
    // One letter off for short names, two for longer ones; only the closest commands are named.
    if lower.chars().count() > MAX_NAME_SHOWN {
        return None;
    }
    let length = lower.chars().count();
    let most = if length <= 4 { 1 } else { 2 };
    // Names whose lengths differ by more than `most` are further than that: no distance to compute.
    let scored: Vec<(usize, &str)> = COMMANDS
        .iter()
        .filter(|c| c.name.chars().count().abs_diff(length) <= most)
        .map(|c| (edit_distance(&lower, c.name), c.name))
        .filter(|&(d, _)| d <= most)
        .collect();
    let best = scored.iter().map(|&(d, _)| d).min()?;
    let names: Vec<&str> = scored
        .iter()
        .filter(|&&(d, _)| d == best)
        .map(|&(_, n)| n)
        .collect();
    Some(format!("did you mean {}?", names.join(" or ")))
}

/// The fewest insertions, deletions, substitutions and swaps of two neighbouring characters that turn `a` into
/// `b` (optimal string alignment distance).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: the distance from a[..i] to b[..j].
    let mut d: Vec<Vec<usize>> = (0..=a.len())
        .map(|i| (0..=b.len()).map(|j| if i == 0 { j } else { i }).collect())
        .collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut best = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

fn arity_error(spec: &CommandSpec, args: &[&str]) -> GtpError {
    let got = args.len();
    let expected = match (spec.min_args, spec.max_args) {
        (0, 0) => "no arguments".to_string(),
        (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
        (a, b) => format!("{a} to {b} arguments"),
    };
    let usage = if spec.usage.is_empty() {
        String::new()
    } else {
        format!(" ({})", spec.usage)
    };
    // `loadsgf "my game.sgf"`: the quotes do not join what the spaces split.
    let quotes = if args.iter().any(|a| a.starts_with(['"', '\''])) {
        "; arguments are split at spaces, and quotes do not join them"
    } else {
        ""
    };
    syntax(format!(
        "{} takes {expected}{usage}, got {got}{quotes}",
        spec.name
    ))
}

fn known_command(_: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    Ok(find(args[0]).is_some().to_string().into())
}

fn list_commands(_: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n")
        .into())
}

fn quit(_: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(Reply::Quit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::state::Options;

    #[test]
    fn a_panic_in_a_command_is_an_error_answer_and_the_session_goes_on() {
        let mut e = Engine::new(Options::default()).unwrap();
        e.settings.playouts = 50;
        let run = |e: &mut Engine, line: &str| {
            let args: Vec<&str> = line.split(' ').collect();
            execute(e, args[0], &args[1..])
        };
        run(&mut e, "play b D4").unwrap();
        run(&mut e, "genmove w").unwrap();
        let before = e.game.records().to_vec();
        let got: Result<(), GtpError> = e.guarded(|_| panic!("search thread fell over"));
        assert_eq!(
            got.unwrap_err().to_string(),
            "internal error: search thread fell over; the search tree was dropped, the game is as it was"
        );
        assert_eq!(e.game.records(), &before[..]);
        let formatted: Result<(), GtpError> = e.guarded(|_| panic!("{} stones", 3));
        assert_eq!(
            formatted.unwrap_err().to_string(),
            "internal error: 3 stones; the search tree was dropped, the game is as it was"
        );
        // The engine goes on, with a fresh tree.
        assert!(run(&mut e, "genmove b").is_ok());
        assert_eq!(e.game.records().len(), before.len() + 1);
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("komi", "komi"), 0);
        assert_eq!(edit_distance("genmvoe", "genmove"), 1);
        assert_eq!(edit_distance("nmae", "name"), 1);
        assert_eq!(edit_distance("showbord", "showboard"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
