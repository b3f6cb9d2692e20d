//! The match runner: schedules games on worker threads (each with its own pair of engine processes), writes each
//! finished game's results line and SGF at once, shows progress on stderr, and stops early on an SPRT decision or
//! an interrupt.

use std::fs::{self, File};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::Duration;

use crate::rules::{Geometry, Move};

use super::config::MatchConfig;
use super::engine::{EngineProcess, Failure, shorten};
use super::openings::load_openings;
use super::outputs::{clear_old_outputs, resumed_games, write_sgf};
use super::progress::{Display, Playing};
use super::referee::{GameSpec, Played, QUIT_WAIT, Seat, play_game};
use super::results::{GameResult, Side, Tally, results_header};
use super::schedule::Field;
use super::stats::{SprtDecision, SprtStop};

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
        let round = index / 2 - self.field.first_round;
        let (number, moves) = &self.openings[round as usize % self.openings.len()];
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
        start: config.first_game,
        count: config.games,
        first_round: config.first_game / 2,
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
    let rounds = (field.count / field.pairings.len() as u64).div_ceil(2);
    let (openings, draws) = load_openings(config, &geometry, field.first_round, rounds)?;
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

    let total = field.count;
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
    let total = field.count;
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
        let g = field.start + local;
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
