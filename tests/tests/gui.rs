//! The window, end to end: `tavola` renders each game under a virtual X server (`xvfb-run`) and
//! saves a screenshot whose pixels show its board; a person's move is played with real X mouse events
//! (`xdotool`) and found in the record the Save button writes. Skipped, with a notice, where
//! `xvfb-run` or `xdotool` is missing (CI installs them). Without any display, `tavola` refuses
//! in one line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use macroquad::math::Rect;
use tavola::gui::board::ataxx::Geometry as AtaxxGeometry;
use tavola::gui::board::dama::Geometry as DamaGeometry;
use tavola::gui::board::gonnect::Geometry as GonnectGeometry;
use tavola::gui::board::tablut::Geometry as TablutGeometry;
use tavola::gui::layout::{GameLayout, PanelButton};
use tavola::gui::prompt::{PromptLayout, DEFAULT_FILE};
use tavola::gui::theme::{self, BOARD_DARK, BOARD_LIGHT};
use tavola::record::GameRecord;
use tavola_tests::{artifacts, run_with_timeout, Output, TempDir, TIMEOUT};

/// `xvfb-run`, if installed.
fn xvfb_run() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("xvfb-run"))
        .find(|candidate| candidate.is_file())
}

/// Waits for the other tests' virtual X servers: `xvfb-run -a` picks a free display number, and
/// two started at once may pick the same.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `tavola ARGS` under a fresh virtual X server of 1280x800.
fn under_xvfb(xvfb: &Path, args: &[&str]) -> Output {
    let _turn = one_at_a_time();
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let mut all = vec!["-a", "-s", "-screen 0 1280x800x24", tavola.as_str()];
    all.extend_from_slice(args);
    run_with_timeout(xvfb, None, all, Duration::from_secs(120))
}

