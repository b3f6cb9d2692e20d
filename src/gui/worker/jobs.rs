//! The worker's jobs: the engine's move (and its stream of analysis while it thinks), the analysis of the position
//! shown, a proof, a hint, and the review of a whole line.

use super::*;

impl Worker {
    /// Asks the engine for its move and plays it, unless the game changed meanwhile.
    pub(super) fn engine_move(&mut self, target: &Target) -> Result<(), String> {
        self.sync(target)?;
        let to_move = {
            let s = self.hub.lock();
            s.session.game.position().to_move()
        };
        let asked = Instant::now();
        {
            // From here a change of the game cancels the search (`Shared::engine_move_moot`); one made since the
            // move was asked for means it is not wanted at all.
            let mut s = self.hub.lock();
            s.engine.thinking = Some(target.moves.clone());
            if s.engine_move_moot() {
                s.engine.thinking = None;
                return Ok(());
            }
        }
        self.set_busy("thinking");
        if self.cancellable {
            // Stop makes it answer at once with its best move so far, which is played as any other.
            let line = format!("{CANCELLABLE_GENMOVE} {}", to_move.letter());
            let reply = self.send_cancellable(&line, Self::move_limit(target.strength))?;
            return self.engine_answer(target, to_move, &line, &reply, asked);
        }
        let line = format!("genmove {}", to_move.letter());
        let reply = match self.send(&line, Self::move_limit(target.strength)) {
            Err(_) if self.hub.interrupt.load(Ordering::SeqCst) => {
                // Stop, for an engine without `oust-genmove_cancellable`: GTP has no way to make `genmove`
                // answer at once, so the engine is started again (the game is sent again). An engine with oust's
                // parameters then answers at once with a move of a tiny search; another engine is left waiting
                // until the user asks it for a move.
                let moot = self.hub.lock().engine_move_moot();
                self.hub.interrupt.store(false, Ordering::SeqCst);
                self.launch()?;
                if moot {
                    // The game changed: no move is wanted, and the engine gets the game as it is now.
                    let now = target_of(&self.hub.lock());
                    self.sync(&now)?;
                    self.hub.lock().console(
                        "!",
                        "the game changed while the engine thought: it was restarted, and no move is asked",
                    );
                    self.set_busy("");
                    return Ok(());
                }
                if !self.oust_params {
                    self.sync(target)?;
                    self.set_busy("");
                    return Ok(());
                }
                let quick = Target {
                    strength: Strength::Playouts(STOP_PLAYOUTS),
                    ..target.clone()
                };
                self.sync(&quick)?;
                {
                    let mut s = self.hub.lock();
                    s.stopped = false;
                    s.console(
                        "!",
                        "stopped: the engine was restarted and answers from a quick search",
                    );
                }
                self.send(&line, Self::move_limit(quick.strength))?
            }
            other => other?,
        };
        self.engine_answer(target, to_move, &line, &reply, asked)
    }

