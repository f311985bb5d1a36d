//! `tavola uai`: a scripted UAI dialogue with the real binary, line by line, including `isready`
//! and `stop` while it thinks on `go infinite`, bad input, and a forced pass.

use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::{Game, Position};
use tavola_tests::EngineProcess;

#[test]
fn a_uai_dialogue() {
    let mut engine = EngineProcess::start(&["uai"]);

    engine.send("uai");
    let hello = engine.until("uaiok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")), "{hello:?}");
    assert!(
        hello.iter().any(|l| l.starts_with("id author ")),
        "{hello:?}"
    );
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    engine.send("isready");
    engine.until("readyok");

    // A fixed-depth search after a few moves: x (player one) moved b6, o answered f6.
    engine.send("setoption name Hash value 8");
    engine.send("setoption name Threads value 1");
    engine.send("uainewgame");
    engine.send("position startpos moves b6 f6");
    engine.send("go depth 3");
    let lines = engine.until("bestmove ");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for info in &infos {
        for word in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(word), "{info} lacks {word:?}");
        }
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let mut position = Ataxx::start(None).unwrap();
    for mv in ["b6", "f6"] {
        position.play(position.parse_move(mv).unwrap()).unwrap();
    }
    assert!(
        position.parse_move(best).is_ok(),
        "bestmove {best} is illegal"
    );
    let pv = infos[2].split(" pv ").nth(1).unwrap();
    assert_eq!(pv.split_whitespace().next(), Some(best), "{}", infos[2]);

    // go infinite thinks until stop, answering isready meanwhile.
    engine.send("position fen x5o/7/7/7/7/7/o5x x 0 1");
    engine.send("go infinite");
    engine.until("info depth 2 ");
    engine.send("isready");
    let meanwhile = engine.until("readyok");
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("bestmove")),
        "{meanwhile:?}"
    );
    engine.send("stop");
    let best = engine.bestmove();
    let start = Ataxx::start(None).unwrap();
    assert!(start.parse_move(&best).is_ok(), "{best}");

    // Bad input: one error line each, and the engine goes on.
    for bad in [
        "position fen x5o/7/7 banana",
        "position startpos moves a4",
        "go depth many",
        "setoption name Hash value -3",
        "fly",
    ] {
        engine.send(bad);
        let lines = engine.until("info string error: ");
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    engine.send("isready");
    engine.until("readyok");

    // A side that cannot move passes.
    engine.send("position fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    engine.send("go depth 2");
    assert_eq!(engine.bestmove(), "0000");

    // A clock: x's is btime.
    engine.send("position startpos moves f2");
    engine.send("go wtime 300 btime 100000 winc 100 binc 100");
    let best = engine.bestmove();
    let mut position = Ataxx::start(None).unwrap();
    position.play(position.parse_move("f2").unwrap()).unwrap();
    assert!(position.parse_move(&best).is_ok(), "{best}");

    engine.quit();
}
