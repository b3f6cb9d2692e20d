//! The game the server owns: the position shown through the rules core, every move and variation tried
//! ([`Tree`]: nothing is dropped), who plays each colour. Every change goes through here, and every refusal is
//! the rules' own wording. Records in and out are in records.rs, the page's JSON in page.rs.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::abstract_play;
use crate::gtp::GtpError;
use crate::notation::{self, cell_name};
use crate::rules::{Color, Game, Geometry, Move, Outcome, Position, Shape, Status};
use crate::sgf;

use super::tree::{NodeId, ROOT, Tree};
use crate::review::{self, Review};

mod page;
mod records;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the page.
    Human,
    /// The engine.
    Engine,
}

impl Player {
    /// Reads `human` or `engine`.
    ///
    /// # Errors
    /// A message for any other text.
    pub fn parse(text: &str) -> Result<Player, String> {
        match text {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine),
            other => Err(format!("a player is human or engine, got '{other}'")),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

/// How long the engine thinks per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strength {
    /// The engine's own default.
    Default,
    /// Seconds per move.
    Seconds(f64),
    /// Playouts per move.
    Playouts(u64),
    /// A strength level of oust (`oust-set-param level N`), 1 to `MAX_LEVEL`.
    Level(u8),
}

/// The settings of a new game.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// The board.
    pub board: Shape,
    /// Who plays Black and White.
    pub players: [Player; 2],
    /// The pie rule.
    pub pie: bool,
    /// The engine's strength.
    pub strength: Strength,
}

impl Default for NewGame {
    fn default() -> NewGame {
        NewGame {
            board: Shape::square(9),
            players: [Player::Human, Player::Engine],
            pie: false,
            strength: Strength::Default,
        }
    }
}

/// The game and everything the page shows about it.
pub struct Session {
    /// The game up to the position shown, through the rules: the path of [`Session::tree`] to its current node.
    pub game: Game,
    /// Every move tried, with its variations; its current node is the position shown.
    tree: Tree,
    /// The engine plays on at the position shown although the line goes on (Play on from here): its move follows
    /// the line where it is the line's next one, and starts a variation otherwise. Any move through the record
    /// ends it.
    pub engine_plays_on: bool,
    /// Who plays each colour (indexed by [`Color::index`]).
    pub players: [Player; 2],
    /// The engine's strength.
    pub strength: Strength,
    /// The colour that resigned, if one did.
    pub resigned: Option<Color>,
    /// The last refusal of a click or an upload, for the page to show.
    pub refusal: Option<String>,
    /// Where the game came from, for the page (a loaded record's name).
    pub source: Option<String>,
    /// A message for the page that is not a refusal: what a loaded record holds, and what was left out of it.
    pub notice: Option<String>,
    /// The players' names of a loaded record (its `PB` and `PW`, or Abstract Play's players), kept in the saved SGF.
    pub names: [Option<String>; 2],
    /// A loaded record open for review: nobody moves (neither a click nor the engine) until the user chooses who
    /// plays on ([`Session::play_on`]).
    pub review: bool,
    /// True when [`Session::players`] holds the seats exchanged by a swap of the record played so far (rule 9):
    /// every change of the game keeps the seats in step with the record.
    seats_swapped: bool,
    /// True once this game's result against a level has been counted ([`Session::level_result`]).
    pub level_counted: bool,
    /// The review a loaded record held (its win rates and lines), for the page to show without analysing again.
    pub loaded_review: Option<Review>,
    /// The game's date (SGF `DT`, `YYYY-MM-DD`): the day a new game started, or a loaded record's own.
    pub date: Option<String>,
    /// A loaded record's root comment (`C`, none for a record without one), its placements and its lines of
    /// play: the saved SGF keeps the comment, and says where the game went on in oust gui if it did.
    loaded: Option<(Option<String>, Line, usize)>,
}

/// The placements of a game, in order.
type Line = Vec<(Color, Move)>;

impl Strength {
    /// The strength in words, as the saved record's comment gives it: "its default strength", "2 s a move",
    /// "150 playouts a move", "level 3".
    pub fn describe(self) -> String {
        match self {
            Strength::Default => "its default strength".to_string(),
            Strength::Seconds(s) => format!("{s} s a move"),
            Strength::Playouts(n) => format!("{n} playouts a move"),
            Strength::Level(n) => format!("level {n}"),
        }
    }
}

