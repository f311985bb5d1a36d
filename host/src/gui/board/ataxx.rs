//! The Ataxx board: 7x7 squares, files a-g, ranks 1-7. Geometry and selection are plain data,
//! tested here without a window; the drawing is in `ataxx_draw.rs`.
//!
//! Interaction: a click on one of the mover's pieces selects it and shows where it can go, clone
//! targets (next to it) as dots and jump targets (two squares away) as rings; a click on a
//! target plays the move (every clone onto a square is the same move, whichever piece it comes
//! from); a second click on the piece, a click elsewhere, a right click or Esc deselects; a click
//! on another of the mover's pieces selects that one. When the pass is the mover's only move, a
//! Pass button is offered instead (see [`BoardView::button_moves`](super::BoardView::button_moves)): the person sees why their
//! turn ends rather than having it skipped behind their back.

use macroquad::math::{Rect, Vec2};
use tavola_sdk::games::ataxx::{Ataxx, Cell, Move, Position, Square};
use tavola_sdk::{Color, Position as _};

use super::{Board, ButtonMove, Clicking, Geometry as BoardGeometry, Scene, View};
use crate::gui::screen::Screen;
use crate::gui::theme::Theme;
use crate::text_ui::GameSetup;

/// Where the squares are on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The whole board with its coordinates.
    pub outer: Rect,
    /// The top-left corner of the squares.
    pub origin: Vec2,
    /// The side of one square, whole pixels so that the grid stays sharp.
    pub square: f32,
    /// The board is turned round: g1 top-left.
    pub flipped: bool,
}

impl Default for Geometry {
    fn default() -> Geometry {
        Geometry::new(Rect::new(0.0, 0.0, 700.0, 700.0), false)
    }
}

impl Geometry {
    /// The largest board that fits `area`, centred, with room on the left and below for the
    /// coordinates.
    #[must_use]
    pub fn new(area: Rect, flipped: bool) -> Geometry {
        let side = area.w.min(area.h).max(0.0);
        let margin = (side * 0.05).clamp(12.0, 30.0);
        let square = ((side - margin) / 7.0).floor().max(4.0);
        let total = square * 7.0 + margin;
        let x = (area.x + (area.w - total) / 2.0).round();
        let y = (area.y + (area.h - total) / 2.0).round();
        Geometry {
            outer: Rect::new(x, y, total, total),
            origin: Vec2::new(x + margin, y),
            square,
            flipped,
        }
    }

    /// The rectangle of the squares alone.
    #[must_use]
    pub fn squares(&self) -> Rect {
        Rect::new(
            self.origin.x,
            self.origin.y,
            self.square * 7.0,
            self.square * 7.0,
        )
    }

    /// Column and row on the screen (0, 0 top-left) of `square`.
    fn cell(&self, square: Square) -> (u8, u8) {
        if self.flipped {
            (6 - square.file(), square.rank())
        } else {
            (square.file(), 6 - square.rank())
        }
    }

    /// The centre of `square`.
    #[must_use]
    pub fn square_centre(&self, square: Square) -> Vec2 {
        let rect = self.square_rect(square);
        Vec2::new(rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
    }
}

/// Where the selected piece may go, from the position's legal moves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    /// Empty squares next to the piece.
    pub clones: Vec<Square>,
    /// Empty squares two squares away.
    pub jumps: Vec<Square>,
}

/// The legal destinations of the piece on `from` in `position`.
#[must_use]
pub fn targets(position: &Position, from: Square) -> Targets {
    let mut targets = Targets::default();
    for mv in position.legal_moves() {
        match mv {
            Move::Clone(to) if to.distance(from) == 1 => targets.clones.push(to),
            Move::Jump { from: f, to } if f == from => targets.jumps.push(to),
            _ => {}
        }
    }
    targets
}

/// The selection state of a person moving on the Ataxx board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected piece.
    pub selected: Option<Square>,
    /// Its destinations.
    pub targets: Targets,
}

