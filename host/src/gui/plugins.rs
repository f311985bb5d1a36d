//! Finding bot libraries for the start screen: `./plugins` and the workspace's `target/debug` and
//! `target/release` folders, each library listed with the name it gives itself.

use std::path::{Path, PathBuf};

use crate::seat::plugin::Library;

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

/// The dynamic libraries directly in `folders` (by file name: `lib*.so`, `*.dylib`, `*.dll`),
/// each path once, sorted.
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
            if is_library && path.is_file() {
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

/// Loads each candidate library and keeps the Tavola bots that play `game`, with their names.
/// Libraries that are not bots (or not compatible) are left out; the reason goes to the debug log.
#[must_use]
pub fn discover(game: &str) -> Vec<FoundPlugin> {
    let mut plugins = Vec::new();
    for path in candidate_libraries(&search_folders()) {
        match Library::load(&path) {
            Ok(library) => {
                let info = library.info();
                let games: Vec<String> = info.games.iter().map(|g| g.to_string()).collect();
                if !games.iter().any(|g| g == game) {
                    continue;
                }
                plugins.push(FoundPlugin {
                    name: format!("{} {}", info.name, info.version),
                    path,
                    games,
                });
            }
            Err(e) => log::debug!("not listed: {e}"),
        }
    }
    plugins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_libraries_are_candidates() {
        let dir = std::env::temp_dir().join(format!("tavola-plugins-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lib = format!(
            "{}bot{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        );
        for name in [lib.as_str(), "notes.txt", "bot.rlib"] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let found = candidate_libraries(&[dir.clone(), dir.clone(), dir.join("missing")]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].ends_with(&lib));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
