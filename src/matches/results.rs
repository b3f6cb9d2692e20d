//! Game results: the results file (one tab-separated line per game, written as each game ends), the table and the
//! summary printed at the end, and reading results files back for `oust match --merge`.

use std::fmt::Write as _;

use crate::notation;
use crate::rules::{Color, Outcome};

use super::penta::Penta;
use super::stats::{Sprt, SprtDecision, SprtStop, Wdl};

/// The two engines of a match: A is the `--black` command, B the `--white` command. They swap colours when the
/// match alternates or uses openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The engine of `--black`.
    A,
    /// The engine of `--white`.
    B,
}

impl Side {
    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other engine.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// `A` or `B`.
    pub fn letter(self) -> char {
        match self {
            Side::A => 'A',
            Side::B => 'B',
        }
    }

    fn parse(s: &str) -> Option<Side> {
        match s {
            "A" => Some(Side::A),
            "B" => Some(Side::B),
            _ => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The winner captured every enemy stone.
    Capture,
    /// Neither player could place: a draw (ruling 8 of the rules).
    NoPlacement,
    /// The game reached `--max-moves` and was adjudicated a draw.
    MaxMoves,
    /// The loser resigned.
    Resign,
    /// Forfeit: the loser's move was illegal.
    Illegal,
    /// Forfeit: the loser's response was not a GTP response, or not a move.
    Malformed,
    /// Forfeit: the loser crashed, closed its output or could not be started.
    Crash,
    /// Forfeit: the loser exceeded its time (or gave no response at all).
    Time,
    /// Forfeit: the loser did not play its extra turn after a capture (it passed or refused `genmove`).
    ExtraTurn,
    /// Forfeit: the loser refused a command it must accept (`boardsize`, `clear_board`, `play` of a legal move,
    /// `genmove` on its turn).
    Refused,
    /// The solver proved the position (`--adjudicate solver`): the game ended with the result the rules would give
    /// it under perfect play.
    Solver,
}

impl Reason {
    const ALL: [Reason; 11] = [
        Reason::Capture,
        Reason::NoPlacement,
        Reason::MaxMoves,
        Reason::Resign,
        Reason::Illegal,
        Reason::Malformed,
        Reason::Crash,
        Reason::Time,
        Reason::ExtraTurn,
        Reason::Refused,
        Reason::Solver,
    ];

    /// The keyword of the results file and table.
    pub fn keyword(self) -> &'static str {
        match self {
            Reason::Capture => "capture",
            Reason::NoPlacement => "no-placement",
            Reason::MaxMoves => "max-moves",
            Reason::Resign => "resign",
            Reason::Illegal => "illegal",
            Reason::Malformed => "malformed",
            Reason::Crash => "crash",
            Reason::Time => "time",
            Reason::ExtraTurn => "extra-turn",
            Reason::Refused => "refused",
            Reason::Solver => "solver",
        }
    }

    /// The reason with this keyword.
    pub fn from_keyword(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.keyword() == s)
    }

    /// True when the loser lost by breaking the protocol or the clock.
    pub fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Reason::Capture
                | Reason::NoPlacement
                | Reason::MaxMoves
                | Reason::Resign
                | Reason::Solver
        )
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's number in its match, from 1.
    pub number: u64,
    /// The engine that played Black.
    pub black: Side,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: Reason,
    /// Details, such as the forfeit's cause; empty when there are none. One line, no tabs.
    pub detail: String,
    /// Moves played, passes and the opening's moves included.
    pub moves: usize,
    /// Seconds Black and White spent answering `genmove`.
    pub time: [f64; 2],
    /// Seconds of Black's and White's longest single `genmove` answer.
    pub longest: [f64; 2],
    /// The number of the opening, from 0, when the match uses openings.
    pub opening: Option<usize>,
}

