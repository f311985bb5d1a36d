//! `tavola menu`, driven by scripts on standard input as the Dama exam's grader drives it.

use tavola_tests::tavola_with_input;

fn menu(args: &[&str], input: &str) -> tavola_tests::Output {
    let mut all = vec!["menu", "--seed", "3"];
    all.extend(args);
    tavola_with_input(all, input)
}

#[test]
fn the_exams_menu_in_dama() {
    // A move before any game, a game with a move, the best move, the end, exit.
    let output = menu(&[], "2\n1\n2\n1\n1\n3\n4\n5\n");
    output
        .assert_code(0)
        .assert_stdout_contains("dama (school): you play White, random plays Black.")
        .assert_stdout_contains("1. Start a new game\n2. Make a move (start a game first)\n")
        .assert_stdout_contains("3. Find the best move (start a game first)\n4. End the current game (start a game first)\n5. Exit\n")
        .assert_stdout_contains("There is no game yet: 1 starts one.")
        .assert_stdout_contains("A new game: random (built in) against you.")
        .assert_stdout_contains("Pieces that can move:\n  1. 21    2. 22    3. 23    4. 24\n")
        .assert_stdout_contains("Moves of 21:\n  1. 21-17    2. 21-18\n")
        .assert_stdout_contains("You play 21-17.\nBlack plays ")
        .assert_stdout_contains("Best move: ")
        .assert_stdout_contains("expected value ")
        .assert_stdout_contains("Next best: ")
        .assert_stdout_contains("The game is ended.")
        .assert_stdout_contains("Goodbye.");
    // The board, drawn with + - |, numbers on the dark squares.
    assert!(output.stdout.contains("+-----+-----+"), "{output}");
    assert!(
        output.stdout.contains("|  b 1  |") || output.stdout.contains("| b 1 |"),
        "{output}"
    );
    // After "End", 2 waits for a game again.
    let after_end = output.stdout.rsplit("The game is ended.").next().unwrap();
    assert!(
        after_end.contains("2. Make a move (start a game first)"),
        "{output}"
    );
}

#[test]
fn another_piece_can_be_chosen_and_bad_numbers_are_asked_again() {
    let output = menu(&[], "x\n9\n1\n2\n4\n0\n2\n1\n5\n");
    output.assert_code(0);
    assert_eq!(
        output
            .stdout
            .matches("Please type a number from 1 to 5.")
            .count(),
        2,
        "{output}"
    );
    // Piece 24, back (0), piece 22, its first move.
    output
        .assert_stdout_contains("Moves of 24:")
        .assert_stdout_contains("Moves of 22:")
        .assert_stdout_contains("You play 22-");
}

#[test]
fn the_board_as_integers() {
    let output = menu(&["--matrix"], "5\n");
    output
        .assert_code(0)
        .assert_stdout_contains(
            "As integers (0 empty, 1 white man, 2 white king, 3 black man, 4 black king):\n\
             3 0 3 0 3 0 3 0\n0 3 0 3 0 3 0 3\n",
        )
        .assert_stdout_contains("1 0 1 0 1 0 1 0\n0 1 0 1 0 1 0 1\n");
}

#[test]
fn every_game_has_the_menu() {
    for (game, moves, played) in [
        ("ataxx", "2\n1\n1\n", "You play "),
        ("tablut", "2\n1\n1\n", "You play "),
        // Nothing moves in Gonnect: a point is typed.
        ("gonnect", "2\nZ9\nG7\n", "You play G7."),
        ("dama", "2\n1\n1\n", "You play "),
    ] {
        let output = menu(&["--game", game], &format!("1\n{moves}3\n5\n"));
        output
            .assert_code(0)
            .assert_stdout_contains(played)
            .assert_stdout_contains("Best move: ")
            .assert_stdout_contains("Goodbye.");
        assert!(output.stdout.contains("---+---"), "{game}: {output}");
    }
}

#[test]
fn the_opponent_can_be_any_player_and_the_input_may_end() {
    let output = menu(
        &["--game", "ataxx", "--black", "builtin:depth=1"],
        "1\n2\n1\n1\n",
    );
    output
        .assert_code(0)
        .assert_stdout_contains(
            "ataxx (standard): you play x (White), builtin:depth=1 plays o (Black).",
        )
        .assert_stdout_contains("A new game: builtin against you.")
        .assert_stdout_contains("o (Black) plays ")
        .assert_stdout_contains("The input ended: goodbye.");
    // The computer as White moves first.
    let output = menu(&["--game", "tablut", "--white", "random"], "1\n5\n");
    output
        .assert_code(0)
        .assert_stdout_contains("you play Black")
        .assert_stdout_contains("White plays ");
    menu(&["--black", "human"], "5\n").assert_one_line_error(2, &["the menu's opponent is a bot"]);
}
