//! The match runner: schedules games on worker threads (each with its own pair of engine processes), writes each
//! finished game's results line and SGF at once, shows progress on stderr, and stops early on an SPRT decision or
//! an interrupt.

use std::fs::{self, File};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use crate::notation;
use crate::rules::{Game, Geometry, Move, Shape};
use crate::sgf::{self, GameInfo};

use super::clock::{TimeControl, seconds};
use super::engine::{EngineProcess, Failure, shorten};
use super::openings::{opening_solver, parse_openings, undecided_opening};
use super::referee::{GameSpec, Played, QUIT_WAIT, Seat, play_game};
use super::results::{GameResult, Reason, ResultsFile, Side, Tally, results_header};
use super::stats::{Sprt, SprtDecision, SprtStop};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game starts from the empty board.
    None,
    /// One opening a line of this file (see [`super::parse_openings`]).
    File(PathBuf),
    /// This many random legal placements, from the match seed.
    Random(usize),
}

/// How progress is shown on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Not at all.
    Off,
    /// The engines and settings at the start, one line per finished game, and a line on the games in progress
    /// when nothing was printed for [`PLAYING_EVERY_LINES`].
    Lines,
    /// The engines and settings at the start, then one line, rewritten after each game and every
    /// [`PLAYING_EVERY_TERMINAL`] with the games in progress (for a terminal).
    Overwrite,
}

/// Without a terminal, the longest silence before a line on the games in progress.
pub const PLAYING_EVERY_LINES: Duration = Duration::from_secs(10);
/// On a terminal, how often the progress line shows the games in progress.
pub const PLAYING_EVERY_TERMINAL: Duration = Duration::from_secs(1);

