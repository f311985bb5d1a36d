//! The window: macroquad screens for the start menu and a game, one board view per game.
//!
//! Layering: the GUI asks the referee (through [`session::Session`]) and never decides a rule;
//! everything but the drawing is plain state, tested without a window. [`run`] opens the window
//! and drives the stack of [`screen::Screen`]s; bots think on their seats' threads, polled each
//! frame, so no frame waits for a bot.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use macroquad::math::Vec2;
use macroquad::window::{next_frame, screen_height, screen_width};
use macroquad::Window;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::Game;

use crate::builtin::Evaluate;
use crate::record::GameRecord;
use crate::text_ui::GameSetup;

pub mod board;
pub mod editor;
pub mod game;
pub mod layout;
pub mod opening;
mod panel;
pub mod plugins;
pub mod prompt;
pub mod screen;
pub mod session;
pub mod start;
mod start_draw;
pub mod theme;

use board::ataxx::AtaxxView;
use board::dama::DamaView;
use board::gonnect::GonnectView;
use board::tablut::TablutView;
use board::BoardView;
use game::GameScreen;
use opening::Opening;
use screen::{Input, Nav, Screen};
use theme::Theme;

/// The games the window plays, each with its board view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// Ataxx ([`AtaxxView`]).
    Ataxx,
    /// Tablut, Ashton rules ([`TablutView`]).
    Tablut,
    /// Gonnect, Go stones with Hex's goal ([`GonnectView`]).
    Gonnect,
    /// Dama, Italian draughts ([`DamaView`]).
    Dama,
}

impl GameKind {
    /// Every game, in the start screen's order.
    pub const ALL: [GameKind; 4] = [
        GameKind::Ataxx,
        GameKind::Tablut,
        GameKind::Gonnect,
        GameKind::Dama,
    ];

    /// The name on the command line and in records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Ataxx => Ataxx::NAME,
            GameKind::Tablut => Tablut::NAME,
            GameKind::Gonnect => Gonnect::NAME,
            GameKind::Dama => Dama::NAME,
        }
    }

    /// The name people read.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Ataxx => "Ataxx",
            GameKind::Tablut => "Tablut",
            GameKind::Gonnect => "Gonnect",
            GameKind::Dama => "Dama",
        }
    }

    /// The variants; the first is the default.
    #[must_use]
    pub const fn variants(self) -> &'static [&'static str] {
        match self {
            GameKind::Ataxx => Ataxx::VARIANTS,
            GameKind::Tablut => Tablut::VARIANTS,
            GameKind::Gonnect => Gonnect::VARIANTS,
            GameKind::Dama => Dama::VARIANTS,
        }
    }

    /// The game named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// The game screen for `setup`, its players seated.
    ///
    /// # Errors
    /// A bad variant or position, or a player that cannot be seated.
    pub fn open(self, setup: &GameSetup) -> anyhow::Result<Box<dyn Screen>> {
        Ok(match self {
            GameKind::Ataxx => Box::new(GameScreen::<AtaxxView>::new(setup)?),
            GameKind::Tablut => Box::new(GameScreen::<TablutView>::new(setup)?),
            GameKind::Gonnect => Box::new(GameScreen::<GonnectView>::new(setup)?),
            GameKind::Dama => Box::new(GameScreen::<DamaView>::new(setup)?),
        })
    }
}

impl GameKind {
    /// The game screen for `setup`, opened on a thread of its own (see [`Opening`]).
    #[must_use]
    pub fn opening(self, setup: GameSetup) -> Opening {
        fn as_is<V: BoardView>(screen: GameScreen<V>) -> GameScreen<V>
        where
            V::Game: Evaluate,
        {
            screen
        }
        match self {
            GameKind::Ataxx => Opening::start(setup, as_is::<AtaxxView>),
            GameKind::Tablut => Opening::start(setup, as_is::<TablutView>),
            GameKind::Gonnect => Opening::start(setup, as_is::<GonnectView>),
            GameKind::Dama => Opening::start(setup, as_is::<DamaView>),
        }
    }

    /// The game screen continuing the recorded game in `setup.resume`, loaded from `file`,
    /// opened on a thread of its own (see [`Opening`]).
    #[must_use]
    pub fn resuming(self, setup: GameSetup, file: String, notice: String) -> Opening {
        fn finish<V: BoardView>(
            file: String,
            notice: String,
        ) -> impl FnOnce(GameScreen<V>) -> GameScreen<V>
        where
            V::Game: Evaluate,
        {
            move |screen| screen.continuing(&file, notice)
        }
        match self {
            GameKind::Ataxx => Opening::start(setup, finish::<AtaxxView>(file, notice)),
            GameKind::Tablut => Opening::start(setup, finish::<TablutView>(file, notice)),
            GameKind::Gonnect => Opening::start(setup, finish::<GonnectView>(file, notice)),
            GameKind::Dama => Opening::start(setup, finish::<DamaView>(file, notice)),
        }
    }

