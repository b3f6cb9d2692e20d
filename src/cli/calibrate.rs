//! `oust calibrate`: the Elo of the strength levels. A ladder of `oust match` runs (the uniformly random player
//! against the first rung of a bridge of policy players at falling temperatures, each rung against the next, the
//! last rung against the lowest level, then each level against the next), split into shards that it runs side by side (or prints
//! for GNU parallel or Slurm), then a fit of the merged results anchored at the random player (docs/levels.md).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

use clap::Args;
use oust::gtp::levels::{self, MAX_LEVEL};
use oust::matches::ResultsFile;
use oust::matches::ladder::{self, Ladder, Pair};
use oust::matches::schedule::{Format, pairings};
use oust::rules::Shape;

use super::{Outcome, UsageError, parse_size, print_out};

/// The options of `oust calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Directory of the matches' results files, logs and outputs (made when missing)
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Board: N for N x N, WxH, or hexS for the hexhex board of side S
    #[arg(long, value_name = "N|WxH|hexS", default_value = "hex7", value_parser = parse_size)]
    pub size: Shape,
    /// Levels LO-HI of the ladder: random against the bridge's rungs, then LO, LO against LO+1, ..., up to HI
    #[arg(long, value_name = "LO-HI", default_value = "1-10", value_parser = parse_levels)]
    pub levels: (u8, u8),
    /// Rungs between the random player and the lowest level: the policy player at these temperatures, highest
    /// first, so that no pair is a clean sweep and the levels get finite Elo above the random player (`none` for
    /// no rungs) [default: 8,4,2.5,1.6,1 on hexhex boards, 8,4,2.5,1.6,1,0.7 on the others]
    #[arg(long, value_name = "T,T,...|none", value_parser = parse_bridge)]
    pub bridge: Option<Bridge>,
    /// Games of each pair
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Shards of each pair's match (each a job of its own)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: u64,
    /// Jobs (matches) run at once, each a process of its own
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: u64,
    /// Seed of the random openings; the engines get SEED and SEED+1
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The oust binary the jobs run [default: this one]
    #[arg(long, value_name = "PATH")]
    pub oust: Option<String>,
    /// Replace the results of an earlier calibration in DIR (passed to every match)
    #[arg(long, conflicts_with = "resume")]
    pub overwrite: bool,
    /// Go on with the calibration in DIR: each match whose results file is there resumes it (`oust match
    /// --resume`: only its missing games are played), the others start
    #[arg(long)]
    pub resume: bool,
    /// Print the jobs, one shell command a line, for GNU parallel, Slurm or any other scheduler, and play nothing
    #[arg(long, conflicts_with = "fit")]
    pub print_jobs: bool,
    /// Play nothing: fit the results files already in DIR
    #[arg(long)]
    pub fit: bool,
}

