#!/usr/bin/env python3
"""Answer times of `genmove` under a time limit, with optional CPU load beside the engine.

Plays whole games of an engine against itself (one process, the tree kept between moves, as in a match) at
--time-per-move, timing each genmove from the moment its line is written to the moment its answer is read.
Prints the median, 95th percentile and longest answer, and the engine's own log lines about searches that ran
past their budget (RUST_LOG=info). Examples:

    scripts/latency.py --engine target/release/oust --size 9 --time-per-move 0.2 --hogs 3 --games 3
    scripts/latency.py --engine target/release/oust --size hex7 --time-per-move 1 --games 1 --build
"""

import argparse
import statistics
import subprocess
import sys
import threading
import time


def percentile(xs, p):
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/oust")
    ap.add_argument("--size", default="9")
    ap.add_argument("--time-per-move", type=float, default=0.2)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--hogs", type=int, default=0, help="busy processes beside the engine")
    ap.add_argument("--build", action="store_true", help="a cargo build (of this checkout, in a scratch target dir) beside the engine")
    ap.add_argument("--extra", default="", help="more engine flags")
    args = ap.parse_args()

    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hogs)]
    builder = None
    if args.build:
        builder = subprocess.Popen(
            "rm -rf /tmp/latency-build && while true; do CARGO_TARGET_DIR=/tmp/latency-build cargo build --release "
            "-q 2>/dev/null; rm -rf /tmp/latency-build; done",
            shell=True, start_new_session=True)
    times = []
    overruns = []
    try:
        for game in range(args.games):
            cmd = [args.engine, "--size", args.size, "--time-per-move", str(args.time_per_move),
                   "--seed", str(game + 1)] + args.extra.split()
            p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, bufsize=1, env={"RUST_LOG": "info", "PATH": "/usr/bin:/bin"})
            log = []
            reader = threading.Thread(target=lambda: log.extend(p.stderr), daemon=True)
            reader.start()
            color = "b"
            moves = 0
            while True:
                began = time.monotonic()
                p.stdin.write(f"genmove {color}\n")
                p.stdin.flush()
                lines = []
                while True:
                    line = p.stdout.readline()
                    if line == "":
                        raise SystemExit("the engine ended")
                    if line == "\n" and lines:
                        break
                    lines.append(line.strip())
                took = time.monotonic() - began
                answer = lines[0]
                if not answer.startswith("="):
                    break
                times.append(took)
                moves += 1
                if "result" in answer or answer == "= resign":
                    break
                if "extra-turn" not in answer:
                    color = "w" if color == "b" else "b"
            p.stdin.write("quit\n")
            p.stdin.flush()
            p.wait()
            reader.join()
            overruns += [l.strip() for l in log if "ms over" in l]
            print(f"game {game + 1}: {moves} moves, longest {max(times[-moves:]):.3f}s", flush=True)
    finally:
        for h in hogs:
            h.kill()
        if builder:
            import os, signal
            os.killpg(builder.pid, signal.SIGKILL)
    print(f"engine: {' '.join(cmd[:1])} --size {args.size} --time-per-move {args.time_per_move} {args.extra}")
    print(f"load: {args.hogs} busy processes{', a cargo build' if args.build else ''}")
    print(f"answers: {len(times)}, median {statistics.median(times):.3f}s, p95 {percentile(times, 95):.3f}s, "
          f"longest {max(times):.3f}s")
    print(f"engine log: {len(overruns)} searches over budget by more than 50 ms")
    for line in overruns[:20]:
        print("  " + line)


if __name__ == "__main__":
    main()