impl Progress {
    /// `Overwrite` when stderr is a terminal, `Lines` otherwise.
    pub fn for_stderr() -> Progress {
        if io::stderr().is_terminal() {
            Progress::Overwrite
        } else {
            Progress::Lines
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The shell commands of engines A (Black in the first game) and B.
    pub commands: [String; 2],
    /// Games to play.
    pub games: u64,
    /// The board.
    pub board: Shape,
    /// Swap colours every game (always done with openings).
    pub alternate: bool,
    /// The openings.
    pub openings: OpeningSource,
    /// The number of the first opening used (for shards of one match).
    pub opening_offset: usize,
    /// The match's number of the first game played (0 for the first): a shard of a longer match starts further
    /// on. Game numbers, colours and openings continue as in the whole match (it must be even when openings are
    /// used, so that an opening's two games stay together).
    pub first_game: u64,
    /// Start each engine anew for every game, so that with deterministic engines a game depends only on the
    /// engines' commands, its opening and its colours, not on the games an engine process played before.
    pub fresh_engines: bool,
    /// Clock, limits and waits.
    pub time: TimeControl,
    /// Moves after which a game is adjudicated a draw.
    pub max_moves: Option<usize>,
    /// Games played at once.
    pub concurrency: usize,
    /// Where each game's SGF goes.
    pub sgf_dir: Option<PathBuf>,
    /// The results file.
    pub results: Option<PathBuf>,
    /// Where engines' stderr goes, one file per engine and game.
    pub log_dir: Option<PathBuf>,
    /// Replace an existing results file and delete the game files (`game-*.sgf`, `game-*.log`) of an earlier
    /// match in the output directories; without it, a match refuses to start when it finds them.
    pub overwrite: bool,
    /// Go on with the match of the results file (`--resume`): the games it holds are kept and counted, and only
    /// the missing ones are played, with the game numbers, colours and openings of an uninterrupted run.
    pub resume: bool,
    /// Adjudication by the solver: its time a position (`--adjudicate solver=SECONDS`).
    pub adjudicate: Option<Duration>,
    /// A sequential test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Seed of the random openings.
    pub seed: u64,
    /// The progress display.
    pub progress: Progress,
    /// The pie rule (RULES.md rule 9): engines are told with `oust-set-param pie on`; after a swap they exchange
    /// colours for the rest of the game, and results and records credit the colours as they are at the end.
    pub pie: bool,
}

impl MatchConfig {
    /// A match of `games` games between two commands on a 9x9 board, with defaults for the rest.
    pub fn new(black: &str, white: &str, games: u64) -> MatchConfig {
        MatchConfig {
            commands: [black.to_string(), white.to_string()],
            games,
            board: Shape::square(9),
            alternate: false,
            openings: OpeningSource::None,
            opening_offset: 0,
            first_game: 0,
            fresh_engines: false,
            time: TimeControl::new(None, None, 0.2, 30.0),
            max_moves: None,
            concurrency: 1,
            sgf_dir: None,
            results: None,
            log_dir: None,
            overwrite: false,
            resume: false,
            adjudicate: None,
            sprt: None,
            seed: 1,
            progress: Progress::Off,
            pie: false,
        }
    }

    /// The settings in one line, for the results file.
    pub fn describe(&self) -> String {
        let mut parts = vec![
            format!("size {}", self.board),
            format!("games {}", self.games),
            format!("seed {}", self.seed),
        ];
        if self.alternate {
            parts.push("alternate".into());
        }
        if self.pie {
            parts.push("pie".into());
        }
        match &self.openings {
            OpeningSource::None => {}
            OpeningSource::File(p) => parts.push(format!("openings {}", p.display())),
            OpeningSource::Random(k) => parts.push(format!("random-openings {k}")),
        }
        if self.opening_offset > 0 {
            parts.push(format!("opening-offset {}", self.opening_offset));
        }
        if self.first_game > 0 {
            parts.push(format!(
                "games {} to {}",
                self.first_game + 1,
                self.first_game + self.games
            ));
        }
        if self.fresh_engines {
            parts.push("fresh-engines".into());
        }
        if let Some(c) = self.time.clock {
            parts.push(c.command());
        }
        if let Some(s) = self.time.per_move {
            parts.push(format!("time-per-move {s}"));
        }
        if let Some(m) = self.max_moves {
            parts.push(format!("max-moves {m}"));
        }
        if let Some(d) = self.adjudicate {
            parts.push(format!("adjudicate solver={}", d.as_secs_f64()));
        }
        parts.join(", ")
    }

    /// The clock in words, for the start line.
    fn clock_text(&self) -> String {
        let t = &self.time;
        let grace = format!("{} s grace", seconds(t.grace));
        match (t.clock, t.per_move) {
            (Some(c), Some(s)) if c.main == 0.0 && c.byo_time == s && c.byo_stones == 1 => {
                format!("{} s a move ({}, {grace})", seconds(s), c.command())
            }
            (Some(c), Some(s)) => {
                format!(
                    "clock {}, at most {} s a move, {grace}",
                    c.command(),
                    seconds(s)
                )
            }
            (Some(c), None) if c.unlimited() => format!("{} (no time limit)", c.command()),
            (Some(c), None) => format!("clock {}, {grace}", c.command()),
            (None, _) => format!("no clock (at most {} s a response)", seconds(t.timeout)),
        }
    }
}

/// What a match did.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The commands of engines A and B.
    pub labels: [String; 2],
    /// What the engines call themselves (`name` and `version`).
    pub names: [String; 2],
    /// The finished games, by number.
    pub results: Vec<GameResult>,
    /// True when an interrupt stopped the match.
    pub interrupted: bool,
    /// Where the SPRT stopped the match, when it did.
    pub sprt_stop: Option<SprtStop>,
}

/// What one worker is playing, for the progress display.
#[derive(Default)]
struct Playing {
    /// The game's number, 0 between games.
    game: AtomicU64,
    /// Moves played in it so far.
    moves: AtomicUsize,
}

/// The engines of a run and who plays whom: a match is one pairing of two engines, a tournament several. Each
/// pairing plays the games a match of the configuration would (its openings, its colours); the games of the
/// pairings are interleaved by opening pair, so that a run stopped early has played every pairing about as often.
pub(super) struct Field {
    /// The engines' shell commands.
    pub commands: Vec<String>,
    /// The pairings: indices into `commands`, engine A first.
    pub pairings: Vec<[usize; 2]>,
    /// The engines' names in a tournament (its results file's black and white columns, the progress lines and
    /// the records); `None` for a match, whose engines are A and B.
    pub names: Option<Vec<String>>,
}

/// Where a game of the run stands: its pairing and its index in that pairing's games (its match index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    /// The pairing, an index into [`Field::pairings`].
    pub pairing: usize,
    /// The game's index among its pairing's games, from 0: its colours and opening are those of this game of a
    /// match.
    pub index: u64,
}

impl Field {
    /// The pairing and index of the game of run index `g` (the game's number less 1): the games go by opening
    /// pair, each pair of games through every pairing in turn.
    pub fn slot(&self, g: u64) -> Slot {
        let p = self.pairings.len() as u64;
        Slot {
            pairing: ((g % (2 * p)) / 2) as usize,
            index: (g / (2 * p)) * 2 + g % 2,
        }
    }

    /// What engine `side` of `pairing` is called in messages: `engine A` in a match, its name in a tournament.
    pub fn called(&self, pairing: usize, side: Side) -> String {
        match &self.names {
            Some(names) => names[self.pairings[pairing][side.index()]].clone(),
            None => format!("engine {}", side.letter()),
        }
    }

    /// The results file's line of `result`, a game of `pairing`: in a tournament the black and white columns
    /// hold the engines' names.
    pub fn line(&self, pairing: usize, result: &GameResult) -> String {
        let line = result.to_line();
        let Some(names) = &self.names else {
            return line;
        };
        let mut fields: Vec<String> = line.split('\t').map(str::to_string).collect();
        let pair = self.pairings[pairing];
        fields[1] = names[pair[result.black.index()]].clone();
        fields[2] = names[pair[result.black.other().index()]].clone();
        fields.join("\t")
    }
}

