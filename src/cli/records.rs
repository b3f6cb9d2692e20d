//! The record subcommands: `oust sgf-check`, `oust ap-import` and `oust ap-export`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use oust::rules::{Shape, Status};
use oust::{abstract_play, notation, sgf};

use super::parse_size;

/// The options of `oust sgf-check`.
#[derive(Args, Debug)]
pub struct SgfCheckArgs {
    /// Read records that give only SZ[2S-1] as this hexhex board (GoGui saves its hexhex games that way;
    /// records written by oust say HX[S] and need no flag)
    #[arg(long, value_name = "hexS", value_parser = parse_size)]
    pub size: Option<Shape>,
    /// The records to check
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// The options of `oust ap-import`.
#[derive(Args, Debug)]
pub struct ApImportArgs {
    /// The game: JSON when it starts with '{', otherwise a turn list
    pub file: PathBuf,
    /// Board of a turn list: hex-6, hex-7, hex-8 or square-11 (any hex-S or square-N the engine plays) [default:
    /// hex-7, as on Abstract Play]; a JSON record names its own
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Write the SGF record to FILE (replacing it) instead of stdout
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The options of `oust ap-export`.
#[derive(Args, Debug)]
pub struct ApExportArgs {
    /// The SGF record
    pub file: PathBuf,
    /// Read a record that gives only SZ[2S-1] as this hexhex board (as sgf-check --size)
    #[arg(long, value_name = "hexS", value_parser = parse_size)]
    pub size: Option<Shape>,
    /// Write the turn list to FILE (replacing it) instead of stdout
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `oust ap-import`: the record's SGF text on stdout or in `--output`.
pub fn run_ap_import(args: &ApImportArgs) -> ExitCode {
    finish(
        ap_import(&args.file, args.variant.as_deref()),
        args.output.as_deref(),
    )
}

/// `oust ap-export`: the turn list on stdout or in `--output`.
pub fn run_ap_export(args: &ApExportArgs) -> ExitCode {
    finish(ap_export(&args.file, args.size), args.output.as_deref())
}

/// `oust sgf-check`: one line per file, on stdout for a good record and on stderr for a bad one.
pub fn sgf_check(args: &SgfCheckArgs) -> ExitCode {
    let (files, board) = (&args.files, args.size);
    let mut bad = 0;
    for file in files {
        match check_file(file, board) {
            Ok(summary) => println!("{}: ok: {summary}", file.display()),
            Err(why) => {
                eprintln!("{}: {why}", file.display());
                bad += 1;
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        let verb = if bad == 1 { "is" } else { "are" };
        eprintln!(
            "{bad} of {} {verb} bad",
            notation::count(files.len(), "record")
        );
        ExitCode::FAILURE
    }
}

fn check_file(file: &Path, board: Option<Shape>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read: {e}"))?;
    let games = sgf::check_for(&text, board).map_err(|e| e.to_string())?;
    let summaries: Vec<String> = games.iter().map(game_summary).collect();
    Ok(match summaries.as_slice() {
        [one] => one.clone(),
        many => format!(
            "{}; {}",
            notation::count(many.len(), "game"),
            many.iter()
                .enumerate()
                .map(|(i, s)| format!("game {}: {s}", i + 1))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    })
}

/// `9x9, 40 moves, result ...` for a game's main line, then the number of variations checked when there are more.
fn game_summary(checked: &sgf::Checked) -> String {
    let pos = checked.game.position();
    let end = match pos.status() {
        Status::Over(o) => format!("result {}", o.describe()),
        _ => format!("unfinished, {} to move", pos.to_move()),
    };
    let mut out = format!(
        "{}, {}, {end}",
        checked.record.board,
        notation::count(checked.record.moves.len(), "move")
    );
    if checked.variations > 1 {
        out.push_str(&format!(
            " (main line; {} checked)",
            notation::count(checked.variations, "variation")
        ));
    }
    out
}

/// Writes a converted record to `output` (through a temporary file, so that a failed write leaves the old file
/// whole) or to stdout; an error goes to stderr with exit status 1 and nothing is written.
fn finish(converted: Result<String, String>, output: Option<&Path>) -> ExitCode {
    let text = match converted {
        Ok(text) => text,
        Err(why) => {
            eprintln!("oust: {why}");
            return ExitCode::FAILURE;
        }
    };
    let written = match output {
        None => io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .and_then(|()| io::stdout().flush()),
        Some(path) => {
            let mut tmp = path.as_os_str().to_owned();
            tmp.push(".part");
            let tmp = PathBuf::from(tmp);
            std::fs::write(&tmp, &text)
                .and_then(|()| std::fs::rename(&tmp, path))
                .inspect_err(|_| {
                    let _ = std::fs::remove_file(&tmp);
                })
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let to = output.map_or("stdout".to_string(), |p| p.display().to_string());
            eprintln!("oust: cannot write {to}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `oust ap-import`: an Abstract Play game as SGF text.
fn ap_import(file: &Path, variant: Option<&str>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let given = variant.map(abstract_play::parse_variant).transpose()?;
    let record = abstract_play::parse(&text, given.unwrap_or(abstract_play::DEFAULT_BOARD))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if let (Some(given), Some(own)) = (given, record.board)
        && abstract_play::is_json(&text)
        && given != own
    {
        return Err(format!(
            "{}: the record is a game on {}, not on --variant {}",
            file.display(),
            abstract_play::variant_name(own)?,
            variant.unwrap_or_default()
        ));
    }
    let game = abstract_play::replay(&record).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(sgf::write(&game, &abstract_play::sgf_info(&record, &game)))
}

/// `oust ap-export`: an SGF record's main line as an Abstract Play turn list.
fn ap_export(file: &Path, board: Option<Shape>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut games = sgf::check_for(&text, board).map_err(|e| format!("{}: {e}", file.display()))?;
    if games.len() != 1 {
        return Err(format!(
            "{}: the file holds {} games; a turn list holds one",
            file.display(),
            games.len()
        ));
    }
    let checked = games.remove(0);
    if checked.variations > 1 {
        eprintln!(
            "{}: the main line only, of {} lines of play",
            file.display(),
            checked.variations
        );
    }
    let game = checked.game;
    let turns = abstract_play::turns(&game).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!(
        "{}: {} turns on Abstract Play's {}",
        file.display(),
        turns.len(),
        abstract_play::variant_name(game.start().geometry().shape())?
    );
    let mut out = turns.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}
