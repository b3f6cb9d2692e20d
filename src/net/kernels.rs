//! The arithmetic of the network's layers: a convolution over a gather table of neighbours, with its gradients.
//!
//! Activations are rows of `channels` values, one row a cell, with one more row of zeros after the board's cells:
//! a neighbour off the board points at it. Each output is summed in one fixed order (offset, then input channel),
//! and nothing is fused (no multiply-add), so that the results are the same bits on every x86-64 machine, with or
//! without AVX2: the wide path only computes several output channels at once.

/// A convolution: `w[(k * cin + ci) * cout + co]` and `b[co]`.
pub struct ConvShape {
    /// Offsets of the kernel.
    pub k: usize,
    /// Input channels.
    pub cin: usize,
    /// Output channels.
    pub cout: usize,
}

#[inline(always)]
fn axpy(out: &mut [f32], a: f32, w: &[f32]) {
    for (o, &x) in out.iter_mut().zip(w) {
        *o += a * x;
    }
}

#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight lanes of partial sums, added in a fixed order: the same on every machine.
    let mut acc = [0.0f32; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut tail = 0.0;
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail += x * y;
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

#[inline(always)]
fn forward_body(
    s: &ConvShape,
    nbr: &[u32],
    x: &[f32],
    w: &[f32],
    b: &[f32],
    out: &mut [f32],
    relu: bool,
) {
    let cells = nbr.len() / s.k;
    for i in 0..cells {
        let row = &mut out[i * s.cout..(i + 1) * s.cout];
        row.copy_from_slice(b);
        for k in 0..s.k {
            let j = nbr[i * s.k + k] as usize;
            let src = &x[j * s.cin..(j + 1) * s.cin];
            let wk = &w[k * s.cin * s.cout..(k + 1) * s.cin * s.cout];
            for (ci, &a) in src.iter().enumerate() {
                if a != 0.0 {
                    axpy(row, a, &wk[ci * s.cout..(ci + 1) * s.cout]);
                }
            }
        }
        if relu {
            for v in row.iter_mut() {
                *v = v.max(0.0);
            }
        }
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn backward_body(
    s: &ConvShape,
    nbr: &[u32],
    x: &[f32],
    w: &[f32],
    dout: &[f32],
    dw: &mut [f32],
    db: &mut [f32],
    mut dx: Option<&mut [f32]>,
) {
    let cells = nbr.len() / s.k;
    for i in 0..cells {
        let d = &dout[i * s.cout..(i + 1) * s.cout];
        if d.iter().all(|&v| v == 0.0) {
            continue;
        }
        for (acc, &v) in db.iter_mut().zip(d) {
            *acc += v;
        }
        for k in 0..s.k {
            let j = nbr[i * s.k + k] as usize;
            let src = &x[j * s.cin..(j + 1) * s.cin];
            let base = k * s.cin * s.cout;
            for (ci, &a) in src.iter().enumerate() {
                if a != 0.0 {
                    axpy(&mut dw[base + ci * s.cout..base + (ci + 1) * s.cout], a, d);
                }
            }
            if let Some(dx) = dx.as_deref_mut() {
                for ci in 0..s.cin {
                    let wrow = &w[base + ci * s.cout..base + (ci + 1) * s.cout];
                    dx[j * s.cin + ci] += dot(wrow, d);
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod wide {
    use super::*;

    #[target_feature(enable = "avx2")]
    pub(super) fn forward(
        s: &ConvShape,
        nbr: &[u32],
        x: &[f32],
        w: &[f32],
        b: &[f32],
        out: &mut [f32],
        relu: bool,
    ) {
        forward_body(s, nbr, x, w, b, out, relu)
    }

    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn backward(
        s: &ConvShape,
        nbr: &[u32],
        x: &[f32],
        w: &[f32],
        dout: &[f32],
        dw: &mut [f32],
        db: &mut [f32],
        dx: Option<&mut [f32]>,
    ) {
        backward_body(s, nbr, x, w, dout, dw, db, dx)
    }
}

/// True when the wide path runs (x86-64 with AVX2).
pub fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `out[i] = b + sum over offsets k and input channels of x[nbr[i][k]] * w`, then ReLU when `relu`. `nbr` has
/// `k` entries a cell; `x` has a row for every index `nbr` names.
pub fn conv_forward(
    s: &ConvShape,
    nbr: &[u32],
    x: &[f32],
    w: &[f32],
    b: &[f32],
    out: &mut [f32],
    relu: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { wide::forward(s, nbr, x, w, b, out, relu) };
        return;
    }
    forward_body(s, nbr, x, w, b, out, relu)
}

/// Adds the gradients of [`conv_forward`] (before any ReLU) for the output gradient `dout`: to `dw`, `db`, and to
/// `dx` when given (the rows of `dx` match those of `x`).
#[allow(clippy::too_many_arguments)]
pub fn conv_backward(
    s: &ConvShape,
    nbr: &[u32],
    x: &[f32],
    w: &[f32],
    dout: &[f32],
    dw: &mut [f32],
    db: &mut [f32],
    dx: Option<&mut [f32]>,
) {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { wide::backward(s, nbr, x, w, dout, dw, db, dx) };
        return;
    }
    backward_body(s, nbr, x, w, dout, dw, db, dx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide path and the plain one give the same bits.
    #[test]
    fn both_paths_agree_bit_for_bit() {
        let s = ConvShape {
            k: 3,
            cin: 5,
            cout: 12,
        };
        let cells = 4;
        let nbr: Vec<u32> = vec![0, 1, 4, 1, 0, 2, 2, 3, 1, 3, 4, 2];
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        };
        let mut x: Vec<f32> = (0..(cells + 1) * s.cin).map(|_| next()).collect();
        for v in &mut x[cells * s.cin..] {
            *v = 0.0;
        }
        let w: Vec<f32> = (0..s.k * s.cin * s.cout).map(|_| next()).collect();
        let b: Vec<f32> = (0..s.cout).map(|_| next()).collect();
        let mut plain = vec![0.0; cells * s.cout];
        forward_body(&s, &nbr, &x, &w, &b, &mut plain, true);
        let mut any = vec![0.0; cells * s.cout];
        conv_forward(&s, &nbr, &x, &w, &b, &mut any, true);
        assert_eq!(plain, any);
        let dout: Vec<f32> = (0..cells * s.cout).map(|_| next()).collect();
        let (mut dw1, mut db1, mut dx1) =
            (vec![0.0; w.len()], vec![0.0; s.cout], vec![0.0; x.len()]);
        backward_body(&s, &nbr, &x, &w, &dout, &mut dw1, &mut db1, Some(&mut dx1));
        let (mut dw2, mut db2, mut dx2) =
            (vec![0.0; w.len()], vec![0.0; s.cout], vec![0.0; x.len()]);
        conv_backward(&s, &nbr, &x, &w, &dout, &mut dw2, &mut db2, Some(&mut dx2));
        assert_eq!((dw1, db1, dx1), (dw2, db2, dx2));
    }
}
