//! The Tablut challenge protocol both ways: a `challenge:COMMAND` seat (Tavola as the server)
//! with `tavola challenge` (Tavola as the client) as its player, players that misbehave, and
//! `tavola challenge` against a server played by this test.

use std::io::Write as _;
use std::net::TcpListener;
use std::thread;

use tavola::protocol::challenge::{self as wire, Turn};
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Game, Position};
use tavola_tests::{artifacts, tavola, tavola_with_env, TempDir};

fn client(bot: &str) -> String {
    format!(
        "challenge:{} challenge --bot {bot} --name Student",
        artifacts().tavola.display()
    )
}

fn tablut_game(white: &str, black: &str, extra: &[&str]) -> tavola_tests::Output {
    let mut args = vec![
        "play",
        "--headless",
        "--quiet",
        "--seed",
        "7",
        "--game",
        "tablut",
        "--white",
        white,
        "--black",
        black,
    ];
    if !extra.contains(&"-t") {
        args.extend(["-t", "0"]);
    }
    args.extend(extra);
    tavola(args)
}

#[test]
fn tavola_plays_itself_through_the_challenge_protocol_as_either_colour() {
    let output = tablut_game(&client("builtin:depth=1"), "random", &[]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal\n");
    assert!(
        output
            .stdout_line("White:")
            .unwrap_or_default()
            .starts_with("Student (challenge player"),
        "{output}"
    );
    let output = tablut_game("random", &client("random"), &[]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal\n");
    assert!(output
        .stdout_line("Black:")
        .unwrap_or_default()
        .starts_with("Student"));
}

#[test]
fn challenge_players_in_a_match_at_once() {
    let dir = TempDir::new("challenge-match");
    let results = dir.path().join("r.jsonl");
    let output = tavola([
        "match",
        "--game",
        "tablut",
        &client("random"),
        "random",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--tc",
        "0",
        "--results",
        results.to_str().unwrap(),
    ]);
    output.assert_code(0);
    let lines = std::fs::read_to_string(&results).unwrap();
    assert_eq!(lines.lines().count(), 5, "{lines}");
    assert!(
        lines.matches("\"normal\"").count() >= 4,
        "{lines}\n{output}"
    );
}

/// A player in bash: connects (with bash's `/dev/tcp`) as the launch convention says, sends its
/// name with `frame`, then does `then`.
fn fake_player(dir: &TempDir, name: &str, then: &str) -> String {
    let script = format!(
        "port=5800; [ \"$1\" = black ] && port=5801\n\
         exec 3<>/dev/tcp/$3/$port || exit 9\n\
         frame() {{ printf '\\x00\\x00\\x00'; printf \"\\\\x$(printf %02x ${{#1}})\"; printf '%s' \"$1\"; }}\n\
         {then}\n\
         sleep 600\n"
    );
    let path = dir.write(&format!("{name}.sh"), &script);
    format!("challenge:bash {}", path.display())
}

#[test]
fn misbehaving_players_lose_with_their_reason() {
    let dir = TempDir::new("challenge-bad");
    let name = "frame '\"fake\"' >&3";
    // Each answers at once (or never: the silent one runs out of its 2 s).
    for (label, then, termination, reason) in [
        (
            "garbage",
            format!("{name}; frame 'hello there' >&3"),
            "unparsable move",
            "\"hello there\", which is not a move",
        ),
        (
            "illegal",
            format!("{name}; frame '{{\"from\":\"a1\",\"to\":\"a2\",\"turn\":\"WHITE\"}}' >&3"),
            "illegal move",
            "a1-a2",
        ),
        (
            "crash",
            format!("{name}; exit 3"),
            "crash",
            "exited with code 3",
        ),
        (
            "length",
            format!("{name}; printf '\\x08\\x00\\x00\\x00hello' >&3"),
            "crash",
            "announced a message of 134217728 bytes",
        ),
        ("silent", name.to_owned(), "time forfeit", "ran out of time"),
        (
            // Its helper process stops itself on its turn (as a process forking while the
            // host stops and continues the player can come out of the fork): the host keeps
            // continuing the player's processes while it has the turn, so the move comes.
            "stopped-helper",
            format!(
                "{name}; (read -r -d '}}' -u 3 _; kill -STOP $BASHPID; \
                 frame '{{\"from\":\"a1\",\"to\":\"a2\",\"turn\":\"WHITE\"}}' >&3)"
            ),
            "illegal move",
            "a1-a2",
        ),
    ] {
        let player = fake_player(&dir, label, &then);
        // A stopped helper never woken would lose after its 5 s (on time, or killed).
        let clock = match label {
            "silent" => "2",
            "stopped-helper" => "5",
            _ => "60",
        };
        let output = tablut_game(&player, "random", &["-t", clock]);
        output.assert_code(0);
        let termination_line = output.stdout_line("Termination:").unwrap_or_default();
        assert!(
            termination_line.contains(termination),
            "{label}: {termination_line:?}\n{output}"
        );
        let result = output.stdout_line("Result:").unwrap_or_default();
        assert!(result.starts_with("0-1"), "{label}: {output}");
        assert!(
            result.contains(reason),
            "{label}: {result:?} lacks {reason:?}"
        );
    }
}

/// The server holds a player to the timeout it was told; so does Tavola in an untimed game,
/// where nothing else would end the turn of a player that never answers.
#[test]
fn an_untimed_player_is_held_to_its_timeout() {
    let dir = TempDir::new("challenge-untimed");
    let player = fake_player(&dir, "silent", "frame '\"fake\"' >&3");
    let output = tablut_game(&format!("{player}:timeout=1"), "random", &[]);
    output.assert_code(0);
    let termination = output.stdout_line("Termination:").unwrap_or_default();
    assert!(termination.contains("crash"), "{termination:?}\n{output}");
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.starts_with("0-1"), "{output}");
    assert!(result.contains("did not answer in time"), "{result:?}");
}

#[test]
fn players_that_never_get_going_are_named_in_one_line() {
    let dir = TempDir::new("challenge-start");
    let startup = ["--bot-startup", "2"];
    for (label, then, needle) in [
        ("mute", "", "no name: it sent nothing in time"),
        (
            "little-endian",
            "printf '\\x06\\x00\\x00\\x00\"fake\"' >&3",
            "announced a message of 100663296 bytes",
        ),
        (
            "gone",
            "echo 'something broke' >&2; exit 4",
            "exited with code 4 (its last words: \"something broke\")",
        ),
    ] {
        let player = fake_player(&dir, label, then);
        let output = tablut_game(&player, "random", &startup);
        output.assert_one_line_error(3, &[&format!("{label}.sh"), needle]);
    }
    let never = dir.write("never.sh", "sleep 600\n");
    let output = tablut_game(
        &format!("challenge:sh {}", never.display()),
        "random",
        &startup,
    );
    output.assert_one_line_error(3, &["did not connect to 127.0.0.1:5800 in time"]);
    let output = tablut_game("challenge:/nonexistent/player", "random", &[]);
    output.assert_one_line_error(3, &["/nonexistent/player", "cannot start"]);
    let output = tavola([
        "play",
        "--headless",
        "--game",
        "dama",
        "--white",
        &client("random"),
        "--black",
        "random",
    ]);
    output.assert_one_line_error(2, &["plays Tablut only"]);
}

#[test]
fn without_namespaces_the_player_uses_the_machines_loopback() {
    let output = tavola_with_env(
        [
            "play",
            "--headless",
            "--quiet",
            "-t",
            "0",
            "--game",
            "tablut",
            "--white",
            "random",
            "--black",
            &client("random"),
        ],
        &[("TAVOLA_SANDBOX_WITHOUT", "namespaces")],
    );
    // The port may be taken on a shared machine: then the refusal says so.
    if output.code == Some(3) {
        output.assert_one_line_error(3, &["port 5801 of 127.0.0.1 is taken"]);
    } else {
        output
            .assert_code(0)
            .assert_stdout_contains("Termination: normal\n");
        assert!(!output.stdout.contains("own network"), "{output}");
    }
}

/// A server played by the test: accepts one client, reads its name, and runs `script` with the
/// connection; returns the name.
fn serve(
    script: impl FnOnce(&mut std::net::TcpStream) + Send + 'static,
) -> (u16, thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let name = wire::read_message(&mut stream).unwrap();
        script(&mut stream);
        name
    });
    (port, handle)
}

