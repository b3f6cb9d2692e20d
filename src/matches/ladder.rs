//! Ratings of several engines from the results files of matches between pairs of them, as `oust calibrate` fits
//! the strength levels: each pair's games are merged as `oust match --merge` merges them, and the engines are
//! rated on one scale from all the pairs at once, an anchor rated 0: the fit `oust tournament` makes
//! ([`super::rating`]). On a ladder, a chain of pairs, each engine's rating is the sum of the steps below it.

use super::rating;
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

/// Rates the engines of `pairs` on one scale, fitted from every pair at once ([`super::rating::fit`], as `oust
/// tournament` rates its engines), `anchor` rated 0; listed in the order a breadth-first walk from the anchor
/// reaches them (up a ladder, the ladder's order).
pub fn fit(pairs: &[Pair], anchor: &str) -> Ladder {
    let mut names: Vec<String> = Vec::new();
    for p in pairs {
        for e in &p.engines {
            if !names.contains(e) {
                names.push(e.clone());
            }
        }
    }
    let index = |name: &String| names.iter().position(|n| n == name).unwrap_or(0);
    let Some(root) = names.iter().position(|n| n == anchor) else {
        return Ladder {
            ratings: Vec::new(),
            unreached: names,
        };
    };
    let results: Vec<(usize, usize, Wdl)> = pairs
        .iter()
        .map(|p| (index(&p.engines[0]), index(&p.engines[1]), p.wdl))
        .collect();
    let fitted = rating::fit(names.len(), &results, root);
    let mut order = vec![root];
    let mut at = 0;
    while at < order.len() {
        for &(i, j, wdl) in &results {
            for (from, to) in [(i, j), (j, i)] {
                if from == order[at] && wdl.games() > 0 && !order.contains(&to) {
                    order.push(to);
                }
            }
        }
        at += 1;
    }
    let ratings = order
        .iter()
        .filter_map(|&k| {
            fitted[k].as_ref().map(|r| Rating {
                engine: names[k].clone(),
                elo: r.elo,
                interval: r.interval,
            })
        })
        .collect::<Vec<_>>();
    let unreached = names
        .iter()
        .filter(|n| !ratings.iter().any(|r| &r.engine == *n))
        .cloned()
        .collect();
    Ladder { ratings, unreached }
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
    fn a_ladder_is_fitted_from_every_pair_in_the_ladders_order() {
        // 75% (and the virtual draw: 30.5 of 41) is +185 Elo; 50% is 0. Level 2 is reached through level 1, in
        // either orientation of a pair; level 3's sweep of the random player gives a finite rating.
        let pairs = [
            pair("level 1", "random", 30, 0, 10),
            pair("level 1", "level 2", 20, 0, 20),
            pair("level 3", "random", 40, 0, 0),
        ];
        let ladder = fit(&pairs, "random");
        let elo: Vec<(&str, i64)> = ladder
            .ratings
            .iter()
            .map(|r| (r.engine.as_str(), r.elo.round() as i64))
            .collect();
        assert_eq!(
            elo,
            [
                ("random", 0),
                ("level 1", 185),
                ("level 3", 763),
                ("level 2", 185)
            ]
        );
        for r in &ladder.ratings[1..] {
            assert!(r.interval.0 < r.elo && r.elo < r.interval.1, "{r:?}");
        }
        assert!(ladder.unreached.is_empty());
        let lonely = fit(&[pair("level 1", "level 2", 3, 0, 1)], "random");
        assert!(lonely.ratings.is_empty());
        assert_eq!(lonely.unreached, ["level 1", "level 2"]);
    }
}
