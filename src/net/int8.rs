//! The integer arithmetic of the quantized network ([`super::quant`]): a convolution over a gather table of
//! neighbours with 8-bit activations and weights and 32-bit sums.
//!
//! Activations are unsigned bytes from 0 to 127 in rows of `cin` bytes (a multiple of 4), one row a cell, with one
//! more row of zeros after the board's cells (a neighbour off the board points at it). Weights are signed bytes
//! from -127 to 127 in groups of four input channels: `w[((k * groups + g) * cout + co) * 4 + j]` is the weight of
//! offset `k`, input channel `4 * g + j` and output channel `co`. Each output is an exact sum of products, so the
//! wide path (AVX2's `vpmaddubsw` and `vpmaddwd`, as NNUE evaluators use them) and the plain loop give the same
//! integers on every machine: a product pair is at most 2 * 127 * 127 = 32,258, which `vpmaddubsw`'s 16-bit
//! saturation never reaches, and a sum of 2 * 127 * 127 * 9 * 256 products stays far inside 32 bits.

/// A convolution's shape: offsets, input channels (a multiple of 4) and output channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Offsets of the kernel.
    pub k: usize,
    /// Input channels, a multiple of 4.
    pub cin: usize,
    /// Output channels.
    pub cout: usize,
}

impl Shape {
    /// Bytes of the weights.
    pub fn weights(&self) -> usize {
        self.k * self.cin * self.cout
    }
}

/// Which path [`conv`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// AVX2 where the CPU has it and the output width has a blocked kernel, the plain loop otherwise.
    Auto,
    /// The plain loop, on any machine (tests compare the two).
    Plain,
}

/// `out[i * cout + co] = sum over offsets k, input channels ci of x[nbr[i * k + kk] * cin + ci] * w(kk, ci, co)`,
/// for every cell `i` of `nbr` (`k` entries a cell).
///
/// # Panics
/// When a slice is shorter than the shape needs, or a neighbour names a row beyond `x`.
pub fn conv(s: &Shape, nbr: &[u32], x: &[u8], w: &[i8], out: &mut [i32], path: Path) {
    assert!(
        s.cin.is_multiple_of(8),
        "input channels in pairs of groups of four"
    );
    let rows = nbr.len() / s.k;
    assert!(w.len() >= s.weights() && out.len() >= rows * s.cout);
    let limit = x.len() / s.cin.max(1);
    assert!(
        nbr.iter().all(|&j| (j as usize) < limit),
        "a neighbour beyond the input"
    );
    #[cfg(target_arch = "x86_64")]
    if path == Path::Auto && super::kernels::wide() {
        // SAFETY (every call below): the CPU has AVX2, checked just above; the lengths were asserted.
        match s.cout {
            16 => return unsafe { wide::blocked::<2, 4>(s, nbr, x, w, out) },
            24 => return unsafe { wide::blocked::<3, 3>(s, nbr, x, w, out) },
            32 => return unsafe { wide::blocked::<4, 1>(s, nbr, x, w, out) },
            48 => return unsafe { wide::blocked::<6, 1>(s, nbr, x, w, out) },
            64 => return unsafe { wide::blocked::<8, 1>(s, nbr, x, w, out) },
            _ => {}
        }
    }
    let _ = path;
    plain(s, nbr, x, w, out);
}

fn plain(s: &Shape, nbr: &[u32], x: &[u8], w: &[i8], out: &mut [i32]) {
    let groups = s.cin / 4;
    let rows = nbr.len() / s.k;
    for i in 0..rows {
        let row = &mut out[i * s.cout..(i + 1) * s.cout];
        row.fill(0);
        for kk in 0..s.k {
            let j = nbr[i * s.k + kk] as usize * s.cin;
            for g in 0..groups {
                let a = &x[j + 4 * g..j + 4 * g + 4];
                if a == [0, 0, 0, 0] {
                    continue;
                }
                let wg = &w[(kk * groups + g) * s.cout * 4..(kk * groups + g + 1) * s.cout * 4];
                for (o, wq) in row.iter_mut().zip(wg.chunks_exact(4)) {
                    *o += i32::from(a[0]) * i32::from(wq[0])
                        + i32::from(a[1]) * i32::from(wq[1])
                        + i32::from(a[2]) * i32::from(wq[2])
                        + i32::from(a[3]) * i32::from(wq[3]);
                }
            }
        }
    }
}