/// `LO-HI`, two levels from 1 to [`MAX_LEVEL`] with LO below HI.
fn parse_levels(s: &str) -> Result<(u8, u8), String> {
    let bad = || format!("'{s}' is not LO-HI with 1 <= LO < HI <= {MAX_LEVEL}, for example 1-10");
    let (lo, hi) = s.split_once('-').ok_or_else(bad)?;
    let (lo, hi): (u8, u8) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim().parse().map_err(|_| bad())?,
    );
    if lo == 0 || lo >= hi || hi > MAX_LEVEL {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// The temperatures of the rungs below the lowest level.
#[derive(Clone, Debug, PartialEq)]
pub struct Bridge(pub Vec<f64>);

/// `T,T,...` (temperatures above 0 and at most 100, falling) or `none`.
fn parse_bridge(s: &str) -> Result<Bridge, String> {
    if s == "none" {
        return Ok(Bridge(Vec::new()));
    }
    let bad = || {
        format!(
            "'{s}' is not a list of falling temperatures above 0 and at most 100 (such as 8,4,2.5,1.6) or none"
        )
    };
    let temps = s
        .split(',')
        .map(|t| t.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<Vec<f64>, String>>()?;
    let in_range = temps.iter().all(|t| *t > 0.0 && *t <= 100.0);
    if !in_range || temps.windows(2).any(|w| w[1] >= w[0]) {
        return Err(bad());
    }
    Ok(Bridge(temps))
}

/// `oust calibrate`: the jobs, run `--jobs` at a time unless only printed, then the fit.
pub fn run(args: &CalibrateArgs) -> Outcome {
    if !args.fit {
        let jobs = jobs(args)?;
        if args.print_jobs {
            print_out(&(jobs.join("\n") + "\n"));
            return Ok(ExitCode::SUCCESS);
        }
        if let Err(e) = std::fs::create_dir_all(&args.dir) {
            eprintln!("oust calibrate: {}: {e}", args.dir.display());
            return Ok(ExitCode::from(2));
        }
        if let Err(e) = run_jobs(&jobs, args.jobs) {
            eprintln!("oust calibrate: {e}");
            return Ok(ExitCode::from(2));
        }
    }
    Ok(fit(&args.dir))
}

/// A word for `sh`: as it is when it has nothing the shell reads specially, otherwise in single quotes.
fn sh_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// One `oust match` command a shard of each pair of the ladder, its outputs in the directory.
fn jobs(args: &CalibrateArgs) -> Result<Vec<String>, UsageError> {
    // `oust match --shard` keeps an opening's two games in one shard, so too many shards leave the last ones
    // empty, and those matches would fail: refuse before playing anything.
    let (_, last) = super::matches::shard_games(args.games, args.shards, args.shards);
    if last == 0 {
        let most = (1..args.shards)
            .rev()
            .find(|&n| super::matches::shard_games(args.games, n, n).1 > 0)
            .unwrap_or(1);
        return Err(UsageError(format!(
            "--shards {} leaves shard {} of {} games empty (a shard holds whole pairs of games, one opening \
             each); give --shards {most} or fewer",
            args.shards, args.shards, args.games
        )));
    }
    let oust = match &args.oust {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .map_err(|e| {
                UsageError(format!(
                    "cannot find this program's path ({e}): give --oust"
                ))
            })?
            .display()
            .to_string(),
    };
    let (lo, hi) = args.levels;
    let dir = args.dir.display().to_string();
    let mut out = Vec::new();
    // The rungs from the bottom up: each with its name in the files' names and its engine command.
    let seed_b = args.seed.wrapping_add(1);
    let mut rungs: Vec<(String, String)> = vec![(
        "random".to_string(),
        format!("{oust} --player random --seed {seed_b}"),
    )];
    let bridge = match &args.bridge {
        Some(b) => b.0.clone(),
        None => levels::bridge(args.size).to_vec(),
    };
    for t in &bridge {
        rungs.push((
            format!("policy{t}"),
            format!("{oust} --player policy --set temperature={t} --seed {seed_b}"),
        ));
    }
    for level in lo..=hi {
        rungs.push((
            level.to_string(),
            format!("{oust} --level {level} --seed {seed_b}"),
        ));
    }
    for [lower, upper] in pairings(rungs.len(), Format::Ladder) {
        let ((below, b), (above, a)) = (&rungs[lower], &rungs[upper]);
        // The stronger engine is A, with the first seed, so that each pair's Elo is its step up the ladder.
        let a = a.replace(
            &format!("--seed {seed_b}"),
            &format!("--seed {}", args.seed),
        );
        let pair = format!("{below}-{above}");
        for shard in 1..=args.shards {
            let stem = format!("{dir}/pair-{pair}.shard-{shard}-of-{}", args.shards);
            let mut words = vec![
                oust.clone(),
                "match".into(),
                "--black".into(),
                a.clone(),
                "--white".into(),
                b.clone(),
                "--games".into(),
                args.games.to_string(),
                "--size".into(),
                args.size.to_string(),
                "--alternate".into(),
                "--random-openings".into(),
                "2".into(),
                "--seed".into(),
                args.seed.to_string(),
                "--fresh-engines".into(),
                "--shard".into(),
                format!("{shard}/{}", args.shards),
                "--results".into(),
                format!("{stem}.tsv"),
            ];
            if args.overwrite {
                words.push("--overwrite".into());
            }
            if args.resume && Path::new(&format!("{stem}.tsv")).exists() {
                words.push("--resume".into());
            }
            let command: Vec<String> = words.iter().map(|w| sh_quote(w)).collect();
            out.push(format!(
                "{} > {} 2> {}",
                command.join(" "),
                sh_quote(&format!("{stem}.out")),
                sh_quote(&format!("{stem}.log"))
            ));
        }
    }
    Ok(out)
}

/// Runs the shell command lines `jobs`, `at_once` at a time, each in a `sh` of its own, and stops at the first
/// that fails: the jobs still running are ended and no other is started.
fn run_jobs(jobs: &[String], at_once: u64) -> Result<(), String> {
    let mut pending = jobs.iter().enumerate();
    let mut running: Vec<(usize, Child)> = Vec::new();
    let mut failed = None;
    loop {
        while failed.is_none() && running.len() < at_once as usize {
            let Some((i, job)) = pending.next() else {
                break;
            };
            match Command::new("sh")
                .arg("-c")
                .arg(format!("exec {job}"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
            {
                Ok(child) => running.push((i, child)),
                Err(e) => failed = Some(format!("job {} could not be started ({e}): {job}", i + 1)),
            }
        }
        if running.is_empty() {
            return failed.map_or(Ok(()), Err);
        }
        running.retain_mut(|(i, child)| match child.try_wait() {
            Ok(None) => true,
            Ok(Some(status)) if status.success() => false,
            Ok(Some(status)) => {
                failed.get_or_insert_with(|| {
                    format!(
                        "job {} failed ({status}); its .log file in the directory says why: {}",
                        *i + 1,
                        jobs[*i]
                    )
                });
                false
            }
            Err(e) => {
                failed.get_or_insert_with(|| format!("job {} cannot be waited for: {e}", *i + 1));
                false
            }
        });
        if failed.is_some() {
            for (_, child) in &mut running {
                let _ = child.kill();
                let _ = child.wait();
            }
            running.clear();
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Reads every results file (`*.tsv`) of `dir` and prints the pairs and the ratings.
fn fit(dir: &Path) -> ExitCode {
    let mut files = Vec::new();
    let listing = match std::fs::read_dir(dir) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("oust calibrate: {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    paths.sort();
    for path in paths {
        let read = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| ResultsFile::parse(&text));
        match read {
            Ok(f) => files.push((path.display().to_string(), f)),
            Err(e) => {
                eprintln!("oust calibrate: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if files.is_empty() {
        eprintln!(
            "oust calibrate: {} has no results files (*.tsv)",
            dir.display()
        );
        return ExitCode::from(2);
    }
    let pairs = match ladder::pairs(&files) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("oust calibrate: {e}");
            return ExitCode::from(2);
        }
    };
    let fitted = ladder::fit(&pairs, "random");
    print_out(&report(&pairs, &fitted, files.len()));
    ExitCode::SUCCESS
}

/// An Elo figure with its sign, or `+inf`/`-inf`.
fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:+.0}")
    }
}

/// The table of pairs and the table of ratings.
fn report(pairs: &[Pair], fitted: &Ladder, files: usize) -> String {
    let games: u64 = pairs.iter().map(|p| p.wdl.games()).sum();
    let mut out = format!(
        "{} in {} from {}\n\npairs (A against B):\n",
        oust::notation::count(games, "game"),
        oust::notation::count(pairs.len(), "pair"),
        oust::notation::count(files, "results file"),
    );
    let width = pairs
        .iter()
        .map(|p| p.engines[0].len() + p.engines[1].len() + 3)
        .max()
        .unwrap_or(0)
        .max(4);
    out.push_str(&format!(
        "{:<width$}  games  wins draws losses  score  Elo A-B (95% interval)\n",
        "pair"
    ));
    // The pairs up the ladder: by the later of their engines in the order the fit reached them.
    let rank = |name: &str| {
        fitted
            .ratings
            .iter()
            .position(|r| r.engine == name)
            .unwrap_or(usize::MAX)
    };
    let mut order: Vec<&Pair> = pairs.iter().collect();
    order.sort_by_key(|p| {
        (
            rank(&p.engines[0]).max(rank(&p.engines[1])),
            rank(&p.engines[0]).min(rank(&p.engines[1])),
        )
    });
    for p in order {
        let w = p.wdl;
        let (lo, hi) = w.elo_interval().unwrap_or((f64::NAN, f64::NAN));
        out.push_str(&format!(
            "{:<width$}  {:>5}  {:>4} {:>5} {:>6}  {:.3}  {} ({} to {})\n",
            format!("{} - {}", p.engines[0], p.engines[1]),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            w.score().unwrap_or(0.5),
            elo_text(w.elo().unwrap_or(0.0)),
            elo_text(lo),
            elo_text(hi),
        ));
    }
    out.push_str(
        "\nratings (Elo above the random player, all pairs fitted at once, one virtual draw a pair; 95% interval):\n",
    );
    if fitted.ratings.is_empty() {
        out.push_str("none: no pair has the random player ('--player random')\n");
    }
    let name_width = fitted
        .ratings
        .iter()
        .map(|r| r.engine.len())
        .max()
        .unwrap_or(0)
        .max(10);
    for r in &fitted.ratings {
        out.push_str(&format!(
            "{:<name_width$} {:>6}  ({} to {})\n",
            r.engine,
            elo_text(r.elo),
            elo_text(r.interval.0),
            elo_text(r.interval.1)
        ));
    }
    for name in &fitted.unreached {
        out.push_str(&format!(
            "not rated (no pair connects it to the random player): {name}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_quoting() {
        assert_eq!(parse_levels("1-10"), Ok((1, 10)));
        assert!(parse_levels("0-3").is_err());
        assert!(parse_levels("3-3").is_err());
        assert!(parse_levels("2-11").is_err());
        assert_eq!(sh_quote("/usr/bin/oust"), "/usr/bin/oust");
        assert_eq!(sh_quote("oust --level 3"), "'oust --level 3'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
    }
}
