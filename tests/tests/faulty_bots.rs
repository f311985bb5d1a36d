//! Bots that misbehave during a game: each loses it with the matching termination reason, and the
//! host finishes normally (exit 0).

use tavola_tests::{artifacts, tavola, Output};

/// Plays the faulty bot in `mode` against the built-in random player; `faulty_white` picks its
/// colour. `extra` goes before the players (a clock, say).
fn faulty_game(mode: &str, faulty_white: bool, extra: &[&str]) -> Output {
    let faulty = format!("{}:mode={mode}", artifacts().faulty_bot.display());
    let (white, black) = if faulty_white {
        (faulty.as_str(), "random")
    } else {
        ("random", faulty.as_str())
    };
    let mut args = vec!["play", "--headless", "--quiet", "--seed", "1"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--white", white, "--black", black]);
    tavola(args)
}

/// Asserts that the faulty side lost by `termination`, and returns the result line.
#[track_caller]
fn assert_lost_by(output: &Output, termination: &str, faulty_white: bool) -> String {
    output
        .assert_code(0)
        .assert_stdout_contains(&format!("Termination: {termination}\n"))
        .assert_no_panic_on_stdout();
    let result = output
        .stdout_line("Result:")
        .unwrap_or_else(|| panic!("no Result line\n{output}"));
    let expected = if faulty_white {
        "0-1 Black wins"
    } else {
        "1-0 White wins"
    };
    assert!(result.starts_with(expected), "{result:?}\n{output}");
    result.to_owned()
}

#[test]
fn a_panic_loses_the_game() {
    let output = faulty_game("panic", true, &[]);
    let result = assert_lost_by(&output, "panic", true);
    assert!(result.contains("panicked"), "{result}");
    assert!(
        result.contains("mode=panic"),
        "the panic message is kept: {result}"
    );
}

#[test]
fn a_panic_after_some_moves_loses_the_game() {
    // As Black the bot first receives a request with a move in it.
    let output = faulty_game("panic", false, &[]);
    assert_lost_by(&output, "panic", false);
}

#[test]
fn text_that_is_not_a_move_loses_the_game() {
    let output = faulty_game("garbage", true, &[]);
    let result = assert_lost_by(&output, "unparsable move", true);
    assert!(result.contains("a1g7"), "the answer is quoted: {result}");
}

#[test]
fn an_illegal_move_loses_the_game() {
    let output = faulty_game("illegal", true, &[]);
    assert_lost_by(&output, "illegal move", true);
    let output = faulty_game("illegal", false, &[]);
    assert_lost_by(&output, "illegal move", false);
}

#[test]
fn a_bot_error_loses_the_game() {
    let output = faulty_game("error", false, &[]);
    let result = assert_lost_by(&output, "bot error", false);
    assert!(
        result.contains("mode=error"),
        "the bot's message is kept: {result}"
    );
}

#[test]
fn a_bot_past_its_clock_loses_on_time_and_is_not_waited_for() {
    // The bot thinks 5 s past its stop signal; the host must forfeit it when its 1 s clock runs
    // out and end without waiting for it.
    let output = faulty_game("slow", true, &["-t", "1"]);
    assert_lost_by(&output, "time forfeit", true);
    assert!(
        output.elapsed.as_secs_f64() < 5.0,
        "the host waited for the hung bot\n{output}"
    );
}

#[test]
fn the_faulty_bot_in_legal_mode_plays_a_whole_game() {
    // The control: the fixture works, so the failures above are the faults asked for.
    let output = faulty_game("legal", true, &[]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal");
}

#[test]
fn a_panic_in_the_bots_drop_does_not_abort_the_host_in_process() {
    // The bot is dropped in the host's own process: through abi_stable's `extern "C"` destructor,
    // a panic that unwound out of it would abort the host.
    // Untimed: the game ends by the rules, whatever the machine's speed.
    let output = faulty_game("panic-drop", true, &["--in-process", "-t", "0"]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal")
        .assert_no_panic_on_stdout();
    assert!(
        output
            .stderr
            .contains("the bot panicked while being dropped: faulty-bot panics in Drop"),
        "the panic is logged as a warning\n{output}"
    );

    // A match drops a bot after every game (and the one that told its name before the first).
    let dir = tavola_tests::TempDir::new("faulty-drop-match");
    let results = dir.path().join("results.jsonl");
    let faulty = format!("{}:mode=panic-drop", artifacts().faulty_bot.display());
    let output = tavola([
        "match",
        "--game",
        "ataxx",
        "--games",
        "2",
        "--tc",
        "0",
        "--concurrency",
        "1",
        "--seed",
        "1",
        "--in-process",
        "--results",
        results.to_str().unwrap(),
        faulty.as_str(),
        "random",
    ]);
    output.assert_code(0).assert_no_panic_on_stdout();
    let text = std::fs::read_to_string(&results).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(games.iter().all(|g| g["termination"] == "normal"), "{text}");
}
