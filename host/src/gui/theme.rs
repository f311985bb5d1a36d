//! Colours, fonts and the small drawing helpers every screen uses: text, panels, buttons.
//!
//! The palette is calm and dark around a light board, after Lichess. The fonts (DejaVu Sans,
//! `assets/`) are embedded in the binary.

use macroquad::color::Color;
use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{draw_circle, draw_rectangle, draw_rectangle_lines};
use macroquad::text::{draw_text_ex, load_ttf_font_from_bytes, measure_text, Font, TextParams};

const REGULAR_TTF: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");
const BOLD_TTF: &[u8] = include_bytes!("../../../assets/DejaVuSans-Bold.ttf");

/// A colour from `0xRRGGBB`.
#[must_use]
pub const fn rgb(hex: u32) -> Color {
    Color {
        r: ((hex >> 16) & 0xff) as f32 / 255.0,
        g: ((hex >> 8) & 0xff) as f32 / 255.0,
        b: (hex & 0xff) as f32 / 255.0,
        a: 1.0,
    }
}

/// `color` with opacity `alpha`.
#[must_use]
pub const fn alpha(color: Color, alpha: f32) -> Color {
    Color { a: alpha, ..color }
}

/// The window's background.
pub const BACKGROUND: Color = rgb(0x161512);
/// Panels and cards.
pub const PANEL: Color = rgb(0x262421);
/// A raised element on a panel (a list row, an idle button).
pub const RAISED: Color = rgb(0x35322e);
/// Hovered buttons and rows.
pub const HOVER: Color = rgb(0x45413b);
/// Ordinary text.
pub const TEXT: Color = rgb(0xd6d3ce);
/// Secondary text.
pub const MUTED: Color = rgb(0x8f8a82);
/// The accent: primary buttons, the side to move, the selected row.
pub const ACCENT: Color = rgb(0x3692e7);
/// Good news, the own-piece hover, clone targets.
pub const GOOD: Color = rgb(0x629924);
/// Bad news, the opponent-piece hover, errors, a clock running low.
pub const BAD: Color = rgb(0xcc3333);
/// The board's light squares.
pub const BOARD_LIGHT: Color = rgb(0xdee3e6);
/// The board's dark squares.
pub const BOARD_DARK: Color = rgb(0x8ca2ad);
/// Dama's light squares (never played on).
pub const DAMA_LIGHT: Color = rgb(0xf0d9b5);
/// Dama's dark squares, where the pieces stand.
pub const DAMA_DARK: Color = rgb(0xb58863);
/// Tablut's squares.
pub const TABLUT_SQUARE: Color = rgb(0xe6d6b3);
/// The lines between Tablut's squares.
pub const TABLUT_LINE: Color = rgb(0xa88e68);
/// Tablut's camp squares.
pub const TABLUT_CAMP: Color = rgb(0xbc9e72);
/// Tablut's castle.
pub const TABLUT_CASTLE: Color = rgb(0x94774f);
/// Tablut's escape squares (the edge outside the camps).
pub const TABLUT_ESCAPE: Color = rgb(0xd2dcc0);
/// The Gonnect (Go) board's wood.
pub const GONNECT_WOOD: Color = rgb(0xdcb46a);
/// The Gonnect board's lines and star points.
pub const GONNECT_LINE: Color = rgb(0x4a3a22);
/// Blocked squares (Ataxx gaps).
pub const BLOCKED: Color = rgb(0x3b3f45);
/// The last move's squares.
pub const LAST_MOVE: Color = Color {
    r: 0.61,
    g: 0.78,
    b: 0.0,
    a: 0.41,
};
/// The first player's pieces (White).
pub const PIECE_WHITE: Color = rgb(0xf7f7f2);
/// The second player's pieces (Black).
pub const PIECE_BLACK: Color = rgb(0x2b2b2b);

/// The fonts, loaded once the window is open.
#[derive(Debug)]
pub struct Theme {
    regular: Font,
    bold: Font,
}

/// Which of the two fonts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

impl Theme {
    /// Loads the embedded fonts (needs the window's GL context).
    ///
    /// # Errors
    /// When a font cannot be read (it is embedded: only a broken build).
    pub fn load() -> anyhow::Result<Theme> {
        Ok(Theme {
            regular: load_ttf_font_from_bytes(REGULAR_TTF)?,
            bold: load_ttf_font_from_bytes(BOLD_TTF)?,
        })
    }

    fn font(&self, weight: Weight) -> &Font {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// The width of `text` at `size` pixels.
    #[must_use]
    pub fn width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        measure_text(text, Some(self.font(weight)), font_px(size), 1.0).width
    }

    /// Draws `text` with its top-left corner at `(x, y)`; `size` is the font's pixel height.
    /// Returns the width drawn.
    pub fn text(&self, text: &str, x: f32, y: f32, size: f32, color: Color, weight: Weight) -> f32 {
        let px = font_px(size);
        let dims = draw_text_ex(
            text,
            x.round(),
            (y + size * 0.8).round(),
            TextParams {
                font: Some(self.font(weight)),
                font_size: px,
                color,
                ..TextParams::default()
            },
        );
        dims.width
    }

