//! A set of result keys (open addressing, linear probing) that a join fills as it goes, so that
//! a position reached by many splits of the throws is kept once and only distinct keys are
//! sorted.

/// No key: a position code of 127 is none.
const NO_KEY: u32 = u32::MAX;

/// The table; its members live in the caller's list, which [`KeySet::insert`] appends to.
#[derive(Default)]
pub(super) struct KeySet {
    slots: Vec<u32>,
}

#[inline]
fn home(k: u32) -> usize {
    (u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

impl KeySet {
    /// Makes room for `more` keys beyond the `members` (the keys inserted since the set was last
    /// [emptied](KeySet::empty)).
    #[inline]
    pub(super) fn reserve(&mut self, members: &[u32], more: usize) {
        if 2 * (members.len() + more) > self.slots.len() {
            self.grow(members, more);
        }
    }

    /// Appends `k` to `members` unless it is there already; `members` must hold exactly the
    /// keys inserted since the set was last emptied, and room must have been
    /// [reserved](KeySet::reserve) for `k`.
    #[inline(always)]
    pub(super) fn insert(&mut self, k: u32, members: &mut Vec<u32>) {
        let m = self.slots.len() - 1;
        let mut i = home(k) & m;
        loop {
            let e = self.slots[i];
            if e == k {
                return;
            }
            if e == NO_KEY {
                self.slots[i] = k;
                members.push(k);
                return;
            }
            i = (i + 1) & m;
        }
    }

    #[cold]
    fn grow(&mut self, members: &[u32], more: usize) {
        self.empty(members);
        let size = (4 * (members.len() + more)).next_power_of_two().max(256);
        self.slots.clear();
        self.slots.resize(size, NO_KEY);
        let m = size - 1;
        for &k in members {
            let mut i = home(k) & m;
            while self.slots[i] != NO_KEY {
                i = (i + 1) & m;
            }
            self.slots[i] = k;
        }
    }

    /// Empties the set, whose members are `members` (in any order).
    pub(super) fn empty(&mut self, members: &[u32]) {
        if self.slots.is_empty() {
            return;
        }
        let m = self.slots.len() - 1;
        // Each search runs until it meets its key, which is there, so slots emptied before it
        // do not stop it.
        for &k in members {
            let mut i = home(k) & m;
            while self.slots[i] != k {
                i = (i + 1) & m;
            }
            self.slots[i] = NO_KEY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_key_once_and_empties() {
        let mut set = KeySet::default();
        let mut members = Vec::new();
        for round in 0..3u32 {
            for k in 0..5000u32 {
                set.reserve(&members, 1);
                set.insert((k * 7919 + round) % 3001, &mut members);
            }
            assert_eq!(members.len(), 3001);
            let mut sorted = members.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 3001);
            set.empty(&members);
            members.clear();
            assert!(set.slots.iter().all(|&s| s == NO_KEY));
        }
    }
}
