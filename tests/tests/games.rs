//! Whole games through the real binary: plugins against plugins, the same plugin on both colours,
//! plugins against the built-in players.

use std::ffi::OsStr;
use std::path::Path;

use tavola_tests::{artifacts, tavola, Output};

/// Plays one quiet headless game with a fixed seed.
fn play(white: &Path, black: &Path, seed: u64) -> Output {
    let seed = seed.to_string();
    tavola([
        OsStr::new("play"),
        OsStr::new("--headless"),
        OsStr::new("--quiet"),
        OsStr::new("--seed"),
        OsStr::new(&seed),
        OsStr::new("--white"),
        white.as_os_str(),
        OsStr::new("--black"),
        black.as_os_str(),
    ])
}

/// Asserts a game that ended by the rules, and returns its result line.
#[track_caller]
fn assert_finished(output: &Output) -> String {
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal")
        .assert_no_panic_on_stdout();
    let result = output
        .stdout_line("Result:")
        .unwrap_or_else(|| panic!("no Result line\n{output}"));
    assert!(
        ["1-0 ", "0-1 ", "1/2-1/2 "]
            .iter()
            .any(|r| result.starts_with(r)),
        "odd result {result:?}\n{output}"
    );
    result.to_owned()
}

#[test]
fn random_plugin_against_greedy_plugin() {
    let bots = artifacts();
    // Greedy should win most of these, but only the finish is certain.
    for seed in 1..=3 {
        let output = play(&bots.random_bot, &bots.greedy_bot, seed);
        let result = assert_finished(&output);
        output
            .assert_stdout_contains("White: random")
            .assert_stdout_contains("Black: greedy");
        eprintln!("seed {seed}: {result}");
    }
}

#[test]
fn greedy_plugin_on_both_colours() {
    let bots = artifacts();
    let output = play(&bots.greedy_bot, &bots.greedy_bot, 1);
    assert_finished(&output);
    output
        .assert_stdout_contains("White: greedy")
        .assert_stdout_contains("Black: greedy");
}

#[test]
fn random_plugin_on_both_colours() {
    let bots = artifacts();
    assert_finished(&play(&bots.random_bot, &bots.random_bot, 1));
}

#[test]
fn a_seed_replays_the_same_game() {
    let bots = artifacts();
    let first = play(&bots.random_bot, &bots.random_bot, 7);
    let second = play(&bots.random_bot, &bots.random_bot, 7);
    assert_finished(&first);
    assert_eq!(first.stdout_line("Moves:"), second.stdout_line("Moves:"));
    assert!(first.stdout_line("Moves:").is_some_and(|m| !m.is_empty()));
}

#[test]
fn greedy_plugin_against_builtin() {
    let bots = artifacts();
    let output = play(&bots.greedy_bot, Path::new("builtin:depth=2"), 1);
    assert_finished(&output);
    output.assert_stdout_contains("Black: builtin");
}

#[test]
fn builtin_against_random_plugin() {
    let bots = artifacts();
    let output = play(Path::new("builtin:depth=2"), &bots.random_bot, 2);
    assert_finished(&output);
    output.assert_stdout_contains("White: builtin");
}

#[test]
fn builtin_random_against_greedy_plugin() {
    let bots = artifacts();
    let output = play(Path::new("random"), &bots.greedy_bot, 3);
    assert_finished(&output);
    output.assert_stdout_contains("White: random (built in)");
}

#[test]
fn a_game_prints_the_board_unless_quiet() {
    let bots = artifacts();
    let output = tavola([
        OsStr::new("play"),
        OsStr::new("--headless"),
        OsStr::new("--seed"),
        OsStr::new("4"),
        OsStr::new("--white"),
        bots.greedy_bot.as_os_str(),
        OsStr::new("--black"),
        OsStr::new("random"),
    ]);
    output
        .assert_code(0)
        .assert_stdout_contains("  a b c d e f g")
        .assert_stdout_contains("1. White plays ")
        .assert_stdout_contains("Termination: normal");
}

