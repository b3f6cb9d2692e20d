//! The policy and value network: a small residual convolutional network over the cells of the board, one for
//! square and rectangular boards and one for hexhex boards, that serves every board of its family (off-board
//! neighbours read as zeros, and the value head pools over the board's cells).
//!
//! - **Inputs**: the planes of [`features`] (version [`features::INPUT_VERSION`]).
//! - **Trunk**: a convolution to `channels`, then `blocks` residual blocks of two convolutions (ReLU after each,
//!   the second after the skip is added). A convolution reads a cell and its neighbours: the 3x3 square around it
//!   on square boards, the cell and its six neighbours on the hexhex grid (the rhombus grid of Polygames and
//!   MoHex).
//! - **Policy**: one logit a cell (a 1x1 convolution), a softmax over the legal placements. A pass is always
//!   forced and the pie rule's swap is the search's business, so neither has an output.
//! - **Value**: the mean and the maximum of each channel over the board's cells, a hidden layer with ReLU, and one
//!   logit: the side to move's chance to win is its sigmoid.
//!
//! The network is plain data and arithmetic with no I/O: [`Net::from_bytes`] reads the bytes of a weights file and
//! [`Net::to_bytes`] writes them. Training (in [`crate::learn`]) uses [`Net::train_sample`], which adds one
//! sample's gradients.

pub mod features;
mod file;
pub mod int8;
pub mod kernels;
pub mod quant;
mod train;

pub use file::{BUILT_IN_HEX, BUILT_IN_SQUARE, MAGIC, built_in};
pub use train::{Losses, Trace};

use std::fmt;
use std::sync::Arc;

use crate::rules::{Geometry, Point, Position, Shape};

use kernels::{ConvShape, conv_forward};

/// Inputs of the network.
pub const INPUTS: usize = features::PLANES;

/// The board families: one network serves every board of its family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Square and rectangular boards.
    Square,
    /// Hexhex boards.
    Hex,
}

impl Family {
    /// The family of boards of `shape`.
    pub fn of(shape: Shape) -> Family {
        if shape.is_hex() {
            Family::Hex
        } else {
            Family::Square
        }
    }

    /// `square` or `hex`.
    pub fn name(self) -> &'static str {
        match self {
            Family::Square => "square",
            Family::Hex => "hex",
        }
    }

    /// The family named `s`.
    pub fn parse(s: &str) -> Option<Family> {
        match s {
            "square" => Some(Family::Square),
            "hex" => Some(Family::Hex),
            _ => None,
        }
    }

    /// Grid offsets that a convolution reads, the cell itself first.
    pub fn offsets(self) -> &'static [(isize, isize)] {
        match self {
            Family::Square => &[
                (0, 0),
                (-1, 0),
                (1, 0),
                (0, -1),
                (0, 1),
                (-1, -1),
                (1, -1),
                (-1, 1),
                (1, 1),
            ],
            Family::Hex => &[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)],
        }
    }
}

/// How the engine computes the network: in floats (the reference, and how it trains) or in integers
/// ([`quant`]: 8-bit weights and activations, several times faster on the same core, the same bits everywhere).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// 32-bit floats.
    Float,
    /// 8-bit integers with 32-bit sums.
    #[default]
    Int8,
}

impl Precision {
    /// `float` or `int8`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Float => "float",
            Precision::Int8 => "int8",
        }
    }

    /// The precision named `s`.
    pub fn parse(s: &str) -> Option<Precision> {
        match s {
            "float" => Some(Precision::Float),
            "int8" => Some(Precision::Int8),
            _ => None,
        }
    }
}

/// The size of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Channels of the trunk.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Units of the value head's hidden layer.
    pub value_hidden: usize,
}

impl Size {
    fn check(self) -> Result<Size, String> {
        if !(1..=256).contains(&self.channels) {
            return Err(format!(
                "{} channels: the network has 1 to 256",
                self.channels
            ));
        }
        if self.blocks > 40 {
            return Err(format!("{} blocks: the network has 0 to 40", self.blocks));
        }
        if !(1..=1024).contains(&self.value_hidden) {
            return Err(format!(
                "{} value units: the network has 1 to 1024",
                self.value_hidden
            ));
        }
        Ok(self)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{} (value {})",
            self.blocks, self.channels, self.value_hidden
        )
    }
}

