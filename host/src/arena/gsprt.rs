//! The log-likelihood ratio of the generalised SPRT, computed as fastchess and fishtest do (after
//! Michel Van den Bergh's notes "Normalized Elo" and "A comment on the GSPRT"): the results are a
//! multinomial sample (3 outcomes per game, 5 per pair of games) with observed frequencies `p̂`;
//! under each hypothesis the distribution `p` closest to `p̂` (the maximum likelihood estimate
//! constrained to the hypothesis) is found, and
//!
//! `LLR = N · Σ p̂ᵢ · (ln p1ᵢ − ln p0ᵢ)`.
//!
//! The constrained estimate has the form `pᵢ = p̂ᵢ / (1 + θ·φᵢ)` for a Lagrange multiplier `θ`, the
//! root of `Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0` on the interval where every `pᵢ` is positive, found here by
//! ITP root finding (a bisection that interpolates when it can):
//!
//! - logistic Elo fixes the expected score `s`: `φᵢ = aᵢ − s`;
//! - normalised Elo fixes `(μ − ½) / σ = t`, which is not linear in `p`: `φᵢ` depends on the current
//!   `μ` and `σ`, so the estimate is iterated until it stops moving.
//!
//! Unlike the Gaussian approximation `(s1 − s0)(2μ − s0 − s1) / (2σ²/N)`, this stays sound when a
//! bucket is empty (a few games, all won): it measures how much more likely the data is under H1,
//! not how many standard errors of a near-zero variance the mean lies from the middle.

/// `Σ p̂ᵢ φᵢ / (1 + θ φᵢ)`: the derivative whose root is the multiplier `θ`.
fn multiplier_equation(probs: &[f64], phi: &[f64], theta: f64) -> f64 {
    probs
        .iter()
        .zip(phi)
        .map(|(p, f)| p * f / (1.0 + theta * f))
        .sum()
}

/// The constrained estimate `p̂ᵢ / (1 + θ φᵢ)` with `θ` the root of [`multiplier_equation`] on
/// `(−1/max φ, −1/min φ)`, where the equation runs from +∞ down to −∞. `None` when `φ` does not
/// change sign (the hypothesis cannot be met by any distribution on these scores).
fn constrained(probs: &[f64], phi: &[f64], eps: f64) -> Option<Vec<f64>> {
    let low = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let high = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(low < 0.0 && high > 0.0) {
        return None;
    }
    let theta = itp(
        |x| multiplier_equation(probs, phi, x),
        (-1.0 / high, f64::INFINITY),
        (-1.0 / low, f64::NEG_INFINITY),
        eps,
    );
    Some(
        probs
            .iter()
            .zip(phi)
            .map(|(p, f)| p / (1.0 + theta * f))
            .collect(),
    )
}

/// A root of the decreasing-or-increasing `f` between `a` and `b` (given with their values, which
/// may be infinite and must have opposite signs), to within `eps`, by the ITP method (Oliveira &
/// Takahashi) with `κ1 = 0.1`, `κ2 = 2`, `n0 = 0.99`.
fn itp(
    f: impl Fn(f64) -> f64,
    (mut a, mut fa): (f64, f64),
    (mut b, mut fb): (f64, f64),
    eps: f64,
) -> f64 {
    const K1: f64 = 0.1;
    const K2: f64 = 2.0;
    const N0: f64 = 0.99;
    // Keep f(a) < 0 < f(b).
    if fa > 0.0 {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    let n_half = ((b - a).abs() / (2.0 * eps)).log2().ceil().max(0.0);
    let n_max = n_half + N0;
    let mut step = 0.0;
    // The bound on steps is n_max; the cap only guards against a NaN from a degenerate input.
    for _ in 0..200 {
        if (b - a).abs() <= 2.0 * eps {
            break;
        }
        let half = (a + b) / 2.0;
        let radius = eps * 2f64.powf(n_max - step) - (b - a).abs() / 2.0;
        let delta = K1 * (b - a).abs().powf(K2);
        let false_position = if fa.is_infinite() || fb.is_infinite() {
            half
        } else {
            (fb * a - fa * b) / (fb - fa)
        };
        let sigma = if half > false_position {
            1.0
        } else if half < false_position {
            -1.0
        } else {
            0.0
        };
        let truncated = if delta <= (half - false_position).abs() {
            false_position + sigma * delta
        } else {
            half
        };
        let x = if (truncated - half).abs() <= radius {
            truncated
        } else {
            half - sigma * radius
        };
        let fx = f(x);
        if fx == 0.0 {
            a = x;
            b = x;
        } else if fx < 0.0 {
            (a, fa) = (x, fx);
        } else {
            (b, fb) = (x, fx);
        }
        step += 1.0;
    }
    (a + b) / 2.0
}

/// `N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ)`; 0 when either estimate is missing or not finite.
fn ratio(total: f64, probs: &[f64], p0: Option<Vec<f64>>, p1: Option<Vec<f64>>) -> f64 {
    let (Some(p0), Some(p1)) = (p0, p1) else {
        return 0.0;
    };
    let llr = total
        * probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>();
    if llr.is_finite() {
        llr
    } else {
        0.0
    }
}

/// The LLR of `H0: E[score] = s0` against `H1: E[score] = s1` (logistic Elo) for `total` samples
/// with scores `scores` seen with frequencies `probs` (every one positive).
pub(super) fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let estimate = |s: f64| {
        let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
        constrained(probs, &phi, 1e-3)
    };
    ratio(total, probs, estimate(s0), estimate(s1))
}

/// The LLR of `H0: (μ − ½)/σ = t0` against `H1: (μ − ½)/σ = t1` (normalised Elo: `t` is nElo
/// `· ln 10 / 800`, times √2 for pairs) for `total` samples with scores `scores` seen with
/// frequencies `probs` (every one positive).
pub(super) fn llr_normalized(total: f64, scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let estimate = |t: f64| {
        let mut p = vec![1.0 / scores.len() as f64; scores.len()];
        // Converges in a handful of rounds; the cap guards a case that oscillates.
        for _ in 0..1000 {
            let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
            let variance: f64 = scores
                .iter()
                .zip(&p)
                .map(|(a, q)| q * (a - mu).powi(2))
                .sum();
            let sigma = variance.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
                .collect();
            let next = constrained(probs, &phi, 1e-7)?;
            let moved = next
                .iter()
                .zip(&p)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max);
            p = next;
            if moved < 1e-4 {
                break;
            }
        }
        Some(p)
    };
    ratio(total, probs, estimate(t0), estimate(t1))
}
