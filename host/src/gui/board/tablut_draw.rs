//! Drawing the Tablut board: sand squares between thin lines, the camps darker, the castle with
//! its emblem, the escape squares tinted, the coordinates (row 1 at the top), soldiers and the
//! crowned king, the last move, captured soldiers fading out, the selection with its
//! destinations, the hover and the hint arrow.

use macroquad::math::Vec2;
use macroquad::shapes::{draw_circle_lines, draw_poly_lines};
use tavola_sdk::games::tablut::{Cell, Square, Tablut};
use tavola_sdk::{Color, EndReason, Position as _};

use super::paint::{self, MOVE_MARK};
use super::tablut::{is_escape, labels, TablutView};
use super::Geometry as _;
use super::Scene;
use crate::gui::theme::{self, alpha, rgb, Theme};

pub(super) fn draw(view: &TablutView, scene: &Scene<'_, Tablut>, theme: &Theme) {
    let g = &view.geometry;
    let cell = g.grid.cell;
    let position = scene.position;
    let cells = g.grid.cells();
    paint::frame(cells);
    paint::tint(cells, theme::TABLUT_LINE);
    let line = (cell * 0.02).clamp(1.0, 2.0);
    for square in Square::ALL {
        let r = g.square_rect(square);
        let fill = if square.is_castle() {
            theme::TABLUT_CASTLE
        } else if square.is_camp() {
            theme::TABLUT_CAMP
        } else if is_escape(square) {
            theme::TABLUT_ESCAPE
        } else {
            theme::TABLUT_SQUARE
        };
        paint::tint(
            macroquad::math::Rect::new(r.x + line / 2.0, r.y + line / 2.0, r.w - line, r.h - line),
            fill,
        );
        if square.is_castle() {
            // The castle's emblem: a diamond in a ring.
            let c = g.square_centre(square);
            let mark = alpha(rgb(0xf3e7cc), 0.55);
            draw_poly_lines(c.x, c.y, 4, cell * 0.3, 0.0, (cell * 0.04).max(1.0), mark);
            draw_circle_lines(c.x, c.y, cell * 0.4, (cell * 0.03).max(1.0), mark);
        } else if square.is_camp_centre() {
            let c = g.square_centre(square);
            draw_poly_lines(
                c.x,
                c.y,
                4,
                cell * 0.16,
                0.0,
                (cell * 0.03).max(1.0),
                alpha(rgb(0xf3e7cc), 0.45),
            );
        }
    }
    paint::coordinates(&g.grid, theme, |c| labels(c, 0).0, |r| labels(0, r).1);

    if let Some(mv) = scene.last_move {
        paint::tint(g.square_rect(mv.from), theme::LAST_MOVE);
        paint::tint(g.square_rect(mv.to), theme::LAST_MOVE);
    }
    if let Some(selected) = view.selection.selected {
        paint::tint(g.square_rect(selected), alpha(MOVE_MARK, 0.5));
    }
    if let (Some(mover), Some(square)) = (scene.mover, view.hovered) {
        if let Some(owner) = position.cell(square).color() {
            paint::hover(g.square_rect(square), owner == mover);
        }
    }

    for square in Square::ALL {
        let cell_content = position.cell(square);
        if cell_content != Cell::Empty {
            draw_piece(g.square_centre(square), cell, cell_content, 1.0);
        }
    }
    // The end of the king: a red ring when captured, gold when it escaped.
    if let (Some(king), Some(outcome)) = (position.king(), position.outcome()) {
        let ring = match outcome.reason {
            EndReason::KingCaptured => Some(theme::BAD),
            EndReason::KingEscaped => Some(rgb(0xf5c242)),
            _ => None,
        };
        if let Some(ring) = ring {
            let c = g.square_centre(king);
            draw_circle_lines(c.x, c.y, cell * 0.47, cell * 0.06, ring);
        }
    }

    for &square in &view.selection.targets {
        let hot = view.hovered == Some(square);
        paint::target_dot(g.square_centre(square), cell, hot);
    }
    if let Some(mv) = scene.hint {
        paint::arrow(&[g.square_centre(mv.from), g.square_centre(mv.to)], cell);
    }
}

/// The soldiers the last move took, fading out where they stood, over what [`draw`] drew.
pub(super) fn draw_transient(view: &TablutView, scene: &Scene<'_, Tablut>) {
    let g = &view.geometry;
    let cell = g.grid.cell;
    // The soldiers the last move took, fading out where they stood.
    let t = paint::fade(scene.since_last_move);
    if let (Some(mv), Some(before), true) = (scene.last_move, scene.before, t < 1.0) {
        for square in before.captures(mv) {
            let centre = g.square_centre(square);
            draw_piece(centre, cell, before.cell(square), 1.0 - t);
            paint::flash(centre, cell, t);
        }
    }
}

/// A soldier as a disc of its colour; the king larger, white with a gold rim and a crown.
fn draw_piece(centre: Vec2, cell: f32, content: Cell, opacity: f32) {
    match content {
        Cell::Empty => {}
        Cell::White | Cell::Black => {
            let color = if content == Cell::White {
                Color::White
            } else {
                Color::Black
            };
            let (fill, rim, glint) = paint::piece_colors(color);
            paint::disc(centre, cell * 0.36, fill, rim, glint, opacity);
        }
        Cell::King => {
            let (fill, _, _) = paint::piece_colors(Color::White);
            let gold = rgb(0xc08a1e);
            paint::disc(
                centre,
                cell * 0.42,
                fill,
                gold,
                alpha(rgb(0xffffff), 0.0),
                opacity,
            );
            paint::crown(centre, cell * 0.42, paint::faded(gold, opacity));
        }
    }
}
