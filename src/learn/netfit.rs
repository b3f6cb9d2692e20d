//! Fitting the policy and value network to self-play: the policy to the search's visit shares (cross-entropy), the
//! value to the game's result for the side to move (log loss), by minibatch gradient descent with Adam steps and
//! decoupled weight decay. Each sample is seen through a random symmetry of its board every epoch (8 on a square
//! board, 4 on a rectangle, 12 on a hexhex one).
//!
//! Everything runs on one thread in a fixed order: a fit depends only on its data, its settings and its seed, and
//! a fit resumed from a checkpoint after epoch `e` is the same, bit for bit, as one that ran straight through.

use std::collections::HashMap;
use std::sync::Arc;

use crate::net::features::{self, PLANES, QUANTUM};
use crate::net::{Family, Grid, Losses, Net, Size, Trace};
use crate::rng::{Rng, splitmix64};
use crate::rules::{Color, Geometry, Move, Shape};

use super::data::GameData;

/// One position as the fit sees it.
#[derive(Clone, Debug)]
struct Sample {
    board: Shape,
    /// The input planes in units of [`QUANTUM`], `PLANES` a cell.
    planes: Vec<u8>,
    /// The visit share of every cell (0 off the legal placements).
    target: Vec<f32>,
    /// The result for the side to move: 1 a win, 0 a loss, 0.5 for a game stopped at the move cap.
    z: f32,
}

/// The positions of some games of one family.
#[derive(Clone, Debug, Default)]
pub struct NetData {
    samples: Vec<Sample>,
    boards: HashMap<Shape, Arc<Board>>,
}

/// What the fit keeps for each board: its gather table and its symmetries.
#[derive(Debug)]
struct Board {
    grid: Grid,
    symmetries: Vec<Vec<usize>>,
}

