//! Entry points for fuzzing, shared by the cargo-fuzz targets in `fuzz/` and by `tests/fuzz_corpora.rs`, which
//! replays their saved corpora in every `cargo test`. Each takes arbitrary bytes, runs the real code on them and
//! panics when a property fails. Not part of the crate's API.
//!
//! | target | what runs |
//! | ------ | --------- |
//! | [`conversation`] | one engine fed the input's lines one by one, as `gtp::run` reads and serves them |
//! | [`sgf_record`] | [`sgf::parse_for`], [`sgf::replay`], [`sgf::check_for`], [`sgf::write`] and `loadsgf` |
//! | [`setup_rows`] | [`notation::parse_rows`] on square, rectangular and hexhex boards, and `oust-setup` |
//! | [`results_file`] | [`ResultsFile::parse`] of `oust match --merge`, the table and the summary |
//! | [`engine_output`] | the referee's reader of an engine's responses ([`matches::responses_in`]) |

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{BufReader, Cursor};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::gtp::{
    self, Ended, Engine, LineError, MAX_LINE, Options, RawLine, Reply, Reports, Settings,
    parse_command_line, parse_int, preprocess, read_line,
};
use crate::matches::{
    self, Failure, GameResult, MAX_RESPONSE_LINES, ResultsFile, Sprt, format_summary, format_table,
    results_header, same_engines,
};
use crate::notation::{self, parse_rows, rows_text};
use crate::rules::{Color, Game, Geometry, Move, Position, Shape};
use crate::sgf::{self, GameInfo};

/// A fuzz target: bytes in, a panic when a property fails.
pub type Target = fn(&[u8]);

/// Every target by the name of its directory under `fuzz/corpus/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("conversation", conversation),
    ("sgf_record", sgf_record),
    ("setup_rows", setup_rows),
    ("results_file", results_file),
    ("engine_output", engine_output),
];

/// Playouts per search in [`conversation`]: every `genmove` and analysis stops after this many.
pub const PLAYOUTS: u64 = 4;
/// Commands at most that [`conversation`] runs of one input.
pub const MAX_COMMANDS: usize = 32;
/// The longest any single command of [`conversation`] may take.
pub const COMMAND_LIMIT: Duration = Duration::from_secs(5);
/// The longest `oust-solve` of [`conversation`], in seconds: a backstop, as [`SOLVER_NODES`] ends it first.
pub const SOLVE_SECONDS: f64 = 0.02;
/// The nodes at most of any solve in [`conversation`] (`oust-solve`, and the solver of a `genmove` under a clock,
/// which would otherwise get a share of the clock's time): enough to prove the 3x3 board (value, distance and
/// line) and endgames, the same work on any machine; 2000 proved no more of the empty boards (4x4 needs far more)
/// and took a third of the corpus replay's CPU time. Without a limit, solves under a clock took nearly all of the
/// target's time.
pub const SOLVER_NODES: u64 = 300;

/// A directory of this thread's own for the files of `loadsgf` and `printsgf` (threads of one test process fuzz
/// side by side). Fuzzing leaves it in the temporary directory; [`remove_scratch`] removes it.
fn scratch() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static DIR: PathBuf = {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("oust-fuzz-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a scratch directory");
            dir
        };
    }
    DIR.with(Clone::clone)
}

/// Removes this thread's scratch directory (see [`scratch`]).
pub fn remove_scratch() {
    let _ = std::fs::remove_dir_all(scratch());
}

/// The record files a conversation may load, as they are when it starts: two real games, a square and a hexhex
/// one, an Abstract Play turn list, text that is no record, and a file that does not exist. `printsgf` may
/// overwrite them.
const FILES: [Option<&str>; 5] = [
    Some(include_str!("../tests/suites/sgf/gogui-human-game.sgf")),
    Some(include_str!("../tests/suites/sgf/hex4-game.sgf")),
    Some(include_str!("../tests/suites/ap/hand-3x3.txt")),
    Some("this is not a game record"),
    None,
];

