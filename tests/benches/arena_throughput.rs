//! Games per second: what the arena costs next to the games it plays.
//!
//! The same kind of games, random against random Ataxx from the start position to the end, five
//! ways: through the arena with the random *plugin* in-process (`arena_in_process`: the referee,
//! the ABI, the tally), with the built-in random player (`arena_built_in`), with each plugin in a
//! worker process of its own (`arena_isolated`; with the game pinned to one CPU,
//! `arena_isolated_affinity`), and as a bare loop over the SDK's rules choosing uniformly random
//! legal moves (`bare_sdk`: no seat, no ABI, no referee).
//! Throughput is in games, so criterion reports games per second; the ratios between the lines are
//! the prices of the arena and of isolation.
//!
//! Run with `cargo bench -p tavola-tests --bench arena_throughput` (it builds the plugins first).
//! The runs are small (10 samples) so that it finishes in a few minutes on two cores.
//! `arena_built_in` is the built-in `random` player against itself: the arena without the ABI.
//!
//! On the two-core development machine (medians, games per second, one run, 2026-12-03): bare
//! SDK 32 300, arena built-in 22 400 (0.69), in-process plugin 18 600 (0.58), isolated 287
//! (1/113), isolated with `--affinity` 465 (1/70). In-process, each game is played on its pool
//! thread with the players called right there (no thread hand-off a move; a timer thread keeps
//! the time), and a plugin is asked by move codes: only the moves since its last request, typed,
//! replayed into its cached position without parsing or checking them again. Isolated, the
//! workers are kept from game to game, and after a game's first request each move goes through
//! a page both processes map, each side sleeping on a futex: two hand-offs between processes a
//! move, some 9 µs on one CPU and 20 µs across two (waking a CPU is dear in a virtual machine),
//! where a random move costs 0.2 µs. Before (2026-12-02: requests in notation, pipes and reader
//! threads, every worker stopped and continued around each turn) the same machine gave 0.34
//! in-process and 1/690 isolated; before the pool (a seat thread per player, fresh workers each
//! game) 107 and 13 games/s.
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

/// Games per measured iteration (one run of the arena), in-process and bare: a real match plays
/// thousands, so the run's own start (threads, names, schedule) is a small share of each game.
const GAMES: u32 = 100;

/// Games per measured iteration with workers: as many, so that starting the two workers (some
/// 40 ms, once a run, as in a real match of thousands of games) is a small share of the games.
const ISOLATED_GAMES: u32 = 100;

fn config(isolation: Option<WorkerOptions>, games: u32) -> ArenaConfig {
    let random: SeatSpec = artifacts()
        .random_bot
        .display()
        .to_string()
        .parse()
        .expect("a plugin's path is a seat spec");
    config_of(random, isolation, games)
}

fn config_of(random: SeatSpec, isolation: Option<WorkerOptions>, games: u32) -> ArenaConfig {
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
        games,
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
        affinity: false,
        positions: None,
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

    let in_process = config(None, GAMES);
    group.bench_function("arena_in_process", |b| {
        b.iter(|| runner::run::<Ataxx>(&in_process).expect("the match runs"));
    });

    let built_in = config_of("random".parse().expect("a seat spec"), None, GAMES);
    group.bench_function("arena_built_in", |b| {
        b.iter(|| runner::run::<Ataxx>(&built_in).expect("the match runs"));
    });

    let isolated = config(
        Some(WorkerOptions {
            program: artifacts().tavola.clone(),
            ..WorkerOptions::new().expect("the bench knows its own path")
        }),
        ISOLATED_GAMES,
    );
    group.throughput(Throughput::Elements(u64::from(ISOLATED_GAMES)));
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("arena_isolated", |b| {
        b.iter(|| runner::run::<Ataxx>(&isolated).expect("the match runs"));
    });

    // `--affinity`: the game's thread and both workers on one CPU.
    let pinned = ArenaConfig {
        affinity: true,
        ..isolated
    };
    group.bench_function("arena_isolated_affinity", |b| {
        b.iter(|| runner::run::<Ataxx>(&pinned).expect("the match runs"));
    });
    group.finish();
}

criterion_group!(benches, arena_throughput);
criterion_main!(benches);
