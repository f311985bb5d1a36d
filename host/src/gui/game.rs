//! The game screen: a board view, the side panel and the end-of-game card around a [`Session`].
//!
//! [`GameScreen::update`] turns the frame's input into session actions and navigation; the
//! drawing (here and in `panel.rs`) only shows the state.

use std::path::Path;

use macroquad::color::Color as Rgba;
use macroquad::math::Vec2;
use macroquad::shapes::draw_rectangle;
use macroquad::window::clear_background;
use tavola_sdk::{Color, Game};

use super::board::cache::BoardCache;
use super::board::{BoardView, Scene};
use super::layout::{GameLayout, MoveList, Overlay, PanelButton};
use super::opening::Opening;
use super::prompt::{FilePrompt, PromptAction, PromptLayout, PromptMode, DEFAULT_FILE};
use super::screen::{Input, Nav, Screen};
use super::session::Session;
use super::start::StartScreen;
use super::theme::{self, alpha, rgb, ButtonStyle, Theme, Weight};
use super::GameKind;
use crate::builtin::Evaluate;
use crate::record;
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
    /// A line of news and when it was given (a saved game), shown for a few seconds.
    pub(super) notice: Option<(String, f64)>,
    /// The Save game / Load game prompt, when open.
    pub(super) prompt: Option<FilePrompt>,
    /// The file last saved to or loaded from (the prompt offers it again).
    pub(super) record_file: String,
    pub(super) now: f64,
    /// The mouse, as this frame's input had it (for hover effects).
    pub(super) mouse: Vec2,
    /// The board's picture, redrawn only when it changes.
    board: std::cell::RefCell<BoardCache<V>>,
    /// The next game (New game, Rematch, Load game), while its players are seated.
    pub(super) opening: Option<Opening>,
}

