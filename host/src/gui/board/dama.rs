//! The Dama board: 8x8, play on the 32 dark squares, in the FID orientation (the bottom-right
//! square is dark for each player), the squares numbered 1-32 as seen from White (1 top-left).
//! Geometry and selection are plain data, tested here without a window; the drawing is in
//! `dama_draw.rs`.
//!
//! Interaction: a click on one of the mover's pieces selects it and shows where its legal moves
//! end; a click on such a square plays the move. A capture is played by clicking where it ends;
//! where two legal captures of the piece end on the same square, the landing squares are clicked
//! in turn (each click keeps only the captures through it) until one capture is left. A second
//! click on the piece, a click elsewhere, a right click or Esc deselects.

use macroquad::math::{Rect, Vec2};
use tavola_sdk::games::dama::{Dama, Move, Position, Square};
use tavola_sdk::{Color, Position as _};

use super::grid::Grid;
use super::{Board, Clicking, Geometry as BoardGeometry, Scene, View};
use crate::gui::screen::Screen;
use crate::gui::theme::Theme;
use crate::text_ui::GameSetup;

/// Where the squares are on the screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The 8x8 cells (no margin: the numbers are on the squares).
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
            grid: Grid::new(area, 8, false, flipped),
        }
    }

    /// The centre of `square`.
    #[must_use]
    pub fn square_centre(&self, square: Square) -> Vec2 {
        self.grid.centre(square.column(), square.row())
    }
}

/// The selection state of a person moving on the Dama board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// The selected piece.
    pub selected: Option<Square>,
    /// The landing squares clicked so far, spelling out one of several captures.
    pub path: Vec<Square>,
    /// The selected piece's legal moves that go through `path`.
    pub candidates: Vec<Move>,
    /// The last click was on a square where more than one candidate ends.
    pub ambiguous: bool,
    /// The piece has no move while a capture elsewhere is compulsory.
    pub must_capture: bool,
}

impl Selection {
    /// A left click on `square` (`None`: outside the board or on a light square) while `mover`
    /// is to move in `position`. Returns the move the click completes, if any.
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
            // A second click on the piece deselects it, even where a capture round a ring
            // ends there.
            if square == from && self.path.is_empty() {
                self.clear();
                return None;
            }
            let ending: Vec<Move> = self
                .candidates
                .iter()
                .copied()
                .filter(|m| m.to() == square)
                .collect();
            if let [mv] = ending[..] {
                if position.is_legal(mv) {
                    self.clear();
                    return Some(mv);
                }
            }
            let k = self.path.len();
            let through: Vec<Move> = self
                .candidates
                .iter()
                .copied()
                .filter(|m| m.landings().nth(k) == Some(square))
                .collect();
            if !through.is_empty() && ending.len() != 1 {
                self.path.push(square);
                self.candidates = through;
                self.ambiguous = false;
                if let [mv] = self.candidates[..] {
                    self.clear();
                    return position.is_legal(mv).then_some(mv);
                }
                return None;
            }
            if ending.len() > 1 {
                self.ambiguous = true;
                return None;
            }
            if square == from {
                self.clear();
                return None;
            }
        }
        let own = position
            .piece_at(square)
            .is_some_and(|p| p.color() == mover);
        if position.side_to_move() == mover && own {
            let legal = position.legal_moves();
            *self = Selection {
                selected: Some(square),
                path: Vec::new(),
                candidates: legal
                    .iter()
                    .copied()
                    .filter(|m| m.from() == square)
                    .collect(),
                ambiguous: false,
                must_capture: false,
            };
            self.must_capture = self.candidates.is_empty() && legal.iter().any(|m| m.is_capture());
        } else {
            self.clear();
        }
        None
    }

    /// Where the candidates end, each square once.
    #[must_use]
    pub fn targets(&self) -> Vec<Square> {
        let mut targets: Vec<Square> = self.candidates.iter().map(|m| m.to()).collect();
        targets.sort();
        targets.dedup();
        targets
    }

    /// The next landing squares of the candidates that share their end with another (what to
    /// click to tell them apart).
    #[must_use]
    pub fn next_landings(&self) -> Vec<Square> {
        let k = self.path.len();
        let mut squares: Vec<Square> = self
            .candidates
            .iter()
            .filter(|m| self.candidates.iter().filter(|o| o.to() == m.to()).count() > 1)
            .filter_map(|m| m.landings().nth(k))
            .filter(|&s| !self.candidates.iter().any(|m| m.to() == s))
            .collect();
        squares.sort();
        squares.dedup();
        squares
    }

    /// A line for the status area about the selection, if it needs one.
    #[must_use]
    pub fn notice(&self) -> Option<&'static str> {
        if self.must_capture {
            Some("A capture is compulsory elsewhere")
        } else if self.ambiguous || !self.path.is_empty() {
            Some("Two captures end there: click a blue dot")
        } else {
            None
        }
    }

    /// Deselects.
    pub fn clear(&mut self) {
        *self = Selection::default();
    }
}

