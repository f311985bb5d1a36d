//! The Tablut board: 9x9 squares, columns a-i, rows 1-9 with **row 1 at the top** (as the
//! Bologna challenge draws it), the castle, the four camps and the escape squares marked.
//! Geometry and selection are plain data, tested here without a window; the drawing is in
//! `tablut_draw.rs`.
//!
//! Interaction: a click on one of the mover's pieces (White's soldiers and king, or Black's
//! soldiers) selects it and shows where it can slide; a click on a destination plays the move; a
//! second click on the piece, a click elsewhere, a right click or Esc deselects; a click on
//! another of the mover's pieces selects that one.

use macroquad::math::{Rect, Vec2};
use tavola_sdk::games::tablut::{Move, Position, Square, Tablut};
use tavola_sdk::{Color, Position as _};

use super::grid::Grid;
use super::{Board, Clicking, Geometry as BoardGeometry, Scene, View};
use crate::gui::screen::Screen;
use crate::gui::theme::Theme;
use crate::text_ui::GameSetup;

/// Where the squares are on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The 9x9 cells, with a margin for the coordinates.
    pub grid: Grid,
}

impl Default for Geometry {
    fn default() -> Geometry {
        Geometry::new(Rect::new(0.0, 0.0, 640.0, 640.0), false)
    }
}

impl Geometry {
    /// The largest board that fits `area`, centred.
    #[must_use]
    pub fn new(area: Rect, flipped: bool) -> Geometry {
        Geometry {
            grid: Grid::new(area, 9, true, flipped),
        }
    }

    /// The centre of `square`.
    #[must_use]
    pub fn square_centre(&self, square: Square) -> Vec2 {
        self.grid.centre(square.column(), square.row())
    }
}

/// The selection state of a person moving on the Tablut board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected piece.
    pub selected: Option<Square>,
    /// Where it may slide.
    pub targets: Vec<Square>,
    /// Why the last click moved nothing, the rule it broke (for the status line).
    pub refused: Option<String>,
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
        let mut refused = None;
        if let Some(from) = self.selected {
            let mv = Move::new(from, square);
            if self.targets.contains(&square) && position.is_legal(mv) {
                self.clear();
                return Some(mv);
            }
            if square == from {
                self.clear();
                return None;
            }
            if position.cell(square).color() != Some(mover) {
                refused = position
                    .why_illegal(mv)
                    .map(|why| format!("Not there: {why}"));
            }
        }
        if position.side_to_move() == mover && position.cell(square).color() == Some(mover) {
            self.selected = Some(square);
            self.targets = position
                .legal_moves()
                .into_iter()
                .filter(|m| m.from == square)
                .map(|m| m.to)
                .collect();
            self.refused = None;
        } else {
            self.clear();
            self.refused = refused;
        }
        None
    }

    /// Deselects.
    pub fn clear(&mut self) {
        *self = Selection::default();
    }
}

/// The Tablut board: its geometry, its clicks and its drawing (the rest is [`View`]'s).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct TablutBoard;

/// The Tablut board view.
pub type TablutView = View<TablutBoard>;

impl BoardGeometry for Geometry {
    type Square = Square;

    fn fit(area: Rect, flipped: bool) -> Geometry {
        Geometry::new(area, flipped)
    }

    fn outer(&self) -> Rect {
        self.grid.outer
    }

    fn square_at(&self, point: Vec2) -> Option<Square> {
        let (column, row) = self.grid.at(point)?;
        Square::from_coords(column, row)
    }

    fn square_rect(&self, square: Square) -> Rect {
        self.grid.rect(square.column(), square.row())
    }
}

impl Clicking<Tablut, Square> for Selection {
    fn click(&mut self, position: &Position, mover: Color, square: Option<Square>) -> Option<Move> {
        Selection::click(self, position, mover, square)
    }

    fn targets(&self) -> Vec<Square> {
        self.targets.clone()
    }