/// An engine as the conversation target runs it: tiny searches on one thread and a small tree.
fn quick_engine(board: Shape) -> Engine {
    // `Settings::default()` asks the system for its number of processors, reading files under /proc and /sys:
    // once per thread, not once per engine.
    thread_local! {
        static SETTINGS: Settings = Settings {
            playouts: PLAYOUTS,
            threads: 1,
            tree_mb: 1,
            solver_mb: 1,
            solver_nodes: Some(SOLVER_NODES),
            ..Settings::default()
        };
    }
    Engine::new(Options {
        seed: 1,
        board,
        reports: Reports::Auto,
        settings: SETTINGS.with(Clone::clone),
    })
    .expect("a supported board")
}

/// What the engine must write for one input line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Nothing: an empty line or a comment.
    Nothing,
    /// One response, with this id.
    Response(Option<u64>),
    /// One response, id unchecked (a line too long to parse).
    AnyResponse,
}

fn expectation(line: &[u8]) -> Expect {
    if line.len() > MAX_LINE {
        return Expect::AnyResponse;
    }
    let Some(text) = preprocess(line) else {
        return Expect::Nothing;
    };
    Expect::Response(match parse_command_line(&text) {
        Ok(cmd) => cmd.id,
        Err(LineError::MissingCommand(id)) => Some(id),
        Err(LineError::BadId) => None,
    })
}

/// Rewrites a command that would touch files outside the scratch directory or work for long by design into one
/// that does not: file names (of `loadsgf`, `loadap` and `printsgf`) become scratch files, `perft` depths above 2
/// become 2, `oust-solve` gets at most [`SOLVE_SECONDS`], and the playout limit, the threads and the memory of the
/// tree and of the solver stay small. Everything else passes unchanged.
fn tame(raw: &[u8], reset: &mut bool) -> Vec<u8> {
    let Some(text) = preprocess(raw) else {
        return raw.to_vec();
    };
    let Ok(cmd) = parse_command_line(&text) else {
        return raw.to_vec();
    };
    let mut args: Vec<String> = cmd.args.iter().map(|a| (*a).to_string()).collect();
    let mut changed = true;
    match (cmd.name, args.len()) {
        ("printsgf", 1) | ("loadsgf" | "loadap", 1 | 2) => {
            let dir = scratch();
            if !*reset {
                *reset = true;
                for (i, content) in FILES.iter().enumerate() {
                    let path = dir.join(format!("f{i}.sgf"));
                    match content {
                        Some(text) => std::fs::write(&path, text).expect("a scratch file"),
                        None => {
                            let _ = std::fs::remove_file(&path);
                        }
                    }
                }
            }
            let slot = args[0].bytes().map(usize::from).sum::<usize>() % FILES.len();
            args[0] = dir.join(format!("f{slot}.sgf")).display().to_string();
        }
        ("perft", 1) if parse_int(&args[0]).is_some_and(|d| (3..=64).contains(&d)) => {
            args[0] = "2".into();
        }
        // `oust-solve` takes 10 s without an argument. A time that does not parse as a number, or NaN, passes
        // unchanged.
        ("oust-solve", 0) => args.push(SOLVE_SECONDS.to_string()),
        ("oust-solve", 1) if args[0].parse::<f64>().is_ok_and(|t| t > SOLVE_SECONDS) => {
            args[0] = SOLVE_SECONDS.to_string();
        }
        ("oust-set-param", 2) => {
            let value = args[1].parse::<u64>().ok();
            match (args[0].as_str(), value) {
                ("playouts", Some(v)) if v == 0 || v > PLAYOUTS => args[1] = PLAYOUTS.to_string(),
                ("threads", Some(v)) if v > 2 => args[1] = "2".into(),
                ("tree_mb" | "solver_mb", Some(v)) if v > 4 => args[1] = "4".into(),
                _ => changed = false,
            }
        }
        _ => changed = false,
    }
    if !changed {
        return raw.to_vec();
    }
    let id = cmd.id.map(|id| format!("{id} ")).unwrap_or_default();
    format!("{id}{} {}", cmd.name, args.join(" ")).into_bytes()
}

