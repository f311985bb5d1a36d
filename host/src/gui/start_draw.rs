//! Drawing the start screen (its state and clicks are in `start.rs`).

use macroquad::math::{Rect, Vec2};
use macroquad::shapes::draw_rectangle_lines;
use macroquad::window::clear_background;
use tavola_sdk::Color;

use super::start::{Kind, StartLayout, StartScreen, TIMES};
use super::theme::{self, ButtonStyle, Theme, Weight};
use super::GameKind;

pub(super) fn draw(screen: &StartScreen, theme: &Theme, size: Vec2, now: f64) {
    clear_background(theme::BACKGROUND);
    let layout = &screen.layout;
    let x = layout.columns[0].x;
    let title = Rect::new(0.0, 24.0, size.x, 44.0);
    theme.text_centred("Tavola", title, 34.0, theme::TEXT, Weight::Bold);
    let label = |text: &str, rect: Rect| {
        theme.text(text, x, rect.y + 8.0, 16.0, theme::MUTED, Weight::Regular);
    };
    let chip = |rect: Rect, text: &str, selected: bool| {
        let style = if selected {
            ButtonStyle::Selected
        } else {
            ButtonStyle::normal(true, rect.contains(screen.mouse))
        };
        theme.button(rect, text, style, 15.0);
    };
    if let Some(&first) = layout.games.first() {
        label("Game", first);
    }
    for (i, (&rect, kind)) in layout.games.iter().zip(GameKind::ALL).enumerate() {
        chip(rect, kind.title(), i == screen.game);
    }
    if let Some(&first) = layout.variants.first() {
        label("Variant", first);
    }
    for (i, (&rect, name)) in layout
        .variants
        .iter()
        .zip(screen.kind().variants())
        .enumerate()
    {
        chip(rect, name, i == screen.variant);
    }
    for (c, color) in Color::ALL.into_iter().enumerate() {
        let column = layout.columns[c];
        theme::rounded_rect(column, 10.0, theme::PANEL);
        theme.text(
            &color.to_string(),
            column.x + 14.0,
            column.y + 12.0,
            20.0,
            theme::TEXT,
            Weight::Bold,
        );
        let choice = &screen.players[c];
        for (&rect, kind) in layout.kinds[c].iter().zip(Kind::ALL) {
            chip(rect, kind.label(), choice.kind == kind);
        }
        if choice.kind == Kind::Plugin {
            path_field(screen, theme, c, now);
            if screen.plugins.is_empty() {
                let row = layout.plugin_row(c, 0);
                let empty = if screen.looking_for_plugins() {
                    "Looking for bot libraries in ./plugins and target/..."
                } else {
                    "No bot libraries in ./plugins or target/"
                };
                theme.text(
                    empty,
                    row.x + 4.0,
                    row.y + 6.0,
                    14.0,
                    theme::MUTED,
                    Weight::Regular,
                );
            }
            for (i, plugin) in screen.plugins.iter().take(StartLayout::ROWS).enumerate() {
                let row = layout.plugin_row(c, i);
                let chosen = choice.path == plugin.path.display().to_string();
                let style = if chosen {
                    theme::alpha(theme::ACCENT, 0.35)
                } else if row.contains(screen.mouse) {
                    theme::HOVER
                } else {
                    theme::RAISED
                };
                theme::rounded_rect(
                    Rect::new(row.x, row.y + 2.0, row.w, row.h - 4.0),
                    4.0,
                    style,
                );
                theme.text(
                    &plugin.name,
                    row.x + 8.0,
                    row.y + 6.0,
                    14.0,
                    theme::TEXT,
                    Weight::Bold,
                );
                let file = plugin
                    .path
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let name_w = theme.width(&plugin.name, 14.0, Weight::Bold);
                theme.text_clipped(
                    &file,
                    Vec2::new(row.x + 16.0 + name_w, row.y + 7.0),
                    12.0,
                    row.w - name_w - 24.0,
                    theme::MUTED,
                    Weight::Regular,
                );
            }
        } else {
            let row = layout.plugin_row(c, 0);
            let about = match choice.kind {
                Kind::Human => "You play with the mouse.",
                Kind::Builtin => "The built-in bot: a short search.",
                Kind::Random => "Random legal moves.",
                Kind::Plugin => "",
            };
            theme.text(
                about,
                row.x + 4.0,
                layout.paths[c].y + 8.0,
                15.0,
                theme::MUTED,
                Weight::Regular,
            );
        }
    }
    if let Some(&first) = layout.times.first() {
        label("Time", first);
    }
    for (i, (&rect, (name, _, _))) in layout.times.iter().zip(TIMES).enumerate() {
        chip(rect, name, i == screen.time);
    }
    let (start, hot) = if screen.starting() {
        ("Starting the players…", false)
    } else {
        ("Start", layout.start.contains(screen.mouse))
    };
    theme.button(layout.start, start, ButtonStyle::Primary { hot }, 18.0);
    if let Some((_, text)) = screen.position.as_ref().filter(|(g, _)| *g == screen.game) {
        theme.text_clipped(
            &format!("From the edited position: {text}"),
            Vec2::new(layout.error.x, layout.error.y - 20.0),
            13.0,
            layout.error.w,
            theme::MUTED,
            Weight::Regular,
        );
    }
    if let Some(error) = &screen.error {
        theme.text_clipped(
            error,
            Vec2::new(layout.error.x, layout.error.y),
            15.0,
            layout.error.w,
            theme::BAD,
            Weight::Regular,
        );
    }
}

fn path_field(screen: &StartScreen, theme: &Theme, c: usize, now: f64) {
    let rect = screen.layout.paths[c];
    let focused = screen.focus == Some(Color::ALL[c]);
    theme::rounded_rect(rect, 5.0, theme::rgb(0x1c1b19));
    let border = if focused {
        theme::ACCENT
    } else {
        theme::RAISED
    };
    draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 1.5, border);
    let text = &screen.players[c].path;
    let (shown, color) = if text.is_empty() && !focused {
        ("path/to/libbot.so (or pick below)".to_owned(), theme::MUTED)
    } else {
        (text.clone(), theme::TEXT)
    };
    // Long paths show their end, where the file name is.
    let mut visible = shown.as_str();
    while theme.width(visible, 14.0, Weight::Regular) > rect.w - 20.0 && !visible.is_empty() {
        let mut chars = visible.chars();
        chars.next();
        visible = chars.as_str();
    }
    let width = theme.text(
        visible,
        rect.x + 8.0,
        rect.y + 9.0,
        14.0,
        color,
        Weight::Regular,
    );
    if focused && (now * 2.0).fract() < 0.5 {
        let cursor_x = rect.x + 9.0 + if text.is_empty() { 0.0 } else { width };
        macroquad::shapes::draw_line(
            cursor_x,
            rect.y + 7.0,
            cursor_x,
            rect.bottom() - 7.0,
            1.5,
            theme::TEXT,
        );
    }
}
