//! GoGui support: the ruler commands (`gogui-rules_*`) through which GoGui plays games other than Go, the analyze
//! commands it shows in its menu, and the move-report switch that keeps `genmove` answers within strict GTP.
//!
//! GoGui is recognised by its use of the `gogui-rules_*` commands: from the first one on, with reports in `auto`
//! mode, `play` and `genmove` answer as standard GTP does (a bare vertex from `genmove`), because GoGui rejects
//! anything after the vertex as a malformed response. The formatter applies that mode
//! ([`crate::gtp::format::reply_text`]).

use crate::gtp::error::{GtpError, syntax};
use crate::gtp::format::legal_list;
use crate::gtp::reply::Reply;
use crate::gtp::state::{Engine, Reports};
use crate::notation;
use crate::notation::Notation;
use crate::rules::{Color, Outcome, Position, Status};

/// One entry of `gogui-analyze_commands`: GoGui shows `label` in its analyze menu, sends `command` and displays
/// the response as `kind` says (see GoGui's manual, chapter "Analyze Commands").
pub struct AnalyzeSpec {
    /// GoGui's response type: `plist`, `gfx`, `string`, `dboard`, `var`, ...
    pub kind: &'static str,
    /// The menu label.
    pub label: &'static str,
    /// The command line sent, which may contain GoGui's placeholders such as `%c` (the colour to move).
    pub command: &'static str,
}

/// The analyze commands offered to GoGui, in menu order. A new analysis (a heat map as `dboard` or `gfx`, a
/// principal variation as `var`) is one more line here; a test checks that each command is in the command table.
pub static ANALYZE_COMMANDS: &[AnalyzeSpec] = &[
    AnalyzeSpec {
        kind: "plist",
        label: "Legal moves",
        command: "list_legal",
    },
    AnalyzeSpec {
        kind: "gfx",
        label: "Group sizes",
        command: "oust-group_sizes",
    },
    AnalyzeSpec {
        kind: "gfx",
        label: "Heat map",
        command: "oust-heatmap",
    },
    AnalyzeSpec {
        kind: "gfx",
        label: "Principal variation",
        command: "oust-pv",
    },
    AnalyzeSpec {
        kind: "string",
        label: "Game status",
        command: "oust-status",
    },
    AnalyzeSpec {
        kind: "string",
        label: "Board diagram",
        command: "showboard",
    },
];

/// `gogui-analyze_commands`: one `kind/label/command` line per entry of [`ANALYZE_COMMANDS`].
pub fn analyze_commands(_: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(ANALYZE_COMMANDS
        .iter()
        .map(|a| format!("{}/{}/{}", a.kind, a.label, a.command))
        .collect::<Vec<_>>()
        .join("\n")
        .into())
}

/// Notes that the controller is GoGui (it has sent a `gogui-rules_*` command) and returns the position.
fn ruler(e: &mut Engine) -> &Position {
    if !e.gogui {
        e.gogui = true;
        if e.options.reports == Reports::Auto {
            log::info!("GoGui detected (gogui-rules_* command): move reports off from now on");
        }
    }
    e.game.position()
}

/// `gogui-rules_game_id`: `Oust`.
pub fn game_id(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    ruler(e);
    Ok("Oust".into())
}

/// `gogui-rules_board`: the rows of GoGui's square grid from the top, `X` black, `O` white, `.` empty, `?` where the
/// board has no point (see [`crate::rules::Geometry::grid_rows`]), separated by spaces.
pub fn board(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(notation::grid_text(ruler(e)).into())
}

/// `gogui-rules_board_size`: `N` for the square grid GoGui draws (a square board, or a rectangle inside the square
/// of its longer side), `N hex` for a hexhex board on its rhombus of N columns. GoGui cannot draw rectangles: it
/// quits when told `W H` with W > H, and shows a W x W board when W < H.
pub fn board_size(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let geo = ruler(e).geometry();
    let n = geo.square_side();
    Ok(if geo.shape().is_hex() {
        format!("{n} hex")
    } else {
        n.to_string()
    }
    .into())
}

/// `gogui-rules_legal_moves`: the legal placements, `pass` when a pass is forced, nothing once the game is over
/// (which is how GoGui learns that it is). The pie rule's `swap` is left out: GoGui reads only points and `pass`.
pub fn legal_moves(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let list = legal_list(ruler(e), Notation::Gtp);
    let points: Vec<&str> = list.split(' ').filter(|&m| m != notation::SWAP).collect();
    Ok(points.join(" ").into())
}

/// `gogui-rules_side_to_move`: `black` or `white`.
pub fn side_to_move(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    Ok(ruler(e).to_move().name().into())
}

/// `gogui-rules_final_result`: a sentence for GoGui's end-of-game dialog.
pub fn final_result(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let pos = ruler(e);
    let Status::Over(outcome) = pos.status() else {
        return Err(GtpError::Failed("game is not over".into()));
    };
    let placements = notation::count(pos.placements(), "placement");
    Ok(match outcome {
        Outcome::Win(c) => format!(
            "{} wins: all {} stones captured after {placements}",
            capitalized(c),
            c.opponent()
        ),
        Outcome::Draw => format!("No winner: neither player can place after {placements}"),
    }
    .into())
}

fn capitalized(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `gogui-rules_captured_count`: stones captured by Black, then by White.
pub fn captured_count(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let pos = ruler(e);
    Ok(format!(
        "{} {}",
        pos.captured_by(Color::Black),
        pos.captured_by(Color::White)
    )
    .into())
}

/// `oust-group_sizes`: a GoGui `gfx` text labelling every stone with the size of its group, then a `TEXT` line
/// with the number of groups and the largest group of each colour.
pub fn group_sizes(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let pos = e.game.position();
    let geo = pos.geometry();
    let mut labels = Vec::new();
    // stones[c][s]: stones of colour c in groups of size s; such groups number stones[c][s] / s.
    let mut stones = [vec![0usize; geo.len() + 1], vec![0usize; geo.len() + 1]];
    for p in geo.points() {
        if let Some(c) = pos.color_at(p) {
            let size = pos.group_size_at(p);
            labels.push(format!("{} {size}", geo.name(p)));
            stones[c.index()][size] += 1;
        }
    }
    let summary = |c: Color| {
        let by_size = &stones[c.index()];
        let groups: usize = by_size.iter().enumerate().skip(1).map(|(s, n)| n / s).sum();
        let largest = by_size.iter().rposition(|&n| n > 0).unwrap_or(0);
        format!(
            "{c} {} (largest {largest})",
            notation::count(groups, "group")
        )
    };
    let text = format!("TEXT {}, {}", summary(Color::Black), summary(Color::White));
    Ok(if labels.is_empty() {
        text
    } else {
        format!("LABEL {}\n{text}", labels.join(" "))
    }
    .into())
}

/// `oust-reports [auto|on|off]`: sets the report mode when given one, and answers the mode and whether reports
/// are on now, for example `auto off` once GoGui has been detected.
pub fn reports(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    if let Some(arg) = args.first() {
        e.options.reports = Reports::from_name(arg).ok_or_else(|| {
            syntax(format!(
                "the report mode must be auto, on or off, got '{arg}'"
            ))
        })?;
    }
    Ok(format!(
        "{} {}",
        e.options.reports.name(),
        if e.reports() { "on" } else { "off" }
    )
    .into())
}