/// Checks one response as `gtp::run` wrote it: `=` or `?`, the id when the command had one, the text, and one
/// blank line that ends it; our own referee reads exactly one response from it. Returns true for `=`.
fn check_frame(out: &str, id: Option<u64>) -> bool {
    assert!(
        out.ends_with("\n\n"),
        "a response ends with a blank line: {out:?}"
    );
    let body = &out[..out.len() - 2];
    assert!(
        !body.contains("\n\n"),
        "a response has exactly one blank line: {out:?}"
    );
    let ok = match out.as_bytes()[0] {
        b'=' => true,
        b'?' => false,
        _ => panic!("a response starts with = or ?: {out:?}"),
    };
    let after_mark = &body[1..];
    let after_id = match id {
        Some(id) => after_mark
            .strip_prefix(&id.to_string())
            .unwrap_or_else(|| panic!("the response echoes id {id}: {out:?}")),
        None => after_mark,
    };
    assert!(
        after_id.is_empty() || after_id.starts_with(' ') || after_id.starts_with('\n'),
        "the id is followed by a space, a new line or nothing: {out:?}"
    );
    assert!(
        !out.contains("internal error"),
        "no command meets an internal error: {out:?}"
    );
    let read = matches::responses_in(out.as_bytes());
    assert!(
        matches!(
            read.as_slice(),
            [Ok((read_ok, _)), Err(Failure::Closed(_))] if *read_ok == ok
        ),
        "the referee reads one response from {out:?}: {read:?}"
    );
    ok
}

fn check_game(game: &Game, after: &str) {
    for (what, pos) in [("current", game.position()), ("start", game.start())] {
        if let Err(e) = pos.check_invariants() {
            panic!("after {after}: the {what} position breaks an invariant: {e}");
        }
    }
}

/// A whole protocol conversation: the input's lines (at most [`MAX_COMMANDS`]) are fed one at a time to one
/// engine through `gtp::serve` (the session of `gtp::run`), with files and long work tamed (see `tame`). After each line: exactly the expected
/// response (none for a blank line or a comment, otherwise one, with the line's id), no internal error, the
/// positions' invariants, and no command longer than [`COMMAND_LIMIT`]. `quit` ends the conversation.
///
/// # Panics
/// When a property fails.
pub fn conversation(data: &[u8]) {
    let mut engine = quick_engine(Shape::square(9));
    let mut reset = false;
    for raw in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        let line = tame(raw, &mut reset);
        let expect = expectation(&line);
        let shown = String::from_utf8_lossy(&line).into_owned();
        // The line as `gtp::run`'s reader thread reads it, sent before the session starts: no thread per line.
        let mut input = line;
        input.push(b'\n');
        let mut input = Cursor::new(input);
        let (tx, lines) = mpsc::sync_channel(1);
        tx.send(read_line(&mut input)).expect("room for one line");
        drop(tx);
        let mut out = Vec::new();
        let started = Instant::now();
        let ended = gtp::serve(&mut engine, lines, &mut out).expect("in-memory I/O");
        let took = started.elapsed();
        let out = String::from_utf8(out).expect("responses are UTF-8");
        match expect {
            Expect::Nothing => assert!(out.is_empty(), "no response to {shown:?}: {out:?}"),
            Expect::Response(id) => {
                check_frame(&out, id);
            }
            Expect::AnyResponse => {
                check_frame(&out, None);
            }
        }
        assert!(
            took < COMMAND_LIMIT,
            "{shown:?} took {:.3} s",
            took.as_secs_f64()
        );
        check_game(engine.game(), &shown);
        if ended == Ended::Quit {
            assert!(out.starts_with('='), "quit ends the session: {out:?}");
            return;
        }
    }
}

/// One command through the engine, the way `gtp::run` answers it, without its framing.
fn command(engine: &mut Engine, line: &str) -> Result<Reply, String> {
    let raw = RawLine {
        bytes: line.as_bytes().to_vec(),
        truncated: false,
    };
    let (_, result) = gtp::respond_to(engine, &raw).expect("a command");
    result.map_err(|e| e.to_string())
}

/// The same game: the same positions and the same moves.
fn assert_same_game(a: &Game, b: &Game, what: &str) {
    assert_eq!(a.start(), b.start(), "{what}: start positions");
    assert_eq!(a.position(), b.position(), "{what}: positions");
    let moves = |g: &Game| -> Vec<(Color, Move)> { g.line() };
    assert_eq!(moves(a), moves(b), "{what}: moves");
}