impl<V: BoardView> GameScreen<V>
where
    V::Game: Evaluate,
{
    /// A screen playing `setup`; the board is flipped when only Black is a person (on boards
    /// that turn, see [`BoardView::TURN_FOR_BLACK`]).
    ///
    /// # Errors
    /// As [`Session::new`]: a bad position or variant, a player that cannot be seated.
    pub fn new(setup: &GameSetup) -> anyhow::Result<GameScreen<V>> {
        Ok(GameScreen::with_session(Session::<V::Game>::new(setup)?))
    }

    /// A screen playing `session` (see [`GameScreen::new`]).
    pub(super) fn with_session(session: Session<V::Game>) -> GameScreen<V> {
        let flipped =
            V::TURN_FOR_BLACK && session.is_human(Color::Black) && !session.is_human(Color::White);
        GameScreen {
            session,
            view: V::default(),
            layout: GameLayout::new(Vec2::new(1280.0, 800.0)),
            flipped,
            browsing: None,
            scroll: 0.0,
            overlay_closed: false,
            error: None,
            notice: None,
            prompt: None,
            record_file: DEFAULT_FILE.to_owned(),
            now: 0.0,
            mouse: Vec2::new(-1.0, -1.0),
            board: std::cell::RefCell::default(),
            opening: None,
        }
    }

    /// This screen, showing that its game was continued from `file` (with `notice`).
    pub(super) fn continuing(mut self, file: &str, notice: String) -> GameScreen<V> {
        self.record_file = file.to_owned();
        self.notice = Some((notice, 0.0));
        self.scroll = self.move_list().scroll_to(self.session.moves().len());
        self
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
        // A loaded game starts again from its variant's start.
        setup.resume = None;
        if swap {
            setup.players.swap(0, 1);
        }
        setup.seed = setup
            .seed
            .wrapping_mul(0x5851_F42D_4C95_7F2D)
            .wrapping_add(1);
        let opening = Opening::start(setup, |screen: GameScreen<V>| screen);
        self.open(opening, "Starting a new game…")
    }

    /// Shows `opening`'s game once its players are seated; until then this game stays, with
    /// `waiting` in the status line.
    fn open(&mut self, opening: Opening, waiting: &str) -> Nav {
        self.error = None;
        // Given "at" the end of time: shown until the game opens.
        self.notice = Some((waiting.to_owned(), f64::INFINITY));
        self.opening = Some(opening);
        self.poll_opening()
    }

    /// The next game, once its players are seated (or why it could not start).
    fn poll_opening(&mut self) -> Nav {
        let Some(opened) = self.opening.as_mut().and_then(Opening::poll) else {
            return Nav::Stay;
        };
        self.opening = None;
        self.notice = None;
        match opened {
            Ok(screen) => {
                self.session.stop_all();
                Nav::Replace(screen)
            }
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
            PanelButton::Save => {
                self.prompt = Some(FilePrompt::new(PromptMode::Save, &self.record_file));
            }
            PanelButton::Load => {
                self.prompt = Some(FilePrompt::new(PromptMode::Load, &self.record_file));
            }
            PanelButton::Edit => {
                self.session.stop_all();
                let position = self.session.position_at(self.shown_ply());
                if let Some(editor) = V::edit_screen(position, self.session.setup()) {
                    return Nav::Replace(editor);
                }
            }
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
            PanelButton::NewGame
            | PanelButton::Flip
            | PanelButton::Menu
            | PanelButton::Save
            | PanelButton::Load
            | PanelButton::Edit => true,
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

    /// Appends the game's record to the file at `path`.
    fn save(&mut self, path: &Path) -> Result<(), String> {
        record::append_to_file(path, &self.session.record()).map_err(|e| format!("{e:#}"))?;
        self.notice = Some((format!("Saved to {}", path.display()), self.now));
        Ok(())
    }

    /// Continues the last game recorded in the file at `path`, on its game's board, with the
    /// players and clocks chosen now.
    fn load(&mut self, path: &Path) -> Result<Nav, String> {
        let record = record::last_in_file(path).map_err(|e| format!("{e:#}"))?;
        let kind = GameKind::of_record(&record)?;
        kind.replays(&record).map_err(|e| format!("{e:#}"))?;
        let mut setup = self.session.setup().clone();
        setup.variant = record.tag("Variant").map(str::to_owned);
        setup.position = None;
        setup.resume = Some(record);
        let notice = format!("Continuing the last game of {}", path.display());
        let file = path.to_string_lossy().into_owned();
        let opening = kind.resuming(setup, file, notice);
        Ok(self.open(opening, "Loading the game…"))
    }

    /// The file prompt's frame: typing, confirming (saving or loading), cancelling.
    fn prompt_input(&mut self, input: &Input) -> Nav {
        let Some(prompt) = &mut self.prompt else {
            return Nav::Stay;
        };
        let layout = PromptLayout::new(self.view.rect());
        match prompt.input(input, &layout) {
            PromptAction::Stay => Nav::Stay,
            PromptAction::Cancel => {
                self.prompt = None;
                Nav::Stay
            }
            PromptAction::Confirm(path) => {
                let mode = prompt.mode;
                let done = match mode {
                    PromptMode::Save | PromptMode::SaveBoard => {
                        self.save(&path).map(|()| Nav::Stay)
                    }
                    PromptMode::Load | PromptMode::LoadBoard => self.load(&path),
                };
                match done {
                    Ok(nav) => {
                        self.record_file = path.to_string_lossy().into_owned();
                        self.prompt = None;
                        nav
                    }
                    Err(error) => {
                        if let Some(prompt) = &mut self.prompt {
                            prompt.error = Some(error);
                        }
                        Nav::Stay
                    }
                }
            }
        }
    }

    fn handle_input(&mut self, input: &Input) -> Nav {
        if self.prompt.is_some() {
            return self.prompt_input(input);
        }
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
        if input.typed == "e" {
            return self.panel_button(PanelButton::Edit);
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
        let nav = self.poll_opening();
        if !matches!(nav, Nav::Stay) {
            return nav;
        }
        let nav = self.handle_input(input);
        if !matches!(nav, Nav::Stay) {
            return nav;
        }
        // The input may have flipped the board: draw this frame as it is now.
        self.view.layout(self.layout.board_area, self.flipped);
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
        self.board
            .borrow_mut()
            .draw(&self.view, &scene, self.layout.board_area, theme);
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
        if let Some(prompt) = &self.prompt {
            let layout = PromptLayout::new(board);
            super::prompt::draw(prompt, &layout, board, theme, self.mouse);
        } else if self.overlay_open() {
            draw_overlay(self, theme);
        }
    }

    fn close(&mut self) {
        self.session.stop_all();
    }

    fn summary(&self) -> Option<String> {
        let moves: Vec<String> = self
            .session
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        let result = self.session.result_line().unwrap_or_else(|| "*".to_owned());
        Some(format!("moves: {}\nresult: {result}", moves.join(" ")))
    }

    fn bot_thinking(&self) -> bool {
        self.session.thinking().is_some()
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
    let Some((headline, reason)) = screen.session.result_words() else {
        return;
    };
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
        .filter_map(|c| V::material(position, c).map(|m| format!("{c}: {m}")))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use macroquad::math::Rect;
    use tavola_sdk::games::ataxx::Square;

    use super::*;
    use crate::gui::board::ataxx::AtaxxView;
    use crate::referee::Settings;

    const SIZE: Vec2 = Vec2::new(1280.0, 800.0);

    fn screen(white: &str, black: &str, position: Option<&str>) -> GameScreen<AtaxxView> {
        screen_of::<AtaxxView>(white, black, position)
    }

    fn screen_of<V: BoardView>(white: &str, black: &str, position: Option<&str>) -> GameScreen<V>
    where
        V::Game: Evaluate,
    {
        let setup = GameSetup {
            variant: None,
            position: position.map(str::to_owned),
            players: [white.parse().unwrap(), black.parse().unwrap()],
            settings: Settings::default(),
            seed: 5,
            resume: None,
            record_path: None,
            isolation: None,
        };
        let mut screen = GameScreen::<V>::new(&setup).unwrap();
        screen.update(&Input::default(), SIZE, 0.0);
        screen
    }

    #[test]
    fn the_edit_button_and_key_open_the_editor_and_play_returns_with_the_position() {
        let mut s = screen("human", "human", Some("x5o/7/7/7/7/7/o5x x 0 1"));
        assert!(matches!(
            s.update(
                &Input::click(button(&s, PanelButton::Edit).center()),
                SIZE,
                0.5
            ),
            Nav::Replace(_)
        ));
        let mut s = screen("human", "human", None);
        let key = Input {
            typed: "e".to_owned(),
            ..Input::default()
        };
        let Nav::Replace(mut editor) = s.update(&key, SIZE, 0.5) else {
            panic!("the e key opens the editor");
        };
        editor.update(&Input::default(), SIZE, 0.6);
        // `g`: the board is playable, and the start screen comes with it.
        let play = Input {
            typed: "g".to_owned(),
            ..Input::default()
        };
        let Nav::Replace(mut start) = editor.update(&play, SIZE, 0.7) else {
            panic!("g plays from the edited board");
        };
        start.update(&Input::default(), SIZE, 0.8);
    }

    fn at(screen: &GameScreen<AtaxxView>, square: &str) -> Vec2 {
        screen
            .view
            .geometry
            .square_centre(square.parse::<Square>().unwrap())
    }

    fn button(screen: &GameScreen<AtaxxView>, which: PanelButton) -> Rect {
        let i = PanelButton::ALL.iter().position(|&b| b == which).unwrap();
        screen.layout.buttons[i]
    }

    /// Frames until the next game, being opened on its own thread, replaces `s` (`nav`: what the
    /// click that asked for it gave).
    fn opened(s: &mut GameScreen<AtaxxView>, mut nav: Nav) -> Nav {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while matches!(nav, Nav::Stay) && std::time::Instant::now() < deadline {
            assert!(s.opening.is_some(), "a game is being opened");
            std::thread::sleep(Duration::from_millis(1));
            nav = s.update(&Input::default(), SIZE, 0.5);
        }
        nav
    }

    /// Frames until the bot has answered.
    fn settle(screen: &mut GameScreen<AtaxxView>, plies: usize) {
        let mut now = 0.0;
        for _ in 0..2000 {
            if screen.session.moves().len() >= plies {
                return;
            }
            now += 0.01;
            screen.update(&Input::default(), SIZE, now);
            std::thread::sleep(Duration::from_millis(1));
        }
        panic!("the bot did not answer");
    }

    #[test]
    fn a_person_plays_with_two_clicks_and_takes_back() {
        let mut s = screen("human", "random", None);
        s.update(&Input::click(at(&s, "a7")), SIZE, 0.1);
        s.update(&Input::click(at(&s, "c5")), SIZE, 0.2);
        assert_eq!(s.session.moves()[0].to_string(), "a7c5");
        settle(&mut s, 2);
        assert!(s.enabled(PanelButton::Undo));
        s.update(
            &Input::click(button(&s, PanelButton::Undo).center()),
            SIZE,
            1.0,
        );
        assert!(s.session.moves().is_empty());
    }

    #[test]
    fn the_board_flips_and_clicks_follow_it() {
        let mut s = screen("human", "human", None);
        assert!(!s.flipped);
        s.update(
            &Input::click(button(&s, PanelButton::Flip).center()),
            SIZE,
            0.1,
        );
        assert!(s.flipped);
        // a7 is now bottom-right; clicking there still selects a7.
        let a7 = at(&s, "a7");
        assert!(a7.x > s.view.geometry.squares().center().x);
        s.update(&Input::click(a7), SIZE, 0.2);
        assert_eq!(s.view.selection.selected, Some("a7".parse().unwrap()));
        // With only Black a person, the board starts flipped.
        assert!(screen("random", "human", None).flipped);
    }

    #[test]
    fn the_move_list_shows_old_positions_without_ending_the_game() {
        let mut s = screen("human", "human", None);
        for (from, to) in [("a7", "b6"), ("g7", "f6"), ("b6", "c5")] {
            s.update(&Input::click(at(&s, from)), SIZE, 0.1);
            s.update(&Input::click(at(&s, to)), SIZE, 0.1);
        }
        assert_eq!(s.session.moves().len(), 3);
        let list = s.move_list();
        s.update(&Input::click(list.ply_rect(1).center()), SIZE, 0.3);
        assert_eq!(s.browsing, Some(1));
        assert_eq!(s.shown_ply(), 1);
        // Clicks on the board do not play while browsing; they return to the game.
        s.update(&Input::click(at(&s, "g1")), SIZE, 0.4);
        assert_eq!(s.browsing, None);
        assert_eq!(s.session.moves().len(), 3);
        // Arrow keys step through the moves.
        let left = Input {
            left: true,
            ..Input::default()
        };
        s.update(&left, SIZE, 0.5);
        assert_eq!(s.browsing, Some(2));
        let esc = Input {
            escape: true,
            ..Input::default()
        };
        s.update(&esc, SIZE, 0.6);
        assert_eq!(s.browsing, None);
    }

    #[test]
    fn the_end_card_offers_a_rematch_with_colours_swapped() {
        // White takes Black's last piece with b6.
        let mut s = screen("human", "random", Some("xo5/7/7/7/7/7/7 x 0 1"));
        s.update(&Input::click(at(&s, "a7")), SIZE, 0.1);
        s.update(&Input::click(at(&s, "b6")), SIZE, 0.2);
        assert!(s.session.result().is_some());
        assert!(s.overlay_open());
        let overlay = Overlay::new(s.view.rect());
        let nav = s.update(&Input::click(overlay.rematch.center()), SIZE, 0.3);
        let nav = opened(&mut s, nav);
        let Nav::Replace(_) = nav else {
            panic!("{nav:?}")
        };
        let mut s = screen("human", "random", Some("xo5/7/7/7/7/7/7 x 0 1"));
        s.update(&Input::click(at(&s, "a7")), SIZE, 0.1);
        s.update(&Input::click(at(&s, "b6")), SIZE, 0.2);
        s.update(&Input::click(overlay.close.center()), SIZE, 0.3);
        assert!(!s.overlay_open());
    }

    /// A scratch folder in the system's temporary folder, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new() -> Scratch {
            static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("tavola-gui-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, name: &str) -> std::path::PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Opens the Save or Load prompt with the panel button, types `path` in place of the
    /// offered one, and confirms with the prompt's button.
    fn through_prompt(s: &mut GameScreen<AtaxxView>, which: PanelButton, path: &str) -> Nav {
        s.update(&Input::click(button(s, which).center()), SIZE, 1.0);
        let offered = s.prompt.as_ref().expect("the prompt is open").path.clone();
        for _ in 0..offered.chars().count() {
            let back = Input {
                backspace: true,
                ..Input::default()
            };
            s.update(&back, SIZE, 1.0);
        }
        let typed = Input {
            typed: path.to_owned(),
            ..Input::default()
        };
        s.update(&typed, SIZE, 1.0);
        let confirm = PromptLayout::new(s.view.rect()).confirm;
        s.update(&Input::click(confirm.center()), SIZE, 1.1)
    }

    #[test]
    fn a_saved_game_is_appended_and_loading_continues_it() {
        let scratch = Scratch::new();
        let file = scratch.file("games.pgn");
        let path = file.to_string_lossy().into_owned();
        let mut s = screen("human", "human", None);
        assert_eq!(s.prompt, None);
        s.update(&Input::click(at(&s, "a7")), SIZE, 0.1);
        s.update(&Input::click(at(&s, "c5")), SIZE, 0.2);
        assert!(matches!(
            through_prompt(&mut s, PanelButton::Save, &path),
            Nav::Stay
        ));
        assert_eq!(s.prompt, None, "closed once saved");
        assert!(s.notice.as_ref().unwrap().0.starts_with("Saved to"));
        s.update(&Input::click(at(&s, "g7")), SIZE, 0.3);
        s.update(&Input::click(at(&s, "f6")), SIZE, 0.4);
        // The prompt offers the file saved to last.
        s.update(
            &Input::click(button(&s, PanelButton::Save).center()),
            SIZE,
            1.0,
        );
        assert_eq!(s.prompt.as_ref().unwrap().path, path);
        let enter = Input {
            enter: true,
            ..Input::default()
        };
        s.update(&enter, SIZE, 1.0);
        let text = std::fs::read_to_string(&file).unwrap();
        let games = crate::record::GameRecord::parse_all(&text).unwrap();
        assert_eq!(games.len(), 2, "{text}");
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(games[1].moves[0].text, "a7c5");
        assert_eq!(games[1].moves[1].text, "f6");
        assert_eq!(games[1].tag("Game"), Some("ataxx"));
        assert_eq!(games[1].tag("White"), Some("Human"));
        assert_eq!(games[1].result, "*");

        // Loading continues the last game, players as chosen on this screen.
        let mut other = screen("random", "human", None);
        let nav = through_prompt(&mut other, PanelButton::Load, &path);
        let Nav::Replace(mut loaded) = opened(&mut other, nav) else {
            panic!("the loaded game replaces the screen");
        };
        loaded.update(&Input::default(), SIZE, 2.0);
        let summary = loaded.summary().unwrap();
        assert!(summary.starts_with("moves: a7c5 f6"), "{summary}");
    }

    #[test]
    fn load_errors_show_one_line_and_keep_the_game() {
        let scratch = Scratch::new();
        let missing = scratch.file("missing.pgn");
        let bad = scratch.file("bad.pgn");
        std::fs::write(&bad, "[Game \"ataxx\"]\n[Broken\n").unwrap();
        let chess = scratch.file("chess.pgn");
        std::fs::write(&chess, "[Game \"chess\"]\n\n1. e4 e5 *\n").unwrap();
        let illegal = scratch.file("illegal.pgn");
        std::fs::write(&illegal, "[Game \"ataxx\"]\n\n1. a7a1 *\n").unwrap();
        let empty = scratch.file("empty.pgn");
        std::fs::write(&empty, "\n").unwrap();
        for (file, expected) in [
            (&missing, "missing.pgn"),
            (&bad, "line 2"),
            (&chess, "\"chess\", which the window does not show"),
            (&illegal, "move 1 (\"a7a1\")"),
            (&empty, "holds no game"),
        ] {
            let mut s = screen("human", "human", None);
            s.update(&Input::click(at(&s, "a7")), SIZE, 0.1);
            s.update(&Input::click(at(&s, "b6")), SIZE, 0.2);
            let nav = through_prompt(&mut s, PanelButton::Load, &file.to_string_lossy());
            assert!(matches!(nav, Nav::Stay), "{nav:?}");
            let error = s.prompt.as_ref().unwrap().error.clone().unwrap();
            assert!(error.contains(expected), "{error:?} lacks {expected:?}");
            assert!(!error.contains('\n'), "one line: {error:?}");
            assert_eq!(s.session.moves().len(), 1, "the game goes on");
            // Esc closes the prompt; the board plays again.
            let esc = Input {
                escape: true,
                ..Input::default()
            };
            s.update(&esc, SIZE, 1.2);
            assert_eq!(s.prompt, None);
        }
    }

    #[test]
    fn a_save_that_cannot_be_written_says_why() {
        let scratch = Scratch::new();
        let dir = scratch.file("dir");
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = screen("human", "human", None);
        through_prompt(&mut s, PanelButton::Save, &dir.to_string_lossy());
        let error = s.prompt.as_ref().unwrap().error.clone().unwrap();
        assert!(error.contains("to save the game"), "{error}");
    }

    /// The moves of `screen` as text.
    fn moves_of<V: BoardView>(screen: &GameScreen<V>) -> Vec<String>
    where
        V::Game: Evaluate,
    {
        screen
            .session
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn dama_captures_are_clicked_on_the_board() {
        use crate::gui::board::dama::DamaView;
        use tavola_sdk::games::dama::Square as DamaSquare;

        let mut s = screen_of::<DamaView>("human", "human", Some("W:WK26,32:B13,14,21,22,K5"));
        let at = |s: &GameScreen<DamaView>, n: u8| {
            s.view.geometry.square_centre(DamaSquare::new(n).unwrap())
        };
        // The king's capture round the ring (one move, whichever way round): a click on the
        // king, then on its first landing.
        let ring = tavola_sdk::Position::legal_moves(s.session.position())[0];
        let first = ring.landings().next().unwrap().number();
        s.update(&Input::click(at(&s, 26)), SIZE, 0.1);
        s.update(&Input::click(at(&s, first)), SIZE, 0.3);
        assert_eq!(moves_of(&s), [ring.to_string()]);
        assert_eq!(s.view.notice(), None);
        // Black's king on 5 steps.
        s.update(&Input::click(at(&s, 5)), SIZE, 0.4);
        s.update(&Input::click(at(&s, 9)), SIZE, 0.5);
        assert_eq!(moves_of(&s), [ring.to_string(), "5-9".to_owned()]);
    }

    #[test]
    fn tablut_pieces_slide_with_two_clicks() {
        use crate::gui::board::tablut::TablutView;
        use tavola_sdk::games::tablut::Square as TablutSquare;

        let mut s = screen_of::<TablutView>("human", "human", None);
        let at = |s: &GameScreen<TablutView>, name: &str| {
            s.view
                .geometry
                .square_centre(name.parse::<TablutSquare>().unwrap())
        };
        s.update(&Input::click(at(&s, "e4")), SIZE, 0.1);
        s.update(&Input::click(at(&s, "h4")), SIZE, 0.2);
        s.update(&Input::click(at(&s, "d1")), SIZE, 0.3);
        s.update(&Input::click(at(&s, "d3")), SIZE, 0.4);
        assert_eq!(moves_of(&s), ["e4-h4", "d1-d3"]);
    }

    #[test]
    fn the_swap_button_plays_the_swap_at_move_2_only() {
        use crate::gui::board::gonnect::GonnectView;
        use tavola_sdk::games::gonnect::Point;

        let mut s = screen_of::<GonnectView>("human", "human", None);
        assert!(!s.flipped, "a Go board is not turned");
        let at = |s: &GameScreen<GonnectView>, name: &str| {
            s.view.geometry.centre(name.parse::<Point>().unwrap())
        };
        let swap = crate::gui::panel::pass_button(s.layout.status);
        s.update(&Input::click(swap.center()), SIZE, 0.1);
        assert!(s.session.moves().is_empty(), "no swap at move 1");
        s.update(&Input::click(at(&s, "G7")), SIZE, 0.2);
        s.update(&Input::click(swap.center()), SIZE, 0.3);
        assert_eq!(moves_of(&s), ["G7", "swap"]);
        // Black moves again; no more swap.
        s.update(&Input::click(swap.center()), SIZE, 0.4);
        assert_eq!(s.session.moves().len(), 2);
        s.update(&Input::click(at(&s, "F6")), SIZE, 0.5);
        assert_eq!(moves_of(&s), ["G7", "swap", "F6"]);
        // With only Black a person, the Go board is still not turned.
        assert!(!screen_of::<GonnectView>("random", "human", None).flipped);
    }

    #[test]
    fn the_pass_button_plays_the_pass() {
        let mut s = screen("human", "human", Some("xoo4/ooo4/ooo4/7/7/7/6o x 0 1"));
        let pass = crate::gui::panel::pass_button(s.layout.status);
        s.update(&Input::click(pass.center()), SIZE, 0.1);
        assert_eq!(s.session.moves()[0].to_string(), "0000");
    }

    /// Plays a whole game of `V`'s game between a person and the built-in bot, the person's moves
    /// chosen at random and made only by clicks at the points `clicks` gives (clicked in turn
    /// until the move is played), the bot's answers collected frame by frame; then checks the end
    /// card.
    fn whole_game_by_clicks<V: BoardView>(
        person: Color,
        seed: u64,
        clicks: impl Fn(&GameScreen<V>, <V::Game as Game>::Move) -> Vec<Vec2>,
    ) where
        V::Game: Evaluate,
    {
        use rand::seq::SliceRandom as _;
        use rand::SeedableRng as _;
        use tavola_sdk::Position as _;

        let bot = "builtin:depth=1";
        let (white, black) = match person {
            Color::White => ("human", bot),
            Color::Black => (bot, "human"),
        };
        let mut s = screen_of::<V>(white, black, None);
        assert_eq!(
            s.flipped,
            person == Color::Black && V::Game::NAME != "gonnect"
        );
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut now = 0.0;
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while s.session.result().is_none() {
            assert!(std::time::Instant::now() < deadline, "the game did not end");
            let plies = s.session.moves().len();
            if s.session.human_to_move().is_none() {
                now += 0.05;
                s.update(&Input::default(), SIZE, now);
                std::thread::sleep(Duration::from_micros(200));
                continue;
            }
            let legal = s.session.position().legal_moves();
            let mv = *legal.choose(&mut rng).expect("a move: the game goes on");
            for point in clicks(&s, mv) {
                now += 0.05;
                s.update(&Input::click(point), SIZE, now);
                if s.session.moves().len() > plies {
                    break;
                }
            }
            assert_eq!(
                s.session.moves().get(plies),
                Some(&mv),
                "the clicks at ply {plies} did not play {mv}"
            );
        }
        let result = s.session.result_line().expect("a result line");
        assert!(s.overlay_open(), "the end card is up");
        println!(
            "{}: {} plies, {result}",
            V::Game::NAME,
            s.session.moves().len()
        );
    }

    #[test]
    fn a_person_plays_whole_ataxx_games_against_the_bot_by_clicks() {
        use tavola_sdk::games::ataxx::Move;
        for (person, seed) in [(Color::White, 1), (Color::Black, 2)] {
            whole_game_by_clicks::<AtaxxView>(person, seed, |s, mv| {
                let position = s.session.position();
                let centre = |square| s.view.geometry.square_centre(square);
                match mv {
                    Move::Clone(to) => {
                        let me = tavola_sdk::Position::side_to_move(position);
                        let from = (to.neighbours() & position.pieces(me))
                            .into_iter()
                            .next()
                            .expect("a piece next to a clone's square");
                        vec![centre(from), centre(to)]
                    }
                    Move::Jump { from, to } => vec![centre(from), centre(to)],
                    Move::Pass => vec![crate::gui::panel::pass_button(s.layout.status).center()],
                }
            });
        }
    }

    #[test]
    fn a_person_plays_whole_tablut_games_against_the_bot_by_clicks() {
        use crate::gui::board::tablut::TablutView;
        for (person, seed) in [(Color::White, 3), (Color::Black, 4)] {
            whole_game_by_clicks::<TablutView>(person, seed, |s, mv| {
                let centre = |square| s.view.geometry.square_centre(square);
                vec![centre(mv.from), centre(mv.to)]
            });
        }
    }

    #[test]
    fn a_person_plays_whole_gonnect_games_against_the_bot_by_clicks() {
        use crate::gui::board::gonnect::GonnectView;
        use tavola_sdk::games::gonnect::Move;
        for (person, seed) in [(Color::White, 5), (Color::Black, 6)] {
            whole_game_by_clicks::<GonnectView>(person, seed, |s, mv| match mv {
                Move::Place(point) => vec![s.view.geometry.centre(point)],
                Move::Swap => vec![crate::gui::panel::pass_button(s.layout.status).center()],
            });
        }
    }

    #[test]
    fn a_person_plays_whole_dama_games_against_the_bot_by_clicks() {
        use crate::gui::board::dama::DamaView;
        for (person, seed) in [(Color::White, 7), (Color::Black, 8)] {
            whole_game_by_clicks::<DamaView>(person, seed, |s, mv| {
                let centre = |square| s.view.geometry.square_centre(square);
                // The piece, the final square, then (where two paths end there) the landings in
                // turn.
                let mut points = vec![centre(mv.from()), centre(mv.to())];
                points.extend(mv.landings().map(centre));
                points
            });
        }
    }
}
