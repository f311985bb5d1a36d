//! Finding bot libraries for the start screen: `./plugins` and the workspace's `target/debug` and
//! `target/release` folders, each library listed with the name it gives itself. Each library is
//! asked for its name in a worker process (none of its code runs in the window's process unless
//! the window was started with `--in-process`), one after another on a thread of their own
//! ([`Discovery`]), so that the window keeps drawing meanwhile.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;

use crate::seat::worker::{self, WorkerOptions};

/// The crates under `tests/fixtures/`: libraries broken (or built the old way) on purpose, never
/// listed.
const TEST_FIXTURES: [&str; 5] = [
    "faulty_bot",
    "not_a_bot",
    "future_sdk_bot",
    "altered_abi_bot",
    "text_only_bot",
];

/// A bot library found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPlugin {
    /// The library's path.
    pub path: PathBuf,
    /// The bot's own name and version ("greedy 0.1.0").
    pub name: String,
    /// The games it says it plays.
    pub games: Vec<String>,
}

/// The folders searched: `./plugins`, `./target/{debug,release}`, and the target folders of the
/// workspace the running binary was built in (when it runs from one).
#[must_use]
pub fn search_folders() -> Vec<PathBuf> {
    let mut folders = vec![
        PathBuf::from("plugins"),
        PathBuf::from("target/debug"),
        PathBuf::from("target/release"),
    ];
    if let Some(target) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent()?.parent().map(Path::to_path_buf))
    {
        if target.file_name().is_some_and(|name| name == "target") {
            folders.push(target.join("debug"));
            folders.push(target.join("release"));
        }
    }
    folders
}

/// Whether `path` names the library of one of the workspace's test fixtures
/// (`libfaulty_bot.so` and the like), by its file name.
#[must_use]
pub fn is_test_fixture(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.strip_prefix(std::env::consts::DLL_PREFIX))
        .and_then(|name| name.strip_suffix(std::env::consts::DLL_SUFFIX))
        .is_some_and(|stem| TEST_FIXTURES.contains(&stem))
}

/// The dynamic libraries directly in `folders` (by file name: `lib*.so`, `*.dylib`, `*.dll`),
/// each path once, sorted; the test fixtures ([`is_test_fixture`]) left out.
#[must_use]
pub fn candidate_libraries(folders: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_library = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| {
                    name.starts_with(std::env::consts::DLL_PREFIX)
                        && name.ends_with(std::env::consts::DLL_SUFFIX)
                });
            if is_library && !is_test_fixture(&path) && path.is_file() {
                let canonical = path.canonicalize().unwrap_or(path);
                if !found.contains(&canonical) {
                    found.push(canonical);
                }
            }
        }
    }
    found.sort();
    found
}

/// The library at `path` as listed for `game`, if it is a bot that plays it.
fn examine(path: &Path, game: &str, isolation: Option<&WorkerOptions>) -> Option<FoundPlugin> {
    match worker::describe(path, isolation) {
        Ok(bot) if bot.games.iter().any(|g| g == game) => Some(FoundPlugin {
            name: format!("{} {}", bot.name, bot.version),
            path: path.to_owned(),
            games: bot.games,
        }),
        Ok(_) => {
            log::debug!("not listed: {} does not play {game}", path.display());
            None
        }
        Err(e) => {
            log::debug!("not listed: {e}");
            None
        }
    }
}

/// The search for bot libraries, on a thread of its own: each candidate library is asked what it
/// is, in a worker process per library (or, with no worker options, `--in-process`, by loading
/// it in this process), and the Tavola bots that play the game arrive one by one, in order, to
/// be [`poll`](Discovery::poll)ed each frame. Libraries that are not bots (or not compatible)
/// are left out; the reason goes to the debug log.
#[derive(Debug)]
pub struct Discovery {
    /// One message per candidate library (`None`: not listed); `None` once all have come.
    found: Option<Receiver<Option<FoundPlugin>>>,
}

impl Discovery {
    /// Starts looking for the bots that play `game`. Dropping the discovery
    /// stops it after the library being asked.
    #[must_use]
    pub fn start(game: &str, isolation: Option<WorkerOptions>) -> Discovery {
        let (sender, found) = mpsc::channel();
        let game = game.to_owned();
        let spawned = thread::Builder::new()
            .name("plugin discovery".to_owned())
            .spawn(move || {
                for path in candidate_libraries(&search_folders()) {
                    let plugin = examine(&path, &game, isolation.as_ref());
                    if sender.send(plugin).is_err() {
                        // The start screen is gone: no one wants the rest.
                        return;
                    }
                }
            });
        match spawned {
            Ok(_) => Discovery { found: Some(found) },
            Err(e) => {
                log::warn!("cannot look for bot libraries: {e}");
                Discovery::finished()
            }
        }
    }

    /// A discovery with nothing (more) to find.
    #[must_use]
    pub fn finished() -> Discovery {
        Discovery { found: None }
    }

    /// A discovery that has found `plugins` (tests: no disk search).
    #[cfg(test)]
    pub(super) fn of(plugins: Vec<FoundPlugin>) -> Discovery {
        let (sender, found) = mpsc::channel();
        for plugin in plugins {
            let _ = sender.send(Some(plugin));
        }
        Discovery { found: Some(found) }
    }

    /// The bots found since the last call, without waiting.
    pub fn poll(&mut self) -> Vec<FoundPlugin> {
        let mut plugins = Vec::new();
        while let Some(found) = &self.found {
            match found.try_recv() {
                Ok(Some(plugin)) => plugins.push(plugin),
                Ok(None) => {}
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.found = None,
            }
        }
        plugins
    }

    /// Whether libraries are still being asked.
    #[must_use]
    pub fn searching(&self) -> bool {
        self.found.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(stem: &str) -> String {
        format!(
            "{}{stem}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        )
    }

    #[test]
    fn only_libraries_are_candidates() {
        let dir = std::env::temp_dir().join(format!("tavola-plugins-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lib = library("bot");
        for name in [lib.as_str(), "notes.txt", "bot.rlib"] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let found = candidate_libraries(&[dir.clone(), dir.clone(), dir.join("missing")]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].ends_with(&lib));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_test_fixtures_are_not_candidates() {
        let dir = std::env::temp_dir().join(format!("tavola-fixtures-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kept = [
            library("greedy_bot"),
            library("faulty_bot_2"),
            library("my_faulty_bot"),
        ];
        for name in TEST_FIXTURES.iter().map(|f| library(f)).chain(kept.clone()) {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let found = candidate_libraries(std::slice::from_ref(&dir));
        let names: Vec<String> = found
            .iter()
            .filter_map(|p| Some(p.file_name()?.to_str()?.to_owned()))
            .collect();
        let mut expected = kept.to_vec();
        expected.sort();
        assert_eq!(names, expected);
        assert!(is_test_fixture(
            Path::new("/x/target/debug/")
                .join(library("not_a_bot"))
                .as_path()
        ));
        assert!(!is_test_fixture(Path::new("not_a_bot")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_finished_discovery_finds_nothing_more() {
        let mut discovery = Discovery::finished();
        assert!(!discovery.searching());
        assert_eq!(discovery.poll(), Vec::new());
    }
}
