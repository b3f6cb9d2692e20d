//! Regression tests of what the fuzzers and the soak found (issue 12, "Hardened"). Each failed before its fix.

use std::io::Write;
use std::process::{Command, Output, Stdio};


fn run_binary(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oust"))
        .args(args)
        .env_remove("RUST_LOG")
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

/// `oust-set-param tree_mb 65536` asks for a 64 GiB tree; the allocator refuses it on a smaller machine, which
/// aborted the engine at the next `genmove` ("memory allocation of 68719476736 bytes failed"). Now the search
/// takes the largest tree it can get.
#[test]
fn a_tree_larger_than_the_machine_does_not_abort_the_engine() {
    let out = run_binary(
        &["--threads", "1", "--playouts", "20"],
        b"oust-set-param tree_mb 65536\n1 genmove b\n2 name\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: {stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("=1 "), "{stdout}");
    assert!(stdout.ends_with("=2 oust\n\n"), "{stdout}");
}
