//! One line of the analysis engine's input read as a request: a query (what to search) or an action, checked
//! against the rules before anything is queued, so that a bad query is answered at once and never half run.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::notation::Notation;
use crate::rules::{Color, Game, Geometry, Move, Position, Shape};

/// The most visits a query may ask for a position.
pub const MAX_VISITS: u64 = 100_000_000;
/// The most turns a query may ask to analyse.
pub const MAX_TURNS: usize = 10_000;
/// The shortest interval of `reportDuringSearchEvery`, in seconds.
pub const MIN_REPORT_EVERY: f64 = 0.01;

/// What the engine gives a query that leaves a field out.
#[derive(Clone, Debug)]
pub struct Defaults {
    /// The board of a query without `board`.
    pub board: Shape,
    /// The visits of a query without `maxVisits`.
    pub max_visits: u64,
}

/// A query: the positions of one game to search, and how.
#[derive(Clone, Debug)]
pub struct Query {
    /// The client's name for the query.
    pub id: String,
    /// Each turn to analyse, with the game as it stands after that many entries of `moves`.
    pub turns: Vec<(usize, Game)>,
    /// How moves are written, in the query and in the answers.
    pub notation: Notation,
    /// Visits a position.
    pub max_visits: u64,
    /// Answer with the policy at the root.
    pub include_policy: bool,
    /// Answer with the visits along each line.
    pub include_pv_visits: bool,
    /// Moves a player may or may not consider at the root.
    pub filters: Vec<MoveFilter>,
    /// Answer during the search this often.
    pub report_every: Option<Duration>,
    /// Higher is searched first.
    pub priority: i64,
    /// Engine parameters for this query's searches, as `oust-set-param` takes them.
    pub overrides: Vec<(String, String)>,
}

/// An `allowMoves` or `avoidMoves` entry: the root moves of `player` kept to, or kept from.
#[derive(Clone, Debug)]
pub struct MoveFilter {
    /// The player whose root moves it restricts.
    pub player: Color,
    /// The moves.
    pub moves: Vec<Move>,
    /// `allowMoves` (only these) rather than `avoidMoves` (all but these).
    pub allow: bool,
}

impl Query {
    /// The root moves a search of `pos` may consider, where a filter of its player applies.
    pub fn root_moves(&self, pos: &Position) -> Option<Arc<[Move]>> {
        let me = pos.to_move();
        let mine: Vec<&MoveFilter> = self.filters.iter().filter(|f| f.player == me).collect();
        if mine.is_empty() {
            return None;
        }
        let legal = pos.legal_moves();
        Some(
            legal
                .into_iter()
                .filter(|m| mine.iter().all(|f| f.moves.contains(m) == f.allow))
                .collect(),
        )
    }
}

/// A request of one input line.
#[derive(Clone, Debug)]
pub enum Request {
    /// Positions to search.
    Query(Query),
    /// `query_version`.
    Version {
        /// The request's id.
        id: Value,
    },
    /// `terminate` (one query, some or all of its turns) or `terminate_all` (every query).
    Terminate {
        /// The request's id.
        id: Value,
        /// The query to end; `None` for every query.
        target: Option<String>,
        /// The turns to end; `None` for all.
        turns: Option<Vec<usize>>,
    },
}

/// Why a line was refused: its answer `{"id": ..., "error": ..., "field": ...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The line's id, or null where it has none that can be read.
    pub id: Value,
    /// What is wrong.
    pub message: String,
    /// The field at fault.
    pub field: Option<String>,
}

/// A field the engine does not know, or knows and ignores: answered as a warning, and the query goes on.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The field.
    pub field: String,
    /// What the engine does with it.
    pub message: String,
}

/// The fields of a query, as KataGo's analysis engine names them where the meaning is the same.
const QUERY_FIELDS: &[&str] = &[
    "id",
    "moves",
    "board",
    "notation",
    "initialStones",
    "initialPlayer",
    "pie",
    "analyzeTurns",
    "maxVisits",
    "includePolicy",
    "includePVVisits",
    "avoidMoves",
    "allowMoves",
    "reportDuringSearchEvery",
    "priority",
    "overrideSettings",
    "action",
    "terminateId",
    "turnNumbers",
];

