//! The plugin ABI's two ways of asking a bot: by move codes (the typed module of libraries built
//! with this SDK) and in notation (libraries built before it, which export the root module
//! alone). Both load, and both give the very same games.

use std::ffi::OsString;
use std::path::Path;

use tavola::seat::plugin::Library;
use tavola_tests::{artifacts, tavola, TempDir};

#[test]
fn a_library_built_before_the_typed_path_loads_and_is_asked_in_notation() {
    let bots = artifacts();
    let old = Library::load(&bots.text_only_bot).expect("an old library loads");
    assert!(!old.is_typed(), "it exports no typed module");
    assert_eq!(old.info().name.as_str(), "text-only");
    let new = Library::load(&bots.random_bot).expect("the random bot loads");
    assert!(new.is_typed(), "export_bot! exports the typed module");
}

/// The moves and results of the games of a `tavola match` between `a` and `b`.
fn games(game: &str, a: &Path, b: &Path, isolated: bool, dir: &TempDir) -> Vec<(String, String)> {
    let results = dir.path().join(format!(
        "{game}-{}-{isolated}.jsonl",
        a.file_stem().unwrap().to_string_lossy()
    ));
    let mut args: Vec<OsString> = ["match", "--game", game, "--games", "4", "--tc", "0"]
        .iter()
        .chain(&["--seed", "5", "--concurrency", "1"])
        .map(OsString::from)
        .collect();
    if !isolated {
        args.push("--in-process".into());
    }
    args.extend([
        a.into(),
        b.into(),
        "--results".into(),
        results.clone().into(),
    ]);
    tavola(args).assert_code(0);
    let mut lines: Vec<serde_json::Value> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|line: &serde_json::Value| line.get("index").is_some())
        .collect();
    lines.sort_by_key(|line| line["index"].as_u64());
    lines
        .iter()
        .map(|line| {
            let text = |key: &str| line[key].as_str().unwrap().to_owned();
            (text("moves"), text("result"))
        })
        .collect()
}

#[test]
fn notation_and_move_codes_give_the_same_games_in_every_game() {
    let bots = artifacts();
    let dir = TempDir::new("typed-path");
    for game in ["ataxx", "tablut", "gonnect", "dama"] {
        let typed = games(game, &bots.random_bot, &bots.random_bot, false, &dir);
        let text = games(game, &bots.text_only_bot, &bots.random_bot, false, &dir);
        assert_eq!(typed.len(), 4);
        assert!(typed.iter().all(|(moves, _)| !moves.is_empty()));
        assert_eq!(
            text, typed,
            "{game}: the old library plays as the random bot does"
        );
    }
}

#[test]
fn a_library_built_before_the_typed_path_plays_in_its_worker() {
    let bots = artifacts();
    let dir = TempDir::new("typed-path-worker");
    let typed = games("ataxx", &bots.random_bot, &bots.random_bot, true, &dir);
    let text = games("ataxx", &bots.text_only_bot, &bots.random_bot, true, &dir);
    assert_eq!(text, typed);
}