/// An RGBA image.
struct Image {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Image {
    fn read(path: &Path) -> Image {
        let file = std::fs::File::open(path)
            .unwrap_or_else(|e| panic!("no screenshot {}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).expect("PNG data");
        assert_eq!(info.color_type, png::ColorType::Rgba);
        pixels.truncate(info.buffer_size());
        Image {
            width: info.width as usize,
            height: info.height as usize,
            pixels,
        }
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 4;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// The share of pixels of `rect` within a small distance of one of `colors`.
    fn share(&self, (x0, y0, x1, y1): (f32, f32, f32, f32), colors: &[[u8; 3]]) -> f64 {
        let (x0, y0) = (x0.max(0.0) as usize, y0.max(0.0) as usize);
        let (x1, y1) = (
            (x1 as usize).min(self.width),
            (y1 as usize).min(self.height),
        );
        let mut hits = 0;
        let mut total = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                let p = self.pixel(x, y);
                total += 1;
                if colors
                    .iter()
                    .any(|c| (0..3).all(|i| p[i].abs_diff(c[i]) <= 6))
                {
                    hits += 1;
                }
            }
        }
        f64::from(hits) / f64::from(total.max(1))
    }
}

fn bytes(color: macroquad::color::Color) -> [u8; 3] {
    let c: [u8; 4] = color.into();
    [c[0], c[1], c[2]]
}

/// Runs `--game GAME` between two random movers for `frames` frames under Xvfb and returns the
/// screenshot with the layout the window used (`None`: xvfb-run is missing, the test is skipped).
fn screenshot(game: &str, frames: u32) -> Option<(Image, GameLayout)> {
    let Some(xvfb) = xvfb_run() else {
        println!("SKIPPED: xvfb-run is not installed (apt-get install xvfb)");
        return None;
    };
    let dir = TempDir::new(&format!("gui-{game}"));
    let shot = dir.path().join("board.png");
    let shot_text = shot.to_string_lossy().into_owned();
    let frames = frames.to_string();
    let output = under_xvfb(
        &xvfb,
        &[
            "--game",
            game,
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "3",
            "--frames",
            &frames,
            "--screenshot",
            &shot_text,
        ],
    );
    output
        .assert_code(0)
        .assert_stdout_contains(&format!("frames: {frames}"));
    let image = Image::read(&shot);
    assert!(
        image.width >= 640 && image.height >= 400,
        "{}x{}",
        image.width,
        image.height
    );
    // The side panel is there too, beside the board.
    let layout = GameLayout::new(macroquad::math::Vec2::new(
        image.width as f32,
        image.height as f32,
    ));
    let panel = layout.top_player;
    let panel_share = image.share(
        (
            panel.x + 2.0,
            panel.y + 74.0,
            panel.right() - 2.0,
            panel.bottom() - 4.0,
        ),
        &[bytes(theme::PANEL)],
    );
    assert!(
        panel_share > 0.5,
        "{game}: panel {panel_share:.2}\n{output}"
    );
    Some((image, layout))
}

/// The middle of `rect` (from `lo` to `hi` of its width and height) as the share asks for it.
fn middle(rect: Rect, lo: f32, hi: f32) -> (f32, f32, f32, f32) {
    (
        rect.x + rect.w * lo,
        rect.y + rect.h * lo,
        rect.x + rect.w * hi,
        rect.y + rect.h * hi,
    )
}

#[test]
fn the_ataxx_window_renders_the_board() {
    let Some((image, layout)) = screenshot("ataxx", 20) else {
        return;
    };
    let board = AtaxxGeometry::new(layout.board_area, false).squares();
    let centre = middle(board, 0.3, 0.7);
    let squares = image.share(centre, &[bytes(BOARD_LIGHT), bytes(BOARD_DARK)]);
    assert!(
        squares > 0.3,
        "the squares cover {squares:.2} of the centre"
    );
    let light = image.share(centre, &[bytes(BOARD_LIGHT)]);
    let dark = image.share(centre, &[bytes(BOARD_DARK)]);
    assert!(
        light > 0.1 && dark > 0.1,
        "light {light:.2}, dark {dark:.2}"
    );
}

#[test]
fn the_tablut_window_renders_the_board() {
    let Some((image, layout)) = screenshot("tablut", 20) else {
        return;
    };
    let board = TablutGeometry::new(layout.board_area, false).grid.cells();
    let whole = middle(board, 0.0, 1.0);
    let marked = [
        theme::TABLUT_SQUARE,
        theme::TABLUT_CAMP,
        theme::TABLUT_ESCAPE,
        theme::TABLUT_LINE,
    ];
    let board_share = image.share(whole, &marked.map(bytes));
    assert!(board_share > 0.4, "the squares cover {board_share:.2}");
    // The escape squares line the edges, the camps their middles, the castle the centre.
    for (color, least) in [
        (theme::TABLUT_ESCAPE, 0.08),
        (theme::TABLUT_CAMP, 0.03),
        (theme::TABLUT_SQUARE, 0.15),
    ] {
        let share = image.share(whole, &[bytes(color)]);
        assert!(share > least, "{color:?} covers {share:.3}");
    }
    // Both sides' pieces stand on it.
    let white = image.share(whole, &[bytes(theme::PIECE_WHITE)]);
    let black = image.share(whole, &[bytes(theme::PIECE_BLACK)]);
    assert!(
        white > 0.01 && black > 0.02,
        "white {white:.3}, black {black:.3}"
    );
}

#[test]
fn the_gonnect_window_renders_the_board() {
    let Some((image, layout)) = screenshot("gonnect", 20) else {
        return;
    };
    let board = GonnectGeometry::new(layout.board_area, false).grid.cells();
    let whole = middle(board, 0.0, 1.0);
    let wood = image.share(whole, &[bytes(theme::GONNECT_WOOD)]);
    assert!(wood > 0.6, "the wood covers {wood:.2}");
    let lines = image.share(whole, &[bytes(theme::GONNECT_LINE)]);
    assert!(lines > 0.01, "the lines cover {lines:.3}");
}

#[test]
fn the_dama_window_renders_the_board() {
    let Some((image, layout)) = screenshot("dama", 20) else {
        return;
    };
    let board = DamaGeometry::new(layout.board_area, false).grid.cells();
    let whole = middle(board, 0.0, 1.0);
    // The light squares are never played on: half the board.
    let light = image.share(whole, &[bytes(theme::DAMA_LIGHT)]);
    assert!((0.4..0.55).contains(&light), "light squares {light:.2}");
    let dark = image.share(whole, &[bytes(theme::DAMA_DARK)]);
    assert!(dark > 0.08, "dark squares {dark:.2}");
    // The bottom-right square is dark (the FID orientation); the one left of it light.
    let cell = board.w / 8.0;
    let corner = (
        board.right() - cell * 0.95,
        board.bottom() - cell * 0.2,
        board.right() - cell * 0.6,
        board.bottom() - cell * 0.05,
    );
    let beside = (corner.0 - cell, corner.1, corner.2 - cell, corner.3);
    assert!(image.share(beside, &[bytes(theme::DAMA_LIGHT)]) > 0.9);
    assert!(image.share(corner, &[bytes(theme::DAMA_LIGHT)]) < 0.1);
    let white = image.share(whole, &[bytes(theme::PIECE_WHITE)]);
    let black = image.share(whole, &[bytes(theme::PIECE_BLACK)]);
    assert!(
        white > 0.03 && black > 0.03,
        "white {white:.3}, black {black:.3}"
    );
}

#[test]
fn the_start_screen_renders() {
    let Some(xvfb) = xvfb_run() else {
        println!("SKIPPED: xvfb-run is not installed (apt-get install xvfb)");
        return;
    };
    let dir = TempDir::new("gui-start");
    let shot = dir.path().join("start.png");
    let shot_text = shot.to_string_lossy().into_owned();
    under_xvfb(&xvfb, &["--frames", "3", "--screenshot", &shot_text]).assert_code(0);
    let image = Image::read(&shot);
    let whole = (0.0, 0.0, image.width as f32, image.height as f32);
    assert!(image.share(whole, &[bytes(theme::BACKGROUND)]) > 0.3);
    assert!(
        image.share(whole, &[bytes(theme::ACCENT)]) > 0.005,
        "the Start button"
    );
}

/// Runs `tavola ARGS` with neither `DISPLAY` nor `WAYLAND_DISPLAY` set.
fn without_display(args: &[&str]) -> Output {
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let unset = ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", tavola.as_str()];
    run_with_timeout(
        Path::new("/usr/bin/env"),
        None,
        unset.iter().chain(args),
        TIMEOUT,
    )
}

#[test]
fn without_a_display_the_window_refuses_in_one_line() {
    let output = without_display(&[]);
    output.assert_one_line_error(1, &["display", "tavola play --headless"]);
}

#[test]
fn a_bad_player_is_refused_before_any_window_opens() {
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let output = run_with_timeout(
        Path::new("/usr/bin/env"),
        None,
        [
            "DISPLAY=:12345",
            tavola.as_str(),
            "--white",
            "/nonexistent/libbot.so",
        ],
        TIMEOUT,
    );
    output.assert_one_line_error(3, &["/nonexistent/libbot.so", "not found"]);
    // With no display either, the path is what the user learns of first.
    let output = without_display(&["--white", "/nonexistent/libbot.so", "--black", "human"]);
    output.assert_one_line_error(3, &["/nonexistent/libbot.so", "not found"]);
}

#[test]
fn without_a_display_a_seated_game_refuses_in_one_line() {
    // The players are seated (a plugin that would think forever among them), then let go.
    let bot = format!("{}:mode=hang", artifacts().faulty_bot.display());
    let output = without_display(&["--white", &bot, "--black", "builtin"]);
    output.assert_one_line_error(1, &["display", "tavola play --headless"]);
}

/// `xdotool`, if installed.
fn xdotool() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("xdotool"))
        .find(|candidate| candidate.is_file())
}

