//! The inputs of the learned Ataxx evaluation ([`super::net`]): the board from the side to
//! move's view as its 36 windows of 2 x 2 squares, each in one of its 81 states (every square
//! empty or a gap, the mover's, or the opponent's), and the gaps (2 965 inputs, each 0 or 1);
//! and the network that ships with Tavola (`ataxx.nnue`, compiled into the binary).
//!
//! A window sees how its four pieces stand together (a piece beside a hole it could be taken
//! through, a solid block), which single squares cannot; every position sets 36 window inputs
//! and one per gap, so a position costs 36 rows of additions however full the board.

use std::sync::LazyLock;

use tavola_sdk::games::ataxx::{Ataxx, Position};
use tavola_sdk::Position as _;

use super::net::{square_image, Learned, Network};

/// The windows: one for each square that is not on the top rank or the right file.
const WINDOWS: usize = 36;
/// The states of a window: three for each of its four squares.
const STATES: usize = 81;
/// Where the gaps' inputs start: after every window's states.
const GAPS: usize = WINDOWS * STATES;
/// The inputs: every state of every window, then the 49 squares' gaps.
pub const INPUTS: usize = GAPS + 49;

/// The base-3 number of a row's seven squares with a digit 1 where `bits` (the row's 7 bits)
/// has a piece: a row's number is `TERNARY[mover's] + 2 * TERNARY[opponent's]`, digit `k` its
/// square on file `k` (0 empty or a gap, 1 the mover's, 2 the opponent's).
const TERNARY: [u16; 128] = {
    let mut table = [0; 128];
    let mut bits = 0;
    while bits < 128 {
        let (mut value, mut power, mut file) = (0, 1, 0);
        while file < 7 {
            if bits >> file & 1 != 0 {
                value += power;
            }
            power *= 3;
            file += 1;
        }
        table[bits] = value;
        bits += 1;
    }
    table
};

/// The rows' numbers (below 3^7).
const ROWS: usize = 2187;

/// For each row's number, the six pairs of neighbouring squares that start on files 0 to 5, a
/// byte each (byte `k`: the digit of file `k` plus 3 times that of file `k + 1`, below 9). A
/// window's state is its lower row's pair plus 9 times its upper row's: six windows' states,
/// each below 81, from one addition of two words ([`windows`]).
static PAIRS: [u64; ROWS] = {
    let mut table = [0; ROWS];
    let mut row = 0;
    while row < ROWS {
        let mut digits = [0u64; 7];
        let (mut rest, mut file) = (row as u64, 0);
        while file < 7 {
            digits[file] = rest % 3;
            rest /= 3;
            file += 1;
        }
        let mut word = 0;
        let mut pair = 0;
        while pair < 6 {
            word |= (digits[pair] + 3 * digits[pair + 1]) << (8 * pair);
            pair += 1;
        }
        table[row] = word;
        row += 1;
    }
    table
};

/// The 36 windows' inputs, window by window (digit `k` of a window's state, base 3, is its
/// square `k`: lower-left, lower-right, upper-left, upper-right): each row of the board is read
/// once as a base-3 number, and a row of windows' six states come from one addition of its two
/// rows' pairs.
#[inline]
fn windows(me: u64, them: u64, out: &mut [usize; WINDOWS]) {
    let pairs = |row: u32| {
        let bits = |of: u64| (of >> (row * 7)) as usize & 0x7f;
        PAIRS[usize::from(TERNARY[bits(me)] + 2 * TERNARY[bits(them)])]
    };
    let mut lower = pairs(0);
    for row in 0..6 {
        let upper = pairs(row + 1);
        // No byte carries into the next: each is at most 8 + 9 * 8.
        let states = lower + 9 * upper;
        for file in 0..6 {
            let window = row as usize * 6 + file;
            out[window] = window * STATES + ((states >> (8 * file)) as usize & 0xff);
        }
        lower = upper;
    }
}

/// The most inputs an Ataxx position sets: its windows and one per gap.
const MOST_SET: usize = WINDOWS + 49;

/// Writes the inputs that `position` sets into `out`, windows first; returns how many.
#[inline]
fn inputs(position: &Position, out: &mut [usize; MOST_SET]) -> usize {
    let me = position.side_to_move();
    let (mine, theirs) = (
        position.pieces(me).bits(),
        position.pieces(me.other()).bits(),
    );
    let (windows_out, gaps_out) = out.split_at_mut(WINDOWS);
    windows(mine, theirs, windows_out.try_into().expect("36 windows"));
    let mut set = 0;
    let mut gaps = position.gaps().bits();
    while gaps != 0 {
        gaps_out[set] = GAPS + gaps.trailing_zeros() as usize;
        set += 1;
        gaps &= gaps - 1;
    }
    WINDOWS + set
}

