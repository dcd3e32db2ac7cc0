//! The learned evaluation built for search: the network of [`Net`] evaluated with its first
//! layer kept as an **accumulator** (the hidden units' sums before the sigmoid), updated from a
//! reference position by adding `(new - old) × w1[i]` for each input `i` that differs, as NNUE
//! engines do (Nasu 2018, "Efficiently updatable neural-network-based evaluation functions for
//! computer shogi"), and the rest vectorised.
//!
//! - **Vectors**: the accumulator in the `wide` crate's `f32x8` (eight lanes: on the project's
//!   x86-64-v2 target two SSE registers); the hidden units are padded to a multiple of 8 with
//!   zero weights, so a padded unit's sigmoid (0.5) meets a zero output weight. The sigmoid and
//!   the output layer in [`kernel`], compiled for AVX2 as well and chosen when the program
//!   starts. No fused multiply-add, so the results do not depend on the instruction set.
//! - **Sigmoid**: a polynomial `2^x` and one division, eight units at once, where
//!   [`Net::forward`] calls `f32::exp` and divides unit by unit.
//! - **Batch**: [`Incremental::after_moves`] scores every child of a decision node from the
//!   accumulator of the reference (the first child that is not terminal) plus the inputs where
//!   the child's encoding differs from the reference's (from scratch instead when it differs in
//!   as many inputs as it has). Where the game computes those differences itself
//!   ([`Evaluate::td_changes`]: Frangieh, from the points whose counts differ) the children are
//!   not encoded; elsewhere each child is encoded and compared with the reference eight inputs
//!   at a time (the blocks where either has a non-zero input). The differences are applied in
//!   increasing input order, so two moves that reach the same position get the same outputs to
//!   the bit. On Frangieh's move lists a candidate differs from the reference in about 7 of its
//!   27 non-zero inputs.
//!
//! The outputs equal [`Net::forward`]'s to within `1e-5` (`agents/tests/incremental.rs`; the
//! summation order and the sigmoid differ, so not to the bit); `Net::forward` stays the
//! reference, and training uses it.

use cowrie_engine::{Player, ToAct};
use wide::{f32x8, CmpNe};

use super::kernel;
use super::net::{Changes, Inputs, Net, Outputs, MAX_HIDDEN, MAX_INPUTS, MAX_OUTPUTS};
use crate::evaluate::Evaluate;

const LANES: usize = kernel::LANES;
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

    fn layers(&self) -> kernel::Layers<'_> {
        kernel::Layers {
            w1: bytemuck::cast_slice(&self.w1),
            w2: bytemuck::cast_slice(&self.w2),
            b2: &self.b2,
            outputs: self.outputs,
        }
    }

    /// The outputs of the position whose sums `acc` holds (entries past the network's outputs
    /// are 0), by [`kernel::outputs`].
    #[inline]
    #[must_use]
    pub fn outputs(&self, acc: &Accumulator) -> Outputs {
        self.outputs_after(acc, &[])
    }

    /// The outputs of the position whose inputs differ from those of the position whose sums
    /// `acc` holds by `changes` (as [`Incremental::update`] takes them), by
    /// [`kernel::outputs`], without storing its sums.
    #[inline]
    #[must_use]
    pub fn outputs_after(&self, acc: &Accumulator, changes: &[(u16, f32)]) -> Outputs {
        kernel::outputs(
            bytemuck::cast_slice(&acc.sums[..self.blocks]),
            changes,
            self.layers(),
        )
    }

    /// The outputs for `x`, from scratch (as [`Net::forward`], vectorised): by
    /// [`kernel::forward`], the same bits as [`Incremental::refresh`] then
    /// [`Incremental::outputs`].
    #[inline]
    #[must_use]
    pub fn forward(&self, x: &Inputs) -> Outputs {
        kernel::forward(
            bytemuck::cast_slice(&self.b1),
            &x.nonzero[..x.len],
            &x.x,
            self.layers(),
        )
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
        self.after_moves_while(state, moves, skip, |child, scored| {
            f(child, scored);
            true
        });
    }

    /// [`Incremental::after_moves_except`], stopping after the first child for which `f`
    /// returns `false`: the children before it get the same outputs as in the whole batch,
    /// and those after it are neither played nor scored (the moves a search cuts off).
    pub fn after_moves_while<G: Evaluate>(
        &self,
        state: &G,
        moves: &[G::Action],
        skip: impl Fn(&G) -> bool,
        mut f: impl FnMut(&G, Option<(Outputs, Player)>) -> bool,
    ) {
        // Built in place at the first child that is not terminal.
        let mut base = Reference::empty();
        let mut reference: Option<G> = None;
        let mut x = Inputs::default();
        let mut changes = Changes::default();
        for &a in moves {
            let mut child = state.clone();
            child.play_unchecked(a);
            if matches!(child.to_act(), ToAct::Terminal(_)) || skip(&child) {
                if !f(&child, None) {
                    return;
                }
                continue;
            }
            let Some(reference) = reference.as_ref() else {
                let viewer = encode(&child, &mut x);
                base.set(&x);
                self.refresh(&x, &mut base.acc);
                if !f(&child, Some((self.outputs(&base.acc), viewer))) {
                    return;
                }
                reference = Some(child);
                continue;
            };
            changes.clear();
            // The game's own differences where it computes them, else the encodings compared.
            let (viewer, len, encoded) = match child.td_changes(reference, &mut changes) {
                Some(viewer) => (viewer, base.len_after(changes.as_slice()), false),
                None => {
                    let viewer = encode(&child, &mut x);
                    base.changes(&x, &mut changes);
                    (viewer, x.len, true)
                }
            };
            let outputs = if changes.len >= len {
                if !encoded {
                    encode(&child, &mut x);
                }
                self.forward(&x)
            } else {
                self.outputs_after(&base.acc, changes.as_slice())
            };
            if !f(&child, Some((outputs, viewer))) {
                return;
            }
        }
    }
}

