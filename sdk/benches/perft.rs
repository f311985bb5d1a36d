//! Rules-engine benchmarks, one group pair per game: perft from the start (throughput in nodes, so
//! criterion reports nodes per second) and move generation alone on a few positions.
//!
//! Run with `cargo bench -p tavola-sdk --bench perft`, or `-- dama` for one game.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::tablut::Tablut;
use tavola_sdk::{Game, Position};

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

const DAMA_POSITIONS: &[(&str, &str)] = &[
    ("start", "W:W21-32:B1-12"),
    (
        "midgame",
        "W:W17,19,21,22,24,25,26,27,29,31:B2,3,5,6,9,10,11,14,15,16",
    ),
    (
        "captures",
        "B:W5,K13,17,18,22,23,27,30:B1,3,K9,10,11,14,15,K24",
    ),
    ("kings", "W:WK1,K10,K19,K28:BK4,K13,K22,K31"),
];

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

/// Perft from `G`'s start at each of `depths`.
fn perft<G: Game>(c: &mut Criterion, depths: &[u32]) {
    let start = G::start(None).expect("the default variant exists");
    let mut group = c.benchmark_group(format!("{}_perft", G::NAME));
    group.sample_size(10);
    for &depth in depths {
        let nodes = start.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| black_box(&start).perft(depth));
        });
    }
    group.finish();
}

/// Move generation alone on each named position (throughput in moves).
fn movegen<G: Game>(c: &mut Criterion, positions: &[(&str, &str)]) {
    let mut group = c.benchmark_group(format!("{}_movegen", G::NAME));
    let mut moves: Vec<G::Move> = Vec::with_capacity(256);
    for &(name, text) in positions {
        let position = G::parse_position(text, None).expect("benchmark positions are valid");
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

fn ataxx(c: &mut Criterion) {
    perft::<Ataxx>(c, &[4, 5]);
    movegen::<Ataxx>(c, ATAXX_POSITIONS);
}

fn dama(c: &mut Criterion) {
    perft::<Dama>(c, &[7, 8]);
    movegen::<Dama>(c, DAMA_POSITIONS);
}

fn tablut(c: &mut Criterion) {
    perft::<Tablut>(c, &[3, 4]);
    movegen::<Tablut>(c, TABLUT_POSITIONS);
}

criterion_group!(benches, ataxx, dama, tablut);
criterion_main!(benches);
