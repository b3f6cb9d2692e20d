//! Clocks and the time budget of a move. The engine must never lose on time: budgets keep a safety margin for
//! process and pipe overhead on a loaded machine.
//!
//! Time that a move leaves unused is worth keeping only when a later move can use it: main time, and the earlier
//! moves of a byo-yomi period of several stones. The last move of a period cannot pass anything on (the next
//! period starts full), so it uses what is left of the period but a small reserve. With one stone per period,
//! which is what a limit per move (`time_settings 0 S 1`) is, that makes "S seconds per move" mean close to S.

use std::time::Duration;

/// A time system, as set by `time_settings` or `kgs-time_settings`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No clock.
    Unlimited,
    /// `main` seconds for the whole game.
    Absolute {
        /// Main time in seconds.
        main: f64,
    },
    /// Main time, then periods of `period` seconds for `stones` moves each (GTP's `time_settings`).
    Canadian {
        /// Main time in seconds.
        main: f64,
        /// Seconds per period.
        period: f64,
        /// Moves per period.
        stones: u32,
    },
    /// Main time, then `periods` periods of `period` seconds; a move within a period keeps it (Japanese).
    Byoyomi {
        /// Main time in seconds.
        main: f64,
        /// Seconds per period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
}

/// Seconds always kept back from a budget for process, pipe and scheduling delays.
pub const OVERHEAD: f64 = 0.06;
/// Share of its part of a byo-yomi period a move may use when later moves of the period can use what it leaves.
pub const PERIOD_SHARE: f64 = 0.8;
/// Share of a byo-yomi period kept back on the last move of the period, bounded by [`MIN_RESERVE`] and
/// [`OVERHEAD`].
pub const LAST_STONE_RESERVE: f64 = 0.1;
/// The smallest reserve on the last move of a byo-yomi period.
pub const MIN_RESERVE: f64 = 0.01;
/// Shortest budget: a search always gets at least this.
pub const MIN_BUDGET: f64 = 0.005;

/// One player's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    main_left: f64,
    period_left: f64,
    stones_left: u32,
    periods_left: u32,
}

impl Clock {
    /// A full clock of `system`.
    pub fn new(system: TimeSystem) -> Clock {
        let (main, period, stones, periods) = match system {
            TimeSystem::Unlimited => (0.0, 0.0, 0, 0),
            TimeSystem::Absolute { main } => (main, 0.0, 0, 0),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => (main, period, stones, 0),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => (main, period, 0, periods),
        };
        Clock {
            system,
            main_left: main,
            period_left: period,
            stones_left: stones,
            periods_left: periods,
        }
    }

    /// The time system.
    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// Applies GTP `time_left TIME STONES`: STONES 0 means TIME is main time left; otherwise the player is in
    /// byo-yomi with TIME seconds for STONES moves (Canadian) or TIME seconds in the current period and STONES
    /// periods left (Japanese, as KGS sends it).
    pub fn set_left(&mut self, time: f64, stones: u32) {
        let time = time.max(0.0);
        if stones == 0 {
            self.main_left = time;
            return;
        }
        self.main_left = 0.0;
        self.period_left = time;
        match self.system {
            TimeSystem::Byoyomi { .. } => self.periods_left = stones,
            _ => self.stones_left = stones,
        }
    }