/// Reads one line: the request, or why it is refused, with the warnings on fields it ignores.
pub fn read(line: &str, defaults: &Defaults) -> (Result<Request, Problem>, Vec<Warning>) {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return (
                Err(Problem {
                    id: Value::Null,
                    message: format!("the line is not JSON: {e}"),
                    field: None,
                }),
                Vec::new(),
            );
        }
    };
    let Value::Object(obj) = value else {
        return (
            Err(Problem {
                id: Value::Null,
                message: "a query must be a JSON object".into(),
                field: None,
            }),
            Vec::new(),
        );
    };
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    let mut warnings = Vec::new();
    for key in obj.keys() {
        if !QUERY_FIELDS.contains(&key.as_str()) {
            warnings.push(Warning {
                field: key.clone(),
                message: "unknown field, ignored".into(),
            });
        }
    }
    let fail = |message: String, field: &str| Problem {
        id: id.clone(),
        message,
        field: (!field.is_empty()).then(|| field.to_string()),
    };
    let result = match obj.get("action") {
        Some(Value::String(action)) => read_action(&obj, action, &id).map_err(|(m, f)| fail(m, f)),
        Some(_) => Err(fail("action must be a string".into(), "action")),
        None => read_query(&obj, defaults, &mut warnings).map_err(|(m, f)| fail(m, f)),
    };
    (result, warnings)
}

