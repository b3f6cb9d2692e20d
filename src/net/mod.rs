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
pub mod int8;
pub mod kernels;
pub mod quant;

use std::fmt;
use std::sync::Arc;

use crate::rules::{Geometry, Point, Position, Shape};

use kernels::{ConvShape, conv_backward, conv_forward};

/// The first line of a weights file, with its format version.
pub const MAGIC: &str = "oust-net 1";

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

/// The activations of one sample, kept for its gradients.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The input of each convolution (with its row of zeros), then the trunk's output.
    acts: Vec<Vec<f32>>,
    pooled: Vec<f32>,
    /// For each channel, the cell of its maximum.
    argmax: Vec<usize>,
    hidden: Vec<f32>,
    logits: Vec<f32>,
}

/// The losses of one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// Cross-entropy of the policy against the target shares, in nats.
    pub policy: f64,
    /// Log loss of the value against the result, in nats.
    pub value: f64,
    /// Squared error of the value (the Brier score).
    pub brier: f64,
    /// The target's largest share went to the policy's top cell.
    pub top1: bool,
    /// The value, the side to move's chance to win.
    pub predicted: f32,
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

    /// One training sample: runs the network on the planes `input` (`grid.cells()` rows of [`INPUTS`] values, as
    /// [`features::encode`] makes them) and adds to `grad` (as long as the parameters) the gradients of the loss
    /// `policy cross-entropy + value_weight * value log loss` against the target shares `target` (one a cell, summing
    /// to 1 over the legal cells) and the side to move's result `z` (1 a win, 0 a loss). Returns the losses.
    #[allow(clippy::too_many_arguments)]
    pub fn train_sample(
        &self,
        grid: &Grid,
        input: &[f32],
        target: &[f32],
        z: f32,
        value_weight: f32,
        grad: &mut [f32],
        trace: &mut Trace,
    ) -> Losses {
        self.sample(grid, input, target, z, value_weight, Some(grad), trace)
    }

    /// The losses of [`Net::train_sample`] alone, without its gradients (a forward pass).
    pub fn losses(
        &self,
        grid: &Grid,
        input: &[f32],
        target: &[f32],
        z: f32,
        trace: &mut Trace,
    ) -> Losses {
        self.sample(grid, input, target, z, 1.0, None, trace)
    }

    /// [`Net::train_sample`], its gradients added to `grad` when there is one.
    #[allow(clippy::too_many_arguments)]
    fn sample(
        &self,
        grid: &Grid,
        input: &[f32],
        target: &[f32],
        z: f32,
        value_weight: f32,
        grad: Option<&mut [f32]>,
        trace: &mut Trace,
    ) -> Losses {
        let n = grid.cells;
        let c = self.size.channels;
        let p = &self.params;
        let convs = &self.layout.convs;
        // Forward, keeping each convolution's input.
        let layers = convs.len();
        trace.acts.resize(layers + 1, Vec::new());
        {
            let x = &mut trace.acts[0];
            x.clear();
            x.extend_from_slice(&input[..n * INPUTS]);
            x.resize((n + 1) * INPUTS, 0.0);
        }
        for (l, &(w, b, d)) in convs.iter().enumerate() {
            let (before, after) = trace.acts.split_at_mut(l + 1);
            let out = &mut after[0];
            out.clear();
            out.resize((n + 1) * c, 0.0);
            let relu = l == 0 || l % 2 == 1;
            conv_forward(
                &d.shape(),
                &grid.nbr,
                &before[l],
                slice(p, w),
                slice(p, b),
                &mut out[..n * c],
                relu,
            );
            if l > 0 && l % 2 == 0 {
                // The block's end: the skip from the block's input (the input of layer l - 1), then ReLU.
                let skip = &before[l - 1];
                for (y, &x) in out[..n * c].iter_mut().zip(&skip[..n * c]) {
                    *y = (*y + x).max(0.0);
                }
            }
        }
        let h = trace.acts[layers].clone();
        let (policy, value) = {
            let mut t = std::mem::take(trace);
            let r = self.heads(&h[..n * c], input, n, Some(&mut t));
            *trace = t;
            r
        };
        // Losses.
        let mut ce = 0.0f64;
        let mut top_target = (f32::NEG_INFINITY, usize::MAX);
        let mut top_policy = (f32::NEG_INFINITY, usize::MAX);
        for &(pt, q) in &policy {
            let t = target[pt.index()];
            if t > 0.0 {
                ce -= f64::from(t) * f64::from(q.max(1e-12)).ln();
            }
            if t > top_target.0 {
                top_target = (t, pt.index());
            }
            if q > top_policy.0 {
                top_policy = (q, pt.index());
            }
        }
        let v = value.clamp(1e-6, 1.0 - 1e-6);
        let vloss =
            -(f64::from(z) * f64::from(v).ln() + f64::from(1.0 - z) * f64::from(1.0 - v).ln());
        let losses = Losses {
            policy: ce,
            value: vloss,
            brier: f64::from((value - z) * (value - z)),
            top1: top_target.1 == top_policy.1,
            predicted: value,
        };
        let Some(grad) = grad else {
            return losses;
        };
        // Backward through the heads into dh.
        let mut dh = vec![0.0f32; (n + 1) * c];
        let pw = slice(p, self.layout.policy_w);
        {
            let g = &mut grad[self.layout.policy_w.at..self.layout.policy_w.at + c + 1];
            for &(pt, q) in &policy {
                let i = pt.index();
                let dl = q - target[i];
                if dl == 0.0 {
                    continue;
                }
                let row = &h[i * c..(i + 1) * c];
                for ch in 0..c {
                    g[ch] += dl * row[ch];
                    dh[i * c + ch] += dl * pw[ch];
                }
                g[c] += dl;
            }
        }
        let dlogit = value_weight * (value - z);
        let hid = self.size.value_hidden;
        let w2 = slice(p, self.layout.value2_w);
        let mut dhidden = vec![0.0f32; hid];
        for j in 0..hid {
            grad[self.layout.value2_w.at + j] += dlogit * trace.hidden[j];
            if trace.hidden[j] > 0.0 {
                dhidden[j] = dlogit * w2[j];
            }
        }
        grad[self.layout.value2_b.at] += dlogit;
        let w1 = slice(p, self.layout.value1_w);
        let mut dpooled = vec![0.0f32; 2 * c];
        for (j, &x) in trace.pooled.iter().enumerate() {
            let g = &mut grad
                [self.layout.value1_w.at + j * hid..self.layout.value1_w.at + (j + 1) * hid];
            let mut s = 0.0;
            for k in 0..hid {
                g[k] += x * dhidden[k];
                s += w1[j * hid + k] * dhidden[k];
            }
            dpooled[j] = s;
        }
        for (k, &d) in dhidden.iter().enumerate() {
            grad[self.layout.value1_b.at + k] += d;
        }
        for ch in 0..c {
            let mean = dpooled[ch] / n as f32;
            for i in 0..n {
                dh[i * c + ch] += mean;
            }
            dh[trace.argmax[ch] * c + ch] += dpooled[c + ch];
        }
        // Backward through the trunk, block by block from the top: a block's output is relu(conv2(relu(conv1(x)))
        // + x), and the stem's relu(conv(input)).
        let mut g = dh;
        for blk in (0..self.size.blocks).rev() {
            let (l1, l2) = (1 + 2 * blk, 2 + 2 * blk);
            let out = &trace.acts[l2 + 1];
            relu_grad(&mut g[..n * c], &out[..n * c]);
            let mid = &trace.acts[l2];
            let mut dmid = vec![0.0f32; mid.len()];
            self.conv_grad(grid, l2, mid, &g[..n * c], grad, Some(&mut dmid));
            relu_grad(&mut dmid[..n * c], &mid[..n * c]);
            let x = &trace.acts[l1];
            let mut dx = vec![0.0f32; x.len()];
            self.conv_grad(grid, l1, x, &dmid[..n * c], grad, Some(&mut dx));
            for (a, s) in dx[..n * c].iter_mut().zip(&g[..n * c]) {
                *a += s;
            }
            dx[n * c..].iter_mut().for_each(|v| *v = 0.0);
            g = dx;
        }
        relu_grad(&mut g[..n * c], &trace.acts[1][..n * c]);
        self.conv_grad(grid, 0, &trace.acts[0], &g[..n * c], grad, None);
        losses
    }

    /// Adds the gradients of convolution `l` on input `x` for the output gradient `dout`.
    fn conv_grad(
        &self,
        grid: &Grid,
        l: usize,
        x: &[f32],
        dout: &[f32],
        grad: &mut [f32],
        dx: Option<&mut [f32]>,
    ) {
        let (w, b, d) = self.layout.convs[l];
        let (lo, hi) = grad.split_at_mut(b.at);
        conv_backward(
            &d.shape(),
            &grid.nbr,
            x,
            slice(&self.params, w),
            dout,
            &mut lo[w.at..w.at + w.len],
            &mut hi[..b.len],
            dx,
        );
    }
}

