//! Correctness evidence: a naive model of the rules written separately from the engine (a grid of
//! letters, loops over the board, no bitboards, states compared whole), cross-checked against the
//! engine over many random positions and games; the start perft; the generic invariant harness.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::movegen::START_PERFT;
use super::{Cell, Move, Position, Square, Tablut};
use crate::{Color, EndReason, Outcome, Position as _};

/// The camps (the server's `citadels`), by name.
const CITADELS: [&str; 16] = [
    "a4", "a5", "a6", "b5", "d1", "e1", "f1", "e2", "i4", "i5", "i6", "h5", "d9", "e9", "f9", "e8",
];
/// The camp centres.
const CENTRES: [&str; 4] = ["a5", "e1", "i5", "e9"];

/// The server's name of the square on `row` and `column` (`getBox`).
fn name(row: usize, column: usize) -> String {
    format!("{}{}", char::from(b'a' + column as u8), row + 1)
}

/// Whether the square on `row` and `column` is a camp (the names, looked up once).
fn is_citadel(row: usize, column: usize) -> bool {
    static GRID: std::sync::OnceLock<[[bool; 9]; 9]> = std::sync::OnceLock::new();
    GRID.get_or_init(|| {
        let mut grid = [[false; 9]; 9];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = CITADELS.contains(&name(r, c).as_str());
            }
        }
        grid
    })[row][column]
}

/// The rules as the reference server applies them to a `[row][column]` grid of `O W B K T`.
#[derive(Clone, Debug)]
struct Naive {
    board: [[u8; 9]; 9],
    turn: u8,
    /// Every state reached since the last capture, whole.
    draws: Vec<([[u8; 9]; 9], u8)>,
    result: Option<Outcome>,
}

impl Naive {
    /// The model of `position`, which must have no history.
    fn of(position: &Position) -> Naive {
        assert_eq!(position.states_since_capture(), 0);
        let mut board = [[b'O'; 9]; 9];
        for sq in Square::ALL {
            board[sq.row() as usize][sq.column() as usize] = match position.cell(sq) {
                Cell::Empty if sq.is_castle() => b'T',
                cell => cell.symbol() as u8,
            };
        }
        let turn = if position.side_to_move() == Color::White {
            b'W'
        } else {
            b'B'
        };
        Naive {
            board,
            turn,
            draws: Vec::new(),
            result: None,
        }
    }

    /// The position text of the model's board and turn.
    fn text(&self) -> String {
        let rows: Vec<String> = self
            .board
            .iter()
            .map(|row| row.iter().map(|&c| char::from(c)).collect())
            .collect();
        format!("{} - {}", rows.join("/"), char::from(self.turn))
    }

    /// `checkMove`'s tests, in its order.
    fn is_legal(&self, (rf, cf): (usize, usize), (rt, ct): (usize, usize)) -> bool {
        let b = &self.board;
        if self.finished() || b[rt][ct] == b'T' || b[rt][ct] != b'O' {
            return false;
        }
        let (from_camp, to_camp) = (is_citadel(rf, cf), is_citadel(rt, ct));
        if to_camp && !from_camp {
            return false;
        }
        if to_camp && from_camp {
            let distance = if rf == rt {
                cf.abs_diff(ct)
            } else {
                rf.abs_diff(rt)
            };
            if distance > 5 {
                return false;
            }
        }
        if (rf, cf) == (rt, ct) {
            return false;
        }
        let mine = match self.turn {
            b'W' => b[rf][cf] == b'W' || b[rf][cf] == b'K',
            _ => b[rf][cf] == b'B',
        };
        if !mine || (rf != rt && cf != ct) {
            return false;
        }
        // Every square after the origin up to the destination: empty and, from outside a camp,
        // no camp.
        let path: Vec<(usize, usize)> = if rf == rt {
            let range = if cf < ct { cf + 1..=ct } else { ct..=cf - 1 };
            range.map(|c| (rf, c)).collect()
        } else {
            let range = if rf < rt { rf + 1..=rt } else { rt..=rf - 1 };
            range.map(|r| (r, cf)).collect()
        };
        path.iter()
            .all(|&(r, c)| b[r][c] == b'O' && (from_camp || !is_citadel(r, c)))
    }

    fn king(&self) -> Option<(usize, usize)> {
        (0..81)
            .map(|i| (i / 9, i % 9))
            .find(|&(r, c)| self.board[r][c] == b'K')
    }

    fn finished(&self) -> bool {
        self.result.is_some() || self.king().is_none()
    }

