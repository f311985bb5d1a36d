//! The inputs of the learned Dama evaluation ([`super::net`]): the board from the side to move's
//! view (turned half a turn when Black moves, so that the mover always plays up the board), its
//! men, its kings, the opponent's men, the opponent's kings (4 × 32 inputs, each 0 or 1), and the
//! network that ships with Tavola (`dama.nnue`, compiled into the binary).
//!
//! The trainer learns only from quiet positions (no capture to make): a capture is compulsory,
//! so a position where one is pending is worth what the capture leaves, which the quiescence
//! search plays out.

use std::sync::LazyLock;

use tavola_sdk::games::dama::{Dama, Position};
use tavola_sdk::{Color, Position as _};

use super::net::{Learned, Network};

/// The inputs: 32 squares each of the mover's men, its kings, the opponent's men and kings.
pub const INPUTS: usize = 4 * 32;

/// The network that ships with Tavola (`dama.nnue`).
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes::<Dama>(include_bytes!("dama.nnue")).expect("the shipped network reads")
});

impl Learned for Dama {
    const TITLE: &'static str = "Dama";
    const INPUTS: usize = INPUTS;

    #[inline]
    fn features(position: &Position, mut add: impl FnMut(usize)) {
        let me = position.side_to_move();
        let them = me.other();
        // Square n is bit n - 1; the board turned half a turn takes n to 33 - n.
        let flip = if me == Color::Black { 31 } else { 0 };
        let planes = [
            position.men(me).bits(),
            position.kings(me).bits(),
            position.men(them).bits(),
            position.kings(them).bits(),
        ];
        for (plane, mut bits) in planes.into_iter().enumerate() {
            while bits != 0 {
                add(plane * 32 + (bits.trailing_zeros() as usize ^ flip));
                bits &= bits - 1;
            }
        }
    }

    fn trainable(position: &Position) -> bool {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        moves.first().is_some_and(|mv| !mv.is_capture())
    }

    fn shipped() -> &'static Network {
        &NETWORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tavola_sdk::Game;

    /// The inputs of `text`, in increasing order.
    fn features(text: &str) -> Vec<usize> {
        let position = Dama::parse_position(text, None).unwrap();
        let mut found = Vec::new();
        Dama::features(&position, |f| found.push(f));
        found.sort_unstable();
        found
    }

    #[test]
    fn the_features_are_the_movers_men_and_kings_then_the_opponents_seen_from_the_mover() {
        // White to move: its man on 22 (bit 21), its king on 18, Black's men on 3 and 9.
        assert_eq!(features("W:W22,K18:B3,9"), [21, 32 + 17, 64 + 2, 64 + 8]);
        // The same position turned half a turn, Black to move: the same inputs.
        assert_eq!(features("B:W24,30:B11,K15"), [21, 32 + 17, 64 + 2, 64 + 8]);
    }

    #[test]
    fn only_quiet_positions_are_learned_from() {
        let quiet = Dama::parse_position("W:W22:B3", None).unwrap();
        assert!(Dama::trainable(&quiet));
        // White's man on 22 must take Black's on 18.
        let capture = Dama::parse_position("W:W22:B18", None).unwrap();
        assert!(!Dama::trainable(&capture));
    }

    #[test]
    fn the_shipped_network_reads_writes_back_and_knows_material() {
        let network = Dama::shipped();
        assert_eq!(network.to_bytes(), include_bytes!("dama.nnue"));
        let score =
            |text: &str| network.evaluate::<Dama>(&Dama::parse_position(text, None).unwrap());
        let start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        assert!(score(start).abs() < 60, "{}", score(start));
        // A man up, and a king up, are ahead.
        assert!(score("W:W21,22,23:B1,2") > 50);
        assert!(score("W:WK18,22:B3") > score("W:W18,22:B3"));
    }
}
