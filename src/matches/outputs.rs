//! What a run leaves on disk and reads back: the results file of a run being resumed (checked against this run's
//! settings), the outputs of an earlier run (refused or deleted), and each game's SGF record.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::rules::{Game, Move};
use crate::sgf::{self, GameInfo};

use super::config::MatchConfig;
use super::results::{GameResult, Reason, ResultsFile, Side};
use super::schedule::Field;

/// The files of an earlier match's games in `dir` (`game-*.EXT`), sorted; none when `dir` does not exist.
fn old_game_files(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, String> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_file()
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("game-") && n.ends_with(&format!(".{ext}")))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The games of the results file a match resumes: its whole lines (a last line cut short by a kill is dropped,
/// and that game played again), after checking that the file is this match's: the same engines' commands and the
/// same settings, or a message naming what differs.
pub(super) fn resumed_games(config: &MatchConfig) -> Result<Vec<GameResult>, String> {
    let Some(path) = &config.results else {
        return Err("--resume needs the --results file of the match to go on with".into());
    };
    let text = fs::read_to_string(path)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let whole = whole_lines(path, &text);
    let file = ResultsFile::parse(whole)
        .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?;
    let mut differ = Vec::new();
    for (i, side) in ["A", "B"].into_iter().enumerate() {
        if file.labels[i] != config.commands[i] {
            differ.push(format!(
                "engine {side} is '{}' there, '{}' here",
                file.labels[i], config.commands[i]
            ));
        }
    }
    differ.extend(settings_differ(&file.settings, &config.describe()));
    if !differ.is_empty() {
        return Err(format!(
            "{} is the results file of another match: {}",
            path.display(),
            differ.join("; ")
        ));
    }
    let range = config.first_game + 1..=config.first_game + config.games;
    check_numbers(path, &file.games, range, "match")?;
    log::info!(
        "resuming {}: {} of {} played",
        path.display(),
        file.games.len(),
        crate::notation::count(config.games, "game")
    );
    Ok(file.games)
}

/// What the settings line of a results file (`theirs`) has that this run's (`ours`) has not, and the other way
/// round, in words; `None` when they are the same settings.
pub(super) fn settings_differ(theirs: &str, ours: &str) -> Option<String> {
    let theirs: Vec<&str> = theirs.split(", ").collect();
    let ours: Vec<&str> = ours.split(", ").collect();
    let only = |a: &[&str], b: &[&str]| -> Vec<String> {
        a.iter()
            .filter(|x| !b.contains(x))
            .map(|x| x.to_string())
            .collect()
    };
    let (there, here) = (only(&theirs, &ours), only(&ours, &theirs));
    if there.is_empty() && here.is_empty() {
        return None;
    }
    let words = |v: Vec<String>| {
        if v.is_empty() {
            "nothing".to_string()
        } else {
            v.join(", ")
        }
    };
    Some(format!(
        "its settings have {} where this run has {}",
        words(there),
        words(here)
    ))
}

/// The whole lines of a results file being resumed: a last line cut short by a kill is dropped (its game is played
/// again).
pub(super) fn whole_lines<'t>(path: &Path, text: &'t str) -> &'t str {
    match text.rfind('\n') {
        Some(end) if end + 1 < text.len() => {
            log::warn!(
                "{}: its last line was cut short; that game is played again",
                path.display()
            );
            &text[..=end]
        }
        _ => text,
    }
}

/// Refuses a resumed results file that holds a game outside `range` or one game twice: not a file this `what`
/// (match or tournament) wrote.
pub(super) fn check_numbers(
    path: &Path,
    games: &[GameResult],
    range: std::ops::RangeInclusive<u64>,
    what: &str,
) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for g in games {
        if !range.contains(&g.number) || !seen.insert(g.number) {
            return Err(format!(
                "{} holds game {} {}: it is not a file this {what} wrote",
                path.display(),
                g.number,
                if range.contains(&g.number) {
                    "twice".to_string()
                } else {
                    format!("outside this {what}'s games")
                }
            ));
        }
    }
    Ok(())
}

