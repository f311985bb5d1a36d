//! The arena through the real binary: a match between two plugins, its files, and resuming it.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use tavola::record::GameRecord;
use tavola_tests::{artifacts, run_with_timeout, tavola, Output, TempDir, TIMEOUT};

/// Runs `tavola match` random (A) against greedy (B) with `extra` flags.
fn run_match(extra: &[&OsString]) -> Output {
    let artifacts = artifacts();
    let mut args: Vec<OsString> = [
        "match",
        "--game",
        "ataxx",
        "--tc",
        "5+0.05",
        "--concurrency",
        "1",
        "--seed",
        "11",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.push(artifacts.random_bot.clone().into());
    args.push(artifacts.greedy_bot.clone().into());
    args.extend(extra.iter().map(|&a| a.clone()));
    tavola(args)
}

fn os(text: &str) -> OsString {
    text.into()
}

/// The lines of a results file, the header (the run's settings) first.
fn all_json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .collect()
}

/// The games of a results file (its header left out).
fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    let mut lines = all_json_lines(path);
    if lines.first().is_some_and(|l| l.get("tavola_run").is_some()) {
        lines.remove(0);
    }
    lines
}

#[test]
fn greedy_beats_random_and_every_game_is_written() {
    let dir = TempDir::new("arena-match");
    let results = dir.path().join("results.jsonl");
    let pgn = dir.path().join("games.pgn");
    let summary = dir.path().join("summary.json");
    let output = run_match(&[
        &os("--games"),
        &os("20"),
        &os("--results"),
        &results.clone().into(),
        &os("--pgn"),
        &pgn.clone().into(),
        &os("--summary"),
        &summary.clone().into(),
    ]);
    output.assert_code(0).assert_no_panic_on_stdout();

    let lines = json_lines(&results);
    assert_eq!(lines.len(), 20, "{output}");
    let mut indices: Vec<u64> = lines.iter().map(|l| l["index"].as_u64().unwrap()).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..20).collect::<Vec<_>>());
    for line in &lines {
        for key in [
            "pair",
            "white",
            "black",
            "opening",
            "moves",
            "result",
            "termination",
            "reason",
            "plies",
            "duration",
        ] {
            assert!(line.get(key).is_some(), "{key} missing in {line}");
        }
    }

    let records = std::fs::read_to_string(&pgn).unwrap();
    let games = tavola::record::GameRecord::parse_all(&records).unwrap();
    assert_eq!(games.len(), 20);
    assert!(games.iter().all(|g| g.tag("Game") == Some("ataxx")));

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(summary["games"], 20);
    let greedy = &summary["players"][1];
    assert_eq!(greedy["name"], "greedy", "{summary}");
    let score = greedy["score_percent"].as_f64().unwrap();
    assert!(score > 75.0, "greedy scored only {score} %\n{output}");
    let pentanomial: u64 = greedy["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(pentanomial, 10);
    assert!(output.stdout.contains("W/D/L"), "{output}");
    assert!(output.stderr.contains("Game 20/20"), "{output}");
}

#[test]
fn a_resumed_match_ends_with_exactly_the_games_asked_for() {
    let dir = TempDir::new("arena-resume");
    let results = dir.path().join("results.jsonl");
    run_match(&[
        &os("--games"),
        &os("6"),
        &os("--results"),
        &results.clone().into(),
    ])
    .assert_code(0);
    assert_eq!(json_lines(&results).len(), 6);
    // A line cut short, as by a power loss, is skipped and its game played again.
    let mut text = std::fs::read_to_string(&results).unwrap();
    text.push_str("{\"index\":6,\"pa");
    std::fs::write(&results, text).unwrap();

    let summary = dir.path().join("summary.json");
    let output = run_match(&[
        &os("--games"),
        &os("10"),
        &os("--resume"),
        &results.clone().into(),
        &os("--summary"),
        &summary.clone().into(),
    ]);
    output.assert_code(0);
    assert!(output.stderr.contains("(4 to play)"), "{output}");
    assert!(
        output
            .stderr
            .contains("results.jsonl:8: the last line was cut short"),
        "the torn line is reported\n{output}"
    );
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).filter(|l| l.ends_with('}')).collect();
    assert_eq!(lines.len(), 10, "{text}");
    let mut indices: Vec<u64> = lines
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..10).collect::<Vec<_>>());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(summary["games"], 10, "{summary}");

    // Without --resume, the file is not appended to: its games would be counted twice.
    run_match(&[
        &os("--games"),
        &os("10"),
        &os("--results"),
        &results.clone().into(),
    ])
    .assert_one_line_error(1, &["already holds results", "--resume"]);
}

