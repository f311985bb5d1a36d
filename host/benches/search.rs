//! Search speed per game: a fixed-depth search from each game's first bench position, with a fresh
//! transposition table, throughput in nodes (so criterion reports nodes per second; the median is
//! the middle figure of `thrpt`).
//!
//! Run with `cargo bench -p tavola --bench search`, or `-- ataxx` for one game.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tavola::builtin::bench::{ATAXX, DAMA, GONNECT, TABLUT};
use tavola::builtin::search::fixed_depth;
use tavola::builtin::Evaluate;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::Gonnect;
use tavola_sdk::games::tablut::Tablut;

fn search<G: Evaluate>(c: &mut Criterion, text: &str, depth: u32) {
    let position = G::parse_position(text, None).expect("a bench position");
    let nodes = fixed_depth::<G>(&position, depth, 4).nodes;
    let mut group = c.benchmark_group(format!("{}_search", G::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("depth {depth}"), |b| {
        b.iter(|| fixed_depth::<G>(black_box(&position), depth, 4).nodes);
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    search::<Ataxx>(c, ATAXX[0], 6);
    search::<Tablut>(c, TABLUT[0], 4);
    search::<Gonnect>(c, GONNECT[1], 3);
    search::<Dama>(c, DAMA[1], 8);
}

criterion_group!(search_benches, benches);
criterion_main!(search_benches);
