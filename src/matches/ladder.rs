//! Ratings of several engines from the results files of matches between pairs of them, as `oust calibrate` fits
//! the strength levels: each pair's games are merged as `oust match --merge` merges them, and the engines are
//! rated by chaining the pairs' Elo differences outward from an anchor rated 0 (a ladder). On a ladder, or any set
//! of pairs without a cycle, this is the maximum-likelihood fit of the logistic (Bradley-Terry) model; pairs that
//! would close a cycle are reported and left out of the ratings.

use std::collections::VecDeque;

use super::results::{ResultsFile, Tally, merge_results, without_seed};
use super::stats::Wdl;

/// The games of one pair of engines.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The two engines, by [`engine_name`]: A first.
    pub engines: [String; 2],
    /// A's wins, draws and losses against B, over every file of the pair (either engine may have been A in a
    /// file).
    pub wdl: Wdl,
    /// The results files of the pair.
    pub files: usize,
}

/// One engine's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The engine, by [`engine_name`].
    pub engine: String,
    /// Elo above the anchor (infinite when a pair on its way was a clean sweep).
    pub elo: f64,
    /// The 95% interval: the pairs' intervals on its way from the anchor combined as independent errors (their
    /// half-widths added in quadrature); with a sweep on the way, the sums of the pairs' bounds.
    pub interval: (f64, f64),
}

/// Ratings of the engines reachable from the anchor, in the order the ladder reaches them.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// The anchor first (rated 0), then each engine one pair further away.
    pub ratings: Vec<Rating>,
    /// Pairs left out of the ratings: they close a cycle (a round-robin's extra pairs).
    pub unused: Vec<usize>,
    /// Engines no pair connects to the anchor.
    pub unreached: Vec<String>,
}

/// A short name of an engine command for tables: `level N` for `--level N`, `random` for `--player random`,
/// `policy TX` for `--player policy --set temperature=X` (a rung of `oust calibrate`'s bridge), otherwise the command without its seed.
pub fn engine_name(command: &str) -> String {
    let command = without_seed(command);
    let words: Vec<&str> = command.split_whitespace().collect();
    let value = |flag: &str| {
        words.iter().enumerate().find_map(|(i, w)| {
            w.strip_prefix(&format!("{flag}="))
                .or_else(|| (*w == flag).then(|| words.get(i + 1).copied()).flatten())
        })
    };
    if let Some(level) = value("--level") {
        format!("level {level}")
    } else if value("--player") == Some("random") {
        "random".to_string()
    } else if value("--player") == Some("policy")
        && let Some(t) = words.iter().enumerate().find_map(|(i, w)| {
            let set = if *w == "--set" {
                words.get(i + 1)?
            } else {
                w.strip_prefix("--set=")?
            };
            set.strip_prefix("temperature=")
        })
    {
        format!("policy T{t}")
    } else {
        command
    }
}

/// The pairs of the results `files` (each named for messages): the files of each pair of engines (by
/// [`engine_name`], in either order) merged, every game counted once.
///
/// # Errors
/// As [`merge_results`]: a game held twice.
pub fn pairs(files: &[(String, ResultsFile)]) -> Result<Vec<Pair>, String> {
    /// The results files of one pair of engines, each with its name.
    type Group = ([String; 2], Vec<(String, ResultsFile)>);
    let mut groups: Vec<Group> = Vec::new();
    for (name, file) in files {
        let engines = file.labels.clone().map(|l| engine_name(&l));
        let flipped = [engines[1].clone(), engines[0].clone()];
        let group = groups
            .iter_mut()
            .find(|(e, _)| *e == engines || *e == flipped);
        match group {
            Some((_, list)) => list.push((name.clone(), file.clone())),
            None => groups.push((engines, vec![(name.clone(), file.clone())])),
        }
    }
    let mut out = Vec::new();
    for (engines, list) in groups {
        let mut wdl = Wdl::default();
        // Merge each orientation apart (merge_results keys games by match), then add them from A's side.
        for orientation in [false, true] {
            let part: Vec<(String, ResultsFile)> = list
                .iter()
                .filter(|(_, f)| (engine_name(&f.labels[0]) != engines[0]) == orientation)
                .cloned()
                .collect();
            let games = merge_results(&part)?;
            let a = Tally::of(&games).a;
            let a = if orientation { a.flipped() } else { a };
            wdl = Wdl::new(
                wdl.wins + a.wins,
                wdl.draws + a.draws,
                wdl.losses + a.losses,
            );
        }
        out.push(Pair {
            engines,
            wdl,
            files: list.len(),
        });
    }
    Ok(out)
}