impl NetData {
    /// The positions of `games` on boards of `family` (games on other boards are left out).
    pub fn new<'a>(games: impl IntoIterator<Item = &'a GameData>, family: Family) -> NetData {
        let mut d = NetData::default();
        d.add(games, family);
        d
    }

    /// Adds the positions of `games` on boards of `family`, after those it holds: a fit's data read a file at a
    /// time, so that only the fit's own form of the positions stays in memory.
    pub fn add<'a>(&mut self, games: impl IntoIterator<Item = &'a GameData>, family: Family) {
        let d = self;
        let mut scratch = features::Scratch::default();
        let mut input = Vec::new();
        for game in games {
            if Family::of(game.board) != family {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = d.boards.entry(game.board) {
                let Ok(geo) = Geometry::new(game.board) else {
                    continue;
                };
                let symmetries = geo
                    .symmetries()
                    .into_iter()
                    .map(|s| s.into_iter().map(|p| p.index()).collect())
                    .collect();
                slot.insert(Arc::new(Board {
                    grid: Grid::new(&geo, family),
                    symmetries,
                }));
            }
            for s in &game.samples {
                let pos = &s.position;
                let n = pos.geometry().len();
                features::encode(pos, s.last.map(|l| l.1), &mut scratch, &mut input);
                let planes = input.iter().map(|&v| (v / QUANTUM).round() as u8).collect();
                let total: u64 = s.moves.iter().map(|m| u64::from(m.1)).sum();
                let mut target = vec![0.0f32; n];
                for &(mv, visits) in &s.moves {
                    if let Move::Place(p) = mv {
                        target[p.index()] = (f64::from(visits) / total.max(1) as f64) as f32;
                    }
                }
                let z = result_for(game.winner, pos.to_move());
                d.samples.push(Sample {
                    board: game.board,
                    planes,
                    target,
                    z,
                });
            }
        }
    }

    /// Positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// A checksum of the data, for a checkpoint to know its run.
    pub fn fingerprint(&self) -> u64 {
        let mut h = 0x6f75_7374u64 ^ self.samples.len() as u64;
        for s in &self.samples {
            for &b in &s.planes {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            for &t in &s.target {
                h = (h ^ u64::from(t.to_bits())).wrapping_mul(0x0100_0000_01b3);
            }
            h = (h ^ u64::from(s.z.to_bits())).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    /// Sample `i` seen through symmetry `sym` of its board: the planes as numbers and the target.
    fn view(
        &self,
        i: usize,
        sym: usize,
        input: &mut Vec<f32>,
        target: &mut Vec<f32>,
    ) -> Arc<Board> {
        let s = &self.samples[i];
        let board = self.boards[&s.board].clone();
        let map = &board.symmetries[sym % board.symmetries.len()];
        let n = s.target.len();
        input.clear();
        input.resize(n * PLANES, 0.0);
        target.clear();
        target.resize(n, 0.0);
        for (p, &q) in map.iter().enumerate() {
            for k in 0..PLANES {
                input[q * PLANES + k] = f32::from(s.planes[p * PLANES + k]) * QUANTUM;
            }
            target[q] = s.target[p];
        }
        board
    }
}

/// The settings of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct NetConfig {
    /// The boards' family.
    pub family: Family,
    /// The network's size.
    pub size: Size,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth of it by the last step.
    pub learning_rate: f32,
    /// Decoupled weight decay a step, times the step size.
    pub weight_decay: f32,
    /// The weight of the value's loss beside the policy's.
    pub value_weight: f32,
    /// Seed of the starting weights, the order of positions and their symmetries.
    pub seed: u64,
    /// Threads a batch is shared among: each sums the gradients of a contiguous part of the batch, and the parts
    /// are added in order. The same data, settings and threads make the same network; another number of threads
    /// adds the same gradients in another order.
    pub threads: usize,
}

impl NetConfig {
    /// The settings as one line, for the weights file's comment and the checkpoint's check.
    pub fn recipe(&self) -> String {
        format!(
            "family={} channels={} blocks={} value-hidden={} epochs={} batch={} learning-rate={} weight-decay={} \
             value-weight={} seed={}",
            self.family.name(),
            self.size.channels,
            self.size.blocks,
            self.size.value_hidden,
            self.epochs,
            self.batch,
            self.learning_rate,
            self.weight_decay,
            self.value_weight,
            self.seed
        ) + &if self.threads > 1 {
            // One thread is the recipe of every fit made before threads were offered.
            format!(" threads={}", self.threads)
        } else {
            String::new()
        }
    }
}

/// One thread's share of a batch: the sum of its positions' gradients, their losses in order, and its buffers.
struct Part {
    grad: Vec<f32>,
    losses: Vec<Losses>,
    trace: Trace,
    input: Vec<f32>,
    target: Vec<f32>,
}

impl Part {
    fn new(params: usize) -> Part {
        Part {
            grad: vec![0.0; params],
            losses: Vec::new(),
            trace: Trace::default(),
            input: Vec::new(),
            target: Vec::new(),
        }
    }

    /// Sums the gradients of the positions `jobs` (each a position of `data` and its symmetry), in order.
    fn run(&mut self, net: &Net, data: &NetData, cfg: &NetConfig, jobs: &[(usize, usize)]) {
        self.grad.iter_mut().for_each(|g| *g = 0.0);
        self.losses.clear();
        for &(i, sym) in jobs {
            let board = data.view(i, sym, &mut self.input, &mut self.target);
            let l = net.train_sample(
                &board.grid,
                &self.input,
                &self.target,
                data.samples[i].z,
                cfg.value_weight,
                &mut self.grad,
                &mut self.trace,
            );
            self.losses.push(l);
        }
    }
}

/// A fit under way: the network and Adam's moments after `epoch` epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The network.
    pub net: Net,
    /// Adam's first and second moments.
    m: Vec<f32>,
    v: Vec<f32>,
    /// Epochs done.
    pub epoch: usize,
    /// Steps done.
    pub step: u64,
}

/// The mean losses over some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// Positions.
    pub positions: usize,
    /// Policy cross-entropy against the visit shares, in nats.
    pub policy: f64,
    /// Share of positions whose most visited placement is the policy's top one.
    pub top1: f64,
    /// Value log loss against the results, in nats.
    pub value: f64,
    /// Value Brier score.
    pub brier: f64,
}

impl Report {
    fn add(&mut self, l: &Losses) {
        self.positions += 1;
        self.policy += l.policy;
        self.top1 += f64::from(u8::from(l.top1));
        self.value += l.value;
        self.brier += l.brier;
    }

