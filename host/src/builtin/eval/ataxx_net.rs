//! A small NNUE-style network for Ataxx: the board from the side to move's view (its pieces, the
//! opponent's, the gaps: 147 inputs, each 0 or 1) through one hidden layer of [`HIDDEN`] clipped
//! ReLUs to one output, in integers.
//!
//! Trained by Tavola itself (`tavola-trainer`, from the positions of `tavola match --positions`:
//! see the README's "Learned evaluations"); its weights ship in the repository
//! (`ataxx.nnue`, a few kilobytes) and are compiled into the binary. The hidden layer's sums are
//! made from scratch for each position: with at most 49 squares set, that is at most 98 rows of
//! [`HIDDEN`] additions of 16-bit integers, which the compiler turns into vector instructions.
//!
//! The file: the magic `TVNN`, then little-endian `u32`s (format version 1, inputs, hidden size,
//! `QA`, `QB`, the output's scale in hundredths per unit of the logit), then the weights:
//! `i16` hidden weights input by input, `i16` hidden biases, `i16` output weights, `i32` output
//! bias. A hidden value is `clamp(sum, 0, QA)`; the output `(Σ h w2 + b2) / (QA QB)` is a
//! logit, which times the scale is hundredths of a piece.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex, PoisonError};

use tavola_sdk::games::ataxx::Position;
use tavola_sdk::Position as _;

/// The inputs: 49 squares each of the mover's pieces, the opponent's, and the gaps.
pub const INPUTS: usize = 3 * 49;
/// The hidden layer's size.
pub const HIDDEN: usize = 64;
/// The format version of the weights file.
pub const VERSION: u32 = 1;
/// The size of a weights file: the magic, six words, the `i16` weights and biases, the output
/// bias.
pub const FILE_SIZE: usize = 4 + 6 * 4 + 2 * (INPUTS * HIDDEN + 2 * HIDDEN) + 4;

/// The three planes of inputs: the mover's pieces, the opponent's, the gaps.
fn planes(position: &Position) -> [u64; 3] {
    let me = position.side_to_move();
    [
        position.pieces(me).bits(),
        position.pieces(me.other()).bits(),
        position.gaps().bits(),
    ]
}

/// The inputs that are 1 in `position`, in increasing order, appended to `features`.
pub fn features(position: &Position, features: &mut Vec<u16>) {
    for (plane, mut bits) in planes(position).into_iter().enumerate() {
        while bits != 0 {
            let square = bits.trailing_zeros() as u16;
            features.push(plane as u16 * 49 + square);
            bits &= bits - 1;
        }
    }
}

/// The network, quantised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// Hidden weights, one row per input.
    pub w1: Vec<[i16; HIDDEN]>,
    /// Hidden biases.
    pub b1: [i16; HIDDEN],
    /// Output weights.
    pub w2: [i16; HIDDEN],
    /// Output bias.
    pub b2: i32,
    /// The hidden layer's clip, and the scale of its weights.
    pub qa: i32,
    /// The scale of the output weights.
    pub qb: i32,
    /// Hundredths of a piece per unit of the output logit.
    pub scale: i32,
}

/// Why a weights file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a Tavola Ataxx network: {0}")]
pub struct NetworkError(String);

impl Network {
    /// Reads a network from the bytes of its file.
    ///
    /// # Errors
    /// A [`NetworkError`] naming what is wrong: the magic, the version, the sizes, the length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8], NetworkError> {
            let slice = bytes
                .get(at..at + n)
                .ok_or_else(|| NetworkError(format!("cut short at byte {at}")))?;
            at += n;
            Ok(slice)
        };
        if take(4)? != b"TVNN" {
            return Err(NetworkError("no TVNN magic".to_owned()));
        }
        let mut word = || -> Result<u32, NetworkError> {
            let b = take(4)?;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (version, inputs, hidden) = (word()?, word()?, word()?);
        let (qa, qb, scale) = (word()?, word()?, word()?);
        if version != VERSION || inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetworkError(format!(
                "version {version}, {inputs} inputs, {hidden} hidden (this build reads version \
                 {VERSION}, {INPUTS}, {HIDDEN})"
            )));
        }
        // The clip bounds each hidden value, so that the output's sum of 64 products stays
        // within 32 bits; the scales divide.
        let bounded = (1..=255).contains(&qa)
            && (1..=1 << 16).contains(&qb)
            && (1..=1 << 16).contains(&scale);
        if !bounded {
            return Err(NetworkError(format!(
                "QA {qa}, QB {qb}, scale {scale} (QA is 1 to 255, QB and the scale 1 to 65536)"
            )));
        }
        let (qa, qb, scale) = (qa as i32, qb as i32, scale as i32);
        let mut take_i16 = || -> Result<i16, NetworkError> {
            let b = take(2)?;
            Ok(i16::from_le_bytes([b[0], b[1]]))
        };
        let mut w1 = vec![[0; HIDDEN]; INPUTS];
        for row in &mut w1 {
            for w in row.iter_mut() {
                *w = take_i16()?;
            }
        }
        let mut b1 = [0; HIDDEN];
        for b in &mut b1 {
            *b = take_i16()?;
        }
        let mut w2 = [0; HIDDEN];
        for w in &mut w2 {
            *w = take_i16()?;
        }
        let b = take(4)?;
        let b2 = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if at != bytes.len() {
            return Err(NetworkError(format!(
                "{} bytes past the weights",
                bytes.len() - at
            )));
        }
        Ok(Network {
            w1,
            b1,
            w2,
            b2,
            qa,
            qb,
            scale,
        })
    }

    /// The network as the bytes of its file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = b"TVNN".to_vec();
        for word in [VERSION, INPUTS as u32, HIDDEN as u32] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for value in [self.qa, self.qb, self.scale] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for w in self.w1.iter().flatten().chain(&self.b1).chain(&self.w2) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        bytes
    }

    /// The score of `position` for its side to move, in hundredths of a piece.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let mut acc = self.b1;
        for (plane, mut bits) in planes(position).into_iter().enumerate() {
            while bits != 0 {
                let row = &self.w1[plane * 49 + bits.trailing_zeros() as usize];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
                bits &= bits - 1;
            }
        }
        // At most 255 (QA, checked when read) times 32 767, 64 times: within 32 bits.
        let clip = self.qa as i16;
        let mut sum = 0i32;
        for (a, w) in acc.iter().zip(&self.w2) {
            sum += i32::from((*a).clamp(0, clip)) * i32::from(*w);
        }
        let logit = i64::from(sum) + i64::from(self.b2);
        (logit * i64::from(self.scale) / (i64::from(self.qa) * i64::from(self.qb))) as i32
    }
}