/// Shared between the coordinator and the workers.
struct Shared<'a> {
    config: &'a MatchConfig,
    field: &'a Field,
    geometry: Arc<Geometry>,
    openings: Vec<(usize, Vec<Move>)>,
    next: AtomicU64,
    /// Start no new game (the SPRT decided, or the user asked to finish the games in progress).
    drain: AtomicBool,
    /// Set by the first Ctrl-C: start no new game.
    finish: &'a AtomicBool,
    interrupt: &'a AtomicBool,
    /// One entry per worker.
    playing: Vec<Playing>,
    /// The numbers of the games a resumed match already holds: not played again.
    done: std::collections::HashSet<u64>,
}

impl Shared<'_> {
    fn black(&self, index: u64) -> Side {
        let swap = self.config.alternate || !self.openings.is_empty();
        if swap && index % 2 == 1 {
            Side::B
        } else {
            Side::A
        }
    }

    fn opening(&self, index: u64) -> Option<(usize, &[Move])> {
        if self.openings.is_empty() {
            return None;
        }
        let local = index - self.config.first_game;
        let (number, moves) = &self.openings[(local / 2) as usize % self.openings.len()];
        Some((*number, moves.as_slice()))
    }
}

/// Runs a match. `interrupt` (set by a signal handler) stops it: games in progress are abandoned, written to SGF
/// without a result, and not counted; everything finished is already on disk.
///
/// # Errors
/// A message for settings that cannot work: a bad board size or openings file, an output that cannot be
/// created, outputs of an earlier match without [`MatchConfig::overwrite`], or an engine that does not start and
/// answer `name`.
pub fn run(config: &MatchConfig, interrupt: &AtomicBool) -> Result<MatchReport, String> {
    run_until(config, &AtomicBool::new(false), interrupt)
}

/// [`run`], and `finish` (the first Ctrl-C) starts no new game but plays the games in progress to their end:
/// the report then says interrupted, with those games counted.
///
/// # Errors
/// As [`run`].
pub fn run_until(
    config: &MatchConfig,
    finish: &AtomicBool,
    interrupt: &AtomicBool,
) -> Result<MatchReport, String> {
    let earlier = if config.resume {
        resumed_games(config)?
    } else {
        clear_old_outputs(config)?;
        Vec::new()
    };
    let field = Field {
        commands: config.commands.to_vec(),
        pairings: vec![[0, 1]],
        names: None,
    };
    let header = results_header(&config.commands, &config.describe());
    let run = play(config, &field, &header, earlier, finish, interrupt)?;
    let [a, b]: [String; 2] = run
        .names
        .try_into()
        .unwrap_or_else(|_| [String::new(), String::new()]);
    Ok(MatchReport {
        labels: config.commands.clone(),
        names: [a, b],
        results: run.results,
        interrupted: run.interrupted,
        sprt_stop: run.sprt_stop,
    })
}

/// What [`play`] did.
pub(super) struct Run {
    /// What each engine calls itself (`name` and `version`), in the order of [`Field::commands`]; empty when the
    /// run was interrupted while starting them.
    pub names: Vec<String>,
    /// The finished games, by number.
    pub results: Vec<GameResult>,
    /// True when an interrupt (or the first Ctrl-C) stopped the run.
    pub interrupted: bool,
    /// Where the SPRT stopped a match, when it did.
    pub sprt_stop: Option<SprtStop>,
}