/// An SGF record: parsed, replayed and checked for the engine's board and, when `SZ` allows it, for a hexhex
/// board; `check` agrees with parse and replay; a replayed game's invariants hold; a prefix replays; the game
/// written back reads back to the same game; and `loadsgf` of the record (and `printsgf` after it) agrees.
///
/// # Panics
/// When a property fails.
pub fn sgf_record(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The file that `loadsgf` reads, written once for every board.
    let path = scratch().join("record.sgf");
    std::fs::write(&path, data).expect("a scratch file");
    let path = path.display().to_string();
    let mut boards = vec![Shape::square(9)];
    if let Ok(record) = sgf::parse(&text)
        && let Shape::Rect { width, height } = record.board
        && width == height
        && width % 2 == 1
    {
        boards.push(Shape::Hex {
            side: width.div_ceil(2),
        });
    }
    for board in boards {
        let parsed = sgf::parse_for(&text, Some(board));
        let replayed = parsed
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|r| sgf::replay(r, None));
        let checked = sgf::check_for(&text, Some(board));
        // check_for also checks the other games and variations and the result, so it may refuse what replay
        // (the first game's main line) accepts, never the other way round.
        match (&replayed, &checked) {
            (Err(_), Err(_)) | (Ok(_), Err(_)) => {}
            (Err(e), Ok(_)) => panic!("check accepts a record replay refuses: {e}"),
            (Ok(game), Ok(checked)) => assert_same_game(game, &checked[0].game, "check"),
        }
        let (Ok(record), Ok(game)) = (&parsed, &replayed) else {
            loadsgf(board, &path, None);
            continue;
        };
        check_game(game, "replay");
        assert_eq!(game.records().len(), record.moves.len());
        let half = record.moves.len() / 2;
        let prefix = sgf::replay(record, Some(half)).expect("a prefix of a good record replays");
        assert_eq!(prefix.records(), &game.records()[..half]);
        let info = GameInfo {
            black: record.get("PB").map(str::to_string),
            white: record.get("PW").map(str::to_string),
            ..GameInfo::default()
        };
        let written = sgf::write(game, &info);
        // Read back on the game's own board: on `board`, a square record of that rhombus's size would be read
        // as the hexhex board (the board asked for wins over the record's SZ alone).
        let own = game.start().geometry().shape();
        let back = sgf::check_for(&written, Some(own)).unwrap_or_else(|e| panic!("{e}: {written}"));
        assert_eq!(back.len(), 1, "one game written: {written}");
        assert_same_game(game, &back[0].game, "written and read back");
        assert_eq!(back[0].record.get("PB"), info.black.as_deref());
        assert_eq!(back[0].record.get("PW"), info.white.as_deref());
        loadsgf(board, &path, Some((record, game)));
    }
}

/// `loadsgf` of the record at `path` on an engine on `board`, whole and up to half the moves; `expected` is the
/// record and its game when the record is good for that board, and a refused record leaves the engine's game as it
/// was. Then `printsgf` reads back to the same game. One engine per board and thread serves every input, its game
/// started anew for each.
fn loadsgf(board: Shape, path: &str, expected: Option<(&sgf::Record, &Game)>) {
    thread_local! {
        static LOAD_ENGINES: RefCell<HashMap<Shape, Engine>> = RefCell::default();
    }
    LOAD_ENGINES.with(|engines| {
        let mut engines = engines.borrow_mut();
        let engine = engines.entry(board).or_insert_with(|| quick_engine(board));
        // Each input starts from the same engine, pie rule off. (A record played under the pie rule used to turn
        // the engine's setting on; now its rules stay with its game, and this only makes sure of it.)
        engine.settings.pie = false;
        engine.start_game(Game::new(
            Geometry::shared(board).expect("a supported board"),
        ));
        load_and_print(engine, path, expected);
    });
}

