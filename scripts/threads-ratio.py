#!/usr/bin/env python3
"""The strength speed-up of a second thread at equal time (issue 47, docs/results/2026-12-05-threads.md "Threads
at equal time"): the Elo of 2 threads against 1 thread at 1 s a move over the Elo of 1 thread at 2 s against 1
thread at 1 s, from the wins and losses of the matches, with its uncertainty from bootstrap resamplings of each
match's games. Uses only Python's standard library.

    scripts/threads-ratio.py --threads W-L --time W-L [--direct W-L] [--resamples N] [--seed S]

--threads: 2 threads at 1 s against 1 thread at 1 s; --time: 1 thread at 2 s against 1 thread at 1 s; --direct
(optional): 2 threads at 1 s against 1 thread at 2 s. Wins are the first engine's. With --direct the three players'
ratings are fitted together (Bradley-Terry, maximum likelihood), so that every game counts towards both Elos.
"""

import argparse
import math
import random

ELO = 400 / math.log(10)


def counts(text):
    w, l = text.split("-")
    return int(w), int(l)


def fit(matches):
    """Maximum-likelihood ratings (a, b) in Elo of '2 threads' and '2 s' over '1 thread at 1 s' from matches
    [(coefficient of a, coefficient of b, wins, losses)]: a match's expected score is the logistic of ca*a + cb*b."""
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for ca, cb, w, l in matches:
            p = 1 / (1 + math.exp(-(ca * a + cb * b)))
            g = w - (w + l) * p
            h = (w + l) * p * (1 - p)
            ga += ca * g
            gb += cb * g
            haa += ca * ca * h
            hab += ca * cb * h
            hbb += cb * cb * h
        haa += 1e-9
        hbb += 1e-9
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a += max(-2.0, min(2.0, da))
        b += max(-2.0, min(2.0, db))
        if abs(da) + abs(db) < 1e-10:
            break
    return a * ELO, b * ELO


def build(threads, time, direct):
    matches = [(1, 0, *threads), (0, 1, *time)]
    if direct is not None:
        matches.append((1, -1, *direct))
    return matches


def resample(rng, w, l):
    n = w + l
    wins = sum(rng.random() < w / n for _ in range(n))
    # A resampled match that one side swept has no finite Elo: count it as a quarter of a game short of a sweep.
    wins = min(max(wins, 0.25), n - 0.25)
    return wins, n - wins


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=counts, required=True)
    ap.add_argument("--time", type=counts, required=True)
    ap.add_argument("--direct", type=counts)
    ap.add_argument("--resamples", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    a, b = fit(build(args.threads, args.time, args.direct))
    rng = random.Random(args.seed)
    ratios, at_least = [], 0
    for _ in range(args.resamples):
        t = resample(rng, *args.threads)
        s = resample(rng, *args.time)
        d = resample(rng, *args.direct) if args.direct else None
        ra, rb = fit(build(t, s, d))
        at_least += ra >= 0.8 * rb
        ratios.append(ra / rb if rb > 0 else math.inf)
    ratios.sort()
    q = lambda f: ratios[min(len(ratios) - 1, int(f * len(ratios)))]
    print(f"2 threads over 1 at 1 s: {a:+.1f} Elo; 2 s over 1 s: {b:+.1f} Elo")
    print(f"ratio {a / b:.2f}, 90% interval {q(0.05):.2f} to {q(0.95):.2f}, "
          f"P(ratio >= 0.8) {at_least / args.resamples:.2f} ({args.resamples} resamplings, seed {args.seed})")


if __name__ == "__main__":
    main()
