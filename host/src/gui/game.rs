//! The game screen: a board view, the side panel and the end-of-game card around a [`Session`].
//!
//! [`GameScreen::update`] turns the frame's input into session actions and navigation; the
//! drawing (here and in `panel.rs`) only shows the state.

use macroquad::color::Color as Rgba;
use macroquad::math::Vec2;
use macroquad::shapes::draw_rectangle;
use macroquad::window::clear_background;
use tavola_sdk::{Color, Game};

use super::board::{BoardView, Scene};
use super::layout::{GameLayout, MoveList, Overlay, PanelButton};
use super::screen::{Input, Nav, Screen};
use super::session::{result_words, Session};
use super::start::StartScreen;
use super::theme::{self, alpha, rgb, ButtonStyle, Theme, Weight};
use crate::builtin::Evaluate;
use crate::text_ui::GameSetup;

/// The game screen for the board view `V`.
#[derive(Debug)]
pub struct GameScreen<V: BoardView>
where
    V::Game: Evaluate,
{
    pub(super) session: Session<V::Game>,
    pub(super) view: V,
    pub(super) layout: GameLayout,
    /// The board shows the second player at the bottom.
    pub(super) flipped: bool,
    /// The ply shown from the move list (`None`: the live position).
    pub(super) browsing: Option<usize>,
    /// The move list's scroll, in pixels.
    pub(super) scroll: f32,
    /// The end-of-game card was closed to look at the board.
    pub(super) overlay_closed: bool,
    /// A line of trouble to show (a new game that could not start).
    pub(super) error: Option<String>,
    pub(super) now: f64,
    /// The mouse, as this frame's input had it (for hover effects).
    pub(super) mouse: Vec2,
}