#[test]
fn a_crashing_bot_loses_each_game_and_the_match_goes_on() {
    let artifacts = artifacts();
    let dir = TempDir::new("arena-crash");
    let results = dir.path().join("results.jsonl");
    let mut faulty = artifacts.faulty_bot.clone().into_os_string();
    faulty.push(":mode=abort");
    let output = tavola([
        os("match"),
        os("--game"),
        os("ataxx"),
        os("--games"),
        os("4"),
        os("--concurrency"),
        os("1"),
        faulty,
        artifacts.random_bot.clone().into(),
        os("--results"),
        results.clone().into(),
    ]);
    output.assert_code(0);
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 4, "{output}");
    assert!(
        lines.iter().all(|l| l["termination"] == "crash"),
        "{output}"
    );
    assert!(output.stdout.contains("W/D/L 0/0/4"), "{output}");
}

#[test]
fn more_games_at_once_than_cores_is_refused_unless_forced() {
    let artifacts = artifacts();
    let output = tavola([
        os("match"),
        os("--game"),
        os("ataxx"),
        os("--concurrency"),
        os("100000"),
        artifacts.random_bot.clone().into(),
        artifacts.random_bot.clone().into(),
    ]);
    output.assert_one_line_error(1, &["--concurrency 100000", "--force-concurrency"]);
}

#[test]
fn a_decided_sprt_stops_the_match() {
    let dir = TempDir::new("arena-sprt");
    let summary = dir.path().join("summary.json");
    let output = tavola([
        os("match"),
        os("--game"),
        os("ataxx"),
        os("--games"),
        os("200"),
        os("--seed"),
        os("3"),
        os("--concurrency"),
        os("1"),
        os("--sprt"),
        os("elo0=-5 elo1=5 alpha=0.45 beta=0.45"),
        os("--summary"),
        summary.clone().into(),
        os("random"),
        os("random"),
    ]);
    output.assert_code(0);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let games = summary["games"].as_u64().unwrap();
    assert!(games < 200, "{output}");
    assert_ne!(summary["sprt"]["result"], "undecided", "{summary}");
    assert!(output.stdout.contains("SPRT"), "{output}");
}

#[test]
fn openings_come_from_a_file_and_long_games_are_adjudicated() {
    let dir = TempDir::new("arena-openings");
    let openings = dir.write(
        "openings.txt",
        "# two openings\nx5o/7/7/7/7/7/o5x x 0 1\n\nx5o/7/2-1-2/7/2-1-2/7/o5x x 0 1\n",
    );
    let results = dir.path().join("results.jsonl");
    let args = |openings: &Path| {
        [
            os("match"),
            os("--game"),
            os("ataxx"),
            os("--games"),
            os("4"),
            os("--seed"),
            os("1"),
            os("--max-plies"),
            os("6"),
            os("--openings"),
            openings.into(),
            os("--results"),
            results.clone().into(),
            os("random"),
            os("random"),
        ]
    };
    tavola(args(&openings)).assert_code(0);
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 4);
    let starts: Vec<&str> = lines
        .iter()
        .map(|l| l["opening"].as_str().unwrap())
        .collect();
    assert_eq!(
        starts.iter().filter(|s| s.contains("2-1-2")).count(),
        2,
        "{starts:?}"
    );
    assert!(lines
        .iter()
        .all(|l| l["termination"] == "adjudication" && l["plies"] == 6));

    std::fs::remove_file(&results).unwrap();
    let bad = dir.write("bad.txt", "x5o/7/7/7/7/7/o5x x 0 1\nnot a position\n");
    tavola(args(&bad)).assert_one_line_error(1, &["bad.txt:2"]);
}

/// The words of `line`, split at spaces, as arguments.
fn words(line: &str) -> Vec<OsString> {
    line.split_whitespace().map(OsString::from).collect()
}

/// The faulty bot's library with `:mode=MODE`.
fn faulty(mode: &str) -> OsString {
    let mut spec = artifacts().faulty_bot.clone().into_os_string();
    spec.push(format!(":mode={mode}"));
    spec
}

