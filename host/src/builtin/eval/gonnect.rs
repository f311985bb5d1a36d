//! The Gonnect evaluation: a race to connect, with Go's captures as the way to cut.
//!
//! Either colour wins by joining left to right or top to bottom, so each side's *connection
//! distance* is the Hex one: the fewest stones it still has to place to join one pair of opposite
//! sides, counting its own stones as free, empty points as one, and the opponent's stones as walls
//! (`min` over the two axes, with a smaller weight on the other axis, which is the threat the
//! opponent must also watch). The difference of the two distances is most of the score. Go enters
//! through captures: a chain in atari is a wall about to open (the opponent's, on our move, is a
//! capture we can make) or a cut we must mend (ours), and a chain short of liberties is a weakness.
//!
//! By default a learned network ([`super::gonnect_net`]) adds its correction to this evaluation;
//! `builtin:gonnect_eval=classic` plays without it, `builtin:gonnect_network=PATH` with another.

use std::cell::Cell;
use std::sync::LazyLock;

use tavola_sdk::games::gonnect::{Bitboard, Gonnect, Point, Position, SIZE};
use tavola_sdk::{Color, Game, Position as _};

use super::net::{EvalChoice, Learned as _, Network};
use super::{gonnect_book, gonnect_net};
use crate::builtin::{level, Evaluate, Level, Opening, LEVELS as DEFAULT_LEVELS};

/// The evaluation Gonnect's searches use unless told otherwise: the hand-written one with the
/// shipped network's correction (+81 ± 31 Elo against the hand-written one alone, H1 after 542
/// games of an SPRT at 2 s + 20 ms).
pub const DEFAULT: EvalChoice = EvalChoice::Network;

thread_local! {
    /// The evaluation of this thread's Gonnect searches: [`DEFAULT`] unless a match sets another
    /// (each seat searches on its own thread).
    static CURRENT: Cell<EvalChoice> = const { Cell::new(DEFAULT) };
}

/// Sets the evaluation of the Gonnect searches on this thread.
pub fn set_choice(choice: EvalChoice) {
    CURRENT.with(|c| c.set(choice));
}

/// One stone less to place than the opponent, on the best axis.
const DISTANCE: i32 = 100;
/// One stone less on the other axis.
const OTHER_AXIS: i32 = 15;
/// Side to move, whose distance counts one move ahead.
const TEMPO: i32 = 30;
/// Per stone of an opponent's chain in atari on our move (we can take it), up to [`ATARI_CAP`].
const CAPTURE_THREAT: i32 = 25;
/// Per stone of our chain in atari on our move (we must save or lose it), up to [`ATARI_CAP`].
const OWN_ATARI: i32 = 15;
/// The chain size counted at most by the atari terms.
const ATARI_CAP: i32 = 6;
/// Per chain with just two liberties (either side: negative for its owner).
const SHORT_OF_LIBERTIES: i32 = 6;
/// A distance larger than any real one: the side is cut off on that axis.
const CUT_OFF: u32 = 2 * SIZE as u32;

/// The four sides: left, right, bottom, top.
static SIDES: LazyLock<[Bitboard; 4]> = LazyLock::new(|| {
    let side = |keep: fn(Point) -> bool| Point::ALL.into_iter().filter(|&p| keep(p)).collect();
    [
        side(|p| p.column() == 0),
        side(|p| p.column() == SIZE - 1),
        side(|p| p.row() == 0),
        side(|p| p.row() == SIZE - 1),
    ]
});

/// The stones `own` still needs to join `from` to `to`, crossing only `own` (free) and `empty`
/// points (one each); [`CUT_OFF`] when the opponent walls it off.
fn distance(own: Bitboard, empty: Bitboard, from: Bitboard, to: Bitboard) -> u32 {
    let mut region = (from & own).flood(own);
    if !(region & to).is_empty() {
        return 0;
    }
    for steps in 1..CUT_OFF {
        let frontier = (region.neighbours() | from) & empty & !region;
        if frontier.is_empty() {
            break;
        }
        let grown = region | frontier;
        region = grown.flood(grown | own);
        if !(region & to).is_empty() {
            return steps;
        }
    }
    CUT_OFF
}

/// The distances of `color` on its best axis and on the other one.
fn distances(position: &Position, color: Color, empty: Bitboard) -> (u32, u32) {
    let own = position.stones(color);
    let [left, right, bottom, top] = *SIDES;
    let across = distance(own, empty, left, right);
    let up = distance(own, empty, bottom, top);
    (across.min(up), across.max(up))
}

/// Calls `visit` with each chain of `me` (`true`) and then of the opponent (`false`), and the
/// number of its liberties: the walk the tactics and the network's inputs share.
#[inline]
pub(super) fn for_each_chain(
    position: &Position,
    me: Color,
    empty: Bitboard,
    mut visit: impl FnMut(bool, Bitboard, u32),
) {
    for color in [me, me.other()] {
        let stones = position.stones(color);
        let mut rest = stones;
        while let Some(point) = rest.first() {
            let chain = point.bitboard().flood(stones);
            rest &= !chain;
            visit(color == me, chain, (chain.neighbours() & empty).count());
        }
    }
}