/// Where each tensor lies in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    at: usize,
    len: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    /// Stem weights and bias, then each block's two convolutions' weights and biases.
    convs: Vec<(Span, Span, ConvDims)>,
    policy_w: Span,
    policy_b: Span,
    value1_w: Span,
    value1_b: Span,
    value2_w: Span,
    value2_b: Span,
    total: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ConvDims {
    k: usize,
    cin: usize,
    cout: usize,
}

impl ConvDims {
    fn shape(self) -> ConvShape {
        ConvShape {
            k: self.k,
            cin: self.cin,
            cout: self.cout,
        }
    }
}

impl Layout {
    fn new(family: Family, size: Size) -> Layout {
        let k = family.offsets().len();
        let c = size.channels;
        let mut at = 0;
        let mut span = |len: usize| {
            let s = Span { at, len };
            at += len;
            s
        };
        let mut convs = Vec::new();
        let stem = ConvDims {
            k,
            cin: INPUTS,
            cout: c,
        };
        convs.push((span(k * INPUTS * c), span(c), stem));
        for _ in 0..2 * size.blocks {
            let d = ConvDims { k, cin: c, cout: c };
            convs.push((span(k * c * c), span(c), d));
        }
        let policy_w = span(c);
        let policy_b = span(1);
        let value1_w = span(2 * c * size.value_hidden);
        let value1_b = span(size.value_hidden);
        let value2_w = span(size.value_hidden);
        let value2_b = span(1);
        Layout {
            convs,
            policy_w,
            policy_b,
            value1_w,
            value1_b,
            value2_w,
            value2_b,
            total: at,
        }
    }
}

fn slice(p: &[f32], s: Span) -> &[f32] {
    &p[s.at..s.at + s.len]
}

/// The gather table of a board for a family's kernel: for each cell and offset the neighbour's index, or the index
/// of the row of zeros after the cells when the neighbour is off the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    cells: usize,
    k: usize,
    nbr: Vec<u32>,
}

impl Grid {
    /// The table of `geo` for `family`'s kernel.
    pub fn new(geo: &Geometry, family: Family) -> Grid {
        let n = geo.len();
        let offsets = family.offsets();
        let mut nbr = Vec::with_capacity(n * offsets.len());
        for p in geo.points() {
            let (x, y) = geo.coords(p);
            for &(dx, dy) in offsets {
                let q = x
                    .checked_add_signed(dx)
                    .zip(y.checked_add_signed(dy))
                    .and_then(|(u, v)| geo.point_at(u, v));
                nbr.push(q.map_or(n as u32, |q| q.index() as u32));
            }
        }
        Grid {
            cells: n,
            k: offsets.len(),
            nbr,
        }
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }
}

/// A network: its family, size and parameters.
#[derive(Clone, PartialEq)]
pub struct Net {
    family: Family,
    size: Size,
    layout: Layout,
    params: Vec<f32>,
    /// A name for messages: `built-in` or the file it came from.
    pub name: String,
}

impl fmt::Debug for Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Net({} {}, {} {} parameters)",
            self.name,
            self.family.name(),
            self.size,
            self.params.len()
        )
    }
}

/// What the network says of a position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Each legal placement with its probability, in point order.
    pub policy: Vec<(Point, f32)>,
    /// The side to move's chance to win.
    pub value: f32,
}

/// Buffers of one evaluation, kept by a search thread between evaluations.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    features: features::Scratch,
    input: Vec<f32>,
    /// Activations: the trunk's input of the current layer, the block's middle, the output.
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    grid: Option<(Shape, Arc<Grid>)>,
    quant: quant::QScratch,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Logits into probabilities, in place.
fn softmax(logits: &mut [(Point, f32)]) {
    let max = logits.iter().map(|l| l.1).fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for l in logits.iter_mut() {
        l.1 = (l.1 - max).exp();
        total += l.1;
    }
    for l in logits.iter_mut() {
        l.1 /= total;
    }
}

