//! The command line without plugins: perft, and how bad input is refused (exit 1 for bad
//! positions, moves and options, exit 2 for a command line that does not parse).

use tavola_tests::tavola;

#[test]
fn perft_counts_the_start_position() {
    let output = tavola(["perft", "--game", "ataxx", "--depth", "4"]);
    output.assert_code(0);
    assert_eq!(output.stdout.trim(), "155888", "{output}");
}

#[test]
fn perft_divide_lists_each_move() {
    let output = tavola(["perft", "--game", "ataxx", "--divide", "--depth", "2"]);
    output.assert_code(0);
    let moves: Vec<(&str, u64)> = output
        .stdout
        .lines()
        .filter_map(|line| {
            let (mv, count) = line.split_once(": ")?;
            Some((mv, count.parse().ok()?))
        })
        .filter(|(mv, _)| *mv != "Nodes")
        .collect();
    assert_eq!(moves.len(), 16, "{output}");
    assert!(moves.iter().all(|&(_, count)| count == 16), "{output}");
    assert!(moves.iter().any(|&(mv, _)| mv == "a7c5"), "{output}");
    assert_eq!(output.stdout_line("Nodes:"), Some("256"), "{output}");
}

#[test]
fn perft_plays_moves_first() {
    // After White's jump a7c5, Black (a1, g7) has 8 + 8 moves; White (c5, g1) then has 11 clones
    // and 21 jumps, less one for each of the 6 Black moves landing on c5's jump targets
    // (a3 b3 c3 e5 e6 e7): 16 * 32 - 6.
    let output = tavola(["perft", "--depth", "2", "--moves", "a7c5"]);
    output.assert_code(0);
    assert_eq!(output.stdout.trim(), "506", "{output}");
    let output = tavola(["perft", "--depth", "1", "--moves", " a7c5  g7e5 "]);
    output.assert_code(0);
    assert!(output.stdout.trim().parse::<u64>().is_ok(), "{output}");
}

#[test]
fn perft_refuses_a_bad_position_with_the_input() {
    tavola(["perft", "--depth", "1", "--position", "not/a/position"])
        .assert_one_line_error(1, &["not/a/position"]);
}

#[test]
fn perft_refuses_a_bad_move_with_the_input() {
    tavola(["perft", "--depth", "1", "--moves", "a7c5 zz9"])
        .assert_one_line_error(1, &["--moves", "\"zz9\""]);
    // Well-formed, but White's piece has left a7.
    tavola(["perft", "--depth", "1", "--moves", "a7c5 a7c5"])
        .assert_one_line_error(1, &["illegal move \"a7c5\""]);
}

#[test]
fn a_command_line_that_does_not_parse_exits_2() {
    for args in [
        &["perft"][..],
        &["perft", "--depth", "deep"],
        &["perft", "--depth", "1", "--game", "chess"],
        &["--no-such-flag"],
        &["play", "--headless", "--white", "builtin:=3"],
    ] {
        let output = tavola(args);
        output.assert_code(2).assert_no_panic_on_stdout();
        assert!(output.stderr.contains("error:"), "{output}");
    }
}

#[test]
fn a_bad_builtin_option_is_refused_before_playing() {
    let output = tavola(["play", "--headless", "--white", "builtin:depth=99"]);
    assert_ne!(output.code, Some(0), "{output}");
    output.assert_one_line_error(output.code.unwrap_or(-1), &["depth=99", "1 to 64"]);
    assert!(!output.stdout.contains("Result:"), "{output}");
}

#[test]
fn options_on_a_player_without_options_are_refused() {
    let output = tavola(["play", "--headless", "--black", "random:speed=1"]);
    assert_ne!(output.code, Some(0), "{output}");
    output.assert_one_line_error(output.code.unwrap_or(-1), &["random:speed=1"]);
}

#[test]
fn an_unknown_variant_is_refused() {
    tavola(["play", "--headless", "--variant", "nope"])
        .assert_one_line_error(1, &["\"nope\"", "standard"]);
}

#[test]
fn help_and_version_succeed() {
    tavola(["--help"])
        .assert_code(0)
        .assert_stdout_contains("Exit codes");
    tavola(["--version"])
        .assert_code(0)
        .assert_stdout_contains("tavola");
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::BufRead as _;
    // A headless game prints a board after each move: more than a pipe holds.
    let mut child = std::process::Command::new(&tavola_tests::artifacts().tavola)
        .args(["play", "--headless", "--game", "gonnect"])
        .args(["--white", "random", "--black", "random", "--seed", "1"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tavola starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    // The reader is dropped here, as `| head -1` does.
    let output = child.wait_with_output().expect("tavola ends");
    assert_eq!(first.trim(), "gonnect (standard)");
    assert_eq!(output.status.code(), Some(141), "as if killed by SIGPIPE");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "no message");
}

#[test]
fn a_person_in_the_terminal_hears_why_a_move_is_illegal() {
    for (game, moves, why) in [
        (
            "tablut",
            "e4-e2\n",
            "illegal move \"e4-e2\": the way is blocked at e3",
        ),
        (
            "ataxx",
            "d4\n",
            "illegal move \"d4\": no x stone next to d4 to grow from",
        ),
        ("gonnect", "G7\nG7\n", "illegal move \"G7\": G7 is occupied"),
        (
            "dama",
            "21-26\n",
            "illegal move \"21-26\": a man moves forward only",
        ),
    ] {
        // Black moves first in Gonnect: the person is Black, and G7 is theirs by the second try.
        let first = if game == "gonnect" {
            "--black"
        } else {
            "--white"
        };
        let other = if first == "--white" {
            "--black"
        } else {
            "--white"
        };
        let output = tavola_tests::tavola_with_input(
            [
                "play",
                "--headless",
                "--quiet",
                "-t",
                "0",
                "--seed",
                "1",
                "--game",
                game,
                first,
                "human",
                other,
                "random",
            ],
            moves,
        );
        output.assert_code(0);
        output.assert_stdout_contains(why);
        output.assert_stdout_contains("stopped playing: the input ended\n");
    }
}
