//! The inputs of the learned Tablut evaluation ([`super::net`]) and the network that ships with
//! Tavola (`tablut.nnue`, compiled into the binary).
//!
//! The network is a correction added to the hand-written evaluation ([`Learned::base`]), fitted
//! to the scores of the hand-written bot's searches, as Gonnect's is: the hand-written terms (the
//! king's open lines, the threats of the next move, a king Black can take) are exact where a small
//! network would only be near, and the correction learns what they miss from where the pieces
//! stand.
//!
//! The sides are not alike (White brings the king out, Black nets it), so the board is not turned
//! to the mover's view: the inputs are each white soldier, black soldier and the king on its square
//! (3 planes of 81), in one set of 243 inputs when White is to move and in another when Black is.

use std::sync::LazyLock;

use tavola_sdk::games::tablut::{Position, Tablut};
use tavola_sdk::{Color, Position as _};

use super::net::{square_image, Learned, Network};

/// The squares of the board.
const SQUARES: usize = 81;
/// The planes of one side to move: white soldiers, black soldiers, the king.
const PLANES: usize = 3;
/// The inputs: the three planes with White to move, then the three with Black to move.
pub const INPUTS: usize = 2 * PLANES * SQUARES;

/// The network that ships with Tavola (`tablut.nnue`).
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes::<Tablut>(include_bytes!("tablut.nnue")).expect("the shipped network reads")
});

impl Learned for Tablut {
    const TITLE: &'static str = "Tablut";
    const INPUTS: usize = INPUTS;

    #[inline]
    fn features(position: &Position, mut add: impl FnMut(usize)) {
        let side = match position.side_to_move() {
            Color::White => 0,
            Color::Black => PLANES * SQUARES,
        };
        let planes = [
            position.soldiers(Color::White).bits(),
            position.soldiers(Color::Black).bits(),
            position.king().map_or(0, |king| king.bitboard().bits()),
        ];
        for (plane, mut bits) in planes.into_iter().enumerate() {
            while bits != 0 {
                add(side + plane * SQUARES + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// The square's eight symmetries (turns and reflections): the camps, the castle and the
    /// escape squares are the same under each, and so are the rules.
    const SYMMETRIES: usize = 8;

    fn image(index: usize, symmetry: usize) -> usize {
        let (plane, square) = (index / SQUARES, index % SQUARES);
        plane * SQUARES + square_image(square, 9, symmetry)
    }

    /// The network corrects the hand-written evaluation.
    fn base(position: &Position) -> i32 {
        super::tablut::classic(position)
    }

    fn shipped() -> &'static Network {
        &NETWORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::Game;

    const START: &str =
        "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO";

    fn features(text: &str) -> Vec<usize> {
        let position = Tablut::parse_position(text, None).unwrap();
        let mut found = Vec::new();
        Tablut::features(&position, |f| found.push(f));
        found.sort_unstable();
        found
    }

    #[test]
    fn pieces_are_seen_on_their_squares_in_the_movers_set() {
        let white = features(&format!("{START} - W"));
        // 8 white soldiers, 16 black ones, the king on e5 (index 40).
        assert_eq!(white.len(), 25);
        assert_eq!(white.iter().filter(|&&f| f < SQUARES).count(), 8);
        assert_eq!(white.iter().filter(|&&f| f >= 2 * SQUARES).count(), 1);
        assert!(white.contains(&(2 * SQUARES + 40)), "{white:?}");
        // e3 (row 3, index 2 * 9 + 4) is a white soldier; d1 (index 3) a black one.
        assert!(
            white.contains(&22) && white.contains(&(SQUARES + 3)),
            "{white:?}"
        );
        // Black to move: the same squares in the other set.
        let black = features(&format!("{START} - B"));
        let shifted: Vec<usize> = white.iter().map(|f| f + PLANES * SQUARES).collect();
        assert_eq!(black, shifted);
    }

    #[test]
    fn the_images_are_the_positions_turned_and_reflected() {
        // The king on c2 with white b7 and black h3, White to move.
        let text = "OOOOOOOOO/OOKOOOOOO/OOOOOOOBO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OWOOOOOOO/OOOOOOOOO/OOOOOOOOO - W";
        let found = features(text);
        // Reflected left to right (symmetry 1): the king on g2, white h7, black b3.
        let mirrored = "OOOOOOOOO/OOOOOOKOO/OBOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOWO/OOOOOOOOO/OOOOOOOOO - W";
        let mut images: Vec<usize> = found.iter().map(|&f| Tablut::image(f, 1)).collect();
        images.sort_unstable();
        assert_eq!(images, features(mirrored));
        // Transposed (symmetry 4): the king on b3, white g2, black c8.
        let transposed = "OOOOOOOOO/OOOOOOWOO/OKOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOOOOOOOO/OOBOOOOOO/OOOOOOOOO - W";
        let mut images: Vec<usize> = found.iter().map(|&f| Tablut::image(f, 4)).collect();
        images.sort_unstable();
        assert_eq!(images, features(transposed));
        // Each symmetry maps the start position's inputs onto themselves.
        let start = features(&format!("{START} - B"));
        for symmetry in 0..Tablut::SYMMETRIES {
            let mut images: Vec<usize> =
                start.iter().map(|&f| Tablut::image(f, symmetry)).collect();
            images.sort_unstable();
            assert_eq!(images, start, "{symmetry}");
        }
    }

    #[test]
    fn the_shipped_network_reads_and_writes_back() {
        assert_eq!(Tablut::shipped().to_bytes(), include_bytes!("tablut.nnue"));
        assert_eq!(
            include_bytes!("tablut.nnue").len(),
            super::super::net::file_size(INPUTS, 64)
        );
    }
}
