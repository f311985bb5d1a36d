//! Match statistics: Elo and normalised Elo with 95 % error bars, likelihood of superiority, draw
//! ratio and the sequential probability ratio test, from per-game ([`Wdl`]) or per-pair
//! ([`Pentanomial`]) counts.
//!
//! The formulas are the usual ones of engine testers (fastchess, cutechess, fishtest), written here
//! from their definitions. A result is a score `s` per game (win 1, draw ½, loss 0); a pair of games
//! from one opening with colours swapped scores the mean of its two games (0, ¼, ½, ¾ or 1). Over `n`
//! samples (games or pairs) with observed frequencies, `μ` is the mean score and `σ²` the variance of
//! one sample's score around `μ`. Then:
//!
//! - **Elo** `= −400 · log10(1/μ − 1)` (the logistic model), with the error bar carried through that
//!   curve: `(elo(μ + z·σ/√n) − elo(μ − z·σ/√n)) / 2`, `z = 1.959964` (95 %);
//! - **nElo** (normalised Elo) `= (μ − ½) / σ_g · 800 / ln 10`, where `σ_g` is the standard deviation
//!   of one game's score (`σ` per game; `σ·√2` per pair, as a pair is two games), error
//!   `z · σ/√n / σ_g · 800 / ln 10`;
//! - **LOS**, the probability that the first player is the stronger: `Φ((μ − ½) / (σ/√n))`;
//! - **SPRT** log-likelihood ratio of the generalised SPRT, from the maximum likelihood estimates
//!   of the result distribution under each hypothesis (see [`super::gsprt`] and [`SprtModel`]).

use std::f64::consts::LN_10;

use super::gsprt;

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The scale of normalised Elo: `800 / ln 10`.
const NELO_SCALE: f64 = 800.0 / LN_10;

/// Per-game counts, from the point of view of one player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// Counts of pairs of games (one opening, colours swapped), from the point of view of one player,
/// bucketed by the pair's total score: `ll` (0), `ld` (½), `wl_dd` (1: a win and a loss, or two
/// draws), `wd` (1½), `ww` (2). The fields are in that order, worst to best.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial {
    /// Two losses.
    pub ll: u64,
    /// A loss and a draw.
    pub ld: u64,
    /// A win and a loss, or two draws: both score ½ per game.
    pub wl_dd: u64,
    /// A win and a draw.
    pub wd: u64,
    /// Two wins.
    pub ww: u64,
}

/// An Elo difference with the half-width of its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The estimate, in Elo points (may be infinite: see [`Wdl::elo`]).
    pub elo: f64,
    /// Half the width of the 95 % confidence interval (may be infinite, never NaN).
    pub error95: f64,
    /// The 95 % confidence interval's lower end (may be `−∞`).
    pub lower95: f64,
    /// The 95 % confidence interval's upper end (may be `+∞`).
    pub upper95: f64,
}

/// The mean and variance of a sample of scores, and how many games one sample stands for.
#[derive(Debug, Clone, Copy)]
struct Sample {
    /// Number of samples.
    n: f64,
    /// Mean score per game.
    mean: f64,
    /// Variance of one sample's (per-game) score.
    variance: f64,
    /// Games per sample: 1 for games, 2 for pairs.
    games_per_sample: f64,
}

/// The count an empty bucket stands for in the SPRT (see [`Sprt::llr`]).
const EMPTY_BUCKET: f64 = 1e-3;

impl Sample {
    /// `None` when there is no sample.
    fn new(buckets: &[(f64, u64)], games_per_sample: f64) -> Option<Sample> {
        Sample::weighted(
            buckets.iter().map(|&(s, c)| (s, c as f64)),
            games_per_sample,
        )
    }

    fn weighted(
        buckets: impl Iterator<Item = (f64, f64)> + Clone,
        games_per_sample: f64,
    ) -> Option<Sample> {
        let n: f64 = buckets.clone().map(|(_, count)| count).sum();
        if n <= 0.0 {
            return None;
        }
        let mean = buckets.clone().map(|(s, c)| s * c).sum::<f64>() / n;
        let variance = buckets.map(|(s, c)| c * (s - mean).powi(2)).sum::<f64>() / n;
        Some(Sample {
            n,
            mean,
            // Rounding can leave a tiny negative for a degenerate sample.
            variance: variance.max(0.0),
            games_per_sample,
        })
    }

