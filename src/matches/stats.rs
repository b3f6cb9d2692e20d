//! Match statistics: score, Elo difference and their 95% intervals, likelihood of superiority, and the sequential
//! probability ratio test (SPRT) that stops a match once it has decided.
//!
//! Everything is computed from the win/draw/loss counts of one engine against the other (the trinomial model). The
//! Elo scale is the logistic one: an expected score `s` is worth `-400 log10(1/s - 1)` Elo.

/// The z value of a two-sided 95% normal interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one engine against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts from wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// The same games seen from the opponent.
    pub fn flipped(self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }

    /// Number of games.
    pub fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game (a win 1, a draw 1/2), or `None` with no games.
    pub fn score(self) -> Option<f64> {
        let n = self.games() as f64;
        (n > 0.0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n)
    }

    /// The 95% interval of the mean score: the Wilson score interval, with the variance of a game's score
    /// corrected for the observed draw rate (`s (1 - s) - d / 4` for a true score `s` and draw rate `d`). Unlike
    /// the plain normal approximation it stays meaningful after only wins or only losses, where it gives the
    /// bound that the games can still support instead of a zero-width interval.
    pub fn score_interval(self) -> Option<(f64, f64)> {
        let p = self.score()?;
        let n = self.games() as f64;
        let d = self.draws as f64 / n;
        let k = Z95 * Z95 / n;
        // Solve (p - s)^2 = k (s (1 - s) - d / 4) for s: a s^2 - b s + c = 0 with the coefficients below, whose
        // discriminant b^2 - 4 a c simplifies to k (4 p (1 - p) - d + k (1 - d)) (no cancellation).
        let (a, b) = (1.0 + k, 2.0 * p + k);
        let root = (k * (4.0 * p * (1.0 - p) - d + k * (1.0 - d)))
            .max(0.0)
            .sqrt();
        // A sweep leaves the swept end exactly where it is (rounding would put it a hair inside, which reads as
        // a finite Elo bound of thousands).
        let lo = if self.wins == 0 && self.draws == 0 {
            0.0
        } else {
            ((b - root) / (2.0 * a)).max(0.0)
        };
        let hi = if self.losses == 0 && self.draws == 0 {
            1.0
        } else {
            ((b + root) / (2.0 * a)).min(1.0)
        };
        Some((lo, hi))
    }

    /// The Elo difference the mean score stands for; infinite after only wins or only losses.
    pub fn elo(self) -> Option<f64> {
        self.score().map(elo_from_score)
    }

    /// The 95% interval of the Elo difference: the interval of the score, converted to Elo.
    pub fn elo_interval(self) -> Option<(f64, f64)> {
        self.score_interval()
            .map(|(lo, hi)| (elo_from_score(lo), elo_from_score(hi)))
    }

    /// The likelihood of superiority: the probability that this engine is the stronger one, from wins and losses
    /// (draws carry no information on it). `0.5` when there are neither.
    pub fn los(self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let x = (self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt();
        0.5 * (1.0 + erf(x))
    }
}

/// The Elo difference for an expected score: `-400 log10(1/s - 1)`, infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // Adding 0 turns the -0 of an even score into 0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score for an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, with a relative error below 1.2e-7 (the Chebyshev fit of Numerical Recipes, 6.2).
pub fn erf(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0; // the fit is off by 1.5e-8 there; an even match should say exactly 50%
    }
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// What a sequential test says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet: play on.
    Continue,
    /// H0 accepted: the Elo difference is at most `elo0` (the log-likelihood ratio reached the lower bound).
    H0,
    /// H1 accepted: the Elo difference is at least `elo1` (the log-likelihood ratio reached the upper bound).
    H1,
}

impl SprtDecision {
    /// A few words for the summary.
    pub fn describe(self) -> &'static str {
        match self {
            SprtDecision::Continue => "no decision yet",
            SprtDecision::H0 => "H0 accepted (the difference is at most elo0)",
            SprtDecision::H1 => "H1 accepted (the difference is at least elo1)",
        }
    }
}

