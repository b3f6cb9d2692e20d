#!/usr/bin/env python3
"""A stress session of random command lines against one engine, timing every genmove.

Sends N seeded random lines (moves, genmoves, clocks, undo, new boards, set-ups, analysis started and stopped,
garbage) one at a time, reads each answer, and prints how many lines were sent, how many answered '?', and the
median, 99th percentile and longest genmove. Example (the issue's stress session):

    scripts/stress.py --engine target/release/oust --lines 40000 --seed 3 -- --threads 1 --playouts 20 --seed 3
"""

import argparse
import random
import statistics
import subprocess
import time

BOARDS = ["5", "7", "9", "7x5", "hex4", "hex5", "hex7", "13"]


def vertex(rng):
    col = rng.choice("ABCDEFGHJKLMNOPQRST")
    return f"{col}{rng.randint(1, 19)}"


def line(rng):
    r = rng.random()
    color = rng.choice(["b", "w", "black", "white", "x"])
    if r < 0.30:
        return f"play {color} {vertex(rng)}"
    if r < 0.50:
        return f"genmove {color}"
    if r < 0.55:
        return rng.choice(["time_settings 1000000 0 0", "time_settings 0 2 1", "time_settings 300 0 0",
                           "time_settings 0 0 0", f"time_left {color} {rng.randint(0, 100)} {rng.randint(0, 5)}"])
    if r < 0.62:
        return rng.choice(["undo", "undo", "clear_board", "showboard", "list_legal", "oust-status"])
    if r < 0.66:
        return rng.choice([f"boardsize {rng.randint(2, 19)}", f"oust-board {rng.choice(BOARDS)}"])
    if r < 0.70:
        return f"oust-analyze {rng.randint(1, 5)}"  # stopped by the next line
    if r < 0.73:
        return f"oust-solve {rng.choice(['0.01', '0.05', '0.1'])}"
    if r < 0.76:
        return f"perft {rng.randint(0, 3)}"
    if r < 0.80:
        return rng.choice(["oust-suggest " + color, "reg_genmove " + color, "oust-heatmap", "oust-pv"])
    return "".join(rng.choice("abcdefgh 0123456789#=?\t") for _ in range(rng.randint(0, 20)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/oust")
    ap.add_argument("--lines", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("flags", nargs="*", help="engine flags, after --")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    p = subprocess.Popen([args.engine] + args.flags, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    genmoves, failed, sent = [], 0, 0
    slowest = []
    history = []
    for _ in range(args.lines):
        text = line(rng)
        history = (history + [text])[-4:]
        began = time.monotonic()
        p.stdin.write(text + "\n")
        p.stdin.flush()
        sent += 1
        if text.strip() == "" or text.lstrip().startswith("#"):
            continue
        first = p.stdout.readline()
        if first == "":
            raise SystemExit(f"the engine ended after {sent} lines (last: {text!r})")
        if text.startswith("oust-analyze"):
            # Streamed: stop it with a blank-answered command and read to its end.
            p.stdin.write("oust-status\n")
            p.stdin.flush()
            while p.stdout.readline() not in ("\n", ""):
                pass
            first = p.stdout.readline()
        while True:
            nxt = p.stdout.readline()
            if nxt in ("\n", ""):
                break
        took = time.monotonic() - began
        if first.startswith("?"):
            failed += 1
        elif text.startswith("genmove"):
            genmoves.append(took)
            slowest = sorted(slowest + [(took, sent, list(history))], reverse=True)[:5]
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=10)
    genmoves.sort()
    print(f"engine: {args.engine} {' '.join(args.flags)}; {sent} lines, {failed} answered '?'")
    print(f"genmove: {len(genmoves)} answered, median {statistics.median(genmoves):.4f}s, "
          f"p99 {genmoves[int(0.99 * (len(genmoves) - 1))]:.4f}s, longest {genmoves[-1]:.4f}s")
    for took, n, before in slowest:
        print(f"  {took:.4f}s at line {n}, after: {' | '.join(before)}")


if __name__ == "__main__":
    main()
