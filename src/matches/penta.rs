//! The pentanomial model of a match whose games come in pairs, one opening played twice with the colours swapped:
//! each pair scores 0, 1/2, 1, 3/2 or 2 points for engine A, and the pairs, not the games, are the independent
//! trials. The opening's own bias cancels within a pair, so the pairs' scores vary less than the games' and the
//! same games decide sooner (fishtest's pentanomial statistics and GSPRT, M. Van den Bergh).

use super::stats::{Sprt, SprtDecision, Z95, closest, elo_from_score, score_from_elo};

/// A pair's score for A, per game: the five outcomes of a pair from A's two losses to A's two wins.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// How many pairs scored 0, 1/2, 1, 3/2 and 2 points for engine A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Pairs by A's points in them, in half points: `counts[k]` pairs scored k/2.
    pub counts: [u64; 5],
}

impl Penta {
    /// Adds a pair in which A scored `half_points` half points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// A's mean score a game, or `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs() as f64;
        (n > 0.0).then(|| {
            self.counts
                .iter()
                .zip(PAIR_SCORES)
                .map(|(&c, a)| c as f64 * a)
                .sum::<f64>()
                / n
        })
    }

    /// The 95% interval of the mean score: the normal one, with the variance of the pairs' scores (a pair is one
    /// trial); clamped to 0 and 1. Where every pair scored the same (a sweep, or every opening split), that
    /// variance is 0 and says nothing of the spread: the pairs are then counted as trials of a coin (Wilson's
    /// interval, the widest variance a mean allows), so that a sweep of n pairs bounds its score by n / (n + z^2)
    /// on the far side instead of claiming it exactly, and the swept end stays exact.
    pub fn score_interval(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let n = self.pairs() as f64;
        let var = self
            .counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, a)| c as f64 * (a - s) * (a - s))
            .sum::<f64>()
            / n;
        if var > 0.0 {
            let half = Z95 * (var / n).sqrt();
            return Some(((s - half).max(0.0), (s + half).min(1.0)));
        }
        let k = Z95 * Z95 / n;
        let centre = (s + k / 2.0) / (1.0 + k);
        let half = Z95 / (1.0 + k) * (s * (1.0 - s) / n + k / (4.0 * n)).sqrt();
        let lo = if s == 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        };
        let hi = if s == 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        };
        Some((lo, hi))
    }

    /// The Elo difference the mean score stands for.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// The 95% interval of the Elo difference.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        self.score_interval()
            .map(|(lo, hi)| (elo_from_score(lo), elo_from_score(hi)))
    }
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after the pairs `p`, by the pentanomial model: for each
    /// hypothesis the distribution over the five pair outcomes closest to the observed one with that hypothesis'
    /// score, as [`Sprt::llr`] does over three outcomes. Empty counts are replaced by 0.001; no pairs give 0.
    pub fn llr_penta(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = p
            .counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = counts.iter().sum();
        let observed: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let p0 = closest(&observed, &PAIR_SCORES, score_from_elo(self.elo0));
        let p1 = closest(&observed, &PAIR_SCORES, score_from_elo(self.elo1));
        (0..5).map(|i| counts[i] * (p1[i].ln() - p0[i].ln())).sum()
    }

    /// The decision after the pairs `p`, by the pentanomial model.
    pub fn decide_penta(&self, p: &Penta) -> SprtDecision {
        self.decision(self.llr_penta(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::Wdl;

    #[test]
    fn pairs_score_as_their_games_do() {
        let mut p = Penta::default();
        for k in [4, 4, 3, 2, 0] {
            p.add(k);
        }
        assert_eq!(p.pairs(), 5);
        // 13 half points of 20.
        assert_eq!(p.score(), Some(13.0 / 20.0));
        let (lo, hi) = p.score_interval().unwrap();
        assert!(lo < 0.65 && hi > 0.65 && lo > 0.2 && hi <= 1.0, "{lo} {hi}");
    }

    #[test]
    fn pairs_that_all_score_the_same_still_have_an_interval() {
        let all = |k: usize, n: usize| {
            let mut p = Penta::default();
            (0..n).for_each(|_| p.add(k));
            p
        };
        // A sweep of 10 pairs: the swept end exact, the other n / (n + z^2) from it.
        let (lo, hi) = all(0, 10).score_interval().unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - Z95 * Z95 / (10.0 + Z95 * Z95)).abs() < 1e-12, "{hi}");
        let (elo_lo, elo_hi) = all(0, 10).elo_interval().unwrap();
        assert_eq!(elo_lo, f64::NEG_INFINITY);
        assert!(elo_hi.is_finite() && elo_hi < -150.0, "{elo_hi}");
        let (lo, hi) = all(4, 10).score_interval().unwrap();
        assert!(
            (lo - 10.0 / (10.0 + Z95 * Z95)).abs() < 1e-12 && hi == 1.0,
            "{lo}"
        );
        // Every opening split: even, and not claimed exactly.
        let (lo, hi) = all(2, 10).score_interval().unwrap();
        assert!(
            (lo + hi - 1.0).abs() < 1e-12 && lo > 0.2 && lo < 0.4,
            "{lo} {hi}"
        );
    }

    #[test]
    fn pairs_split_by_their_opening_decide_sooner_than_the_same_games_counted_alone() {
        // 40 pairs: A wins both games of 8, one of 28 (the opening's side won), none of 4: 44 wins, 36 losses.
        let pairs = |spec: &[(usize, u64)]| {
            let mut p = Penta::default();
            for &(k, n) in spec {
                for _ in 0..n {
                    p.add(k);
                }
            }
            p
        };
        let split = pairs(&[(4, 8), (2, 28), (0, 4)]);
        let games = Wdl::new(44, 0, 36);
        assert_eq!(split.score(), games.score());
        let test = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        // The pairs' scores vary less than independent games would: the ratio moves faster.
        let (tri, penta) = (test.llr(games), test.llr_penta(&split));
        assert!(
            penta > 1.5 * tri && tri > 0.0,
            "pentanomial {penta} against trinomial {tri}"
        );
        let (lo, hi) = split.elo_interval().unwrap();
        let (tlo, thi) = games.elo_interval().unwrap();
        assert!(hi - lo < thi - tlo, "{lo}..{hi} against {tlo}..{thi}");
        // Pairs that go one way or the other whole (the engines' strength varies with the opening) vary more.
        let whole = pairs(&[(4, 22), (0, 18)]);
        assert!(test.llr_penta(&whole) < test.llr(Wdl::new(44, 0, 36)));
        assert_eq!(test.llr_penta(&Penta::default()), 0.0);
        // A one-sided run decides.
        assert_eq!(
            test.decide_penta(&pairs(&[(4, 30), (2, 10)])),
            SprtDecision::H1
        );
        assert_eq!(
            test.decide_penta(&pairs(&[(0, 30), (2, 10)])),
            SprtDecision::H0
        );
    }
}
