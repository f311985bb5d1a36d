//! The Tablut (Ashton rules) evaluation: the king's ways out against Black's net.
//!
//! White wins by bringing the king to an edge, so most of the score is about the king's free lines:
//! an open line to an escape square on White's move is a win in one, two open lines on Black's move
//! are one more than Black can close, and squares from which the king would have a line (or a fork
//! of two) are the threats of the next move. Black's answer is a net: soldiers on the squares that
//! guard the corners' approaches, and attackers next to the king. Material counts both ways (White's
//! eight soldiers against Black's sixteen, so a white soldier is worth more). The terms are kept
//! separate per side and combined from White's view, then turned to the side to move.
//!
//! By default a learned network ([`super::tablut_net`]) adds its correction to this evaluation;
//! `builtin:tablut_eval=classic` plays without it, `builtin:tablut_network=PATH` with another.

use std::cell::Cell;

use tavola_sdk::games::tablut::{Bitboard, Move, Position, Square, Tablut};
use tavola_sdk::{Color, Game, Position as _};

use super::net::{EvalChoice, Learned as _};
use crate::builtin::search::Heuristics;
use crate::builtin::Evaluate;

/// The evaluation Tablut's searches use unless told otherwise: the hand-written one with the
/// shipped network's correction. Network 1 scored +411 ± 83 Elo against the hand-written one
/// alone (H1 after 209 games of an SPRT at 2 s + 20 ms), network 2, trained on network 1's
/// games, +191 ± 46 against network 1 (H1 after 224 games).
pub const DEFAULT: EvalChoice = EvalChoice::Network;

thread_local! {
    /// The evaluation of this thread's Tablut searches: [`DEFAULT`] unless a match sets another
    /// (each seat searches on its own thread).
    static CURRENT: Cell<EvalChoice> = const { Cell::new(DEFAULT) };
}

/// Sets the evaluation of the Tablut searches on this thread.
pub fn set_choice(choice: EvalChoice) {
    CURRENT.with(|c| c.set(choice));
}

/// A white soldier.
const WHITE_SOLDIER: i32 = 100;
/// A black soldier (Black has twice as many, and needs them to build the net).
const BLACK_SOLDIER: i32 = 60;
/// White to move with an open line: the king escapes next move.
const ESCAPE_NOW: i32 = 5_000;
/// Black to move against two open lines: Black can close only one.
const ESCAPE_FORK: i32 = 4_000;
/// Black to move against one open line: Black must spend the move closing it.
const ESCAPE_THREAT: i32 = 250;
/// White to move, and one king move makes two open lines (a fork Black cannot parry in one move).
const FORK_NEXT: i32 = 700;
/// Each square one king move away from which a line is open (a threat White can make).
const ROUTE: i32 = 35;
/// Each square the king can move to (a king with room is hard to net).
const KING_ROOM: i32 = 4;
/// Each black soldier on one of the eight squares guarding the corners' approaches.
const GUARD: i32 = 30;
/// Each attacker (black soldier or hostile camp) next to the king, away from the castle.
const ATTACKER: i32 = 45;
/// Each attacker next to the king on or beside the castle (three or four are needed there).
const ATTACKER_CASTLE: i32 = 20;
/// Per step the king stands nearer to an edge (from 4 at the castle to 0).
const KING_OUT: i32 = 15;
/// Black to move can capture the king: the game is as good as lost.
const KING_CAPTURE: i32 = 3_000;
/// White to move with the king capturable next move: White must spend the move on it.
const KING_THREAT: i32 = 120;

/// The eight squares from which Black guards the approaches of the corners: b3 c2, g2 h3, b7
/// c8, g8 h7 (columns and rows counted from 0, row 0 being row 1 at the top).
const GUARD_SQUARES: [(u8, u8); 8] = [
    (1, 2),
    (2, 1),
    (6, 1),
    (7, 2),
    (1, 6),
    (2, 7),
    (6, 7),
    (7, 6),
];

