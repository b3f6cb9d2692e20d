//! `oust analysis`, the JSON analysis engine, driven as a client drives it: queries out of order, priorities,
//! terminations, bad lines, and the end of the input; every query's turn gets exactly one final answer.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// Runs `oust analysis ARGS` on `input` (all at once) and gives its answers, one JSON value a line.
fn analysis(args: &[&str], input: &str) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_oust"))
        .arg("analysis")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .expect("oust analysis runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// `oust analysis ARGS` started with its stdin and stdout piped, for a test that talks with it.
fn spawn_analysis(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_oust"))
        .arg("analysis")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The final answers of each (id, turn).
fn finals(answers: &[Value]) -> BTreeMap<(String, u64), Vec<Value>> {
    let mut m: BTreeMap<(String, u64), Vec<Value>> = BTreeMap::new();
    for a in answers {
        if a["isDuringSearch"] == json!(false) {
            let key = (
                a["id"].as_str().unwrap().to_string(),
                a["turnNumber"].as_u64().unwrap(),
            );
            m.entry(key).or_default().push(a.clone());
        }
    }
    m
}

fn lines(queries: &[Value]) -> String {
    queries.iter().map(|q| format!("{q}\n")).collect()
}

/// A 9x9 game's first placements, the moves of the queries below: lone stones far apart, so that no turn is won
/// by force within a few placements (a search that proves its position stops before its visits are spent).
fn moves() -> Value {
    json!([
        ["B", "E5"],
        ["W", "A1"],
        ["B", "J9"],
        ["W", "A9"],
        ["B", "J1"]
    ])
}

#[test]
fn every_turn_gets_exactly_one_final_answer_whatever_the_order() {
    let queries = [
        json!({"id": "low", "moves": moves(), "analyzeTurns": [0, 2, 4], "maxVisits": 60, "priority": -5}),
        json!({"id": "high", "moves": moves(), "analyzeTurns": [5, 1], "maxVisits": 60, "priority": 9}),
        json!({"id": "hex", "board": "hex5", "moves": [["B", "E5"]], "maxVisits": 40}),
        json!({"id": "bad", "moves": [["W", "E5"]]}),
    ];
    let answers = analysis(&["--positions", "2", "--seed", "4"], &lines(&queries));
    let f = finals(&answers);
    let expected: BTreeSet<(String, u64)> = [
        ("low", 0),
        ("low", 2),
        ("low", 4),
        ("high", 1),
        ("high", 5),
        ("hex", 1),
    ]
    .iter()
    .map(|&(id, t)| (id.to_string(), t))
    .collect();
    assert_eq!(
        f.keys().cloned().collect::<BTreeSet<_>>(),
        expected,
        "{answers:#?}"
    );
    for (key, list) in &f {
        assert_eq!(list.len(), 1, "{key:?} answered {} times", list.len());
        let a = &list[0];
        let visits = a["rootInfo"]["visits"].as_u64().unwrap();
        assert!(visits >= 40, "{key:?}: {visits} visits");
        // The moves' visits add up to the root's (the root's first visit expands it).
        let sum: u64 = a["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["visits"].as_u64().unwrap())
            .sum();
        assert!(
            sum + 1 >= visits && sum <= visits,
            "{key:?}: {sum} of {visits}"
        );
    }
    // The illegal query is one error that names its move and turn.
    let errors: Vec<&Value> = answers
        .iter()
        .filter(|a| a.get("error").is_some())
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["id"], json!("bad"));
    assert_eq!(errors[0]["field"], json!("moves"));
    assert!(
        errors[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("moves[0] (W E5), played at turn 0: illegal move: black is to move"),
        "{}",
        errors[0]
    );
    // The player to move, after Black's quiet E5 and White's quiet D4, and so on.
    assert_eq!(
        f[&("high".to_string(), 1)][0]["rootInfo"]["currentPlayer"],
        json!("W")
    );
    assert_eq!(
        f[&("low".to_string(), 4)][0]["rootInfo"]["currentPlayer"],
        json!("B")
    );
}

#[test]
fn the_answers_do_not_depend_on_how_many_positions_are_searched_at_once() {
    let queries = [
        json!({"id": "a", "moves": moves(), "analyzeTurns": [0, 1, 2, 3, 4, 5], "maxVisits": 80, "includePolicy": true}),
        json!({"id": "b", "board": "hex6", "moves": [["B", "F6"], ["W", "E5"]], "analyzeTurns": [0, 1, 2], "maxVisits": 80}),
    ];
    let one = finals(&analysis(
        &["--positions", "1", "--seed", "9"],
        &lines(&queries),
    ));
    let three = finals(&analysis(
        &["--positions", "3", "--seed", "9"],
        &lines(&queries),
    ));
    assert_eq!(one.len(), 9);
    assert_eq!(one, three);
    // Another seed searches otherwise.
    let other = finals(&analysis(
        &["--positions", "1", "--seed", "10"],
        &lines(&queries),
    ));
    assert_ne!(one, other);
}

#[test]
fn a_terminated_query_answers_once_and_the_others_go_on() {
    let mut child = spawn_analysis(&["--positions", "1", "--seed", "2"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut send = |v: Value| writeln!(stdin, "{v}").unwrap();
    // A search without end, reporting as it goes; then queued ones behind it.
    send(json!({"id": "endless", "maxVisits": 100_000_000, "reportDuringSearchEvery": 0.05}));
    send(json!({"id": "queued", "moves": moves(), "analyzeTurns": [1, 2, 3], "maxVisits": 30}));
    send(json!({"id": "endless", "maxVisits": 5}));
    let mut read = || {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let dup = read();
    assert_eq!(dup["field"], json!("id"), "{dup}");
    assert_eq!(read()["isDuringSearch"], json!(true));
    // Terminate two of the queued turns before they start, then the endless search.
    send(
        json!({"id": "t1", "action": "terminate", "terminateId": "queued", "turnNumbers": [1, 3]}),
    );
    send(json!({"id": "t2", "action": "terminate", "terminateId": "endless"}));
    std::thread::sleep(Duration::from_millis(50));
    drop(stdin);
    let mut rest = Vec::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        rest.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    assert!(child.wait().unwrap().success());
    let f = finals(&rest);
    let keys: Vec<(String, u64)> = f.keys().cloned().collect();
    assert_eq!(
        keys,
        [
            ("endless".to_string(), 0),
            ("queued".to_string(), 1),
            ("queued".to_string(), 2),
            ("queued".to_string(), 3)
        ]
    );
    assert!(f.values().all(|l| l.len() == 1), "{rest:#?}");
    // The endless search answers with what it had; turns 1 and 3 had no search; turn 2 was searched.
    assert!(
        f[&("endless".to_string(), 0)][0]["rootInfo"]["visits"]
            .as_u64()
            .unwrap()
            > 0
    );
    for t in [1, 3] {
        assert_eq!(f[&("queued".to_string(), t)][0]["noResults"], json!(true));
    }
    assert_eq!(
        f[&("queued".to_string(), 2)][0]["rootInfo"]["visits"].as_u64(),
        Some(30)
    );
    let acks: Vec<&Value> = rest.iter().filter(|a| a.get("action").is_some()).collect();
    assert_eq!(acks.len(), 2);
    assert_eq!(acks[0]["turnNumbers"], json!([1, 3]));
}

#[test]
fn allowed_and_avoided_moves_restrict_the_root() {
    let q = json!({"id": "r", "moves": moves(), "maxVisits": 100, "includePolicy": true,
        "allowMoves": [{"player": "W", "moves": ["B2", "H8", "E4"], "untilDepth": 1}],
        "avoidMoves": [{"player": "W", "moves": ["E4"]}]});
    let answers = analysis(&["--positions", "1", "--seed", "1"], &lines(&[q]));
    let a = &finals(&answers)[&("r".to_string(), 5)][0];
    let seen: BTreeSet<&str> = a["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(seen, BTreeSet::from(["B2", "H8"]));
    let policy: BTreeSet<&String> = a["policy"].as_object().unwrap().keys().collect();
    assert_eq!(policy.len(), 2);
    // A deeper restriction is only a warning.
    let deep = json!({"id": "d", "maxVisits": 5, "allowMoves": [{"player": "B", "moves": ["E5"], "untilDepth": 3}]});
    let answers = analysis(&["--positions", "1"], &lines(&[deep]));
    assert_eq!(answers[0]["field"], json!("allowMoves"));
    assert!(
        answers[0]["warning"]
            .as_str()
            .unwrap()
            .contains("untilDepth 3")
    );
    assert_eq!(answers[1]["moveInfos"][0]["move"], json!("E5"));
}

#[test]
fn bad_lines_are_answered_and_the_engine_goes_on() {
    let long = format!("{{\"id\": \"x\", \"pad\": \"{}\"}}", "a".repeat(1 << 20));
    // The good query last: the errors are answered by the reader as it reads, before any search ends.
    let input = format!(
        "{long}\n\n\u{fffd}\n{}\n{{\"id\": \"ok\", \"maxVisits\": 3}}\n",
        json!({"id": "turns", "analyzeTurns": [], "maxVisits": 3})
    );
    let answers = analysis(&["--positions", "1"], &input);
    assert_eq!(answers.len(), 4, "{answers:#?}");
    assert_eq!(
        answers[0]["error"],
        json!("the line is longer than 1048576 bytes; it was skipped")
    );
    assert!(
        answers[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("the line is not JSON")
    );
    assert_eq!(answers[2]["field"], json!("analyzeTurns"));
    assert_eq!(answers[3]["id"], json!("ok"));
    assert_eq!(answers[3]["rootInfo"]["visits"], json!(3));
}

#[test]
fn a_client_gone_ends_the_searches_at_once() {
    let mut child = spawn_analysis(&["--positions", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "{}",
        json!({"id": "endless", "maxVisits": 100_000_000, "reportDuringSearchEvery": 0.05})
    )
    .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("\"isDuringSearch\":true"), "{line}");
    // The client closes its end of stdout, and keeps stdin open: the engine notices and exits.
    drop(out);
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still searching 5 s after the client left"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
}
