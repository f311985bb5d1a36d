//! Gonnect's first move and swap, from a table measured by self-play.
//!
//! With the swap, the first move should be neither strong (White takes it) nor weak (White
//! leaves it): the best is the one after which Black's chances are nearest to even. A search
//! cannot see that far: from the empty board it gave away a corner, because any stronger stone
//! would be taken. So the bot plays from a table instead: for each of the 28 classes of first
//! moves (the board's eight turns and reflections leave the rules unchanged), Black's score when
//! White plays on instead of swapping, measured by `scripts/gonnect-first-moves.py`: the built-in
//! bot against itself at 3 000 and 5 000 nodes a move, 7 160 games from positions after the
//! first stone with one random stone more for each side (each such pair also the other way
//! round, so that neither side gains by it on average), 256 games a class.
//!
//! Black scored 0.542 over all of them; the classes' scores spread by 0.034 (standard
//! deviation), of which the games' own noise explains all but 0.014. So each class's score is
//! drawn towards the mean by as much as its measure is noise (empirical Bayes), and the table
//! holds those: every first stone leaves Black above even (0.528 to 0.553), so White swaps them
//! all, and Black opens with the weakest, a point in the middle of a side. The four points of
//! each corner are left out of Black's choice: people read a corner opening as a blunder, and
//! the measures do not tell them from the sides'.
//!
//! Black opens with a point of the chosen class (one of its images at random); White swaps when
//! Black's score after the first stone is above one half, and otherwise searches without the
//! swap ([`Opening::Avoid`]).

use rand::rngs::StdRng;
use rand::Rng;
use tavola_sdk::games::gonnect::{Move, Point, Position, SIZE};
use tavola_sdk::{Color, Position as _};

use crate::builtin::Opening;

/// Black's score, in thousandths, after a first stone on `(column, row)` (0-based from `A1`) and
/// on its images, when White does not swap, drawn towards the mean of all (see the module's
/// documentation); one entry for each class, `column <= row <= 6`. The lines
/// `scripts/gonnect-first-moves.py table` prints, the measured score in each comment.
pub const FIRST_MOVES: [(u8, u8, u16); 28] = [
    (0, 0, 540), // A1: 0.531 in 256 games
    (0, 1, 528), // A2: 0.457 in 254 games
    (1, 1, 538), // B2: 0.520 in 256 games
    (0, 2, 537), // A3: 0.512 in 256 games
    (1, 2, 538), // B3: 0.516 in 256 games
    (2, 2, 546), // C3: 0.562 in 256 games
    (0, 3, 542), // A4: 0.543 in 256 games
    (1, 3, 543), // B4: 0.547 in 256 games
    (2, 3, 539), // C4: 0.524 in 254 games
    (3, 3, 549), // D4: 0.586 in 256 games
    (0, 4, 533), // A5: 0.484 in 256 games
    (1, 4, 537), // B5: 0.508 in 254 games
    (2, 4, 538), // C5: 0.520 in 256 games
    (3, 4, 553), // D5: 0.605 in 256 games
    (4, 4, 551), // E5: 0.594 in 256 games
    (0, 5, 549), // A6: 0.586 in 256 games
    (1, 5, 542), // B6: 0.543 in 254 games
    (2, 5, 547), // C6: 0.570 in 256 games
    (3, 5, 540), // D6: 0.531 in 256 games
    (4, 5, 542), // E6: 0.539 in 256 games
    (5, 5, 535), // F6: 0.496 in 256 games
    (0, 6, 542), // A7: 0.543 in 256 games
    (1, 6, 547), // B7: 0.570 in 256 games
    (2, 6, 549), // C7: 0.586 in 256 games
    (3, 6, 545), // D7: 0.559 in 256 games
    (4, 6, 546), // E7: 0.562 in 256 games
    (5, 6, 544), // F7: 0.555 in 256 games
    (6, 6, 540), // G7: 0.531 in 256 games
];

/// The class of `point`: the image with `column <= row <= 6`.
fn class(point: Point) -> (u8, u8) {
    let last = SIZE - 1;
    let x = point.column().min(last - point.column());
    let y = point.row().min(last - point.row());
    (x.min(y), x.max(y))
}

/// Black's score, in thousandths, after a first stone on `point` ([`FIRST_MOVES`]).
#[must_use]
pub fn black_score(point: Point) -> u16 {
    let (column, row) = class(point);
    FIRST_MOVES
        .iter()
        .find(|&&(c, r, _)| (c, r) == (column, row))
        .map_or(500, |&(_, _, score)| score)
}

/// The classes of a corner's four points (`A1`, `A2`, `B1`, `B2` and their images), where the
/// bot never opens.
const CORNER: [(u8, u8); 3] = [(0, 0), (0, 1), (1, 1)];

/// The class of first moves nearest to even for Black outside the corners (the first such in
/// [`FIRST_MOVES`]).
fn fairest() -> (u8, u8, u16) {
    *FIRST_MOVES
        .iter()
        .filter(|&&(column, row, _)| !CORNER.contains(&(column, row)))
        .min_by_key(|&&(_, _, score)| score.abs_diff(500))
        .expect("the table has 28 classes")
}

