//! The network as the search asks it: a position's priors and value, from the float network or its integer form,
//! through a cache of evaluations keyed by the position.
//!
//! In Oust the same position is reached by placements in other orders (a capture's extra turn, or two quiet
//! placements swapped), so a tree meets it again, and a game's next search meets the positions of the last one. The
//! cache keeps the evaluation of each position it has seen, up to a budget of bytes, and gives back exactly what the
//! network would compute: a seeded search plays the same moves with it, without it, and with any size of it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::net::int8::Path;
use crate::net::quant::{QuantNet, quantized};
use crate::net::{Evaluation, Net, Precision, Scratch};
use crate::rules::{Move, Point, Position, Shape};

/// The network that evaluates the leaves of a search, and how its value mixes with a playout's result.
#[derive(Clone, Debug)]
pub struct NetEval {
    /// The network, of the board's family.
    pub net: Arc<Net>,
    /// The weight of a playout's result in a leaf's value (AlphaGo's lambda): 0 takes the network's value alone, 1
    /// the playout's alone (the network then gives only the priors).
    pub lambda: f32,
    /// Floats (the reference) or integers.
    precision: Precision,
    /// The integer form, with [`Precision::Int8`].
    quant: Option<Arc<QuantNet>>,
    /// Which kernels the integer form runs.
    path: Path,
    cache: Option<Arc<EvalCache>>,
}

impl PartialEq for NetEval {
    fn eq(&self, other: &NetEval) -> bool {
        Arc::ptr_eq(&self.net, &other.net)
            && self.lambda == other.lambda
            && self.precision == other.precision
            && self.path == other.path
    }
}

impl NetEval {
    /// `net` at `precision`, its value mixed with playouts by `lambda`, with no cache. The integer form is made
    /// here the first time a network asks for it (a few tens of milliseconds), then shared.
    pub fn new(net: Arc<Net>, lambda: f32, precision: Precision) -> NetEval {
        let quant = (precision == Precision::Int8).then(|| quantized(&net));
        NetEval {
            net,
            lambda,
            precision,
            quant,
            path: Path::Auto,
            cache: None,
        }
    }

    /// The same, evaluating through `cache` (emptied first if it held another network's or precision's
    /// evaluations).
    pub fn with_cache(mut self, cache: Arc<EvalCache>) -> NetEval {
        cache.claim(self.owner());
        self.cache = Some(cache);
        self
    }

    /// The same, with the integer kernels' plain loop on every machine (the results are the same; tests compare).
    pub fn plain_kernels(mut self) -> NetEval {
        self.path = Path::Plain;
        self
    }

    /// Its precision.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// Its cache, if any.
    pub fn cache(&self) -> Option<&Arc<EvalCache>> {
        self.cache.as_ref()
    }

    fn owner(&self) -> (usize, Precision) {
        (Arc::as_ptr(&self.net) as usize, self.precision)
    }

    /// The network's evaluation of `pos` (its previous placement is the last move, if one), through the cache.
    pub fn evaluate(&self, pos: &Position, scratch: &mut Scratch) -> Arc<Evaluation> {
        let last = match pos.last_move() {
            Some((_, Move::Place(p))) => Some(p),
            _ => None,
        };
        let key = self.cache.as_ref().map(|c| (c, key(pos, last)));
        if let Some((cache, k)) = &key
            && let Some(e) = cache.get(*k)
        {
            return e;
        }
        let e = Arc::new(match &self.quant {
            Some(q) => q.evaluate(pos, last, scratch, self.path),
            None => self.net.evaluate(pos, last, scratch),
        });
        if let Some((cache, k)) = key {
            cache.put(k, &e);
        }
        e
    }
}

