//! The geometry every square board shares: `n` x `n` cells of whole pixels, centred in the area
//! the game screen gives, with an optional margin on the left and below for the coordinates, and
//! turned round when flipped. Cells are named by board coordinates, `(column, row)` with `(0, 0)`
//! the top-left cell as the first player sees it; each game maps its squares to them.

use macroquad::math::{Rect, Vec2};

/// Labels along one edge: each board coordinate with the rectangle its label goes in.
pub type Labels = Vec<(u8, Rect)>;

/// Where the cells of an `n` x `n` board are on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// The whole board with its coordinates.
    pub outer: Rect,
    /// The top-left corner of the cells.
    pub origin: Vec2,
    /// The side of one cell, whole pixels so that the lines stay sharp.
    pub cell: f32,
    /// Cells per side.
    pub n: u8,
    /// Turned round: the second player's side at the bottom.
    pub flipped: bool,
}

impl Grid {
    /// The largest board of `n` x `n` cells that fits `area`, centred; with `margin`, room on the
    /// left and below for coordinates.
    #[must_use]
    pub fn new(area: Rect, n: u8, margin: bool, flipped: bool) -> Grid {
        let n = n.max(1);
        let side = area.w.min(area.h).max(0.0);
        let margin = if margin {
            (side * 0.045).clamp(12.0, 30.0)
        } else {
            0.0
        };
        let cell = ((side - margin) / f32::from(n)).floor().max(4.0);
        let total_w = cell * f32::from(n) + margin;
        let total_h = total_w;
        let x = (area.x + (area.w - total_w) / 2.0).round();
        let y = (area.y + (area.h - total_h) / 2.0).round();
        Grid {
            outer: Rect::new(x, y, total_w, total_h),
            origin: Vec2::new(x + margin, y),
            cell,
            n,
            flipped,
        }
    }

    /// The rectangle of the cells alone.
    #[must_use]
    pub fn cells(&self) -> Rect {
        let side = self.cell * f32::from(self.n);
        Rect::new(self.origin.x, self.origin.y, side, side)
    }

    /// The cell on the screen (0, 0 top-left) of board coordinates `(column, row)`.
    #[must_use]
    pub fn screen_cell(&self, column: u8, row: u8) -> (u8, u8) {
        if self.flipped {
            (self.n - 1 - column, self.n - 1 - row)
        } else {
            (column, row)
        }
    }

    /// The rectangle of the cell at board coordinates `(column, row)`.
    #[must_use]
    pub fn rect(&self, column: u8, row: u8) -> Rect {
        let (x, y) = self.screen_cell(column, row);
        Rect::new(
            self.origin.x + f32::from(x) * self.cell,
            self.origin.y + f32::from(y) * self.cell,
            self.cell,
            self.cell,
        )
    }

    /// The centre of the cell at `(column, row)`.
    #[must_use]
    pub fn centre(&self, column: u8, row: u8) -> Vec2 {
        let r = self.rect(column, row);
        Vec2::new(r.x + r.w / 2.0, r.y + r.h / 2.0)
    }

    /// The board coordinates of the cell under `point`, if any.
    #[must_use]
    pub fn at(&self, point: Vec2) -> Option<(u8, u8)> {
        let n = f32::from(self.n);
        let x = ((point.x - self.origin.x) / self.cell).floor();
        let y = ((point.y - self.origin.y) / self.cell).floor();
        if !(0.0..n).contains(&x) || !(0.0..n).contains(&y) {
            return None;
        }
        // Flipping is its own inverse.
        Some(self.screen_cell(x as u8, y as u8))
    }

    /// The rectangles where the coordinates go: below each screen column and left of each screen
    /// row, with the board coordinate of that column or row (empty without a margin).
    #[must_use]
    pub fn labels(&self) -> (Labels, Labels) {
        let cells = self.cells();
        if cells.x - self.outer.x < 1.0 {
            return (Vec::new(), Vec::new());
        }
        let mut below = Vec::new();
        let mut left = Vec::new();
        for i in 0..self.n {
            let (column, row) = self.screen_cell(i, i);
            let offset = f32::from(i) * self.cell;
            below.push((
                column,
                Rect::new(
                    cells.x + offset,
                    cells.bottom() + 2.0,
                    self.cell,
                    self.outer.bottom() - cells.bottom() - 2.0,
                ),
            ));
            left.push((
                row,
                Rect::new(
                    self.outer.x,
                    cells.y + offset,
                    cells.x - self.outer.x - 3.0,
                    self.cell,
                ),
            ));
        }
        (below, left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_whole_pixels_inside_the_area() {
        for n in [8, 9, 13] {
            for (w, h) in [(280.0, 280.0), (1013.0, 577.0), (333.0, 900.0)] {
                for margin in [false, true] {
                    let area = Rect::new(10.0, 20.0, w, h);
                    let g = Grid::new(area, n, margin, false);
                    assert_eq!(g.cell, g.cell.floor());
                    assert!(g.outer.x >= area.x && g.outer.y >= area.y - 0.5);
                    assert!(g.outer.right() <= area.right() + 0.5);
                    assert!(g.outer.bottom() <= area.bottom() + 0.5);
                    assert!(g.outer.contains(g.cells().point()));
                }
            }
        }
    }

    #[test]
    fn hit_testing_inverts_the_layout_both_ways_round() {
        for flipped in [false, true] {
            let g = Grid::new(Rect::new(0.0, 0.0, 500.0, 500.0), 9, true, flipped);
            for column in 0..9 {
                for row in 0..9 {
                    assert_eq!(g.at(g.centre(column, row)), Some((column, row)));
                    let r = g.rect(column, row);
                    assert_eq!(g.at(Vec2::new(r.x + 0.5, r.y + 0.5)), Some((column, row)));
                    assert_eq!(
                        g.at(Vec2::new(r.right() - 0.5, r.bottom() - 0.5)),
                        Some((column, row))
                    );
                }
            }
            assert_eq!(g.at(Vec2::new(g.origin.x - 1.0, g.origin.y + 5.0)), None);
            assert_eq!(
                g.at(Vec2::new(g.origin.x + 5.0, g.cells().bottom() + 1.0)),
                None
            );
        }
        let plain = Grid::new(Rect::new(0.0, 0.0, 400.0, 400.0), 8, false, false);
        let turned = Grid::new(Rect::new(0.0, 0.0, 400.0, 400.0), 8, false, true);
        assert_eq!(plain.rect(0, 0), turned.rect(7, 7));
    }

    #[test]
    fn labels_follow_the_flip() {
        let g = Grid::new(Rect::new(0.0, 0.0, 500.0, 500.0), 9, true, true);
        let (below, left) = g.labels();
        assert_eq!(below.len(), 9);
        assert_eq!(below[0].0, 8, "flipped: the last column on the left");
        assert_eq!(left[0].0, 8, "flipped: the last row at the top");
        assert!(below[0].1.y >= g.cells().bottom());
        let bare = Grid::new(Rect::new(0.0, 0.0, 500.0, 500.0), 8, false, false);
        assert!(bare.labels().0.is_empty());
    }
}
