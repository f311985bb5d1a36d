//! Bot libraries that cannot be used: each is refused before the game starts with exit code 3 and
//! one line on stderr naming the library and the reason. And `tavola info` on a good one.

use std::ffi::OsStr;
use std::path::Path;

use tavola_tests::{artifacts, tavola, tavola_in, Output, TempDir};

/// Tries to play `white` (a seat spec) against the built-in random player.
fn play_white(white: impl AsRef<OsStr>) -> Output {
    tavola([
        OsStr::new("play"),
        OsStr::new("--headless"),
        OsStr::new("--quiet"),
        OsStr::new("--seed"),
        OsStr::new("1"),
        OsStr::new("--white"),
        white.as_ref(),
        OsStr::new("--black"),
        OsStr::new("random"),
    ])
}

/// The faulty bot's seat spec in `mode`.
fn faulty(mode: &str) -> String {
    format!("{}:mode={mode}", artifacts().faulty_bot.display())
}

/// The text of a path, to look for in messages.
fn text(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn a_missing_library_is_not_found() {
    let dir = TempDir::new("missing");
    let missing = dir.path().join("libnothing_here.so");
    play_white(&missing).assert_one_line_error(3, &[&text(&missing), "not found"]);
}

#[test]
fn a_text_file_is_not_a_loadable_library() {
    let dir = TempDir::new("fake");
    let fake = dir.write("fake.so", "this is not a shared library\n");
    play_white(&fake).assert_one_line_error(3, &["fake.so", "not a loadable library"]);
}

#[test]
fn a_directory_is_not_a_loadable_library() {
    let dir = TempDir::new("directory");
    play_white(dir.path()).assert_one_line_error(3, &["not a loadable library"]);
}

#[test]
fn a_library_without_a_bot_module_is_not_a_bot() {
    let bots = artifacts();
    play_white(&bots.not_a_bot).assert_one_line_error(3, &["not_a_bot", "is not a Tavola bot"]);
}

#[test]
fn a_bot_built_against_another_sdk_is_refused_with_both_versions() {
    let bots = artifacts();
    play_white(&bots.future_sdk_bot).assert_one_line_error(
        3,
        &[
            "future_sdk_bot",
            "tavola-sdk 0.2.0",
            "tavola-sdk 0.1.0",
            "rebuild",
        ],
    );
}

#[test]
fn a_bot_with_another_abi_layout_is_incompatible() {
    let bots = artifacts();
    play_white(&bots.altered_abi_bot)
        .assert_one_line_error(3, &["altered_abi_bot", "incompatible", "rebuild"]);
}

#[test]
fn a_bot_refusing_the_game_stops_the_host() {
    play_white(faulty("refuse")).assert_one_line_error(
        3,
        &["faulty", "cannot play ataxx", "refusing to play, as asked"],
    );
}

#[test]
fn an_unknown_mode_is_refused_by_the_bot() {
    play_white(faulty("sideways")).assert_one_line_error(3, &["unknown mode \"sideways\""]);
}

#[test]
fn a_bot_panicking_when_created_stops_the_host() {
    // The SDK routes the library's own panic message to the log, so stderr holds one line.
    let output = play_white(faulty("panic-new"));
    output.assert_one_line_error(3, &["cannot play ataxx", "panicked", "mode=panic-new"]);
    assert!(
        !output.stdout.contains("Result:"),
        "no game was played\n{output}"
    );
}

#[test]
fn info_describes_a_bot() {
    let bots = artifacts();
    let output = tavola([OsStr::new("info"), bots.greedy_bot.as_os_str()]);
    output.assert_code(0);
    assert_eq!(output.stdout_line("name:"), Some("greedy"), "{output}");
    // The greedy sample plays every game, listed in the SDK's order.
    let every_game = tavola_sdk::games::NAMES.join(", ");
    assert_eq!(
        output.stdout_line("games:"),
        Some(every_game.as_str()),
        "{output}"
    );
    assert_eq!(output.stdout_line("version:"), Some("0.1.0"), "{output}");
    assert_eq!(
        output.stdout_line("built with:"),
        Some("tavola-sdk 0.1.0"),
        "{output}"
    );
}

#[test]
fn info_refuses_what_play_refuses() {
    let bots = artifacts();
    tavola([OsStr::new("info"), bots.not_a_bot.as_os_str()])
        .assert_one_line_error(3, &["is not a Tavola bot"]);
}

#[test]
fn a_relative_path_is_found_from_the_current_directory() {
    // dlopen does not look in the current directory for a path without a slash: the host must
    // resolve `libgreedy_bot.so` itself.
    let bots = artifacts();
    let (Some(dir), Some(name)) = (bots.greedy_bot.parent(), bots.greedy_bot.file_name()) else {
        panic!("odd library path {}", bots.greedy_bot.display());
    };
    let output = tavola_in(
        dir,
        [
            OsStr::new("play"),
            OsStr::new("--headless"),
            OsStr::new("--quiet"),
            OsStr::new("--seed"),
            OsStr::new("1"),
            OsStr::new("--white"),
            name,
            OsStr::new("--black"),
            OsStr::new("random"),
        ],
    );
    output
        .assert_code(0)
        .assert_stdout_contains("White: greedy")
        .assert_stdout_contains("Termination: normal");
}