    /// Draws `text` centred in `rect` (vertically on its middle line).
    pub fn text_centred(&self, text: &str, rect: Rect, size: f32, color: Color, weight: Weight) {
        let width = self.width(text, size, weight);
        let x = rect.x + (rect.w - width) / 2.0;
        let y = rect.y + (rect.h - size) / 2.0;
        self.text(text, x, y, size, color, weight);
    }

    /// Draws `text` with its top-left corner `at`, cut with "…" to fit `max_width`.
    pub fn text_clipped(
        &self,
        text: &str,
        at: Vec2,
        size: f32,
        max_width: f32,
        color: Color,
        weight: Weight,
    ) {
        let (x, y) = (at.x, at.y);
        if self.width(text, size, weight) <= max_width {
            self.text(text, x, y, size, color, weight);
            return;
        }
        let mut cut: String = text.to_owned();
        while !cut.is_empty() && self.width(&format!("{cut}…"), size, weight) > max_width {
            cut.pop();
        }
        self.text(&format!("{cut}…"), x, y, size, color, weight);
    }

    /// A button: a rounded box with a centred label; `hot` when hovered, `primary` in the accent
    /// colour, `enabled` false greys it out.
    pub fn button(&self, rect: Rect, label: &str, style: ButtonStyle, size: f32) {
        let (fill, text) = match style {
            ButtonStyle::Disabled => (rgb(0x1f1d1b), alpha(MUTED, 0.55)),
            ButtonStyle::Normal { hot: false } => (RAISED, TEXT),
            ButtonStyle::Normal { hot: true } => (HOVER, rgb(0xffffff)),
            ButtonStyle::Primary { hot } => {
                let fill = if hot { rgb(0x4aa3f5) } else { ACCENT };
                (fill, rgb(0xffffff))
            }
            ButtonStyle::Selected => (alpha(ACCENT, 0.35), rgb(0xffffff)),
        };
        rounded_rect(rect, (rect.h * 0.18).min(6.0), fill);
        if style == ButtonStyle::Selected {
            draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 1.5, ACCENT);
        }
        self.text_centred(label, rect, size, text, Weight::Regular);
    }
}

/// How a button looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ButtonStyle {
    /// Greyed out; clicks do nothing.
    Disabled,
    /// An ordinary button.
    Normal {
        /// Hovered.
        hot: bool,
    },
    /// The main action of a screen.
    Primary {
        /// Hovered.
        hot: bool,
    },
    /// One option of several, chosen.
    Selected,
}

impl ButtonStyle {
    /// An ordinary button, hovered or not, or disabled.
    #[must_use]
    pub fn normal(enabled: bool, hot: bool) -> ButtonStyle {
        if enabled {
            ButtonStyle::Normal { hot }
        } else {
            ButtonStyle::Disabled
        }
    }
}

/// Font sizes are whole pixels (macroquad caches glyphs per size): at least 6.
fn font_px(size: f32) -> u16 {
    size.round().clamp(6.0, 400.0) as u16
}

/// A filled rectangle with rounded corners of `radius`.
pub fn rounded_rect(rect: Rect, radius: f32, color: Color) {
    let r = radius.min(rect.w / 2.0).min(rect.h / 2.0).max(0.0);
    if r < 0.5 {
        draw_rectangle(rect.x, rect.y, rect.w, rect.h, color);
        return;
    }
    draw_rectangle(rect.x + r, rect.y, rect.w - 2.0 * r, rect.h, color);
    draw_rectangle(rect.x, rect.y + r, r, rect.h - 2.0 * r, color);
    draw_rectangle(rect.x + rect.w - r, rect.y + r, r, rect.h - 2.0 * r, color);
    if color.a >= 1.0 {
        for (cx, cy) in [
            (rect.x + r, rect.y + r),
            (rect.x + rect.w - r, rect.y + r),
            (rect.x + r, rect.y + rect.h - r),
            (rect.x + rect.w - r, rect.y + rect.h - r),
        ] {
            draw_circle(cx, cy, r, color);
        }
    } else {
        // Overlapping circles would show darker corners on a translucent fill: square them.
        draw_rectangle(rect.x, rect.y, r, r, color);
        draw_rectangle(rect.x + rect.w - r, rect.y, r, r, color);
        draw_rectangle(rect.x, rect.y + rect.h - r, r, r, color);
        draw_rectangle(rect.x + rect.w - r, rect.y + rect.h - r, r, r, color);
    }
}

/// The centre of `rect`.
#[must_use]
pub fn centre(rect: Rect) -> Vec2 {
    Vec2::new(rect.x + rect.w / 2.0, rect.y + rect.h / 2.0)
}
