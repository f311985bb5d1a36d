//! Screens behind one trait (zemeroth's split): each frame a screen gets the input, updates its
//! state and answers with a [`Nav`] command; the main loop owns the stack of screens. A screen
//! never reaches into another.
//!
//! [`Input`] is a plain snapshot of the mouse and keyboard, so that a screen's logic can be driven
//! in tests without a window.

use macroquad::math::{Rect, Vec2};

use super::theme::Theme;

/// What the main loop does after a screen's update.
pub enum Nav {
    /// Stay on this screen.
    Stay,
    /// Put a screen on top of this one.
    Push(Box<dyn Screen>),
    /// Close this screen, back to the one below (closing the last one quits).
    Pop,
    /// Replace this screen with another.
    Replace(Box<dyn Screen>),
    /// Close the window.
    Quit,
}

impl std::fmt::Debug for Nav {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Nav::Stay => "Stay",
            Nav::Push(_) => "Push",
            Nav::Pop => "Pop",
            Nav::Replace(_) => "Replace",
            Nav::Quit => "Quit",
        })
    }
}

/// One screen of the window: the start menu, a game.
pub trait Screen {
    /// Reacts to this frame's input in a window of `size` pixels; `now` is seconds since the
    /// window opened (animations and clocks read it, so tests can drive time).
    fn update(&mut self, input: &Input, size: Vec2, now: f64) -> Nav;

    /// Draws the screen (after [`Screen::update`] of the same frame).
    fn draw(&self, theme: &Theme, size: Vec2, now: f64);

    /// Called once when the window is closing (a game stops its bots).
    fn close(&mut self) {}

    /// What a test run prints when the window closes (a game: its moves and result).
    fn summary(&self) -> Option<String> {
        None
    }

    /// Whether a bot is thinking now (frame-time statistics count those frames apart).
    fn bot_thinking(&self) -> bool {
        false
    }
}

/// The mouse and keyboard in one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Input {
    /// The mouse position in window pixels.
    pub mouse: Vec2,
    /// The left button went down this frame.
    pub left_click: bool,
    /// The right button went down this frame.
    pub right_click: bool,
    /// Escape was pressed.
    pub escape: bool,
    /// Enter was pressed.
    pub enter: bool,
    /// Backspace was pressed (or repeats).
    pub backspace: bool,
    /// Left / right arrow keys (move list browsing).
    pub left: bool,
    /// See [`Input::left`].
    pub right: bool,
    /// Text typed this frame (printable characters only).
    pub typed: String,
    /// Vertical wheel movement (positive: away from the user, scroll up).
    pub wheel: f32,
}

impl Input {
    /// A left click at `point` (tests).
    #[must_use]
    pub fn click(point: Vec2) -> Input {
        Input {
            mouse: point,
            left_click: true,
            ..Input::default()
        }
    }

    /// The mouse resting at `point` (tests).
    #[must_use]
    pub fn hover(point: Vec2) -> Input {
        Input {
            mouse: point,
            ..Input::default()
        }
    }

    /// Whether the left button went down inside `rect`.
    #[must_use]
    pub fn clicked(&self, rect: Rect) -> bool {
        self.left_click && rect.contains(self.mouse)
    }

    /// Whether the mouse is over `rect`.
    #[must_use]
    pub fn hovers(&self, rect: Rect) -> bool {
        rect.contains(self.mouse)
    }

    /// Reads this frame's input from macroquad.
    #[must_use]
    pub fn read() -> Input {
        use macroquad::input::{
            get_char_pressed, is_key_pressed, is_mouse_button_pressed, mouse_position, mouse_wheel,
            KeyCode, MouseButton,
        };
        let (x, y) = mouse_position();
        let mut typed = String::new();
        while let Some(c) = get_char_pressed() {
            if !c.is_control() {
                typed.push(c);
            }
        }
        let (_, wheel) = mouse_wheel();
        Input {
            mouse: Vec2::new(x, y),
            left_click: is_mouse_button_pressed(MouseButton::Left),
            right_click: is_mouse_button_pressed(MouseButton::Right),
            escape: is_key_pressed(KeyCode::Escape),
            enter: is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter),
            backspace: is_key_pressed(KeyCode::Backspace),
            left: is_key_pressed(KeyCode::Left),
            right: is_key_pressed(KeyCode::Right),
            typed,
            wheel,
        }
    }
}
