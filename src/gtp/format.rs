//! Text of responses: the GTP response frame, move reports and the board diagram.

use std::fmt::Write as _;

use crate::rules::{Color, Move, MoveReport, Position, Status, column_letter};

use super::error::GtpError;

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

/// The name of a move on `pos`'s board: a vertex in upper case, or `pass`.
pub fn move_name(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Place(p) => pos.geometry().name(p),
        Move::Pass => "pass".to_string(),
    }
}

/// The legal moves of the side to move, separated by spaces: placements in point order, `pass` when a pass is
/// forced, nothing once the game is over.
pub fn legal_list(pos: &Position) -> String {
    let names: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| move_name(pos, m))
        .collect();
    names.join(" ")
}

/// The report tokens of a move, in the documented order: `capture N`, `extra-turn`, `forced-pass C`, `result R`.
/// Empty for a plain non-capturing placement.
pub fn report_tokens(report: &MoveReport) -> String {
    let mut tokens = Vec::new();
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

/// The board diagram of `showboard`: coordinates on all sides, `X` black, `O` white, `.` empty, the last
/// placement in parentheses, then the side to move, stone counts, last move and result.
pub fn board_diagram(pos: &Position) -> String {
    let geo = pos.geometry();
    let (w, h) = geo.dimensions();
    let last = match pos.last_move() {
        Some((_, Move::Place(p))) => Some(p),
        _ => None,
    };
    let letters: String = (0..w).map(|x| format!(" {}", column_letter(x))).collect();
    let mut out = String::new();
    let _ = writeln!(out, "\n  {letters}");
    for y in (0..h).rev() {
        let mut line = format!("{:>2}", y + 1);
        for x in 0..w {
            let p = geo.point_at(x, y).expect("inside the board");
            let ch = match pos.color_at(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            let is_last = last == Some(p);
            let after_last = x > 0 && last == geo.point_at(x - 1, y);
            line.push(if is_last {
                '('
            } else if after_last {
                ')'
            } else {
                ' '
            });
            line.push(ch);
        }
        let end_last = last == geo.point_at(w - 1, y);
        line.push(if end_last { ')' } else { ' ' });
        let _ = writeln!(out, "{line}{}", y + 1);
    }
    let _ = writeln!(out, "  {letters}");
    let status = pos.status();
    let turn = match status {
        Status::Over(_) => "game over".to_string(),
        Status::MustPass => format!("{} to move (no legal placement: must pass)", pos.to_move()),
        Status::Ongoing if pos.extra_turn() => {
            format!("{} to move (extra turn after a capture)", pos.to_move())
        }
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
        Some((c, mv)) => format!("{c} {}", move_name(pos, mv)),
        None => "none".to_string(),
    };
    let _ = writeln!(out, "last move: {last_text}");
    let result = match status {
        Status::Over(o) => o.describe(),
        _ => "none (game in progress)".to_string(),
    };
    let _ = write!(out, "result: {result}");
    out
}

/// One line of `oust-analyze` output: an `info` entry per searched root move, the move to be played first.
pub fn info_line(pos: &Position, info: &crate::search::RootInfo) -> String {
    let mut out = String::new();
    for (order, m) in info.moves.iter().enumerate() {
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
            let word = match o.winner() {
                Some(c) if c == pos.to_move() => "win",
                Some(_) => "loss",
                None => "draw",
            };
            let _ = write!(out, " proof {word}");
        }
        out.push_str(" pv");
        for &(c, mv) in &m.pv {
            let _ = write!(out, " {} {}", c.letter(), move_name(pos, mv));
        }
    }
    out
}