/// A colour's name with a capital, as the status line writes it.
fn cap(c: Color) -> String {
    let mut s = c.name().to_string();
    s[..1].make_ascii_uppercase();
    s
}

/// The stones of `before` that are gone in `after`.
fn removed(before: &Position, after: &Position) -> Vec<String> {
    let geo = after.geometry();
    geo.points()
        .filter(|&p| before.color_at(p).is_some() && after.color_at(p).is_none())
        .map(|p| geo.name(p))
        .collect()
}

impl Session {
    /// A new game with these settings.
    ///
    /// # Errors
    /// The message of a board oust does not play.
    pub fn new(settings: &NewGame) -> Result<Session, String> {
        let geo = Geometry::shared(settings.board).map_err(|e| e.to_string())?;
        let mut game = Game::new(geo);
        game.set_pie(settings.pie)
            .expect("a new game has no swap to undo");
        Ok(Session {
            game,
            tree: Tree::new(),
            engine_plays_on: false,
            players: settings.players,
            strength: settings.strength,
            resigned: None,
            refusal: None,
            source: None,
            notice: None,
            names: [None, None],
            review: false,
            seats_swapped: false,
            level_counted: false,
            loaded_review: None,
            date: Some(super::date::today()),
            loaded: None,
        })
    }

    /// True when the moves played so far hold the pie rule's swap.
    fn swapped(&self) -> bool {
        self.game.records().iter().any(|r| r.mv == Move::Swap)
    }

    /// Keeps the seats in step with the record: a swap played exchanges who plays Black and White (rule 9: the
    /// swapper owns the black stone, and White, now played by the one who placed it, moves next); a swap taken
    /// back exchanges them again.
    fn sync_seats(&mut self) {
        let swapped = self.swapped();
        if swapped != self.seats_swapped {
            self.players.swap(0, 1);
            self.seats_swapped = swapped;
        }
    }

    /// Ends the review of a loaded record: `players` play on from the position shown.
    pub fn play_on(&mut self, players: [Player; 2]) {
        self.players = players;
        self.review = false;
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        self.game.position().geometry_arc()
    }

    /// The level and whether the one human won, when a game of one human against the engine at a level is over
    /// (a draw counts as neither); `None` otherwise, and for a loaded record under review.
    pub fn level_result(&self) -> Option<(u8, bool)> {
        let Strength::Level(n) = self.strength else {
            return None;
        };
        if self.review {
            return None;
        }
        let human = match self.players {
            [Player::Human, Player::Engine] => Color::Black,
            [Player::Engine, Player::Human] => Color::White,
            _ => return None,
        };
        let winner = match (self.resigned, self.game.position().status()) {
            (Some(c), _) => c.opponent(),
            (None, Status::Over(Outcome::Win(c))) => c,
            _ => return None,
        };
        Some((n, winner == human))
    }

    /// True when no one can move any more: the rules ended the game, or a player resigned.
    pub fn over(&self) -> bool {
        self.resigned.is_some() || matches!(self.game.position().status(), Status::Over(_))
    }

    /// Who plays the side to move.
    pub fn player_to_move(&self) -> Player {
        self.players[self.game.position().to_move().index()]
    }

