//! Cheap Oust knowledge: move priors for the tree and a biased playout policy.
//!
//! What the knowledge knows: a placement next to friendly stones is a capture (it removes material and gives an
//! extra turn) and is worth more the larger the enemy groups it takes; a lone placement touching no enemy stone
//! is quiet and safe; a lone placement touching enemy stones gives the opponent a target, and is bad when the
//! opponent can capture it at once by growing a neighbouring group.

use crate::rng::Rng;
use crate::rules::{MAX_DEGREE, Move, Outcome, Point, Position, Probe, SLOTS};

/// How a legal placement looks to the cheap knowledge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Joins friendly stones and captures; `enemy` is the size of the largest group taken.
    Capture {
        /// Size of the largest enemy group captured.
        enemy: usize,
    },
    /// A lone stone touching no enemy stone.
    Quiet,
    /// A lone stone touching enemy stones; `exposed` when the opponent can capture it with its next placement.
    Touch {
        /// True when the opponent has an immediate capture of the new stone.
        exposed: bool,
    },
}

/// Weights of the kinds; the priors are the weights normalised over the legal moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorWeights {
    /// Base weight of a capture.
    pub capture: f32,
    /// Extra capture weight per stone of the largest enemy group captured.
    pub capture_per_stone: f32,
    /// Weight of a quiet placement.
    pub quiet: f32,
    /// Weight of a placement touching enemy stones that the opponent cannot capture at once.
    pub touch: f32,
    /// Weight of a placement the opponent can capture at once.
    pub exposed: f32,
}

impl Default for PriorWeights {
    fn default() -> PriorWeights {
        PriorWeights {
            capture: 4.0,
            capture_per_stone: 1.0,
            quiet: 1.0,
            touch: 0.5,
            exposed: 0.1,
        }
    }
}

impl PriorWeights {
    /// The weight of a kind of placement.
    pub fn weight(&self, kind: Kind) -> f32 {
        match kind {
            Kind::Capture { enemy } => self.capture + self.capture_per_stone * enemy as f32,
            Kind::Quiet => self.quiet,
            Kind::Touch { exposed: false } => self.touch,
            Kind::Touch { exposed: true } => self.exposed,
        }
    }
}

/// The kind of the legal placement `p` of the side to move, from its probe.
pub fn kind_of(pos: &Position, p: Point, probe: Probe) -> Kind {
    if probe.joins {
        Kind::Capture { enemy: probe.enemy }
    } else if probe.enemy == 0 {
        Kind::Quiet
    } else {
        Kind::Touch {
            exposed: exposed(pos, p),
        }
    }
}

/// True when a lone stone of the side to move on `p` could be captured by the opponent's next placement: some
/// empty point next to `p`, or next to an enemy stone next to `p`, would join enemy stones into a group that
/// touches the new stone and is larger than every friendly group it touches. (Enemy groups are followed one step
/// from `p`, which is exact for lone enemy stones and a close guess for larger groups.)
pub fn exposed(pos: &Position, p: Point) -> bool {
    exposed_by(pos, p, |q| threatens(pos, q))
}

/// Whether an opponent's placement on `q` would join enemy stones into a group larger than a lone stone of the side
/// to move and every friendly group it touches: a threat to a lone stone next to `q`.
fn threatens(pos: &Position, q: Point) -> bool {
    // An enemy placement on `q` joins (and so can capture) only next to an enemy stone; the new stone adds a
    // friendly group of size 1 to those the enemy group must exceed.
    pos.color_at(q).is_none() && pos.touches(q).1 && pos.outgrows(pos.to_move().opponent(), q, 1)
}

/// [`exposed`], with `threat` saying whether a point is a threat (see [`threatens`]); `p` itself never is.
fn exposed_by(pos: &Position, p: Point, threat: impl Fn(Point) -> bool) -> bool {
    let enemy = pos.to_move().opponent();
    let geo = pos.geometry();
    let threat = |q: Point| q != p && threat(q);
    // An enemy placement next to the new stone touches it directly; one next to an enemy neighbour grows it.
    geo.neighbors(p).iter().any(|&n| match pos.color_at(n) {
        None => threat(n),
        Some(c) if c == enemy => geo.neighbors(n).iter().any(|&q| threat(q)),
        Some(_) => false,
    })
}

