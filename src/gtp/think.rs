//! Commands that make the engine think: `genmove`, `reg_genmove`, analysis, clocks and parameters.

use std::time::{Duration, Instant};

use crate::rules::{Color, IllegalMove, Move, Status};
use crate::search::time::{Clock, TimeSystem, moves_left};
use crate::search::{Control, Limits, Request, SearchResult, Setup, nodes_for_megabytes};

use super::commands::color_arg;
use super::engine::Engine;
use super::error::{GtpError, syntax};
use super::format::{move_name, report_tokens};
use super::params::{PARAMS, find_param};
use super::parse::{parse_float, parse_int};

/// Thinking time per move when nothing else decides it.
pub const DEFAULT_THINK: Duration = Duration::from_secs(1);
/// Root visits a search needs before its winning chance may trigger a resignation.
const RESIGN_MIN_VISITS: u64 = 200;

impl Engine {
    /// The search settings as the searcher takes them.
    pub(crate) fn search_setup(&self) -> Setup {
        Setup {
            player: self.settings.player,
            config: self.settings.config.clone(),
            threads: self.settings.threads,
            tree_nodes: nodes_for_megabytes(self.settings.tree_mb),
        }
    }

    /// How long `color` may think now: the playout limit, the time per move and the clock, whichever is
    /// tightest; one second when none is set.
    pub fn limits(&self, color: Color) -> Limits {
        let s = &self.settings;
        let playouts = (s.playouts > 0).then_some(s.playouts);
        let mut time = (s.time_per_move > 0.0).then(|| Duration::from_secs_f64(s.time_per_move));
        let empties = self.game.position().empties().len();
        if let Some(budget) = self.clocks[color.index()].budget(moves_left(empties)) {
            time = Some(time.map_or(budget, |t| t.min(budget)));
        }
        if playouts.is_none() && time.is_none() {
            time = Some(DEFAULT_THINK);
        }
        Limits { playouts, time }
    }

    /// Searches the current position for its side to move within the usual limits.
    pub(crate) fn think(&mut self) -> SearchResult {
        let color = self.game.position().to_move();
        let limits = self.limits(color);
        let request = Request {
            limits,
            seed: self.rng.next_u64(),
            ..Request::default()
        };
        let setup = self.search_setup();
        self.searcher
            .search(&self.game, &setup, &request, &mut |_| Control::Continue)
    }
}

/// Checks that `color` may move now.
pub(crate) fn check_turn(e: &Engine, color: Color) -> Result<(), GtpError> {
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
    let color = color_arg(args[0])?;
    check_turn(e, color)?;
    let result = e.think();
    let mv = result
        .best
        .ok_or_else(|| GtpError::Failed("internal error: no move found".into()))?;
    Ok((color, mv, result))
}

pub(crate) fn genmove(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let started = Instant::now();
    let (color, mv, result) = choose(e, args)?;
    if wants_resign(e, &result) {
        e.clock_mut(color).spend(started.elapsed().as_secs_f64());
        return Ok("resign".into());
    }
    let name = move_name(e.game.position(), mv);
    let report = e.game.play(color, mv).map_err(|err| {
        GtpError::Failed(format!(
            "internal error: the chosen move {name} is illegal: {err}"
        ))
    })?;
    e.clock_mut(color).spend(started.elapsed().as_secs_f64());
    let tokens = report_tokens(&report);
    Ok(if tokens.is_empty() {
        name
    } else {
        format!("{name} {tokens}")
    })
}

pub(crate) fn reg_genmove(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let (_, mv, _) = choose(e, args)?;
    Ok(move_name(e.game.position(), mv))
}

/// `oust-analyze [INTERVAL]`: the session streams the analysis after this returns.
pub(crate) fn analyze(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
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
    e.stream = Some(Duration::from_millis(centis * 10));
    Ok(String::new())
}

fn seconds_arg(token: &str, what: &str) -> Result<f64, GtpError> {
    parse_float(token)
        .filter(|&v| (0.0..=1e7).contains(&v))
        .ok_or_else(|| {
            syntax(format!(
                "{what} must be a number of seconds from 0 to 10000000, got '{token}'"
            ))
        })
}

