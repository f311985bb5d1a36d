//! A run in shards (`--shard K/N`), played by N processes at once, merged with `tavola merge`:
//! the same results and the same statistics as the run played in one process.

use std::path::Path;

use serde_json::Value;
use tavola_tests::{artifacts, run_with_timeout, tavola, TempDir, TIMEOUT};

/// Deterministic players: a depth-limited built-in bot and a seeded random one.
const RUN: [&str; 14] = [
    "match",
    "--game",
    "ataxx",
    "builtin:depth=1",
    "random",
    "--games",
    "10",
    "--seed",
    "11",
    "--tc",
    "0",
    "--opening-plies",
    "2",
    "--concurrency",
];

fn run_args(results: &Path, extra: &[&str]) -> Vec<String> {
    RUN.iter()
        .map(|s| (*s).to_owned())
        .chain([
            "1".to_owned(),
            "--results".to_owned(),
            results.display().to_string(),
        ])
        .chain(extra.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// The results file's lines as JSON, without what differs between machines: the wall time, and
/// the concurrency the run started with (a merged run has none).
fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let mut value: Value = serde_json::from_str(line).unwrap();
            if let Some(object) = value.as_object_mut() {
                object.remove("duration");
                if let Some(Value::Object(run)) = object.get_mut("tavola_run") {
                    run.remove("concurrency");
                }
            }
            value
        })
        .collect()
}

/// The summary's statistics: everything but the concurrency.
fn statistics(path: &Path) -> Value {
    let mut value: Value = serde_json::from_str(
        &std::fs::read_to_string(path.with_extension("summary.json")).unwrap(),
    )
    .unwrap();
    value.as_object_mut().unwrap().remove("concurrency");
    value
}

#[test]
fn shards_played_at_once_and_merged_equal_the_whole_run() {
    let dir = TempDir::new("shards");
    let single = dir.path().join("single.jsonl");
    tavola(run_args(&single, &[])).assert_code(0);
    // Three shards, three processes at the same time.
    let shards: Vec<_> = (1..=3)
        .map(|k| dir.path().join(format!("s{k}.jsonl")))
        .collect();
    let handles: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let args = run_args(path, &["--shard", &format!("{}/3", i + 1)]);
            std::thread::spawn(move || {
                run_with_timeout(
                    &artifacts().tavola,
                    Some(&artifacts().workdir),
                    args,
                    TIMEOUT,
                )
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap().assert_code(0);
    }
    let merged = dir.path().join("merged.jsonl");
    let mut merge = vec!["merge".to_owned(), merged.display().to_string()];
    // Any order.
    merge.extend(shards.iter().rev().map(|p| p.display().to_string()));
    let output = tavola(&merge);
    output
        .assert_code(0)
        .assert_stdout_contains("Merged 3 shards, 10 games");
    let mut whole = lines(&single);
    let mut parts = lines(&merged);
    // The headers agree; the games too, line by line.
    assert_eq!(whole.remove(0), parts.remove(0));
    assert_eq!(whole, parts);
    assert_eq!(statistics(&single), statistics(&merged));
    // The summary printed is the whole run's.
    let single_text = tavola(["match", "--resume", single.to_str().unwrap()]);
    let elo = |text: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with("Elo"))
            .map(str::to_owned)
    };
    assert_eq!(elo(&single_text.stdout), elo(&output.stdout), "{output}");
}

#[test]
fn merge_refuses_what_is_not_one_whole_run() {
    let dir = TempDir::new("shards-bad");
    let shard = |name: &str, k: u32, seed: &str| {
        let path = dir.path().join(name);
        let mut args = run_args(&path, &["--shard", &format!("{k}/2")]);
        let at = args.iter().position(|a| a == "11").unwrap();
        args[at] = seed.to_owned();
        tavola(&args).assert_code(0);
        path
    };
    let one = shard("one.jsonl", 1, "11");
    let two = shard("two.jsonl", 2, "11");
    let other = shard("other.jsonl", 2, "12");
    let out = |name: &str| dir.path().join(name).display().to_string();
    let path = |p: &Path| p.display().to_string();
    tavola(["merge", &out("a.jsonl"), &path(&one)])
        .assert_one_line_error(1, &["shard 2/2 is missing"]);
    tavola(["merge", &out("b.jsonl"), &path(&one), &path(&other)])
        .assert_one_line_error(1, &["not shards of one run", "seed"]);
    tavola(["merge", &out("c.jsonl"), &path(&one), &path(&one)])
        .assert_one_line_error(1, &["shard 1/2 is given twice"]);
    // A shard stopped half-way is finished with --resume, on its own.
    let text = std::fs::read_to_string(&two).unwrap();
    let cut: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&two, cut.join("\n") + "\n").unwrap();
    tavola(["merge", &out("d.jsonl"), &path(&one), &path(&two)])
        .assert_one_line_error(1, &["lacks", "tavola match --resume"]);
    tavola(["match", "--resume", &path(&two)]).assert_code(0);
    tavola(["merge", &out("e.jsonl"), &path(&one), &path(&two)]).assert_code(0);
    // Shards need a seed of the run.
    let unseeded: Vec<String> = run_args(&dir.path().join("x.jsonl"), &["--shard", "1/2"])
        .into_iter()
        .filter(|a| a != "--seed" && a != "11")
        .collect();
    tavola(&unseeded).assert_one_line_error(1, &["--shard 1/2 needs --seed"]);
    tavola([
        "match", "--game", "ataxx", "random", "random", "--shard", "3/2",
    ])
    .assert_code(2);
}