/// A layer's sums into activations, `c` channels a row: `sum * mul[co] + bias[co]`, plus `skip[i][co] * ratio[co]`
/// when there is a skip connection, clipped to 0..127 and rounded half to even. Plain `f32` multiplies and adds in
/// this order (no fused multiply-add), so that both paths give the same bytes.
///
/// # Panics
/// When the slices' lengths do not match.
pub fn requantize(
    acc: &[i32],
    mul: &[f32],
    bias: &[f32],
    skip: Option<(&[u8], &[f32])>,
    out: &mut [u8],
    path: Path,
) {
    let c = mul.len();
    assert!(bias.len() == c && acc.len() == out.len() && out.len().is_multiple_of(c.max(1)));
    if let Some((s, r)) = skip {
        assert!(s.len() == out.len() && r.len() == c);
    }
    #[cfg(target_arch = "x86_64")]
    if path == Path::Auto && c.is_multiple_of(8) && super::kernels::wide() {
        // SAFETY: the CPU has AVX2, checked just above; the lengths were asserted.
        return unsafe { wide::requantize(acc, mul, bias, skip, out) };
    }
    let _ = path;
    for (i, (row, sums)) in out.chunks_exact_mut(c).zip(acc.chunks_exact(c)).enumerate() {
        for co in 0..c {
            let mut y = sums[co] as f32 * mul[co] + bias[co];
            if let Some((s, r)) = skip {
                y += f32::from(s[i * c + co]) * r[co];
            }
            row[co] = round(y.clamp(0.0, TOP)) as u8;
        }
    }
}

/// The largest activation.
const TOP: f32 = 127.0;

/// `y` (from 0 to 2^22) rounded half to even: adding and taking away 2^23 leaves no bits below the unit, and IEEE
/// arithmetic rounds half to even (`f32::round_ties_even` is a library call on x86-64 without SSE4.1).
#[inline(always)]
fn round(y: f32) -> f32 {
    const SHIFT: f32 = 8_388_608.0;
    (y + SHIFT) - SHIFT
}

#[cfg(target_arch = "x86_64")]
mod wide {
    use super::Shape;
    use std::arch::x86_64::*;

