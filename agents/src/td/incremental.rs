//! The learned evaluation built for search: the network of [`Net`] evaluated with its first
//! layer kept as an **accumulator** (the hidden units' sums before the sigmoid), updated from a
//! reference position by adding `(new - old) × w1[i]` for each input `i` that differs, as NNUE
//! engines do (Nasu 2018, "Efficiently updatable neural-network-based evaluation functions for
//! computer shogi"), and the rest vectorised.
//!
//! - **Vectors**: the `wide` crate's `f32x8` (eight lanes: on the project's x86-64-v2 target two
//!   SSE registers; checked in the disassembly, `mulps`/`addps`/`rcpps` on `xmm` registers). The
//!   hidden units are padded to a multiple of 8 with zero weights, so a padded unit's sigmoid
//!   (0.5) meets a zero output weight. No fused multiply-add, so the results do not depend on
//!   the instruction set.
//! - **Sigmoid**: a polynomial `2^x` and a refined reciprocal, eight units at
//!   once, where [`Net::forward`] calls `f32::exp` and divides unit by unit.
//! - **Batch**: [`Incremental::after_moves`] scores every child of a decision node: each child is
//!   played and encoded, compared with the reference (the first child that is not terminal)
//!   eight inputs at a time (the blocks where either has a non-zero input), and evaluated from the reference's accumulator plus the differences
//!   (from scratch instead when it differs in as many inputs as it has). The differences are
//!   applied in increasing input order, so two moves that reach the same position get the same
//!   outputs to the bit. On Frangieh's move lists a candidate differs from the reference in
//!   about 7 of its 27 non-zero inputs.
//!
//! The outputs equal [`Net::forward`]'s to within `1e-5` (`agents/tests/incremental.rs`; the
//! summation order and the sigmoid differ, so not to the bit); `Net::forward` stays the
//! reference, and training uses it.

use cowrie_engine::{Player, ToAct};
use wide::{f32x8, i32x8, CmpNe};

use super::net::{Inputs, Net, Outputs, MAX_HIDDEN, MAX_INPUTS, MAX_OUTPUTS};
use crate::evaluate::Evaluate;

const LANES: usize = 8;
const MAX_BLOCKS: usize = MAX_HIDDEN.div_ceil(LANES);
const INPUT_BLOCKS: usize = MAX_INPUTS.div_ceil(LANES);
// The blocks of inputs are bits of a `u64`.
const _: () = assert!(INPUT_BLOCKS <= 64);

/// The hidden units' sums of one position (before the sigmoid), eight units a block.
#[derive(Clone, Debug)]
pub struct Accumulator {
    sums: [f32x8; MAX_BLOCKS],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            sums: [f32x8::ZERO; MAX_BLOCKS],
        }
    }
}

/// A [`Net`]'s weights laid out for the accumulator and the vectorised layers.
#[derive(Clone, Debug)]
pub struct Incremental {
    outputs: usize,
    /// Blocks of eight hidden units.
    blocks: usize,
    /// `w1` input-major, each input's row padded to `blocks` vectors.
    w1: Vec<f32x8>,
    b1: Vec<f32x8>,
    /// `w2` output-major, each output's row padded to `blocks` vectors.
    w2: Vec<f32x8>,
    b2: [f32; MAX_OUTPUTS],
}

/// `(1 + exp(-x))⁻¹` on eight lanes. `exp(-x) = 2^t` with `t = -x log2(e)` clamped to
/// `±120` (where the sigmoid is 0 or 1 to `f32` precision): `2^t = 2^n 2^f` with `n` the
/// nearest integer to `t`, `2^f` by Cephes' `exp2f` polynomial on `|f| <= 1/2` (Moshier 1989)
/// and `2^n` written into the exponent bits. The reciprocal is the SSE estimate refined by a
/// Newton step (`r (2 - d r)`, about 23 bits from 12).
#[inline(always)]
fn sigmoid(x: f32x8) -> f32x8 {
    let t = (x * f32x8::splat(-std::f32::consts::LOG2_E))
        .max(f32x8::splat(-120.0))
        .min(f32x8::splat(120.0));
    let n = t.round();
    let f = t - n;
    let mut p = f32x8::splat(1.535_336_2e-4);
    for c in [
        1.339_887_4e-3,
        9.618_437e-3,
        5.550_332_5e-2,
        2.402_264_8e-1,
        6.931_472e-1,
        1.0,
    ] {
        p = p * f + f32x8::splat(c);
    }
    // n + 127 + 2^23 holds the biased exponent n + 127 (7 to 247) in its low mantissa bits.
    let biased: i32x8 = bytemuck::cast(n + f32x8::splat(127.0 + 8_388_608.0));
    let two_n: f32x8 = bytemuck::cast(biased << 23);
    let d = f32x8::ONE + p * two_n;
    let r = d.recip();
    r * (f32x8::splat(2.0) - d * r)
}