fn load_and_print(engine: &mut Engine, path: &str, expected: Option<(&sgf::Record, &Game)>) {
    let before = engine.game().clone();
    let pie = engine.settings.pie;
    let loaded = command(engine, &format!("loadsgf {path}"));
    let Some((record, game)) = expected else {
        assert!(loaded.is_err(), "loadsgf refuses a record replay refuses");
        assert_same_game(engine.game(), &before, "a refused loadsgf");
        assert_eq!(
            engine.settings.pie, pie,
            "a refused loadsgf keeps the pie setting"
        );
        return;
    };
    loaded.unwrap_or_else(|e| panic!("loadsgf refuses a good record: {e}"));
    assert_eq!(
        engine.settings.pie, pie,
        "a loaded record's rules stay with its game, not the engine's setting"
    );
    assert_eq!(
        engine.game().pie(),
        record.pie,
        "the game has the record's rule"
    );
    check_game(engine.game(), "loadsgf");
    assert_same_game(engine.game(), game, "loadsgf");
    let Ok(Reply::Text(printed)) = command(engine, "printsgf") else {
        panic!("printsgf answers the record");
    };
    let own = game.start().geometry().shape();
    let reread = sgf::parse_for(&printed, Some(own)).expect("printsgf's record parses");
    assert_same_game(
        &sgf::replay(&reread, None).expect("printsgf's record replays"),
        game,
        "printsgf",
    );
    let n = record.moves.len() / 2 + 1;
    command(engine, &format!("loadsgf {path} {n}")).expect("loadsgf of a prefix");
    assert_eq!(engine.game().records().len(), n - 1);
    check_game(engine.game(), "loadsgf of a prefix");
}

/// The boards [`setup_rows`] reads rows for.
const ROW_BOARDS: [Shape; 12] = [
    Shape::Rect {
        width: 2,
        height: 2,
    },
    Shape::Rect {
        width: 3,
        height: 3,
    },
    Shape::Rect {
        width: 5,
        height: 5,
    },
    Shape::Rect {
        width: 9,
        height: 9,
    },
    Shape::Rect {
        width: 3,
        height: 2,
    },
    Shape::Rect {
        width: 7,
        height: 5,
    },
    Shape::Rect {
        width: 25,
        height: 2,
    },
    Shape::Hex { side: 2 },
    Shape::Hex { side: 3 },
    Shape::Hex { side: 4 },
    Shape::Hex { side: 5 },
    Shape::Hex { side: 7 },
];

thread_local! {
    static GEOMETRIES: RefCell<HashMap<Shape, Arc<Geometry>>> = RefCell::default();
    static SETUP_ENGINES: RefCell<HashMap<Shape, Engine>> = RefCell::default();
}

fn geometry(shape: Shape) -> Arc<Geometry> {
    GEOMETRIES.with(|g| {
        g.borrow_mut()
            .entry(shape)
            .or_insert_with(|| Arc::new(Geometry::new(shape).expect("a supported board")))
            .clone()
    })
}

/// Set-up rows as [`rows_text`] writes them: `X`, `O` and `.`.
fn normalized(text: &str) -> String {
    text.chars()
        .map(|c| match c.to_ascii_uppercase() {
            'X' | 'B' => 'X',
            'O' | 'W' => 'O',
            '-' => '.',
            c => c,
        })
        .collect()
}