    /// [`super::requantize`], eight channels at a time: the same operations in the same order.
    #[target_feature(enable = "avx2")]
    pub(super) fn requantize(
        acc: &[i32],
        mul: &[f32],
        bias: &[f32],
        skip: Option<(&[u8], &[f32])>,
        out: &mut [u8],
    ) {
        let c = mul.len();
        let zero = _mm256_setzero_ps();
        let top = _mm256_set1_ps(super::TOP);
        let shift = _mm256_set1_ps(8_388_608.0);
        let mut at = 0;
        while at < out.len() {
            let co = at % c;
            // SAFETY: at + 8 <= out.len() = acc.len() (and skip's length), co + 8 <= c = mul.len() = bias.len():
            // the lengths are multiples of c, itself a multiple of 8, all asserted by the caller.
            unsafe {
                let sums = _mm256_cvtepi32_ps(_mm256_loadu_si256(acc.as_ptr().add(at).cast()));
                let mut y = _mm256_add_ps(
                    _mm256_mul_ps(sums, _mm256_loadu_ps(mul.as_ptr().add(co))),
                    _mm256_loadu_ps(bias.as_ptr().add(co)),
                );
                if let Some((s, r)) = skip {
                    let bytes = _mm_loadl_epi64(s.as_ptr().add(at).cast());
                    let x = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes));
                    y = _mm256_add_ps(y, _mm256_mul_ps(x, _mm256_loadu_ps(r.as_ptr().add(co))));
                }
                // clamp(0, TOP): f32::clamp's max then min.
                y = _mm256_min_ps(_mm256_max_ps(y, zero), top);
                y = _mm256_sub_ps(_mm256_add_ps(y, shift), shift);
                let v = _mm256_cvttps_epi32(y);
                // Eight 32-bit values from 0 to 127 into eight bytes.
                let p16 = _mm256_packus_epi32(v, v);
                let p8 = _mm256_packus_epi16(p16, p16);
                let lo = _mm256_castsi256_si128(p8);
                let hi = _mm256_extracti128_si256::<1>(p8);
                let bytes = _mm_unpacklo_epi32(lo, hi);
                _mm_storel_epi64(out.as_mut_ptr().add(at).cast(), bytes);
            }
            at += 8;
        }
    }

    /// [`super::plain`] for `cout = 8 * NV`, `R` cells at a time with their sums in registers: four input
    /// channels of a cell broadcast to every lane, times a register of eight output channels' four weights
    /// (`vpmaddubsw`, then `vpmaddwd` by ones adds the pairs), added to the sums.
    #[target_feature(enable = "avx2")]
    pub(super) fn blocked<const NV: usize, const R: usize>(
        s: &Shape,
        nbr: &[u32],
        x: &[u8],
        w: &[i8],
        out: &mut [i32],
    ) {
        let (k, cin, c) = (s.k, s.cin, NV * 8);
        let groups = cin / 4;
        let rows = nbr.len() / k;
        let ones = _mm256_set1_epi16(1);
        let zero = _mm256_setzero_si256();
        let mut i = 0;
        while i < rows {
            let here = R.min(rows - i);
            let mut acc = [[zero; NV]; R];
            for kk in 0..k {
                let mut js = [0usize; R];
                for (r, j) in js.iter_mut().enumerate() {
                    *j = nbr[(i + r.min(here - 1)) * k + kk] as usize * cin;
                }
                let wk = &w[kk * groups * c * 4..(kk + 1) * groups * c * 4];
                // Two groups at a time: their products' pairs added in 16 bits (at most 2 * 2 * 127 * 63), then
                // the pairs of those into the 32-bit sums.
                for g in (0..groups).step_by(2) {
                    let mut w0 = [zero; NV];
                    let mut w1 = [zero; NV];
                    for v in 0..NV {
                        // SAFETY: ((g + 1) * c + v * 8) * 4 + 32 <= groups * c * 4 = wk.len() (groups is even).
                        unsafe {
                            w0[v] = _mm256_loadu_si256(wk.as_ptr().add((g * c + v * 8) * 4).cast());
                            w1[v] = _mm256_loadu_si256(
                                wk.as_ptr().add(((g + 1) * c + v * 8) * 4).cast(),
                            );
                        }
                    }
                    for r in 0..R {
                        // SAFETY: js[r] + 4 * g + 8 <= (row + 1) * cin <= x.len() (the caller checked every
                        // neighbour's row).
                        let (q0, q1) = unsafe {
                            let at = x.as_ptr().add(js[r] + 4 * g);
                            (
                                std::ptr::read_unaligned(at.cast::<i32>()),
                                std::ptr::read_unaligned(at.add(4).cast::<i32>()),
                            )
                        };
                        let a0 = _mm256_set1_epi32(q0);
                        let a1 = _mm256_set1_epi32(q1);
                        for v in 0..NV {
                            let pairs = _mm256_add_epi16(
                                _mm256_maddubs_epi16(a0, w0[v]),
                                _mm256_maddubs_epi16(a1, w1[v]),
                            );
                            acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(pairs, ones));
                        }
                    }
                }
            }
            for (r, sums) in acc.iter().enumerate().take(here) {
                for (v, &sum) in sums.iter().enumerate() {
                    // SAFETY: (i + r) * c + v * 8 + 8 <= rows * c <= out.len(), asserted by the caller.
                    unsafe {
                        _mm256_storeu_si256(out.as_mut_ptr().add((i + r) * c + v * 8).cast(), sum)
                    };
                }
            }
            i += R;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide path and the plain one give the same integers, at the extremes of the ranges too.
    #[test]
    fn both_paths_agree() {
        for cout in [12, 16, 24, 32, 48, 64] {
            for cin in [8, 24, 32] {
                let s = Shape { k: 3, cin, cout };
                let cells = 5;
                let nbr: Vec<u32> = vec![0, 1, 5, 1, 0, 2, 2, 3, 1, 3, 4, 2, 4, 5, 0];
                let mut state = 11u64;
                let mut next = || {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 33) as u32
                };
                let mut x: Vec<u8> = (0..(cells + 1) * cin)
                    .map(|_| (next() % 128) as u8)
                    .collect();
                for v in x[cells * cin..].iter_mut() {
                    *v = 0;
                }
                // A row at the top of the range, and zeros as ReLU leaves them.
                for v in x[..cin].iter_mut() {
                    *v = 127;
                }
                for (i, v) in x.iter_mut().enumerate() {
                    if i % 5 == 1 {
                        *v = 0;
                    }
                }
                let mut w: Vec<i8> = (0..s.weights())
                    .map(|_| ((next() % 127) as i32 - 63) as i8)
                    .collect();
                for v in w[..4 * cout].iter_mut() {
                    *v = -63;
                }
                let mut a = vec![0; cells * cout];
                let mut b = vec![1; cells * cout];
                conv(&s, &nbr, &x, &w, &mut a, Path::Plain);
                conv(&s, &nbr, &x, &w, &mut b, Path::Auto);
                assert_eq!(a, b, "cin {cin}, cout {cout}");
                // The first cell's first output by hand.
                let mut want = 0i32;
                for kk in 0..3 {
                    let j = nbr[kk] as usize;
                    for ci in 0..cin {
                        let (g, jj) = (ci / 4, ci % 4);
                        want += i32::from(x[j * cin + ci])
                            * i32::from(w[((kk * (cin / 4) + g) * cout) * 4 + jj]);
                    }
                }
                assert_eq!(a[0], want);
            }
        }
    }
}