/// Encodes non-terminal `state` into `x`; returns the player whose view it takes.
#[inline(always)]
fn encode<G: Evaluate>(state: &G, x: &mut Inputs) -> Player {
    state
        .td_inputs(x)
        .expect("the encoding was checked when the agent was built")
}

/// The reference of a batch: its inputs, dense, and its accumulator.
struct Reference {
    dense: [f32x8; INPUT_BLOCKS],
    /// The blocks of eight inputs where the reference has a non-zero input, a bit each.
    occupied: u64,
    /// The reference's non-zero inputs.
    len: usize,
    /// Scratch: the current child's inputs, dense (zero outside its non-zero inputs).
    child: [f32x8; INPUT_BLOCKS],
    acc: Accumulator,
}

impl Reference {
    /// A reference with no inputs, to be [`Reference::set`] once.
    fn empty() -> Reference {
        Reference {
            dense: [f32x8::ZERO; INPUT_BLOCKS],
            occupied: 0,
            len: 0,
            child: [f32x8::ZERO; INPUT_BLOCKS],
            acc: Accumulator::default(),
        }
    }

    /// Records `x` as the reference's inputs (its accumulator is set apart); only once.
    fn set(&mut self, x: &Inputs) {
        self.len = x.len;
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            self.dense[i / LANES].as_array_mut()[i % LANES] = x.x[i];
            self.occupied |= 1 << (i / LANES);
        }
    }

    /// The non-zero inputs of the position that differs from the reference by `changes`.
    #[inline(always)]
    fn len_after(&self, changes: &[(u16, f32)]) -> usize {
        let mut len = self.len;
        for &(i, d) in changes {
            let i = usize::from(i);
            let r = self.dense[i / LANES].as_array_ref()[i % LANES];
            // `r + d` is 0 exactly when the position's input is: `d` is `0 - r` then.
            match (r != 0.0, r + d != 0.0) {
                (false, true) => len += 1,
                (true, false) => len -= 1,
                _ => {}
            }
        }
        len
    }

    /// Writes into `changes` the inputs where `x` differs from the reference, in increasing
    /// order, with `x`'s value minus the reference's. Only the blocks of eight inputs where
    /// either has a non-zero input are compared.
    #[inline(always)]
    fn changes(&mut self, x: &Inputs, changes: &mut Changes) {
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
                    changes.list[n] = ((b * LANES + lane) as u16, d[lane]);
                    n += 1;
                    mask &= mask - 1;
                }
            }
        }
        changes.len = n;
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            self.child[i / LANES].as_array_mut()[i % LANES] = 0.0;
        }
    }
}
