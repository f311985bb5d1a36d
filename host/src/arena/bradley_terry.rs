//! Bradley-Terry ratings fitted over all the games of a tournament, not just each player against
//! the field.
//!
//! Each player `i` has a strength `γᵢ > 0`, and `i` is expected to score `γᵢ / (γᵢ + γⱼ)` per game
//! against `j` (a draw counts as half a win). The maximum-likelihood strengths are found by the
//! minorisation-maximisation iteration of Hunter (2004),
//! `γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ)`, where `Wᵢ` is `i`'s total score and `nᵢⱼ` the number of games
//! between `i` and `j`. Ratings are `400 · log10 γᵢ`, shifted so that their mean is 0, so that a
//! rating difference is a logistic Elo difference.

/// Scores and game counts between every two players.
#[derive(Debug, Clone, PartialEq)]
pub struct Crosstable {
    players: usize,
    /// `score[i * players + j]`: the points `i` scored against `j`.
    score: Vec<f64>,
    /// `games[i * players + j]`: the games between `i` and `j` (symmetric).
    games: Vec<u64>,
}

impl Crosstable {
    /// An empty crosstable of `players` players.
    pub fn new(players: usize) -> Crosstable {
        Crosstable {
            players,
            score: vec![0.0; players * players],
            games: vec![0; players * players],
        }
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Records a game between `a` and `b` in which `a` scored `score_of_a` (1, ½ or 0).
    ///
    /// # Panics
    /// When `a` or `b` is not a player, or they are the same player.
    pub fn add_game(&mut self, a: usize, b: usize, score_of_a: f64) {
        assert!(
            a < self.players && b < self.players && a != b,
            "no game {a} vs {b}"
        );
        let score_of_a = score_of_a.clamp(0.0, 1.0);
        self.score[a * self.players + b] += score_of_a;
        self.score[b * self.players + a] += 1.0 - score_of_a;
        self.games[a * self.players + b] += 1;
        self.games[b * self.players + a] += 1;
    }

    /// The points `a` scored against `b`.
    pub fn score(&self, a: usize, b: usize) -> f64 {
        self.score[a * self.players + b]
    }

    /// The games between `a` and `b`.
    pub fn games(&self, a: usize, b: usize) -> u64 {
        self.games[a * self.players + b]
    }

    /// The same table with one virtual draw added to every encounter that was played: a weak
    /// prior that keeps the ratings finite when a player won or lost every game (as BayesElo's and
    /// Ordo's priors do), while moving them little once there are many games.
    pub fn with_virtual_draws(&self) -> Crosstable {
        let mut table = self.clone();
        for a in 0..self.players {
            for b in a + 1..self.players {
                if self.games(a, b) > 0 {
                    table.add_game(a, b, 0.5);
                }
            }
        }
        table
    }

    /// Whether every player can be compared with every other: in the graph where `i → j` when `i`
    /// scored anything against `j`, every player reaches every other. This is exactly when the
    /// maximum-likelihood ratings exist and are finite.
    fn strongly_connected(&self) -> bool {
        let n = self.players;
        let reaches_all = |forward: bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(i) = stack.pop() {
                for (j, seen_j) in seen.iter_mut().enumerate() {
                    let scored = if forward {
                        self.score(i, j)
                    } else {
                        self.score(j, i)
                    };
                    if !*seen_j && scored > 0.0 {
                        *seen_j = true;
                        stack.push(j);
                    }
                }
            }
            seen.iter().all(|&s| s)
        };
        n > 0 && reaches_all(true) && reaches_all(false)
    }
}

/// The largest number of iterations of [`fit`].
pub const MAX_ITERATIONS: usize = 100_000;

/// The Bradley-Terry ratings of every player, in Elo with mean 0.
///
/// `None` when the ratings are unbounded or undefined: no players, or some group of players that
/// never scored a point against the rest (including a player who lost every game, or won every
/// game), or players never connected by games. A single player rates 0.
pub fn fit(table: &Crosstable) -> Option<Vec<f64>> {
    let n = table.players;
    if n == 1 {
        return Some(vec![0.0]);
    }
    if !table.strongly_connected() {
        return None;
    }
    let wins: Vec<f64> = (0..n)
        .map(|i| (0..n).map(|j| table.score(i, j)).sum())
        .collect();
    let mut gamma = vec![1.0; n];
    for _ in 0..MAX_ITERATIONS {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| table.games(i, j) as f64 / (gamma[i] + gamma[j]))
                    .sum();
                wins[i] / denominator
            })
            .collect();
        // Anchor: geometric mean 1, so that the ratings have mean 0.
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut next {
            *g /= mean_log.exp();
        }
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    let ratings: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let mean = ratings.iter().sum::<f64>() / n as f64;
    Some(ratings.iter().map(|r| r - mean).collect())
}

