//! The Gonnect board: a 13x13 Go board, stones on the intersections, columns A-N without I and
//! rows 1-13 from the bottom. Geometry and the click logic are plain data, tested here without a
//! window; the drawing is in `gonnect_draw.rs`.
//!
//! Interaction: a click on an empty intersection where a stone may go places it (one click: there
//! is nothing to select); a click where it may not (suicide, a repeated board) says why in the
//! status line. At move 2 White is offered a Swap button (see [`BoardView::button_moves`](super::BoardView::button_moves)): the
//! single black stone becomes White's, and Black moves.

use macroquad::math::{Rect, Vec2};
use tavola_sdk::games::gonnect::{Bitboard, Gonnect, Move, Point, Position, SIZE};
use tavola_sdk::{Color, Position as _};

use super::grid::Grid;
use super::{Board, ButtonMove, Clicking, Geometry as BoardGeometry, Scene, View};
use crate::gui::screen::Screen;
use crate::gui::theme::Theme;
use crate::text_ui::GameSetup;

/// Where the intersections are on the screen: each is the centre of one cell of a 13x13 grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The cells around the intersections, with a margin for the coordinates.
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
            grid: Grid::new(area, SIZE, true, flipped),
        }
    }

    /// The board coordinates (row 0 at the top) of `point` (row 1 at the bottom).
    fn coords(point: Point) -> (u8, u8) {
        (point.column(), SIZE - 1 - point.row())
    }

    /// The intersection of `point` on the screen.
    #[must_use]
    pub fn centre(&self, point: Point) -> Vec2 {
        let (column, row) = Geometry::coords(point);
        self.grid.centre(column, row)
    }

    /// The cell around `point` (its hit area).
    #[must_use]
    pub fn cell_rect(&self, point: Point) -> Rect {
        let (column, row) = Geometry::coords(point);
        self.grid.rect(column, row)
    }

    /// The intersection nearest `point`, within half a line spacing.
    #[must_use]
    pub fn point_at(&self, point: Vec2) -> Option<Point> {
        let (column, row) = self.grid.at(point)?;
        Point::from_coords(column, SIZE - 1 - row)
    }
}

/// The click logic of the Gonnect board: a click places, or is refused with a reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clicks {
    /// The last click was on a point where no stone may go.
    pub refused: Option<Point>,
    /// Why (the SDK's reason: occupied, suicide, a repeated board).
    pub why: String,
}

impl Clicks {
    /// A left click on `point` (`None`: off the board) while `mover` is to move in `position`.
    /// Returns the placement it makes, if legal.
    pub fn click(
        &mut self,
        position: &Position,
        mover: Color,
        point: Option<Point>,
    ) -> Option<Move> {
        self.refused = None;
        let point = point?;
        if position.side_to_move() != mover {
            return None;
        }
        let mv = Move::Place(point);
        match position.why_illegal(mv) {
            None => Some(mv),
            Some(why) => {
                self.refused = Some(point);
                self.why = why;
                None
            }
        }
    }
}

/// The chain of `position` that connects two opposite sides, once the game is won so.
#[must_use]
pub fn winning_chain(position: &Position) -> Option<Bitboard> {
    let winner = position.connected()?;
    position
        .stones(winner)
        .into_iter()
        .map(|p| position.chain(p))
        .find(|chain| chain.spans())
}

/// The stones the last move took: `before`'s stones that are gone (a swap takes none).
#[must_use]
pub fn captured(before: &Position, after: &Position, mv: Move) -> Vec<(Point, Color)> {
    if mv == Move::Swap {
        return Vec::new();
    }
    Point::ALL
        .into_iter()
        .filter_map(|p| match (before.stone(p), after.stone(p)) {
            (Some(color), None) => Some((p, color)),
            _ => None,
        })
        .collect()
}

/// The Gonnect board: its geometry, its clicks and its drawing (the rest is [`View`]'s).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct GonnectBoard;

/// The Gonnect board view.
pub type GonnectView = View<GonnectBoard>;

impl BoardGeometry for Geometry {
    type Square = Point;

    fn fit(area: Rect, flipped: bool) -> Geometry {
        Geometry::new(area, flipped)
    }

