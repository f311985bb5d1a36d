//! The small NNUE-style networks of the built-in bot's learned evaluations: a game's inputs (each
//! 0 or 1, from the side to move's view: see each game's [`Learned`] implementation) through one
//! hidden layer of clipped ReLUs (or their squares, see [`Activation`]; each network its own size,
//! a multiple of 16 up to [`MAX_HIDDEN`]) to one output, in integers.
//!
//! Trained by Tavola itself (`tavola-trainer`, from the positions of `tavola match --positions`:
//! see the README's "Learned evaluations"); the weights ship in the repository (a `.nnue` file per
//! game, 17 to 1 484 kilobytes) and are compiled into the binary. The hidden layer's sums are
//! made from scratch for each position: a row of 16-bit additions (one per hidden value) per
//! input that is set, which the compiler turns into vector instructions (AVX2's 16 sums to an
//! instruction where the processor has it, chosen at run time; SSE2's 8 elsewhere on x86-64).
//!
//! The file: the magic `TVNN`, then little-endian `u32`s (format version 1 or 2, inputs, hidden
//! size, `QA`, `QB`, the output's scale in hundredths per unit of the logit), then the weights:
//! `i16` hidden weights input by input, `i16` hidden biases, `i16` output weights, `i32` output
//! bias. A hidden value is `h = clamp(sum, 0, QA)`; the output `(Σ h w2 + b2) / (QA QB)` is a
//! logit, which times the scale is hundredths of a piece (or of a man). Version 2 squares the
//! hidden values (SCReLU, as Zataxx and most chess NNUEs): the output is
//! `(Σ h² w2 / QA + b2) / (QA QB)`.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use tavola_sdk::Game;

/// The largest hidden layer this build reads: the clipped output's sum of `MAX_HIDDEN` products
/// of at most 255 × 32 767 stays within 32 bits.
pub const MAX_HIDDEN: usize = 256;

/// Whether a network may have `hidden` hidden values: a multiple of 16 (whole vector registers)
/// from 16 to [`MAX_HIDDEN`].
#[must_use]
pub const fn hidden_size_valid(hidden: usize) -> bool {
    hidden % 16 == 0 && hidden >= 16 && hidden <= MAX_HIDDEN
}
/// What a hidden value becomes before the output layer weighs it (the file's format version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Activation {
    /// `clamp(x, 0, 1)`, format version 1 (every shipped network's).
    Clipped,
    /// `clamp(x, 0, 1)²` (SCReLU), format version 2: it weighs a strong hidden feature more
    /// than a weak one (on network 4's positions it fit and played worse than clipped values).
    Squared,
}

impl Activation {
    /// The format version of a file with this activation.
    #[must_use]
    pub const fn version(self) -> u32 {
        match self {
            Activation::Clipped => 1,
            Activation::Squared => 2,
        }
    }

    /// The activation of a file of format `version`, if this build reads it.
    #[must_use]
    pub fn from_version(version: u32) -> Option<Activation> {
        [Activation::Clipped, Activation::Squared]
            .into_iter()
            .find(|a| a.version() == version)
    }
}

/// The largest magnitude of a network's output, in hundredths: far beyond any position's worth
/// (a full Ataxx board is 4 900), and far below the search's mate scores, which a network file
/// given with `GAME_network=PATH` must not reach whatever its scales and weights.
pub const OUTPUT_LIMIT: i64 = 100_000;

/// A game with a learned evaluation: how a position becomes the network's inputs.
pub trait Learned: Game {
    /// The game's name, for messages ("not a Tavola Dama network").
    const TITLE: &'static str;
    /// The number of inputs.
    const INPUTS: usize;

    /// Calls `add` with each input that is 1 in `position`, every one below [`Learned::INPUTS`].
    fn features(position: &Self::Position, add: impl FnMut(usize));

    /// Whether the trainer learns from `position`: every position by default; a game whose
    /// evaluation is only trusted on quiet positions (Dama: no capture to make) says so here.
    fn trainable(_position: &Self::Position) -> bool {
        true
    }

    /// The hand-written evaluation the network corrects, in hundredths from the side to move's
    /// view; 0 (the default) where the network is the whole evaluation. The network's output is
    /// added to it, and the trainer fits the sum.
    fn base(_position: &Self::Position) -> i32 {
        0
    }

    /// The number of the board's symmetries that keep every position's value (the identity
    /// included): the trainer learns from each image of each position ([`Learned::image`]).
    const SYMMETRIES: usize = 1;

    /// Input `index` of a position, as the input of its image under symmetry `symmetry` (below
    /// [`Learned::SYMMETRIES`]; 0 is the identity).
    fn image(index: usize, _symmetry: usize) -> usize {
        index
    }

    /// The network that ships with Tavola for this game.
    fn shipped() -> &'static Network;
}

