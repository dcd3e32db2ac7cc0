//! The network's layers after the accumulator, vectorised by the compiler and chosen when the
//! program starts for the processor it runs on (the `multiversion` crate): AVX2 (eight lanes
//! a register) where the processor has it, else the build's baseline (x86-64-v2's SSE, four
//! lanes). The code is plain Rust on blocks of eight lanes, with no fused multiply-add and a
//! fixed order of every sum, so each version gives the same results to the bit.

use multiversion::multiversion;

use super::net::{Outputs, MAX_HIDDEN, MAX_OUTPUTS};

/// The most blocks of hidden units.
const MAX_BLOCKS: usize = MAX_HIDDEN.div_ceil(LANES);

/// Lanes a block.
pub const LANES: usize = 8;

/// A block of eight values.
pub type Block = [f32; LANES];

/// Cephes' `exp2f` polynomial on `|f| <= 1/2` (Moshier 1989), highest degree first.
const EXP2: [f32; 7] = [
    1.535_336_2e-4,
    1.339_887_4e-3,
    9.618_437e-3,
    5.550_332_5e-2,
    2.402_264_8e-1,
    6.931_472e-1,
    1.0,
];

/// `(1 + exp(-x))⁻¹` of one lane. `exp(-x) = 2^t` with `t = -x log2(e)` clamped to `±120`
/// (where the sigmoid is 0 or 1 to `f32` precision): `2^t = 2^n 2^f` with `n` the nearest
/// integer to `t` (ties to even), `2^f` by Cephes' `exp2f` polynomial and `2^n` written into
/// the exponent bits; then one correctly rounded division.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    let t = x * -std::f32::consts::LOG2_E;
    let t = if t < -120.0 { -120.0 } else { t };
    let t = if t > 120.0 { 120.0 } else { t };
    let n = t.round_ties_even();
    let f = t - n;
    let mut p = EXP2[0];
    for c in &EXP2[1..] {
        p = p * f + c;
    }
    // n + 127 + 2^23 holds the biased exponent n + 127 (7 to 247) in its low mantissa bits.
    let two_n = f32::from_bits((n + (127.0 + 8_388_608.0)).to_bits() << 23);
    1.0 / (1.0 + p * two_n)
}

/// [`sigmoid`] of each lane of `x`.
#[inline(always)]
fn sigmoid_block(x: &Block) -> Block {
    let mut h = [0.0; LANES];
    for (h, &x) in h.iter_mut().zip(x) {
        *h = sigmoid(x);
    }
    h
}

/// The network's weights after the accumulator, as [`outputs`] reads them.
#[derive(Clone, Copy, Debug)]
pub struct Layers<'a> {
    /// `w1` input-major, each input's row `blocks` blocks long.
    pub w1: &'a [Block],
    /// `w2` output-major, each output's row `blocks` blocks long.
    pub w2: &'a [Block],
    /// The output biases.
    pub b2: &'a Outputs,
    /// Outputs (at most [`MAX_OUTPUTS`]).
    pub outputs: usize,
}

/// The outputs of the position whose hidden sums are `sums` (blocks of eight units) plus
/// `delta × w1[i]` for each `(i, delta)` of `changes`, added in order: each unit's sigmoid,
/// then for each output `k` the sigmoid of `b2[k]` plus the dot product of the units with
/// `w2`'s row `k`. Each lane's products are summed block by block, then the eight lanes in
/// order. For the shipped networks' 80 hidden units (10 blocks) the sums stay in registers.
#[multiversion(targets("x86_64+avx2"))]
pub fn outputs<'a>(sums: &[Block], changes: &[(u16, f32)], layers: Layers<'a>) -> Outputs {
    run(sums, changes.iter().copied(), layers)
}

/// The outputs of the position whose inputs are `x[i]` for each `i` of `nonzero` (0
/// elsewhere), from scratch: [`outputs`] of the biases `b1` with those inputs as the changes,
/// so the same bits as the accumulator built from the biases and then read.
#[multiversion(targets("x86_64+avx2"))]
pub fn forward<'a>(b1: &[Block], nonzero: &[u16], x: &[f32], layers: Layers<'a>) -> Outputs {
    run(b1, nonzero.iter().map(|&i| (i, x[usize::from(i)])), layers)
}

/// [`outputs`] with the changes given one by one.
#[inline(always)]
fn run(sums: &[Block], changes: impl Iterator<Item = (u16, f32)>, layers: Layers<'_>) -> Outputs {
    match sums.len() {
        10 => finish(&fixed::<10>(sums, changes, layers.w1), layers),
        blocks => {
            let mut acc = [[0.0f32; LANES]; MAX_BLOCKS];
            let acc = &mut acc[..blocks];
            acc.copy_from_slice(sums);
            for (i, d) in changes {
                let i = usize::from(i);
                for (a, w) in acc.iter_mut().zip(&layers.w1[i * blocks..(i + 1) * blocks]) {
                    for l in 0..LANES {
                        a[l] += d * w[l];
                    }
                }
            }
            finish(acc, layers)
        }
    }
}

