//! The start screen: the game and its variant, who plays White and Black (a person, the built-in
//! bot, the random mover or a plugin library), the time per player, and Start. A plugin that
//! cannot be loaded shows its one-line error here.

#[cfg(test)]
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use macroquad::math::{Rect, Vec2};
use tavola_sdk::Color;

use super::opening::Opening;
use super::plugins::{Discovery, FoundPlugin};
use super::screen::{Input, Nav, Screen};
use super::theme::Theme;
use super::GameKind;
use crate::referee::Settings;
use crate::seat::worker::WorkerOptions;
use crate::seat::{SeatKind, SeatSpec};
use crate::text_ui::GameSetup;

/// The kinds of player offered, in their order on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A person with the mouse.
    Human,
    /// The built-in bot.
    Builtin,
    /// Random legal moves.
    Random,
    /// A bot library.
    Plugin,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: [Kind; 4] = [Kind::Human, Kind::Builtin, Kind::Random, Kind::Plugin];

    pub(super) fn label(self) -> &'static str {
        match self {
            Kind::Human => "Human",
            Kind::Builtin => "Built-in",
            Kind::Random => "Random",
            Kind::Plugin => "Plugin",
        }
    }
}

/// The time controls offered: label, seconds per player, increment.
pub const TIMES: [(&str, u64, u64); 6] = [
    ("1 min", 60, 0),
    ("2 min", 120, 0),
    ("3 + 2", 180, 2),
    ("5 min", 300, 0),
    ("10 min", 600, 0),
    ("Untimed", 0, 0),
];

/// The time per player when none is chosen, in the window and the terminal alike (Attax's): 2
/// minutes.
pub const DEFAULT_SECONDS: u64 = 120;

/// The choice for one colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerChoice {
    /// What kind of player.
    pub kind: Kind,
    /// The plugin path (with `:key=value` options), typed or picked from the list.
    pub path: String,
    /// Options of the built-in bot, kept from the command line.
    pub options: Vec<(String, String)>,
}

impl PlayerChoice {
    fn from_spec(spec: &SeatSpec) -> PlayerChoice {
        let (kind, path) = match &spec.kind {
            SeatKind::Human => (Kind::Human, String::new()),
            SeatKind::Builtin => (Kind::Builtin, String::new()),
            SeatKind::Random => (Kind::Random, String::new()),
            SeatKind::Plugin(_) | SeatKind::Engine(..) | SeatKind::Challenge(_) => {
                (Kind::Plugin, spec.to_string())
            }
        };
        let options = if kind == Kind::Plugin {
            Vec::new()
        } else {
            spec.options.clone()
        };
        PlayerChoice {
            kind,
            path,
            options,
        }
    }

    /// The seat spec chosen.
    ///
    /// # Errors
    /// A one-line message for an empty or malformed plugin path.
    pub fn spec(&self) -> Result<SeatSpec, String> {
        let kind = match self.kind {
            Kind::Human => SeatKind::Human,
            Kind::Builtin => SeatKind::Builtin,
            Kind::Random => SeatKind::Random,
            Kind::Plugin => {
                if self.path.trim().is_empty() {
                    return Err(
                        "choose a bot library from the list, or type its path or an engine \
                         (ugi:COMMAND, uai:COMMAND, challenge:COMMAND)"
                            .to_owned(),
                    );
                }
                return self.path.trim().parse().map_err(|e| format!("{e}"));
            }
        };
        // Options (from the command line) belong to the built-in bot; the others take none.
        let options = if kind == SeatKind::Builtin {
            self.options.clone()
        } else {
            Vec::new()
        };
        Ok(SeatSpec { kind, options })
    }
}

/// The start screen's rectangles for a window of a given size.
#[derive(Debug, Clone, PartialEq)]
pub struct StartLayout {
    /// The games, one button each.
    pub games: Vec<Rect>,
    /// The variants of the chosen game.
    pub variants: Vec<Rect>,
    /// Per colour: the column, the kind buttons, the path field, the plugin rows.
    pub columns: [Rect; 2],
    /// Per colour, the four kind buttons.
    pub kinds: [[Rect; 4]; 2],
    /// Per colour, the path field.
    pub paths: [Rect; 2],
    /// Per colour, the first plugin row (rows follow below, [`StartLayout::ROW`] apart).
    pub plugin_rows: [Rect; 2],
    /// The time controls.
    pub times: Vec<Rect>,
    /// Start.
    pub start: Rect,
    /// The error line.
    pub error: Rect,
}