/// The network in the file at `path`, read once per path for the whole process (the hidden
/// option `builtin:ataxx_network=PATH`, which plays a newly trained network against the shipped
/// one before it replaces it).
///
/// # Errors
/// One line naming the path and what is wrong with it.
pub fn load(path: &Path) -> Result<&'static Network, String> {
    static LOADED: Mutex<BTreeMap<PathBuf, &'static Network>> = Mutex::new(BTreeMap::new());
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(network) = loaded.get(path) {
        return Ok(network);
    }
    // The file's size and one byte more, at most: a huge file or a device is not read to its
    // end.
    let mut bytes = Vec::with_capacity(FILE_SIZE + 1);
    std::fs::File::open(path)
        .and_then(|file| file.take(FILE_SIZE as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // Kept for the rest of the process: one network a path, a few kilobytes each.
    let network: &'static Network = Box::leak(Box::new(network));
    loaded.insert(path.to_owned(), network);
    Ok(network)
}

/// The network that ships with Tavola (`ataxx.nnue`).
pub static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(include_bytes!("ataxx.nnue")).expect("the shipped network reads")
});

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::Game;

    #[test]
    fn the_features_are_the_movers_pieces_then_the_opponents_then_the_gaps() {
        let position = Ataxx::parse_position("x5o/7/7/3-3/7/7/o5x o 0 1", None).unwrap();
        let mut found = Vec::new();
        features(&position, &mut found);
        // o to move: its pieces (a1, g7) first, then x's (g1, a7), then the gap d4.
        assert_eq!(found, [0, 48, 49 + 6, 49 + 42, 98 + 24]);
    }

    #[test]
    fn the_shipped_network_reads_writes_back_and_scores_the_start_near_even() {
        let network = &*NETWORK;
        let bytes = network.to_bytes();
        assert_eq!(bytes, include_bytes!("ataxx.nnue"));
        let start = Ataxx::start(None).unwrap();
        assert!(
            network.evaluate(&start).abs() < 100,
            "{}",
            network.evaluate(&start)
        );
        // Material tells: a side a whole corner up is ahead.
        let ahead = Ataxx::parse_position("xx4o/xx5/7/7/7/7/o5x x 0 1", None).unwrap();
        assert!(network.evaluate(&ahead) > network.evaluate(&start));
    }

    #[test]
    fn a_network_file_is_loaded_once_and_a_bad_one_named() {
        let dir = std::env::temp_dir().join(format!("tavola-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        std::fs::write(&good, NETWORK.to_bytes()).unwrap();
        let first = load(&good).unwrap();
        assert_eq!(first, &*NETWORK);
        assert!(std::ptr::eq(first, load(&good).unwrap()));
        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, b"TVNN").unwrap();
        let error = load(&bad).unwrap_err();
        assert!(
            error.contains("bad.nnue") && error.contains("cut short"),
            "{error}"
        );
        // A long file is refused after its first bytes past the size.
        let long = dir.join("long.nnue");
        let mut bytes = NETWORK.to_bytes();
        bytes.resize(3 * FILE_SIZE, 0);
        std::fs::write(&long, bytes).unwrap();
        let error = load(&long).unwrap_err();
        assert!(
            error.contains("long.nnue") && error.contains("1 bytes past"),
            "{error}"
        );
        let missing = load(&dir.join("missing.nnue")).unwrap_err();
        assert!(missing.contains("cannot read") && missing.contains("missing.nnue"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_file_is_refused_with_the_reason() {
        let bytes = NETWORK.to_bytes();
        let cut = Network::from_bytes(&bytes[..100]).unwrap_err();
        assert!(cut.to_string().contains("cut short"), "{cut}");
        let mut wrong = bytes.clone();
        wrong[4] = 9;
        assert!(Network::from_bytes(&wrong)
            .unwrap_err()
            .to_string()
            .contains("version 9"));
        let mut long = bytes;
        long.push(0);
        assert!(Network::from_bytes(&long)
            .unwrap_err()
            .to_string()
            .contains("past"));
        assert!(Network::from_bytes(b"nope").is_err());
        // Scales that would divide by zero or overflow are refused, not used.
        for (at, value) in [(16, 0u32), (16, 256), (20, 0), (24, 0), (24, u32::MAX)] {
            let mut bad = NETWORK.to_bytes();
            bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let error = Network::from_bytes(&bad).unwrap_err().to_string();
            assert!(error.contains("QA"), "{at} {value}: {error}");
        }
        assert_eq!(NETWORK.to_bytes().len(), FILE_SIZE);
    }
}