    /// Plays `text` (a vertex, `pass` or `swap`) for the side to move, as [`Session::play`] does. A forced pass
    /// that follows is played too.
    ///
    /// # Errors
    /// The engine's wording of the refusal (`illegal move: ...`), or a syntax message; nothing changes then.
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        let geo = self.geometry().clone();
        let mv = notation::parse_move(&geo, text.trim()).map_err(|e| match e {
            notation::MoveTextError::OffBoard(e) => GtpError::Illegal(e).to_string(),
            e => GtpError::Syntax(e.to_string()).to_string(),
        })?;
        self.play(mv)
    }

    /// Plays `mv` for the side to move (see [`Session::play_text`]): the line's next move is followed with the
    /// rest of its line, a move tried before from here goes into its variation, and any other starts a new one.
    ///
    /// # Errors
    /// As [`Session::play_text`].
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        if let Some(c) = self.resigned {
            return Err(format!("the game is over: {c} resigned"));
        }
        if self.review {
            return Err(
                "this record is open for review: choose who plays on (Play on) before placing"
                    .to_string(),
            );
        }
        let color = self.game.position().to_move();
        self.game
            .play(color, mv)
            .map_err(|e| GtpError::Illegal(e).to_string())?;
        self.tree.advance(color, mv);
        self.refusal = None;
        self.notice = None;
        self.pass_if_forced(false);
        self.sync_seats();
        Ok(())
    }

    /// Plays the forced pass when the side to move has no placement: at the end of the line shown, or anywhere
    /// with `mid_line` (otherwise, inside a line, the pass is its next move, played by going forward).
    pub fn pass_if_forced(&mut self, mid_line: bool) {
        if (mid_line || self.tree.next().is_none())
            && self.game.position().status() == Status::MustPass
        {
            let color = self.game.position().to_move();
            self.game
                .play(color, Move::Pass)
                .expect("the rules say a pass is forced");
            self.tree.advance(color, Move::Pass);
        }
    }

    /// The moves of the line shown: up to the position shown, then on as far as the line goes.
    pub fn line_moves(&self) -> Vec<(Color, Move)> {
        self.tree.line_moves()
    }

    /// True when the engine may move at the position shown: at the end of its line, or when asked to play on
    /// from here ([`Session::engine_plays_on`]).
    pub fn engine_may_move(&self) -> bool {
        self.engine_plays_on || self.tree.next().is_none()
    }

    /// Goes to node `n` of the tree: the game is taken back to what it shares with `n`'s path and played on along
    /// it. The line shown passes through `n`.
    fn show(&mut self, n: NodeId) {
        let path: Vec<(Color, Move)> = self
            .tree
            .path_to(n)
            .into_iter()
            .filter_map(|k| self.tree.mv(k))
            .collect();
        let shared = self
            .game
            .records()
            .iter()
            .zip(&path)
            .take_while(|(r, m)| (r.color, r.mv) == **m)
            .count();
        while self.game.records().len() > shared && self.game.undo().is_some() {}
        let mut reached = n;
        for (i, &(c, mv)) in path.iter().enumerate().skip(self.game.records().len()) {
            if let Err(e) = self.game.play(c, mv) {
                // The tree holds only moves the rules allowed: this is a bug, not the user's doing.
                log::error!("move {} of the tree ({c} {mv:?}) is refused: {e}", i + 1);
                reached = self
                    .tree
                    .path_to(n)
                    .get(i.wrapping_sub(1))
                    .copied()
                    .unwrap_or(ROOT);
                break;
            }
        }
        self.tree.go_to(reached);
        self.engine_plays_on = false;
        self.resigned = None;
        self.refusal = None;
        self.sync_seats();
    }

    /// Takes back one placement (with the forced pass after it, if any), or one whole turn (`turn`): every
    /// placement of the side that moved last. The line shown keeps them, to go forward again. Returns false when
    /// there was nothing to take back.
    pub fn undo(&mut self, turn: bool) -> bool {
        self.resigned = None;
        let Some(last) = self.game.records().last().map(|r| r.color) else {
            return false;
        };
        let take = |s: &mut Session| {
            if let Some(r) = s.game.undo() {
                s.tree.back();
                // A pass is only ever forced: it goes with the move before it.
                if r.mv == Move::Pass && s.game.undo().is_some() {
                    s.tree.back();
                }
            }
        };
        take(self);
        if turn {
            while self
                .game
                .records()
                .last()
                .is_some_and(|r| r.color == last && r.mv != Move::Pass)
                && self.game.position().to_move() == last
                && self.game.position().extra_turn()
            {
                take(self);
            }
        }
        self.engine_plays_on = false;
        self.refusal = None;
        self.sync_seats();
        true
    }

    /// Goes forward one move of the line shown (with the forced pass after it), or a whole turn. Returns false
    /// at the end of the line.
    pub fn redo(&mut self, turn: bool) -> bool {
        let Some((color, _)) = self.tree.next().and_then(|k| self.tree.mv(k)) else {
            return false;
        };
        while let Some(k) = self.tree.next() {
            let Some((c, mv)) = self.tree.mv(k) else {
                break;
            };
            if self.game.play(c, mv).is_err() {
                break;
            }
            self.tree.go_to(k);
            let next = self.tree.next().and_then(|k| self.tree.mv(k));
            if let Some((_, Move::Pass)) = next {
                continue;
            }
            let again =
                turn && next.is_some_and(|(c, _)| c == color) && self.game.position().extra_turn();
            if !again {
                break;
            }
        }
        self.engine_plays_on = false;
        self.refusal = None;
        self.sync_seats();
        true
    }

    /// Goes to the position after `moves` moves of the line shown (its moves after the position shown included).
    pub fn jump(&mut self, moves: usize) {
        let line = self.tree.line();
        let n = match moves.min(line.len()) {
            0 => ROOT,
            k => line[k - 1],
        };
        self.show(n);
    }

    /// Goes to node `n` of the tree (a variation's move that the move list offers), and shows its line.
    ///
    /// # Errors
    /// A message when `n` is not in the tree (a variation deleted since the page was drawn).
    pub fn go_to(&mut self, n: NodeId) -> Result<(), String> {
        if !self.tree.contains(n) {
            return Err(format!(
                "there is no position {n} in the game's tree: its variation was deleted"
            ));
        }
        self.show(n);
        Ok(())
    }

    /// Makes the line shown the main line of the record.
    ///
    /// # Errors
    /// A message when it is the main line already.
    pub fn promote(&mut self) -> Result<(), String> {
        if self.tree.promote() {
            self.notice = Some("this line is now the main line".to_string());
            Ok(())
        } else {
            Err("the line shown is the main line already".to_string())
        }
    }

    /// Deletes the innermost variation of the line shown, from its first move on (the position shown goes back
    /// to the move before it when it was inside).
    ///
    /// # Errors
    /// A message when the line shown is the main line.
    pub fn delete_variation(&mut self) -> Result<(), String> {
        let Some(start) = self.tree.variation_start() else {
            return Err(
                "the line shown is the main line: it has no variation to delete (go into one through the move \
                 list's branches)"
                    .to_string(),
            );
        };
        let depth = self.tree.depth(start);
        let count = self.tree.delete(start);
        let at = self.tree.current();
        self.show(at);
        self.notice = Some(format!(
            "deleted the variation from placement {depth}: {count} move{}",
            if count == 1 { "" } else { "s" }
        ));
        Ok(())
    }

    /// Notes that the engine thought `seconds` for the move numbered `index` (from 0) of the game shown.
    pub fn record_thinking(&mut self, index: usize, seconds: f64) {
        if let Some(&n) = self.tree.path_to(self.tree.current()).get(index) {
            self.tree.set_seconds(n, seconds);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_click_is_refused_in_the_engines_words_and_changes_nothing() {
        let mut s = Session::new(&NewGame {
            board: Shape::square(5),
            players: [Player::Human, Player::Human],
            ..NewGame::default()
        })
        .unwrap();
        s.play_text("C3").unwrap();
        s.play_text("A1").unwrap();
        let before = s.state();
        let e = s.play_text("C4").unwrap_err();
        assert_eq!(
            e,
            "illegal move: C4 joins black stones into a group of 2 that touches no white stone"
        );
        assert_eq!(s.state(), before);
        assert_eq!(
            s.play_text("Z9").unwrap_err(),
            "illegal move: Z9 is off the 5x5 board"
        );
        assert_eq!(
            s.play_text("Q").unwrap_err(),
            "syntax error: expected a vertex such as D4, or pass, got 'Q'"
        );
    }

    #[test]
    fn undo_and_redo_of_turns_and_placements() {
        let mut s = Session::new(&NewGame {
            board: Shape::Rect {
                width: 4,
                height: 3,
            },
            players: [Player::Human, Player::Human],
            ..NewGame::default()
        })
        .unwrap();
        for m in ["B2", "A2", "A3", "C2"] {
            s.play_text(m).unwrap();
        }
        // Black B1 captures... is illegal here; check the undo of a plain placement first.
        assert!(s.undo(false));
        assert_eq!(s.game.records().len(), 3);
        assert!(s.redo(false));
        assert_eq!(s.game.records().len(), 4);
        s.jump(1);
        assert_eq!(s.game.records().len(), 1);
        assert_eq!(s.state()["total"], 4);
        s.play_text("A2").unwrap();
        assert_eq!(s.state()["total"], 4, "the same move keeps the redo list");
        s.play_text("D3").unwrap();
        assert_eq!(s.state()["total"], 3, "another move forgets it");
    }
}