impl StartLayout {
    /// The height of one plugin row.
    pub const ROW: f32 = 28.0;
    /// The plugin rows shown per colour.
    pub const ROWS: usize = 5;

    /// The layout for `size`, with `variants` variant buttons.
    #[must_use]
    pub fn new(size: Vec2, games: usize, variants: usize) -> StartLayout {
        let w = (size.x - 64.0).clamp(300.0, 860.0);
        let x = ((size.x - w) / 2.0).round();
        let mut y = 96.0;
        let chips = |count: usize, y: f32, chip_w: f32| -> Vec<Rect> {
            (0..count)
                .map(|i| Rect::new(x + 110.0 + i as f32 * (chip_w + 8.0), y, chip_w, 32.0))
                .collect()
        };
        let games = chips(games, y, 130.0);
        y += 44.0;
        let variants = chips(variants, y, 130.0);
        y += 56.0;
        let column_w = (w - 16.0) / 2.0;
        let column_h = 92.0 + 34.0 + 8.0 + StartLayout::ROW * StartLayout::ROWS as f32 + 12.0;
        let columns = [
            Rect::new(x, y, column_w, column_h),
            Rect::new(x + column_w + 16.0, y, column_w, column_h),
        ];
        let kinds = columns.map(|c| {
            let kind_w = (c.w - 24.0 - 3.0 * 6.0) / 4.0;
            std::array::from_fn(|i| {
                Rect::new(
                    c.x + 12.0 + i as f32 * (kind_w + 6.0),
                    c.y + 44.0,
                    kind_w,
                    32.0,
                )
            })
        });
        let paths = columns.map(|c| Rect::new(c.x + 12.0, c.y + 92.0, c.w - 24.0, 34.0));
        let plugin_rows =
            columns.map(|c| Rect::new(c.x + 12.0, c.y + 134.0, c.w - 24.0, StartLayout::ROW));
        y += column_h + 20.0;
        let times = chips(TIMES.len(), y, ((w - 110.0 - 5.0 * 8.0) / 6.0).min(100.0));
        y += 56.0;
        let start = Rect::new(x + (w - 220.0) / 2.0, y, 220.0, 46.0);
        let error = Rect::new(x, y + 58.0, w, 22.0);
        StartLayout {
            games,
            variants,
            columns,
            kinds,
            paths,
            plugin_rows,
            times,
            start,
            error,
        }
    }

    /// The rectangle of plugin row `i` of colour `c`.
    #[must_use]
    pub fn plugin_row(&self, c: usize, i: usize) -> Rect {
        let first = self.plugin_rows[c];
        Rect::new(
            first.x,
            first.y + i as f32 * StartLayout::ROW,
            first.w,
            first.h,
        )
    }
}

/// The start screen.
#[derive(Debug)]
pub struct StartScreen {
    /// The chosen game, an index into [`GameKind::ALL`].
    pub game: usize,
    /// The chosen variant, an index into the game's variants.
    pub variant: usize,
    /// White's and Black's players.
    pub players: [PlayerChoice; 2],
    /// The chosen time control, an index into [`TIMES`].
    pub time: usize,
    /// Bot libraries found on disk.
    pub plugins: Vec<FoundPlugin>,
    /// The search for more, in worker processes off the frame loop.
    discovery: Discovery,
    /// The path field being typed in.
    pub focus: Option<Color>,
    /// Why the last Start failed.
    pub error: Option<String>,
    /// How plugins run in the games started here (as the command line said).
    pub isolation: Option<WorkerOptions>,
    pub(super) mouse: Vec2,
    /// Where things are, as laid out for the last frame.
    pub layout: StartLayout,
    /// The game being opened after Start.
    opening: Option<Opening>,
    /// The position to start from (from the editor), for the game it was made in.
    pub position: Option<(usize, String)>,
}

