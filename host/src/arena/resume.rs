//! A run's settings, stored as the first line of its results file (`{"tavola_run": {...}}`), so
//! that `--resume` continues the run that was started, not whatever the command line says now:
//! settings not given again are taken from the file, settings given differently are refused
//! (except a larger `--games`), and the players must be the same, in the same order.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use super::runner::{parse_sprt, sprt_words, time_control_words, ArenaConfig};
use super::schedule::Format;
use crate::referee::Settings;

/// What the command line left at its default (so a resumed run takes the stored value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Defaulted {
    /// `--games`.
    pub games: bool,
    /// `--tc` and `--movetime`.
    pub time_control: bool,
    /// `--opening-plies` and `--openings`.
    pub openings: bool,
    /// `--max-plies`.
    pub max_plies: bool,
    /// `--format`.
    pub format: bool,
    /// `--timemargin`.
    pub margin: bool,
    /// `--sprt`.
    pub sprt: bool,
    /// `--concurrency`.
    pub concurrency: bool,
}

/// The header line of a results file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The run's settings.
    pub tavola_run: RunSettings,
}

/// Everything that decides which games a run plays, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The game's name.
    pub game: String,
    /// The variant played.
    pub variant: String,
    /// `round-robin` or `gauntlet`.
    pub format: String,
    /// Games of each encounter.
    pub games: u32,
    /// The clock: time per player in nanoseconds (`None`: untimed).
    pub time_ns: Option<u64>,
    /// The increment in nanoseconds.
    pub increment_ns: u64,
    /// The time per move in nanoseconds.
    pub movetime_ns: Option<u64>,
    /// How far past its time a move may go, in nanoseconds (absent in the files of older runs:
    /// the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_ns: Option<u64>,
    /// Random plies from the start for each pair's opening (when there is no openings file).
    pub opening_plies: u32,
    /// The openings file, as given.
    pub openings: Option<PathBuf>,
    /// The FNV-1a hash of the openings file's bytes, in hex.
    pub openings_hash: Option<String>,
    /// Plies before an adjudicated draw.
    pub max_plies: Option<usize>,
    /// The seed.
    pub seed: u64,
    /// The players' specs, in order.
    pub players: Vec<String>,
    /// The slice of the run this file holds, `K/N` (absent: the whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The sequential test that stops the run, in `--sprt`'s words with every key (absent: none,
    /// and in the files of older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// Games played at the same time when the run started (absent in the files of older runs).
    /// Not a setting of the games themselves: a resumed run may change it, and shards played
    /// with different ones merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// The FNV-1a hash of `bytes`, in hex: stable across builds, to recognise an openings file.
#[must_use]
pub fn content_hash(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::RoundRobin => "round-robin",
        Format::Gauntlet => "gauntlet",
    }
}

impl RunSettings {
    /// The settings of `config`, a run of `game` (`variant`) with `seed`, its openings file (if
    /// any) hashed to `openings_hash`.
    #[must_use]
    pub fn of(
        config: &ArenaConfig,
        game: &str,
        variant: &str,
        seed: u64,
        openings_hash: Option<String>,
    ) -> RunSettings {
        RunSettings {
            game: game.to_owned(),
            variant: variant.to_owned(),
            format: format_name(config.format).to_owned(),
            games: config.games,
            time_ns: config.settings.time.map(nanos),
            increment_ns: nanos(config.settings.increment),
            movetime_ns: config.settings.movetime.map(nanos),
            margin_ns: Some(nanos(config.settings.margin)),
            opening_plies: config.opening_plies,
            openings: config.openings.clone(),
            openings_hash,
            max_plies: config.max_plies,
            seed,
            players: config.players.iter().map(ToString::to_string).collect(),
            shard: config.shard.map(|(k, n)| format!("{k}/{n}")),
            sprt: config.sprt.as_ref().map(sprt_words),
            concurrency: Some(config.concurrency),
        }
    }

    fn settings(&self) -> Settings {
        Settings {
            time: self.time_ns.map(Duration::from_nanos),
            increment: Duration::from_nanos(self.increment_ns),
            movetime: self.movetime_ns.map(Duration::from_nanos),
            margin: self
                .margin_ns
                .map_or(crate::referee::DEFAULT_MARGIN, Duration::from_nanos),
        }
    }

    fn openings_words(&self) -> String {
        match &self.openings {
            Some(path) => format!("--openings {}", path.display()),
            None => format!("--opening-plies {}", self.opening_plies),
        }
    }
}

