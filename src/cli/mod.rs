//! The subcommands of the `oust` binary, one module each: its flags, its work and its own output. `main.rs`
//! parses the command line and dispatches here; nothing in the library imports from this layer.

pub mod analysis;
pub mod bench;
pub mod calibrate;
pub mod gui;
pub mod learn;
pub mod matches;
pub mod netfit;
pub mod records;
pub mod review;
pub mod serve;
pub mod solve;
pub mod tournament;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use oust::rules::{Geometry, Shape};

/// A command-line error found after clap's own parsing: `main` prints it as clap prints its errors (`error: ...`
/// and where to find help) and exits with clap's status for it.
#[derive(Debug)]
pub struct UsageError(pub String);

/// What a subcommand ends with: its exit status, or a usage error for `main` to print.
pub type Outcome = Result<ExitCode, UsageError>;

/// A board flag's value, `N`, `WxH` or `hexS`, checked against the boards the rules allow.
pub fn parse_size(s: &str) -> Result<Shape, String> {
    let shape = Shape::parse(s).map_err(|e| e.to_string())?;
    // The rules decide which boards exist.
    Geometry::new(shape).map_err(|e| e.to_string())?;
    Ok(shape)
}

/// A positive, finite number of seconds.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// A finite number of seconds, zero allowed.
pub fn parse_nonnegative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds (0 or more)")),
    }
}

/// Starts logging to stderr (`RUST_LOG`, warnings and errors by default). Warnings and errors read as the program's
/// other messages do, `oust match: warning: ...` (`oust: warning: ...` for the engine), so that a subcommand's
/// stderr has one style; the diagnostics asked for with `RUST_LOG` (info, debug, trace) keep their time, level and
/// module.
pub fn init_logging(subcommand: Option<&'static str>) {
    let program = match subcommand {
        Some(name) => format!("oust {name}"),
        None => "oust".to_string(),
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(move |buf, record| {
            let level = record.level();
            match level {
                log::Level::Error | log::Level::Warn => {
                    let word = if level == log::Level::Error {
                        "error"
                    } else {
                        "warning"
                    };
                    writeln!(buf, "{program}: {word}: {}", record.args())
                }
                _ => writeln!(
                    buf,
                    "[{} {level:<5} {}] {}",
                    buf.timestamp(),
                    record.target(),
                    record.args()
                ),
            }
        })
        .init();
}

/// A flag that Ctrl-C or SIGTERM sets: the first signal asks the work to stop, a second exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupt = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let registered =
            signal_hook::flag::register_conditional_shutdown(signal, 130, interrupt.clone())
                .and_then(|_| signal_hook::flag::register(signal, interrupt.clone()));
        if let Err(e) = registered {
            log::warn!("cannot handle signal {signal}: {e}");
        }
    }
    interrupt
}

/// The flags of a match or a tournament, set by signals: the first Ctrl-C sets `finish` (start no new game, play
/// those in progress to their end); a second Ctrl-C, or SIGTERM, sets `interrupt` (abandon the games in progress);
/// one more exits at once. Every finished game is on disk already. Returns `(finish, interrupt)`.
pub fn match_interrupts() -> (Arc<AtomicBool>, Arc<AtomicBool>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let finish = Arc::new(AtomicBool::new(false));
    let interrupt = Arc::new(AtomicBool::new(false));
    match signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
        Ok(mut signals) => {
            let (finish, interrupt) = (finish.clone(), interrupt.clone());
            std::thread::spawn(move || {
                for signal in signals.forever() {
                    if signal == SIGINT && !finish.swap(true, Ordering::SeqCst) {
                        continue;
                    }
                    if interrupt.swap(true, Ordering::SeqCst) {
                        std::process::exit(130);
                    }
                }
            });
        }
        Err(e) => log::warn!("cannot handle Ctrl-C and SIGTERM: {e}"),
    }
    (finish, interrupt)
}

/// Writes `text` to stdout; a closed stdout (`| head`) is not an error worth a panic.
pub fn print_out(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A seed from the clock, for runs given no `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
