//! `oust tournament`: several engines, each pairing of the schedule a match of the same settings (the same openings
//! and colours as `oust match` plays them), its games interleaved with the other pairings'. One results file, a
//! line a game with the engines' names in the black and white columns; `--resume` goes on with it. The report: a
//! cross-table, each pairing's score and Elo (with the pentanomial figures of its paired games), and one rating
//! of every engine fitted from all the games ([`super::rating`]).

use std::fmt::Write as _;
use std::fs;
use std::sync::atomic::AtomicBool;

use crate::notation;

use super::config::MatchConfig;
use super::outputs::{check_numbers, clear_old_outputs, settings_differ, whole_lines};
use super::penta::Penta;
use super::rating::{self, Rated};
use super::results::{GameResult, RESULTS_COLUMNS, Tally, one_line, pairs};
use super::runner::play;
use super::schedule::{Field, Format, pairings};
use super::stats::Wdl;

/// The first line of a tournament's results file.
pub const TOURNAMENT_MAGIC: &str = "# oust tournament results, format 1";

/// Most engines a tournament takes.
pub const MAX_ENGINES: usize = 64;

/// An engine of a tournament: its name (in tables, records and the results file) and its shell command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// A word: no spaces, tabs or `=`.
    pub name: String,
    /// The shell command that starts it.
    pub command: String,
}

impl Entrant {
    /// `NAME=CMD`.
    ///
    /// # Errors
    /// No `=`, an empty name or command, or a name with a space or a control character.
    pub fn parse(s: &str) -> Result<Entrant, String> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| format!("'{s}' is not NAME=CMD (a name, '=', the engine's command)"))?;
        check_name(name)?;
        if command.trim().is_empty() {
            return Err(format!("engine '{name}' has no command after '='"));
        }
        Ok(Entrant {
            name: name.to_string(),
            command: command.trim().to_string(),
        })
    }
}

/// A name is a word of printable characters without spaces and `=`, at most 40 long.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("an engine's name is empty: give NAME=CMD".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || *c == '=')
    {
        return Err(format!(
            "engine name '{}' has {}: a name is one word",
            one_line(name),
            match c {
                '=' => "'='".to_string(),
                ' ' => "a space".to_string(),
                c => format!("the character {c:?}"),
            }
        ));
    }
    if name.chars().count() > 40 {
        return Err(format!("engine name '{name}' is longer than 40 characters"));
    }
    Ok(())
}

/// The index of the engine named `anchor` (the first without a name), or a message listing the engines.
///
/// # Errors
/// A name that is none of the engines'.
pub fn anchor_index(entrants: &[Entrant], anchor: Option<&str>) -> Result<usize, String> {
    let Some(name) = anchor else {
        return Ok(0);
    };
    entrants.iter().position(|e| e.name == name).ok_or_else(|| {
        let names: Vec<&str> = entrants.iter().map(|e| e.name.as_str()).collect();
        format!(
            "--anchor {name} is not one of the engines ({})",
            names.join(", ")
        )
    })
}

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The engines, in the order of the schedule.
    pub entrants: Vec<Entrant>,
    /// Who plays whom.
    pub format: Format,
    /// The engine rated 0, an index into `entrants`.
    pub anchor: usize,
    /// The settings of every pairing's games: `games` is each pairing's, `commands` unused. Colours always
    /// alternate.
    pub base: MatchConfig,
    /// Play only shard K of N: a block of the opening rounds (each round an opening's two games in every
    /// pairing), with the game numbers, colours and openings they have in the whole tournament.
    pub shard: Option<(u64, u64)>,
}