impl Selection {
    /// A left click on `square` (`None`: outside the board) while `mover` is to move in
    /// `position`. Returns the move the click completes, if any.
    pub fn click(
        &mut self,
        position: &Position,
        mover: Color,
        square: Option<Square>,
    ) -> Option<Move> {
        let Some(square) = square else {
            self.clear();
            return None;
        };
        if let Some(from) = self.selected {
            let mv = if self.targets.clones.contains(&square) {
                Some(Move::Clone(square))
            } else if self.targets.jumps.contains(&square) {
                Some(Move::Jump { from, to: square })
            } else {
                None
            };
            if let Some(mv) = mv.filter(|&mv| position.is_legal(mv)) {
                self.clear();
                return Some(mv);
            }
            if square == from {
                self.clear();
                return None;
            }
        }
        if position.side_to_move() == mover && position.cell(square) == Cell::Piece(mover) {
            self.selected = Some(square);
            self.targets = targets(position, square);
        } else {
            self.clear();
        }
        None
    }

    /// Deselects.
    pub fn clear(&mut self) {
        self.selected = None;
        self.targets = Targets::default();
    }
}

/// The Ataxx board: its geometry, its clicks and its drawing (the rest is [`View`]'s).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct AtaxxBoard;

/// The Ataxx board view.
pub type AtaxxView = View<AtaxxBoard>;

impl BoardGeometry for Geometry {
    type Square = Square;

    fn fit(area: Rect, flipped: bool) -> Geometry {
        Geometry::new(area, flipped)
    }

    fn outer(&self) -> Rect {
        self.outer
    }

    fn square_at(&self, point: Vec2) -> Option<Square> {
        let column = ((point.x - self.origin.x) / self.square).floor();
        let row = ((point.y - self.origin.y) / self.square).floor();
        if !(0.0..7.0).contains(&column) || !(0.0..7.0).contains(&row) {
            return None;
        }
        let (column, row) = (column as u8, row as u8);
        let (file, rank) = if self.flipped {
            (6 - column, row)
        } else {
            (column, 6 - row)
        };
        Square::from_coords(file, rank)
    }

    fn square_rect(&self, square: Square) -> Rect {
        let (column, row) = self.cell(square);
        Rect::new(
            self.origin.x + f32::from(column) * self.square,
            self.origin.y + f32::from(row) * self.square,
            self.square,
            self.square,
        )
    }
}

impl Clicking<Ataxx, Square> for Selection {
    fn click(&mut self, position: &Position, mover: Color, square: Option<Square>) -> Option<Move> {
        Selection::click(self, position, mover, square)
    }

    fn targets(&self) -> Vec<Square> {
        let targets = &self.targets;
        targets
            .clones
            .iter()
            .chain(&targets.jumps)
            .copied()
            .collect()
    }
}

impl Board for AtaxxBoard {
    type Game = Ataxx;
    type Geometry = Geometry;
    type Clicks = Selection;

    fn button_moves(position: &Position) -> Vec<ButtonMove<Move>> {
        if position.legal_moves() == [Move::Pass] {
            vec![ButtonMove {
                label: "Pass",
                notice: "No move: you must pass",
                mv: Move::Pass,
            }]
        } else {
            Vec::new()
        }
    }

    fn draw(view: &AtaxxView, scene: &Scene<'_, Ataxx>, theme: &Theme) {
        super::ataxx_draw::draw(view, scene, theme);
    }

    fn draw_transient(view: &AtaxxView, scene: &Scene<'_, Ataxx>) {
        super::ataxx_draw::draw_transient(view, scene);
    }

    fn edit_screen(position: &Position, setup: &GameSetup) -> Option<Box<dyn Screen>> {
        crate::gui::editor::open::<AtaxxView>(position, setup)
    }

