//! The thinking commands through the protocol: clocks decide the limits, analysis streams are framed, parameters
//! and resignation work.

use std::io::{Cursor, Read};
use std::time::{Duration, Instant};

use oust::gtp::{self, Engine, Options, Settings};
use oust::rules::Color;
use regex::Regex;

fn engine() -> Engine {
    Engine::new(Options {
        settings: Settings {
            threads: 1,
            ..Settings::default()
        },
        ..Options::default()
    })
    .unwrap()
}

fn send(engine: &mut Engine, input: &str) -> String {
    let mut out = Vec::new();
    gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn time_limit(engine: &Engine, color: Color) -> f64 {
    engine
        .limits(color)
        .time
        .expect("a time limit")
        .as_secs_f64()
}

#[test]
fn thinking_time_comes_from_the_tightest_of_the_limits() {
    let mut e = engine();
    assert_eq!(time_limit(&e, Color::Black), 1.0, "one second by default");
    send(&mut e, "oust-set-param playouts 500\n");
    assert_eq!(
        e.limits(Color::Black).time,
        None,
        "a playout limit alone is reproducible"
    );
    assert_eq!(e.limits(Color::Black).playouts, Some(500));
    send(
        &mut e,
        "oust-set-param playouts 0\noust-set-param time_per_move 0.25\n",
    );
    assert_eq!(time_limit(&e, Color::Black), 0.25);
    // One second per move in byo-yomi: nearly all of it, with a margin.
    send(
        &mut e,
        "oust-set-param time_per_move 0\ntime_settings 0 1 1\n",
    );
    let t = time_limit(&e, Color::White);
    assert!(t > 0.9 && t < 0.95, "{t}");
    // Absolute time: spread over the game; time_left corrects the clock of one colour only.
    send(&mut e, "time_settings 300 0 0\n");
    let full = time_limit(&e, Color::Black);
    assert!(full > 3.0 && full < 10.0, "{full}");
    send(&mut e, "time_left b 6 0\n");
    let low = time_limit(&e, Color::Black);
    assert!(low < 0.2, "{low}");
    assert_eq!(time_limit(&e, Color::White), full);
    // The tighter of time per move and clock.
    send(&mut e, "oust-set-param time_per_move 0.05\n");
    assert_eq!(time_limit(&e, Color::White), 0.05);
    send(
        &mut e,
        "oust-set-param time_per_move 0\nkgs-time_settings none\n",
    );
    assert_eq!(time_limit(&e, Color::Black), 1.0);
    send(&mut e, "kgs-time_settings byoyomi 0 2 3\n");
    let t = time_limit(&e, Color::Black);
    assert!(t > 1.3 && t < 1.6, "{t}");
    send(&mut e, "kgs-time_settings canadian 0 10 5\n");
    let t = time_limit(&e, Color::Black);
    assert!(t > 1.3 && t < 1.6, "{t}");
}

#[test]
fn genmove_charges_its_time_to_its_own_clock() {
    let mut e = engine();
    send(&mut e, "time_settings 10 0 0\n");
    let before = time_limit(&e, Color::Black);
    send(&mut e, "genmove b\n");
    let after = time_limit(&e, Color::Black);
    assert!(after < before, "{before} -> {after}");
    assert!(
        time_limit(&e, Color::White) > after,
        "White's clock was charged"
    );
}

#[test]
fn clock_and_parameter_errors() {
    let mut e = engine();
    let out = send(
        &mut e,
        "1 time_settings 1 2\n2 time_settings a 0 0\n3 time_left x 1 0\n4 kgs-time_settings byoyomi 1\n\
         5 kgs-time_settings fischer 1 2\n6 oust-set-param threads 0\n7 oust-set-param nope 1\n8 oust-get-param nope\n\
         9 oust-set-param player alphazero\n10 oust-analyze 0\n11 oust-get-param threads\n\
         12 kgs-time_settings absolute\n",
    );
    let expected = "?1 syntax error: time_settings takes 3 arguments (MAIN BYO_YOMI_TIME BYO_YOMI_STONES), got 2\n\n\
        ?2 syntax error: main time must be a number of seconds from 0 to 10000000, got 'a'\n\n\
        ?3 syntax error: expected a colour (b, black, w, white), got 'x'\n\n\
        ?4 syntax error: kgs-time_settings byoyomi takes 3 numbers, got 1\n\n\
        ?5 syntax error: expected none, absolute, byoyomi or canadian, got 'fischer'\n\n\
        ?6 syntax error: threads: expected a number from 1 to 256, got '0'\n\n\
        ?7 unknown parameter 'nope'\n\n\
        ?8 unknown parameter 'nope'\n\n\
        ?9 syntax error: player: expected mcts, uct-plain, random or policy, got 'alphazero'\n\n\
        ?10 syntax error: the interval is in centiseconds, 1 to 360000, got '0'\n\n\
        =11 1\n\n\
        ?12 syntax error: kgs-time_settings absolute takes 1 number, got 0\n\n";
    assert_eq!(out, expected);
}

#[test]
fn every_parameter_reads_back_what_was_set() {
    let mut e = engine();
    let list = send(&mut e, "oust-list-params\n");
    let names: Vec<&str> = list
        .trim_start_matches("= ")
        .lines()
        .filter_map(|l| l.split(' ').next())
        .filter(|n| !n.is_empty())
        .collect();
    assert_eq!(names.len(), gtp::PARAMS.len());
    for name in names {
        let value = match name {
            "player" => "uct-plain",
            "notation" => "ap",
            "pie" | "ponder" => "on",
            "resign_threshold" | "fpu_reduction" | "solver_share" | "lambda" => "0.5",
            "priors" => "handmade",
            "weights" | "net_square" | "net_hex" => "built-in",
            "evaluator" => "network",
            "net_precision" => "float",
            _ => "3",
        };
        let out = send(
            &mut e,
            &format!("oust-set-param {name} {value}\noust-get-param {name}\n"),
        );
        assert_eq!(out, format!("=\n\n= {value}\n\n"), "{name}");
        // The spelling of the command-line flags works too.
        let flag = name.replace('_', "-");
        let out = send(
            &mut e,
            &format!("oust-set-param {flag} {value}\noust-get-param {flag}\n"),
        );
        assert_eq!(out, format!("=\n\n= {value}\n\n"), "{flag}");
    }
}

/// A reader that hands out its chunks with a pause before each, like a controller typing.
struct Slow {
    chunks: Vec<(Duration, Vec<u8>)>,
    current: Cursor<Vec<u8>>,
}

impl Read for Slow {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.current.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
            if self.chunks.is_empty() {
                return Ok(0);
            }
            let (pause, bytes) = self.chunks.remove(0);
            std::thread::sleep(pause);
            self.current = Cursor::new(bytes);
        }
    }
}

