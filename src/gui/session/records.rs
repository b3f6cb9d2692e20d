//! Records in and out of the session: loading SGF and Abstract Play records (a review's win rates kept), and the
//! saved SGF with its comment, and the Abstract Play turn list.

use super::*;

impl Session {
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
            let mut best: Option<Review> = None;
            for (r, line) in &reviewed {
                let props: Vec<(usize, String, String)> = r
                    .info
                    .iter()
                    .map(|(k, v)| (0, k.clone(), v.clone()))
                    .chain(r.node_info.iter().cloned())
                    .collect();
                let playouts = r
                    .get(review::REVIEW_PROPERTY)
                    .and_then(|p| p.trim().parse().ok())
                    .unwrap_or(0);
                let Some(held) = Review::from_properties(&props, line, playouts) else {
                    continue;
                };
                if best.as_ref().is_some_and(|b| b.held() >= held.held()) {
                    continue;
                }
                best = Some(held);
            }
            review_held = best;
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
        if let Some(r) = &review_held {
            let line = &r.line;
            let rated = r.rates.iter().filter(|x| x.is_some()).count();
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
    /// (`DT`) and, in the root comment, the engine's settings; with `review` (a finished review) in the nodes of the
    /// line it reviewed: each position's win rate, the engine's line and the judgement ([`Review::sgf_properties`]).
    pub fn sgf(&self, engine: &str, review: Option<&Review>) -> String {
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
        if let Some(r) = review.filter(|r| r.is_finished())
            && let Some(nodes) = self.tree.find_line(&r.line)
        {
            for (n, p) in std::iter::once(ROOT).chain(nodes).zip(r.sgf_properties()) {
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
}