/// A player's rating with the half-width of its 95 % interval, in Elo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating, relative to the players' mean.
    pub elo: f64,
    /// Half the width of the 95 % confidence interval.
    pub error95: f64,
}

/// The ratings of [`fit`] with 95 % error bars, or `None` when [`fit`] has none.
///
/// The errors come from the curvature of the log-likelihood at its maximum (the observed Fisher
/// information): in natural-log strengths `θ`, the information is the weighted graph Laplacian
/// `Iᵢᵢ = Σⱼ wᵢⱼ`, `Iᵢⱼ = −wᵢⱼ`, `wᵢⱼ = nᵢⱼ pᵢⱼ (1 − pᵢⱼ)`. Ratings are anchored to mean 0, so their
/// covariance is the pseudo-inverse of `I`, `(I + J/n)⁻¹ − J/n` (`J` all ones), and a player's
/// error is `z · √Σᵢᵢ · 400 / ln 10`. A draw counts as half a win here too, which makes the errors
/// slightly wide when there are many draws.
pub fn fit_with_errors(table: &Crosstable) -> Option<Vec<Rating>> {
    let ratings = fit(table)?;
    let n = table.players;
    let scale = 400.0 / std::f64::consts::LN_10;
    let theta: Vec<f64> = ratings.iter().map(|r| r / scale).collect();
    let mut matrix = vec![vec![1.0 / n as f64; n]; n];
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            let w = table.games(i, j) as f64 * p * (1.0 - p);
            matrix[i][i] += w;
            matrix[i][j] -= w;
        }
    }
    let inverse = invert(matrix)?;
    Some(
        ratings
            .iter()
            .enumerate()
            .map(|(i, &elo)| Rating {
                elo,
                error95: crate::arena::stats::Z95
                    * (inverse[i][i] - 1.0 / n as f64).max(0.0).sqrt()
                    * scale,
            })
            .collect(),
    )
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting; `None` when
/// it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))?;
        if a[pivot][column].abs() < 1e-12 {
            return None;
        }
        a.swap(column, pivot);
        inverse.swap(column, pivot);
        let divisor = a[column][column];
        for j in 0..n {
            a[column][j] /= divisor;
            inverse[column][j] /= divisor;
        }
        for row in (0..n).filter(|&row| row != column) {
            let factor = a[row][column];
            if factor != 0.0 {
                for j in 0..n {
                    a[row][j] -= factor * a[column][j];
                    inverse[row][j] -= factor * inverse[column][j];
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    /// Adds `wins`, `draws`, `losses` of `a` against `b`.
    fn add(table: &mut Crosstable, a: usize, b: usize, wins: u32, draws: u32, losses: u32) {
        for _ in 0..wins {
            table.add_game(a, b, 1.0);
        }
        for _ in 0..draws {
            table.add_game(a, b, 0.5);
        }
        for _ in 0..losses {
            table.add_game(b, a, 1.0);
        }
    }

    #[test]
    fn two_players_match_the_closed_form() {
        // 3 points of 4: γa/γb = 3, so the difference is 400·log10(3), split around 0.
        let mut table = Crosstable::new(2);
        add(&mut table, 0, 1, 2, 2, 0);
        let ratings = fit(&table).unwrap();
        let half = 200.0 * 3f64.log10();
        assert!(close(ratings[0], half, 1e-9), "{ratings:?}");
        assert!(close(ratings[1], -half, 1e-9), "{ratings:?}");
    }

    #[test]
    fn three_players_match_an_independent_fit() {
        // A–B 4/6, A–C 3.5/4, B–C 5/8. The maximum-likelihood Elo ratings, computed independently
        // by Newton's method on the likelihood equations (Σⱼ nᵢⱼ·pᵢⱼ = Wᵢ) in natural-log
        // strengths: A 137.40097, B −13.61137, C −123.78960.
        let mut table = Crosstable::new(3);
        add(&mut table, 0, 1, 3, 2, 1);
        add(&mut table, 0, 2, 3, 1, 0);
        add(&mut table, 1, 2, 4, 2, 2);
        assert_eq!(table.score(0, 1), 4.0);
        assert_eq!(table.score(2, 0), 0.5);
        assert_eq!(table.games(2, 1), 8);
        let ratings = fit(&table).unwrap();
        let expected = [137.400_968_790, -13.611_371_431, -123.789_597_359];
        for (r, e) in ratings.iter().zip(expected) {
            assert!(close(*r, e, 1e-6), "{ratings:?}");
        }
        assert!(close(ratings.iter().sum::<f64>(), 0.0, 1e-9));
        // At the maximum, every player's expected score equals the actual score.
        for i in 0..3 {
            let actual: f64 = (0..3).map(|j| table.score(i, j)).sum();
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| {
                    table.games(i, j) as f64 / (1.0 + 10f64.powf((ratings[j] - ratings[i]) / 400.0))
                })
                .sum();
            assert!(
                close(actual, expected, 1e-9),
                "player {i}: {actual} vs {expected}"
            );
        }
    }

    #[test]
    fn even_cycle_rates_everyone_equal() {
        let mut table = Crosstable::new(3);
        add(&mut table, 0, 1, 3, 0, 1);
        add(&mut table, 1, 2, 3, 0, 1);
        add(&mut table, 2, 0, 3, 0, 1);
        let ratings = fit(&table).unwrap();
        assert!(ratings.iter().all(|r| close(*r, 0.0, 1e-9)), "{ratings:?}");
    }

    #[test]
    fn unbounded_ratings_are_none() {
        assert_eq!(fit(&Crosstable::new(0)), None);
        assert_eq!(fit(&Crosstable::new(1)), Some(vec![0.0]));
        // Player 2 lost every game.
        let mut table = Crosstable::new(3);
        add(&mut table, 0, 1, 1, 1, 1);
        add(&mut table, 0, 2, 2, 0, 0);
        add(&mut table, 1, 2, 2, 0, 0);
        assert_eq!(fit(&table), None);
        // Two groups that never met.
        let mut table = Crosstable::new(4);
        add(&mut table, 0, 1, 1, 1, 1);
        add(&mut table, 2, 3, 1, 1, 1);
        assert_eq!(fit(&table), None);
        // No games at all.
        assert_eq!(fit(&Crosstable::new(2)), None);
    }

    #[test]
    fn two_player_errors_match_the_closed_form() {
        // 30 points of 40: the difference d = ln 3 in natural-log strengths has variance
        // 1 / (n p (1 - p)); each rating is ±d/2, so its standard error is half of √ that.
        let mut table = Crosstable::new(2);
        add(&mut table, 0, 1, 25, 10, 5);
        let ratings = fit_with_errors(&table).unwrap();
        let p: f64 = 0.75;
        let se = 0.5 / (40.0 * p * (1.0 - p)).sqrt() * 400.0 / std::f64::consts::LN_10;
        for rating in &ratings {
            assert!(
                close(rating.error95, crate::arena::stats::Z95 * se, 1e-6),
                "{ratings:?}"
            );
        }
        assert!(close(ratings[0].elo, 200.0 * 3f64.log10(), 1e-6));
        assert_eq!(fit_with_errors(&Crosstable::new(2)), None);
    }

    #[test]
    fn errors_shrink_with_more_games_and_grow_for_the_less_connected() {
        // Player 2 meets only player 0, and rarely.
        let mut table = Crosstable::new(3);
        add(&mut table, 0, 1, 10, 10, 10);
        add(&mut table, 0, 2, 2, 0, 2);
        let few = fit_with_errors(&table).unwrap();
        assert!(
            few[2].error95 > few[0].error95 && few[2].error95 > few[1].error95,
            "{few:?}"
        );
        let mut more = Crosstable::new(3);
        add(&mut more, 0, 1, 40, 40, 40);
        add(&mut more, 0, 2, 8, 0, 8);
        let more = fit_with_errors(&more).unwrap();
        for (a, b) in few.iter().zip(&more) {
            assert!(b.error95 < a.error95, "{few:?} {more:?}");
            assert!(close(a.elo, b.elo, 1e-6));
        }
    }

    #[test]
    fn a_matrix_inverts() {
        let inverse = invert(vec![vec![4.0, 7.0], vec![2.0, 6.0]]).unwrap();
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for (row, want) in inverse.iter().zip(expected) {
            for (x, y) in row.iter().zip(want) {
                assert!(close(*x, y, 1e-12), "{inverse:?}");
            }
        }
        assert_eq!(invert(vec![vec![1.0, 2.0], vec![2.0, 4.0]]), None);
    }

    #[test]
    fn virtual_draws_bound_a_clean_sweep() {
        let mut table = Crosstable::new(3);
        add(&mut table, 0, 1, 4, 0, 0);
        add(&mut table, 0, 2, 4, 0, 0);
        add(&mut table, 1, 2, 2, 1, 1);
        assert_eq!(fit(&table), None);
        let prior = table.with_virtual_draws();
        assert_eq!(prior.games(0, 1), 5);
        assert_eq!(prior.score(1, 0), 0.5);
        let ratings = fit_with_errors(&prior).unwrap();
        assert!(ratings[0].elo > ratings[1].elo && ratings[1].elo > ratings[2].elo);
        // Players who never met stay apart.
        let mut apart = Crosstable::new(4);
        add(&mut apart, 0, 1, 1, 0, 0);
        add(&mut apart, 2, 3, 1, 0, 0);
        assert_eq!(fit(&apart.with_virtual_draws()), None);
    }

    #[test]
    fn all_draws_rate_everyone_equal() {
        let mut table = Crosstable::new(2);
        add(&mut table, 0, 1, 0, 5, 0);
        assert_eq!(
            fit(&table).map(|r| r.iter().all(|x| x.abs() < 1e-9)),
            Some(true)
        );
    }
}
