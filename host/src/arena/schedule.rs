//! Pure scheduling of the games of a match or a tournament: who plays whom, with which colours,
//! from which opening, with which seed.
//!
//! Fair pairing: games come in *pairs* played from the same opening with the colours swapped, the
//! two games of a pair one after the other. Pair rounds go through the openings in order (cycling
//! when there are fewer openings than rounds), and within a round every encounter (every two players
//! who meet) plays its pair before the next round starts, so that a run stopped early is still
//! balanced. Everything follows from the [`ScheduleSpec`]: the same spec gives the same games with
//! the same seeds.

use rand::seq::SliceRandom;
use rand::Rng;
use tavola_sdk::{Game, Position};

/// Who meets whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Every player meets every other player (with two players, a match).
    RoundRobin,
    /// Player 0 meets each of the others; the others do not meet each other.
    Gauntlet,
}

/// What to schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScheduleSpec {
    /// The number of players (indices `0..players`).
    pub players: usize,
    /// Who meets whom.
    pub format: Format,
    /// Games per encounter: twice the number of pairs. When odd, the last pair of every encounter
    /// has only its first game.
    pub games_per_encounter: u32,
    /// How many openings there are to cycle through; 0 when every game starts from the game's start
    /// position.
    pub openings: usize,
    /// The seed everything random derives from.
    pub seed: u64,
}

/// One game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScheduledGame {
    /// Position in the schedule, from 0: the order games are started in.
    pub index: usize,
    /// The pair this game belongs to, from 0, numbered across the whole schedule; the two games of
    /// a pair are consecutive and share the opening, with colours swapped.
    pub pair: usize,
    /// The player with [`tavola_sdk::Color::White`] (in Gonnect, the second to move).
    pub white: usize,
    /// The player with [`tavola_sdk::Color::Black`].
    pub black: usize,
    /// The opening to start from, or `None` for the game's start position.
    pub opening_index: Option<usize>,
    /// This game's own seed (for the random players and anything else random in the game).
    pub seed: u64,
}

/// The stream of per-game seeds, for [`derive_seed`].
pub const GAME_SEEDS: u64 = 1;
/// The stream of per-round opening seeds (random openings), for [`derive_seed`].
pub const OPENING_SEEDS: u64 = 2;

/// A seed derived from `seed` for item `index` of `stream`, by SplitMix64 mixing: reproducible, and
/// unrelated for neighbouring indices or streams.
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed
        ^ splitmix(stream.wrapping_mul(0xD1B5_4A32_D192_ED03))
        ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = splitmix(z);
    splitmix(z ^ index)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every encounter `(a, b)`, `a < b`, in the order they play within a round.
pub fn encounters(players: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..players)
            .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..players).map(|b| (0, b)).collect(),
    }
}

/// The number of pair rounds: `⌈games_per_encounter / 2⌉`.
pub fn rounds(spec: &ScheduleSpec) -> usize {
    spec.games_per_encounter.div_ceil(2) as usize
}

/// The seed of the random opening of pair round `round` (all encounters of a round share their
/// opening, as they do from a file).
pub fn opening_seed(spec: &ScheduleSpec, round: usize) -> u64 {
    derive_seed(spec.seed, OPENING_SEEDS, round as u64)
}

