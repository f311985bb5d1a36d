//! Games per second: what the arena costs next to the games it plays.
//!
//! The same kind of games, random against random Ataxx from the start position to the end, three
//! ways: through the arena with the random *plugin* in-process (`arena_in_process`: seats on their
//! own threads, the referee, the ABI, the tally), through the arena with each plugin in a worker
//! process of its own, started afresh for every game (`arena_isolated`), and as a bare loop over the
//! SDK's rules choosing uniformly random legal moves (`bare_sdk`: no seat, no ABI, no referee).
//! Throughput is in games, so criterion reports games per second; the ratios between the lines are
//! the prices of the arena and of isolation.
//!
//! Run with `cargo bench -p tavola-tests --bench arena_throughput` (it builds the plugins first).
//! The runs are small (10 samples) so that it finishes in a few minutes on two cores.
//!
//! On the two-core development machine (medians, games per second, one run, 2026-12-01): bare
//! SDK 30 000, arena in-process 107 (1/280), isolated 13 (1/2300). A random game is about 185
//! plies, so the arena costs some 50 µs a ply in-process (two thread hand-offs, the fair-time
//! stopwatch's reads of the thread's scheduler counters, the request's text, the ABI, the
//! referee's checks) and some 200 µs a ply isolated (a JSON line each way over pipes, the worker
//! stopped and continued around each turn and probed for fair time, and two worker processes
//! started and awaited per game). Earlier runs, before fair time and the stops between turns,
//! gave 180 to 330 and 72 to 90: that is the price of fair clocks, and what the issue on the
//! arena's speed is to win back.
//!

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola::arena::progress::ProgressMode;
use tavola::arena::resume::Defaulted;
use tavola::arena::runner::{self, ArenaConfig};
use tavola::arena::schedule::Format;
use tavola::referee::Settings;
use tavola::seat::worker::WorkerOptions;
use tavola::seat::SeatSpec;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::{Game, Position};
use tavola_tests::artifacts;

/// Games per measured iteration.
const GAMES: u32 = 10;

fn config(isolation: Option<WorkerOptions>) -> ArenaConfig {
    let random: SeatSpec = artifacts()
        .random_bot
        .display()
        .to_string()
        .parse()
        .expect("a plugin's path is a seat spec");
    ArenaConfig {
        players: vec![random.clone(), random],
        format: Format::RoundRobin,
        variant: None,
        // Untimed, as the bare loop: the clock's own cost is in the referee's bookkeeping anyway.
        settings: Settings {
            time: None,
            increment: Duration::ZERO,
            movetime: None,
            margin: tavola::referee::DEFAULT_MARGIN,
        },
        games: GAMES,
        concurrency: 1,
        seed: Some(1),
        opening_plies: 0,
        openings: None,
        max_plies: None,
        results: None,
        resume: None,
        pgn: None,
        summary: None,
        isolation,
        sprt: None,
        progress: ProgressMode::Quiet,
        defaulted: Defaulted::default(),
        shard: None,
    }
}

/// Plays `games` random games with the SDK alone; returns the plies played.
fn bare_games(rng: &mut StdRng, games: u32) -> usize {
    let start = Ataxx::start(None).expect("the default variant exists");
    let mut moves = Vec::new();
    let mut plies = 0;
    for _ in 0..games {
        let mut position = start.clone();
        while !position.is_game_over() {
            moves.clear();
            position.generate_moves(&mut moves);
            let &mv = moves.choose(rng).expect("a game not over has a move");
            position.play_unchecked(mv);
            plies += 1;
        }
    }
    plies
}

fn arena_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("ataxx_random_games");
    group.throughput(Throughput::Elements(u64::from(GAMES)));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));

    let mut rng = StdRng::seed_from_u64(1);
    group.bench_function("bare_sdk", |b| {
        b.iter(|| black_box(bare_games(&mut rng, GAMES)));
    });

    let in_process = config(None);
    group.bench_function("arena_in_process", |b| {
        b.iter(|| runner::run::<Ataxx>(&in_process).expect("the match runs"));
    });

    let isolated = config(Some(WorkerOptions {
        program: artifacts().tavola.clone(),
        ..WorkerOptions::new().expect("the bench knows its own path")
    }));
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("arena_isolated", |b| {
        b.iter(|| runner::run::<Ataxx>(&isolated).expect("the match runs"));
    });
    group.finish();
}

criterion_group!(benches, arena_throughput);
criterion_main!(benches);