/// Rows of `width` floats padded to `blocks` vectors each.
fn padded(values: &[f32], width: usize, blocks: usize) -> Vec<f32x8> {
    let rows = values.len() / width.max(1);
    let mut out = vec![f32x8::ZERO; rows * blocks];
    for (r, row) in values.chunks_exact(width.max(1)).enumerate() {
        for (b, chunk) in row.chunks(LANES).enumerate() {
            let mut lane = [0.0f32; LANES];
            lane[..chunk.len()].copy_from_slice(chunk);
            out[r * blocks + b] = f32x8::from(lane);
        }
    }
    out
}

impl Incremental {
    /// `net`'s weights, laid out for the accumulator.
    #[must_use]
    pub fn new(net: &Net) -> Incremental {
        let (_, hidden, outputs) = net.shape();
        let [w1, b1, w2, b2] = net.tensors();
        let blocks = hidden.div_ceil(LANES);
        let mut bias = [0.0; MAX_OUTPUTS];
        bias[..outputs].copy_from_slice(b2);
        Incremental {
            outputs,
            blocks,
            w1: padded(w1, hidden, blocks),
            b1: padded(b1, hidden, blocks),
            w2: padded(w2, hidden, blocks),
            b2: bias,
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[f32x8] {
        &self.w1[i * self.blocks..(i + 1) * self.blocks]
    }

    /// Sets `acc` to the sums of `x` from scratch: the biases plus each non-zero input's row.
    #[inline]
    pub fn refresh(&self, x: &Inputs, acc: &mut Accumulator) {
        let sums = &mut acc.sums[..self.blocks];
        sums.copy_from_slice(&self.b1);
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            let v = f32x8::splat(x.x[i]);
            for (a, &w) in sums.iter_mut().zip(self.row(i)) {
                *a += v * w;
            }
        }
    }

    /// Adds `delta × w1[i]` to `acc` for each `(i, delta)` of `changes`: the accumulator of a
    /// position whose inputs differ by `delta` at `i`.
    #[inline]
    pub fn update(&self, acc: &mut Accumulator, changes: &[(u16, f32)]) {
        let sums = &mut acc.sums[..self.blocks];
        for &(i, d) in changes {
            let d = f32x8::splat(d);
            for (a, &w) in sums.iter_mut().zip(self.row(usize::from(i))) {
                *a += d * w;
            }
        }
    }

    /// The outputs of the position whose sums `acc` holds (entries past the network's outputs
    /// are 0).
    #[inline]
    #[must_use]
    pub fn outputs(&self, acc: &Accumulator) -> Outputs {
        let mut dots = [f32x8::ZERO; MAX_OUTPUTS];
        for (b, &a) in acc.sums[..self.blocks].iter().enumerate() {
            let h = sigmoid(a);
            for (k, dot) in dots.iter_mut().enumerate().take(self.outputs) {
                *dot += self.w2[k * self.blocks + b] * h;
            }
        }
        let mut logits = [0.0f32; LANES];
        for k in 0..self.outputs {
            logits[k] = self.b2[k] + dots[k].reduce_add();
        }
        let o = sigmoid(f32x8::from(logits)).to_array();
        let mut out = [0.0; MAX_OUTPUTS];
        out[..self.outputs].copy_from_slice(&o[..self.outputs]);
        out
    }

    /// The outputs for `x`, from scratch (as [`Net::forward`], vectorised).
    #[inline]
    #[must_use]
    pub fn forward(&self, x: &Inputs) -> Outputs {
        let mut acc = Accumulator::default();
        self.refresh(x, &mut acc);
        self.outputs(&acc)
    }

    /// Calls `f` on each child of decision node `state` after `moves`, in order, with the
    /// network's outputs and the player whose view they take, or `None` for a terminal child.
    /// Evaluated from the accumulator of the first child that is not terminal (the module's
    /// *Batch*).
    pub fn after_moves<G: Evaluate>(
        &self,
        state: &G,
        moves: &[G::Action],
        f: impl FnMut(&G, Option<(Outputs, Player)>),
    ) {
        self.after_moves_except(state, moves, |_| false, f);
    }

    /// [`Incremental::after_moves`], but a child for which `skip` holds (one valued another
    /// way, as a bear-off race from the database) is passed with `None`, as a terminal child
    /// is, and the network is not run for it.
    pub fn after_moves_except<G: Evaluate>(
        &self,
        state: &G,
        moves: &[G::Action],
        skip: impl Fn(&G) -> bool,
        mut f: impl FnMut(&G, Option<(Outputs, Player)>),
    ) {
        let mut base: Option<Reference> = None;
        let mut x = Inputs::default();
        let mut acc = Accumulator::default();
        let mut changes = [(0u16, 0.0f32); MAX_INPUTS];
        for &a in moves {
            let mut child = state.clone();
            child.play_unchecked(a);
            if matches!(child.to_act(), ToAct::Terminal(_)) || skip(&child) {
                f(&child, None);
                continue;
            }
            let viewer = child
                .td_inputs(&mut x)
                .expect("the encoding was checked when the agent was built");
            let Some(base) = base.as_mut() else {
                let r = base.insert(Reference::new(&x));
                self.refresh(&x, &mut r.acc);
                f(&child, Some((self.outputs(&r.acc), viewer)));
                continue;
            };
            let n = base.changes(&x, &mut changes);
            if n >= x.len {
                self.refresh(&x, &mut acc);
            } else {
                acc.sums[..self.blocks].copy_from_slice(&base.acc.sums[..self.blocks]);
                self.update(&mut acc, &changes[..n]);
            }
            f(&child, Some((self.outputs(&acc), viewer)));
        }
    }
}

/// The reference of a batch: its inputs, dense, and its accumulator.
struct Reference {
    dense: [f32x8; INPUT_BLOCKS],
    /// The blocks of eight inputs where the reference has a non-zero input, a bit each.
    occupied: u64,
    /// Scratch: the current child's inputs, dense (zero outside its non-zero inputs).
    child: [f32x8; INPUT_BLOCKS],
    acc: Accumulator,
}

impl Reference {
    fn new(x: &Inputs) -> Reference {
        let mut r = Reference {
            dense: [f32x8::ZERO; INPUT_BLOCKS],
            occupied: 0,
            child: [f32x8::ZERO; INPUT_BLOCKS],
            acc: Accumulator::default(),
        };
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            r.dense[i / LANES].as_array_mut()[i % LANES] = x.x[i];
            r.occupied |= 1 << (i / LANES);
        }
        r
    }

