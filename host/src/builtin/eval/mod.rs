//! The evaluations of the built-in bot, one file per game, each an [`Evaluate`](super::Evaluate)
//! implementation written for strength.

pub mod ataxx;
pub mod ataxx_net;
pub mod dama;
pub mod dama_net;
pub mod gonnect;
pub mod gonnect_book;
pub mod gonnect_net;
pub mod net;
pub mod tablut;
pub mod tablut_net;

/// Positions from a seeded random playout of `G`'s start, for measuring an evaluation.
#[cfg(test)]
pub(crate) fn sample_positions<G: super::Evaluate>(count: usize) -> Vec<G::Position> {
    use rand::{Rng, SeedableRng};
    use tavola_sdk::Position as _;

    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut position = G::start(None).expect("the default variant exists");
        for _ in 0..200 {
            let moves = position.legal_moves();
            if moves.is_empty() || position.is_game_over() {
                break;
            }
            position.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            if position.is_game_over() {
                break;
            }
            positions.push(position.clone());
        }
    }
    positions.truncate(count);
    positions
}

/// The mean time of one evaluation over `runs` calls cycling through `positions`, in nanoseconds,
/// with the sum of the scores (so the calls are not optimised away).
#[cfg(test)]
pub(crate) fn time_per_call<G: super::Evaluate>(
    positions: &[G::Position],
    runs: usize,
) -> (f64, i64) {
    let start = std::time::Instant::now();
    let mut sum = 0i64;
    for i in 0..runs {
        sum += i64::from(G::evaluate(std::hint::black_box(
            &positions[i % positions.len()],
        )));
    }
    (start.elapsed().as_nanos() as f64 / runs as f64, sum)
}

/// Prints the mean time of one evaluation of `game` ([`time_per_call`] over `runs` calls) with its
/// shipped network and with the classic evaluation alone, chosen on this thread by `set`, which is
/// given `default` again afterwards.
#[cfg(test)]
pub(crate) fn print_eval_speeds<G: super::Evaluate>(
    game: &str,
    set: fn(net::EvalChoice),
    default: net::EvalChoice,
    runs: usize,
) {
    let positions = sample_positions::<G>(64);
    for (name, choice) in [
        ("network", net::EvalChoice::Network),
        ("classic", net::EvalChoice::Classic),
    ] {
        set(choice);
        let (ns, sum) = time_per_call::<G>(&positions, runs);
        println!(
            "{game} eval, {name}: {ns:.0} ns per call ({} positions, {sum})",
            positions.len()
        );
    }
    set(default);
}