/// The Dama board: its geometry, its clicks and its drawing (the rest is [`View`]'s).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct DamaBoard;

/// The Dama board view.
pub type DamaView = View<DamaBoard>;

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
        Square::from_coords(row, column)
    }

    fn square_rect(&self, square: Square) -> Rect {
        self.grid.rect(square.column(), square.row())
    }

    fn dead_spot(&self, point: Vec2) -> bool {
        self.grid.cells().contains(point) && Geometry::square_at(self, point).is_none()
    }
}

impl Clicking<Dama, Square> for Selection {
    fn click(&mut self, position: &Position, mover: Color, square: Option<Square>) -> Option<Move> {
        Selection::click(self, position, mover, square)
    }

    fn targets(&self) -> Vec<Square> {
        let next = self.path.len();
        self.candidates
            .iter()
            .filter_map(|mv| {
                if mv.is_capture() {
                    mv.landings().nth(next)
                } else {
                    (next == 0).then(|| mv.to())
                }
            })
            .collect()
    }

    fn notice(&self) -> Option<String> {
        Selection::notice(self).map(str::to_owned)
    }
}

impl Board for DamaBoard {
    type Game = Dama;
    type Geometry = Geometry;
    type Clicks = Selection;

    fn draw(view: &DamaView, scene: &Scene<'_, Dama>, theme: &Theme) {
        super::dama_draw::draw(view, scene, theme);
    }

    fn draw_transient(view: &DamaView, scene: &Scene<'_, Dama>) {
        super::dama_draw::draw_transient(view, scene);
    }

    fn edit_screen(position: &Position, setup: &GameSetup) -> Option<Box<dyn Screen>> {
        crate::gui::editor::open::<DamaView>(position, setup)
    }

