//! Soak tests, ignored by a plain `cargo test`: they run for minutes. docs/fuzzing.md ("Soak") says how to
//! run them:
//!
//! ```text
//! cargo test --profile release-tests --test soak -- --ignored --nocapture engine_soak   # OUST_SOAK_COMMANDS=1000000 by default
//! cargo test --profile release-tests --test soak -- --ignored --nocapture match_soak
//! ```
//!
//! `engine_soak` feeds one engine process a seeded, realistic mix of commands and samples its memory (VmRSS) as
//! it goes; `match_soak` runs a 24-game match and counts the file descriptors, threads and processes left over.
//! Both need nothing but the project (and Linux's /proc).

mod common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use oust::matches::{self, MatchConfig, TimeControl};
use oust::rng::Rng;
use oust::rules::Shape;

const OUST: &str = env!("CARGO_BIN_EXE_oust");

/// A field of /proc/PID/status in kB, such as `VmRSS`.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// The names of this process's threads, for the message when one is left over.
fn thread_names() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .map(|d| {
            d.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok())
                .map(|n| n.trim_end().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn count_dir(path: &str) -> usize {
    std::fs::read_dir(path).map_or(0, |d| d.count())
}

fn mib(kb: u64) -> String {
    format!("{:.1} MiB", kb as f64 / 1024.0)
}

/// The rows of every board the soak uses, from the top: their lengths.
fn row_lengths(board: Shape) -> Vec<usize> {
    match board {
        Shape::Rect { width, height } => vec![width; height],
        Shape::Hex { side } => {
            let n = 2 * side - 1;
            (0..n).map(|i| side + i.min(n - 1 - i)).collect()
        }
    }
}

const BOARDS: [(&str, Shape); 9] = [
    (
        "boardsize 5",
        Shape::Rect {
            width: 5,
            height: 5,
        },
    ),
    (
        "boardsize 7",
        Shape::Rect {
            width: 7,
            height: 7,
        },
    ),
    (
        "boardsize 9",
        Shape::Rect {
            width: 9,
            height: 9,
        },
    ),
    (
        "boardsize 13",
        Shape::Rect {
            width: 13,
            height: 13,
        },
    ),
    (
        "rectangular_boardsize 7 5",
        Shape::Rect {
            width: 7,
            height: 5,
        },
    ),
    (
        "oust-board 6x4",
        Shape::Rect {
            width: 6,
            height: 4,
        },
    ),
    ("oust-board hex4", Shape::Hex { side: 4 }),
    ("oust-board hex5", Shape::Hex { side: 5 }),
    ("oust-board hex7", Shape::Hex { side: 7 }),
];

const QUERIES: [&str; 14] = [
    "showboard",
    "list_legal",
    "oust-status",
    "final_score",
    "printsgf",
    "oust-group_sizes",
    "gogui-rules_legal_moves",
    "gogui-rules_board",
    "gogui-rules_side_to_move",
    "known_command genmove",
    "oust-list-params",
    "oust-get-param time_per_move",
    "name",
    "oust-board",
];

const ERRORS: [&str; 12] = [
    "frobnicate",
    "play b",
    "play x D4",
    "play b Z99",
    "boardsize 0",
    "boardsize 99",
    "oust-setup b XO",
    "loadsgf /nonexistent/oust-soak.sgf",
    "time_settings -1 0 0",
    "oust-set-param threads 0",
    "perft x",
    "genmove",
];

/// One engine process and the conversation with it: every command carries an id, and every response is read and
/// checked as it comes.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    sent: u64,
    errors: u64,
    analysis_lines: u64,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(OUST)
            .args(["--seed", "1"])
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            stdout,
            next_id: 1,
            sent: 0,
            errors: 0,
            analysis_lines: 0,
        }
    }

    fn send(&mut self, command: &str) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.sent += 1;
        writeln!(self.stdin, "{id} {command}").unwrap();
        self.stdin.flush().unwrap();
        id
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).unwrap();
        assert!(n > 0, "the engine closed its output");
        line.truncate(line.trim_end_matches('\n').len());
        line
    }

    /// Reads the response to command `id`: `=id` or `?id`, then lines up to a blank one. Returns (ok, text).
    fn response(&mut self, id: u64, command: &str) -> (bool, String) {
        let first = self.line();
        let ok = if let Some(rest) = first.strip_prefix(&format!("={id}")) {
            assert!(rest.is_empty() || rest.starts_with(' '), "{first}");
            true
        } else if let Some(rest) = first.strip_prefix(&format!("?{id}")) {
            assert!(rest.starts_with(' '), "{first}");
            false
        } else {
            panic!("'{command}' (id {id}) was answered with '{first}'");
        };
        let mut text = first[1 + id.to_string().len()..].trim().to_string();
        loop {
            let line = self.line();
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        assert!(
            !text.contains("internal error"),
            "'{command}' met an internal error: {text}"
        );
        if !ok {
            self.errors += 1;
        }
        (ok, text)
    }

    fn run(&mut self, command: &str) -> (bool, String) {
        let id = self.send(command);
        self.response(id, command)
    }

    /// `oust-analyze`: reads the header, lets the stream run for `ms`, stops it with the next command and counts
    /// the analysis lines up to the blank line that ends the stream.
    fn analyze(&mut self, ms: u64) {
        let id = self.send("oust-analyze 1");
        let header = self.line();
        assert_eq!(header, format!("={id}"), "the header of an analysis");
        std::thread::sleep(Duration::from_millis(ms));
        let next = self.send("oust-status");
        loop {
            let line = self.line();
            if line.is_empty() {
                break;
            }
            assert!(line.starts_with("info "), "an analysis line: {line}");
            self.analysis_lines += 1;
        }
        self.response(next, "oust-status");
    }

    fn rss_kb(&self) -> u64 {
        status_kb(self.child.id(), "VmRSS").unwrap_or(0)
    }
}