    /// Checks that the moves of `record` replay in this game (before any player is seated).
    ///
    /// # Errors
    /// The record's position or a move that does not replay.
    pub fn replays(self, record: &GameRecord) -> anyhow::Result<()> {
        match self {
            GameKind::Ataxx => record.replay::<Ataxx>().map(|_| ())?,
            GameKind::Tablut => record.replay::<Tablut>().map(|_| ())?,
            GameKind::Gonnect => record.replay::<Gonnect>().map(|_| ())?,
            GameKind::Dama => record.replay::<Dama>().map(|_| ())?,
        }
        Ok(())
    }

    /// The game a record is of, if the window shows it.
    ///
    /// # Errors
    /// One line: the record names no game, or one the window does not show.
    pub fn of_record(record: &GameRecord) -> Result<GameKind, String> {
        let name = record
            .tag("Game")
            .ok_or_else(|| "the record names no game (no [Game] tag)".to_owned())?;
        GameKind::from_name(name).ok_or_else(|| {
            format!("the record is a game of {name:?}, which the window does not show")
        })
    }
}

/// What the window opens on, and the options for tests and measurements.
#[derive(Debug, Clone, Default)]
pub struct GuiOptions {
    /// Straight into this game (`None`: the start screen).
    pub game: Option<(GameKind, GameSetup)>,
    /// The start screen's first choices (`None`: its defaults).
    pub menu: Option<(GameKind, GameSetup)>,
    /// Close the window after this many frames.
    pub frames: Option<u64>,
    /// Close the window after this many seconds (tests that drive it with real X events).
    pub seconds: Option<f64>,
    /// Save the last frame as a PNG here (with `frames` or `seconds`).
    pub screenshot: Option<PathBuf>,
}

/// Set once the first frame runs: a panic before it is a window that could not open.
static OPENED: AtomicBool = AtomicBool::new(false);
/// The message of a panic while the window was opening.
static OPEN_FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Set once the window runs: the editor may use the clipboard (tests drive screens without one).
static WINDOWED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a window is open (and so the clipboard there).
#[must_use]
pub fn windowed() -> bool {
    WINDOWED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Opens the window and runs it until it is closed, then ends the process (a bot thread that is
/// still thinking cannot be joined, and need not be).
///
/// # Errors
/// No display, a window that cannot open, a player that cannot be seated (before any window
/// opens), a screenshot that cannot be written.
pub fn run(options: GuiOptions) -> anyhow::Result<ExitCode> {
    // Seat the players before the window opens, and before the display is looked for: a bad
    // plugin is an error on the terminal, whether or not a window could open.
    let first: Box<dyn Screen> = match &options.game {
        Some((kind, setup)) => kind.open(setup)?,
        None => match &options.menu {
            Some((kind, setup)) => Box::new(start::StartScreen::with_setup(kind.name(), setup)),
            None => Box::new(start::StartScreen::new()),
        },
    };
    check_display()?;
    let outcome: Rc<RefCell<Option<anyhow::Result<String>>>> = Rc::new(RefCell::new(None));
    let conf = macroquad::miniquad::conf::Conf {
        window_title: "Tavola".to_owned(),
        window_width: 1280,
        window_height: 800,
        window_resizable: true,
        sample_count: 1,
        ..Default::default()
    };
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !OPENED.load(Ordering::Relaxed) && std::thread::current().name() == Some("main") {
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown error".to_owned());
            if let Ok(mut slot) = OPEN_FAILURE.lock() {
                *slot = Some(message);
            }
        } else {
            default_hook(info);
        }
    }));
    let shared = Rc::clone(&outcome);
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        Window::from_config(conf, main_loop(first, options, shared));
    }));
    if opened.is_err() && !OPENED.load(Ordering::Relaxed) {
        let reason = OPEN_FAILURE
            .lock()
            .ok()
            .and_then(|mut slot| slot.take())
            .unwrap_or_else(|| "unknown error".to_owned());
        bail!(
            "cannot open a window ({}); play in the terminal with `tavola play --headless`",
            reason.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    if opened.is_err() {
        bail!("the window crashed (see the message above)");
    }
    let result = outcome.borrow_mut().take();
    match result {
        Some(Ok(report)) if !report.is_empty() => println!("{report}"),
        Some(Err(e)) => return Err(e),
        Some(Ok(_)) | None => {}
    }
    // Closed by the user: bots may still be thinking on their threads; end at once.
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    std::process::exit(0);
}

/// Fails with one line when there is no display to open a window on.
fn check_display() -> anyhow::Result<()> {
    if cfg!(all(unix, not(target_os = "macos"))) {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            bail!(
                "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set); \
                 play in the terminal with `tavola play --headless`"
            );
        }
    }
    Ok(())
}