/// Square `index` (`row * side + column`) of a square board of `side` squares a side, under
/// symmetry `symmetry` (below 8) of the board: transposed if bit 4 is set, then its columns
/// reflected if bit 1 is, its rows if bit 2 is (0 is the identity). For the games whose rules
/// treat the square's turns and reflections alike ([`Learned::image`]).
#[must_use]
pub fn square_image(index: usize, side: usize, symmetry: usize) -> usize {
    let (column, row) = (index % side, index / side);
    let (column, row) = if symmetry & 4 != 0 {
        (row, column)
    } else {
        (column, row)
    };
    let column = if symmetry & 1 != 0 {
        side - 1 - column
    } else {
        column
    };
    let row = if symmetry & 2 != 0 {
        side - 1 - row
    } else {
        row
    };
    row * side + column
}

/// Which evaluation a game with a learned one searches with (Dama, Gonnect, Tablut; Ataxx keeps
/// its own weights, which also tune the hand-written evaluation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalChoice {
    /// The learned network that ships with Tavola (`builtin:GAME_eval=network`).
    Network,
    /// The game's hand-written evaluation (`builtin:GAME_eval=classic`).
    Classic,
    /// Another network of the game (`builtin:GAME_network=PATH`).
    File(&'static Network),
}

/// The size of the file of a network with `inputs` inputs and `hidden` hidden values: the magic,
/// six words, the `i16` weights and biases, the output bias.
#[must_use]
pub const fn file_size(inputs: usize, hidden: usize) -> usize {
    4 + 6 * 4 + 2 * (inputs * hidden + 2 * hidden) + 4
}

/// A network, quantised. Its hidden size is `b1.len()` (a [`hidden_size_valid`] one): `w1` holds
/// that many weights for each input, input by input, and `w2` that many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    /// Hidden weights, one row of `b1.len()` per input.
    pub w1: Rows,
    /// Hidden biases.
    pub b1: Vec<i16>,
    /// Output weights.
    pub w2: Vec<i16>,
    /// Output bias.
    pub b2: i32,
    /// The hidden layer's clip, and the scale of its weights.
    pub qa: i32,
    /// The scale of the output weights.
    pub qb: i32,
    /// Hundredths of a piece per unit of the output logit.
    pub scale: i32,
    /// What the hidden values become before the output weighs them.
    pub activation: Activation,
}

/// A network's hidden weights, 64-byte aligned (a cache line): each row of 32 hidden values or
/// more starts a line, so that no vector load of a row straddles two (a plain vector of this
/// size is 16 bytes off, and AVX2's 32-byte loads of every second vector would). Read and
/// written as a slice of `i16`.
#[derive(Clone)]
pub struct Rows {
    /// The weights, 32 to a block; the last block's tail past `len` is 0.
    blocks: Vec<Block>,
    /// The number of weights.
    len: usize,
}

/// 32 weights, 64-byte aligned.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Block([i16; 32]);

impl From<Vec<i16>> for Rows {
    fn from(weights: Vec<i16>) -> Rows {
        let blocks = weights
            .chunks(32)
            .map(|chunk| {
                let mut block = Block([0; 32]);
                block.0[..chunk.len()].copy_from_slice(chunk);
                block
            })
            .collect();
        Rows {
            blocks,
            len: weights.len(),
        }
    }
}

impl std::ops::Deref for Rows {
    type Target = [i16];

    fn deref(&self) -> &[i16] {
        // SAFETY: `Block` is `repr(C)` with one field, 32 `i16`s and no padding (64 bytes, its
        // alignment), so the blocks are `32 * blocks.len()` contiguous `i16`s, of which the
        // first `len` are the weights (`len <= 32 * blocks.len()` since `from`).
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr().cast::<i16>(), self.len) }
    }
}