/// The ordered list of games.
///
/// Round `r` plays opening `r mod openings`; in it, every encounter `(a, b)` plays its pair: the
/// first game with `a` as White in even rounds and `b` in odd rounds (so colours stay balanced even
/// when the last pair is cut short), the second with colours swapped.
pub fn schedule(spec: &ScheduleSpec) -> Vec<ScheduledGame> {
    let encounters = encounters(spec.players, spec.format);
    let total_rounds = rounds(spec);
    let mut games = Vec::with_capacity(encounters.len() * spec.games_per_encounter as usize);
    let mut pair = 0;
    for round in 0..total_rounds {
        let opening_index = (spec.openings > 0).then(|| round % spec.openings);
        let games_this_round = if (round + 1) * 2 <= spec.games_per_encounter as usize {
            2
        } else {
            1
        };
        for &(a, b) in &encounters {
            let (first, second) = if round % 2 == 0 { (a, b) } else { (b, a) };
            for game in 0..games_this_round {
                let (white, black) = if game == 0 {
                    (first, second)
                } else {
                    (second, first)
                };
                let index = games.len();
                games.push(ScheduledGame {
                    index,
                    pair,
                    white,
                    black,
                    opening_index,
                    seed: derive_seed(spec.seed, GAME_SEEDS, index as u64),
                });
            }
            pair += 1;
        }
    }
    games
}

/// How many times [`random_opening`] starts over before giving up.
pub const OPENING_ATTEMPTS: u32 = 100;

/// A position reached by `plies` uniformly random legal moves from the start of `variant`, never
/// one where the game is already over: a line that ends the game is thrown away and a new one
/// drawn, up to [`OPENING_ATTEMPTS`] times. Reproducible from the state of `rng`.
///
/// `None` when the variant is unknown or every attempt ended the game.
pub fn random_opening<G: Game>(
    rng: &mut impl Rng,
    plies: u32,
    variant: Option<&str>,
) -> Option<G::Position> {
    let start = G::start(variant).ok()?;
    let mut moves = Vec::new();
    'attempt: for _ in 0..OPENING_ATTEMPTS {
        let mut position = start.clone();
        for _ in 0..plies {
            moves.clear();
            position.generate_moves(&mut moves);
            match moves.choose(rng) {
                Some(&mv) => position.play_unchecked(mv),
                None => continue 'attempt,
            }
            if position.is_game_over() {
                continue 'attempt;
            }
        }
        if !position.is_game_over() {
            return Some(position);
        }
    }
    None
}

/// How many random lines [`balanced_opening`] draws, keeping the most even.
pub const OPENING_CANDIDATES: usize = 4;