/// The legal moves of `pos` with their prior probabilities, best first. Empty when the game is over.
pub fn priors(pos: &Position, weights: &PriorWeights, out: &mut Vec<(Move, f32)>) {
    out.clear();
    let color = pos.to_move();
    if pos.winner().is_none() {
        for p in pos.geometry().points() {
            if pos.color_at(p).is_some() {
                continue;
            }
            // Without a friendly neighbour a placement is legal and captures nothing: the neighbour counts say
            // whether it is quiet, and only a joining placement needs the full probe.
            let kind = match pos.touches(p) {
                (false, false) => Kind::Quiet,
                (false, true) => Kind::Touch {
                    exposed: exposed(pos, p),
                },
                (true, _) => {
                    let probe = pos.probe(color, p);
                    if !probe.is_legal() {
                        continue;
                    }
                    kind_of(pos, p, probe)
                }
            };
            out.push((Move::Place(p), weights.weight(kind)));
        }
    }
    if out.is_empty() {
        if let Some(&mv) = pos.legal_moves().first() {
            out.push((mv, 1.0));
        }
        return;
    }
    let total: f32 = out.iter().map(|m| m.1).sum();
    for m in out.iter_mut() {
        m.1 /= total;
    }
    // Stable order: by prior, then by point, so that the tree is reproducible.
    sort_by_prior(out);
}

/// The empty points on which the opponent of the side to move could place next and capture a lone stone of the side
/// to move next to them: what [`exposed`] asks of the points around a placement, found once for a whole list of
/// placements. A placement of the side to move that touches no friendly stone changes none of it.
pub struct Threats {
    bits: [u64; SLOTS / 64],
}

impl Threats {
    /// The threats of `pos`.
    pub fn of(pos: &Position) -> Threats {
        let mut bits = [0u64; SLOTS / 64];
        for q in pos.geometry().points().filter(|&q| threatens(pos, q)) {
            bits[q.index() / 64] |= 1 << (q.index() % 64);
        }
        Threats { bits }
    }

    fn at(&self, q: Point) -> bool {
        self.bits[q.index() / 64] >> (q.index() % 64) & 1 != 0
    }

    /// [`exposed`]`(pos, p)`, for the position `pos` these threats are of.
    pub fn exposed(&self, pos: &Position, p: Point) -> bool {
        exposed_by(pos, p, |q| self.at(q))
    }
}

/// Distinct priors at most that [`sort_by_prior`] sorts by levels; more fall back to a comparison sort.
const PRIOR_LEVELS: usize = 16;
/// Moves at most that [`sort_by_prior`] sorts by levels (every board's points, with room to spare).
const LEVEL_MOVES: usize = 1024;

