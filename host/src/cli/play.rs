//! `tavola play` (the terminal or the window) and `tavola` alone (the window).

use super::*;

#[derive(Debug, Args)]
pub(crate) struct PlayArgs {
    /// Play in the terminal, without a window (else the window opens on this game).
    #[arg(long)]
    pub(crate) headless: bool,
    /// The game (with --load, the recorded game's; else ataxx).
    #[arg(long, short, value_enum)]
    pub(crate) game: Option<GameName>,
    /// The variant (rule set); the game's default if omitted.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// White's player (Ataxx: `x`, moves first).
    #[arg(long, default_value = "builtin")]
    pub(crate) white: SeatSpec,
    /// Black's player (Ataxx: `o`).
    #[arg(long, default_value = "builtin")]
    pub(crate) black: SeatSpec,
    /// Seconds per player for the whole game; 0 for no clock.
    #[arg(long = "time", short = 't', default_value = "120", value_name = "SECONDS", value_parser = seconds)]
    pub(crate) time: Duration,
    /// Seconds added to a player's clock after each of their moves.
    #[arg(long = "inc", default_value = "0", value_name = "SECONDS", value_parser = seconds)]
    pub(crate) increment: Duration,
    /// Start from this position (in the game's position text) instead of the start.
    #[arg(long, conflicts_with = "load")]
    pub(crate) position: Option<String>,
    /// Continue the last game recorded in this file (its game, variant, start and moves).
    #[arg(long, value_name = "FILE")]
    pub(crate) load: Option<PathBuf>,
    /// Append the game's record (PGN-style) to this file when it ends (terminal play).
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<PathBuf>,
    /// Seed for every random choice (random players, tie-breaks); printed, so a game can be replayed.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Print only the players and the result, not the board after each move.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    #[command(flatten)]
    pub(crate) bots: BotArgs,
}

/// The setup of one game from the command line's values.
pub(crate) fn game_setup(
    variant: Option<String>,
    position: Option<String>,
    players: [SeatSpec; 2],
    (time, increment): (Duration, Duration),
    seed: Option<u64>,
    bots: &BotArgs,
) -> anyhow::Result<GameSetup> {
    let seed = seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    Ok(GameSetup {
        variant,
        position,
        resume: None,
        record_path: None,
        players,
        settings: Settings {
            time: (!time.is_zero()).then_some(time),
            increment,
            movetime: None,
            margin: tavola::referee::DEFAULT_MARGIN,
        },
        seed,
        isolation: bots.isolation()?,
    })
}

/// The window's board for `game` (every game has one).
pub(crate) fn window_game(game: GameName) -> GameKind {
    match game {
        GameName::Ataxx => GameKind::Ataxx,
        GameName::Tablut => GameKind::Tablut,
        GameName::Gonnect => GameKind::Gonnect,
        GameName::Dama => GameKind::Dama,
    }
}

/// `tavola [--game G --white P --black P ...]`: the window.
pub(crate) fn window(args: WindowArgs) -> anyhow::Result<ExitCode> {
    let straight = args.white.is_some() || args.black.is_some();
    let default = |kind| SeatSpec {
        kind,
        options: Vec::new(),
    };
    // Straight into the game, an omitted colour the built-in bot; else the start screen, with
    // the game, variant and clock given, you against the built-in bot.
    let players = if straight {
        [
            args.white
                .clone()
                .unwrap_or_else(|| default(SeatKind::Builtin)),
            args.black
                .clone()
                .unwrap_or_else(|| default(SeatKind::Builtin)),
        ]
    } else {
        [default(SeatKind::Human), default(SeatKind::Builtin)]
    };
    let setup = game_setup(
        args.variant.clone(),
        args.position.clone(),
        players,
        (args.time, args.increment),
        args.seed,
        &args.bots,
    )?;
    let chosen = (window_game(args.game.unwrap_or(GameName::Ataxx)), setup);
    let (game, menu) = if straight {
        (Some(chosen), None)
    } else {
        (None, Some(chosen))
    };
    if args.screenshot.is_some() && args.frames.is_none() && args.seconds.is_none() {
        bail!("--screenshot needs --frames N or --seconds S");
    }
    gui::run(GuiOptions {
        game,
        menu,
        frames: args.frames,
        seconds: args.seconds,
        screenshot: args.screenshot,
    })
}

pub(crate) fn play<G: Evaluate>(setup: &GameSetup, quiet: bool) -> anyhow::Result<ExitCode> {
    text_ui::play::<G>(setup, quiet)?;
    Ok(ExitCode::SUCCESS)
}

/// `tavola play`: one game, in the terminal (`--headless`) or the window.
pub(crate) fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let resume = args
        .load
        .as_deref()
        .map(tavola::record::last_in_file)
        .transpose()?;
    let game = match (args.game, &resume) {
        (Some(game), _) => game,
        (None, Some(record)) => {
            let name = record.tag("Game").unwrap_or_default();
            GameName::from_str(name, true).map_err(|_| {
                anyhow::anyhow!("the recorded game {name:?} is not one Tavola plays")
            })?
        }
        (None, None) => GameName::Ataxx,
    };
    let setup = GameSetup {
        resume,
        record_path: args.record.clone(),
        ..game_setup(
            args.variant.clone(),
            args.position.clone(),
            [args.white.clone(), args.black.clone()],
            (args.time, args.increment),
            args.seed,
            &args.bots,
        )?
    };
    if args.headless {
        with_game!(game, G => play::<G>(&setup, args.quiet))
    } else {
        gui::run(GuiOptions {
            game: Some((window_game(game), setup)),
            ..GuiOptions::default()
        })
    }
}