fn count_arg(token: &str, what: &str) -> Result<u32, GtpError> {
    parse_int(token)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| syntax(format!("{what} must be a whole number, got '{token}'")))
}

fn set_clocks(e: &mut Engine, system: TimeSystem) -> Result<String, GtpError> {
    e.clocks = [Clock::new(system), Clock::new(system)];
    Ok(String::new())
}

pub(crate) fn time_settings(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let main = seconds_arg(args[0], "main time")?;
    let period = seconds_arg(args[1], "byo-yomi time")?;
    let stones = count_arg(args[2], "byo-yomi stones")?;
    // GTP: no byo-yomi stones means absolute time, or no limit at all when there is byo-yomi time (or nothing).
    let system = match stones {
        0 if period == 0.0 && main > 0.0 => TimeSystem::Absolute { main },
        0 => TimeSystem::Unlimited,
        stones => TimeSystem::Canadian {
            main,
            period,
            stones,
        },
    };
    set_clocks(e, system)
}

pub(crate) fn kgs_time_settings(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(syntax(format!(
                "kgs-time_settings {} takes {} numbers, got {}",
                args[0],
                n - 1,
                args.len() - 1
            )))
        }
    };
    let system = match args[0] {
        "none" => {
            want(1)?;
            TimeSystem::Unlimited
        }
        "absolute" => {
            want(2)?;
            TimeSystem::Absolute {
                main: seconds_arg(args[1], "main time")?,
            }
        }
        "byoyomi" => {
            want(4)?;
            TimeSystem::Byoyomi {
                main: seconds_arg(args[1], "main time")?,
                period: seconds_arg(args[2], "period time")?,
                periods: count_arg(args[3], "periods")?,
            }
        }
        "canadian" => {
            want(4)?;
            let stones = count_arg(args[3], "stones")?;
            let period = seconds_arg(args[2], "period time")?;
            let main = seconds_arg(args[1], "main time")?;
            if stones == 0 {
                TimeSystem::Unlimited
            } else {
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                }
            }
        }
        other => {
            return Err(syntax(format!(
                "expected none, absolute, byoyomi or canadian, got '{other}'"
            )));
        }
    };
    set_clocks(e, system)
}

pub(crate) fn time_left(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let color = color_arg(args[0])?;
    let time = seconds_arg(args[1], "time")?;
    let stones = count_arg(args[2], "stones")?;
    e.clock_mut(color).set_left(time, stones);
    Ok(String::new())
}

pub(crate) fn list_params(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    Ok(PARAMS
        .iter()
        .map(|p| format!("{} {}", p.name, (p.get)(e)))
        .collect::<Vec<_>>()
        .join("\n"))
}

pub(crate) fn get_param(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    let spec = find_param(args[0])
        .ok_or_else(|| GtpError::Failed(format!("unknown parameter '{}'", args[0])))?;
    Ok((spec.get)(e))
}

pub(crate) fn set_param(e: &mut Engine, args: &[&str]) -> Result<String, GtpError> {
    e.set_param(args[0], args[1])
        .map_err(|msg| match find_param(args[0]) {
            None => GtpError::Failed(msg),
            Some(_) => syntax(format!("{}: {msg}", args[0])),
        })?;
    Ok(String::new())
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
pub(crate) fn heatmap(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
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
    Ok([influence, labels, text].join("\n"))
}

/// `oust-pv`: GoGui `gfx` `VAR` line of the principal variation, colours included (a capture keeps the turn).
pub(crate) fn pv(e: &mut Engine, _: &[&str]) -> Result<String, GtpError> {
    let result = analysis_search(e)?;
    let pos = e.game.position();
    let Some(best) = result.info.moves.first() else {
        return Ok(String::new());
    };
    let var: Vec<String> = best
        .pv
        .iter()
        .map(|&(c, m)| format!("{} {}", c.letter(), move_name(pos, m)))
        .collect();
    Ok(format!("VAR {}", var.join(" ")))
}