/// Set-up rows on every board of `ROW_BOARDS`: accepted rows give one stone per point, a position whose invariants
/// hold (with either side to move, with and without an extra turn) and rows that read back the same; a few moves
/// from it keep the invariants. `oust-setup` accepts exactly the rows `parse_rows` accepts.
///
/// # Panics
/// When a property fails.
pub fn setup_rows(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let choice = data.iter().map(|&b| usize::from(b)).sum::<usize>();
    for shape in ROW_BOARDS {
        let geo = geometry(shape);
        let parsed = parse_rows(&geo, &text);
        if let Ok(stones) = &parsed {
            assert_eq!(stones.len(), geo.len());
            for (to_move, extra) in [
                (Color::Black, false),
                (Color::White, false),
                (Color::White, true),
            ] {
                let pos = Position::setup(geo.clone(), stones, to_move, extra);
                pos.check_invariants()
                    .unwrap_or_else(|e| panic!("{shape} {text:?}: {e}"));
            }
            let mut pos = Position::setup(geo.clone(), stones, Color::Black, false);
            let back = rows_text(&pos);
            assert_eq!(back, normalized(&text));
            assert_eq!(parse_rows(&geo, &back).as_ref(), Ok(stones));
            for step in 0..8 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(choice + step) % moves.len()];
                pos.play(mv)
                    .unwrap_or_else(|e| panic!("a legal move is legal: {e}"));
                pos.check_invariants()
                    .unwrap_or_else(|e| panic!("{shape} {text:?} after {mv:?}: {e}"));
            }
        }
        let plain = !text.is_empty()
            && !text
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '#' || c == '\u{fffd}');
        if plain {
            SETUP_ENGINES.with(|engines| {
                let mut engines = engines.borrow_mut();
                let engine = engines.entry(shape).or_insert_with(|| quick_engine(shape));
                let answer = command(engine, &format!("oust-setup w {text} extra-turn"));
                assert_eq!(
                    answer.is_ok(),
                    parsed.is_ok(),
                    "oust-setup and parse_rows agree on {text:?} on {shape}: {answer:?}"
                );
                // A refused set-up leaves the game alone (the conversation target checks the invariants after
                // every command); an accepted one is checked here.
                if answer.is_ok() {
                    check_game(engine.game(), "oust-setup");
                }
            });
        }
    }
}

/// A results file as `oust match --merge` reads it: every game read writes a line that reads back to the same
/// line, the file written back reads back with the same games, and the table and the summary (with an SPRT) are
/// made. A refused file names its line.
///
/// # Panics
/// When a property fails.
pub fn results_file(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let file = match ResultsFile::parse(&text) {
        Ok(file) => file,
        Err(e) => {
            assert!(e.starts_with("line "), "the error names its line: {e}");
            return;
        }
    };
    let mut written = results_header(&file.labels, "fuzz");
    for g in &file.games {
        let line = g.to_line();
        let back = GameResult::from_line(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert_eq!(back.to_line(), line);
        assert_eq!(
            (
                back.number,
                back.black,
                back.outcome,
                back.reason,
                back.moves,
                back.opening
            ),
            (g.number, g.black, g.outcome, g.reason, g.moves, g.opening)
        );
        written.push_str(&line);
        written.push('\n');
    }
    let again = ResultsFile::parse(&written).unwrap_or_else(|e| panic!("{e}: {written:?}"));
    assert_eq!(again.games.len(), file.games.len());
    assert!(same_engines(&file.labels, &file.labels));
    let _ = format_table(&file.games);
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("an SPRT");
    let summary = format_summary(&file.labels, &file.games, Some(&sprt), None);
    assert!(summary.contains(&format!("games: {}", file.games.len())));
}

/// What the referee reads from an engine's output, by a deliberately plain model: lines split at `\n`, responses
/// that start with `=` or `?` after blank lines and end at a blank line.
fn model_responses(data: &[u8]) -> Vec<Result<(bool, String), &'static str>> {
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if data.is_empty() || data.ends_with(b"\n") {
        lines.pop();
    }
    let mut lines = lines.into_iter().map(|l| {
        if l.len() > MAX_LINE {
            Err("malformed")
        } else {
            Ok(String::from_utf8_lossy(l)
                .trim_end_matches('\r')
                .to_string())
        }
    });
    let mut out = Vec::new();
    loop {
        let reply = (|| {
            let first = loop {
                let l = lines.next().ok_or("closed")??;
                if !l.trim().is_empty() {
                    break l;
                }
            };
            let ok = match first.chars().next() {
                Some('=') => true,
                Some('?') => false,
                _ => return Err("malformed"),
            };
            let mut parts = vec![
                first[1..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .trim()
                    .to_string(),
            ];
            loop {
                if parts.len() > MAX_RESPONSE_LINES {
                    return Err("malformed");
                }
                let l = lines.next().ok_or("closed")??;
                if l.trim().is_empty() {
                    return Ok((ok, parts.join("\n")));
                }
                parts.push(l.trim_end().to_string());
            }
        })();
        let end = reply.is_err();
        out.push(reply);
        if end {
            return out;
        }
    }
}

fn failure_kind(f: &Failure) -> &'static str {
    match f {
        Failure::Closed(_) => "closed",
        Failure::Malformed(_) => "malformed",
        Failure::Timeout(_) => "timeout",
        Failure::Interrupted => "interrupted",
    }
}

