//! Board views: one per game, behind [`BoardView`]. A view knows its board's geometry
//! (layout, hit-testing), turns clicks into moves (selection state), and draws a [`Scene`].
//!
//! A view never decides a rule: what may be selected and where a piece may go comes from the
//! position's legal moves. Adding a game means adding a view here; the game screen, the panel
//! and the start screen stay as they are.

use macroquad::math::{Rect, Vec2};
use tavola_sdk::{Color, Game};

use super::screen::Input;
use super::theme::Theme;

pub mod ataxx;
mod ataxx_draw;
pub mod cache;
pub mod dama;
mod dama_draw;
pub mod gonnect;
mod gonnect_draw;
pub mod grid;
pub mod paint;
pub mod tablut;
mod tablut_draw;

/// What a board view draws in one frame.
#[derive(Debug)]
pub struct Scene<'a, G: Game> {
    /// The position shown (the live one, or one from the move list).
    pub position: &'a G::Position,
    /// The position before [`Scene::last_move`], to show what it captured or converted.
    pub before: Option<&'a G::Position>,
    /// The move that led to `position`, marked on the board.
    pub last_move: Option<G::Move>,
    /// Seconds since `last_move` was played (captures and conversions are shown for a moment).
    pub since_last_move: f32,
    /// The colour whose person may move now with the mouse, if any.
    pub mover: Option<Color>,
    /// A suggested move, drawn as an arrow.
    pub hint: Option<G::Move>,
}

/// A move played with a button next to the board rather than on it (Ataxx: the pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ButtonMove<M> {
    /// The button's label.
    pub label: &'static str,
    /// A line saying why the button is there.
    pub notice: &'static str,
    /// The move it plays.
    pub mv: M,
}

/// One game's board: geometry, mouse interaction and drawing.
pub trait BoardView: Default + Clone + PartialEq + std::fmt::Debug + 'static {
    /// The game.
    type Game: Game;

    /// A square (or point) of the board.
    type Square: Copy + Eq + std::fmt::Debug + std::fmt::Display + 'static;

    /// The square under `point`, as laid out.
    fn square_at(&self, point: Vec2) -> Option<Self::Square>;

    /// The rectangle of `square`, as laid out (for a point: the cell around it).
    fn square_rect(&self, square: Self::Square) -> Rect;

    /// Whether the board starts turned round when only Black is a person (a Go board is never
    /// turned: it has no sides).
    const TURN_FOR_BLACK: bool = true;

    /// Lays the board out in `area` (coordinates included), turned round when `flipped`
    /// (the second player at the bottom). Called every frame: the window may have been resized.
    fn layout(&mut self, area: Rect, flipped: bool);

    /// The board's outer rectangle (squares and coordinates), as laid out.
    fn rect(&self) -> Rect;

    /// Reacts to the mouse and keys over `position`. `mover` is the colour whose person may move
    /// now (`None`: nobody may; the view only tracks the mouse). Returns a move once a click
    /// completes one; it is legal in `position`.
    fn input(
        &mut self,
        position: &<Self::Game as Game>::Position,
        mover: Option<Color>,
        input: &Input,
    ) -> Option<<Self::Game as Game>::Move>;

    /// Drops any selection (the position changed under it).
    fn clear_selection(&mut self);

    /// Moves a person plays with a button rather than on the board, when they may move now.
    fn button_moves(
        &self,
        position: &<Self::Game as Game>::Position,
    ) -> Vec<ButtonMove<<Self::Game as Game>::Move>>;

    /// A line for the status area about the person's selection ("capturing is compulsory"),
    /// shown in place of "Your move".
    fn notice(&self) -> Option<String> {
        None
    }

    /// Draws `scene` (after [`BoardView::layout`] of the same frame) as it stands once the last
    /// move's animation is over: nothing here depends on [`Scene::since_last_move`], so the
    /// picture can be kept (see [`cache`]).
    fn draw(&self, scene: &Scene<'_, Self::Game>, theme: &Theme);

    /// Draws over [`BoardView::draw`]'s picture what the last move changed, for a moment after
    /// it (captured pieces fading out, converted ones turning); nothing once
    /// [`Scene::since_last_move`] is past [`paint::FADE`].
    fn draw_transient(&self, scene: &Scene<'_, Self::Game>);

    /// The position editor of this board, opened on `position` from a game set up as `setup`
    /// (see [`crate::gui::editor`]).
    fn edit_screen(
        position: &<Self::Game as Game>::Position,
        setup: &crate::text_ui::GameSetup,
    ) -> Option<Box<dyn super::screen::Screen>>;

    /// What `color` has on the board, in a few words ("12 pieces", "10 men, 1 king"), shown
    /// beside each player. `None`: the game shows nothing.
    fn material(position: &<Self::Game as Game>::Position, color: Color) -> Option<String>;
}

/// Where one game's squares (or points) are on the screen: all a view knows of its board's
/// shape. Hit-testing, the selection's input and the editor go through it.
pub trait Geometry: Default + Clone + PartialEq + std::fmt::Debug + 'static {
    /// A square (or point) of the board.
    type Square: Copy + Eq + std::fmt::Debug + std::fmt::Display + 'static;

    /// The largest board that fits `area`, centred, turned round when `flipped`.
    fn fit(area: Rect, flipped: bool) -> Self;

    /// The board's outer rectangle (squares and coordinates).
    fn outer(&self) -> Rect;

    /// The square under `point`, if any.
    fn square_at(&self, point: Vec2) -> Option<Self::Square>;

    /// The rectangle of `square` (for a point: the cell around it).
    fn square_rect(&self, square: Self::Square) -> Rect;

    /// Whether `point` is on the board but on no square (a light Dama square): a click there
    /// changes nothing.
    fn dead_spot(&self, _point: Vec2) -> bool {
        false
    }
}