impl GameResult {
    /// The engine that played `color`.
    pub fn side_of(&self, color: Color) -> Side {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// The winning engine, if any.
    pub fn winner(&self) -> Option<Side> {
        self.outcome.winner().map(|c| self.side_of(c))
    }

    /// The engine that forfeited, if the game was forfeited.
    pub fn forfeited_by(&self) -> Option<Side> {
        if self.reason.is_forfeit() {
            self.winner().map(Side::other)
        } else {
            None
        }
    }

    /// The SGF result: `B+`, `W+` or `0`, with `R` for resignation, `T` for time and `F` for other forfeits.
    pub fn sgf_result(&self) -> String {
        let code = self.outcome.code();
        let suffix = match self.reason {
            Reason::Resign => "R",
            Reason::Time => "T",
            r if r.is_forfeit() => "F",
            _ => "",
        };
        format!("{code}{suffix}")
    }

    /// The line of the results file (no newline).
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{}\t{}",
            self.number,
            self.black.letter(),
            self.black.other().letter(),
            self.outcome.code(),
            self.reason.keyword(),
            self.moves,
            self.time[0],
            self.time[1],
            self.longest[0],
            self.longest[1],
            self.opening
                .map_or_else(|| "-".to_string(), |o| o.to_string()),
            one_line(&self.detail),
        )
    }

    /// Reads a line of a results file of the current format (12 fields) or of format 1 (10 fields, without the
    /// longest answers, which read as 0).
    ///
    /// # Errors
    /// A message saying which field is wrong.
    pub fn from_line(line: &str) -> Result<GameResult, String> {
        let mut fields: Vec<&str> = line.split('\t').collect();
        let longest_fields = match fields.len() {
            12 => fields.drain(8..10).collect::<Vec<_>>(),
            10 => vec!["0", "0"],
            n => return Err(format!("{n} fields, expected 12")),
        };
        let number = fields[0]
            .parse()
            .map_err(|_| format!("game number '{}'", fields[0]))?;
        let black = Side::parse(fields[1]).ok_or_else(|| format!("black '{}'", fields[1]))?;
        if Side::parse(fields[2]) != Some(black.other()) {
            return Err(format!("white '{}'", fields[2]));
        }
        let outcome = match fields[3] {
            "B+" => Outcome::Win(Color::Black),
            "W+" => Outcome::Win(Color::White),
            "0" => Outcome::Draw,
            other => return Err(format!("result '{other}'")),
        };
        let reason =
            Reason::from_keyword(fields[4]).ok_or_else(|| format!("reason '{}'", fields[4]))?;
        let moves = fields[5]
            .parse()
            .map_err(|_| format!("moves '{}'", fields[5]))?;
        let time = |f: &str| {
            f.parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t >= 0.0)
                .ok_or_else(|| format!("time '{f}'"))
        };
        let opening = match fields[8] {
            "-" => None,
            o => Some(o.parse().map_err(|_| format!("opening '{o}'"))?),
        };
        Ok(GameResult {
            number,
            black,
            outcome,
            reason,
            detail: fields[9].to_string(),
            moves,
            time: [time(fields[6])?, time(fields[7])?],
            longest: [time(longest_fields[0])?, time(longest_fields[1])?],
            opening,
        })
    }
}

/// `s` on one line without tabs, for the results file.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The first line of every results file.
pub const RESULTS_MAGIC: &str = "# oust match results, format 2";
/// The first line of results files written before the longest answers were recorded; still read.
pub const RESULTS_MAGIC_1: &str = "# oust match results, format 1";
/// The column names, the line after the header comments.
pub const RESULTS_COLUMNS: &str = "game\tblack\twhite\tresult\treason\tmoves\ttime-black\ttime-white\t\
    longest-black\tlongest-white\topening\tdetail";
/// The column names of format 1.
const RESULTS_COLUMNS_1: &str =
    "game\tblack\twhite\tresult\treason\tmoves\ttime-black\ttime-white\topening\tdetail";

/// The header of a results file: the magic line, both engines' commands, the settings, the column names.
pub fn results_header(labels: &[String; 2], settings: &str) -> String {
    format!(
        "{RESULTS_MAGIC}\n# A: {}\n# B: {}\n# settings: {}\n{RESULTS_COLUMNS}\n",
        one_line(&labels[0]),
        one_line(&labels[1]),
        one_line(settings)
    )
}

/// An engine command without its `--seed S` or `--seed=S` options, words separated by single spaces: what
/// shards of one match may differ in (docs/matches.md's sharding gives each shard's engines their own seeds).
pub fn without_seed(command: &str) -> String {
    let mut words = command.split_whitespace();
    let mut kept = Vec::new();
    while let Some(w) = words.next() {
        if w == "--seed" {
            words.next();
        } else if !w.starts_with("--seed=") {
            kept.push(w);
        }
    }
    kept.join(" ")
}

/// True when two matches' engine commands are the same but for their seeds (see [`without_seed`]).
pub fn same_engines(a: &[String; 2], b: &[String; 2]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| without_seed(x) == without_seed(y))
}

