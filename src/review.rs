//! The game review's judgement of each placement: the winning chance it lost for the side that played it, and
//! its class (inaccuracy, mistake, blunder), as Lichess's "learn from your mistakes" and KaTrain's points lost do.
//! The engine judges each placement within one search of the position before it (`oust-judge`); this module
//! turns its answers into a review ([`Step`], [`assemble`]), judges them, and writes and reads them as SGF
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
    let mut placements = Vec::new();
    let mut sides = [Side::default(), Side::default()];
    for (k, &(color, mv)) in line.iter().enumerate() {
        if mv == Move::Pass {
            continue;
        }
        let round = |x: f64| (x * 10.0).round() / 10.0;
        let mut entry = if let Some(j) = judged.get(k).and_then(Option::as_ref) {
            let (mut loss, mut error, mut proven) = (j.loss, j.error, j.proven);
            // The position after the placement proven lost for its side (the next search proved it, say a few
            // forced captures the searches before it did not see): the placement lost all the chance its side
            // had, exactly as far as the loss goes, whatever the spread of the searches before it.
            let mine = |black: f64| {
                if color == Color::Black {
                    black
                } else {
                    1.0 - black
                }
            };
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
            let mut e = json!({"loss": loss, "error": error, "class": class(lower)});
            if class(loss) != class(lower) {
                e["uncertain"] = json!(true);
            }
            if proven && loss > 0.0 {
                e["proof"] = json!(true);
            }
            e
        } else {
            let (Some(before), Some(after)) = (
                rates.get(k).copied().flatten(),
                rates.get(k + 1).copied().flatten(),
            ) else {
                continue;
            };
            let own = |black: f64| {
                if color == Color::Black {
                    black
                } else {
                    1.0 - black
                }
            };
            let loss = round(((own(before) - own(after)) * 100.0).max(0.0));
            json!({"loss": loss, "class": class(loss)})
        };
        let loss = entry["loss"].as_f64().unwrap_or(0.0);
        let side = &mut sides[color.index()];
        side.judged += 1;
        side.total += loss;
        match entry["class"].as_str() {
            Some("blunder") => side.blunders += 1,
            Some("mistake") => side.mistakes += 1,
            Some(_) => side.inaccuracies += 1,
            None => {}
        }
        entry["k"] = json!(k);
        entry["color"] = json!(color.name());
        placements.push(entry);
    }
    json!({
        "placements": placements,
        "summary": {"black": sides[0].json(), "white": sides[1].json()},
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
    })
}

