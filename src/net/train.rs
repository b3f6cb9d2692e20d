//! Training the network: one sample's losses and their gradients, by backpropagation through the heads and the
//! trunk ([`super::kernels::conv_backward`]).

use super::kernels::{conv_backward, conv_forward};
use super::{Grid, INPUTS, Net, slice};

/// The activations of one sample, kept for its gradients.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The input of each convolution (with its row of zeros), then the trunk's output.
    pub(super) acts: Vec<Vec<f32>>,
    pub(super) pooled: Vec<f32>,
    /// For each channel, the cell of its maximum.
    pub(super) argmax: Vec<usize>,
    pub(super) hidden: Vec<f32>,
    pub(super) logits: Vec<f32>,
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

impl Net {
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

    /// The trunk on the planes `input` (`grid.cells()` rows), keeping every layer's output: `acts[0]` is the input
    /// with its row of zeros, `acts[l + 1]` the output of convolution `l` (after its ReLU, and at a block's end after
    /// the skip), each with its row of zeros.
    pub(super) fn trunk_keeping(&self, grid: &Grid, input: &[f32], acts: &mut Vec<Vec<f32>>) {
        let n = grid.cells;
        let c = self.size.channels;
        let p = &self.params;
        let convs = &self.layout.convs;
        acts.resize(convs.len() + 1, Vec::new());
        {
            let x = &mut acts[0];
            x.clear();
            x.extend_from_slice(&input[..n * INPUTS]);
            x.resize((n + 1) * INPUTS, 0.0);
        }
        for (l, &(w, b, d)) in convs.iter().enumerate() {
            let (before, after) = acts.split_at_mut(l + 1);
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
        self.trunk_keeping(grid, input, &mut trace.acts);
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

#[cfg(test)]
mod tests {
    use super::super::small_net;
    use super::*;
    use crate::net::{Family, features};
    use crate::rules::{Geometry, Point, Position, Shape};
    use std::sync::Arc;

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
            let mut net = small_net(family);
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
}