/// A refusal: its message and field.
type Refusal = (String, &'static str);

fn read_action(obj: &Map<String, Value>, action: &str, id: &Value) -> Result<Request, Refusal> {
    if id.is_null() {
        return Err(("an action needs an id".into(), "id"));
    }
    let turns = || -> Result<Option<Vec<usize>>, Refusal> {
        obj.get("turnNumbers")
            .map(|v| turn_list(v).map_err(|m| (m, "turnNumbers")))
            .transpose()
    };
    match action {
        "query_version" => Ok(Request::Version { id: id.clone() }),
        "terminate" => {
            let target = match obj.get("terminateId") {
                Some(Value::String(s)) => s.clone(),
                Some(_) => return Err(("terminateId must be a string".into(), "terminateId")),
                None => return Err(("terminate needs terminateId".into(), "terminateId")),
            };
            Ok(Request::Terminate {
                id: id.clone(),
                target: Some(target),
                turns: turns()?,
            })
        }
        "terminate_all" => Ok(Request::Terminate {
            id: id.clone(),
            target: None,
            turns: turns()?,
        }),
        other => Err((
            format!("unknown action '{other}': query_version, terminate or terminate_all"),
            "action",
        )),
    }
}

fn turn_list(v: &Value) -> Result<Vec<usize>, String> {
    let Value::Array(items) = v else {
        return Err("expected an array of turn numbers".into());
    };
    if items.len() > MAX_TURNS {
        return Err(format!("at most {MAX_TURNS} turn numbers"));
    }
    items
        .iter()
        .map(|t| {
            t.as_u64()
                .and_then(|t| usize::try_from(t).ok())
                .ok_or_else(|| format!("a turn number must be a whole number from 0, got {t}"))
        })
        .collect()
}

fn read_query(
    obj: &Map<String, Value>,
    defaults: &Defaults,
    warnings: &mut Vec<Warning>,
) -> Result<Request, Refusal> {
    let id = match obj.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(_) => return Err(("id must be a non-empty string".into(), "id")),
        None => return Err(("a query needs an id".into(), "id")),
    };
    let shape = match obj.get("board") {
        None => defaults.board,
        Some(v) => {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => {
                    return Err((
                        "board must be a string such as \"9\", \"7x5\" or \"hex7\"".into(),
                        "board",
                    ));
                }
            };
            let shape = Shape::parse(&text)
                .map_err(|e| (format!("unknown board '{text}': {e}"), "board"))?;
            Geometry::new(shape).map_err(|e| (format!("unknown board '{text}': {e}"), "board"))?;
            shape
        }
    };
    let geo = Geometry::shared(shape).map_err(|e| (e.to_string(), "board"))?;
    let notation = match obj.get("notation") {
        None => Notation::Gtp,
        Some(Value::String(s)) => Notation::parse(s).ok_or_else(|| {
            (
                format!("notation must be \"gtp\" or \"ap\", got \"{s}\""),
                "notation",
            )
        })?,
        Some(_) => return Err(("notation must be \"gtp\" or \"ap\"".into(), "notation")),
    };
    let read_move = |text: &str| -> Result<Move, String> {
        notation.read_move(&geo, text).map_err(|e| {
            let hint = notation.other_reading(&geo, text).unwrap_or_default();
            format!("{e}{hint}")
        })
    };
    let color = |v: &Value| -> Result<Color, String> {
        v.as_str()
            .and_then(crate::gtp::parse_color)
            .ok_or_else(|| format!("expected a player \"B\" or \"W\", got {v}"))
    };
    // The start: an empty board, or the initial stones and player.
    let mut start = match obj.get("initialStones") {
        None => None,
        Some(Value::Array(stones)) => {
            let mut cells = vec![None; geo.len()];
            for (i, s) in stones.iter().enumerate() {
                let (c, mv) = pair(s)
                    .and_then(|(c, m)| Ok((color(c)?, read_move(m)?)))
                    .map_err(|m| (format!("initialStones[{i}]: {m}"), "initialStones"))?;
                let Move::Place(p) = mv else {
                    return Err((
                        format!("initialStones[{i}]: a stone needs a point"),
                        "initialStones",
                    ));
                };
                cells[p.index()] = Some(c);
            }
            Some(cells)
        }
        Some(_) => {
            return Err((
                "initialStones must be an array of [player, point] pairs".into(),
                "initialStones",
            ));
        }
    };
    let first = match obj.get("initialPlayer") {
        None => Color::Black,
        Some(v) => color(v).map_err(|m| (m, "initialPlayer"))?,
    };
    if first == Color::White && start.is_none() {
        start = Some(vec![None; geo.len()]);
    }
    let mut game = match start {
        Some(cells) => Game::from_position(Position::setup(geo.clone(), &cells, first, false)),
        None => Game::new(geo.clone()),
    };
    match obj.get("pie") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => game.set_pie(true).map_err(|e| (e.to_string(), "pie"))?,
        Some(_) => return Err(("pie must be true or false".into(), "pie")),
    }
    let moves = match obj.get("moves") {
        None => Vec::new(),
        Some(Value::Array(items)) => items.clone(),
        Some(_) => {
            return Err((
                "moves must be an array of [player, move] pairs".into(),
                "moves",
            ));
        }
    };
    let turns = match obj.get("analyzeTurns") {
        None => vec![moves.len()],
        Some(v) => {
            let mut t = turn_list(v).map_err(|m| (m, "analyzeTurns"))?;
            if let Some(bad) = t.iter().find(|&&t| t > moves.len()) {
                return Err((
                    format!(
                        "turn {bad} is out of range: the query has {}, so its turns are 0 to {}",
                        crate::notation::count(moves.len(), "move"),
                        moves.len()
                    ),
                    "analyzeTurns",
                ));
            }
            t.sort_unstable();
            t.dedup();
            if t.is_empty() {
                return Err((
                    "analyzeTurns is empty: no turn to analyse".into(),
                    "analyzeTurns",
                ));
            }
            t
        }
    };
    let mut games = Vec::with_capacity(turns.len());
    for k in 0..=moves.len() {
        if turns.binary_search(&k).is_ok() {
            games.push((k, game.clone()));
        }
        let Some(entry) = moves.get(k) else { break };
        let (c, mv) = pair(entry)
            .and_then(|(c, m)| Ok((color(c)?, read_move(m)?)))
            .map_err(|m| (format!("moves[{k}]: {m}"), "moves"))?;
        game.play(c, mv).map_err(|e| {
            let e = notation.illegal(&geo, e);
            (
                format!(
                    "moves[{k}] ({} {}), played at turn {k}: illegal move: {e}",
                    if c == Color::Black { "B" } else { "W" },
                    notation.move_text(&geo, mv),
                ),
                "moves",
            )
        })?;
    }
    let max_visits = match obj.get("maxVisits") {
        None => defaults.max_visits,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_VISITS).contains(&n) => n,
            _ => {
                return Err((
                    format!("maxVisits must be a whole number from 1 to {MAX_VISITS}, got {v}"),
                    "maxVisits",
                ));
            }
        },
    };
    let flag = |name: &'static str| -> Result<bool, Refusal> {
        match obj.get(name) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err((format!("{name} must be true or false"), name)),
        }
    };
    let include_policy = flag("includePolicy")?;
    let include_pv_visits = flag("includePVVisits")?;
    let mut filters = Vec::new();
    for (name, allow) in [("avoidMoves", false), ("allowMoves", true)] {
        if let Some(v) = obj.get(name) {
            let field: &'static str = if allow { "allowMoves" } else { "avoidMoves" };
            filters.extend(read_filters(v, allow, &read_move, &color, warnings, field)?);
        }
    }
    let report_every = match obj.get("reportDuringSearchEvery") {
        None => None,
        Some(v) => match v.as_f64() {
            Some(s) if (MIN_REPORT_EVERY..=86_400.0).contains(&s) => {
                Some(Duration::from_secs_f64(s))
            }
            _ => {
                return Err((
                    format!(
                        "reportDuringSearchEvery must be a number of seconds from {MIN_REPORT_EVERY} to 86400, got {v}"
                    ),
                    "reportDuringSearchEvery",
                ));
            }
        },
    };
    let priority = match obj.get("priority") {
        None => 0,
        Some(v) => v.as_i64().ok_or_else(|| {
            (
                format!("priority must be a whole number, got {v}"),
                "priority",
            )
        })?,
    };
    let overrides = match obj.get("overrideSettings") {
        None => Vec::new(),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
                    Value::Number(n) => n.to_string(),
                    _ => {
                        return Err((
                            format!(
                                "overrideSettings.{k} must be a string, a number or true/false"
                            ),
                            "overrideSettings",
                        ));
                    }
                };
                Ok((k.clone(), text))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err((
                "overrideSettings must be an object of parameters".into(),
                "overrideSettings",
            ));
        }
    };
    Ok(Request::Query(Query {
        id,
        turns: games,
        notation,
        max_visits,
        include_policy,
        include_pv_visits,
        filters,
        report_every,
        priority,
        overrides,
    }))
}

