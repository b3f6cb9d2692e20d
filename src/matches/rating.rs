//! Ratings of many engines on one scale, fitted from all their games at once: the maximum-likelihood fit of the
//! logistic (Bradley-Terry) model, as Ordo and BayesElo fit a tournament. An engine's expected score against
//! another is `1 / (1 + 10^(-(Ri - Rj) / 400))`; a draw counts half a win. Each pairing that played gets one
//! virtual draw (BayesElo's prior), so that a clean sweep gives a finite rating; the intervals are 95% ones from
//! the curvature of the likelihood at its maximum, the anchor held at 0.

use super::stats::{Wdl, Z95};

/// Natural units (the logistic's) to Elo.
const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Virtual draws added to each pairing that played (the prior).
pub const VIRTUAL_DRAWS: f64 = 1.0;

/// One engine's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// Elo above the anchor.
    pub elo: f64,
    /// The 95% interval; the anchor's is (0, 0).
    pub interval: (f64, f64),
}

/// The ratings of engines `0..n` from the results of pairings, `(i, j, wdl)` with the wins, draws and losses of
/// engine `i` against engine `j`. An engine that played no game connected to the anchor gets `None`.
pub fn fit(n: usize, results: &[(usize, usize, Wdl)], anchor: usize) -> Vec<Option<Rated>> {
    // Games and points of each engine against each other, the prior included.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    for &(i, j, wdl) in results {
        if i == j || i >= n || j >= n || wdl.games() == 0 {
            continue;
        }
        let played = wdl.games() as f64;
        let score = wdl.wins as f64 + wdl.draws as f64 / 2.0;
        for (a, b, s) in [(i, j, score), (j, i, played - score)] {
            games[a][b] += played;
            points[a][b] += s;
        }
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += VIRTUAL_DRAWS;
                points[i][j] += VIRTUAL_DRAWS / 2.0;
            }
        }
    }
    let connected = reachable(&games, anchor);
    // The free engines: connected, not the anchor. Newton's method on their ratings (natural units).
    let free: Vec<usize> = (0..n).filter(|&i| connected[i] && i != anchor).collect();
    let mut r = vec![0.0f64; n];
    let expected = |r: &[f64], i: usize, j: usize| 1.0 / (1.0 + (r[j] - r[i]).exp());
    let hessian = |r: &[f64]| -> Vec<Vec<f64>> {
        let mut h = vec![vec![0.0; free.len()]; free.len()];
        for (a, &i) in free.iter().enumerate() {
            for (j, &played) in games[i].iter().enumerate() {
                if played == 0.0 {
                    continue;
                }
                let p = expected(r, i, j);
                let w = played * p * (1.0 - p);
                h[a][a] += w;
                if let Some(b) = free.iter().position(|&k| k == j) {
                    h[a][b] -= w;
                }
            }
        }
        h
    };
    for _ in 0..100 {
        let gradient: Vec<f64> = free
            .iter()
            .map(|&i| {
                (0..n)
                    .filter(|&j| games[i][j] > 0.0)
                    .map(|j| points[i][j] - games[i][j] * expected(&r, i, j))
                    .sum()
            })
            .collect();
        let Some(step) = solve(hessian(&r), gradient) else {
            break;
        };
        let mut largest = 0.0f64;
        for (a, &i) in free.iter().enumerate() {
            // Steps of at most 2 units (870 Elo) keep Newton's method from overshooting from far away.
            let d = step[a].clamp(-2.0, 2.0);
            r[i] += d;
            largest = largest.max(d.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let variance = invert(hessian(&r));
    (0..n)
        .map(|i| {
            if i == anchor {
                return Some(Rated {
                    elo: 0.0,
                    interval: (0.0, 0.0),
                });
            }
            let a = free.iter().position(|&k| k == i)?;
            let elo = r[i] * ELO_PER_UNIT;
            let half = variance.as_ref().map_or(f64::INFINITY, |v| {
                Z95 * v[a][a].max(0.0).sqrt() * ELO_PER_UNIT
            });
            Some(Rated {
                elo,
                interval: (elo - half, elo + half),
            })
        })
        .collect()
}

/// Which engines the games connect to `anchor`.
fn reachable(games: &[Vec<f64>], anchor: usize) -> Vec<bool> {
    let n = games.len();
    let mut seen = vec![false; n];
    if anchor >= n {
        return seen;
    }
    let mut stack = vec![anchor];
    seen[anchor] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if games[i][j] > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// `x` with `m x = b`, by Gaussian elimination with partial pivoting; `None` when `m` is singular.
fn solve(mut m: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = m.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / m[row][row];
    }
    Some(x)
}

/// The inverse of `m`, column by column; `None` when `m` is singular.
fn invert(m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut columns = Vec::with_capacity(n);
    for c in 0..n {
        let unit = (0..n).map(|r| f64::from(u8::from(r == c))).collect();
        columns.push(solve(m.clone(), unit)?);
    }
    Some(
        (0..n)
            .map(|r| (0..n).map(|c| columns[c][r]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::stats::elo_from_score;

    #[test]
    fn two_engines_get_the_elo_of_their_score_with_the_virtual_draw() {
        // 7 wins, 2 draws, 1 loss, and the virtual draw: 8.5 of 11.
        let fitted = fit(2, &[(0, 1, Wdl::new(7, 2, 1))], 1);
        let a = fitted[0].clone().unwrap();
        assert!((a.elo - elo_from_score(8.5 / 11.0)).abs() < 1e-6, "{a:?}");
        assert!(a.interval.0 < a.elo && a.elo < a.interval.1);
        assert_eq!(fitted[1].as_ref().unwrap().elo, 0.0);
    }

    #[test]
    fn a_chain_adds_up_and_a_sweep_stays_finite() {
        // 0 beats 1 at 75%, 1 beats 2 at 75%, 2 sweeps nothing: on a chain the fit is the sum of its steps.
        let three = Wdl::new(30, 0, 10);
        let fitted = fit(3, &[(0, 1, three), (1, 2, three)], 2);
        let step = elo_from_score(30.5 / 41.0);
        assert!((fitted[1].as_ref().unwrap().elo - step).abs() < 1e-6);
        assert!((fitted[0].as_ref().unwrap().elo - 2.0 * step).abs() < 1e-6);
        let sweep = fit(2, &[(0, 1, Wdl::new(10, 0, 0))], 1);
        let a = sweep[0].clone().unwrap();
        assert!(a.elo.is_finite() && a.elo > 400.0, "{a:?}");
    }

    #[test]
    fn a_round_robin_is_fitted_jointly_and_the_unconnected_get_none() {
        // Three engines, each pairing's scores consistent with ratings 0, 100, 200.
        let games = 400;
        let wdl = |diff: f64| {
            let wins = (crate::matches::stats::score_from_elo(diff) * games as f64).round() as u64;
            Wdl::new(wins, 0, games - wins)
        };
        let results = [(1, 0, wdl(100.0)), (2, 1, wdl(100.0)), (2, 0, wdl(200.0))];
        let fitted = fit(4, &results, 0);
        assert!(
            (fitted[1].as_ref().unwrap().elo - 100.0).abs() < 3.0,
            "{fitted:?}"
        );
        assert!(
            (fitted[2].as_ref().unwrap().elo - 200.0).abs() < 3.0,
            "{fitted:?}"
        );
        assert_eq!(fitted[3], None);
        // Joint: engine 2's interval is narrower than its direct pairing's alone.
        let alone = wdl(200.0).elo_interval().unwrap();
        let joint = fitted[2].as_ref().unwrap().interval;
        assert!(joint.1 - joint.0 < alone.1 - alone.0, "{joint:?} {alone:?}");
    }
}
