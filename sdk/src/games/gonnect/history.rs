//! Board keys (Zobrist hashes with the stone counts) and the game's history of them, which the
//! positional superko rule consults.
//!
//! A *key* is one `u64`: the high 48 bits are the Zobrist hash of the board, the low 16 bits the
//! exact stone counts (White in bits 0-7, Black in bits 8-15). Two boards with different counts
//! therefore never share a key, and boards with equal counts are told apart by 48 hash bits (a
//! false match has a chance of about 2^-48 per comparison).
//!
//! The history is a persistent list so that cloning a position stays cheap: the newest keys live
//! inline in the position, and every [`CHUNK`] plies they move into a shared, immutable
//! `Arc` chunk linked to the older ones. A clone copies the inline part and bumps one reference
//! count; playing a move allocates only once every [`CHUNK`] plies.

use std::sync::Arc;

use super::point::Point;
use crate::Color;

/// The low bits of a key that hold the stone counts.
pub(super) const COUNT_BITS: u64 = 0xFFFF;

/// Keys kept inline before they move into a shared chunk.
pub(super) const CHUNK: usize = 16;

/// SplitMix64: the table below is a fixed, reproducible function of the point and colour.
const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The Zobrist values by colour index and point bit (guard bits unused), low 16 bits clear.
static ZOBRIST: [[u64; 192]; 2] = {
    let mut table = [[0; 192]; 2];
    let mut color = 0;
    while color < 2 {
        let mut bit = 0;
        while bit < 192 {
            let seed = (color * 192 + bit) as u64 * 0x0001_0000_0001 + 0x6F6E_6E65_6374;
            table[color][bit] = splitmix64(seed) & !COUNT_BITS;
            bit += 1;
        }
        color += 1;
    }
    table
};

/// The Zobrist value of a `color` stone on `point` (low 16 bits clear).
#[inline]
pub(super) fn zobrist(color: Color, point: Point) -> u64 {
    ZOBRIST[color.index()][point.bit()]
}

/// The count bits of a key with these stone counts.
#[inline]
pub(super) const fn count_bits(white: u32, black: u32) -> u64 {
    (white as u64 & 0xFF) | ((black as u64 & 0xFF) << 8)
}

/// The stone count of `color` in `key`.
#[inline]
pub(super) const fn count_in(key: u64, color: Color) -> u32 {
    ((key >> (8 * color as u32)) & 0xFF) as u32
}

/// Keys moved out of the inline buffer: immutable and shared between positions.
#[derive(Debug)]
struct Chunk {
    keys: [u64; CHUNK],
    /// The largest stone count of each colour among `keys` and every older chunk.
    peak: [u8; 2],
    older: Option<Arc<Chunk>>,
}

/// Every board key of the game so far, the current board's included.
#[derive(Debug, Clone)]
pub(super) struct History {
    recent: [u64; CHUNK],
    recent_len: u8,
    /// The largest stone count of each colour over the whole history.
    peak: [u8; 2],
    older_len: u32,
    older: Option<Arc<Chunk>>,
}

impl History {
    /// A history holding just `key`: the start of a game, or a position set up or parsed.
    pub(super) fn new(key: u64) -> History {
        let mut history = History {
            recent: [0; CHUNK],
            recent_len: 0,
            peak: [0; 2],
            older_len: 0,
            older: None,
        };
        history.push(key);
        history
    }

    /// Appends the key of the board a move has just made.
    #[inline]
    pub(super) fn push(&mut self, key: u64) {
        if usize::from(self.recent_len) == CHUNK {
            // Only here does playing a move allocate: once every CHUNK plies.
            self.older = Some(Arc::new(Chunk {
                keys: self.recent,
                peak: self.peak,
                older: self.older.take(),
            }));
            self.older_len += CHUNK as u32;
            self.recent_len = 0;
        }
        self.recent[usize::from(self.recent_len)] = key;
        self.recent_len += 1;
        for color in Color::ALL {
            let count = count_in(key, color) as u8;
            let peak = &mut self.peak[color.index()];
            *peak = (*peak).max(count);
        }
    }

    /// The number of boards in the history (one more than the moves played since it began).
    pub(super) fn len(&self) -> usize {
        self.older_len as usize + usize::from(self.recent_len)
    }

    /// Whether some board of the history had more than `count` stones of `color`: when not, no
    /// board with `count + 1` such stones can repeat one of the history.
    #[inline]
    pub(super) fn ever_above(&self, color: Color, count: u32) -> bool {
        u32::from(self.peak[color.index()]) > count
    }