/// An engine's output as the referee reads it ([`matches::responses_in`]): read whole and in small pieces it gives
/// the same responses, the responses of a plain model; every response but the last is one, the last a failure;
/// no response text has a blank line; and the first token of each, read as the referee reads a `genmove` answer,
/// is a move, `resign` or refused, on a square and on a hexhex board.
///
/// # Panics
/// When a property fails.
pub fn engine_output(data: &[u8]) {
    let whole = matches::responses_in(data);
    let piece = 1 + data.first().map_or(0, |&b| usize::from(b % 16));
    let pieces = matches::responses_in(BufReader::with_capacity(piece, data));
    assert_eq!(whole, pieces, "read in pieces of {piece} bytes");
    let model = model_responses(data);
    let kinds: Vec<Result<(bool, String), &str>> = whole
        .iter()
        .map(|r| r.clone().map_err(|f| failure_kind(&f)))
        .collect();
    assert_eq!(kinds, model, "the referee's reader and the model");
    let (last, replies) = whole.split_last().expect("at least one read");
    assert!(last.is_err(), "reading ends with a failure");
    for reply in replies {
        let (_, text) = reply.as_ref().expect("only the last read fails");
        assert!(text.split('\n').count() <= MAX_RESPONSE_LINES + 1);
        assert!(
            text.split('\n').skip(1).all(|l| !l.trim().is_empty()),
            "no blank line in a response: {text:?}"
        );
        if let Some(token) = text.split_whitespace().next()
            && !token.eq_ignore_ascii_case("resign")
        {
            for shape in [Shape::square(9), Shape::Hex { side: 7 }] {
                let _ = notation::parse_move(&geometry(shape), token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_touch_files_or_work_long_are_tamed() {
        let mut reset = false;
        let tamed =
            |line: &str, reset: &mut bool| String::from_utf8(tame(line.as_bytes(), reset)).unwrap();
        assert_eq!(tamed("7 perft 9", &mut reset), "7 perft 2");
        assert_eq!(tamed("perft 99", &mut reset), "perft 99");
        assert_eq!(
            tamed("oust-set-param playouts 0", &mut reset),
            "oust-set-param playouts 4"
        );
        assert_eq!(
            tamed("oust-set-param tree_mb 65536", &mut reset),
            "oust-set-param tree_mb 4"
        );
        assert_eq!(
            tamed("oust-set-param solver_mb 64", &mut reset),
            "oust-set-param solver_mb 4"
        );
        assert_eq!(tamed("5 oust-solve", &mut reset), "5 oust-solve 0.02");
        assert_eq!(tamed("oust-solve 1e9", &mut reset), "oust-solve 0.02");
        assert_eq!(tamed("oust-solve 0.01", &mut reset), "oust-solve 0.01");
        assert_eq!(tamed("oust-solve NaN", &mut reset), "oust-solve NaN");
        assert_eq!(tamed("oust-solve 1 2", &mut reset), "oust-solve 1 2");
        assert_eq!(tamed("play b D4 # x", &mut reset), "play b D4 # x");
        assert!(!reset);
        let loaded = tamed("3 loadsgf /etc/passwd 2", &mut reset);
        assert!(reset);
        assert!(
            loaded.starts_with("3 loadsgf ") && loaded.ends_with(".sgf 2"),
            "{loaded}"
        );
        assert!(loaded.contains(&scratch().display().to_string()));
        let loaded = tamed("loadap /dev/zero hex7", &mut reset);
        assert!(
            loaded.starts_with("loadap ") && loaded.ends_with(".sgf hex7"),
            "{loaded}"
        );
        remove_scratch();
    }

    #[test]
    fn the_model_reads_like_the_referee() {
        for data in [
            &b""[..],
            b"= D4\n\n",
            b"\n\n=12 D4 capture 1\r\n\n?  bad\n\n",
            b"= a\nb\n\nfoo\n",
            b"= no end",
        ] {
            engine_output(data);
        }
    }
}
