//! The writer: a game, or a game tree with its variations, as SGF text, and the property names Oust adds.

use std::fmt::Write as _;

use crate::rules::{Color, Game, Move, Position, Shape, Status};

/// Root information written with a game.
#[derive(Clone, Debug, Default)]
pub struct GameInfo {
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// Result (`RE`) when it is not the game's own (a forfeit, say); otherwise taken from the final position.
    pub result: Option<String>,
    /// Root comment (`C`).
    pub comment: Option<String>,
    /// Date (`DT`), as `YYYY-MM-DD`.
    pub date: Option<String>,
    /// Properties written as they are (such as `SBKV[56.8]`) in the root (index 0) and in the node of each move
    /// (index `n` for move `n`); positions beyond the list get none.
    pub node_properties: Vec<String>,
}

/// Escapes an SGF text value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The root node of `game`'s record, with `info`, ending with its set-up.
fn root_node(game: &Game, info: &GameInfo) -> String {
    let start = game.start();
    let geo = start.geometry();
    let (w, h) = geo.dimensions();
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    let _ = write!(out, "AP[oust:{}]", env!("CARGO_PKG_VERSION"));
    if w == h {
        let _ = write!(out, "SZ[{w}]");
    } else {
        let _ = write!(out, "SZ[{w}:{h}]");
    }
    if let Shape::Hex { side } = geo.shape() {
        let _ = write!(out, "{HEX_PROPERTY}[{side}]");
    }
    let _ = write!(out, "GN[Oust]");
    if game.pie() {
        let _ = write!(out, "{RULES_PROPERTY}[{PIE_RULES}]");
    }
    for (key, value) in [("PB", &info.black), ("PW", &info.white), ("DT", &info.date)] {
        if let Some(v) = value {
            let _ = write!(out, "{key}[{}]", escape(v));
        }
    }
    let result = info
        .result
        .clone()
        .or_else(|| match game.position().status() {
            Status::Over(o) => Some(o.code().to_string()),
            _ => None,
        });
    if let Some(r) = result {
        let _ = write!(out, "RE[{}]", escape(&r));
    }
    if let Some(c) = &info.comment {
        let _ = write!(out, "C[{}]", escape(c));
    }
    if let Some(extra) = info.node_properties.first() {
        out.push_str(extra);
    }
    for (key, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<String> = geo
            .points()
            .filter(|&p| start.color_at(p) == Some(color))
            .map(|p| format!("[{}]", geo.sgf_coord(p)))
            .collect();
        if !stones.is_empty() {
            let _ = write!(out, "{key}{}", stones.concat());
        }
    }
    if !stones_empty(start) || start.to_move() != Color::Black {
        let _ = write!(
            out,
            "PL[{}]",
            if start.to_move() == Color::Black {
                'B'
            } else {
                'W'
            }
        );
    }
    out
}

/// The SGF text of `game`, with `info` in the root node.
pub fn write(game: &Game, info: &GameInfo) -> String {
    let mut out = root_node(game, info);
    for (i, record) in game.records().iter().enumerate() {
        if i % 8 == 0 {
            out.push('\n');
        }
        move_node_text(&mut out, game, record.color, record.mv);
        if let Some(extra) = info.node_properties.get(i + 1) {
            out.push_str(extra);
        }
    }
    out.push_str(")\n");
    out
}

/// `;B[xy]` for a move of `game`'s board.
fn move_node_text(out: &mut String, game: &Game, color: Color, mv: Move) {
    let geo = game.start().geometry();
    let key = if color == Color::Black { 'B' } else { 'W' };
    let value = match mv {
        Move::Place(p) => geo.sgf_coord(p),
        Move::Pass => String::new(),
        Move::Swap => SWAP_VALUE.to_string(),
    };
    let _ = write!(out, ";{key}[{value}]");
}

/// A move of a game tree for [`write_tree`]: its colour and move, the properties written as they are in its node
/// (such as a review's `SBKV[56.8]`), and the moves tried after it (indices into the same list), the main line's
/// first.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeMove {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub move_: Move,
    /// Properties written after the move in its node.
    pub properties: String,
    /// The moves after it, the main line's first.
    pub children: Vec<usize>,
}

/// The SGF text of a game tree: the root node of `game` (the main line, played: its start, rule and result) with
/// `info` (its `node_properties` but the root's are not used: the moves carry theirs), then `moves` from `first`
/// (the first moves, the main line's first), each variation in SGF's own parentheses.
pub fn write_tree(game: &Game, info: &GameInfo, moves: &[TreeMove], first: &[usize]) -> String {
    let mut out = root_node(game, info);
    // Depth first: a sequence of moves goes on through each node's first child; where a node has several, each
    // goes in parentheses. The stack holds what is left to write: a sequence to start, or a `)`.
    enum Step {
        Sequence(usize, bool),
        Close,
    }
    let mut stack: Vec<Step> = Vec::new();
    let push_branches = |stack: &mut Vec<Step>, children: &[usize]| {
        if children.len() == 1 {
            stack.push(Step::Sequence(children[0], false));
        } else {
            for &k in children.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Sequence(k, true));
            }
        }
    };
    push_branches(&mut stack, first);
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Sequence(start, paren) => {
                if paren {
                    out.push_str("\n(");
                }
                let mut n = start;
                let mut written = 0;
                loop {
                    if written % 8 == 0 && !(paren && written == 0) {
                        out.push('\n');
                    }
                    let m = &moves[n];
                    move_node_text(&mut out, game, m.color, m.move_);
                    out.push_str(&m.properties);
                    written += 1;
                    if m.children.len() == 1 {
                        n = m.children[0];
                        continue;
                    }
                    push_branches(&mut stack, &m.children);
                    break;
                }
            }
        }
    }
    out.push_str(")\n");
    out
}