    /// The standard error of the mean score.
    fn std_error(&self) -> f64 {
        (self.variance / self.n).sqrt()
    }

    fn elo(&self) -> EloEstimate {
        let elo = score_to_elo(self.mean);
        let margin = Z95 * self.std_error();
        if elo.is_finite() && margin <= self.mean.min(1.0 - self.mean) {
            let upper95 = score_to_elo(self.mean + margin);
            let lower95 = score_to_elo(self.mean - margin);
            return EloEstimate {
                elo,
                error95: (upper95 - lower95) / 2.0,
                lower95,
                upper95,
            };
        }
        // The normal interval reaches a score of 0 or 1 (a clean sweep has no spread at all):
        // Wilson's score interval instead, which stays inside and is finite but at 0 and 1.
        let (lower, upper) = self.wilson();
        EloEstimate {
            elo,
            error95: f64::INFINITY,
            lower95: score_to_elo(lower),
            upper95: score_to_elo(upper),
        }
    }

    /// Wilson's 95 % score interval of the mean score, with the variance of a win-or-loss
    /// sample of that mean (the largest a sample scored from 0 to 1 can have).
    fn wilson(&self) -> (f64, f64) {
        let (p, n, z2) = (self.mean, self.n, Z95 * Z95);
        let denominator = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denominator;
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
        let lower = if p <= 0.0 { 0.0 } else { centre - half };
        let upper = if p >= 1.0 { 1.0 } else { centre + half };
        (lower.clamp(0.0, 1.0), upper.clamp(0.0, 1.0))
    }

    fn nelo(&self) -> Option<EloEstimate> {
        let game_sd = (self.variance * self.games_per_sample).sqrt();
        if game_sd <= 0.0 {
            return None;
        }
        let elo = (self.mean - 0.5) / game_sd * NELO_SCALE;
        let error95 = Z95 * self.std_error() / game_sd * NELO_SCALE;
        Some(EloEstimate {
            elo,
            error95,
            lower95: elo - error95,
            upper95: elo + error95,
        })
    }

    /// `Φ((μ − ½) / standard error)`, with the limits 0, ½, 1 for a sample without spread.
    fn los(&self) -> f64 {
        let se = self.std_error();
        if se <= 0.0 {
            return match self.mean.partial_cmp(&0.5) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            };
        }
        normal_cdf((self.mean - 0.5) / se)
    }
}