/// `sums` (`B` blocks) plus `delta × w1[i]` for each `(i, delta)` of `changes`, in order.
#[inline(always)]
fn fixed<const B: usize>(
    sums: &[Block],
    changes: impl Iterator<Item = (u16, f32)>,
    w1: &[Block],
) -> [Block; B] {
    let mut acc: [Block; B] = sums.try_into().expect("B blocks");
    for (i, d) in changes {
        let i = usize::from(i);
        let row: &[Block; B] = w1[i * B..(i + 1) * B].try_into().expect("B blocks");
        for (a, w) in acc.iter_mut().zip(row) {
            for l in 0..LANES {
                a[l] += d * w[l];
            }
        }
    }
    acc
}

/// The outputs of hidden sums `acc`: the sigmoid layer (one loop over the units, which the
/// compiler vectorises whole) and the output layer.
#[inline(always)]
fn finish(acc: &[Block], layers: Layers<'_>) -> Outputs {
    let blocks = acc.len();
    let units = blocks * LANES;
    let mut h = [0.0f32; MAX_BLOCKS * LANES];
    let h = &mut h[..units];
    for (h, &x) in h.iter_mut().zip(acc.as_flattened()) {
        *h = sigmoid(x);
    }
    let outputs = layers.outputs;
    let mut logits = [0.0f32; LANES];
    for (k, logit) in logits.iter_mut().enumerate().take(outputs) {
        let row = layers.w2[k * blocks..(k + 1) * blocks].as_flattened();
        let mut dot = [0.0f32; LANES];
        for (w, h) in row.chunks_exact(LANES).zip(h.chunks_exact(LANES)) {
            for l in 0..LANES {
                dot[l] += w[l] * h[l];
            }
        }
        let mut s = layers.b2[k];
        for d in dot {
            s += d;
        }
        *logit = s;
    }
    let o = sigmoid_block(&logits);
    let mut out = [0.0; MAX_OUTPUTS];
    out[..outputs].copy_from_slice(&o[..outputs]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn ten_blocks_in_registers_give_the_bits_of_the_general_path() {
        // The same network with an eleventh block of zero weights (units whose sigmoid, 0.5,
        // meets zero output weights) goes through the general path.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut draw = |n: usize| -> Vec<Block> {
            (0..n)
                .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0f32..1.0)))
                .collect()
        };
        let (inputs, outputs) = (30, 5);
        let (w1, w2, sums) = (draw(inputs * 10), draw(outputs * 10), draw(10));
        let widen = |rows: &[Block], n: usize| -> Vec<Block> {
            rows.chunks(10)
                .take(n)
                .flat_map(|r| r.iter().copied().chain([[0.0; LANES]]))
                .collect()
        };
        let (w1_11, w2_11, sums_11) = (widen(&w1, inputs), widen(&w2, outputs), widen(&sums, 1));
        let b2 = [0.1, -0.2, 0.3, 0.0, -0.5];
        let changes = [(2u16, 1.0f32), (7, -1.0), (11, 0.5), (29, 0.25)];
        for k in 0..=changes.len() {
            let ten = outputs_fn(&sums, &changes[..k], &w1, &w2, &b2);
            let eleven = outputs_fn(&sums_11, &changes[..k], &w1_11, &w2_11, &b2);
            assert_eq!(
                ten.map(f32::to_bits),
                eleven.map(f32::to_bits),
                "{k} changes"
            );
            assert!(ten.iter().all(|o| *o > 0.0 && *o < 1.0), "{ten:?}");
        }
    }

    fn outputs_fn(
        sums: &[Block],
        changes: &[(u16, f32)],
        w1: &[Block],
        w2: &[Block],
        b2: &Outputs,
    ) -> Outputs {
        let layers = Layers {
            w1,
            w2,
            b2,
            outputs: 5,
        };
        outputs(sums, changes, layers)
    }

    #[test]
    fn the_sigmoid_is_within_2e_7_of_the_sigmoid_in_f64() {
        // Every 1/64 from -100 to 100 (past the clamp both ways), against f64's exp.
        for k in -6400..=6400 {
            let x = k as f32 / 64.0;
            let got = sigmoid_block(&[x; LANES]);
            let want = 1.0 / (1.0 + (-f64::from(x)).exp());
            for g in got {
                assert!(
                    (f64::from(g) - want).abs() < 2e-7,
                    "{x}: {g} against {want}"
                );
            }
        }
    }
}