fn stones_empty(pos: &Position) -> bool {
    pos.stone_count(Color::Black) + pos.stone_count(Color::White) == 0
}

/// The private root property that marks a hexhex board: `HX[S]` for side S, with `SZ[2S-1]`.
pub const HEX_PROPERTY: &str = "HX";
/// The root property of a game a referee ended once the solver proved its position (`oust match --adjudicate`),
/// with the number of moves played then: `OUSTADJ[solver 41]`. Its `RE` is the proven result.
pub const ADJUDICATION_PROPERTY: &str = "OUSTADJ";

/// The root property (SGF's rules property) that says the game was played with the pie rule: `RU[pie]`.
pub const RULES_PROPERTY: &str = "RU";
/// The value of [`RULES_PROPERTY`] for the pie rule.
pub const PIE_RULES: &str = "pie";
/// The value of the pie rule's swap as a move: `W[swap-sides]`, as HexGui writes an exchange of sides.
pub const SWAP_VALUE: &str = "swap-sides";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;
    use crate::sgf::{SgfError, parse, parse_for, replay};
    use std::sync::Arc;

    fn play_all(game: &mut Game, moves: &[(usize, usize)]) {
        for &(x, y) in moves {
            let c = game.position().to_move();
            let p = game.position().geometry().point_at(x, y).unwrap();
            game.play(c, Move::Place(p)).unwrap();
        }
    }

    #[test]
    fn written_games_read_back_to_the_same_position() {
        let mut game = Game::new(Arc::new(Geometry::rect(7, 5).unwrap()));
        play_all(&mut game, &[(0, 0), (1, 1), (2, 2), (3, 3), (0, 1), (6, 4)]);
        let info = GameInfo {
            black: Some("a]b".into()),
            white: Some("w\\x".into()),
            ..GameInfo::default()
        };
        let text = write(&game, &info);
        assert!(text.starts_with("(;FF[4]GM[1]CA[UTF-8]"), "{text}");
        assert!(text.contains("SZ[7:5]"));
        assert!(text.contains("PB[a\\]b]PW[w\\\\x]"));
        let record = parse(&text).unwrap();
        assert_eq!(record.get("PB"), Some("a]b"));
        let back = replay(&record, None).unwrap();
        assert_eq!(back.position(), game.position());
        assert_eq!(back.records(), game.records());
    }

    #[test]
    fn hexhex_games_say_so_and_read_back() {
        let geo = Arc::new(Geometry::hex(3).unwrap());
        let mut game = Game::new(geo.clone());
        for name in ["C3", "E5", "A1", "C1", "E3"] {
            let c = game.position().to_move();
            let p = geo.parse_vertex(name).unwrap();
            game.play(c, Move::Place(p)).unwrap();
        }
        let text = write(&game, &GameInfo::default());
        assert!(text.contains("SZ[5]HX[3]"), "{text}");
        let record = parse(&text).unwrap();
        assert_eq!(record.board, Shape::Hex { side: 3 });
        let back = replay(&record, None).unwrap();
        assert_eq!(back.position(), game.position());
        // GoGui writes SZ alone: a square board, unless the reader is on the hexhex board of that rhombus.
        let gogui = text.replace("HX[3]", "").replace(
            &format!("AP[oust:{}]", env!("CARGO_PKG_VERSION")),
            "AP[GoGui:1.6.0]",
        );
        assert_eq!(parse(&gogui).unwrap().board, Shape::square(5));
        let on_hex = parse_for(&gogui, Some(Shape::Hex { side: 3 })).unwrap();
        assert_eq!(replay(&on_hex, None).unwrap().position(), game.position());
        assert_eq!(
            parse_for(&gogui, Some(Shape::Hex { side: 4 }))
                .unwrap()
                .board,
            Shape::square(5)
        );
        // A point of the rhombus off the hexagon, and a side that does not fit SZ.
        assert_eq!(
            parse("(;SZ[5]HX[3];B[aa])").unwrap_err().to_string(),
            "not a valid SGF record: [aa] is not a point of a hex3 board"
        );
        assert_eq!(
            parse("(;SZ[9]HX[3])").unwrap_err().to_string(),
            "unsupported SGF record: HX[3] needs SZ[5], the record has SZ[9:9]"
        );
        assert!(matches!(parse("(;HX[14])"), Err(SgfError::Unsupported(_))));
    }

    #[test]
    fn extra_turns_are_consecutive_moves_of_one_colour() {
        // Black A1 captures B2 (White's stones elsewhere keep the game going), then Black places again.
        let rows = [".....", ".....", ".....", "XO..O", "....."];
        let geo = Arc::new(Geometry::square(5).unwrap());
        let mut stones = vec![None; 25];
        for (r, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = geo.point_at(x, 4 - r).unwrap();
                stones[p.index()] = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
            }
        }
        let mut game = Game::from_position(Position::setup(geo, &stones, Color::Black, false));
        play_all(&mut game, &[(0, 2), (3, 3)]);
        let text = write(&game, &GameInfo::default());
        assert!(text.contains(";B[ac];B[db]"), "{text}");
        assert!(text.contains("AB[ad]AW[bd][ed]PL[B]"), "{text}");
        let back = replay(&parse(&text).unwrap(), None).unwrap();
        assert_eq!(back.position(), game.position());
    }
}