    fn outer(&self) -> Rect {
        self.grid.outer
    }

    fn square_at(&self, point: Vec2) -> Option<Point> {
        self.point_at(point)
    }

    fn square_rect(&self, square: Point) -> Rect {
        self.cell_rect(square)
    }
}

impl Clicking<Gonnect, Point> for Clicks {
    fn click(&mut self, position: &Position, mover: Color, square: Option<Point>) -> Option<Move> {
        Clicks::click(self, position, mover, square)
    }

    fn notice(&self) -> Option<String> {
        self.refused.map(|_| format!("Not there: {}", self.why))
    }
}

impl Board for GonnectBoard {
    type Game = Gonnect;
    type Geometry = Geometry;
    type Clicks = Clicks;

    const TURN_FOR_BLACK: bool = false;

    fn button_moves(position: &Position) -> Vec<ButtonMove<Move>> {
        if position.is_legal(Move::Swap) {
            vec![ButtonMove {
                label: "Swap",
                notice: "Play, or take Black's stone:",
                mv: Move::Swap,
            }]
        } else {
            Vec::new()
        }
    }

    fn draw(view: &GonnectView, scene: &Scene<'_, Gonnect>, theme: &Theme) {
        super::gonnect_draw::draw(view, scene, theme);
    }

    fn draw_transient(view: &GonnectView, scene: &Scene<'_, Gonnect>) {
        super::gonnect_draw::draw_transient(view, scene);
    }

    fn edit_screen(position: &Position, setup: &GameSetup) -> Option<Box<dyn Screen>> {
        crate::gui::editor::open::<GonnectView>(position, setup)
    }

    fn material(position: &Position, color: Color) -> Option<String> {
        Some(super::plural(position.count(color), "stone", "stones"))
    }
}

/// The column letter (A-N without I) and the row number of board coordinates (row 0 at the
/// top), as the edges show them.
#[must_use]
pub fn labels(column: u8, row: u8) -> (String, String) {
    let letter = Point::from_coords(column.min(SIZE - 1), 0).map_or(' ', Point::column_letter);
    (letter.to_string(), (SIZE - row.min(SIZE - 1)).to_string())
}

#[cfg(test)]
mod tests {
    use tavola_sdk::Game;

    use super::*;
    use crate::gui::board::BoardView as _;
    use crate::gui::screen::Input;

    fn pt(name: &str) -> Point {
        name.parse().unwrap()
    }

    #[test]
    fn rows_count_from_the_bottom_and_columns_skip_i() {
        let g = Geometry::new(Rect::new(0.0, 0.0, 600.0, 600.0), false);
        let cells = g.grid.cells();
        assert_eq!(
            g.point_at(Vec2::new(cells.x + 2.0, cells.bottom() - 2.0)),
            Some(pt("A1"))
        );
        assert_eq!(
            g.point_at(Vec2::new(cells.right() - 2.0, cells.y + 2.0)),
            Some(pt("N13"))
        );
        assert_eq!(g.point_at(Vec2::new(cells.x - 2.0, cells.y + 2.0)), None);
        // A click near an intersection, within half a spacing, finds it.
        let g7 = g.centre(pt("G7"));
        let near = g.grid.cell * 0.45;
        for (dx, dy) in [(near, 0.0), (-near, 0.0), (0.0, near), (0.0, -near)] {
            assert_eq!(g.point_at(g7 + Vec2::new(dx, dy)), Some(pt("G7")));
        }
        for p in Point::ALL {
            assert_eq!(g.point_at(g.centre(p)), Some(p));
        }
        let f = Geometry::new(Rect::new(0.0, 0.0, 600.0, 600.0), true);
        assert_eq!(
            f.point_at(Vec2::new(cells.x + 2.0, cells.bottom() - 2.0)),
            Some(pt("N13"))
        );
        for p in Point::ALL {
            assert_eq!(f.point_at(f.centre(p)), Some(p));
        }
        assert_eq!(labels(0, 0), ("A".to_owned(), "13".to_owned()));
        assert_eq!(labels(8, 12), ("J".to_owned(), "1".to_owned()));
        assert_eq!(labels(12, 6), ("N".to_owned(), "7".to_owned()));
    }

