//! Where everything goes on the game screen, computed from the window's size each frame (the
//! window is resizable). Plain rectangles: hit-testing is tested without a window.

use macroquad::math::{Rect, Vec2};

/// The buttons of the side panel, in their order on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelButton {
    /// Start the same game again.
    NewGame,
    /// Take back to the person's previous turn.
    Undo,
    /// Ask the built-in bot for a suggestion.
    Hint,
    /// Ask the thinking bot to answer now.
    MoveNow,
    /// Turn the board round.
    Flip,
    /// Back to the start screen.
    Menu,
    /// Append the game's record to a file.
    Save,
    /// Continue the last game recorded in a file.
    Load,
    /// Edit the position shown.
    Edit,
}

impl PanelButton {
    /// Every button, in order.
    pub const ALL: [PanelButton; 9] = [
        PanelButton::NewGame,
        PanelButton::Undo,
        PanelButton::Hint,
        PanelButton::MoveNow,
        PanelButton::Flip,
        PanelButton::Menu,
        PanelButton::Edit,
        PanelButton::Save,
        PanelButton::Load,
    ];

    /// The buttons on each row of the panel: three, three, then Edit and the two file buttons.
    const ROWS: [usize; 3] = [3, 3, 3];

    /// The label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            PanelButton::NewGame => "New game",
            PanelButton::Undo => "Undo",
            PanelButton::Hint => "Hint",
            PanelButton::MoveNow => "Move now",
            PanelButton::Flip => "Flip board",
            PanelButton::Menu => "Menu",
            PanelButton::Save => "Save game",
            PanelButton::Load => "Load game",
            PanelButton::Edit => "Edit (e)",
        }
    }
}

/// The height of one row of the move list.
pub const MOVE_ROW: f32 = 26.0;

/// The game screen's rectangles.
#[derive(Debug, Clone, PartialEq)]
pub struct GameLayout {
    /// Where the board (with its coordinates) may go.
    pub board_area: Rect,
    /// The side panel.
    pub panel: Rect,
    /// The player shown at the top (the board's far side).
    pub top_player: Rect,
    /// The player at the bottom.
    pub bottom_player: Rect,
    /// Whose turn, notices, the Pass button.
    pub status: Rect,
    /// The move list.
    pub moves: Rect,
    /// The panel's buttons, in [`PanelButton::ALL`]'s order.
    pub buttons: [Rect; 9],
}

impl GameLayout {
    /// The layout for a window of `size` pixels.
    #[must_use]
    pub fn new(size: Vec2) -> GameLayout {
        let margin = 16.0;
        let gap = 10.0;
        let panel_w = (size.x * 0.3).clamp(250.0, 380.0);
        let height = (size.y - 2.0 * margin).max(100.0);
        let panel = Rect::new(size.x - panel_w - margin, margin, panel_w, height);
        let board_area = Rect::new(margin, margin, (panel.x - 2.0 * margin).max(50.0), height);
        let card = 100.0;
        let top_player = Rect::new(panel.x, panel.y, panel.w, card);
        let bottom_player = Rect::new(panel.x, panel.bottom() - card, panel.w, card);
        let status = Rect::new(panel.x, top_player.bottom() + gap, panel.w, 46.0);
        let button_h = 34.0;
        let rows = PanelButton::ROWS.len() as f32;
        let rows_top = bottom_player.y - gap - rows * button_h - (rows - 1.0) * 8.0;
        let mut buttons = [Rect::default(); 9];
        let mut next = buttons.iter_mut();
        for (row, &count) in PanelButton::ROWS.iter().enumerate() {
            let button_w = (panel.w - (count as f32 - 1.0) * 8.0) / count as f32;
            for column in 0..count {
                if let Some(rect) = next.next() {
                    *rect = Rect::new(
                        panel.x + column as f32 * (button_w + 8.0),
                        rows_top + row as f32 * (button_h + 8.0),
                        button_w,
                        button_h,
                    );
                }
            }
        }
        let moves_top = status.bottom() + gap;
        let moves = Rect::new(
            panel.x,
            moves_top,
            panel.w,
            (rows_top - gap - moves_top).max(0.0),
        );
        GameLayout {
            board_area,
            panel,
            top_player,
            bottom_player,
            status,
            moves,
            buttons,
        }
    }

    /// The panel button under `point`.
    #[must_use]
    pub fn button_at(&self, point: Vec2) -> Option<PanelButton> {
        PanelButton::ALL
            .into_iter()
            .zip(self.buttons)
            .find_map(|(button, rect)| rect.contains(point).then_some(button))
    }
}

/// The move list: rows of two plies each ("12. b6 f2"), scrolled by `scroll` pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveList {
    /// The list's rectangle.
    pub rect: Rect,
    /// Pixels scrolled from the top.
    pub scroll: f32,
    /// The number of plies listed.
    pub plies: usize,
}

impl MoveList {
    /// The rectangle of ply `ply` (from 1): its row, left or right half after the number.
    #[must_use]
    pub fn ply_rect(&self, ply: usize) -> Rect {
        let index = ply.saturating_sub(1);
        let (row, column) = (index / 2, index % 2);
        let number_w = 44.0;
        let cell_w = (self.rect.w - number_w) / 2.0;
        Rect::new(
            self.rect.x + number_w + column as f32 * cell_w,
            self.rect.y + row as f32 * MOVE_ROW - self.scroll,
            cell_w,
            MOVE_ROW,
        )
    }