fn relu_inplace(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

impl Net {
    /// A network with every parameter drawn from `seed`: He-scaled weights, zero biases, and the second convolution
    /// of each block scaled down so that a new network starts near the identity of its blocks.
    ///
    /// # Errors
    /// A size out of range.
    pub fn random(family: Family, size: Size, seed: u64) -> Result<Net, String> {
        let size = size.check()?;
        let layout = Layout::new(family, size);
        let mut params = vec![0.0f32; layout.total];
        let mut rng = crate::rng::Rng::new(seed ^ 0x6e65_7477_6f72_6b21);
        let mut fill = |p: &mut [f32], fan_in: usize, scale: f32| {
            let sd = scale * (2.0 / fan_in as f32).sqrt();
            for v in p.iter_mut() {
                // A sum of uniforms is near enough normal for a start.
                let u: f32 = (0..4)
                    .map(|_| rng.below(1 << 20) as f32 / (1 << 20) as f32)
                    .sum::<f32>()
                    - 2.0;
                *v = u * sd * (3.0f32).sqrt() / 2.0;
            }
        };
        for (i, (w, _, d)) in layout.convs.iter().enumerate() {
            let scale = if i > 0 && i % 2 == 0 { 0.1 } else { 1.0 };
            fill(&mut params[w.at..w.at + w.len], d.k * d.cin, scale);
        }
        let c = size.channels;
        fill(
            &mut params[layout.policy_w.at..layout.policy_w.at + layout.policy_w.len],
            c,
            0.5,
        );
        fill(
            &mut params[layout.value1_w.at..layout.value1_w.at + layout.value1_w.len],
            2 * c,
            1.0,
        );
        fill(
            &mut params[layout.value2_w.at..layout.value2_w.at + layout.value2_w.len],
            size.value_hidden,
            0.5,
        );
        Ok(Net {
            family,
            size,
            layout,
            params,
            name: "random".into(),
        })
    }

    /// Its family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Its size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Its parameters, in the order of the file.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Its parameters, to change them (training).
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// Multiply-adds of one evaluation on a board of `cells` cells (for reports).
    pub fn flops(&self, cells: usize) -> usize {
        self.layout
            .convs
            .iter()
            .map(|(_, _, d)| cells * d.k * d.cin * d.cout)
            .sum::<usize>()
            + cells * self.size.channels
            + 2 * self.size.channels * self.size.value_hidden
    }

    fn grid(&self, scratch: &mut Scratch, geo: &Geometry) -> Arc<Grid> {
        match &scratch.grid {
            Some((shape, g)) if *shape == geo.shape() => g.clone(),
            _ => {
                let g = Arc::new(Grid::new(geo, self.family));
                scratch.grid = Some((geo.shape(), g.clone()));
                g
            }
        }
    }

    /// Evaluates `pos`, whose previous placement was `last`. The caller checks that the board is of the network's
    /// family and that the game is not over.
    pub fn evaluate(
        &self,
        pos: &Position,
        last: Option<Point>,
        scratch: &mut Scratch,
    ) -> Evaluation {
        let grid = self.grid(scratch, pos.geometry());
        let mut input = std::mem::take(&mut scratch.input);
        features::encode(pos, last, &mut scratch.features, &mut input);
        let n = grid.cells;
        let c = self.size.channels;
        let p = &self.params;
        // The input with its row of zeros.
        input.resize((n + 1) * INPUTS, 0.0);
        let (mut a, mut b, mut t) = (
            std::mem::take(&mut scratch.a),
            std::mem::take(&mut scratch.b),
            std::mem::take(&mut scratch.c),
        );
        for v in [&mut a, &mut b, &mut t] {
            v.clear();
            v.resize((n + 1) * c, 0.0);
        }
        let convs = &self.layout.convs;
        let (w, bias, d) = convs[0];
        conv_forward(
            &d.shape(),
            &grid.nbr,
            &input,
            slice(p, w),
            slice(p, bias),
            &mut a[..n * c],
            true,
        );
        for blk in 0..self.size.blocks {
            let (w1, b1, d1) = convs[1 + 2 * blk];
            let (w2, b2, d2) = convs[2 + 2 * blk];
            conv_forward(
                &d1.shape(),
                &grid.nbr,
                &a,
                slice(p, w1),
                slice(p, b1),
                &mut t[..n * c],
                true,
            );
            conv_forward(
                &d2.shape(),
                &grid.nbr,
                &t,
                slice(p, w2),
                slice(p, b2),
                &mut b[..n * c],
                false,
            );
            for (y, &x) in b[..n * c].iter_mut().zip(&a[..n * c]) {
                *y = (*y + x).max(0.0);
            }
            std::mem::swap(&mut a, &mut b);
        }
        let (policy, value) = self.heads(&a[..n * c], &input, n, None);
        let legal: Vec<(Point, f32)> = policy;
        scratch.input = input;
        scratch.a = a;
        scratch.b = b;
        scratch.c = t;
        Evaluation {
            policy: legal,
            value,
        }
    }

    /// The heads on the trunk's output `h` (`n` rows): the legal placements' probabilities and the value. With a
    /// trace, keeps what the gradients need.
    fn heads(
        &self,
        h: &[f32],
        input: &[f32],
        n: usize,
        trace: Option<&mut Trace>,
    ) -> (Vec<(Point, f32)>, f32) {
        let c = self.size.channels;
        let p = &self.params;
        let pw = slice(p, self.layout.policy_w);
        let pb = p[self.layout.policy_b.at];
        let mut logits = Vec::new();
        for i in 0..n {
            if input[i * INPUTS + 3] != 0.0 {
                let row = &h[i * c..(i + 1) * c];
                let mut s = pb;
                for (x, w) in row.iter().zip(pw) {
                    s += x * w;
                }
                logits.push((Point::from_index(i), s));
            }
        }
        softmax(&mut logits);
        // Value: mean and max pooling.
        let mut pooled = vec![0.0f32; 2 * c];
        let mut argmax = vec![0usize; c];
        for ch in 0..c {
            let mut sum = 0.0;
            let mut best = f32::NEG_INFINITY;
            for i in 0..n {
                let v = h[i * c + ch];
                sum += v;
                if v > best {
                    best = v;
                    argmax[ch] = i;
                }
            }
            pooled[ch] = sum / n as f32;
            pooled[c + ch] = best;
        }
        let (hidden, logit) = self.value_logit(&pooled);
        if let Some(t) = trace {
            t.pooled = pooled;
            t.argmax = argmax;
            t.hidden = hidden;
            t.logits = vec![logit];
        }
        (logits, sigmoid(logit))
    }

    /// The value head after its pooling: the hidden layer (after its ReLU) and the logit.
    fn value_logit(&self, pooled: &[f32]) -> (Vec<f32>, f32) {
        let p = &self.params;
        let hid = self.size.value_hidden;
        let w1 = slice(p, self.layout.value1_w);
        let mut hidden = slice(p, self.layout.value1_b).to_vec();
        for (j, &x) in pooled.iter().enumerate() {
            if x != 0.0 {
                for (o, w) in hidden.iter_mut().zip(&w1[j * hid..(j + 1) * hid]) {
                    *o += x * w;
                }
            }
        }
        relu_inplace(&mut hidden);
        let w2 = slice(p, self.layout.value2_w);
        let mut logit = p[self.layout.value2_b.at];
        for (x, w) in hidden.iter().zip(w2) {
            logit += x * w;
        }
        (hidden, logit)
    }
}

/// A small random network of `family` for the tests of this module's files.
#[cfg(test)]
fn small_net(family: Family) -> Net {
    Net::random(
        family,
        Size {
            channels: 6,
            blocks: 2,
            value_hidden: 5,
        },
        3,
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;

    /// Inference and the training pass agree, and the policy covers exactly the legal placements.
    #[test]
    fn evaluation_matches_the_training_pass_and_covers_the_legal_placements() {
        let geo = Arc::new(Geometry::new(Shape::Hex { side: 4 }).unwrap());
        let mut pos = Position::new(geo.clone());
        for m in [3usize, 10, 4, 20] {
            pos.play(crate::rules::Move::Place(Point::from_index(m)))
                .unwrap();
        }
        let net = small_net(Family::Hex);
        let e = net.evaluate(&pos, Some(Point::from_index(20)), &mut Scratch::default());
        let legal: Vec<Point> = pos
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                crate::rules::Move::Place(p) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(e.policy.iter().map(|p| p.0).collect::<Vec<_>>(), legal);
        assert!((e.policy.iter().map(|p| p.1).sum::<f32>() - 1.0).abs() < 1e-4);
        let mut input = Vec::new();
        features::encode(
            &pos,
            Some(Point::from_index(20)),
            &mut features::Scratch::default(),
            &mut input,
        );
        let mut g = vec![0.0; net.params.len()];
        let l = net.train_sample(
            &Grid::new(&geo, Family::Hex),
            &input,
            &vec![0.0; geo.len()],
            1.0,
            1.0,
            &mut g,
            &mut Trace::default(),
        );
        assert_eq!(l.predicted, e.value);
    }
}