/// The logistic Elo difference of an expected score: `−400 · log10(1/s − 1)`; ±∞ at 1 and 0.
pub fn score_to_elo(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(−elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-14 (a Taylor series near 0, a continued fraction for `erfc`
/// beyond).
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let value = if a < 2.5 {
        // erf(x) = 2/√π · Σ (−1)^k x^(2k+1) / (k! (2k+1))
        let mut term = a;
        let mut sum = a;
        let x2 = a * a;
        let mut k = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            k += 1.0;
            term *= -x2 / k;
            sum += term / (2.0 * k + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        1.0 - erfc_continued_fraction(a)
    };
    value.copysign(x)
}

/// `erfc(x)` for `x ≥ 2.5` by Lentz's evaluation of the continued fraction
/// `erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …))))`.
fn erfc_continued_fraction(x: f64) -> f64 {
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..300 {
        let a = f64::from(k) / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// The standard normal cumulative distribution `Φ(x) = ½ (1 + erf(x / √2))`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

impl Wdl {
    /// The number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game (win 1, draw ½), or `None` without games.
    pub fn score(&self) -> Option<f64> {
        self.sample().map(|s| s.mean)
    }

    /// The share of drawn games, or `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.draws as f64 / games as f64)
    }

    /// The logistic Elo difference with its 95 % error bar, or `None` without games.
    ///
    /// All wins give `+∞` (all losses `−∞`) with an infinite error; when the 95 % interval reaches
    /// a score of 0 or 1 the error is infinite too, and the interval's ends
    /// ([`EloEstimate::lower95`], [`EloEstimate::upper95`]) are Wilson's. All draws give 0 ± 0.
    pub fn elo(&self) -> Option<EloEstimate> {
        self.sample().map(|s| s.elo())
    }

    /// The normalised Elo difference with its 95 % error bar, or `None` without games or when every
    /// game had the same result (no spread: the normalisation is undefined).
    pub fn nelo(&self) -> Option<EloEstimate> {
        self.sample()?.nelo()
    }

    /// The likelihood of superiority `Φ((μ − ½) / standard error)`, as a probability in `[0, 1]`;
    /// `None` without games; 0, ½ or 1 when every game had the same result.
    pub fn los(&self) -> Option<f64> {
        self.sample().map(|s| s.los())
    }

    fn buckets(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }

    fn sample(&self) -> Option<Sample> {
        Sample::new(&self.buckets(), 1.0)
    }
}

impl Pentanomial {
    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl_dd + self.wd + self.ww
    }

    /// Counts the pair from the per-pair list `(LL, LD, WL, DD, WD, WW)` that fastchess prints.
    pub fn from_six(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl_dd: wl + dd,
            wd,
            ww,
        }
    }

    /// Adds one pair, from the scores (1, ½ or 0; anything else is rounded to those) of its two
    /// games.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let halves = (first * 2.0).round().clamp(0.0, 2.0) + (second * 2.0).round().clamp(0.0, 2.0);
        match halves as u8 {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 => self.wl_dd += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// The mean score per game, or `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        self.sample().map(|s| s.mean)
    }

    /// The logistic Elo difference, its error bar from the variance of pair scores; `None` without
    /// pairs, infinities as for [`Wdl::elo`].
    pub fn elo(&self) -> Option<EloEstimate> {
        self.sample().map(|s| s.elo())
    }

    /// The normalised Elo difference (per game, so comparable with [`Wdl::nelo`]), or `None` without
    /// pairs or when every pair scored the same.
    pub fn nelo(&self) -> Option<EloEstimate> {
        self.sample()?.nelo()
    }

    /// The likelihood of superiority `Φ((μ − ½) / standard error)` over pairs; `None` without
    /// pairs; 0, ½ or 1 when every pair scored the same.
    pub fn los(&self) -> Option<f64> {
        self.sample().map(|s| s.los())
    }

    fn buckets(&self) -> [(f64, u64); 5] {
        [
            (0.0, self.ll),
            (0.25, self.ld),
            (0.5, self.wl_dd),
            (0.75, self.wd),
            (1.0, self.ww),
        ]
    }

    fn sample(&self) -> Option<Sample> {
        Sample::new(&self.buckets(), 2.0)
    }
}

/// How the SPRT hypotheses `elo0`, `elo1` become expected scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Logistic Elo: `s = 1 / (1 + 10^(−elo/400))`.
    Logistic,
    /// Normalised Elo: `s = ½ + elo · σ_g · ln 10 / 800`, with `σ_g` the observed standard
    /// deviation of one game's score (the default of fastchess and fishtest).
    Normalized,
}

/// Where a sequential test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound reached: the difference is at most `elo0`.
    AcceptH0,
    /// The upper bound reached: the difference is at least `elo1`.
    AcceptH1,
}

/// A sequential probability ratio test of `H0: elo = elo0` against `H1: elo = elo1`, with error
/// rates `alpha` (false H1) and `beta` (false H0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// How `elo0` and `elo1` are read.
    pub model: SprtModel,
}