/// The side to move from `oust-status` (`to-move b ...`), if the game is on.
fn to_move(status: &str) -> Option<&'static str> {
    match status.split_whitespace().nth(1) {
        Some("b") => Some("b"),
        Some("w") => Some("w"),
        _ => None,
    }
}

/// Random set-up rows for `board`: mostly empty points, a few stones.
fn rows(rng: &mut Rng, board: Shape) -> String {
    row_lengths(board)
        .iter()
        .map(|&n| {
            (0..n)
                .map(|_| match rng.below(10) {
                    0 => 'X',
                    1 => 'O',
                    _ => '.',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A random vertex for `board` (a few off the board).
fn vertex(rng: &mut Rng, board: Shape) -> String {
    let (w, h) = board.extent();
    let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let x = rng.below(w + 1).min(24);
    format!("{}{}", letters[x] as char, 1 + rng.below(h + 1))
}

/// Sends one command of the mix, or a few that belong together (each counts).
fn step(s: &mut Session, rng: &mut Rng, board: &mut Shape, dir: &Path) {
    let roll = rng.below(1000);
    match roll {
        // genmove for the side to move, at a short time limit (after oust-status says whose turn it is)
        0..=99 => {
            let (_, status) = s.run("oust-status");
            match to_move(&status) {
                Some(c) => {
                    s.run(&format!("genmove {c}"));
                }
                None => {
                    s.run("clear_board");
                }
            }
        }
        100..=119 => {
            let t = ["0.005", "0.01", "0.02"][rng.below(3)];
            s.run(&format!("oust-set-param time_per_move {t}"));
        }
        120..=134 => {
            let clock = [
                "time_settings 0 0.02 1",
                "time_settings 0.3 0.01 5",
                "time_settings 1 0 0",
                "kgs-time_settings byoyomi 0 0.02 3",
                "kgs-time_settings none",
            ][rng.below(5)];
            s.run(clock);
        }
        // play: the side to move at a random vertex (often illegal), or the wrong side
        135..=259 => {
            let (_, status) = s.run("oust-status");
            let c = to_move(&status).unwrap_or("b");
            let v = vertex(rng, *board);
            s.run(&format!("play {c} {v}"));
        }
        260..=284 => s.analyze(5 + rng.below(30) as u64),
        285..=359 => {
            s.run("undo");
        }
        360..=379 => {
            let (command, shape) = BOARDS[rng.below(BOARDS.len())];
            let (ok, text) = s.run(command);
            assert!(ok, "{command}: {text}");
            *board = shape;
        }
        380..=389 => {
            s.run("clear_board");
        }
        390..=424 => {
            let color = ["b", "w"][rng.below(2)];
            let extra = if rng.below(4) == 0 { " extra-turn" } else { "" };
            let rows = rows(rng, *board);
            let (ok, text) = s.run(&format!("oust-setup {color} {rows}{extra}"));
            assert!(ok, "oust-setup {rows}: {text}");
        }
        // printsgf to a file and loadsgf of it: the same record comes back
        425..=449 => {
            let file = dir.join(format!("soak-{}.sgf", rng.below(3)));
            let file = file.display().to_string();
            let (_, before) = s.run("printsgf");
            let (ok, text) = s.run(&format!("printsgf {file}"));
            assert!(ok, "printsgf: {text}");
            let (ok, text) = s.run(&format!("loadsgf {file}"));
            assert!(ok, "loadsgf: {text}");
            let (_, after) = s.run("printsgf");
            assert_eq!(before, after, "a printsgf/loadsgf round trip");
        }
        450..=549 => {
            s.run(ERRORS[rng.below(ERRORS.len())]);
        }
        550..=551 => {
            // A line longer than the engine reads (64 KiB): an error, and the session goes on.
            let (ok, _) = s.run(&"x".repeat(70_000));
            assert!(!ok);
        }
        _ => {
            s.run(QUERIES[rng.below(QUERIES.len())]);
        }
    }
}

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "a soak of minutes: cargo test --profile release-tests --test soak -- --ignored --nocapture"]
fn engine_soak() {
    let total = env_count("OUST_SOAK_COMMANDS", 1_000_000);
    let warm_up = (total / 10).max(1000);
    let dir = common::TempDir::new("soak");
    let mut s = Session::start();
    let mut rng = Rng::new(2026);
    let mut board = Shape::square(9);
    s.run("name");
    let pid = s.child.id();
    let start_rss = s.rss_kb();
    let start_threads = count_dir(&format!("/proc/{pid}/task"));
    let start_fds = count_dir(&format!("/proc/{pid}/fd"));
    let started = Instant::now();
    let (mut warm_rss, mut peak, mut peak_after_warm_up) = (0, start_rss, 0);
    let mut next_sample = 1000;
    let mut samples = Vec::new();
    while s.sent < total {
        step(&mut s, &mut rng, &mut board, &dir);
        if s.sent >= next_sample {
            next_sample += 1000;
            let rss = s.rss_kb();
            peak = peak.max(rss);
            if s.sent >= warm_up {
                if warm_rss == 0 {
                    warm_rss = rss;
                }
                peak_after_warm_up = peak_after_warm_up.max(rss);
            }
            samples.push((s.sent, rss));
            if s.sent % (total / 20).max(1000) < 1000 {
                eprintln!(
                    "soak: {} commands in {:.0} s, VmRSS {}",
                    s.sent,
                    started.elapsed().as_secs_f64(),
                    mib(rss)
                );
            }
        }
    }
    let end_rss = s.rss_kb();
    let end_threads = count_dir(&format!("/proc/{pid}/task"));
    let end_fds = count_dir(&format!("/proc/{pid}/fd"));
    let elapsed = started.elapsed().as_secs_f64();
    let id = s.send("quit");
    s.response(id, "quit");
    let status = s.child.wait().unwrap();
    drop(dir);
    eprintln!(
        "engine soak: {} commands ({} answered '?', {} analysis lines) in {elapsed:.0} s, {:.0} commands/s; \
         projected for 10^6: {:.0} s",
        s.sent,
        s.errors,
        s.analysis_lines,
        s.sent as f64 / elapsed,
        elapsed / s.sent as f64 * 1e6
    );
    eprintln!(
        "VmRSS: start {}, after warm-up ({warm_up} commands) {}, peak {} (after warm-up {}), end {}",
        mib(start_rss),
        mib(warm_rss),
        mib(peak),
        mib(peak_after_warm_up),
        mib(end_rss)
    );
    eprintln!(
        "threads: start {start_threads}, end {end_threads}; open fds: start {start_fds}, end {end_fds}; exit: {status}"
    );
    assert!(status.success());
    assert_eq!(end_threads, start_threads, "threads left over");
    assert_eq!(end_fds, start_fds, "file descriptors left over");
    // Flat after warm-up: no more than a quarter (or 16 MiB) above the warm-up level.
    let allowed = (warm_rss + warm_rss / 4).max(warm_rss + 16 * 1024);
    assert!(
        peak_after_warm_up <= allowed,
        "VmRSS grew after warm-up: {} then a peak of {}; samples {samples:?}",
        mib(warm_rss),
        mib(peak_after_warm_up)
    );
}

/// The processes whose environment holds `marker` (the engines of one match and the shells that started them).
fn marked_processes(marker: &str) -> Vec<u32> {
    let me = std::process::id();
    let needle = marker.as_bytes();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.windows(needle.len()).any(|w| w == needle))
        })
        .collect()
}

#[test]
#[ignore = "a 24-game match of minutes: cargo test --profile release-tests --test soak -- --ignored --nocapture"]
fn match_soak() {
    // The same as `oust match --games 24 --black oust --white oust --size 7 --time-per-move 0.1 --concurrency 2`,
    // run in this process so that the referee's own descriptors and threads can be counted after it.
    let games = env_count("OUST_SOAK_GAMES", 24);
    let marker = format!("OUST_SOAK_MATCH={}", std::process::id());
    let engine = format!("{marker} {OUST}");
    let dir = common::TempDir::new("match-soak");
    let mut config = MatchConfig::new(&engine, &engine, games);
    config.board = Shape::square(7);
    config.time = TimeControl::new(Some(0.1), None, 0.2, 30.0);
    config.concurrency = 2;
    config.results = Some(dir.join("results.tsv"));
    config.sgf_dir = Some(dir.to_path_buf());
    let me = std::process::id();
    let fds = || count_dir("/proc/self/fd");
    let threads = || count_dir("/proc/self/task");
    let done = Arc::new(AtomicBool::new(false));
    // The sampler is a thread of its own: started first, it is in every count below.
    let sampler = {
        let done = done.clone();
        let marker = marker.clone();
        std::thread::spawn(move || {
            let mut most = (0, 0, 0, 0u64, 0u64);
            let mut engine_pids = HashSet::new();
            while !done.load(Ordering::SeqCst) {
                let pids = marked_processes(&marker);
                let engine_rss: u64 = pids.iter().filter_map(|&p| status_kb(p, "VmRSS")).sum();
                engine_pids.extend(pids.iter().copied());
                most = (
                    most.0.max(count_dir("/proc/self/fd")),
                    most.1.max(count_dir("/proc/self/task")),
                    most.2.max(pids.len()),
                    most.3.max(status_kb(me, "VmRSS").unwrap_or(0)),
                    most.4.max(engine_rss),
                );
                std::thread::sleep(Duration::from_millis(100));
            }
            (most, engine_pids.len())
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let (fds_before, threads_before) = (fds(), threads());
    let rss_before = status_kb(me, "VmRSS").unwrap_or(0);
    let started = Instant::now();
    let report = matches::run(&config, &AtomicBool::new(false)).unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    let (fds_after, threads_after) = (fds(), threads());
    let names_after = thread_names();
    let rss_after = status_kb(me, "VmRSS").unwrap_or(0);
    // Engines are killed with their process group; give the kernel a moment to reap them.
    std::thread::sleep(Duration::from_millis(500));
    let left = marked_processes(&marker);
    done.store(true, Ordering::SeqCst);
    let ((most_fds, most_threads, most_engines, peak_rss, peak_engine_rss), engine_processes) =
        sampler.join().unwrap();
    drop(dir);
    let forfeits: Vec<String> = report
        .results
        .iter()
        .filter(|g| g.reason.is_forfeit())
        .map(|g| format!("game {}: {} {}", g.number, g.reason.keyword(), g.detail))
        .collect();
    let longest = report
        .results
        .iter()
        .flat_map(|g| g.longest)
        .fold(0.0, f64::max);
    eprintln!(
        "match soak: {} games in {elapsed:.0} s, {} forfeits, longest genmove answer {longest:.3} s",
        report.results.len(),
        forfeits.len()
    );
    eprintln!(
        "referee: open fds {fds_before} before, at most {most_fds} during, {fds_after} after; threads \
         {threads_before} before, at most {most_threads} during, {threads_after} after; VmRSS {} before, peak {}, \
         {} after",
        mib(rss_before),
        mib(peak_rss),
        mib(rss_after)
    );
    eprintln!(
        "engines: {engine_processes} processes seen (sh and oust), at most {most_engines} at once, peak VmRSS of \
         all together {}; left over after the match: {}",
        mib(peak_engine_rss),
        left.len()
    );
    assert_eq!(report.results.len() as u64, games);
    assert!(forfeits.is_empty(), "{forfeits:?}");
    assert_eq!(fds_after, fds_before, "file descriptors left over");
    assert_eq!(
        threads_after, threads_before,
        "threads left over: {names_after:?}"
    );
    assert!(left.is_empty(), "processes left over: {left:?}");
}
