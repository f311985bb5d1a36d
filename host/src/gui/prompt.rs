//! The file prompt of Save game and Load game: a small card over the board with a path field
//! (prefilled with [`DEFAULT_FILE`], in the current folder), OK and Cancel, and one line for what
//! went wrong. No native file dialog: a typed path works the same everywhere.
//!
//! The state and its input are plain data, tested without a window; [`draw`] shows them.

use std::path::PathBuf;

use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{draw_line, draw_rectangle, draw_rectangle_lines};

use super::screen::Input;
use super::theme::{self, alpha, rgb, ButtonStyle, Theme, Weight};

/// The file the prompt offers first: in the folder the window was started from.
pub const DEFAULT_FILE: &str = "tavola-games.pgn";

/// What the prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptMode {
    /// Append the game's record to the file.
    Save,
    /// Continue the last game recorded in the file.
    Load,
    /// Write the editor's board to the file (its position text).
    SaveBoard,
    /// Read the editor's board from the file.
    LoadBoard,
}

impl PromptMode {
    /// The card's title.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            PromptMode::Save => "Save the game to",
            PromptMode::Load => "Continue the last game of",
            PromptMode::SaveBoard => "Save the board to",
            PromptMode::LoadBoard => "Load a board from",
        }
    }

    /// The confirming button's label.
    #[must_use]
    pub const fn action(self) -> &'static str {
        match self {
            PromptMode::Save | PromptMode::SaveBoard => "Save",
            PromptMode::Load | PromptMode::LoadBoard => "Load",
        }
    }
}

/// What a frame's input did to the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptAction {
    /// Still open.
    Stay,
    /// Closed without doing anything (Esc, Cancel).
    Cancel,
    /// Save to or load from this path (Enter, the action button).
    Confirm(PathBuf),
}

/// The prompt's rectangles, centred on the board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PromptLayout {
    /// The card.
    pub card: Rect,
    /// The path field.
    pub field: Rect,
    /// Save or Load.
    pub confirm: Rect,
    /// Cancel.
    pub cancel: Rect,
}

impl PromptLayout {
    /// The card centred on `board`.
    #[must_use]
    pub fn new(board: Rect) -> PromptLayout {
        let w = (board.w * 0.86).clamp(280.0, 520.0);
        let h = 176.0;
        let card = Rect::new(
            (board.x + (board.w - w) / 2.0).round(),
            (board.y + (board.h - h) / 2.0).round(),
            w,
            h,
        );
        let button_w = 104.0;
        let button_y = card.bottom() - 16.0 - 36.0;
        PromptLayout {
            card,
            field: Rect::new(card.x + 16.0, card.y + 46.0, w - 32.0, 34.0),
            confirm: Rect::new(card.right() - 16.0 - button_w, button_y, button_w, 36.0),
            cancel: Rect::new(
                card.right() - 2.0 * (16.0 + button_w) + 8.0,
                button_y,
                button_w,
                36.0,
            ),
        }
    }
}

/// An open file prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePrompt {
    /// Save or Load.
    pub mode: PromptMode,
    /// The path as typed.
    pub path: String,
    /// What went wrong with the last try, in one line.
    pub error: Option<String>,
}

impl FilePrompt {
    /// A prompt for `mode`, prefilled with `path`.
    #[must_use]
    pub fn new(mode: PromptMode, path: &str) -> FilePrompt {
        FilePrompt {
            mode,
            path: path.to_owned(),
            error: None,
        }
    }

    /// Takes this frame's keys and clicks: typing edits the path (and clears the error), Enter or
    /// the action button confirms, Esc, Cancel or a click outside the card cancels.
    pub fn input(&mut self, input: &Input, layout: &PromptLayout) -> PromptAction {
        if !input.typed.is_empty() || input.backspace {
            self.path.push_str(&input.typed);
            if input.backspace {
                self.path.pop();
            }
            self.error = None;
        }
        if input.escape
            || input.clicked(layout.cancel)
            || (input.left_click && !layout.card.contains(input.mouse))
        {
            return PromptAction::Cancel;
        }
        if input.enter || input.clicked(layout.confirm) {
            let path = self.path.trim();
            if path.is_empty() {
                self.error = Some("type the file's path".to_owned());
                return PromptAction::Stay;
            }
            return PromptAction::Confirm(PathBuf::from(path));
        }
        PromptAction::Stay
    }
}

