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

impl Shard {
    /// This shard's slice of one part of a run made of parts (a ladder's steps, a tournament's
    /// pairings) whose pairs are numbered in one order over the whole run, part after part, the
    /// part's first pair being the run's pair `before`: the part's own shard `K'/N` whose pairs
    /// are the ones this shard plays (`K` turned back by `before`), so a run of at least `N`
    /// pairs leaves no shard empty however few pairs each part has.
    #[must_use]
    pub fn after(self, before: u64) -> Shard {
        let back = before % self.n;
        Shard {
            k: (self.k - 1 + self.n - back) % self.n + 1,
            n: self.n,
        }
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
            _ => anyhow::bail!(
                "--shard {}: expected K/N with 1 <= K <= N",
                crate::args::quote(s)
            ),
        }
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The game indices one process plays, in schedule order, computed on demand: a run of any
/// length costs no memory before it plays (the games of shard `k` of `n` are the pairs
/// `k - 1, k - 1 + n, k - 1 + 2n, ...`, both games of a pair in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    games: u64,
    swap: bool,
    shard: Shard,
}

impl Schedule {
    /// The schedule of `games` games (seat-swapped pairs when `swap`, then `games` is even),
    /// sliced to `shard`.
    #[must_use]
    pub fn new(games: u64, swap: bool, shard: Shard) -> Schedule {
        Schedule { games, swap, shard }
    }

    fn per_pair(self) -> u64 {
        if self.swap {
            2
        } else {
            1
        }
    }

    /// How many games this slice plays.
    #[must_use]
    pub fn len(self) -> u64 {
        let pairs = self.games / self.per_pair();
        let first = self.shard.k - 1;
        let mine = if pairs > first {
            (pairs - first).div_ceil(self.shard.n)
        } else {
            0
        };
        mine * self.per_pair()
    }

    /// Whether this slice plays no game.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The game index of the `i`-th game of this slice, if it has one.
    #[must_use]
    pub fn get(self, i: u64) -> Option<u64> {
        (i < self.len()).then(|| {
            let per = self.per_pair();
            let pair = self.shard.k - 1 + (i / per) * self.shard.n;
            pair * per + i % per
        })
    }

    /// The game indices from position `from` on, in order.
    pub fn from(self, from: u64) -> impl Iterator<Item = u64> {
        (from..self.len()).filter_map(move |i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lazy_schedule_lists_the_games_a_filter_over_all_games_keeps() {
        for swap in [true, false] {
            for games in [0u64, 2, 8, 10, 14, 100] {
                for n in 1..=6 {
                    for k in 1..=n {
                        let shard = Shard { k, n };
                        let slow: Vec<u64> = (0..games)
                            .filter(|&i| shard.contains(slot(i, swap).pair_index))
                            .collect();
                        let lazy = Schedule::new(games, swap, shard);
                        assert_eq!(lazy.len(), slow.len() as u64, "{games} {swap} {shard}");
                        assert_eq!(lazy.from(0).collect::<Vec<_>>(), slow);
                        assert_eq!(lazy.get(lazy.len()), None);
                    }
                }
            }
        }
        // A schedule of 2^40 games is a few words: its last game is computed, not stored.
        let huge = Schedule::new(1 << 40, true, Shard { k: 3, n: 4 });
        assert_eq!(huge.len(), 1 << 38);
        assert_eq!(huge.get(huge.len() - 1), Some((1 << 40) - 3));
    }

    #[test]
    fn a_shards_slices_of_the_parts_are_its_pairs_of_the_whole_run() {
        for parts in [vec![1u64], vec![2, 2, 2], vec![1, 4, 2], vec![3, 1, 1, 5]] {
            let total: u64 = parts.iter().sum();
            for n in 1..=total {
                for k in 1..=n {
                    let shard = Shard { k, n };
                    // The run's pairs, numbered part after part, dealt round the shards.
                    let mut whole = Vec::new();
                    let mut sliced = Vec::new();
                    let mut before = 0;
                    for (i, &pairs) in parts.iter().enumerate() {
                        whole.extend(
                            (0..pairs)
                                .filter(|p| (before + p) % n == k - 1)
                                .map(|p| (i, p)),
                        );
                        let mine = Schedule::new(pairs, false, shard.after(before));
                        sliced.extend(mine.from(0).map(|p| (i, p)));
                        before += pairs;
                    }
                    assert_eq!(sliced, whole, "{shard} of {parts:?}");
                    assert!(!sliced.is_empty());
                }
            }
        }
        // Three parts of two pairs in three shards: shard 2 plays pair 1 of part 0 and pair 0
        // of part 2 (the run's pairs 1 and 4), so its slice of part 1 is empty.
        let two = Shard { k: 2, n: 3 };
        assert_eq!(two.after(0), two);
        assert_eq!(two.after(2), Shard { k: 3, n: 3 });
        assert_eq!(two.after(4), Shard { k: 1, n: 3 });
        assert!(Schedule::new(4, true, two.after(2)).is_empty());
    }

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