/// Plays the games of `field` under `config` (its games are each pairing's), keeping the `earlier` games of a
/// resumed run, and writes the results file (`header`, then a line a game) and the records as games end.
pub(super) fn play(
    config: &MatchConfig,
    field: &Field,
    header: &str,
    earlier: Vec<GameResult>,
    finish: &AtomicBool,
    interrupt: &AtomicBool,
) -> Result<Run, String> {
    let geometry = Arc::new(Geometry::new(config.board).map_err(|e| e.to_string())?);
    let (openings, draws) = load_openings(config, &geometry)?;
    let mut names = Vec::with_capacity(field.commands.len());
    for (i, command) in field.commands.iter().enumerate() {
        let called = match &field.names {
            Some(n) => n[i].clone(),
            None => ["A", "B"][i.min(1)].to_string(),
        };
        match probe(&called, command, config.time.command_limit(), interrupt) {
            Ok(name) => names.push(name),
            Err(_) if interrupt.load(Ordering::SeqCst) => {
                return Ok(Run {
                    names: Vec::new(),
                    results: Vec::new(),
                    interrupted: true,
                    sprt_stop: None,
                });
            }
            Err(e) => return Err(format!("engine {called} ({command}) {e}")),
        }
        log::info!("engine {called}: {} ({command})", names[i]);
    }
    // Only now, so that an engine that does not start leaves no results file to refuse next time.
    for dir in [&config.sgf_dir, &config.log_dir].into_iter().flatten() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let pairing_of = |number: u64| field.slot(number - 1).pairing;
    let mut results_file = match &config.results {
        Some(path) => {
            // A resumed file is written again whole, its games first: a line cut short by a kill is gone.
            let mut text = header.to_string();
            for g in &earlier {
                text.push_str(&field.line(pairing_of(g.number), g));
                text.push('\n');
            }
            let mut f =
                File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            f.write_all(text.as_bytes())
                .and_then(|()| f.flush())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            Some(f)
        }
        None => None,
    };

    let total = config.games * field.pairings.len() as u64;
    let workers = config.concurrency.max(1).min(total.max(1) as usize);
    let shared = Shared {
        config,
        field,
        geometry,
        openings,
        next: AtomicU64::new(0),
        drain: AtomicBool::new(false),
        finish,
        interrupt,
        playing: (0..workers).map(|_| Playing::default()).collect(),
        done: earlier.iter().map(|g| g.number).collect(),
    };
    let mut tallies = vec![Tally::default(); field.pairings.len()];
    for g in &earlier {
        tallies[pairing_of(g.number)].add(g);
    }
    let mut results: Vec<GameResult> = earlier;
    let mut decision = None;
    // A resumed match its test has decided already plays no more.
    if let Some(test) = &config.sprt
        && !results.is_empty()
        && test.decide(tallies[0].a) != SprtDecision::Continue
    {
        let d = test.decide(tallies[0].a);
        decision = Some(SprtStop {
            decision: d,
            games: tallies[0].a.games(),
            llr: test.llr(tallies[0].a),
        });
        shared.drain.store(true, Ordering::SeqCst);
    }
    let mut display = Display::new(config, field, total, results.len() as u64);
    display.start(&names, workers, draws);
    let mut finishing = false;
    let (tx, rx) = mpsc::channel::<Message>();
    thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|slot| {
                let tx = tx.clone();
                let shared = &shared;
                scope.spawn(move || worker(shared, slot, tx))
            })
            .collect();
        drop(tx);
        loop {
            if !finishing && finish.load(Ordering::SeqCst) {
                finishing = true;
                display.note(
                    "finishing the games in progress, then stopping; Ctrl-C again to stop at once",
                );
            }
            let (index, black, played, ack) = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => {
                    display.playing(&shared.playing, results.len() as u64);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let pairing = pairing_of(index + 1);
            match played {
                Played::Finished(result, game) => {
                    if let Some(f) = results_file.as_mut()
                        && let Err(e) =
                            writeln!(f, "{}", field.line(pairing, &result)).and_then(|()| f.flush())
                    {
                        log::error!("cannot write the results file: {e}");
                    }
                    write_sgf(config, field, &names, index, black, &game, Some(&result));
                    let tally = &mut tallies[pairing];
                    tally.add(&result);
                    results.push(result);
                    if let Some(test) = &config.sprt
                        && decision.is_none()
                    {
                        let d = test.decide(tally.a);
                        if d != SprtDecision::Continue {
                            decision = Some(SprtStop {
                                decision: d,
                                games: tally.a.games(),
                                llr: test.llr(tally.a),
                            });
                            shared.drain.store(true, Ordering::SeqCst);
                            log::info!("SPRT: {}; finishing the games in progress", d.describe());
                        }
                    }
                    display.finished(pairing, &tallies[pairing], results.len() as u64);
                }
                Played::Interrupted(game) => {
                    write_sgf(config, field, &names, index, black, &game, None);
                }
            }
            // The worker may start its next game only now, once a decision this result brought is known.
            let _ = ack.send(());
        }
        // Joined, not only waited for: the scope ends once the workers' closures have returned, when their
        // threads may still be running, and the match must leave no thread behind. A worker's panic goes on.
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    display.end();
    results.sort_by_key(|r| r.number);
    let stopped = interrupt.load(Ordering::SeqCst) || finish.load(Ordering::SeqCst);
    Ok(Run {
        names,
        interrupted: stopped && (results.len() as u64) < total,
        results,
        sprt_stop: decision,
    })
}