impl<V: BoardView> GameScreen<V>
where
    V::Game: Evaluate,
{
    /// A screen playing `setup`; the board is flipped when only Black is a person.
    ///
    /// # Errors
    /// As [`Session::new`]: a bad position or variant, a player that cannot be seated.
    pub fn new(setup: &GameSetup) -> anyhow::Result<GameScreen<V>> {
        let session = Session::<V::Game>::new(setup)?;
        let flipped = session.is_human(Color::Black) && !session.is_human(Color::White);
        Ok(GameScreen {
            session,
            view: V::default(),
            layout: GameLayout::new(Vec2::new(1280.0, 800.0)),
            flipped,
            browsing: None,
            scroll: 0.0,
            overlay_closed: false,
            error: None,
            now: 0.0,
            mouse: Vec2::new(-1.0, -1.0),
        })
    }

    /// The session (tests).
    pub fn session(&self) -> &Session<V::Game> {
        &self.session
    }

    fn move_list(&self) -> MoveList {
        MoveList {
            rect: self.layout.moves,
            scroll: self.scroll,
            plies: self.session.moves().len(),
        }
    }

    /// A new game from `setup` on a fresh seed, in place of this one.
    fn restart(&mut self, mut setup: GameSetup, swap: bool) -> Nav {
        self.session.stop_all();
        if swap {
            setup.players.swap(0, 1);
        }
        setup.seed = setup
            .seed
            .wrapping_mul(0x5851_F42D_4C95_7F2D)
            .wrapping_add(1);
        match GameScreen::<V>::new(&setup) {
            Ok(screen) => Nav::Replace(Box::new(screen)),
            Err(e) => {
                self.error = Some(format!("{e:#}"));
                Nav::Stay
            }
        }
    }

    fn panel_button(&mut self, button: PanelButton) -> Nav {
        match button {
            PanelButton::NewGame => return self.restart(self.session.setup().clone(), false),
            PanelButton::Undo => {
                if self.session.undo(self.now) {
                    self.browsing = None;
                    self.overlay_closed = false;
                    self.view.clear_selection();
                }
            }
            PanelButton::Hint => self.session.ask_hint(),
            PanelButton::MoveNow => self.session.move_now(),
            PanelButton::Flip => self.flipped = !self.flipped,
            PanelButton::Menu => {
                self.session.stop_all();
                let game = V::Game::NAME;
                return Nav::Replace(Box::new(StartScreen::with_setup(
                    game,
                    self.session.setup(),
                )));
            }
        }
        Nav::Stay
    }

    /// Whether `button` does something now.
    pub(super) fn enabled(&self, button: PanelButton) -> bool {
        match button {
            PanelButton::Undo => self.session.undo_target().is_some(),
            PanelButton::Hint => self.session.result().is_none() && self.session.hint().is_none(),
            PanelButton::MoveNow => self.session.thinking().is_some(),
            PanelButton::NewGame | PanelButton::Flip | PanelButton::Menu => true,
        }
    }

    /// The game's end card is up.
    pub(super) fn overlay_open(&self) -> bool {
        self.session.result().is_some() && !self.overlay_closed && self.browsing.is_none()
    }

    /// The ply the board shows.
    pub(super) fn shown_ply(&self) -> usize {
        self.browsing.unwrap_or(self.session.moves().len())
    }

    fn browse(&mut self, ply: Option<usize>) {
        let last = self.session.moves().len();
        self.browsing = ply.filter(|&p| p < last);
        self.view.clear_selection();
        self.scroll = self.move_list().scroll_to(ply.unwrap_or(last).max(1));
    }

    fn handle_input(&mut self, input: &Input) -> Nav {
        if self.overlay_open() {
            let overlay = Overlay::new(self.view.rect());
            if input.clicked(overlay.new_game) {
                return self.restart(self.session.setup().clone(), false);
            }
            if input.clicked(overlay.rematch) {
                return self.restart(self.session.setup().clone(), true);
            }
            if input.escape || input.clicked(overlay.close) {
                self.overlay_closed = true;
            }
            // The panel stays usable under the card (undo, menu, the move list).
            if !self.layout.panel.contains(input.mouse) {
                return Nav::Stay;
            }
        }
        if input.left_click {
            if let Some(button) = self.layout.button_at(input.mouse) {
                return if self.enabled(button) {
                    self.panel_button(button)
                } else {
                    Nav::Stay
                };
            }
            if let Some(ply) = self.move_list().ply_at(input.mouse) {
                self.browse(Some(ply));
                return Nav::Stay;
            }
        }
        if input.wheel != 0.0 && self.layout.moves.contains(input.mouse) {
            let list = self.move_list();
            self.scroll = (self.scroll - input.wheel.signum() * 3.0 * super::layout::MOVE_ROW)
                .clamp(0.0, list.max_scroll());
        }
        if input.left || input.right {
            let shown = self.shown_ply();
            let ply = if input.left {
                shown.saturating_sub(1)
            } else {
                shown + 1
            };
            self.browse(Some(ply));
        }
        if self.browsing.is_some() {
            if input.escape || input.clicked(self.view.rect()) {
                self.browse(None);
            }
            return Nav::Stay;
        }
        // The board, and a move played with a button (the pass).
        let mover = self.session.human_to_move();
        let position = self.session.position().clone();
        if let Some(mv) = self.view.input(&position, mover, input) {
            self.session.play_human(mv, self.now);
        }
        if mover.is_some() && input.left_click {
            if let Some(button) = self.view.button_moves(&position).first() {
                if input.clicked(super::panel::pass_button(self.layout.status)) {
                    self.session.play_human(button.mv, self.now);
                }
            }
        }
        Nav::Stay
    }
}

