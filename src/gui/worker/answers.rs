//! Reading the engine's answers: the lines of `oust-analyze` as the page's analysis JSON.

use serde_json::{Value, json};

use crate::rules::Color;

/// The entries of one `oust-analyze` line: `info move V visits N winrate W prior P order K [proof R] pv C V ...`,
/// repeated; the win rates are the side to move's. Returns the moves sorted by `order`, with Black's winning chance
/// of the best.
pub(super) fn parse_info(line: &str, to_move: Color) -> Value {
    let mut moves: Vec<Value> = Vec::new();
    for chunk in line.split("info ").filter(|c| !c.trim().is_empty()) {
        let words: Vec<&str> = chunk.split_whitespace().collect();
        let mut entry = json!({});
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "move" | "proof" if i + 1 < words.len() => {
                    entry[words[i]] = json!(words[i + 1]);
                    i += 2;
                }
                "visits" | "winrate" | "prior" | "order" if i + 1 < words.len() => {
                    entry[words[i]] = json!(words[i + 1].parse::<f64>().unwrap_or(0.0));
                    i += 2;
                }
                "pv" => {
                    let pv: Vec<Value> = words[i + 1..]
                        .chunks(2)
                        .filter(|c| c.len() == 2)
                        .map(|c| json!([c[0], c[1]]))
                        .collect();
                    entry["pv"] = json!(pv);
                    i = words.len();
                }
                _ => i += 1,
            }
        }
        if entry.get("move").is_some() {
            moves.push(entry);
        }
    }
    moves.sort_by(|a, b| {
        a["order"]
            .as_f64()
            .unwrap_or(0.0)
            .total_cmp(&b["order"].as_f64().unwrap_or(0.0))
    });
    let best = moves.first().and_then(|m| m["winrate"].as_f64());
    let black = best.map(|w| if to_move == Color::Black { w } else { 1.0 - w });
    let max_visits = moves
        .iter()
        .filter_map(|m| m["visits"].as_f64())
        .fold(0.0, f64::max);
    let visits: f64 = moves.iter().filter_map(|m| m["visits"].as_f64()).sum();
    json!({
        "to_move": to_move.name(),
        "moves": moves,
        "black": black,
        "max_visits": max_visits,
        "visits": visits as u64,
        "proof": moves.first().and_then(|m| m.get("proof")).cloned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review;

    #[test]
    fn analysis_lines_and_heatmap_text_are_read() {
        let v = parse_info(
            "info move E5 visits 1520 winrate 0.5623 prior 0.0280 order 0 pv b E5 w C3 info move D4 visits \
             310 winrate 0.4 prior 0.1 order 1 proof loss pv b D4",
            Color::White,
        );
        assert_eq!(v["moves"][0]["move"], "E5");
        assert_eq!(v["moves"][0]["pv"], json!([["b", "E5"], ["w", "C3"]]));
        assert_eq!(v["moves"][1]["proof"], "loss");
        assert!((v["black"].as_f64().unwrap() - 0.4377).abs() < 1e-9);
        assert_eq!(
            review::heatmap_rate(
                "INFLUENCE C5 1.00\nTEXT 80913 playouts, white to move, best C5 (56.8%)"
            ),
            Some(1.0 - 0.568)
        );
    }
}
