#!/usr/bin/env python3
"""How far two runs of oust gui's game review agree: each record is reviewed once for each seed, through the
server's own API (`oust gui --no-browser`, /api/load, /api/review, /api/state), and the runs' classes of every
placement are compared.

    scripts/review-agreement.py --oust target/release/oust --playouts 20000 --seeds 1,2 docs/level3-level5-hex7.sgf

Prints, for each record, the placements judged, how many got the same class in both runs, the blunders of each
run, and each review's seconds; then each placement whose class differs, with each run's class, loss and error;
then the totals.
Uses only Python's standard library.
"""

import argparse
import json
import subprocess
import sys
import time
import urllib.request


ENGINE_ARGS = ""


def call(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read().decode())


def review(oust, record, seed, playouts, port, threads):
    engine = f"{oust} --seed {seed}" + (f" --threads {threads}" if threads else "") + ENGINE_ARGS
    gui = subprocess.Popen(
        [oust, "gui", "--no-browser", "--port", str(port), "--engine", engine],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                call(base, "/api/state")
                break
            except OSError:
                time.sleep(0.1)
        with open(record, encoding="utf-8") as f:
            call(base, "/api/load", {"text": f.read(), "name": record})
        started = time.monotonic()
        call(base, "/api/review", {"playouts": playouts})
        while True:
            time.sleep(0.25)
            state = call(base, "/api/state")
            r = state.get("analysis", {}).get("review")
            if r and r.get("placements") is not None and r.get("done") == r.get("total") and not r.get("loaded"):
                return r, time.monotonic() - started
    finally:
        gui.kill()
        gui.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oust", default="target/release/oust")
    ap.add_argument("--playouts", type=int, default=20000)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--threads", type=int, default=0, help="the engine's threads (default: its own default)")
    ap.add_argument("--port", type=int, default=8741)
    ap.add_argument("--engine-args", default="", help="more arguments of the engine (--set evaluator=network)")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    global ENGINE_ARGS
    ENGINE_ARGS = " " + args.engine_args if args.engine_args else ""
    seeds = [int(s) for s in args.seeds.split(",")]
    if len(seeds) != 2:
        sys.exit("--seeds takes two seeds")
    total = same = blunder_pairs = blunder_same = 0
    for record in args.records:
        runs = []
        for i, seed in enumerate(seeds):
            r, seconds = review(args.oust, record, seed, args.playouts, args.port + i, args.threads)
            runs.append((r, seconds))
        classes = [{p["k"]: p.get("class") for p in r["placements"]} for r, _ in runs]
        ks = sorted(set(classes[0]) & set(classes[1]))
        agree = sum(classes[0][k] == classes[1][k] for k in ks)
        blunders = [{k for k in ks if c[k] == "blunder"} for c in classes]
        total += len(ks)
        same += agree
        blunder_pairs += len(blunders[0] | blunders[1])
        blunder_same += len(blunders[0] & blunders[1])
        print(
            f"{record}: {agree} of {len(ks)} placements in the same class ({100 * agree / max(1, len(ks)):.1f}%); "
            f"blunders {sorted(blunders[0])} and {sorted(blunders[1])}; "
            f"seconds {runs[0][1]:.1f} and {runs[1][1]:.1f}"
        )
        judged = [{p["k"]: p for p in r["placements"]} for r, _ in runs]
        for k in ks:
            if classes[0][k] != classes[1][k]:
                print(
                    f"  placement {k}: "
                    + " and ".join(
                        f"{j[k].get('class') or 'none'} (loss {j[k].get('loss')}, error {j[k].get('error')})"
                        for j in judged
                    )
                )
    print(
        f"total: {same} of {total} placements in the same class ({100 * same / max(1, total):.1f}%); "
        f"blunders in both runs {blunder_same} of {blunder_pairs}"
    )


if __name__ == "__main__":
    main()
