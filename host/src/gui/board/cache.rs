//! The board drawn once into a texture, and shown from it for as long as nothing on it changes.
//!
//! A board is a hundred-odd shapes and labels; redrawn every frame, it is most of a frame's cost
//! under software GL (Xvfb, a machine without a GPU), where it competes with the bot searching on
//! the same cores. Most frames show the same board (the bot thinks, the person reads it), so the
//! board is drawn into a texture when what it shows changes, and each frame shows the texture:
//! one quad, with the last move's fading captures drawn over it for a moment.

use std::fmt::Write as _;

use macroquad::camera::{set_camera, set_default_camera, Camera2D};
use macroquad::color::WHITE;
use macroquad::math::{vec2, Rect};
use macroquad::texture::{
    draw_texture_ex, render_target, DrawTextureParams, FilterMode, RenderTarget,
};
use macroquad::window::clear_background;
use tavola_sdk::{Color, Game};

use super::{paint, BoardView, Scene};
use crate::gui::theme::{self, Theme};

/// Everything a cached board depends on.
#[derive(Debug)]
struct Key<V: BoardView> {
    /// The texture's place in the window, in whole pixels.
    area: (i32, i32, u32, u32),
    /// The view: its layout, selection and hover.
    view: V,
    /// The position, as its text.
    position: String,
    last_move: Option<<V::Game as Game>::Move>,
    mover: Option<Color>,
    hint: Option<<V::Game as Game>::Move>,
}

/// A board view's drawing, kept in a texture.
pub struct BoardCache<V: BoardView> {
    target: Option<RenderTarget>,
    key: Option<Key<V>>,
    /// The position's text of this frame (a buffer kept to save an allocation a frame).
    text: String,
}

impl<V: BoardView> Default for BoardCache<V> {
    fn default() -> Self {
        BoardCache {
            target: None,
            key: None,
            text: String::new(),
        }
    }
}

impl<V: BoardView> std::fmt::Debug for BoardCache<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardCache")
            .field("cached", &self.key.is_some())
            .finish_non_exhaustive()
    }
}

impl<V: BoardView> BoardCache<V> {
    /// Draws `view` showing `scene` in `area` (the board's whole area, coordinates included):
    /// from the texture when nothing changed since it was drawn, else afresh into it.
    pub fn draw(&mut self, view: &V, scene: &Scene<'_, V::Game>, area: Rect, theme: &Theme) {
        let (x, y) = (area.x.round() as i32, area.y.round() as i32);
        let (w, h) = (
            area.w.round().max(1.0) as u32,
            area.h.round().max(1.0) as u32,
        );
        // The position's text, written into a buffer kept from frame to frame.
        self.text.clear();
        let _ = write!(self.text, "{}", scene.position);
        let unchanged = self.key.as_ref().is_some_and(|key| {
            key.area == (x, y, w, h)
                && key.view == *view
                && key.position == self.text
                && key.last_move == scene.last_move
                && key.mover == scene.mover
                && key.hint == scene.hint
        });
        let resized = self
            .key
            .as_ref()
            .is_none_or(|old| old.area.2 != w || old.area.3 != h);
        if resized || self.target.is_none() {
            let target = render_target(w, h);
            target.texture.set_filter(FilterMode::Nearest);
            self.target = Some(target);
            self.key = None;
        }
        let Some(target) = &self.target else { return };
        if !unchanged || self.key.is_none() {
            // Board coordinates are window pixels: the camera shows `area` of the window, the
            // right way up in the texture.
            let (xf, yf, wf, hf) = (x as f32, y as f32, w as f32, h as f32);
            set_camera(&Camera2D {
                target: vec2(xf + wf / 2.0, yf + hf / 2.0),
                zoom: vec2(2.0 / wf, 2.0 / hf),
                render_target: Some(target.clone()),
                ..Camera2D::default()
            });
            clear_background(theme::BACKGROUND);
            view.draw(scene, theme);
            set_default_camera();
            self.key = Some(Key {
                area: (x, y, w, h),
                view: view.clone(),
                position: self.text.clone(),
                last_move: scene.last_move,
                mover: scene.mover,
                hint: scene.hint,
            });
        }
        draw_texture_ex(
            &target.texture,
            x as f32,
            y as f32,
            WHITE,
            DrawTextureParams {
                dest_size: Some(vec2(w as f32, h as f32)),
                ..DrawTextureParams::default()
            },
        );
        if scene.since_last_move < paint::FADE {
            view.draw_transient(scene);
        }
    }
}
