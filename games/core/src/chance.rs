//! Seeded randomness. Engines never touch an OS random source: every shuffle and die roll goes
//! through [`Chance`], which the room owns and seeds once per match.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng, TryRngCore};
use std::collections::VecDeque;

/// A source of uniform choices. One method is enough for shuffles and dice alike, and keeps
/// scripted test sources trivial to write.
pub trait Chance {
    /// A uniformly random number in `0..n`. `n` must be at least 1.
    fn below(&mut self, n: u32) -> u32;

    /// A six-sided die: 1 to 6.
    fn d6(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// ChaCha8 seeded from 32 bytes: fast, portable and identical on every platform, so a seed
/// stored with a match replays it anywhere.
#[derive(Debug, Clone)]
pub struct SeededChance(ChaCha8Rng);

impl SeededChance {
    pub fn from_seed(seed: [u8; 32]) -> Self {
        SeededChance(ChaCha8Rng::from_seed(seed))
    }

    /// Handy for tests and benchmarks: a seed from one number.
    pub fn from_u64(seed: u64) -> Self {
        SeededChance(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A fresh seed from the operating system, for a new match.
    pub fn fresh_seed() -> [u8; 32] {
        let mut seed = [0u8; 32];
        rand_core::OsRng
            .try_fill_bytes(&mut seed)
            .expect("the operating system's random source is available");
        seed
    }
}

impl Chance for SeededChance {
    fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "Chance::below(0) has no possible value");
        // Lemire's multiply-and-reject: unbiased, and almost always one 32-bit draw.
        let threshold = n.wrapping_neg() % n; // 2^32 mod n
        loop {
            let product = self.0.next_u32() as u64 * n as u64;
            if product as u32 >= threshold {
                return (product >> 32) as u32;
            }
        }
    }
}

/// A scripted source for tests: returns the queued values in order (each reduced into range),
/// then falls back to a fixed seed so a test that under-specifies still runs deterministically.
#[derive(Debug, Clone)]
pub struct ScriptedChance {
    script: VecDeque<u32>,
    fallback: SeededChance,
}

impl ScriptedChance {
    pub fn new(values: impl IntoIterator<Item = u32>) -> Self {
        ScriptedChance {
            script: values.into_iter().collect(),
            fallback: SeededChance::from_u64(0),
        }
    }

    /// Script die faces (1-6) for [`Chance::d6`].
    pub fn dice(faces: impl IntoIterator<Item = u8>) -> Self {
        Self::new(faces.into_iter().map(|f| {
            assert!((1..=6).contains(&f), "a die face is 1 to 6, not {f}");
            f as u32 - 1
        }))
    }

    /// Values still queued.
    pub fn remaining(&self) -> usize {
        self.script.len()
    }
}

impl Chance for ScriptedChance {
    fn below(&mut self, n: u32) -> u32 {
        match self.script.pop_front() {
            Some(v) => v % n,
            None => self.fallback.below(n),
        }
    }
}

/// Fisher–Yates shuffle through a [`Chance`].
pub fn shuffle<T>(items: &mut [T], chance: &mut dyn Chance) {
    for i in (1..items.len()).rev() {
        let j = chance.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_choices() {
        let mut a = SeededChance::from_u64(7);
        let mut b = SeededChance::from_u64(7);
        let xs: Vec<u32> = (0..100).map(|_| a.below(52)).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.below(52)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| x < 52));
    }

    #[test]
    fn choices_cover_the_whole_range_evenly() {
        let mut chance = SeededChance::from_u64(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[chance.d6() as usize - 1] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "uneven die: {counts:?}");
        }
    }

    #[test]
    fn scripted_dice_come_out_in_order() {
        let mut chance = ScriptedChance::dice([6, 1, 3]);
        assert_eq!([chance.d6(), chance.d6(), chance.d6()], [6, 1, 3]);
        assert_eq!(chance.remaining(), 0);
    }

    #[test]
    fn a_shuffle_is_a_permutation() {
        let mut cards: Vec<u32> = (0..54).collect();
        shuffle(&mut cards, &mut SeededChance::from_u64(3));
        assert_ne!(cards, (0..54).collect::<Vec<_>>());
        cards.sort();
        assert_eq!(cards, (0..54).collect::<Vec<_>>());
    }
}