/// Sorts moves by prior, best first ([`f32::total_cmp`] reversed), keeping the order of moves with equal priors: the
/// order of a stable sort. Priors take few distinct values (one per kind of move, and per size of capture), so each
/// move's level is found among those few, and the moves are then copied, level by level, to their places after the
/// originals, which are dropped: two passes over the list instead of a comparison sort.
pub fn sort_by_prior(moves: &mut Vec<(Move, f32)>) {
    // What the levels stand in for, when there are too many moves or levels.
    fn comparison_sort(moves: &mut [(Move, f32)]) {
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    let n = moves.len();
    if n > LEVEL_MOVES {
        comparison_sort(moves);
        return;
    }
    // Levels by their bits: equal bits are exactly the priors that `total_cmp` finds equal.
    let mut levels = [0u32; PRIOR_LEVELS];
    let mut counts = [0usize; PRIOR_LEVELS];
    let mut level_of = [0u8; LEVEL_MOVES];
    let mut k = 0;
    for (i, &(_, prior)) in moves.iter().enumerate() {
        let bits = prior.to_bits();
        let level = match levels[..k].iter().position(|&l| l == bits) {
            Some(level) => level,
            None if k == PRIOR_LEVELS => {
                comparison_sort(moves);
                return;
            }
            None => {
                levels[k] = bits;
                k += 1;
                k - 1
            }
        };
        level_of[i] = level as u8;
        counts[level] += 1;
    }
    // Where each level starts in the sorted list: levels in descending order of prior.
    let mut order = [0u8; PRIOR_LEVELS];
    for (i, o) in order[..k].iter_mut().enumerate() {
        *o = i as u8;
    }
    order[..k].sort_unstable_by(|&a, &b| {
        f32::from_bits(levels[usize::from(b)]).total_cmp(&f32::from_bits(levels[usize::from(a)]))
    });
    let mut start = [0usize; PRIOR_LEVELS];
    let mut at = n;
    for &level in &order[..k] {
        start[usize::from(level)] = at;
        at += counts[usize::from(level)];
    }
    moves.extend_from_within(..);
    for i in 0..n {
        let level = usize::from(level_of[i]);
        moves[start[level]] = moves[i];
        start[level] += 1;
    }
    moves.drain(..n);
}

/// Uniform priors over the legal moves, in point order (for the plain UCT baseline).
pub fn uniform(pos: &Position, out: &mut Vec<(Move, f32)>) {
    out.clear();
    let moves = pos.legal_moves();
    let share = 1.0 / moves.len().max(1) as f32;
    out.extend(moves.into_iter().map(|m| (m, share)));
}

/// Plays one move of the biased playout policy and returns it, or `None` (changing nothing) when the game is over.
///
/// Random empty points are drawn until `candidates` legal ones are seen: the first capture drawn is played at once,
/// otherwise the first quiet placement, otherwise the first placement touching enemy stones. When the draws find
/// nothing legal, the legal placements are listed and one is chosen the same way; a forced pass is played as such.
pub fn play_biased(
    pos: &mut Position,
    rng: &mut Rng,
    candidates: usize,
    buf: &mut Vec<Point>,
) -> Option<Move> {
    match pos.geometry().fan() {
        4 => play_biased_n::<4>(pos, rng, candidates, buf),
        _ => play_biased_n::<MAX_DEGREE>(pos, rng, candidates, buf),
    }
}

/// Plays the biased policy ([`play_biased`]) from `pos` to the end of the game, at most `max_moves` moves, and
/// returns how the game ended (a draw when the cap is reached). The geometry's neighbour table size is looked up
/// once for the whole playout, not once a move.
pub fn biased_playout(
    pos: &mut Position,
    rng: &mut Rng,
    candidates: usize,
    buf: &mut Vec<Point>,
    max_moves: usize,
) -> Outcome {
    match pos.geometry().fan() {
        4 => biased_playout_n::<4>(pos, rng, candidates, buf, max_moves),
        _ => biased_playout_n::<MAX_DEGREE>(pos, rng, candidates, buf, max_moves),
    }
}

fn biased_playout_n<const N: usize>(
    pos: &mut Position,
    rng: &mut Rng,
    candidates: usize,
    buf: &mut Vec<Point>,
    max_moves: usize,
) -> Outcome {
    for _ in 0..max_moves {
        if play_biased_n::<N>(pos, rng, candidates, buf).is_none() {
            return pos.winner().map_or(Outcome::Draw, Outcome::Win);
        }
    }
    Outcome::Draw
}

/// [`play_biased`] on a geometry whose neighbour tables have `N` entries. A drawn point is classified from the
/// counts of its neighbouring stones: without a friendly neighbour it is legal, quiet or touching; with one it is
/// legal only as a capture, which is then played at once, the legality test and the placement sharing one look.
#[inline(always)]
fn play_biased_n<const N: usize>(
    pos: &mut Position,
    rng: &mut Rng,
    candidates: usize,
    buf: &mut Vec<Point>,
) -> Option<Move> {
    if pos.winner().is_some() {
        return None;
    }
    let color = pos.to_move();
    let empties = pos.empties().len();
    if empties == 0 {
        return None;
    }
    let mut fallback: Option<(Point, bool)> = None;
    let mut seen = 0;
    for _ in 0..(4 + empties) {
        let p = pos.empties()[rng.below(pos.empties().len())];
        let (joins, touches_enemy) = pos.touches(p);
        if joins {
            if pos.try_place_with::<N>(p).is_some() {
                return Some(Move::Place(p));
            }
            continue;
        }
        let quiet = !touches_enemy;
        if fallback.is_none_or(|(_, q)| quiet && !q) {
            fallback = Some((p, quiet));
        }
        seen += 1;
        if seen >= candidates {
            break;
        }
    }
    if let Some((p, _)) = fallback {
        let placed = pos.try_place_with::<N>(p);
        debug_assert!(
            placed.is_some(),
            "a placement without a friendly neighbour is legal"
        );
        return Some(Move::Place(p));
    }
    buf.clear();
    buf.extend(
        pos.empties()
            .iter()
            .copied()
            .filter(|&p| pos.is_legal_with::<N>(p)),
    );
    if buf.is_empty() {
        if pos.has_legal_placement(color.opponent()) {
            pos.pass_unchecked();
            return Some(Move::Pass);
        }
        return None;
    }
    let p = buf[rng.below(buf.len())];
    let placed = pos.try_place_with::<N>(p);
    debug_assert!(placed.is_some(), "a listed placement is legal");
    Some(Move::Place(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threats_say_what_exposed_says_for_every_point() {
        use crate::rules::{Geometry, Shape};
        use std::sync::Arc;
        let mut rng = Rng::new(7);
        let mut checked = [0usize; 2];
        for shape in [Shape::square(7), Shape::Hex { side: 4 }] {
            let geo = Arc::new(Geometry::new(shape).unwrap());
            for _ in 0..30 {
                let mut pos = Position::new(Arc::clone(&geo));
                while pos.winner().is_none() {
                    let threats = Threats::of(&pos);
                    for p in geo.points().filter(|&p| pos.color_at(p).is_none()) {
                        let e = exposed(&pos, p);
                        assert_eq!(threats.exposed(&pos, p), e, "{}", geo.name(p));
                        checked[usize::from(e)] += 1;
                    }
                    let moves = pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]).unwrap();
                }
            }
        }
        // Both answers came up many times.
        assert!(checked.iter().all(|&n| n > 1000), "{checked:?}");
    }

    /// The order a stable comparison sort gives.
    fn stable(moves: &[(Move, f32)]) -> Vec<(Move, f32)> {
        let mut sorted = moves.to_vec();
        sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
        sorted
    }

    fn bits(moves: &[(Move, f32)]) -> Vec<(Move, u32)> {
        moves.iter().map(|&(mv, x)| (mv, x.to_bits())).collect()
    }

    #[test]
    fn sorting_by_prior_gives_the_order_of_a_stable_sort() {
        let mut rng = Rng::new(3);
        let specials = [0.0, -0.0, f32::NAN, f32::INFINITY, -1.0, 1e-30];
        // Few levels (the usual case), more than sort by levels, and more moves than sort by levels.
        for (levels, len) in [
            (1, 0),
            (1, 1),
            (3, 81),
            (6, 361),
            (16, 50),
            (17, 50),
            (40, 200),
            (4, 1100),
        ] {
            for round in 0..20 {
                let values: Vec<f32> = (0..levels)
                    .map(|i| {
                        if round % 4 == 0 && i < specials.len() {
                            specials[i]
                        } else {
                            rng.below(1000) as f32 / 7.0
                        }
                    })
                    .collect();
                let mut moves: Vec<(Move, f32)> = (0..len)
                    .map(|i| (Move::Place(Point::from_index(i)), values[rng.below(levels)]))
                    .collect();
                if round % 5 == 1 {
                    moves.push((Move::Pass, values[0]));
                }
                let expected = stable(&moves);
                sort_by_prior(&mut moves);
                assert_eq!(
                    bits(&moves),
                    bits(&expected),
                    "{levels} levels, {len} moves"
                );
            }
        }
    }
}
