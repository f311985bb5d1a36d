//! Drawing the Ataxx board: squares, gaps, coordinates, pieces, the last move, conversions,
//! the selection with its targets, the hover and the hint arrow.

use macroquad::color::Color as Rgba;
use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines, draw_triangle,
};
use tavola_sdk::games::ataxx::{Ataxx, Cell, Move, Square};
use tavola_sdk::{Color, Position as _};

use super::ataxx::{AtaxxView, Geometry};
use super::Geometry as _;
use super::Scene;
use crate::gui::theme::{self, alpha, rgb, Theme, Weight};

/// How long converted pieces are shown changing colour, in seconds.
const FLASH: f32 = 0.7;

pub(super) fn draw(view: &AtaxxView, scene: &Scene<'_, Ataxx>, theme: &Theme) {
    let g = &view.geometry;
    let position = scene.position;
    let sq = g.square;
    let board = g.squares();
    // A soft shadow and a frame under the squares.
    theme::rounded_rect(
        Rect::new(board.x - 3.0, board.y - 3.0, board.w + 6.0, board.h + 6.0),
        4.0,
        rgb(0x0b0a09),
    );
    for square in Square::ALL {
        let r = g.square_rect(square);
        let light = (square.file() + square.rank()) % 2 == 0;
        let fill = if light {
            theme::BOARD_LIGHT
        } else {
            theme::BOARD_DARK
        };
        draw_rectangle(r.x, r.y, r.w, r.h, fill);
        if position.cell(square) == Cell::Gap {
            draw_gap(r);
        }
    }
    draw_coordinates(g, theme);

    // The last move: its squares tinted.
    if let Some(mv) = scene.last_move {
        for square in [mv.from(), mv.to()].into_iter().flatten() {
            let r = g.square_rect(square);
            draw_rectangle(r.x, r.y, r.w, r.h, theme::LAST_MOVE);
        }
    }
    // The selected piece.
    if let Some(selected) = view.selection.selected {
        let r = g.square_rect(selected);
        draw_rectangle(r.x, r.y, r.w, r.h, alpha(rgb(0x14551e), 0.5));
    }
    // The hover: green on the mover's own piece, red on the opponent's.
    if let (Some(mover), Some(square)) = (scene.mover, view.hovered) {
        if let Cell::Piece(owner) = position.cell(square) {
            let color = if owner == mover {
                theme::GOOD
            } else {
                theme::BAD
            };
            let r = g.square_rect(square);
            draw_rectangle(r.x, r.y, r.w, r.h, alpha(color, 0.35));
            let t = (sq * 0.06).max(2.0);
            draw_rectangle_lines(r.x + t / 2.0, r.y + t / 2.0, r.w - t, r.h - t, t, color);
        }
    }

    for square in Square::ALL {
        if let Cell::Piece(color) = position.cell(square) {
            draw_piece(g.square_centre(square), sq, color, 1.0);
        }
    }

    // The selected piece's destinations: dots for clones, rings for jumps.
    for &square in &view.selection.targets.clones {
        let c = g.square_centre(square);
        let hot = view.hovered == Some(square);
        draw_circle(
            c.x,
            c.y,
            sq * if hot { 0.2 } else { 0.15 },
            alpha(rgb(0x14551e), 0.6),
        );
    }
    for &square in &view.selection.targets.jumps {
        let c = g.square_centre(square);
        let hot = view.hovered == Some(square);
        let width = sq * if hot { 0.09 } else { 0.06 };
        draw_circle_lines(c.x, c.y, sq * 0.3, width, alpha(rgb(0x14551e), 0.6));
    }

    if let Some(mv) = scene.hint {
        draw_hint(g, scene, mv);
    }
}

fn draw_gap(r: Rect) {
    let inset = (r.w * 0.06).max(1.0);
    draw_rectangle(r.x, r.y, r.w, r.h, theme::BLOCKED);
    draw_rectangle(
        r.x + inset,
        r.y + inset,
        r.w - 2.0 * inset,
        r.h - 2.0 * inset,
        rgb(0x2c2f34),
    );
    let line = alpha(rgb(0x50555c), 0.9);
    let (a, b) = (r.x + inset * 2.5, r.x + r.w - inset * 2.5);
    let (c, d) = (r.y + inset * 2.5, r.y + r.h - inset * 2.5);
    draw_line(a, c, b, d, inset, line);
    draw_line(a, d, b, c, inset, line);
}

