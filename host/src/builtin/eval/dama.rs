//! The Dama (Italian draughts) evaluations. By default the learned network of
//! [`super::dama_net`] (the README's "Learned evaluations": it beat the evaluation below by
//! +277 ± 39 Elo in an SPRT at 2 s + 20 ms).
//!
//! The classic evaluation (`builtin:dama_eval=classic`): material first, with a king worth two
//! and a half men (kings do not fly, but no man can take one); then how far each man has come (the
//! tempo count: the nearer the far row, the more a man is worth), the back row kept as a guard
//! against enemy kings while the opponent still has men to crown, men and kings in the centre, and
//! mobility. A side ahead in material gains from trading down. The capture rules themselves (compulsory, with precedence) live in the move generator, so
//! the search sees them; the evaluation is only asked about the positions it reaches.

use std::cell::Cell;

use tavola_sdk::games::dama::{Bitboard, Dama, Direction, Move, Position, Square};
use tavola_sdk::{Color, Game, Position as _};

use super::net::{EvalChoice, Learned as _};
use crate::builtin::search::Heuristics;
use crate::builtin::Evaluate;

/// The evaluation Dama's searches use unless told otherwise.
pub const DEFAULT: EvalChoice = EvalChoice::Network;

thread_local! {
    /// The evaluation of this thread's Dama searches: [`DEFAULT`] unless a match sets another
    /// (each seat searches on its own thread).
    static CURRENT: Cell<EvalChoice> = const { Cell::new(DEFAULT) };
}

/// Sets the evaluation of the Dama searches on this thread.
pub fn set_choice(choice: EvalChoice) {
    CURRENT.with(|c| c.set(choice));
}

/// A man.
const MAN: i32 = 100;
/// A king.
const KING: i32 = 250;
/// A man's bonus by how many rows it has advanced from its own back row (0 to 6; on row 7 it is
/// a king).
const ADVANCE: [i32; 8] = [0, 2, 4, 7, 11, 17, 26, 0];
/// Each man still on its own back row, while the opponent has men that could be crowned there.
const BACK_ROW: i32 = 10;
/// The two back-row squares that guard best (for White 30 and 31, mirrored for Black).
const BACK_ROW_KEY: i32 = 6;
/// A man on one of the central squares.
const CENTRE_MAN: i32 = 5;
/// A king on one of the central squares (kings on the edge move less).
const CENTRE_KING: i32 = 12;
/// Each free step of a piece.
const MOBILITY: i32 = 2;
/// Trading down when ahead: the material lead, times the pieces gone, over this.
const TRADE_DOWN: i32 = 64;

/// The rows advanced by a man of `color` on `square`.
const fn advance(square: Square, color: Color) -> usize {
    match color {
        Color::White => 7 - square.row() as usize,
        Color::Black => square.row() as usize,
    }
}

/// The central squares: rows 2 to 5 and columns 2 to 5.
const fn centre_bits() -> u32 {
    let mut bits = 0;
    let mut i = 0;
    while i < 32 {
        let square = Square::ALL[i];
        if square.row() >= 2 && square.row() <= 5 && square.column() >= 2 && square.column() <= 5 {
            bits |= square.bit();
        }
        i += 1;
    }
    bits
}

const CENTRE: u32 = centre_bits();
/// White's back row, squares 29-32, and Black's, 1-4.
const BACK_ROWS: [u32; 2] = [0xF000_0000, 0x0000_000F];
/// The key back-row squares: White's 30 and 31, Black's 2 and 3.
const BACK_KEYS: [u32; 2] = [(1 << 29) | (1 << 30), (1 << 1) | (1 << 2)];

/// The directions a man of `color` moves in.
const fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::White => [Direction::UpLeft, Direction::UpRight],
        Color::Black => [Direction::DownLeft, Direction::DownRight],
    }
}

/// The free diagonal steps of the pieces in `pieces`, in `directions`.
fn steps(pieces: Bitboard, directions: &[Direction], empty: u32) -> i32 {
    let mut count = 0;
    for square in pieces {
        for &direction in directions {
            if square
                .step(direction)
                .is_some_and(|to| empty & to.bit() != 0)
            {
                count += 1;
            }
        }
    }
    count
}

/// One side's positional score (material aside).
fn side(position: &Position, color: Color) -> i32 {
    let men = position.men(color);
    let kings = position.kings(color);
    let empty = position.empty_squares().bits();
    let mut score = 0;
    for square in men {
        score += ADVANCE[advance(square, color)];
    }
    // The back row matters while the opponent still has men to crown.
    if !position.men(color.other()).is_empty() {
        let back = men.bits() & BACK_ROWS[color.index()];
        score += BACK_ROW * back.count_ones() as i32
            + BACK_ROW_KEY * (back & BACK_KEYS[color.index()]).count_ones() as i32;
    }
    score += CENTRE_MAN * (men.bits() & CENTRE).count_ones() as i32
        + CENTRE_KING * (kings.bits() & CENTRE).count_ones() as i32;
    score += MOBILITY * (steps(men, &forward(color), empty) + steps(kings, &Direction::ALL, empty));
    score
}