/// A position's key in the cache: its hash (stones, side to move, extra turn, the pie rule's state), the previous
/// placement (an input of the network) and the board.
fn key(pos: &Position, last: Option<Point>) -> u64 {
    let mut h = pos.hash();
    let mut mix = |v: u64| {
        let mut s = v ^ h;
        h = crate::rng::splitmix64(&mut s);
    };
    mix(last.map_or(u64::MAX, |p| p.index() as u64));
    match pos.geometry().shape() {
        Shape::Hex { side } => mix(1 << 40 | side as u64),
        Shape::Rect { width, height } => mix((2 << 40) | (width as u64) << 20 | height as u64),
    }
    h
}

/// One cached evaluation.
#[derive(Debug)]
struct Entry {
    key: u64,
    eval: Arc<Evaluation>,
}

impl Entry {
    fn bytes(e: &Evaluation) -> usize {
        64 + e.policy.len() * std::mem::size_of::<(Point, f32)>()
    }
}

/// Evaluations of positions by their key, up to a budget of bytes, shared by the threads of a search and by the
/// searches of one engine: a table of slots, each behind its own lock; a new evaluation takes its slot's place when
/// the budget allows.
#[derive(Debug)]
pub struct EvalCache {
    slots: Vec<Mutex<Option<Entry>>>,
    budget: usize,
    used: AtomicUsize,
    owner: Mutex<(usize, Precision)>,
    lookups: AtomicU64,
    hits: AtomicU64,
}

/// Lookups and hits of a cache since it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Evaluations asked of the cache.
    pub lookups: u64,
    /// Of those, found in it.
    pub hits: u64,
}

impl CacheStats {
    /// Hits over lookups (0 with no lookup).
    pub fn rate(&self) -> f64 {
        if self.lookups == 0 {
            0.0
        } else {
            self.hits as f64 / self.lookups as f64
        }
    }
}

impl EvalCache {
    /// A cache of at most `megabytes` of evaluations (0: one that keeps nothing).
    pub fn new(megabytes: usize) -> EvalCache {
        let budget = megabytes << 20;
        // About one slot for each kilobyte: a hex-7 evaluation early in a game is about that.
        let slots = (budget >> 10).next_power_of_two().max(1);
        EvalCache {
            slots: (0..slots).map(|_| Mutex::new(None)).collect(),
            budget,
            used: AtomicUsize::new(0),
            owner: Mutex::new((0, Precision::Float)),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// Its budget in megabytes.
    pub fn megabytes(&self) -> usize {
        self.budget >> 20
    }

    /// Empties the cache if its evaluations are of another network or precision than `owner`.
    fn claim(&self, owner: (usize, Precision)) {
        let mut o = self.owner.lock().unwrap_or_else(|e| e.into_inner());
        if *o != owner {
            for s in &self.slots {
                *s.lock().unwrap_or_else(|e| e.into_inner()) = None;
            }
            self.used.store(0, Ordering::Relaxed);
            *o = owner;
        }
    }

    fn slot(&self, key: u64) -> &Mutex<Option<Entry>> {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    fn get(&self, key: u64) -> Option<Arc<Evaluation>> {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let slot = self.slot(key).lock().unwrap_or_else(|e| e.into_inner());
        let found = slot
            .as_ref()
            .filter(|e| e.key == key)
            .map(|e| e.eval.clone());
        if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn put(&self, key: u64, eval: &Arc<Evaluation>) {
        if self.budget == 0 {
            return;
        }
        let bytes = Entry::bytes(eval);
        let mut slot = self.slot(key).lock().unwrap_or_else(|e| e.into_inner());
        let old = slot.as_ref().map_or(0, |e| Entry::bytes(&e.eval));
        let used = self.used.load(Ordering::Relaxed);
        if used + bytes > self.budget + old {
            return;
        }
        self.used.fetch_add(bytes, Ordering::Relaxed);
        self.used.fetch_sub(old, Ordering::Relaxed);
        *slot = Some(Entry {
            key,
            eval: eval.clone(),
        });
    }

    /// Lookups and hits since it was made.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            lookups: self.lookups.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        }
    }

    /// Bytes of evaluations it holds (an estimate: the policies and a fixed overhead an entry).
    pub fn bytes(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }
}