    /// Every legal move, by brute force over every pair of squares on a row or a column.
    fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in 0..81 {
            for to in 0..81 {
                let (f, t) = ((from / 9, from % 9), (to / 9, to % 9));
                if (f.0 == t.0 || f.1 == t.1) && self.is_legal(f, t) {
                    moves.push(Move::new(Square::ALL[from], Square::ALL[to]));
                }
            }
        }
        moves
    }

    /// The side to move.
    fn mover(&self) -> Color {
        if self.turn == b'W' {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The outcome decided without looking at the moves: the last move's result or a missing
    /// king.
    fn outcome_without_moves(&self) -> Option<Outcome> {
        match self.king() {
            _ if self.result.is_some() => self.result,
            None => Some(Outcome::win(Color::Black, EndReason::KingCaptured)),
            _ => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_without_moves().or_else(|| {
            self.moves()
                .is_empty()
                .then(|| Outcome::win(self.mover().other(), EndReason::NoLegalMove))
        })
    }

    /// `movePawn`, the captures and the draw test; returns the captured squares.
    fn play(&mut self, mv: Move) -> Vec<Square> {
        let (rf, cf) = (mv.from.row() as usize, mv.from.column() as usize);
        let (rt, ct) = (mv.to.row() as usize, mv.to.column() as usize);
        let pawn = self.board[rf][cf];
        self.board[rf][cf] = if (rf, cf) == (4, 4) { b'T' } else { b'O' };
        self.board[rt][ct] = pawn;
        let mover = self.turn;
        self.turn = if mover == b'W' { b'B' } else { b'W' };
        let mut captured = Vec::new();
        let at = |r: isize, c: isize| -> Option<(usize, usize)> {
            ((0..9).contains(&r) && (0..9).contains(&c)).then_some((r as usize, c as usize))
        };
        for (dr, dc) in [(0isize, 1isize), (0, -1), (-1, 0), (1, 0)] {
            let (r, c) = (rt as isize, ct as isize);
            let (Some((nr, nc)), Some((br, bc))) = (at(r + dr, c + dc), at(r + 2 * dr, c + 2 * dc))
            else {
                continue;
            };
            let (next, beyond) = (self.board[nr][nc], self.board[br][bc]);
            let beyond_name = name(br, bc);
            if mover == b'W' {
                let camp_anvil = is_citadel(br, bc) && !CENTRES.contains(&beyond_name.as_str());
                if next == b'B' && (matches!(beyond, b'W' | b'T' | b'K') || camp_anvil) {
                    self.board[nr][nc] = b'O';
                    captured.push(Square::ALL[nr * 9 + nc]);
                }
            } else if next == b'W'
                && (beyond == b'B' || beyond == b'T' || is_citadel(br, bc) || beyond_name == "e5")
            {
                self.board[nr][nc] = b'O';
                captured.push(Square::ALL[nr * 9 + nc]);
            } else if next == b'K' {
                let black = |name: &str| {
                    let sq: Square = name.parse().unwrap();
                    self.board[sq.row() as usize][sq.column() as usize] == b'B'
                };
                let taken = match name(nr, nc).as_str() {
                    "e5" => ["e4", "d5", "f5", "e6"].into_iter().all(black),
                    "e4" => ["e3", "d4", "f4"].into_iter().all(black),
                    "d5" => ["c5", "d4", "d6"].into_iter().all(black),
                    "f5" => ["g5", "f4", "f6"].into_iter().all(black),
                    "e6" => ["e7", "d6", "f6"].into_iter().all(black),
                    _ => beyond == b'B' || is_citadel(br, bc),
                };
                if taken {
                    self.result = Some(Outcome::win(Color::Black, EndReason::KingCaptured));
                }
            }
        }
        if mover == b'W' && pawn == b'K' && (rt == 0 || ct == 0 || rt == 8 || ct == 8) {
            self.result = Some(Outcome::win(Color::White, EndReason::KingEscaped));
        }
        if !captured.is_empty() {
            self.draws.clear();
        }
        if self.result.is_none() {
            let state = (self.board, self.turn);
            if self.draws.contains(&state) {
                self.result = Some(Outcome::draw(EndReason::Repetition));
            } else {
                self.draws.push(state);
            }
        }
        captured.sort();
        captured
    }
}

/// Naive perft: brute-force move lists, whole-state repetition lists.
fn naive_perft(naive: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = naive.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = naive.clone();
            child.play(mv);
            naive_perft(&child, depth - 1)
        })
        .sum()
}