/// The atari and liberty term of one chain, `mine` or the opponent's, for the side to move.
fn chain_tactics(mine: bool, chain: Bitboard, liberties: u32) -> i32 {
    let size = (chain.count() as i32).min(ATARI_CAP);
    let sign = if mine { 1 } else { -1 };
    match liberties {
        1 if mine => -OWN_ATARI * size,
        1 => CAPTURE_THREAT * size,
        2 => -sign * SHORT_OF_LIBERTIES,
        _ => 0,
    }
}

/// The atari and liberty terms for the side to move (opponent's chains in atari are captures we
/// can make; ours we must save).
fn tactics(position: &Position, me: Color, empty: Bitboard) -> i32 {
    let mut score = 0;
    for_each_chain(position, me, empty, |mine, chain, liberties| {
        score += chain_tactics(mine, chain, liberties);
    });
    score
}

/// Both sides' distances ([`distances`]), the side to move's first: what the hand-written
/// evaluation and the network's inputs share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Race {
    /// The side to move's distance on its better axis, and on the other.
    pub mine: (u32, u32),
    /// The opponent's.
    pub theirs: (u32, u32),
}

impl Race {
    pub(super) fn of(position: &Position, empty: Bitboard) -> Race {
        let me = position.side_to_move();
        Race {
            mine: distances(position, me, empty),
            theirs: distances(position, me.other(), empty),
        }
    }
}

/// The hand-written evaluation: the connection race (each side's Hex-style distance between
/// opposite sides, both axes), the side to move's tempo, chains in atari and chains short of
/// liberties, from the side to move's view.
pub(super) fn classic(position: &Position) -> i32 {
    let empty = position.empty_points();
    classic_of(position, empty, Race::of(position, empty))
}

/// [`classic`] with the race already measured.
fn classic_of(position: &Position, empty: Bitboard, race: Race) -> i32 {
    race_score(race) + TEMPO + tactics(position, position.side_to_move(), empty)
}

/// The race's part of the hand-written evaluation.
fn race_score(race: Race) -> i32 {
    let ((mine, mine_other), (theirs, theirs_other)) = (race.mine, race.theirs);
    DISTANCE * (theirs as i32 - mine as i32)
        + OTHER_AXIS * (theirs_other as i32 - mine_other as i32)
}

/// A network's correction added to the hand-written evaluation, the race measured and the chains
/// walked once for both.
fn corrected(network: &Network, position: &Position) -> i32 {
    let empty = position.empty_points();
    let race = Race::of(position, empty);
    let mut tactics = 0;
    let correction = network.output(|inputs| {
        for_each_chain(
            position,
            position.side_to_move(),
            empty,
            |mine, chain, liberties| {
                tactics += chain_tactics(mine, chain, liberties);
                gonnect_net::chain_inputs(mine, chain, liberties, |i| inputs.add(i));
            },
        );
        gonnect_net::race_inputs(race, |i| inputs.add(i));
    });
    race_score(race) + TEMPO + tactics + correction
}

impl Evaluate for Gonnect {
    /// Reads the shipped network (its first use would otherwise be charged to a move).
    fn prepare() {
        Self::shipped();
    }

    /// The hand-written evaluation with the shipped network's correction by default
    /// ([`DEFAULT`]), or another network's, or none.
    fn evaluate(position: &<Gonnect as Game>::Position) -> i32 {
        match CURRENT.with(Cell::get) {
            EvalChoice::Classic => classic(position),
            EvalChoice::Network => corrected(Gonnect::shipped(), position),
            EvalChoice::File(network) => corrected(network, position),
        }
    }

    /// Gonnect's own middle levels. Its search gains little from an odd ply (in 200 games at
    /// 100 ms a move, 3 plies scored 52 % against 2, and 4 plies within 1/8 of the time 51.5 %
    /// against 3), so level 5 is two plies with a little noise and level 6 two plies exact;
    /// levels 7-9 are the default ones, where the time runs out first.
    const LEVELS: [Level; 10] = {
        let mut levels = DEFAULT_LEVELS;
        levels[4] = level(2, 60, 1);
        levels[5] = level(2, 0, 16);
        levels
    };