/// A results file read back.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsFile {
    /// The commands of engines A and B.
    pub labels: [String; 2],
    /// The match's settings line (empty when the file has none).
    pub settings: String,
    /// The games, in file order.
    pub games: Vec<GameResult>,
}

impl ResultsFile {
    /// Reads the text of a results file.
    ///
    /// # Errors
    /// A message with the line number of the first line that is not part of a results file.
    pub fn parse(text: &str) -> Result<ResultsFile, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, RESULTS_MAGIC | RESULTS_MAGIC_1)) => {}
            _ => return Err(format!("line 1: expected '{RESULTS_MAGIC}'")),
        }
        let mut labels = [String::new(), String::new()];
        let mut settings = String::new();
        let mut games = Vec::new();
        for (i, line) in lines {
            if let Some(comment) = line.strip_prefix('#') {
                if let Some(a) = comment.strip_prefix(" A: ") {
                    labels[0] = a.to_string();
                } else if let Some(b) = comment.strip_prefix(" B: ") {
                    labels[1] = b.to_string();
                } else if let Some(s) = comment.strip_prefix(" settings: ") {
                    settings = s.to_string();
                }
            } else if line == RESULTS_COLUMNS || line == RESULTS_COLUMNS_1 || line.trim().is_empty()
            {
            } else {
                games
                    .push(GameResult::from_line(line).map_err(|e| format!("line {}: {e}", i + 1))?);
            }
        }
        Ok(ResultsFile {
            labels,
            settings,
            games,
        })
    }

    /// The match the file's games belong to, whichever shard of it the file holds: the engines without their
    /// seeds, and the settings without the shard's game count and range (`games 50`, `games 51 to 100`). Two
    /// shards of one match have the same key; a game number means one game within a key.
    pub fn match_key(&self) -> String {
        let settings: Vec<&str> = self
            .settings
            .split(", ")
            .filter(|part| !part.starts_with("games "))
            .collect();
        format!(
            "{}\n{}\n{}",
            without_seed(&self.labels[0]),
            without_seed(&self.labels[1]),
            settings.join(", ")
        )
    }
}

/// The games of several results files, each named for the messages, for `oust match --merge`: every game once.
///
/// # Errors
/// When a game is held twice, in two files (the same shard twice) or in one: a message that names the files and
/// the games. Games of two matches (files of different [`ResultsFile::match_key`]s) may share their numbers and
/// their openings' numbers: each match after the first has its games and openings numbered on after the ones
/// before (in the order the files name the matches), so that an opening's pair of games stays its own.
pub fn merge_results(files: &[(String, ResultsFile)]) -> Result<Vec<GameResult>, String> {
    // Each match's offsets: its games and openings come after every earlier match's.
    let mut offsets: Vec<(String, u64, usize)> = Vec::new();
    let (mut next_game, mut next_opening) = (0u64, 0usize);
    let mut keys: Vec<String> = Vec::new();
    for (_, file) in files {
        let key = file.match_key();
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    for key in keys {
        offsets.push((key.clone(), next_game, next_opening));
        for (_, file) in files.iter().filter(|(_, f)| f.match_key() == key) {
            for g in &file.games {
                next_game = next_game.max(offsets.last().map_or(0, |o| o.1) + g.number);
                if let Some(o) = g.opening {
                    next_opening = next_opening.max(offsets.last().map_or(0, |o| o.2) + o + 1);
                }
            }
        }
    }
    let offset_of = |key: &str| {
        offsets
            .iter()
            .find(|(k, ..)| k == key)
            .map_or((0, 0), |&(_, g, o)| (g, o))
    };
    let mut seen: std::collections::HashMap<(String, u64), usize> =
        std::collections::HashMap::new();
    // For each pair of files (the earlier first), the game numbers both hold.
    let mut twice: Vec<((usize, usize), Vec<u64>)> = Vec::new();
    let mut games = Vec::new();
    for (i, (_, file)) in files.iter().enumerate() {
        let key = file.match_key();
        for g in &file.games {
            match seen.entry((key.clone(), g.number)) {
                std::collections::hash_map::Entry::Occupied(first) => {
                    let pair = (*first.get(), i);
                    match twice.iter_mut().find(|(p, _)| *p == pair) {
                        Some((_, numbers)) => numbers.push(g.number),
                        None => twice.push((pair, vec![g.number])),
                    }
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                    let (game_offset, opening_offset) = offset_of(&key);
                    let mut g = g.clone();
                    g.number += game_offset;
                    g.opening = g.opening.map(|o| o + opening_offset);
                    games.push(g);
                }
            }
        }
    }
    if twice.is_empty() {
        return Ok(games);
    }
    let shown = |numbers: &[u64]| {
        const MOST: usize = 10;
        let mut list: Vec<String> = numbers.iter().take(MOST).map(u64::to_string).collect();
        if numbers.len() > MOST {
            list.push(format!("and {} more", numbers.len() - MOST));
        }
        list.join(", ")
    };
    let lines: Vec<String> = twice
        .iter()
        .map(|&((a, b), ref numbers)| {
            let games = notation::count(numbers.len(), "game");
            let which = shown(numbers);
            if a == b {
                format!("{} holds {games} of its match twice ({which})", files[a].0)
            } else {
                format!(
                    "{} and {} hold the same {games} of one match ({which}): the same shard twice?",
                    files[a].0, files[b].0
                )
            }
        })
        .collect();
    Err(format!(
        "{}; each game counts once: merge every shard's file once",
        lines.join("; ")
    ))
}

/// The tally of a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Engine A's wins, draws and losses.
    pub a: Wdl,
    /// Games won by Black, drawn, and won by White.
    pub by_color: [u64; 3],
    /// Forfeits by engine A and by engine B.
    pub forfeits: [u64; 2],
    /// Seconds of the longest single `genmove` answer of engine A and of engine B.
    pub longest: [f64; 2],
}