    fn mean(mut self) -> Report {
        let n = self.positions.max(1) as f64;
        self.policy /= n;
        self.top1 /= n;
        self.value /= n;
        self.brier /= n;
        self
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;

impl Fit {
    /// A new fit from a random network, or from `init` (which must be of the configured family and size).
    ///
    /// # Errors
    /// A size out of range, or an `init` network of another family or size.
    pub fn new(cfg: &NetConfig, init: Option<Net>) -> Result<Fit, String> {
        let net = match init {
            Some(n) if n.family() != cfg.family => {
                return Err(format!(
                    "the starting network is for {} boards, not {}",
                    n.family().name(),
                    cfg.family.name()
                ));
            }
            Some(n) if n.size() != cfg.size => {
                return Err(format!(
                    "the starting network is {}, not {}",
                    n.size(),
                    cfg.size
                ));
            }
            Some(n) => n,
            None => Net::random(cfg.family, cfg.size, cfg.seed)?,
        };
        let len = net.params().len();
        Ok(Fit {
            net,
            m: vec![0.0; len],
            v: vec![0.0; len],
            epoch: 0,
            step: 0,
        })
    }

    /// Runs one more epoch over `data` and returns its mean training losses. `progress` is told the positions
    /// done so far in the epoch.
    pub fn epoch(
        &mut self,
        data: &NetData,
        cfg: &NetConfig,
        progress: &mut dyn FnMut(usize),
    ) -> Report {
        let mut order: Vec<usize> = (0..data.len()).collect();
        let mut rng =
            Rng::new(cfg.seed ^ (self.epoch as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for i in (1..order.len()).rev() {
            let j = rng.below(i + 1);
            order.swap(i, j);
        }
        let batches = order.len().div_ceil(cfg.batch.max(1));
        let total_steps = (batches * cfg.epochs) as f32;
        let threads = cfg.threads.max(1);
        let len = self.net.params().len();
        let mut work: Vec<Part> = (0..threads).map(|_| Part::new(len)).collect();
        let mut report = Report::default();
        for (b, chunk) in order.chunks(cfg.batch.max(1)).enumerate() {
            // Each position's symmetry, drawn in the batch's order whatever the threads.
            let jobs: Vec<(usize, usize)> = chunk
                .iter()
                .map(|&i| (i, rng.next_u64() as usize))
                .collect();
            let per = jobs.len().div_ceil(threads);
            let net = &self.net;
            if threads == 1 {
                work[0].run(net, data, cfg, &jobs);
            } else {
                std::thread::scope(|scope| {
                    for (part, jobs) in work.iter_mut().zip(jobs.chunks(per)) {
                        scope.spawn(move || part.run(net, data, cfg, jobs));
                    }
                });
            }
            let used = jobs.len().div_ceil(per);
            let (first, rest) = work.split_at_mut(1);
            let grad = &mut first[0].grad;
            for part in &rest[..used - 1] {
                for (g, &x) in grad.iter_mut().zip(&part.grad) {
                    *g += x;
                }
            }
            for part in &work[..used] {
                for l in &part.losses {
                    report.add(l);
                }
            }
            let grad = &work[0].grad;
            let scale = 1.0 / chunk.len() as f32;
            self.step += 1;
            let t = self.step as f32;
            let lr = cfg.learning_rate * (1.0 - 0.9 * ((t - 1.0) / total_steps).min(1.0));
            let (c1, c2) = (1.0 - BETA1.powf(t), 1.0 - BETA2.powf(t));
            let params = self.net.params_mut();
            for k in 0..params.len() {
                let g = grad[k] * scale;
                self.m[k] = BETA1 * self.m[k] + (1.0 - BETA1) * g;
                self.v[k] = BETA2 * self.v[k] + (1.0 - BETA2) * g * g;
                let update = (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + 1e-8);
                params[k] -= lr * (update + cfg.weight_decay * params[k]);
            }
            progress(((b + 1) * cfg.batch).min(order.len()));
        }
        self.epoch += 1;
        report.mean()
    }

    /// The checkpoint's bytes: the settings' recipe and the data's fingerprint, the epochs and steps done, the
    /// network's file and Adam's moments.
    pub fn to_bytes(&self, recipe: &str, fingerprint: u64) -> Vec<u8> {
        let net = self.net.to_bytes("");
        let moments: Vec<u8> = self
            .m
            .iter()
            .chain(&self.v)
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let mut body = net.clone();
        body.extend(&moments);
        let mut out = format!(
            "{CHECKPOINT_MAGIC}\nrecipe {recipe}\ndata {fingerprint:016x}\nepoch {}\nstep {}\nnet-bytes {}\nchecksum {:016x}\n",
            self.epoch,
            self.step,
            net.len(),
            body_checksum(&body)
        )
        .into_bytes();
        out.extend(body);
        out
    }

    /// Reads a checkpoint of the run of `recipe` on the data of `fingerprint`.
    ///
    /// # Errors
    /// Not a checkpoint, a checkpoint of another run (other settings or data), or a damaged one.
    pub fn from_bytes(bytes: &[u8], recipe: &str, fingerprint: u64) -> Result<Fit, String> {
        let mut rest = bytes;
        let mut header = Vec::new();
        for _ in 0..7 {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or("not a checkpoint of oust train-net (its header is cut short)")?;
            header.push(String::from_utf8_lossy(&rest[..end]).to_string());
            rest = &rest[end + 1..];
        }
        if header[0] != CHECKPOINT_MAGIC {
            return Err(format!(
                "not a checkpoint of oust train-net (it does not start with '{CHECKPOINT_MAGIC}')"
            ));
        }
        let field = |i: usize, name: &str| -> Result<String, String> {
            header[i]
                .strip_prefix(&format!("{name} "))
                .map(str::to_string)
                .ok_or_else(|| format!("checkpoint line {}: expected '{name} ...'", i + 1))
        };
        let theirs = field(1, "recipe")?;
        if theirs != recipe {
            // The settings that differ, as `name=theirs` against `name=ours` (a setting one side lacks: `-`).
            let pairs = |r: &str| -> Vec<(String, String)> {
                r.split_whitespace()
                    .filter_map(|w| w.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            };
            let (a, b) = (pairs(&theirs), pairs(recipe));
            let get = |list: &[(String, String)], k: &str| {
                list.iter()
                    .find(|(n, _)| n == k)
                    .map_or("-".to_string(), |(_, v)| v.clone())
            };
            let mut names: Vec<&str> = Vec::new();
            for (k, _) in a.iter().chain(&b) {
                if !names.contains(&k.as_str()) {
                    names.push(k);
                }
            }
            let differ: Vec<String> = names
                .into_iter()
                .filter(|k| get(&a, k) != get(&b, k))
                .map(|k| format!("{k}={} there, {} here", get(&a, k), get(&b, k)))
                .collect();
            return Err(format!(
                "it is a checkpoint of another run ({theirs}; {})",
                differ.join(", ")
            ));
        }
        if field(2, "data")? != format!("{fingerprint:016x}") {
            return Err("it is a checkpoint of a run on other data".into());
        }
        let number = |i: usize, name: &str| -> Result<u64, String> {
            field(i, name)?
                .parse()
                .map_err(|_| format!("checkpoint line {}: not a number", i + 1))
        };
        let epoch = number(3, "epoch")? as usize;
        let step = number(4, "step")?;
        let net_len = number(5, "net-bytes")? as usize;
        let sum = u64::from_str_radix(&field(6, "checksum")?, 16)
            .map_err(|_| "checkpoint: a bad checksum line")?;
        if body_checksum(rest) != sum {
            return Err("the checkpoint is damaged (its checksum does not match)".into());
        }
        if rest.len() < net_len {
            return Err("the checkpoint is truncated".into());
        }
        let net = Net::from_bytes(&rest[..net_len], "checkpoint")?;
        let len = net.params().len();
        let moments = &rest[net_len..];
        if moments.len() != 8 * len {
            return Err("the checkpoint is truncated".into());
        }
        let floats: Vec<f32> = moments
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Fit {
            net,
            m: floats[..len].to_vec(),
            v: floats[len..].to_vec(),
            epoch,
            step,
        })
    }
}

const CHECKPOINT_MAGIC: &str = "oust-net-checkpoint 1";

fn body_checksum(bytes: &[u8]) -> u64 {
    let mut h = 0x1234_5678_9abc_def0u64;
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let mut s = h ^ u64::from_le_bytes(word);
        h = splitmix64(&mut s);
    }
    h
}

/// The mean losses of `net` on `data`, each position seen as it is, on `threads` threads (each a contiguous part
/// of the data; the losses are added in the data's order whatever the threads).
pub fn evaluate(net: &Net, data: &NetData, threads: usize) -> Report {
    let per = data.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<Losses>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..data.len())
            .step_by(per)
            .map(|start| {
                scope.spawn(move || {
                    let mut trace = Trace::default();
                    let (mut input, mut target) = (Vec::new(), Vec::new());
                    (start..(start + per).min(data.len()))
                        .map(|i| {
                            let board = data.view(i, 0, &mut input, &mut target);
                            net.losses(&board.grid, &input, &target, data.samples[i].z, &mut trace)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an evaluation thread panicked"))
            .collect()
    });
    let mut report = Report::default();
    for l in parts.iter().flatten() {
        report.add(l);
    }
    report.mean()
}

/// The side to move's result of a game, for a position's `to_move`.
pub fn result_for(winner: Option<Color>, to_move: Color) -> f32 {
    match winner {
        Some(c) if c == to_move => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
