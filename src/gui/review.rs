//! The game review's judgement of each placement: the winning chance it lost for the side that played it, and
//! its class (inaccuracy, mistake, blunder), as Lichess's "learn from your mistakes" and KaTrain's points lost do.
//! The win rates come from the engine (`oust-heatmap` a position); this module only judges them, and writes and
//! reads them as SGF properties.

use serde_json::{Value, json};

use crate::rules::{Color, Move};

/// A placement that lost at least this much of its side's winning chance (in points of percentage) is an
/// inaccuracy.
pub const INACCURACY: f64 = 5.0;
/// ... a mistake.
pub const MISTAKE: f64 = 10.0;
/// ... a blunder.
pub const BLUNDER: f64 = 20.0;

/// The SGF property of a position's winning chance: Black's, in percent, as Sabaki writes it (`SBKV[56.8]`).
pub const RATE_PROPERTY: &str = "SBKV";
/// The SGF property of the engine's best placement in a position, followed by its line (`OUSTBEST[b C5 w D4]`).
pub const BEST_PROPERTY: &str = "OUSTBEST";
/// The root property that says the record holds a review, with its playouts a position (`OUSTREVIEW[2000]`).
pub const REVIEW_PROPERTY: &str = "OUSTREVIEW";

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

/// The judgement of every placement of `line` (the moves in order, each with its colour) from `rates`, Black's
/// winning chance in each position (from 0 to 1; `rates[k]` before move `k`, one more than the moves; `None`
/// where the engine gave none). A move's loss is its side's chance before it less its side's chance after it, in
/// points, never below 0 (the engine may find more after the move than before it). A pass is forced, so it is
/// not judged; nor is a move next to a position without a rate.
///
/// The result: `placements` (each judged move: its index, colour, loss and class) and `summary` (for each side:
/// the count of each class, the placements judged and the average loss).
pub fn judge(line: &[(Color, Move)], rates: &[Option<f64>]) -> Value {
    let mut placements = Vec::new();
    let mut sides = [Side::default(), Side::default()];
    for (k, &(color, mv)) in line.iter().enumerate() {
        let (Some(before), Some(after)) = (
            rates.get(k).copied().flatten(),
            rates.get(k + 1).copied().flatten(),
        ) else {
            continue;
        };
        if mv == Move::Pass {
            continue;
        }
        let own = |black: f64| {
            if color == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        let loss = ((own(before) - own(after)) * 100.0).max(0.0);
        let loss = (loss * 10.0).round() / 10.0;
        let class = class(loss);
        let side = &mut sides[color.index()];
        side.judged += 1;
        side.total += loss;
        match class {
            Some("blunder") => side.blunders += 1,
            Some("mistake") => side.mistakes += 1,
            Some(_) => side.inaccuracies += 1,
            None => {}
        }
        placements.push(json!({
            "k": k,
            "color": color.name(),
            "loss": loss,
            "class": class,
        }));
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
    seconds: Option<f64>,
) -> Value {
    let total = rates.len();
    let numbers: Vec<Option<f64>> = rates.iter().map(Value::as_f64).collect();
    let mut v = judge(line, &numbers);
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
    out
}

/// The engine's line from each position, as `[colour, vertex]` pairs.
pub type Lines = Vec<Vec<Value>>;

/// The rates and lines of a review read back from a record's properties (`props`: position, key, value), for
/// `positions` positions; `None` when the record holds no rate at all.
pub fn from_properties(
    props: &[(usize, String, String)],
    positions: usize,
) -> Option<(Vec<Option<f64>>, Lines)> {
    let mut rates = vec![None; positions];
    let mut pvs = vec![Vec::new(); positions];
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
        }
    }
    any.then_some((rates, pvs))
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
        let j = judge(&line, &rates);
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
        let j = judge(&line, &holes);
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
        let (rates, pvs) = from_properties(&props, 3).unwrap();
        assert_eq!(rates, [Some(0.5), Some(0.625), None]);
        assert_eq!(pvs[0], [json!(["b", "C3"]), json!(["w", "D4"])]);
        assert!(from_properties(&[], 3).is_none());
        assert_eq!(
            pv_of("VAR b C2 w D3 b\n"),
            [json!(["b", "C2"]), json!(["w", "D3"])]
        );
    }
}