/// Refuses to mix this match's outputs with an earlier match's: an existing results file, or game records or
/// logs in the output directories. With `overwrite`, deletes the old game files instead and says so; the
/// results file is then replaced when the match starts.
pub(super) fn clear_old_outputs(config: &MatchConfig) -> Result<(), String> {
    if let Some(path) = &config.results
        && path.exists()
    {
        if !config.overwrite {
            return Err(format!(
                "{} already exists; give another --results, or --overwrite to replace it",
                path.display()
            ));
        }
        log::warn!("--overwrite: replacing {}", path.display());
    }
    let dirs = [
        (&config.sgf_dir, "sgf", "--sgf-dir", "game records"),
        (&config.log_dir, "log", "--log-dir", "engine logs"),
    ];
    for (dir, ext, flag, what) in dirs {
        let Some(dir) = dir else { continue };
        let old = old_game_files(dir, ext)?;
        if old.is_empty() {
            continue;
        }
        if !config.overwrite {
            return Err(format!(
                "{} already has {} {what} (game-*.{ext}) of an earlier match; give another {flag}, or \
                 --overwrite to delete them",
                dir.display(),
                old.len()
            ));
        }
        for path in &old {
            fs::remove_file(path).map_err(|e| format!("cannot delete {}: {e}", path.display()))?;
        }
        log::warn!(
            "--overwrite: deleted {} {what} (game-*.{ext}) of an earlier match from {}",
            old.len(),
            dir.display()
        );
    }
    Ok(())
}

fn sgf_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("game-{number:04}.sgf"))
}

pub(super) fn write_sgf(
    config: &MatchConfig,
    field: &Field,
    names: &[String],
    index: u64,
    black: Side,
    game: &Game,
    result: Option<&GameResult>,
) {
    let Some(dir) = &config.sgf_dir else {
        return;
    };
    let number = index + 1;
    let pairing = field.slot(index).pairing;
    let engine = |side: Side| field.pairings[pairing][side.index()];
    // After a swap the engines exchanged colours: PB and PW name the colours' owners at the end, as RE does.
    let started_black = black;
    let swapped = game.records().iter().any(|r| r.mv == Move::Swap);
    let black = if swapped { black.other() } else { black };
    let label = |side: Side| {
        let (name, command) = (&names[engine(side)], &field.commands[engine(side)]);
        match &field.names {
            Some(called) => format!("{}: {name} ({command})", called[engine(side)]),
            None => format!("{name} ({command})"),
        }
    };
    let called = |side: Side| field.called(pairing, side);
    let what = if field.names.is_some() {
        "oust tournament"
    } else {
        "oust match"
    };
    let mut comment = format!(
        "{what}, game {number}: black is {}, white is {}.",
        called(black),
        called(black.other())
    );
    if swapped {
        let mut first = called(started_black);
        if field.names.is_none() {
            // "Engine A", at the start of a sentence.
            first = first.replacen('e', "E", 1);
        }
        comment.push_str(&format!(
            " {first} placed the first black stone; {} swapped (pie rule) and took it over.",
            called(black)
        ));
    }
    match result {
        Some(r) if !r.detail.is_empty() => {
            comment.push_str(&format!(
                " {} ({}): {}",
                r.sgf_result(),
                r.reason.keyword(),
                r.detail
            ));
        }
        Some(r) => comment.push_str(&format!(" {} ({})", r.sgf_result(), r.reason.keyword())),
        None => comment.push_str(" The match was interrupted during this game: no result."),
    }
    let info = GameInfo {
        black: Some(label(black)),
        white: Some(label(black.other())),
        result: result.map(GameResult::sgf_result),
        comment: Some(comment),
        date: None,
        // An adjudicated game says so, and where: `sgf-check` then accepts its result on an unfinished board.
        node_properties: result
            .filter(|r| r.reason == Reason::Solver)
            .map(|r| format!("{}[solver {}]", sgf::ADJUDICATION_PROPERTY, r.moves))
            .into_iter()
            .collect(),
    };
    let path = sgf_path(dir, number);
    if let Err(e) = fs::write(&path, sgf::write(game, &info)) {
        log::error!("cannot write {}: {e}", path.display());
    }
}
