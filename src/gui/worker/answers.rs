//! Reading the engine's answers: the lines of `oust-analyze`, typed ([`Analyzed`]), and as the page's analysis
//! JSON.

use serde_json::{Value, json};

use crate::rules::Color;

/// One entry of an `oust-analyze` line: a root move and what the search says of it. A field the line does not
/// give is `None` (and left out of the page's JSON).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Candidate {
    /// The move, as the engine names it.
    pub mv: String,
    /// Its visits.
    pub visits: Option<f64>,
    /// The side to move's winning chance with it, 0 to 1.
    pub winrate: Option<f64>,
    /// Its prior.
    pub prior: Option<f64>,
    /// Its rank, 0 for the move the engine would play.
    pub order: Option<f64>,
    /// `win`, `loss` or `draw` where the search proved it.
    pub proof: Option<String>,
    /// The line after it, `(colour, move)` pairs, itself first.
    pub pv: Option<Vec<(String, String)>>,
}

impl Candidate {
    /// As the page gets it.
    pub fn to_json(&self) -> Value {
        let mut v = json!({"move": self.mv});
        for (key, value) in [
            ("visits", self.visits),
            ("winrate", self.winrate),
            ("prior", self.prior),
            ("order", self.order),
        ] {
            if let Some(x) = value {
                v[key] = json!(x);
            }
        }
        if let Some(p) = &self.proof {
            v["proof"] = json!(p);
        }
        if let Some(pv) = &self.pv {
            v["pv"] = json!(pv.iter().map(|(c, m)| [c, m]).collect::<Vec<_>>());
        }
        v
    }
}

/// An `oust-analyze` line read: `info move V visits N winrate W prior P order K [proof R] pv C V ...`, repeated; the
/// win rates are the side to move's.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Analyzed {
    /// The side to move.
    pub to_move: Color,
    /// The entries, by `order`: the move the engine would play first.
    pub moves: Vec<Candidate>,
}

impl Analyzed {
    /// Reads a line; words it does not know are skipped, and an entry without a move is left out.
    pub fn parse(line: &str, to_move: Color) -> Analyzed {
        let mut moves = Vec::new();
        for chunk in line.split("info ").filter(|c| !c.trim().is_empty()) {
            let words: Vec<&str> = chunk.split_whitespace().collect();
            let mut entry = Candidate::default();
            let mut has_move = false;
            let mut i = 0;
            while i < words.len() {
                let number = || words.get(i + 1).map(|w| w.parse::<f64>().unwrap_or(0.0));
                match words[i] {
                    "move" if i + 1 < words.len() => {
                        entry.mv = words[i + 1].to_string();
                        has_move = true;
                        i += 2;
                    }
                    "proof" if i + 1 < words.len() => {
                        entry.proof = Some(words[i + 1].to_string());
                        i += 2;
                    }
                    "visits" if i + 1 < words.len() => {
                        entry.visits = number();
                        i += 2;
                    }
                    "winrate" if i + 1 < words.len() => {
                        entry.winrate = number();
                        i += 2;
                    }
                    "prior" if i + 1 < words.len() => {
                        entry.prior = number();
                        i += 2;
                    }
                    "order" if i + 1 < words.len() => {
                        entry.order = number();
                        i += 2;
                    }
                    "pv" => {
                        entry.pv = Some(
                            words[i + 1..]
                                .chunks(2)
                                .filter(|c| c.len() == 2)
                                .map(|c| (c[0].to_string(), c[1].to_string()))
                                .collect(),
                        );
                        i = words.len();
                    }
                    _ => i += 1,
                }
            }
            if has_move {
                moves.push(entry);
            }
        }
        moves.sort_by(|a, b| a.order.unwrap_or(0.0).total_cmp(&b.order.unwrap_or(0.0)));
        Analyzed { to_move, moves }
    }

    /// The visits of all the entries.
    pub fn visits(&self) -> u64 {
        self.moves.iter().filter_map(|m| m.visits).sum::<f64>() as u64
    }

    /// As the page gets it: the entries, Black's winning chance with the best move, the most and all visits, the
    /// best move's proof.
    pub fn to_json(&self) -> Value {
        let best = self.moves.first().and_then(|m| m.winrate);
        let black = best.map(|w| {
            if self.to_move == Color::Black {
                w
            } else {
                1.0 - w
            }
        });
        let max_visits = self
            .moves
            .iter()
            .filter_map(|m| m.visits)
            .fold(0.0, f64::max);
        json!({
            "to_move": self.to_move.name(),
            "moves": self.moves.iter().map(Candidate::to_json).collect::<Vec<_>>(),
            "black": black,
            "max_visits": max_visits,
            "visits": self.visits(),
            "proof": self.moves.first().and_then(|m| m.proof.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review;

    #[test]
    fn analysis_lines_and_heatmap_text_are_read() {
        let read = Analyzed::parse(
            "info move E5 visits 1520 winrate 0.5623 prior 0.0280 order 0 pv b E5 w C3 info move D4 visits \
             310 winrate 0.4 prior 0.1 order 1 proof loss pv b D4",
            Color::White,
        );
        assert_eq!(read.visits(), 1830);
        assert_eq!(read.moves[1].proof.as_deref(), Some("loss"));
        let v = read.to_json();
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