/// Material: men and kings.
fn material(position: &Position, color: Color) -> i32 {
    let kings = position.count_kings(color) as i32;
    MAN * (position.count(color) as i32 - kings) + KING * kings
}

impl Evaluate for Dama {
    /// Reads the shipped network (its first use would otherwise be charged to a move).
    fn prepare() {
        Self::shipped();
    }

    /// Reverse futility pruning, 150 a ply (a man is worth about 190 to the network): +20 ± 14
    /// Elo, H1 after 595 games of an SPRT at 2 s + 20 ms; internal iterative reduction on top:
    /// +31 ± 18 Elo, H1 after 250 games (futility pruning on top of both gained nothing).
    const HEURISTICS: Heuristics = Heuristics {
        reverse_futility: Some(150),
        iir: true,
        ..Heuristics::NONE
    };

    /// The learned network by default ([`DEFAULT`]), or the hand-written evaluation.
    fn evaluate(position: &<Dama as Game>::Position) -> i32 {
        match CURRENT.with(Cell::get) {
            EvalChoice::Network => Dama::shipped().evaluate::<Dama>(position),
            EvalChoice::File(network) => network.evaluate::<Dama>(position),
            EvalChoice::Classic => classic(position),
        }
    }

    /// Captures are compulsory: when one is there every legal move is one (with the precedence
    /// already applied), and the quiescence search plays them out.
    const NOISY_FORCED: bool = true;

    /// The captures, when there are any (then they are the legal moves).
    fn noisy_moves(position: &Position, moves: &mut Vec<Move>) {
        let start = moves.len();
        position.generate_moves(moves);
        if moves[start..].first().is_none_or(|mv| !mv.is_capture()) {
            moves.truncate(start);
        }
    }
}

/// The hand-written evaluation: material (a man 100, a king 250), advancement, back-row guard,
/// centre and mobility of each side, and a bonus for trading down when ahead, from the side to
/// move's view.
fn classic(position: &Position) -> i32 {
    let me = position.side_to_move();
    let them = me.other();
    let lead = material(position, me) - material(position, them);
    let gone = 24 - (position.count(me) + position.count(them)) as i32;
    lead + lead * gone / TRADE_DOWN + side(position, me) - side(position, them)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written evaluation of `fen`.
    fn eval(fen: &str) -> i32 {
        classic(&Dama::parse_position(fen, None).unwrap())
    }

    #[test]
    fn the_start_is_even_for_either_side_to_move() {
        assert_eq!(
            eval("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
            0
        );
        assert_eq!(
            eval("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
            0
        );
    }

    #[test]
    fn mirrored_positions_score_alike_for_the_mover() {
        // Square n mirrors to 33 - n (the board turned half a turn).
        let white = eval("W:W22,27,K18:B3,9");
        let black = eval("B:W24,30:B6,11,K15");
        assert_eq!(white, black);
        assert_eq!(eval("W:W22,27:B3,9"), -eval("B:W22,27:B3,9"));
    }

    #[test]
    fn a_king_is_worth_more_than_a_man() {
        assert!(eval("W:WK18:B3") > eval("W:W18:B3"));
        assert!(eval("W:WK18:B3") - eval("W:W18:B3") >= KING - MAN - 40);
        // And a man more is a lot.
        assert!(eval("W:W18,22:B3") > eval("W:W18:B3") + 80);
    }

    #[test]
    fn advanced_men_are_worth_more() {
        assert!(eval("W:W6:B28") > eval("W:W26:B28"));
    }

    #[test]
    fn the_back_row_guards() {
        // The same material; White's men on 30 and 31 (home) or on 22 and 23.
        let home = eval("W:W30,31:B5,6");
        let out = eval("W:W26,27:B5,6");
        // The home men are less advanced, yet the guard makes up for it.
        assert!(home > out - 10, "{home} {out}");
    }

    #[test]
    fn trading_down_when_ahead_is_better() {
        let many = eval("W:W21,22,23,24,25:B1,2,3,4");
        let few = eval("W:W21,22:B1");
        assert!(few > many, "{few} {many}");
    }

    /// Not a speed test (it asserts nothing about time): the cost per call, measured in release
    /// with `cargo test --release -p tavola --lib eval_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn eval_speed() {
        super::super::print_eval_speeds::<Dama>("dama", set_choice, DEFAULT, 1_000_000);
    }
}