#[test]
fn a_person_moves_with_real_mouse_clicks_and_saves_the_game() {
    let (Some(xvfb), Some(xdotool)) = (xvfb_run(), xdotool()) else {
        println!("SKIPPED: xvfb-run or xdotool is not installed (apt-get install xvfb xdotool)");
        return;
    };
    // Where a7, c5 and the buttons are in a 1280x800 window (no window manager: the window is at
    // 0,0).
    let layout = GameLayout::new(macroquad::math::Vec2::new(1280.0, 800.0));
    let board = AtaxxGeometry::new(layout.board_area, false);
    let point = |p: macroquad::math::Vec2| format!("{} {}", p.x.round(), p.y.round());
    let square = |name: &str| point(board.square_centre(name.parse().unwrap()));
    let save = PanelButton::ALL
        .iter()
        .position(|&b| b == PanelButton::Save)
        .map(|i| point(layout.buttons[i].center()))
        .unwrap();
    let confirm = point(PromptLayout::new(board.outer).confirm.center());
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let xdotool = xdotool.to_string_lossy().into_owned();
    let script = format!(
        "'{tavola}' --white human --black random --seed 1 --seconds 7 & pid=$!\n\
         '{xdotool}' search --sync --name Tavola >/dev/null\n\
         sleep 1\n\
         '{xdotool}' mousemove {a7} click 1\n\
         sleep 0.5\n\
         '{xdotool}' mousemove {c5} click 1\n\
         sleep 1\n\
         '{xdotool}' mousemove {save} click 1\n\
         sleep 0.5\n\
         '{xdotool}' mousemove {confirm} click 1\n\
         wait $pid",
        a7 = square("a7"),
        c5 = square("c5"),
    );
    // The prompt offers tavola-games.pgn in the current folder: the test's own.
    let dir = TempDir::new("gui-save");
    let output = {
        let _turn = one_at_a_time();
        run_with_timeout(
            &xvfb,
            Some(dir.path()),
            ["-a", "-s", "-screen 0 1280x800x24", "sh", "-c", &script],
            Duration::from_secs(120),
        )
    };
    output.assert_code(0);
    let moves = output.stdout_line("moves:").unwrap_or_default();
    assert!(
        moves.starts_with("a7c5"),
        "the clicked jump is the first move\n{output}"
    );
    let saved = std::fs::read_to_string(dir.path().join(DEFAULT_FILE))
        .unwrap_or_else(|e| panic!("the Save button wrote no {DEFAULT_FILE}: {e}\n{output}"));
    let games = GameRecord::parse_all(&saved).expect("a record");
    assert_eq!(games.len(), 1, "{saved}");
    assert_eq!(games[0].tag("Game"), Some("ataxx"));
    assert_eq!(games[0].tag("White"), Some("Human"));
    assert_eq!(
        games[0].moves.first().map(|m| m.text.as_str()),
        Some("a7c5"),
        "{saved}"
    );
}

