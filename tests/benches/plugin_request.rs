//! The cost of one move request to a plugin, amortised over a whole game.
//!
//! A recorded random game of Ataxx is replayed request by request (every ply, both colours), in
//! several ways: the host's own random player called directly (no ABI); the random *plugin* called
//! through the ABI (text in, the plugin's position cache, text out), and by move codes
//! (`abi_typed`); the same plugin in a worker process, asked in notation (JSON lines over pipes)
//! and as the arena asks it (`worker_typed`: by codes, through the page both map, after the
//! game's first request); the worker's start is timed on its own, in
//! `worker/spawn_and_new_player`; and the in-process plugin behind a seat (its own thread, as the
//! referee uses it). Throughput is in requests, so criterion reports requests per second; the
//! differences between the lines are the prices of the boundaries.
//!
//! The same game is asked of outside engines (`tavola ugi` and `tavola uai` with the random
//! player behind them), and a random Tablut game of a worker, a UGI engine and a challenge player:
//! the round trips of every seat kind, side by side.
//!
//! Run with `cargo bench -p tavola-tests --bench plugin_request` (it builds the plugins first).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola::seat::challenge::ChallengeBrain;
use tavola::seat::engine::{EngineBrain, Protocol};
use tavola::seat::plugin::{Library, PluginBrain};
use tavola::seat::random::RandomBrain;
use tavola::seat::worker::{WorkerBrain, WorkerOptions};
use tavola::seat::{clocks, Brain, Control, History, Request, Seat, Wait};
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Color, Game, Position};
use tavola_tests::artifacts;

/// The moves before each ply of a game, with the position they lead to.
type Recorded<G> = Vec<(Vec<<G as Game>::Move>, <G as Game>::Position)>;

/// A whole random game: every position before a move, with the moves that led to it.
fn recorded_game(seed: u64) -> Recorded<Ataxx> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = Ataxx::start(None).expect("the default variant exists");
    let mut moves = Vec::new();
    let mut plies = Vec::new();
    while !position.is_game_over() {
        plies.push((moves.clone(), position.clone()));
        let mv = *position.legal_moves().choose(&mut rng).expect("not over");
        position.play_unchecked(mv);
        moves.push(mv);
    }
    plies
}

/// The request before one ply of a recorded game; the requests of one game share `history`, as
/// the referee's do.
fn request<G: Game>(
    start: &str,
    moves: &[G::Move],
    position: &G::Position,
    history: History,
) -> Request<G> {
    Request {
        history,
        ..Request::new(
            start.to_owned(),
            moves.to_vec(),
            position.clone(),
            clocks(Some(60_000), Some(60_000), 0),
        )
    }
}

