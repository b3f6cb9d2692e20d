//! Clocks: `time_settings`, `kgs-time_settings` and `time_left`. The budget of each move comes from
//! [`crate::search::time::Clock`].

use crate::gtp::args;
use crate::gtp::error::{GtpError, syntax};
use crate::gtp::reply::Reply;
use crate::gtp::state::Engine;
use crate::notation;
use crate::search::time::{Clock, TimeSystem};

fn set_clocks(e: &mut Engine, system: TimeSystem) -> Result<Reply, GtpError> {
    e.clocks = [Clock::new(system), Clock::new(system)];
    Ok(Reply::Text(String::new()))
}

/// `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`: GTP's Canadian clock for both colours.
pub fn time_settings(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let main = args::seconds(args[0], "main time")?;
    let period = args::seconds(args[1], "byo-yomi time")?;
    let stones = args::count(args[2], "byo-yomi stones")?;
    // GTP: no byo-yomi stones means absolute time, or no limit at all when there is byo-yomi time (or nothing).
    let system = match stones {
        0 if period == 0.0 && main > 0.0 => TimeSystem::Absolute { main },
        0 => TimeSystem::Unlimited,
        stones => TimeSystem::Canadian {
            main,
            period,
            stones,
        },
    };
    set_clocks(e, system)
}

/// `kgs-time_settings SYSTEM [NUMBERS]`: both clocks, KGS style.
pub fn kgs_time_settings(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(syntax(format!(
                "kgs-time_settings {} takes {}, got {}",
                args[0],
                notation::count(n - 1, "number"),
                args.len() - 1
            )))
        }
    };
    let system = match args[0] {
        "none" => {
            want(1)?;
            TimeSystem::Unlimited
        }
        "absolute" => {
            want(2)?;
            TimeSystem::Absolute {
                main: args::seconds(args[1], "main time")?,
            }
        }
        "byoyomi" => {
            want(4)?;
            TimeSystem::Byoyomi {
                main: args::seconds(args[1], "main time")?,
                period: args::seconds(args[2], "period time")?,
                periods: args::count(args[3], "periods")?,
            }
        }
        "canadian" => {
            want(4)?;
            let stones = args::count(args[3], "stones")?;
            let period = args::seconds(args[2], "period time")?;
            let main = args::seconds(args[1], "main time")?;
            if stones == 0 {
                TimeSystem::Unlimited
            } else {
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                }
            }
        }
        other => {
            return Err(syntax(format!(
                "expected none, absolute, byoyomi or canadian, got '{other}'"
            )));
        }
    };
    set_clocks(e, system)
}

/// `time_left COLOR TIME STONES`: what is left on a clock.
pub fn time_left(e: &mut Engine, args: &[&str]) -> Result<Reply, GtpError> {
    let color = args::color(args[0])?;
    let time = args::seconds(args[1], "time")?;
    let stones = args::count(args[2], "stones")?;
    e.clock_mut(color).set_left(time, stones);
    Ok(Reply::Text(String::new()))
}