impl TournamentConfig {
    /// Checks the engines and the settings before anything is played.
    ///
    /// # Errors
    /// Fewer than two engines or more than [`MAX_ENGINES`], a name given twice, an odd number of games a pairing
    /// (each opening is played with both colours), or a shard (a tournament is not sharded).
    pub fn check(&self) -> Result<(), String> {
        let n = self.entrants.len();
        if n < 2 {
            return Err(format!(
                "a tournament needs two engines or more (--engine NAME=CMD each); {} given",
                n
            ));
        }
        if n > MAX_ENGINES {
            return Err(format!(
                "{n} engines: a tournament takes at most {MAX_ENGINES}"
            ));
        }
        for (i, e) in self.entrants.iter().enumerate() {
            check_name(&e.name)?;
            if self.entrants[..i].iter().any(|o| o.name == e.name) {
                return Err(format!(
                    "engine '{}' is named twice: each engine needs a name of its own",
                    e.name
                ));
            }
        }
        if self.base.games == 0 || self.base.games % 2 == 1 {
            return Err(format!(
                "--games {} a pairing: give an even number, so that each pairing plays every opening with both \
                 colours",
                self.base.games
            ));
        }
        if self.base.first_game != 0 || self.base.opening_offset != 0 {
            return Err(
                "a tournament has no first game or opening offset: give --shard K/N".into(),
            );
        }
        if let Some((k, n)) = self.shard
            && self.rounds().1 == 0
        {
            return Err(format!(
                "--shard {k}/{n} has no games: {} opening rounds (--games {} a pairing, two a round) split into {n} \
                 blocks leave none for it",
                self.base.games / 2,
                self.base.games
            ));
        }
        if self.anchor >= n {
            return Err("the anchor is not one of the engines".into());
        }
        Ok(())
    }

    /// The pairings of the schedule.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        pairings(self.entrants.len(), self.format)
    }

    /// The opening rounds this run plays, the first (from 0) and how many: all of them, or shard K of N's
    /// contiguous block, the blocks as equal as whole rounds allow.
    pub fn rounds(&self) -> (u64, u64) {
        let all = self.base.games / 2;
        match self.shard {
            None => (0, all),
            Some((k, n)) => {
                let block = all.div_ceil(n.max(1));
                let first = (k.saturating_sub(1) * block).min(all);
                (first, block.min(all - first))
            }
        }
    }

    /// The settings in one line, for the results file: the format, then a match's settings (`games` is each
    /// pairing's), then a shard's rounds.
    pub fn describe(&self) -> String {
        let mut base = self.base.clone();
        base.alternate = true;
        let mut text = format!("format {}, {}", self.format, base.describe());
        if self.shard.is_some() {
            let (first, count) = self.rounds();
            text.push_str(&format!(", rounds {} to {}", first + 1, first + count));
        }
        text
    }

    /// The results file's header: the magic line, an engine a line, the settings, the column names.
    pub fn header(&self) -> String {
        let mut out = format!("{TOURNAMENT_MAGIC}\n");
        for e in &self.entrants {
            let _ = writeln!(out, "# engine {}: {}", e.name, one_line(&e.command));
        }
        let _ = writeln!(out, "# settings: {}", one_line(&self.describe()));
        out.push_str(RESULTS_COLUMNS);
        out.push('\n');
        out
    }

    fn field(&self) -> Field {
        let pairings = self.pairings();
        let (first, count) = self.rounds();
        let per_round = 2 * pairings.len() as u64;
        Field {
            commands: self.entrants.iter().map(|e| e.command.clone()).collect(),
            pairings,
            names: Some(self.entrants.iter().map(|e| e.name.clone()).collect()),
            start: first * per_round,
            count: count * per_round,
            first_round: first,
        }
    }

    /// The games of this run: every game of the tournament, or a shard's.
    pub fn games(&self) -> u64 {
        self.field().count
    }
}

/// A tournament's results file read back.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentFile {
    /// The engines of its header.
    pub entrants: Vec<Entrant>,
    /// Its settings line.
    pub settings: String,
    /// Its games, in the file's order; each game's `black` is the side within its pairing.
    pub games: Vec<GameResult>,
}

/// Reads a tournament's results file; the pairing of each game follows from its number, the `format` and the
/// number of engines of the header.
///
/// # Errors
/// Not a tournament's results file, or a line that is not a game of one of its pairings (naming the line).
pub fn read_results(text: &str, format: Format) -> Result<TournamentFile, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, TOURNAMENT_MAGIC)) => {}
        _ => {
            return Err(format!(
                "not a tournament's results file (its first line is not '{TOURNAMENT_MAGIC}')"
            ));
        }
    }
    let mut entrants = Vec::new();
    let mut settings = None;
    let mut games = Vec::new();
    let mut field = None;
    for (i, line) in lines {
        let at = |e: String| format!("line {}: {e}", i + 1);
        if let Some(rest) = line.strip_prefix("# engine ") {
            let (name, command) = rest
                .split_once(": ")
                .ok_or_else(|| at("an engine line without 'NAME: CMD'".into()))?;
            entrants.push(Entrant {
                name: name.to_string(),
                command: command.to_string(),
            });
        } else if let Some(rest) = line.strip_prefix("# settings: ") {
            settings = Some(rest.to_string());
        } else if line == RESULTS_COLUMNS || line.trim().is_empty() || line.starts_with('#') {
        } else {
            let field = field.get_or_insert_with(|| Field {
                commands: entrants.iter().map(|e| e.command.clone()).collect(),
                pairings: pairings(entrants.len(), format),
                names: Some(entrants.iter().map(|e| e.name.clone()).collect()),
                start: 0,
                count: 0,
                first_round: 0,
            });
            games.push(read_line(field, line).map_err(at)?);
        }
    }
    Ok(TournamentFile {
        entrants,
        settings: settings.ok_or("no '# settings:' line")?,
        games,
    })
}

