//! The learned evaluation: a multilayer perceptron with one hidden layer of sigmoid units and
//! sigmoid outputs, evaluated in plain Rust without allocation (fixed-size buffers on the stack),
//! stored as safetensors.
//!
//! Tensors (all `F32`, row-major): `w1` `[inputs, hidden]` (input-major, so a sparse input adds
//! one contiguous row to the hidden sums), `b1` `[hidden]`, `w2` `[outputs, hidden]`, `b2`
//! `[outputs]`. The file's metadata records the format (`cowrie-td-1`), the game, the variant,
//! the input encoding, the output names, the training command and the games trained on
//! (`docs/agents.md`). In numpy: `safetensors.numpy.load_file(path)`.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use safetensors::tensor::{Dtype, Metadata, SafeTensors, TensorView};

/// The most inputs an encoding may have.
pub const MAX_INPUTS: usize = 320;
/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 256;
/// The most outputs a network may have.
pub const MAX_OUTPUTS: usize = 5;
/// The longest safetensors header [`Net::load`] reads: a network's header (four tensors and
/// its metadata, the training command among them) takes a few kilobytes.
pub const MAX_HEADER: u64 = 1 << 20;
/// The most tensor bytes [`Net::load`] reads: the four `F32` tensors of a network of the
/// largest shape.
pub const MAX_TENSOR_BYTES: u64 =
    4 * (MAX_INPUTS * MAX_HIDDEN + MAX_HIDDEN + MAX_OUTPUTS * MAX_HIDDEN + MAX_OUTPUTS) as u64;
/// The `format` metadata value of a cowrie network.
pub const FORMAT: &str = "cowrie-td-1";

/// One position's encoded inputs: the values and the indices of the non-zero ones.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Input values (only those listed in `nonzero` are read).
    pub x: [f32; MAX_INPUTS],
    /// Indices of the non-zero inputs.
    pub nonzero: [u16; MAX_INPUTS],
    /// How many of `nonzero` are used.
    pub len: usize,
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            x: [0.0; MAX_INPUTS],
            nonzero: [0; MAX_INPUTS],
            len: 0,
        }
    }
}

impl Inputs {
    /// Forgets every input.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Sets input `i` to `v` (nothing if `v` is 0). Each input is set at most once.
    #[inline]
    pub fn set(&mut self, i: usize, v: f32) {
        if v != 0.0 {
            self.x[i] = v;
            self.nonzero[self.len] = i as u16;
            self.len += 1;
        }
    }
}

/// The inputs where one position's encoding differs from another's, in increasing input
/// order, each with the first position's value minus the other's (see
/// [`crate::Evaluate::td_changes`]).
#[derive(Clone, Debug)]
pub struct Changes {
    /// `(input, difference)` pairs; the first `len` are used.
    pub list: [(u16, f32); MAX_INPUTS],
    /// How many of `list` are used.
    pub len: usize,
}

impl Default for Changes {
    fn default() -> Self {
        Changes {
            list: [(0, 0.0); MAX_INPUTS],
            len: 0,
        }
    }
}

impl Changes {
    /// Forgets every change.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Records that input `i` went from `old` to `new` (nothing if they are equal). Inputs are
    /// pushed in increasing order, each at most once.
    #[inline]
    pub fn push(&mut self, i: usize, old: f32, new: f32) {
        // Written always, kept only if it differs: no branch to mispredict.
        self.list[self.len] = (i as u16, new - old);
        self.len += usize::from(new != old);
    }

    /// The changes recorded.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[(u16, f32)] {
        &self.list[..self.len]
    }
}

/// A network's outputs.
pub type Outputs = [f32; MAX_OUTPUTS];

/// The gradient-sized accumulator of [`Net::accumulate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

