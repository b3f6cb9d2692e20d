//! Commands that make the engine think: `genmove`, `reg_genmove` and the analyses.

use std::time::{Duration, Instant};

use crate::gtp::args;
use crate::gtp::error::{GtpError, syntax};
use crate::gtp::format::{judgement, move_name, suggestion};
use crate::gtp::parse::{parse_color, parse_int};
use crate::gtp::reply::Reply;
use crate::gtp::state::{Analysis, Engine, SharedSearch};
use crate::notation;
use crate::rules::{Color, IllegalMove, Move, Outcome, Status};
use crate::search::{MoveStats, SearchResult, combined_loss, judged_loss};
use crate::solve::{self, Verdict};

/// Seconds `oust-solve` takes without an argument.
pub const SOLVE_SECONDS: f64 = 10.0;

/// Root visits a search needs before its winning chance may trigger a resignation.
const RESIGN_MIN_VISITS: u64 = 200;

/// Checks that `color` may move now.
fn check_turn(e: &Engine, color: Color) -> Result<(), GtpError> {
    let pos = e.game.position();
    if let Status::Over(outcome) = pos.status() {
        // Worded as `play` words it.
        return Err(GtpError::Illegal(IllegalMove::GameOver { outcome }));
    }
    check_side(e, color)
}

/// Checks that `color` is the side to move, while the game is on.
fn check_side(e: &Engine, color: Color) -> Result<(), GtpError> {
    let pos = e.game.position();
    let status = pos.status();
    if color != pos.to_move() && !matches!(status, Status::Over(_)) {
        let turn = IllegalMove::NotYourTurn {
            color,
            to_move: pos.to_move(),
            reason: pos.turn_reason(),
            must_pass: status == Status::MustPass,
        };
        return Err(GtpError::Failed(turn.to_string()));
    }
    Ok(())
}

/// True when the engine should resign after `result`: the threshold is set and the winning chance was below it (or
/// the loss proven) in this search and the previous one for the same colour.
fn wants_resign(e: &mut Engine, result: &SearchResult) -> bool {
    let threshold = e.settings.resign_threshold;
    let me = e.game.position().to_move();
    let proven_lost = result
        .info
        .proof
        .is_some_and(|o| o.winner() == Some(me.opponent()));
    let low = threshold > 0.0
        && (proven_lost
            || (result.info.visits >= RESIGN_MIN_VISITS
                && result.winrate().is_some_and(|w| f64::from(w) < threshold)));
    let streak = &mut e.low_streak[me.index()];
    *streak = if low { *streak + 1 } else { 0 };
    let winrate = result
        .winrate()
        .map_or_else(|| "unknown".to_string(), |w| format!("{w:.3}"));
    let proof = result.info.proof.map_or("none", |o| o.code());
    log::debug!("{me} to move: winrate {winrate}, proof {proof}, low streak {streak}");
    *streak >= 2
}

/// Checks the colour argument and searches: the colour, its move and the search behind it.
fn choose(e: &mut Engine, args: &[&str]) -> Result<(Color, Move, SearchResult), GtpError> {
    let color = args::color(args[0])?;
    check_turn(e, color)?;
    let result = e.think();
    let mv = result
        .best
        .ok_or_else(|| GtpError::Failed("internal error: no move found".into()))?;
    Ok((color, mv, result))
}

/// `genmove COLOR`: searches, plays the move and answers it with what it did. Remembers that the engine played
/// this colour, for `printsgf`.
pub fn genmove(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let started = Instant::now();
    let (color, mv, result) = choose(e, args)?;
    e.players[color.index()].get_or_insert_with(|| "oust".to_string());
    if wants_resign(e, &result) {
        e.clock_mut(color).spend(started.elapsed().as_secs_f64());
        return Ok("resign".into());
    }
    let name = e
        .settings
        .notation
        .move_text(e.game.position().geometry(), mv);
    let report = e.game.play(color, mv).map_err(|err| {
        GtpError::Failed(format!(
            "internal error: the chosen move {name} is illegal: {err}"
        ))
    })?;
    e.clock_mut(color).spend(started.elapsed().as_secs_f64());
    // The opponent's turn: the session may ponder there (an extra turn is the engine's own, asked for at once).
    if e.game.position().to_move() != color {
        e.ponder_on = Some(e.game_key());
    }
    Ok(Reply::Generated { name, report })
}