/// A game's line of a tournament's results file: its names turned into the sides of its pairing.
fn read_line(field: &Field, line: &str) -> Result<GameResult, String> {
    let mut fields: Vec<&str> = line.split('\t').collect();
    let number: u64 = fields[0]
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("game number '{}'", fields[0]))?;
    if field.pairings.is_empty() || fields.len() < 3 {
        return Err(format!("{} fields, expected 12", fields.len()));
    }
    let pairing = field.slot(number - 1).pairing;
    let names = field.names.as_deref().unwrap_or_default();
    let pair = field.pairings[pairing];
    let side = |name: &str| match pair.iter().position(|&e| names[e] == name) {
        Some(0) => Ok("A"),
        Some(_) => Ok("B"),
        None => Err(format!(
            "game {number} is one of {} - {}, not of '{name}'",
            names[pair[0]], names[pair[1]]
        )),
    };
    fields[1] = side(fields[1])?;
    fields[2] = side(fields[2])?;
    GameResult::from_line(&fields.join("\t"))
}

/// What a tournament did.
#[derive(Clone, Debug)]
pub struct TournamentReport {
    /// What each engine calls itself (`name` and `version`).
    pub names: Vec<String>,
    /// The finished games, by number.
    pub results: Vec<GameResult>,
    /// True when an interrupt stopped it before its last game.
    pub interrupted: bool,
}

/// Plays a tournament (or the games a resumed one misses). `finish` starts no new game; `interrupt` abandons the
/// games in progress (as `oust match`'s).
///
/// # Errors
/// Bad settings ([`TournamentConfig::check`]), a results file to resume that is missing, unreadable or of another
/// tournament (naming what differs), outputs of an earlier run without `overwrite`, or an engine that does not
/// start.
pub fn run(
    config: &TournamentConfig,
    finish: &AtomicBool,
    interrupt: &AtomicBool,
) -> Result<TournamentReport, String> {
    config.check()?;
    let mut base = config.base.clone();
    base.alternate = true;
    base.sprt = None;
    let earlier = if base.resume {
        resumed(config)?
    } else {
        clear_old_outputs(&base)?;
        Vec::new()
    };
    let field = config.field();
    let run = play(&base, &field, &config.header(), earlier, finish, interrupt)?;
    Ok(TournamentReport {
        names: run.names,
        results: run.results,
        interrupted: run.interrupted,
    })
}

/// The games of the results file a tournament resumes, after checking that it is this tournament's.
fn resumed(config: &TournamentConfig) -> Result<Vec<GameResult>, String> {
    let Some(path) = &config.base.results else {
        return Err("--resume needs the --results file of the tournament to go on with".into());
    };
    let text = fs::read_to_string(path)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let file = read_results(whole_lines(path, &text), config.format)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let mut differ = Vec::new();
    let theirs: Vec<String> = file
        .entrants
        .iter()
        .map(|e| format!("{}={}", e.name, e.command))
        .collect();
    let ours: Vec<String> = config
        .entrants
        .iter()
        .map(|e| format!("{}={}", e.name, e.command))
        .collect();
    if theirs != ours {
        differ.push(format!(
            "its engines are {} where this run has {}",
            theirs.join(" "),
            ours.join(" ")
        ));
    }
    differ.extend(settings_differ(&file.settings, &config.describe()));
    if !differ.is_empty() {
        return Err(format!(
            "{} is the results file of another tournament: {}",
            path.display(),
            differ.join("; ")
        ));
    }
    let field = config.field();
    check_numbers(
        path,
        &file.games,
        field.start + 1..=field.start + field.count,
        "tournament",
    )?;
    log::info!(
        "resuming {}: {} of {} played",
        path.display(),
        file.games.len(),
        notation::count(config.games(), "game")
    );
    Ok(file.games)
}

