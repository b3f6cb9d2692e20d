//! The command line of the `oust` binary: what it prints on stdout and stderr, its errors and its help.

use std::process::{Command, Output, Stdio};

const OUST: &str = env!("CARGO_BIN_EXE_oust");

fn run(args: &[&str]) -> Output {
    Command::new(OUST)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn bench_shows_each_workload_on_stderr_and_only_json_on_stdout() {
    let out = run(&["bench", "--seconds", "0.01"]);
    assert!(out.status.success());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with("{\"random_playouts_per_s\": ") && stdout.ends_with("}\n"),
        "{stdout}"
    );
    let steps: Vec<&str> = stderr.lines().collect();
    assert_eq!(steps.len(), 8, "{stderr}");
    assert_eq!(steps[0], "bench [1/8] random playouts on 9x9 (0.01 s)");
    assert_eq!(steps[7], "bench [8/8] MCTS on 19x19, 2 threads (0.02 s)");
    // The help describes what it measures: not only single-threaded work.
    let help = text(&run(&["bench", "--help"]).stdout);
    assert!(!help.contains("single-threaded"), "{help}");
    assert!(help.contains("two threads"), "{help}");
}