/// `network`'s evaluation of `position` for the side to move, in hundredths: the same value
/// as [`Network::evaluate`], with the inputs found all at once.
#[inline]
#[must_use]
pub fn evaluate(network: &Network, position: &Position) -> i32 {
    let mut rows = [0; MOST_SET];
    let set = inputs(position, &mut rows);
    network.output_of_rows(&rows[..set])
}

/// The network that ships with Tavola (`ataxx.nnue`).
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes::<Ataxx>(include_bytes!("ataxx.nnue")).expect("the shipped network reads")
});

impl Learned for Ataxx {
    const TITLE: &'static str = "Ataxx";
    const INPUTS: usize = INPUTS;

    #[inline]
    fn features(position: &Position, mut add: impl FnMut(usize)) {
        let mut rows = [0; MOST_SET];
        let set = inputs(position, &mut rows);
        rows[..set].iter().for_each(|&input| add(input));
    }

    /// The square's turns and reflections keep every Ataxx position's value.
    const SYMMETRIES: usize = 8;

    fn image(index: usize, symmetry: usize) -> usize {
        if index >= GAPS {
            return GAPS + square_image(index - GAPS, 7, symmetry);
        }
        let (at, mut state) = (index / STATES, index % STATES);
        // The window moves as a square of the 6 x 6 board of windows, and its four squares as
        // those of a 2 x 2 board.
        let mut image = 0;
        for k in 0..4 {
            image += (state % 3) * 3usize.pow(square_image(k, 2, symmetry) as u32);
            state /= 3;
        }
        square_image(at, 6, symmetry) * STATES + image
    }

    fn shipped() -> &'static Network {
        &NETWORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::{Color, Game};

    fn features(position: &Position) -> Vec<usize> {
        let mut found = Vec::new();
        Ataxx::features(position, |f| found.push(f));
        found.sort_unstable();
        found
    }

