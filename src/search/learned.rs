//! Learned move priors: features of a placement that Oust makes meaningful, and a model of their strengths fitted
//! to self-play (`oust train`), read from a small versioned weights file.
//!
//! A placement's strength is the product of the strengths of its features (a generalised Bradley-Terry model, as
//! in Coulom's "Computing Elo Ratings of Move Patterns", 2007): the file holds their logarithms, and the prior of a
//! move is its strength divided by the sum over the legal moves, a softmax of summed weights.
//!
//! The features, at most one of each group a placement:
//! - **kind**: quiet (no enemy neighbour); touching an enemy group of 1, 2, 3 or 4+ stones; a capture whose
//!   largest group taken has 1, 2, 3, 4–5, 6–9 or 10+ stones;
//! - **group**: the size of the group a joining placement forms, 2, 3, 4–5, 6–9 or 10+;
//! - **exposed**: a lone stone that the opponent can capture with its next placement;
//! - **win**: a capture that takes every enemy stone;
//! - **last**: distance 1, 2 or 3 to the previous placement, the mover's own (in an extra turn) or the opponent's;
//! - **edge**: distance 0, 1 or 2 to the edge of the board;
//! - **pattern**: the four (square) or six (hexhex) neighbours, each empty, friendly, enemy or off the board, up to
//!   the rotations and reflections of the board.
//!
//! The features deliberately leave out "gives the opponent a capture elsewhere": it needs a scan of the opponent's
//! placements for every candidate move, which would cost more than the playouts the priors serve.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::rules::{Color, Geometry, Move, Point, Position};

use super::policy::Threats;

/// The version of the feature set: a weights file names it, and one for another version is refused.
pub const FEATURE_VERSION: &str = "oust-placement-1";

/// The first line of a weights file, with its format version.
const MAGIC: &str = "oust-weights 1";

/// The weights built into the binary, fitted by `oust train` (see docs/learning.md).
pub const BUILT_IN: &str = include_str!("../../weights/oust-placement-1.txt");

/// Features at most one placement has: one per group.
pub const MAX_ACTIVE: usize = 6;

const KIND: usize = 0;
const KINDS: [&str; 11] = [
    "kind.quiet",
    "kind.touch1",
    "kind.touch2",
    "kind.touch3",
    "kind.touch4+",
    "kind.capture1",
    "kind.capture2",
    "kind.capture3",
    "kind.capture4-5",
    "kind.capture6-9",
    "kind.capture10+",
];
const GROUP: usize = KIND + KINDS.len();
const GROUPS: [&str; 5] = ["group.2", "group.3", "group.4-5", "group.6-9", "group.10+"];
const EXPOSED: usize = GROUP + GROUPS.len();
const WIN: usize = EXPOSED + 1;
const LAST: usize = WIN + 1;
const LASTS: [&str; 6] = [
    "last.own1",
    "last.own2",
    "last.own3",
    "last.opponent1",
    "last.opponent2",
    "last.opponent3",
];
const EDGE: usize = LAST + LASTS.len();
const EDGES: [&str; 3] = ["edge.0", "edge.1", "edge.2"];
const PATTERN: usize = EDGE + EDGES.len();

/// A neighbour's state in a pattern.
const EMPTY: usize = 0;
const FRIEND: usize = 1;
const ENEMY: usize = 2;
const OFF: usize = 3;

/// The patterns of one ring size: each raw code (base 4, one digit a direction) to its class under rotations and
/// reflections, and each class's name (the smallest code's digits, as `.FE_` for empty, friend, enemy, off).
struct Patterns {
    class_of: Vec<u16>,
    names: Vec<String>,
}

impl Patterns {
    fn new(n: usize) -> Patterns {
        let codes = 4usize.pow(n as u32);
        let digits =
            |code: usize| -> Vec<usize> { (0..n).map(|i| (code >> (2 * i)) & 3).collect() };
        let code_of =
            |d: &[usize]| -> usize { d.iter().enumerate().map(|(i, &s)| s << (2 * i)).sum() };
        let mut canonical = vec![0usize; codes];
        for (code, c) in canonical.iter_mut().enumerate() {
            let d = digits(code);
            let mut best = usize::MAX;
            for r in 0..n {
                for flip in [false, true] {
                    let t: Vec<usize> = (0..n)
                        .map(|i| {
                            let j = if flip { (n + r - i) % n } else { (i + r) % n };
                            d[j]
                        })
                        .collect();
                    best = best.min(code_of(&t));
                }
            }
            *c = best;
        }
        let mut index: HashMap<usize, u16> = HashMap::new();
        let mut names = Vec::new();
        let mut class_of = vec![0u16; codes];
        for code in 0..codes {
            let c = canonical[code];
            let next = index.len() as u16;
            let id = *index.entry(c).or_insert_with(|| {
                names.push(
                    digits(c)
                        .iter()
                        .map(|&s| ".FE_".as_bytes()[s] as char)
                        .collect(),
                );
                next
            });
            class_of[code] = id;
        }
        Patterns { class_of, names }
    }
}