/// `reg_genmove COLOR`: searches and answers the move without playing it.
pub fn reg_genmove(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let (_, mv, _) = choose(e, args)?;
    Ok(e.settings
        .notation
        .move_text(e.game.position().geometry(), mv)
        .into())
}

/// Most moves `maxmoves` may ask `oust-analyze` to report.
pub const MAX_ANALYZE_MOVES: u64 = 10_000;

/// The options `oust-analyze` takes after its positional arguments, as KataGo's `kata-analyze` does.
const ANALYZE_KEYS: [&str; 2] = ["interval", "maxmoves"];

/// An `oust-analyze` interval in centiseconds, 1 to 360000.
fn centiseconds(token: &str) -> Result<u64, GtpError> {
    parse_int(token)
        .filter(|&c| (1..=360_000).contains(&c))
        .ok_or_else(|| {
            syntax(format!(
                "the interval is in centiseconds, 1 to 360000, got '{token}'"
            ))
        })
}

/// `oust-analyze [COLOR] [INTERVAL] [interval CENTISECONDS] [maxmoves N]`, as `lz-analyze` and `kata-analyze`: asks
/// the session to stream the analysis, each line with at most N moves when `maxmoves` is given. The colour, when
/// given, must be the side to move (the rules decide it; a capture keeps the turn).
pub fn analyze(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let positional = args
        .iter()
        .position(|a| ANALYZE_KEYS.contains(&a.to_ascii_lowercase().as_str()))
        .unwrap_or(args.len());
    let (color, mut interval) = match &args[..positional] {
        [] => (None, None),
        [one] => match parse_color(one) {
            Some(c) => (Some(c), None),
            None => (None, Some(centiseconds(one)?)),
        },
        [color, interval] => (Some(args::color(color)?), Some(centiseconds(interval)?)),
        [_, _, extra, ..] => {
            return Err(syntax(format!(
                "unexpected '{extra}': oust-analyze takes [COLOR] [INTERVAL], then interval CENTISECONDS and maxmoves N"
            )));
        }
    };
    let mut max_moves = None;
    for pair in args[positional..].chunks(2) {
        let key = pair[0].to_ascii_lowercase();
        let Some(&value) = pair.get(1) else {
            return Err(syntax(format!("{key} needs a value")));
        };
        match key.as_str() {
            "interval" if interval.is_none() => interval = Some(centiseconds(value)?),
            "maxmoves" if max_moves.is_none() => {
                let n = parse_int(value)
                    .filter(|&n| (1..=MAX_ANALYZE_MOVES).contains(&n))
                    .ok_or_else(|| {
                        syntax(format!(
                            "maxmoves must be a whole number from 1 to {MAX_ANALYZE_MOVES}, got '{value}'"
                        ))
                    })?;
                max_moves = Some(n as usize);
            }
            "interval" | "maxmoves" => {
                return Err(syntax(format!("{key} is given twice")));
            }
            _ => {
                return Err(syntax(format!(
                    "unknown option '{}': oust-analyze takes interval CENTISECONDS and maxmoves N",
                    pair[0]
                )));
            }
        }
    }
    if let Some(color) = color {
        check_side(e, color)?;
    }
    Ok(Reply::Stream {
        interval: Duration::from_millis(interval.unwrap_or(100) * 10),
        max_moves,
    })
}

