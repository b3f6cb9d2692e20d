//! The game the server owns: the position shown through the rules core, every move and variation tried
//! ([`Tree`]: nothing is dropped), who plays each colour, and what the page shows about the last move. Every
//! change goes through here, and every refusal is the rules' own wording.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::abstract_play;
use crate::gtp::GtpError;
use crate::notation::{self, cell_name};
use crate::rules::{Color, Game, Geometry, Move, Outcome, Position, Shape, Status};
use crate::sgf;

use super::tree::{NodeId, ROOT, Tree};
use crate::review;

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
    pub loaded_review: Option<(Value, Line)>,
    /// The game's date (SGF `DT`, `YYYY-MM-DD`): the day a new game started, or a loaded record's own.
    pub date: Option<String>,
    /// A loaded record's root comment (`C`, none for a record without one), its placements and its lines of
    /// play: the saved SGF keeps the comment, and says where the game went on in oust gui if it did.
    loaded: Option<(Option<String>, Line, usize)>,
}

/// The placements of a game, in order.
type Line = Vec<(Color, Move)>;

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    civil_date(days as i64)
}

/// The date `days` days after 1970-01-01, `YYYY-MM-DD` (the proleptic Gregorian calendar, by H. Hinnant's
/// `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

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
            date: Some(today()),
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

    /// Replaces the game by a loaded record: SGF (with oust's hexhex property), an Abstract Play JSON record or an
    /// Abstract Play turn list (read for the current board when it names none).
    ///
    /// # Errors
    /// The reader's message (the move number and why); the game is then unchanged.
    pub fn load(&mut self, text: &str, name: &str) -> Result<(), String> {
        let trimmed = text.trim_start();
        let mut left_out = Vec::new();
        let mut review_held = None;
        let mut comment = None;
        let mut variations: Vec<Line> = Vec::new();
        // Each line of the record with its own nodes' properties, the main line first.
        let mut reviewed: Vec<(sgf::Record, Line)> = Vec::new();
        let (game, names) = if trimmed.starts_with('(') {
            let record = sgf::parse_for(text, Some(self.geometry().shape()))
                .map_err(|e| format!("{name}: {e}"))?;
            let game = sgf::replay(&record, None).map_err(|e| format!("{name}: {e}"))?;
            match sgf::lines_for(text, Some(self.geometry().shape())) {
                Ok((lines, games)) => {
                    let mut refused = Vec::new();
                    for (i, line) in lines.into_iter().enumerate() {
                        match line {
                            Ok((record, g)) => {
                                let line = g.line();
                                if i > 0 {
                                    variations.push(line.clone());
                                }
                                reviewed.push((record, line));
                            }
                            Err(e) => refused.push(e.to_string()),
                        }
                    }
                    match variations.len() {
                        0 => {}
                        1 => left_out.push(
                            "its first game has 2 lines of play: the main line is shown, and the move list shows \
                             where the other branches off"
                                .to_string(),
                        ),
                        n => left_out.push(format!(
                            "its first game has {} lines of play: the main line is shown, and the move list shows \
                             where the other {n} branch off",
                            n + 1
                        )),
                    }
                    if !refused.is_empty() {
                        left_out.push(format!(
                            "{} variation{} left out, as the rules refuse {}: {}",
                            refused.len(),
                            if refused.len() == 1 { " was" } else { "s were" },
                            if refused.len() == 1 { "it" } else { "them" },
                            refused.join("; ")
                        ));
                    }
                    if games > 1 {
                        left_out.push(format!(
                            "the file holds {games} games: only the first was loaded, the other {} left out",
                            if games == 2 {
                                "was".to_string()
                            } else {
                                format!("{} were", games - 1)
                            }
                        ));
                    }
                }
                Err(e) => left_out.push(format!(
                    "only the main line of the first game was loaded: the rest of the file cannot be read ({e})"
                )),
            }
            let name_of = |key: &str| {
                record
                    .get(key)
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(String::from)
            };
            if reviewed.is_empty() {
                reviewed.push((record.clone(), game.line()));
            }
            // The review is of the line whose nodes hold it: the main line, or a branch that was the main line
            // when the review was made (the lines share the review's first positions; the one that holds the most
            // of it is the one reviewed, the earliest in the file among equals).
            let mut best: Option<(usize, Value, Line)> = None;
            for (r, line) in &reviewed {
                let props: Vec<(usize, String, String)> = r
                    .info
                    .iter()
                    .map(|(k, v)| (0, k.clone(), v.clone()))
                    .chain(r.node_info.iter().cloned())
                    .collect();
                let Some((rates, pvs, judged)) = review::from_properties(&props, line.len() + 1)
                else {
                    continue;
                };
                let held = rates.iter().filter(|r| r.is_some()).count()
                    + judged.iter().filter(|j| j.is_some()).count();
                if best.as_ref().is_some_and(|(h, ..)| *h >= held) {
                    continue;
                }
                let playouts = r
                    .get(review::REVIEW_PROPERTY)
                    .and_then(|p| p.trim().parse().ok())
                    .unwrap_or(0);
                let rates: Vec<Value> = rates.into_iter().map(|r| json!(r)).collect();
                let mut v = review::finished(playouts, line, &rates, pvs, &judged, None);
                v["loaded"] = json!(true);
                best = Some((held, v, line.clone()));
            }
            review_held = best.map(|(_, v, line)| (v, line));
            self.date = name_of("DT");
            comment = name_of("C");
            (game, [name_of("PB"), name_of("PW")])
        } else {
            let board = match self.geometry().shape() {
                board @ Shape::Hex { .. } => board,
                Shape::Rect { width, height } if width == height => Shape::square(width),
                _ => abstract_play::DEFAULT_BOARD,
            };
            let record = abstract_play::parse(text, board).map_err(|e| format!("{name}: {e}"))?;
            if record.turns.is_empty() {
                return Err(format!(
                    "{name}: not a game record: neither SGF (it starts with '('), an Abstract Play JSON record \
                     nor a list of turns"
                ));
            }
            let game = abstract_play::replay(&record).map_err(|e| format!("{name}: {e}"))?;
            let info = abstract_play::sgf_info(&record, &game);
            self.date = info.date;
            (game, [info.black, info.white])
        };
        let main: Line = game.line();
        let mut tree = Tree::new();
        for line in std::iter::once(main.clone()).chain(variations) {
            tree.go_to(ROOT);
            for (c, mv) in line {
                tree.advance(c, mv);
            }
        }
        tree.go_to(tree.main_line().last().copied().unwrap_or(ROOT));
        self.loaded = Some((comment, main, tree.lines()));
        self.tree = tree;
        self.game = game;
        self.engine_plays_on = false;
        self.resigned = None;
        self.refusal = None;
        self.source = Some(name.to_string());
        self.names = names;
        self.review = true;
        self.seats_swapped = self.swapped();
        let pos = self.game.position();
        let mut notice = format!(
            "loaded {name}: {} move{}, {}; open for review: nobody moves until you choose who plays on",
            self.game.records().len(),
            if self.game.records().len() == 1 {
                ""
            } else {
                "s"
            },
            match pos.status() {
                Status::Over(_) => "the game is over".to_string(),
                _ => format!("{} to move", cap(pos.to_move())),
            }
        );
        for l in left_out {
            notice.push_str("; ");
            notice.push_str(&l);
        }
        if let Some((r, line)) = &review_held {
            let rated = r["rates"]
                .as_array()
                .map_or(0, |a| a.iter().filter(|x| !x.is_null()).count());
            let main = self.line_moves();
            let shared = main.iter().zip(line).take_while(|(a, b)| a == b).count();
            let on = if *line == main {
                String::new()
            } else {
                format!(
                    " of the variation that leaves the main line at move {}",
                    shared + 1
                )
            };
            notice.push_str(&format!(
                "; it holds a review{on} (win rates of {rated} positions), shown with that line without analysing \
                 again"
            ));
        }
        self.loaded_review = review_held;
        self.notice = Some(notice);
        Ok(())
    }

    /// The game played along `moves` from the start (as far as the rules allow).
    fn game_of(&self, moves: impl IntoIterator<Item = (Color, Move)>) -> Game {
        let mut game = self.game.clone();
        while game.undo().is_some() {}
        for (c, mv) in moves {
            if game.play(c, mv).is_err() {
                break;
            }
        }
        game
    }

    /// The record as SGF, every variation in SGF's own tree (the main line first), `engine` being the engine's
    /// name and version: the players (`PB`, `PW`: the record's names, else `Human` or the engine's name), the date
    /// (`DT`) and, in the root comment, the engine's settings; with `review` (a finished review, as the page gets
    /// it, and the moves of the line it reviewed) in the nodes of that line: each position's win rate and the
    /// engine's line ([`review::sgf_properties`]).
    pub fn sgf(&self, engine: &str, review: Option<(&Value, &[(Color, Move)])>) -> String {
        let main = self.tree.main_line();
        let game = self.game_of(main.iter().filter_map(|&n| self.tree.mv(n)));
        // A resignation ends the line shown: the record's result when that is its main line.
        let result = self
            .resigned
            .filter(|_| self.tree.line() == main)
            .map(|c| format!("{}+Resign", c.opponent().letter().to_ascii_uppercase()));
        let engine = if engine.trim().is_empty() {
            "the engine"
        } else {
            engine.trim()
        };
        let player = |i: usize| {
            self.names[i].clone().or_else(|| {
                Some(match self.players[i] {
                    Player::Human => "Human".to_string(),
                    Player::Engine => engine.to_string(),
                })
            })
        };
        // The review's properties by node: the root's first, then those of its line's nodes.
        let mut properties: HashMap<NodeId, String> = HashMap::new();
        if let Some((r, moves)) = review
            && r["rates"].as_array().map(Vec::len) == Some(moves.len() + 1)
            && r["done"] == r["total"]
            && let Some(nodes) = self.tree.find_line(moves)
        {
            for (k, n) in std::iter::once(ROOT).chain(nodes).enumerate() {
                let mut p = review::sgf_properties(r, k);
                if k == 0 {
                    p.insert_str(
                        0,
                        &format!("{}[{}]", review::REVIEW_PROPERTY, r["playouts"]),
                    );
                }
                properties.insert(n, p);
            }
        }
        // The tree's nodes depth first, numbered from 0 after the root.
        let mut order = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(self.tree.children(n).iter().rev());
        }
        let index: HashMap<NodeId, usize> = order[1..]
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, i))
            .collect();
        let moves: Vec<sgf::TreeMove> = order[1..]
            .iter()
            .filter_map(|&n| {
                let (color, move_) = self.tree.mv(n)?;
                Some(sgf::TreeMove {
                    color,
                    move_,
                    properties: properties.remove(&n).unwrap_or_default(),
                    children: self.tree.children(n).iter().map(|k| index[k]).collect(),
                })
            })
            .collect();
        let first: Vec<usize> = self.tree.children(ROOT).iter().map(|k| index[k]).collect();
        sgf::write_tree(
            &game,
            &sgf::GameInfo {
                black: player(0),
                white: player(1),
                result,
                comment: self.comment(&game, engine),
                date: self.date.clone(),
                node_properties: properties.remove(&ROOT).into_iter().collect(),
            },
            &moves,
            &first,
        )
    }

    /// The saved record's root comment: for a game started here, how it was played (the seats and the engine's
    /// strength); for a loaded record, its own comment, followed by where the game went on in oust gui when its
    /// main line is no longer the loaded one, or that variations were added.
    fn comment(&self, game: &Game, engine: &str) -> Option<String> {
        let here = |what: &str| {
            format!(
                "{what}. Black: {}; White: {}. Engine: {engine}, {}",
                self.players[0].name(),
                self.players[1].name(),
                self.strength.describe()
            )
        };
        let Some((comment, line, lines)) = &self.loaded else {
            return Some(here("Played with oust gui"));
        };
        let played: Line = game.line();
        let went_on = if played != *line {
            let kept = played.iter().zip(line).take_while(|(a, b)| a == b).count();
            here(&format!(
                "Continued in oust gui after placement {kept} of the loaded record"
            ))
        } else if self.tree.lines() > *lines {
            here("Variations added in oust gui")
        } else {
            return comment.clone();
        };
        Some(match comment {
            Some(c) => format!("{c}\n\n{went_on}"),
            None => went_on,
        })
    }

    /// Notes that the engine thought `seconds` for the move numbered `index` (from 0) of the game shown.
    pub fn record_thinking(&mut self, index: usize, seconds: f64) {
        if let Some(&n) = self.tree.path_to(self.tree.current()).get(index) {
            self.tree.set_seconds(n, seconds);
        }
    }

    /// The stones each colour has captured so far (indexed by [`Color::index`]).
    fn captures(&self) -> [usize; 2] {
        let mut taken = [0, 0];
        for r in self.game.records() {
            taken[r.color.index()] += r.report.captured;
        }
        taken
    }

    /// The last turn of the record up to the position shown: its colour, its placements with the stones each one
    /// captured, whether it ended in a forced pass, and whether it goes on (an extra turn to come). `null` at the
    /// start.
    fn last_turn(&self) -> Value {
        let records = self.game.records();
        let Some(last) = records.last() else {
            return Value::Null;
        };
        // Every placement of a turn but its last captured and gave an extra turn; a forced pass may end it.
        let mut first = records.len() - 1;
        while first > 0 {
            let r = &records[first - 1];
            if r.color != last.color || !r.report.extra_turn || r.mv == Move::Pass {
                break;
            }
            first -= 1;
        }
        let geo = self.geometry();
        // Won by a capture (or ended with no winner) on the board: a resignation ends no placement.
        let over =
            self.resigned.is_none() && matches!(self.game.position().status(), Status::Over(_));
        let placements: Vec<Value> = records[first..]
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                // The game's last placement ends it: no extra turn follows a winning capture (rule 7).
                let ends = over && first + i + 1 == records.len();
                match r.mv {
                    Move::Place(p) => Some(json!({
                        "gtp": geo.name(p),
                        "ap": cell_name(geo, p),
                        "captured": r.report.captured,
                        "ends": ends,
                    })),
                    Move::Swap => {
                        Some(json!({"gtp": "swap", "ap": "swap", "captured": 0, "ends": ends}))
                    }
                    Move::Pass => None,
                }
            })
            .collect();
        let pos = self.game.position();
        json!({
            "color": last.color.name(),
            "placements": placements,
            "passed": last.mv == Move::Pass,
            "goes_on": !self.over() && pos.to_move() == last.color && pos.extra_turn(),
            // Resigned in the middle of this turn, in its extra turn.
            "resigned": self.resigned == Some(last.color) && pos.to_move() == last.color && pos.extra_turn(),
        })
    }

    /// The line shown as an Abstract Play turn list, one turn a line (Abstract Play records have no variations).
    ///
    /// # Errors
    /// A message for a board or start Abstract Play cannot write.
    pub fn ap_turns(&self) -> Result<String, String> {
        let game = self.game_of(self.line_moves());
        let mut text = abstract_play::turns(&game)?.join("\n");
        text.push('\n');
        Ok(text)
    }

    /// The line shown (its moves after the position shown included) grouped in turns as Abstract Play writes
    /// them: each entry the colour, the moves' texts in both notations, the number of moves after the turn (for
    /// jumps), the engine's thinking time, and the branches: the other moves tried where one of its placements
    /// was played (`at`, its number), each with its node (for `/api/goto`) and whether it is the main line's.
    fn turn_list(&self) -> Vec<Value> {
        let geo = self.geometry();
        let line = self.tree.line();
        // Which moves capture: replay the line (the moves after the position shown on a copy).
        let mut game = self.game.clone();
        let mut extra = Vec::with_capacity(line.len());
        for r in self.game.records() {
            extra.push(r.report.extra_turn);
        }
        for &n in &line[extra.len().min(line.len())..] {
            let Some((c, mv)) = self.tree.mv(n) else {
                break;
            };
            match game.play(c, mv) {
                Ok(report) => extra.push(report.extra_turn),
                Err(_) => break,
            }
        }
        let names = |mv: Move| match mv {
            Move::Place(p) => (geo.name(p), cell_name(geo, p)),
            other => {
                let t = notation::move_name(geo, other);
                (t.clone(), t)
            }
        };
        let mut turns: Vec<Value> = Vec::new();
        let mut open = false;
        for (i, (&n, &extra)) in line.iter().zip(&extra).enumerate() {
            let Some((color, mv)) = self.tree.mv(n) else {
                break;
            };
            let thought = self.tree.seconds(n);
            let (gtp, ap) = names(mv);
            let parent = self.tree.parent(n);
            let siblings = self.tree.children(parent);
            let branches: Vec<Value> = siblings
                .iter()
                .filter(|&&k| k != n)
                .filter_map(|&k| {
                    let (_, m) = self.tree.mv(k)?;
                    let (gtp, ap) = names(m);
                    Some(json!({
                        "at": i + 1, "node": k, "gtp": gtp, "ap": ap, "main": siblings.first() == Some(&k),
                    }))
                })
                .collect();
            // A forced pass after a capture ends the capturing turn; Abstract Play writes no pass there, but the
            // list shows it on a line of its own.
            if open
                && mv != Move::Pass
                && let Some(last) = turns.last_mut()
            {
                let push = |key: &str, t: &str, v: &mut Value| {
                    let s = format!("{},{t}", v[key].as_str().unwrap_or(""));
                    v[key] = Value::String(s);
                };
                push("gtp", &gtp, last);
                push("ap", &ap, last);
                last["moves"] = json!(i + 1);
                if let Some(t) = thought {
                    last["seconds"] = json!(last["seconds"].as_f64().unwrap_or(0.0) + t);
                }
                if let Some(all) = last["branches"].as_array_mut() {
                    all.extend(branches);
                }
            } else {
                turns.push(json!({
                    "color": color.name(), "gtp": gtp, "ap": ap, "moves": i + 1, "branches": branches,
                }));
                if let Some(t) = thought
                    && let Some(last) = turns.last_mut()
                {
                    last["seconds"] = json!(t);
                }
            }
            open = extra && mv != Move::Pass;
        }
        turns
    }

    /// Where the line shown leaves the main line (`null` on the main line): the placement where it first leaves
    /// it (`from`), the first placement of its innermost variation (`innermost`, which Delete removes from), and
    /// the lines of play in the tree.
    fn variation(&self) -> Value {
        let Some(first) = self.tree.leaves_main_line() else {
            return Value::Null;
        };
        let innermost = self.tree.variation_start().unwrap_or(first);
        json!({
            "from": self.tree.depth(first),
            "innermost": self.tree.depth(innermost),
            "lines": self.tree.lines(),
        })
    }

    /// What the page shows: the stones, the side to move, the status line, the marks of the last move, the legal
    /// cells, the move list and the players.
    pub fn state(&self) -> Value {
        let pos = self.game.position();
        let geo = pos.geometry();
        let stones: String = geo
            .points()
            .map(|p| notation::stone_char(pos.color_at(p)))
            .collect();
        let to_move = pos.to_move();
        let records = self.game.records();
        let (status, note) = self.status_text();
        let mut legal = Vec::new();
        if !self.over() && !self.review {
            let mut points = Vec::new();
            pos.legal_placements(&mut points);
            points.sort();
            legal = points.iter().map(|&p| geo.name(p)).collect();
        }
        // The last placement, and the stones the last move (a capture) took.
        let last = records.iter().rev().find_map(|r| match r.mv {
            Move::Place(p) => Some(geo.name(p)),
            _ => None,
        });
        let captured_color = records
            .iter()
            .rev()
            .find(|r| r.mv != Move::Pass)
            .map(|r| r.color.opponent().name());
        let captured = match records.len() {
            0 => Vec::new(),
            n => {
                // The capture is by the last placement; a forced pass may follow it.
                let k = if records[n - 1].mv == Move::Pass && n >= 2 {
                    n - 1
                } else {
                    n
                };
                let mut g = self.game.clone();
                while g.records().len() > k {
                    g.undo();
                }
                let after = g.position().clone();
                g.undo();
                removed(g.position(), &after)
            }
        };
        let taken = self.captures();
        json!({
            "board": geo.size_name(),
            "stones": stones,
            "to_move": to_move.name(),
            "status": status,
            "note": note,
            "over": self.over(),
            "legal": legal,
            "last": last,
            "captured": captured,
            "captured_color": captured_color,
            "moves": records.len(),
            "total": self.tree.line().len(),
            "variation": self.variation(),
            "lines": self.tree.lines(),
            "turns": self.turn_list(),
            "players": {"black": self.players[0].name(), "white": self.players[1].name()},
            "pie": self.game.pie(),
            "swap": !self.over() && pos.swap_available(),
            "stones_black": pos.stone_count(Color::Black),
            "stones_white": pos.stone_count(Color::White),
            "captures": {"black": taken[0], "white": taken[1]},
            "last_turn": self.last_turn(),
            "refusal": self.refusal,
            "notice": self.notice,
            "source": self.source,
            "names": {"black": self.names[0], "white": self.names[1]},
            "review": self.review,
            "swapped": self.seats_swapped,
            "strength": match self.strength {
                Strength::Default => json!({"kind": "default"}),
                Strength::Seconds(s) => json!({"kind": "seconds", "value": s}),
                Strength::Playouts(n) => json!({"kind": "playouts", "value": n}),
                Strength::Level(n) => json!({"kind": "level", "value": n}),
            },
        })
    }

    /// Who plays `c`, in the words of the swap's note: "the engine", "you" against the engine, or "the one who
    /// swapped" and "the one who placed first" between two humans or two engines.
    fn seat_name(&self, c: Color) -> &'static str {
        match (self.players[c.index()], self.players[c.opponent().index()]) {
            (Player::Engine, Player::Human) => "the engine",
            (Player::Human, Player::Engine) => "you",
            _ if c == Color::Black => "the one who swapped",
            _ => "the one who placed first",
        }
    }

    /// The status line and the note under it.
    fn status_text(&self) -> (String, String) {
        let pos = self.game.position();
        if let Some(c) = self.resigned {
            return (
                format!("{} wins", cap(c.opponent())),
                format!("{} resigned", cap(c)),
            );
        }
        let records = self.game.records();
        match pos.status() {
            Status::Over(Outcome::Win(c)) => (
                format!("{} wins", cap(c)),
                format!("{} captured every {} stone", cap(c), c.opponent()),
            ),
            Status::Over(Outcome::Draw) => (
                "No winner".to_string(),
                "neither player can place (ruling 8)".to_string(),
            ),
            _ => {
                let c = pos.to_move();
                let mut note = String::new();
                if let Some(last) = records.last() {
                    if pos.extra_turn() && last.report.captured > 0 {
                        note = format!(
                            "{} places again: extra turn after capturing {}",
                            cap(c),
                            last.report.captured
                        );
                    } else if last.mv == Move::Pass {
                        note = format!(
                            "{} had no legal placement and passed (forced)",
                            cap(last.color)
                        );
                    } else if last.mv == Move::Swap {
                        note = format!(
                            "White swapped: the players exchanged colours. Black (the stone on the board) is now \
                             played by {}, White by {}, and White moves next",
                            self.seat_name(Color::Black),
                            self.seat_name(Color::White)
                        );
                    }
                }
                if pos.status() == Status::MustPass {
                    note = format!("{} has no legal placement and must pass", cap(c));
                }
                (format!("{} to move", cap(c)), note)
            }
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
    fn dates_from_days_since_1970() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(59), "1970-03-01");
        assert_eq!(civil_date(10_957), "2000-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(19_783), "2024-03-01");
        assert_eq!(civil_date(20_818), "2026-12-31");
        assert_eq!(civil_date(20_819), "2027-01-01");
        assert_eq!(today().len(), 10);
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
