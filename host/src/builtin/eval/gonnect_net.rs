//! The inputs of the learned Gonnect evaluation ([`super::net`]), from the side to move's view
//! (the rules treat the colours alike: either connects either pair of sides), and the network that
//! ships with Tavola (`gonnect.nnue`, compiled into the binary).
//!
//! The network is a correction added to the hand-written evaluation ([`Learned::base`]), fitted
//! to the scores of the hand-written bot's searches: alone, or fitted to the games' results, it
//! lost to that evaluation (the README's "Learned evaluations" has the figures).
//!
//! - Each stone, by its owner (the mover's or the opponent's) and by its chain's liberties (one,
//!   two, three, four or more): 8 planes of 169 points. Go's shape is in them: a chain in atari,
//!   a chain short of liberties, the points where they stand.
//! - Each side's connection distances of the classic evaluation ([`super::gonnect`]: the stones
//!   it still needs to join two opposite sides, on its better axis and on the other one), one-hot,
//!   0 to 13, and 14 for anything longer or cut off: 4 × 15 inputs.

use std::sync::LazyLock;

use tavola_sdk::games::gonnect::{Bitboard, Gonnect, Position};
use tavola_sdk::Position as _;

use super::gonnect::{for_each_chain, Race};
use super::net::{square_image, Learned, Network};

/// The points of the board.
const POINTS: usize = 169;
/// The stone planes: the mover's chains with 1, 2, 3, 4+ liberties, then the opponent's.
const PLANES: usize = 8;
/// The values a distance input takes: 0 to 13, then 14 for longer or cut off.
const DISTANCES: usize = 15;
/// The first distance input.
const DISTANCE_INPUTS: usize = PLANES * POINTS;
/// The inputs: the stone planes, then the mover's best and other distance, the opponent's.
pub const INPUTS: usize = DISTANCE_INPUTS + 4 * DISTANCES;

/// The network that ships with Tavola (`gonnect.nnue`).
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes::<Gonnect>(include_bytes!("gonnect.nnue"))
        .expect("the shipped network reads")
});

/// Calls `add` with the inputs of one chain, the mover's (`mine`) or the opponent's, with
/// `liberties` liberties.
#[inline]
pub(super) fn chain_inputs(
    mine: bool,
    chain: Bitboard,
    liberties: u32,
    mut add: impl FnMut(usize),
) {
    let side = if mine { 0 } else { 4 };
    let plane = side + liberties.clamp(1, 4) as usize - 1;
    for stone in chain {
        add(plane * POINTS + stone.index());
    }
}

/// Calls `add` with the distance inputs of `race`.
#[inline]
pub(super) fn race_inputs(race: Race, mut add: impl FnMut(usize)) {
    let (mine, mine_other) = race.mine;
    let (theirs, theirs_other) = race.theirs;
    for (k, d) in [mine, mine_other, theirs, theirs_other]
        .into_iter()
        .enumerate()
    {
        let value = (d as usize).min(DISTANCES - 1);
        add(DISTANCE_INPUTS + k * DISTANCES + value);
    }
}

impl Learned for Gonnect {
    const TITLE: &'static str = "Gonnect";
    const INPUTS: usize = INPUTS;

    #[inline]
    fn features(position: &Position, mut add: impl FnMut(usize)) {
        let empty = position.empty_points();
        let me = position.side_to_move();
        for_each_chain(position, me, empty, |mine, chain, liberties| {
            chain_inputs(mine, chain, liberties, &mut add);
        });
        race_inputs(Race::of(position, empty), add);
    }

    /// The square's eight symmetries (turns and reflections): the rules treat both axes and
    /// every side alike, and the distance inputs (better and other axis) do not change.
    const SYMMETRIES: usize = 8;

    fn image(index: usize, symmetry: usize) -> usize {
        if index >= DISTANCE_INPUTS {
            return index;
        }
        let (plane, point) = (index / POINTS, index % POINTS);
        plane * POINTS + square_image(point, 13, symmetry)
    }

    /// The network corrects the hand-written evaluation: alone, it scores positions a stone
    /// apart within about a stone of each other (its error on the training data), where the
    /// search needs their difference exact.
    fn base(position: &Position) -> i32 {
        super::gonnect::classic(position)
    }

    fn shipped() -> &'static Network {
        &NETWORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::Game;

