//! `oust gui`: serves the board page on 127.0.0.1 and opens it in the browser.

use std::process::ExitCode;

use clap::Args;
use oust::gui::{Gui, NewGame, Options, open_browser};
use oust::rules::Shape;

use super::{Outcome, parse_size, print_out};

/// The options of `oust gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// The first game's board: N for N x N, WxH, or hexS
    #[arg(long, value_name = "N|WxH|hexS", default_value = "hex7", value_parser = parse_size)]
    pub size: Shape,
    /// The GTP engine to drive, a shell command; by default this oust binary with its default settings
    #[arg(long, value_name = "\"CMD ARGS\"")]
    pub engine: Option<String>,
    /// The port on 127.0.0.1; 0 picks a free one
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub port: u16,
    /// Do not open a browser; only print the address
    #[arg(long)]
    pub no_browser: bool,
    /// The default engine's seed (`oust --seed N`), for games that can be played again move for move (a level
    /// with a seed plays the same moves); with --engine, put the seed in its command instead
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// Quotes `s` for `sh -c`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `oust gui`: prints the page's address on one line of stdout and serves until interrupted.
pub fn run(args: &GuiArgs) -> Outcome {
    let engine = match &args.engine {
        Some(_) if args.seed.is_some() => {
            eprintln!(
                "oust gui: --seed seeds the default engine (this oust); with --engine, put the seed in the engine's command"
            );
            return Ok(ExitCode::from(2));
        }
        Some(e) => e.clone(),
        None => match std::env::current_exe() {
            Ok(path) => match args.seed {
                Some(seed) => format!("{} --seed {seed}", shell_quote(&path.to_string_lossy())),
                None => shell_quote(&path.to_string_lossy()),
            },
            Err(e) => {
                eprintln!(
                    "oust gui: cannot find this program to run it as the engine ({e}); give --engine"
                );
                return Ok(ExitCode::from(2));
            }
        },
    };
    let options = Options {
        game: NewGame {
            board: args.size,
            ..NewGame::default()
        },
        engine,
        port: args.port,
    };
    let gui = match Gui::start(&options) {
        Ok(gui) => gui,
        Err(e) => {
            eprintln!("oust gui: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    print_out(&format!("{}\n", gui.url()));
    if !args.no_browser && !open_browser(&gui.url()) {
        eprintln!(
            "oust gui: no browser found (set BROWSER, or install xdg-open); open {} yourself",
            gui.url()
        );
    }
    gui.wait();
    Ok(ExitCode::SUCCESS)
}