/// A finished review as the page gets it: the rates (Black's chance a position), the engine's line a position
/// (`pv`, its first move the better placement), and each placement's judgement (`placements`, `summary`:
/// [`judge`]).
pub fn finished(
    playouts: u64,
    line: &[(Color, Move)],
    rates: &[Value],
    pvs: Vec<Vec<Value>>,
    judged: &[Option<Judged>],
    seconds: Option<f64>,
) -> Value {
    let total = rates.len();
    let numbers: Vec<Option<f64>> = rates.iter().map(Value::as_f64).collect();
    let mut v = judge(line, &numbers, judged);
    v["playouts"] = json!(playouts);
    v["done"] = json!(total);
    v["total"] = json!(total);
    v["eta_s"] = json!(0);
    v["rates"] = json!(rates);
    v["pv"] = json!(pvs);
    if let Some(s) = seconds {
        v["seconds"] = json!(s);
    }
    v
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

/// The finished review of `line` from its steps (one a position, one more than the moves): a finished game's last
/// position, which has no search, gets the result as its rate.
pub fn assemble(
    playouts: u64,
    line: &[(Color, Move)],
    mut steps: Vec<Step>,
    result: Option<Outcome>,
    seconds: Option<f64>,
) -> Value {
    if let (Some(last), Some(outcome)) = (steps.last_mut(), result)
        && last.rate.is_none()
    {
        last.rate = Some(match outcome {
            Outcome::Win(Color::Black) => 1.0,
            Outcome::Win(Color::White) => 0.0,
            Outcome::Draw => 0.5,
        });
    }
    let rates: Vec<Value> = steps.iter().map(|s| json!(s.rate)).collect();
    let judged: Vec<Option<Judged>> = steps
        .iter()
        .take(line.len())
        .map(|s| s.judged.clone())
        .collect();
    let pvs = steps.into_iter().map(|s| s.pv).collect();
    finished(playouts, line, &rates, pvs, &judged, seconds)
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

/// One side's counts.
#[derive(Default)]
struct Side {
    inaccuracies: u32,
    mistakes: u32,
    blunders: u32,
    judged: u32,
    total: f64,
}

impl Side {
    fn json(&self) -> Value {
        let average = if self.judged == 0 {
            0.0
        } else {
            (self.total / f64::from(self.judged) * 10.0).round() / 10.0
        };
        json!({
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "judged": self.judged,
            "average_loss": average,
        })
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

/// The SGF properties of position `k` of a finished review (`review` as the page gets it): its rate, and its best
/// placement with the line.
pub fn sgf_properties(review: &Value, k: usize) -> String {
    let mut out = String::new();
    if let Some(rate) = review["rates"][k].as_f64() {
        out.push_str(&format!("{RATE_PROPERTY}[{:.1}]", rate * 100.0));
    }
    if let Some(pv) = review["pv"][k].as_array().filter(|pv| !pv.is_empty()) {
        let words: Vec<String> = pv
            .iter()
            .filter_map(|m| Some(format!("{} {}", m[0].as_str()?, m[1].as_str()?)))
            .collect();
        out.push_str(&format!("{BEST_PROPERTY}[{}]", words.join(" ")));
    }
    if let Some(p) = review["placements"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["k"].as_u64() == Some(k as u64)))
        && let (Some(loss), Some(error)) = (p["loss"].as_f64(), p["error"].as_f64())
    {
        let proof = if p["proof"] == json!(true) {
            " proof"
        } else {
            ""
        };
        out.push_str(&format!("{JUDGE_PROPERTY}[{loss:.1} {error:.1}{proof}]"));
    }
    out
}

/// The engine's line from each position, as `[colour, vertex]` pairs.
pub type Lines = Vec<Vec<Value>>;

/// A review read back from a record: each position's rate, line and the judgement of the placement played from it.
pub type Held = (Vec<Option<f64>>, Lines, Vec<Option<Judged>>);

/// The rates, lines and judgements of a review read back from a record's properties (`props`: position, key,
/// value), for `positions` positions; `None` when the record holds no rate at all.
pub fn from_properties(props: &[(usize, String, String)], positions: usize) -> Option<Held> {
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
    // The rate is Black's; a judgement's best rate the side to move's, which a record does not keep: unused.
    any.then_some((rates, pvs, judged))
}

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
        let j = judge(
            &line,
            &rates,
            &[
                judged(0.0, 0.0, false),
                judged(14.1, 1.0, false),
                judged(11.0, 1.0, false),
                judged(100.0, 0.0, true),
                judged(4.0, 3.0, false),
            ],
        );
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
        let review = json!({"rates": [0.8, 0.4], "pv": [[], []], "placements": ps});
        assert_eq!(sgf_properties(&review, 1), "SBKV[40.0]OUSTJUDGE[14.1 1.0]");
        assert_eq!(sgf_properties(&review, 3), "OUSTJUDGE[100.0 0.0 proof]");
        let props = vec![
            (1, "OUSTJUDGE".to_string(), "14.1 1.0".to_string()),
            (3, "OUSTJUDGE".to_string(), "100.0 0.0 proof".to_string()),
            (2, "OUSTJUDGE".to_string(), "lots".to_string()),
            (0, "SBKV".to_string(), "80".to_string()),
        ];
        let (_, _, back) = from_properties(&props, 5).unwrap();
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
        let review = json!({
            "rates": [0.5, 0.625, null],
            "pv": [[["b", "C3"], ["w", "D4"]], [], []],
        });
        assert_eq!(sgf_properties(&review, 0), "SBKV[50.0]OUSTBEST[b C3 w D4]");
        assert_eq!(sgf_properties(&review, 1), "SBKV[62.5]");
        assert_eq!(sgf_properties(&review, 2), "");
        let props = vec![
            (0, "SBKV".to_string(), "50.0".to_string()),
            (0, "OUSTBEST".to_string(), "b C3 w D4".to_string()),
            (1, "SBKV".to_string(), "62.5".to_string()),
            (1, "SBKV".to_string(), "250".to_string()),
            (7, "SBKV".to_string(), "10".to_string()),
        ];
        let (rates, pvs, _) = from_properties(&props, 3).unwrap();
        assert_eq!(rates, [Some(0.5), Some(0.625), None]);
        assert_eq!(pvs[0], [json!(["b", "C3"]), json!(["w", "D4"])]);
        assert!(from_properties(&[], 3).is_none());
        assert_eq!(
            pv_of("VAR b C2 w D3 b\n"),
            [json!(["b", "C2"]), json!(["w", "D3"])]
        );
    }
}