impl StartScreen {
    /// The screen with its defaults (you against the built-in bot, 2 minutes), the bot libraries
    /// found on disk listed.
    #[must_use]
    pub fn new() -> StartScreen {
        let human: SeatSpec = SeatSpec {
            kind: SeatKind::Human,
            options: Vec::new(),
        };
        let builtin = SeatSpec {
            kind: SeatKind::Builtin,
            options: Vec::new(),
        };
        let setup = GameSetup {
            variant: None,
            position: None,
            resume: None,
            record_path: None,
            players: [human, builtin],
            settings: Settings {
                time: Some(Duration::from_secs(DEFAULT_SECONDS)),
                increment: Duration::ZERO,
                movetime: None,
                margin: crate::referee::DEFAULT_MARGIN,
            },
            seed: 0,
            isolation: WorkerOptions::new().ok(),
        };
        StartScreen::with_setup(GameKind::ALL[0].name(), &setup)
    }

    /// The screen filled in from a game's setup (back from a game with Menu).
    #[must_use]
    pub fn with_setup(game: &str, setup: &GameSetup) -> StartScreen {
        let kind = GameKind::from_name(game).unwrap_or(GameKind::ALL[0]);
        let mut screen = StartScreen::with_plugins(setup, kind, Vec::new());
        // Asked the way the games started here run their plugins.
        screen.discovery = Discovery::start(kind.name(), setup.isolation.clone());
        screen.game = GameKind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
        screen.position = setup.position.clone().map(|text| (screen.game, text));
        screen
    }

    /// The screen with a given list of plugins (tests: no disk search).
    #[must_use]
    pub fn with_plugins(
        setup: &GameSetup,
        kind: GameKind,
        plugins: Vec<FoundPlugin>,
    ) -> StartScreen {
        let variant = setup
            .variant
            .as_deref()
            .and_then(|v| {
                kind.variants()
                    .iter()
                    .position(|&name| name.eq_ignore_ascii_case(v))
            })
            .unwrap_or(0);
        let seconds = setup.settings.time.map_or(0, |t| t.as_secs());
        let increment = setup.settings.increment.as_secs();
        let time = TIMES
            .iter()
            .position(|&(_, s, i)| s == seconds && i == increment)
            .unwrap_or(1);
        let players = [
            PlayerChoice::from_spec(&setup.players[0]),
            PlayerChoice::from_spec(&setup.players[1]),
        ];
        StartScreen {
            game: 0,
            variant,
            players,
            time,
            plugins,
            discovery: Discovery::finished(),
            isolation: setup.isolation.clone(),
            focus: None,
            error: None,
            mouse: Vec2::ZERO,
            layout: StartLayout::new(Vec2::new(1280.0, 800.0), 1, kind.variants().len()),
            opening: None,
            position: None,
        }
    }

    pub(super) fn kind(&self) -> GameKind {
        GameKind::ALL
            .get(self.game)
            .copied()
            .unwrap_or(GameKind::ALL[0])
    }

    /// The setup the screen describes.
    ///
    /// # Errors
    /// A one-line message for a player that is not fully chosen.
    pub fn setup(&self) -> Result<GameSetup, String> {
        let white = self.players[0].spec().map_err(|e| format!("White: {e}"))?;
        let black = self.players[1].spec().map_err(|e| format!("Black: {e}"))?;
        let (_, seconds, increment) = TIMES[self.time.min(TIMES.len() - 1)];
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Ok(GameSetup {
            variant: self
                .kind()
                .variants()
                .get(self.variant)
                .map(|v| (*v).to_owned()),
            // The edited position belongs to the game it was made in.
            position: self
                .position
                .as_ref()
                .filter(|(game, _)| *game == self.game)
                .map(|(_, text)| text.clone()),
            resume: None,
            record_path: None,
            players: [white, black],
            settings: Settings {
                time: (seconds > 0).then(|| Duration::from_secs(seconds)),
                increment: Duration::from_secs(increment),
                movetime: None,
                margin: crate::referee::DEFAULT_MARGIN,
            },
            seed,
            isolation: self.isolation.clone(),
        })
    }

    /// Starts opening the game (its players are seated on a thread of their own, see
    /// [`Opening`]), or shows why it cannot start.
    fn start(&mut self) -> Nav {
        match self.setup() {
            Ok(setup) => {
                self.error = None;
                self.opening = Some(self.kind().opening(setup));
                self.poll_opening()
            }
            Err(e) => {
                self.fail(&e);
                Nav::Stay
            }
        }
    }

