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

/// `tavola info ARGS...`.
fn info(args: &[&OsStr]) -> Output {
    tavola(std::iter::once(OsStr::new("info")).chain(args.iter().copied()))
}

#[test]
fn info_describes_a_bot_in_process_as_in_a_worker() {
    let bots = artifacts();
    let isolated = info(&[bots.greedy_bot.as_os_str()]);
    let in_process = info(&[bots.greedy_bot.as_os_str(), OsStr::new("--in-process")]);
    isolated.assert_code(0);
    in_process.assert_code(0);
    assert_eq!(
        isolated.stdout, in_process.stdout,
        "{isolated}\n{in_process}"
    );
    for prefix in [
        "name:",
        "version:",
        "author:",
        "description:",
        "games:",
        "built with:",
    ] {
        assert!(
            isolated.stdout_line(prefix).is_some_and(|v| !v.is_empty()),
            "no {prefix}\n{isolated}"
        );
    }
    assert_eq!(
        isolated.stdout_line("path:"),
        bots.greedy_bot
            .canonicalize()
            .ok()
            .as_deref()
            .and_then(Path::to_str),
        "{isolated}"
    );
}

#[test]
fn info_refuses_in_one_line_with_exit_code_3_in_process_as_in_a_worker() {
    let bots = artifacts();
    let dir = TempDir::new("info-refusals");
    let missing = dir.path().join("libnothing_here.so");
    let fake = dir.write("fake.so", "this is not a shared library\n");
    let cases: [(&Path, &[&str]); 5] = [
        (&missing, &["libnothing_here.so", "not found"]),
        (&fake, &["fake.so", "not a loadable library"]),
        (&bots.not_a_bot, &["not_a_bot", "is not a Tavola bot"]),
        (
            &bots.future_sdk_bot,
            &["future_sdk_bot", "tavola-sdk 0.2.0", "tavola-sdk 0.1.0"],
        ),
        (
            &bots.altered_abi_bot,
            &["altered_abi_bot", "incompatible", "rebuild"],
        ),
    ];
    for (library, needles) in cases {
        let isolated = info(&[library.as_os_str()]);
        isolated.assert_one_line_error(3, needles);
        let in_process = info(&[library.as_os_str(), OsStr::new("--in-process")]);
        in_process.assert_one_line_error(3, needles);
        assert_eq!(isolated.stderr, in_process.stderr, "the same words");
    }
}

/// Runs `tavola info [--in-process] FAULTY` with `TAVOLA_FAULTY_CONSTRUCTOR_MARK` set, and says
/// whether the faulty bot's library constructor ran with that environment (wrote the mark).
#[cfg(target_os = "linux")]
fn constructor_ran_in_tavola(in_process: bool) -> bool {
    let dir = TempDir::new("info-mark");
    let mark = dir.path().join("loaded-here");
    let bots = artifacts();
    let mut args = vec![
        format!("TAVOLA_FAULTY_CONSTRUCTOR_MARK={}", mark.display()),
        bots.tavola.display().to_string(),
        "info".to_owned(),
        bots.faulty_bot.display().to_string(),
    ];
    if in_process {
        args.push("--in-process".to_owned());
    }
    let output = tavola_tests::run_with_timeout(
        Path::new("/usr/bin/env"),
        Some(&bots.workdir),
        args,
        tavola_tests::TIMEOUT,
    );
    output.assert_code(0);
    assert_eq!(output.stdout_line("name:"), Some("faulty"), "{output}");
    // The process that wrote the mark (if any) has ended with `tavola info`: no race.
    mark.exists()
}

#[cfg(target_os = "linux")]
#[test]
fn info_runs_none_of_the_library_in_tavola_unless_in_process() {
    assert!(
        !constructor_ran_in_tavola(false),
        "the library's constructor ran with tavola's environment"
    );
    assert!(
        constructor_ran_in_tavola(true),
        "with --in-process the constructor runs in tavola (the test's own check)"
    );
}