    fn material(position: &Position, color: Color) -> Option<String> {
        Some(super::plural(position.count(color), "piece", "pieces"))
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::Game;

    use super::*;
    use crate::gui::board::BoardView as _;
    use crate::gui::screen::Input;

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn position(fen: &str) -> Position {
        Ataxx::parse_position(fen, None).unwrap()
    }

    fn board() -> Geometry {
        // 12 px margin for coordinates at 280 px: squares of 38 px from (12, 0).
        Geometry::new(Rect::new(0.0, 0.0, 280.0, 280.0), false)
    }

    #[test]
    fn squares_are_whole_pixels_and_fit_the_area() {
        for (w, h) in [
            (280.0, 280.0),
            (1013.0, 577.0),
            (333.0, 900.0),
            (57.0, 57.0),
        ] {
            let area = Rect::new(10.0, 20.0, w, h);
            let g = Geometry::new(area, false);
            assert_eq!(g.square, g.square.floor());
            assert!(g.square >= 4.0);
            if w >= 100.0 {
                assert!(area.contains(g.outer.point()), "{g:?} in {area:?}");
                assert!(
                    g.outer.right() <= area.right() + 0.5
                        && g.outer.bottom() <= area.bottom() + 0.5
                );
            }
        }
    }

    #[test]
    fn hit_testing_finds_the_square_under_the_mouse() {
        let g = board();
        assert_eq!(g.square, 38.0);
        // a7 is top-left, g1 bottom-right.
        assert_eq!(
            g.square_at(Vec2::new(g.origin.x + 1.0, 1.0)),
            Some(square("a7"))
        );
        assert_eq!(
            g.square_at(Vec2::new(g.origin.x + 7.0 * 38.0 - 1.0, 7.0 * 38.0 - 1.0)),
            Some(square("g1"))
        );
        // The coordinates' margin and beyond are no square.
        assert_eq!(g.square_at(Vec2::new(g.origin.x - 1.0, 10.0)), None);
        assert_eq!(
            g.square_at(Vec2::new(g.origin.x + 10.0, 7.0 * 38.0 + 1.0)),
            None
        );
        for s in Square::ALL {
            assert_eq!(g.square_at(g.square_centre(s)), Some(s));
        }
    }

    #[test]
    fn flipping_turns_the_board_round() {
        let g = Geometry::new(Rect::new(0.0, 0.0, 280.0, 280.0), true);
        assert_eq!(
            g.square_at(Vec2::new(g.origin.x + 1.0, 1.0)),
            Some(square("g1"))
        );
        for s in Square::ALL {
            assert_eq!(g.square_at(g.square_centre(s)), Some(s));
            assert_eq!(g.square_rect(s), board().square_rect(square(&mirror(s))));
        }
    }

    fn mirror(s: Square) -> String {
        Square::from_coords(6 - s.file(), 6 - s.rank())
            .unwrap()
            .to_string()
    }

    #[test]
    fn selecting_a_piece_shows_its_clones_and_jumps() {
        let start = position("x5o/7/7/7/7/7/o5x x 0 1");
        let mut selection = Selection::default();
        assert_eq!(
            selection.click(&start, Color::White, Some(square("a7"))),
            None
        );
        assert_eq!(selection.selected, Some(square("a7")));
        let mut clones = selection.targets.clones.clone();
        clones.sort();
        assert_eq!(clones, [square("a6"), square("b6"), square("b7")]);
        assert_eq!(selection.targets.jumps.len(), 5);
        // The opponent's piece and an empty square are not selectable.
        assert_eq!(
            selection.click(&start, Color::White, Some(square("g7"))),
            None
        );
        assert_eq!(selection.selected, None);
        selection.click(&start, Color::White, Some(square("d4")));
        assert_eq!(selection.selected, None);
        // Nothing is selectable when it is not the person's turn.
        selection.click(&start, Color::Black, Some(square("g7")));
        assert_eq!(selection.selected, None);
    }

    #[test]
    fn clicking_a_target_plays_the_move() {
        let start = position("x5o/7/7/7/7/7/o5x x 0 1");
        let mut selection = Selection::default();
        selection.click(&start, Color::White, Some(square("a7")));
        assert_eq!(
            selection.click(&start, Color::White, Some(square("c5"))),
            Some(Move::Jump {
                from: square("a7"),
                to: square("c5")
            })
        );
        assert_eq!(selection, Selection::default());
        selection.click(&start, Color::White, Some(square("g1")));
        assert_eq!(
            selection.click(&start, Color::White, Some(square("f2"))),
            Some(Move::Clone(square("f2")))
        );
    }

    #[test]
    fn a_clone_reachable_from_two_pieces_is_one_move() {
        // b6 is next to both a7 and c7.
        let p = position("x1x3o/7/7/7/7/7/o5x x 0 1");
        for from in ["a7", "c7"] {
            let mut selection = Selection::default();
            selection.click(&p, Color::White, Some(square(from)));
            assert_eq!(
                selection.click(&p, Color::White, Some(square("b6"))),
                Some(Move::Clone(square("b6")))
            );
        }
    }

    #[test]
    fn second_click_or_elsewhere_deselects_and_another_piece_reselects() {
        let start = position("x5o/7/7/7/7/7/o5x x 0 1");
        let mut selection = Selection::default();
        selection.click(&start, Color::White, Some(square("a7")));
        selection.click(&start, Color::White, Some(square("a7")));
        assert_eq!(selection.selected, None);
        selection.click(&start, Color::White, Some(square("a7")));
        selection.click(&start, Color::White, Some(square("g1")));
        assert_eq!(selection.selected, Some(square("g1")));
        // A square out of reach deselects; so does a click off the board.
        selection.click(&start, Color::White, Some(square("d4")));
        assert_eq!(selection.selected, None);
        selection.click(&start, Color::White, Some(square("g1")));
        selection.click(&start, Color::White, None);
        assert_eq!(selection.selected, None);
    }

    #[test]
    fn the_view_turns_mouse_input_into_moves() {
        let start = position("x5o/7/7/7/7/7/o5x x 0 1");
        let mut view = AtaxxView::default();
        view.layout(Rect::new(0.0, 0.0, 280.0, 280.0), false);
        let geometry = view.geometry;
        let at = |name: &str| geometry.square_centre(square(name));
        // Hovering tracks the square; no one may move: clicks do nothing.
        assert_eq!(view.input(&start, None, &Input::click(at("a7"))), None);
        assert_eq!(view.hovered, Some(square("a7")));
        assert_eq!(view.selection.selected, None);
        // Black may not move while White is to move.
        view.input(&start, Some(Color::Black), &Input::click(at("g7")));
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(at("a7")));
        assert_eq!(view.selection.selected, Some(square("a7")));
        // Right click and Esc deselect.
        let right = Input {
            right_click: true,
            ..Input::hover(at("b6"))
        };
        view.input(&start, Some(Color::White), &right);
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(at("a7")));
        let esc = Input {
            escape: true,
            ..Input::hover(at("b6"))
        };
        view.input(&start, Some(Color::White), &esc);
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(at("a7")));
        let mv = view.input(&start, Some(Color::White), &Input::click(at("b6")));
        assert_eq!(mv, Some(Move::Clone(square("b6"))));
    }

    #[test]
    fn a_pass_is_offered_as_a_button_only_when_it_is_the_only_move() {
        let view = AtaxxView::default();
        assert!(view
            .button_moves(&position("x5o/7/7/7/7/7/o5x x 0 1"))
            .is_empty());
        // White on a7 is walled in by Black; Black can still move.
        let walled = position("xoo4/ooo4/ooo4/7/7/7/7 x 0 1");
        let buttons = view.button_moves(&walled);
        assert_eq!(buttons.len(), 1);
        assert_eq!(buttons[0].mv, Move::Pass);
    }
}
