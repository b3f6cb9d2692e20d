//! One engine process, driven over GTP and never trusted.
//!
//! The command runs under `sh -c` in a process group of its own, so that a terminal's Ctrl-C reaches only the
//! referee and a kill reaches the whole group (a shell pipeline, a wrapper script and what it started). A thread reads
//! stdout line by line (at most [`MAX_LINE`] bytes a line, at most [`QUEUED_LINES`] lines queued), so every wait
//! for a response has a deadline; another copies stderr into the current game's log file when there is one, and
//! keeps its last lines in memory (at most [`TAIL_LINES`] lines of [`TAIL_LINE_BYTES`] bytes), so that an engine
//! that exits or cannot start says why in the error, with or without a log file.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::gtp::{MAX_LINE, RawLine, read_raw_line};
use crate::rules::Shape;

/// Lines read ahead from an engine before its writes block.
pub const QUEUED_LINES: usize = 256;
/// Lines a single response may have.
pub const MAX_RESPONSE_LINES: usize = 1000;
/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);
/// Lines of an engine's stderr kept in memory for error messages.
pub const TAIL_LINES: usize = 20;
/// Bytes kept of each of those lines.
pub const TAIL_LINE_BYTES: usize = 300;
/// Characters of stderr at most that an error message quotes (its end).
const TAIL_QUOTED: usize = 600;
/// How long an error waits for the rest of an ended engine's stderr.
const TAIL_WAIT: Duration = Duration::from_millis(300);

/// The last lines of a stream, bounded in lines and bytes.
#[derive(Debug, Default)]
pub struct Tail {
    lines: VecDeque<String>,
    partial: Vec<u8>,
}

impl Tail {
    /// Adds bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b == b'\n' {
                self.end_line();
            } else if self.partial.len() < TAIL_LINE_BYTES {
                self.partial.push(b);
            }
        }
    }

    fn end_line(&mut self) {
        let line = String::from_utf8_lossy(&self.partial)
            .trim_end()
            .to_string();
        self.partial.clear();
        if self.lines.len() == TAIL_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    /// The last non-blank lines (an unfinished last line included) on one line, separated by ` | `, at most
    /// [`TAIL_QUOTED`] characters from their end; empty when there are none.
    pub fn quote(&self) -> String {
        let partial = String::from_utf8_lossy(&self.partial);
        let text = self
            .lines
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(partial.as_ref()))
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" | ");
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let count = text.chars().count();
        if count > TAIL_QUOTED {
            let skipped: String = text.chars().skip(count - TAIL_QUOTED).collect();
            format!("...{skipped}")
        } else {
            text
        }
    }
}

/// What the stdout reader passes on.
enum Line {
    Text(String),
    TooLong,
    End,
}

/// Why no usable response arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No complete response within the limit.
    Timeout(Duration),
    /// The engine closed its output or could not be written to; the text says how it ended.
    Closed(String),
    /// Something that is not a GTP response arrived.
    Malformed(String),
    /// The match is being interrupted.
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(d) => write!(f, "no response within {:.3} s", d.as_secs_f64()),
            Failure::Closed(how) => write!(f, "{how}"),
            Failure::Malformed(what) => write!(f, "{what}"),
            Failure::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// A GTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// True for `=`, false for `?`.
    pub ok: bool,
    /// The text after `=` or `?` and the optional id, lines joined by `\n`.
    pub text: String,
    /// From sending the command to the end of the response.
    pub elapsed: Duration,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    log: Arc<Mutex<Option<File>>>,
    tail: Arc<Mutex<Tail>>,
    /// Which game and engine this is, for debug lines.
    label: String,
    /// Disconnected once the stderr thread has read all of stderr.
    stderr_done: Receiver<()>,
    /// Set once the process has been reaped.
    dead: bool,
    /// How the process `sh -c` started (the shell, or a wrapper) ended while what it started was still running:
    /// the group was killed with it, and the end of output that follows reports this status.
    leader_exit: Option<ExitStatus>,
    /// The threads reading stdout and stderr, joined by [`EngineProcess::kill`] once they have ended.
    readers: Vec<thread::JoinHandle<()>>,
}

