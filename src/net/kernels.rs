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
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
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
    use std::arch::x86_64::*;

    /// [`forward_body`] for `cout = 8 * NV`, `R` cells at a time with their sums held in registers: each output is
    /// summed in the same order (the bias, then offset by offset and input channel by input channel, a multiply
    /// then an add), so the results are the same bits, except that a zero input is multiplied rather than
    /// skipped (which can only change the sign of an output of zero).
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn blocked<const NV: usize, const R: usize>(
        s: &ConvShape,
        nbr: &[u32],
        x: &[f32],
        w: &[f32],
        b: &[f32],
        out: &mut [f32],
        relu: bool,
    ) {
        let (k, cin, c) = (s.k, s.cin, NV * 8);
        let rows = nbr.len() / k;
        assert!(s.cout == c && w.len() >= k * cin * c && b.len() >= c && out.len() >= rows * c);
        let limit = x.len() / cin.max(1);
        assert!(
            nbr.iter().all(|&j| (j as usize) < limit),
            "a neighbour beyond the input"
        );
        let mut bv = [_mm256_setzero_ps(); NV];
        for (v, slot) in bv.iter_mut().enumerate() {
            // SAFETY: v * 8 + 8 <= c <= b.len(), asserted above.
            *slot = unsafe { _mm256_loadu_ps(b.as_ptr().add(v * 8)) };
        }
        let zero = _mm256_setzero_ps();
        let mut i = 0;
        while i < rows {
            let here = R.min(rows - i);
            let mut acc = [bv; R];
            for kk in 0..k {
                let mut js = [0usize; R];
                for (r, j) in js.iter_mut().enumerate() {
                    *j = nbr[(i + r.min(here - 1)) * k + kk] as usize * cin;
                }
                let wk = &w[kk * cin * c..(kk + 1) * cin * c];
                for ci in 0..cin {
                    let mut wv = [zero; NV];
                    for (v, slot) in wv.iter_mut().enumerate() {
                        // SAFETY: ci * c + v * 8 + 8 <= cin * c = wk.len().
                        *slot = unsafe { _mm256_loadu_ps(wk.as_ptr().add(ci * c + v * 8)) };
                    }
                    for r in 0..R {
                        let a = _mm256_set1_ps(x[js[r] + ci]);
                        for v in 0..NV {
                            acc[r][v] = _mm256_add_ps(acc[r][v], _mm256_mul_ps(a, wv[v]));
                        }
                    }
                }
            }
            for (r, sums) in acc.iter().enumerate().take(here) {
                for (v, &sum) in sums.iter().enumerate() {
                    let y = if relu { _mm256_max_ps(sum, zero) } else { sum };
                    // SAFETY: (i + r) * c + v * 8 + 8 <= rows * c <= out.len(), asserted above.
                    unsafe { _mm256_storeu_ps(out.as_mut_ptr().add((i + r) * c + v * 8), y) };
                }
            }
            i += R;
        }
    }

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

    /// [`backward_body`] for `cout = 8 * NV`: the same sums in the same order, so the same bits. The weight
    /// gradient holds one or two input channels' rows in registers over all the cells; the input gradient makes
    /// eight input channels' dot products at once ([`dx_row`]).
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn backward_blocked<const NV: usize>(
        s: &ConvShape,
        nbr: &[u32],
        x: &[f32],
        w: &[f32],
        dout: &[f32],
        dw: &mut [f32],
        db: &mut [f32],
        dx: Option<&mut [f32]>,
    ) {
        let (k, cin, c) = (s.k, s.cin, NV * 8);
        let cells = nbr.len() / k;
        assert!(
            s.cout == c
                && w.len() >= k * cin * c
                && dw.len() >= k * cin * c
                && db.len() >= c
                && dout.len() >= cells * c
        );
        let limit = x.len() / cin.max(1);
        assert!(
            nbr.iter().all(|&j| (j as usize) < limit),
            "a neighbour beyond the input"
        );
        // The cells whose output gradient is not all zeros: the others add nothing (backward_body skips them).
        let live: Vec<usize> = (0..cells)
            .filter(|&i| dout[i * c..(i + 1) * c].iter().any(|&v| v != 0.0))
            .collect();
        let zero = _mm256_setzero_ps();
        // Plain functions, not closures: a closure would not get this function's AVX2, and each load would be a
        // call. Every index below stays within the lengths asserted above.
        macro_rules! load {
            ($p:expr, $at:expr) => {{
                let at = $at;
                debug_assert!(at + 8 <= $p.len());
                // SAFETY: at + 8 <= the slice's length (the asserts above bound every index used).
                unsafe { _mm256_loadu_ps($p.as_ptr().add(at)) }
            }};
        }
        macro_rules! store {
            ($p:expr, $at:expr, $v:expr) => {{
                let at = $at;
                debug_assert!(at + 8 <= $p.len());
                // SAFETY: as for load.
                unsafe { _mm256_storeu_ps($p.as_mut_ptr().add(at), $v) }
            }};
        }
        // The bias: the rows summed in order.
        let mut acc = [zero; NV];
        for (v, a) in acc.iter_mut().enumerate() {
            *a = load!(db, v * 8);
        }
        for &i in &live {
            for (v, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_ps(*a, load!(dout, i * c + v * 8));
            }
        }
        for (v, &a) in acc.iter().enumerate() {
            store!(db, v * 8, a);
        }
        // The weights: each row of dw (an offset and an input channel) sums a * dout over the cells in order.
        // backward_body skips a zero input; adding its product (a zero) instead changes no bit, since a sum that
        // starts at +0.0 and adds products never holds -0.0. For each offset the inputs are first gathered into
        // one row a cell, then rows of dw are held in registers over all the cells.
        let n = live.len();
        let mut gathered = vec![0.0f32; n * cin];
        for kk in 0..k {
            for (r, &i) in live.iter().enumerate() {
                let j = nbr[i * k + kk] as usize * cin;
                gathered[r * cin..(r + 1) * cin].copy_from_slice(&x[j..j + cin]);
            }
            let mut ci = 0;
            while ci < cin {
                let at = (kk * cin + ci) * c;
                // Two rows at a time where their sums fit in the 16 registers with room to spare.
                ci += if NV <= 4 && cin - ci >= 2 {
                    dw_rows::<NV, 2>(&gathered, cin, ci, &live, dout, &mut dw[at..])
                } else {
                    dw_rows::<NV, 1>(&gathered, cin, ci, &live, dout, &mut dw[at..])
                };
            }
        }
        // The input: dx[j][ci] += dot(w[k][ci], dout[i]) for each cell i and offset k in order ([`dx_row`]).
        let Some(dx) = dx else {
            return;
        };
        assert!(dx.len() >= limit * cin, "dx has a row for each row of x");
        for &i in &live {
            let d = &dout[i * c..(i + 1) * c];
            for kk in 0..k {
                let j = nbr[i * k + kk] as usize * cin;
                dx_row::<NV>(
                    &w[kk * cin * c..(kk + 1) * cin * c],
                    cin,
                    d,
                    &mut dx[j..j + cin],
                );
            }
        }
    }

    /// `dx[ci] += dot(w[ci], d)` for the `cin` rows of `w` (rows of `8 * NV`), each dot summed as [`dot`] sums
    /// it: eight rows at a time, each row's eight lanes of partial sums in a register, the eight registers
    /// transposed so that the lanes are added across in `dot`'s order for eight rows at once.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn dx_row<const NV: usize>(w: &[f32], cin: usize, d: &[f32], dx: &mut [f32]) {
        let c = NV * 8;
        assert!(w.len() >= cin * c && d.len() >= c && dx.len() >= cin);
        let zero = _mm256_setzero_ps();
        let mut dv = [zero; NV];
        for (v, slot) in dv.iter_mut().enumerate() {
            // SAFETY: v * 8 + 8 <= c <= d.len(), asserted above.
            *slot = unsafe { _mm256_loadu_ps(d.as_ptr().add(v * 8)) };
        }
        let blocks = cin / 8;
        for blk in 0..blocks {
            let mut r = [zero; 8];
            for (q, acc) in r.iter_mut().enumerate() {
                let row = (blk * 8 + q) * c;
                for (v, &dvv) in dv.iter().enumerate() {
                    // SAFETY: row + v * 8 + 8 <= cin * c <= w.len(), asserted above.
                    let wv = unsafe { _mm256_loadu_ps(w.as_ptr().add(row + v * 8)) };
                    *acc = _mm256_add_ps(*acc, _mm256_mul_ps(wv, dvv));
                }
            }
            // Transpose: t[l] holds lane l of the eight rows' sums.
            let u0 = _mm256_unpacklo_ps(r[0], r[1]);
            let u1 = _mm256_unpackhi_ps(r[0], r[1]);
            let u2 = _mm256_unpacklo_ps(r[2], r[3]);
            let u3 = _mm256_unpackhi_ps(r[2], r[3]);
            let u4 = _mm256_unpacklo_ps(r[4], r[5]);
            let u5 = _mm256_unpackhi_ps(r[4], r[5]);
            let u6 = _mm256_unpacklo_ps(r[6], r[7]);
            let u7 = _mm256_unpackhi_ps(r[6], r[7]);
            let s0 = _mm256_shuffle_ps::<0x44>(u0, u2);
            let s1 = _mm256_shuffle_ps::<0xEE>(u0, u2);
            let s2 = _mm256_shuffle_ps::<0x44>(u1, u3);
            let s3 = _mm256_shuffle_ps::<0xEE>(u1, u3);
            let s4 = _mm256_shuffle_ps::<0x44>(u4, u6);
            let s5 = _mm256_shuffle_ps::<0xEE>(u4, u6);
            let s6 = _mm256_shuffle_ps::<0x44>(u5, u7);
            let s7 = _mm256_shuffle_ps::<0xEE>(u5, u7);
            let t0 = _mm256_permute2f128_ps::<0x20>(s0, s4);
            let t4 = _mm256_permute2f128_ps::<0x31>(s0, s4);
            let t1 = _mm256_permute2f128_ps::<0x20>(s1, s5);
            let t5 = _mm256_permute2f128_ps::<0x31>(s1, s5);
            let t2 = _mm256_permute2f128_ps::<0x20>(s2, s6);
            let t6 = _mm256_permute2f128_ps::<0x31>(s2, s6);
            let t3 = _mm256_permute2f128_ps::<0x20>(s3, s7);
            let t7 = _mm256_permute2f128_ps::<0x31>(s3, s7);
            let sum = _mm256_add_ps(
                _mm256_add_ps(_mm256_add_ps(t0, t4), _mm256_add_ps(t1, t5)),
                _mm256_add_ps(_mm256_add_ps(t2, t6), _mm256_add_ps(t3, t7)),
            );
            // dot's tail: no remainder, 0.0 added all the same.
            let sum = _mm256_add_ps(sum, zero);
            // SAFETY: blk * 8 + 8 <= cin <= dx.len(), asserted above.
            unsafe {
                let at = dx.as_mut_ptr().add(blk * 8);
                _mm256_storeu_ps(at, _mm256_add_ps(_mm256_loadu_ps(at), sum));
            }
        }
        for ci in blocks * 8..cin {
            dx[ci] += dot(&w[ci * c..(ci + 1) * c], &d[..c]);
        }
    }

    /// Adds to the `R` rows of `dw` (rows of `8 * NV`, from its start) the sums over the cells `live` of
    /// `gathered[g][ci + r] * dout[live[g]]`, in order, the rows held in registers; returns `R`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn dw_rows<const NV: usize, const R: usize>(
        gathered: &[f32],
        cin: usize,
        ci: usize,
        live: &[usize],
        dout: &[f32],
        dw: &mut [f32],
    ) -> usize {
        let c = NV * 8;
        assert!(dw.len() >= R * c && ci + R <= cin && gathered.len() >= live.len() * cin);
        assert!(live.iter().all(|&i| (i + 1) * c <= dout.len()));
        let mut a = [[_mm256_setzero_ps(); NV]; R];
        for (r, row) in a.iter_mut().enumerate() {
            for (v, slot) in row.iter_mut().enumerate() {
                // SAFETY: (r * NV + v) * 8 + 8 <= R * c <= dw.len(), asserted above.
                *slot = unsafe { _mm256_loadu_ps(dw.as_ptr().add(r * c + v * 8)) };
            }
        }
        for (g, &i) in live.iter().enumerate() {
            let xs = &gathered[g * cin + ci..g * cin + ci + R];
            for (row, &xv) in a.iter_mut().zip(xs) {
                let b = _mm256_set1_ps(xv);
                for (v, acc) in row.iter_mut().enumerate() {
                    // SAFETY: i * c + v * 8 + 8 <= (i + 1) * c <= dout.len(), asserted above.
                    let d = unsafe { _mm256_loadu_ps(dout.as_ptr().add(i * c + v * 8)) };
                    *acc = _mm256_add_ps(*acc, _mm256_mul_ps(b, d));
                }
            }
        }
        for (r, row) in a.iter().enumerate() {
            for (v, &slot) in row.iter().enumerate() {
                // SAFETY: as for the loads.
                unsafe { _mm256_storeu_ps(dw.as_mut_ptr().add(r * c + v * 8), slot) };
            }
        }
        R
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
        // SAFETY (every call below): the CPU has AVX2, checked just above.
        match s.cout {
            16 => unsafe { wide::blocked::<2, 4>(s, nbr, x, w, b, out, relu) },
            24 => unsafe { wide::blocked::<3, 3>(s, nbr, x, w, b, out, relu) },
            32 => unsafe { wide::blocked::<4, 2>(s, nbr, x, w, b, out, relu) },
            48 => unsafe { wide::blocked::<6, 1>(s, nbr, x, w, b, out, relu) },
            64 => unsafe { wide::blocked::<8, 1>(s, nbr, x, w, b, out, relu) },
            _ => unsafe { wide::forward(s, nbr, x, w, b, out, relu) },
        }
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
        // SAFETY (every call below): the CPU has AVX2, checked just above.
        match s.cout {
            16 => unsafe { wide::backward_blocked::<2>(s, nbr, x, w, dout, dw, db, dx) },
            24 => unsafe { wide::backward_blocked::<3>(s, nbr, x, w, dout, dw, db, dx) },
            32 => unsafe { wide::backward_blocked::<4>(s, nbr, x, w, dout, dw, db, dx) },
            48 => unsafe { wide::backward_blocked::<6>(s, nbr, x, w, dout, dw, db, dx) },
            64 => unsafe { wide::backward_blocked::<8>(s, nbr, x, w, dout, dw, db, dx) },
            _ => unsafe { wide::backward(s, nbr, x, w, dout, dw, db, dx) },
        }
        return;
    }
    backward_body(s, nbr, x, w, dout, dw, db, dx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide paths (for output widths with and without a register-blocked kernel) and the plain one give the
    /// same results, bit for bit up to the sign of a zero.
    #[test]
    fn both_paths_agree_bit_for_bit() {
        for cout in [12, 16, 24, 32, 48, 64] {
            for cin in [5, 16, 21] {
                agree(cin, cout, true);
                agree(cin, cout, false);
            }
        }
    }

    fn agree(cin: usize, cout: usize, relu: bool) {
        let s = ConvShape { k: 3, cin, cout };
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
        // Zeros as a ReLU leaves them, and the row of zeros after the cells.
        for (i, v) in x.iter_mut().enumerate() {
            if i % 3 == 0 || i >= cells * s.cin {
                *v = 0.0;
            }
        }
        let w: Vec<f32> = (0..s.k * s.cin * s.cout).map(|_| next()).collect();
        let b: Vec<f32> = (0..s.cout).map(|_| next()).collect();
        let mut plain = vec![0.0; cells * s.cout];
        forward_body(&s, &nbr, &x, &w, &b, &mut plain, relu);
        let mut any = vec![0.0; cells * s.cout];
        conv_forward(&s, &nbr, &x, &w, &b, &mut any, relu);
        assert_eq!(plain, any, "cout {cout}, relu {relu}");
        // An output gradient with a row of zeros (a cell the ReLU shut), which the paths skip alike.
        let dout: Vec<f32> = (0..cells * s.cout)
            .map(|i| if i / s.cout == 2 { 0.0 } else { next() })
            .collect();
        let (mut dw1, mut db1, mut dx1) =
            (vec![0.0; w.len()], vec![0.0; s.cout], vec![0.0; x.len()]);
        backward_body(&s, &nbr, &x, &w, &dout, &mut dw1, &mut db1, Some(&mut dx1));
        let (mut dw2, mut db2, mut dx2) =
            (vec![0.0; w.len()], vec![0.0; s.cout], vec![0.0; x.len()]);
        conv_backward(&s, &nbr, &x, &w, &dout, &mut dw2, &mut db2, Some(&mut dx2));
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            (bits(&dw1), bits(&db1), bits(&dx1)),
            (bits(&dw2), bits(&db2), bits(&dx2)),
            "cin {cin}, cout {cout}"
        );
    }
}
