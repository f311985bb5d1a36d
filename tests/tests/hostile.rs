//! Hostile bots in worker processes (the default): each attack of the faulty fixture bot's, end to
//! end through the real binary. Whatever the bot tries, the host finishes the game, its opponent
//! (another worker) plays on, the test's own processes live, and no process outlives the game.
//!
//! Each test plays private copies of the faulty library, so that leftover processes are found by
//! the copy's path even while other tests run.

use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::process::{Child, Command};

use tavola_tests::{private_copy, processes_using, tavola_with_env, Output, TempDir};

/// A process of the test's own that an attack may aim at; killed when dropped.
struct Sentinel(Child);

impl Sentinel {
    fn start() -> Sentinel {
        Sentinel(
            Command::new("sleep")
                .arg("600")
                .spawn()
                .expect("sleep runs"),
        )
    }

    fn pid(&self) -> u32 {
        self.0.id()
    }

    /// Whether it still runs (and was neither killed nor stopped).
    fn alive(&mut self) -> bool {
        let running = matches!(self.0.try_wait(), Ok(None));
        let state = fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap_or_default();
        let stopped = state
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('T'));
        running && !stopped
    }
}

impl Drop for Sentinel {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One game: the faulty bot in `mode` (with `options`) as White against a well-behaved worker
/// (the same library in `legal` mode) as Black, untimed unless `extra` says otherwise.
fn attack(mode: &str, options: &str, extra: &[&str]) -> (Output, Vec<String>) {
    attack_without("", mode, options, extra)
}

/// [`attack`] with the sandbox layers `without` left out (as a kernel that refuses them would).
fn attack_without(
    without: &str,
    mode: &str,
    options: &str,
    extra: &[&str],
) -> (Output, Vec<String>) {
    let dir = TempDir::new(&format!("hostile-{mode}"));
    let attacker = private_copy(&dir, &format!("attacker_{mode}"));
    let victim = private_copy(&dir, &format!("victim_{mode}"));
    let white = format!("{}:mode={mode}{options}", attacker.display());
    let black = format!("{}:mode=legal", victim.display());
    let mut args = vec!["play", "--headless", "--quiet", "--seed", "3"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--white", &white, "--black", &black]);
    let output = tavola_with_env(args, &[("TAVOLA_SANDBOX_WITHOUT", without)]);
    let mut leftovers = processes_using(&attacker);
    leftovers.extend(processes_using(&victim));
    (output, leftovers)
}

/// The game went to its end by the rules: the attack changed nothing.
#[track_caller]
fn assert_played_out(output: &Output, leftovers: &[String]) {
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal\n");
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_bot_can_signal_neither_the_host_nor_its_opponent_nor_the_users_processes() {
    let mut sentinel = Sentinel::start();
    let target = format!(",target={}", sentinel.pid());
    let (output, leftovers) = attack("kill-host", &target, &["-t", "0"]);
    // The host was neither stopped nor killed (it printed the result and exited 0), and the
    // opponent's worker was not killed (the game ended by the rules, not "crashed").
    assert_played_out(&output, &leftovers);
    assert!(sentinel.alive(), "the test's own process was signalled");
}

#[test]
fn a_bot_can_open_no_socket_by_any_route() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    listener.set_nonblocking(true).expect("non-blocking");
    let port = listener.local_addr().expect("an address").port();
    let (output, leftovers) = attack("network-escape", &format!(",port={port}"), &["-t", "0"]);
    assert!(!output.stdout.contains("escaped"), "{output}");
    assert_played_out(&output, &leftovers);
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("the bot reached the test's port: {other:?}"),
    }
}

/// The bot also looks at its own environment: the test's (and cargo's) variables must not be
/// there.
#[test]
fn a_bot_reads_no_other_process_in_proc_nor_the_users_environment() {
    let sentinel = Sentinel::start();
    let target = format!(",target={}", sentinel.pid());
    let (output, leftovers) = attack("read-proc", &target, &["-t", "0"]);
    assert!(!output.stdout.contains("read "), "{output}");
    assert_played_out(&output, &leftovers);
}

#[test]
fn a_line_past_the_cap_loses_with_its_own_reason_and_nothing_is_buffered() {
    let (output, leftovers) = attack("flood", "", &["-t", "0"]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: crash\n");
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.starts_with("0-1"), "{output}");
    assert!(result.contains("longer than 1 MiB"), "{output}");
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_line_that_is_not_utf8_loses_with_its_own_reason() {
    let (output, leftovers) = attack("not-utf8", "", &["-t", "0"]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: crash\n");
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.contains("not UTF-8"), "{output}");
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_match_against_an_attacker_is_not_rigged() {
    // The attacker kills what it can on every move: a match still scores every game by the board.
    let dir = TempDir::new("hostile-match");
    let attacker = private_copy(&dir, "attacker_match");
    let victim = private_copy(&dir, "victim_match");
    let results = dir.path().join("results.jsonl");
    let output = tavola_with_env(
        [
            "match",
            "--game",
            "ataxx",
            &format!("{}:mode=kill-host", attacker.display()),
            &format!("{}:mode=legal", victim.display()),
            "--games",
            "4",
            "--tc",
            "0",
            "--concurrency",
            "1",
            "--results",
            results.to_str().expect("a UTF-8 path"),
        ],
        &[],
    );
    output.assert_code(0);
    let lines = fs::read_to_string(&results).expect("the results file");
    let games: Vec<&str> = lines.lines().skip(1).collect();
    assert_eq!(games.len(), 4, "{lines}");
    assert!(
        games
            .iter()
            .all(|g| g.contains(r#""termination":"normal""#)),
        "{lines}"
    );
    let mut leftovers = processes_using(&attacker);
    leftovers.extend(processes_using(&victim));
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

/// The page a worker shares with the host for the fast path is the bot's to scribble on, but
/// not to resize (the host would fault reading it) nor to find the descriptor of: a bot that
/// writes a bogus answer there loses by it, with the reason, and the match goes on.
#[test]
fn a_bot_that_scribbles_on_its_page_loses_by_it_and_cannot_resize_it() {
    let dir = TempDir::new("hostile-page");
    let attacker = private_copy(&dir, "attacker_page");
    let victim = private_copy(&dir, "victim_page");
    let results = dir.path().join("results.jsonl");
    let output = tavola_with_env(
        [
            "match",
            "--game",
            "ataxx",
            &format!("{}:mode=page", attacker.display()),
            &format!("{}:mode=legal", victim.display()),
            "--games",
            "2",
            "--tc",
            "0",
            "--concurrency",
            "1",
            "--results",
            results.to_str().expect("a UTF-8 path"),
        ],
        &[],
    );
    output.assert_code(0);
    let lines = fs::read_to_string(&results).expect("the results file");
    let games: Vec<&str> = lines.lines().skip(1).collect();
    assert_eq!(games.len(), 2, "{lines}");
    for game in &games {
        assert!(game.contains(r#""termination":"crash""#), "{game}");
        assert!(
            game.contains("the worker broke the protocol: an answer of kind 77"),
            "{game}"
        );
    }
    let mut leftovers = processes_using(&attacker);
    leftovers.extend(processes_using(&victim));
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

/// Each layer holds on its own where the README says it does: without the namespaces (no
/// unprivileged user namespaces), Landlock's scoping still keeps every signal in; without
/// Landlock (an old kernel), the PID namespace does.
#[test]
fn signals_stay_in_with_either_the_namespaces_or_landlock_alone() {
    for without in ["namespaces", "landlock"] {
        let mut sentinel = Sentinel::start();
        let target = format!(",target={}", sentinel.pid());
        let (output, leftovers) = attack_without(without, "kill-host", &target, &["-t", "0"]);
        assert!(
            output
                .stderr
                .contains(&format!("sandbox layer missing: {without}")),
            "the missing layer is logged\n{output}"
        );
        assert_played_out(&output, &leftovers);
        assert!(
            sentinel.alive(),
            "without {without}: the test's process was signalled"
        );
    }
}

/// No socket without the network namespace (seccomp and Landlock), and no way out without
/// seccomp (the empty network namespace and Landlock's TCP rules).
#[test]
fn no_way_out_with_either_the_namespaces_or_seccomp_alone() {
    for without in ["namespaces", "seccomp"] {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        listener.set_nonblocking(true).expect("non-blocking");
        let port = listener.local_addr().expect("an address").port();
        let (output, leftovers) = attack_without(
            without,
            "network-escape",
            &format!(",port={port}"),
            &["-t", "0"],
        );
        if without == "namespaces" {
            // seccomp alone refuses every socket.
            assert_played_out(&output, &leftovers);
        } else {
            // Sockets (io_uring's too) can be made in the empty namespace, but reach nothing.
            assert!(!output.stdout.contains("connected"), "{output}");
            assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
        }
        match listener.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => panic!("without {without}, the bot reached the test's port: {other:?}"),
        }
    }
}

/// A worker that uses the CPU while its opponent thinks is stopped, at once and from then on
/// between all its turns: it cannot ponder on the opponent's time, nor take the cores from it.
#[test]
fn a_bot_thinks_only_on_its_own_turn() {
    let dir = TempDir::new("hostile-ponder");
    let attacker = private_copy(&dir, "attacker_ponder");
    let white = format!("{}:mode=ponder", attacker.display());
    // The opponent thinks 300 ms a move (fixed, whatever the clock): a bot that ran meanwhile
    // would spend twice the 150 ms the fixture calls pondering.
    let output = tavola_with_env(
        [
            "play",
            "--headless",
            "--quiet",
            "-t",
            "0",
            "--white",
            &white,
            "--black",
            "builtin:movetime=300",
        ],
        &[],
    );
    output.assert_code(0);
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.contains("could not ponder in 3 turns"), "{output}");
    let leftovers = processes_using(&attacker);
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}
