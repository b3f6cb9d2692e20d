//! The network's inputs (version [`INPUT_VERSION`]): planes of one value a cell, from the side to move's view, that
//! the rules make cheap to compute and a small network would find hard to learn. Every plane is defined by
//! adjacency alone, so the planes of a position seen through a symmetry of the board are the planes of the
//! position, moved the same way: training augments its data by permuting cells.

use crate::rules::{Color, Point, Position};

/// The version of the inputs: a weights file names it, and one for another version is refused.
pub const INPUT_VERSION: &str = "oust-input-1";

/// Planes of the input.
pub const PLANES: usize = 22;

/// The meaning of each plane, in order (docs/learning.md lists them too).
pub const PLANE_NAMES: [&str; PLANES] = [
    "own stone",
    "opponent stone",
    "on the board",
    "legal placement",
    "own group of 1",
    "own group of 2-3",
    "own group of 4-7",
    "own group of 8+",
    "opponent group of 1",
    "opponent group of 2-3",
    "opponent group of 4-7",
    "opponent group of 8+",
    "capturing placement",
    "largest group it takes (/16)",
    "opponent's capturing placement",
    "largest group that takes (/16)",
    "opponent stone capturable now",
    "own stone the opponent could capture",
    "last placement",
    "extra turn",
    "swap available",
    "black to move",
];

/// Values are multiples of 1/16 from 0 to 1, so that training data can keep them as bytes.
pub const QUANTUM: f32 = 1.0 / 16.0;

fn size_bucket(size: usize) -> usize {
    match size {
        0 | 1 => 0,
        2..=3 => 1,
        4..=7 => 2,
        _ => 3,
    }
}

/// Work space of [`encode`], kept between calls to avoid allocating.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    label: Vec<u32>,
    size: Vec<u32>,
    stack: Vec<Point>,
    /// Per group: it can be captured by one placement of the other colour.
    capturable: Vec<bool>,
    /// Per group: adjacent enemy groups (labels), flattened.
    adj_start: Vec<u32>,
    adj: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// Writes the planes of `pos` into `out`, `PLANES` values for each point in point order (`out` is resized to
/// `points * PLANES`), each a multiple of [`QUANTUM`]. `last` is the previous placement, if any.
pub fn encode(pos: &Position, last: Option<Point>, scratch: &mut Scratch, out: &mut Vec<f32>) {
    let geo = pos.geometry();
    let n = geo.len();
    out.clear();
    out.resize(n * PLANES, 0.0);
    let me = pos.to_move();
    let opp = me.opponent();
    // Groups by flood fill.
    let s = scratch;
    s.label.clear();
    s.label.resize(n, NONE);
    s.size.clear();
    for p in geo.points() {
        if s.label[p.index()] != NONE || pos.color_at(p).is_none() {
            continue;
        }
        let c = pos.color_at(p);
        let id = s.size.len() as u32;
        s.size.push(0);
        s.stack.clear();
        s.stack.push(p);
        s.label[p.index()] = id;
        while let Some(q) = s.stack.pop() {
            s.size[id as usize] += 1;
            for &r in geo.neighbors(q) {
                if s.label[r.index()] == NONE && pos.color_at(r) == c {
                    s.label[r.index()] = id;
                    s.stack.push(r);
                }
            }
        }
    }
    let groups = s.size.len();
    // Adjacent enemy groups of each group.
    s.adj_start.clear();
    s.adj.clear();
    {
        let mut per: Vec<Vec<u32>> = vec![Vec::new(); groups];
        for p in geo.points() {
            let g = s.label[p.index()];
            if g == NONE {
                continue;
            }
            for &r in geo.neighbors(p) {
                let h = s.label[r.index()];
                if h != NONE && pos.color_at(r) != pos.color_at(p) && !per[g as usize].contains(&h)
                {
                    per[g as usize].push(h);
                }
            }
        }
        for v in per {
            s.adj_start.push(s.adj.len() as u32);
            s.adj.extend(v);
        }
        s.adj_start.push(s.adj.len() as u32);
    }
    s.capturable.clear();
    s.capturable.resize(groups, false);
    let extra = pos.extra_turn();
    let swap = pos.swap_available();
    for p in geo.points() {
        let i = p.index();
        let row = &mut out[i * PLANES..(i + 1) * PLANES];
        row[2] = 1.0;
        row[19] = f32::from(u8::from(extra));
        row[20] = f32::from(u8::from(swap));
        row[21] = f32::from(u8::from(me == Color::Black));
        if last == Some(p) {
            row[18] = 1.0;
        }
        match pos.color_at(p) {
            Some(c) => {
                let bucket = size_bucket(s.size[s.label[i] as usize] as usize);
                if c == me {
                    row[0] = 1.0;
                    row[4 + bucket] = 1.0;
                } else {
                    row[1] = 1.0;
                    row[8 + bucket] = 1.0;
                }
            }
            None => {
                for (color, cell, size) in [(me, 12, 13), (opp, 14, 15)] {
                    let probe = pos.probe(color, p);
                    let captures = probe.joins && probe.enemy > 0 && probe.enemy < probe.group;
                    if !captures {
                        continue;
                    }
                    row[cell] = 1.0;
                    row[size] = (probe.enemy.min(16) as f32) * QUANTUM;
                    // Every enemy group touching the new group is taken: those next to the point, and those next
                    // to the friendly groups it joins.
                    for &r in geo.neighbors(p) {
                        let g = s.label[r.index()];
                        if g == NONE {
                            continue;
                        }
                        if pos.color_at(r) == Some(color) {
                            let (a, b) = (s.adj_start[g as usize], s.adj_start[g as usize + 1]);
                            for k in a..b {
                                let h = s.adj[k as usize];
                                s.capturable[h as usize] = true;
                            }
                        } else {
                            s.capturable[g as usize] = true;
                        }
                    }
                }
                if pos.is_legal_for(me, p) {
                    row[3] = 1.0;
                }
            }
        }
    }
    for p in geo.points() {
        let i = p.index();
        let g = s.label[i];
        if g != NONE && s.capturable[g as usize] {
            let plane = if pos.color_at(p) == Some(me) { 17 } else { 16 };
            out[i * PLANES + plane] = 1.0;
        }
    }
}