    fn notice(&self) -> Option<String> {
        self.refused.clone()
    }
}

impl Board for TablutBoard {
    type Game = Tablut;
    type Geometry = Geometry;
    type Clicks = Selection;

    fn draw(view: &TablutView, scene: &Scene<'_, Tablut>, theme: &Theme) {
        super::tablut_draw::draw(view, scene, theme);
    }

    fn draw_transient(view: &TablutView, scene: &Scene<'_, Tablut>) {
        super::tablut_draw::draw_transient(view, scene);
    }

    fn edit_screen(position: &Position, setup: &GameSetup) -> Option<Box<dyn Screen>> {
        crate::gui::editor::open::<TablutView>(position, setup)
    }

    fn material(position: &Position, color: Color) -> Option<String> {
        let soldiers = super::plural(position.count_soldiers(color), "soldier", "soldiers");
        Some(match color {
            Color::White if position.king().is_some() => format!("king and {soldiers}"),
            _ => soldiers,
        })
    }
}

/// The column letter and the row number of a board coordinate, as the edges show them.
#[must_use]
pub fn labels(column: u8, row: u8) -> (String, String) {
    (
        char::from(b'a' + column.min(8)).to_string(),
        (row + 1).to_string(),
    )
}

/// Whether `square` is one of the 20 escape squares: the edge outside the camps.
#[must_use]
pub fn is_escape(square: Square) -> bool {
    square.is_edge() && !square.is_camp()
}

#[cfg(test)]
mod tests {
    use tavola_sdk::Game;

    use super::*;
    use crate::gui::board::BoardView as _;
    use crate::gui::screen::Input;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn row_1_is_at_the_top_and_a_on_the_left() {
        let g = Geometry::new(Rect::new(0.0, 0.0, 500.0, 500.0), false);
        let cells = g.grid.cells();
        let corner = |dx: f32, dy: f32| Vec2::new(cells.x + dx, cells.y + dy);
        assert_eq!(g.square_at(corner(1.0, 1.0)), Some(sq("a1")));
        assert_eq!(
            g.square_at(corner(cells.w - 1.0, cells.h - 1.0)),
            Some(sq("i9"))
        );
        assert_eq!(g.square_at(corner(cells.w - 1.0, 1.0)), Some(sq("i1")));
        assert_eq!(g.square_at(corner(-1.0, 5.0)), None, "the row numbers");
        assert_eq!(g.square_at(corner(5.0, cells.h + 1.0)), None, "the letters");
        for s in Square::ALL {
            assert_eq!(g.square_at(g.square_centre(s)), Some(s));
        }
        let f = Geometry::new(Rect::new(0.0, 0.0, 500.0, 500.0), true);
        assert_eq!(f.square_at(corner(1.0, 1.0)), Some(sq("i9")));
        for s in Square::ALL {
            assert_eq!(f.square_at(f.square_centre(s)), Some(s));
        }
        assert_eq!(labels(0, 0), ("a".to_owned(), "1".to_owned()));
        assert_eq!(labels(8, 8), ("i".to_owned(), "9".to_owned()));
    }

    #[test]
    fn a_piece_slides_with_two_clicks() {
        let start = Tablut::start(None).unwrap();
        let mut s = Selection::default();
        s.click(&start, Color::White, Some(sq("e4")));
        assert_eq!(s.selected, Some(sq("e4")));
        let mut targets = s.targets.clone();
        targets.sort();
        // e4 slides along row 4 between the camps: b4 .. d4 and f4 .. h4.
        let mut expected: Vec<Square> = ["b4", "c4", "d4", "f4", "g4", "h4"]
            .iter()
            .map(|n| sq(n))
            .collect();
        expected.sort();
        assert_eq!(targets, expected);
        assert_eq!(
            s.click(&start, Color::White, Some(sq("h4"))),
            Some(Move::new(sq("e4"), sq("h4")))
        );
        assert_eq!(s, Selection::default());
        // The king is White's: selectable, though walled in at the start.
        s.click(&start, Color::White, Some(sq("e5")));
        assert_eq!(s.selected, Some(sq("e5")));
        assert!(s.targets.is_empty());
        // Black's soldiers are not White's to move.
        s.click(&start, Color::White, Some(sq("a5")));
        assert_eq!(s.selected, None);
        // An unreachable square deselects; a second click on the piece too.
        s.click(&start, Color::White, Some(sq("e4")));
        s.click(&start, Color::White, Some(sq("a1")));
        assert_eq!(s.selected, None);
        s.click(&start, Color::White, Some(sq("e4")));
        s.click(&start, Color::White, Some(sq("e4")));
        assert_eq!(s.selected, None);
    }

