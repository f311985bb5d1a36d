//! A deliberately plain reference implementation of the rules (test-only), written straight from
//! RULES.md with arrays, breadth-first searches and whole boards kept in the history, to check the
//! bitboard engine against.

use std::collections::HashSet;

use super::{Move, Point, Position};
use crate::{Color, EndReason, Outcome};

/// A board as a grid: `[row][column]`, row 0 at the bottom.
pub(super) type Grid = [[Option<Color>; 13]; 13];

/// A position of the reference implementation.
#[derive(Debug, Clone)]
pub(super) struct Naive {
    pub(super) grid: Grid,
    pub(super) side: Color,
    pub(super) move_number: u32,
    /// Every board of the game so far.
    pub(super) history: HashSet<Grid>,
    /// How many placements were refused by superko alone (to see that tests exercise it).
    pub(super) superko_refusals: usize,
}

fn neighbours(row: usize, col: usize) -> impl Iterator<Item = (usize, usize)> {
    let steps = [(0, 1), (2, 1), (1, 0), (1, 2)];
    steps.into_iter().filter_map(move |(dr, dc)| {
        let r = (row + dr).checked_sub(1).filter(|&r| r < 13)?;
        let c = (col + dc).checked_sub(1).filter(|&c| c < 13)?;
        Some((r, c))
    })
}

/// The chain through (row, col): its points.
fn chain(grid: &Grid, row: usize, col: usize) -> Vec<(usize, usize)> {
    let color = grid[row][col];
    let mut seen = vec![(row, col)];
    let mut i = 0;
    while i < seen.len() {
        let (r, c) = seen[i];
        for (nr, nc) in neighbours(r, c) {
            if grid[nr][nc] == color && !seen.contains(&(nr, nc)) {
                seen.push((nr, nc));
            }
        }
        i += 1;
    }
    seen
}

fn has_liberty(grid: &Grid, points: &[(usize, usize)]) -> bool {
    points
        .iter()
        .any(|&(r, c)| neighbours(r, c).any(|(nr, nc)| grid[nr][nc].is_none()))
}

/// Whether `color` has a chain touching two opposite sides.
pub(super) fn connects(grid: &Grid, color: Color) -> bool {
    (0..13).any(|start| {
        let from_left = grid[start][0] == Some(color) && {
            chain(grid, start, 0).iter().any(|&(_, c)| c == 12)
        };
        let from_bottom = grid[0][start] == Some(color) && {
            chain(grid, 0, start).iter().any(|&(r, _)| r == 12)
        };
        from_left || from_bottom
    })
}

impl Naive {
    /// The reference position with `position`'s board, side and move number, without history.
    pub(super) fn from_position(position: &Position) -> Naive {
        let mut grid = [[None; 13]; 13];
        for point in Point::ALL {
            grid[usize::from(point.row())][usize::from(point.column())] = position.stone(point);
        }
        Naive {
            grid,
            side: crate::Position::side_to_move(position),
            move_number: position.move_number(),
            history: HashSet::from([grid]),
            superko_refusals: 0,
        }
    }

    /// The board after `mv`, or `None` when it is illegal (game over aside).
    fn after(&mut self, mv: Move) -> Option<Grid> {
        let mut grid = self.grid;
        match mv {
            Move::Swap => {
                let stones: Vec<Option<Color>> = grid
                    .iter()
                    .flatten()
                    .copied()
                    .filter(Option::is_some)
                    .collect();
                if self.move_number != 2
                    || self.side != Color::White
                    || stones != [Some(Color::Black)]
                {
                    return None;
                }
                for cell in grid.iter_mut().flatten() {
                    if cell.is_some() {
                        *cell = Some(Color::White);
                    }
                }
            }
            Move::Place(point) => {
                let (row, col) = (usize::from(point.row()), usize::from(point.column()));
                if grid[row][col].is_some() {
                    return None;
                }
                grid[row][col] = Some(self.side);
                // Remove the opposing chains next to the new stone left without liberties.
                for (r, c) in neighbours(row, col) {
                    if grid[r][c] == Some(self.side.other()) {
                        let points = chain(&grid, r, c);
                        if !has_liberty(&grid, &points) {
                            for (pr, pc) in points {
                                grid[pr][pc] = None;
                            }
                        }
                    }
                }
                if !has_liberty(&grid, &chain(&grid, row, col)) {
                    return None;
                }
            }
        }
        if self.history.contains(&grid) {
            self.superko_refusals += 1;
            return None;
        }
        Some(grid)
    }

    /// The winner by connection: the side that moved last is looked at first.
    fn connected(&self) -> Option<Color> {
        [self.side.other(), self.side]
            .into_iter()
            .find(|&color| connects(&self.grid, color))
    }

    /// Every legal move, in no particular order.
    pub(super) fn legal_moves(&mut self) -> Vec<Move> {
        if self.connected().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = Point::ALL
            .into_iter()
            .map(Move::Place)
            .filter(|&mv| self.after(mv).is_some())
            .collect();
        if self.after(Move::Swap).is_some() {
            moves.push(Move::Swap);
        }
        moves
    }

    /// How the game ended, if it did.
    pub(super) fn outcome(&mut self) -> Option<Outcome> {
        if let Some(winner) = self.connected() {
            Some(Outcome::win(winner, EndReason::Connection))
        } else if self.legal_moves().is_empty() {
            Some(Outcome::win(self.side.other(), EndReason::NoLegalMove))
        } else {
            None
        }
    }

    /// Plays a legal move.
    ///
    /// # Panics
    /// When `mv` is illegal.
    pub(super) fn play(&mut self, mv: Move) {
        let grid = self
            .after(mv)
            .expect("the reference plays only legal moves");
        self.grid = grid;
        self.history.insert(grid);
        self.side = self.side.other();
        self.move_number += 1;
    }

    /// Perft, counting leaves `depth` plies deep.
    pub(super) fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// The board in the position text's board field.
    pub(super) fn board_text(&self) -> String {
        let rows: Vec<String> = (0..13)
            .rev()
            .map(|r| {
                self.grid[r]
                    .iter()
                    .map(|cell| cell.map_or('.', super::symbol))
                    .collect()
            })
            .collect();
        rows.join("/")
    }
}
