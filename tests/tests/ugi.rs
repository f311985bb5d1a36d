//! `tavola ugi` (and `tavola uai --bot P`): scripted dialogues with the real binary, for every
//! game and every kind of player behind the engine, bad input and a failing player included.

use tavola_sdk::games::{ataxx::Ataxx, dama::Dama, gonnect::Gonnect, tablut::Tablut};
use tavola_sdk::{Game, Position};
use tavola_tests::{artifacts, EngineProcess};

/// Checks that `text` is a legal move of `G`'s start position after `moves`.
#[track_caller]
fn assert_legal<G: Game>(moves: &[&str], text: &str) {
    let mut position = G::start(None).unwrap();
    for mv in moves {
        position.play(position.parse_move(mv).unwrap()).unwrap();
    }
    assert!(position.parse_move(text).is_ok(), "{text:?} in {position}");
}

/// The hand-shake, a move from the start, a reply to it, and the queries on the way.
fn dialogue<G: Game>(bot: &str) {
    let path;
    let mut args = vec!["ugi", "--game", G::NAME];
    if !bot.is_empty() {
        path = bot.to_owned();
        args.extend(["--bot", &path]);
    }
    let mut engine = EngineProcess::start(&args);
    engine.send("ugi");
    let hello = engine.until("ugiok");
    assert!(
        hello.iter().any(|l| l.starts_with("id name Tavola")),
        "{hello:?}"
    );
    engine.send("isready");
    engine.until("readyok");
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.send("query p1turn");
    assert_eq!(engine.until("response"), ["response true"]);
    engine.send("query gameover");
    assert_eq!(engine.until("response"), ["response false"]);
    engine.send("go movetime 100");
    let first = engine.bestmove();
    assert_legal::<G>(&[], &first);
    engine.send(&format!("position startpos moves {first}"));
    engine.send("query p1turn");
    assert_eq!(engine.until("response"), ["response false"]);
    engine.send("go p1time 5000 p2time 5000 p1inc 50 p2inc 50");
    let second = engine.bestmove();
    assert_legal::<G>(&[&first], &second);
    engine.send("query result");
    assert_eq!(engine.until("response"), ["response none"]);
    engine.quit();
}

#[test]
fn the_built_in_bot_speaks_ugi_in_every_game() {
    dialogue::<Ataxx>("");
    dialogue::<Tablut>("");
    dialogue::<Gonnect>("");
    dialogue::<Dama>("");
}

#[test]
fn random_and_a_plugin_in_its_worker_speak_ugi() {
    dialogue::<Gonnect>("random");
    let greedy = artifacts().greedy_bot.display().to_string();
    dialogue::<Dama>(&greedy);
    dialogue::<Tablut>(&greedy);
}

#[test]
fn bad_input_gets_one_error_line_and_the_engine_goes_on() {
    let mut engine = EngineProcess::start(&["ugi", "--game", "ataxx"]);
    for (line, error) in [
        ("position fen not-a-position", "invalid ataxx position"),
        ("position startpos moves b6 zz", "move 2 \"zz\""),
        ("go p1time", "a number must follow"),
        ("query colour", "expected gameover"),
        ("frobnicate", "unknown command"),
    ] {
        engine.send(line);
        let said = engine.until("info string error");
        let last = said.last().unwrap();
        assert!(last.contains(error), "{line:?} gave {last:?}");
    }
    engine.send("isready");
    engine.until("readyok");
    // A finished game: x took every o; there is no move to give.
    engine.send("position fen x6/7/7/7/7/7/7 o 0 1");
    engine.send("query gameover");
    assert_eq!(engine.until("response"), ["response true"]);
    engine.send("query result");
    assert_eq!(engine.until("response"), ["response p1win"]);
    engine.send("go movetime 50");
    assert_eq!(engine.bestmove(), "0000");
    engine.quit();
}

#[test]
fn a_failing_player_answers_a_null_move_with_its_reason() {
    let faulty = format!("{}:mode=panic", artifacts().faulty_bot.display());
    let mut engine = EngineProcess::start(&["ugi", "--game", "ataxx", "--bot", &faulty]);
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.send("go movetime 100");
    let said = engine.until("bestmove");
    assert_eq!(said.last().unwrap(), "bestmove 0000");
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string error") && l.contains("panic")),
        "{said:?}"
    );
    engine.quit();
}

#[test]
fn uai_with_another_player() {
    let mut engine = EngineProcess::start(&["uai", "--bot", "random"]);
    engine.send("uai");
    engine.until("uaiok");
    engine.send("uainewgame");
    engine.send("position startpos moves b6");
    // o to move: its clock is wtime.
    engine.send("go wtime 1000 btime 1 winc 0 binc 0");
    let best = engine.bestmove();
    assert_legal::<Ataxx>(&["b6"], &best);
    engine.quit();
}

/// The `info` line's `depth` and `nodes` figures.
fn depth_and_nodes(line: &str) -> (u32, u64) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        let at = words.iter().position(|w| *w == key).unwrap();
        words[at + 1].to_owned()
    };
    (
        after("depth").parse().unwrap(),
        after("nodes").parse().unwrap(),
    )
}

#[test]
fn go_depth_nodes_and_infinite_bind_the_built_in_bot() {
    let mut engine = EngineProcess::start(&["ugi", "--game", "ataxx"]);
    engine.send("uginewgame");
    engine.send("position startpos moves b6");
    // No clock: the depth alone ends the search, however loaded the machine.
    engine.send("go depth 4");
    let said = engine.until("bestmove");
    let infos: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depth_and_nodes(infos.last().unwrap()).0, 4, "{said:?}");
    assert_legal::<Ataxx>(
        &["b6"],
        said.last().unwrap().trim_start_matches("bestmove "),
    );
    // A node budget: the deepest report stays within it.
    engine.send("go nodes 3000");
    let said = engine.until("bestmove");
    for line in said.iter().filter(|l| l.starts_with("info depth")) {
        assert!(depth_and_nodes(line).1 <= 3000, "{line}");
    }
    // `go infinite` answers only once stopped, even when its search has ended (depth 1 ends
    // at once): a `stop` it did not get leaves it waiting.
    engine.send("go depth 1 infinite");
    engine.until("info depth 1");
    engine.send("isready");
    let said = engine.until("readyok");
    assert!(!said.iter().any(|l| l.starts_with("bestmove")), "{said:?}");
    engine.send("stop");
    let best = engine.bestmove();
    assert_legal::<Ataxx>(&["b6"], &best);
    // A host that moves on without `stop` gets its answer first.
    engine.send("go infinite");
    engine.send("position startpos");
    engine.send("isready");
    let said = engine.until("readyok");
    assert!(said.iter().any(|l| l.starts_with("bestmove")), "{said:?}");
    engine.quit();
}