impl<V: BoardView> Screen for GameScreen<V>
where
    V::Game: Evaluate,
{
    fn update(&mut self, input: &Input, size: Vec2, now: f64) -> Nav {
        self.now = now;
        self.mouse = input.mouse;
        self.layout = GameLayout::new(size);
        self.view.layout(self.layout.board_area, self.flipped);
        let plies = self.session.moves().len();
        let nav = self.handle_input(input);
        if !matches!(nav, Nav::Stay) {
            return nav;
        }
        self.session.update(now);
        if self.session.moves().len() != plies {
            self.view.clear_selection();
            if self.browsing.is_none() {
                self.scroll = self.move_list().scroll_to(self.session.moves().len());
            }
        }
        Nav::Stay
    }

    fn draw(&self, theme: &Theme, _size: Vec2, now: f64) {
        clear_background(theme::BACKGROUND);
        let ply = self.shown_ply();
        let live = self.browsing.is_none();
        let position = self.session.position_at(ply);
        let scene = Scene::<V::Game> {
            position,
            before: ply.checked_sub(1).map(|p| self.session.position_at(p)),
            last_move: ply
                .checked_sub(1)
                .and_then(|p| self.session.moves().get(p).copied()),
            since_last_move: if live {
                (now - self.session.last_move_at()) as f32
            } else {
                f32::INFINITY
            },
            mover: if live {
                self.session.human_to_move()
            } else {
                None
            },
            hint: if live { self.session.hint() } else { None },
        };
        self.view.draw(&scene, theme);
        let board = self.view.rect();
        if !live {
            let banner = macroquad::math::Rect::new(
                board.x + board.w * 0.2,
                board.y + 8.0,
                board.w * 0.6,
                30.0,
            );
            theme::rounded_rect(banner, 6.0, alpha(rgb(0x000000), 0.7));
            let text = format!(
                "Move {ply} of {}: click the board or Esc to return",
                self.session.moves().len()
            );
            theme.text_centred(&text, banner, 14.0, theme::TEXT, Weight::Regular);
        }
        super::panel::draw(self, theme);
        if self.overlay_open() {
            draw_overlay(self, theme);
        }
    }

    fn close(&mut self) {
        self.session.stop_all();
    }
}

fn draw_overlay<V: BoardView>(screen: &GameScreen<V>, theme: &Theme)
where
    V::Game: Evaluate,
{
    let Some(result) = screen.session.result() else {
        return;
    };
    let board = screen.view.rect();
    draw_rectangle(
        board.x,
        board.y,
        board.w,
        board.h,
        alpha(rgb(0x000000), 0.35),
    );
    let overlay = Overlay::new(board);
    let card = overlay.card;
    theme::rounded_rect(
        macroquad::math::Rect::new(card.x + 3.0, card.y + 5.0, card.w, card.h),
        10.0,
        alpha(rgb(0x000000), 0.4),
    );
    theme::rounded_rect(card, 10.0, theme::PANEL);
    let (headline, reason) = result_words(result);
    let accent: Rgba = match result.winner {
        Some(Color::White) => theme::PIECE_WHITE,
        Some(Color::Black) => rgb(0x9a9a9a),
        None => theme::MUTED,
    };
    let top = macroquad::math::Rect::new(card.x, card.y + 20.0, card.w, 34.0);
    theme.text_centred(&headline, top, 28.0, accent, Weight::Bold);
    let line = macroquad::math::Rect::new(card.x + 12.0, card.y + 62.0, card.w - 24.0, 22.0);
    theme.text_centred(&reason, line, 16.0, theme::TEXT, Weight::Regular);
    let position = screen.session.position();
    let counts: Vec<String> = Color::ALL
        .into_iter()
        .filter_map(|c| V::piece_count(position, c).map(|n| format!("{c} {n}")))
        .collect();
    if !counts.is_empty() {
        let line = macroquad::math::Rect::new(card.x, card.y + 88.0, card.w, 20.0);
        theme.text_centred(
            &counts.join("  ·  "),
            line,
            14.0,
            theme::MUTED,
            Weight::Regular,
        );
    }
    let mouse = screen.mouse;
    theme.button(
        overlay.new_game,
        "New game",
        ButtonStyle::normal(true, overlay.new_game.contains(mouse)),
        16.0,
    );
    theme.button(
        overlay.rematch,
        "Rematch",
        ButtonStyle::Primary {
            hot: overlay.rematch.contains(mouse),
        },
        16.0,
    );
    let close_color = if overlay.close.contains(mouse) {
        theme::TEXT
    } else {
        theme::MUTED
    };
    theme.text_centred("×", overlay.close, 22.0, close_color, Weight::Regular);
}
