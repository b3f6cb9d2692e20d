//! The JSON analysis engine (`oust analysis`, docs/analysis.md): one query a line on the input, one answer a line
//! on the output, as KataGo's analysis engine speaks. Many positions are searched at once, each on a tree of its
//! own ([`pool`]); the answers come as searches finish, each named by its query's id and its turn.
//!
//! Layers: [`query`] reads a line into a request checked against the rules, [`answer`] makes the JSON of an
//! answer, [`pool`] runs the searches; this module ties them together and owns the output, where every answer is
//! written whole, as one line, and flushed.

pub mod answer;
pub mod pool;
pub mod query;

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};

use crate::gtp::{Engine, Settings};
use crate::rng::Rng;
use crate::rules::Game;
use crate::search::{Control, Limits, Request as SearchRequest};

pub use answer::Perspective;
use pool::Pool;
pub use query::{Defaults, Query, Request};

/// The longest input line read, in bytes: a longer one is answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// How the engine runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Positions searched at once (KataGo's `numAnalysisThreads`).
    pub positions: usize,
    /// What a query leaves out.
    pub defaults: Defaults,
    /// The seed of every search: a turn's search is seeded from it, the query's id and the turn.
    pub seed: u64,
    /// Whose winning chances the answers give.
    pub perspective: Perspective,
}

/// The output: each answer one whole line, flushed. Once a write fails (the client is gone), every search is
/// stopped and nothing more is written.
pub struct Output {
    out: Mutex<Box<dyn Write + Send>>,
    gone: AtomicBool,
}

impl Output {
    /// Output to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            out: Mutex::new(out),
            gone: AtomicBool::new(false),
        }
    }

    /// Writes `v` as one line.
    pub fn send(&self, v: &Value) {
        if self.gone.load(Ordering::SeqCst) {
            return;
        }
        let mut line = v.to_string();
        line.push('\n');
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if out
            .write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            log::info!("the output is closed: the client is gone; stopping every search");
            self.gone.store(true, Ordering::SeqCst);
        }
    }

    /// True once the client is gone.
    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }
}

/// The turns of a query not answered yet, each with the flag that stops its search.
struct Running {
    turns: HashMap<usize, Arc<AtomicBool>>,
}

/// The queries not finished, by id.
#[derive(Default)]
struct Registry {
    queries: Mutex<HashMap<String, Running>>,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Running>> {
        self.queries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks turn `turn` of `id` answered, and forgets the query once every turn is.
    fn done(&self, id: &str, turn: usize) {
        let mut q = self.lock();
        if let Some(r) = q.get_mut(id) {
            r.turns.remove(&turn);
            if r.turns.is_empty() {
                q.remove(id);
            }
        }
    }
}

/// Everything a job needs, shared.
struct Shared {
    output: Output,
    registry: Registry,
    base: Settings,
    config: Config,
}

/// Runs the engine: reads `input` to its end, answering on `output`, with `engines` (one for each position searched
/// at once, all made with the same settings); returns once every query asked has been answered.
///
/// # Errors
/// When the input cannot be read, or a thread not started.
pub fn serve(
    engines: Vec<Engine>,
    config: Config,
    mut input: impl BufRead,
    output: Box<dyn Write + Send>,
) -> io::Result<()> {
    let Some(first) = engines.first() else {
        return Err(io::Error::other("no engine to search with"));
    };
    let shared = Arc::new(Shared {
        output: Output::new(output),
        registry: Registry::default(),
        base: first.settings.clone(),
        config,
    });
    // An engine of the reader's own, to check each query's settings before anything is queued.
    let mut checker = Engine::new(first.options().clone()).map_err(io::Error::other)?;
    let pool = Pool::new(engines)?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = io::Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)?;
        if n == 0 || shared.output.is_gone() {
            break;
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            // Skip the rest of the line.
            let mut rest = Vec::new();
            input.read_until(b'\n', &mut rest)?;
            shared.output.send(&json!({
                "id": Value::Null,
                "error": format!("the line is longer than {MAX_LINE} bytes; it was skipped"),
            }));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        handle(&shared, &pool, &mut checker, line);
    }
    pool.finish();
    Ok(())
}

/// Answers or queues one line.
fn handle(shared: &Arc<Shared>, pool: &Pool, checker: &mut Engine, line: &str) {
    let (request, warnings) = query::read(line, &shared.config.defaults);
    let id = match &request {
        Ok(Request::Query(q)) => json!(q.id),
        Ok(Request::Version { id } | Request::Terminate { id, .. }) => id.clone(),
        Err(p) => p.id.clone(),
    };
    for w in &warnings {
        shared.output.send(&answer::warning(&id, w));
    }
    let refuse = |message: String, field: Option<&str>| {
        shared.output.send(&answer::error(&query::Problem {
            id: id.clone(),
            message,
            field: field.map(str::to_string),
        }));
    };
    match request {
        Err(p) => shared.output.send(&answer::error(&p)),
        Ok(Request::Version { id }) => shared.output.send(&json!({
            "id": id, "action": "query_version", "version": env!("CARGO_PKG_VERSION"),
        })),
        Ok(Request::Terminate { id, target, turns }) => {
            terminate(shared, pool, &id, target.as_deref(), turns.as_deref());
        }
        Ok(Request::Query(q)) => {
            if let Err(message) = check_settings(checker, &shared.base, &q) {
                return refuse(message, Some("overrideSettings"));
            }
            let mut registry = shared.registry.lock();
            if registry.contains_key(&q.id) {
                return refuse(
                    format!("a query with id '{}' is still running", q.id),
                    Some("id"),
                );
            }
            let flags: HashMap<usize, Arc<AtomicBool>> = q
                .turns
                .iter()
                .map(|(t, _)| (*t, Arc::new(AtomicBool::new(false))))
                .collect();
            registry.insert(
                q.id.clone(),
                Running {
                    turns: flags.clone(),
                },
            );
            drop(registry);
            let q = Arc::new(q);
            for (k, (turn, _)) in q.turns.iter().enumerate() {
                let (shared, q, stop) = (shared.clone(), q.clone(), flags[turn].clone());
                pool.submit(
                    q.priority,
                    Some((q.id.clone(), *turn)),
                    Box::new(move |engine| search_turn(&shared, engine, &q, k, &stop)),
                );
            }
        }
    }
}