/// The files of an earlier match's games in `dir` (`game-*.EXT`), sorted; none when `dir` does not exist.
fn old_game_files(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_file()
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("game-") && n.ends_with(&format!(".{ext}")))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The games of the results file a match resumes: its whole lines (a last line cut short by a kill is dropped,
/// and that game played again), after checking that the file is this match's: the same engines' commands and the
/// same settings, or a message naming what differs.
fn resumed_games(config: &MatchConfig) -> Result<Vec<GameResult>, String> {
    let Some(path) = &config.results else {
        return Err("--resume needs the --results file of the match to go on with".into());
    };
    let text = fs::read_to_string(path)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let whole = whole_lines(path, &text);
    let file = ResultsFile::parse(whole)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let mut differ = Vec::new();
    for (i, side) in ["A", "B"].into_iter().enumerate() {
        if file.labels[i] != config.commands[i] {
            differ.push(format!(
                "engine {side} is '{}' there, '{}' here",
                file.labels[i], config.commands[i]
            ));
        }
    }
    differ.extend(settings_differ(&file.settings, &config.describe()));
    if !differ.is_empty() {
        return Err(format!(
            "{} is the results file of another match: {}",
            path.display(),
            differ.join("; ")
        ));
    }
    let range = config.first_game + 1..=config.first_game + config.games;
    check_numbers(path, &file.games, range, "match")?;
    log::info!(
        "resuming {}: {} of {} played",
        path.display(),
        file.games.len(),
        crate::notation::count(config.games, "game")
    );
    Ok(file.games)
}

/// What the settings line of a results file (`theirs`) has that this run's (`ours`) has not, and the other way
/// round, in words; `None` when they are the same settings.
pub(super) fn settings_differ(theirs: &str, ours: &str) -> Option<String> {
    let theirs: Vec<&str> = theirs.split(", ").collect();
    let ours: Vec<&str> = ours.split(", ").collect();
    let only = |a: &[&str], b: &[&str]| -> Vec<String> {
        a.iter()
            .filter(|x| !b.contains(x))
            .map(|x| x.to_string())
            .collect()
    };
    let (there, here) = (only(&theirs, &ours), only(&ours, &theirs));
    if there.is_empty() && here.is_empty() {
        return None;
    }
    let words = |v: Vec<String>| {
        if v.is_empty() {
            "nothing".to_string()
        } else {
            v.join(", ")
        }
    };
    Some(format!(
        "its settings have {} where this run has {}",
        words(there),
        words(here)
    ))
}

/// The whole lines of a results file being resumed: a last line cut short by a kill is dropped (its game is played
/// again).
pub(super) fn whole_lines<'t>(path: &Path, text: &'t str) -> &'t str {
    match text.rfind('\n') {
        Some(end) if end + 1 < text.len() => {
            log::warn!(
                "{}: its last line was cut short; that game is played again",
                path.display()
            );
            &text[..=end]
        }
        _ => text,
    }
}

/// Refuses a resumed results file that holds a game outside `range` or one game twice: not a file this `what`
/// (match or tournament) wrote.
pub(super) fn check_numbers(
    path: &Path,
    games: &[GameResult],
    range: std::ops::RangeInclusive<u64>,
    what: &str,
) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for g in games {
        if !range.contains(&g.number) || !seen.insert(g.number) {
            return Err(format!(
                "{} holds game {} {}: it is not a file this {what} wrote",
                path.display(),
                g.number,
                if range.contains(&g.number) {
                    "twice".to_string()
                } else {
                    format!("outside this {what}'s games")
                }
            ));
        }
    }
    Ok(())
}

/// Refuses to mix this match's outputs with an earlier match's: an existing results file, or game records or
/// logs in the output directories. With `overwrite`, deletes the old game files instead and says so; the
/// results file is then replaced when the match starts.
pub(super) fn clear_old_outputs(config: &MatchConfig) -> Result<(), String> {
    if let Some(path) = &config.results
        && path.exists()
    {
        if !config.overwrite {
            return Err(format!(
                "{} already exists; give another --results, or --overwrite to replace it",
                path.display()
            ));
        }
        log::warn!("--overwrite: replacing {}", path.display());
    }
    let dirs = [
        (&config.sgf_dir, "sgf", "--sgf-dir", "game records"),
        (&config.log_dir, "log", "--log-dir", "engine logs"),
    ];
    for (dir, ext, flag, what) in dirs {
        let Some(dir) = dir else { continue };
        let old = old_game_files(dir, ext)?;
        if old.is_empty() {
            continue;
        }
        if !config.overwrite {
            return Err(format!(
                "{} already has {} {what} (game-*.{ext}) of an earlier match; give another {flag}, or \
                 --overwrite to delete them",
                dir.display(),
                old.len()
            ));
        }
        for path in &old {
            fs::remove_file(path).map_err(|e| format!("cannot delete {}: {e}", path.display()))?;
        }
        log::warn!(
            "--overwrite: deleted {} {what} (game-*.{ext}) of an earlier match from {}",
            old.len(),
            dir.display()
        );
    }
    Ok(())
}

/// The number of the first opening a run uses: `--opening-offset`, plus the openings of the games before a shard's
/// first.
fn first_opening(config: &MatchConfig) -> usize {
    config.opening_offset + (config.first_game / 2) as usize
}

/// A match's openings, each with its number.
type Openings = Vec<(usize, Vec<Move>)>;