#[test]
fn analysis_takes_the_colour_to_move_as_lz_analyze_does() {
    let mut e = engine();
    let input = Slow {
        chunks: vec![
            (
                Duration::ZERO,
                b"boardsize 7\n1 oust-analyze w 5\n2 oust-analyze x 5\n3 oust-analyze b 0\n4 oust-analyze B 5\n"
                    .to_vec(),
            ),
            (Duration::from_millis(300), b"5 oust-analyze b\n6 name\n".to_vec()),
        ],
        current: Cursor::new(Vec::new()),
    };
    let mut out = Vec::new();
    gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with(
            "=\n\n?1 black is to move: no move has been played yet\n\n\
             ?2 syntax error: expected a colour (b, black, w, white), got 'x'\n\n\
             ?3 syntax error: the interval is in centiseconds, 1 to 360000, got '0'\n\n\
             =4\ninfo move "
        ),
        "{text}"
    );
    assert!(text.contains("\n\n=5\n"), "{text}");
    assert!(text.ends_with("\n\n=6 oust\n\n"), "{text}");
    // After a capture the same colour is to move.
    let out = send(
        &mut e,
        "rectangular_boardsize 4 2\noust-setup b XO../...O\nplay b A1\n7 oust-analyze w 1\n",
    );
    assert!(
        out.ends_with("?7 black is to move: extra turn after a capture\n\n"),
        "{out}"
    );
}

#[test]
fn analysis_streams_until_the_next_command_and_is_framed() {
    let mut e = engine();
    let input = Slow {
        chunks: vec![
            (Duration::ZERO, b"boardsize 7\n5 oust-analyze 5\n".to_vec()),
            (Duration::from_millis(400), b"6 name\n".to_vec()),
        ],
        current: Cursor::new(Vec::new()),
    };
    let mut out = Vec::new();
    gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("=\n\n=5\ninfo move "), "{text}");
    assert!(text.ends_with("\n\n=6 oust\n\n"), "{text}");
    let body = &text["=\n\n=5\n".len()..text.len() - "\n\n=6 oust\n\n".len()];
    let lines: Vec<&str> = body.split('\n').collect();
    assert!(
        lines.len() >= 3,
        "only {} analysis lines in 0.4 s at 0.05 s",
        lines.len()
    );
    let entry = r"info move [A-HJ-Z]\d+ visits \d+ winrate [01]\.\d{4} prior [01]\.\d{4} order \d+( proof (win|loss|draw))? pv( [bw] [A-HJ-Z]\d+)+";
    let line_re = Regex::new(&format!(r"\A{entry}( {entry})*\z")).unwrap();
    for line in lines {
        assert!(line_re.is_match(line), "{line}");
    }
}

