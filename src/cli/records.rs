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
    /// The game: a JSON record when it starts with '{', an array of JSON records (the site's record files) when it
    /// starts with '[', otherwise a turn list
    pub file: PathBuf,
    /// Board of a turn list: hex-6, hex-7, hex-8 or square-11, also written hex7 (any hex-S or square-N the engine
    /// plays) [default: hex-7, as on Abstract Play]; a JSON record names its own
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Write the SGF record (for an array, one SGF collection of every game imported) to FILE (replacing it)
    /// instead of stdout
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

/// `oust ap-import`: the record's SGF text on stdout or in `--output`. An array of records gives one SGF
/// collection of the records imported; a refused one is reported on stderr with its index and left out, and the
/// exit status is then 1.
pub fn run_ap_import(args: &ApImportArgs) -> ExitCode {
    let (converted, refused) = match ap_import(&args.file, args.variant.as_deref()) {
        Ok(done) => done,
        Err(why) => (Err(why), false),
    };
    let status = finish(converted, args.output.as_deref());
    if refused { ExitCode::FAILURE } else { status }
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
            Ok(summary) => println!("{}: ok: {summary}", file.display()), // stdout-ok: the subcommand's report
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

/// Says on stderr when a record was read on its own board rather than the `--size` asked for.
fn note_board(file: &Path, game: Option<usize>, record: &sgf::Record, asked: Option<Shape>) {
    if let Some(asked) = asked
        && let Some(note) = sgf::board_note(record, asked)
    {
        let game = game.map_or_else(String::new, |g| format!("game {g}: "));
        eprintln!("{}: {game}{note}, not as --size {asked}", file.display());
    }
}

fn check_file(file: &Path, board: Option<Shape>) -> Result<String, String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read: {e}"))?;
    let games = sgf::check_for(&text, board).map_err(|e| e.to_string())?;
    for (g, checked) in games.iter().enumerate() {
        note_board(
            file,
            (games.len() > 1).then_some(g + 1),
            &checked.record,
            board,
        );
    }
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
    let re = checked.record.get("RE").unwrap_or("").trim().to_string();
    let end = match (pos.status(), checked.adjudicated) {
        (Status::Over(o), _) => format!("result {}", o.describe()),
        (_, Some(again)) => format!(
            "result {re}, adjudicated by the solver after {} ({})",
            notation::count(checked.game.records().len(), "move"),
            if again {
                "proven again here".to_string()
            } else {
                format!(
                    "not proven again within {} nodes",
                    sgf::ADJUDICATION_RECHECK_NODES
                )
            }
        ),
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

/// One Abstract Play record, checked against `--variant` and replayed, as SGF text.
fn import_one(
    record: &abstract_play::ApRecord,
    json: bool,
    given: Option<Shape>,
    variant: Option<&str>,
) -> Result<String, String> {
    if let (Some(given), Some(own)) = (given, record.board)
        && json
        && given != own
    {
        return Err(format!(
            "the record is a game on {}, not on --variant {}",
            abstract_play::variant_name(own)?,
            variant.unwrap_or_default()
        ));
    }
    let game = abstract_play::replay(record).map_err(|e| e.to_string())?;
    Ok(sgf::write(&game, &abstract_play::sgf_info(record, &game)))
}

/// `oust ap-import`: an Abstract Play game as SGF text, or the games of an array of records as one SGF collection,
/// and whether a record of the array was refused (each is reported on stderr, numbered from 1).
fn ap_import(file: &Path, variant: Option<&str>) -> Result<(Result<String, String>, bool), String> {
    let text = sgf::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let given = variant.map(abstract_play::parse_variant).transpose()?;
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
    if !text.trim_start().starts_with('[') {
        let record = abstract_play::parse(&text, given.unwrap_or(abstract_play::DEFAULT_BOARD))
            .map_err(|e| at(&e))?;
        let json = abstract_play::is_json(&text);
        return Ok((
            import_one(&record, json, given, variant).map_err(|e| at(&e)),
            false,
        ));
    }
    let records = abstract_play::parse_records(&text).map_err(|e| at(&e))?;
    let total = records.len();
    let mut out = String::new();
    let mut refused = 0;
    for (i, record) in records.iter().enumerate() {
        let imported = record
            .as_ref()
            .map_err(ToString::to_string)
            .and_then(|r| import_one(r, true, given, variant));
        match imported {
            Ok(sgf) => out.push_str(&sgf),
            Err(why) => {
                let id = record
                    .as_ref()
                    .ok()
                    .and_then(|r| r.game_id.as_deref())
                    .map_or_else(String::new, |id| format!(" (game {id})"));
                eprintln!(
                    "oust: {}: record {} of {total}{id}: {why}",
                    file.display(),
                    i + 1
                );
                refused += 1;
            }
        }
    }
    if out.is_empty() {
        return Ok((
            Err(at(&format!(
                "no record imported, of {}",
                notation::count(total, "record")
            ))),
            false,
        ));
    }
    if refused > 0 {
        eprintln!(
            "oust: {}: {} of {total} imported, {refused} refused",
            file.display(),
            total - refused
        );
    }
    Ok((Ok(out), refused > 0))
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
    note_board(file, None, &checked.record, board);
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