/// The four orthogonal steps as (column, row) deltas.
const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// One square's bit in raw bitboard bits.
const fn bit(column: u8, row: u8) -> u128 {
    1 << (row as u32 * 9 + column as u32)
}

const fn guard_bits() -> u128 {
    let mut bits = 0;
    let mut i = 0;
    while i < GUARD_SQUARES.len() {
        bits |= bit(GUARD_SQUARES[i].0, GUARD_SQUARES[i].1);
        i += 1;
    }
    bits
}

/// [`GUARD_SQUARES`] as bits.
const GUARDS: u128 = guard_bits();

/// The lines of the king from `(column, row)` over squares not in `blocked`: how many of the four
/// reach an edge (an escape square: camps are blocked), and the squares the king can reach.
fn king_lines(column: u8, row: u8, blocked: u128) -> (u32, u128) {
    let mut open = 0;
    let mut reach = 0;
    for (dc, dr) in STEPS {
        let (mut c, mut r) = (column as i8, row as i8);
        loop {
            let (nc, nr) = (c + dc, r + dr);
            if !(0..9).contains(&nc) || !(0..9).contains(&nr) {
                // Walked off the board from (c, r): that edge square is an escape, unless it is
                // where the king stands already (a finished game is not evaluated).
                if (c, r) != (column as i8, row as i8) {
                    open += 1;
                }
                break;
            }
            let b = bit(nc as u8, nr as u8);
            if blocked & b != 0 {
                break;
            }
            reach |= b;
            (c, r) = (nc, nr);
        }
    }
    (open, reach)
}

/// Whether a black soldier can reach the empty square `(column, row)` in one move.
fn black_reaches(column: i8, row: i8, black: u128, occupied: u128, no_entry: u128) -> bool {
    for (dc, dr) in STEPS {
        let (mut c, mut r) = (column + dc, row + dr);
        while (0..9).contains(&c) && (0..9).contains(&r) {
            let b = bit(c as u8, r as u8);
            if occupied & b != 0 {
                if black & b != 0 {
                    return true;
                }
                break;
            }
            if no_entry & b != 0 {
                break;
            }
            (c, r) = (c + dc, r + dr);
        }
    }
    false
}

/// Whether Black, to move, could capture the king on `(column, row)` with one move (by the
/// Ashton rules: four sides on the castle, the three others beside it, two opposite elsewhere,
/// a camp counting as black there).
fn king_capturable(column: u8, row: u8, black: u128, occupied: u128) -> bool {
    let camps = Bitboard::CAMPS.bits();
    let castle = Square::CASTLE.bitboard().bits();
    let no_entry = camps | castle;
    let side = |(dc, dr): (i8, i8)| {
        let (c, r) = (column as i8 + dc, row as i8 + dr);
        ((0..9).contains(&c) && (0..9).contains(&r)).then(|| (c, r, bit(c as u8, r as u8)))
    };
    let open = |c: i8, r: i8, b: u128| {
        occupied & b == 0 && no_entry & b == 0 && black_reaches(c, r, black, occupied, no_entry)
    };
    if column.abs_diff(4) + row.abs_diff(4) <= 1 {
        // On or beside the castle: every side but the castle must be black.
        let mut missing = None;
        let mut count = 0;
        for step in STEPS {
            let Some((c, r, b)) = side(step) else {
                continue;
            };
            if b == castle || black & b != 0 {
                continue;
            }
            count += 1;
            missing = Some((c, r, b));
        }
        return count == 1 && missing.is_some_and(|(c, r, b)| open(c, r, b));
    }
    for (near, far) in [(0, 1), (1, 0), (2, 3), (3, 2)] {
        let (Some((c, r, b)), Some((_, _, beyond))) = (side(STEPS[near]), side(STEPS[far])) else {
            continue;
        };
        if (black | camps) & beyond != 0 && open(c, r, b) {
            return true;
        }
    }
    false
}