    #[test]
    fn black_moves_out_of_its_camp() {
        let mut p = Tablut::start(None).unwrap();
        p.play(p.parse_move("e4-h4").unwrap()).unwrap();
        let mut s = Selection::default();
        s.click(&p, Color::Black, Some(sq("d1")));
        assert!(s.targets.contains(&sq("d3")));
        assert_eq!(
            s.click(&p, Color::Black, Some(sq("d3"))),
            Some(Move::new(sq("d1"), sq("d3")))
        );
    }

    #[test]
    fn the_view_follows_the_mouse() {
        let start = Tablut::start(None).unwrap();
        let mut view = TablutView::default();
        view.layout(Rect::new(0.0, 0.0, 500.0, 500.0), false);
        let at = |name: &str| view.geometry.square_centre(sq(name));
        let (e4, h4) = (at("e4"), at("h4"));
        assert_eq!(view.input(&start, None, &Input::click(e4)), None);
        assert_eq!(view.hovered, Some(sq("e4")));
        assert_eq!(view.selection.selected, None, "nobody may move");
        view.input(&start, Some(Color::White), &Input::click(e4));
        let right = Input {
            right_click: true,
            ..Input::hover(h4)
        };
        view.input(&start, Some(Color::White), &right);
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(e4));
        let mv = view.input(&start, Some(Color::White), &Input::click(h4));
        assert_eq!(mv.map(|m| m.to_string()).as_deref(), Some("e4-h4"));
    }

    #[test]
    fn material_names_the_king() {
        let start = Tablut::start(None).unwrap();
        assert_eq!(
            TablutView::material(&start, Color::White).as_deref(),
            Some("king and 8 soldiers")
        );
        assert_eq!(
            TablutView::material(&start, Color::Black).as_deref(),
            Some("16 soldiers")
        );
    }

    #[test]
    fn every_escape_square_is_an_edge_square_outside_the_camps() {
        let escapes = Square::ALL.iter().filter(|s| is_escape(**s)).count();
        assert_eq!(escapes, 20);
        assert!(is_escape(sq("a1")) && is_escape(sq("c1")) && !is_escape(sq("d1")));
        assert!(!is_escape(sq("e5")));
        assert_eq!(Square::ALL.iter().filter(|s| s.is_camp()).count(), 16);
    }

    #[test]
    fn a_refused_click_says_why_and_a_hovered_target_is_known() {
        let start = Tablut::start(None).unwrap();
        let mut selection = Selection::default();
        selection.click(&start, Color::White, Some(sq("e3")));
        assert!(Clicking::<Tablut, Square>::targets(&selection).contains(&sq("h3")));
        selection.click(&start, Color::White, Some(sq("e1")));
        assert_eq!(
            Clicking::<Tablut, Square>::notice(&selection).as_deref(),
            Some("Not there: the way is blocked at e2")
        );
        selection.click(&start, Color::White, Some(sq("e3")));
        assert_eq!(Clicking::<Tablut, Square>::notice(&selection), None);
        selection.click(&start, Color::White, Some(sq("e2")));
        assert_eq!(
            Clicking::<Tablut, Square>::notice(&selection).as_deref(),
            Some("Not there: e2 is occupied")
        );
    }
}
