//! GNU Backgammon's Position ID: the 14-character base64 form of an 80-bit position key.
//!
//! The algorithm, as documented in the GNU Backgammon manual ("A technical description of the
//! Position ID"): for each player, first the player *not* on roll and then the player on roll,
//! walk that player's points 1 to 24 in its own numbering and then its bar, writing for each as
//! many 1 bits as it has checkers there followed by one 0 bit. The bits (at most 80) fill ten
//! bytes, least significant bit first, padded with zeros; the ten bytes are written in base64
//! without the trailing `==`. Borne-off checkers are implicit (fifteen minus those counted).
//! Implemented here from that description.

use super::board::{Board, BAR, CHECKERS, OFF};
use super::params::Direction;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The Position ID of `board` with `on_roll` to play. The numbering is GNU Backgammon's, which is
/// the tables numbering with [`Direction::Opposite`].
#[must_use]
pub fn encode_position_id(board: &Board, on_roll: usize) -> String {
    let mut bytes = [0u8; 10];
    let mut bit = 0usize;
    for side in [1 - on_roll, on_roll] {
        for slot in 1..=BAR {
            for _ in 0..board.count(side, slot) {
                bytes[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    // 80 bits = 13 full six-bit groups and 2 bits.
    let mut out = String::with_capacity(14);
    for i in 0..14 {
        let mut v = 0u8;
        for j in 0..6 {
            let b = i * 6 + j; // bit index in the big-endian byte stream base64 reads
            if b < 80 {
                let byte = bytes[b / 8];
                let bitval = (byte >> (7 - b % 8)) & 1;
                v |= bitval << (5 - j);
            }
        }
        out.push(ALPHABET[v as usize] as char);
    }
    out
}

/// Reads a Position ID into a board whose side 0 is the player on roll (side 1 the other).
///
/// # Errors
/// A reason in words if the text is not 14 base64 characters, a player has more than fifteen
/// checkers, or a point is held by both players.
pub fn decode_position_id(text: &str) -> Result<Board, String> {
    let text = text.trim();
    if text.len() != 14 {
        return Err(format!(
            "a Position ID has 14 characters, this one has {}",
            text.chars().count()
        ));
    }
    let mut bytes = [0u8; 11];
    for (i, c) in text.bytes().enumerate() {
        let v = ALPHABET.iter().position(|&a| a == c).ok_or_else(|| {
            let bad = text
                .chars()
                .find(|ch| !ch.is_ascii() || !ALPHABET.contains(&(*ch as u8)))
                .unwrap_or(c as char);
            format!(
                "{} is not a base64 character",
                crate::quote::quote_input(&bad.to_string())
            )
        })?;
        for j in 0..6 {
            if v >> (5 - j) & 1 == 1 {
                let b = i * 6 + j;
                bytes[b / 8] |= 1 << (7 - b % 8);
            }
        }
    }
    let bit_at = |i: usize| bytes[i / 8] >> (i % 8) & 1 == 1;
    let mut n = [[0u8; 26]; 2];
    let mut i = 0usize;
    for side in [1usize, 0] {
        for count in &mut n[side][1..=BAR] {
            while i < 80 && bit_at(i) {
                *count += 1;
                i += 1;
            }
            i += 1;
        }
        let total: u32 = n[side].iter().map(|&c| u32::from(c)).sum();
        if total > u32::from(CHECKERS) {
            return Err(format!("a player has {total} checkers in '{text}'"));
        }
        n[side][OFF] = CHECKERS - total as u8;
    }
    let b = Board::from_counts(n);
    b.validate(Direction::Opposite)
        .map_err(|e| format!("'{text}': {e}"))?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tables::STANDARD_START;

    #[test]
    fn standard_start_id() {
        let mut n = [[0u8; 26]; 2];
        n[0][1..25].copy_from_slice(&STANDARD_START);
        n[1][1..25].copy_from_slice(&STANDARD_START);
        let b = Board::from_counts(n);
        // The start's ID as printed by GNU Backgammon (its manual and every new game).
        assert_eq!(encode_position_id(&b, 0), "4HPwATDgc/ABMA");
        assert_eq!(decode_position_id("4HPwATDgc/ABMA").unwrap(), b);
    }

    #[test]
    fn rejects_bad_text() {
        assert!(decode_position_id("4HPwATDgc/ABM").is_err());
        assert!(decode_position_id("4HPwATDgc/AB!A").is_err());
        // All 80 bits set: far more than fifteen checkers.
        assert!(decode_position_id("//////////////").is_err());
    }
}
