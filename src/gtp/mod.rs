//! The GTP-style text protocol. Legality is never computed here: every rule question goes to [`crate::rules`], and
//! moves and rows are spelt by [`crate::notation`].
//!
//! The modules depend downward only, in this order:
//! - `input` reads and preprocesses lines, `parse` holds the nom parsers, `error` the failures, `reply` the
//!   values handlers answer;
//! - `state` is the engine (game, settings, clocks, search tree), `levels` the strength levels over its settings,
//!   `params` its table of parameters;
//! - `args` turns argument tokens into values, `format` turns replies into response text (the move-report mode is
//!   applied there, once);
//! - `handlers` are the commands, grouped by topic;
//! - `commands` is the command table on top; this file runs the session.

mod args;
mod commands;
mod error;
mod format;
mod handlers;
mod input;
pub mod levels;
mod params;
mod parse;
mod reply;
mod state;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use crate::{rules, search};

pub use commands::{COMMANDS, CommandSpec, Handler, execute, meaning};
pub use error::GtpError;
pub use handlers::gogui::{ANALYZE_COMMANDS, AnalyzeSpec};
pub use input::{MAX_LINE, RawLine, preprocess, read_line, read_raw_line};
pub use params::{PARAMS, ParamSpec, set_param};
pub use parse::{CommandLine, LineError, parse_color, parse_command_line, parse_float, parse_int};
pub use reply::Reply;
pub use state::{Engine, Options, Reports, Settings, network_is_default};

/// The reply to one raw input line, or `None` for a line GTP says to skip (empty, blank or only a comment).
pub fn respond_to(
    engine: &mut Engine,
    raw: &RawLine,
) -> Option<(Option<u64>, Result<Reply, GtpError>)> {
    respond_with(engine, raw, &mut |engine, name, args| {
        execute(engine, name, args)
    })
}

/// One command's name and arguments, run on the engine.
type Run<'r> = dyn FnMut(&mut Engine, &str, &[&str]) -> Result<Reply, GtpError> + 'r;

/// [`respond_to`], the command run by `run`.
fn respond_with(
    engine: &mut Engine,
    raw: &RawLine,
    run: &mut Run<'_>,
) -> Option<(Option<u64>, Result<Reply, GtpError>)> {
    if raw.truncated {
        let id = leading_id(&raw.bytes);
        let err = GtpError::Failed(format!(
            "line too long: more than {MAX_LINE} bytes; the command was ignored"
        ));
        log::warn!("input line longer than {MAX_LINE} bytes ignored");
        return Some((id, Err(err)));
    }
    let line = preprocess(&raw.bytes)?;
    log::debug!("<- {line}");
    Some(match parse_command_line(&line) {
        Ok(cmd) => (cmd.id, run(engine, cmd.name, &cmd.args)),
        Err(LineError::MissingCommand(id)) => {
            (Some(id), Err(error::syntax("no command after the id")))
        }
        Err(LineError::BadId) => (
            None,
            Err(error::syntax("the id must be a whole number below 2^64")),
        ),
    })
}

/// The id at the start of a line that was too long to parse, when it has one.
fn leading_id(bytes: &[u8]) -> Option<u64> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let next = bytes.get(digits).copied();
    if digits == 0 || !matches!(next, Some(b' ' | b'\t')) {
        return None;
    }
    std::str::from_utf8(&bytes[..digits]).ok()?.parse().ok()
}

/// One input line as [`serve`] receives it: a line, the end of the input (`None`), or a read error.
pub type Incoming = io::Result<Option<RawLine>>;

/// The protocol session: input lines arrive from a reader thread, so that a streamed response, or the search of a
/// cancellable command, can stop as soon as the next line arrives; every byte of output is written here.
struct Session<W: Write> {
    out: W,
    lines: Receiver<Incoming>,
    /// A line that arrived during a streamed response or a cancellable command, to be handled next.
    queued: Option<Incoming>,
}