/// What drawing a match's random openings rejected.
#[derive(Clone, Copy, Debug, Default)]
struct OpeningDraws {
    /// Openings drawn and drawn again because the solver proved their result.
    rejected: usize,
    /// Openings kept although decided: every draw for them was (a board the solver settles at once).
    kept_decided: usize,
}

fn load_openings(
    config: &MatchConfig,
    geometry: &Arc<Geometry>,
) -> Result<(Openings, OpeningDraws), String> {
    match &config.openings {
        OpeningSource::None => Ok((Vec::new(), OpeningDraws::default())),
        OpeningSource::File(path) => {
            let text = fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let all =
                parse_openings(&text, geometry).map_err(|e| format!("{}: {e}", path.display()))?;
            let n = all.len();
            let mut list: Vec<(usize, Vec<Move>)> = all.into_iter().enumerate().collect();
            list.rotate_left(first_opening(config) % n);
            Ok((list, OpeningDraws::default()))
        }
        OpeningSource::Random(k) => {
            let count = config.games.div_ceil(2).max(1) as usize;
            let first = first_opening(config);
            let mut solver = opening_solver();
            let mut draws = OpeningDraws::default();
            let mut list = Vec::with_capacity(count);
            for i in first..first + count {
                let drawn = undecided_opening(geometry, *k, config.seed, i, &mut solver)?;
                draws.rejected += drawn.rejected;
                draws.kept_decided += usize::from(drawn.decided);
                list.push((i, drawn.moves));
            }
            log::info!(
                "random openings: {count} used, {} rejected as decided, {} kept decided",
                draws.rejected,
                draws.kept_decided
            );
            Ok((list, draws))
        }
    }
}

/// Starts `command` (engine `side`), asks `name` and `version`, and quits it.
fn probe(
    side: &str,
    command: &str,
    limit: Duration,
    interrupt: &AtomicBool,
) -> Result<String, String> {
    let mut engine =
        EngineProcess::spawn(command).map_err(|e| format!("could not be started: {e}"))?;
    engine.set_label(format!("engine {side} (start-up)"));
    let name = engine.command("name", limit, interrupt).map_err(|f| {
        let tail = engine.stderr_tail();
        match f {
            // An engine that closed its output has said so with its stderr already.
            Failure::Timeout(_) | Failure::Malformed(_) if !tail.is_empty() => {
                format!("did not answer 'name': {f}; its stderr so far: {tail}")
            }
            _ => format!("did not answer 'name': {f}"),
        }
    })?;
    let name = if name.ok {
        shorten(name.text.lines().next().unwrap_or(""))
    } else {
        "?".to_string()
    };
    let version = match engine.command("version", limit, interrupt) {
        Ok(r) if r.ok && !r.text.is_empty() => format!(" {}", shorten(&r.text)),
        _ => String::new(),
    };
    engine.quit(QUIT_WAIT);
    Ok(format!("{name}{version}"))
}

/// A finished or interrupted game, sent by a worker to the main thread, with the channel on which the main thread
/// acknowledges it once it has recorded it (and checked the SPRT).
type Message = (u64, Side, Played, SyncSender<()>);

fn worker(shared: &Shared<'_>, slot: usize, tx: Sender<Message>) {
    let (ack_tx, ack_rx) = mpsc::sync_channel::<()>(1);
    let config = shared.config;
    let field = shared.field;
    let total = config.games * field.pairings.len() as u64;
    // The seats of the pairing this worker played last: its engines are kept from game to game.
    let mut seated: Option<usize> = None;
    let mut seats = [Seat::new(Side::A, ""), Seat::new(Side::B, "")];
    let politely = |shared: &Shared<'_>| !shared.interrupt.load(Ordering::SeqCst);
    loop {
        let stopping = [shared.interrupt, shared.finish, &shared.drain];
        if stopping.iter().any(|flag| flag.load(Ordering::SeqCst)) {
            break;
        }
        let local = shared.next.fetch_add(1, Ordering::SeqCst);
        if local >= total {
            break;
        }
        // The game's index in the whole run (for a shard of a match, further on).
        let g = config.first_game + local;
        if shared.done.contains(&(g + 1)) {
            continue;
        }
        let at = field.slot(g);
        if seated != Some(at.pairing) {
            for seat in &mut seats {
                seat.shut_down(politely(shared));
            }
            let [a, b] = field.pairings[at.pairing];
            seats = [
                Seat::new(Side::A, &field.commands[a]),
                Seat::new(Side::B, &field.commands[b]),
            ];
            seated = Some(at.pairing);
        }
        let spec = GameSpec {
            number: g + 1,
            geometry: shared.geometry.clone(),
            black: shared.black(at.index),
            opening: shared.opening(at.index),
            time: config.time,
            max_moves: config.max_moves,
            log_dir: config.log_dir.clone(),
            moves_played: Some(&shared.playing[slot].moves),
            pie: config.pie,
            adjudicate: config.adjudicate,
        };
        let playing = &shared.playing[slot];
        playing.moves.store(0, Ordering::Relaxed);
        playing.game.store(spec.number, Ordering::Relaxed);
        let played = play_game(&mut seats, &spec, shared.interrupt);
        playing.game.store(0, Ordering::Relaxed);
        if config.fresh_engines {
            for seat in &mut seats {
                seat.shut_down(true);
            }
        }
        if tx.send((g, spec.black, played, ack_tx.clone())).is_err() || ack_rx.recv().is_err() {
            break;
        }
    }
    for seat in &mut seats {
        seat.shut_down(politely(shared));
    }
}

