//! The game review's judgement of each placement: the winning chance it lost for the side that played it, and
//! its class (inaccuracy, mistake, blunder), as Lichess's "learn from your mistakes" and KaTrain's points lost do.
//! The engine judges each placement within one search of the position before it (`oust-judge`); this module
//! turns its answers into a review ([`Step`], [`Review`]), judges them, and writes and reads them as SGF
//! properties. `oust gui` asks a GTP engine for each position; `oust review` asks engines in this process, through
//! the same command ([`review_position`]).

use serde_json::{Value, json};

use crate::gtp::Engine;
use crate::notation;
use crate::rng::Rng;
use crate::rules::{Color, Game, Move, Outcome, Shape, Status};

/// A placement that lost at least this much of its side's winning chance (in points of percentage) is an
/// inaccuracy.
pub const INACCURACY: f64 = 5.0;
/// ... a mistake.
pub const MISTAKE: f64 = 10.0;
/// ... a blunder.
pub const BLUNDER: f64 = 20.0;

/// Playouts a position of a review that asks for none, where the engine evaluates with playouts: about 20 s for a
/// 66-placement hex-7 game on two cores (docs/results/2026-12-05-review-agreement.md, "The game review: two runs
/// agree").
pub const REVIEW_PLAYOUTS: u64 = 20_000;

/// Visits a position of a review that asks for none, on the boards where the engine's default evaluator is the
/// network ([`crate::gtp::network_is_default`]): a network's visit costs about fifteen playouts, and 2,000 visits
/// agreed on 98.7% of 9x9 placements between two runs.
pub const REVIEW_VISITS: u64 = 2_000;

/// The review's playouts (or the network's visits) a position when the page leaves them to the engine.
pub fn default_playouts(shape: Shape) -> u64 {
    if crate::gtp::network_is_default(shape) {
        REVIEW_VISITS
    } else {
        REVIEW_PLAYOUTS
    }
}

/// The SGF property of a position's winning chance: Black's, in percent, as Sabaki writes it (`SBKV[56.8]`).
pub const RATE_PROPERTY: &str = "SBKV";
/// The SGF property of the engine's best placement in a position, followed by its line (`OUSTBEST[b C5 w D4]`).
pub const BEST_PROPERTY: &str = "OUSTBEST";
/// The root property that says the record holds a review, with its playouts a position (`OUSTREVIEW[2000]`).
pub const REVIEW_PROPERTY: &str = "OUSTREVIEW";
/// The SGF property of the judgement of the placement played from a position: what it lost and the standard
/// error of that, in points, and `proof` when both values were proven (`OUSTJUDGE[14.1 1.2]`).
pub const JUDGE_PROPERTY: &str = "OUSTJUDGE";

/// How many standard errors a loss must clear a class's threshold by to be put in that class: a placement is
/// classed by `loss - CONFIDENCE * error`, so that two searches of the same position seldom class it apart.
pub const CONFIDENCE: f64 = 2.0;

/// The judgement of one placement within one search of the position before it (`oust-judge`).
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The winning chance of the side to move with the best move (0 to 1).
    pub best_rate: f64,
    /// The winning chance the placement lost, in points of percentage.
    pub loss: f64,
    /// The standard error of `loss`, in points.
    pub error: f64,
    /// Both values were proven (the loss is exact).
    pub proven: bool,
    /// The best move's value was proven: `best_rate` is exact.
    pub best_proven: bool,
    /// The engine's line from the position, its first move the best, as `[colour, vertex]` pairs.
    pub pv: Vec<Value>,
}