/// `oust-suggest COLOR [play]`: searches as `genmove` would and answers the best move with the search's view of
/// it in one response, as KataGo's `kata-genmove_analyze` reports its move: `move MOVE visits N winrate W [proof
/// R] [played REPORT] pv C MOVE ...` (see [`suggestion`]). Without `play` nothing is played (as `reg_genmove`);
/// with it the move is played as `genmove` plays it, and its report tokens follow `played`. It never resigns.
pub fn suggest(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let play = match args.get(1) {
        None => false,
        Some(flag) if flag.eq_ignore_ascii_case("play") => true,
        Some(other) => {
            return Err(syntax(format!(
                "expected play (to play the move) or nothing after the colour, got '{other}'"
            )));
        }
    };
    let started = Instant::now();
    let (color, mv, result) = choose(e, args)?;
    let pos = e.game.position().clone();
    let stats = result.info.moves.iter().find(|m| m.mv == mv);
    let report = if play {
        e.players[color.index()].get_or_insert_with(|| "oust".to_string());
        let report = e.game.play(color, mv).map_err(|err| {
            GtpError::Failed(format!(
                "internal error: the chosen move {} is illegal: {err}",
                move_name(&pos, mv)
            ))
        })?;
        e.clock_mut(color).spend(started.elapsed().as_secs_f64());
        Some(report)
    } else {
        None
    };
    Ok(suggestion(&pos, e.settings.notation, mv, stats, report.as_ref()).into())
}

/// Visits under which `oust-judge` does not take a played move's value from the search (one that a proof of the
/// root ended before the move got its share): it searches the position after the move instead.
const JUDGE_MIN_VISITS: u32 = 32;

/// `oust-judge MOVE`: judges the legal move MOVE within [`crate::gtp::state::JUDGE_SEARCHES`] independent searches
/// that share the usual limits (the tree search alone, MOVE kept at [`crate::search::FORCED_SHARE`] of the root's
/// visits), and answers the first search's best move and MOVE, each with its winning chance averaged over the
/// searches that valued it and its visits in all of them, and what MOVE lost: the mean of what each search says it lost against its own best move,
/// with an error that is the larger of the visits' binomial one and the searches' spread ([`combined_loss`]).
/// Nothing is played.
pub fn judge(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let notation = e.settings.notation;
    let pos = e.game.position().clone();
    let geo = pos.geometry_arc().clone();
    let played = args::mv(&geo, notation, args[0])?;
    let me = pos.to_move();
    // Refused as `play` refuses it.
    let mut after = e.game.clone();
    after
        .play(me, played)
        .map_err(|err| GtpError::Illegal(notation.illegal(&geo, err)))?;
    let searches = e.judge(played);
    let first_best = searches[0].best.unwrap_or(played);
    let mut after_value: Option<MoveStats> = None;
    let mut losses = Vec::new();
    let mut best_seen = Vec::new();
    let mut played_seen = Vec::new();
    for r in &searches {
        let stats = |mv: Move| r.info.moves.iter().find(|m| m.mv == mv).cloned();
        let best = r.best.unwrap_or(played);
        let mut p = stats(played);
        let unreached = p
            .as_ref()
            .is_none_or(|m| m.visits < JUDGE_MIN_VISITS && m.proof.is_none());
        if best != played && unreached && played != Move::Swap {
            // A proof of the root ends the search before the played move has the visits to value it: value the
            // position after it with a search of its own, in the mover's view (a capture keeps the turn).
            let v = match &after_value {
                Some(v) => v.clone(),
                None => after_value
                    .insert(value_after(e, after.clone(), played))
                    .clone(),
            };
            p = Some(v);
        }
        if let Some(l) = judged_loss((best, stats(best).as_ref()), (played, p.as_ref())) {
            losses.push(l);
        }
        best_seen.extend(stats(first_best));
        played_seen.extend(p);
    }
    let loss = if losses.len() == searches.len() {
        combined_loss(&losses)
    } else {
        None
    };
    Ok(judgement(
        &pos,
        notation,
        (first_best, merged(&best_seen).as_ref()),
        (played, merged(&played_seen).as_ref()),
        loss,
    )
    .into())
}