fn sgf_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("game-{number:04}.sgf"))
}

fn write_sgf(
    config: &MatchConfig,
    field: &Field,
    names: &[String],
    index: u64,
    black: Side,
    game: &Game,
    result: Option<&GameResult>,
) {
    let Some(dir) = &config.sgf_dir else {
        return;
    };
    let number = index + 1;
    let pairing = field.slot(index).pairing;
    let engine = |side: Side| field.pairings[pairing][side.index()];
    // After a swap the engines exchanged colours: PB and PW name the colours' owners at the end, as RE does.
    let started_black = black;
    let swapped = game.records().iter().any(|r| r.mv == Move::Swap);
    let black = if swapped { black.other() } else { black };
    let label = |side: Side| {
        let (name, command) = (&names[engine(side)], &field.commands[engine(side)]);
        match &field.names {
            Some(called) => format!("{}: {name} ({command})", called[engine(side)]),
            None => format!("{name} ({command})"),
        }
    };
    let called = |side: Side| field.called(pairing, side);
    let what = if field.names.is_some() {
        "oust tournament"
    } else {
        "oust match"
    };
    let mut comment = format!(
        "{what}, game {number}: black is {}, white is {}.",
        called(black),
        called(black.other())
    );
    if swapped {
        let mut first = called(started_black);
        if field.names.is_none() {
            // "Engine A", at the start of a sentence.
            first = first.replacen('e', "E", 1);
        }
        comment.push_str(&format!(
            " {first} placed the first black stone; {} swapped (pie rule) and took it over.",
            called(black)
        ));
    }
    match result {
        Some(r) if !r.detail.is_empty() => {
            comment.push_str(&format!(
                " {} ({}): {}",
                r.sgf_result(),
                r.reason.keyword(),
                r.detail
            ));
        }
        Some(r) => comment.push_str(&format!(" {} ({})", r.sgf_result(), r.reason.keyword())),
        None => comment.push_str(" The match was interrupted during this game: no result."),
    }
    let info = GameInfo {
        black: Some(label(black)),
        white: Some(label(black.other())),
        result: result.map(GameResult::sgf_result),
        comment: Some(comment),
        date: None,
        // An adjudicated game says so, and where: `sgf-check` then accepts its result on an unfinished board.
        node_properties: result
            .filter(|r| r.reason == Reason::Solver)
            .map(|r| format!("{}[solver {}]", sgf::ADJUDICATION_PROPERTY, r.moves))
            .into_iter()
            .collect(),
    };
    let path = sgf_path(dir, number);
    if let Err(e) = fs::write(&path, sgf::write(game, &info)) {
        log::error!("cannot write {}: {e}", path.display());
    }
}

fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

/// The progress display on stderr: the start lines, a line per finished game, and the games in progress.
struct Display<'a> {
    config: &'a MatchConfig,
    field: &'a Field,
    /// The run's games, every pairing's.
    total: u64,
    /// Games a resumed run held at its start (not counted for the time left).
    held: u64,
    started: Instant,
    /// When a line was last written.
    shown: Instant,
    /// The line of the last finished game (empty before the first).
    finished: String,
    /// A terminal line is open (written without its newline).
    open: bool,
}

