//! Replays the saved fuzz corpora, `fuzz/corpus/<target>/`, through the fuzz targets' own entry points
//! (`oust::fuzzing`), so that every `cargo test` covers them without a nightly toolchain. docs/fuzzing.md says
//! how the corpora are made and kept.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use oust::fuzzing::{TARGETS, Target, remove_scratch};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("corpus")
}

fn target(name: &str) -> Target {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no fuzz target {name}"))
        .1
}

/// Runs every file of `fuzz/corpus/<name>/` through the target and names the files that fail.
fn replay(name: &str) {
    let run = target(name);
    let dir = corpus_dir().join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    let mut failed = Vec::new();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
            failed.push(file.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    remove_scratch();
    assert!(
        failed.is_empty(),
        "{name}: {} of {} inputs fail: {failed:?}",
        failed.len(),
        files.len()
    );
}

#[test]
fn every_target_has_a_corpus_and_every_corpus_a_target() {
    let mut dirs: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut names: Vec<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(dirs, names);
    for name in names {
        let bin = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/fuzz_targets")
            .join(format!("{name}.rs"));
        assert!(bin.is_file(), "{} is missing", bin.display());
    }
}

#[test]
fn conversation_corpus() {
    replay("conversation");
}

#[test]
fn sgf_record_corpus() {
    replay("sgf_record");
}

#[test]
fn setup_rows_corpus() {
    replay("setup_rows");
}

#[test]
fn results_file_corpus() {
    replay("results_file");
}

#[test]
fn engine_output_corpus() {
    replay("engine_output");
}