impl<W: Write> Session<W> {
    fn next(&mut self) -> Incoming {
        match self.queued.take() {
            Some(line) => line,
            None => self.lines.recv().unwrap_or(Ok(None)),
        }
    }

    /// The reply to `raw` ([`respond_to`]); a cancellable command (see [`CommandSpec::cancellable`]) runs while the
    /// input is watched.
    fn respond(
        &mut self,
        engine: &mut Engine,
        raw: &RawLine,
    ) -> Option<(Option<u64>, Result<Reply, GtpError>)> {
        respond_with(engine, raw, &mut |engine, name, args| {
            if commands::find(name).is_some_and(|c| c.cancellable) {
                self.watching(engine, |engine| execute(engine, name, args))
            } else {
                execute(engine, name, args)
            }
        })
    }

    /// Runs `f` while a thread watches the input: the next line, or the end of the input, raises
    /// [`Engine::cancel`], so that a search under way stops at once and answers from what it has, and is queued
    /// to be handled next. A line that arrives after `f` is done is left in the channel, read as usual.
    fn watching<T>(&mut self, engine: &mut Engine, f: impl FnOnce(&mut Engine) -> T) -> T {
        let cancel = Arc::new(AtomicBool::new(false));
        let done = AtomicBool::new(false);
        let (result, arrived) = std::thread::scope(|scope| {
            let lines = &mut self.lines;
            let (raise, done) = (&*cancel, &done);
            let watcher = std::thread::Builder::new()
                .name("gtp-watcher".into())
                .spawn_scoped(scope, move || {
                    loop {
                        let arrived = match lines.recv_timeout(WATCH_POLL) {
                            Ok(line) => line,
                            Err(RecvTimeoutError::Disconnected) => Ok(None),
                            Err(RecvTimeoutError::Timeout) if done.load(Ordering::SeqCst) => {
                                return None;
                            }
                            Err(RecvTimeoutError::Timeout) => continue,
                        };
                        raise.store(true, Ordering::SeqCst);
                        return Some(arrived);
                    }
                });
            let Ok(watcher) = watcher else {
                // No thread for the watcher: the command runs as if it could not be cancelled.
                log::warn!("no thread to watch the input: the command cannot be cancelled");
                return (f(engine), None);
            };
            // The watcher ends once this is dropped, even if `f` panics.
            let finished = SetOnDrop(done);
            engine.cancel = Some(cancel.clone());
            let result = f(engine);
            engine.cancel = None;
            drop(finished);
            (result, watcher.join().unwrap_or(None))
        });
        if let Some(line) = arrived {
            log::debug!("a line arrived during a cancellable command, which was told to stop");
            self.queued = Some(line);
        }
        result
    }

    /// Searches on the opponent's time ([`Engine::ponder`]) until the next line arrives, which is queued and
    /// handled at once, or the search proves the position. A panic of the search (a bug) is logged and ends it.
    fn ponder(&mut self, engine: &mut Engine) {
        let _ = self.watching(engine, |engine| {
            engine.guarded(|engine| Ok(engine.ponder()))
        });
    }