/// Zeroes the gradient where the ReLU's output `y` was 0.
fn relu_grad(g: &mut [f32], y: &[f32]) {
    for (g, &y) in g.iter_mut().zip(y) {
        if y <= 0.0 {
            *g = 0.0;
        }
    }
}

/// FNV-1a over bytes: the file's checksum, which finds a file damaged after it was written.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Net {
    /// The checksum of the parameters, as a weights file's header gives it (`checksum ...`): it names a network.
    pub fn checksum(&self) -> u64 {
        let data: Vec<u8> = self.params.iter().flat_map(|x| x.to_le_bytes()).collect();
        checksum(&data)
    }

    /// The bytes of a weights file: a text header, then the parameters as little-endian 32-bit floats.
    ///
    /// ```text
    /// oust-net 1
    /// family hex
    /// inputs oust-input-1
    /// channels 32
    /// blocks 4
    /// value-hidden 32
    /// parameters 80129
    /// checksum 0123456789abcdef
    /// data
    /// ```
    pub fn to_bytes(&self, comment: &str) -> Vec<u8> {
        let data: Vec<u8> = self.params.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = format!("{MAGIC}\n");
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!(
            "family {}\ninputs {}\nchannels {}\nblocks {}\nvalue-hidden {}\nparameters {}\nchecksum {:016x}\ndata\n",
            self.family.name(),
            features::INPUT_VERSION,
            self.size.channels,
            self.size.blocks,
            self.size.value_hidden,
            self.params.len(),
            checksum(&data)
        ));
        let mut bytes = out.into_bytes();
        bytes.extend(data);
        bytes
    }

    /// Reads the bytes of a weights file.
    ///
    /// # Errors
    /// A message that says what is wrong: not a network file, another format or input version, a header line
    /// missing or wrong, a size out of range, fewer or more parameter bytes than the header says (a truncated
    /// file), a checksum that does not match, or a parameter that is not finite.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Net, String> {
        let mut rest = bytes;
        let mut line_no = 0;
        let mut next_line = |rest: &mut &[u8]| -> Result<Option<String>, String> {
            let Some(end) = rest.iter().position(|&b| b == b'\n') else {
                return Ok(None);
            };
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| format!("line {}: not text", line_no + 1))?
                .to_string();
            *rest = &rest[end + 1..];
            line_no += 1;
            Ok(Some(line))
        };
        let first = next_line(&mut rest).ok().flatten();
        match first.as_deref() {
            Some(MAGIC) => {}
            Some(l) if l.starts_with("oust-net ") => {
                return Err(format!(
                    "'{l}' is another version of the network format (this engine reads '{MAGIC}')"
                ));
            }
            Some(l) if l.starts_with("oust-weights ") => {
                return Err(
                    "a weights file of the learned priors (oust train), not a network".into(),
                );
            }
            _ => {
                return Err(format!(
                    "not a network file (it does not start with '{MAGIC}')"
                ));
            }
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let Some(line) = next_line(&mut rest)? else {
                return Err("truncated: the header ends before its 'data' line".into());
            };
            if line == "data" {
                break;
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (k, v) = line
                .split_once(' ')
                .ok_or_else(|| format!("header line '{line}' is not 'NAME VALUE'"))?;
            if fields.iter().any(|(f, _)| f == k) {
                return Err(format!("header field '{k}' is given twice"));
            }
            fields.push((k.to_string(), v.to_string()));
        }
        let field = |k: &str| -> Result<&str, String> {
            fields
                .iter()
                .find(|(f, _)| f == k)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("the header has no '{k}' line"))
        };
        let number = |k: &str| -> Result<usize, String> {
            let v = field(k)?;
            v.parse()
                .map_err(|_| format!("header field '{k}': '{v}' is not a whole number"))
        };
        let family = Family::parse(field("family")?).ok_or_else(|| {
            format!(
                "family '{}' is neither square nor hex",
                field("family").unwrap_or("")
            )
        })?;
        let inputs = field("inputs")?;
        if inputs != features::INPUT_VERSION {
            return Err(format!(
                "its inputs are '{inputs}', and this engine computes '{}'",
                features::INPUT_VERSION
            ));
        }
        let size = Size {
            channels: number("channels")?,
            blocks: number("blocks")?,
            value_hidden: number("value-hidden")?,
        }
        .check()?;
        let layout = Layout::new(family, size);
        let count = number("parameters")?;
        if count != layout.total {
            return Err(format!(
                "the header says {count} parameters, and a {} network of size {size} has {}",
                family.name(),
                layout.total
            ));
        }
        let sum = field("checksum")?;
        let sum = u64::from_str_radix(sum, 16)
            .map_err(|_| format!("checksum '{sum}' is not hexadecimal"))?;
        if rest.len() != 4 * count {
            return Err(format!(
                "{}: {} bytes of parameters where the header says {}",
                if rest.len() < 4 * count {
                    "truncated"
                } else {
                    "too long"
                },
                rest.len(),
                4 * count
            ));
        }
        if checksum(rest) != sum {
            return Err("the parameters do not match the checksum: the file is damaged".into());
        }
        let params: Vec<f32> = rest
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(i) = params.iter().position(|v| !v.is_finite() || v.abs() > 1e6) {
            return Err(format!(
                "parameter {i} is {}, not a finite number up to 1e6",
                params[i]
            ));
        }
        Ok(Net {
            family,
            size,
            layout,
            params,
            name: name.to_string(),
        })
    }
}