fn square_patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns::new(4))
}

fn hex_patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns::new(6))
}

/// The names of every feature of [`FEATURE_VERSION`], in the order of their indices.
pub fn feature_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = KINDS.iter().chain(&GROUPS).map(|s| s.to_string()).collect();
        names.push("exposed".into());
        names.push("win".into());
        names.extend(LASTS.iter().chain(&EDGES).map(|s| s.to_string()));
        names.extend(
            square_patterns()
                .names
                .iter()
                .map(|n| format!("square.{n}")),
        );
        names.extend(hex_patterns().names.iter().map(|n| format!("hex.{n}")));
        names
    })
}

/// The number of features of [`FEATURE_VERSION`].
pub fn feature_count() -> usize {
    feature_names().len()
}

fn bucket(value: usize, bounds: &[usize]) -> usize {
    bounds.iter().take_while(|&&b| value >= b).count()
}

/// Steps between two points of `geo` along its grid: orthogonal steps on square grids, hexagonal steps on
/// hexhex ones.
fn distance(geo: &Geometry, a: Point, b: Point) -> usize {
    let (ax, ay) = geo.coords(a);
    let (bx, by) = geo.coords(b);
    let dx = ax as isize - bx as isize;
    let dy = ay as isize - by as isize;
    if geo.shape().is_hex() {
        // Axial coordinates whose diagonal neighbours are (1, 1) and (-1, -1).
        if (dx >= 0) == (dy >= 0) {
            dx.unsigned_abs().max(dy.unsigned_abs())
        } else {
            dx.unsigned_abs() + dy.unsigned_abs()
        }
    } else {
        dx.unsigned_abs() + dy.unsigned_abs()
    }
}

/// Steps from `p` to the nearest point on the edge of the board (0 on the edge).
fn edge_distance(geo: &Geometry, p: Point) -> usize {
    let (x, y) = geo.coords(p);
    let (w, h) = geo.dimensions();
    let mut d = x.min(y).min(w - 1 - x).min(h - 1 - y);
    if geo.shape().is_hex() {
        let side = w.div_ceil(2);
        d = d.min(side - 1 - x.abs_diff(y));
    }
    d
}

/// The pattern feature of the neighbours of `p` for the side to move: one base-4 digit a neighbour, in the cyclic
/// order of [`Geometry::ring`].
fn pattern(pos: &Position, p: Point, me: Color) -> usize {
    let geo = pos.geometry();
    let off = geo.len();
    let mut code = 0;
    for (i, &q) in geo.ring(p).iter().enumerate() {
        let state = if q.index() == off {
            OFF
        } else {
            match pos.color_at(q) {
                None => EMPTY,
                Some(c) if c == me => FRIEND,
                Some(_) => ENEMY,
            }
        };
        code |= state << (2 * i);
    }
    if geo.shape().is_hex() {
        PATTERN + square_patterns().names.len() + usize::from(hex_patterns().class_of[code])
    } else {
        PATTERN + usize::from(square_patterns().class_of[code])
    }
}

/// The previous placement of a position, and who made it: what the `last` features measure from.
pub fn last_placement(pos: &Position) -> Option<(Color, Point)> {
    match pos.last_move() {
        Some((color, Move::Place(p))) => Some((color, p)),
        _ => None,
    }
}

/// What the features of the placements of one position share: the previous placement and who made it (what the
/// `last` features measure from, see [`last_placement`]), and the opponent's threats (what `exposed` asks).
pub struct Context {
    last: Option<(Color, Point)>,
    threats: Threats,
}

impl Context {
    /// The context of the placements of `pos`, the previous placement being `last`.
    pub fn new(pos: &Position, last: Option<(Color, Point)>) -> Context {
        Context {
            last,
            threats: Threats::of(pos),
        }
    }
}