/// A random opening (see [`random_opening`]) as even as `imbalance` finds it: of
/// [`OPENING_CANDIDATES`] drawn in turn from `rng`, the one whose `imbalance` (0 for even) is
/// least, the first on ties. Random plies can leave one side lost before the game begins (an
/// Ataxx piece surrounded, a Dama man hanging); both games of a pair then say little about the
/// bots. Reproducible from the state of `rng`; with no plies, the start.
pub fn balanced_opening<G: Game>(
    rng: &mut impl Rng,
    plies: u32,
    variant: Option<&str>,
    mut imbalance: impl FnMut(&G::Position) -> u32,
) -> Option<G::Position> {
    if plies == 0 {
        return random_opening::<G>(rng, 0, variant);
    }
    let candidates: Vec<G::Position> = (0..OPENING_CANDIDATES)
        .map_while(|_| random_opening::<G>(rng, plies, variant))
        .collect();
    candidates
        .into_iter()
        .map(|position| (imbalance(&position), position))
        .reduce(|best, next| if next.0 < best.0 { next } else { best })
        .map(|(_, position)| position)
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use tavola_sdk::games::ataxx::Ataxx;
    use tavola_sdk::games::gonnect::Gonnect;
    use tavola_sdk::games::tablut::Tablut;

    use super::*;

    fn spec(players: usize, format: Format, games: u32, openings: usize) -> ScheduleSpec {
        ScheduleSpec {
            players,
            format,
            games_per_encounter: games,
            openings,
            seed: 42,
        }
    }

    #[test]
    fn pairs_are_consecutive_same_opening_colours_swapped() {
        let games = schedule(&spec(2, Format::RoundRobin, 10, 3));
        assert_eq!(games.len(), 10);
        for (i, game) in games.iter().enumerate() {
            assert_eq!(game.index, i);
        }
        for pair in games.chunks(2) {
            let [a, b] = pair else { panic!("odd") };
            assert_eq!(a.pair, b.pair);
            assert_eq!(a.opening_index, b.opening_index);
            assert_eq!((a.white, a.black), (b.black, b.white));
            assert_ne!(a.white, a.black);
        }
        let openings: Vec<_> = games.iter().map(|g| g.opening_index).collect();
        let expected: Vec<_> = [0, 0, 1, 1, 2, 2, 0, 0, 1, 1].map(Some).to_vec();
        assert_eq!(openings, expected);
    }

    #[test]
    fn colours_are_balanced() {
        for games_per_encounter in [1, 2, 3, 4, 7, 10, 11] {
            let games = schedule(&spec(4, Format::RoundRobin, games_per_encounter, 5));
            let mut whites: HashMap<(usize, usize), i64> = HashMap::new();
            for game in &games {
                let key = (game.white.min(game.black), game.white.max(game.black));
                *whites.entry(key).or_default() += if game.white == key.0 { 1 } else { -1 };
            }
            assert_eq!(whites.len(), 6);
            // Within every encounter, each player has White as often as the other, give or take one.
            for (encounter, balance) in whites {
                assert!(balance.abs() <= 1, "{encounter:?}: {balance}");
            }
        }
    }

    #[test]
    fn odd_games_cut_the_last_pair() {
        let games = schedule(&spec(2, Format::RoundRobin, 5, 0));
        assert_eq!(games.len(), 5);
        assert_eq!(
            games.iter().map(|g| g.pair).collect::<Vec<_>>(),
            [0, 0, 1, 1, 2]
        );
        assert!(games.iter().all(|g| g.opening_index.is_none()));
        // Three rounds: the first game's White alternates between rounds.
        assert_eq!(
            games.iter().map(|g| g.white).collect::<Vec<_>>(),
            [0, 1, 1, 0, 0]
        );
    }

    #[test]
    fn round_robin_counts() {
        for players in 2..7 {
            let games = schedule(&spec(players, Format::RoundRobin, 4, 2));
            let encounters = players * (players - 1) / 2;
            assert_eq!(games.len(), encounters * 4);
            let mut per_encounter: HashMap<(usize, usize), usize> = HashMap::new();
            let mut per_player = vec![0; players];
            for game in &games {
                let key = (game.white.min(game.black), game.white.max(game.black));
                *per_encounter.entry(key).or_default() += 1;
                per_player[game.white] += 1;
                per_player[game.black] += 1;
            }
            assert_eq!(per_encounter.len(), encounters);
            assert!(per_encounter.values().all(|&n| n == 4));
            assert!(per_player.iter().all(|&n| n == 4 * (players - 1)));
            assert_eq!(games.last().map(|g| g.pair), Some(encounters * 2 - 1));
        }
    }

    #[test]
    fn gauntlet_pits_player_zero_against_each_other() {
        let games = schedule(&spec(4, Format::Gauntlet, 6, 1));
        assert_eq!(games.len(), 3 * 6);
        assert!(games.iter().all(|g| g.white == 0 || g.black == 0));
        let opponents: HashSet<usize> = games.iter().map(|g| g.white.max(g.black)).collect();
        assert_eq!(opponents, HashSet::from([1, 2, 3]));
        assert_eq!(encounters(4, Format::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn degenerate_specs_give_no_games() {
        assert!(schedule(&spec(1, Format::RoundRobin, 10, 0)).is_empty());
        assert!(schedule(&spec(0, Format::Gauntlet, 10, 0)).is_empty());
        assert!(schedule(&spec(3, Format::RoundRobin, 0, 0)).is_empty());
    }

    #[test]
    fn reproducible_from_the_seed() {
        let a = schedule(&spec(3, Format::RoundRobin, 6, 4));
        let b = schedule(&spec(3, Format::RoundRobin, 6, 4));
        assert_eq!(a, b);
        let seeds: HashSet<u64> = a.iter().map(|g| g.seed).collect();
        assert_eq!(seeds.len(), a.len(), "per-game seeds are distinct");
        let other = schedule(&ScheduleSpec {
            seed: 43,
            ..spec(3, Format::RoundRobin, 6, 4)
        });
        assert!(a.iter().zip(&other).all(|(x, y)| x.seed != y.seed));
        assert!(a
            .iter()
            .zip(&other)
            .all(|(x, y)| (x.white, x.black, x.pair) == (y.white, y.black, y.pair)));
        let s = spec(3, Format::RoundRobin, 6, 4);
        assert_eq!(opening_seed(&s, 1), opening_seed(&s, 1));
        assert_ne!(opening_seed(&s, 1), opening_seed(&s, 2));
        assert_ne!(
            derive_seed(7, GAME_SEEDS, 3),
            derive_seed(7, OPENING_SEEDS, 3)
        );
    }

    fn openings_are_live_and_reproducible<G: Game>(plies: u32) {
        let mut texts = HashSet::new();
        for seed in 0..200 {
            let make = || random_opening::<G>(&mut StdRng::seed_from_u64(seed), plies, None);
            let position = make().expect("an opening");
            assert!(position.outcome().is_none(), "{position}");
            assert_eq!(make().map(|p| p.to_string()), Some(position.to_string()));
            texts.insert(position.to_string());
        }
        assert!(texts.len() > 100, "only {} distinct openings", texts.len());
    }

    #[test]
    fn balanced_openings_are_the_most_even_of_the_candidates() {
        use tavola_sdk::Position as _;
        // Even: equal piece counts; the pick is the most even of the candidates drawn.
        let imbalance = |p: &<Ataxx as Game>::Position| {
            p.count(tavola_sdk::Color::White)
                .abs_diff(p.count(tavola_sdk::Color::Black))
        };
        let mut uneven = 0;
        for seed in 0..100 {
            let mut rng = StdRng::seed_from_u64(seed);
            let chosen = balanced_opening::<Ataxx>(&mut rng, 5, None, imbalance).unwrap();
            let mut again = StdRng::seed_from_u64(seed);
            let candidates: Vec<_> = (0..OPENING_CANDIDATES)
                .map(|_| random_opening::<Ataxx>(&mut again, 5, None).unwrap())
                .collect();
            let least = candidates.iter().map(imbalance).min().unwrap();
            assert_eq!(imbalance(&chosen), least, "seed {seed}");
            assert!(candidates
                .iter()
                .any(|c| c.to_string() == chosen.to_string()));
            uneven += usize::from(candidates.iter().any(|c| imbalance(c) > least));
            assert!(chosen.outcome().is_none());
        }
        assert!(uneven > 10, "the candidates differ: {uneven}");
        let start = balanced_opening::<Ataxx>(&mut StdRng::seed_from_u64(1), 0, None, imbalance);
        assert_eq!(
            start.map(|p| p.to_string()),
            Some(Ataxx::start(None).unwrap().to_string())
        );
    }

    #[test]
    fn random_openings_ataxx() {
        openings_are_live_and_reproducible::<Ataxx>(8);
    }

    #[test]
    fn random_openings_gonnect() {
        openings_are_live_and_reproducible::<Gonnect>(6);
    }

    #[test]
    fn random_openings_tablut() {
        openings_are_live_and_reproducible::<Tablut>(6);
    }

    #[test]
    fn random_opening_refuses_finished_games() {
        // No random Ataxx game lasts a hundred thousand plies: every attempt ends the game.
        let mut rng = StdRng::seed_from_u64(1);
        assert!(random_opening::<Ataxx>(&mut rng, 100_000, None).is_none());
        assert!(random_opening::<Ataxx>(&mut rng, 4, Some("no-such-variant")).is_none());
        // Zero plies: the start position itself.
        let start = random_opening::<Ataxx>(&mut rng, 0, None).map(|p| p.to_string());
        assert_eq!(start, Ataxx::start(None).ok().map(|p| p.to_string()));
    }
}