impl Tally {
    /// Counts `games`.
    pub fn of(games: &[GameResult]) -> Tally {
        let mut t = Tally::default();
        for g in games {
            t.add(g);
        }
        t
    }

    /// Adds one game.
    pub fn add(&mut self, g: &GameResult) {
        match g.winner() {
            Some(Side::A) => self.a.wins += 1,
            Some(Side::B) => self.a.losses += 1,
            None => self.a.draws += 1,
        }
        match g.outcome {
            Outcome::Win(Color::Black) => self.by_color[0] += 1,
            Outcome::Draw => self.by_color[1] += 1,
            Outcome::Win(Color::White) => self.by_color[2] += 1,
        }
        if let Some(side) = g.forfeited_by() {
            self.forfeits[side.index()] += 1;
        }
        for color in [Color::Black, Color::White] {
            let side = g.side_of(color).index();
            self.longest[side] = self.longest[side].max(g.longest[color.index()]);
        }
    }
}

/// A's half points in a game: 2 for a win, 1 for a draw, 0 for a loss.
fn half_points(g: &GameResult) -> usize {
    match g.winner() {
        Some(Side::A) => 2,
        None => 1,
        Some(Side::B) => 0,
    }
}

/// The pairs of `games` that played one opening with the colours swapped, by the pentanomial model: where the
/// match used openings, the two games of an opening; otherwise games 2k-1 and 2k (as `--alternate` plays them).
/// A game whose partner is missing (not finished, or another shard's) is in no pair, nor are two games that did not
/// swap colours.
pub fn pairs(games: &[GameResult]) -> Penta {
    let mut halves: std::collections::BTreeMap<(bool, u64), Vec<&GameResult>> = Default::default();
    for g in games {
        let key = match g.opening {
            Some(o) => (true, o as u64),
            None => (false, g.number.div_ceil(2)),
        };
        halves.entry(key).or_default().push(g);
    }
    let mut p = Penta::default();
    for pair in halves.values() {
        if let [x, y] = pair.as_slice()
            && x.black != y.black
        {
            p.add(half_points(x) + half_points(y));
        }
    }
    p
}

/// Where a test would have stopped `games` replayed in the order of their numbers: the decision and the games it
/// took, by the trinomial model (after each game) and by the pentanomial one (after each whole pair), or `None`
/// where it does not decide.
pub fn replay_sprt(games: &[GameResult], test: &Sprt) -> [Option<(SprtDecision, u64)>; 2] {
    let mut sorted: Vec<&GameResult> = games.iter().collect();
    sorted.sort_by_key(|g| g.number);
    let (mut tri, mut penta) = (None, None);
    let mut wdl = Wdl::default();
    let mut seen: Vec<GameResult> = Vec::new();
    for (i, g) in sorted.iter().enumerate() {
        match g.winner() {
            Some(Side::A) => wdl.wins += 1,
            Some(Side::B) => wdl.losses += 1,
            None => wdl.draws += 1,
        }
        let n = i as u64 + 1;
        if tri.is_none() && test.decide(wdl) != SprtDecision::Continue {
            tri = Some((test.decide(wdl), n));
        }
        seen.push((*g).clone());
        if penta.is_none() {
            let d = test.decide_penta(&pairs(&seen));
            if d != SprtDecision::Continue {
                penta = Some((d, n));
            }
        }
        if tri.is_some() && penta.is_some() {
            break;
        }
    }
    [tri, penta]
}

