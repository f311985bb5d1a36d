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

/// The base-3 number of two neighbouring squares of a row (digit 0 the left one: 1 where the
/// mover's, 2 where the opponent's), indexed by the mover's two bits and, above them, the
/// opponent's two.
const PAIRS: [u8; 16] = {
    let mut pairs = [0; 16];
    let mut index = 0;
    while index < 16 {
        let left = (index & 1) + 2 * ((index >> 2) & 1);
        let right = ((index >> 1) & 1) + 2 * ((index >> 3) & 1);
        pairs[index] = (left + 3 * right) as u8;
        index += 1;
    }
    pairs
};

/// The pairs of squares of `row` that start on files 0 to 5 ([`PAIRS`]), from the mover's pieces
/// `me` and the opponent's `them`.
#[inline]
fn pairs(row: u32, me: u64, them: u64) -> [u8; 6] {
    let (me, them) = (me >> (row * 7), them >> (row * 7));
    std::array::from_fn(|file| {
        let two = |bits: u64| (bits >> file) as usize & 3;
        PAIRS[two(me) | two(them) << 2]
    })
}

/// The 36 windows' inputs (each window's lower pair and, 9 times, its upper one: digit `k` of its
/// state, base 3, is the window's square `k`, lower-left, lower-right, upper-left, upper-right),
/// row of windows by row, each row's pairs found once.
#[inline]
fn windows(me: u64, them: u64, mut add: impl FnMut(usize)) {
    let mut lower = pairs(0, me, them);
    for row in 0..6 {
        let upper = pairs(row + 1, me, them);
        for file in 0..6 {
            let state = usize::from(lower[file]) + 9 * usize::from(upper[file]);
            add((row as usize * 6 + file) * STATES + state);
        }
        lower = upper;
    }
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
        let me = position.side_to_move();
        let (mine, theirs) = (
            position.pieces(me).bits(),
            position.pieces(me.other()).bits(),
        );
        windows(mine, theirs, &mut add);
        let mut gaps = position.gaps().bits();
        while gaps != 0 {
            add(GAPS + gaps.trailing_zeros() as usize);
            gaps &= gaps - 1;
        }
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
        // The windows as the inputs define them, square by square, against the row pairs' way
        // of finding them, in every position of games of varied moves from boards with and
        // without gaps (full rows, empty ones, both sides' pieces in one window).
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
}