/// A position the search proves before its first report (hex-7 after G7 E5: Black's F6 wins at once) used to give
/// an empty stream that ended at once, before the next command. Now it reports the proof and, like every analysis
/// stream, ends when the next line arrives.
#[test]
fn analysis_of_a_position_proven_at_once_reports_the_proof_and_waits_for_the_next_command() {
    let mut e = engine();
    let input = Slow {
        chunks: vec![
            (
                Duration::ZERO,
                b"oust-board hex7\noust-set-param evaluator playouts\nplay b G7\nplay w E5\n5 oust-analyze 10\n"
                    .to_vec(),
            ),
            (Duration::from_millis(300), b"6 name\n".to_vec()),
        ],
        current: Cursor::new(Vec::new()),
    };
    let mut out = Vec::new();
    gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let stream = text
        .split("=5\n")
        .nth(1)
        .and_then(|rest| rest.strip_suffix("\n\n=6 oust\n\n"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        stream.starts_with("info move F6 ") && stream.contains(" proof win "),
        "{text}"
    );
}

#[test]
fn analysis_of_a_finished_game_is_an_empty_stream() {
    let mut e = engine();
    let out = send(
        &mut e,
        "rectangular_boardsize 4 2\noust-setup b XO../....\nplay b A1\n7 oust-analyze 10\n8 name\n",
    );
    assert!(
        out.ends_with("= capture 1 result B+\n\n=7\n\n=8 oust\n\n"),
        "{out}"
    );
}

#[test]
fn resigns_when_lost_for_two_searches_in_a_row() {
    // On 4x4, Black's B2 wins against any defence (exhaustive search): White is lost from its first move.
    let mut e = engine();
    let out = send(
        &mut e,
        "oust-set-param resign_threshold 0.3\noust-set-param playouts 3000\nboardsize 4\n\
         play b B2\ngenmove w\n",
    );
    let last = out.trim_end().rsplit("\n\n").next().unwrap();
    assert_ne!(last, "= resign", "one low search is not enough");
    // Keep asking for White's moves while Black answers with its own search.
    let mut resigned = false;
    for _ in 0..10 {
        let out = send(&mut e, "genmove b\ngenmove w\n");
        if out.contains("= resign") {
            resigned = true;
            break;
        }
        if out.contains("result") || out.contains("the game is over") {
            break;
        }
    }
    assert!(resigned, "white never resigned");
}

/// The search keeps its tree between moves, but never across boards: the empty board hashes the same on every
/// board, and a tree from another board has moves that are off this board or illegal on it. (It once did: after
/// `rectangular_boardsize 25 2` and a `genmove`, `boardsize 2` and `genmove b` crashed the engine, and `2x3` after
/// `3x2` answered "internal error: the chosen move A1 is illegal".)
#[test]
fn a_new_board_never_reuses_the_tree_of_another() {
    let vertex = Regex::new(r"^=(\d) ([A-Z]\d+|pass)( |$)").unwrap();
    for (first, second) in [
        ("rectangular_boardsize 25 2", "boardsize 2"),
        ("rectangular_boardsize 3 2", "rectangular_boardsize 2 3"),
        ("boardsize 9", "rectangular_boardsize 9 8"),
    ] {
        let mut e = engine();
        let out = send(
            &mut e,
            &format!(
                "oust-set-param playouts 2000\n{first}\n1 genmove b\n{second}\n\
                 2 genmove b\n3 genmove w\n4 genmove b\n5 genmove w\n"
            ),
        );
        let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
        assert_eq!(answers.len(), 8, "{first} / {second}: {out}");
        for answer in answers
            .iter()
            .filter(|a| a.starts_with(['=', '?']) && a.len() > 1)
        {
            // Every genmove answers a move; on a board this small the game may end, and then says so.
            assert!(
                vertex.is_match(answer) || answer.contains("the game is over"),
                "{first} / {second}: {answer}"
            );
        }
    }
}

/// The responses of a transcript by id: `=7 text` becomes `(7, "text")`.
fn by_id(out: &str) -> std::collections::HashMap<u32, String> {
    out.split("\n\n")
        .filter_map(|r| {
            let r = r.strip_prefix('=')?;
            let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            let id = r[..digits].parse().ok()?;
            Some((id, r[digits..].trim_start_matches(' ').to_string()))
        })
        .collect()
}

/// GoGui's heat map labels a move with its winning chance only once the search has looked at it enough: a move
/// with one lost playout read "0", which looks like a proven loss. Proven moves read W or L; 0 and 100 never
/// appear. The playouts evaluate the leaves, whose search spreads its visits wide (the network's policy may put
/// them all on a few moves, and then every move shaded has its label).
#[test]
fn heatmap_labels_need_visits_and_proven_moves_read_w_or_l() {
    let mut e = engine();
    let out = send(
        &mut e,
        "oust-set-param evaluator playouts\noust-set-param playouts 300\nboardsize 9\n1 oust-heatmap\n",
    );
    let map = &by_id(&out)[&1];
    let lines: Vec<&str> = map.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let shaded: Vec<&str> = lines[0]
        .strip_prefix("INFLUENCE ")
        .unwrap()
        .split(' ')
        .step_by(2)
        .collect();
    let labels: Vec<&str> = lines[1]
        .strip_prefix("LABEL ")
        .unwrap()
        .split(' ')
        .collect();
    assert!(
        labels.len() / 2 < shaded.len(),
        "moves with a few visits are shaded, not labelled: {out}"
    );
    for pair in labels.chunks(2) {
        assert!(shaded.contains(&pair[0]), "{out}");
        let percent: u32 = pair[1].parse().unwrap();
        assert!((1..=99).contains(&percent), "{out}");
    }
    assert!(
        lines[2].starts_with("TEXT 300 playouts, black to move, best "),
        "{out}"
    );
    // Black's A1 captures White's only stone: a proven win.
    let out = send(
        &mut e,
        "rectangular_boardsize 4 2\noust-setup b XO../....\n2 oust-heatmap\n",
    );
    assert!(
        by_id(&out)[&2].starts_with("INFLUENCE A1 1.00\nLABEL A1 W\nTEXT "),
        "{out}"
    );
}

/// `oust-heatmap` and `oust-pv` sent one after the other answer from one search, and say so, so that they show the
/// same best move; each command answers from a search once, and any other command in between ends the sharing.
#[test]
fn heatmap_and_pv_in_a_row_share_one_search() {
    let mut e = engine();
    let out = send(
        &mut e,
        "oust-set-param playouts 500\nboardsize 7\n1 oust-heatmap\n2 oust-pv\n3 oust-pv\n4 name\n\
         5 oust-pv\n6 oust-heatmap\n7 oust-heatmap\n",
    );
    let r = by_id(&out);
    let text = |id: u32| r[&id].lines().last().unwrap().to_string();
    let best = text(1)
        .split("best ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(r[&2].starts_with(&format!("VAR b {best}")), "{out}");
    assert_eq!(
        text(2),
        format!("{}, from the search of oust-heatmap", text(1))
    );
    for id in [3, 5, 7] {
        assert!(!text(id).contains("from the search"), "{id}: {out}");
        assert!(text(id).starts_with("TEXT 500 playouts"), "{id}: {out}");
    }
    assert_eq!(text(6), format!("{}, from the search of oust-pv", text(5)));
}

/// GoGui shows a "Command failed" dialog when an analyze command fails: on a finished game every analyze command
/// it offers answers, with a status line where there is nothing to show.
#[test]
fn every_analyze_command_answers_on_a_finished_game() {
    let mut e = engine();
    let mut input = String::from("rectangular_boardsize 4 2\noust-setup b XO../....\nplay b A1\n");
    for (i, a) in gtp::ANALYZE_COMMANDS.iter().enumerate() {
        input.push_str(&format!("{} {}\n", i + 1, a.command));
    }
    let out = send(&mut e, &input);
    assert!(!out.contains('?'), "{out}");
    let r = by_id(&out);
    assert_eq!(r.len(), gtp::ANALYZE_COMMANDS.len(), "{out}");
    for (i, a) in gtp::ANALYZE_COMMANDS.iter().enumerate() {
        if ["oust-heatmap", "oust-pv"].contains(&a.command) {
            assert_eq!(
                r[&(i as u32 + 1)],
                "TEXT nothing to analyze: the game is over (B+ (black captured every white stone))",
                "{out}"
            );
        }
    }
}

#[test]
fn analysis_reports_at_most_maxmoves_moves_as_kata_analyze_does() {
    let mut e = engine();
    let input = Slow {
        chunks: vec![
            (
                Duration::ZERO,
                b"boardsize 7\n1 oust-analyze b 5 maxmoves 2\n".to_vec(),
            ),
            (
                Duration::from_millis(400),
                b"2 oust-analyze interval 5 maxmoves 1\n".to_vec(),
            ),
            (
                // Long enough for several reports at 5 centiseconds on a loaded machine.
                Duration::from_millis(1000),
                b"3 oust-analyze maxmoves 0\n4 oust-analyze b maxmoves\n5 oust-analyze b 5 depth 3\n\
                  6 oust-analyze interval 5 interval 6\n7 oust-analyze maxmoves 2 maxmoves 3\n8 name\n"
                    .to_vec(),
            ),
        ],
        current: Cursor::new(Vec::new()),
    };
    let mut out = Vec::new();
    gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let stream = |id: &str| -> Vec<String> {
        let start = text.find(&format!("={id}\n")).expect("the stream's header") + 3;
        let end = start + text[start..].find("\n\n").unwrap();
        text[start..end].lines().map(str::to_string).collect()
    };
    let entries = |line: &str| line.matches("info move ").count();
    let two = stream("1");
    assert!(two.len() >= 2, "{text}");
    // 49 points, so every line after the first few milliseconds has searched more than two moves.
    assert!(two.iter().all(|l| entries(l) <= 2), "{text}");
    assert!(two.iter().any(|l| entries(l) == 2), "{text}");
    assert!(two.iter().all(|l| l.contains(" order 0 ")), "{text}");
    let one = stream("2");
    assert!(
        !one.is_empty() && one.iter().all(|l| entries(l) == 1),
        "{text}"
    );
    assert!(
        text.ends_with(
            "?3 syntax error: maxmoves must be a whole number from 1 to 10000, got '0'\n\n\
             ?4 syntax error: maxmoves needs a value\n\n\
             ?5 syntax error: unexpected 'depth': oust-analyze takes [COLOR] [INTERVAL], then interval CENTISECONDS and maxmoves N\n\n\
             ?6 syntax error: interval is given twice\n\n\
             ?7 syntax error: maxmoves is given twice\n\n\
             =8 oust\n\n"
        ),
        "{text}"
    );
}

/// An engine whose searches are the same every run: one thread and a playout limit (and a seed, set by the
/// first command sent: see [`SEED`]).
fn fixed_engine() -> Engine {
    Engine::new(Options {
        settings: Settings {
            threads: 1,
            playouts: 300,
            ..Settings::default()
        },
        ..Options::default()
    })
    .unwrap()
}

const SEED: &str = "oust-set-param seed 5\n";

#[test]
fn suggest_answers_the_best_move_its_win_rate_visits_and_variation_in_one_response() {
    let mut e = fixed_engine();
    let out = send(
        &mut e,
        &format!("{SEED}boardsize 5\n1 oust-suggest b\n2 oust-status\n"),
    );
    let re = Regex::new(
        r"\A=\n\n=\n\n=1 move ([A-HJ-Z]\d+) visits (\d+) winrate [01]\.\d{4} pv b ([A-HJ-Z]\d+)( [bw] [A-HJ-Z]\d+)*\n\n=2 (.*)\n\n\z",
    )
    .unwrap();
    let caps = re.captures(&out).unwrap_or_else(|| panic!("{out}"));
    assert_eq!(caps[1], caps[3], "the variation starts with the move");
    assert!(caps[2].parse::<u32>().unwrap() > 0, "{out}");
    assert!(
        caps[5].starts_with("to-move b ") && caps[5].ends_with(" placements 0 result none"),
        "nothing is played: {out}"
    );
    // The same search from the same seed, with play: the move is played and what it did follows `played`.
    let mut e = fixed_engine();
    let played = send(
        &mut e,
        &format!("{SEED}boardsize 5\n1 oust-suggest b play\n2 oust-status\n"),
    );
    let suggested = out.lines().nth(4).unwrap().strip_prefix("=1 ").unwrap();
    let (head, pv) = suggested.split_once(" pv ").unwrap();
    assert!(
        played.contains(&format!("{head} played pv {pv}\n\n")),
        "{played}\n{out}"
    );
    assert!(
        played.contains("=2 to-move w ") && played.contains(" placements 1 "),
        "{played}"
    );
    let board = send(&mut e, "showboard\n");
    assert!(
        board.contains(&format!("last move: black {}\n", &caps[1])),
        "{board}"
    );
    // A capture: its report after `played`, and the solver's proof; Abstract Play's names with notation ap.
    let out = send(
        &mut e,
        "oust-set-param notation ap\nrectangular_boardsize 4 2\noust-setup b XO../...O\n3 oust-suggest b play\n4 oust-suggest w\n\
         5 oust-suggest b x\n6 oust-suggest b play\n",
    );
    assert!(
        out.contains(
            "=3 move a1 visits 0 winrate 1.0000 proof win played capture 1 extra-turn pv b a1 "
        ),
        "{out}"
    );
    assert!(
        out.ends_with(
            "?4 black is to move: extra turn after a capture\n\n\
             ?5 syntax error: expected play (to play the move) or nothing after the colour, got 'x'\n\n\
             =6 move c1 visits 0 winrate 1.0000 proof win played pv b c1 w d2 w b1 b b2 b c2\n\n"
        ),
        "{out}"
    );
    // After the end, as genmove; a forced pass is not searched.
    let out = send(
        &mut e,
        "oust-set-param notation gtp\noust-setup b XO../....\nplay b A1\n7 oust-suggest w\n\
         oust-board hex3\noust-setup w XO./XX.O/XX.OX/X.XO/O.O\n8 oust-suggest w\n9 oust-suggest w play\n",
    );
    assert!(
        out.contains(
            "\n?7 illegal move: the game is over: B+ (black captured every white stone)\n\n"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(
            "=8 move pass visits 0 pv w pass\n\n=9 move pass visits 0 played pv w pass\n\n"
        ),
        "{out}"
    );
}

/// An output that keeps when each write came, counted from its creation.
struct Timed {
    start: Instant,
    writes: Vec<(Duration, Vec<u8>)>,
}

impl Timed {
    fn new() -> Timed {
        Timed {
            start: Instant::now(),
            writes: Vec::new(),
        }
    }

    /// Everything written.
    fn text(&self) -> String {
        String::from_utf8(self.writes.iter().flat_map(|(_, b)| b.clone()).collect()).unwrap()
    }

    /// When the response that starts with `head` was written.
    fn when(&self, head: &str) -> Duration {
        self.writes
            .iter()
            .find(|(_, b)| b.starts_with(head.as_bytes()))
            .unwrap_or_else(|| panic!("no response {head:?} in {:?}", self.text()))
            .0
    }
}

impl std::io::Write for Timed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writes.push((self.start.elapsed(), buf.to_vec()));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `oust-genmove_cancellable` with 30 s a move, the next command in the same piped input: the engine answers the
/// move from what its search has at once, plays it, and then answers the next command. (A functional check, not a
/// timing one: the bound is a third of the move's time.)
#[test]
fn a_cancellable_genmove_answers_at_once_when_the_next_line_is_there() {
    let mut e = engine();
    let started = Instant::now();
    let out = send(
        &mut e,
        "oust-set-param time_per_move 30\n1 oust-genmove_cancellable b\n2 name\n3 oust-status\n",
    );
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "{:.1} s for a search of 30 s cancelled at once: {out}",
        took.as_secs_f64()
    );
    let re = Regex::new(
        r"\A=\n\n=1 ([A-HJ][1-9])\n\n=2 oust\n\n=3 to-move w extra-turn no must-pass no stones-b 1 stones-w 0 ",
    )
    .unwrap();
    let caps = re.captures(&out).unwrap_or_else(|| panic!("{out}"));
    let played = e.game().records();
    assert_eq!(played.len(), 1, "{out}");
    assert_eq!(played[0].color, Color::Black);
    assert_eq!(
        oust::notation::move_name(e.game().position().geometry(), played[0].mv),
        &caps[1]
    );
}

/// Any line stops the search, an empty one too (which has no response), and the move is played; the end of the
/// input stops it as well, and the session then ends as at `quit`.
#[test]
fn a_cancellable_genmove_stops_at_an_empty_line_or_the_end_of_the_input() {
    let mut e = engine();
    let input = Slow {
        chunks: vec![
            (
                Duration::ZERO,
                b"oust-set-param time_per_move 30\n1 oust-genmove_cancellable b\n".to_vec(),
            ),
            (Duration::from_millis(300), b"\n".to_vec()),
            (Duration::from_secs(4), b"2 oust-status\n".to_vec()),
        ],
        current: Cursor::new(Vec::new()),
    };
    let mut out = Timed::new();
    let ended = gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    assert_eq!(ended, gtp::Ended::EndOfInput);
    let text = out.text();
    assert!(
        Regex::new(r"\A=\n\n=1 [A-HJ][1-9]\n\n=2 to-move w .* stones-b 1 stones-w 0 .*\n\n\z")
            .unwrap()
            .is_match(&text),
        "{text}"
    );
    // Answered after the empty line (0.3 s), long before the next command (4.3 s) and the 30 s of the move.
    assert!(out.when("=1") < Duration::from_secs(4), "{text}");
    // The end of the input stops the search too: the move is answered and played, and the session ends.
    let started = Instant::now();
    let out = send(&mut e, "1 oust-genmove_cancellable w\n");
    assert!(started.elapsed() < Duration::from_secs(10), "{out}");
    assert!(
        Regex::new(r"\A=1 [A-HJ][1-9]( capture \d+)?( extra-turn)?\n\n\z")
            .unwrap()
            .is_match(&out),
        "{out}"
    );
    assert_eq!(e.game().records().len(), 2);
}

/// A search that ends by itself before the next line arrives is `genmove`'s: the same move from the same seed,
/// the same move report, the time charged to the clock, and the next line is answered as usual.
#[test]
fn a_cancellable_genmove_not_cancelled_is_genmove() {
    let slow = |first: &[u8]| Slow {
        chunks: vec![
            (Duration::ZERO, first.to_vec()),
            (Duration::from_secs(2), b"2 name\n".to_vec()),
        ],
        current: Cursor::new(Vec::new()),
    };
    let run = |input: Slow| {
        let mut e = engine();
        let mut out = Vec::new();
        gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), e)
    };
    let (plain, _) = run(slow(
        b"oust-set-param playouts 300\nplay b E5\n1 genmove w\n",
    ));
    let (cancellable, e) = run(slow(
        b"oust-set-param playouts 300\nplay b E5\n1 oust-genmove_cancellable w\n",
    ));
    assert!(plain.starts_with("=\n\n=\n\n=1 "), "{plain}");
    assert_eq!(cancellable, plain);
    assert!(cancellable.ends_with("\n\n=2 oust\n\n"), "{cancellable}");
    assert_eq!(e.game().records().len(), 2);
    // A capture keeps the turn: the move report is genmove's.
    let (out, _) = run(slow(
        b"rectangular_boardsize 4 2\noust-setup b XO../...O\noust-set-param playouts 300\n1 oust-genmove_cancellable b\n",
    ));
    assert_eq!(
        out,
        "=\n\n=\n\n=\n\n=1 A1 capture 1 extra-turn\n\n=2 oust\n\n"
    );
}