/// Reads `oust-judge`'s answer (`best V winrate W visits N [proof R] played V winrate W visits N [proof R] loss L
/// error E pv C V ...`); `None` when it has no loss (`loss unknown`) or is not such an answer.
pub fn parse_judgement(text: &str) -> Option<Judged> {
    let words: Vec<&str> = text.split_whitespace().collect();
    // A key, not the value of `proof` (`proof loss`).
    let at = |key: &str, from: usize| {
        (from..words.len()).find(|&i| words[i] == key && (i == 0 || words[i - 1] != "proof"))
    };
    let played = at("played", 0)?;
    let best_rate: f64 = words
        .get(at("winrate", 0).filter(|&i| i < played)? + 1)?
        .parse()
        .ok()?;
    let proofs = words.iter().filter(|w| **w == "proof").count();
    let loss_at = at("loss", played)?;
    let loss: f64 = words.get(loss_at + 1)?.parse().ok()?;
    let error: f64 = words.get(at("error", loss_at)? + 1)?.parse().ok()?;
    let pv = at("pv", loss_at).map_or_else(Vec::new, |i| {
        words[i + 1..]
            .chunks(2)
            .filter(|c| c.len() == 2)
            .map(|c| json!([c[0], c[1]]))
            .collect()
    });
    Some(Judged {
        best_rate,
        loss,
        error,
        proven: proofs == 2 || (error == 0.0 && loss == 0.0 && proofs > 0),
        best_proven: words[..played].contains(&"proof"),
        pv,
    })
}

/// A placement's class by the chance it lost.
pub fn class(loss: f64) -> Option<&'static str> {
    if loss >= BLUNDER {
        Some("blunder")
    } else if loss >= MISTAKE {
        Some("mistake")
    } else if loss >= INACCURACY {
        Some("inaccuracy")
    } else {
        None
    }
}

/// The judgement of every placement of `line` (the moves in order, each with its colour). `judged[k]`, where the
/// engine judged move `k` within one search of the position before it, gives its loss and the loss's error; the
/// placement's class is that of `loss - CONFIDENCE * error` (a proven loss has no error), and `uncertain` marks
/// one whose loss alone would put it in a worse class: the search cannot tell. Where there is no such judgement
/// (a review saved before them, an engine without `oust-judge`), the loss is its side's chance before the move
/// (`rates[k]`, Black's chance from 0 to 1, one more than the moves) less its chance after it, in points, never
/// below 0. A pass is forced, so it is not judged; nor is a move without either.
///
/// The result: `placements` (each judged move: its index, colour, loss and class, with `error`, `uncertain` and
/// `proof` where they apply) and `summary` (for each side: the count of each class, the placements judged and the
/// average loss).
pub fn judge(line: &[(Color, Move)], rates: &[Option<f64>], judged: &[Option<Judged>]) -> Value {
    judgement(line, rates, judged).to_json()
}

/// One placement's judgement in a review ([`judge`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// The placement's index in the line.
    pub k: usize,
    /// Its colour.
    pub color: Color,
    /// The winning chance it lost for its side, in points, rounded to a tenth.
    pub loss: f64,
    /// The standard error of `loss`, where the engine judged it within one search.
    pub error: Option<f64>,
    /// Its class, if it lost enough for one.
    pub class: Option<&'static str>,
    /// The loss alone would put it in a worse class: the search cannot tell.
    pub uncertain: bool,
    /// The loss was proven (and is above 0).
    pub proof: bool,
}

/// One side's counts in a review.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Placements of each class.
    pub inaccuracies: u32,
    /// ...
    pub mistakes: u32,
    /// ...
    pub blunders: u32,
    /// Placements judged.
    pub judged: u32,
    /// Their losses added up, in points.
    pub total: f64,
}

impl Summary {
    /// The average loss of a placement, in points, rounded to a tenth.
    pub fn average_loss(&self) -> f64 {
        if self.judged == 0 {
            0.0
        } else {
            (self.total / f64::from(self.judged) * 10.0).round() / 10.0
        }
    }

    fn json(&self) -> Value {
        json!({
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "judged": self.judged,
            "average_loss": self.average_loss(),
        })
    }
}

/// The judgement of every placement of a line, and each side's counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The placements judged, in order.
    pub placements: Vec<Placement>,
    /// Black's counts and White's (indexed by [`Color::index`]).
    pub summary: [Summary; 2],
}