    /// The first move and the swap from a table measured by self-play ([`gonnect_book`]).
    fn opening(
        position: &<Gonnect as Game>::Position,
        rng: &mut rand::rngs::StdRng,
    ) -> Opening<<Gonnect as Game>::Move> {
        gonnect_book::opening(position, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY_ROW: &str = ".............";

    /// A position from its 13 rows, top first, and the side to move.
    fn board(rows: [&str; 13], side: &str) -> Position {
        let text = format!("{} {side} 30", rows.join("/"));
        Gonnect::parse_position(&text, None).unwrap()
    }

    fn rows_with(lines: &[(usize, &'static str)]) -> [&'static str; 13] {
        let mut rows = [EMPTY_ROW; 13];
        for &(i, line) in lines {
            rows[i] = line;
        }
        rows
    }

    #[test]
    fn the_empty_board_is_even_but_for_the_tempo() {
        let start = Gonnect::start(None).unwrap();
        assert_eq!(classic(&start), TEMPO);
        let [left, right, bottom, top] = *SIDES;
        let empty = start.empty_points();
        assert_eq!(distance(Bitboard::EMPTY, empty, left, right), 13);
        assert_eq!(distance(Bitboard::EMPTY, empty, bottom, top), 13);
    }

    #[test]
    fn distances_count_the_stones_still_needed() {
        // Black has ten stones in a row on row 7 (B7 to L7): three more join A to N.
        let rows = rows_with(&[(6, ".XXXXXXXXXX..")]);
        let position = board(rows, "O");
        let empty = position.empty_points();
        assert_eq!(distances(&position, Color::Black, empty), (3, 12));
        // White is walled off nowhere, but Black's row costs White nothing to go around.
        assert_eq!(distances(&position, Color::White, empty).0, 13);
    }

    #[test]
    fn a_wall_cuts_the_opponent_off_on_that_axis() {
        let rows = rows_with(&[(6, "XXXXXXXXXXXX.")]);
        let position = board(rows, "X");
        let empty = position.empty_points();
        // White can only pass through N7 to go from bottom to top.
        assert_eq!(distances(&position, Color::White, empty), (13, 13));
        let rows = rows_with(&[(6, "XXXXXXXXXXXXX")]);
        let walled = Gonnect::parse_position(&format!("{} O 30", rows.join("/")), None).unwrap();
        let empty = walled.empty_points();
        assert_eq!(
            distance(walled.stones(Color::White), empty, SIDES[2], SIDES[3]),
            CUT_OFF
        );
    }

    #[test]
    fn a_longer_chain_scores_better_for_its_owner() {
        let short = board(rows_with(&[(6, "....XXXX.....")]), "X");
        let long = board(rows_with(&[(6, "...XXXXXX....")]), "X");
        assert!(classic(&long) > classic(&short));
        // And the other side to move sees the opposite (but for its own tempo).
        let other = board(rows_with(&[(6, "...XXXXXX....")]), "O");
        assert_eq!(classic(&other) - TEMPO, -(classic(&long) - TEMPO));
    }

    #[test]
    fn colours_are_symmetric() {
        let black = board(
            rows_with(&[(3, "..XX.X......."), (8, ".....OO......")]),
            "X",
        );
        let white = board(
            rows_with(&[(3, "..OO.O......."), (8, ".....XX......")]),
            "O",
        );
        assert_eq!(classic(&black), classic(&white));
        let network = Gonnect::shipped();
        assert_eq!(corrected(network, &black), corrected(network, &white));
    }

    #[test]
    fn a_chain_in_atari_is_a_capture_for_the_side_to_move() {
        // White's D7 has one liberty (E7) among Black's C7, D8, D6.
        let rows = rows_with(&[
            (5, "...X........."),
            (6, "..XO........."),
            (7, "...X........."),
        ]);
        let black_to_move = board(rows, "X");
        let empty = black_to_move.empty_points();
        assert_eq!(tactics(&black_to_move, Color::Black, empty), CAPTURE_THREAT);
        let white_to_move = board(rows, "O");
        assert_eq!(tactics(&white_to_move, Color::White, empty), -OWN_ATARI);
    }

    #[test]
    fn the_network_corrects_the_hand_written_evaluation() {
        let network = Gonnect::shipped();
        let zero = Network {
            scale: network.scale,
            ..Network::zero(
                super::super::gonnect_net::INPUTS,
                network.hidden(),
                network.activation,
            )
        };
        for position in super::super::sample_positions::<Gonnect>(40) {
            // The search's path (the race measured once) is the trainer's (base plus output).
            assert_eq!(
                corrected(network, &position),
                network.evaluate::<Gonnect>(&position)
            );
            assert_eq!(corrected(&zero, &position), classic(&position));
        }
        // The shipped network knows that being closer to connecting is better, in positions
        // that games reach: six stones each, White's the same in both, Black's in a line of six
        // or in one of four and two in the corners.
        let white = (10, "..O..O..O..O.");
        let more_white = (2, ".O.......O...");
        let short = board(
            rows_with(&[
                (0, "X...........X"),
                (6, "....XXXX....."),
                white,
                more_white,
            ]),
            "X",
        );
        let long = board(rows_with(&[(6, "...XXXXXX...."), white, more_white]), "X");
        assert!(corrected(network, &long) > corrected(network, &short));
    }

    /// Not a speed test (it asserts nothing about time): the cost per call, measured in release
    /// with `cargo test --release -p tavola --lib eval_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn eval_speed() {
        super::super::print_eval_speeds::<Gonnect>("gonnect", set_choice, DEFAULT, 200_000);
    }
}
