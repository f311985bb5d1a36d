//! Rules-engine benchmarks, one group pair per game: perft from the start (throughput in nodes, so
//! criterion reports nodes per second) and move generation alone on a few positions.
//!
//! Run with `cargo bench -p tavola-sdk --bench perft`, or `-- dama` for one game.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tavola_sdk::games::ataxx::Ataxx;
use tavola_sdk::games::dama::Dama;
use tavola_sdk::games::gonnect::{self, Gonnect};
use tavola_sdk::games::tablut::{self, Tablut};
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

/// Gonnect positions for the move-generation benchmark: name and position text (these carry no
/// history, so superko is never looked at; `gonnect_replayed` has one).
const GONNECT_POSITIONS: &[(&str, &str)] = &[
    ("start", "............./............./............./............./............./............./............./............./............./............./............./............./............. X 1"),
    ("opening", ".XXXX....XXX./XO.XO...O.OO./.X..........X/XO.O...OX.X.X/..O.X..O..OO./.....OX..X..O/XOX....X...../O..OO..O...../X.O.O......../..........OX./......OO...../X.....XOO...O/O.XX.O.OX.XX. X 61"),
    ("midgame", ".XOOOOOOOOXOO/XOXO.OOXX.XOO/XOX.XXOXXXO.X/XOXXXXOXXXOXX/XOOO.OOOXOOOO/OOXXXXOOXXXXX/.XOXXOO.OOOOX/OOOOXXXOO.OXO/X.O.XXOX.OXXO/OOOXO.OXOXXO./.OXOOXXO.OXO./.XXXXOOOX..XX/OX.XXOOXXOXXX X 151"),
    ("crowded", "XXX.XOOOOO.OO/XXXXXOOOOOOOO/XXXXXOOXXOOOO/.XXXXXOXXXOOO/XOXOXXOXXOOOO/X.XOOXXXOOOOO/XXXXOXXXOOOOO/XOXXOXXXXXXXO/XOOXOOXO.XXOO/OOOXXOXXXXXOO/O.OOOOOXX.XO./.OXOOOOOOXO.O/.XXOOOOOOXOOO X 205"),
];

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

/// A Tablut position reached from the start by `plies` seeded random moves that capture nothing
/// and end nothing: its repetition list holds `plies + 1` states, all of which perft must check.
fn tablut_shuffled(plies: usize) -> tablut::Position {
    let mut rng = StdRng::seed_from_u64(5);
    let mut position = Tablut::start(None).expect("the default variant exists");
    while position.states_since_capture() <= plies {
        let mut moves = position.legal_moves();
        moves.shuffle(&mut rng);
        let quiet = moves.into_iter().find_map(|mv| {
            let mut next = position.clone();
            next.play_unchecked(mv);
            let quiet = position.captures(mv).is_empty() && !next.is_game_over();
            quiet.then_some(next)
        });
        position = quiet.expect("a shuffle this short always has a quiet move");
    }
    position
}

/// Perft 3 of Tablut positions whose repetition lists are 0, 300 and 1 000 states long: the cost
/// of the "seen before?" question as a capture-free game grows.
fn tablut_history(c: &mut Criterion) {
    let mut group = c.benchmark_group("tablut_history");
    group.sample_size(10);
    for plies in [0, 300, 1_000] {
        let position = tablut_shuffled(plies);
        group.throughput(Throughput::Elements(position.perft(3)));
        group.bench_with_input(
            BenchmarkId::new("perft3", plies),
            &position,
            |b, position| {
                b.iter(|| black_box(position).perft(3));
            },
        );
    }
    group.finish();
}

/// Parses named position texts of `G`.
fn parsed<G: Game>(positions: &[(&'static str, &str)]) -> Vec<(&'static str, G::Position)> {
    positions
        .iter()
        .map(|&(name, text)| {
            let position = G::parse_position(text, None).expect("benchmark positions are valid");
            (name, position)
        })
        .collect()
}

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
fn movegen<G: Game>(c: &mut Criterion, positions: &[(&str, G::Position)]) {
    let mut group = c.benchmark_group(format!("{}_movegen", G::NAME));
    let mut moves: Vec<G::Move> = Vec::with_capacity(256);
    for (name, position) in positions {
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

fn ataxx(c: &mut Criterion) {
    perft::<Ataxx>(c, &[4, 5]);
    movegen::<Ataxx>(c, &parsed::<Ataxx>(ATAXX_POSITIONS));
}

fn dama(c: &mut Criterion) {
    perft::<Dama>(c, &[7, 8]);
    movegen::<Dama>(c, &parsed::<Dama>(DAMA_POSITIONS));
}

fn tablut(c: &mut Criterion) {
    perft::<Tablut>(c, &[3, 4]);
    movegen::<Tablut>(c, &parsed::<Tablut>(TABLUT_POSITIONS));
    tablut_history(c);
}

fn gonnect(c: &mut Criterion) {
    perft::<Gonnect>(c, &[3, 4]);
    let mut positions = parsed::<Gonnect>(GONNECT_POSITIONS);
    positions.push(("replayed", gonnect_replayed()));
    movegen::<Gonnect>(c, &positions);
}

criterion_group!(benches, ataxx, tablut, gonnect, dama);
criterion_main!(benches);