/// The errors of `genmove`, with the game unchanged: a bad colour, the side not to move, a finished game, and the
/// arguments miscounted.
#[test]
fn a_cancellable_genmove_fails_as_genmove_does_and_changes_nothing() {
    let mut e = engine();
    let out = send(
        &mut e,
        "oust-set-param time_per_move 30\nplay b E5\n1 oust-genmove_cancellable x\n2 oust-genmove_cancellable b\n\
         3 oust-genmove_cancellable\n4 oust-genmove_cancellable w w\n5 showboard\n",
    );
    assert!(
        out.starts_with(
            "=\n\n=\n\n?1 syntax error: expected a colour (b, black, w, white), got 'x'\n\n\
             ?2 white is to move: black's placement did not capture\n\n\
             ?3 syntax error: oust-genmove_cancellable takes 1 argument (COLOR), got 0\n\n\
             ?4 syntax error: oust-genmove_cancellable takes 1 argument (COLOR), got 2\n\n=5\n"
        ),
        "{out}"
    );
    assert!(out.contains("last move: black E5\n"), "{out}");
    assert_eq!(e.game().records().len(), 1);
    let out = send(
        &mut e,
        "rectangular_boardsize 4 2\noust-setup b XO../....\nplay b A1\n6 oust-genmove_cancellable w\n\
         7 oust-genmove_cancellable b\n8 final_score\n",
    );
    assert_eq!(
        out,
        "=\n\n=\n\n= capture 1 result B+\n\n\
         ?6 illegal move: the game is over: B+ (black captured every white stone)\n\n\
         ?7 illegal move: the game is over: B+ (black captured every white stone)\n\n=8 B+\n\n"
    );
    assert_eq!(e.game().records().len(), 1);
}