/// The features of placing on the empty point `p` for the side to move of `pos`, in the context `cx` of that
/// position, or `None` when that placement is illegal. Writes them to `out` and returns how many there are.
pub fn placement_features(
    pos: &Position,
    cx: &Context,
    p: Point,
    out: &mut [u16; MAX_ACTIVE],
) -> Option<usize> {
    let me = pos.to_move();
    let geo = pos.geometry();
    let mut n = 0;
    let mut push = |f: usize| {
        out[n] = f as u16;
        n += 1;
    };
    let (joins, touches_enemy) = pos.touches(p);
    if joins {
        let probe = pos.probe(me, p);
        if !probe.is_legal() {
            return None;
        }
        push(KIND + 5 + bucket(probe.enemy, &[2, 3, 4, 6, 10]));
        push(GROUP + bucket(probe.group, &[3, 4, 6, 10]));
        // The largest group taken is every enemy stone: the capture wins (a win that takes several groups at once
        // is not seen).
        if probe.enemy == pos.stone_count(me.opponent()) {
            push(WIN);
        }
    } else {
        if touches_enemy {
            let biggest = geo
                .neighbors(p)
                .iter()
                .filter(|&&q| pos.color_at(q) == Some(me.opponent()))
                .map(|&q| pos.group_size_at(q))
                .max()
                .unwrap_or(1);
            push(KIND + 1 + bucket(biggest, &[2, 3, 4]));
        } else {
            push(KIND);
        }
        if cx.threats.exposed(pos, p) {
            push(EXPOSED);
        }
    }
    if let Some((color, last)) = cx.last {
        let d = distance(geo, p, last);
        if (1..=3).contains(&d) {
            let own = if color == me { 0 } else { 3 };
            push(LAST + own + d - 1);
        }
    }
    let edge = edge_distance(geo, p);
    if edge < EDGES.len() {
        push(EDGE + edge);
    }
    push(pattern(pos, p, me));
    Some(n)
}