    /// The game, once its players are seated; or why it cannot start, shown here.
    fn poll_opening(&mut self) -> Nav {
        let Some(opened) = self.opening.as_mut().and_then(Opening::poll) else {
            return Nav::Stay;
        };
        self.opening = None;
        match opened {
            Ok(screen) => Nav::Replace(screen),
            Err(e) => {
                self.fail(&format!("{e:#}"));
                Nav::Stay
            }
        }
    }

    /// Shows the first line of `error`.
    fn fail(&mut self, error: &str) {
        self.error = Some(error.lines().next().unwrap_or_default().to_owned());
    }

    /// Whether a game is being opened (its players seated).
    #[must_use]
    pub fn starting(&self) -> bool {
        self.opening.is_some()
    }

    /// Whether bot libraries are still being looked for (more may join [`StartScreen::plugins`]).
    #[must_use]
    pub fn looking_for_plugins(&self) -> bool {
        self.discovery.searching()
    }
}

impl Default for StartScreen {
    fn default() -> StartScreen {
        StartScreen::new()
    }
}

impl Screen for StartScreen {
    fn update(&mut self, input: &Input, size: Vec2, _now: f64) -> Nav {
        self.mouse = input.mouse;
        let found = self.discovery.poll();
        self.plugins.extend(found);
        self.layout = StartLayout::new(size, GameKind::ALL.len(), self.kind().variants().len());
        let layout = self.layout.clone();
        if self.opening.is_some() {
            // Esc gives up waiting; the game, once seated, is then dropped.
            if input.escape {
                self.opening = None;
                return Nav::Stay;
            }
            return self.poll_opening();
        }
        if let Some(color) = self.focus {
            let field = &mut self.players[color.index()].path;
            field.push_str(&input.typed);
            if input.backspace {
                field.pop();
            }
            if input.escape {
                self.focus = None;
            }
        }
        if input.enter {
            return self.start();
        }
        if !input.left_click {
            return Nav::Stay;
        }
        if let Some(i) = layout.games.iter().position(|r| r.contains(input.mouse)) {
            if i != self.game {
                self.game = i;
                self.variant = 0;
            }
        }
        if let Some(i) = layout.variants.iter().position(|r| r.contains(input.mouse)) {
            self.variant = i;
        }
        if let Some(i) = layout.times.iter().position(|r| r.contains(input.mouse)) {
            self.time = i;
        }
        self.focus = None;
        for c in 0..2 {
            if let Some(i) = layout.kinds[c].iter().position(|r| r.contains(input.mouse)) {
                self.players[c].kind = Kind::ALL[i];
                self.error = None;
            }
            if self.players[c].kind != Kind::Plugin {
                continue;
            }
            if layout.paths[c].contains(input.mouse) {
                self.focus = Some(Color::ALL[c]);
            }
            for (i, plugin) in self.plugins.iter().take(StartLayout::ROWS).enumerate() {
                if layout.plugin_row(c, i).contains(input.mouse) {
                    self.players[c].path = plugin.path.display().to_string();
                    self.error = None;
                }
            }
        }
        if layout.start.contains(input.mouse) {
            return self.start();
        }
        Nav::Stay
    }

