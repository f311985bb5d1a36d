//! Outside engines in Tavola's seats (`ugi:COMMAND`, `uai:COMMAND`): Tavola against itself
//! through each protocol for every game it carries, and engines that misbehave.

use tavola_tests::{artifacts, tavola, TempDir};

fn tavola_path() -> String {
    artifacts().tavola.display().to_string()
}

/// One untimed game: the engine as White against `random`.
fn engine_game(game: &str, white: &str) -> tavola_tests::Output {
    timed_engine_game(game, white, "0")
}

/// One game at `seconds` a player: the engine as White against `random`.
fn timed_engine_game(game: &str, white: &str, seconds: &str) -> tavola_tests::Output {
    tavola([
        "play",
        "--headless",
        "--quiet",
        "--seed",
        "5",
        "-t",
        seconds,
        "--game",
        game,
        "--white",
        white,
        "--black",
        "random",
    ])
}

#[test]
fn tavola_plays_itself_through_ugi_in_every_game() {
    for game in ["ataxx", "tablut", "gonnect", "dama"] {
        let engine = format!("ugi:{} ugi --game {game} --bot random", tavola_path());
        let output = engine_game(game, &engine);
        output
            .assert_code(0)
            .assert_stdout_contains("Termination: normal\n");
        assert!(output.stdout.contains("White: "), "{output}");
    }
}

#[test]
fn tavola_plays_itself_through_uai() {
    // The built-in UAI engine, and another player behind it.
    for engine in [
        format!("uai:{} uai", tavola_path()),
        format!("uai:{} uai --bot random", tavola_path()),
    ] {
        let output = timed_engine_game("ataxx", &engine, "5");
        output
            .assert_code(0)
            .assert_stdout_contains("Termination: normal\n");
    }
}

#[test]
fn an_engine_in_a_match_with_options() {
    let dir = TempDir::new("engines-match");
    let results = dir.path().join("r.jsonl");
    let engine = format!("ugi:{} ugi --game dama --bot random:seed=3", tavola_path());
    let output = tavola([
        "match",
        "--game",
        "dama",
        &engine,
        "random",
        "--games",
        "2",
        "--tc",
        "0",
        "--concurrency",
        "1",
        "--results",
        results.to_str().unwrap(),
    ]);
    output.assert_code(0);
    let lines = std::fs::read_to_string(&results).unwrap();
    assert_eq!(lines.lines().count(), 3, "{lines}");
    assert!(!lines.contains("crash"), "{lines}");
}

/// A fake engine: a shell script that speaks just enough UGI, then does `then`.
fn fake_engine(dir: &TempDir, name: &str, then: &str) -> String {
    let script = format!(
        "while read line; do case \"$line\" in \
         ugi) echo 'id name fake'; echo ugiok;; isready) echo readyok;; go*) {then};; quit) exit 0;; \
         esac; done\n"
    );
    let path = dir.write(&format!("{name}.sh"), &script);
    format!("ugi:sh {}", path.display())
}

#[test]
fn misbehaving_engines_lose_with_their_reason() {
    let dir = TempDir::new("engines-bad");
    for (name, then, termination, reason) in [
        (
            "illegal",
            "echo 'bestmove z9'",
            "unparsable move",
            "not a move",
        ),
        ("occupied", "echo 'bestmove a1'", "illegal move", "illegal"),
        ("crash", "exit 3", "crash", "exited with code 3"),
        (
            "garbage",
            "echo 'not a protocol line'; echo 'bestmove'",
            "unparsable move",
            "not a move",
        ),
    ] {
        let engine = fake_engine(&dir, name, then);
        let output = engine_game("gonnect", &engine);
        output.assert_code(0);
        let termination_line = output.stdout_line("Termination:").unwrap_or_default();
        assert!(
            termination_line.contains(termination),
            "{name}: {termination_line:?}\n{output}"
        );
        let result = output.stdout_line("Result:").unwrap_or_default();
        assert!(result.starts_with("0-1"), "{name}: {output}");
        assert!(
            result.contains(reason),
            "{name}: {result:?} lacks {reason:?}"
        );
    }
}

#[test]
fn an_engine_whose_helper_stops_on_its_turn_still_moves() {
    // The helper stops itself once the turn has begun (as a process forking while the host
    // stops and continues the engine can come out of the fork): the host keeps continuing the
    // engine's processes while it has the turn, so the move comes (without that, the engine
    // would run out of its 10 s and lose).
    let dir = TempDir::new("engines-stopped");
    let engine = fake_engine(&dir, "stopped", "sh -c 'kill -STOP $$; echo bestmove g7'");
    let output = timed_engine_game("gonnect", &engine, "10");
    output.assert_code(0);
    let moves = output.stdout_line("Moves:").unwrap_or_default();
    assert!(moves.contains(" G7"), "{output}");
    // Its second move is the same square, taken by then.
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.contains("\"g7\" (G7 is occupied)"), "{output}");
}

#[test]
fn a_silent_engine_is_refused_at_start_and_a_missing_one_named() {
    let dir = TempDir::new("engines-silent");
    let silent = dir.write("silent.sh", "sleep 600\n");
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "--bot-startup",
        "1",
        "--game",
        "gonnect",
        "--white",
        &format!("ugi:sh {}", silent.display()),
        "--black",
        "random",
    ]);
    output.assert_one_line_error(3, &["no ugiok"]);
    let output = engine_game("gonnect", "ugi:/nonexistent/engine");
    output.assert_one_line_error(3, &["/nonexistent/engine", "cannot start"]);
}

#[test]
fn an_engine_that_stops_reading_is_refused_not_waited_for() {
    // It reads its first line and never another; an option longer than a pipe holds (64 KiB)
    // fills its input. The host's write gives up on it instead of waiting for ever.
    let dir = TempDir::new("engines-deaf");
    let deaf = dir.write(
        "deaf.sh",
        "read line; echo 'id name deaf'; echo ugiok; exec sleep 600\n",
    );
    let value = "x".repeat(100_000);
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "--game",
        "gonnect",
        "--white",
        &format!("ugi:sh {}:big={value}", deaf.display()),
        "--black",
        "random",
    ]);
    output.assert_one_line_error(
        3,
        &["stopped reading its input", "setoption name big value"],
    );
}

#[test]
fn an_engine_past_its_clock_loses_on_time() {
    let dir = TempDir::new("engines-slow");
    let engine = fake_engine(&dir, "slow", "sleep 600");
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "-t",
        "1",
        "--game",
        "gonnect",
        "--white",
        &engine,
        "--black",
        "random",
    ]);
    output.assert_code(0);
    let termination = output.stdout_line("Termination:").unwrap_or_default();
    assert!(matches!(termination, "time forfeit" | "crash"), "{output}");
    // Untimed, it was told a second a move (`go movetime 1000`) and is held to it.
    let output = engine_game("gonnect", &engine);
    output.assert_code(0);
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.contains("did not answer in time"), "{output}");
}