    fn material(position: &Position, color: Color) -> Option<String> {
        let kings = position.count_kings(color);
        let men = position.count(color) - kings;
        let men = super::plural(men, "man", "men");
        let kings_text = super::plural(kings, "king", "kings");
        Some(match (position.count(color) - kings, kings) {
            (_, 0) => men,
            (0, _) => kings_text,
            _ => format!("{men}, {kings_text}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use tavola_sdk::Game;

    use super::*;
    use crate::gui::board::BoardView as _;
    use crate::gui::screen::Input;

    fn sq(n: u8) -> Square {
        Square::new(n).unwrap()
    }

    fn position(fen: &str) -> Position {
        Dama::parse_position(fen, None).unwrap()
    }

    #[test]
    fn the_fid_orientation_and_numbering() {
        let g = Geometry::new(Rect::new(0.0, 0.0, 400.0, 400.0), false);
        assert_eq!(g.grid.cell, 50.0);
        // Square 1 top-left, 32 bottom-right: both dark.
        assert_eq!(g.square_at(Vec2::new(25.0, 25.0)), Some(sq(1)));
        assert_eq!(g.square_at(Vec2::new(375.0, 375.0)), Some(sq(32)));
        assert_eq!(g.square_at(Vec2::new(325.0, 25.0)), Some(sq(4)));
        assert_eq!(g.square_at(Vec2::new(75.0, 75.0)), Some(sq(5)));
        // Light squares are none: the top-left's neighbours.
        assert_eq!(g.square_at(Vec2::new(75.0, 25.0)), None);
        assert_eq!(g.square_at(Vec2::new(25.0, 75.0)), None);
        // Off the board.
        assert_eq!(g.square_at(Vec2::new(401.0, 25.0)), None);
        for s in Square::ALL {
            assert_eq!(g.square_at(g.square_centre(s)), Some(s));
        }
        // Flipped (Black at the bottom): 1 is bottom-right, still dark for Black.
        let f = Geometry::new(Rect::new(0.0, 0.0, 400.0, 400.0), true);
        assert_eq!(f.square_at(Vec2::new(375.0, 375.0)), Some(sq(1)));
        assert_eq!(f.square_at(Vec2::new(25.0, 25.0)), Some(sq(32)));
        for s in Square::ALL {
            assert_eq!(f.square_at(f.square_centre(s)), Some(s));
        }
    }

    #[test]
    fn a_step_is_two_clicks() {
        let start = Dama::start(None).unwrap();
        let mut s = Selection::default();
        assert_eq!(s.click(&start, Color::White, Some(sq(22))), None);
        assert_eq!(s.selected, Some(sq(22)));
        assert_eq!(s.targets(), [sq(18), sq(19)]);
        // A man behind the front row cannot move: selected, no targets.
        s.click(&start, Color::White, Some(sq(29)));
        assert_eq!(s.selected, Some(sq(29)));
        assert!(s.targets().is_empty());
        assert!(!s.must_capture);
        s.click(&start, Color::White, Some(sq(23)));
        let mv = s.click(&start, Color::White, Some(sq(19)));
        assert_eq!(mv.map(|m| m.to_string()), Some("23-19".to_owned()));
        assert_eq!(s, Selection::default());
        // Black's pieces cannot be selected by White.
        s.click(&start, Color::White, Some(sq(9)));
        assert_eq!(s.selected, None);
    }

    #[test]
    fn a_multi_capture_is_played_by_its_last_square() {
        // 31x24x15x8 is the only capture.
        let p = position("W:W31:B12,20,28");
        let mut s = Selection::default();
        s.click(&p, Color::White, Some(sq(31)));
        assert_eq!(s.targets(), [sq(8)]);
        let mv = s.click(&p, Color::White, Some(sq(8))).unwrap();
        assert_eq!(mv.to_string(), "31x24x15x8");
    }

    #[test]
    fn a_capture_round_a_ring_is_one_move_played_by_its_first_landing() {
        // The king on 26 takes the four men round it, back to 26: one move, whichever way round.
        let p = position("W:WK26:B13,14,21,22");
        let legal = p.legal_moves();
        assert_eq!(legal.len(), 1, "{legal:?}");
        let ring = legal[0];
        let mut s = Selection::default();
        s.click(&p, Color::White, Some(sq(26)));
        assert_eq!(s.targets(), [sq(26)]);
        // A second click on the king deselects it, although the capture ends there.
        assert_eq!(s.click(&p, Color::White, Some(sq(26))), None);
        assert_eq!(s, Selection::default());
        // Its first landing plays it.
        s.click(&p, Color::White, Some(sq(26)));
        let first = ring.landings().next().unwrap();
        assert_eq!(s.click(&p, Color::White, Some(first)), Some(ring));
        assert_eq!(s, Selection::default());
    }

    #[test]
    fn a_ring_after_a_first_capture_ends_where_it_lands() {
        // The king on 29 takes 26 to 22, then the four men round 22, back to 22: one move.
        let p = position("W:WK29:B10,11,18,19,26");
        let legal = p.legal_moves();
        assert_eq!(legal.len(), 1, "{legal:?}");
        let mut s = Selection::default();
        s.click(&p, Color::White, Some(sq(29)));
        assert_eq!(s.targets(), [sq(22)]);
        assert_eq!(s.click(&p, Color::White, Some(sq(22))), Some(legal[0]));
    }

    #[test]
    fn a_piece_that_may_not_move_while_another_must_capture() {
        // White 22 must take 18; 23 is selected but cannot move.
        let p = position("W:W22,30:B18");
        let mut s = Selection::default();
        s.click(&p, Color::White, Some(sq(30)));
        assert!(s.targets().is_empty());
        assert!(s.must_capture);
        assert!(s.notice().unwrap().contains("compulsory"));
        s.click(&p, Color::White, Some(sq(22)));
        assert!(!s.must_capture);
        assert_eq!(s.targets(), [sq(13)]);
    }

    #[test]
    fn the_view_turns_mouse_input_into_moves() {
        let start = Dama::start(None).unwrap();
        let mut view = DamaView::default();
        view.layout(Rect::new(0.0, 0.0, 400.0, 400.0), false);
        let g = view.geometry;
        let at = |n: u8| g.square_centre(sq(n));
        assert_eq!(view.input(&start, None, &Input::click(at(22))), None);
        assert_eq!(view.hovered, Some(sq(22)));
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(at(22)));
        assert_eq!(view.selection.selected, Some(sq(22)));
        // A click on a light square changes nothing.
        view.input(
            &start,
            Some(Color::White),
            &Input::click(Vec2::new(75.0, 25.0)),
        );
        assert_eq!(view.selection.selected, Some(sq(22)));
        let esc = Input {
            escape: true,
            ..Input::default()
        };
        view.input(&start, Some(Color::White), &esc);
        assert_eq!(view.selection.selected, None);
        view.input(&start, Some(Color::White), &Input::click(at(22)));
        let mv = view.input(&start, Some(Color::White), &Input::click(at(18)));
        assert_eq!(mv.map(|m| m.to_string()), Some("22-18".to_owned()));
    }

    #[test]
    fn material_counts_men_and_kings() {
        let start = Dama::start(None).unwrap();
        assert_eq!(
            DamaView::material(&start, Color::White).as_deref(),
            Some("12 men")
        );
        let p = position("W:WK22,30:B18");
        assert_eq!(
            DamaView::material(&p, Color::White).as_deref(),
            Some("1 man, 1 king")
        );
        let p = position("W:W22:BK18,K5");
        assert_eq!(
            DamaView::material(&p, Color::Black).as_deref(),
            Some("2 kings")
        );
    }
}