    /// Charges `seconds` of thinking for one move.
    pub fn spend(&mut self, seconds: f64) {
        let mut t = seconds;
        if self.main_left > 0.0 {
            let used = t.min(self.main_left);
            self.main_left -= used;
            t -= used;
            if t <= 0.0 {
                return;
            }
        }
        match self.system {
            TimeSystem::Canadian { period, stones, .. } => {
                self.period_left -= t;
                self.stones_left = self.stones_left.saturating_sub(1);
                if self.stones_left == 0 {
                    self.period_left = period;
                    self.stones_left = stones;
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                let lost = (t / period).floor() as u32;
                self.periods_left = self.periods_left.saturating_sub(lost);
                self.period_left = period;
            }
            _ => self.main_left = 0.0,
        }
    }

    /// The thinking time for the next move, or `None` without a clock. `moves_left` estimates the player's
    /// remaining moves.
    pub fn budget(&self, moves_left: f64) -> Option<Duration> {
        let moves_left = moves_left.max(1.0);
        let seconds = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Absolute { .. } => {
                (self.main_left / moves_left).min(self.main_left * 0.5) - OVERHEAD
            }
            TimeSystem::Canadian { period, stones, .. } => {
                if stones == 0 {
                    // GTP: a period with no stones means no time limit.
                    return None;
                }
                let from_main = self.main_left / moves_left;
                if self.main_left > 0.0 {
                    // Main time first; when it is nearly gone, the next period is the reserve.
                    from_main
                        .max((period / f64::from(stones)) * PERIOD_SHARE)
                        .min(self.main_left + period * 0.5)
                        - OVERHEAD
                } else if self.stones_left <= 1 {
                    // The period's last move: nothing it leaves can be used later.
                    self.period_left - last_stone_reserve(period)
                } else {
                    (self.period_left / f64::from(self.stones_left)) * PERIOD_SHARE - OVERHEAD
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                let per_period = if self.periods_left > 0 {
                    period * PERIOD_SHARE
                } else {
                    0.0
                };
                if self.main_left > 0.0 {
                    (self.main_left / moves_left).max(per_period.min(self.main_left + per_period))
                        - OVERHEAD
                } else {
                    per_period - OVERHEAD
                }
            }
        };
        Some(Duration::from_secs_f64(seconds.max(MIN_BUDGET)))
    }
}

/// Seconds kept back on the last move of a byo-yomi period of `period` seconds: a tenth of the period, at least
/// [`MIN_RESERVE`] and at most [`OVERHEAD`]. The pipes and the end of a search take a few milliseconds; a referee
/// such as `oust match` allows a grace margin on top.
pub fn last_stone_reserve(period: f64) -> f64 {
    (period * LAST_STONE_RESERVE).clamp(MIN_RESERVE, OVERHEAD)
}

/// A guess of how many more moves the side to move will make, from the number of empty points.
pub fn moves_left(empties: usize) -> f64 {
    (empties as f64 * 0.5 + 4.0).max(6.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canadian(main: f64, period: f64, stones: u32) -> Clock {
        Clock::new(TimeSystem::Canadian {
            main,
            period,
            stones,
        })
    }

    fn budget(clock: &Clock) -> f64 {
        clock.budget(40.0).unwrap().as_secs_f64()
    }

    #[test]
    fn canadian_one_second_per_move_keeps_a_margin() {
        let b = budget(&canadian(0.0, 1.0, 1));
        assert!((b - 0.94).abs() < 1e-9, "{b}");
    }

    #[test]
    fn the_last_stone_of_a_period_uses_what_is_left_but_a_reserve_that_scales_with_the_period() {
        // One stone per period (a limit per move): nearly all of it, whatever its length.
        for (period, reserve) in [
            (0.05, 0.01),
            (0.1, 0.01),
            (0.2, 0.02),
            (0.5, 0.05),
            (1.0, 0.06),
            (30.0, 0.06),
        ] {
            let b = budget(&canadian(0.0, period, 1));
            assert!((b - (period - reserve)).abs() < 1e-9, "{period}: {b}");
        }
        // The last stone of a longer period gets what the earlier stones left.
        let mut clock = canadian(0.0, 10.0, 3);
        clock.spend(2.0);
        clock.spend(3.0);
        assert_eq!((clock.period_left, clock.stones_left), (5.0, 1));
        assert!((budget(&clock) - 4.94).abs() < 1e-9);
        // time_left says the same.
        let mut clock = canadian(60.0, 0.2, 1);
        clock.set_left(0.2, 1);
        assert!((budget(&clock) - 0.18).abs() < 1e-9);
        // A period shorter than the reserve still gets the shortest budget.
        assert_eq!(budget(&canadian(0.0, 0.005, 1)), MIN_BUDGET);
    }

    #[test]
    fn earlier_stones_of_a_period_and_main_time_still_spread() {
        // 10 s for 5 stones: 2 s each, 80% of it, less the overhead.
        let b = budget(&canadian(0.0, 10.0, 5));
        assert!((b - 1.54).abs() < 1e-9, "{b}");
        // Main time is spread over the moves expected (40 here), not used up on one.
        let b = budget(&canadian(40.0, 1.0, 1));
        assert!((b - 0.94).abs() < 1e-9, "{b}");
        let b = budget(&canadian(400.0, 1.0, 1));
        assert!((b - (10.0 - OVERHEAD)).abs() < 1e-9, "{b}");
    }

    #[test]
    fn absolute_time_is_spread_and_never_all_used() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 60.0 });
        let b = clock.budget(30.0).unwrap().as_secs_f64();
        assert!((1.8..2.0).contains(&b), "{b}");
        clock.spend(59.0);
        let b = clock.budget(30.0).unwrap().as_secs_f64();
        assert!(b < 0.5, "{b}");
    }

    #[test]
    fn canadian_periods_reset_after_their_stones() {
        let mut clock = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: 10.0,
            stones: 2,
        });
        clock.spend(3.0);
        assert_eq!((clock.period_left, clock.stones_left), (7.0, 1));
        // The period's last stone: what is left of it, less the reserve.
        let b = clock.budget(10.0).unwrap().as_secs_f64();
        assert!((b - 6.94).abs() < 1e-9, "{b}");
        clock.spend(3.0);
        assert_eq!((clock.period_left, clock.stones_left), (10.0, 2));
    }

    #[test]
    fn time_left_overrides_our_own_accounting() {
        let mut clock = Clock::new(TimeSystem::Canadian {
            main: 30.0,
            period: 5.0,
            stones: 5,
        });
        clock.set_left(4.0, 3);
        assert_eq!(
            (clock.main_left, clock.period_left, clock.stones_left),
            (0.0, 4.0, 3)
        );
        clock.set_left(12.5, 0);
        assert_eq!(clock.main_left, 12.5);
    }

    #[test]
    fn japanese_byoyomi_uses_most_of_a_period() {
        let clock = Clock::new(TimeSystem::Byoyomi {
            main: 0.0,
            period: 2.0,
            periods: 3,
        });
        let b = clock.budget(20.0).unwrap().as_secs_f64();
        assert!((1.4..1.6).contains(&b), "{b}");
    }

    #[test]
    fn no_stones_means_no_limit() {
        assert_eq!(
            Clock::new(TimeSystem::Canadian {
                main: 0.0,
                period: 5.0,
                stones: 0
            })
            .budget(1.0),
            None
        );
        assert_eq!(Clock::new(TimeSystem::Unlimited).budget(1.0), None);
    }
}
