//! The schedule of a match: which agent sits in which seat of each game, and which chance
//! stream (pair) it uses.

/// Where game `game_index` stands in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game's index, from 0.
    pub game_index: u64,
    /// The seat-swapped pair it belongs to (its chance stream).
    pub pair_index: u64,
    /// Whether the agents are swapped: the second-named agent (`--p2`) sits in seat 1.
    pub swapped: bool,
}

/// The slot of game `game_index`: with `swap`, games `2k` and `2k + 1` form pair `k`, the
/// second with seats swapped; without, every game is its own pair and unswapped.
#[must_use]
pub fn slot(game_index: u64, swap: bool) -> Slot {
    if swap {
        Slot {
            game_index,
            pair_index: game_index / 2,
            swapped: game_index % 2 == 1,
        }
    } else {
        Slot {
            game_index,
            pair_index: game_index,
            swapped: false,
        }
    }
}

/// A deterministic slice of a run's schedule: shard `k` of `n` (1-based) plays the seat-swapped
/// pairs whose index is `k - 1` modulo `n`, so both games of a pair stay together and the
/// shards of a run cover every game exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1.
    pub k: u64,
    /// The number of shards.
    pub n: u64,
}

impl Shard {
    /// The whole run (`1/1`).
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Whether pair `pair_index` belongs to this shard.
    #[must_use]
    pub fn contains(self, pair_index: u64) -> bool {
        pair_index % self.n == self.k - 1
    }
}

impl std::str::FromStr for Shard {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<Shard> {
        let parsed = s
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)));
        match parsed {
            Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok(Shard { k, n }),
            _ => anyhow::bail!("--shard '{s}': expected K/N with 1 <= K <= N"),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_and_keep_pairs_together() {
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for i in 0..100 {
            let s = slot(i, true);
            let owners: Vec<_> = shards
                .iter()
                .filter(|sh| sh.contains(s.pair_index))
                .collect();
            assert_eq!(owners.len(), 1);
            assert_eq!(slot(i ^ 1, true).pair_index, s.pair_index);
        }
        assert_eq!("2/3".parse::<Shard>().unwrap(), Shard { k: 2, n: 3 });
        for bad in ["0/3", "4/3", "1/0", "x", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