fn plugin_request(c: &mut Criterion) {
    let library = Library::load(&artifacts().random_bot).expect("the random plugin loads");
    let start = Ataxx::start(None)
        .expect("the default variant exists")
        .to_string();
    let game = recorded_game(7);
    // One game's requests: a player made for the game sees them extend each other.
    let history = History::fresh();
    let mut group = c.benchmark_group("ataxx_game_requests");
    group.throughput(Throughput::Elements(game.len() as u64));

    let control = Control::default();
    group.bench_function("direct", |b| {
        b.iter(|| {
            let mut players = [RandomBrain::<Ataxx>::new(1), RandomBrain::<Ataxx>::new(2)];
            for (moves, position) in &game {
                let player = &mut players[position.side_to_move().index()];
                black_box(player.choose(&request(&start, moves, position, history), &control)).ok();
            }
        });
    });

    let player = |color: Color| {
        let box_ = library
            .new_player("ataxx", "standard", color, 1, &[])
            .expect("the random plugin plays ataxx");
        PluginBrain::new(box_)
    };
    group.bench_function("abi", |b| {
        b.iter(|| {
            // New players per game, as the host makes them: the first request fills the cache.
            let mut players = [player(Color::White), player(Color::Black)];
            for (moves, position) in &game {
                let brain: &mut dyn Brain<Ataxx> = &mut players[position.side_to_move().index()];
                black_box(brain.choose(&request(&start, moves, position, history), &control)).ok();
            }
        });
    });

    // The typed path, as the arena asks: move codes in, a move code out.
    group.bench_function("abi_typed", |b| {
        b.iter(|| {
            let mut players = [player(Color::White), player(Color::Black)];
            for (moves, position) in &game {
                let brain: &mut dyn Brain<Ataxx> = &mut players[position.side_to_move().index()];
                let asked = request(&start, moves, position, history);
                black_box(brain.choose_typed(&asked, &control)).ok();
            }
        });
    });

    let worker_options = WorkerOptions {
        program: artifacts().tavola.clone(),
        ..WorkerOptions::new().expect("the bench knows its own path")
    };
    let worker = |color: Color| {
        WorkerBrain::spawn(
            &artifacts().random_bot,
            &worker_options,
            "ataxx",
            "standard",
            color,
            1,
            &[],
        )
        .expect("the random plugin starts in a worker")
        .0
    };
    group.bench_function("worker", |b| {
        b.iter_batched(
            || [worker(Color::White), worker(Color::Black)],
            |mut players| {
                for (moves, position) in &game {
                    let brain: &mut dyn Brain<Ataxx> =
                        &mut players[position.side_to_move().index()];
                    black_box(brain.choose(&request(&start, moves, position, history), &control))
                        .ok();
                }
                players
            },
            BatchSize::PerIteration,
        );
    });

    // As the arena asks a worker: by move codes, through the shared page after the game's
    // first request.
    group.bench_function("worker_typed", |b| {
        b.iter_batched(
            || [worker(Color::White), worker(Color::Black)],
            |mut players| {
                let history = History::fresh();
                for (moves, position) in &game {
                    let brain: &mut dyn Brain<Ataxx> =
                        &mut players[position.side_to_move().index()];
                    let asked = request(&start, moves, position, history);
                    black_box(brain.choose_typed(&asked, &control)).ok();
                }
                players
            },
            BatchSize::PerIteration,
        );
    });

    // Outside engines: Tavola's own random player behind `tavola ugi` and `tavola uai`.
    for (label, protocol, args) in [
        (
            "ugi_engine",
            Protocol::Ugi,
            &["ugi", "--game", "ataxx", "--bot", "random"][..],
        ),
        ("uai_engine", Protocol::Uai, &["uai", "--bot", "random"][..]),
    ] {
        let command: Vec<String> = std::iter::once(artifacts().tavola.display().to_string())
            .chain(args.iter().map(|a| (*a).to_owned()))
            .collect();
        let engine = || {
            EngineBrain::spawn(protocol, &command, &[], &worker_options, Color::White)
                .expect("tavola starts as an engine")
        };
        group.bench_function(label, |b| {
            b.iter_batched(
                || [engine(), engine()],
                |mut players| {
                    for (moves, position) in &game {
                        let brain: &mut dyn Brain<Ataxx> =
                            &mut players[position.side_to_move().index()];
                        black_box(
                            brain.choose(&request(&start, moves, position, history), &control),
                        )
                        .ok();
                    }
                    players
                },
                BatchSize::PerIteration,
            );
        });
    }

    group.bench_function("seat", |b| {
        b.iter(|| {
            let mut seats =
                Color::ALL.map(|color| Seat::<Ataxx>::new("random", Box::new(player(color))));
            for (moves, position) in &game {
                let seat = &mut seats[position.side_to_move().index()];
                seat.request(request(&start, moves, position, history));
                assert!(matches!(
                    seat.wait(None, std::time::Duration::ZERO),
                    Wait::Answered(Ok(_))
                ));
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("worker");
    group.sample_size(20);
    group.bench_function("spawn_and_new_player", |b| {
        b.iter(|| worker(Color::White));
    });
    group.finish();
}

/// Tablut, where the challenge protocol plays: a worker, a UGI engine and a challenge player
/// (`tavola challenge --bot random`, over TCP in its own network namespace), each asked every
/// ply of a recorded game. The challenge player answers its own moves; the next request's state
/// is the recorded game's, which it takes as given.
fn tablut_request(c: &mut Criterion) {
    let start = Tablut::start(None).expect("the default variant exists");
    let start_text = start.to_string();
    let mut rng = StdRng::seed_from_u64(3);
    let mut position = start.clone();
    let mut moves = Vec::new();
    let mut game: Recorded<Tablut> = Vec::new();
    while !position.is_game_over() && game.len() < 60 {
        game.push((moves.clone(), position.clone()));
        let mv = *position.legal_moves().choose(&mut rng).expect("not over");
        position.play_unchecked(mv);
        moves.push(mv);
    }
    let options = WorkerOptions {
        program: artifacts().tavola.clone(),
        ..WorkerOptions::new().expect("the bench knows its own path")
    };
    let control = Control::default();
    let tavola = artifacts().tavola.display().to_string();
    let history = History::fresh();
    let request = |moves: &[<Tablut as Game>::Move], position: &<Tablut as Game>::Position| {
        request::<Tablut>(&start_text, moves, position, history)
    };
    let mut group = c.benchmark_group("tablut_game_requests");
    group.throughput(Throughput::Elements(game.len() as u64));
    group.sample_size(20);
    let mut run = |label: &str, make: &dyn Fn(Color) -> Box<dyn Brain<Tablut>>| {
        group.bench_function(label, |b| {
            b.iter_batched(
                || Color::ALL.map(make),
                |mut players| {
                    for (moves, position) in &game {
                        let brain = &mut players[position.side_to_move().index()];
                        black_box(brain.choose(&request(moves, position), &control)).ok();
                    }
                    players
                },
                BatchSize::PerIteration,
            );
        });
    };
    run("worker", &|color| {
        let (brain, _) = WorkerBrain::spawn(
            &artifacts().random_bot,
            &options,
            "tablut",
            "ashton",
            color,
            1,
            &[],
        )
        .expect("the random plugin starts in a worker");
        Box::new(brain)
    });
    let ugi: Vec<String> = [
        tavola.as_str(),
        "ugi",
        "--game",
        "tablut",
        "--bot",
        "random",
    ]
    .map(str::to_owned)
    .to_vec();
    run("ugi_engine", &|_| {
        Box::new(
            EngineBrain::spawn(Protocol::Ugi, &ugi, &[], &options, Color::White)
                .expect("tavola starts as an engine"),
        )
    });
    let player: Vec<String> = [tavola.as_str(), "challenge", "--bot", "random"]
        .map(str::to_owned)
        .to_vec();
    run("challenge", &|color| {
        Box::new(
            ChallengeBrain::spawn(&player, &options, color, 60)
                .expect("tavola starts as a challenge player"),
        )
    });
    group.finish();
}

criterion_group!(benches, plugin_request, tablut_request);
criterion_main!(benches);
