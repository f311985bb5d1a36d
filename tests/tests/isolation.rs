//! Bots in worker processes (the default): whatever a bot does — crash, hang, exit, eat memory,
//! print, fork, open a socket — it loses with the true reason, the host exits 0, and no process
//! is left behind.
//!
//! Each test plays a private copy of the faulty library, so that leftover processes can be found
//! by the copy's path even while other tests run.

use std::path::Path;

use tavola_sdk::Position as _;
use tavola_tests::{artifacts, private_copy, processes_using, tavola, Output, TempDir};

/// Plays the faulty bot (White, `mode`) against the random player with `extra` options.
fn game(mode: &str, extra: &[&str]) -> (Output, Vec<String>) {
    let dir = TempDir::new(&format!("isolation-{mode}"));
    let library = private_copy(&dir, mode);
    let white = format!("{}:mode={mode}", library.display());
    let mut args = vec!["play", "--headless", "--quiet", "--seed", "1"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--white", &white, "--black", "random"]);
    let output = tavola(args);
    (output, processes_using(&library))
}

#[track_caller]
fn assert_lost(mode: &str, extra: &[&str], termination: &str, reason: &str) {
    let (output, leftovers) = game(mode, extra);
    output
        .assert_code(0)
        .assert_stdout_contains(&format!("Termination: {termination}\n"));
    let result = output.stdout_line("Result:").unwrap_or_default();
    assert!(result.starts_with("0-1 Black wins"), "{output}");
    assert!(
        result.contains(reason),
        "{result:?} lacks {reason:?}\n{output}"
    );
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_segfault_is_a_crash_with_its_signal() {
    assert_lost("segfault", &[], "crash", "SIGSEGV");
}

#[test]
fn an_abort_is_a_crash_with_its_signal() {
    assert_lost("abort", &[], "crash", "SIGABRT");
}

#[test]
fn a_stack_overflow_is_a_crash() {
    assert_lost("stack-overflow", &[], "crash", "signal");
}

#[test]
fn calling_exit_is_a_crash_with_its_code() {
    assert_lost("exit", &[], "crash", "exited with code 7");
}

#[test]
fn an_endless_loop_loses_on_time_and_is_killed() {
    assert_lost("hang", &["-t", "1"], "time forfeit", "ran out of time");
}

#[test]
fn unbounded_allocation_hits_the_memory_limit_and_says_so() {
    // With 256 MiB of address space the allocation fails and the bot dies (Rust aborts on
    // allocation failure); the host tells that from any other abort.
    assert_lost(
        "alloc",
        &["-t", "0", "--bot-memory", "256"],
        "crash",
        "exceeded its memory limit of 256 MiB",
    );
}

#[test]
fn printing_never_reaches_the_protocol_or_our_stdout() {
    let (output, leftovers) = game("print", &[]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal\n");
    assert!(!output.stdout.contains("chatters"), "{output}");
    // Its log records reach the host's log at their own level (warn shows by default).
    assert!(
        output
            .stderr
            .contains("WARN  bot::faulty_bot] faulty-bot warns through the log"),
        "{output}"
    );
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_bot_cannot_start_processes() {
    assert_lost("fork", &[], "bot error", "fork refused");
}

#[test]
fn a_bot_cannot_open_network_sockets() {
    assert_lost("network", &[], "bot error", "network refused");
}

#[test]
fn a_bot_writes_only_in_its_scratch_folder() {
    assert_lost("write", &[], "bot error", "write refused");
}

#[test]
fn a_slow_start_past_the_startup_timeout_is_refused() {
    let (output, leftovers) = game("slow-start", &["--bot-startup", "1"]);
    output.assert_one_line_error(3, &["did not start within 1 s"]);
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
}

#[test]
fn a_slow_start_within_the_startup_timeout_plays() {
    let dir = TempDir::new("isolation-slow-ok");
    let library = private_copy(&dir, "slow-start");
    let white = format!("{}:mode=slow-start,delay=1", library.display());
    let output = tavola([
        "play",
        "--headless",
        "--quiet",
        "--seed",
        "1",
        "--white",
        &white,
        "--black",
        "random",
    ]);
    output
        .assert_code(0)
        .assert_stdout_contains("Termination: normal\n");
}

#[test]
fn in_process_the_catchable_faults_end_the_same_way() {
    for (mode, termination) in [
        ("panic", "panic"),
        ("garbage", "unparsable move"),
        ("illegal", "illegal move"),
        ("error", "bot error"),
    ] {
        let white = format!("{}:mode={mode}", artifacts().faulty_bot.display());
        let output = tavola([
            "play",
            "--headless",
            "--quiet",
            "--in-process",
            "--white",
            &white,
            "--black",
            "random",
        ]);
        output
            .assert_code(0)
            .assert_stdout_contains(&format!("Termination: {termination}\n"));
        assert!(output.stdout.contains("in-process"), "{output}");
    }
}

#[test]
fn after_a_crash_the_next_worker_plays_normally() {
    use tavola::seat::worker::{WorkerBrain, WorkerOptions};
    use tavola::seat::{clocks, Brain, Control, Request, SeatFailure};
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::{Color, Game};

    let options = WorkerOptions {
        program: artifacts().tavola.clone(),
        ..WorkerOptions::new().expect("the test knows its own path")
    };
    let start = Ataxx::start(None).expect("the default variant exists");
    let request = || {
        Request::<Ataxx>::new(
            start.to_string(),
            Vec::new(),
            start.clone(),
            clocks(Some(10_000), Some(10_000), 0),
        )
    };
    let spawn = |library: &Path, mode: &[(String, String)]| {
        WorkerBrain::spawn(
            library,
            &options,
            "ataxx",
            "standard",
            Color::White,
            1,
            mode,
        )
        .expect("the worker starts")
        .0
    };
    let segfault = [("mode".to_owned(), "segfault".to_owned())];
    let mut crashing = spawn(&artifacts().faulty_bot, &segfault);
    let answer = Brain::<Ataxx>::choose(&mut crashing, &request(), &Control::default());
    assert!(
        matches!(&answer, Err(SeatFailure::Crash(why)) if why.contains("SIGSEGV")),
        "{answer:?}"
    );
    // The crashed worker stays crashed, and says so.
    let again = Brain::<Ataxx>::choose(&mut crashing, &request(), &Control::default());
    assert!(matches!(again, Err(SeatFailure::Crash(_))), "{again:?}");
    drop(crashing);
    let mut healthy = spawn(&artifacts().greedy_bot, &[]);
    let answer = Brain::<Ataxx>::choose(&mut healthy, &request(), &Control::default());
    let text = answer.expect("the healthy bot answers");
    assert!(start.parse_move(&text).is_ok(), "{text}");
}

#[test]
fn ctrl_c_of_the_host_leaves_no_process_behind() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = TempDir::new("isolation-ctrl-c");
    let library = private_copy(&dir, "fork-hang");
    let white = format!("{}:mode=fork-hang", library.display());
    let mut host = Command::new(&artifacts().tavola)
        .args([
            "play",
            "--headless",
            "--quiet",
            "-t",
            "60",
            "--white",
            &white,
        ])
        .args(["--black", "random"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the host starts");
    // Wait until the worker runs and has had time to try its fork and start hanging (a fork the
    // sandbox lets through would show as a second process), then press Ctrl-C.
    let until = Instant::now() + Duration::from_secs(20);
    while processes_using(&library).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !processes_using(&library).is_empty(),
        "the worker never started"
    );
    std::thread::sleep(Duration::from_millis(300));
    let pid = i32::try_from(host.id()).expect("pids fit in i32");
    // SAFETY: sending SIGINT to the child we started.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let status = host.wait().expect("the host exits");
    assert!(
        !status.success(),
        "the host should die of the Ctrl-C: {status:?}"
    );
    let until = Instant::now() + Duration::from_secs(5);
    while !processes_using(&library).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_using(&library),
        Vec::<String>::new(),
        "processes left behind"
    );
}
