//! Drawing the Gonnect board as a Go board: wood, lines through the intersections, star points,
//! the coordinates, stones, the last stone marked, captured stones fading out, a ghost stone under
//! the mouse, the winning chain traced at the end, and the hint.

use macroquad::math::Vec2;
use macroquad::shapes::{draw_circle, draw_circle_lines, draw_line};
use tavola_sdk::games::gonnect::{Bitboard, Gonnect, Move, Point, SIZE};
use tavola_sdk::{Color, Position as _};

use super::gonnect::{captured, labels, winning_chain, Geometry, GonnectView};
use super::paint;
use super::Scene;
use crate::gui::theme::{self, alpha, rgb, Theme};

/// The star points: the 4-4 points and the centre.
const STARS: [(u8, u8); 5] = [(3, 3), (3, 9), (9, 3), (9, 9), (6, 6)];

pub(super) fn draw(view: &GonnectView, scene: &Scene<'_, Gonnect>, theme: &Theme) {
    let g = &view.geometry;
    let cell = g.grid.cell;
    let position = scene.position;
    let cells = g.grid.cells();
    paint::frame(cells);
    paint::tint(cells, theme::GONNECT_WOOD);
    // Lines from the first intersection to the last, whole pixels for sharpness.
    let width = (cell * 0.035).clamp(1.0, 2.0);
    let (lo, hi) = (cell / 2.0, cell * (f32::from(SIZE) - 0.5));
    for i in 0..SIZE {
        let offset = (f32::from(i) * cell + cell / 2.0).floor() + 0.5;
        let (x, y) = (cells.x + offset, cells.y + offset);
        draw_line(x, cells.y + lo, x, cells.y + hi, width, theme::GONNECT_LINE);
        draw_line(cells.x + lo, y, cells.x + hi, y, width, theme::GONNECT_LINE);
    }
    for (column, row) in STARS {
        if let Some(p) = Point::from_coords(column, row) {
            let c = g.centre(p);
            draw_circle(c.x, c.y, (cell * 0.09).max(2.0), theme::GONNECT_LINE);
        }
    }
    paint::coordinates(&g.grid, theme, |c| labels(c, 0).0, |r| labels(0, r).1);

    // Under the mouse: a ghost stone where the person may play, a ring on a stone.
    if let (Some(mover), Some(point)) = (scene.mover, view.hovered) {
        let c = g.centre(point);
        match position.stone(point) {
            None if position.is_legal(Move::Place(point)) => {
                stone(c, cell, mover, 0.45);
            }
            None => {}
            Some(owner) => {
                let color = if owner == mover {
                    theme::GOOD
                } else {
                    theme::BAD
                };
                draw_circle_lines(c.x, c.y, cell * 0.5, cell * 0.06, color);
            }
        }
    }
    for p in Point::ALL {
        if let Some(color) = position.stone(p) {
            stone(g.centre(p), cell, color, 1.0);
        }
    }
    // An opponent's stone under the mouse turns red, as an opponent's piece does in Ataxx.
    if let (Some(mover), Some(point)) = (scene.mover, view.hovered) {
        if position.stone(point).is_some_and(|owner| owner != mover) {
            let c = g.centre(point);
            draw_circle(c.x, c.y, cell * 0.45, alpha(theme::BAD, 0.45));
        }
    }
    // The last stone: a ring in the other colour (after a swap, the swapped stone).
    if let Some(mv) = scene.last_move {
        let point = match mv {
            Move::Place(p) => Some(p),
            Move::Swap => position.stones(Color::White).into_iter().next(),
        };
        if let Some(p) = point {
            let mark = match position.stone(p) {
                Some(Color::Black) => rgb(0xf0f0f0),
                _ => rgb(0x202020),
            };
            let c = g.centre(p);
            draw_circle_lines(c.x, c.y, cell * 0.2, (cell * 0.06).max(1.5), mark);
        }
    }
    if let Some(chain) = winning_chain(position) {
        trace_chain(g, chain, cell);
    }
    // A refused click: a small red cross where it was.
    if let Some(p) = view.selection.refused {
        let c = g.centre(p);
        let r = cell * 0.22;
        let red = alpha(theme::BAD, 0.85);
        draw_line(c.x - r, c.y - r, c.x + r, c.y + r, cell * 0.07, red);
        draw_line(c.x - r, c.y + r, c.x + r, c.y - r, cell * 0.07, red);
    }
    match scene.hint {
        Some(Move::Place(p)) => paint::arrow(&[g.centre(p)], cell),
        Some(Move::Swap) => {
            if let Some(p) = position.stones(Color::Black).into_iter().next() {
                paint::arrow(&[g.centre(p)], cell);
            }
        }
        None => {}
    }
}

/// The stones the last move took, fading out, over what [`draw`] drew.
pub(super) fn draw_transient(view: &GonnectView, scene: &Scene<'_, Gonnect>) {
    let g = &view.geometry;
    let cell = g.grid.cell;
    let position = scene.position;
    // The stones the last move took, fading out.
    let t = paint::fade(scene.since_last_move);
    if let (Some(mv), Some(before), true) = (scene.last_move, scene.before, t < 1.0) {
        for (p, color) in captured(before, position, mv) {
            let c = g.centre(p);
            stone(c, cell, color, 1.0 - t);
            paint::flash(c, cell, t);
        }
    }
}

/// A Go stone of `color` at `centre`.
fn stone(centre: Vec2, cell: f32, color: Color, opacity: f32) {
    let (fill, rim, glint) = match color {
        Color::Black => (rgb(0x1d1d1d), rgb(0x050505), alpha(rgb(0x6a6a6a), 0.5)),
        Color::White => (rgb(0xf4f4ef), rgb(0xa5a59d), alpha(rgb(0xffffff), 0.9)),
    };
    paint::disc(centre, cell * 0.47, fill, rim, glint, opacity);
}

/// The winning chain: a bright line along every link between its stones, and a ring on each.
fn trace_chain(g: &Geometry, chain: Bitboard, cell: f32) {
    let color = alpha(rgb(0xf5c242), 0.9);
    for p in chain {
        let c = g.centre(p);
        for q in p.neighbours() {
            // Each link once: towards the larger index.
            if chain.contains(q) && q.index() > p.index() {
                let d = g.centre(q);
                draw_line(c.x, c.y, d.x, d.y, cell * 0.14, color);
            }
        }
    }
    for p in chain {
        let c = g.centre(p);
        draw_circle(c.x, c.y, cell * 0.12, color);
    }
}
