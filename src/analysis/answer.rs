//! The answers of the analysis engine as JSON values: a searched position, an error, a warning, an action's
//! acknowledgement. Each is written as one line by [`super::Output`].

use serde_json::{Map, Value, json};

use crate::rules::{Color, Game, Move, Outcome, Status};
use crate::search::{MoveStats, RootInfo};

use super::query::{Problem, Query, Warning};

/// Whose winning chances the answers give (KataGo's `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Perspective {
    /// The side to move of the analysed position.
    #[default]
    SideToMove,
    /// Black's.
    Black,
    /// White's.
    White,
}

impl Perspective {
    /// `SIDETOMOVE`, `BLACK` or `WHITE`, in any case.
    pub fn parse(text: &str) -> Option<Perspective> {
        match text.to_ascii_uppercase().as_str() {
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            "BLACK" => Some(Perspective::Black),
            "WHITE" => Some(Perspective::White),
            _ => None,
        }
    }

    /// Whether a chance of `me`, the side to move, is turned into the other side's.
    fn flips(self, me: Color) -> bool {
        match self {
            Perspective::SideToMove => false,
            Perspective::Black => me == Color::White,
            Perspective::White => me == Color::Black,
        }
    }
}

/// How many standard errors below the winning chance `lcb` is.
pub const LCB_ERRORS: f64 = 1.96;

/// `B` or `W`.
pub fn player(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// Rounds to six decimals, so that answers stay short and read the same on every machine.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The answer to one turn of `query`: the root as the search saw it (`info`), during the search or at its end.
pub fn position(
    query: &Query,
    turn: usize,
    game: &Game,
    info: &RootInfo,
    during: bool,
    perspective: Perspective,
) -> Value {
    let pos = game.position();
    let geo = pos.geometry();
    let me = pos.to_move();
    let flip = perspective.flips(me);
    let view = |w: f64| if flip { 1.0 - w } else { w };
    let name = |mv: Move| query.notation.move_text(geo, mv);
    let allowed = query.root_moves(pos);
    let keep = |mv: Move| allowed.as_ref().is_none_or(|a| a.contains(&mv));
    let moves: Vec<Value> = info
        .moves
        .iter()
        .filter(|m| keep(m.mv))
        .enumerate()
        .map(|(order, m)| move_info(query, m, order, &name, &view))
        .collect();
    let mut root = Map::new();
    root.insert("currentPlayer".into(), json!(player(me)));
    root.insert("extraTurn".into(), json!(pos.extra_turn()));
    root.insert("visits".into(), json!(info.visits));
    let proof = match pos.status() {
        Status::Over(o) => Some(o),
        _ => info.proof,
    };
    let rate = match proof {
        Some(o) => Some(outcome_rate(o, me)),
        None => info.moves.first().map(|m| f64::from(m.winrate)),
    };
    if let Some(r) = rate {
        root.insert("winrate".into(), json!(round(view(r))));
    }
    if let Some(o) = proof {
        root.insert("proven".into(), json!(o.code()));
    }
    let mut out = Map::new();
    out.insert("id".into(), json!(query.id));
    out.insert("turnNumber".into(), json!(turn));
    out.insert("isDuringSearch".into(), json!(during));
    out.insert("moveInfos".into(), Value::Array(moves));
    out.insert("rootInfo".into(), Value::Object(root));
    if query.include_policy {
        let policy: Map<String, Value> = info
            .priors
            .iter()
            .filter(|(mv, _)| keep(*mv))
            .map(|&(mv, p)| (name(mv), json!(round(f64::from(p)))))
            .collect();
        out.insert("policy".into(), Value::Object(policy));
    }
    Value::Object(out)
}

/// One root move's entry of `moveInfos`.
fn move_info(
    query: &Query,
    m: &MoveStats,
    order: usize,
    name: &dyn Fn(Move) -> String,
    view: &dyn Fn(f64) -> f64,
) -> Value {
    let w = f64::from(m.winrate);
    let margin = if m.proof.is_some() {
        0.0
    } else {
        LCB_ERRORS * (w * (1.0 - w) / f64::from(m.visits.max(1))).sqrt()
    };
    let mut o = Map::new();
    o.insert("move".into(), json!(name(m.mv)));
    o.insert("visits".into(), json!(m.visits));
    o.insert("winrate".into(), json!(round(view(w))));
    o.insert("lcb".into(), json!(round((view(w) - margin).max(0.0))));
    o.insert("prior".into(), json!(round(f64::from(m.prior))));
    o.insert("order".into(), json!(order));
    o.insert(
        "pv".into(),
        m.pv.iter().map(|&(_, mv)| json!(name(mv))).collect(),
    );
    o.insert(
        "pvPlayers".into(),
        m.pv.iter().map(|&(c, _)| json!(player(c))).collect(),
    );
    if query.include_pv_visits {
        o.insert("pvVisits".into(), json!(m.pv_visits));
    }
    if let Some(p) = m.proof {
        o.insert("proven".into(), json!(p.code()));
    }
    Value::Object(o)
}

/// The winning chance of `me` in a proven outcome.
fn outcome_rate(o: Outcome, me: Color) -> f64 {
    match o {
        Outcome::Win(w) if w == me => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// The answer to a turn terminated before its search began.
pub fn no_results(id: &str, turn: usize) -> Value {
    json!({"id": id, "turnNumber": turn, "isDuringSearch": false, "noResults": true})
}

/// The answer to a refused line.
pub fn error(p: &Problem) -> Value {
    let mut o = Map::new();
    o.insert("id".into(), p.id.clone());
    o.insert("error".into(), json!(p.message));
    if let Some(f) = &p.field {
        o.insert("field".into(), json!(f));
    }
    Value::Object(o)
}

/// A warning on a field of a line that is still run.
pub fn warning(id: &Value, w: &Warning) -> Value {
    json!({"id": id, "warning": w.message, "field": w.field})
}