    /// Writes into `changes` the inputs where `x` differs from the reference, in increasing
    /// order, with `x`'s value minus the reference's; returns how many. Only the blocks of
    /// eight inputs where either has a non-zero input are compared.
    #[inline(always)]
    fn changes(&mut self, x: &Inputs, changes: &mut [(u16, f32)]) -> usize {
        let mut occupied = self.occupied;
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            self.child[i / LANES].as_array_mut()[i % LANES] = x.x[i];
            occupied |= 1 << (i / LANES);
        }
        let mut n = 0;
        while occupied != 0 {
            let b = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let (c, r) = (self.child[b], self.dense[b]);
            let mut mask = c.cmp_ne(r).move_mask();
            if mask != 0 {
                let d = (c - r).to_array();
                while mask != 0 {
                    let lane = mask.trailing_zeros() as usize;
                    changes[n] = ((b * LANES + lane) as u16, d[lane]);
                    n += 1;
                    mask &= mask - 1;
                }
            }
        }
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            self.child[i / LANES].as_array_mut()[i % LANES] = 0.0;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_sigmoid_is_within_2e_7_of_the_sigmoid_in_f64() {
        // Every 1/64 from -100 to 100 (past the clamp both ways), against f64's exp.
        for k in -6400..=6400 {
            let x = k as f32 / 64.0;
            let got = sigmoid(f32x8::splat(x)).to_array();
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