async fn main_loop(
    first: Box<dyn Screen>,
    options: GuiOptions,
    outcome: Rc<RefCell<Option<anyhow::Result<String>>>>,
) {
    OPENED.store(true, Ordering::Relaxed);
    let theme = match Theme::load() {
        Ok(theme) => theme,
        Err(e) => {
            *outcome.borrow_mut() = Some(Err(e.context("loading the fonts")));
            return;
        }
    };
    let mut stack = vec![first];
    let started = Instant::now();
    let mut stats = FrameStats::default();
    let mut last_frame = Instant::now();
    let mut frame = 0u64;
    let mut result = Ok(String::new());
    // The window's close button ends the loop here, so that the screens close (and stop their
    // bots) on this side; nothing then waits for a bot still thinking.
    macroquad::input::prevent_quit();
    loop {
        if macroquad::input::is_quit_requested() {
            break;
        }
        WINDOWED.store(true, std::sync::atomic::Ordering::Relaxed);
        let input = Input::read();
        let size = Vec2::new(screen_width(), screen_height());
        let now = started.elapsed().as_secs_f64();
        let work = Instant::now();
        let Some(top) = stack.last_mut() else { break };
        match top.update(&input, size, now) {
            Nav::Stay => {}
            Nav::Push(screen) => stack.push(screen),
            Nav::Pop => {
                if let Some(mut old) = stack.pop() {
                    old.close();
                }
            }
            Nav::Replace(screen) => {
                if let Some(mut old) = stack.pop() {
                    old.close();
                }
                stack.push(screen);
            }
            Nav::Quit => break,
        }
        let Some(top) = stack.last() else { break };
        top.draw(&theme, size, now);
        stats.work.push(work.elapsed());
        let thinking = top.bot_thinking();
        frame += 1;
        let done = options.frames.is_some_and(|frames| frame >= frames)
            || options.seconds.is_some_and(|seconds| now >= seconds);
        if done {
            if let Some(path) = &options.screenshot {
                if let Err(e) = save_screenshot(path) {
                    result = Err(e);
                }
            }
            if result.is_ok() {
                let summary = top.summary().map(|s| format!("\n{s}")).unwrap_or_default();
                result = Ok(format!("{}{summary}", stats.report()));
            }
            break;
        }
        next_frame().await;
        let interval = last_frame.elapsed();
        stats.interval.push(interval);
        if thinking {
            stats.thinking.push(interval);
        }
        last_frame = Instant::now();
    }
    for screen in &mut stack {
        screen.close();
    }
    *outcome.borrow_mut() = Some(result);
}

/// Frame times of a `--frames` run.
#[derive(Debug, Default)]
struct FrameStats {
    /// From one frame's start to the next (what a person sees).
    interval: Vec<Duration>,
    /// Update and draw alone (the GUI's own work).
    work: Vec<Duration>,
    /// Frame intervals while a bot was thinking.
    thinking: Vec<Duration>,
}

impl FrameStats {
    fn report(&mut self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let line = |name: &str, times: &mut Vec<Duration>| {
            let (median, p99) = percentiles(times);
            format!(
                "{name}: median {:.2} ms, 99th percentile {:.2} ms",
                ms(median),
                ms(p99)
            )
        };
        format!(
            "frames: {}\n{}\n{}\n{} ({} frames)",
            self.work.len(),
            line("frame interval", &mut self.interval),
            line("update+draw", &mut self.work),
            line("frame interval while a bot thinks", &mut self.thinking),
            self.thinking.len()
        )
    }
}

/// The median and the 99th percentile of `times` (zero when empty).
fn percentiles(times: &mut [Duration]) -> (Duration, Duration) {
    if times.is_empty() {
        return (Duration::ZERO, Duration::ZERO);
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Saves what the window shows now as a PNG.
fn save_screenshot(path: &Path) -> anyhow::Result<()> {
    let image = macroquad::texture::get_screen_data();
    let (w, h) = (u32::from(image.width), u32::from(image.height));
    // GL rows run bottom to top.
    let row = w as usize * 4;
    let mut pixels = Vec::with_capacity(image.bytes.len());
    for y in (0..h as usize).rev() {
        pixels.extend_from_slice(image.bytes.get(y * row..(y + 1) * row).unwrap_or_default());
    }
    let file = std::fs::File::create(path)
        .with_context(|| format!("writing the screenshot {}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels))
        .with_context(|| format!("writing the screenshot {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_frame_times() {
        let mut times: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        times.reverse();
        let (median, p99) = percentiles(&mut times);
        assert_eq!(median, Duration::from_millis(51));
        assert_eq!(p99, Duration::from_millis(99));
        assert_eq!(percentiles(&mut []), (Duration::ZERO, Duration::ZERO));
    }

    #[test]
    fn games_are_found_by_name() {
        assert_eq!(GameKind::from_name("ATAXX"), Some(GameKind::Ataxx));
        assert_eq!(GameKind::from_name("chess"), None);
        assert_eq!(GameKind::Ataxx.variants(), ["standard", "attax"]);
    }
}
