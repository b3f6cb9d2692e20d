//! The self-play data format (docs/learning.md): one line for each searched position, then one line that closes
//! the game. A game's lines are written together, so a file cut short ends in an unfinished game that a resumed
//! run drops.
//!
//! ```text
//! p GAME BOARD RESULT TO-MOVE EXTRA LAST ROWS MOVE:VISITS,MOVE:VISITS,...
//! g GAME BOARD RESULT POSITIONS playouts=P seed=S opening=K priors=PRIORS [net=CHECKSUM] [gumbel=M]
//! ```
//!
//! - `GAME`: the game's number in the run (0 for the first), `BOARD`: `9x9`, `hex7`, ...;
//! - `RESULT`: the winner, `b` or `w`, or `-` for a game stopped at the move cap;
//! - `TO-MOVE`: `b` or `w`; `EXTRA`: `1` during an extra turn, else `0`;
//! - `LAST`: the previous placement and its colour, `b:D4`, or `-` when there is none (the first move, or after a
//!   pass);
//! - `ROWS`: the stones as set-up rows (`X` black, `O` white, `.` empty, rows from the top joined by `/`);
//! - then every legal placement with the visits the search gave it, most visited first;
//! - the game line's settings: playouts a move, the run's seed, random opening placements, and the searches'
//!   priors (`handmade`, `learned`, or `learned:FILE` for another weights file). Files written before the last two
//!   were recorded end after `seed=S`, and are read as well. With the network's priors, `net=` names the network
//!   of the game's board by its checksum (a weights file's `checksum` line); files from before it lack it.
//!   `gumbel=M` ends the line of a game played by a Gumbel root search over M sampled moves (`oust selfplay
//!   --gumbel M`): its positions' numbers are then the search's improved policy in ten-thousandths, not visits.

use std::sync::Arc;

use crate::notation::{self, parse_rows, rows_text};
use crate::rules::{Color, Geometry, Move, Point, Position, Shape};

/// One searched position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The stones, side to move and extra-turn state.
    pub position: Position,
    /// The previous placement and its colour.
    pub last: Option<(Color, Point)>,
    /// Every legal move with the visits the search gave it.
    pub moves: Vec<(Move, u32)>,
}

/// One self-play game as the data holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// Its number in the run.
    pub number: u64,
    /// Its board.
    pub board: Shape,
    /// Its winner; `None` when stopped at the move cap.
    pub winner: Option<Color>,
    /// Its searched positions, in order.
    pub samples: Vec<Sample>,
    /// Playouts a move.
    pub playouts: u64,
    /// The run's seed.
    pub seed: u64,
    /// The run's random opening placements and the searches' priors, when the file records them.
    pub recipe: Option<(usize, String)>,
    /// The checksum of the network that played it ([`crate::net::Net::checksum`]), when the file records it.
    pub net: Option<u64>,
    /// The moves a Gumbel root search sampled, when one played it: the positions' numbers are then its improved
    /// policy in ten-thousandths, not visits.
    pub gumbel: Option<usize>,
}

fn color_letter(c: Color) -> char {
    match c {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "b" => Some(Color::Black),
        "w" => Some(Color::White),
        _ => None,
    }
}

fn result_text(winner: Option<Color>) -> String {
    winner.map_or("-".into(), |c| color_letter(c).to_string())
}