/// A virtual X server of the test's own (`Xvfb -displayfd`: it picks a free display number and
/// prints it once it accepts clients), stopped when dropped.
struct VirtualDisplay {
    server: std::process::Child,
    name: String,
}

impl VirtualDisplay {
    /// Starts `Xvfb` with a 1280x800 screen, `None` if it is not installed.
    fn start() -> Option<VirtualDisplay> {
        use std::io::BufRead as _;
        let path = std::env::var_os("PATH")?;
        let xvfb = std::env::split_paths(&path)
            .map(|dir| dir.join("Xvfb"))
            .find(|candidate| candidate.is_file())?;
        let mut server = std::process::Command::new(&xvfb)
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", xvfb.display()));
        let mut number = String::new();
        let stdout = server.stdout.take().expect("Xvfb's stdout");
        std::io::BufReader::new(stdout)
            .read_line(&mut number)
            .expect("Xvfb's display number");
        let number = number.trim();
        assert!(!number.is_empty(), "Xvfb did not start");
        Some(VirtualDisplay {
            server,
            name: format!(":{number}"),
        })
    }
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The top-level window named `name` on `display` (no window manager: a child of the root).
fn find_window(
    connection: &impl x11rb::connection::Connection,
    root: u32,
    name: &str,
) -> Option<u32> {
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};
    let tree = connection.query_tree(root).ok()?.reply().ok()?;
    tree.children.into_iter().find(|&window| {
        connection
            .get_property(false, window, AtomEnum::WM_NAME, AtomEnum::ANY, 0, 64)
            .ok()
            .and_then(|cookie| cookie.reply().ok())
            .is_some_and(|property| property.value == name.as_bytes())
    })
}