/// The settings line of a tournament's results file without a shard's rounds: what the shards of one tournament
/// share.
fn whole_settings(settings: &str) -> String {
    settings
        .split(", ")
        .filter(|part| !part.starts_with("rounds "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The results files of one tournament's shards (each named for messages, with its text) merged: the tournament
/// they are of (its engines, format and games a pairing, `anchor` or the first engine rated 0) and every game once.
///
/// # Errors
/// A file that is not a tournament's results file, files of other engines or settings (naming the file and what
/// differs), a game in two files, or an anchor that is none of the engines.
pub fn merge(
    files: &[(String, String)],
    anchor: Option<&str>,
) -> Result<(TournamentConfig, Vec<GameResult>), String> {
    let mut first: Option<(String, TournamentFile)> = None;
    let mut games: Vec<(GameResult, String)> = Vec::new();
    for (name, text) in files {
        let settings = text
            .lines()
            .find_map(|l| l.strip_prefix("# settings: "))
            .unwrap_or("");
        let format = settings
            .split(", ")
            .find_map(|p| p.strip_prefix("format "))
            .map(Format::parse)
            .unwrap_or(Ok(Format::RoundRobin))
            .map_err(|e| format!("{name}: {e}"))?;
        let file = read_results(text, format).map_err(|e| format!("{name}: {e}"))?;
        if let Some((first_name, f)) = &first {
            if f.entrants != file.entrants {
                return Err(format!(
                    "{name} is a tournament of other engines than {first_name}"
                ));
            }
            if let Some(differ) = settings_differ(
                &whole_settings(&f.settings),
                &whole_settings(&file.settings),
            ) {
                return Err(format!(
                    "{name} is of another tournament than {first_name}: {}",
                    differ.replace("this run", name)
                ));
            }
        }
        for g in &file.games {
            if let Some((_, other)) = games.iter().find(|(h, _)| h.number == g.number) {
                return Err(format!(
                    "game {} is in both {other} and {name}: each game counts once",
                    g.number
                ));
            }
            games.push((g.clone(), name.clone()));
        }
        if first.is_none() {
            first = Some((name.clone(), file));
        }
    }
    let Some((_, file)) = first else {
        return Err("no results files to merge".into());
    };
    let per_pairing = file
        .settings
        .split(", ")
        .find_map(|p| p.strip_prefix("games ")?.parse::<u64>().ok())
        .unwrap_or(0);
    let format = file
        .settings
        .split(", ")
        .find_map(|p| p.strip_prefix("format "))
        .and_then(|f| Format::parse(f).ok())
        .unwrap_or(Format::RoundRobin);
    let anchor = anchor_index(&file.entrants, anchor)?;
    let config = TournamentConfig {
        entrants: file.entrants,
        format,
        anchor,
        base: MatchConfig::new("", "", per_pairing),
        shard: None,
    };
    let mut all: Vec<GameResult> = games.into_iter().map(|(g, _)| g).collect();
    all.sort_by_key(|g| g.number);
    Ok((config, all))
}

/// A pairing's games and figures.
struct PairingResult {
    engines: [usize; 2],
    tally: Tally,
    penta: Penta,
}

fn pairing_results(config: &TournamentConfig, games: &[GameResult]) -> Vec<PairingResult> {
    let field = config.field();
    let mut split: Vec<Vec<GameResult>> = vec![Vec::new(); field.pairings.len()];
    for g in games {
        if let Some(number) = g.number.checked_sub(1) {
            split[field.slot(number).pairing].push(g.clone());
        }
    }
    field
        .pairings
        .iter()
        .zip(split)
        .map(|(&engines, games)| PairingResult {
            engines,
            tally: Tally::of(&games),
            penta: pairs(&games),
        })
        .collect()
}

/// The ratings of every engine from `games`, anchored on the config's anchor.
pub fn ratings(config: &TournamentConfig, games: &[GameResult]) -> Vec<Option<Rated>> {
    let results: Vec<(usize, usize, Wdl)> = pairing_results(config, games)
        .iter()
        .map(|p| (p.engines[0], p.engines[1], p.tally.a))
        .collect();
    rating::fit(config.entrants.len(), &results, config.anchor)
}

fn elo_text(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.0}")
    } else if elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn interval_text((lo, hi): (f64, f64)) -> String {
    format!("{}..{}", elo_text(lo), elo_text(hi))
}

/// `x` half points as a score: `3`, `3.5`.
fn points_text(half_points: u64) -> String {
    if half_points.is_multiple_of(2) {
        format!("{}", half_points / 2)
    } else {
        format!("{}.5", half_points / 2)
    }
}

/// The report: the engines, the ratings, the cross-table and the pairings (the games themselves are the results
/// file's lines).
pub fn format_report(config: &TournamentConfig, report: &TournamentReport) -> String {
    let names: Vec<&str> = config.entrants.iter().map(|e| e.name.as_str()).collect();
    let pairings = pairing_results(config, &report.results);
    let mut out = format!(
        "{} of {} played\n",
        report.results.len(),
        notation::count(config.games(), "game")
    );
    if report.interrupted {
        out.push_str("interrupted: resume it with the same command and --resume\n");
    }
    for (i, name) in names.iter().enumerate() {
        if let Some(n) = report.names.get(i) {
            let _ = writeln!(out, "engine {name}: {n} ({})", config.entrants[i].command);
        }
    }
    // Points and games of each engine against each other, in half points.
    let n = names.len();
    let mut half = vec![vec![0u64; n]; n];
    let mut played = vec![vec![0u64; n]; n];
    for p in &pairings {
        let [a, b] = p.engines;
        let wdl = p.tally.a;
        half[a][b] += 2 * wdl.wins + wdl.draws;
        half[b][a] += 2 * wdl.losses + wdl.draws;
        played[a][b] += wdl.games();
        played[b][a] += wdl.games();
    }
    let fitted = ratings(config, &report.results);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        let elo = |i: usize| fitted[i].as_ref().map_or(f64::NEG_INFINITY, |r| r.elo);
        elo(y).total_cmp(&elo(x)).then(x.cmp(&y))
    });
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "\nratings (Elo; {} = 0; all games fitted at once, one virtual draw a pairing; 95% intervals):",
        names[config.anchor]
    );
    let _ = writeln!(
        out,
        "  rank  {:<width$}  {:>6}  {:>15}  {:>6}  {:>7}",
        "engine", "Elo", "interval", "games", "score"
    );
    for (rank, &i) in order.iter().enumerate() {
        let games: u64 = played[i].iter().sum();
        let points: u64 = half[i].iter().sum();
        let score = if games > 0 {
            format!("{:.3}", points as f64 / 2.0 / games as f64)
        } else {
            "-".into()
        };
        let (elo, interval) = match &fitted[i] {
            Some(r) if i == config.anchor => (elo_text(r.elo), "anchor".into()),
            Some(r) => (elo_text(r.elo), interval_text(r.interval)),
            None => ("-".into(), "not connected".into()),
        };
        let _ = writeln!(
            out,
            "  {:>4}  {:<width$}  {elo:>6}  {interval:>15}  {games:>6}  {score:>7}",
            rank + 1,
            names[i]
        );
    }
    // The cross-table, in the ratings' order: the row engine's points against the column engine, of its games.
    let cell = order
        .iter()
        .map(|&j| names[j].len())
        .max()
        .unwrap_or(0)
        .max(7);
    let _ = writeln!(
        out,
        "\ncross-table (the row's points against the column, of the games they played):"
    );
    let mut head = format!("  {:<width$}", "");
    for &j in &order {
        let _ = write!(head, "  {:>cell$}", names[j]);
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for &i in &order {
        let mut row = format!("  {:<width$}", names[i]);
        for &j in &order {
            let text = if i == j {
                "-".to_string()
            } else if played[i][j] == 0 {
                ".".to_string()
            } else {
                format!("{}/{}", points_text(half[i][j]), played[i][j])
            };
            let _ = write!(row, "  {text:>cell$}");
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\npairings (A's wins-losses-draws; Elo of A over B, 95% interval; pentanomial over the pairs of an opening):"
    );
    for p in &pairings {
        let [a, b] = p.engines;
        let wdl = p.tally.a;
        let mut line = format!(
            "  {} - {}: {}-{}-{}",
            names[a], names[b], wdl.wins, wdl.losses, wdl.draws
        );
        if let (Some(elo), Some(interval)) = (wdl.elo(), wdl.elo_interval()) {
            let _ = write!(
                line,
                ", Elo {} ({})",
                elo_text(elo),
                interval_text(interval)
            );
        }
        if let (Some(elo), Some(interval)) = (p.penta.elo(), p.penta.elo_interval()) {
            let c = p.penta.counts;
            let _ = write!(
                line,
                "; pairs {}-{}-{}-{}-{}: Elo {} ({})",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                elo_text(elo),
                interval_text(interval)
            );
        }
        if wdl.games() == 0 {
            line.push_str(": no games");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}
