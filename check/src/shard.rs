//! `--shard K/N`: one deterministic N-th of a run's units of work, by cargo-nextest's
//! `--partition count:K/N` convention: unit `i` (counted from 0 in the run's order: case
//! numbers for `jtg check`, jars sorted by path for `jtg corpus`) belongs to shard
//! `i mod N + 1`. The N shards of a run are disjoint and together are the whole run.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `total` (1 ≤ index ≤ total).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    index: u64,
    total: u64,
}

/// A `--shard` value that is not `K/N` with 1 ≤ K ≤ N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard {0}: expected K/N with 1 <= K <= N (e.g. 1/4)")]
pub struct ShardError(String);

impl Shard {
    /// The whole run (shard 1 of 1).
    pub const WHOLE: Shard = Shard { index: 1, total: 1 };

    /// Shard `index` of `total`.
    pub fn new(index: u64, total: u64) -> Result<Shard, ShardError> {
        if index == 0 || total == 0 || index > total {
            return Err(ShardError(format!("{index}/{total}")));
        }
        Ok(Shard { index, total })
    }

    /// K (from 1).
    pub fn index(self) -> u64 {
        self.index
    }

    /// N.
    pub fn total(self) -> u64 {
        self.total
    }

    /// Whether this is the whole run.
    pub fn is_whole(self) -> bool {
        self.total == 1
    }

    /// Whether unit `i` of the run belongs to this shard.
    pub fn has(self, i: u64) -> bool {
        i % self.total == self.index - 1
    }

    /// How many of the units `0..n` belong to this shard.
    pub fn count(self, n: u64) -> u64 {
        let first = self.index - 1;
        if n <= first {
            0
        } else {
            (n - first).div_ceil(self.total)
        }
    }

    /// The `k`-th unit of this shard (from 0): `K-1 + k·N`.
    pub fn nth(self, k: u64) -> u64 {
        self.index - 1 + k * self.total
    }

    /// The units of `items` (in the run's order) that belong to this shard.
    pub fn select<T: Clone>(self, items: &[T]) -> Vec<T> {
        items
            .iter()
            .enumerate()
            .filter(|(i, _)| self.has(*i as u64))
            .map(|(_, t)| t.clone())
            .collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.total)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Shard::new(k, n).map_err(|_| bad())
    }
}

impl TryFrom<String> for Shard {
    type Error = ShardError;
    fn try_from(s: String) -> Result<Shard, ShardError> {
        s.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    quickcheck::quickcheck! {
        /// The shards of a run are disjoint, cover it, and `count`/`nth` list exactly the
        /// units `has` accepts, in order.
        fn shards_partition_the_run(n: u16, total: u8) -> bool {
            let (n, total) = (u64::from(n), u64::from(total % 16) + 1);
            let shards: Vec<Shard> = (1..=total).map(|k| Shard::new(k, total).unwrap()).collect();
            let each_once = (0..n).all(|i| shards.iter().filter(|s| s.has(i)).count() == 1);
            let listed = shards.iter().all(|s| {
                let by_nth: Vec<u64> = (0..s.count(n)).map(|k| s.nth(k)).collect();
                let by_has: Vec<u64> = (0..n).filter(|&i| s.has(i)).collect();
                by_nth == by_has
            });
            each_once && listed && shards.iter().map(|s| s.count(n)).sum::<u64>() == n
        }
    }

    #[test]
    fn parse_and_print() {
        assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
        assert_eq!(Shard::new(2, 3).unwrap().to_string(), "2/3");
        for bad in ["0/3", "4/3", "1/0", "1", "a/b", "1/2/3", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            "4/3".parse::<Shard>().unwrap_err().to_string(),
            "--shard 4/3: expected K/N with 1 <= K <= N (e.g. 1/4)"
        );
        assert_eq!(
            Shard::new(1, 2).unwrap().select(&[0, 1, 2, 3, 4]),
            [0, 2, 4]
        );
        assert_eq!(Shard::new(2, 2).unwrap().select(&[0, 1, 2, 3, 4]), [1, 3]);
    }
}
