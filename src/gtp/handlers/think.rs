//! Commands that make the engine think: `genmove`, `reg_genmove` and the analyses.

use std::time::{Duration, Instant};

use crate::gtp::args;
use crate::gtp::error::{GtpError, syntax};
use crate::gtp::format::move_name;
use crate::gtp::parse::parse_int;
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;
use crate::rules::{Color, IllegalMove, Move, Status};
use crate::search::SearchResult;

/// Root visits a search needs before its winning chance may trigger a resignation.
const RESIGN_MIN_VISITS: u64 = 200;

/// Checks that `color` may move now.
fn check_turn(e: &Engine, color: Color) -> Result<(), GtpError> {
    let pos = e.game.position();
    let status = pos.status();
    if let Status::Over(outcome) = status {
        return Err(GtpError::Failed(format!(
            "cannot move: the game is over ({})",
            outcome.describe()
        )));
    }
    if color != pos.to_move() {
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
    log::debug!(
        "{me} to move: winrate {:?}, proof {:?}, low streak {streak}",
        result.winrate(),
        result.info.proof
    );
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

/// `oust-analyze [INTERVAL]`: asks the session to stream the analysis.
pub fn analyze(_: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let centis = match args.first() {
        None => 100,
        Some(t) => parse_int(t)
            .filter(|&c| (1..=360_000).contains(&c))
            .ok_or_else(|| {
                syntax(format!(
                    "the interval is in centiseconds, 1 to 360000, got '{t}'"
                ))
            })?,
    };
    Ok(Reply::Stream(Duration::from_millis(centis * 10)))
}

/// Searches without playing, for the GoGui analyze commands; fails when the game is over.
fn analysis_search(e: &mut Engine) -> Result<SearchResult, GtpError> {
    if let Status::Over(o) = e.game.position().status() {
        return Err(GtpError::Failed(format!(
            "nothing to analyze: the game is over ({})",
            o.describe()
        )));
    }
    Ok(e.think())
}

/// `oust-heatmap`: GoGui `gfx` of the search: each searched move shaded by its share of the visits and labelled
/// with its winning chance in percent.
pub fn heatmap(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let result = analysis_search(e)?;
    let pos = e.game.position();
    let most = result
        .info
        .moves
        .iter()
        .map(|m| m.visits)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut influence = String::from("INFLUENCE");
    let mut labels = String::from("LABEL");
    for m in &result.info.moves {
        if m.mv == Move::Pass {
            continue;
        }
        let name = move_name(pos, m.mv);
        influence.push_str(&format!(
            " {name} {:.2}",
            f64::from(m.visits) / f64::from(most)
        ));
        labels.push_str(&format!(" {name} {:.0}", m.winrate * 100.0));
    }
    let text = format!(
        "TEXT {} playouts, {} to move, best {} ({:.1}%)",
        result.playouts,
        pos.to_move(),
        result
            .best
            .map_or_else(|| "-".to_string(), |m| move_name(pos, m)),
        result.winrate().unwrap_or(0.5) * 100.0
    );
    Ok([influence, labels, text].join("\n").into())
}

/// `oust-pv`: GoGui `gfx` `VAR` line of the principal variation, colours included (a capture keeps the turn).
pub fn pv(e: &mut Engine, _: &[&str]) -> Result<Reply, GtpError> {
    let result = analysis_search(e)?;
    let pos = e.game.position();
    let Some(best) = result.info.moves.first() else {
        return Ok(Reply::Text(String::new()));
    };
    let var: Vec<String> = best
        .pv
        .iter()
        .map(|&(c, m)| format!("{} {}", c.letter(), move_name(pos, m)))
        .collect();
    Ok(format!("VAR {}", var.join(" ")).into())
}