/// How one game turns clicks into moves: the selection state of a person.
pub trait Clicking<G: Game, S>: Default + Clone + PartialEq + std::fmt::Debug + 'static {
    /// A left click on `square` (`None`: off the board) while `mover` is to move in `position`.
    /// Returns the move the click completes, if any; it is legal.
    fn click(&mut self, position: &G::Position, mover: Color, square: Option<S>)
        -> Option<G::Move>;

    /// Where the selected piece may go next (a legal destination under the mouse turns green).
    fn targets(&self) -> Vec<S> {
        Vec::new()
    }

    /// Drops the selection.
    fn clear(&mut self) {
        *self = Self::default();
    }

    /// A line about the selection for the status area.
    fn notice(&self) -> Option<String> {
        None
    }
}

/// What each game's view keeps: its geometry, its clicks and its drawing. [`View`] does the
/// rest, the same for every game.
pub trait Board: Default + Clone + PartialEq + std::fmt::Debug + 'static {
    /// The game.
    type Game: Game;
    /// Where its squares are.
    type Geometry: Geometry;
    /// How clicks become moves.
    type Clicks: Clicking<Self::Game, <Self::Geometry as Geometry>::Square>;

    /// See [`BoardView::TURN_FOR_BLACK`].
    const TURN_FOR_BLACK: bool = true;

    /// See [`BoardView::button_moves`].
    fn button_moves(
        _position: &<Self::Game as Game>::Position,
    ) -> Vec<ButtonMove<<Self::Game as Game>::Move>> {
        Vec::new()
    }

    /// See [`BoardView::draw`].
    fn draw(view: &View<Self>, scene: &Scene<'_, Self::Game>, theme: &Theme);

    /// See [`BoardView::draw_transient`].
    fn draw_transient(view: &View<Self>, scene: &Scene<'_, Self::Game>);

    /// See [`BoardView::material`].
    fn material(position: &<Self::Game as Game>::Position, color: Color) -> Option<String>;

    /// See [`BoardView::edit_screen`].
    fn edit_screen(
        position: &<Self::Game as Game>::Position,
        setup: &crate::text_ui::GameSetup,
    ) -> Option<Box<dyn super::screen::Screen>>;
}

/// A board view of any game: the layout, the mouse and the selection, the same for all; the
/// game's [`Board`] gives the geometry, the clicks and the drawing.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct View<B: Board> {
    /// The layout of the last frame.
    pub geometry: B::Geometry,
    /// The person's selection.
    pub selection: B::Clicks,
    /// The square under the mouse.
    pub hovered: Option<<B::Geometry as Geometry>::Square>,
}

impl<B: Board> BoardView for View<B> {
    type Game = B::Game;
    type Square = <B::Geometry as Geometry>::Square;

    fn square_at(&self, point: Vec2) -> Option<Self::Square> {
        self.geometry.square_at(point)
    }

    fn square_rect(&self, square: Self::Square) -> Rect {
        self.geometry.square_rect(square)
    }

    const TURN_FOR_BLACK: bool = B::TURN_FOR_BLACK;

    fn layout(&mut self, area: Rect, flipped: bool) {
        self.geometry = B::Geometry::fit(area, flipped);
    }

    fn rect(&self) -> Rect {
        self.geometry.outer()
    }

    fn input(
        &mut self,
        position: &<B::Game as Game>::Position,
        mover: Option<Color>,
        input: &Input,
    ) -> Option<<B::Game as Game>::Move> {
        use tavola_sdk::Position as _;
        self.hovered = self.geometry.square_at(input.mouse);
        let Some(mover) = mover.filter(|&m| m == position.side_to_move()) else {
            self.selection.clear();
            return None;
        };
        if input.right_click || input.escape {
            self.selection.clear();
            return None;
        }
        if input.left_click && !self.geometry.dead_spot(input.mouse) {
            return self.selection.click(position, mover, self.hovered);
        }
        None
    }

    fn clear_selection(&mut self) {
        self.selection.clear();
    }

    fn button_moves(
        &self,
        position: &<B::Game as Game>::Position,
    ) -> Vec<ButtonMove<<B::Game as Game>::Move>> {
        B::button_moves(position)
    }

    fn notice(&self) -> Option<String> {
        self.selection.notice()
    }

    fn draw(&self, scene: &Scene<'_, B::Game>, theme: &Theme) {
        B::draw(self, scene, theme);
        // A legal destination under the mouse turns green (as in Attax).
        if let (Some(_), Some(square)) = (scene.mover, self.hovered) {
            if self.selection.targets().contains(&square) {
                paint::tint(
                    self.geometry.square_rect(square),
                    super::theme::alpha(super::theme::GOOD, 0.45),
                );
            }
        }
    }

    fn draw_transient(&self, scene: &Scene<'_, B::Game>) {
        B::draw_transient(self, scene);
    }

    fn edit_screen(
        position: &<B::Game as Game>::Position,
        setup: &crate::text_ui::GameSetup,
    ) -> Option<Box<dyn super::screen::Screen>> {
        B::edit_screen(position, setup)
    }

    fn material(position: &<B::Game as Game>::Position, color: Color) -> Option<String> {
        B::material(position, color)
    }
}

/// `count` and the noun: "1 man", "3 men".
#[must_use]
pub fn plural(count: u32, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