/// A random board: soldiers scattered (never on the castle), the king often next to the castle
/// or in a crowd of black soldiers, the side to move at random.
fn random_position(rng: &mut StdRng) -> Position {
    let mut position = Position::empty();
    let (black, white) = (rng.gen_range(0.05..0.35), rng.gen_range(0.0..0.2));
    for sq in Square::ALL {
        let roll: f64 = rng.gen();
        if sq.is_castle() {
            continue;
        } else if roll < black {
            position.set_cell(sq, Cell::Black);
        } else if roll < black + white {
            position.set_cell(sq, Cell::White);
        }
    }
    let king = match rng.gen_range(0..10) {
        0..=2 => "e5",
        3..=5 => ["e4", "d5", "f5", "e6"][rng.gen_range(0..4)],
        6..=8 => ["c3", "d2", "g6", "b7", "h3", "c5", "e3", "e7", "g4"][rng.gen_range(0..9)],
        // On the edge (it has not escaped: that is decided by a move) or even in a camp.
        _ => ["a3", "c9", "i2", "b1", "a4", "h5"][rng.gen_range(0..6)],
    };
    position.set_cell(king.parse().unwrap(), Cell::King);
    let side = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    position.set_side_to_move(side);
    position
}

/// Compares the engine and the model on `position` (no history): the move lists, the outcome,
/// and the board, captures and outcome after every legal move.
pub(super) fn cross_check(position: &Position) {
    let naive = Naive::of(position);
    assert_eq!(naive.text(), position.to_string());
    let mut moves = position.legal_moves();
    moves.sort_by_key(|m| (m.from, m.to));
    assert_eq!(moves, naive.moves(), "move lists of {position}");
    assert_eq!(position.outcome(), naive.outcome(), "outcome of {position}");
    for mv in moves {
        let (mut engine, mut model) = (position.clone(), naive.clone());
        let captured: Vec<Square> = engine.captures(mv).into_iter().collect();
        let king_captured = engine.captures_king(mv);
        engine.play(mv).unwrap();
        assert_eq!(captured, model.play(mv), "captures of {mv} in {position}");
        let model_king = model
            .result
            .is_some_and(|o| o.reason == EndReason::KingCaptured);
        assert_eq!(
            king_captured, model_king,
            "king capture by {mv} in {position}"
        );
        assert_eq!(engine.to_string(), model.text(), "{mv} in {position}");
        assert_eq!(engine.result, model.result, "{mv} in {position}");
    }
}

/// Cross-checks the start and `count` random positions.
fn cross_check_random_positions(count: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    cross_check(&Position::start());
    for _ in 0..count {
        cross_check(&random_position(&mut rng));
    }
}

/// Plays `games` random games (every other one from a random position) in the engine and the
/// model side by side, comparing moves, outcomes, boards and repetition lists at every ply.
fn cross_check_random_games(games: usize, seed: u64) -> std::collections::HashSet<EndReason> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut reasons = std::collections::HashSet::new();
    for game in 0..games {
        let start = if game % 2 == 0 {
            Position::start()
        } else {
            random_position(&mut rng)
        };
        let (mut engine, mut model) = (start.clone(), Naive::of(&start));
        loop {
            let mut moves = engine.legal_moves();
            moves.sort_by_key(|m| (m.from, m.to));
            let model_moves = model.moves();
            assert_eq!(moves, model_moves, "moves of {engine:?}");
            let outcome = engine.outcome();
            let model_outcome = match model.outcome_without_moves() {
                None if model_moves.is_empty() => {
                    Some(Outcome::win(model.mover().other(), EndReason::NoLegalMove))
                }
                decided => decided,
            };
            assert_eq!(outcome, model_outcome, "{engine:?}");
            assert_eq!(engine.states_since_capture(), model.draws.len());
            // Perft's shortcut (the moves after a move, counted without playing it) agrees with
            // playing it, repetitions of this game's history included.
            for &mv in &moves {
                let mut child = engine.clone();
                child.play_unchecked(mv);
                assert_eq!(
                    engine.count_moves_after(mv),
                    child.count_moves(),
                    "{mv} in {engine:?}"
                );
            }
            let Some(&mv) = moves.choose(&mut rng) else {
                reasons.extend(outcome.map(|o| o.reason));
                break;
            };
            engine.play(mv).unwrap();
            model.play(mv);
            assert_eq!(engine.to_string(), model.text());
        }
    }
    reasons
}

#[test]
fn naive_model_agrees_on_random_positions() {
    cross_check_random_positions(250, 11);
}