fn records(path: &Path) -> Vec<GameRecord> {
    GameRecord::parse_all(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn summary_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_tournament_prints_a_crosstable_and_a_rating_list() {
    let artifacts = artifacts();
    let dir = TempDir::new("arena-tournament");
    let results = dir.path().join("results.jsonl");
    let pgn = dir.path().join("games.pgn");
    let summary = dir.path().join("summary.json");
    let mut args = words("tournament --game ataxx --games 2 --seed 4 --concurrency 1 --tc 5+0.05");
    args.extend([
        artifacts.random_bot.clone().into(),
        artifacts.greedy_bot.clone().into(),
        os("random"),
        os("builtin:depth=1"),
        os("--results"),
        results.clone().into(),
        os("--pgn"),
        pgn.clone().into(),
        os("--summary"),
        summary.clone().into(),
    ]);
    let output = tavola(args);
    output.assert_code(0).assert_no_panic_on_stdout();
    assert!(output.stdout.contains("Crosstable"), "{output}");
    assert!(
        output.stdout.contains("Rating list (Bradley-Terry"),
        "{output}"
    );

    // Six encounters of two games each.
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 12, "{output}");
    let mut encounters = std::collections::BTreeMap::new();
    for line in &lines {
        let (w, b) = (
            line["white_player"].as_u64().unwrap(),
            line["black_player"].as_u64().unwrap(),
        );
        *encounters.entry((w.min(b), w.max(b))).or_insert(0) += 1;
    }
    assert_eq!(encounters.len(), 6, "{encounters:?}");
    assert!(encounters.values().all(|&n| n == 2), "{encounters:?}");
    let mut rounds: Vec<usize> = records(&pgn)
        .iter()
        .map(|r| r.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=12).collect::<Vec<_>>());

    let summary = summary_of(&summary);
    assert_eq!(summary["format"], "round-robin");
    assert_eq!(summary["games"], 12);
    let rows = summary["crosstable"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let mut points = 0.0;
    for (i, row) in rows.iter().enumerate() {
        let against = row["against"].as_array().unwrap();
        for (j, cell) in against.iter().enumerate() {
            if i == j {
                assert!(cell.is_null(), "{summary}");
            } else {
                assert_eq!(cell[1], 2, "{summary}");
                points += cell[0].as_f64().unwrap();
            }
        }
    }
    assert_eq!(points, 12.0, "one point per game");
    let ratings = summary["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 4, "{summary}");
    assert!(ratings.iter().all(|r| r["error95"].as_f64().unwrap() > 0.0));

    // A gauntlet: the first player against each of the others only.
    let results = dir.path().join("gauntlet.jsonl");
    let mut args = words("tournament --game ataxx --format gauntlet --games 2 --in-process");
    args.extend([
        artifacts.greedy_bot.clone().into(),
        os("random"),
        artifacts.random_bot.clone().into(),
        os("builtin:depth=1"),
        os("--results"),
        results.clone().into(),
    ]);
    let output = tavola(args);
    output.assert_code(0);
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 6, "{output}");
    assert!(lines
        .iter()
        .all(|l| l["white_player"] == 0 || l["black_player"] == 0));
    assert!(output.stdout.contains("gauntlet"), "{output}");

    // Resumed with more games per encounter, it plays only the new ones.
    let mut args = words("tournament --game ataxx --format gauntlet --games 4 --in-process");
    args.extend([
        artifacts.greedy_bot.clone().into(),
        os("random"),
        artifacts.random_bot.clone().into(),
        os("builtin:depth=1"),
        os("--resume"),
        results.clone().into(),
    ]);
    let output = tavola(args);
    output.assert_code(0);
    assert!(output.stderr.contains("12 games (6 to play)"), "{output}");
    assert_eq!(json_lines(&results).len(), 12);
    // Another line-up is not this run's.
    let mut args = words("tournament --game ataxx --games 4 --in-process random random");
    args.extend([os("--resume"), results.clone().into()]);
    tavola(args).assert_one_line_error(1, &["differ from the resumed run's"]);
}

#[test]
fn a_time_per_move_reaches_every_kind_of_seat() {
    let artifacts = artifacts();
    let dir = TempDir::new("arena-movetime");
    let told = faulty("movetime");
    // The faulty bot in this mode plays legally only when its Context has a time per move.
    for (opponent, isolation) in [
        (os("builtin"), os("--in-process")),
        (os("random"), os("--bot-memory=2048")),
        (artifacts.random_bot.clone().into(), os("--bot-memory=2048")),
        (artifacts.random_bot.clone().into(), os("--in-process")),
    ] {
        let results = dir.path().join("results.jsonl");
        let pgn = dir.path().join("games.pgn");
        let _ = std::fs::remove_file(&results);
        let _ = std::fs::remove_file(&pgn);
        let mut args = words("match --game ataxx --games 2 --movetime 100 --concurrency 1");
        args.extend([
            isolation,
            told.clone(),
            opponent,
            os("--results"),
            results.clone().into(),
            os("--pgn"),
            pgn.clone().into(),
        ]);
        let output = tavola(args);
        output.assert_code(0);
        assert!(output.stderr.contains("tc 0.1 s/move"), "{output}");
        let lines = json_lines(&results);
        assert_eq!(lines.len(), 2, "{output}");
        assert!(
            lines.iter().all(|l| l["termination"] == "normal"),
            "{output}"
        );
        assert!(records(&pgn)
            .iter()
            .all(|r| r.tag("TimeControl") == Some("1/0.1")));
    }

    // Without a time per move, the same bot reports an error.
    let mut args = words("match --game ataxx --games 2 --tc 5");
    args.extend([told, os("random")]);
    let output = tavola(args);
    output.assert_code(0);
    assert!(
        output.stdout.contains("lost by: crash 2 (bot error 2)"),
        "{output}"
    );

    // A bot that thinks past the time per move loses on time, and its worker is stopped.
    let summary = dir.path().join("summary.json");
    let mut args = words("match --game ataxx --games 2 --movetime 100 --concurrency 1");
    args.extend([
        faulty("slow"),
        os("random"),
        os("--summary"),
        summary.clone().into(),
    ]);
    let output = tavola(args);
    output.assert_code(0);
    let summary = summary_of(&summary);
    assert_eq!(summary["time_losses"], 2, "{output}");
    assert_eq!(summary["players"][0]["losses_by"]["time forfeit"], 2);

    tavola(words(
        "match --game ataxx --movetime 100 --tc 5 random random",
    ))
    .assert_code(2);
}

/// Starts `tavola args`, its stdout and stderr going to files in `dir`.
fn spawn(dir: &Path, args: &[OsString]) -> Child {
    let file = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    Command::new(&artifacts().tavola)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(file("stdout.txt"))
        .stderr(file("stderr.txt"))
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds (checked every few milliseconds), failing after [`TIMEOUT`].
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let until = Instant::now() + TIMEOUT;
    while !ready() {
        assert!(Instant::now() < until, "waited in vain for {what}");
        thread::sleep(Duration::from_millis(5));
    }
}

fn finished_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|text| {
            text.lines()
                .filter(|l| l.ends_with('}') && !l.starts_with("{\"tavola_run\""))
                .count()
        })
        .unwrap_or(0)
}