/// `config` for resuming the run whose stored settings are `stored`: what the command line left
/// at its default (`config.defaulted`) is taken from `stored`; what it gives must be the same,
/// except `--games`, which may be larger. `variant` is the variant `config` asks for, resolved;
/// `openings_hash` the hash of `config`'s openings file, if any.
///
/// # Errors
/// A setting or a player that differs from the stored run's, in one line naming both.
pub fn adopt(
    config: &ArenaConfig,
    stored: &RunSettings,
    game: &str,
    variant: &str,
    openings_hash: Option<&str>,
) -> anyhow::Result<ArenaConfig> {
    let conflict = |flag: &str, given: &dyn std::fmt::Display, was: &dyn std::fmt::Display| {
        anyhow::anyhow!(
            "{flag} {given} differs from the resumed run's {was}: leave it out to continue that run"
        )
    };
    if stored.game != game {
        bail!(
            "the results to resume are of a {} run, not {game}",
            stored.game
        );
    }
    if config.variant.is_some() && stored.variant != variant {
        return Err(conflict("--variant", &variant, &stored.variant));
    }
    let players: Vec<String> = config.players.iter().map(ToString::to_string).collect();
    if players != stored.players {
        bail!(
            "the players {} differ from the resumed run's {} (same players, same order)",
            players.join(" "),
            stored.players.join(" ")
        );
    }
    let mut adopted = config.clone();
    adopted.variant = Some(stored.variant.clone());
    if config.seed.is_some_and(|seed| seed != stored.seed) {
        return Err(conflict(
            "--seed",
            &config.seed.unwrap_or_default(),
            &stored.seed,
        ));
    }
    adopted.seed = Some(stored.seed);
    if config.defaulted.format {
        adopted.format = match stored.format.as_str() {
            "gauntlet" => Format::Gauntlet,
            _ => Format::RoundRobin,
        };
    } else if format_name(config.format) != stored.format {
        return Err(conflict(
            "--format",
            &format_name(config.format),
            &stored.format,
        ));
    }
    if config.defaulted.games {
        adopted.games = stored.games;
    } else if config.games < stored.games {
        return Err(conflict("--games", &config.games, &stored.games)
            .context("a run's games can only grow (finished games are never thrown away)"));
    }
    let margin = if config.defaulted.margin {
        stored.settings().margin
    } else if config.settings.margin != stored.settings().margin {
        return Err(conflict(
            "--timemargin",
            &format!("{} ms", config.settings.margin.as_millis()),
            &format!("{} ms", stored.settings().margin.as_millis()),
        ));
    } else {
        config.settings.margin
    };
    let given = Settings {
        margin,
        ..config.settings
    };
    if config.defaulted.time_control {
        adopted.settings = stored.settings();
    } else if given != stored.settings() {
        return Err(conflict(
            "the time control",
            &time_control_words(&config.settings),
            &time_control_words(&stored.settings()),
        ));
    }
    adopted.settings.margin = margin;
    if config.defaulted.openings {
        adopted.opening_plies = stored.opening_plies;
        adopted.openings.clone_from(&stored.openings);
    } else {
        let same = match (&config.openings, &stored.openings) {
            (Some(_), Some(_)) => openings_hash == stored.openings_hash.as_deref(),
            (None, None) => config.opening_plies == stored.opening_plies,
            _ => false,
        };
        if !same {
            let given = RunSettings::of(config, game, variant, 0, None).openings_words();
            return Err(conflict("the openings", &given, &stored.openings_words()));
        }
    }
    if config.defaulted.max_plies {
        adopted.max_plies = stored.max_plies;
    } else if config.max_plies != stored.max_plies {
        let words =
            |plies: Option<usize>| plies.map_or_else(|| "none".to_owned(), |p| p.to_string());
        return Err(conflict(
            "--max-plies",
            &words(config.max_plies),
            &words(stored.max_plies),
        ));
    }
    let given_sprt = config.sprt.as_ref().map(sprt_words);
    if config.defaulted.sprt {
        adopted.sprt = stored
            .sprt
            .as_ref()
            .map(|words| parse_sprt(std::slice::from_ref(words)))
            .transpose()
            .map_err(|e| anyhow::anyhow!("the resumed run's SPRT: {e}"))?;
    } else if given_sprt != stored.sprt {
        let words = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".to_owned());
        return Err(conflict(
            "--sprt",
            &words(&given_sprt),
            &words(&stored.sprt),
        ));
    }
    if config.defaulted.concurrency {
        // As the run started, but never more games at once than this machine has cores.
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        if let Some(concurrency) = stored.concurrency {
            adopted.concurrency = concurrency.clamp(1, cores);
        }
    }
    let shard = config.shard.map(|(k, n)| format!("{k}/{n}"));
    match (&shard, &stored.shard) {
        (None, Some(stored_shard)) => {
            adopted.shard = Some(
                parse_shard(stored_shard)
                    .map_err(|e| anyhow::anyhow!("the resumed run's shard: {e}"))?,
            );
        }
        (given, stored_shard) if given != stored_shard => {
            let words = |s: &Option<String>| {
                s.clone()
                    .unwrap_or_else(|| "none (the whole run)".to_owned())
            };
            return Err(conflict("--shard", &words(given), &words(stored_shard)));
        }
        _ => {}
    }
    adopted.defaulted = Defaulted::default();
    Ok(adopted)
}