impl EngineProcess {
    /// Starts `command` under `sh -c`. Its stderr goes to the file set by [`EngineProcess::set_log`], if any, and
    /// its last lines are kept for error messages.
    ///
    /// # Errors
    /// The error of spawning `sh`.
    pub fn spawn(command: &str) -> io::Result<EngineProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = sync_channel(QUEUED_LINES);
        let stdout_reader = thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || read_lines(stdout, tx))?;
        let log: Arc<Mutex<Option<File>>> = Arc::new(Mutex::new(None));
        let tail: Arc<Mutex<Tail>> = Arc::default();
        let (done_tx, stderr_done) = sync_channel::<()>(0);
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let (sink, kept) = (log.clone(), tail.clone());
        let stderr_reader =
            thread::Builder::new()
                .name("engine-stderr".into())
                .spawn(move || {
                    // Dropped at the end of stderr: the receiver sees the channel disconnected.
                    let _done = done_tx;
                    let mut buf = [0u8; 8192];
                    while let Ok(n @ 1..) = stderr.read(&mut buf) {
                        kept.lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(&buf[..n]);
                        let mut file = sink.lock().unwrap_or_else(PoisonError::into_inner);
                        if let Some(f) = file.as_mut() {
                            let _ = f.write_all(&buf[..n]);
                        }
                    }
                })?;
        let stdin = child.stdin.take();
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
            log,
            tail,
            stderr_done,
            label: String::new(),
            dead: false,
            leader_exit: None,
            readers: vec![stdout_reader, stderr_reader],
        })
    }

    /// Sends the engine's stderr to `file` from now on (nowhere for `None`).
    pub fn set_log(&self, file: Option<File>) {
        *self.log.lock().unwrap_or_else(PoisonError::into_inner) = file;
    }

    /// Names the engine in the debug lines of its commands and responses, such as `game 3 A (black)`.
    pub fn set_label(&mut self, label: String) {
        self.label = label;
    }

    /// The last lines of the engine's stderr, as [`Tail::quote`] gives them.
    pub fn stderr_tail(&self) -> String {
        self.tail
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .quote()
    }

    /// `what`, followed by the last lines of stderr when there are any. Waits a moment for the end of stderr
    /// first, since the engine has ended or is being killed.
    fn with_tail(&self, what: String) -> String {
        let _ = self.stderr_done.recv_timeout(TAIL_WAIT);
        match self.stderr_tail() {
            tail if tail.is_empty() => what,
            tail => format!("{what}; its stderr ended with: {tail}"),
        }
    }

    /// True until the engine is known to have ended.
    pub fn is_alive(&self) -> bool {
        !self.dead
    }

    /// Sends one command line and waits at most `limit` for the whole response, looking at `stop` as it waits.
    ///
    /// # Errors
    /// A [`Failure`]: time out, closed output, malformed response, or interruption.
    pub fn command(
        &mut self,
        line: &str,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<Reply, Failure> {
        let start = Instant::now();
        let deadline = start + limit;
        self.send_line(line)?;
        let (ok, text) = self.read_reply(deadline, limit, stop)?;
        log::debug!("{} <- {} {text}", self.label, if ok { '=' } else { '?' });
        Ok(Reply {
            ok,
            text,
            elapsed: start.elapsed(),
        })
    }

    /// Writes one command line without waiting for its response, for a command that streams (such as
    /// `oust-analyze`), whose lines are then read with [`EngineProcess::stream_line`].
    ///
    /// # Errors
    /// [`Failure::Closed`] when the engine cannot be written to.
    pub fn send_line(&mut self, line: &str) -> Result<(), Failure> {
        log::debug!("{} -> {line}", self.label);
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|e| {
            // An engine that has exited closed its output as well as its input: the same report whichever of
            // the two its referee noticed first.
            let status = if self.dead { None } else { self.exit_status() };
            let what = if e.kind() == io::ErrorKind::BrokenPipe && status.is_some() {
                "closed its output".to_string()
            } else {
                format!("could not be written to ({e})")
            };
            Failure::Closed(self.ended_as(&what, status))
        })
    }

    /// The next line of output within `wait`, or `None` when none came: for reading a streamed response line by
    /// line.
    ///
    /// # Errors
    /// [`Failure::Closed`] when the output ended, [`Failure::Malformed`] for a line that is too long.
    pub fn stream_line(&mut self, wait: Duration) -> Result<Option<String>, Failure> {
        match self.next_line(Instant::now() + wait, wait, &AtomicBool::new(false)) {
            Ok(line) => Ok(Some(line)),
            Err(Failure::Timeout(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The process id of the engine's shell, which leads the engine's process group.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    fn next_line(
        &mut self,
        deadline: Instant,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        loop {
            if stop.load(Ordering::SeqCst) {
                return Err(Failure::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout(limit));
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Line::Text(t)) => return Ok(t),
                Ok(Line::TooLong) => return Err(too_long()),
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Closed(self.ended("closed its output")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Lines already written still come first; the end of output follows the group's death.
                    self.leader_ended();
                }
            }
        }
    }

    /// How the engine's process (the shell of `sh -c`, or a wrapper) ended, when it has, without waiting. Killed
    /// or exited, it may leave what it started running as an orphan that holds the engine's output open: the whole
    /// process group is then killed, so that the engine goes down with its wrapper.
    pub fn leader_ended(&mut self) -> Option<ExitStatus> {
        if self.dead {
            return self.leader_exit;
        }
        let status = self.child.try_wait().ok().flatten()?;
        self.dead = true;
        self.leader_exit = Some(status);
        self.kill_group();
        Some(status)
    }

    /// Reads one response with [`read_response`], each line waited for until `deadline`.
    fn read_reply(
        &mut self,
        deadline: Instant,
        limit: Duration,
        stop: &AtomicBool,
    ) -> Result<(bool, String), Failure> {
        read_response(&mut || self.next_line(deadline, limit, stop))
    }

    /// Kills what is left of the engine after its output closed and says how it ended.
    fn ended(&mut self, what: &str) -> String {
        let status = if self.dead { None } else { self.exit_status() };
        self.ended_as(what, status)
    }

    /// [`Self::ended`] for an engine whose exit status was already waited for.
    fn ended_as(&mut self, what: &str, status: Option<ExitStatus>) -> String {
        self.stdin = None;
        if self.dead {
            if let Some(status) = self.leader_exit.take() {
                return self.with_tail(format!("{what}: {}", describe_status(status)));
            }
            return self.with_tail(what.to_string());
        }
        if let Some(status) = status {
            self.dead = true;
            // Whatever the engine started may still run in its group.
            self.kill_group();
            return self.with_tail(format!("{what}: {}", describe_status(status)));
        }
        self.kill();
        self.with_tail(format!("{what} (it was still running and was killed)"))
    }

    /// The engine's exit status, given a moment (300 ms) to exit, or `None` when it is still running. The status
    /// of an engine that has been reaped stays known.
    fn exit_status(&mut self) -> Option<ExitStatus> {
        let until = Instant::now() + Duration::from_millis(300);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                _ => return None,
            }
        }
    }

    /// Sends SIGKILL to the engine's process group.
    fn kill_group(&self) {
        let Ok(pgid) = i32::try_from(self.child.id()) else {
            return;
        };
        // SAFETY: kill(2) with a negative pid signals the process group `pgid`, which the child leads since it
        // was spawned with process_group(0). It has no memory-safety preconditions.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }

    /// Kills the engine and everything in its process group, reaps it, and ends the threads reading its output.
    pub fn kill(&mut self) {
        self.stdin = None;
        if !self.dead {
            // The child is not reaped yet, so its pid still names its process group.
            self.kill_group();
            let _ = self.child.wait();
            self.dead = true;
        }
        if !self.readers.is_empty() {
            self.join_readers();
        }
    }

    /// Waits up to [`TAIL_WAIT`] for the end of the engine's stdout and stderr, which comes once its process
    /// group is gone, and joins the threads that read them: an engine that has been killed leaves no thread behind.
    /// Lines still queued are dropped, so that a reader waiting on a full queue can finish. A reader whose pipe a
    /// process outside the group still holds open is left to end on its own.
    fn join_readers(&mut self) {
        let until = Instant::now() + TAIL_WAIT;
        let left = || until.saturating_duration_since(Instant::now());
        // Each channel is disconnected when its thread drops the sender, as it returns.
        let stdout_ended = loop {
            match self.lines.recv_timeout(left()) {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => break true,
                Err(RecvTimeoutError::Timeout) => break false,
            }
        };
        let stderr_ended = matches!(
            self.stderr_done.recv_timeout(left()),
            Err(RecvTimeoutError::Disconnected)
        );
        let readers = std::mem::take(&mut self.readers);
        for (reader, ended) in readers.into_iter().zip([stdout_ended, stderr_ended]) {
            if ended {
                let _ = reader.join();
            } else {
                log::debug!(
                    "{}: an output of the killed engine is still open",
                    self.label
                );
            }
        }
    }

    /// Asks the engine to quit, waits up to `wait` for it to close its output, then kills whatever is left.
    pub fn quit(mut self, wait: Duration) {
        if !self.dead {
            if let Some(stdin) = self.stdin.as_mut() {
                let _ = stdin.write_all(b"quit\n").and_then(|()| stdin.flush());
            }
            self.stdin = None;
            let until = Instant::now() + wait;
            while let Some(left) = until.checked_duration_since(Instant::now()) {
                match self.lines.recv_timeout(left) {
                    Ok(Line::End) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The commands that set up `shape` on a GTP engine, as the referee and `oust gui` send them: `boardsize N` on a
/// square, `rectangular_boardsize W H` on a rectangle, `oust-board hexS` on a hexhex board, with, for an engine
/// that refuses that one, what GoGui sends its player for a hexagonal board: `boardsize 2S-1` (an engine started
/// on the hexhex board keeps it).
pub fn board_commands(shape: Shape) -> (String, Option<String>) {
    match shape {
        Shape::Rect { width, height } if width == height => (format!("boardsize {width}"), None),
        Shape::Rect { width, height } => (format!("rectangular_boardsize {width} {height}"), None),
        Shape::Hex { .. } => (
            format!("oust-board {shape}"),
            Some(format!("boardsize {}", shape.extent().0)),
        ),
    }
}

/// How a process ended, in words.
pub fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => status.to_string(),
    }
}

/// At most 80 characters of `s`, for messages.
pub fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

/// Reads one response from the lines `next` gives: optional blank lines, then `=` or `?` with an optional id,
/// then lines up to a blank one (at most [`MAX_RESPONSE_LINES`]). Returns whether it was `=` and its text, the
/// lines joined by `\n`. Failures of `next` pass through.
///
/// # Errors
/// [`Failure::Malformed`] for a first line that is not a response or a response that is too long, and the
/// failures of `next`.
pub fn read_response(
    next: &mut dyn FnMut() -> Result<String, Failure>,
) -> Result<(bool, String), Failure> {
    let first = loop {
        let line = next()?;
        if !line.trim().is_empty() {
            break line;
        }
    };
    let ok = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => {
            return Err(Failure::Malformed(format!(
                "'{}' is not a GTP response (no '=' or '?')",
                shorten(&first)
            )));
        }
    };
    let mut text = first[1..]
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
        .to_string();
    for _ in 0..MAX_RESPONSE_LINES {
        let line = next()?;
        if line.trim().is_empty() {
            return Ok((ok, text));
        }
        text.push('\n');
        text.push_str(line.trim_end());
    }
    Err(Failure::Malformed(format!(
        "a response of more than {MAX_RESPONSE_LINES} lines"
    )))
}

/// The responses in `output`, an engine's whole output, read as the referee reads them ([`read_response`] over
/// the lines the stdout reader makes), up to the first failure, which ends the list. The end of the output is
/// [`Failure::Closed`]. For fuzzing and tests: it runs the referee's own code on bytes.
pub fn responses_in<R: BufRead>(mut output: R) -> Vec<Result<(bool, String), Failure>> {
    let mut reader = &mut output;
    let mut next = || match line_of(read_raw_line(&mut reader)) {
        Line::Text(t) => Ok(t),
        Line::TooLong => Err(too_long()),
        Line::End => Err(Failure::Closed("closed its output".into())),
    };
    let mut out = Vec::new();
    loop {
        let reply = read_response(&mut next);
        let end = reply.is_err();
        out.push(reply);
        if end {
            return out;
        }
    }
}

fn too_long() -> Failure {
    Failure::Malformed(format!("a line longer than {MAX_LINE} bytes"))
}

/// A line read from an engine's stdout as the reader thread passes it on.
fn line_of(read: io::Result<Option<RawLine>>) -> Line {
    match read {
        Ok(Some(raw)) if raw.truncated => Line::TooLong,
        Ok(Some(raw)) => Line::Text(
            String::from_utf8_lossy(&raw.bytes)
                .trim_end_matches('\r')
                .to_string(),
        ),
        Ok(None) | Err(_) => Line::End,
    }
}

fn read_lines(stdout: impl Read, tx: SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let line = line_of(read_raw_line(&mut reader));
        let end = matches!(line, Line::End);
        // A full queue blocks the engine's writes (and so bounds memory); a dropped receiver ends the thread.
        if tx.send(line).is_err() {
            return;
        }
        if end {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::TryRecvError;

    use super::*;

    /// The threads reading a killed engine's output end with it. They used to outlive `kill`: the reader of stdout
    /// waited on its full queue of lines until the `EngineProcess` was dropped, and the others until the scheduler
    /// ran them again, so the 24-game match soak (tests/soak.rs) counted a thread left over after the match.
    #[test]
    fn a_killed_engine_leaves_no_reader_thread_behind() {
        let mut engine = EngineProcess::spawn("echo starting >&2; exec yes '= flood'").unwrap();
        // The first line, then time for the engine to fill the queue behind it.
        assert!(matches!(
            engine.lines.recv_timeout(Duration::from_secs(10)),
            Ok(Line::Text(_))
        ));
        thread::sleep(Duration::from_millis(100));
        engine.kill();
        assert!(
            matches!(engine.lines.try_recv(), Err(TryRecvError::Disconnected)),
            "the reader of stdout has ended"
        );
        assert!(
            matches!(
                engine.stderr_done.try_recv(),
                Err(TryRecvError::Disconnected)
            ),
            "the reader of stderr has ended"
        );
        assert_eq!(engine.stderr_tail(), "starting");
    }

    #[test]
    fn a_tail_keeps_the_last_lines_bounded() {
        let mut tail = Tail::default();
        assert_eq!(tail.quote(), "");
        tail.push(b"error: unexpected argument\r\n\n  tip: a similar");
        tail.push(b" argument exists\n");
        assert_eq!(
            tail.quote(),
            "error: unexpected argument | tip: a similar argument exists"
        );
        for i in 0..100 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        tail.push(b"no newline");
        assert_eq!(tail.lines.len(), TAIL_LINES);
        assert!(tail.quote().ends_with("line 98 | line 99 | no newline"));
        tail.push(&[b'x'; 10_000]);
        assert_eq!(tail.partial.len(), TAIL_LINE_BYTES);
        for _ in 0..TAIL_LINES {
            tail.push(&[b'y'; 10_000]);
            tail.push(b"\n");
        }
        let quote = tail.quote();
        assert!(quote.starts_with("...") && quote.chars().count() == TAIL_QUOTED + 3);
    }
}
