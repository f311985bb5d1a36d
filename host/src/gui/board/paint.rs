//! Drawing pieces every board shares: the frame, coordinates, discs, the hover, destination
//! marks, fading captured pieces and the hint arrow. Sizes are fractions of a cell, so the boards
//! stay sharp and in proportion at any window size.

use macroquad::color::Color as Rgba;
use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines, draw_triangle,
};
use tavola_sdk::Color;

use super::grid::Grid;

use crate::gui::theme::{self, alpha, rgb, Theme, Weight};

/// How long captured pieces take to fade out, in seconds.
pub const FADE: f32 = 0.8;

/// The colour of the selection, the destinations and the hint.
pub const MOVE_MARK: Rgba = rgb(0x14551e);

/// How far a fade has gone, 0 (just captured) to 1 (gone), `since` seconds after the move.
#[must_use]
pub fn fade(since: f32) -> f32 {
    (since / FADE).clamp(0.0, 1.0)
}

/// A dark frame just around `rect` (the cells).
pub fn frame(rect: Rect) {
    theme::rounded_rect(
        Rect::new(rect.x - 3.0, rect.y - 3.0, rect.w + 6.0, rect.h + 6.0),
        4.0,
        rgb(0x0b0a09),
    );
}

/// The coordinates in `grid`'s margin: `column(c)` below each column, `row(r)` left of each row.
pub fn coordinates(
    grid: &Grid,
    theme: &Theme,
    column: impl Fn(u8) -> String,
    row: impl Fn(u8) -> String,
) {
    let size = (grid.cell * 0.24).clamp(10.0, 17.0);
    let (below, left) = grid.labels();
    for (c, rect) in below {
        theme.text_centred(&column(c), rect, size, theme::MUTED, Weight::Bold);
    }
    for (r, rect) in left {
        theme.text_centred(&row(r), rect, size, theme::MUTED, Weight::Bold);
    }
}

/// Fills `rect` with `color` (translucent colours tint what is below).
pub fn tint(rect: Rect, color: Rgba) {
    draw_rectangle(rect.x, rect.y, rect.w, rect.h, color);
}

/// The hover over a piece: green on the mover's own, red on the opponent's.
pub fn hover(rect: Rect, own: bool) {
    let color = if own { theme::GOOD } else { theme::BAD };
    tint(rect, alpha(color, 0.3));
    let t = (rect.w * 0.06).max(2.0);
    draw_rectangle_lines(
        rect.x + t / 2.0,
        rect.y + t / 2.0,
        rect.w - t,
        rect.h - t,
        t,
        color,
    );
}

/// A destination: a dot on an empty square, larger under the mouse.
pub fn target_dot(centre: Vec2, cell: f32, hot: bool) {
    let radius = cell * if hot { 0.2 } else { 0.15 };
    draw_circle(centre.x, centre.y, radius, alpha(MOVE_MARK, 0.6));
}

/// A destination that takes something (or a second kind of move): a ring.
pub fn target_ring(centre: Vec2, cell: f32, hot: bool) {
    let width = cell * if hot { 0.09 } else { 0.06 };
    draw_circle_lines(centre.x, centre.y, cell * 0.3, width, alpha(MOVE_MARK, 0.6));
}

/// The fill, rim and glint of a `color` piece.
#[must_use]
pub fn piece_colors(color: Color) -> (Rgba, Rgba, Rgba) {
    match color {
        Color::White => (theme::PIECE_WHITE, rgb(0x9a9a92), alpha(rgb(0xffffff), 0.8)),
        Color::Black => (
            theme::PIECE_BLACK,
            rgb(0x0d0d0d),
            alpha(rgb(0x5a5a5a), 0.55),
        ),
    }
}

/// `color` with its opacity multiplied by `opacity`.
#[must_use]
pub fn faded(color: Rgba, opacity: f32) -> Rgba {
    alpha(color, color.a * opacity)
}

/// A round piece of `radius` at `centre`: a soft shadow, a rim, the fill and a glint.
pub fn disc(centre: Vec2, radius: f32, fill: Rgba, rim: Rgba, glint: Rgba, opacity: f32) {
    draw_circle(
        centre.x + radius * 0.05,
        centre.y + radius * 0.1,
        radius,
        faded(alpha(rgb(0x000000), 0.3), opacity),
    );
    draw_circle(centre.x, centre.y, radius, faded(rim, opacity));
    draw_circle(
        centre.x,
        centre.y,
        radius - (radius * 0.09).max(1.0),
        faded(fill, opacity),
    );
    draw_circle(
        centre.x - radius * 0.3,
        centre.y - radius * 0.3,
        radius * 0.28,
        faded(glint, opacity),
    );
}

/// A ring around a piece that has just been captured or converted, widening as it fades.
pub fn flash(centre: Vec2, cell: f32, t: f32) {
    draw_circle_lines(
        centre.x,
        centre.y,
        cell * (0.40 + 0.12 * t),
        cell * 0.05,
        alpha(rgb(0xf5c242), 1.0 - t),
    );
}

/// The hint: an arrow through `points` (a path of cell centres), its head on the last.
pub fn arrow(points: &[Vec2], cell: f32) {
    let color = alpha(rgb(0x15781b), 0.8);
    let width = cell * 0.12;
    let [.., before, end] = points else {
        if let Some(end) = points.first() {
            draw_circle_lines(end.x, end.y, cell * 0.42, cell * 0.08, color);
        }
        return;
    };
    for pair in points.windows(2).take(points.len() - 2) {
        draw_line(pair[0].x, pair[0].y, pair[1].x, pair[1].y, width, color);
        draw_circle(pair[1].x, pair[1].y, width / 2.0, color);
    }
    let direction = (*end - *before).normalize_or_zero();
    let normal = Vec2::new(-direction.y, direction.x);
    let head = cell * 0.3;
    let tip = *end - direction * cell * 0.12;
    let neck = tip - direction * head;
    draw_line(before.x, before.y, neck.x, neck.y, width, color);
    draw_triangle(
        tip,
        neck + normal * head * 0.6,
        neck - normal * head * 0.6,
        color,
    );
}

/// A crown of three points on a band, `size` wide, centred on `centre`.
pub fn crown(centre: Vec2, size: f32, color: Rgba) {
    let w = size * 0.9;
    let left = centre.x - w / 2.0;
    let band_top = centre.y + size * 0.08;
    let band_h = size * 0.2;
    let base = Rect::new(left, band_top, w, band_h);
    draw_rectangle(base.x, base.y, base.w, base.h, color);
    let top = centre.y - size * 0.4;
    let mid = centre.y - size * 0.12;
    // Three points: the outer two lean in a little, the middle one is the tallest.
    let points = [
        (left, left + w * 0.3, left, top + size * 0.08),
        (left + w * 0.25, left + w * 0.75, centre.x, top),
        (left + w * 0.7, left + w, left + w, top + size * 0.08),
    ];
    for (a, b, tip_x, tip_y) in points {
        draw_triangle(
            Vec2::new(a, band_top + 0.5),
            Vec2::new(b, band_top + 0.5),
            Vec2::new(tip_x, tip_y),
            color,
        );
        draw_circle(tip_x, tip_y, size * 0.06, color);
    }
    // The inner valleys between the points, filled down to the band.
    draw_triangle(
        Vec2::new(left, band_top + 0.5),
        Vec2::new(left + w, band_top + 0.5),
        Vec2::new(centre.x, mid),
        color,
    );
}