/// Applies the query's settings to `engine` as a search would, to refuse a bad one before anything is queued.
fn check_settings(engine: &mut Engine, base: &Settings, q: &Query) -> Result<(), String> {
    let game = q.turns.first().map(|(_, g)| g.clone());
    configure(engine, base, q, game.as_ref(), 0)
}

/// Makes `engine` ready for a turn of `q`: the base settings with the query's, the game, a fresh tree and the
/// turn's seed.
fn configure(
    engine: &mut Engine,
    base: &Settings,
    q: &Query,
    game: Option<&Game>,
    seed: u64,
) -> Result<(), String> {
    engine.settings = base.clone();
    if let Some(g) = game {
        engine.start_loaded(g.clone());
    }
    for (name, value) in &q.overrides {
        crate::gtp::set_param(engine, name, value)
            .map_err(|e| format!("overrideSettings.{name}: {e}"))?;
    }
    engine.searcher.forget();
    engine.reseed(seed);
    Ok(())
}

/// The seed of turn `turn` of the query `id`.
fn turn_seed(seed: u64, id: &str, turn: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    Rng::new(seed ^ h ^ (turn as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// Searches turn `k` of `q` on `engine` and answers it (and during the search, when asked).
fn search_turn(shared: &Shared, engine: &mut Engine, q: &Query, k: usize, stop: &AtomicBool) {
    let (turn, game) = &q.turns[k];
    let turn = *turn;
    let out = &shared.output;
    if stop.load(Ordering::SeqCst) || out.is_gone() {
        out.send(&answer::no_results(&q.id, turn));
        shared.registry.done(&q.id, turn);
        return;
    }
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let seed = turn_seed(shared.config.seed, &q.id, turn);
        configure(engine, &shared.base, q, Some(game), seed)?;
        let mut setup = engine.search_setup();
        setup.temperature = 0.0;
        setup.config.root_moves = q.root_moves(game.position());
        let s = &engine.settings;
        let request = SearchRequest {
            limits: Limits {
                playouts: Some(q.max_visits),
                time: (s.time_per_move > 0.0).then(|| Duration::from_secs_f64(s.time_per_move)),
            },
            seed: engine.rng.next_u64(),
            stop: Some(stop),
            // The tree search alone: the solver's share and the quick answers are for playing, not analysing.
            interval: Some(q.report_every.unwrap_or(Duration::from_secs(86_400))),
        };
        let perspective = shared.config.perspective;
        let result = engine
            .searcher
            .search(&engine.game, &setup, &request, &mut |info| {
                if let Some(info) = info
                    && q.report_every.is_some()
                {
                    out.send(&answer::position(q, turn, game, info, true, perspective));
                }
                if out.is_gone() {
                    Control::Stop
                } else {
                    Control::Continue
                }
            });
        Ok::<_, String>(answer::position(
            q,
            turn,
            game,
            &result.info,
            false,
            perspective,
        ))
    }));
    match run {
        Ok(Ok(v)) => out.send(&v),
        Ok(Err(message)) => out.send(&json!({"id": q.id, "turnNumber": turn, "error": message})),
        Err(_) => {
            engine.searcher.clear();
            log::error!(
                "internal error (a bug, please report it): the search of {} turn {turn} panicked",
                q.id
            );
            out.send(&json!({
                "id": q.id, "turnNumber": turn,
                "error": "internal error: the search failed (a bug, please report it)",
            }));
        }
    }
    shared.registry.done(&q.id, turn);
}

/// `terminate` and `terminate_all`: queued turns are answered at once with no results; searches under way stop and
/// answer with what they have.
fn terminate(
    shared: &Shared,
    pool: &Pool,
    id: &Value,
    target: Option<&str>,
    turns: Option<&[usize]>,
) {
    let picks = |qid: &str, t: usize| {
        target.is_none_or(|x| x == qid) && turns.is_none_or(|ts| ts.contains(&t))
    };
    // Stop the searches first, then take what is still queued out of the queue.
    for (qid, r) in shared.registry.lock().iter() {
        for (t, flag) in &r.turns {
            if picks(qid, *t) {
                flag.store(true, Ordering::SeqCst);
            }
        }
    }
    let withdrawn = pool.withdraw(&picks);
    let mut ack = serde_json::Map::new();
    ack.insert("id".into(), id.clone());
    ack.insert(
        "action".into(),
        json!(if target.is_some() {
            "terminate"
        } else {
            "terminate_all"
        }),
    );
    if let Some(t) = target {
        ack.insert("terminateId".into(), json!(t));
    }
    if let Some(ts) = turns {
        ack.insert("turnNumbers".into(), json!(ts));
    }
    shared.output.send(&Value::Object(ack));
    for (qid, t) in withdrawn {
        shared.output.send(&answer::no_results(&qid, t));
        shared.registry.done(&qid, t);
    }
}
