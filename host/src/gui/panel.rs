//! Drawing the game screen's side panel: the players with their clocks, piece counts and search
//! reports, whose turn it is, the move list and the buttons.

use std::time::Duration;

use macroquad::math::{Rect, Vec2};
use macroquad::shapes::{draw_circle, draw_rectangle};
use tavola_sdk::{Color, Position as _, SearchInfo};

use super::board::BoardView;
use super::game::GameScreen;
use super::layout::{PanelButton, MOVE_ROW};
use super::theme::{self, alpha, rgb, ButtonStyle, Theme, Weight};
use crate::builtin::Evaluate;

/// How long a notice ("Saved to ...") stays in the status line, in seconds.
const NOTICE_SECONDS: f64 = 5.0;

/// The Pass button's place in the status area.
#[must_use]
pub fn pass_button(status: Rect) -> Rect {
    Rect::new(status.right() - 96.0, status.y + 7.0, 88.0, status.h - 14.0)
}

/// A clock as people read it: `4:05`, and tenths under ten seconds (`0:07.3`).
#[must_use]
pub fn clock_text(left: Option<Duration>) -> String {
    let Some(left) = left else {
        return "–".to_owned();
    };
    let tenths = left.as_millis() / 100;
    let seconds = tenths / 10;
    if seconds < 10 {
        format!("0:{:02}.{}", seconds, tenths % 10)
    } else if seconds < 3600 {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    } else {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    }
}

/// A search report in a few words: `depth 5 · +1.25 · 12.3k nodes · b6 f2 c5`, with the first
/// moves of the principal variation when there is one (the line is clipped to the card).
#[must_use]
pub fn report_text(info: &SearchInfo) -> String {
    let mut parts = vec![format!("depth {}", info.depth)];
    if let Some(mate) = info.mate {
        parts.push(format!("mate {mate}"));
    } else if let Some(score) = info.score {
        parts.push(format!("{:+.2}", f64::from(score) / 100.0));
    }
    let nodes = info.nodes;
    parts.push(match nodes {
        0..=9_999 => format!("{nodes} nodes"),
        10_000..=9_999_999 => format!("{:.1}k nodes", nodes as f64 / 1e3),
        _ => format!("{:.1}M nodes", nodes as f64 / 1e6),
    });
    let pv: Vec<&str> = info.pv.split_whitespace().take(6).collect();
    if !pv.is_empty() {
        parts.push(pv.join(" "));
    }
    parts.join(" · ")
}