/// One move's statistics from several searches: the visits added up, the winning chance averaged, a proof where
/// one found it, the first search's line.
fn merged(seen: &[MoveStats]) -> Option<MoveStats> {
    let first = seen.first()?;
    let mut m = first.clone();
    m.visits = seen.iter().map(|s| s.visits).fold(0, u32::saturating_add);
    m.winrate = seen.iter().map(|s| s.winrate).sum::<f32>() / seen.len() as f32;
    m.proof = seen.iter().find_map(|s| s.proof);
    if let Some(o) = m.proof {
        m.winrate = match o.winner() {
            Some(w) if Some(w) == first.pv.first().map(|&(c, _)| c) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    Some(m)
}

/// The value of the position `after` (the game after the move `played`) for the side that played it, from a
/// search of that position (or its end), as the move's statistics.
fn value_after(e: &mut Engine, after: crate::rules::Game, played: Move) -> MoveStats {
    let mover = e.game.position().to_move();
    let status = after.position().status();
    let turn_kept = after.position().to_move() == mover;
    let saved = std::mem::replace(&mut e.game, after);
    let (winrate, visits, proof) = match status {
        Status::Over(o) => (
            match o.winner() {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            0,
            Some(o),
        ),
        _ => {
            // The tree search alone, as the judgement's own searches: nothing the solver's table kept from earlier
            // commands changes the answer.
            let r = e.analyse_tree();
            let w = r.winrate().unwrap_or(0.5);
            let visits = u32::try_from(r.info.visits).unwrap_or(u32::MAX);
            (if turn_kept { w } else { 1.0 - w }, visits, r.info.proof)
        }
    };
    e.game = saved;
    MoveStats {
        mv: played,
        visits,
        winrate,
        prior: 0.0,
        proof,
        pv: vec![(mover, played)],
        pv_visits: vec![visits],
    }
}

/// Visits a move needs before the heat map labels it with its winning chance: fewer say little (one lost playout
/// would read 0, which looks like a proven loss).
pub const HEATMAP_LABEL_VISITS: u32 = 10;

/// The search behind a GoGui analysis, and the command that made it when that was the other analysis command
/// (see [`SharedSearch`]); `None` when the game is over.
fn analysis_search(e: &mut Engine, which: Analysis) -> Option<(SearchResult, Option<Analysis>)> {
    if matches!(e.game.position().status(), Status::Over(_)) {
        return None;
    }
    if let Some(shared) = e.shared.as_mut()
        && shared.command + 1 == e.commands
        && !shared.used.contains(&which)
    {
        shared.command = e.commands;
        shared.used.push(which);
        log::debug!(
            "{} answers from the search of {}",
            which.command(),
            shared.by.command()
        );
        return Some((shared.result.clone(), Some(shared.by)));
    }
    let result = e.analyse();
    e.shared = Some(SharedSearch {
        command: e.commands,
        by: which,
        used: vec![which],
        result: result.clone(),
    });
    Some((result, None))
}

/// GoGui's status line for an analysis: the search and its best move, or why there is nothing to analyze.
fn analysis_text(e: &Engine, search: Option<&(SearchResult, Option<Analysis>)>) -> String {
    let pos = e.game.position();
    let Some((result, by)) = search else {
        return match pos.status() {
            Status::Over(o) => format!(
                "TEXT nothing to analyze: the game is over ({})",
                o.describe()
            ),
            _ => "TEXT nothing to analyze".to_string(),
        };
    };
    let mut text = format!(
        "TEXT {}, {} to move",
        notation::count(result.playouts, "playout"),
        pos.to_move()
    );
    if let Some(best) = result.best {
        text.push_str(&format!(", best {}", move_name(pos, best)));
        if let Some(w) = result.winrate() {
            text.push_str(&format!(" ({:.1}%)", w * 100.0));
        }
    }
    if let Some(by) = by {
        text.push_str(&format!(", from the search of {}", by.command()));
    }
    text
}

/// The heat map's label of a searched move: `W` or `L` for a move proven to win or lose for the side to move, `D`
/// for a proven draw, its winning chance in percent (1 to 99) once it has [`HEATMAP_LABEL_VISITS`] visits, and none
/// before.
fn heatmap_label(m: &MoveStats, me: Color) -> Option<String> {
    match m.proof {
        Some(Outcome::Win(w)) => Some(if w == me { "W" } else { "L" }.to_string()),
        Some(Outcome::Draw) => Some("D".to_string()),
        None if m.visits >= HEATMAP_LABEL_VISITS => Some(format!(
            "{:.0}",
            (f64::from(m.winrate) * 100.0).clamp(1.0, 99.0)
        )),
        None => None,
    }
}

/// `oust-heatmap`: GoGui `gfx` of the search: each searched move shaded by its share of the visits and labelled
/// as [`heatmap_label`] says, then a `TEXT` status line. On a finished game only the `TEXT` line, which says so: an
/// analysis command that fails makes GoGui show a "Command failed" dialog.
pub fn heatmap(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let search = analysis_search(e, Analysis::HeatMap);
    let text = analysis_text(e, search.as_ref());
    let Some((result, _)) = search else {
        return Ok(text.into());
    };
    let pos = e.game.position();
    let me = pos.to_move();
    // With no playouts (the solver proved the position before the tree search ran), a proven move is shaded
    // in full.
    let most = result
        .info
        .moves
        .iter()
        .map(|m| m.visits)
        .max()
        .unwrap_or(0);
    let shade = |m: &MoveStats| {
        if most == 0 {
            1.0
        } else {
            f64::from(m.visits) / f64::from(most)
        }
    };
    let mut influence = String::from("INFLUENCE");
    let mut labels = String::from("LABEL");
    for m in &result.info.moves {
        if m.mv == Move::Pass || m.mv == Move::Swap || (m.visits == 0 && m.proof.is_none()) {
            continue;
        }
        let name = move_name(pos, m.mv);
        influence.push_str(&format!(" {name} {:.2}", shade(m)));
        if let Some(label) = heatmap_label(m, me) {
            labels.push_str(&format!(" {name} {label}"));
        }
    }
    let lines: Vec<String> = [influence, labels]
        .into_iter()
        .filter(|l| l.contains(' '))
        .chain([text])
        .collect();
    Ok(lines.join("\n").into())
}

/// `oust-pv`: GoGui `gfx` `VAR` line of the principal variation, colours included (a capture keeps the turn), then
/// the `TEXT` status line of `oust-heatmap`. On a finished game only the `TEXT` line.
pub fn pv(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let search = analysis_search(e, Analysis::Pv);
    let text = analysis_text(e, search.as_ref());
    let pos = e.game.position();
    let var: Vec<String> = search
        .as_ref()
        .and_then(|(result, _)| result.info.moves.first())
        .map(|best| {
            best.pv
                .iter()
                .map(|&(c, m)| format!("{} {}", c.letter(), move_name(pos, m)))
                .collect()
        })
        .unwrap_or_default();
    Ok(if var.is_empty() {
        text
    } else {
        format!("VAR {}\n{text}", var.join(" "))
    }
    .into())
}

/// `oust-solve [SECONDS]`: solves the current position for its side to move within SECONDS (default
/// [`SOLVE_SECONDS`]): `win|loss|draw MOVE DISTANCE`, or `unknown` when the time runs out first.
pub fn solve(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let seconds = match args.first() {
        Some(t) => args::seconds(t, "the time")?,
        None => SOLVE_SECONDS,
    };
    let pos = e.game.position().clone();
    let limits = solve::Limits {
        deadline: Some(Instant::now() + Duration::from_secs_f64(seconds)),
        nodes: e.settings.solver_nodes,
        ..solve::Limits::default()
    };
    let bytes = e.settings.solver_mb << 20;
    let report = e
        .searcher
        .solve(&pos, bytes, &limits)
        .map_err(|err| GtpError::Failed(format!("cannot solve: {err}")))?;
    log::info!(
        "oust-solve: {} nodes, {:.0} nodes/s, {:.3}s, table {} of {} entries",
        report.stats.nodes,
        report.stats.nodes_per_second(),
        report.stats.elapsed.as_secs_f64(),
        report.stats.table_used,
        report.stats.table_capacity
    );
    Ok(match report.verdict {
        Verdict::Solved(s) => format!(
            "{} {} {}",
            s.value.name(),
            e.settings.notation.move_text(pos.geometry(), s.best),
            s.distance
        )
        .into(),
        Verdict::Unknown(why) => {
            log::info!("oust-solve: unknown ({why})");
            "unknown".into()
        }
    })
}
