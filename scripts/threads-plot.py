#!/usr/bin/env python3
"""Draws docs/threads.svg from docs/threads.tsv: the search's overhead at a fixed total a move, as the Elo of T
threads against 1 thread at the same total playouts (or visits), against T on a log scale, one line a
configuration (board, evaluator and total), with each point's 95% interval and the targets of issue 47 (at most 15
Elo lost at 2 threads, 40 at 16). Uses only Python's standard library.

    scripts/threads-plot.py [docs/threads.tsv] [docs/threads.svg]

The table has a header line and one line a match: configuration, threads, games, Elo, and the Elo's 95% interval
as low and high.
"""

import math
import sys

W, H = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 190, 40, 52
COLOURS = ["#c0392b", "#2c6fbb", "#27864a", "#8e44ad", "#d35400"]


def read(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in lines[1:]:
        config, threads, games, elo, low, high = line.split("\t")[:6]
        rows.append((config, int(threads), int(games), float(elo), float(low), float(high)))
    return rows


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "docs/threads.tsv"
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/threads.svg"
    rows = read(src)
    lo = min(-50.0, min(r[4] for r in rows)) - 20
    hi = max(50.0, max(r[5] for r in rows)) + 20
    max_t = max(16, max(r[1] for r in rows))
    X = lambda t: LEFT + (W - LEFT - RIGHT) * math.log2(t) / math.log2(max_t)
    Y = lambda e: TOP + (H - TOP - BOTTOM) * (hi - e) / (hi - lo)
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
         f'font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{(LEFT + W - RIGHT) / 2}" y="22" text-anchor="middle" font-size="14">'
         f'T threads against 1 thread at the same total a move</text>']
    step = 50 if hi - lo <= 400 else 100
    e = math.floor(lo / step) * step
    while e <= hi:
        if e >= lo:
            colour = "#999" if e == 0 else "#ddd"
            p.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{Y(e):.1f}" y2="{Y(e):.1f}" stroke="{colour}"/>')
            p.append(f'<text x="{LEFT - 6}" y="{Y(e) + 4:.1f}" text-anchor="end">{int(e):+d}</text>')
        e += step
    t = 1
    while t <= max_t:
        p.append(f'<line x1="{X(t):.1f}" x2="{X(t):.1f}" y1="{H - BOTTOM}" y2="{H - BOTTOM + 4}" stroke="black"/>')
        p.append(f'<text x="{X(t):.1f}" y="{H - BOTTOM + 18}" text-anchor="middle">{t}</text>')
        t *= 2
    # The targets: at most 15 Elo lost at 2 threads, 40 at 16.
    for t, e in [(2, -15), (16, -40)]:
        p.append(f'<line x1="{X(t) - 10:.1f}" x2="{X(t) + 10:.1f}" y1="{Y(e):.1f}" y2="{Y(e):.1f}" '
                 f'stroke="black" stroke-dasharray="3 2"/>')
        p.append(f'<text x="{X(t) + 12:.1f}" y="{Y(e) + 4:.1f}" font-size="10">target {e}</text>')
    p.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{H - BOTTOM}" y2="{H - BOTTOM}" stroke="black"/>')
    p.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}" stroke="black"/>')
    p.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 12}" text-anchor="middle">threads (T)</text>')
    p.append(f'<text x="16" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" '
             f'transform="rotate(-90 16 {(TOP + H - BOTTOM) / 2})">Elo of T threads over 1 thread</text>')
    configs = []
    for r in rows:
        if r[0] not in configs:
            configs.append(r[0])
    for i, config in enumerate(configs):
        colour = COLOURS[i % len(COLOURS)]
        pts = sorted((r for r in rows if r[0] == config), key=lambda r: r[1])
        # Each configuration's points are moved a little sideways, so that the intervals do not overlap.
        dx = (i - (len(configs) - 1) / 2) * 5
        path = " ".join(f"{X(r[1]) + dx:.1f},{Y(r[3]):.1f}" for r in pts)
        p.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in pts:
            p.append(f'<line x1="{X(r[1]) + dx:.1f}" x2="{X(r[1]) + dx:.1f}" y1="{Y(r[4]):.1f}" '
                     f'y2="{Y(r[5]):.1f}" stroke="{colour}"/>')
            p.append(f'<circle cx="{X(r[1]) + dx:.1f}" cy="{Y(r[3]):.1f}" r="4" fill="{colour}"/>')
        ly = TOP + 10 + 20 * i
        p.append(f'<line x1="{W - RIGHT + 14}" x2="{W - RIGHT + 34}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                 f'stroke-width="2"/>')
        p.append(f'<text x="{W - RIGHT + 40}" y="{ly + 4}">{config}</text>')
    p.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(p) + "\n")


if __name__ == "__main__":
    main()