/// The results as an aligned table, one line per game in the order given, with a header line.
pub fn format_table(games: &[GameResult]) -> String {
    let mut out = String::from(
        "  game black white result reason       moves  time-black  time-white  longest-b  longest-w  opening  \
         detail\n",
    );
    for g in games {
        let _ = writeln!(
            out,
            "{:>6} {:<5} {:<5} {:<6} {:<12} {:>5} {:>11.3} {:>11.3} {:>10.3} {:>10.3}  {:<7}  {}",
            g.number,
            g.black.letter(),
            g.black.other().letter(),
            g.outcome.code(),
            g.reason.keyword(),
            g.moves,
            g.time[0],
            g.time[1],
            g.longest[0],
            g.longest[1],
            g.opening.map_or_else(|| "-".to_string(), |o| o.to_string()),
            g.detail,
        );
    }
    out
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The summary of a match: each engine's wins, losses and draws, A's score and Elo difference with their 95%
/// intervals, the likelihood of superiority, results by colour, forfeits, and with a test, the SPRT's state. `stop`
/// is where the test stopped the match, when it did: the games in progress then, finished afterwards, are in every
/// figure, and the SPRT line gives both the decision where it was taken and the ratio over all the games.
pub fn format_summary(
    labels: &[String; 2],
    games: &[GameResult],
    sprt: Option<&Sprt>,
    stop: Option<&SprtStop>,
) -> String {
    let t = Tally::of(games);
    let b = t.a.flipped();
    let mut out = String::new();
    let _ = writeln!(out, "A: {}", labels[0]);
    let _ = writeln!(out, "B: {}", labels[1]);
    let _ = writeln!(out, "games: {}", t.a.games());
    for (name, wdl, forfeits) in [("A", t.a, t.forfeits[0]), ("B", b, t.forfeits[1])] {
        let _ = writeln!(
            out,
            "{name}: {}, {}, {} ({forfeits} lost by forfeit)",
            notation::count(wdl.wins, "win"),
            notation::count_as(wdl.losses, "loss", "losses"),
            notation::count(wdl.draws, "draw")
        );
    }
    let _ = writeln!(
        out,
        "by colour: black won {}, white won {}, {} drawn",
        t.by_color[0], t.by_color[2], t.by_color[1]
    );
    // Files of format 1 do not record it (it reads as 0, and a real answer always takes some time).
    if t.longest.iter().any(|&l| l > 0.0) {
        let _ = writeln!(
            out,
            "longest answer to genmove: A {:.3} s, B {:.3} s",
            t.longest[0], t.longest[1]
        );
    }
    match (
        t.a.score(),
        t.a.score_interval(),
        t.a.elo(),
        t.a.elo_interval(),
    ) {
        (Some(s), Some((slo, shi)), Some(elo), Some((elo_lo, elo_hi))) => {
            let _ = writeln!(
                out,
                "score of A: {s:.3} (95% interval {slo:.3} to {shi:.3})"
            );
            let _ = writeln!(
                out,
                "Elo difference A - B: {} (95% interval {} to {})",
                signed(elo),
                signed(elo_lo),
                signed(elo_hi)
            );
            let _ = writeln!(
                out,
                "likelihood of superiority of A: {:.1}%",
                100.0 * t.a.los()
            );
        }
        _ => out.push_str("score of A: no games\n"),
    }
    let p = pairs(games);
    if let (Some(s), Some((lo, hi)), Some(elo), Some((elo_lo, elo_hi))) =
        (p.score(), p.score_interval(), p.elo(), p.elo_interval())
    {
        let c = p.counts;
        let _ = writeln!(
            out,
            "pairs (an opening played twice, colours swapped): {}; A's points in them, 0 / 1/2 / 1 / 3/2 / 2: \
             {} / {} / {} / {} / {}",
            p.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
        let _ = writeln!(
            out,
            "by pairs (pentanomial): score of A {s:.3} (95% interval {lo:.3} to {hi:.3}), Elo difference {} \
             (95% interval {} to {})",
            signed(elo),
            signed(elo_lo),
            signed(elo_hi)
        );
    }
    if let Some(test) = sprt {
        let (lower, upper) = test.bounds();
        let _ = write!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {}: ",
            test.elo0, test.elo1, test.alpha, test.beta,
        );
        match stop {
            Some(stop) if stop.games != t.a.games() => {
                let later = t.a.games().saturating_sub(stop.games);
                let _ = writeln!(
                    out,
                    "{} after {}, LLR {:.3} (bounds {lower:.3} to {upper:.3}); with the {} in progress then, \
                     over all {}, LLR {:.3}",
                    stop.decision.describe(),
                    notation::count(stop.games, "game"),
                    stop.llr,
                    notation::count(later, "game"),
                    notation::count(t.a.games(), "game"),
                    test.llr(t.a)
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "LLR {:.3} (bounds {lower:.3} to {upper:.3}): {}",
                    test.llr(t.a),
                    test.decide(t.a).describe()
                );
            }
        }
        if p.pairs() > 0 {
            let _ = writeln!(
                out,
                "SPRT by pairs (pentanomial): LLR {:.3} (bounds {lower:.3} to {upper:.3}): {}",
                test.llr_penta(&p),
                test.decide_penta(&p).describe()
            );
            let when = |d: Option<(SprtDecision, u64)>| match d {
                Some((d, n)) => format!("{} after {}", short(d), notation::count(n, "game")),
                None => "no decision".to_string(),
            };
            let [tri, penta] = replay_sprt(games, test);
            let _ = writeln!(
                out,
                "SPRT replayed in the order of the games: trinomial {}, pentanomial {}",
                when(tri),
                when(penta)
            );
        }
    }
    out
}

/// H0 or H1.
fn short(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::H0 => "H0",
        SprtDecision::H1 => "H1",
        SprtDecision::Continue => "no decision",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back() {
        let g = GameResult {
            number: 12,
            black: Side::B,
            outcome: Outcome::Win(Color::White),
            reason: Reason::Time,
            detail: "black: no\tresponse\nin 1 s".into(),
            moves: 31,
            time: [1.5, 0.25],
            longest: [1.2, 0.125],
            opening: Some(5),
        };
        let line = g.to_line();
        assert_eq!(
            line,
            "12\tB\tA\tW+\ttime\t31\t1.500\t0.250\t1.200\t0.125\t5\tblack: no response in 1 s"
        );
        let back = GameResult::from_line(&line).unwrap();
        assert_eq!(back.detail, "black: no response in 1 s");
        assert_eq!(back.winner(), Some(Side::A));
        assert_eq!(back.forfeited_by(), Some(Side::B));
        assert_eq!(back.sgf_result(), "W+T");
        assert_eq!(back.longest, [1.2, 0.125]);
        // Format 1 lines, without the longest answers, still read.
        let old = GameResult::from_line("7\tA\tB\tB+\tcapture\t3\t0.5\t0.25\t-\t").unwrap();
        assert_eq!((old.time, old.longest), ([0.5, 0.25], [0.0, 0.0]));
        assert!(GameResult::from_line("1\tA\tA\tB+\tcapture\t3\t0\t0\t-\t").is_err());
        assert!(GameResult::from_line("1\tA\tB\tB+\tlucky\t3\t0\t0\t-\t").is_err());
    }

    /// Game `number`: A, as Black, captured every white stone in 9 moves.
    fn black_win(number: u64) -> GameResult {
        GameResult {
            number,
            black: Side::A,
            outcome: Outcome::Win(Color::Black),
            reason: Reason::Capture,
            detail: String::new(),
            moves: 9,
            time: [0.1, 0.1],
            longest: [0.1, 0.1],
            opening: None,
        }
    }

    /// Games A lost, numbered from 1, A always Black.
    fn losses_of_a(n: u64) -> Vec<GameResult> {
        (1..=n)
            .map(|number| GameResult {
                number,
                black: Side::A,
                outcome: Outcome::Win(Color::White),
                reason: Reason::Capture,
                detail: String::new(),
                moves: 9,
                time: [0.5, 0.5],
                longest: [0.1, 0.1],
                opening: None,
            })
            .collect()
    }

    fn sprt_line(summary: &str) -> &str {
        summary
            .lines()
            .find(|l| l.starts_with("SPRT"))
            .expect("an SPRT line")
    }

    #[test]
    fn the_sprt_line_gives_the_decision_where_the_test_stopped_and_the_ratio_over_all_games() {
        let test = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
        let labels = ["a".to_string(), "b".to_string()];
        let games = losses_of_a(6);
        let at_five = Wdl {
            wins: 0,
            draws: 0,
            losses: 5,
        };
        let stop = SprtStop {
            decision: test.decide(at_five),
            games: 5,
            llr: test.llr(at_five),
        };
        assert_eq!(stop.decision, super::super::SprtDecision::H0);
        let summary = format_summary(&labels, &games, Some(&test), Some(&stop));
        assert!(summary.contains("games: 6\n"), "{summary}");
        assert_eq!(
            sprt_line(&summary),
            format!(
                "SPRT elo0 0 elo1 200 alpha 0.05 beta 0.05: H0 accepted (the difference is at most elo0) after 5 \
                 games, LLR {:.3} (bounds -2.944 to 2.944); with the 1 game in progress then, over all 6 games, \
                 LLR {:.3}",
                stop.llr,
                test.llr(Tally::of(&games).a)
            )
        );
        // Stopped with no game in progress, or no stop at all: the state of the test over the games.
        let plain = format!(
            "SPRT elo0 0 elo1 200 alpha 0.05 beta 0.05: LLR {:.3} (bounds -2.944 to 2.944): H0 accepted (the \
             difference is at most elo0)",
            stop.llr
        );
        let five = &games[..5];
        assert_eq!(
            sprt_line(&format_summary(&labels, five, Some(&test), Some(&stop))),
            plain
        );
        assert_eq!(
            sprt_line(&format_summary(&labels, five, Some(&test), None)),
            plain
        );
    }

    #[test]
    fn seeds_do_not_make_other_engines() {
        assert_eq!(
            without_seed("oust  --seed 1 --threads 1 --seed=7 --player mcts"),
            "oust --threads 1 --player mcts"
        );
        assert_eq!(without_seed("oust --seed"), "oust");
        let labels = |a: &str, b: &str| [a.to_string(), b.to_string()];
        assert!(same_engines(
            &labels("oust --seed 1", "oust --seed=2 --player random"),
            &labels("oust --seed 3", "oust --player random --seed 4")
        ));
        assert!(!same_engines(
            &labels("oust --seed 1", "oust --threads 1"),
            &labels("oust --seed 1", "oust --threads 2")
        ));
    }

    #[test]
    fn files_read_back_with_their_labels() {
        let labels = ["oust --seed 1".to_string(), "other".to_string()];
        let g = GameResult {
            number: 1,
            black: Side::A,
            outcome: Outcome::Draw,
            reason: Reason::NoPlacement,
            detail: String::new(),
            moves: 4,
            time: [0.0, 0.0],
            longest: [0.0, 0.0],
            opening: None,
        };
        let text = format!("{}{}\n", results_header(&labels, "size 2x2"), g.to_line());
        let file = ResultsFile::parse(&text).unwrap();
        assert_eq!(file.labels, labels);
        assert_eq!(file.settings, "size 2x2");
        assert_eq!(file.games, vec![g]);
        assert!(ResultsFile::parse("hello\n").is_err());
    }

    /// Game `number`, Black being `black`, won by `winner`, of opening `opening`.
    fn game(number: u64, black: Side, winner: Color, opening: Option<usize>) -> GameResult {
        GameResult {
            black,
            outcome: Outcome::Win(winner),
            opening,
            ..black_win(number)
        }
    }

    #[test]
    fn games_pair_by_opening_or_by_number_when_they_swap_colours() {
        use Color::{Black, White};
        // Games 1-2 (A wins both), 3-4 (Black wins both: one each), 5 alone (its partner unplayed).
        let games = [
            game(1, Side::A, Black, None),
            game(2, Side::B, Black.opponent(), None),
            game(3, Side::A, Black, None),
            game(4, Side::B, Black, None),
            game(5, Side::A, White, None),
        ];
        assert_eq!(pairs(&games).counts, [0, 0, 1, 0, 1]);
        // Two games that did not swap colours are no pair.
        let same = [game(1, Side::A, Black, None), game(2, Side::A, Black, None)];
        assert_eq!(pairs(&same).pairs(), 0);
        // With openings, the opening pairs them, wherever their numbers are (shards, resumed runs).
        let opened = [
            game(7, Side::A, White, Some(3)),
            game(12, Side::B, Black, Some(3)),
            game(8, Side::B, Black, Some(4)),
        ];
        assert_eq!(pairs(&opened).counts, [1, 0, 0, 0, 0]);
        let summary = format_summary(
            &["a".into(), "b".into()],
            &games,
            Sprt::new(0.0, 50.0, 0.05, 0.05).ok().as_ref(),
            None,
        );
        assert!(
            summary.contains("pairs (an opening played twice, colours swapped): 2; A's points in them, 0 / 1/2 / 1 / 3/2 / 2: 0 / 0 / 1 / 0 / 1\n"),
            "{summary}"
        );
        assert!(
            summary.contains("\nSPRT by pairs (pentanomial): LLR "),
            "{summary}"
        );
    }

    #[test]
    fn a_replayed_test_stops_where_each_model_decides() {
        use Color::Black;
        // Black wins every game: each opening's pair splits, the two engines are even, and H0 (Elo 0) holds. The
        // pairs show it sooner than the games do.
        let games: Vec<GameResult> = (1..=400)
            .map(|n| game(n, if n % 2 == 1 { Side::A } else { Side::B }, Black, None))
            .collect();
        let test = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let [tri, penta] = replay_sprt(&games, &test);
        let (tri, penta) = (tri.unwrap(), penta.unwrap());
        assert_eq!((tri.0, penta.0), (SprtDecision::H0, SprtDecision::H0));
        assert!(
            penta.1 < tri.1,
            "pentanomial after {} games, trinomial after {}",
            penta.1,
            tri.1
        );
    }

    #[test]
    fn one_win_is_one_win_and_one_loss_one_loss() {
        let labels = ["a".to_string(), "b".to_string()];
        let game = black_win(1);
        let summary = format_summary(&labels, &[game], None, None);
        assert!(
            summary.contains("\nA: 1 win, 0 losses, 0 draws (0 lost by forfeit)\n"),
            "{summary}"
        );
        assert!(
            summary.contains("\nB: 0 wins, 1 loss, 0 draws (0 lost by forfeit)\n"),
            "{summary}"
        );
    }

    #[test]
    fn a_merge_counts_every_game_once_and_names_what_it_finds_twice() {
        let labels = ["oust --seed 1".to_string(), "other".to_string()];
        let game = black_win;
        let file = |settings: &str, numbers: std::ops::RangeInclusive<u64>| ResultsFile {
            labels: labels.clone(),
            settings: settings.to_string(),
            games: numbers.map(game).collect(),
        };
        let shard1 = (
            "s1.tsv".to_string(),
            file("size 7x7, games 4, seed 7", 1..=4),
        );
        let shard2 = (
            "s2.tsv".to_string(),
            file("size 7x7, games 4, seed 7, games 5 to 8", 5..=8),
        );
        // Two shards of one match: all 8 games.
        let merged = merge_results(&[shard1.clone(), shard2.clone()]).unwrap();
        assert_eq!(merged.len(), 8);
        // Another match (another seed) may number its games the same.
        let other = (
            "other.tsv".to_string(),
            file("size 7x7, games 4, seed 8", 1..=4),
        );
        let two = merge_results(&[shard1.clone(), other]).unwrap();
        assert_eq!(two.len(), 8);
        // ... numbered on after the first match's, so that their pairs of games stay apart.
        let numbers: Vec<u64> = two.iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8]);
        let opened = |seed: u64| {
            let mut f = file(&format!("size 7x7, games 4, seed {seed}"), 1..=4);
            for g in &mut f.games {
                g.opening = Some(((g.number - 1) / 2) as usize);
                g.black = if g.number % 2 == 1 { Side::A } else { Side::B };
            }
            (format!("seed-{seed}.tsv"), f)
        };
        let both = merge_results(&[opened(1), opened(2)]).unwrap();
        assert_eq!(pairs(&both).pairs(), 4);
        let openings: Vec<Option<usize>> = both.iter().map(|g| g.opening).collect();
        assert_eq!(
            openings,
            [
                Some(0),
                Some(0),
                Some(1),
                Some(1),
                Some(2),
                Some(2),
                Some(3),
                Some(3)
            ]
        );
        // The same shard twice (a copy, or a rerun), and a file that holds a game twice.
        let copy = ("copy.tsv".to_string(), shard1.1.clone());
        assert_eq!(
            merge_results(&[shard1.clone(), shard2.clone(), copy]).unwrap_err(),
            "s1.tsv and copy.tsv hold the same 4 games of one match (1, 2, 3, 4): the same shard twice?; each game \
             counts once: merge every shard's file once"
        );
        let mut doubled = shard2.clone();
        doubled.1.games.push(game(6));
        assert_eq!(
            merge_results(&[doubled]).unwrap_err(),
            "s2.tsv holds 1 game of its match twice (6); each game counts once: merge every shard's file once"
        );
    }
}
