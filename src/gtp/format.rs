//! Text of responses: the GTP response frame, the text of each [`Reply`] (the one place the move-report mode is
//! applied), move reports, the state summary and the board diagram. Moves and rows are spelt by
//! [`crate::notation`].

use std::fmt::Write as _;

use crate::notation::{Notation, move_name as name_on, picture};
use crate::rules::{Color, Move, MoveReport, PieStage, Position, Status};

use super::error::GtpError;
use super::reply::Reply;

/// The one place a response's bytes are made: `=id text` or `?id text`, then a blank line. An empty text gives
/// `=id` alone; a text that starts with a newline (a diagram) starts on the line after `=id`. Empty lines inside
/// the text, which would end the response early, are dropped.
pub fn response(id: Option<u64>, result: &Result<String, GtpError>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.clone()),
        Err(e) => ('?', e.to_string()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    if let Some(id) = id {
        let _ = write!(out, "{id}");
    }
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    if !first.trim().is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in lines.filter(|l| !l.trim().is_empty()) {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// The text of a reply. Move reports are added only when `reports` is true: `play` then answers its report tokens
/// and `genmove` its move followed by them; otherwise `play` answers nothing and `genmove` the bare move, as
/// standard GTP does. A stream or the end of the session has no text of its own.
pub fn reply_text(reply: &Reply, reports: bool) -> String {
    match reply {
        Reply::Text(text) => text.clone(),
        Reply::Played(report) if reports => report_tokens(report),
        Reply::Generated { name, report } if reports => {
            let tokens = report_tokens(report);
            if tokens.is_empty() {
                name.clone()
            } else {
                format!("{name} {tokens}")
            }
        }
        Reply::Generated { name, .. } => name.clone(),
        Reply::Played(_) | Reply::Stream { .. } | Reply::Quit => String::new(),
    }
}

/// The name of a move on `pos`'s board: a vertex in upper case, or `pass`.
pub fn move_name(pos: &Position, mv: Move) -> String {
    name_on(pos.geometry(), mv)
}

/// The legal moves of the side to move in `notation`, separated by spaces: placements in point order, then `swap`
/// while the pie rule allows it, `pass` when a pass is forced, nothing once the game is over.
pub fn legal_list(pos: &Position, notation: Notation) -> String {
    let names: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| notation.move_text(pos.geometry(), m))
        .collect();
    names.join(" ")
}

/// The report tokens of a move, in the documented order: `swapped`, `capture N`, `extra-turn`, `forced-pass C`,
/// `result R`. Empty for a plain non-capturing placement.
pub fn report_tokens(report: &MoveReport) -> String {
    let mut tokens = Vec::new();
    if report.swapped {
        tokens.push("swapped".to_string());
    }
    if report.captured > 0 {
        tokens.push(format!("capture {}", report.captured));
    }
    if report.extra_turn {
        tokens.push("extra-turn".to_string());
    }
    if let Some(c) = report.forced_pass {
        tokens.push(format!("forced-pass {}", c.letter()));
    }
    if let Some(o) = report.outcome {
        tokens.push(format!("result {}", o.code()));
    }
    tokens.join(" ")
}

/// `b` or `w`.
fn letter(c: Color) -> char {
    c.letter()
}

/// The one-line state summary of `oust-status`.
pub fn status_line(pos: &Position) -> String {
    let status = pos.status();
    let to_move = match status {
        Status::Over(_) => "none".to_string(),
        _ => letter(pos.to_move()).to_string(),
    };
    let result = match status {
        Status::Over(o) => o.code(),
        _ => "none",
    };
    format!(
        "to-move {to_move} extra-turn {} must-pass {} stones-b {} stones-w {} captured-b {} captured-w {} placements {} result {result}",
        yes_no(pos.extra_turn() && !matches!(status, Status::Over(_))),
        yes_no(status == Status::MustPass),
        pos.stone_count(Color::Black),
        pos.stone_count(Color::White),
        pos.captured_by(Color::Black),
        pos.captured_by(Color::White),
        pos.placements(),
    )
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The board diagram of `showboard`: the board picture (coordinates, `X` black, `O` white, `.` empty, the last
/// placement in parentheses; see [`picture`]), then the side to move, stone counts, last move and result.
pub fn board_diagram(pos: &Position, notation: Notation) -> String {
    let mut out = String::from("\n");
    out.push_str(&picture(pos, notation));
    let status = pos.status();
    let turn = match status {
        Status::Over(_) => "game over".to_string(),
        Status::MustPass => format!("{} to move (no legal placement: must pass)", pos.to_move()),
        Status::Ongoing if pos.extra_turn() => {
            format!("{} to move (extra turn after a capture)", pos.to_move())
        }
        Status::Ongoing if matches!(pos.last_move(), Some((_, Move::Swap))) => format!(
            "{} to move again (after the swap: the players exchanged colours)",
            pos.to_move()
        ),
        Status::Ongoing => format!("{} to move", pos.to_move()),
    };
    let _ = writeln!(out, "{turn}");
    let _ = writeln!(
        out,
        "stones: black {}, white {}; captured: by black {}, by white {}",
        pos.stone_count(Color::Black),
        pos.stone_count(Color::White),
        pos.captured_by(Color::Black),
        pos.captured_by(Color::White)
    );
    let last_text = match pos.last_move() {
        Some((c, mv)) => format!("{c} {}", notation.move_text(pos.geometry(), mv)),
        None => "none".to_string(),
    };
    let _ = writeln!(out, "last move: {last_text}");
    if pos.pie() {
        let stage = match pos.pie_stage() {
            PieStage::Ahead => "white may swap after black's first placement",
            PieStage::Available => "white may swap now",
            PieStage::None if pos.last_move().is_some_and(|(_, m)| m == Move::Swap) => {
                "white swapped"
            }
            PieStage::None => "no swap any more",
        };
        let _ = writeln!(out, "pie rule: on ({stage})");
    }
    let result = match status {
        Status::Over(o) => o.describe(),
        _ => "none (game in progress)".to_string(),
    };
    let _ = write!(out, "result: {result}");
    out
}

/// The answer of `oust-suggest`: `move MOVE visits N winrate W [proof win|loss|draw] [played [REPORT]] pv C MOVE
/// ...`, moves in `notation`. `stats` is the search's view of the move (none for a move that was not searched, a
/// forced pass or the only legal move: then `visits 0`, no win rate, and the move alone as the variation);
/// `report` what the move did when it was played. The report tokens follow `played` whatever the report mode:
/// this is no standard command, and a controller that asks for the evaluation wants to know the turn too.
pub fn suggestion(
    pos: &Position,
    notation: Notation,
    mv: Move,
    stats: Option<&crate::search::MoveStats>,
    report: Option<&MoveReport>,
) -> String {
    let name = |mv: Move| notation.move_text(pos.geometry(), mv);
    let mut out = format!("move {} visits {}", name(mv), stats.map_or(0, |m| m.visits));
    if let Some(m) = stats {
        let _ = write!(out, " winrate {:.4}", m.winrate);
        if let Some(o) = m.proof {
            let _ = write!(out, " proof {}", proof_word(pos, o));
        }
    }
    if let Some(report) = report {
        out.push_str(" played");
        let tokens = report_tokens(report);
        if !tokens.is_empty() {
            out.push(' ');
            out.push_str(&tokens);
        }
    }
    out.push_str(" pv");
    match stats {
        Some(m) if !m.pv.is_empty() => {
            for &(c, mv) in &m.pv {
                let _ = write!(out, " {} {}", c.letter(), name(mv));
            }
        }
        _ => {
            let _ = write!(out, " {} {}", pos.to_move().letter(), name(mv));
        }
    }
    out
}

/// `oust-judge`'s answer: the best move and the played one, each as `MOVE winrate W visits N [proof R]`, then the
/// winning chance the played move lost (`loss`, a share of a win, with its standard error) in points of
/// percentage (`loss L error E`, or `loss unknown` when the played move has no value), then the best move's
/// principal variation.
pub fn judgement(
    pos: &Position,
    notation: Notation,
    best: (Move, Option<&crate::search::MoveStats>),
    played: (Move, Option<&crate::search::MoveStats>),
    loss: Option<(f64, f64)>,
) -> String {
    let name = |mv: Move| notation.move_text(pos.geometry(), mv);
    let side =
        |out: &mut String, word: &str, (mv, stats): (Move, Option<&crate::search::MoveStats>)| {
            let _ = write!(out, "{word} {}", name(mv));
            if let Some(m) = stats {
                let _ = write!(out, " winrate {:.4} visits {}", m.winrate, m.visits);
                if let Some(o) = m.proof {
                    let _ = write!(out, " proof {}", proof_word(pos, o));
                }
            } else {
                out.push_str(" visits 0");
            }
        };
    let mut out = String::new();
    side(&mut out, "best", best);
    side(&mut out, " played", played);
    match loss {
        Some((loss, error)) => {
            let _ = write!(out, " loss {:.1} error {:.1}", loss * 100.0, error * 100.0);
        }
        None => out.push_str(" loss unknown"),
    }
    out.push_str(" pv");
    match best.1 {
        Some(m) if !m.pv.is_empty() => {
            for &(c, mv) in &m.pv {
                let _ = write!(out, " {} {}", c.letter(), name(mv));
            }
        }
        _ => {
            let _ = write!(out, " {} {}", pos.to_move().letter(), name(best.0));
        }
    }
    out
}

/// `win`, `loss` or `draw`: a proven outcome for the side to move of `pos`.
fn proof_word(pos: &Position, o: crate::rules::Outcome) -> &'static str {
    match o.winner() {
        Some(c) if c == pos.to_move() => "win",
        Some(_) => "loss",
        None => "draw",
    }
}

/// One line of `oust-analyze` output: an `info` entry per searched root move, the move to be played first; at most
/// `max_moves` of them when that is given.
pub fn info_line(
    pos: &Position,
    info: &crate::search::RootInfo,
    max_moves: Option<usize>,
) -> String {
    let mut out = String::new();
    let shown = max_moves.unwrap_or(usize::MAX);
    for (order, m) in info.moves.iter().take(shown).enumerate() {
        if order > 0 {
            out.push(' ');
        }
        let _ = write!(
            out,
            "info move {} visits {} winrate {:.4} prior {:.4} order {order}",
            move_name(pos, m.mv),
            m.visits,
            m.winrate,
            m.prior
        );
        if let Some(o) = m.proof {
            let _ = write!(out, " proof {}", proof_word(pos, o));
        }
        out.push_str(" pv");
        for &(c, mv) in &m.pv {
            let _ = write!(out, " {} {}", c.letter(), move_name(pos, mv));
        }
    }
    out
}