/// The hand-written evaluation: the king's free lines and next-move threats, Black's corner
/// guards and attackers around the king, material (a white soldier 100, a black one 60), from the
/// side to move's view.
pub(super) fn classic(position: &Position) -> i32 {
    let white = white_view(position);
    match position.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The score from White's view, in hundredths.
fn white_view(position: &Position) -> i32 {
    let black = position.soldiers(Color::Black).bits();
    let material = WHITE_SOLDIER * position.count_soldiers(Color::White) as i32
        - BLACK_SOLDIER * position.count_soldiers(Color::Black) as i32;
    let guards = GUARD * (black & GUARDS).count_ones() as i32;
    let Some(king) = position.king() else {
        return material - guards;
    };
    let (column, row) = (king.column(), king.row());
    let camps = Bitboard::CAMPS.bits();
    let castle = Square::CASTLE.bitboard().bits();
    // The king may cross neither a camp nor the castle (it never returns to it).
    let blocked = position.occupied().bits() | camps | castle;
    let (open, reach) = king_lines(column, row, blocked);
    let white_to_move = position.side_to_move() == Color::White;

    let mut escape = 0;
    if open >= 1 && white_to_move {
        escape += ESCAPE_NOW;
    } else if open >= 2 {
        escape += ESCAPE_FORK;
    } else if open == 1 {
        escape += ESCAPE_THREAT;
    }
    // Next move's threats: where the king can go and still see an edge.
    let king_bit = king.bitboard().bits();
    let mut routes = 0;
    let mut fork = false;
    let mut rest = reach;
    while rest != 0 {
        let index = rest.trailing_zeros();
        rest &= rest - 1;
        let (c, r) = ((index % 9) as u8, (index / 9) as u8);
        let (lines, _) = king_lines(c, r, blocked & !king_bit);
        if lines > 0 {
            routes += 1;
            fork |= lines >= 2;
        }
    }
    escape += ROUTE * routes + KING_ROOM * reach.count_ones() as i32;
    if fork && white_to_move && open == 0 {
        escape += FORK_NEXT;
    }

    // Danger: who stands next to the king.
    let near_castle = column.abs_diff(4) + row.abs_diff(4) <= 1;
    let mut attackers = 0;
    for (dc, dr) in STEPS {
        let (c, r) = (column as i8 + dc, row as i8 + dr);
        if !(0..9).contains(&c) || !(0..9).contains(&r) {
            continue;
        }
        let b = bit(c as u8, r as u8);
        if black & b != 0 || (camps & b != 0 && !near_castle) {
            attackers += 1;
        }
    }
    let mut danger = attackers
        * if near_castle {
            ATTACKER_CASTLE
        } else {
            ATTACKER
        };
    if king_capturable(column, row, black, position.occupied().bits()) {
        if !white_to_move {
            // The king is taken before it can use any line.
            return material - guards - danger - KING_CAPTURE;
        }
        danger += KING_THREAT;
    }
    let to_edge = column.min(8 - column).min(row).min(8 - row) as i32;
    let out = KING_OUT * (4 - to_edge);

    material + escape + out - guards - danger
}

impl Evaluate for Tablut {
    /// Reads the shipped network (its first use would otherwise be charged to a move).
    fn prepare() {
        Self::shipped();
    }

    /// Reverse futility pruning, 100 a ply (a white soldier): +52 ± 25 Elo, H1 after 615 games
    /// of an SPRT at 2 s + 20 ms.
    const HEURISTICS: Heuristics = Heuristics {
        reverse_futility: Some(100),
        ..Heuristics::NONE
    };

    /// The hand-written evaluation with the shipped network's correction by default
    /// ([`DEFAULT`]), or another network's, or none.
    fn evaluate(position: &<Tablut as Game>::Position) -> i32 {
        match CURRENT.with(Cell::get) {
            EvalChoice::Classic => classic(position),
            EvalChoice::Network => Tablut::shipped().evaluate::<Tablut>(position),
            EvalChoice::File(network) => network.evaluate::<Tablut>(position),
        }
    }

    /// The moves that capture, played out by the quiescence search.
    fn noisy_moves(position: &Position, moves: &mut Vec<Move>) {
        let start = moves.len();
        position.generate_moves(moves);
        let mut kept = start;
        for i in start..moves.len() {
            if !position.captures(moves[i]).is_empty() {
                moves[kept] = moves[i];
                kept += 1;
            }
        }
        moves.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::games::tablut::Cell;

    use super::*;

    fn parse(text: &str) -> Position {
        Tablut::parse_position(text, None).unwrap()
    }

    fn eval(text: &str) -> i32 {
        classic(&parse(text))
    }

    /// A position with the king on `king`, black soldiers on `black`, white ones on `white`.
    fn board(king: &str, white: &[&str], black: &[&str], side: Color) -> Position {
        let mut position = Position::empty();
        let mut put = |square: &str, cell| position.set_cell(square.parse().unwrap(), cell);
        put(king, Cell::King);
        for &square in white {
            put(square, Cell::White);
        }
        for &square in black {
            put(square, Cell::Black);
        }
        position.set_side_to_move(side);
        position
    }

    /// The start position with `side` to move.
    fn start(side: &str) -> String {
        format!(
            "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - {side}"
        )
    }

    #[test]
    fn the_sides_see_opposite_scores() {
        let white = eval(&start("W"));
        let black = eval(&start("B"));
        assert_eq!(white, -black);
        // White's material (8 x 100) is worth a little less than Black's 16 x 60; nothing is open.
        assert!(white.abs() < 400, "{white}");
    }

    #[test]
    fn an_open_line_on_whites_move_is_nearly_won() {
        // The king on c3 sees every edge: a3, c1, i3, c9.
        let open = board("c3", &[], &["e9", "e1"], Color::White);
        assert!(classic(&open) >= ESCAPE_NOW);
        // Black to move against two lines or more is as lost.
        let black = board("c3", &[], &["e9", "e1"], Color::Black);
        assert!(classic(&black) <= -ESCAPE_FORK);
    }

    #[test]
    fn a_blocked_line_scores_less_for_white_than_an_open_one() {
        // Closed on three sides (b3, c2, d3); the line down to c9 is open or closed by c8.
        let one = board("c3", &[], &["b3", "c2", "d3"], Color::Black);
        let none = board("c3", &[], &["b3", "c2", "d3", "c8"], Color::Black);
        // From Black's view: one open line is worse than none (the extra black soldier of the
        // second is worth far less than the line).
        let (one, none) = (classic(&one), classic(&none));
        assert!(one + 150 < none, "{one} {none}");
        assert!(one <= -ESCAPE_THREAT + 3 * BLACK_SOLDIER, "{one}");
    }

    #[test]
    fn a_fork_next_move_is_a_big_threat() {
        // The king on c4 has no open line (c2, c5, f4 and the camps a4 and i4 close them), but
        // from c3 it would see both a3 and i3; a black soldier on b3 takes one of them away.
        let fork = board("c4", &[], &["c2", "c5", "f4"], Color::White);
        let quiet = board("c4", &[], &["c2", "c5", "f4", "b3"], Color::White);
        let (fork, quiet) = (classic(&fork), classic(&quiet));
        assert!(fork > quiet + FORK_NEXT - 100, "{fork} {quiet}");
    }

    #[test]
    fn attackers_next_to_the_king_favour_black() {
        let free = board("c7", &[], &["g3"], Color::White);
        let pressed = board("c7", &[], &["b7"], Color::White);
        let (free, pressed) = (classic(&free), classic(&pressed));
        assert!(pressed < free, "{pressed} {free}");
    }

    #[test]
    fn a_king_black_can_capture_is_nearly_lost() {
        // The king on c7 with black on b7: black g7 slides to d7 and captures.
        let lost = board("c7", &[], &["b7", "g7"], Color::Black);
        let safe = board("c7", &[], &["b7", "g8"], Color::Black);
        assert!(king_capturable(
            2,
            6,
            lost.soldiers(Color::Black).bits(),
            lost.occupied().bits()
        ));
        assert!(!king_capturable(
            2,
            6,
            safe.soldiers(Color::Black).bits(),
            safe.occupied().bits()
        ));
        let (l, s) = (classic(&lost), classic(&safe));
        assert!(l > s + KING_CAPTURE / 2, "{l} {s}");
        // A camp is black's too: the king on b4 beside the camp a4, black c9 slides to c4.
        let camp = board("b3", &[], &["a9"], Color::Black);
        assert!(!king_capturable(
            1,
            2,
            camp.soldiers(Color::Black).bits(),
            camp.occupied().bits()
        ));
        let camp = board("b4", &[], &["c9"], Color::Black);
        assert!(king_capturable(
            1,
            3,
            camp.soldiers(Color::Black).bits(),
            camp.occupied().bits()
        ));
        // In the castle, three black sides and the fourth reachable.
        let castle = board("e5", &[], &["d5", "f5", "e4", "h6"], Color::Black);
        assert!(king_capturable(
            4,
            4,
            castle.soldiers(Color::Black).bits(),
            castle.occupied().bits()
        ));
        let castle = board("e5", &[], &["d5", "f5", "h6"], Color::Black);
        assert!(!king_capturable(
            4,
            4,
            castle.soldiers(Color::Black).bits(),
            castle.occupied().bits()
        ));
    }

    #[test]
    fn corner_guards_favour_black() {
        let guarded = board("e5", &[], &["b3", "h7"], Color::White);
        let loose = board("e5", &[], &["b4", "h6"], Color::White);
        // Both black pairs leave the king closed in the castle.
        assert!(classic(&guarded) < classic(&loose));
    }

    #[test]
    fn material_counts() {
        let more = start("W");
        let fewer = more.replacen("OOOOWOOOO", "OOOOOOOOO", 1);
        assert!(eval(&fewer) < eval(&more));
        let black_fewer = more.replacen("OOOBBBOOO", "OOOBOBOOO", 1);
        assert!(eval(&black_fewer) > eval(&more));
    }

    #[test]
    fn the_network_corrects_the_hand_written_evaluation() {
        use super::super::net::Network;
        let network = Tablut::shipped();
        let zero = Network {
            scale: network.scale,
            ..Network::zero(
                super::super::tablut_net::INPUTS,
                network.hidden(),
                network.activation,
            )
        };
        for position in super::super::sample_positions::<Tablut>(40) {
            assert_eq!(zero.evaluate::<Tablut>(&position), classic(&position));
            set_choice(EvalChoice::Network);
            assert_eq!(
                Tablut::evaluate(&position),
                network.evaluate::<Tablut>(&position)
            );
            set_choice(EvalChoice::Classic);
            assert_eq!(Tablut::evaluate(&position), classic(&position));
        }
        set_choice(DEFAULT);
        // The shipped correction keeps what the hand-written terms are sure of: an open line on
        // White's move is nearly won, a king Black can take on its move nearly lost, and a
        // blocked line is worse for White than an open one.
        let corrected = |position: &Position| network.evaluate::<Tablut>(position);
        let open = board("c3", &[], &["e9", "e1"], Color::White);
        assert!(corrected(&open) >= ESCAPE_NOW / 2, "{}", corrected(&open));
        let lost = board("c7", &[], &["b7", "g7"], Color::Black);
        assert!(corrected(&lost) >= KING_CAPTURE / 2, "{}", corrected(&lost));
        let one = board("c3", &[], &["b3", "c2", "d3"], Color::Black);
        let none = board("c3", &[], &["b3", "c2", "d3", "c8"], Color::Black);
        assert!(corrected(&one) < corrected(&none));
    }

    /// Not a speed test (it asserts nothing about time): the cost per call, measured in release
    /// with `cargo test --release -p tavola --lib eval_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn eval_speed() {
        super::super::print_eval_speeds::<Tablut>("tablut", set_choice, DEFAULT, 400_000);
    }
}