impl GameData {
    /// The game's lines, each ending in a newline.
    pub fn to_text(&self) -> String {
        let board = self.board.name();
        let result = result_text(self.winner);
        let mut out = String::new();
        for s in &self.samples {
            let geo = s.position.geometry();
            let last = s.last.map_or("-".into(), |(c, p)| {
                format!("{}:{}", color_letter(c), geo.name(p))
            });
            let moves: Vec<String> = s
                .moves
                .iter()
                .map(|&(mv, v)| format!("{}:{v}", notation::move_name(geo, mv)))
                .collect();
            out.push_str(&format!(
                "p {} {board} {result} {} {} {last} {} {}\n",
                self.number,
                color_letter(s.position.to_move()),
                u8::from(s.position.extra_turn()),
                rows_text(&s.position),
                moves.join(",")
            ));
        }
        out.push_str(&format!(
            "g {} {board} {result} {} playouts={} seed={}",
            self.number,
            self.samples.len(),
            self.playouts,
            self.seed
        ));
        if let Some((opening, priors)) = &self.recipe {
            out.push_str(&format!(" opening={opening} priors={priors}"));
            if let Some(net) = self.net {
                out.push_str(&format!(" net={net:016x}"));
            }
            if let Some(m) = self.gumbel {
                out.push_str(&format!(" gumbel={m}"));
            }
        }
        out.push('\n');
        out
    }
}

/// The optional settings after `priors=`: `net=CHECKSUM`, then `gumbel=M`, each at most once.
fn extras(fields: &[&str]) -> Result<(Option<u64>, Option<usize>), String> {
    let (mut net, mut gumbel) = (None, None);
    for f in fields {
        if let Some(h) = f.strip_prefix("net=")
            && net.is_none()
            && gumbel.is_none()
        {
            net = Some(
                u64::from_str_radix(h, 16)
                    .map_err(|_| format!("expected net=CHECKSUM (hexadecimal), found '{f}'"))?,
            );
        } else if let Some(m) = f.strip_prefix("gumbel=")
            && gumbel.is_none()
        {
            gumbel =
                Some(m.parse::<usize>().ok().filter(|&m| m > 0).ok_or_else(|| {
                    format!("expected gumbel=M (a positive number), found '{f}'")
                })?);
        } else {
            return Err(format!(
                "expected net=CHECKSUM or gumbel=M after priors=, found '{f}'"
            ));
        }
    }
    Ok((net, gumbel))
}

/// Reads self-play data: every complete game, in order, and the byte length of the text they fill (what a resumed
/// run keeps; an unfinished game after it is dropped).
///
/// # Errors
/// A message with the number of the first line that is broken, or whose game disagrees with its position lines.
pub fn parse(text: &str) -> Result<(Vec<GameData>, usize), String> {
    let mut games = Vec::new();
    let complete = parse_each(text, &mut |g| games.push(g))?;
    Ok((games, complete))
}