    /// The ply under `point`, if any (only rows inside the list count).
    #[must_use]
    pub fn ply_at(&self, point: Vec2) -> Option<usize> {
        if !self.rect.contains(point) {
            return None;
        }
        (1..=self.plies).find(|&ply| self.ply_rect(ply).contains(point))
    }

    /// The largest useful scroll.
    #[must_use]
    pub fn max_scroll(&self) -> f32 {
        let rows = self.plies.div_ceil(2) as f32;
        (rows * MOVE_ROW - self.rect.h).max(0.0)
    }

    /// The scroll that shows ply `ply` (keeping the scroll if it already does).
    #[must_use]
    pub fn scroll_to(&self, ply: usize) -> f32 {
        let row_top = (ply.saturating_sub(1) / 2) as f32 * MOVE_ROW;
        let scroll = if row_top < self.scroll {
            row_top
        } else if row_top + MOVE_ROW > self.scroll + self.rect.h {
            row_top + MOVE_ROW - self.rect.h
        } else {
            self.scroll
        };
        scroll.clamp(0.0, self.max_scroll())
    }
}

/// The end-of-game card over the board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlay {
    /// The card.
    pub card: Rect,
    /// "New game".
    pub new_game: Rect,
    /// "Rematch" (colours swapped).
    pub rematch: Rect,
    /// The close cross (to look at the final position).
    pub close: Rect,
}

impl Overlay {
    /// The card centred on `board`.
    #[must_use]
    pub fn new(board: Rect) -> Overlay {
        let w = (board.w * 0.8).clamp(240.0, 420.0);
        let h = 180.0;
        let card = Rect::new(
            (board.x + (board.w - w) / 2.0).round(),
            (board.y + (board.h - h) / 2.0).round(),
            w,
            h,
        );
        let button_w = (w - 3.0 * 16.0) / 2.0;
        let button_y = card.bottom() - 16.0 - 38.0;
        Overlay {
            card,
            new_game: Rect::new(card.x + 16.0, button_y, button_w, 38.0),
            rematch: Rect::new(card.x + 32.0 + button_w, button_y, button_w, 38.0),
            close: Rect::new(card.right() - 34.0, card.y + 6.0, 28.0, 28.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panel_and_board_do_not_overlap_at_any_size() {
        for (w, h) in [
            (1280.0, 800.0),
            (800.0, 600.0),
            (640.0, 480.0),
            (1920.0, 1080.0),
        ] {
            let layout = GameLayout::new(Vec2::new(w, h));
            assert!(layout.board_area.right() < layout.panel.x, "{w}x{h}");
            assert!(layout.panel.right() <= w);
            assert!(layout.moves.bottom() <= layout.buttons[0].y);
            assert!(layout.buttons[7].bottom() <= layout.bottom_player.y);
            if h >= 600.0 {
                assert!(layout.moves.h >= 5.0 * MOVE_ROW, "{w}x{h}");
            }
            assert!(layout.status.bottom() <= layout.moves.y);
        }
    }

    #[test]
    fn buttons_are_found_under_the_mouse() {
        let layout = GameLayout::new(Vec2::new(1280.0, 800.0));
        for (button, rect) in PanelButton::ALL.into_iter().zip(layout.buttons) {
            assert_eq!(layout.button_at(rect.center()), Some(button));
        }
        assert_eq!(layout.button_at(layout.board_area.center()), None);
    }

    #[test]
    fn move_list_rows_pair_the_plies_and_scroll() {
        let list = MoveList {
            rect: Rect::new(0.0, 100.0, 244.0, 5.0 * MOVE_ROW),
            scroll: 0.0,
            plies: 21,
        };
        assert_eq!(list.ply_at(list.ply_rect(1).center()), Some(1));
        assert_eq!(list.ply_at(list.ply_rect(2).center()), Some(2));
        assert_eq!(list.ply_rect(3).y, list.ply_rect(1).y + MOVE_ROW);
        // Row 6 (plies 11, 12) is below the list until scrolled.
        assert_eq!(list.ply_at(list.ply_rect(11).center()), None);
        assert_eq!(list.max_scroll(), 6.0 * MOVE_ROW);
        let scroll = list.scroll_to(21);
        assert_eq!(scroll, list.max_scroll());
        let scrolled = MoveList { scroll, ..list };
        assert_eq!(scrolled.ply_at(scrolled.ply_rect(21).center()), Some(21));
        assert_eq!(scrolled.ply_at(scrolled.ply_rect(1).center()), None);
        assert_eq!(scrolled.scroll_to(1), 0.0);
        // The number column is no ply.
        assert_eq!(list.ply_at(Vec2::new(10.0, 110.0)), None);
    }

    #[test]
    fn the_overlay_sits_on_the_board() {
        let board = Rect::new(16.0, 16.0, 700.0, 700.0);
        let overlay = Overlay::new(board);
        assert!(board.contains(overlay.card.point()));
        assert!(overlay.card.contains(overlay.new_game.center()));
        assert!(overlay.card.contains(overlay.rematch.center()));
        assert!(!overlay.new_game.overlaps(&overlay.rematch));
    }
}
