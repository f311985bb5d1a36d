//! Rules-engine benchmarks: perft (nodes per second) and move generation alone.
//!
//! Run with `cargo bench -p tavola-sdk --bench perft`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::games::ataxx::{Ataxx, Move};
use tavola_sdk::games::gonnect::{self, Gonnect};
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

/// Gonnect positions for the move-generation benchmark: name and position text (these carry no
/// history, so superko is never looked at; `replayed` below has one).
const GONNECT_POSITIONS: &[(&str, &str)] = &[
    ("start", "............./............./............./............./............./............./............./............./............./............./............./............./............. X 1"),
    ("opening", ".XXXX....XXX./XO.XO...O.OO./.X..........X/XO.O...OX.X.X/..O.X..O..OO./.....OX..X..O/XOX....X...../O..OO..O...../X.O.O......../..........OX./......OO...../X.....XOO...O/O.XX.O.OX.XX. X 61"),
    ("midgame", ".XOOOOOOOOXOO/XOXO.OOXX.XOO/XOX.XXOXXXO.X/XOXXXXOXXXOXX/XOOO.OOOXOOOO/OOXXXXOOXXXXX/.XOXXOO.OOOOX/OOOOXXXOO.OXO/X.O.XXOX.OXXO/OOOXO.OXOXXO./.OXOOXXO.OXO./.XXXXOOOX..XX/OX.XXOOXXOXXX X 151"),
    ("crowded", "XXX.XOOOOO.OO/XXXXXOOOOOOOO/XXXXXOOXXOOOO/.XXXXXOXXXOOO/XOXOXXOXXOOOO/X.XOOXXXOOOOO/XXXXOXXXOOOOO/XOXXOXXXXXXXO/XOOXOOXO.XXOO/OOOXXOXXXXXOO/O.OOOOOXX.XO./.OXOOOOOOXO.O/.XXOOOOOOXOOO X 205"),
];

fn gonnect_perft(c: &mut Criterion) {
    let start = Gonnect::start(None).expect("the default variant exists");
    let mut group = c.benchmark_group("gonnect_perft");
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

/// A position at least 100 plies into a seeded random game, with its history, where the side to
/// move once had more stones than now: superko has to be checked.
fn gonnect_replayed() -> gonnect::Position {
    let mut rng = StdRng::seed_from_u64(3);
    let mut position = Gonnect::start(None).expect("the default variant exists");
    let mut peak = [0; 2];
    for ply in 0..2000 {
        let side = position.side_to_move();
        if ply >= 100 && position.count(side) < peak[side.index()] {
            break;
        }
        let Some(&mv) = position.legal_moves().choose(&mut rng) else {
            break;
        };
        let mut next = position.clone();
        next.play_unchecked(mv);
        if next.is_game_over() {
            continue;
        }
        position = next;
        for color in tavola_sdk::Color::ALL {
            peak[color.index()] = peak[color.index()].max(position.count(color));
        }
    }
    position
}

fn gonnect_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("gonnect_movegen");
    let mut moves: Vec<gonnect::Move> = Vec::with_capacity(256);
    let mut positions: Vec<(&str, gonnect::Position)> = GONNECT_POSITIONS
        .iter()
        .map(|&(name, text)| {
            let position =
                Gonnect::parse_position(text, None).expect("benchmark positions are valid");
            (name, position)
        })
        .collect();
    positions.push(("replayed", gonnect_replayed()));
    for (name, position) in &positions {
        group.throughput(Throughput::Elements(position.legal_moves().len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                moves.clear();
                black_box(position).generate_moves(&mut moves);
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
    gonnect_perft,
    gonnect_movegen
);
criterion_main!(benches);
