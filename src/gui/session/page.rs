//! What the page shows of the session, as JSON: the last turn, the turn list with its branches, the variation,
//! the status line, and the whole state (`/api/state`).

use super::*;

impl Session {
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
