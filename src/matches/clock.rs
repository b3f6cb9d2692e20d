//! Time controls as the referee keeps them: GTP's Canadian byo-yomi clock (`time_settings M B S`), a limit per
//! move, and the grace margin the referee allows on top before it declares a loss on time.

use std::time::Duration;

/// GTP `time_settings`: `main` seconds, then `byo_time` seconds for every `byo_stones` moves (Canadian
/// byo-yomi). `byo_time = 0` is absolute time; `byo_time > 0` with `byo_stones = 0` means no limit (GTP 4.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockSettings {
    /// Main time in seconds.
    pub main: f64,
    /// Seconds of each byo-yomi period.
    pub byo_time: f64,
    /// Moves to play in each byo-yomi period.
    pub byo_stones: u32,
}

impl ClockSettings {
    /// True for GTP's "no time limit" (byo-yomi time without stones).
    pub fn unlimited(&self) -> bool {
        self.byo_time > 0.0 && self.byo_stones == 0
    }

    /// The `time_settings` command that announces these settings.
    pub fn command(&self) -> String {
        format!(
            "time_settings {} {} {}",
            seconds(self.main),
            seconds(self.byo_time),
            self.byo_stones
        )
    }
}

/// Seconds as GTP writes them: a whole number when the value is whole, otherwise with up to three decimals (which
/// strict GTP engines may refuse; the referee enforces the limit either way).
pub fn seconds(s: f64) -> String {
    let text = format!("{s:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The time rules of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// The clock announced with `time_settings` (from `--time-settings`, or `0 S 1` for `--time-per-move S`).
    pub clock: Option<ClockSettings>,
    /// The longest any single move may take (`--time-per-move`), on top of the clock.
    pub per_move: Option<f64>,
    /// Seconds of lateness beyond its limits an engine may accumulate before it loses on time: in a game under
    /// absolute time, in a byo-yomi period (so for each move under `--time-per-move`).
    pub grace: f64,
    /// The longest wait for any response when no clock limits it: other commands, and `genmove` without a clock.
    pub timeout: f64,
}

impl TimeControl {
    /// The time control of `--time-per-move` and `--time-settings`: the clock is the given settings, or
    /// `0 S 1` (S seconds for every move) when only a limit per move is given.
    pub fn new(
        per_move: Option<f64>,
        settings: Option<ClockSettings>,
        grace: f64,
        timeout: f64,
    ) -> TimeControl {
        let clock = settings.or(per_move.map(|s| ClockSettings {
            main: 0.0,
            byo_time: s,
            byo_stones: 1,
        }));
        TimeControl {
            clock,
            per_move,
            grace,
            timeout,
        }
    }

    /// The wait for a response to anything but `genmove`.
    pub fn command_limit(&self) -> Duration {
        Duration::from_secs_f64(self.timeout)
    }
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    settings: ClockSettings,
    main_left: f64,
    in_byo: bool,
    period_left: f64,
    stones_left: u32,
}

impl Clock {
    /// A full clock.
    pub fn new(settings: ClockSettings) -> Clock {
        let mut clock = Clock {
            settings,
            main_left: settings.main,
            in_byo: false,
            period_left: settings.byo_time,
            stones_left: settings.byo_stones,
        };
        if settings.main <= 0.0 && settings.byo_stones > 0 {
            clock.in_byo = true;
        }
        clock
    }

    /// Seconds the next move may take before the flag falls, or `None` when this clock sets no limit.
    pub fn allowance(&self) -> Option<f64> {
        let s = &self.settings;
        if s.unlimited() {
            None
        } else if self.in_byo {
            Some(self.period_left)
        } else if s.byo_stones > 0 {
            // A move that outlasts main time goes on in the first byo-yomi period.
            Some(self.main_left + s.byo_time)
        } else {
            Some(self.main_left)
        }
    }

    /// Takes `used` seconds off the clock for one move. A move that ran over its allowance by less than the grace
    /// margin leaves the clock at zero rather than losing. Returns true when the move completed a byo-yomi period,
    /// so that a fresh one begins (every move under `--time-per-move`, a period of one stone).
    pub fn charge(&mut self, used: f64) -> bool {
        let s = self.settings;
        if s.unlimited() {
            return false;
        }
        let mut used = used;
        if !self.in_byo {
            if used <= self.main_left || s.byo_stones == 0 {
                self.main_left = (self.main_left - used).max(0.0);
                return false;
            }
            used -= self.main_left;
            self.main_left = 0.0;
            self.in_byo = true;
            self.period_left = s.byo_time;
            self.stones_left = s.byo_stones;
        }
        self.period_left = (self.period_left - used).max(0.0);
        self.stones_left -= 1;
        if self.stones_left == 0 {
            self.period_left = s.byo_time;
            self.stones_left = s.byo_stones;
            return true;
        }
        false
    }

    /// The GTP command `time_left C T S` for `color`: seconds left (whole seconds, rounded down, when the
    /// settings are whole seconds, as GTP's integer argument wants) and moves left in the byo-yomi period (0 in
    /// main time).
    pub fn time_left_command(&self, color: char) -> String {
        let (left, stones) = self.time_left();
        let s = &self.settings;
        let left = if s.main.fract() == 0.0 && s.byo_time.fract() == 0.0 {
            left.floor()
        } else {
            left
        };
        format!("time_left {color} {} {stones}", seconds(left))
    }

    /// Seconds left and moves left in the byo-yomi period (0 in main time).
    pub fn time_left(&self) -> (f64, u32) {
        if self.in_byo {
            (self.period_left, self.stones_left)
        } else {
            (self.main_left, 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(main: f64, byo_time: f64, byo_stones: u32) -> ClockSettings {
        ClockSettings {
            main,
            byo_time,
            byo_stones,
        }
    }

    #[test]
    fn absolute_time_runs_down() {
        let mut c = Clock::new(settings(10.0, 0.0, 0));
        assert_eq!(c.allowance(), Some(10.0));
        c.charge(4.0);
        assert_eq!(c.allowance(), Some(6.0));
        assert_eq!(c.time_left(), (6.0, 0));
        c.charge(7.0);
        assert_eq!(c.allowance(), Some(0.0));
        let mut c = Clock::new(settings(2.0, 1.0, 5));
        c.charge(0.0004);
        assert_eq!(c.time_left_command('w'), "time_left w 1 0");
        assert_eq!(seconds(1.9996), "2");
        assert_eq!(seconds(0.25), "0.25");
        assert_eq!(seconds(30.0), "30");
        let mut c = Clock::new(settings(0.0, 0.5, 1));
        c.charge(0.1);
        assert_eq!(c.time_left_command('b'), "time_left b 0.5 1");
    }

    #[test]
    fn canadian_byo_yomi_periods_reset_after_their_stones() {
        let mut c = Clock::new(settings(5.0, 10.0, 2));
        assert_eq!(c.allowance(), Some(15.0));
        assert!(!c.charge(7.0)); // 5 s of main time, then 2 s of the first period
        assert_eq!(c.time_left(), (8.0, 1));
        assert_eq!(c.allowance(), Some(8.0));
        assert!(c.charge(3.0)); // the period's second stone: a fresh period follows
        assert_eq!(c.time_left(), (10.0, 2));
    }

    #[test]
    fn time_per_move_is_a_period_of_one_stone() {
        let tc = TimeControl::new(Some(0.5), None, 0.1, 30.0);
        let clock = tc.clock.unwrap();
        assert_eq!(clock.command(), "time_settings 0 0.5 1");
        let mut c = Clock::new(clock);
        for _ in 0..3 {
            assert_eq!(c.allowance(), Some(0.5));
            assert!(c.charge(0.45), "every move begins a fresh period");
        }
        assert_eq!(c.time_left(), (0.5, 1));
    }

    #[test]
    fn byo_yomi_time_without_stones_is_no_limit() {
        let mut c = Clock::new(settings(0.0, 5.0, 0));
        assert_eq!(c.allowance(), None);
        c.charge(100.0);
        assert_eq!(c.allowance(), None);
    }
}