/// `oust-judge` values the played move in the same searches as the best one: the best move loses nothing, a move
/// the searches value lower loses the difference with an error, a move that throws away a proven win loses 100 by
/// proof, and every refusal is `play`'s, the position unchanged.
#[test]
fn judge_measures_what_a_move_lost_within_searches_of_the_position_before_it() {
    let mut e = fixed_engine();
    let out = send(
        &mut e,
        &format!(
            "{SEED}rectangular_boardsize 4 2\noust-setup b XO../....\n1 oust-judge A1\n2 oust-judge D2\n3 oust-status\n"
        ),
    );
    assert!(
        out.contains("=1 best A1 winrate 1.0000 visits ")
            && out.contains(" proof win played A1 winrate 1.0000 visits "),
        "{out}"
    );
    assert!(
        out.contains(" proof win loss 0.0 error 0.0 pv b A1\n\n=2 "),
        "{out}"
    );
    // The position after D2 is valued by a tree search of its own (the tree alone, as the judgement's searches:
    // nothing the solver's table kept changes the answer), which proves it lost.
    assert!(
        out.contains(" played D2 winrate 0.0000 visits ")
            && out.contains(" proof loss loss 100.0 error 0.0 pv b A1\n\n"),
        "{out}"
    );
    assert!(
        out.contains("=3 to-move b ") && out.contains(" placements 0 "),
        "nothing is played: {out}"
    );
    // On an open board: a loss with an error, from visits given to the played move.
    // 2,000 playouts, 500 a search: enough for the network's searches to agree on a best move other than A1.
    let out = send(
        &mut e,
        "boardsize 7\nplay b D4\noust-set-param playouts 2000\n4 oust-judge A1\n",
    );
    let re = Regex::new(
        r"=4 best ([A-HJ-Z]\d+) winrate [01]\.\d{4} visits (\d+) played A1 winrate [01]\.\d{4} visits (\d+) loss (\d+\.\d) error (\d+\.\d) pv w ",
    )
    .unwrap();
    let caps = re.captures(&out).unwrap_or_else(|| panic!("{out}"));
    assert_ne!(&caps[1], "A1", "{out}");
    // The played move keeps 15% of each search's visits at least: of 2,000 playouts in 4 searches, 75 a search.
    assert!(caps[3].parse::<u32>().unwrap() >= 296, "{out}");
    assert!(caps[5].parse::<f64>().unwrap() > 0.0, "{out}");
    // Refusals: as play's.
    let out = send(
        &mut e,
        "5 oust-judge D4\n6 oust-judge pass\n7 oust-judge Z9\n8 oust-judge\n9 oust-status\n",
    );
    assert!(
        out.contains("?5 illegal move: D4 is occupied by a black stone\n\n"),
        "{out}"
    );
    assert!(
        out.contains("?6 illegal move: white cannot pass while a placement is legal"),
        "{out}"
    );
    assert!(out.contains("?7 "), "{out}");
    assert!(out.contains("?8 syntax error"), "{out}");
    assert!(
        out.contains("=9 to-move w ") && out.contains(" placements 1 "),
        "{out}"
    );
}

