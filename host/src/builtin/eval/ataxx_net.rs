//! The inputs of the learned Ataxx evaluation ([`super::net`]): the board from the side to
//! move's view, its pieces, the opponent's, the gaps (147 inputs, each 0 or 1), and the network
//! that ships with Tavola (`ataxx.nnue`, 19 KB, compiled into the binary).

use std::sync::LazyLock;

use tavola_sdk::games::ataxx::{Ataxx, Position};
use tavola_sdk::Position as _;

use super::net::{Learned, Network};

/// The inputs: 49 squares each of the mover's pieces, the opponent's, and the gaps.
pub const INPUTS: usize = 3 * 49;

/// The three planes of inputs: the mover's pieces, the opponent's, the gaps.
fn planes(position: &Position) -> [u64; 3] {
    let me = position.side_to_move();
    [
        position.pieces(me).bits(),
        position.pieces(me.other()).bits(),
        position.gaps().bits(),
    ]
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
        for (plane, mut bits) in planes(position).into_iter().enumerate() {
            while bits != 0 {
                add(plane * 49 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    fn shipped() -> &'static Network {
        &NETWORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::Game;

    #[test]
    fn the_features_are_the_movers_pieces_then_the_opponents_then_the_gaps() {
        let position = Ataxx::parse_position("x5o/7/7/3-3/7/7/o5x o 0 1", None).unwrap();
        let mut found = Vec::new();
        Ataxx::features(&position, |f| found.push(f));
        // o to move: its pieces (a1, g7) first, then x's (g1, a7), then the gap d4.
        assert_eq!(found, [0, 48, 49 + 6, 49 + 42, 98 + 24]);
    }

    #[test]
    fn the_shipped_network_reads_writes_back_and_scores_the_start_near_even() {
        let network = Ataxx::shipped();
        let bytes = network.to_bytes();
        assert_eq!(bytes, include_bytes!("ataxx.nnue"));
        let score = |position: &Position| network.evaluate::<Ataxx>(position);
        let start = Ataxx::start(None).unwrap();
        assert!(score(&start).abs() < 100, "{}", score(&start));
        // Material tells: a side a whole corner up is ahead.
        let ahead = Ataxx::parse_position("xx4o/xx5/7/7/7/7/o5x x 0 1", None).unwrap();
        assert!(score(&ahead) > score(&start));
    }
}