/// Reads `K/N`, a shard of a run: `1 <= K <= N`.
///
/// # Errors
/// One line saying what is wrong with `text`.
pub fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected K/N with 1 <= K <= N, such as 2/4 (got {text:?})");
    let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::progress::ProgressMode;

    fn config(players: &[&str]) -> ArenaConfig {
        ArenaConfig {
            players: players.iter().map(|p| p.parse().unwrap()).collect(),
            format: Format::RoundRobin,
            variant: None,
            settings: Settings {
                time: Some(Duration::from_secs(10)),
                increment: Duration::from_millis(100),
                movetime: None,
                margin: crate::referee::DEFAULT_MARGIN,
            },
            games: 100,
            concurrency: 1,
            seed: None,
            opening_plies: 4,
            openings: None,
            max_plies: None,
            results: None,
            resume: None,
            pgn: None,
            summary: None,
            isolation: None,
            sprt: None,
            progress: ProgressMode::Quiet,
            defaulted: Defaulted {
                games: true,
                time_control: true,
                openings: true,
                max_plies: true,
                format: true,
                margin: true,
                sprt: true,
                concurrency: true,
            },
            shard: None,
            affinity: false,
            positions: None,
        }
    }

    fn stored() -> RunSettings {
        let mut run = config(&["random", "builtin:depth=2"]);
        run.games = 150;
        run.settings.movetime = Some(Duration::from_millis(20));
        run.opening_plies = 6;
        run.max_plies = Some(80);
        RunSettings::of(&run, "ataxx", "standard", 7, None)
    }

    fn error(config: &ArenaConfig) -> String {
        let e = adopt(config, &stored(), "ataxx", "standard", None).unwrap_err();
        format!("{e:#}")
    }

    #[test]
    fn the_header_round_trips() {
        let header = Header {
            tavola_run: stored(),
        };
        let json = serde_json::to_string(&header).unwrap();
        assert!(json.starts_with("{\"tavola_run\":{"), "{json}");
        assert_eq!(serde_json::from_str::<Header>(&json).unwrap(), header);
    }

    #[test]
    fn what_is_not_given_comes_from_the_stored_run() {
        let given = config(&["random", "builtin:depth=2"]);
        let adopted = adopt(&given, &stored(), "ataxx", "standard", None).unwrap();
        assert_eq!(adopted.games, 150);
        assert_eq!(adopted.settings.movetime, Some(Duration::from_millis(20)));
        assert_eq!(
            (adopted.opening_plies, adopted.max_plies, adopted.seed),
            (6, Some(80), Some(7))
        );
        // More games: the run grows.
        let more = ArenaConfig {
            games: 200,
            defaulted: Defaulted {
                games: false,
                ..given.defaulted
            },
            ..given.clone()
        };
        assert_eq!(
            adopt(&more, &stored(), "ataxx", "standard", None)
                .unwrap()
                .games,
            200
        );
    }

    #[test]
    fn what_is_given_differently_is_refused() {
        let given = config(&["random", "builtin:depth=2"]);
        let explicit = |change: fn(&mut ArenaConfig)| {
            let mut c = given.clone();
            c.defaulted = Defaulted::default();
            c.games = 150;
            c.settings = stored().settings();
            c.opening_plies = 6;
            c.max_plies = Some(80);
            change(&mut c);
            c
        };
        assert!(adopt(&explicit(|_| {}), &stored(), "ataxx", "standard", None).is_ok());
        let fewer = error(&explicit(|c| c.games = 100));
        assert!(
            fewer.contains("--games 100") && fewer.contains("150"),
            "{fewer}"
        );
        let tc = error(&explicit(|c| c.settings.movetime = None));
        assert!(tc.contains("10+0.1") && tc.contains("0.02 s/move"), "{tc}");
        let plies = error(&explicit(|c| c.opening_plies = 2));
        assert!(
            plies.contains("--opening-plies 2") && plies.contains("6"),
            "{plies}"
        );
        let max = error(&explicit(|c| c.max_plies = None));
        assert!(
            max.contains("--max-plies none") && max.contains("80"),
            "{max}"
        );
        let seed = error(&explicit(|c| c.seed = Some(8)));
        assert!(seed.contains("--seed 8") && seed.contains('7'), "{seed}");
        let format = error(&explicit(|c| c.format = Format::Gauntlet));
        assert!(format.contains("gauntlet"), "{format}");
        let swapped = error(&config(&["builtin:depth=2", "random"]));
        assert!(swapped.contains("same order"), "{swapped}");
        let other = error(&config(&["random", "random"]));
        assert!(other.contains("builtin:depth=2"), "{other}");
        let game = adopt(&given, &stored(), "dama", "italian", None).unwrap_err();
        assert!(game.to_string().contains("ataxx"), "{game}");
        for e in [fewer, tc, plies, max, seed, format, swapped, other] {
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    #[test]
    fn an_sprt_run_resumed_alone_keeps_its_test_and_its_concurrency() {
        let mut run = config(&["random", "builtin:depth=2"]);
        run.sprt = Some(parse_sprt(&["elo0=0 elo1=10 model=logistic".to_owned()]).unwrap());
        run.concurrency = 2;
        let stored = RunSettings::of(&run, "ataxx", "standard", 7, None);
        assert_eq!(
            stored.sprt.as_deref(),
            Some("elo0=0 elo1=10 alpha=0.05 beta=0.05 model=logistic")
        );
        let json = serde_json::to_string(&Header {
            tavola_run: stored.clone(),
        })
        .unwrap();
        assert_eq!(
            serde_json::from_str::<Header>(&json).unwrap().tavola_run,
            stored
        );
        // `tavola match --resume F` alone: the same test, the same games at once (at most the
        // cores there are).
        let alone = config(&["random", "builtin:depth=2"]);
        let adopted = adopt(&alone, &stored, "ataxx", "standard", None).unwrap();
        assert_eq!(adopted.sprt, run.sprt);
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        assert_eq!(adopted.concurrency, 2.min(cores.max(1)));
        // The same bounds given again agree; other bounds are refused, naming both.
        let mut again = alone.clone();
        again.defaulted.sprt = false;
        again.sprt = run.sprt;
        assert!(adopt(&again, &stored, "ataxx", "standard", None).is_ok());
        again.sprt = Some(parse_sprt(&["elo0=0 elo1=5".to_owned()]).unwrap());
        let other = format!(
            "{:#}",
            adopt(&again, &stored, "ataxx", "standard", None).unwrap_err()
        );
        assert!(
            other.contains("--sprt elo0=0 elo1=5") && other.contains("elo1=10"),
            "{other}"
        );
        assert_eq!(other.lines().count(), 1, "{other}");
        // A test cannot be added to a run that started without one.
        let plain = RunSettings::of(
            &config(&["random", "builtin:depth=2"]),
            "ataxx",
            "standard",
            7,
            None,
        );
        let added = adopt(&again, &plain, "ataxx", "standard", None).unwrap_err();
        assert!(
            added.to_string().contains("the resumed run's none"),
            "{added}"
        );
        // A concurrency given again wins: the games are the same whatever it is.
        let mut one = alone.clone();
        one.defaulted.concurrency = false;
        one.concurrency = 1;
        assert_eq!(
            adopt(&one, &stored, "ataxx", "standard", None)
                .unwrap()
                .concurrency,
            1
        );
        // Older files have neither: no test, the command line's concurrency.
        let mut old = stored.clone();
        (old.sprt, old.concurrency) = (None, None);
        let adopted = adopt(&alone, &old, "ataxx", "standard", None).unwrap();
        assert_eq!((adopted.sprt, adopted.concurrency), (None, 1));
    }

    #[test]
    fn an_openings_file_is_known_by_its_contents() {
        let mut run = config(&["random", "random"]);
        run.openings = Some("book.txt".into());
        let stored = RunSettings::of(&run, "ataxx", "standard", 1, Some(content_hash(b"a\n")));
        run.defaulted.openings = false;
        run.openings = Some("moved/book.txt".into());
        let hash = content_hash(b"a\n");
        assert!(adopt(&run, &stored, "ataxx", "standard", Some(&hash)).is_ok());
        let changed = content_hash(b"b\n");
        assert!(adopt(&run, &stored, "ataxx", "standard", Some(&changed)).is_err());
        assert_ne!(hash, changed);
    }
}