fn challenge_client(port: u16, color: &str) -> tavola_tests::Output {
    tavola([
        "challenge",
        "--color",
        color,
        "--server",
        "127.0.0.1",
        "--port",
        &port.to_string(),
        "--timeout",
        "5",
        "--bot",
        "random",
        "--name",
        "Tester",
    ])
}

#[test]
fn the_client_plays_on_a_server_and_reads_the_result() {
    let (port, server) = serve(|stream| {
        let mut position = Tablut::start(None).unwrap();
        wire::write_message(stream, &wire::state_json(&position, Turn::White)).unwrap();
        let action = wire::read_message(stream).unwrap();
        let mv = wire::parse_action(&action).unwrap();
        let parsed = position.parse_move(&mv).expect("a legal move");
        position.play(parsed).unwrap();
        wire::write_message(stream, &wire::state_json(&position, Turn::Black)).unwrap();
        // Black answers (any legal move), and the server calls the game.
        let reply = position.legal_moves()[0];
        position.play(reply).unwrap();
        wire::write_message(stream, &wire::state_json(&position, Turn::White)).unwrap();
        let _second = wire::read_message(stream).unwrap();
        wire::write_message(stream, &wire::state_json(&position, Turn::Draw)).unwrap();
    });
    let output = challenge_client(port, "white");
    output
        .assert_code(0)
        .assert_stdout_contains("Result: a draw")
        .assert_stdout_contains("Black played ");
    assert_eq!(server.join().unwrap(), "\"Tester\"");
    assert!(
        output.stdout.contains("Connected to 127.0.0.1:"),
        "{output}"
    );
}

#[test]
fn the_client_names_a_bad_server_in_one_line() {
    let (port, server) = serve(|stream| {
        wire::write_message(stream, "{\"board\":[],\"turn\":\"WHITE\"}").unwrap();
    });
    let output = challenge_client(port, "white");
    output.assert_one_line_error(1, &["bad state", "9 rows"]);
    server.join().unwrap();
    let (port, server) = serve(|stream| {
        stream.write_all(&[0, 0]).unwrap();
    });
    let output = challenge_client(port, "black");
    output.assert_one_line_error(1, &["middle of a message"]);
    server.join().unwrap();
    // Closed without a result: the server's way of ending a game lost on time.
    let (port, server) = serve(|_| {});
    let output = challenge_client(port, "white");
    output
        .assert_code(1)
        .assert_stdout_contains("closed the connection without a result");
    server.join().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    challenge_client(port, "white").assert_one_line_error(1, &["cannot connect", "127.0.0.1:"]);
}
