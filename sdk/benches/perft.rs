//! Rules-engine benchmarks: perft (nodes per second) and move generation alone.
//!
//! Run with `cargo bench -p tavola-sdk --bench perft`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tavola_sdk::games::ataxx::{Ataxx, Move};
use tavola_sdk::games::tablut::{self, Tablut};
use tavola_sdk::{Game, Position};

/// Ataxx positions for the move-generation benchmark: name and FEN.
const ATAXX_POSITIONS: &[(&str, &str)] = &[
    ("start", "x5o/7/7/7/7/7/o5x x 0 1"),
    ("gaps", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
    (
        "midgame",
        "xxo1o2/1xoo3/x1xo1o1/2xxo2/o1x1xo1/1oxx2x/2o2xx o 3 14",
    ),
    (
        "crowded",
        "xxoxxo1/oxxooxo/x1oxxoo/ooxo1xx/xoxxoox/oox1oxo/xo1oxxo x 0 30",
    ),
];

fn ataxx_perft(c: &mut Criterion) {
    let start = Ataxx::start(None).expect("the default variant exists");
    let mut group = c.benchmark_group("ataxx_perft");
    group.sample_size(10);
    for depth in [4, 5] {
        let nodes = start.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| black_box(&start).perft(depth));
        });
    }
    group.finish();
}

fn ataxx_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("ataxx_movegen");
    let mut moves: Vec<Move> = Vec::with_capacity(256);
    for &(name, fen) in ATAXX_POSITIONS {
        let position = Ataxx::parse_position(fen, None).expect("benchmark positions are valid");
        group.throughput(Throughput::Elements(position.legal_moves().len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                moves.clear();
                black_box(&position).generate_moves(&mut moves);
                moves.len()
            });
        });
    }
    group.finish();
}

/// Tablut positions for the move-generation benchmark: name and position text.
const TABLUT_POSITIONS: &[(&str, &str)] = &[
    (
        "start",
        "OOOBBBOOO/OOOOBOOOO/OOOOWOOOO/BOOOWOOOB/BBWWKWWBB/BOOOWOOOB/OOOOWOOOO/OOOOBOOOO/OOOBBBOOO - W",
    ),
    (
        "midgame",
        "OOOBBOOOO/OOOOBOOOO/OOBOWOOOO/BOOOOOOWB/BBWWTOWBB/BOOKWOOOB/OOOOWOBOO/OOOOBOOOO/OOOBBOOOO - B",
    ),
    (
        "open",
        "OOOOBOOOO/OOOOOOOOO/OOWOOOBOO/BOOOOOOOO/OOOOTOOOB/OOKOOOOOO/OOOOOOWOO/OBOOOOOOO/OOOBOOOOO - W",
    ),
];

fn tablut_perft(c: &mut Criterion) {
    let start = Tablut::start(None).expect("the default variant exists");
    let mut group = c.benchmark_group("tablut_perft");
    group.sample_size(10);
    for depth in [3, 4] {
        let nodes = start.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| black_box(&start).perft(depth));
        });
    }
    group.finish();
}

fn tablut_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("tablut_movegen");
    let mut moves: Vec<tablut::Move> = Vec::with_capacity(256);
    for &(name, text) in TABLUT_POSITIONS {
        let position = Tablut::parse_position(text, None).expect("benchmark positions are valid");
        group.throughput(Throughput::Elements(position.legal_moves().len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                moves.clear();
                black_box(&position).generate_moves(&mut moves);
                moves.len()
            });
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    ataxx_perft,
    ataxx_movegen,
    tablut_perft,
    tablut_movegen
);
criterion_main!(benches);