impl Grad {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &Grad) {
        for (a, b) in [
            (&mut self.w1, &other.w1),
            (&mut self.b1, &other.b1),
            (&mut self.w2, &other.w2),
            (&mut self.b2, &other.b2),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += *y;
            }
        }
    }

    /// Sets every entry to 0.
    pub fn clear(&mut self) {
        for v in [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2] {
            v.fill(0.0);
        }
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights '{path}': {reason}")]
pub struct NetError {
    /// The file.
    pub path: String,
    /// What is wrong with it.
    pub reason: String,
}

/// A one-hidden-layer perceptron with its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    inputs: usize,
    hidden: usize,
    outputs: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// The file's metadata (`format`, `game`, `variant`, `encoding`, `outputs`, `command`,
    /// `games`, ...).
    pub meta: HashMap<String, String>,
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A network with weights drawn uniformly from `±0.1` by `rng` (biases 0).
    ///
    /// # Panics
    /// If a size exceeds [`MAX_INPUTS`], [`MAX_HIDDEN`] or [`MAX_OUTPUTS`].
    #[must_use]
    pub fn random(inputs: usize, hidden: usize, outputs: usize, rng: &mut ChaCha8Rng) -> Net {
        assert!(inputs <= MAX_INPUTS && hidden <= MAX_HIDDEN && outputs <= MAX_OUTPUTS);
        let mut draw = |n: usize| (0..n).map(|_| rng.gen_range(-0.1f32..0.1)).collect();
        Net {
            inputs,
            hidden,
            outputs,
            w1: draw(inputs * hidden),
            b1: vec![0.0; hidden],
            w2: draw(outputs * hidden),
            b2: vec![0.0; outputs],
            meta: HashMap::new(),
        }
    }

    /// Inputs, hidden units and outputs.
    #[must_use]
    pub fn shape(&self) -> (usize, usize, usize) {
        (self.inputs, self.hidden, self.outputs)
    }

    /// The tensors `w1`, `b1`, `w2` and `b2` as the module describes them.
    pub(crate) fn tensors(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.b2]
    }

    #[inline]
    fn hidden_layer(&self, x: &Inputs, h: &mut [f32; MAX_HIDDEN]) {
        let n = self.hidden;
        let h = &mut h[..n];
        h.copy_from_slice(&self.b1);
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            let v = x.x[i];
            let row = &self.w1[i * n..(i + 1) * n];
            for (a, w) in h.iter_mut().zip(row) {
                *a += v * w;
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid(*a);
        }
    }

    #[inline]
    fn output_layer(&self, h: &[f32; MAX_HIDDEN]) -> Outputs {
        let n = self.hidden;
        let mut out = [0.0; MAX_OUTPUTS];
        for (k, o) in out.iter_mut().enumerate().take(self.outputs) {
            let row = &self.w2[k * n..(k + 1) * n];
            let dot: f32 = row.iter().zip(&h[..n]).map(|(w, a)| w * a).sum();
            *o = sigmoid(self.b2[k] + dot);
        }
        out
    }

    /// The outputs for `x` (entries past the network's outputs are 0). Allocation-free.
    #[inline]
    #[must_use]
    pub fn forward(&self, x: &Inputs) -> Outputs {
        let mut h = [0.0f32; MAX_HIDDEN];
        self.hidden_layer(x, &mut h);
        self.output_layer(&h)
    }

    /// A zero gradient of this network's shape.
    #[must_use]
    pub fn zero_grad(&self) -> Grad {
        Grad {
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.b2.len()],
        }
    }

    /// Adds to `grad` the step that moves the outputs for `x` toward `target`: for each
    /// sigmoid output the cross-entropy gradient `(target - output)` at its logit, propagated
    /// to the weights. Returns the outputs before the step.
    pub fn accumulate(&self, x: &Inputs, target: &Outputs, grad: &mut Grad) -> Outputs {
        let n = self.hidden;
        let mut h = [0.0f32; MAX_HIDDEN];
        self.hidden_layer(x, &mut h);
        let out = self.output_layer(&h);
        let mut dh = [0.0f32; MAX_HIDDEN];
        for k in 0..self.outputs {
            let d = target[k] - out[k];
            grad.b2[k] += d;
            let row = &self.w2[k * n..(k + 1) * n];
            let g = &mut grad.w2[k * n..(k + 1) * n];
            for j in 0..n {
                g[j] += d * h[j];
                dh[j] += d * row[j];
            }
        }
        for j in 0..n {
            dh[j] *= h[j] * (1.0 - h[j]);
            grad.b1[j] += dh[j];
        }
        for &i in &x.nonzero[..x.len] {
            let i = usize::from(i);
            let v = x.x[i];
            let g = &mut grad.w1[i * n..(i + 1) * n];
            for (a, d) in g.iter_mut().zip(&dh[..n]) {
                *a += v * d;
            }
        }
        out
    }

    /// Adds `rate × grad` to the weights.
    pub fn step(&mut self, grad: &Grad, rate: f32) {
        for (w, g) in [
            (&mut self.w1, &grad.w1),
            (&mut self.b1, &grad.b1),
            (&mut self.w2, &grad.w2),
            (&mut self.b2, &grad.b2),
        ] {
            for (a, b) in w.iter_mut().zip(g) {
                *a += rate * b;
            }
        }
    }

    /// The network as safetensors bytes, with its metadata.
    ///
    /// # Panics
    /// Never for a network built by this module (its tensor shapes are consistent).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        let (w1, b1, w2, b2) = (
            bytes(&self.w1),
            bytes(&self.b1),
            bytes(&self.w2),
            bytes(&self.b2),
        );
        fn view(shape: Vec<usize>, data: &[u8]) -> TensorView<'_> {
            TensorView::new(Dtype::F32, shape, data).expect("consistent shapes")
        }
        let tensors = vec![
            ("w1", view(vec![self.inputs, self.hidden], &w1)),
            ("b1", view(vec![self.hidden], &b1)),
            ("w2", view(vec![self.outputs, self.hidden], &w2)),
            ("b2", view(vec![self.outputs], &b2)),
        ];
        let mut meta = self.meta.clone();
        meta.insert("format".into(), FORMAT.into());
        safetensors::serialize(tensors, &Some(meta)).expect("serialisable")
    }

    /// Writes the network to `path`.
    ///
    /// # Errors
    /// An unwritable file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// Reads a network from safetensors `bytes`; `path` names it in errors.
    ///
    /// # Errors
    /// Not safetensors, not a cowrie network, or inconsistent tensor shapes.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Net, NetError> {
        let bad = |reason: String| NetError {
            path: path.to_string(),
            reason,
        };
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| bad(format!("not a safetensors file ({e})")))?;
        let meta = header.metadata().clone().unwrap_or_default();
        if meta.get("format").map(String::as_str) != Some(FORMAT) {
            return Err(bad(format!("not a cowrie network (no format '{FORMAT}')")));
        }
        let st = SafeTensors::deserialize(bytes)
            .map_err(|e| bad(format!("not a safetensors file ({e})")))?;
        let tensor = |name: &str| -> Result<(Vec<usize>, Vec<f32>), NetError> {
            let t = st
                .tensor(name)
                .map_err(|_| bad(format!("no tensor '{name}'")))?;
            if t.dtype() != Dtype::F32 {
                return Err(bad(format!("tensor '{name}' is not F32")));
            }
            let data = t
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            Ok((t.shape().to_vec(), data))
        };
        let (s1, w1) = tensor("w1")?;
        let (sb1, b1) = tensor("b1")?;
        let (s2, w2) = tensor("w2")?;
        let (sb2, b2) = tensor("b2")?;
        let ok = s1.len() == 2
            && s2.len() == 2
            && sb1 == [s1[1]]
            && s2[1] == s1[1]
            && sb2 == [s2[0]]
            && s1[0] <= MAX_INPUTS
            && s1[1] <= MAX_HIDDEN
            && s2[0] <= MAX_OUTPUTS;
        if !ok {
            return Err(bad(format!(
                "inconsistent shapes w1 {s1:?}, b1 {sb1:?}, w2 {s2:?}, b2 {sb2:?}"
            )));
        }
        Ok(Net {
            inputs: s1[0],
            hidden: s1[1],
            outputs: s2[0],
            w1,
            b1,
            w2,
            b2,
            meta,
        })
    }

    /// Reads a network from `path`, checking its size before reading its tensors: the file
    /// must be a regular file, its safetensors header at most [`MAX_HEADER`] bytes, the tensors
    /// it lists at most a network of the largest shape, and its length exactly the 8-byte
    /// length, the header and the tensors that the header implies. So a device (`/dev/zero`),
    /// a truncated copy or a file claiming gigabytes of tensors is refused at once.
    ///
    /// # Errors
    /// An unreadable or non-regular file, a file whose size is not the one its header implies,
    /// or as [`Net::from_bytes`].
    pub fn load(path: &Path) -> Result<Net, NetError> {
        let shown = path.display().to_string();
        let bad = |reason: String| NetError {
            path: shown.clone(),
            reason,
        };
        let cannot = |e: std::io::Error| bad(format!("cannot read ({e})"));
        // `stat` before `open`: opening a FIFO would wait for a writer.
        if !std::fs::metadata(path).map_err(cannot)?.is_file() {
            return Err(bad("not a regular file".to_string()));
        }
        let mut file = std::fs::File::open(path).map_err(cannot)?;
        let size = file.metadata().map_err(cannot)?.len();
        let mut len = [0u8; 8];
        if size < 8 {
            return Err(bad(format!(
                "{size} bytes, too short for a safetensors file (at least 8)"
            )));
        }
        file.read_exact(&mut len).map_err(cannot)?;
        let n = u64::from_le_bytes(len);
        if n > MAX_HEADER {
            return Err(bad(format!(
                "its safetensors header would be {n} bytes long, more than the {MAX_HEADER} a network's may have"
            )));
        }
        if 8 + n > size {
            return Err(bad(format!(
                "{size} bytes, shorter than its {n}-byte safetensors header implies"
            )));
        }
        let mut header = vec![0u8; n as usize];
        file.read_exact(&mut header).map_err(cannot)?;
        let listed: Metadata = serde_json::from_slice(&header).map_err(|e| {
            bad(format!(
                "not a safetensors file (its header: {})",
                cowrie_engine::clip(&e.to_string(), 200)
            ))
        })?;
        let tensors = listed
            .tensors()
            .values()
            .map(|t| t.data_offsets.1 as u64)
            .max()
            .unwrap_or(0);
        if tensors > MAX_TENSOR_BYTES {
            return Err(bad(format!(
                "its header lists {tensors} bytes of tensors, more than the {MAX_TENSOR_BYTES} of the largest network"
            )));
        }
        let expected = 8 + n + tensors;
        if size != expected {
            return Err(bad(format!(
                "{size} bytes, but its safetensors header implies {expected}"
            )));
        }
        let mut bytes = Vec::with_capacity(expected as usize);
        bytes.extend_from_slice(&len);
        bytes.append(&mut header);
        // At most one byte more than expected, in case the file grew since its size was read.
        file.take(tensors + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 != expected {
            return Err(bad(format!(
                "{} bytes read, but its safetensors header implies {expected} (the file changed while read)",
                bytes.len()
            )));
        }
        Net::from_bytes(&bytes, &shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sample(rng: &mut ChaCha8Rng) -> Inputs {
        let mut x = Inputs::default();
        for i in 0..20 {
            if rng.gen_bool(0.4) {
                x.set(i, rng.gen_range(0.1f32..2.0));
            }
        }
        x
    }

    fn param(n: &mut Net, which: usize, i: usize) -> &mut f32 {
        match which {
            0 => &mut n.w1[i],
            1 => &mut n.b1[i],
            2 => &mut n.w2[i],
            _ => &mut n.b2[i],
        }
    }

    /// The cross-entropy of outputs `o` against `t`, summed over the outputs.
    fn loss(net: &Net, x: &Inputs, t: &Outputs) -> f64 {
        let o = net.forward(x);
        (0..net.outputs)
            .map(|k| {
                let (o, t) = (f64::from(o[k]), f64::from(t[k]));
                -(t * o.ln() + (1.0 - t) * (1.0 - o).ln())
            })
            .sum()
    }

    #[test]
    fn accumulate_is_minus_the_cross_entropy_gradient() {
        // Finite differences of the loss, computed separately, against the accumulated step.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut net = Net::random(20, 6, 5, &mut rng);
        let x = sample(&mut rng);
        let t: Outputs = [1.0, 0.3, 0.0, 0.6, 0.2];
        let mut g = net.zero_grad();
        net.accumulate(&x, &t, &mut g);
        let h = 1e-2f32;
        let mut checked = 0;
        for (which, len) in [
            (0, net.w1.len()),
            (1, net.b1.len()),
            (2, net.w2.len()),
            (3, net.b2.len()),
        ] {
            for i in 0..len {
                let analytic = [&g.w1, &g.b1, &g.w2, &g.b2][which][i];
                let v = *param(&mut net, which, i);
                *param(&mut net, which, i) = v + h;
                let up = loss(&net, &x, &t);
                *param(&mut net, which, i) = v - h;
                let down = loss(&net, &x, &t);
                *param(&mut net, which, i) = v;
                let numeric = -(up - down) / (2.0 * f64::from(h));
                assert!(
                    (f64::from(analytic) - numeric).abs() < 2e-3,
                    "tensor {which} entry {i}: {analytic} against {numeric}"
                );
                checked += usize::from(analytic != 0.0);
            }
        }
        assert!(checked > 50, "{checked} non-zero entries checked");
    }

    /// A shipped network, as `td:weights=shipped` reads it.
    const SHIPPED: &[u8] = include_bytes!("../../weights/frangieh-modern.safetensors");

    fn load_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.safetensors");
        std::fs::write(&path, bytes).unwrap();
        Net::load(&path)
    }

    #[test]
    fn load_reads_a_whole_network_file() {
        let net = load_bytes(SHIPPED).unwrap();
        assert_eq!(net, Net::from_bytes(SHIPPED, "w").unwrap());
        assert_eq!(net.meta["format"], FORMAT);
    }

    #[test]
    fn load_refuses_a_file_of_another_size_than_its_header_implies() {
        // The 8-byte little-endian header length, read here independently of the loader.
        let n = u64::from_le_bytes(SHIPPED[..8].try_into().unwrap());
        let whole = SHIPPED.len();
        let refused = |bytes: &[u8]| load_bytes(bytes).unwrap_err().reason;
        assert_eq!(
            refused(&SHIPPED[..whole / 2]),
            format!(
                "{} bytes, but its safetensors header implies {whole}",
                whole / 2
            )
        );
        let mut longer = SHIPPED.to_vec();
        longer.push(0);
        assert_eq!(
            refused(&longer),
            format!(
                "{} bytes, but its safetensors header implies {whole}",
                whole + 1
            )
        );
        assert_eq!(
            refused(&SHIPPED[..8 + n as usize - 1]),
            format!(
                "{} bytes, shorter than its {n}-byte safetensors header implies",
                7 + n
            )
        );
        assert_eq!(
            refused(&SHIPPED[..5]),
            "5 bytes, too short for a safetensors file (at least 8)"
        );
        // A header length of 1 TiB, and a header listing a tensor of 2^30 floats.
        let mut huge = (1u64 << 40).to_le_bytes().to_vec();
        huge.extend_from_slice(b"{}");
        assert!(refused(&huge).contains("header would be 1099511627776 bytes long"));
        let header =
            br#"{"w1":{"dtype":"F32","shape":[1073741824],"data_offsets":[0,4294967296]}}"#;
        let mut big = (header.len() as u64).to_le_bytes().to_vec();
        big.extend_from_slice(header);
        assert!(refused(&big).contains("lists 4294967296 bytes of tensors, more than the"));
    }

    #[test]
    fn load_refuses_devices_and_directories_without_reading_them() {
        // `/dev/zero` would never end; a directory is not a file.
        let dir = tempfile::tempdir().unwrap();
        for path in [Path::new("/dev/zero"), dir.path()] {
            if path.exists() {
                let e = Net::load(path).unwrap_err();
                assert_eq!(
                    e.to_string(),
                    format!("weights '{}': not a regular file", path.display())
                );
            }
        }
        let missing = dir.path().join("missing.safetensors");
        assert!(Net::load(&missing)
            .unwrap_err()
            .reason
            .starts_with("cannot read ("));
    }

    #[test]
    fn forward_matches_a_dense_evaluation() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let net = Net::random(20, 7, 5, &mut rng);
        let x = sample(&mut rng);
        let dense: Vec<f64> = (0..20)
            .map(|i| {
                if x.nonzero[..x.len].contains(&(i as u16)) {
                    f64::from(x.x[i])
                } else {
                    0.0
                }
            })
            .collect();
        let s = |v: f64| 1.0 / (1.0 + (-v).exp());
        let hidden: Vec<f64> = (0..7)
            .map(|j| {
                s((0..20)
                    .map(|i| dense[i] * f64::from(net.w1[i * 7 + j]))
                    .sum::<f64>()
                    + f64::from(net.b1[j]))
            })
            .collect();
        let o = net.forward(&x);
        for (k, &got) in o.iter().enumerate() {
            let want = s((0..7)
                .map(|j| hidden[j] * f64::from(net.w2[k * 7 + j]))
                .sum::<f64>()
                + f64::from(net.b2[k]));
            assert!((f64::from(got) - want).abs() < 1e-5, "output {k}");
        }
    }
}
