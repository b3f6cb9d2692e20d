#!/usr/bin/env python3
"""Draws docs/generations.svg from docs/generations.tsv: each network generation's Elo over generation 0 of its
family against the core-hours spent to make it (self-play, fit and gate, added up from generation 0), one line a
board family. Uses only Python's standard library.

    scripts/generations-plot.py [docs/generations.tsv] [docs/generations.svg]

The table has a header line and one line a generation: family, generation, cumulative core-hours, Elo over
generation 0, and the Elo's 95% interval as low and high (empty for generation 0).
"""

import sys

W, H = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 40, 52
COLOURS = {"hex": "#c0392b", "square": "#2c6fbb"}


def read(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in lines[1:]:
        family, gen, hours, elo, low, high = (line.split("\t") + ["", ""])[:6]
        rows.append((family, int(gen), float(hours), float(elo),
                     float(low) if low else None, float(high) if high else None))
    return rows


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "docs/generations.tsv"
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/generations.svg"
    rows = read(src)
    max_h = max(r[2] for r in rows) * 1.15 or 1.0
    lows = [r[4] if r[4] is not None else r[3] for r in rows]
    highs = [r[5] if r[5] is not None else r[3] for r in rows]
    lo = min(0.0, min(lows)) - 50
    hi = max(highs) + 50
    X = lambda h: LEFT + (W - LEFT - RIGHT) * h / max_h
    Y = lambda e: TOP + (H - TOP - BOTTOM) * (hi - e) / (hi - lo)
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
         f'font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2 - 60}" y="22" text-anchor="middle" font-size="14">Elo over generation 0 by core-hours</text>']
    step = 100 if hi - lo <= 800 else 200
    e = (int(lo) // step) * step
    while e <= hi:
        if e >= lo:
            p.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{Y(e):.1f}" y2="{Y(e):.1f}" stroke="#ddd"/>')
            p.append(f'<text x="{LEFT - 6}" y="{Y(e) + 4:.1f}" text-anchor="end">{e:+d}</text>')
        e += step
    hstep = 0.5 if max_h <= 5 else 1 if max_h <= 10 else 5
    h = 0.0
    while h <= max_h:
        p.append(f'<line x1="{X(h):.1f}" x2="{X(h):.1f}" y1="{H - BOTTOM}" y2="{H - BOTTOM + 4}" stroke="black"/>')
        p.append(f'<text x="{X(h):.1f}" y="{H - BOTTOM + 18}" text-anchor="middle">{h:g}</text>')
        h += hstep
    p.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{H - BOTTOM}" y2="{H - BOTTOM}" stroke="black"/>')
    p.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{H - BOTTOM}" stroke="black"/>')
    p.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 12}" text-anchor="middle">core-hours (self-play, fit and gate, from generation 0)</text>')
    p.append(f'<text x="16" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" '
             f'transform="rotate(-90 16 {(TOP + H - BOTTOM) / 2})">Elo over generation 0</text>')
    for i, family in enumerate(sorted({r[0] for r in rows})):
        pts = sorted((r for r in rows if r[0] == family), key=lambda r: r[1])
        colour = COLOURS.get(family, "#555")
        if len(pts) > 1:
            path = " ".join(f"{X(r[2]):.1f},{Y(r[3]):.1f}" for r in pts)
            p.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in pts:
            if r[4] is not None and r[5] is not None:
                p.append(f'<line x1="{X(r[2]):.1f}" x2="{X(r[2]):.1f}" y1="{Y(r[4]):.1f}" y2="{Y(r[5]):.1f}" '
                         f'stroke="{colour}" stroke-width="1"/>')
            p.append(f'<circle cx="{X(r[2]):.1f}" cy="{Y(r[3]):.1f}" r="4" fill="{colour}"/>')
            p.append(f'<text x="{X(r[2]) + 7:.1f}" y="{Y(r[3]) - 6:.1f}" fill="{colour}">gen {r[1]}</text>')
        ly = TOP + 10 + 20 * i
        p.append(f'<line x1="{W - RIGHT + 14}" x2="{W - RIGHT + 34}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        p.append(f'<text x="{W - RIGHT + 40}" y="{ly + 4}">{family}</text>')
    p.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(p) + "\n")


if __name__ == "__main__":
    main()