impl std::ops::DerefMut for Rows {
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`, and the slice borrows the blocks mutably.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr().cast::<i16>(), self.len) }
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        **self == **other
    }
}

impl Eq for Rows {}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rows({} weights)", self.len)
    }
}

/// Why a weights file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a Tavola {game} network: {reason}")]
pub struct NetworkError {
    game: &'static str,
    reason: String,
}

/// The scale of the hidden weights and biases (and the hidden layer's clip) in the networks the
/// trainer writes.
pub const QA: i32 = 255;
/// The scale of the output weights in the networks the trainer writes.
pub const QB: i32 = 64;
/// Hundredths of a piece per unit of the output logit, unless the trainer is told otherwise.
pub const DEFAULT_SCALE: i32 = 250;

impl Network {
    /// A network of `inputs` inputs and `hidden` hidden values whose weights and biases are all
    /// 0 (its output is 0), with the scales the trainer writes.
    ///
    /// # Panics
    /// If `hidden` is not [`hidden_size_valid`].
    #[must_use]
    pub fn zero(inputs: usize, hidden: usize, activation: Activation) -> Network {
        assert!(hidden_size_valid(hidden), "{hidden} hidden values");
        Network {
            w1: vec![0; inputs * hidden].into(),
            b1: vec![0; hidden],
            w2: vec![0; hidden],
            b2: 0,
            qa: QA,
            qb: QB,
            scale: DEFAULT_SCALE,
            activation,
        }
    }

    /// The number of hidden values.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// Reads a network of `G` from the bytes of its file.
    ///
    /// # Errors
    /// A [`NetworkError`] naming what is wrong: the magic, the version, the sizes (another game's
    /// network has another number of inputs), the scales, the length.
    pub fn from_bytes<G: Learned>(bytes: &[u8]) -> Result<Network, NetworkError> {
        let error = |reason: String| NetworkError {
            game: G::TITLE,
            reason,
        };
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8], NetworkError> {
            let slice = bytes
                .get(at..at + n)
                .ok_or_else(|| error(format!("cut short at byte {at}")))?;
            at += n;
            Ok(slice)
        };
        if take(4)? != b"TVNN" {
            return Err(error("no TVNN magic".to_owned()));
        }
        let mut word = || -> Result<u32, NetworkError> {
            let b = take(4)?;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let (version, inputs, hidden) = (word()?, word()?, word()?);
        let (qa, qb, scale) = (word()?, word()?, word()?);
        let activation = Activation::from_version(version);
        let sized = inputs as usize == G::INPUTS && hidden_size_valid(hidden as usize);
        let (Some(activation), true) = (activation, sized) else {
            return Err(error(format!(
                "version {version}, {inputs} inputs, {hidden} hidden (this build reads versions \
                 1 and 2, {} inputs, 16 to {MAX_HIDDEN} hidden in steps of 16)",
                G::INPUTS
            )));
        };
        let hidden = hidden as usize;
        // The clip bounds each hidden value, so that the output's sum of up to MAX_HIDDEN
        // products stays within 32 bits; the scales divide.
        let bounded = (1..=255).contains(&qa)
            && (1..=1 << 16).contains(&qb)
            && (1..=1 << 16).contains(&scale);
        if !bounded {
            return Err(error(format!(
                "QA {qa}, QB {qb}, scale {scale} (QA is 1 to 255, QB and the scale 1 to 65536)"
            )));
        }
        let (qa, qb, scale) = (qa as i32, qb as i32, scale as i32);
        let mut take_i16 = || -> Result<i16, NetworkError> {
            let b = take(2)?;
            Ok(i16::from_le_bytes([b[0], b[1]]))
        };
        let mut weights = |count: usize| {
            (0..count)
                .map(|_| take_i16())
                .collect::<Result<Vec<_>, _>>()
        };
        let w1 = weights(G::INPUTS * hidden)?.into();
        let b1 = weights(hidden)?;
        let w2 = weights(hidden)?;
        let b = take(4)?;
        let b2 = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if at != bytes.len() {
            return Err(error(format!(
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
            activation,
        })
    }

    /// The network as the bytes of its file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = b"TVNN".to_vec();
        for word in [
            self.activation.version(),
            (self.w1.len() / self.hidden()) as u32,
            self.hidden() as u32,
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for value in [self.qa, self.qb, self.scale] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        bytes
    }

    /// The score of `position` for its side to move, in hundredths of a piece: the network's
    /// output, plus the hand-written evaluation it corrects ([`Learned::base`]) if any.
    ///
    /// # Panics
    /// If the network is not one of `G` (an input past its rows): [`Network::from_bytes`] and
    /// [`load`] check that.
    #[inline]
    #[must_use]
    pub fn evaluate<G: Learned>(&self, position: &G::Position) -> i32 {
        G::base(position) + self.output(|inputs| G::features(position, |i| inputs.add(i)))
    }

    /// The network's own output, in hundredths, for the inputs that `set` sets (a game whose
    /// evaluation shares work between its inputs and its [`Learned::base`] calls this itself).
    ///
    /// # Panics
    /// If an input is past the network's rows, or the network's own sizes disagree (a network
    /// read by [`Network::from_bytes`] or made by [`Network::zero`] never does).
    #[inline]
    #[must_use]
    pub fn output(&self, set: impl FnOnce(&mut Inputs<'_>)) -> i32 {
        self.output_with(|acc| {
            let mut inputs = Inputs {
                acc,
                w1: &self.w1,
                rows: [0; PENDING],
                pending: 0,
            };
            set(&mut inputs);
            inputs.flush();
        })
    }

    /// [`Network::output`] for the inputs numbered in `rows`, gathered by the caller (Ataxx's
    /// evaluation, which finds every input of a position at once).
    ///
    /// # Panics
    /// As [`Network::output`].
    #[inline]
    #[must_use]
    pub fn output_of_rows(&self, rows: &[usize]) -> i32 {
        self.output_with(|acc| kernel::add_rows(acc, &self.w1, rows))
    }

    /// The output once `fill` has added the inputs' rows to the hidden sums (which start at the
    /// biases).
    #[inline(always)]
    fn output_with(&self, fill: impl FnOnce(&mut [i16])) -> i32 {
        // 64 (the shipped Dama, Gonnect and Tablut networks), 128 (Ataxx's networks 5 to 7) and
        // 256 (the widest, Ataxx's networks 8, 11 and 15) get loops of a known length.
        match self.hidden() {
            64 => self.output_in(&mut [0; 64], fill),
            128 => self.output_in(&mut [0; 128], fill),
            256 => self.output_in(&mut [0; 256], fill),
            hidden => self.output_in(&mut [0; MAX_HIDDEN][..hidden], fill),
        }
    }

    /// [`Network::output_with`], with `acc` (as long as the hidden layer) for the hidden sums.
    #[inline(always)]
    fn output_in(&self, acc: &mut [i16], fill: impl FnOnce(&mut [i16])) -> i32 {
        acc.copy_from_slice(&self.b1);
        fill(&mut *acc);
        let sum = kernel::hidden_sum(acc, &self.w2[..acc.len()], self.qa, self.activation);
        let logit = sum + i64::from(self.b2);
        // Within 64 bits: |logit| < 2^32, the scale at most 2^16.
        let value = logit * i64::from(self.scale) / (i64::from(self.qa) * i64::from(self.qb));
        value.clamp(-OUTPUT_LIMIT, OUTPUT_LIMIT) as i32
    }
}

/// How many inputs [`Inputs`] gathers before it adds their rows: every input of an Ataxx
/// position (36 windows and at most 49 gaps), of a Dama or a Tablut position at once (a Gonnect
/// position's may take more than one batch).
const PENDING: usize = 96;

/// The hidden layer's sums while a position's inputs are set ([`Network::output`]).
///
/// The inputs are gathered and their rows added a batch at a time (by `kernel::add_rows`), so
/// that the additions run in the widest vectors the processor has, whatever the game's code that
/// finds its inputs was compiled for.
#[derive(Debug)]
pub struct Inputs<'a> {
    /// The hidden sums (as many as the network's hidden values).
    acc: &'a mut [i16],
    w1: &'a [i16],
    /// The inputs set and not yet added: the first `pending`.
    rows: [usize; PENDING],
    pending: usize,
}

impl Inputs<'_> {
    /// Sets input `input` (to 1).
    ///
    /// # Panics
    /// If the input is past the network's rows (when its row is added).
    #[inline]
    pub fn add(&mut self, input: usize) {
        if self.pending == PENDING {
            self.flush();
        }
        self.rows[self.pending] = input;
        self.pending += 1;
    }

    /// Adds the rows of the inputs gathered so far.
    #[inline]
    fn flush(&mut self) {
        kernel::add_rows(self.acc, self.w1, &self.rows[..self.pending]);
        self.pending = 0;
    }
}

/// The network's two loops, each compiled twice on x86-64: for the baseline (SSE2, 8 sums to a
/// vector) and for processors with AVX2 (16), chosen at run time by
/// [`tavola_sdk::cpu::vector_instructions`] (`TAVOLA_CPU=baseline` keeps the baseline). Both are
/// the same integer arithmetic, so they give the same values (and the search the same nodes).
mod kernel {
    use super::Activation;
    use tavola_sdk::cpu::vector_instructions as avx2;

    /// Adds to `acc` the rows of `w1` (each as long as `acc`) numbered in `rows`.
    ///
    /// # Panics
    /// If a row is past `w1`.
    #[inline]
    pub(super) fn add_rows(acc: &mut [i16], w1: &[i16], rows: &[usize]) {
        if rows.is_empty() {
            return;
        }
        if avx2() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this processor has AVX2 (`avx2()` asked it).
            return unsafe { add_rows_avx2(acc, w1, rows) };
        }
        add_rows_sized(acc, w1, rows);
    }

    /// [`add_rows`] compiled for AVX2 (a processor without it may not call it).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn add_rows_avx2(acc: &mut [i16], w1: &[i16], rows: &[usize]) {
        add_rows_sized(acc, w1, rows);
    }

    /// [`add_rows`] for the target the caller is compiled for; widths 64, 128 and 256 get rows
    /// of a known length: one bounds check a row, and loops the compiler lays out
    /// in whole vector registers.
    #[inline(always)]
    fn add_rows_sized(acc: &mut [i16], w1: &[i16], rows: &[usize]) {
        match acc.len() {
            64 => add_rows_in::<64>(acc, w1, rows),
            128 => add_rows_in::<128>(acc, w1, rows),
            256 => add_rows_in::<256>(acc, w1, rows),
            hidden => {
                for &input in rows {
                    let row = &w1[input * hidden..][..hidden];
                    for (a, w) in acc.iter_mut().zip(row) {
                        *a = a.wrapping_add(*w);
                    }
                }
            }
        }
    }

    /// [`add_rows`] for exactly `N` hidden values.
    #[inline(always)]
    fn add_rows_in<const N: usize>(acc: &mut [i16], w1: &[i16], rows: &[usize]) {
        let acc: &mut [i16; N] = acc.try_into().expect("N hidden sums");
        // The sums in a local array, which the compiler can keep in vector registers from one
        // row to the next where they fit (128 in AVX2's sixteen registers); in `acc` it would
        // store and load them again for each row.
        let mut sums = *acc;
        for &input in rows {
            let row: &[i16; N] = w1[input * N..(input + 1) * N]
                .try_into()
                .expect("a row of N");
            for (a, w) in sums.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        *acc = sums;
    }

    /// The output layer's weighted sum of the hidden values `acc` (clipped to `qa`, and squared
    /// and scaled back by `qa` for [`Activation::Squared`]) with the weights `w2`.
    #[inline]
    pub(super) fn hidden_sum(acc: &[i16], w2: &[i16], qa: i32, activation: Activation) -> i64 {
        if avx2() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: this processor has AVX2 (`avx2()` asked it).
            return unsafe { hidden_sum_avx2(acc, w2, qa, activation) };
        }
        hidden_sum_sized(acc, w2, qa, activation)
    }

    /// [`hidden_sum`] compiled for AVX2 (a processor without it may not call it).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn hidden_sum_avx2(acc: &[i16], w2: &[i16], qa: i32, activation: Activation) -> i64 {
        match activation {
            Activation::Clipped => i64::from(clipped_sum_avx2(acc, w2, qa)),
            Activation::Squared => hidden_sum_sized(acc, w2, qa, activation),
        }
    }

    /// The clipped activation's sum in AVX2, 16 hidden values a step: each clipped and
    /// multiplied by its weight, the products added in pairs into 32 bits (`vpmaddwd`, which
    /// the compiler does not find from the plain loop). The same integers as
    /// [`hidden_sum_sized`]'s sum, which stays within 32 bits.
    ///
    /// # Panics
    /// If `acc` and `w2` differ in length, or it is not a multiple of 16 (every network's is).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn clipped_sum_avx2(acc: &[i16], w2: &[i16], qa: i32) -> i32 {
        use std::arch::x86_64::{
            __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
            _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256,
        };
        assert!(
            acc.len() == w2.len() && acc.len() % 16 == 0,
            "whole vectors"
        );
        let (zero, clip) = (_mm256_setzero_si256(), _mm256_set1_epi16(qa as i16));
        let mut sums = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(w2.chunks_exact(16)) {
            // SAFETY: each chunk is 16 `i16`s, the 32 bytes an unaligned load reads.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
                )
            };
            let hidden = _mm256_min_epi16(_mm256_max_epi16(a, zero), clip);
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(hidden, w));
        }
        // SAFETY: a vector of 256 bits is eight `i32`s, any bits of which are one.
        let lanes: [i32; 8] = unsafe { std::mem::transmute::<__m256i, [i32; 8]>(sums) };
        lanes.iter().fold(0, |sum, &lane| sum.wrapping_add(lane))
    }

    /// [`hidden_sum`] for the target the caller is compiled for.
    #[inline(always)]
    fn hidden_sum_sized(acc: &[i16], w2: &[i16], qa: i32, activation: Activation) -> i64 {
        match acc.len() {
            64 => hidden_sum_of(&acc[..64], &w2[..64], qa, activation),
            128 => hidden_sum_of(&acc[..128], &w2[..128], qa, activation),
            256 => hidden_sum_of(&acc[..256], &w2[..256], qa, activation),
            hidden => hidden_sum_of(acc, &w2[..hidden], qa, activation),
        }
    }

    /// [`hidden_sum`] for `acc` and `w2` of the same length (a constant one, where inlined
    /// into [`hidden_sum_sized`]'s arms).
    #[inline(always)]
    fn hidden_sum_of(acc: &[i16], w2: &[i16], qa: i32, activation: Activation) -> i64 {
        let clip = qa as i16;
        match activation {
            Activation::Clipped => {
                // At most 255 (QA, checked when read) times 32 767, MAX_HIDDEN times: within 32
                // bits.
                let mut sum = 0i32;
                for (a, w) in acc.iter().zip(w2) {
                    sum += i32::from((*a).clamp(0, clip)) * i32::from(*w);
                }
                i64::from(sum)
            }
            Activation::Squared => {
                // 255² times 32 767 is within 32 bits, not two of them: each product is, and
                // their sum is kept in 64.
                let mut sum = 0i64;
                for (a, w) in acc.iter().zip(w2) {
                    let h = i32::from((*a).clamp(0, clip));
                    sum += i64::from(h * h * i32::from(*w));
                }
                sum / i64::from(qa)
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use rand::rngs::StdRng;
        use rand::{Rng as _, SeedableRng as _};

        /// The additions and the output's sum, written plainly, against both builds of the
        /// loops (the AVX2 one where this processor has it), for every hidden size this build
        /// reads: random weights, sums beyond the clip on both sides, rows that repeat.
        #[test]
        fn both_builds_of_the_loops_agree_with_plain_arithmetic() {
            let mut rng = StdRng::seed_from_u64(7);
            for hidden in (16..=super::super::MAX_HIDDEN).step_by(16) {
                let inputs = 300;
                let w1: Vec<i16> = (0..inputs * hidden).map(|_| rng.gen()).collect();
                let w2: Vec<i16> = (0..hidden).map(|_| rng.gen()).collect();
                let start: Vec<i16> = (0..hidden).map(|_| rng.gen_range(-400..400)).collect();
                let rows: Vec<usize> = (0..90).map(|_| rng.gen_range(0..inputs)).collect();
                let mut plain = start.clone();
                for &input in &rows {
                    for (k, a) in plain.iter_mut().enumerate() {
                        *a = a.wrapping_add(w1[input * hidden + k]);
                    }
                }
                let mut sized = start.clone();
                add_rows_sized(&mut sized, &w1, &rows);
                assert_eq!(sized, plain, "{hidden} hidden values");
                let mut dispatched = start.clone();
                add_rows(&mut dispatched, &w1, &rows);
                assert_eq!(dispatched, plain, "{hidden} hidden values");
                // The AVX2 copy wherever the processor has it, `TAVOLA_CPU=baseline` or not.
                #[cfg(target_arch = "x86_64")]
                let has_avx2 = std::arch::is_x86_feature_detected!("avx2");
                #[cfg(target_arch = "x86_64")]
                if has_avx2 {
                    let mut wide = start.clone();
                    // SAFETY: this processor has AVX2 (checked above).
                    unsafe { add_rows_avx2(&mut wide, &w1, &rows) };
                    assert_eq!(wide, plain, "{hidden} hidden values, AVX2");
                }
                for activation in [Activation::Clipped, Activation::Squared] {
                    let clipped = plain.iter().map(|a| i64::from((*a).clamp(0, 255)));
                    let expected = match activation {
                        Activation::Clipped => {
                            clipped.zip(&w2).map(|(h, w)| h * i64::from(*w)).sum()
                        }
                        Activation::Squared => {
                            clipped
                                .zip(&w2)
                                .map(|(h, w)| h * h * i64::from(*w))
                                .sum::<i64>()
                                / 255
                        }
                    };
                    let what = format!("{hidden} hidden values, {activation:?}");
                    assert_eq!(
                        hidden_sum_sized(&plain, &w2, 255, activation),
                        expected,
                        "{what}"
                    );
                    assert_eq!(hidden_sum(&plain, &w2, 255, activation), expected, "{what}");
                    #[cfg(target_arch = "x86_64")]
                    if has_avx2 {
                        // SAFETY: this processor has AVX2 (checked above).
                        let wide = unsafe { hidden_sum_avx2(&plain, &w2, 255, activation) };
                        assert_eq!(wide, expected, "{what}, AVX2");
                    }
                }
            }
        }
    }
}

/// The network of `G` in the file at `path`, read once per path and game for the whole process
/// (the hidden options `builtin:ataxx_network=PATH`, `dama_network=PATH`, `gonnect_network=PATH`
/// and `tablut_network=PATH`, which play a newly trained network against the shipped one before it
/// replaces it).
///
/// # Errors
/// One line naming the path and what is wrong with it.
pub fn load<G: Learned>(path: &Path) -> Result<&'static Network, String> {
    type Loaded = BTreeMap<(&'static str, PathBuf), &'static Network>;
    static LOADED: Mutex<Loaded> = Mutex::new(BTreeMap::new());
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (G::TITLE, path.to_owned());
    if let Some(network) = loaded.get(&key) {
        return Ok(network);
    }
    // The largest network's size and one byte more, at most: a huge file or a device is not read
    // to its end.
    let size = file_size(G::INPUTS, MAX_HIDDEN);
    let mut bytes = Vec::with_capacity(size + 1);
    std::fs::File::open(path)
        .and_then(|file| file.take(size as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > size {
        return Err(format!(
            "{}: not a Tavola {} network: longer than the largest one ({size} bytes)",
            path.display(),
            G::TITLE
        ));
    }
    let network =
        Network::from_bytes::<G>(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    // Kept for the rest of the process: one network a path, at most a few hundred kilobytes each.
    let network: &'static Network = Box::leak(Box::new(network));
    loaded.insert(key, network);
    Ok(network)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::games::dama::Dama;

    #[test]
    fn the_hidden_weights_are_a_cache_line_aligned_slice_of_what_was_read() {
        // Lengths that fill whole blocks of 32 and that do not.
        for len in [0, 1, 31, 32, 33, 64 * 3 + 5] {
            let weights: Vec<i16> = (0..len).map(|k| k as i16 * 7 - 100).collect();
            let mut rows = Rows::from(weights.clone());
            assert_eq!(&*rows, &weights[..], "{len}");
            assert_eq!(rows.as_ptr() as usize % 64, 0, "{len}");
            if let Some(first) = rows.first_mut() {
                *first += 1;
                assert_ne!(&*rows, &weights[..]);
                assert_ne!(rows, Rows::from(weights.clone()));
            }
        }
        for network in [Ataxx::shipped(), Dama::shipped()] {
            assert_eq!(network.w1.as_ptr() as usize % 64, 0);
            // Each row of the shipped networks (64 or 256 values) starts a cache line.
            assert_eq!(network.hidden() * 2 % 64, 0);
        }
    }

    #[test]
    fn a_network_file_is_loaded_once_and_a_bad_one_named() {
        let dir = std::env::temp_dir().join(format!("tavola-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        std::fs::write(&good, Ataxx::shipped().to_bytes()).unwrap();
        let first = load::<Ataxx>(&good).unwrap();
        assert_eq!(first, Ataxx::shipped());
        assert!(std::ptr::eq(first, load::<Ataxx>(&good).unwrap()));
        // Another game's network: another number of inputs.
        let error = load::<Dama>(&good).unwrap_err();
        assert!(
            error.contains("good.nnue") && error.contains("not a Tavola Dama network"),
            "{error}"
        );
        let dama = dir.join("dama.nnue");
        std::fs::write(&dama, Dama::shipped().to_bytes()).unwrap();
        assert_eq!(load::<Dama>(&dama).unwrap(), Dama::shipped());
        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, b"TVNN").unwrap();
        let error = load::<Ataxx>(&bad).unwrap_err();
        assert!(
            error.contains("bad.nnue") && error.contains("cut short"),
            "{error}"
        );
        // A long file is refused once it is longer than the largest network, not read to its end;
        // a byte too many after a network narrower than the largest is named.
        let long = dir.join("long.nnue");
        let mut bytes = Ataxx::shipped().to_bytes();
        bytes.resize(3 * file_size(Ataxx::INPUTS, MAX_HIDDEN), 0);
        std::fs::write(&long, bytes).unwrap();
        let error = load::<Ataxx>(&long).unwrap_err();
        assert!(
            error.contains("long.nnue") && error.contains("longer than the largest"),
            "{error}"
        );
        let mut bytes = Network::zero(Ataxx::INPUTS, 64, Activation::Clipped).to_bytes();
        bytes.push(0);
        std::fs::write(&long, bytes).unwrap();
        let error = load::<Ataxx>(&long).unwrap_err();
        assert!(error.contains("1 bytes past"), "{error}");
        let missing = load::<Ataxx>(&dir.join("missing.nnue")).unwrap_err();
        assert!(missing.contains("cannot read") && missing.contains("missing.nnue"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_file_is_refused_with_the_reason() {
        let shipped = Ataxx::shipped();
        let bytes = shipped.to_bytes();
        let read = Network::from_bytes::<Ataxx>;
        let cut = read(&bytes[..100]).unwrap_err();
        assert!(cut.to_string().contains("cut short"), "{cut}");
        let mut wrong = bytes.clone();
        wrong[4] = 9;
        assert!(read(&wrong).unwrap_err().to_string().contains("version 9"));
        let mut long = bytes.clone();
        long.push(0);
        assert!(read(&long).unwrap_err().to_string().contains("past"));
        assert!(read(b"nope").is_err());
        // Scales that would divide by zero or overflow are refused, not used.
        for (at, value) in [(16, 0u32), (16, 256), (20, 0), (24, 0), (24, u32::MAX)] {
            let mut bad = bytes.clone();
            bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let error = read(&bad).unwrap_err().to_string();
            assert!(error.contains("QA"), "{at} {value}: {error}");
        }
        assert_eq!(bytes.len(), file_size(Ataxx::INPUTS, shipped.hidden()));
    }

    #[test]
    fn both_activations_and_every_hidden_size_compute_their_output_and_keep_it_in_the_file() {
        // Every hidden value 100 of QA 255 (0.392), every output weight 10 of QB 64 (0.156).
        let flat = |hidden, activation| Network {
            b1: vec![100; hidden],
            w2: vec![10; hidden],
            scale: 400,
            ..Network::zero(Ataxx::INPUTS, hidden, activation)
        };
        let start = Ataxx::start(None).unwrap();
        // Clipped: 64 × 0.392 × 0.156 × 400 = 1 568.6; squared: 64 × 0.392² × 0.156 × 400 = 615.2
        // (in integers, the squares' sum divided by QA first: 615.15); twice and four times as
        // much for 128 and 256 hidden values; 48 (rows of a length known only at run time),
        // three quarters.
        for (hidden, activation, version, value) in [
            (48, Activation::Clipped, 1, 1176),
            (48, Activation::Squared, 2, 461),
            (64, Activation::Clipped, 1, 1568),
            (64, Activation::Squared, 2, 615),
            (128, Activation::Clipped, 1, 3137),
            (128, Activation::Squared, 2, 1230),
            (256, Activation::Clipped, 1, 6274),
            (256, Activation::Squared, 2, 2460),
        ] {
            let network = flat(hidden, activation);
            assert_eq!(
                network.evaluate::<Ataxx>(&start),
                value,
                "{hidden} {activation:?}"
            );
            let bytes = network.to_bytes();
            assert_eq!(bytes.len(), file_size(Ataxx::INPUTS, hidden));
            assert_eq!(bytes[4..8], u32::to_le_bytes(version));
            assert_eq!(bytes[12..16], u32::to_le_bytes(hidden as u32));
            assert_eq!(Network::from_bytes::<Ataxx>(&bytes).unwrap(), network);
        }
        // The largest sums of the largest layer (255 × ±32 767 × 256 clipped, fitting 32 bits
        // just; 255² × 32 767 × 256 squared, beyond them) do not wrap.
        for activation in [Activation::Clipped, Activation::Squared] {
            for (w, expected) in [(i16::MAX, 127), (i16::MIN, -128)] {
                let mut big = flat(MAX_HIDDEN, activation);
                big.b1 = vec![i16::MAX; MAX_HIDDEN];
                big.w2 = vec![w; MAX_HIDDEN];
                big.qb = 1 << 16;
                big.scale = 1;
                assert_eq!(
                    big.evaluate::<Ataxx>(&start),
                    expected,
                    "{activation:?} {w}"
                );
            }
        }
        // Scales that make those sums worth more than any position are held to the limit, far
        // from the search's mate scores, instead of wrapping.
        for activation in [Activation::Clipped, Activation::Squared] {
            for sign in [1, -1] {
                let mut huge = flat(64, activation);
                huge.b1 = vec![i16::MAX; 64];
                huge.w2 = vec![sign * i16::MAX; 64];
                huge.b2 = sign as i32 * i32::MAX;
                huge.qb = 1;
                huge.scale = 1 << 16;
                let value = i64::from(huge.evaluate::<Ataxx>(&start));
                assert_eq!(value, i64::from(sign) * OUTPUT_LIMIT, "{activation:?}");
            }
        }
    }

    #[test]
    fn inputs_beyond_one_batch_are_all_added() {
        // Every input adds 1 to every hidden sum; 250 of them take two whole batches and part
        // of a third: each hidden value 250 of QA 255, so the output is
        // 64 × 250 × 10 × 400 / (255 × 64) = 3 921.6.
        let network = Network {
            w1: vec![1; Ataxx::INPUTS * 64].into(),
            w2: vec![10; 64],
            scale: 400,
            ..Network::zero(Ataxx::INPUTS, 64, Activation::Clipped)
        };
        const { assert!(250 > 2 * PENDING) };
        let output = network.output(|inputs| (0..250).for_each(|i| inputs.add(i * 11)));
        assert_eq!(output, 3921);
        assert_eq!(network.output(|_| {}), 0);
    }

    #[test]
    fn a_hidden_size_this_build_cannot_compute_is_refused() {
        let bytes = Network::zero(Ataxx::INPUTS, 64, Activation::Clipped).to_bytes();
        for hidden in [0u32, 8, 40, 272, u32::MAX] {
            let mut bad = bytes.clone();
            bad[12..16].copy_from_slice(&hidden.to_le_bytes());
            let error = Network::from_bytes::<Ataxx>(&bad).unwrap_err().to_string();
            assert!(
                error.contains(&format!("{hidden} hidden")) && error.contains("steps of 16"),
                "{error}"
            );
        }
        // A valid size the file's length does not match is cut short or too long.
        let mut wider = bytes.clone();
        wider[12..16].copy_from_slice(&128u32.to_le_bytes());
        assert!(Network::from_bytes::<Ataxx>(&wider)
            .unwrap_err()
            .to_string()
            .contains("cut short"));
        let mut narrower = bytes;
        narrower[12..16].copy_from_slice(&32u32.to_le_bytes());
        assert!(Network::from_bytes::<Ataxx>(&narrower)
            .unwrap_err()
            .to_string()
            .contains("past"));
    }
}