/// Black's first move and White's swap, from [`FIRST_MOVES`]; the search decides elsewhere.
pub fn opening(position: &Position, rng: &mut StdRng) -> Opening<Move> {
    let (black, white) = (position.count(Color::Black), position.count(Color::White));
    if position.ply() == 0 && position.side_to_move() == Color::Black && black + white == 0 {
        let (column, row, score) = fairest();
        let points: Vec<Point> = Point::ALL
            .into_iter()
            .filter(|&p| class(p) == (column, row))
            .collect();
        let point = points[rng.gen_range(0..points.len())];
        return Opening::Play {
            mv: Move::Place(point),
            why: format!(
                "first-move table: Black scores {} after {point}, the nearest to even",
                thousandths(score)
            ),
        };
    }
    if white == 0 && black == 1 && position.is_legal(Move::Swap) {
        let Some(stone) = position.stones(Color::Black).first() else {
            return Opening::Search;
        };
        let score = black_score(stone);
        let why = |verdict| {
            format!(
                "first-move table: Black scores {} after {stone}: {verdict}",
                thousandths(score)
            )
        };
        return if score > 500 {
            Opening::Play {
                mv: Move::Swap,
                why: why("swap"),
            }
        } else {
            Opening::Avoid {
                mv: Move::Swap,
                why: why("no swap"),
            }
        };
    }
    Opening::Search
}

/// Thousandths as a fraction: `0.512`.
fn thousandths(score: u16) -> String {
    format!("{}.{:03}", score / 1000, score % 1000)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use tavola_sdk::games::gonnect::Gonnect;
    use tavola_sdk::Game;

    use super::*;

    fn position(text: &str) -> Position {
        Gonnect::parse_position(text, None).unwrap()
    }

    fn after(moves: &[&str]) -> Position {
        let mut position = Gonnect::start(None).unwrap();
        for text in moves {
            let mv = position.parse_move(text).unwrap();
            position.play_unchecked(mv);
        }
        position
    }

    #[test]
    fn the_table_has_one_entry_for_each_class() {
        let mut seen = std::collections::HashSet::new();
        for &(column, row, score) in &FIRST_MOVES {
            assert!(column <= row && row <= 6, "({column}, {row})");
            assert!(score <= 1000);
            assert!(seen.insert((column, row)), "({column}, {row}) twice");
        }
        assert_eq!(seen.len(), 28);
        // Every point falls in one of them, and images share their class.
        for point in Point::ALL {
            let (column, row) = class(point);
            assert!(seen.contains(&(column, row)), "{point}");
            let mirrored = Point::from_coords(12 - point.column(), point.row()).unwrap();
            let turned = Point::from_coords(point.row(), point.column()).unwrap();
            assert_eq!(class(mirrored), class(point));
            assert_eq!(class(turned), class(point));
        }
    }

    #[test]
    fn black_opens_with_the_fairest_class_and_never_in_a_corner() {
        let (column, row, _) = fairest();
        let mut rng = StdRng::seed_from_u64(3);
        let mut opened = std::collections::HashSet::new();
        for _ in 0..64 {
            let Opening::Play {
                mv: Move::Place(point),
                why,
            } = opening(&after(&[]), &mut rng)
            else {
                panic!("no first move from the table");
            };
            assert_eq!(class(point), (column, row));
            // Two points or more from the nearer side on one axis at least.
            let x = point.column().min(12 - point.column());
            let y = point.row().min(12 - point.row());
            assert!(x >= 2 || y >= 2, "a corner: {point}");
            assert!(why.contains(&point.to_string()), "{why}");
            opened.insert(point);
        }
        // Its images, not always the same point.
        assert!(opened.len() > 1, "{opened:?}");
    }

    #[test]
    fn white_swaps_exactly_the_first_stones_that_favour_black() {
        let mut rng = StdRng::seed_from_u64(3);
        for point in Point::ALL {
            let position = after(&[&point.to_string()]);
            let score = black_score(point);
            match opening(&position, &mut rng) {
                Opening::Play { mv: Move::Swap, .. } => assert!(score > 500, "{point}"),
                Opening::Avoid { mv: Move::Swap, .. } => assert!(score <= 500, "{point}"),
                other => panic!("{point}: {other:?}"),
            }
        }
    }

    #[test]
    fn other_positions_are_left_to_the_search() {
        let mut rng = StdRng::seed_from_u64(3);
        for position in [
            after(&["G7", "swap"]),
            after(&["G7", "A1"]),
            after(&["G7", "A1", "B2"]),
            // One black stone at move 4: no swap to decide.
            position("............./............./............./............./............./............./......X....../............./............./............./............./............./............. O 4"),
            // A custom start with stones on it.
            position("............./............./............./............./............./............./......X....../............./............./............./............./............./......O...... X 1"),
        ] {
            assert_eq!(opening(&position, &mut rng), Opening::Search, "{position}");
        }
    }
}