    /// The text of `position` turned and reflected by `symmetry` (as [`square_image`] moves a
    /// square).
    fn image_of(position: &Position, symmetry: usize) -> Position {
        let mut board = ['.'; 49];
        let pieces = [
            (position.pieces(Color::White).bits(), 'x'),
            (position.pieces(Color::Black).bits(), 'o'),
            (position.gaps().bits(), '-'),
        ];
        for (bits, mark) in pieces {
            for square in (0..49).filter(|s| bits >> s & 1 != 0) {
                board[square_image(square, 7, symmetry)] = mark;
            }
        }
        let rows: Vec<String> = (0..7)
            .rev()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for &mark in &board[row * 7..row * 7 + 7] {
                    if mark == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(mark);
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let side = if position.side_to_move() == Color::White {
            "x"
        } else {
            "o"
        };
        Ataxx::parse_position(&format!("{} {side} 0 1", rows.join("/")), None).unwrap()
    }

    #[test]
    fn each_window_is_seen_in_its_state_from_the_movers_view() {
        let position = Ataxx::parse_position("x5o/7/7/3-3/7/7/o5x o 0 1", None).unwrap();
        // o to move: its a1 is the first window's lower-left square (digit 1), x's g1 the
        // sixth's lower-right (2 * 3), x's a7 the 31st's upper-left (2 * 9), o's g7 the last's
        // upper-right (27); the other 32 windows are empty; then the gap d4.
        let mut expected: Vec<usize> = (0..WINDOWS).map(|w| w * STATES).collect();
        expected[0] += 1;
        expected[5] += 6;
        expected[30] += 18;
        expected[35] += 27;
        expected.push(GAPS + 24);
        assert_eq!(features(&position), expected);
        // x to move: the same windows, mover and opponent swapped.
        let other = Ataxx::parse_position("x5o/7/7/3-3/7/7/o5x x 0 1", None).unwrap();
        let swapped = features(&other);
        assert!(
            swapped.contains(&2) && swapped.contains(&(5 * STATES + 3)),
            "{swapped:?}"
        );
        assert!(swapped.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn the_windows_are_read_square_by_square_in_every_position_of_some_games() {
        // The windows as the inputs define them, square by square, against the way of finding
        // them from the rows' base-3 numbers, in every position of games of varied moves from
        // boards with and without gaps (full rows, empty ones, both sides' pieces in one window).
        let plain = |position: &Position| {
            let me = position.side_to_move();
            let digit = |square: u32| {
                let bit = 1u64 << square;
                if position.pieces(me).bits() & bit != 0 {
                    1
                } else if position.pieces(me.other()).bits() & bit != 0 {
                    2
                } else {
                    0
                }
            };
            let mut found: Vec<usize> = (0..6u32)
                .flat_map(|row| (0..6u32).map(move |file| (row, file)))
                .map(|(row, file)| {
                    let square = row * 7 + file;
                    let state = digit(square)
                        + 3 * digit(square + 1)
                        + 9 * digit(square + 7)
                        + 27 * digit(square + 8);
                    (row * 6 + file) as usize * STATES + state
                })
                .collect();
            found.extend(
                (0..49)
                    .filter(|s| position.gaps().bits() >> s & 1 != 0)
                    .map(|s| GAPS + s),
            );
            found.sort_unstable();
            found
        };
        let mut checked = 0;
        for (start, step) in [
            ("x5o/7/7/7/7/7/o5x x 0 1", 7),
            ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 3),
        ] {
            let mut position = Ataxx::parse_position(start, None).unwrap();
            for ply in 0..120 {
                assert_eq!(features(&position), plain(&position), "{start}, ply {ply}");
                checked += 1;
                let moves = position.legal_moves();
                let Some(&mv) = moves.get(ply * step % moves.len().max(1)) else {
                    break;
                };
                position.play(mv).unwrap();
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn the_images_are_the_positions_turned_and_reflected() {
        // The positions of a game from a board with gaps that plays, at ply k, the k-th listed
        // move (counted round the list); each image of each input is the input of the turned
        // or reflected position.
        let mut position = Ataxx::parse_position("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", None).unwrap();
        let mut checked = 0;
        for ply in 0..40 {
            for symmetry in 0..Ataxx::SYMMETRIES {
                let mut images: Vec<usize> = features(&position)
                    .iter()
                    .map(|&f| Ataxx::image(f, symmetry))
                    .collect();
                images.sort_unstable();
                assert_eq!(
                    images,
                    features(&image_of(&position, symmetry)),
                    "ply {ply}, {symmetry}"
                );
                checked += 1;
            }
            let moves = position.legal_moves();
            let Some(&mv) = moves.get(ply % moves.len().max(1)) else {
                break;
            };
            position.play(mv).unwrap();
        }
        assert_eq!(checked, 40 * 8);
    }

    #[test]
    fn the_shipped_network_reads_writes_back_and_scores_the_start_near_even() {
        let network = Ataxx::shipped();
        let bytes = network.to_bytes();
        assert_eq!(bytes, include_bytes!("ataxx.nnue"));
        assert_eq!(
            bytes.len(),
            super::super::net::file_size(INPUTS, network.hidden())
        );
        let score = |position: &Position| network.evaluate::<Ataxx>(position);
        let start = Ataxx::start(None).unwrap();
        assert!(score(&start).abs() < 100, "{}", score(&start));
        // Material tells: a side a whole corner up is ahead.
        let ahead = Ataxx::parse_position("xx4o/xx5/7/7/7/7/o5x x 0 1", None).unwrap();
        assert!(score(&ahead) > score(&start));
    }

    #[test]
    fn the_evaluation_with_its_inputs_found_at_once_is_the_networks_own() {
        // The search's evaluation (the inputs written into one array, their rows added at once)
        // against the network's generic one (the inputs gathered one by one), in every position
        // of games with and without gaps, for the shipped network and a narrower one.
        let mut narrow =
            super::super::net::Network::zero(INPUTS, 64, super::super::net::Activation::Clipped);
        for (k, w) in narrow.w1.iter_mut().enumerate() {
            *w = (k % 23) as i16 - 11;
        }
        for (k, w) in narrow.w2.iter_mut().enumerate() {
            *w = (k % 7) as i16 - 3;
        }
        let mut checked = 0;
        for network in [Ataxx::shipped(), &narrow] {
            for start in ["x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1"] {
                let mut position = Ataxx::parse_position(start, None).unwrap();
                for ply in 0..100 {
                    assert_eq!(
                        evaluate(network, &position),
                        network.evaluate::<Ataxx>(&position),
                        "{start}, ply {ply}"
                    );
                    checked += 1;
                    let moves = position.legal_moves();
                    let Some(&mv) = moves.get(ply * 5 % moves.len().max(1)) else {
                        break;
                    };
                    position.play(mv).unwrap();
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }
}