/// Runs `chunks` (each after its pause) through a session of an engine of one thread, seeded, on hex-7; returns
/// the output with when each write came, and how long the session took.
fn paced(setup: &str, chunks: &[(u64, &str)]) -> (Timed, Duration) {
    let mut e = engine();
    let mut all = vec![(
        Duration::ZERO,
        format!("oust-board hex7\noust-set-param seed 5\n{setup}").into_bytes(),
    )];
    all.extend(
        chunks
            .iter()
            .map(|&(ms, text)| (Duration::from_millis(ms), text.as_bytes().to_vec())),
    );
    let input = Slow {
        chunks: all,
        current: Cursor::new(Vec::new()),
    };
    let mut out = Timed::new();
    let started = Instant::now();
    let ended = gtp::run(&mut e, std::io::BufReader::new(input), &mut out).unwrap();
    assert_eq!(ended, gtp::Ended::EndOfInput, "{}", out.text());
    (out, started.elapsed())
}

/// The visits of the move that `oust-suggest` answered as response `id`.
fn suggested_visits(out: &str, id: u32) -> u64 {
    let re = Regex::new(&format!(r"(?m)^={id} move \S+ visits (\d+) ")).unwrap();
    re.captures(out)
        .unwrap_or_else(|| panic!("no suggestion ={id} in {out}"))[1]
        .parse()
        .unwrap()
}