impl Judgement {
    /// As the page gets it: `placements`, `summary` and the classes' `thresholds`.
    pub fn to_json(&self) -> Value {
        let placements: Vec<Value> = self
            .placements
            .iter()
            .map(|p| {
                let mut e =
                    json!({"loss": p.loss, "class": p.class, "k": p.k, "color": p.color.name()});
                if let Some(error) = p.error {
                    e["error"] = json!(error);
                }
                if p.uncertain {
                    e["uncertain"] = json!(true);
                }
                if p.proof {
                    e["proof"] = json!(true);
                }
                e
            })
            .collect();
        json!({
            "placements": placements,
            "summary": {"black": self.summary[0].json(), "white": self.summary[1].json()},
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        })
    }
}

/// [`judge`], typed.
pub fn judgement(
    line: &[(Color, Move)],
    rates: &[Option<f64>],
    judged: &[Option<Judged>],
) -> Judgement {
    let mut placements = Vec::new();
    let mut summary = [Summary::default(), Summary::default()];
    for (k, &(color, mv)) in line.iter().enumerate() {
        if mv == Move::Pass {
            continue;
        }
        let round = |x: f64| (x * 10.0).round() / 10.0;
        // Black's chance as `color`'s.
        let mine = |black: f64| {
            if color == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        let placement = if let Some(j) = judged.get(k).and_then(Option::as_ref) {
            let (mut loss, mut error, mut proven) = (j.loss, j.error, j.proven);
            // The position after the placement proven lost for its side (the next search proved it, say a few
            // forced captures the searches before it did not see): the placement lost all the chance its side
            // had, exactly as far as the loss goes, whatever the spread of the searches before it.
            let lost_after = judged
                .get(k + 1)
                .and_then(Option::as_ref)
                .filter(|next| next.best_proven)
                .and_then(|_| rates.get(k + 1).copied().flatten())
                .is_some_and(|after| mine(after) == 0.0);
            if lost_after && !j.proven && j.best_rate > 0.0 {
                loss = loss.max(100.0 * j.best_rate);
                error = 0.0;
                proven = true;
            }
            let (loss, error) = (round(loss.max(0.0)), round(error.max(0.0)));
            let lower = (loss - CONFIDENCE * error).max(0.0);
            Placement {
                k,
                color,
                loss,
                error: Some(error),
                class: class(lower),
                uncertain: class(loss) != class(lower),
                proof: proven && loss > 0.0,
            }
        } else {
            let (Some(before), Some(after)) = (
                rates.get(k).copied().flatten(),
                rates.get(k + 1).copied().flatten(),
            ) else {
                continue;
            };
            let loss = round(((mine(before) - mine(after)) * 100.0).max(0.0));
            Placement {
                k,
                color,
                loss,
                error: None,
                class: class(loss),
                uncertain: false,
                proof: false,
            }
        };
        let side = &mut summary[color.index()];
        side.judged += 1;
        side.total += placement.loss;
        match placement.class {
            Some("blunder") => side.blunders += 1,
            Some("mistake") => side.mistakes += 1,
            Some(_) => side.inaccuracies += 1,
            None => {}
        }
        placements.push(placement);
    }
    Judgement {
        placements,
        summary,
    }
}

/// A review of a line, under way or finished: what the page shows (its JSON, [`Review::to_json`], made here
/// only) and what a record keeps (its SGF properties, written and read here only).
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Playouts (or the network's visits) a position.
    pub playouts: u64,
    /// The moves of the line reviewed: the review is shown, and saved, only with that line.
    pub line: Vec<(Color, Move)>,
    /// Positions reviewed so far, of one more than the moves.
    pub done: usize,
    /// Seconds left, while under way, once known.
    pub eta_s: Option<f64>,
    /// Black's winning chance a position, 0 to 1.
    pub rates: Vec<Option<f64>>,
    /// The engine's line from each position (finished reviews).
    pub pv: Lines,
    /// The judgement of the placement played from each position (finished reviews).
    pub judged: Vec<Option<Judged>>,
    /// The review's time, in seconds (a finished review of the page).
    pub seconds: Option<f64>,
    /// Read back from a record, not searched here.
    pub loaded: bool,
}

impl Review {
    /// A review of `line` just asked for: no position reviewed.
    pub fn started(playouts: u64, line: Vec<(Color, Move)>) -> Review {
        let positions = line.len() + 1;
        Review {
            playouts,
            line,
            done: 0,
            eta_s: None,
            rates: vec![None; positions],
            pv: Vec::new(),
            judged: Vec::new(),
            seconds: None,
            loaded: false,
        }
    }

    /// Positions to review: one more than the moves.
    pub fn total(&self) -> usize {
        self.line.len() + 1
    }

    /// Every position reviewed.
    pub fn is_finished(&self) -> bool {
        self.done == self.total()
    }

    /// The judgement of the line's placements.
    pub fn judgement(&self) -> Judgement {
        judgement(&self.line, &self.rates, &self.judged)
    }

    /// As the page gets it. Under way: `playouts`, `done`, `total`, `eta_s` and the `rates` so far. Finished: the
    /// rates (Black's chance a position), the engine's line a position (`pv`, its first move the better
    /// placement), each placement's judgement ([`judge`]: `placements`, `summary`, `thresholds`), with `seconds`
    /// and `loaded` where they apply.
    pub fn to_json(&self) -> Value {
        let mut v = if self.is_finished() {
            let mut v = self.judgement().to_json();
            v["eta_s"] = json!(0);
            v["pv"] = json!(self.pv);
            if let Some(s) = self.seconds {
                v["seconds"] = json!(s);
            }
            if self.loaded {
                v["loaded"] = json!(true);
            }
            v
        } else {
            json!({"eta_s": self.eta_s})
        };
        v["playouts"] = json!(self.playouts);
        v["done"] = json!(self.done);
        v["total"] = json!(self.total());
        v["rates"] = json!(self.rates);
        v
    }

    /// The finished review of `line` from its steps (one a position, one more than the moves): a finished game's
    /// last position, which has no search, gets the result as its rate.
    pub fn assemble(
        playouts: u64,
        line: &[(Color, Move)],
        mut steps: Vec<Step>,
        result: Option<Outcome>,
        seconds: Option<f64>,
    ) -> Review {
        if let (Some(last), Some(outcome)) = (steps.last_mut(), result)
            && last.rate.is_none()
        {
            last.rate = Some(match outcome {
                Outcome::Win(Color::Black) => 1.0,
                Outcome::Win(Color::White) => 0.0,
                Outcome::Draw => 0.5,
            });
        }
        let rates = steps.iter().map(|s| s.rate).collect();
        let judged = steps
            .iter()
            .take(line.len())
            .map(|s| s.judged.clone())
            .collect();
        Review {
            playouts,
            line: line.to_vec(),
            done: line.len() + 1,
            eta_s: None,
            rates,
            pv: steps.into_iter().map(|s| s.pv).collect(),
            judged,
            seconds,
            loaded: false,
        }
    }

    /// The SGF properties of each position of a finished review: its rate, its best placement with the line, the
    /// judgement of the placement played from it, and at the root the review's own property with its playouts.
    pub fn sgf_properties(&self) -> Vec<String> {
        let placements = self.judgement().placements;
        (0..self.total())
            .map(|k| {
                let mut out = String::new();
                if k == 0 {
                    out.push_str(&format!("{REVIEW_PROPERTY}[{}]", self.playouts));
                }
                if let Some(rate) = self.rates.get(k).copied().flatten() {
                    out.push_str(&format!("{RATE_PROPERTY}[{:.1}]", rate * 100.0));
                }
                if let Some(pv) = self.pv.get(k).filter(|pv| !pv.is_empty()) {
                    let words: Vec<String> = pv
                        .iter()
                        .filter_map(|m| Some(format!("{} {}", m[0].as_str()?, m[1].as_str()?)))
                        .collect();
                    out.push_str(&format!("{BEST_PROPERTY}[{}]", words.join(" ")));
                }
                if let Some(p) = placements.iter().find(|p| p.k == k)
                    && let Some(error) = p.error
                {
                    let proof = if p.proof { " proof" } else { "" };
                    out.push_str(&format!(
                        "{JUDGE_PROPERTY}[{:.1} {error:.1}{proof}]",
                        p.loss
                    ));
                }
                out
            })
            .collect()
    }

    /// The review of `line` that a record's properties hold (`props`: position, key, value; `playouts` its root's
    /// review property), read back; `None` when the record holds no rate at all. The judgements' best rates (the
    /// side to move's, which a record does not keep) are unused.
    pub fn from_properties(
        props: &[(usize, String, String)],
        line: &[(Color, Move)],
        playouts: u64,
    ) -> Option<Review> {
        let positions = line.len() + 1;
        let mut rates = vec![None; positions];
        let mut pvs = vec![Vec::new(); positions];
        let mut judged: Vec<Option<Judged>> = vec![None; positions];
        let mut any = false;
        for (k, key, value) in props {
            if *k >= positions {
                continue;
            }
            if key == RATE_PROPERTY {
                if let Ok(r) = value.trim().parse::<f64>()
                    && (0.0..=100.0).contains(&r)
                {
                    rates[*k] = Some(r / 100.0);
                    any = true;
                }
            } else if key == BEST_PROPERTY {
                pvs[*k] = pv_of(&format!("VAR {value}"));
            } else if key == JUDGE_PROPERTY {
                let words: Vec<&str> = value.split_whitespace().collect();
                if let [loss, error, rest @ ..] = words.as_slice()
                    && let (Ok(loss), Ok(error)) = (loss.parse::<f64>(), error.parse::<f64>())
                    && (0.0..=100.0).contains(&loss)
                    && (0.0..=100.0).contains(&error)
                {
                    judged[*k] = Some(Judged {
                        best_rate: 0.5,
                        loss,
                        error,
                        proven: rest == ["proof"],
                        best_proven: false,
                        pv: Vec::new(),
                    });
                }
            }
        }
        any.then(|| Review {
            playouts,
            line: line.to_vec(),
            done: positions,
            eta_s: None,
            rates,
            pv: pvs,
            judged,
            seconds: None,
            loaded: true,
        })
    }

    /// Rates and judgements the review holds: how much of a review a record kept.
    pub fn held(&self) -> usize {
        self.rates.iter().filter(|r| r.is_some()).count()
            + self.judged.iter().filter(|j| j.is_some()).count()
    }
}

/// What one position of a review gives: Black's winning chance there, the engine's line from it, and the
/// judgement of the placement played from it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Step {
    /// Black's winning chance, 0 to 1.
    pub rate: Option<f64>,
    /// The engine's line, `[colour, vertex]` pairs, its first move the best.
    pub pv: Vec<Value>,
    /// The judgement of the placement played.
    pub judged: Option<Judged>,
}