/// A `[player, move]` pair.
fn pair(v: &Value) -> Result<(&Value, &str), String> {
    match v.as_array().map(Vec::as_slice) {
        Some([c, Value::String(m)]) => Ok((c, m.as_str())),
        _ => Err(format!("expected a [player, move] pair, got {v}")),
    }
}

/// The entries of `avoidMoves` or `allowMoves`: `[{"player": "B", "moves": ["C3"], "untilDepth": 1}]`.
fn read_filters(
    v: &Value,
    allow: bool,
    read_move: &dyn Fn(&str) -> Result<Move, String>,
    color: &dyn Fn(&Value) -> Result<Color, String>,
    warnings: &mut Vec<Warning>,
    field: &'static str,
) -> Result<Vec<MoveFilter>, Refusal> {
    let Value::Array(entries) = v else {
        return Err((
            format!("{field} must be an array of {{player, moves, untilDepth}}"),
            field,
        ));
    };
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = |m: String| (format!("{field}[{i}]: {m}"), field);
        let Value::Object(o) = e else {
            return Err(at("expected an object {player, moves, untilDepth}".into()));
        };
        let player = color(o.get("player").unwrap_or(&Value::Null)).map_err(at)?;
        let Some(Value::Array(list)) = o.get("moves") else {
            return Err(at("moves must be an array of moves".into()));
        };
        let moves = list
            .iter()
            .map(|m| {
                m.as_str()
                    .ok_or_else(|| format!("expected a move, got {m}"))
                    .and_then(read_move)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(at)?;
        match o.get("untilDepth").map(Value::as_u64) {
            None | Some(Some(1)) => {}
            Some(Some(d)) if d > 1 => warnings.push(Warning {
                field: field.into(),
                message: format!(
                    "untilDepth {d}: only the root's moves are restricted (untilDepth 1)"
                ),
            }),
            Some(_) => return Err(at("untilDepth must be a whole number from 1".into())),
        }
        out.push(MoveFilter {
            player,
            moves,
            allow,
        });
    }
    Ok(out)
}