/// The exit status of `child`, killing it (and failing) after [`TIMEOUT`].
fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let until = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the run did not end");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

fn interrupt(child: &Child) {
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
}

#[test]
fn the_first_ctrl_c_finishes_the_games_being_played_and_resume_completes_the_run() {
    let artifacts = artifacts();
    let dir = TempDir::new("arena-interrupt");
    let results = dir.path().join("results.jsonl");
    let pgn = dir.path().join("games.pgn");
    let summary = dir.path().join("summary.json");
    // Each game starts from a random opening that the built-in search screens (about a tenth
    // of a second in a debug build): 120 games last long enough for the interrupt to land
    // among them, and the resumed run may take minutes on a busy machine.
    let args = |file: &str| -> Vec<OsString> {
        let mut args = words(
            "match --game ataxx --games 120 --seed 9 --tc 0 --concurrency 2 --force-concurrency \
             --in-process",
        );
        args.extend([
            artifacts.random_bot.clone().into(),
            os("random"),
            os(file),
            results.clone().into(),
            os("--pgn"),
            pgn.clone().into(),
            os("--summary"),
            summary.clone().into(),
        ]);
        args
    };
    let mut child = spawn(dir.path(), &args("--results"));
    wait_for("three finished games", || finished_lines(&results) >= 3);
    interrupt(&child);
    let status = wait_exit(&mut child);
    let stderr = std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap();
    let stdout = std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Interrupted: finishing the"), "{stderr}");
    let lines = json_lines(&results);
    let finished = lines.len();
    assert!((3..120).contains(&finished), "{finished} games\n{stderr}");
    let written = summary_of(&summary);
    assert_eq!(written["games"], finished as u64, "{written}");
    assert_eq!(written["interrupted"], true);
    assert!(stdout.contains("interrupted"), "{stdout}");
    assert_eq!(records(&pgn).len(), finished);

    let output = run_with_timeout(
        &artifacts.tavola,
        Some(&artifacts.workdir),
        args("--resume"),
        5 * TIMEOUT,
    );
    output.assert_code(0);
    let lines = json_lines(&results);
    let mut indices: Vec<u64> = lines.iter().map(|l| l["index"].as_u64().unwrap()).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..120).collect::<Vec<_>>(), "{output}");
    let written = summary_of(&summary);
    assert_eq!(
        (written["games"].as_u64(), written["interrupted"].as_bool()),
        (Some(120), Some(false))
    );
    assert_eq!(records(&pgn).len(), 120);
}

#[test]
fn a_second_ctrl_c_stops_at_once_and_loses_no_finished_game() {
    let artifacts = artifacts();
    let dir = TempDir::new("arena-interrupt-twice");
    let results = dir.path().join("results.jsonl");
    // Every game lasts its time per move (then a forfeit): games are always being played.
    let args = |file: &str, games: &str| -> Vec<OsString> {
        let mut args = words(&format!(
            "match --game ataxx {games} --seed 2 --movetime 1500 --concurrency 2 \
             --force-concurrency"
        ));
        args.extend([
            faulty("slow"),
            artifacts.random_bot.clone().into(),
            os(file),
            results.clone().into(),
        ]);
        args
    };
    let mut child = spawn(dir.path(), &args("--results", "--games 6"));
    let stderr = || std::fs::read_to_string(dir.path().join("stderr.txt")).unwrap_or_default();
    wait_for("a finished game", || finished_lines(&results) >= 1);
    interrupt(&child);
    wait_for("the first Ctrl-C to be taken", || {
        stderr().contains("Interrupted")
    });
    interrupt(&child);
    let status = wait_exit(&mut child);
    use std::os::unix::process::ExitStatusExt as _;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{}", stderr());
    let finished = finished_lines(&results);
    assert!(finished >= 1);

    assert!(finished < 6, "games were still being played");

    // Every finished game is there; the run goes on from them, to the games it was started with.
    tavola(args("--resume", "")).assert_code(0);
    assert_eq!(json_lines(&results).len(), 6);
}