/// Rates the engines of `pairs` from `anchor` (rated 0) outward, each engine by the first pair found on a
/// breadth-first walk from the anchor.
pub fn fit(pairs: &[Pair], anchor: &str) -> Ladder {
    // Each rating with its half-widths below and above, summed in quadrature, and whether a sweep is on its way.
    struct Reached {
        elo: f64,
        below: f64,
        above: f64,
        sweep: bool,
        bounds: (f64, f64),
    }
    let mut names: Vec<String> = Vec::new();
    for p in pairs {
        for e in &p.engines {
            if !names.contains(e) {
                names.push(e.clone());
            }
        }
    }
    let mut reached: Vec<(String, Reached)> = Vec::new();
    let mut used = vec![false; pairs.len()];
    if names.iter().any(|n| n == anchor) {
        reached.push((
            anchor.to_string(),
            Reached {
                elo: 0.0,
                below: 0.0,
                above: 0.0,
                sweep: false,
                bounds: (0.0, 0.0),
            },
        ));
    }
    let mut queue: VecDeque<usize> = (0..reached.len()).collect();
    while let Some(at) = queue.pop_front() {
        let from = reached[at].0.clone();
        for (i, p) in pairs.iter().enumerate() {
            if used[i] || !p.engines.contains(&from) {
                continue;
            }
            let (other, wdl) = if p.engines[0] == from {
                (&p.engines[1], p.wdl.flipped())
            } else {
                (&p.engines[0], p.wdl)
            };
            if reached.iter().any(|(n, _)| n == other) {
                continue;
            }
            used[i] = true;
            // `wdl` is the other engine's, against the one reached.
            let (Some(step), Some((lo, hi))) = (wdl.elo(), wdl.elo_interval()) else {
                continue;
            };
            let base = &reached[at].1;
            let next = Reached {
                elo: base.elo + step,
                below: base.below.hypot(step - lo),
                above: base.above.hypot(hi - step),
                sweep: base.sweep || step.is_infinite(),
                bounds: (base.bounds.0 + lo, base.bounds.1 + hi),
            };
            reached.push((other.clone(), next));
            queue.push_back(reached.len() - 1);
        }
    }
    let ratings = reached
        .into_iter()
        .map(|(engine, r)| Rating {
            engine,
            elo: r.elo,
            interval: if r.sweep {
                r.bounds
            } else {
                (r.elo - r.below, r.elo + r.above)
            },
        })
        .collect::<Vec<_>>();
    let unreached = names
        .into_iter()
        .filter(|n| !ratings.iter().any(|r| &r.engine == n))
        .collect();
    Ladder {
        ratings,
        unused: (0..pairs.len()).filter(|&i| !used[i]).collect(),
        unreached,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str, w: u64, d: u64, l: u64) -> Pair {
        Pair {
            engines: [a.to_string(), b.to_string()],
            wdl: Wdl::new(w, d, l),
            files: 1,
        }
    }

    #[test]
    fn engines_are_named_by_level_or_player() {
        assert_eq!(engine_name("oust --level 3 --seed 2"), "level 3");
        assert_eq!(engine_name("/x/oust --seed 1 --level=max"), "level max");
        assert_eq!(engine_name("oust --player random --seed 9"), "random");
        assert_eq!(
            engine_name("oust --player policy --set temperature=2.5 --seed 9"),
            "policy T2.5"
        );
        assert_eq!(
            engine_name("oust --seed 1 --playouts 100"),
            "oust --playouts 100"
        );
    }

    #[test]
    fn a_ladder_adds_the_steps_from_the_anchor() {
        // 75% is +190.8 Elo; 50% is 0. Level 2 is reached through level 1, in either orientation of a pair.
        let pairs = [
            pair("level 1", "random", 30, 0, 10),
            pair("level 1", "level 2", 20, 0, 20),
            pair("level 2", "level 3", 10, 0, 30),
            pair("random", "level 3", 0, 0, 40),
        ];
        let ladder = fit(&pairs, "random");
        let elo: Vec<(&str, i64)> = ladder
            .ratings
            .iter()
            .map(|r| (r.engine.as_str(), r.elo.round() as i64))
            .collect();
        // Level 3 is reached at once from the anchor by its own pair (a sweep, so an infinite rating with finite
        // bounds), so the pair of levels 2 and 3 closes a cycle and is left out.
        let finite: Vec<(&str, i64)> = elo.iter().filter(|e| e.0 != "level 3").copied().collect();
        assert_eq!(finite, [("random", 0), ("level 1", 191), ("level 2", 191)]);
        assert_eq!(ladder.ratings[2].engine, "level 3");
        assert!(ladder.ratings[2].elo.is_infinite());
        assert!(ladder.ratings[2].interval.0.is_finite());
        assert_eq!(ladder.unused, [2]);
        let one = &ladder.ratings[1];
        assert!(one.interval.0 < one.elo && one.elo < one.interval.1);
        assert!(ladder.unreached.is_empty());
    }
}