    /// The inputs of the position of `rows` (top first) with `side` to move, in increasing order.
    fn features(rows: &[(usize, &str)], side: &str) -> Vec<usize> {
        let mut board = vec![".............".to_owned(); 13];
        for &(i, row) in rows {
            board[i] = row.to_owned();
        }
        let text = format!("{} {side} 30", board.join("/"));
        let position = Gonnect::parse_position(&text, None).unwrap();
        let mut found = Vec::new();
        Gonnect::features(&position, |f| found.push(f));
        found.sort_unstable();
        found
    }

    /// The distance input `k` (0: the mover's better axis, 1 its other, 2 and 3 the opponent's)
    /// with value `v`.
    fn d(k: usize, v: usize) -> usize {
        DISTANCE_INPUTS + k * DISTANCES + v
    }

    #[test]
    fn stones_are_seen_by_owner_and_liberties_and_distances_one_hot() {
        // Black: A13 alone in the corner, one liberty (A12: B13 is White's). White: B13-C13,
        // three liberties (D13, B12, C12).
        let rows = [(0, "XOO..........")];
        let (a13, b13, c13) = (12 * 13, 12 * 13 + 1, 12 * 13 + 2);
        let black = features(&rows, "X");
        assert_eq!(&black[..3], [a13, 6 * POINTS + b13, 6 * POINTS + c13]);
        // Black needs 12 stones down column A, 13 across; White 12 down column B, and 12 across
        // (A12 and B12 to the left, D13 to N13 to the right).
        assert_eq!(&black[3..], [d(0, 12), d(1, 13), d(2, 12), d(3, 12)]);
        // White to move: the same stones and distances, mover and opponent swapped.
        let white = features(&rows, "O");
        assert_eq!(
            &white[..3],
            [2 * POINTS + b13, 2 * POINTS + c13, 4 * POINTS + a13]
        );
        assert_eq!(&white[3..], [d(0, 12), d(1, 12), d(2, 12), d(3, 13)]);
    }

    #[test]
    fn the_shipped_network_reads_and_writes_back() {
        assert_eq!(
            Gonnect::shipped().to_bytes(),
            include_bytes!("gonnect.nnue")
        );
        assert_eq!(
            include_bytes!("gonnect.nnue").len(),
            super::super::net::file_size(INPUTS, 64)
        );
    }

    #[test]
    fn the_images_are_the_positions_turned_and_reflected() {
        let rows = [(0, "XOO.........."), (4, "......X.....O")];
        let found = features(&rows, "X");
        // The board reflected left to right (symmetry 1), and turned a quarter (transposed and
        // reflected: symmetry 4 + 2): the inputs of the transformed position.
        let mirrored = [(0, "..........OOX"), (4, "O.....X......")];
        let mut images: Vec<usize> = found.iter().map(|&f| Gonnect::image(f, 1)).collect();
        images.sort_unstable();
        assert_eq!(images, features(&mirrored, "X"));
        for symmetry in 0..Gonnect::SYMMETRIES {
            let mut images: Vec<usize> =
                found.iter().map(|&f| Gonnect::image(f, symmetry)).collect();
            images.sort_unstable();
            images.dedup();
            assert_eq!(images.len(), found.len(), "{symmetry} is one to one");
            assert_eq!(&images[images.len() - 4..], &found[found.len() - 4..]);
        }
        let identity: Vec<usize> = found.iter().map(|&f| Gonnect::image(f, 0)).collect();
        assert_eq!(identity, found);
    }

    #[test]
    fn a_chain_in_atari_and_a_side_cut_off_have_their_own_inputs() {
        // White's D7 has one liberty (E7), Black to move.
        let found = features(
            &[
                (5, "...X........."),
                (6, "..XO........."),
                (7, "...X........."),
            ],
            "X",
        );
        let d7 = 6 * 13 + 3;
        assert!(found.contains(&(4 * POINTS + d7)), "{found:?}");
        // Black's row from A7 to M7 leaves White only N7 to cross it: White, to move, needs 13
        // stones either way; walled in at N7 too, it is cut off from top to bottom (14).
        let open = features(&[(6, "XXXXXXXXXXXX.")], "O");
        assert!(
            open.contains(&d(0, 13)) && open.contains(&d(1, 13)),
            "{open:?}"
        );
        let walled = features(&[(6, "XXXXXXXXXXXX."), (7, "............X")], "O");
        assert!(
            walled.contains(&d(0, 13)) && walled.contains(&d(1, 14)),
            "{walled:?}"
        );
    }
}