/// With `ponder` on, the engine searches the opponent's turn after its own move until the next command, which is
/// answered at once; the next search of that position starts from the tree it grew. Off (the default), and under
/// a playout limit (every numbered level), it does not. Compared on the same script: a move of 0.05 s, 1.5 s of
/// the opponent's time, then a suggestion for the opponent at 0.05 s, whose move's visits count the kept tree.
#[test]
fn pondering_searches_the_opponents_turn_until_the_next_command() {
    let script = [(0, "1 genmove b\n"), (1500, "2 name\n3 oust-suggest w\n")];
    let timed = "oust-set-param time_per_move 0.05\n";
    let (on, took) = paced(&format!("{timed}oust-set-param ponder on\n"), &script);
    let (off, _) = paced(timed, &script);
    let (capped, _) = paced(
        "oust-set-param playouts 300\noust-set-param ponder on\n",
        &script,
    );
    let (on_text, off_text) = (on.text(), off.text());
    let framed = Regex::new(r"\A(=\n\n){3,4}=1 [A-N]\d+\n\n=2 oust\n\n=3 move ").unwrap();
    for text in [&on_text, &off_text, &capped.text()] {
        assert!(framed.is_match(text), "{text}");
    }
    // The next command is answered at once: the search on the opponent's time never delays a response.
    assert!(
        on.when("=2") < Duration::from_millis(2500),
        "{:?} {on_text}",
        on.when("=2")
    );
    assert!(took < Duration::from_secs(10), "{took:?} {on_text}");
    let (pondered, plain, limited) = (
        suggested_visits(&on_text, 3),
        suggested_visits(&off_text, 3),
        suggested_visits(&capped.text(), 3),
    );
    assert!(
        pondered > 5 * plain,
        "visits with pondering {pondered}, without {plain}"
    );
    // Under a playout limit the tree holds only the two searches of 300 playouts.
    assert!(limited <= 600, "{limited} visits under a limit of 300");
}

