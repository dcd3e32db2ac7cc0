//! Keeping one play per resulting position: the play generators may reach a position by several
//! plays, and two plays that leave the same position are one action ([`Play`]'s key).

use super::play::Play;

/// Keeps the first play of each resulting position, in order.
pub(super) fn dedupe(out: &mut Vec<Play>) {
    match out.len() {
        0..=16 => dedupe_scan(out),
        17..=256 => dedupe_table::<512>(out),
        257..=2048 => dedupe_table::<4096>(out),
        2049..=16_384 => dedupe_table::<32_768>(out),
        _ => dedupe_scan(out),
    }
}

fn dedupe_scan(out: &mut Vec<Play>) {
    let mut w = 0;
    for r in 0..out.len() {
        let p = out[r];
        if !out[..w].contains(&p) {
            out[w] = p;
            w += 1;
        }
    }
    out.truncate(w);
}

// Not inlined: the table lives in this function's own stack frame, so callers with few plays do
// not pay for probing a large frame.
#[inline(never)]
fn dedupe_table<const N: usize>(out: &mut Vec<Play>) {
    // Open addressing; a slot holds 1 + the index of a kept play (0: empty).
    let mut table = [0u16; N];
    let mut w = 0;
    for r in 0..out.len() {
        let p = out[r];
        let k = p.key();
        let mix = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut i = (mix >> 40) as usize & (N - 1);
        loop {
            let slot = table[i] as usize;
            if slot == 0 {
                table[i] = (w + 1) as u16;
                out[w] = p;
                w += 1;
                break;
            }
            if out[slot - 1].key() == k {
                break;
            }
            i = (i + 1) & (N - 1);
        }
    }
    out.truncate(w);
}