    fn draw(&self, theme: &Theme, size: Vec2, now: f64) {
        super::start_draw::draw(self, theme, size, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen() -> StartScreen {
        let spec = |s: &str| s.parse::<SeatSpec>().unwrap();
        let setup = GameSetup {
            variant: None,
            position: None,
            players: [spec("human"), spec("builtin:depth=3")],
            settings: Settings::default(),
            seed: 1,
            resume: None,
            record_path: None,
            isolation: None,
        };
        let plugins = vec![FoundPlugin {
            path: PathBuf::from("/nowhere/libgreedy_bot.so"),
            name: "greedy 0.1.0".to_owned(),
            games: vec!["ataxx".to_owned()],
        }];
        StartScreen::with_plugins(&setup, GameKind::Ataxx, plugins)
    }

    /// Clicks in `rect`, then (if that started a game) frames until the game opens or fails.
    fn click(screen: &mut StartScreen, rect: Rect) -> Nav {
        let mut nav = screen.update(&Input::click(rect.center()), SIZE, 0.0);
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while screen.starting() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
            nav = screen.update(&Input::default(), SIZE, 0.0);
        }
        nav
    }

    const SIZE: Vec2 = Vec2::new(1280.0, 800.0);

    #[test]
    fn the_setup_follows_the_clicks() {
        let mut screen = screen();
        screen.update(&Input::default(), SIZE, 0.0);
        let layout = screen.layout.clone();
        assert_eq!(screen.players[0].kind, Kind::Human);
        assert_eq!(
            screen.players[1].options,
            [("depth".to_owned(), "3".to_owned())]
        );
        click(&mut screen, layout.variants[1]);
        click(&mut screen, layout.kinds[0][2]);
        click(&mut screen, layout.times[5]);
        let setup = screen.setup().unwrap();
        assert_eq!(setup.variant.as_deref(), Some("attax"));
        assert_eq!(setup.players[0].to_string(), "random");
        assert_eq!(setup.players[1].to_string(), "builtin:depth=3");
        assert_eq!(setup.settings.time, None);
    }

    #[test]
    fn a_plugin_is_picked_from_the_list_or_typed() {
        let mut screen = screen();
        screen.update(&Input::default(), SIZE, 0.0);
        let layout = screen.layout.clone();
        click(&mut screen, layout.kinds[1][3]);
        assert!(screen.setup().unwrap_err().contains("Black"));
        click(&mut screen, layout.plugin_row(1, 0));
        assert_eq!(screen.players[1].path, "/nowhere/libgreedy_bot.so");
        // Typing goes to the focused field.
        click(&mut screen, layout.kinds[0][3]);
        click(&mut screen, layout.paths[0]);
        assert_eq!(screen.focus, Some(Color::White));
        let typing = Input {
            typed: "/x/liba.so:seed=2".to_owned(),
            ..Input::default()
        };
        screen.update(&typing, SIZE, 0.0);
        let back = Input {
            backspace: true,
            ..Input::default()
        };
        screen.update(&back, SIZE, 0.0);
        assert_eq!(screen.players[0].path, "/x/liba.so:seed=");
    }

    #[test]
    fn a_plugin_that_does_not_load_shows_its_error_and_stays() {
        let mut screen = screen();
        screen.update(&Input::default(), SIZE, 0.0);
        let layout = screen.layout.clone();
        click(&mut screen, layout.kinds[1][3]);
        click(&mut screen, layout.plugin_row(1, 0));
        let nav = click(&mut screen, layout.start);
        assert!(matches!(nav, Nav::Stay), "{nav:?}");
        let error = screen.error.clone().expect("an error");
        assert!(
            error.contains("/nowhere/libgreedy_bot.so") && error.contains("not found"),
            "{error}"
        );
        assert_eq!(error.lines().count(), 1);
    }

    #[test]
    fn the_bots_found_join_the_list() {
        let mut screen = screen();
        let later = FoundPlugin {
            path: PathBuf::from("/nowhere/librandom_bot.so"),
            name: "random 0.1.0".to_owned(),
            games: vec!["ataxx".to_owned()],
        };
        screen.discovery = Discovery::of(vec![later.clone()]);
        assert!(screen.looking_for_plugins());
        screen.update(&Input::default(), SIZE, 0.0);
        assert_eq!(screen.plugins.len(), 2);
        assert_eq!(screen.plugins[1], later);
        assert!(!screen.looking_for_plugins(), "all candidates came");
    }

    #[test]
    fn start_opens_the_game() {
        let mut screen = screen();
        screen.update(&Input::default(), SIZE, 0.0);
        let layout = screen.layout.clone();
        click(&mut screen, layout.kinds[1][2]);
        let nav = click(&mut screen, layout.start);
        assert!(matches!(nav, Nav::Replace(_)), "{nav:?}");
    }

    #[test]
    fn an_edited_position_goes_with_its_game_only() {
        let mut setup = StartScreen::new().setup().unwrap();
        setup.position = Some("x5o/7/7/3x3/7/7/o5x o 0 1".to_owned());
        let mut screen = StartScreen::with_setup("ataxx", &setup);
        assert_eq!(
            screen.setup().unwrap().position.as_deref(),
            Some("x5o/7/7/3x3/7/7/o5x o 0 1")
        );
        screen.game = 1;
        assert_eq!(screen.setup().unwrap().position, None);
    }
}