/// Asks the window to close as a window manager does when its close button is pressed: a
/// `WM_PROTOCOLS` client message carrying `WM_DELETE_WINDOW`.
fn request_close(connection: &impl x11rb::connection::Connection, window: u32) {
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt as _, EventMask};
    let atom = |name: &[u8]| {
        connection
            .intern_atom(false, name)
            .expect("intern_atom")
            .reply()
            .expect("an atom")
            .atom
    };
    let (protocols, delete) = (atom(b"WM_PROTOCOLS"), atom(b"WM_DELETE_WINDOW"));
    let event = ClientMessageEvent::new(32, window, protocols, [delete, 0, 0, 0, 0]);
    connection
        .send_event(false, window, EventMask::NO_EVENT, event)
        .expect("send_event");
    connection.flush().expect("flush");
}

/// The processes whose command line contains `needle` (but not this test's own).
fn processes_mentioning(needle: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy() != me.as_str())
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(needle))
        .collect()
}

/// Opens a game whose bots hang (they never answer and ignore the stop signal), closes the window
/// the way a window manager does, and checks that `tavola` exits by itself, leaving no worker
/// process behind.
fn closing_while_bots_hang(extra: &[&str]) {
    let Some(display) = VirtualDisplay::start() else {
        println!("SKIPPED: Xvfb is not installed (apt-get install xvfb)");
        return;
    };
    let _turn = one_at_a_time();
    let hang = format!("{}:mode=hang", artifacts().faulty_bot.display());
    let mut tavola = std::process::Command::new(&artifacts().tavola);
    tavola
        .args([
            "--game", "ataxx", "--white", &hang, "--black", &hang, "-t", "3600",
        ])
        .args(extra)
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = tavola.spawn().expect("tavola starts");
    let (connection, screen) =
        x11rb::connect(Some(&display.name)).expect("a connection to the virtual display");
    let root = x11rb::connection::Connection::setup(&connection).roots[screen].root;
    let waited = std::time::Instant::now();
    let window = loop {
        if let Some(window) = find_window(&connection, root, "Tavola") {
            break window;
        }
        if let Some(status) = child.try_wait().expect("try_wait") {
            panic!("tavola ended before its window opened: {status}");
        }
        assert!(waited.elapsed() < Duration::from_secs(60), "no window");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Let it draw and ask the bot for its move.
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        child.try_wait().expect("try_wait").is_none(),
        "tavola ended before the close request"
    );
    request_close(&connection, window);
    let asked = std::time::Instant::now();
    // The bot never answers: waiting for it would never end. Allow plenty for a loaded machine.
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if asked.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("tavola did not exit after the close request while its bot hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    println!("exited {:?} after the close request", asked.elapsed());
    assert!(status.success(), "exit status {status}");
    // No worker of the hanging bot outlives the window.
    let library = artifacts().faulty_bot.to_string_lossy().into_owned();
    let gone = std::time::Instant::now();
    while !processes_mentioning(&library).is_empty() && gone.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(processes_mentioning(&library), Vec::<String>::new());
}

#[test]
fn closing_the_window_while_an_isolated_bot_hangs_exits_at_once() {
    closing_while_bots_hang(&[]);
}

#[test]
fn closing_the_window_while_an_in_process_bot_hangs_exits_at_once() {
    closing_while_bots_hang(&["--in-process"]);
}

/// The start screen's logic (no window): Start with a plugin that takes seconds to start.
fn start_screen_with_white(white: &str, isolated: bool) -> tavola::gui::start::StartScreen {
    use tavola::gui::start::{Kind, StartScreen};
    let setup = tavola::text_ui::GameSetup {
        variant: None,
        position: None,
        players: ["human".parse().unwrap(), "random".parse().unwrap()],
        settings: tavola::referee::Settings::default(),
        seed: 1,
        resume: None,
        record_path: None,
        isolation: isolated.then(|| {
            let mut options = tavola::seat::worker::WorkerOptions::new().unwrap();
            options.program = artifacts().tavola.clone();
            options
        }),
    };
    let mut screen = StartScreen::with_setup("ataxx", &setup);
    screen.players[0].kind = Kind::Plugin;
    screen.players[0].path = white.to_owned();
    screen
}

#[test]
fn the_start_screen_keeps_drawing_while_a_plugin_starts() {
    use tavola::gui::screen::{Input, Nav, Screen};
    let size = macroquad::math::Vec2::new(1280.0, 800.0);
    for isolated in [false, true] {
        let slow = format!(
            "{}:mode=slow-start,delay=2",
            artifacts().faulty_bot.display()
        );
        let mut screen = start_screen_with_white(&slow, isolated);
        screen.update(&Input::default(), size, 0.0);
        let start = screen.layout.start.center();
        let nav = screen.update(&Input::click(start), size, 0.1);
        // The click returned while the bot sleeps in its constructor: the game is still opening.
        assert!(matches!(nav, Nav::Stay), "{nav:?}");
        assert!(
            screen.starting(),
            "the plugin is starting (isolated: {isolated})"
        );
        let mut frames = 0;
        let nav = loop {
            frames += 1;
            let nav = screen.update(&Input::default(), size, 0.2);
            if !matches!(nav, Nav::Stay) || !screen.starting() {
                break nav;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(
            matches!(nav, Nav::Replace(_)),
            "{nav:?}: {:?}",
            screen.error
        );
        assert!(frames > 1, "frames went on while it started");
    }
}

#[test]
fn a_plugin_that_fails_to_start_shows_its_error_on_the_start_screen() {
    use tavola::gui::screen::{Input, Nav, Screen};
    let size = macroquad::math::Vec2::new(1280.0, 800.0);
    for isolated in [false, true] {
        let refusing = format!("{}:mode=panic-new", artifacts().faulty_bot.display());
        let mut screen = start_screen_with_white(&refusing, isolated);
        screen.update(&Input::default(), size, 0.0);
        let start = screen.layout.start.center();
        let mut nav = screen.update(&Input::click(start), size, 0.1);
        while screen.starting() {
            std::thread::sleep(Duration::from_millis(5));
            nav = screen.update(&Input::default(), size, 0.2);
        }
        assert!(matches!(nav, Nav::Stay), "{nav:?}");
        let error = screen.error.clone().expect("an error line");
        assert!(error.contains("faulty"), "names the library: {error}");
        assert_eq!(error.lines().count(), 1);
    }
}

#[test]
fn attaxs_command_line_opens_the_window() {
    // `-b FILE` is Black's player: a missing one is named before any window opens.
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let output = run_with_timeout(
        Path::new("/usr/bin/env"),
        None,
        [
            "DISPLAY=:12345",
            tavola.as_str(),
            "-hw",
            "-b",
            "/nonexistent/attax-bot.so",
            "-t",
            "60",
        ],
        Duration::from_secs(60),
    );
    output.assert_one_line_error(3, &["/nonexistent/attax-bot.so", "not found"]);
    let Some(xvfb) = xvfb_run() else {
        println!("SKIPPED: xvfb-run is not installed (apt-get install xvfb)");
        return;
    };
    let output = under_xvfb(&xvfb, &["-hw", "-hb", "-t", "60", "--frames", "3"]);
    output.assert_code(0);
    assert!(!output.stdout.contains("Usage:"), "{output}");
}

#[test]
fn the_editor_takes_real_mouse_clicks_and_keys() {
    let (Some(xvfb), Some(xdotool)) = (xvfb_run(), xdotool()) else {
        println!("SKIPPED: xvfb-run or xdotool is not installed (apt-get install xvfb xdotool)");
        return;
    };
    use tavola::gui::editor::EditorLayout;
    let size = macroquad::math::Vec2::new(1280.0, 800.0);
    let point = |p: macroquad::math::Vec2| format!("{} {}", p.x.round(), p.y.round());
    let layout = GameLayout::new(size);
    let edit = PanelButton::ALL
        .iter()
        .position(|&b| b == PanelButton::Edit)
        .map(|i| point(layout.buttons[i].center()))
        .unwrap();
    // The editor's board: "white" is the palette's first piece, the one right clicks put.
    let editor = EditorLayout::new(size, 4);
    let board = TablutGeometry::new(editor.board_area, false);
    let square = |name: &str| point(board.square_centre(name.parse().unwrap()));
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let xdotool = xdotool.to_string_lossy().into_owned();
    let dir = TempDir::new("gui-editor");
    let script = format!(
        "TAVOLA_DATA_DIR='{data}' '{tavola}' --game tablut --white human --black human --seconds 15 & pid=$!\n\
         '{xdotool}' search --sync --name Tavola >/dev/null\n\
         sleep 1\n\
         '{xdotool}' mousemove {edit} click 1\n\
         sleep 0.5\n\
         '{xdotool}' mousemove {a1} click 3\n\
         sleep 0.3\n\
         '{xdotool}' mousemove {e3} click 1\n\
         sleep 0.3\n\
         '{xdotool}' mousemove {a9} click 1\n\
         sleep 0.3\n\
         '{xdotool}' key c\n\
         sleep 0.3\n\
         '{xdotool}' key 1\n\
         wait $pid",
        data = dir.path().display(),
        a1 = square("a1"),
        e3 = square("e3"),
        a9 = square("a9"),
    );
    let output = {
        let _turn = one_at_a_time();
        run_with_timeout(
            &xvfb,
            Some(dir.path()),
            ["-a", "-s", "-screen 0 1280x800x24", "sh", "-c", &script],
            Duration::from_secs(120),
        )
    };
    output.assert_code(0);
    // a1 got a white soldier; e3's went to a9 (no rule allows it; the editor does).
    let edited = "WOOBBBOOO/OOOOBOOOO/OOOOOOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/\
                  OOOOBOOOO/WOOBBBOOO - W";
    output
        .assert_stdout_contains(edited)
        .assert_stdout_contains("challenge JSON: {\"board\":[[\"WHITE\",");
    let slots = std::fs::read_to_string(dir.path().join("tablut-slots.txt"))
        .unwrap_or_else(|e| panic!("the 1 key saved no slot: {e}\n{output}"));
    assert_eq!(slots, format!("1\t{edited}\n"));
}

#[test]
fn an_outside_engine_seated_by_the_window_plays() {
    // New game seats the players again, from the window's own threads: the new game's engine
    // plays there too.
    let (Some(xvfb), Some(xdotool)) = (xvfb_run(), xdotool()) else {
        println!("SKIPPED: xvfb-run or xdotool is not installed (apt-get install xvfb xdotool)");
        return;
    };
    let layout = GameLayout::new(macroquad::math::Vec2::new(1280.0, 800.0));
    let new_game = PanelButton::ALL
        .iter()
        .position(|&b| b == PanelButton::NewGame)
        .map(|i| layout.buttons[i].center())
        .unwrap();
    let tavola = artifacts().tavola.to_string_lossy().into_owned();
    let xdotool = xdotool.to_string_lossy().into_owned();
    let script = format!(
        "'{tavola}' --game gonnect --black 'ugi:{tavola} ugi --game gonnect --bot random' \
         --white random -t 0 --seconds 12 & pid=$!\n\
         '{xdotool}' search --sync --name Tavola >/dev/null\n\
         sleep 2\n\
         '{xdotool}' mousemove {x} {y} click 1\n\
         wait $pid",
        x = new_game.x.round(),
        y = new_game.y.round(),
    );
    let output = {
        let _turn = one_at_a_time();
        run_with_timeout(
            &xvfb,
            None,
            ["-a", "-s", "-screen 0 1280x800x24", "sh", "-c", &script],
            Duration::from_secs(120),
        )
    };
    output.assert_code(0);
    let result = output.stdout_line("result:").unwrap_or_default();
    assert!(
        !result.contains("crash"),
        "the new game's engine died\n{output}"
    );
    let moves = output.stdout_line("moves:").unwrap_or_default();
    assert!(
        !moves.is_empty(),
        "the new game's engine played no move\n{output}"
    );
}
