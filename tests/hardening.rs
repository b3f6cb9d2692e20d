//! Regression tests of what the fuzzers and the soak found (issue 12, "Hardened"). Each failed before its fix.

mod common;

use common::run_binary;
use oust::rules::Shape;
use oust::sgf;

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

fn nested(depth: usize) -> String {
    format!("{}{}", "(;C[x]".repeat(depth), ")".repeat(depth))
}

/// The SGF reader recursed once per nested variation: `loadsgf` of 400,000 nested `(;` overflowed the engine's
/// stack and killed it. The reader now keeps its own stack of open trees: unclosed nesting is a syntax error that
/// says what is missing, and deep closed nesting reads.
#[test]
fn deeply_nested_variations_are_read_without_a_stack_overflow() {
    let dir = common::TempDir::new("hardening");
    let file = dir.join("deep.sgf");
    std::fs::write(&file, "(;".repeat(400_000)).unwrap();
    let input = format!("1 loadsgf {}\n2 name\n", file.display());
    let out = run_binary(&[], input.as_bytes());
    drop(dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: {stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("?1 cannot load file"), "{stdout}");
    assert!(stdout.contains("missing 400000 `)`"), "{stdout}");
    assert!(stdout.ends_with("=2 oust\n\n"), "{stdout}");
    // In process too, on a test thread's smaller stack.
    let record = sgf::parse(&nested(100_000)).unwrap();
    assert!(record.moves.is_empty());
}

/// `HX[S]` with a side near 2^64: the SZ it needs was computed as 2S-1, which wrapped around (and panicked with
/// overflow checks on).
#[test]
fn a_huge_hexhex_side_does_not_wrap_around() {
    let huge = usize::MAX;
    let most = huge - 1;
    assert_eq!(Shape::Hex { side: huge }.extent(), (most, most));
    let err = sgf::parse(&format!("(;SZ[9]HX[{huge}])")).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("unsupported SGF record: HX[{huge}] needs SZ[{most}], the record has SZ[9:9]")
    );
}

/// A search waited for its threads in ticks of 5 ms, and the solver that a genmove runs first checked its node limit
/// only every 4096 nodes, so the tiny searches of the conversation fuzzer (16 playouts) took 5 ms each, nearly all
/// of it asleep. Now the last thread to end wakes the search, and the solver and the search stop exactly at their
/// limits. How long a tiny genmove takes is a number to measure, not to assert in a test: see
/// docs/results/2026-12-01-speed.md, "Speed".
#[test]
fn a_tiny_search_stops_exactly_at_its_limits() {
    use oust::rules::{Game, Geometry, Position};
    use oust::search::{Control, Request, Searcher, Setup};
    use oust::solve::{self, Solver, StopReason, Verdict};
    use std::sync::Arc;
    let geo = Arc::new(Geometry::square(9).unwrap());
    // The solver's share of a 16-playout genmove, far below the 4096 nodes between its checks of the clock.
    let mut solver = Solver::new(solve::Options {
        memory_bytes: 16 << 20,
        ..solve::Options::default()
    })
    .unwrap();
    for nodes in [1, 32, 4095] {
        let limits = solve::Limits {
            nodes: Some(nodes),
            ..solve::Limits::default()
        };
        let report = solver
            .solve(&Position::new(geo.clone()), &limits, &mut |_| {})
            .unwrap();
        assert_eq!(report.verdict, Verdict::Unknown(StopReason::NodeLimit));
        assert_eq!(report.stats.nodes, nodes);
    }
    // The tree search, with one thread and with more, ends with exactly its playouts, with no time limit to end it.
    let game = Game::new(geo);
    for threads in [1, 2, 4] {
        let setup = Setup {
            threads,
            tree_nodes: 4096,
            ..Setup::default()
        };
        let request = Request::playouts(16, 7);
        let mut searcher = Searcher::default();
        let result = searcher.search(&game, &setup, &request, &mut |_| Control::Continue);
        assert_eq!(result.playouts, 16, "{threads} threads");
        assert!(result.best.is_some());
    }
}

/// A 13x13 game written as `SZ[13]` (oust writes no `HX` for a square board) and read on an engine on the hexhex
/// board of side 7 is read as that hexhex board, whichever program wrote it: issue 24 (point 5) decided that the
/// board asked for, or the engine's own hexhex board, wins over a guess from the record's `AP`. (An earlier fix kept
/// oust's own records square; that guess broke hexhex records that had lost their `HX`.) Read on its own board, the
/// record is the square game. The fuzzer's input (a record without `SZ`, 19x19, written back and read on hex10)
/// still goes through the whole target, which reads a written record back on the game's own board.
#[test]
fn a_square_record_read_on_a_hexhex_engine_is_read_as_the_engine_s_board() {
    use oust::rules::{Game, Geometry, Move};
    use std::sync::Arc;
    let geo = Arc::new(Geometry::square(13).unwrap());
    let mut game = Game::new(geo.clone());
    for name in ["A1", "N13", "G7"] {
        let c = game.position().to_move();
        game.play(c, Move::Place(geo.parse_vertex(name).unwrap()))
            .unwrap();
    }
    let text = sgf::write(&game, &sgf::GameInfo::default());
    let hex7 = Shape::Hex { side: 7 };
    let record = sgf::parse_for(&text, Some(hex7)).unwrap();
    assert_eq!(record.board, hex7);
    assert!(sgf::replay(&record, None).is_ok());
    let own = sgf::parse_for(&text, Some(Shape::square(13))).unwrap();
    assert_eq!(own.board, Shape::square(13));
    assert_eq!(sgf::replay(&own, None).unwrap().position(), game.position());
    // GoGui's records (no AP of oust's) are read the same way.
    let gogui = text.replace(
        &format!("AP[oust:{}]", env!("CARGO_PKG_VERSION")),
        "AP[GoGui:1.6]",
    );
    assert_eq!(sgf::parse_for(&gogui, Some(hex7)).unwrap().board, hex7);
    let found = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fuzz/corpus/sgf_record/regression-square-record-read-as-hexhex"
    ))
    .unwrap();
    oust::fuzzing::sgf_record(&found);
}

#[test]
fn a_refused_record_after_a_pie_record_leaves_the_game_as_it_was() {
    // The fuzzer's finding: its SGF target kept one engine per board for every input, and a record played under
    // the pie rule left that engine's pie setting on; a refused record later (broken off inside a value) was then
    // compared with a game without the pie rule. The engine was right (a refused loadsgf changes nothing), the
    // target was not: each input now starts from the pie setting off, and a refusal is compared with the game
    // before it.
    let dir = env!("CARGO_MANIFEST_DIR");
    let pie = std::fs::read(format!("{dir}/tests/suites/sgf/pie-swap.sgf")).unwrap();
    let refused = std::fs::read(format!(
        "{dir}/fuzz/corpus/sgf_record/regression-refused-after-pie-record"
    ))
    .unwrap();
    oust::fuzzing::sgf_record(&pie);
    oust::fuzzing::sgf_record(&refused);
}
