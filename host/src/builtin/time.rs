//! Time management: from the clocks of a request to a soft limit (start no new iteration after
//! it) and a hard one (stop the search at once).
//!
//! The limits are fair time, as the host charges it ([`crate::seat::stopwatch`]): a busy
//! machine's waits for a core are neither spent nor charged, so the margin kept in hand only has
//! to cover the bot's own way from noticing the limit to handing its answer over. The hard limit
//! always leaves half the clock and that margin: with 120 s per game the bot spends about 1/30 of
//! what is left per move ([`MOVES_LEFT`], or the game's own [`super::search::Heuristics`]'s
//! `moves_left`), with an increment most of the increment, and with a fixed move time all but a
//! twentieth of it (at least 5 ms).

use std::time::Duration;

use tavola_sdk::abi::Clocks;

use super::search::Limits;

/// What an untimed move may take (the GUI without a clock).
pub const UNTIMED: Duration = Duration::from_secs(1);

/// The time the bot keeps in hand whatever the clock: half of it, at most 50 ms (a loaded
/// machine can delay a thread by tens of milliseconds: with a third, one game in 30 at 0.1+0.1
/// was lost on time under a load average of 8 on 2 cores).
fn margin(left: Duration) -> Duration {
    (left / 2).min(Duration::from_millis(50))
}

/// What a fixed time per move keeps in hand: a twentieth, at least 5 ms, at most half. (In wall
/// time, 15 ms at 100 ms per move lost one game in 200 while the machine also compiled; in fair
/// time, `scripts/time-losses.sh` measures none at 50 ms per move with every core busy.)
fn movetime_margin(movetime: Duration) -> Duration {
    (movetime / 20)
        .max(Duration::from_millis(5))
        .min(movetime / 2)
}

/// The moves over which the clock is spent by default: each move's soft limit is what is left
/// over this many, plus three quarters of the increment.
pub const MOVES_LEFT: u32 = 30;

/// The soft and hard limits for one move, given the clocks and, if the user set one, a fixed
/// time per move (`movetime`, which wins over the clock but never exceeds its safe part).
#[must_use]
pub fn limits(clocks: &Clocks, movetime: Option<Duration>) -> Limits {
    limits_over(clocks, movetime, MOVES_LEFT)
}

/// As [`limits`], the clock spent over `moves_left` moves instead of [`MOVES_LEFT`].
#[must_use]
pub fn limits_over(clocks: &Clocks, movetime: Option<Duration>, moves_left: u32) -> Limits {
    let own = clocks.own_ms.into_option().map(Duration::from_millis);
    let increment = Duration::from_millis(clocks.increment_ms);
    let host_movetime = clocks.movetime_ms.into_option().map(Duration::from_millis);
    // What the clock allows at most on this move.
    let clock_cap = own.map(|left| left.saturating_sub(margin(left)));
    let fixed = movetime.or(host_movetime).map(|t| {
        t.saturating_sub(movetime_margin(t))
            .max(Duration::from_millis(1))
    });
    let (soft, hard) = match (fixed, clock_cap) {
        (Some(t), Some(cap)) => (t.min(cap / 2), t.min(cap / 2)),
        (Some(t), None) => (t, t),
        (None, Some(cap)) => {
            let left = own.unwrap_or_default();
            let soft = (left / moves_left.max(1) + increment * 3 / 4).min(cap / 2);
            // Never more than half of what is left: one slow move cannot lose the game.
            let hard = (soft * 3).min(cap / 2);
            (soft, hard)
        }
        (None, None) => (UNTIMED, UNTIMED),
    };
    Limits {
        depth: None,
        nodes: None,
        soft: Some(soft),
        hard: Some(hard.max(soft)),
        wall_clock: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::clocks;

    fn ms(d: Option<Duration>) -> u128 {
        d.unwrap().as_millis()
    }

    #[test]
    fn a_game_clock_is_spent_slowly_and_never_to_the_end() {
        let l = limits(&clocks(Some(120_000), Some(120_000), 0), None);
        assert_eq!(ms(l.soft), 4000);
        assert_eq!(ms(l.hard), 12_000);
        // Almost out of time: never more than the clock minus the margin.
        let l = limits(&clocks(Some(30), Some(120_000), 0), None);
        assert!(ms(l.hard) < 30);
    }

    #[test]
    fn the_clock_is_spent_over_the_moves_asked() {
        let clocks = clocks(Some(10_000), Some(10_000), 100);
        let l = limits_over(&clocks, None, 20);
        assert_eq!((ms(l.soft), ms(l.hard)), (575, 1725));
        assert_eq!(
            limits(&clocks, None),
            limits_over(&clocks, None, MOVES_LEFT)
        );
        assert_eq!(ms(limits(&clocks, None).soft), 408);
    }

    #[test]
    fn an_increment_is_mostly_spent() {
        let l = limits(&clocks(Some(100), Some(100), 100), None);
        assert!(ms(l.soft) >= 20 && ms(l.hard) <= 50, "{l:?}");
    }

    #[test]
    fn a_move_time_is_kept_within_the_clock() {
        let l = limits(&clocks(None, None, 0), Some(Duration::from_millis(300)));
        assert_eq!((ms(l.soft), ms(l.hard)), (285, 285));
        let l = limits(&clocks(None, None, 0), Some(Duration::from_millis(100)));
        assert_eq!((ms(l.soft), ms(l.hard)), (95, 95), "5 ms kept in hand");
        let l = limits(&clocks(None, None, 0), Some(Duration::from_millis(20)));
        assert_eq!(ms(l.hard), 15, "5 ms kept of a short move time");
        let l = limits(&clocks(None, None, 0), Some(Duration::from_millis(8)));
        assert_eq!(ms(l.hard), 4, "half of a very short one");
        let l = limits(
            &clocks(Some(200), None, 0),
            Some(Duration::from_millis(300)),
        );
        assert!(ms(l.hard) <= 80, "{l:?}");
        let l = limits(&clocks(None, None, 0), None);
        assert_eq!(l.soft, Some(UNTIMED));
    }
}