    /// Plays the engine's answer `reply` to `line`, its move for `to_move` in `target` asked for at `asked`, unless
    /// the game changed meanwhile.
    pub(super) fn engine_answer(
        &mut self,
        target: &Target,
        to_move: Color,
        line: &str,
        reply: &Reply,
        asked: Instant,
    ) -> Result<(), String> {
        self.last_move = Instant::now();
        let thought = asked.elapsed().as_secs_f64();
        // A move no longer wanted (the game changed, or the seat is no longer the engine's) is not played.
        let wanted = !self.hub.lock().engine_move_moot();
        self.set_busy("");
        // A Stop clicked after the answer came, before the engine was no longer shown as thinking, is forgotten:
        // none can come now, and a stale one would interrupt the next command.
        self.hub.interrupt.store(false, Ordering::SeqCst);
        let geo = target.geo.clone();
        if !reply.ok {
            let mut s = self.hub.lock();
            s.session.refusal = Some(format!("the engine refused '{line}': {}", reply.text));
            s.stopped = true;
            s.changed();
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        let token = reply
            .text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        let mut s = self.hub.lock();
        if s.session.over() || s.session.review {
            // The game ended (a resignation, say) or became a record under review while the engine thought:
            // nothing is added to it.
            let why = if s.session.over() {
                "the game ended"
            } else {
                "the game became a record under review"
            };
            log::warn!("the engine's answer '{token}' to '{line}' came after {why}: dropped");
            s.console(
                "!",
                &format!("the engine's answer '{token}' came after {why}: dropped"),
            );
            // The engine played it, if it is a move: the next use of the engine takes it back.
            if let Ok(mv) = notation::parse_move(&geo, &token) {
                self.known.moves.push((to_move, mv));
            }
            s.changed();
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        if token.eq_ignore_ascii_case("resign") {
            if wanted && target_of(&s).moves == target.moves {
                s.session.resigned = Some(to_move);
                s.changed();
            }
            drop(s);
            self.hub.notify();
            return Ok(());
        }
        let mv = match notation::parse_move(&geo, &token) {
            Ok(mv) => mv,
            Err(e) => {
                drop(s);
                return Err(format!(
                    "the engine answered '{line}' with '{token}', which is not a move: {e}"
                ));
            }
        };
        // The engine has played it, whatever happens to it here.
        self.known.moves.push((to_move, mv));
        if wanted && target_of(&s).moves == target.moves {
            match s.session.play(mv) {
                Ok(()) => s.session.record_thinking(target.moves.len(), thought),
                Err(e) => {
                    s.session.refusal = Some(format!("the engine played {token}: {e}"));
                    s.stopped = true;
                }
            }
            s.changed();
        } else {
            s.console(
                "!",
                &format!("the engine's answer '{token}' came after the game changed: dropped"),
            );
            s.changed();
        }
        drop(s);
        self.hub.notify();
        Ok(())
    }

    /// Ends a running analysis stream: any command ends it; this one has an id to find its response by.
    pub(super) fn end_stream(&mut self) -> Result<(), String> {
        let Some(p) = self.process.as_mut() else {
            return Ok(());
        };
        let line = format!("{STREAM_END_ID} name");
        p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
        let until = Instant::now() + COMMAND_LIMIT;
        let mut seen = false;
        while Instant::now() < until {
            match p.stream_line(Duration::from_millis(200)) {
                Ok(Some(l)) if l.starts_with(&format!("={STREAM_END_ID}")) => seen = true,
                Ok(Some(l)) if seen && l.trim().is_empty() => return Ok(()),
                Ok(_) => {}
                Err(f) => return Err(describe(p, &line, &f)),
            }
        }
        Err(format!(
            "the engine did not end its analysis stream within {} s (it hangs)",
            COMMAND_LIMIT.as_secs()
        ))
    }

    /// Streams `oust-analyze` on `target` until something else needs the engine.
    pub(super) fn analyse(&mut self, target: &Target) -> Result<(), String> {
        // oust's `oust-analyze` stops streaming once a `playouts` limit is reached: analyse without one.
        self.sync(&Target {
            strength: Strength::Default,
            ..target.clone()
        })?;
        let color = {
            let s = self.hub.lock();
            s.session.game.position().to_move()
        };
        let key = analysis_key(&self.hub.lock());
        let cap = key.0;
        self.set_busy("analysing");
        let line = format!("oust-analyze {} {ANALYSIS_INTERVAL_CS}", color.letter());
        self.hub.lock().console(">", &line);
        let Some(p) = self.process.as_mut() else {
            return Err("the engine is not running".to_string());
        };
        p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
        let mut started = false;
        let mut got_info = false;
        let mut last_line = Instant::now();
        loop {
            let Some(p) = self.process.as_mut() else {
                return Ok(());
            };
            let got = p
                .stream_line(Duration::from_millis(50))
                .map_err(|f| describe(p, &line, &f))?;
            if let Some(l) = got {
                last_line = Instant::now();
                if !started {
                    if l.trim().is_empty() {
                        continue;
                    }
                    started = true;
                    if l.starts_with('?') {
                        // Refused (the engine thinks another colour is to move, say): try again after a new sync.
                        let _ = p.stream_line(Duration::from_millis(500));
                        let mut s = self.hub.lock();
                        s.console("?", l.trim_start_matches('?').trim());
                        drop(s);
                        self.analysed_out = Some((target.moves.clone(), key));
                        return Ok(());
                    }
                    continue;
                }
                if l.trim().is_empty() {
                    // The stream ended by itself: nothing to analyse here, or oust's search proved the position
                    // at once (it streams nothing then): ask its solver for the proven result and its distance.
                    self.analysed_out = Some((target.moves.clone(), key));
                    if !got_info && self.oust_params {
                        self.proven(target, color)?;
                    }
                    return Ok(());
                }
                got_info = true;
                let read = Analyzed::parse(&l, color);
                let mut entries = read.to_json();
                if cap > 0 && read.visits() >= cap {
                    // The cap: the analysis of this position stops here, until the position or the cap changes.
                    entries["capped"] = json!(cap);
                    self.publish_analysis(target, entries);
                    self.analysed_out = Some((target.moves.clone(), key));
                    return self.end_stream();
                }
                self.publish_analysis(target, entries);
            } else if last_line.elapsed() > COMMAND_LIMIT {
                return Err(format!(
                    "the engine sent no analysis for {} s (it hangs)",
                    COMMAND_LIMIT.as_secs()
                ));
            }
            let s = self.hub.lock();
            let stop = self.hub.quit.load(Ordering::SeqCst)
                || !s.analysis.on
                || analysis_key(&s) != key
                || !s.requests.is_empty()
                || s.analysis.review_request.is_some()
                || target_of(&s).moves != target.moves
                || (s.session.player_to_move() == Player::Engine
                    && !s.session.review
                    && !s.session.over()
                    && s.session.engine_may_move()
                    && !s.paused
                    && !s.stopped);
            drop(s);
            if stop {
                return self.end_stream();
            }
        }
    }

    /// True when the analysis of the position after `moves` ended (at the cap, or by itself) with the settings
    /// `key` in force now.
    pub(super) fn analysed(&self, moves: &[(Color, Move)], key: (u64, u64)) -> bool {
        matches!(&self.analysed_out, Some((m, k)) if m == moves && *k == key)
    }

    /// The solver's result for a position the search proved at once: `oust-solve 2` answers `win MOVE N`,
    /// `loss MOVE N`, `draw MOVE N` or `unknown`; shown as the analysis of that position.
    pub(super) fn proven(&mut self, target: &Target, color: Color) -> Result<(), String> {
        let reply = self.send("oust-solve 2", COMMAND_LIMIT)?;
        let words: Vec<&str> = reply.text.split_whitespace().collect();
        let (proof, mv, distance) = match words[..] {
            [proof @ ("win" | "loss" | "draw"), mv, n] if reply.ok => (proof, mv, n),
            _ => return Ok(()),
        };
        let rate = match proof {
            "win" => 1.0,
            "loss" => 0.0,
            _ => 0.5,
        };
        let black = if color == Color::Black {
            rate
        } else {
            1.0 - rate
        };
        let entries = json!({
            "to_move": color.name(),
            "moves": [{"move": mv, "visits": 0, "winrate": rate, "order": 0, "proof": proof}],
            "black": black,
            "max_visits": 1,
            "proof": proof,
            "distance": distance.parse::<u64>().ok(),
        });
        self.publish_analysis(target, entries);
        Ok(())
    }

    /// Shows `entries` as the analysis of `target`'s position, and tells the pages.
    pub(super) fn publish_analysis(&self, target: &Target, entries: Value) {
        let mut s = self.hub.lock();
        s.analysis.entries = Some((target.moves.len(), entries));
        s.analysis.updates += 1;
        s.changed();
        drop(s);
        self.hub.notify();
    }

    /// The engine's best move with its winning chance: from the live analysis, from one second of
    /// `oust-analyze`, or from `reg_genmove` for an engine without it.
    pub(super) fn hint(&mut self) -> Result<(), String> {
        let target = target_of(&self.hub.lock());
        self.sync(&Target {
            strength: Strength::Default,
            ..target.clone()
        })?;
        self.set_busy("hint");
        let color = self.hub.lock().session.game.position().to_move();
        let hint = if self.analyze {
            let line = format!("oust-analyze {} 100", color.letter());
            self.hub.lock().console(">", &line);
            let Some(p) = self.process.as_mut() else {
                return Err("the engine is not running".to_string());
            };
            p.send_line(&line).map_err(|f| describe(p, &line, &f))?;
            let until = Instant::now() + Duration::from_millis(1500);
            let mut best = Value::Null;
            while Instant::now() < until {
                match p.stream_line(Duration::from_millis(100)) {
                    Ok(Some(l)) if l.starts_with("info") => {
                        best = Analyzed::parse(&l, color)
                            .moves
                            .first()
                            .map_or(Value::Null, Candidate::to_json);
                    }
                    Ok(Some(l)) if l.starts_with('?') => break,
                    Ok(_) => {}
                    Err(f) => return Err(describe(p, &line, &f)),
                }
            }
            self.end_stream()?;
            best
        } else {
            let reply = self.ask(&format!("reg_genmove {}", color.letter()))?;
            json!({"move": reply.split_whitespace().next().unwrap_or("")})
        };
        let mut s = self.hub.lock();
        s.analysis.hint = Some(json!({"moves": target.moves.len(), "best": hint}));
        s.changed();
        drop(s);
        self.set_busy("");
        Ok(())
    }

    /// Judges every placement of the record within one search of the position before it (`oust-judge`, at
    /// `playouts` playouts, the played placement kept at a share of the visits): that search gives the position's
    /// winning chance, the engine's line and what the played placement lost. The last position, which has no
    /// placement to judge, gets a rate from `oust-heatmap`. Progress is shown; any change of the game cancels it.
    pub(super) fn review(&mut self, playouts: u64) -> Result<(), String> {
        let target = {
            let s = self.hub.lock();
            Target {
                moves: full_line(&s),
                ..target_of(&s)
            }
        };
        let total = target.moves.len() + 1;
        let started = Instant::now();
        let mut steps: Vec<review::Step> = vec![review::Step::default(); total];
        let fixed = Target {
            strength: Strength::Playouts(playouts),
            ..target.clone()
        };
        self.set_busy("reviewing");
        for k in 0..total {
            let step = Target {
                moves: target.moves[..k].to_vec(),
                ..fixed.clone()
            };
            {
                let mut s = self.hub.lock();
                if full_line(&s) != target.moves || self.hub.quit.load(Ordering::SeqCst) {
                    s.analysis.review = None;
                    s.changed();
                    return Ok(());
                }
                let per = started.elapsed().as_secs_f64() / k.max(1) as f64;
                let mut under_way = Review::started(playouts, target.moves.clone());
                under_way.done = k;
                under_way.eta_s = (k > 0).then(|| (per * (total - k) as f64).round());
                under_way.rates = steps.iter().map(|s| s.rate).collect();
                s.analysis.review = Some(under_way);
                s.changed();
            }
            self.hub.notify();
            self.sync(&step)?;
            if let Some(seed) = self.seed {
                self.ask(&format!(
                    "oust-set-param seed {}",
                    review::position_seed(seed, k)
                ))?;
            }
            steps[k] = match target.moves.get(k).filter(|_| self.judge) {
                // A pass is forced: nothing to judge, and nothing to search.
                Some(&(_, Move::Pass)) => review::Step::default(),
                Some(&(color, mv)) => {
                    let command = format!("oust-judge {}", notation::move_name(&target.geo, mv));
                    let reply = self.send(&command, Self::move_limit(fixed.strength))?;
                    review::Step::from_judgement(color, &reply.text)
                }
                // The last position, or an engine without `oust-judge`: the heat map's rate (and line); the
                // placements are then judged by the difference of the rates before and after them.
                None => {
                    let reply = self.send("oust-heatmap", Self::move_limit(fixed.strength))?;
                    let pv = if self.analyze && review::heatmap_rate(&reply.text).is_some() {
                        Some(self.send("oust-pv", COMMAND_LIMIT)?.text)
                    } else {
                        None
                    };
                    review::Step::from_heatmap(&reply.text, pv.as_deref())
                }
            };
        }
        // A finished game's last position has no search: its rate is the result.
        let mut game = crate::rules::Game::new(target.geo.clone());
        let _ = game.set_pie(target.pie);
        let over =
            target.setup.is_empty() && target.moves.iter().all(|&(c, mv)| game.play(c, mv).is_ok());
        let result = match game.position().status() {
            Status::Over(outcome) if over => Some(outcome),
            _ => None,
        };
        let mut s = self.hub.lock();
        s.analysis.review = Some(Review::assemble(
            playouts,
            &target.moves,
            steps,
            result,
            Some((started.elapsed().as_secs_f64() * 10.0).round() / 10.0),
        ));
        s.changed();
        drop(s);
        self.set_busy("");
        Ok(())
    }
}