/// Reads self-play data as [`parse`] does, handing each complete game to `each` as soon as it is read, so that a
/// large file's games need not all be in memory at once; returns the byte length of the complete games.
///
/// # Errors
/// As [`parse`]; the games before the broken line have been handed over.
pub fn parse_each(text: &str, each: &mut dyn FnMut(GameData)) -> Result<usize, String> {
    let mut samples: Vec<Sample> = Vec::new();
    let mut open: Option<(u64, Shape, Option<Color>)> = None;
    let mut complete_len = 0;
    let mut offset = 0;
    let mut geo: Option<Arc<Geometry>> = None;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let n = i + 1;
        offset += raw.len();
        let Some(line) = raw.strip_suffix('\n') else {
            // The last line, cut short: an unfinished game.
            break;
        };
        let bad = |what: &str| format!("line {n}: {what}");
        let fields: Vec<&str> = line.split(' ').collect();
        let number = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| bad(&format!("'{s}' is not a game number")))
        };
        let board = |s: &str| {
            Shape::parse(s)
                .ok()
                .filter(|&b| Geometry::new(b).is_ok())
                .ok_or_else(|| bad(&format!("'{s}' is not a board")))
        };
        let result = |s: &str| match s {
            "-" => Ok(None),
            _ => parse_color(s)
                .map(Some)
                .ok_or_else(|| bad(&format!("'{s}' is not a result (b, w or -)"))),
        };
        match fields.first().copied() {
            Some("p") if fields.len() == 9 => {
                let key = (number(fields[1])?, board(fields[2])?, result(fields[3])?);
                match open {
                    Some(o) if o != key => {
                        return Err(bad("a position of another game before its game line"));
                    }
                    _ => open = Some(key),
                }
                if geo.as_ref().is_none_or(|g| g.shape() != key.1) {
                    geo = Some(Geometry::shared(key.1).map_err(|e| bad(&e.to_string()))?);
                }
                let geo = geo.clone().expect("a geometry");
                let to_move =
                    parse_color(fields[4]).ok_or_else(|| bad("the side to move is not b or w"))?;
                let extra = match fields[5] {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad("the extra-turn state is not 0 or 1")),
                };
                let last = match fields[6] {
                    "-" => None,
                    s => {
                        let (c, v) = s
                            .split_once(':')
                            .ok_or_else(|| bad(&format!("'{s}' is not a last placement")))?;
                        let c = parse_color(c)
                            .ok_or_else(|| bad(&format!("'{s}' is not a last placement")))?;
                        let p = geo.parse_vertex(v).map_err(|e| bad(&e.to_string()))?;
                        Some((c, p))
                    }
                };
                let stones = parse_rows(&geo, fields[7]).map_err(|e| bad(&e.to_string()))?;
                let position = Position::setup(geo.clone(), &stones, to_move, extra);
                let mut moves = Vec::new();
                for m in fields[8].split(',') {
                    let (v, visits) = m
                        .split_once(':')
                        .ok_or_else(|| bad(&format!("'{m}' is not MOVE:VISITS")))?;
                    let mv = notation::parse_move(&geo, v).map_err(|e| bad(&e.to_string()))?;
                    let visits = visits
                        .parse::<u32>()
                        .map_err(|_| bad(&format!("'{m}' is not MOVE:VISITS")))?;
                    let Move::Place(p) = mv else {
                        return Err(bad(&format!("'{m}' is not a placement")));
                    };
                    if position.check_placement(to_move, p).is_err() {
                        return Err(bad(&format!("{v} is not a legal placement there")));
                    }
                    moves.push((mv, visits));
                }
                if moves.iter().all(|m| m.1 == 0) {
                    return Err(bad("no move has a visit"));
                }
                samples.push(Sample {
                    position,
                    last,
                    moves,
                });
            }
            Some("g") if (7..=11).contains(&fields.len()) && fields.len() != 8 => {
                let key = (number(fields[1])?, board(fields[2])?, result(fields[3])?);
                if open.is_some_and(|o| o != key) {
                    return Err(bad("the game line disagrees with its positions"));
                }
                let count = number(fields[4])?;
                if count != samples.len() as u64 {
                    return Err(bad(&format!(
                        "the game has {} positions, its line says {count}",
                        samples.len()
                    )));
                }
                let (net, gumbel) = match fields.get(9..) {
                    Some(rest) => extras(rest).map_err(|e| bad(&e))?,
                    None => (None, None),
                };
                let setting = |s: &str, name: &str| {
                    s.strip_prefix(name)
                        .and_then(|v| v.parse::<u64>().ok())
                        .ok_or_else(|| bad(&format!("expected {name}N, found '{s}'")))
                };
                each(GameData {
                    number: key.0,
                    board: key.1,
                    winner: key.2,
                    samples: std::mem::take(&mut samples),
                    playouts: setting(fields[5], "playouts=")?,
                    seed: setting(fields[6], "seed=")?,
                    recipe: match fields.get(7..9) {
                        Some([opening, priors]) => Some((
                            setting(opening, "opening=")? as usize,
                            priors
                                .strip_prefix("priors=")
                                .filter(|p| !p.is_empty())
                                .ok_or_else(|| {
                                    bad(&format!("expected priors=NAME, found '{priors}'"))
                                })?
                                .to_string(),
                        )),
                        _ => None,
                    },
                    net,
                    gumbel,
                });
                open = None;
                complete_len = offset;
            }
            _ => {
                return Err(bad(
                    "not a position line (p ...) or a game line (g ...) of self-play data",
                ));
            }
        }
    }
    Ok(complete_len)
}