pub(super) fn draw<V: BoardView>(screen: &GameScreen<V>, theme: &Theme)
where
    V::Game: Evaluate,
{
    let layout = &screen.layout;
    let (top, bottom) = if screen.flipped {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    player_card(screen, theme, layout.top_player, top);
    player_card(screen, theme, layout.bottom_player, bottom);
    status(screen, theme);
    move_list(screen, theme);
    for (button, rect) in PanelButton::ALL.into_iter().zip(layout.buttons) {
        let hot = rect.contains(screen.mouse);
        let style = ButtonStyle::normal(screen.enabled(button), hot);
        let label = match button {
            PanelButton::Hint if screen.session.hint_pending() => "Thinking…",
            _ => button.label(),
        };
        theme.button(rect, label, style, 14.0);
    }
}

fn player_card<V: BoardView>(screen: &GameScreen<V>, theme: &Theme, rect: Rect, color: Color)
where
    V::Game: Evaluate,
{
    let session = &screen.session;
    let over = session.result().is_some();
    let to_move = !over && session.position().side_to_move() == color;
    theme::rounded_rect(rect, 8.0, theme::PANEL);
    if to_move {
        theme::rounded_rect(Rect::new(rect.x, rect.y, 4.0, rect.h), 2.0, theme::ACCENT);
    }
    // The piece colour as a disc.
    let (fill, rim) = match color {
        Color::White => (theme::PIECE_WHITE, rgb(0x9a9a92)),
        Color::Black => (theme::PIECE_BLACK, rgb(0x6a6a6a)),
    };
    let (cx, cy) = (rect.x + 26.0, rect.y + 26.0);
    draw_circle(cx, cy, 11.0, rim);
    draw_circle(cx, cy, 9.5, fill);
    let info = session.player(color);
    let clock_w = 108.0;
    let text_w = rect.w - 48.0 - clock_w - 8.0;
    theme.text_clipped(
        &info.name,
        Vec2::new(rect.x + 46.0, rect.y + 14.0),
        17.0,
        text_w,
        theme::TEXT,
        Weight::Bold,
    );
    let kind = format!("{} · {}", color.name(), info.kind);
    theme.text_clipped(
        &kind,
        Vec2::new(rect.x + 46.0, rect.y + 37.0),
        13.0,
        text_w,
        theme::MUTED,
        Weight::Regular,
    );
    if let Some(material) = V::material(session.position_at(screen.shown_ply()), color) {
        theme.text_clipped(
            &material,
            Vec2::new(rect.x + 46.0, rect.y + 56.0),
            13.0,
            rect.w - 60.0,
            theme::TEXT,
            Weight::Regular,
        );
    }
    // The clock: bright while it runs, red under ten seconds.
    let left = session.time_left(color);
    let clock = Rect::new(rect.right() - clock_w - 10.0, rect.y + 10.0, clock_w, 36.0);
    let low = left.is_some_and(|l| l < Duration::from_secs(10));
    let (back, text) = match (to_move, low) {
        (true, true) => (theme::BAD, rgb(0xffffff)),
        (true, false) => (rgb(0xd9d6cf), rgb(0x161512)),
        (false, _) => (theme::RAISED, theme::MUTED),
    };
    theme::rounded_rect(clock, 5.0, back);
    theme.text_centred(&clock_text(left), clock, 22.0, text, Weight::Bold);
    // The bot's search report.
    let line = match (session.report(color), session.thinking() == Some(color)) {
        (Some(report), thinking) => {
            let prefix = if thinking { "thinking: " } else { "" };
            Some(format!("{prefix}{}", report_text(report)))
        }
        (None, true) => Some("thinking…".to_owned()),
        (None, false) => None,
    };
    if let Some(line) = line {
        theme.text_clipped(
            &line,
            Vec2::new(rect.x + 14.0, rect.bottom() - 22.0),
            13.0,
            rect.w - 28.0,
            theme::MUTED,
            Weight::Regular,
        );
    }
}

fn status<V: BoardView>(screen: &GameScreen<V>, theme: &Theme)
where
    V::Game: Evaluate,
{
    let rect = screen.layout.status;
    let session = &screen.session;
    theme::rounded_rect(rect, 8.0, theme::PANEL);
    let text_rect = Rect::new(rect.x + 14.0, rect.y, rect.w - 28.0, rect.h);
    let notice = screen
        .notice
        .as_ref()
        .filter(|(_, at)| screen.now - at < NOTICE_SECONDS);
    let (line, color) = if let Some(error) = &screen.error {
        (error.clone(), theme::BAD)
    } else if let Some((notice, _)) = notice {
        (notice.clone(), theme::GOOD)
    } else if let Some(line) = session.result_line() {
        (line, theme::TEXT)
    } else if let Some(ply) = screen.browsing {
        (
            format!("Viewing move {ply} · the game goes on"),
            theme::MUTED,
        )
    } else if let Some(me) = session.human_to_move() {
        let buttons = screen.view.button_moves(session.position());
        if let Some(button) = buttons.first() {
            let pass = pass_button(rect);
            theme.button(
                pass,
                button.label,
                ButtonStyle::Primary {
                    hot: pass.contains(screen.mouse),
                },
                15.0,
            );
            (button.notice.to_owned(), theme::TEXT)
        } else if let Some(notice) = screen.view.notice() {
            (notice, theme::TEXT)
        } else {
            let hint = session
                .hint()
                .map(|mv| format!(" · hint: {mv}"))
                .unwrap_or_default();
            (format!("Your move ({}){hint}", me.name()), theme::TEXT)
        }
    } else if let Some(bot) = session.thinking() {
        (
            format!("{} is thinking…", session.player(bot).name),
            theme::MUTED,
        )
    } else {
        let me = session.position().side_to_move();
        (format!("{me} to move"), theme::MUTED)
    };
    let button = session.human_to_move().is_some()
        && !screen.view.button_moves(session.position()).is_empty();
    let max = if button {
        text_rect.w - 100.0
    } else {
        text_rect.w
    };
    // A long line is set smaller before it is cut.
    let size = if theme.width(&line, 16.0, Weight::Regular) > max {
        14.0
    } else {
        16.0
    };
    let y = rect.y + (rect.h - size) / 2.0;
    theme.text_clipped(
        &line,
        Vec2::new(text_rect.x, y),
        size,
        max,
        color,
        Weight::Regular,
    );
}

fn move_list<V: BoardView>(screen: &GameScreen<V>, theme: &Theme)
where
    V::Game: Evaluate,
{
    let rect = screen.layout.moves;
    theme::rounded_rect(rect, 8.0, theme::PANEL);
    let moves = screen.session.moves();
    if moves.is_empty() {
        let hint = Rect::new(rect.x, rect.y + 10.0, rect.w, 20.0);
        theme.text_centred("No moves yet", hint, 14.0, theme::MUTED, Weight::Regular);
        return;
    }
    let list = super::layout::MoveList {
        rect,
        scroll: screen.scroll,
        plies: moves.len(),
    };
    let shown = screen.shown_ply();
    let first_row = (screen.scroll / MOVE_ROW).floor() as usize;
    let rows = (rect.h / MOVE_ROW).ceil() as usize + 1;
    for row in first_row..first_row + rows {
        let ply = row * 2 + 1;
        if ply > moves.len() {
            break;
        }
        let cell = list.ply_rect(ply);
        // Rows cut by the list's edges are not drawn (macroquad has no cheap clipping here).
        if cell.y < rect.y - 0.5 || cell.bottom() > rect.bottom() + 0.5 {
            continue;
        }
        if row % 2 == 1 {
            draw_rectangle(
                rect.x,
                cell.y,
                rect.w,
                MOVE_ROW,
                alpha(rgb(0xffffff), 0.025),
            );
        }
        theme.text(
            &format!("{}.", row + 1),
            rect.x + 12.0,
            cell.y + 5.0,
            14.0,
            theme::MUTED,
            Weight::Regular,
        );
        for ply in [ply, ply + 1] {
            let Some(mv) = moves.get(ply - 1) else { break };
            let cell = list.ply_rect(ply);
            if ply == shown {
                theme::rounded_rect(
                    Rect::new(cell.x, cell.y + 2.0, cell.w - 6.0, cell.h - 4.0),
                    4.0,
                    alpha(theme::ACCENT, 0.45),
                );
            } else if cell.contains(screen.mouse) {
                theme::rounded_rect(
                    Rect::new(cell.x, cell.y + 2.0, cell.w - 6.0, cell.h - 4.0),
                    4.0,
                    theme::HOVER,
                );
            }
            theme.text(
                &mv.to_string(),
                cell.x + 8.0,
                cell.y + 5.0,
                15.0,
                theme::TEXT,
                Weight::Regular,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_people_expect() {
        assert_eq!(clock_text(None), "–");
        assert_eq!(clock_text(Some(Duration::from_secs(245))), "4:05");
        assert_eq!(clock_text(Some(Duration::from_millis(7_349))), "0:07.3");
        assert_eq!(clock_text(Some(Duration::from_secs(3_725))), "1:02:05");
    }

    #[test]
    fn reports_are_short() {
        let info = SearchInfo {
            depth: 5,
            seldepth: 0,
            nodes: 12_345,
            score: Some(125),
            mate: None,
            pv: String::new(),
            message: String::new(),
        };
        assert_eq!(report_text(&info), "depth 5 · +1.25 · 12.3k nodes");
        let info = SearchInfo {
            pv: "a b c d e f g h".to_owned(),
            ..info
        };
        assert_eq!(
            report_text(&info),
            "depth 5 · +1.25 · 12.3k nodes · a b c d e f"
        );
    }
}