    #[test]
    fn a_click_places_a_stone_or_says_why_not() {
        let start = Gonnect::start(None).unwrap();
        let mut clicks = Clicks::default();
        assert_eq!(
            clicks.click(&start, Color::Black, Some(pt("G7"))),
            Some(Move::Place(pt("G7")))
        );
        // Not White's turn; off the board.
        assert_eq!(clicks.click(&start, Color::White, Some(pt("G7"))), None);
        assert_eq!(clicks.click(&start, Color::Black, None), None);
        // A suicide: A1 surrounded by White at A2 and B1.
        let p = Gonnect::parse_position(
            &format!(
                "{}O............/.O........... X 5",
                "............./".repeat(11)
            ),
            None,
        )
        .unwrap();
        assert_eq!(clicks.click(&p, Color::Black, Some(pt("A1"))), None);
        assert_eq!(clicks.refused, Some(pt("A1")));
        assert_eq!(
            Clicking::<Gonnect, Point>::notice(&clicks).as_deref(),
            Some("Not there: a stone on A1 would have no liberty (no suicide)")
        );
        // An occupied point says so.
        assert_eq!(clicks.click(&p, Color::Black, Some(pt("A2"))), None);
        assert_eq!(
            Clicking::<Gonnect, Point>::notice(&clicks).as_deref(),
            Some("Not there: A2 is occupied")
        );
    }

    #[test]
    fn the_swap_is_a_button_at_move_2_only() {
        let view = GonnectView::default();
        let mut p = Gonnect::start(None).unwrap();
        assert!(view.button_moves(&p).is_empty());
        p.play(Move::Place(pt("G7"))).unwrap();
        let buttons = view.button_moves(&p);
        assert_eq!(buttons.len(), 1);
        assert_eq!(buttons[0].mv, Move::Swap);
        assert_eq!(buttons[0].label, "Swap");
        let mut swapped = p.clone();
        swapped.play(Move::Swap).unwrap();
        assert_eq!(swapped.stone(pt("G7")), Some(Color::White));
        assert!(view.button_moves(&swapped).is_empty());
        assert!(captured(&p, &swapped, Move::Swap).is_empty());
        p.play(Move::Place(pt("F7"))).unwrap();
        assert!(view.button_moves(&p).is_empty());
    }

    #[test]
    fn captures_and_the_winning_chain() {
        // White's A2 and B1 take Black's A1 when White plays B1.
        let mut p = Gonnect::parse_position(
            &format!(
                "{}O............/X............ O 6",
                "............./".repeat(11)
            ),
            None,
        )
        .unwrap();
        let before = p.clone();
        let mv = Move::Place(pt("B1"));
        p.play(mv).unwrap();
        assert_eq!(captured(&before, &p, mv), [(pt("A1"), Color::Black)]);
        assert_eq!(winning_chain(&p), None);
        // Black joins top and bottom along column G with G7.
        let rows: Vec<&str> = (0..13)
            .map(|r| {
                if r == 6 {
                    "............."
                } else {
                    "......X......"
                }
            })
            .collect();
        let mut p = Gonnect::parse_position(&format!("{} X 30", rows.join("/")), None).unwrap();
        assert_eq!(winning_chain(&p), None);
        p.play(Move::Place(pt("G7"))).unwrap();
        let chain = winning_chain(&p).expect("connected");
        assert_eq!(chain.count(), 13);
        assert!(chain.contains(pt("G1")) && chain.contains(pt("G13")));
    }

    #[test]
    fn the_view_places_with_one_click() {
        let start = Gonnect::start(None).unwrap();
        let mut view = GonnectView::default();
        view.layout(Rect::new(0.0, 0.0, 600.0, 600.0), false);
        let g7 = view.geometry.centre(pt("G7"));
        assert_eq!(view.input(&start, None, &Input::click(g7)), None);
        assert_eq!(view.hovered, Some(pt("G7")));
        assert_eq!(
            view.input(&start, Some(Color::Black), &Input::click(g7)),
            Some(Move::Place(pt("G7")))
        );
        assert_eq!(
            GonnectView::material(&start, Color::White).as_deref(),
            Some("0 stones")
        );
    }
}
