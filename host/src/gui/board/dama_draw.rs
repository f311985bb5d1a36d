//! Drawing the Dama board: light and dark squares with the numbers 1-32 small in the dark ones'
//! corners, men as discs with a groove, kings crowned, the last move, captured pieces fading out,
//! the selection with its destinations, the hover and the hint arrow.

use macroquad::math::Vec2;
use macroquad::shapes::{draw_circle, draw_circle_lines};
use tavola_sdk::games::dama::{Dama, Piece, Square};
use tavola_sdk::Color;

use super::dama::DamaView;
use super::paint::{self, MOVE_MARK};
use super::Geometry as _;
use super::Scene;
use crate::gui::theme::{self, alpha, rgb, Theme, Weight};

pub(super) fn draw(view: &DamaView, scene: &Scene<'_, Dama>, theme: &Theme) {
    let g = &view.geometry;
    let grid = &g.grid;
    let cell = grid.cell;
    let position = scene.position;
    paint::frame(grid.cells());
    for row in 0..8 {
        for column in 0..8 {
            let r = grid.rect(column, row);
            let dark = (row + column) % 2 == 0;
            let fill = if dark {
                theme::DAMA_DARK
            } else {
                theme::DAMA_LIGHT
            };
            paint::tint(r, fill);
        }
    }
    // The numbers, small in each dark square's top-left corner (as the first player reads them).
    // Bold and near white on the dark brown, with a shadow: readable beside a piece too.
    let size = (cell * 0.21).clamp(10.0, 17.0);
    if cell >= 24.0 {
        for square in Square::ALL {
            let r = g.square_rect(square);
            let text = square.to_string();
            let (x, y) = (r.x + cell * 0.06, r.y + cell * 0.04);
            theme.text(
                &text,
                x + 1.0,
                y + 1.0,
                size,
                alpha(rgb(0x2a1a0c), 0.8),
                Weight::Bold,
            );
            theme.text(&text, x, y, size, rgb(0xfff6e6), Weight::Bold);
        }
    }

    // The last move: where it started and every square it landed on.
    if let Some(mv) = scene.last_move {
        paint::tint(g.square_rect(mv.from()), theme::LAST_MOVE);
        let landings: Vec<Square> = mv.landings().collect();
        for &square in landings.iter().take(landings.len().saturating_sub(1)) {
            paint::tint(g.square_rect(square), alpha(theme::LAST_MOVE, 0.2));
        }
        paint::tint(g.square_rect(mv.to()), theme::LAST_MOVE);
    }
    let selection = &view.selection;
    if let Some(selected) = selection.selected {
        paint::tint(g.square_rect(selected), alpha(MOVE_MARK, 0.5));
    }
    for &square in &selection.path {
        paint::tint(g.square_rect(square), alpha(MOVE_MARK, 0.25));
    }
    if let (Some(mover), Some(square)) = (scene.mover, view.hovered) {
        if let Some(piece) = position.piece_at(square) {
            paint::hover(g.square_rect(square), piece.color() == mover);
        }
    }

    for square in Square::ALL {
        if let Some(piece) = position.piece_at(square) {
            draw_piece(g.square_centre(square), cell, piece, 1.0);
        }
    }
    // The destinations: dots for steps, rings for captures; where two captures end together,
    // blue dots on the squares that tell them apart.
    for square in selection.targets() {
        let hot = view.hovered == Some(square);
        let centre = g.square_centre(square);
        let capture = selection
            .candidates
            .iter()
            .any(|m| m.to() == square && m.is_capture());
        if capture {
            paint::target_ring(centre, cell, hot);
        } else {
            paint::target_dot(centre, cell, hot);
        }
    }
    for square in selection.next_landings() {
        let c = g.square_centre(square);
        let radius = cell
            * if view.hovered == Some(square) {
                0.2
            } else {
                0.15
            };
        draw_circle(c.x, c.y, radius, alpha(theme::ACCENT, 0.75));
    }

    if let Some(mv) = scene.hint {
        let mut points = vec![g.square_centre(mv.from())];
        if mv.is_capture() {
            points.extend(mv.landings().map(|s| g.square_centre(s)));
        } else {
            points.push(g.square_centre(mv.to()));
        }
        paint::arrow(&points, cell);
    }
}

/// What the last move took, fading out where it stood, over what [`draw`] drew.
pub(super) fn draw_transient(view: &DamaView, scene: &Scene<'_, Dama>) {
    let g = &view.geometry;
    let cell = g.grid.cell;
    // What the last move took, fading out where it stood.
    let t = paint::fade(scene.since_last_move);
    if let (Some(mv), Some(before), true) = (scene.last_move, scene.before, t < 1.0) {
        for square in mv.captured() {
            if let Some(piece) = before.piece_at(square) {
                let centre = g.square_centre(square);
                draw_piece(centre, cell, piece, 1.0 - t);
                paint::flash(centre, cell, t);
            }
        }
    }
}

/// A man as a flat disc with a groove; a king crowned.
fn draw_piece(centre: Vec2, cell: f32, piece: Piece, opacity: f32) {
    let radius = cell * 0.4;
    let (fill, rim, glint) = paint::piece_colors(piece.color());
    // The crown stands where the glint would.
    let glint = if piece.is_king() {
        alpha(glint, 0.0)
    } else {
        glint
    };
    paint::disc(centre, radius, fill, rim, glint, opacity);
    let groove = match piece.color() {
        Color::White => alpha(rgb(0xb9b9b0), 0.9),
        Color::Black => alpha(rgb(0x575757), 0.9),
    };
    draw_circle_lines(
        centre.x,
        centre.y,
        radius * 0.68,
        (radius * 0.06).max(1.0),
        paint::faded(groove, opacity),
    );
    if piece.is_king() {
        let gold = match piece.color() {
            Color::White => rgb(0xc08a1e),
            Color::Black => rgb(0xe8c04e),
        };
        paint::crown(centre, radius * 0.95, paint::faded(gold, opacity));
    }
}