fn draw_coordinates(g: &Geometry, theme: &Theme) {
    let size = (g.square * 0.22).clamp(10.0, 18.0);
    let board = g.squares();
    for i in 0..7u8 {
        let (file, rank) = if g.flipped { (6 - i, i) } else { (i, 6 - i) };
        let letter = char::from(b'a' + file).to_string();
        let x = board.x + f32::from(i) * g.square;
        let below = Rect::new(
            x,
            board.bottom() + 2.0,
            g.square,
            g.outer.bottom() - board.bottom() - 2.0,
        );
        theme.text_centred(&letter, below, size, theme::MUTED, Weight::Bold);
        let number = (rank + 1).to_string();
        let y = board.y + f32::from(i) * g.square;
        let left = Rect::new(g.outer.x, y, board.x - g.outer.x - 3.0, g.square);
        theme.text_centred(&number, left, size, theme::MUTED, Weight::Bold);
    }
}

/// A disc for `color`'s piece at `centre`, with opacity `opacity`.
/// The pieces the last move converted, turning from the old colour to the new over what
/// [`draw`] drew (with each piece in its new colour), with a gold ring widening as it fades.
pub(super) fn draw_transient(view: &AtaxxView, scene: &Scene<'_, Ataxx>) {
    let t = (scene.since_last_move / FLASH).clamp(0.0, 1.0);
    let Some(before) = scene.before.filter(|_| t < 1.0) else {
        return;
    };
    let g = &view.geometry;
    let sq = g.square;
    for square in Square::ALL {
        if let (Cell::Piece(old), Cell::Piece(new)) =
            (before.cell(square), scene.position.cell(square))
        {
            if old == new {
                continue;
            }
            let centre = g.square_centre(square);
            let ring = sq * (0.40 + 0.12 * t);
            draw_circle_lines(
                centre.x,
                centre.y,
                ring,
                sq * 0.05,
                alpha(rgb(0xf5c242), 1.0 - t),
            );
            draw_piece(centre, sq, old, 1.0 - t);
        }
    }
}

fn draw_piece(centre: Vec2, square: f32, color: Color, opacity: f32) {
    let radius = square * 0.38;
    let (fill, rim) = match color {
        Color::White => (theme::PIECE_WHITE, rgb(0x9a9a92)),
        Color::Black => (theme::PIECE_BLACK, rgb(0x0d0d0d)),
    };
    let shade = |c: Rgba| alpha(c, c.a * opacity);
    draw_circle(
        centre.x + square * 0.02,
        centre.y + square * 0.04,
        radius,
        shade(alpha(rgb(0x000000), 0.3)),
    );
    draw_circle(centre.x, centre.y, radius, shade(rim));
    draw_circle(
        centre.x,
        centre.y,
        radius - (square * 0.035).max(1.0),
        shade(fill),
    );
    // A faint highlight gives the disc some depth.
    let glint = match color {
        Color::White => alpha(rgb(0xffffff), 0.8),
        Color::Black => alpha(rgb(0x5a5a5a), 0.55),
    };
    draw_circle(
        centre.x - radius * 0.3,
        centre.y - radius * 0.3,
        radius * 0.28,
        shade(glint),
    );
}

/// The hint: an arrow from the moving piece (for a clone, the nearest of the mover's pieces) to
/// the destination.
fn draw_hint(g: &Geometry, scene: &Scene<'_, Ataxx>, mv: Move) {
    let Some(to) = mv.to() else { return };
    let mover = scene.position.side_to_move();
    let from = mv.from().or_else(|| {
        to.neighbours()
            .into_iter()
            .find(|&s| scene.position.cell(s) == Cell::Piece(mover))
    });
    let color = alpha(rgb(0x15781b), 0.8);
    let end = g.square_centre(to);
    let Some(from) = from else {
        draw_circle_lines(end.x, end.y, g.square * 0.42, g.square * 0.08, color);
        return;
    };
    let start = g.square_centre(from);
    let direction = (end - start).normalize_or_zero();
    let normal = Vec2::new(-direction.y, direction.x);
    let head = g.square * 0.3;
    let tip = end - direction * g.square * 0.12;
    let neck = tip - direction * head;
    draw_line(start.x, start.y, neck.x, neck.y, g.square * 0.12, color);
    draw_triangle(
        tip,
        neck + normal * head * 0.6,
        neck - normal * head * 0.6,
        color,
    );
}