/// Where a sequential test stopped a match: its decision, and the games and log-likelihood ratio it was taken on.
/// Games in progress at that moment are played to their end and count in the match's figures, but not here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStop {
    /// The decision (H0 or H1).
    pub decision: SprtDecision,
    /// Finished games when the test decided.
    pub games: u64,
    /// The log-likelihood ratio after those games.
    pub llr: f64,
}

/// A sequential probability ratio test of H0 `Elo = elo0` against H1 `Elo = elo1`, with error rates `alpha`
/// (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
///
/// The log-likelihood ratio is the generalised SPRT of the trinomial model (M. Van den Bergh): for each hypothesis,
/// the win/draw/loss distribution closest to the observed one whose expected score is that hypothesis' score,
/// then the log of the ratio of the two likelihoods of the observed counts. This is the test fishtest and fastchess
/// run with logistic Elo bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test after checking its parameters.
    ///
    /// # Errors
    /// A message when `elo0 >= elo1`, or `alpha` or `beta` is not strictly between 0 and 1, or their sum is 1 or
    /// more.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let unit = |p: f64| p > 0.0 && p < 1.0; // false for NaN
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        if !unit(alpha) || !unit(beta) || alpha + beta >= 1.0 {
            return Err(format!(
                "alpha ({alpha}) and beta ({beta}) must be between 0 and 1, with a sum below 1"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl`. Empty counts are replaced by 0.001 so that the
    /// ratio exists from the first game on; with no games it is 0.
    pub fn llr(&self, wdl: Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let reg = |c: u64| if c == 0 { 1e-3 } else { c as f64 };
        let counts = [reg(wdl.losses), reg(wdl.draws), reg(wdl.wins)];
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let p0 = closest_with_score(observed, score_from_elo(self.elo0));
        let p1 = closest_with_score(observed, score_from_elo(self.elo1));
        (0..3).map(|i| counts[i] * (p1[i].ln() - p0[i].ln())).sum()
    }

    /// The decision after `wdl`.
    pub fn decide(&self, wdl: Wdl) -> SprtDecision {
        self.decision(self.llr(wdl))
    }

    /// The decision a log-likelihood ratio `llr` reaches against the bounds.
    pub(super) fn decision(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Scores of a loss, a draw and a win.
const SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// [`closest`] over loss, draw and win.
fn closest_with_score(observed: [f64; 3], s: f64) -> [f64; 3] {
    let p = closest(&observed, &SCORES, s);
    [p[0], p[1], p[2]]
}

/// The maximum-likelihood distribution over outcomes of scores `scores` (from 0 to 1, the lowest 0 and the
/// highest 1) with expected score `s`, given the observed frequencies `observed` (all positive):
/// `p_i = q_i / (1 + theta (a_i - s))`, where `theta` solves `sum q_i (a_i - s) / (1 + theta (a_i - s)) = 0`.
/// That sum falls strictly as `theta` grows, so bisection over the range where every `p_i` stays positive finds
/// it. The trinomial model ([`Sprt::llr`]) and the pentanomial one ([`super::penta`]) share it.
pub(super) fn closest(observed: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let f = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(scores)
            .map(|(q, a)| q * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    // 1 + theta (a - s) > 0 for a = 1 and a = 0 gives -1/(1 - s) < theta < 1/s.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let p: Vec<f64> = observed
        .iter()
        .zip(scores)
        .map(|(q, a)| q / (1.0 + theta * (a - s)))
        .collect();
    let sum: f64 = p.iter().sum();
    p.into_iter().map(|x| x / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_tabulated_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (-1.5, -0.966_105_146_5),
        ] {
            assert!(close(erf(x), want, 2e-7), "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn the_closest_distribution_has_the_asked_score() {
        let q = [0.2, 0.3, 0.5];
        for s in [0.3, 0.5, 0.65, 0.9] {
            let p = closest_with_score(q, s);
            let score: f64 = (0..3).map(|i| p[i] * SCORES[i]).sum();
            assert!(close(score, s, 1e-9), "{p:?} has score {score}, not {s}");
        }
        // The observed distribution is its own closest one at its own score.
        let p = closest_with_score(q, 0.65);
        assert!((0..3).all(|i| close(p[i], q[i], 1e-9)), "{p:?}");
    }
}