#[test]
fn naive_model_agrees_along_random_games() {
    let reasons = cross_check_random_games(12, 5);
    assert!(reasons.contains(&EndReason::KingEscaped), "{reasons:?}");
    assert!(reasons.contains(&EndReason::KingCaptured), "{reasons:?}");
}

/// The cross-checks at scale: run in release.
#[test]
#[ignore = "long cross-check; run in release"]
fn naive_model_agrees_at_scale() {
    cross_check_random_positions(50_000, 12);
    let reasons = cross_check_random_games(5_000, 6);
    for reason in [
        EndReason::KingEscaped,
        EndReason::KingCaptured,
        EndReason::Repetition,
        EndReason::NoLegalMove,
    ] {
        assert!(reasons.contains(&reason), "{reason:?} never seen");
    }
}

#[test]
fn naive_perft_agrees() {
    let naive = Naive::of(&Position::start());
    for (depth, &expected) in (1..=2).zip(&START_PERFT) {
        assert_eq!(naive_perft(&naive, depth), expected, "depth {depth}");
    }
}

/// Depths 3 and 4 (about 19 million leaves): run in release.
#[test]
#[ignore = "slow naive perft; run in release"]
fn naive_perft_agrees_deep() {
    let naive = Naive::of(&Position::start());
    for (depth, &expected) in (1..=4).zip(&START_PERFT).skip(2) {
        assert_eq!(naive_perft(&naive, depth), expected, "depth {depth}");
    }
}

impl crate::invariants::Harness for Tablut {
    // Random play ends games quickly (the king soon reaches an edge or is captured), but no
    // bound holds in principle: only a repeated state since the last capture ends a capture-free
    // stretch, and there are astronomically many states. This bound is far above the longest
    // random game seen (578 plies in 100 000 games: see `random_games_are_short`).
    const MAX_PLIES: usize = 10_000;

    /// Every (from, to) pair, diagonal and null ones included.
    fn move_space(_position: &Position) -> Vec<Move> {
        static SPACE: std::sync::OnceLock<Vec<Move>> = std::sync::OnceLock::new();
        SPACE
            .get_or_init(|| {
                let pairs = Square::ALL
                    .iter()
                    .flat_map(|&from| Square::ALL.map(|to| (from, to)));
                pairs.map(|(from, to)| Move::new(from, to)).collect()
            })
            .clone()
    }

    fn random_start(rng: &mut StdRng, _variant: &str) -> Position {
        if rng.gen_bool(0.5) {
            Position::start()
        } else {
            random_position(rng)
        }
    }
}

#[test]
fn equal_positions_hash_equal_and_the_side_to_move_counts() {
    crate::invariants::check_hash_keys::<Tablut>(
        "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W",
        "c5-c3 a4-b4 g5-g3 i4-h4",
        "g5-g3 i4-h4 c5-c3 a4-b4",
        "OOOBBBOOO/OOOOBOOOO/OOWOWOWOO/OBOOWOOBO/BBOWKWOBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - B",
    );
}

#[test]
fn the_generic_harness_holds() {
    crate::invariants::check_random_playouts::<Tablut>(2000, 7, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_handled(text in "\\PC{0,40}|[OWBKT/ -]{0,100}|([OOOWBT]{9}/){4}[OOOOK]{9}/([OOOWB]{9}/){3}[OWB]{9} - [WB]") {
        crate::invariants::check_text_input::<Tablut>(&text);
    }
}

/// Random games from the start: how long they last and how they end (run in release with
/// `--nocapture` to see the figures behind `MAX_PLIES`).
#[test]
#[ignore = "statistics; run in release"]
fn random_games_are_short() {
    let mut rng = StdRng::seed_from_u64(99);
    let mut moves = Vec::new();
    let (mut longest, mut total) = (0, 0);
    let mut reasons = std::collections::HashMap::new();
    let games = 100_000;
    for _ in 0..games {
        let mut position = Position::start();
        let mut plies = 0;
        loop {
            moves.clear();
            position.generate_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(mv);
            plies += 1;
        }
        longest = longest.max(plies);
        total += plies;
        let outcome = position.outcome().unwrap();
        *reasons.entry(format!("{outcome}")).or_insert(0) += 1;
    }
    eprintln!(
        "{games} games: mean {} plies, longest {longest}",
        total / games
    );
    eprintln!("{reasons:#?}");
    assert!(longest < <Tablut as crate::invariants::Harness>::MAX_PLIES / 10);
}