/// While the engine ponders, a parameter change is answered and takes effect from the next search (`ponder off`
/// ends pondering), an illegal `play` is refused as ever, and the end of the input ends the session at once.
#[test]
fn commands_during_pondering_are_answered_and_the_end_of_the_input_ends_it() {
    let (out, took) = paced(
        "oust-set-param time_per_move 0.05\noust-set-param ponder on\n",
        &[
            (0, "1 genmove b\n"),
            (
                300,
                "2 oust-set-param ponder maybe\n3 oust-get-param ponder\n",
            ),
            (
                300,
                "4 play b A1\n5 oust-set-param threads 2\n6 oust-set-param ponder off\n7 oust-get-param ponder\n",
            ),
            (300, "8 oust-get-param threads\n"),
        ],
    );
    let text = out.text();
    assert!(
        text.contains("?2 syntax error: ponder: expected on or off, got 'maybe'\n\n=3 on\n\n?4 "),
        "{text}"
    );
    assert!(text.ends_with("=5\n\n=6\n\n=7 off\n\n=8 2\n\n"), "{text}");
    assert!(took < Duration::from_secs(5), "{took:?} {text}");
    // The end of the input while pondering: the session ends at once.
    let (out, took) = paced(
        "oust-set-param time_per_move 0.05\noust-set-param ponder on\n",
        &[(0, "1 genmove b\n")],
    );
    assert!(took < Duration::from_secs(5), "{took:?} {}", out.text());
}