#[test]
fn a_recorded_game_is_saved_and_continued() {
    let dir = tavola_tests::TempDir::new("record");
    let path = dir.path().join("games.pgn");
    let path_arg = path.to_str().expect("temp paths are UTF-8");
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "--seed",
        "3",
        "--white",
        "random",
        "--black",
        "random",
        "--record",
        path_arg,
    ]);
    output.assert_code(0);
    let text = std::fs::read_to_string(&path).expect("the record was written");
    assert!(
        text.starts_with("[Game \"ataxx\"]\n[Variant \"standard\"]\n"),
        "{text}"
    );
    assert!(text.contains("[Termination \"normal\"]"), "{text}");

    // Cut the game after its first line of moves and continue it: it ends again, after them.
    let cut: String = text
        .lines()
        .take_while(|l| !l.is_empty())
        .chain(["", "1. b6 f6 *"])
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, cut).expect("temp dir is writable");
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "--white",
        "random",
        "--black",
        "random",
        "--load",
        path_arg,
    ]);
    output.assert_code(0);
    assert!(
        output.stdout.contains("Continuing after 2 moves"),
        "{output}"
    );
    assert!(
        output
            .stdout_line("Moves:")
            .is_some_and(|m| m.starts_with("b6 f6 ")),
        "{output}"
    );

    let missing = dir.path().join("missing.pgn");
    let output = tavola(["play", "--load", missing.to_str().unwrap()]);
    output.assert_one_line_error(1, &["missing.pgn"]);
}

/// Replays a recorded game with the SDK and checks the recorded result against the rules'.
fn check_record<G: tavola_sdk::Game>(record: &tavola::record::GameRecord) {
    use tavola_sdk::Position;
    let (mut position, moves) = record.replay::<G>().expect("the record replays");
    for mv in moves {
        position.play(mv).expect("every recorded move is legal");
    }
    let outcome = position.outcome().expect("the recorded game is over");
    assert_eq!(record.tag("Result"), Some(outcome.result_str()), "{record}");
    assert_eq!(record.tag("Termination"), Some("normal"), "{record}");
    assert!(
        record
            .tag("Reason")
            .is_some_and(|r| r.ends_with(outcome.reason.describe())),
        "{record}"
    );
}

#[test]
fn every_game_and_variant_plays_to_the_end_between_the_samples() {
    let bots = artifacts();
    let dir = tavola_tests::TempDir::new("every-game");
    let random = bots.random_bot.to_str().expect("UTF-8 paths");
    let greedy = bots.greedy_bot.to_str().expect("UTF-8 paths");
    for (game, variants) in [
        ("ataxx", &["standard", "attax"][..]),
        ("tablut", &["ashton"][..]),
        ("gonnect", &["standard"][..]),
        ("dama", &["fid", "school"][..]),
    ] {
        for variant in variants {
            for (seed, (white, black)) in
                [(random, greedy), (greedy, random)].into_iter().enumerate()
            {
                let path = dir.path().join(format!("{game}-{variant}-{seed}.pgn"));
                let output = tavola([
                    "play",
                    "--headless",
                    "--quiet",
                    "--game",
                    game,
                    "--variant",
                    variant,
                    "--seed",
                    &seed.to_string(),
                    "--white",
                    white,
                    "--black",
                    black,
                    "--record",
                    path.to_str().expect("UTF-8 paths"),
                ]);
                output
                    .assert_code(0)
                    .assert_stdout_contains("Termination: normal\n");
                let text = std::fs::read_to_string(&path).expect("the record was written");
                let records = tavola::record::GameRecord::parse_all(&text).expect("it parses");
                let record = &records[0];
                assert_eq!(record.tag("Variant"), Some(*variant));
                match game {
                    "ataxx" => check_record::<tavola_sdk::games::ataxx::Ataxx>(record),
                    "tablut" => check_record::<tavola_sdk::games::tablut::Tablut>(record),
                    "gonnect" => check_record::<tavola_sdk::games::gonnect::Gonnect>(record),
                    _ => check_record::<tavola_sdk::games::dama::Dama>(record),
                }
            }
        }
    }
}