/// The network built into the binary for square and rectangular boards (docs/learning.md says how it was made).
pub const BUILT_IN_SQUARE: &[u8] = include_bytes!("../../weights/oust-net-square.net");

/// The network built into the binary for hexhex boards.
pub const BUILT_IN_HEX: &[u8] = include_bytes!("../../weights/oust-net-hex.net");

/// The built-in network of `family`, read once.
pub fn built_in(family: Family) -> Arc<Net> {
    static NETS: [std::sync::OnceLock<Arc<Net>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let (cell, bytes) = match family {
        Family::Square => (&NETS[0], BUILT_IN_SQUARE),
        Family::Hex => (&NETS[1], BUILT_IN_HEX),
    };
    cell.get_or_init(|| {
        let net = Net::from_bytes(bytes, "built-in").expect("the built-in networks read");
        assert_eq!(net.family(), family, "the built-in network's family");
        Arc::new(net)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Geometry;

    fn small(family: Family) -> Net {
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

    #[test]
    fn a_file_reads_back_the_same_network_and_damage_is_refused_with_its_reason() {
        let net = small(Family::Hex);
        let bytes = net.to_bytes("a test\nsecond line");
        let back = Net::from_bytes(&bytes, "x").unwrap();
        assert_eq!(back.params, net.params);
        assert_eq!((back.family, back.size), (net.family, net.size));
        let err = |b: &[u8]| Net::from_bytes(b, "x").unwrap_err();
        assert!(
            err(&bytes[..bytes.len() - 3]).starts_with("truncated: "),
            "{}",
            err(&bytes[..bytes.len() - 3])
        );
        assert!(err(b"hello\n").starts_with("not a network file"));
        assert!(err(b"").starts_with("not a network file"));
        assert!(err(b"oust-weights 1\nfeatures x\n").contains("learned priors"));
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(err(&damaged).contains("damaged"));
        let text = String::from_utf8_lossy(&bytes).replace("oust-input-1", "oust-input-0");
        assert!(err(text.as_bytes()).contains("'oust-input-0'"));
    }

    /// The gradients of `train_sample` are those of its loss: checked against finite differences on a few
    /// parameters of every kind.
    #[test]
    fn gradients_match_finite_differences() {
        for family in [Family::Square, Family::Hex] {
            let geo = Arc::new(
                Geometry::new(if family == Family::Hex {
                    Shape::Hex { side: 3 }
                } else {
                    Shape::square(4)
                })
                .unwrap(),
            );
            let mut pos = Position::new(geo.clone());
            let moves = [0usize, 5, 1, 9, 6];
            for &m in &moves {
                let p = Point::from_index(m);
                let mut next = pos.clone();
                if pos.is_legal(p)
                    && next.play(crate::rules::Move::Place(p)).is_ok()
                    && next.winner().is_none()
                {
                    pos = next;
                }
            }
            let grid = Grid::new(&geo, family);
            let mut input = Vec::new();
            features::encode(&pos, None, &mut features::Scratch::default(), &mut input);
            let legal: Vec<usize> = (0..geo.len())
                .filter(|&i| input[i * INPUTS + 3] != 0.0)
                .collect();
            let mut target = vec![0.0f32; geo.len()];
            target[legal[0]] = 0.75;
            target[legal[legal.len() - 1]] += 0.25;
            let mut net = small(family);
            // Make every bias nonzero, so their gradients are exercised.
            for v in net.params.iter_mut() {
                *v *= 1.5;
            }
            let loss = |net: &Net| {
                let mut g = vec![0.0; net.params.len()];
                let l = net.train_sample(
                    &grid,
                    &input,
                    &target,
                    1.0,
                    0.7,
                    &mut g,
                    &mut Trace::default(),
                );
                l.policy + 0.7 * l.value
            };
            let mut grad = vec![0.0; net.params.len()];
            net.train_sample(
                &grid,
                &input,
                &target,
                1.0,
                0.7,
                &mut grad,
                &mut Trace::default(),
            );
            let total = net.params.len();
            let picks: Vec<usize> = (0..total)
                .step_by(total / 40)
                .chain([total - 1, total - 2])
                .collect();
            for i in picks {
                let h = 1e-2f32;
                let keep = net.params[i];
                net.params[i] = keep + h;
                let up = loss(&net);
                net.params[i] = keep - h;
                let down = loss(&net);
                net.params[i] = keep;
                let numeric = (up - down) / (2.0 * f64::from(h));
                let analytic = f64::from(grad[i]);
                assert!(
                    (numeric - analytic).abs() <= 2e-2 * (1.0 + numeric.abs().max(analytic.abs())),
                    "{family:?} parameter {i}: numeric {numeric}, analytic {analytic}"
                );
            }
        }
    }

    /// Inference and the training pass agree, and the policy covers exactly the legal placements.
    #[test]
    fn evaluation_matches_the_training_pass_and_covers_the_legal_placements() {
        let geo = Arc::new(Geometry::new(Shape::Hex { side: 4 }).unwrap());
        let mut pos = Position::new(geo.clone());
        for m in [3usize, 10, 4, 20] {
            pos.play(crate::rules::Move::Place(Point::from_index(m)))
                .unwrap();
        }
        let net = small(Family::Hex);
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