    fn write(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// Streams analysis lines after the header `=id` until a new line arrives or the input ends.
    fn stream(
        &mut self,
        engine: &mut Engine,
        id: Option<u64>,
        interval: Duration,
        max_moves: Option<usize>,
    ) -> io::Result<()> {
        let header = format::response(id, &Ok(String::new()));
        self.write(header.trim_end_matches('\n'))?;
        self.write("\n")?;
        let request = search::Request {
            seed: engine.rng.next_u64(),
            interval: Some(interval),
            ..Default::default()
        };
        let setup = engine.search_setup();
        let mut failed: Option<io::Error> = None;
        let mut wrote = false;
        let pos = engine.game.position().clone();
        let mut searched = None;
        {
            let Session { out, lines, queued } = self;
            let mut monitor = |info: Option<&search::RootInfo>| {
                if let Some(info) = info.filter(|i| !i.moves.is_empty()) {
                    let line = format::info_line(&pos, info, max_moves) + "\n";
                    if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
                        failed = Some(e);
                        return search::Control::Stop;
                    }
                    wrote = true;
                }
                match lines.try_recv() {
                    Ok(line) => {
                        *queued = Some(line);
                        search::Control::Stop
                    }
                    Err(TryRecvError::Empty) => search::Control::Continue,
                    Err(TryRecvError::Disconnected) => {
                        *queued = Some(Ok(None));
                        search::Control::Stop
                    }
                }
            };
            if !matches!(
                pos.status(),
                rules::Status::Over(_) | rules::Status::MustPass
            ) {
                // A panic (a bug) is logged and the stream just ends.
                searched = engine
                    .guarded(|engine| {
                        Ok(engine
                            .searcher
                            .search(&engine.game, &setup, &request, &mut monitor))
                    })
                    .ok();
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        // A search that ended by itself (it proved the position before its first report) still reports what it
        // found, and the stream stays open until the next line, as every analysis stream ends.
        if self.queued.is_none()
            && let Some(result) = searched
        {
            if !wrote && !result.info.moves.is_empty() {
                self.write(&(format::info_line(&pos, &result.info, max_moves) + "\n"))?;
            }
            self.queued = Some(self.lines.recv().unwrap_or(Ok(None)));
        }
        self.write("\n")
    }
}

/// How often the watcher of a cancellable command ([`Session::watching`]) looks whether the command is done. A
/// line that arrives wakes it at once.
const WATCH_POLL: Duration = Duration::from_millis(2);

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `quit` was answered.
    Quit,
    /// The input ended (which GTP treats as `quit`, without a response).
    EndOfInput,
}

/// Runs the protocol until `quit` or the end of the input. Input is read on its own thread; each response is
/// written whole and flushed here, and nowhere else.
///
/// # Errors
/// I/O errors of the input or output.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    engine: &mut Engine,
    mut input: R,
    output: W,
) -> io::Result<Ended> {
    let (tx, rx) = mpsc::sync_channel::<Incoming>(64);
    // The reader stops at the end of the input; after `quit` it is left blocked on its read and ends with the
    // process.
    std::thread::Builder::new()
        .name("gtp-reader".into())
        .spawn(move || {
            loop {
                let line = read_line(&mut input);
                let last = !matches!(line, Ok(Some(_)));
                if tx.send(line).is_err() || last {
                    break;
                }
            }
        })?;
    serve(engine, rx, output)
}

/// Runs the protocol over lines that arrive on `lines` until `quit`, the end of the input, or the sender's end
/// (which counts as the end of the input). [`run`] feeds it from a reader thread; a caller that holds its input
/// already (the fuzz target `conversation`) may send every line first and spawn no thread.
///
/// # Errors
/// I/O errors of the input or output.
pub fn serve<W: Write>(
    engine: &mut Engine,
    lines: Receiver<Incoming>,
    output: W,
) -> io::Result<Ended> {
    let mut session = Session {
        out: output,
        lines,
        queued: None,
    };
    while let Some(raw) = session.next()? {
        let Some((id, result)) = session.respond(engine, &raw) else {
            continue;
        };
        if let Ok(Reply::Stream {
            interval,
            max_moves,
        }) = result
        {
            session.stream(engine, id, interval, max_moves)?;
            continue;
        }
        let quit = matches!(result, Ok(Reply::Quit));
        let text = result.map(|reply| format::reply_text(&reply, engine.reports()));
        let response = format::response(id, &text);
        log::debug!("-> {}", response.trim_end());
        session.write(&response)?;
        if quit {
            return Ok(Ended::Quit);
        }
        if engine.ponders() {
            session.ponder(engine);
        }
    }
    Ok(Ended::EndOfInput)
}