/// Draws the prompt over the board.
pub fn draw(prompt: &FilePrompt, layout: &PromptLayout, board: Rect, theme: &Theme, mouse: Vec2) {
    draw_rectangle(
        board.x,
        board.y,
        board.w,
        board.h,
        alpha(rgb(0x000000), 0.35),
    );
    let card = layout.card;
    theme::rounded_rect(
        Rect::new(card.x + 3.0, card.y + 5.0, card.w, card.h),
        10.0,
        alpha(rgb(0x000000), 0.4),
    );
    theme::rounded_rect(card, 10.0, theme::PANEL);
    theme.text(
        prompt.mode.title(),
        card.x + 16.0,
        card.y + 16.0,
        17.0,
        theme::TEXT,
        Weight::Bold,
    );
    let field = layout.field;
    theme::rounded_rect(field, 5.0, rgb(0x1c1b19));
    draw_rectangle_lines(field.x, field.y, field.w, field.h, 1.5, theme::ACCENT);
    // A long path shows its end, where the file name is.
    let mut visible = prompt.path.as_str();
    while theme.width(visible, 15.0, Weight::Regular) > field.w - 22.0 && !visible.is_empty() {
        let mut chars = visible.chars();
        chars.next();
        visible = chars.as_str();
    }
    let width = theme.text(
        visible,
        field.x + 9.0,
        field.y + 9.0,
        15.0,
        theme::TEXT,
        Weight::Regular,
    );
    let cursor_x = field.x + 10.0 + width;
    draw_line(
        cursor_x,
        field.y + 7.0,
        cursor_x,
        field.bottom() - 7.0,
        1.5,
        theme::TEXT,
    );
    let (line, color) = match &prompt.error {
        Some(error) => (error.as_str(), theme::BAD),
        None => match prompt.mode {
            PromptMode::Save => ("The game is added at the end of the file.", theme::MUTED),
            PromptMode::Load => ("Players and clocks stay as chosen now.", theme::MUTED),
            PromptMode::SaveBoard => ("The board's position text, one line.", theme::MUTED),
            PromptMode::LoadBoard => ("The file's first line, as a position.", theme::MUTED),
        },
    };
    theme.text_clipped(
        line,
        Vec2::new(card.x + 16.0, field.bottom() + 10.0),
        13.0,
        card.w - 32.0,
        color,
        Weight::Regular,
    );
    theme.button(
        layout.cancel,
        "Cancel",
        ButtonStyle::normal(true, layout.cancel.contains(mouse)),
        15.0,
    );
    theme.button(
        layout.confirm,
        prompt.mode.action(),
        ButtonStyle::Primary {
            hot: layout.confirm.contains(mouse),
        },
        15.0,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> PromptLayout {
        PromptLayout::new(Rect::new(16.0, 16.0, 700.0, 700.0))
    }

    #[test]
    fn the_card_sits_on_the_board_with_its_parts_inside() {
        let board = Rect::new(16.0, 16.0, 300.0, 300.0);
        let l = PromptLayout::new(board);
        for part in [l.field, l.confirm, l.cancel] {
            assert!(l.card.contains(part.point()) && l.card.contains(part.center()));
        }
        assert!(!l.confirm.overlaps(&l.cancel));
        assert!(!l.field.overlaps(&l.confirm));
    }

    #[test]
    fn typing_edits_the_path_and_enter_confirms() {
        let l = layout();
        let mut prompt = FilePrompt::new(PromptMode::Save, DEFAULT_FILE);
        let back = Input {
            backspace: true,
            ..Input::default()
        };
        for _ in 0..3 {
            assert_eq!(prompt.input(&back, &l), PromptAction::Stay);
        }
        let typed = Input {
            typed: "txt".to_owned(),
            ..Input::default()
        };
        prompt.input(&typed, &l);
        assert_eq!(prompt.path, "tavola-games.txt");
        let enter = Input {
            enter: true,
            ..Input::default()
        };
        assert_eq!(
            prompt.input(&enter, &l),
            PromptAction::Confirm("tavola-games.txt".into())
        );
        // The button does the same.
        assert_eq!(
            prompt.input(&Input::click(l.confirm.center()), &l),
            PromptAction::Confirm("tavola-games.txt".into())
        );
    }

    #[test]
    fn an_empty_path_is_refused_and_typing_clears_the_error() {
        let l = layout();
        let mut prompt = FilePrompt::new(PromptMode::Load, "  ");
        assert_eq!(
            prompt.input(&Input::click(l.confirm.center()), &l),
            PromptAction::Stay
        );
        assert!(prompt.error.is_some());
        let typed = Input {
            typed: "a.pgn".to_owned(),
            ..Input::default()
        };
        prompt.input(&typed, &l);
        assert_eq!(prompt.error, None);
    }

    #[test]
    fn escape_cancel_or_a_click_outside_closes() {
        let l = layout();
        let mut prompt = FilePrompt::new(PromptMode::Load, DEFAULT_FILE);
        let esc = Input {
            escape: true,
            ..Input::default()
        };
        assert_eq!(prompt.input(&esc, &l), PromptAction::Cancel);
        assert_eq!(
            prompt.input(&Input::click(l.cancel.center()), &l),
            PromptAction::Cancel
        );
        assert_eq!(
            prompt.input(&Input::click(Vec2::new(1.0, 1.0)), &l),
            PromptAction::Cancel
        );
        // A click inside the card elsewhere keeps it open.
        assert_eq!(
            prompt.input(&Input::click(l.field.center()), &l),
            PromptAction::Stay
        );
    }
}
