//! The arena through the real binary: a match between two plugins, its files, and resuming it.

use std::ffi::OsString;
use std::path::Path;

use tavola_tests::{artifacts, tavola, Output, TempDir};

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

fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .collect()
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
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.ends_with('}')).collect();
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