impl Step {
    /// The step of `oust-judge`'s answer `text` about a placement of `color`.
    pub fn from_judgement(color: Color, text: &str) -> Step {
        match parse_judgement(text) {
            Some(j) => Step {
                rate: Some(if color == Color::Black {
                    j.best_rate
                } else {
                    1.0 - j.best_rate
                }),
                pv: j.pv.clone(),
                judged: Some(j),
            },
            None => Step::default(),
        }
    }

    /// The step of the last position from `oust-heatmap`'s answer (its rate) and `oust-pv`'s (its line).
    pub fn from_heatmap(heatmap: &str, pv: Option<&str>) -> Step {
        Step {
            rate: heatmap_rate(heatmap),
            pv: pv.map(pv_of).unwrap_or_default(),
            judged: None,
        }
    }
}

/// Black's winning chance in `oust-heatmap`'s `TEXT` line (`... black to move, best D4 (56.2%)`).
pub fn heatmap_rate(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with("TEXT"))?;
    let open = line.rfind('(')?;
    let close = line[open..].find("%)")? + open;
    let rate: f64 = line[open + 1..close].parse().ok()?;
    let rate = rate / 100.0;
    Some(if line.contains("white to move") {
        1.0 - rate
    } else {
        rate
    })
}

/// The seed of the search of position `k` of a review seeded with `seed`: each position's judgement is then the
/// same whoever reviews it, in whatever order.
pub fn position_seed(seed: u64, k: usize) -> u64 {
    Rng::new(seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// Reviews position `k` of `game`'s line on `engine`, as `oust gui` asks its engine: the game as it stood before
/// placement `k` is set up, the engine reseeded with `seed`, and the placement judged (`oust-judge`); the last
/// position, with no placement, gets `oust-heatmap`'s rate and `oust-pv`'s line, or the result where the game is
/// over. A pass is forced: nothing to judge. The engine's settings (`playouts`, `threads`) are the caller's.
pub fn review_position(engine: &mut Engine, game: &Game, k: usize, seed: u64) -> Step {
    let line = game.line();
    let mut at = game.clone();
    while at.records().len() > k {
        at.undo();
    }
    let geo = game.position().geometry_arc().clone();
    engine.start_loaded(at);
    engine.reseed(seed);
    let mut ask = |name: &str, args: &[&str]| match crate::gtp::execute(engine, name, args) {
        Ok(crate::gtp::Reply::Text(t)) => Some(t),
        Ok(_) => None,
        Err(e) => {
            log::warn!("review: {name} {}: {e}", args.join(" "));
            None
        }
    };
    match line.get(k) {
        Some(&(_, Move::Pass)) => Step::default(),
        Some(&(color, mv)) => {
            let name = notation::move_name(&geo, mv);
            ask("oust-judge", &[&name])
                .map_or_else(Step::default, |t| Step::from_judgement(color, &t))
        }
        None if matches!(game.position().status(), Status::Over(_)) => Step::default(),
        None => match ask("oust-heatmap", &[]) {
            Some(h) => {
                let pv = ask("oust-pv", &[]);
                Step::from_heatmap(&h, pv.as_deref())
            }
            None => Step::default(),
        },
    }
}

/// The principal variation of `oust-pv`'s answer (`VAR b C2 w D4 ...`) as `[colour, vertex]` pairs.
pub fn pv_of(text: &str) -> Vec<Value> {
    let Some(line) = text.lines().find_map(|l| l.trim().strip_prefix("VAR")) else {
        return Vec::new();
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| json!([c[0], c[1]]))
        .collect()
}

/// The engine's line from each position, as `[colour, vertex]` pairs.
pub type Lines = Vec<Vec<Value>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    fn place(i: usize) -> Move {
        Move::Place(Point::from_index(i))
    }

    #[test]
    fn each_placement_is_judged_by_what_its_side_lost() {
        let line = [
            (Color::Black, place(0)),
            (Color::White, place(1)),
            (Color::Black, place(2)),
            (Color::Black, place(3)),
            (Color::White, Move::Pass),
            (Color::Black, place(4)),
        ];
        // Black's chance: 50, 50 (B lost 0), 80 (W lost 30: blunder), 68 (B lost 12: mistake), 62 (B lost 6:
        // inaccuracy), 62 (a pass: not judged), 70 (B gained: 0).
        let rates = [0.5, 0.5, 0.8, 0.68, 0.62, 0.62, 0.7].map(Some);
        let j = judge(&line, &rates, &[]);
        let classes: Vec<(u64, &str, f64, Value)> = j["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["k"].as_u64().unwrap(),
                    p["color"].as_str().unwrap(),
                    p["loss"].as_f64().unwrap(),
                    p["class"].clone(),
                )
            })
            .collect();
        assert_eq!(
            classes,
            [
                (0, "black", 0.0, Value::Null),
                (1, "white", 30.0, json!("blunder")),
                (2, "black", 12.0, json!("mistake")),
                (3, "black", 6.0, json!("inaccuracy")),
                (5, "black", 0.0, Value::Null),
            ]
        );
        assert_eq!(
            j["summary"]["black"],
            json!({"inaccuracies": 1, "mistakes": 1, "blunders": 0, "judged": 4, "average_loss": 4.5})
        );
        assert_eq!(
            j["summary"]["white"],
            json!({"inaccuracies": 0, "mistakes": 0, "blunders": 1, "judged": 1, "average_loss": 30.0})
        );
        // A position without a rate leaves its two neighbouring moves unjudged.
        let mut holes = rates;
        holes[2] = None;
        let j = judge(&line, &holes, &[]);
        let ks: Vec<u64> = j["placements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["k"].as_u64().unwrap())
            .collect();
        assert_eq!(ks, [0, 3, 5]);
        assert_eq!(class(4.99), None);
        assert_eq!(class(5.0), Some("inaccuracy"));
        assert_eq!(class(10.0), Some("mistake"));
        assert_eq!(class(20.0), Some("blunder"));
    }

    fn judged(loss: f64, error: f64, proven: bool) -> Option<Judged> {
        Some(Judged {
            best_rate: 0.5,
            loss,
            error,
            proven,
            best_proven: false,
            pv: Vec::new(),
        })
    }

    /// A new player's find: "lost 20.4 ± 3.1 points, a mistake (Black's chance 63.5% → 0.0%)", where the next
    /// search proved White's win by forced captures. The placement lost every chance Black had: a proven blunder.
    #[test]
    fn a_placement_after_which_the_next_search_proves_the_loss_is_a_proven_blunder() {
        let line = [(Color::Black, place(0)), (Color::White, place(1))];
        let mut before = judged(20.4, 3.1, false).unwrap();
        before.best_rate = 0.635;
        let mut after = judged(0.0, 0.0, true).unwrap();
        after.best_rate = 1.0;
        after.best_proven = true;
        // Black's chances: 63.5% before, 0% after (White's proven win).
        let rates = [Some(0.635), Some(0.0), Some(0.0)];
        let v = judge(&line, &rates, &[Some(before.clone()), Some(after.clone())]);
        let p = &v["placements"][0];
        assert_eq!(
            (p["loss"].as_f64(), p["error"].as_f64()),
            (Some(63.5), Some(0.0)),
            "{v}"
        );
        assert_eq!(
            (p["class"].as_str(), p["proof"].as_bool()),
            (Some("blunder"), Some(true))
        );
        // The next search unproven: the searches' spread holds the class back, as before.
        after.best_proven = false;
        let v = judge(&line, &rates, &[Some(before), Some(after)]);
        let p = &v["placements"][0];
        assert_eq!(
            (p["loss"].as_f64(), p["class"].as_str()),
            (Some(20.4), Some("mistake")),
            "{v}"
        );
        assert_eq!(p["proof"], Value::Null);
    }

    #[test]
    fn a_placement_judged_within_one_search_is_classed_by_what_the_search_can_tell() {
        let line = [
            (Color::Black, place(0)),
            (Color::White, place(1)),
            (Color::Black, place(2)),
            (Color::White, place(3)),
            (Color::Black, place(4)),
        ];
        // The rates alone would call the first placement a blunder (Black 80 -> 40): the search ranked it first.
        let rates = [0.8, 0.4, 0.4, 0.4, 0.4, 0.4].map(Some);
        let review = Review {
            judged: vec![
                judged(0.0, 0.0, false),
                judged(14.1, 1.0, false),
                judged(11.0, 1.0, false),
                judged(100.0, 0.0, true),
                judged(4.0, 3.0, false),
            ],
            ..Review::assemble(800, &line, vec![Step::default(); 6], None, None)
        };
        let review = Review {
            rates: rates.to_vec(),
            ..review
        };
        let j = judge(&line, &review.rates, &review.judged);
        let ps = j["placements"].as_array().unwrap();
        assert_eq!(
            ps[0],
            json!({"k": 0, "color": "black", "loss": 0.0, "error": 0.0, "class": null})
        );
        assert_eq!(ps[1]["class"], json!("mistake"));
        assert!(ps[1].get("uncertain").is_none());
        // 11 points, but within two errors of the mistake's 10: an inaccuracy, and said to be uncertain.
        assert_eq!(ps[2]["class"], json!("inaccuracy"));
        assert_eq!(ps[2]["uncertain"], json!(true));
        assert_eq!(ps[3]["class"], json!("blunder"));
        assert_eq!(ps[3]["proof"], json!(true));
        assert_eq!(ps[4]["class"], Value::Null);
        assert_eq!(
            j["summary"]["black"],
            json!({"inaccuracies": 1, "mistakes": 0, "blunders": 0, "judged": 3, "average_loss": 5.0})
        );
        // The judgement goes into the record and back.
        let props = review.sgf_properties();
        assert_eq!(props[1], "SBKV[40.0]OUSTJUDGE[14.1 1.0]");
        assert_eq!(props[3], "SBKV[40.0]OUSTJUDGE[100.0 0.0 proof]");
        let props = vec![
            (1, "OUSTJUDGE".to_string(), "14.1 1.0".to_string()),
            (3, "OUSTJUDGE".to_string(), "100.0 0.0 proof".to_string()),
            (2, "OUSTJUDGE".to_string(), "lots".to_string()),
            (0, "SBKV".to_string(), "80".to_string()),
        ];
        let back = Review::from_properties(&props, &line[..4], 800)
            .unwrap()
            .judged;
        assert_eq!(back[1], judged(14.1, 1.0, false));
        assert_eq!(back[3], judged(100.0, 0.0, true));
        assert_eq!(back[2], None);
    }

    #[test]
    fn oust_judge_answers_are_read() {
        let j = parse_judgement(
            "best E4 winrate 0.5670 visits 7608 played A1 winrate 0.4197 visits 1500 loss 14.7 error 1.4 pv b E4 b G2",
        )
        .unwrap();
        assert_eq!(j.best_rate, 0.567);
        assert_eq!((j.loss, j.error, j.proven), (14.7, 1.4, false));
        assert_eq!(j.pv, [json!(["b", "E4"]), json!(["b", "G2"])]);
        let j = parse_judgement(
            "best A1 winrate 1.0000 visits 2 proof win played D2 winrate 0.0000 visits 0 proof loss loss 100.0 error 0.0 pv b A1",
        )
        .unwrap();
        assert_eq!((j.best_rate, j.loss, j.proven), (1.0, 100.0, true));
        assert!(
            parse_judgement("best A1 visits 0 played D2 visits 0 loss unknown pv b A1").is_none()
        );
        assert!(parse_judgement("INFLUENCE A1 1.00").is_none());
    }

    #[test]
    fn a_review_goes_into_sgf_properties_and_back() {
        let line = [(Color::Black, place(0)), (Color::White, place(1))];
        let review = Review {
            rates: vec![Some(0.5), Some(0.625), None],
            pv: vec![vec![json!(["b", "C3"]), json!(["w", "D4"])], vec![], vec![]],
            ..Review::assemble(2000, &line, vec![Step::default(); 3], None, None)
        };
        assert_eq!(
            review.sgf_properties(),
            [
                "OUSTREVIEW[2000]SBKV[50.0]OUSTBEST[b C3 w D4]",
                "SBKV[62.5]",
                ""
            ]
        );
        let props = vec![
            (0, "SBKV".to_string(), "50.0".to_string()),
            (0, "OUSTBEST".to_string(), "b C3 w D4".to_string()),
            (1, "SBKV".to_string(), "62.5".to_string()),
            (1, "SBKV".to_string(), "250".to_string()),
            (7, "SBKV".to_string(), "10".to_string()),
        ];
        let back = Review::from_properties(&props, &line, 2000).unwrap();
        assert_eq!(back.rates, [Some(0.5), Some(0.625), None]);
        assert_eq!(back.pv[0], [json!(["b", "C3"]), json!(["w", "D4"])]);
        assert!(back.loaded && back.is_finished());
        assert_eq!(back.to_json()["loaded"], json!(true));
        assert!(Review::from_properties(&[], &line, 2000).is_none());
        // Under way: the progress and the rates so far, nothing judged.
        let mut under_way = Review::started(2000, line.to_vec());
        under_way.done = 1;
        under_way.rates[0] = Some(0.5);
        assert_eq!(
            under_way.to_json(),
            json!({"playouts": 2000, "done": 1, "total": 3, "eta_s": null, "rates": [0.5, null, null]})
        );
        assert_eq!(
            pv_of("VAR b C2 w D3 b\n"),
            [json!(["b", "C2"]), json!(["w", "D3"])]
        );
    }
}