    /// Whether `key` is in the history.
    pub(super) fn contains(&self, key: u64) -> bool {
        let mut found = false;
        self.for_each_with_counts(key, |k| found |= k == key);
        found
    }

    /// Calls `f` with every key whose stone counts are those of `key`, newest first, skipping
    /// chunks whose peak counts show they cannot have any.
    pub(super) fn for_each_with_counts(&self, key: u64, mut f: impl FnMut(u64)) {
        let counts = key & COUNT_BITS;
        let visit = |keys: &[u64], f: &mut dyn FnMut(u64)| {
            for &k in keys.iter().rev() {
                if k & COUNT_BITS == counts {
                    f(k);
                }
            }
        };
        visit(&self.recent[..usize::from(self.recent_len)], &mut f);
        let (white, black) = (count_in(key, Color::White), count_in(key, Color::Black));
        let mut chunk = self.older.as_deref();
        while let Some(c) = chunk {
            // Peaks include every older chunk, so nothing further back can match either.
            if u32::from(c.peak[0]) < white || u32::from(c.peak[1]) < black {
                break;
            }
            visit(&c.keys, &mut f);
            chunk = c.older.as_deref();
        }
    }

    /// Every key, newest first.
    pub(super) fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        let recent = self.recent[..usize::from(self.recent_len)].iter().rev();
        let older = std::iter::successors(self.older.as_deref(), |c| c.older.as_deref())
            .flat_map(|c| c.keys.iter().rev());
        recent.chain(older).copied()
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.len() == other.len() && self.keys().eq(other.keys())
    }
}

impl Eq for History {}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(hash: u64, white: u32, black: u32) -> u64 {
        (hash << 16) | count_bits(white, black)
    }

    #[test]
    fn zobrist_values_are_distinct_and_leave_the_counts_alone() {
        let mut seen = std::collections::HashSet::new();
        for color in Color::ALL {
            for point in Point::ALL {
                let z = zobrist(color, point);
                assert_eq!(z & COUNT_BITS, 0);
                assert!(seen.insert(z), "{color} {point}");
            }
        }
    }

    #[test]
    fn counts_round_trip() {
        let k = key(77, 12, 169);
        assert_eq!(count_in(k, Color::White), 12);
        assert_eq!(count_in(k, Color::Black), 169);
    }

    #[test]
    fn history_spills_into_shared_chunks() {
        let mut history = History::new(key(0, 0, 0));
        for i in 1..=40u32 {
            history.push(key(u64::from(i), i / 2, i - i / 2));
        }
        assert_eq!(history.len(), 41);
        let keys: Vec<u64> = history.keys().collect();
        assert_eq!(keys.len(), 41);
        assert_eq!(keys[0], key(40, 20, 20));
        assert_eq!(keys[40], key(0, 0, 0));
        for i in 0..=40u32 {
            assert!(history.contains(key(u64::from(i), i / 2, i - i / 2)), "{i}");
        }
        assert!(!history.contains(key(41, 20, 21)));
        assert!(!history.contains(key(3, 1, 1)), "same counts, other hash");
        assert!(history.ever_above(Color::Black, 19));
        assert!(!history.ever_above(Color::Black, 20));

        let copy = history.clone();
        assert_eq!(copy, history);
        let mut longer = history.clone();
        longer.push(key(99, 0, 0));
        assert_ne!(longer, history);
        assert!(
            !history.contains(key(99, 0, 0)),
            "clones do not share new keys"
        );
        assert!(longer.contains(key(99, 0, 0)) && longer.contains(key(1, 0, 1)));
    }

    #[test]
    fn chunks_are_skipped_by_their_peaks_but_matches_are_found() {
        // Stone counts that rise, fall after a big capture, then rise again.
        let mut history = History::new(key(1, 0, 0));
        for i in 1..60u32 {
            let n = if i < 30 { i } else { i - 25 };
            history.push(key(u64::from(i) + 1, 0, n));
        }
        let mut seen = Vec::new();
        history.for_each_with_counts(key(0, 0, 10), |k| seen.push(k));
        // Black had 10 stones after move 10 and again after move 35.
        assert_eq!(seen, [key(36, 0, 10), key(11, 0, 10)]);
        assert!(history.contains(key(11, 0, 10)));
        assert!(!history.contains(key(11, 0, 40)));
    }
}
