//! Helpers shared by the integration tests, and a deliberately naive reference implementation of the rules that
//! shares no code with the engine's rules core: groups are found by flood fill from scratch at every question.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::Write;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use oust::rules::{Color, Geometry, Position, Shape};

/// A fresh directory for one test's files, `oust-NAME-PID-N` in the temporary directory, removed with everything
/// in it when the guard is dropped: at the end of the test, and when the test fails (the panic unwinds through the
/// guard), so that `cargo test` leaves nothing behind.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Makes the directory (empty: an old one of the same name is removed first).
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("oust-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `text` to the file `name` in the directory and gives its path.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }
}

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether a test that needs the program `tool` runs: true when it is installed. When it is not, the test says
/// so in one `SKIPPED` line on stderr and passes, except under CI (`CI=true`, as `.ci/run` sets it), where it fails:
/// CI must run every test.
pub fn needs_tool(test: &str, tool: &str, installed: bool) -> bool {
    let under_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    match missing_tool(test, tool, installed, under_ci) {
        None => true,
        Some(line) => {
            let mut err = std::io::stderr();
            let _ = std::io::Write::write_all(&mut err, format!("{line}\n").as_bytes());
            false
        }
    }
}

/// [`needs_tool`]'s decision: `None` when the test runs, else the line that says it is skipped.
///
/// # Panics
/// When the tool is missing under CI.
pub fn missing_tool(test: &str, tool: &str, installed: bool, under_ci: bool) -> Option<String> {
    if installed {
        return None;
    }
    assert!(
        !under_ci,
        "CI must run {test}, but {tool} is not installed (.ci/run installs it)"
    );
    Some(format!(
        "SKIPPED {test}: {tool} is not installed (apt-get install parallel)"
    ))
}