#[test]
fn without_file_flags_a_run_writes_its_files_in_tavola_runs_and_resumes_from_them() {
    let dir = TempDir::new("arena-default-files");
    let artifacts = artifacts();
    let run = |extra: &[&str]| {
        let mut args: Vec<OsString> = ["match", "--game", "ataxx", "--movetime", "50"]
            .iter()
            .chain(["--concurrency", "1", "--seed", "5", "--in-process"].iter())
            .map(OsString::from)
            .collect();
        args.push(artifacts.random_bot.clone().into());
        args.push(artifacts.random_bot.clone().into());
        args.extend(extra.iter().map(OsString::from));
        tavola_tests::tavola_in(dir.path(), args)
    };
    let output = run(&["--games", "4"]);
    output.assert_code(0);
    let runs = dir.path().join("tavola-runs");
    let mut files: Vec<String> = std::fs::read_dir(&runs)
        .unwrap_or_else(|e| panic!("no {}: {e}\n{output}", runs.display()))
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    let results = runs.join(&files[0]);
    assert!(
        files[0].starts_with("match-ataxx-") && files[0].ends_with(".jsonl"),
        "{files:?}"
    );
    let stem = files[0].trim_end_matches(".jsonl");
    assert_eq!(files[1], format!("{stem}.pgn"));
    assert_eq!(files[2], format!("{stem}.summary.json"));
    assert_eq!(json_lines(&results).len(), 4);
    let resume_hint = format!("--resume tavola-runs/{}", files[0]);
    assert!(output.stderr.contains(&resume_hint), "{output}");
    assert!(
        output.stdout.contains("Files: results tavola-runs/"),
        "{output}"
    );

    // Resumed from the results file alone: the records and the summary follow it.
    let resumed = run(&[
        "--games",
        "6",
        "--resume",
        &format!("tavola-runs/{}", files[0]),
    ]);
    resumed.assert_code(0);
    assert_eq!(json_lines(&results).len(), 6);
    let records = std::fs::read_to_string(runs.join(&files[1])).unwrap();
    assert_eq!(GameRecord::parse_all(&records).unwrap().len(), 6);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(runs.join(&files[2])).unwrap()).unwrap();
    assert_eq!(summary["games"], 6, "{summary}");
    assert_eq!(std::fs::read_dir(&runs).unwrap().count(), 3, "no new files");
}

/// A fast match of two built-in players, in process (the players follow).
const QUICK: &[&str] = &[
    "match",
    "--game",
    "ataxx",
    "--movetime",
    "20",
    "--concurrency",
    "1",
    "--seed",
    "5",
    "--in-process",
];

/// [`QUICK`] in `dir` with `extra` (the players among them).
fn quick(dir: &Path, extra: &[&str]) -> Output {
    tavola_tests::tavola_in(dir, QUICK.iter().chain(extra).map(OsString::from))
}