/// Where a placement stands in point order (the order [`Model::priors`] lists them in).
fn point_order(mv: Move) -> u64 {
    match mv {
        Move::Place(p) => p.index() as u64,
        _ => u64::from(u32::MAX),
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadWeights(pub String);

impl std::fmt::Display for BadWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Fitted log-strengths of the features of [`FEATURE_VERSION`].
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// One weight per feature, by index.
    pub weights: Vec<f32>,
}

impl Model {
    /// Every weight zero: uniform priors.
    pub fn zero() -> Model {
        Model {
            weights: vec![0.0; feature_count()],
        }
    }

    /// The model built into the binary.
    pub fn built_in() -> Arc<Model> {
        static MODEL: OnceLock<Arc<Model>> = OnceLock::new();
        MODEL
            .get_or_init(|| Arc::new(Model::parse(BUILT_IN).expect("the built-in weights parse")))
            .clone()
    }

    /// Reads a weights file: `oust-weights 1`, then `features <version>`, then one `name weight` line for every
    /// feature of that version, in any order. Blank lines and text after `#` are skipped.
    ///
    /// # Errors
    /// A message naming the line: a missing or different header, another feature version, an unknown, repeated
    /// or missing feature, a weight that is not a finite number.
    pub fn parse(text: &str) -> Result<Model, BadWeights> {
        let bad = |line: usize, what: String| BadWeights(format!("line {line}: {what}"));
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty());
        match lines.next() {
            Some((_, l)) if l == MAGIC => {}
            Some((i, l)) => return Err(bad(i, format!("expected '{MAGIC}', found '{l}'"))),
            None => {
                return Err(BadWeights(format!(
                    "the file is empty (expected '{MAGIC}')"
                )));
            }
        }
        match lines.next() {
            Some((_, l)) if l == format!("features {FEATURE_VERSION}") => {}
            Some((i, l)) => match l.strip_prefix("features ") {
                Some(v) => {
                    return Err(bad(
                        i,
                        format!(
                            "weights for feature set '{}', but this engine has '{FEATURE_VERSION}'",
                            v.trim()
                        ),
                    ));
                }
                None => {
                    return Err(bad(
                        i,
                        format!("expected 'features {FEATURE_VERSION}', found '{l}'"),
                    ));
                }
            },
            None => return Err(BadWeights(format!("no 'features {FEATURE_VERSION}' line"))),
        }
        let index: HashMap<&str, usize> = feature_names()
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut weights: Vec<Option<f32>> = vec![None; feature_count()];
        for (i, l) in lines {
            let mut parts = l.split_whitespace();
            let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(bad(i, format!("expected 'name weight', found '{l}'")));
            };
            let &f = index
                .get(name)
                .ok_or_else(|| bad(i, format!("unknown feature '{name}'")))?;
            let w = value
                .parse::<f32>()
                .ok()
                .filter(|w| w.is_finite() && w.abs() <= 1000.0)
                .ok_or_else(|| {
                    bad(
                        i,
                        format!("'{value}' is not a weight (a number from -1000 to 1000)"),
                    )
                })?;
            if weights[f].replace(w).is_some() {
                return Err(bad(i, format!("feature '{name}' given twice")));
            }
        }
        let missing: Vec<&str> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| w.is_none())
            .map(|(i, _)| feature_names()[i].as_str())
            .collect();
        if let Some(first) = missing.first() {
            return Err(BadWeights(format!(
                "{} of the {} features have no weight, the first '{first}'",
                missing.len(),
                feature_count()
            )));
        }
        Ok(Model {
            weights: weights.into_iter().map(|w| w.unwrap_or(0.0)).collect(),
        })
    }

    /// The weights file of this model, which [`Model::parse`] reads back to the same weights. `comment` lines come
    /// first, each after `# `.
    pub fn to_text(&self, comment: &[String]) -> String {
        let mut out = format!("{MAGIC}\n");
        for c in comment {
            out.push_str(&format!("# {c}\n"));
        }
        out.push_str(&format!("features {FEATURE_VERSION}\n"));
        for (name, w) in feature_names().iter().zip(&self.weights) {
            out.push_str(&format!("{name} {w}\n"));
        }
        out
    }

    /// The summed weight of a placement's features.
    #[inline]
    pub fn score(&self, features: &[u16]) -> f32 {
        features.iter().map(|&f| self.weights[usize::from(f)]).sum()
    }

    /// The legal moves of `pos` with their prior probabilities under this model, best first (as
    /// [`super::policy::priors`] gives them). Empty when the game is over.
    pub fn priors(&self, pos: &Position, out: &mut Vec<(Move, f32)>) {
        out.clear();
        if pos.winner().is_none() {
            let mut f = [0u16; MAX_ACTIVE];
            let cx = Context::new(pos, last_placement(pos));
            for p in pos.geometry().points() {
                if pos.color_at(p).is_some() {
                    continue;
                }
                if let Some(n) = placement_features(pos, &cx, p, &mut f) {
                    out.push((Move::Place(p), self.score(&f[..n])));
                }
            }
        }
        if out.is_empty() {
            if let Some(&mv) = pos.legal_moves().first() {
                out.push((mv, 1.0));
            }
            return;
        }
        let top = out.iter().map(|m| m.1).fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for m in out.iter_mut() {
            m.1 = (m.1 - top).exp();
            total += m.1;
        }
        for m in out.iter_mut() {
            m.1 /= total;
        }
        // Best first, equal priors in point order: the order of a stable sort of the list (made in point order).
        // Priors take many values here, too many for `sort_by_prior`'s levels; as they are neither negative nor NaN,
        // their bits order them, and one integer key a move orders the list.
        out.sort_unstable_by_key(|&(mv, prior)| {
            (u64::from(!prior.to_bits()) << 32) | point_order(mv)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Shape;

    #[test]
    fn patterns_are_classes_under_the_board_symmetries() {
        // Square: 4 neighbours of 4 states, 256 codes, in 55 classes under the 8 symmetries; hexhex: 4096 codes
        // under 12 symmetries, 430 classes (Burnside's lemma: necklaces and bracelets of 4 colours).
        assert_eq!(square_patterns().names.len(), 55);
        assert_eq!(hex_patterns().names.len(), 430);
        assert_eq!(feature_count(), PATTERN + 55 + 430);
    }

    #[test]
    fn the_built_in_weights_are_for_this_feature_set() {
        assert_eq!(Model::built_in().weights.len(), feature_count());
    }

    #[test]
    fn distances_follow_the_grid() {
        let hex = Geometry::new(Shape::Hex { side: 4 }).unwrap();
        for p in hex.points() {
            for &q in hex.neighbors(p) {
                assert_eq!(distance(&hex, p, q), 1);
            }
            let on_edge = hex.neighbors(p).len() < 6;
            assert_eq!(edge_distance(&hex, p) == 0, on_edge, "{}", hex.name(p));
        }
        let centre = hex.point_at(3, 3).unwrap();
        assert_eq!(edge_distance(&hex, centre), 3);
        let sq = Geometry::square(9).unwrap();
        let c = sq.point_at(4, 4).unwrap();
        assert_eq!(edge_distance(&sq, c), 4);
        assert_eq!(distance(&sq, c, sq.point_at(5, 5).unwrap()), 2);
    }
}