/// The responses of `engine` to `input`, run through the protocol session as a controller's pipe would be.
pub fn transcript(engine: &mut oust::gtp::Engine, input: &str) -> String {
    let mut out = Vec::new();
    oust::gtp::run(
        engine,
        std::io::Cursor::new(input.as_bytes().to_vec()),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// Runs `cmd` with `input` on its stdin and returns what it wrote. stdin is written from another thread, so that a
/// full stdout pipe cannot deadlock the test; an engine that exits before reading all of it is no error here.
pub fn run_with_input(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Starts `program` with `args` (output discarded), waits until `file` exists and `wait_ms` more, and kills it
/// (SIGKILL): a referee killed at a random moment of its run.
pub fn kill_once_written(program: &str, args: &[String], file: &Path, wait_ms: u64) {
    let mut child = Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while !file.exists() {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    std::thread::sleep(std::time::Duration::from_millis(wait_ms));
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Runs the engine binary with `args` and `input`, without the caller's `RUST_LOG`.
pub fn run_binary(args: &[&str], input: &[u8]) -> Output {
    run_with_input(
        Command::new(env!("CARGO_BIN_EXE_oust"))
            .args(args)
            .env_remove("RUST_LOG"),
        input,
    )
}

/// Builds a position from rows written top to bottom (`X` black, `O` white, `.` empty).
pub fn position(rows: &[&str], to_move: Color) -> Position {
    let h = rows.len();
    let w = rows[0].len();
    let geo = Arc::new(Geometry::rect(w, h).unwrap());
    let mut stones = vec![None; geo.len()];
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), w, "ragged rows");
        for (x, ch) in row.chars().enumerate() {
            let p = geo.point_at(x, h - 1 - r).unwrap();
            stones[p.index()] = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                '.' => None,
                _ => panic!("bad cell {ch}"),
            };
        }
    }
    Position::setup(geo, &stones, to_move, false)
}

/// The rows of a position, top to bottom.
pub fn rows(pos: &Position) -> Vec<String> {
    let geo = pos.geometry();
    let (w, h) = geo.dimensions();
    (0..h)
        .rev()
        .map(|y| {
            (0..w)
                .map(|x| match pos.color_at(geo.point_at(x, y).unwrap()) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

/// Why the reference refuses a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefIllegal {
    Occupied,
    /// The new group (of this size) touches no enemy stone.
    NoEnemy(usize),
    /// The new group (size .0) touches an enemy group of size .1 that is not smaller.
    NotSmaller(usize, usize),
}

/// GTP column letters, spelt out again here rather than taken from the engine.
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The reference's own description of a board: its cells in the engine's point order (row by row from the bottom
/// left), their names, and their neighbours, all computed here from coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub names: Vec<String>,
    pub adj: Vec<Vec<usize>>,
}

impl RefBoard {
    /// A rectangle with orthogonal neighbours, or a hexhex board: the cells of GoGui's rhombus within hex distance
    /// S - 1 of its centre, where the distance of a step (dx, dy) is max(|dx|, |dy|, |dx - dy|).
    pub fn new(shape: Shape) -> RefBoard {
        type Step = fn(i64, i64) -> bool;
        let (cells, neighbour): (Vec<(i64, i64)>, Step) = match shape {
            Shape::Rect { width, height } => {
                let cells = (0..height as i64)
                    .flat_map(|y| (0..width as i64).map(move |x| (x, y)))
                    .collect();
                (cells, |dx, dy| dx.abs() + dy.abs() == 1)
            }
            Shape::Hex { side } => {
                let n = 2 * side as i64 - 1;
                let c = side as i64 - 1;
                let dist = |dx: i64, dy: i64| dx.abs().max(dy.abs()).max((dx - dy).abs());
                let cells = (0..n)
                    .flat_map(|y| (0..n).map(move |x| (x, y)))
                    .filter(|&(x, y)| dist(x - c, y - c) <= c)
                    .collect();
                (cells, |dx, dy| {
                    dx.abs().max(dy.abs()).max((dx - dy).abs()) == 1
                })
            }
        };
        let names = cells
            .iter()
            .map(|&(x, y)| format!("{}{}", LETTERS[x as usize] as char, y + 1))
            .collect();
        let adj = cells
            .iter()
            .map(|&(x, y)| {
                (0..cells.len())
                    .filter(|&j| neighbour(cells[j].0 - x, cells[j].1 - y))
                    .collect()
            })
            .collect();
        RefBoard { names, adj }
    }
}

/// A naive Oust position on any board, described by its neighbour lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub board: std::sync::Arc<RefBoard>,
    pub cells: Vec<Option<Color>>,
    pub to_move: Color,
    pub extra: bool,
    pub winner: Option<Color>,
}

impl Reference {
    /// The reference's copy of `pos`. Checks that the engine's points are the reference's cells, name by name.
    pub fn from_position(pos: &Position) -> Reference {
        let geo = pos.geometry();
        let board = RefBoard::new(geo.shape());
        let names: Vec<String> = geo.points().map(|p| geo.name(p)).collect();
        assert_eq!(names, board.names, "the engine's points and names");
        Reference {
            board: std::sync::Arc::new(board),
            cells: geo.points().map(|p| pos.color_at(p)).collect(),
            to_move: pos.to_move(),
            extra: pos.extra_turn(),
            winner: pos.winner(),
        }
    }

    pub fn neighbors(&self, i: usize) -> Vec<usize> {
        self.board.adj[i].clone()
    }

    /// The group of the stone on `i` in `cells`.
    fn group_in(&self, cells: &[Option<Color>], i: usize) -> BTreeSet<usize> {
        let c = cells[i];
        let mut seen = BTreeSet::from([i]);
        let mut stack = vec![i];
        while let Some(s) = stack.pop() {
            for n in self.neighbors(s) {
                if cells[n] == c && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// The enemy groups touching the group `g` in `cells`.
    fn touching_enemies(
        &self,
        cells: &[Option<Color>],
        g: &BTreeSet<usize>,
        enemy: Color,
    ) -> Vec<BTreeSet<usize>> {
        let mut groups: Vec<BTreeSet<usize>> = Vec::new();
        for &s in g {
            for n in self.neighbors(s) {
                if cells[n] == Some(enemy) && !groups.iter().any(|eg| eg.contains(&n)) {
                    groups.push(self.group_in(cells, n));
                }
            }
        }
        groups
    }

    /// For a placement of `color` on the empty point `i` next to a friendly stone: the size of the group it forms
    /// and of the largest enemy group touching that group (0 when none). `None` without a friendly neighbour.
    pub fn joined(&self, color: Color, i: usize) -> Option<(usize, usize)> {
        if !self
            .neighbors(i)
            .iter()
            .any(|&n| self.cells[n] == Some(color))
        {
            return None;
        }
        let mut cells = self.cells.clone();
        cells[i] = Some(color);
        let g = self.group_in(&cells, i);
        let enemies = self.touching_enemies(&cells, &g, color.opponent());
        let biggest = enemies.iter().map(BTreeSet::len).max().unwrap_or(0);
        Some((g.len(), biggest))
    }

    pub fn check(&self, color: Color, i: usize) -> Result<(), RefIllegal> {
        if self.cells[i].is_some() {
            return Err(RefIllegal::Occupied);
        }
        match self.joined(color, i) {
            None => Ok(()),
            Some((g, 0)) => Err(RefIllegal::NoEnemy(g)),
            Some((g, biggest)) if biggest >= g => Err(RefIllegal::NotSmaller(g, biggest)),
            Some(_) => Ok(()),
        }
    }

    pub fn placements(&self, color: Color) -> Vec<usize> {
        if self.winner.is_some() {
            return Vec::new();
        }
        (0..self.cells.len())
            .filter(|&i| self.check(color, i).is_ok())
            .collect()
    }

    /// Legal moves of the side to move: `Some(i)` placements, `None` for a forced pass.
    pub fn moves(&self) -> Vec<Option<usize>> {
        let mine = self.placements(self.to_move);
        if !mine.is_empty() {
            return mine.into_iter().map(Some).collect();
        }
        if self.winner.is_none() && !self.placements(self.to_move.opponent()).is_empty() {
            return vec![None];
        }
        Vec::new()
    }

    /// Plays a legal move and returns the number of stones captured.
    pub fn play(&mut self, mv: Option<usize>) -> usize {
        let color = self.to_move;
        let Some(i) = mv else {
            self.to_move = color.opponent();
            self.extra = false;
            return 0;
        };
        assert!(
            self.check(color, i).is_ok(),
            "reference asked to play an illegal move"
        );
        let joins = self
            .neighbors(i)
            .iter()
            .any(|&n| self.cells[n] == Some(color));
        self.cells[i] = Some(color);
        if !joins {
            self.to_move = color.opponent();
            self.extra = false;
            return 0;
        }
        let g = self.group_in(&self.cells, i);
        let mut captured = 0;
        for eg in self.touching_enemies(&self.cells.clone(), &g, color.opponent()) {
            for s in eg {
                self.cells[s] = None;
                captured += 1;
            }
        }
        if !self.cells.contains(&Some(color.opponent())) {
            self.winner = Some(color);
            self.extra = false;
        } else {
            self.extra = true;
        }
        captured
    }

    pub fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// The exact result of `pos` with perfect play, by exhaustive search with a table of solved positions: the
/// outcome of the game.
pub fn solve(
    pos: &Position,
    memo: &mut std::collections::HashMap<u64, oust::rules::Outcome>,
) -> oust::rules::Outcome {
    // One position per depth, refilled for each move (a clone of a position copies its whole point table).
    let mut stack = vec![pos.clone()];
    solve_at(&mut stack, 0, memo)
}

fn solve_at(
    stack: &mut Vec<Position>,
    depth: usize,
    memo: &mut std::collections::HashMap<u64, oust::rules::Outcome>,
) -> oust::rules::Outcome {
    use oust::rules::{Outcome, Status};
    let pos = &stack[depth];
    if let Some(&o) = memo.get(&pos.hash()) {
        return o;
    }
    let hash = pos.hash();
    let result = match pos.status() {
        Status::Over(o) => o,
        _ => {
            let me = pos.to_move();
            let moves = pos.legal_moves();
            if stack.len() == depth + 1 {
                stack.push(stack[depth].clone());
            }
            let mut best: Option<Outcome> = None;
            for mv in moves {
                let (here, below) = stack.split_at_mut(depth + 1);
                below[0].copy_from(&here[depth]);
                below[0].play(mv).unwrap();
                let o = solve_at(stack, depth + 1, memo);
                let rank = |o: Outcome| match o {
                    Outcome::Win(c) if c == me => 2,
                    Outcome::Draw => 1,
                    Outcome::Win(_) => 0,
                };
                if best.is_none_or(|b| rank(o) > rank(b)) {
                    best = Some(o);
                }
                if rank(o) == 2 {
                    break;
                }
            }
            best.expect("an ongoing game has a legal move")
        }
    };
    memo.insert(hash, result);
    result
}