impl Sprt {
    /// The stopping bounds `(ln(β / (1 − α)), ln((1 − β) / α))`; ±2.944 for α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of per-game results; 0 (no evidence) without games.
    ///
    /// The generalised SPRT of fastchess (see [`super::gsprt`]), with every empty bucket (no
    /// draws, say) counted as a thousandth of a game, as fastchess does: the estimates need every
    /// outcome possible. A game or two then moves the LLR by a few hundredths, not by whole units.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        self.llr_of(&wdl.buckets(), 1.0)
    }

    /// The log-likelihood ratio of pair results; 0 without pairs, empty buckets regularised as for
    /// [`Sprt::llr`].
    pub fn llr_pentanomial(&self, pentanomial: &Pentanomial) -> f64 {
        self.llr_of(&pentanomial.buckets(), 2.0)
    }

    /// Where the test stands at `llr`.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    fn llr_of(&self, buckets: &[(f64, u64)], games_per_sample: f64) -> f64 {
        if buckets.iter().all(|&(_, count)| count == 0) {
            return 0.0;
        }
        let mut buckets: Vec<(f64, f64)> = buckets
            .iter()
            .map(|&(s, c)| (s, if c == 0 { EMPTY_BUCKET } else { c as f64 }))
            .collect();
        buckets.sort_by(|x, y| x.0.total_cmp(&y.0));
        let total: f64 = buckets.iter().map(|&(_, c)| c).sum();
        let scores: Vec<f64> = buckets.iter().map(|&(s, _)| s).collect();
        let probs: Vec<f64> = buckets.iter().map(|&(_, c)| c / total).collect();
        match self.model {
            SprtModel::Logistic => gsprt::llr_logistic(
                total,
                &scores,
                &probs,
                elo_to_score(self.elo0),
                elo_to_score(self.elo1),
            ),
            SprtModel::Normalized => {
                let t = |nelo: f64| nelo * games_per_sample.sqrt() / NELO_SCALE;
                gsprt::llr_normalized(total, &scores, &probs, t(self.elo0), t(self.elo1))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `value` prints as `expected` with `decimals` decimals.
    fn assert_printed(value: f64, expected: &str, decimals: usize) {
        assert_eq!(format!("{value:.decimals$}"), expected, "value {value}");
    }

    fn wdl(wins: u64, losses: u64, draws: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn per_game_elo_nelo_los() {
        let w = wdl(136, 96, 111);
        let elo = w.elo().unwrap();
        assert_printed(elo.elo, "40.70", 2);
        assert_printed(elo.error95, "30.43", 2);
        let nelo = w.nelo().unwrap();
        assert_printed(nelo.elo, "49.77", 2);
        assert_printed(nelo.error95, "36.77", 2);
        assert_printed(w.los().unwrap() * 100.0, "99.60", 2);
    }

    #[test]
    fn per_game_negative() {
        let w = wdl(76, 89, 123);
        let nelo = w.nelo().unwrap();
        assert_printed(nelo.elo, "-20.76", 2);
        assert_printed(nelo.error95, "40.13", 2);
        assert_printed(w.los().unwrap() * 100.0, "15.53", 2);
    }

    #[test]
    fn pentanomial_elo_nelo() {
        let p = Pentanomial::from_six(34, 54, 31, 32, 64, 75);
        assert_eq!(p.wl_dd, 63);
        assert_eq!(p.pairs(), 290);
        let elo = p.elo().unwrap();
        assert_printed(elo.elo, "55.58", 2);
        assert_printed(elo.error95, "27.65", 2);
        let nelo = p.nelo().unwrap();
        assert_printed(nelo.elo, "57.94", 2);
        assert_printed(nelo.error95, "28.28", 2);
        let los = p.los().unwrap();
        assert!(los > 0.99 && los <= 1.0, "{los}");
    }

    fn sprt(model: SprtModel) -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 2.0,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn sprt_vectors() {
        let normalized = sprt(SprtModel::Normalized);
        assert_printed(normalized.llr(&wdl(36433, 36027, 68692)), "0.92", 2);
        let logistic = sprt(SprtModel::Logistic);
        assert_printed(logistic.llr(&wdl(57433, 57030, 106593)), "-2.59", 2);
        let pairs = Pentanomial::from_six(365, 16618, 36029, 200, 16974, 390);
        assert_printed(normalized.llr_pentanomial(&pairs), "2.25", 2);
    }

    fn bounds(model: SprtModel, elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            ..sprt(model)
        }
    }

    fn pairs(wd: u64, ww: u64) -> Pentanomial {
        Pentanomial {
            wd,
            ww,
            ..Pentanomial::default()
        }
    }

    #[test]
    fn sprt_small_samples_match_fastchess() {
        // Reference values from a port of fastchess's SPRT (app/src/matchmaking/sprt/sprt.cpp):
        // a game or two is a few hundredths of evidence, never a decision.
        let (logistic, normalized) = (SprtModel::Logistic, SprtModel::Normalized);
        let cases = [
            (bounds(logistic, 0.0, 10.0).llr(&wdl(1, 0, 0)), 0.028_367),
            (bounds(normalized, 0.0, 10.0).llr(&wdl(1, 0, 0)), 0.028_349),
            (bounds(logistic, -5.0, 5.0).llr(&wdl(3, 1, 2)), 0.086_342),
            (bounds(normalized, -5.0, 5.0).llr(&wdl(3, 1, 2)), 0.070_500),
            (
                bounds(logistic, 0.0, 5.0).llr_pentanomial(&pairs(0, 3)),
                0.042_891,
            ),
            (
                bounds(normalized, 0.0, 5.0).llr_pentanomial(&pairs(0, 3)),
                0.060_441,
            ),
            (
                bounds(normalized, 0.0, 10.0).llr_pentanomial(&pairs(0, 5)),
                0.199_345,
            ),
            (
                bounds(logistic, 0.0, 5.0).llr_pentanomial(&pairs(1, 3)),
                0.057_162,
            ),
            (
                bounds(normalized, 0.0, 5.0).llr_pentanomial(&pairs(1, 3)),
                0.075_320,
            ),
        ];
        for (i, (llr, expected)) in cases.iter().enumerate() {
            assert!(
                (llr - expected).abs() < 5e-5,
                "case {i}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn sprt_bounds_and_status() {
        let test = sprt(SprtModel::Normalized);
        let (lower, upper) = test.bounds();
        assert_printed(lower, "-2.944", 3);
        assert_printed(upper, "2.944", 3);
        assert_eq!(test.status(0.92), SprtStatus::Continue);
        assert_eq!(test.status(2.95), SprtStatus::AcceptH1);
        assert_eq!(test.status(-2.95), SprtStatus::AcceptH0);
        assert_eq!(test.status(upper), SprtStatus::AcceptH1);
    }

    #[test]
    fn no_games() {
        let w = Wdl::default();
        assert_eq!(w.score(), None);
        assert_eq!(w.elo(), None);
        assert_eq!(w.nelo(), None);
        assert_eq!(w.los(), None);
        assert_eq!(w.draw_ratio(), None);
        let p = Pentanomial::default();
        assert_eq!(p.elo(), None);
        assert_eq!(p.nelo(), None);
        assert_eq!(p.los(), None);
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            assert_eq!(sprt(model).llr(&w), 0.0);
            assert_eq!(sprt(model).llr_pentanomial(&p), 0.0);
        }
    }

    #[test]
    fn all_wins_and_all_losses() {
        let w = wdl(10, 0, 0);
        let elo = w.elo().unwrap();
        assert_eq!(elo.elo, f64::INFINITY);
        assert_eq!(elo.error95, f64::INFINITY);
        assert_eq!(w.nelo(), None);
        assert_eq!(w.los(), Some(1.0));
        let l = wdl(0, 10, 0);
        assert_eq!(l.elo().unwrap().elo, f64::NEG_INFINITY);
        assert!(l.los().unwrap() < 1e-9);
        let p = Pentanomial {
            ww: 5,
            ..Pentanomial::default()
        };
        assert_eq!(p.elo().unwrap().elo, f64::INFINITY);
        assert_eq!(p.los(), Some(1.0));
    }

    #[test]
    fn sprt_decides_runs_without_variance() {
        // Every game (pair) with the same result: no observed variance, yet the test must move,
        // slowly (at [0, 2], 400 wins are not enough), and decide in the end.
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            assert_eq!(
                sprt(model).status(sprt(model).llr(&wdl(400, 0, 0))),
                SprtStatus::Continue
            );
            let test = bounds(model, 0.0, 5.0);
            let llrs: Vec<f64> = [1, 5, 20, 100, 400]
                .iter()
                .map(|&n| test.llr(&wdl(n, 0, 0)))
                .collect();
            assert!(llrs.windows(2).all(|w| w[0] < w[1]), "{model:?}: {llrs:?}");
            assert!(llrs.iter().all(|l| l.is_finite() && *l > 0.0), "{llrs:?}");
            assert_eq!(
                test.status(llrs[4]),
                SprtStatus::AcceptH1,
                "{model:?}: {llrs:?}"
            );
            assert_eq!(test.status(test.llr(&wdl(0, 400, 0))), SprtStatus::AcceptH0);
            let ww = Pentanomial {
                ww: 400,
                ..Pentanomial::default()
            };
            assert_eq!(test.status(test.llr_pentanomial(&ww)), SprtStatus::AcceptH1);
            let ll = Pentanomial {
                ll: 400,
                ..Pentanomial::default()
            };
            assert_eq!(test.status(test.llr_pentanomial(&ll)), SprtStatus::AcceptH0);
        }
        // All draws: no evidence of a difference, so it leans to H0 (elo0 = 0) under the logistic
        // model, and never towards H1.
        let draws = wdl(0, 0, 400);
        let logistic = bounds(SprtModel::Logistic, 0.0, 5.0);
        assert_eq!(logistic.status(logistic.llr(&draws)), SprtStatus::AcceptH0);
        assert!(sprt(SprtModel::Normalized).llr(&draws) < 0.0);
        // A single bucket regularised does not move data with every bucket filled.
        let test = sprt(SprtModel::Normalized);
        assert_printed(test.llr(&wdl(36433, 36027, 68692)), "0.92", 2);
    }

    #[test]
    fn all_draws() {
        let w = wdl(0, 0, 7);
        assert_eq!(w.score(), Some(0.5));
        assert_eq!(w.draw_ratio(), Some(1.0));
        assert_eq!(
            w.elo(),
            Some(EloEstimate {
                elo: 0.0,
                error95: 0.0,
                lower95: 0.0,
                upper95: 0.0,
            })
        );
        assert_eq!(w.nelo(), None);
        assert_eq!(w.los(), Some(0.5));
        let p = Pentanomial {
            wl_dd: 4,
            ..Pentanomial::default()
        };
        assert_eq!(p.los(), Some(0.5));
        assert_eq!(p.nelo(), None);
    }

    #[test]
    fn interval_reaching_a_bound_is_infinite_not_nan() {
        // 9 wins, 1 loss: the 95 % interval of the score passes 1.
        let elo = wdl(9, 1, 0).elo().unwrap();
        assert!(elo.elo.is_finite());
        assert_eq!(elo.error95, f64::INFINITY);
        // Wilson's interval instead: 0.5958 to 0.9821 (+67.4 to +696.0 Elo).
        assert_printed(elo.lower95, "67.4", 1);
        assert_printed(elo.upper95, "696.0", 1);
    }

    #[test]
    fn a_clean_sweep_has_a_lower_bound() {
        // 200 wins: Wilson's interval of the score starts at 1/(1 + 1.96^2/200) = 0.98115,
        // +686.6 Elo; 100 pairs won twice: 1/(1 + 1.96^2/100) = 0.96301, +566.2.
        let sweep = wdl(200, 0, 0).elo().unwrap();
        assert_eq!((sweep.elo, sweep.upper95), (f64::INFINITY, f64::INFINITY));
        assert_printed(sweep.lower95, "686.6", 1);
        let pairs = Pentanomial {
            ww: 100,
            ..Pentanomial::default()
        };
        assert_printed(pairs.elo().unwrap().lower95, "566.2", 1);
        let lost = wdl(0, 200, 0).elo().unwrap();
        assert_eq!(lost.lower95, f64::NEG_INFINITY);
        assert_printed(lost.upper95, "-686.6", 1);
        // More games, a tighter bound; a lost game, a looser one, and the interval closes.
        assert!(wdl(1000, 0, 0).elo().unwrap().lower95 > sweep.lower95);
        let almost = wdl(199, 1, 0).elo().unwrap();
        assert!(almost.lower95 < sweep.lower95 && almost.upper95.is_finite());
    }

    #[test]
    fn add_pair_buckets() {
        let mut p = Pentanomial::default();
        for (a, b) in [
            (0.0, 0.0),
            (0.5, 0.0),
            (1.0, 0.0),
            (0.5, 0.5),
            (1.0, 0.5),
            (1.0, 1.0),
        ] {
            p.add_pair(a, b);
        }
        assert_eq!(p, Pentanomial::from_six(1, 1, 1, 1, 1, 1));
    }

    #[test]
    fn erf_known_values() {
        for (x, expected) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (-1.0, -0.842_700_792_949_714_9),
        ] {
            assert!((erf(x) - expected).abs() < 1e-13, "erf({x}) = {}", erf(x));
        }
        assert!((normal_cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-12);
    }
}