#[test]
fn unwritable_files_are_refused_before_the_first_game() {
    let dir = TempDir::new("arena-unwritable");
    for flag in ["--pgn", "--summary"] {
        let output = quick(
            dir.path(),
            &[
                "--results",
                "r.jsonl",
                flag,
                "/nonexistent/dir/x",
                "random",
                "random",
            ],
        );
        output.assert_one_line_error(1, &["/nonexistent/dir/x"]);
        assert!(!dir.path().join("r.jsonl").exists(), "{output}");
    }
    // Two of the run's files in one.
    for extra in [
        &["--results", "r.jsonl", "--pgn", "./r.jsonl"][..],
        &["--results", "r.jsonl", "--summary", "r.jsonl"],
        &["--pgn", "x", "--summary", "x"],
    ] {
        let mut args = extra.to_vec();
        args.extend(["random", "random"]);
        let output = quick(dir.path(), &args);
        output.assert_one_line_error(1, &["would be the same file"]);
        assert!(!dir.path().join("r.jsonl").exists(), "{output}");
    }
    // A results file named .pgn keeps its records apart.
    let output = quick(
        dir.path(),
        &["--games", "2", "--results", "g.pgn", "random", "random"],
    );
    output.assert_code(0);
    assert_eq!(json_lines(&dir.path().join("g.pgn")).len(), 2);
    assert_eq!(records(&dir.path().join("g.pgn.pgn")).len(), 2);
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_stops_the_run_at_once() {
    // A million games if the error did not stop the pool: the test would time out.
    let dir = TempDir::new("arena-write-error");
    let output = quick(
        dir.path(),
        &[
            "--games",
            "1000000",
            "--results",
            "r.jsonl",
            "--pgn",
            "/dev/full",
            "random",
            "random",
        ],
    );
    output.assert_code(1);
    assert!(output.stderr.contains("/dev/full"), "{output}");
    assert_eq!(json_lines(&dir.path().join("r.jsonl")).len(), 0);
}

#[test]
fn a_closed_stderr_does_not_stop_the_run() {
    let dir = TempDir::new("arena-closed-stderr");
    let mut child = Command::new(&artifacts().tavola)
        .current_dir(dir.path())
        .args(QUICK)
        .args(["--games", "4", "--results", "r.jsonl", "random", "random"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert!(wait_exit(&mut child).success());
    assert_eq!(json_lines(&dir.path().join("r.jsonl")).len(), 4);
}

#[test]
fn a_refused_run_leaves_no_file_and_no_resume_hint() {
    let dir = TempDir::new("arena-refused");
    for extra in [
        &["random", "human"][..],
        &["--variant", "nonsense", "random", "random"],
        &["random", "no-such-bot.so"],
    ] {
        let output = quick(dir.path(), extra);
        assert_ne!(output.code, Some(0), "{output}");
        assert!(!output.stderr.contains("--resume"), "{output}");
        let runs = dir.path().join("tavola-runs");
        let files = std::fs::read_dir(&runs).map_or(0, Iterator::count);
        assert_eq!(files, 0, "{output}");
    }
}

#[test]
fn out_of_range_settings_are_usage_errors() {
    let dir = TempDir::new("arena-usage");
    for extra in [
        &["--games", "0"][..],
        &["--games", "4000000000"],
        &["--concurrency", "0"],
        &["--max-plies", "0"],
        &["--tc", "0+5"],
        &["--sprt", "elo0=5 elo1=0"],
        &["--sprt", "elo0=0 elo1=5 gamma=1"],
    ] {
        let mut args = extra.to_vec();
        args.extend(["random", "random"]);
        let output = quick(dir.path(), &args);
        output.assert_code(2);
        assert!(!output.stderr.contains("--resume"), "{output}");
        assert!(!dir.path().join("tavola-runs").exists(), "{output}");
    }
    let output = quick(dir.path(), &["--tc", "0+5", "random", "random"]);
    assert!(
        output.stderr.contains("an increment needs a base time"),
        "{output}"
    );
}

#[test]
fn a_resumed_run_keeps_its_own_settings_and_finished_games() {
    let dir = TempDir::new("arena-resume-settings");
    let run = |extra: &[&str]| {
        let mut args = vec!["--results", "r.jsonl", "--pgn", "r.pgn"];
        args.extend(extra);
        quick(dir.path(), &args)
    };
    let first = run(&[
        "--games",
        "6",
        "--max-plies",
        "30",
        "random",
        "builtin:depth=1",
    ]);
    first.assert_code(0);
    let header = &all_json_lines(&dir.path().join("r.jsonl"))[0]["tavola_run"];
    assert_eq!(header["games"], 6, "{header}");
    assert_eq!(header["players"][1], "builtin:depth=1", "{header}");
    assert_eq!(header["seed"], 5, "{header}");

    // Resumed with `extra` flags, the same players.
    let resume = |extra: &[&str]| {
        let mut args = extra.to_vec();
        args.extend(["--resume", "r.jsonl", "random", "builtin:depth=1"]);
        run(&args)
    };
    // Fewer games than the run has: refused, nothing deleted.
    let fewer = resume(&["--games", "4"]);
    fewer.assert_one_line_error(1, &["--games 4", "6"]);
    assert_eq!(records(&dir.path().join("r.pgn")).len(), 6);
    // Other settings or the players swapped: refused.
    let plies = resume(&["--max-plies", "40"]);
    plies.assert_one_line_error(1, &["--max-plies 40", "30"]);
    let swapped = run(&["--resume", "r.jsonl", "builtin:depth=1", "random"]);
    swapped.assert_one_line_error(1, &["same order"]);
    // Nothing given again: the run's own settings, so nothing left to play and nothing lost.
    let again = resume(&[]);
    again.assert_code(0);
    assert!(again.stderr.contains("6 games (0 to play)"), "{again}");
    assert_eq!(json_lines(&dir.path().join("r.jsonl")).len(), 6);
    assert_eq!(records(&dir.path().join("r.pgn")).len(), 6);
    // More games: the run grows, with its stored max plies.
    let more = resume(&["--games", "8"]);
    more.assert_code(0);
    let lines = json_lines(&dir.path().join("r.jsonl"));
    assert_eq!(lines.len(), 8);
    assert!(
        lines.iter().all(|l| l["plies"].as_u64() <= Some(30)),
        "{lines:?}"
    );
    // `--resume FILE` alone, as the run's first line suggests: its game and players too. A
    // match cannot continue a tournament's run.
    let alone = |args: &str| {
        tavola_tests::tavola_in(
            dir.path(),
            words(&format!("{args} --in-process --concurrency 1")),
        )
    };
    let grown = alone("match --resume r.jsonl --pgn r.pgn --games 10");
    grown.assert_code(0);
    assert!(grown.stderr.contains("10 games (2 to play)"), "{grown}");
    assert!(
        grown.stdout.contains("builtin (builtin:depth=1)"),
        "{grown}"
    );
    assert_eq!(json_lines(&dir.path().join("r.jsonl")).len(), 10);
    let tournament =
        alone("tournament --game ataxx --games 2 --results t.jsonl random random random");
    tournament.assert_code(0);
    alone("match --resume t.jsonl").assert_one_line_error(1, &["t.jsonl", "tavola tournament"]);
    let resumed = alone("tournament --resume t.jsonl --games 4");
    resumed.assert_code(0);
    assert!(resumed.stderr.contains("12 games (6 to play)"), "{resumed}");
    alone("match --resume nothing.jsonl").assert_one_line_error(1, &["nothing.jsonl"]);
    // A results file of an older version, without settings: fewer games are still refused
    // rather than leaving finished games (and their records) out.
    let results = dir.path().join("r.jsonl");
    let text = std::fs::read_to_string(&results).unwrap();
    std::fs::write(&results, text.split_once('\n').unwrap().1).unwrap();
    let old = resume(&["--games", "4"]);
    old.assert_one_line_error(1, &["--games 4", "finished game"]);
    alone("match --resume r.jsonl").assert_one_line_error(1, &["r.jsonl", "--game"]);
    assert_eq!(records(&dir.path().join("r.pgn")).len(), 10);
    // A file that is not there is not a fresh run.
    let missing = run(&["--resume", "nothing.jsonl", "random", "random"]);
    missing.assert_one_line_error(1, &["nothing.jsonl"]);
    assert!(!dir.path().join("nothing.jsonl").exists());
}

#[test]
fn a_results_line_that_does_not_replay_is_refused_and_nothing_is_lost() {
    let dir = TempDir::new("arena-resume-checked");
    quick(
        dir.path(),
        &["--games", "2", "--results", "r.jsonl", "random", "random"],
    )
    .assert_code(0);
    let results = dir.path().join("r.jsonl");
    let pgn = dir.path().join("r.pgn");
    let records_before = std::fs::read(&pgn).unwrap();
    let original = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    assert_eq!(lines.len(), 3, "the settings and two games\n{original}");
    let resume = || {
        tavola_tests::tavola_in(
            dir.path(),
            words("match --resume r.jsonl --in-process --concurrency 1"),
        )
    };
    // As it was written: it replays, and there is nothing left to play.
    let again = resume();
    again.assert_code(0);
    assert!(again.stderr.contains("2 games (0 to play)"), "{again}");
    assert_eq!(std::fs::read_to_string(&results).unwrap(), original);

    // Line 3 (the second game) edited, `edit` given its JSON; a torn line after it, as a kill
    // leaves, which a refusal must not cut either.
    let refused = |edit: &dyn Fn(&mut serde_json::Value), needles: &[&str]| {
        let mut game: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
        edit(&mut game);
        let text = format!("{}\n{}\n{game}\n{{\"index\":2,\"pa", lines[0], lines[1]);
        std::fs::write(&results, &text).unwrap();
        resume().assert_one_line_error(1, needles);
        assert_eq!(std::fs::read_to_string(&results).unwrap(), text);
        assert_eq!(std::fs::read(&pgn).unwrap(), records_before);
    };
    refused(
        &|game| game["result"] = "banana".into(),
        &["r.jsonl:3: result \"banana\" is not 1-0, 0-1 or 1/2-1/2"],
    );
    let moves: Vec<String> = serde_json::from_str::<serde_json::Value>(lines[2]).unwrap()["moves"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let last = moves.len();
    refused(
        &|game| {
            let mut edited = moves.clone();
            edited[last - 1] = "zz".to_owned();
            game["moves"] = edited.join(" ").into();
        },
        &[&format!(
            "r.jsonl:3: move {last} \"zz\" is not a move of this position"
        )],
    );
    refused(
        &|game| game["plies"] = (last + 1).into(),
        &["r.jsonl:3: plies", "moves played"],
    );
    refused(
        &|game| game["white_player"] = 7.into(),
        &["r.jsonl:3: white_player 7 is not one of the run's 2 players"],
    );
}

#[test]
fn a_worker_plays_its_whole_match_with_a_fresh_player_each_game() {
    let dir = TempDir::new("arena-worker-kept");
    let results = dir.path().join("results.jsonl");
    let mut args = words("match --game ataxx --games 4 --tc 0 --concurrency 1 --seed 3");
    args.extend([faulty("count"), artifacts().random_bot.clone().into()]);
    args.extend([os("--results"), results.clone().into()]);
    let output = tavola(args);
    output.assert_code(0);
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 4, "{output}");
    assert!(
        lines.iter().all(|l| l["termination"] == "normal"),
        "{output}"
    );
    // One process made the player of every game (the name was asked of another, first).
    for made in 1..=4 {
        assert!(
            output
                .stderr
                .contains(&format!("faulty-bot player {made} of this process")),
            "no player {made} in one worker\n{output}"
        );
    }
    assert!(
        !output.stderr.contains("player 5 of this process"),
        "{output}"
    );
}

#[test]
fn with_affinity_each_game_and_its_workers_keep_to_one_cpu_and_play_the_same_games() {
    let dir = TempDir::new("arena-affinity");
    let cores = thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let concurrency = cores.min(2).to_string();
    let run = |name: &str, extra: &[&str]| {
        let results = dir.path().join(name);
        let mut args = words("match --game ataxx --games 6 --tc 0 --seed 5 --concurrency");
        args.push(os(&concurrency));
        args.extend(extra.iter().map(|&e| os(e)));
        args.extend([faulty("cpus"), artifacts().random_bot.clone().into()]);
        args.extend([os("--results"), results.clone().into()]);
        let output = tavola(args);
        output.assert_code(0);
        let games: Vec<_> = json_lines(&results)
            .into_iter()
            .map(|l| (l["index"].clone(), l["moves"].clone(), l["result"].clone()))
            .collect();
        assert_eq!(games.len(), 6, "{output}");
        (games, output)
    };
    let (mut pinned, output) = run("pinned.jsonl", &["--affinity"]);
    assert!(
        output.stderr.contains("faulty-bot may use 1 CPUs"),
        "no pinned game's worker kept to one CPU\n{output}"
    );
    // The players of the games (not the one asked its name before the match) kept to one.
    let games_part = output
        .stderr
        .split_once("Match:")
        .map_or("", |(_, rest)| rest);
    if cores > 1 {
        assert!(
            !games_part.contains(&format!("faulty-bot may use {cores} CPUs")),
            "{output}"
        );
    }
    let (mut free, output) = run("free.jsonl", &[]);
    if cores > 1 {
        assert!(
            output
                .stderr
                .contains(&format!("faulty-bot may use {cores} CPUs")),
            "{output}"
        );
    }
    // The same games, whatever CPU they ran on (in the order they were scheduled).
    pinned.sort_by_key(|g| g.0.as_u64());
    free.sort_by_key(|g| g.0.as_u64());
    assert_eq!(pinned, free);
}

#[test]
fn a_hung_in_process_bot_loses_on_time_and_the_match_goes_on() {
    // Asked on the game's own thread, the bot never comes back: the timer ends the game, and
    // another thread plays the next one.
    let dir = TempDir::new("arena-hung-in-process");
    let results = dir.path().join("results.jsonl");
    let mut args =
        words("match --game ataxx --games 2 --tc 1+0 --concurrency 1 --seed 3 --in-process");
    args.extend([faulty("hang"), artifacts().random_bot.clone().into()]);
    args.extend([os("--results"), results.clone().into()]);
    let output = tavola(args);
    output.assert_code(0);
    let lines = json_lines(&results);
    assert_eq!(lines.len(), 2, "{output}");
    for line in &lines {
        assert_eq!(line["termination"], "time forfeit", "{output}");
        let faulty_white = line["white_player"] == 0;
        let expected = if faulty_white { "0-1" } else { "1-0" };
        assert_eq!(line["result"], expected, "{output}");
    }
}

#[test]
fn training_positions_are_written_for_games_that_ended_by_the_rules() {
    use tavola::arena::positions::parse_line;
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::{Game, Position};
    let dir = TempDir::new("arena-positions");
    let positions = dir.path().join("positions.txt");
    let results = dir.path().join("results.jsonl");
    let output = tavola([
        os("match"),
        os("--game"),
        os("ataxx"),
        os("builtin:depth=2"),
        os("builtin:depth=1"),
        os("--games"),
        os("2"),
        os("--tc"),
        os("0"),
        os("--seed"),
        os("4"),
        os("--results"),
        results.clone().into(),
        os("--positions"),
        positions.clone().into(),
    ]);
    output.assert_code(0);
    let games = json_lines(&results);
    assert!(
        games.iter().all(|g| g["termination"] == "normal"),
        "{games:?}"
    );
    let text = std::fs::read_to_string(&positions).unwrap();
    let plies: u64 = games.iter().map(|g| g["plies"].as_u64().unwrap()).sum();
    let lines: Vec<_> = text.lines().collect();
    // Every move of a built-in bot is scored but those scored as forced wins or losses.
    assert!(
        !lines.is_empty() && lines.len() as u64 <= plies,
        "{} of {plies}",
        lines.len()
    );
    for line in lines {
        let (position, score, result) = parse_line(line).unwrap();
        let position = Ataxx::parse_position(position, None).unwrap();
        assert!(!position.is_game_over(), "{line}");
        assert!(score.abs() < 100_000, "{line}");
        assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
    }
}