impl<'a> Display<'a> {
    fn new(config: &'a MatchConfig, field: &'a Field, total: u64, held: u64) -> Display<'a> {
        let now = Instant::now();
        Display {
            config,
            field,
            total,
            held,
            started: now,
            shown: now,
            finished: String::new(),
            open: false,
        }
    }

    fn write(&mut self, line: &str) {
        let mut err = io::stderr().lock();
        let _ = match self.config.progress {
            Progress::Off => return,
            Progress::Overwrite => write!(err, "\r{line}\x1b[K"),
            Progress::Lines => writeln!(err, "{line}"),
        };
        let _ = err.flush();
        self.open = self.config.progress == Progress::Overwrite;
        self.shown = Instant::now();
    }

    /// A line of its own, whatever the progress display (a terminal's open line is ended first).
    fn note(&mut self, text: &str) {
        if self.config.progress == Progress::Off {
            return;
        }
        self.end();
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{text}").and_then(|()| err.flush());
        self.shown = Instant::now();
    }

    /// The engines, the games, the board, the clock and the concurrency: two lines for a match, a line an engine
    /// and one for the games for a tournament.
    fn start(&mut self, names: &[String], workers: usize, draws: OpeningDraws) {
        let c = self.config;
        if c.progress == Progress::Off {
            return;
        }
        let mut games = format!("{} on {}", notation::count(c.games, "game"), c.board);
        match &c.openings {
            OpeningSource::None if c.alternate => games.push_str(", colours alternating"),
            OpeningSource::None => {}
            OpeningSource::File(p) => games.push_str(&format!(", openings from {}", p.display())),
            OpeningSource::Random(k) => {
                games.push_str(&format!(
                    ", random openings of {} ({} drawn again as decided",
                    notation::count(*k, "move"),
                    draws.rejected
                ));
                if draws.kept_decided > 0 {
                    games.push_str(&format!(
                        "; {} kept decided, every draw was",
                        draws.kept_decided
                    ));
                }
                games.push(')');
            }
        }
        let commands = &self.field.commands;
        let text = match &self.field.names {
            None => format!(
                "match: A = {} ({}), B = {} ({})\nmatch: {games}, {}, {workers} at once",
                commands[0],
                names[0],
                commands[1],
                names[1],
                c.clock_text()
            ),
            Some(called) => {
                let mut text = String::new();
                for (i, command) in commands.iter().enumerate() {
                    text.push_str(&format!(
                        "tournament: {} = {command} ({})\n",
                        called[i], names[i]
                    ));
                }
                text.push_str(&format!(
                    "tournament: {} of {games}, {}, {workers} at once",
                    notation::count(self.field.pairings.len() as u64, "pairing"),
                    c.clock_text()
                ));
                text
            }
        };
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{text}").and_then(|()| err.flush());
        self.shown = Instant::now();
    }

    /// A game of `pairing` finished (`done` of the run's games now): the pairing's tally, score and Elo
    /// difference, and the time left.
    fn finished(&mut self, pairing: usize, tally: &Tally, done: u64) {
        let config = self.config;
        let wdl = tally.a;
        let who = match &self.field.names {
            None => "A".to_string(),
            Some(_) => format!(
                "{} - {}",
                self.field.called(pairing, Side::A),
                self.field.called(pairing, Side::B)
            ),
        };
        let mut line = format!(
            "game {done}/{}: {who} {}-{}-{} (W-L-D)",
            self.total, wdl.wins, wdl.losses, wdl.draws
        );
        if let (Some(s), Some(elo), Some((lo, hi))) = (wdl.score(), wdl.elo(), wdl.elo_interval()) {
            let half = (hi - lo) / 2.0;
            if elo.is_finite() && half.is_finite() {
                line.push_str(&format!(", score {s:.3}, Elo {elo:+.0} +/- {half:.0}"));
            } else {
                line.push_str(&format!(", score {s:.3}"));
            }
        }
        if let Some(test) = &config.sprt {
            line.push_str(&format!(", LLR {:.2}", test.llr(wdl)));
        }
        let elapsed = self.started.elapsed().as_secs_f64();
        let left = self.total.saturating_sub(done);
        let here = done.saturating_sub(self.held);
        if here > 0 && left > 0 {
            line.push_str(&format!(
                ", about {} left",
                duration_text(elapsed / here as f64 * left as f64)
            ));
        }
        self.write(&line);
        self.finished = line;
    }

    /// The games in progress and their moves so far, when it is time: every [`PLAYING_EVERY_TERMINAL`] on a
    /// terminal, after [`PLAYING_EVERY_LINES`] of silence otherwise.
    fn playing(&mut self, playing: &[Playing], done: u64) {
        let every = match self.config.progress {
            Progress::Off => return,
            Progress::Lines => PLAYING_EVERY_LINES,
            Progress::Overwrite => PLAYING_EVERY_TERMINAL,
        };
        if self.shown.elapsed() < every {
            return;
        }
        let mut games: Vec<(u64, usize)> = playing
            .iter()
            .map(|p| {
                (
                    p.game.load(Ordering::Relaxed),
                    p.moves.load(Ordering::Relaxed),
                )
            })
            .filter(|&(game, _)| game > 0)
            .collect();
        if games.is_empty() {
            return;
        }
        games.sort_unstable();
        let list: Vec<String> = games
            .iter()
            .map(|(game, moves)| format!("game {game} at move {moves}"))
            .collect();
        let playing = format!("playing {}", list.join(", "));
        let line = match self.config.progress {
            Progress::Overwrite if !self.finished.is_empty() => {
                format!("{}; {playing}", self.finished)
            }
            _ => format!(
                "{playing} ({done}/{} done, {} since the start)",
                self.total,
                duration_text(self.started.elapsed().as_secs_f64())
            ),
        };
        self.write(&line);
    }

    /// Ends an open terminal line.
    fn end(&mut self) {
        if self.open {
            let _ = writeln!(io::stderr());
            self.open = false;
        }
    }
}
