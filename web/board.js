// The board: draws what the server says, and nothing else. It knows no rules: the legal cells, the stones, the
// marks and the analysis all come in the state. Each cell is a <g data-vertex="GTP name">; a stone carries
// data-stone="black|white". Rendering compares with what is drawn and writes only what changed.

const SVG = "http://www.w3.org/2000/svg";
const R_HEX = 1 / Math.sqrt(3); // circumradius of a pointy-top hexagon 1 wide

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 90);
    pts.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
  }
  return pts.join(" ");
}

// Colour of a win rate (0..1) for the heat map: red (bad for the mover) through yellow to green (good).
function rateColour(w) {
  const h = Math.max(0, Math.min(1, w)) * 120;
  return `hsl(${h.toFixed(0)}, 85%, 45%)`;
}

// A win rate (0..1) in percent, with the decimals it takes to tell candidates apart near 0 and 100: "57%",
// "0.4%", "99.96%". In a decided position every candidate is within a point of 0 or 100, and whole percents
// would all read the same ("0", "1", "99", "100"). Only a proof reads 0% or 100% exactly; a rate that rounds to
// them at two decimals reads "<0.01%" or ">99.99%".
export function percentLabel(w) {
  const p = Math.max(0, Math.min(1, w)) * 100;
  if (p === 0 || p === 100) return `${p}%`;
  const near = Math.min(p, 100 - p);
  const digits = near >= 1 ? 0 : near >= 0.1 ? 1 : 2;
  const text = p.toFixed(digits);
  if (digits === 2 && text === "0.00") return "<0.01%";
  if (digits === 2 && text === "100.00") return ">99.99%";
  return `${text}%`;
}

// The label of a heat-map candidate: its winning chance in percent, or W, L, D when the search proved it a win,
// a loss or a draw for the side to move (the legend under the analysis says so).
export function heatLabel(m) {
  if (m.proof) return { win: "W", loss: "L", draw: "D" }[m.proof] || "?";
  return percentLabel(m.winrate);
}

export class Board {
  constructor(svg, onClick, onHover) {
    this.svg = svg;
    this.onClick = onClick;
    this.onHover = onHover;
    this.layout = null;
    this.cells = new Map(); // vertex -> {g, shape, stone, x, y}
    this.drawn = { stones: "", legal: "", last: null, notation: null, heat: null, pv: null };
    this.notation = "gtp";
  }

  setLayout(layout) {
    this.layout = layout;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    this.cells.clear();
    const pad = 0.75;
    const vb = [layout.min_x - pad, layout.min_y - pad,
      layout.max_x - layout.min_x + 2 * pad, layout.max_y - layout.min_y + 2 * pad];
    svg.setAttribute("viewBox", vb.map((v) => v.toFixed(3)).join(" "));
    svg.classList.toggle("hex", layout.hex);
    svg.dataset.board = layout.board;
    this.gCells = el("g", { class: "cells" }, svg);
    this.gLabels = el("g", { class: "labels" }, svg);
    this.gMarks = el("g", { class: "marks" }, svg);
    this.gHeat = el("g", { class: "heat" }, svg);
    this.gPv = el("g", { class: "pv" }, svg);
    for (const c of layout.cells) {
      const g = el("g", { class: "cell", "data-vertex": c.v, "data-ap": c.ap }, this.gCells);
      const shape = layout.hex
        ? el("polygon", { class: "tile", points: hexPoints(c.x, c.y, R_HEX * 0.985) }, g)
        : el("rect", { class: "tile", x: c.x - 0.49, y: c.y - 0.49, width: 0.98, height: 0.98, rx: 0.06 }, g);
      const hover = el("circle", { class: "hover", cx: c.x, cy: c.y, r: 0.36 }, g);
      const stone = el("circle", { class: "stone", cx: c.x, cy: c.y, r: 0.4 }, g);
      g.addEventListener("click", () => this.onClick(c.v));
      // A tap on a touch screen fires mouseenter too (after the pointer events): the pointer event says it was a
      // finger, which previews nothing.
      g.addEventListener("pointerenter", (ev) => { this.touch = ev.pointerType === "touch"; });
      g.addEventListener("pointerdown", (ev) => { this.touch = ev.pointerType === "touch"; });
      g.addEventListener("mouseenter", () => this.onHover && this.onHover(c.v, !!this.touch));
      g.addEventListener("mouseleave", () => this.onHover && this.onHover(null, !!this.touch));
      this.cells.set(c.v, { g, shape, stone, hover, x: c.x, y: c.y, ap: c.ap });
    }
    this.labels = layout.labels.map((l) => {
      const t = el("text", { class: "label", x: l.x, y: l.y, "text-anchor": "middle", "dominant-baseline": "central" }, this.gLabels);
      return { t, gtp: l.gtp, ap: l.ap };
    });
    this.lastMark = el("circle", { class: "last-mark", r: 0.12, visibility: "hidden" }, this.gMarks);
    this.gHint = el("g", { class: "hint" }, svg);
    this.drawn = { stones: "", legal: "", last: null, notation: null, heat: null, pv: null, hint: null, best: null };
    this.bestMark = null;
    this.order = layout.cells.map((c) => c.v);
  }

  setNotation(n) {
    this.notation = n;
    if (this.drawn.notation === n) return;
    for (const l of this.labels) {
      const text = n === "ap" ? l.ap : l.gtp;
      l.t.textContent = text;
      l.t.setAttribute("visibility", text ? "visible" : "hidden");
    }
    this.drawn.notation = n;
  }

  // state.stones: one character per cell in layout order (X black, O white, . empty).
  render(state) {
    if (!this.layout || state.board !== this.layout.board) return false;
    const stones = state.stones;
    if (stones !== this.drawn.stones) {
      for (let i = 0; i < this.order.length; i++) {
        const ch = stones[i];
        if (ch === this.drawn.stones[i]) continue;
        const c = this.cells.get(this.order[i]);
        if (ch === "X") c.stone.setAttribute("data-stone", "black");
        else if (ch === "O") c.stone.setAttribute("data-stone", "white");
        else c.stone.removeAttribute("data-stone");
        c.g.classList.toggle("occupied", ch !== ".");
      }
      this.drawn.stones = stones;
    }
    const legalKey = state.legal.join(",") + "|" + state.to_move + "|" + state.humanToMove;
    if (legalKey !== this.drawn.legal) {
      const legal = new Set(state.humanToMove ? state.legal : []);
      for (const [v, c] of this.cells) c.g.classList.toggle("legal", legal.has(v));
      this.svg.classList.toggle("to-black", state.to_move === "black");
      this.svg.classList.toggle("to-white", state.to_move === "white");
      this.drawn.legal = legalKey;
    }
    if (state.last !== this.drawn.last) {
      const c = state.last && this.cells.get(state.last);
      if (c) {
        this.lastMark.setAttribute("cx", c.x);
        this.lastMark.setAttribute("cy", c.y);
        this.lastMark.setAttribute("visibility", "visible");
      } else {
        this.lastMark.setAttribute("visibility", "hidden");
      }
      this.drawn.last = state.last;
    }
    return true;
  }

  // The stones the last move captured, shown for a moment as they disappear.
  showCaptured(vertices, colour) {
    for (const v of vertices) {
      const c = this.cells.get(v);
      if (!c) continue;
      const g = el("circle", { class: `captured ${colour}`, cx: c.x, cy: c.y, r: 0.4 }, this.gMarks);
      setTimeout(() => g.remove(), 1400);
    }
  }

  // Analysis: candidate moves shaded by visits, with their win rates in percent.
  renderHeat(entries) {
    const key = entries ? JSON.stringify(entries.moves.map((m) => [m.move, m.visits, m.winrate])) : null;
    if (key === this.drawn.heat) return;
    this.drawn.heat = key;
    while (this.gHeat.firstChild) this.gHeat.removeChild(this.gHeat.firstChild);
    if (!entries) return;
    const max = entries.max_visits || 1;
    for (const m of entries.moves) {
      const c = this.cells.get(m.move);
      if (!c) continue;
      const share = (m.visits || 0) / max;
      const g = el("g", { class: "heat-cell", "data-heat": m.move }, this.gHeat);
      el("circle", {
        cx: c.x, cy: c.y, r: 0.16 + 0.26 * Math.sqrt(share),
        fill: rateColour(m.winrate), "fill-opacity": 0.35 + 0.5 * share,
        class: m.order === 0 ? "heat-dot best" : "heat-dot",
      }, g);
      if ((m.visits || 0) >= 10 || m.proof) {
        const label = heatLabel(m);
        // Longer labels ("99.96%") get a smaller font, to stay inside their cell.
        const size = Math.min(0.3, 0.86 / (0.6 * label.length));
        const t = el("text", { x: c.x, y: c.y, class: "heat-text", "text-anchor": "middle", "dominant-baseline": "central", style: `font-size: ${size.toFixed(3)}px` }, g);
        t.textContent = label;
      }
    }
  }

  // In a reviewed position before a mistake: the engine's better placement ringed green and dashed, the placement
  // played ringed red and solid, as Lichess draws its two arrows (none for null).
  renderBest(v, played) {
    const key = `${v}|${played}`;
    if (this.drawn.best === key) return;
    this.drawn.best = key;
    for (const m of [this.bestMark, this.playedMark]) if (m) m.remove();
    this.bestMark = this.playedMark = null;
    const p = played && this.cells.get(played);
    if (p && v) this.playedMark = el("circle", { class: "played-mark", cx: p.x, cy: p.y, r: 0.44, "data-played": played }, this.gMarks);
    const c = v && this.cells.get(v);
    if (c) this.bestMark = el("circle", { class: "best-mark", cx: c.x, cy: c.y, r: 0.44, "data-best": v }, this.gMarks);
  }

  // The principal variation of a candidate as numbered ghost stones.
  renderPv(pv) {
    const key = pv ? JSON.stringify(pv) : null;
    if (key === this.drawn.pv) return;
    this.drawn.pv = key;
    while (this.gPv.firstChild) this.gPv.removeChild(this.gPv.firstChild);
    // While a variation is shown, the heat map's numbers would clash with the ghost stones' numbers.
    this.svg.classList.toggle("pv-on", !!pv);
    if (!pv) return;
    const seen = new Set();
    pv.forEach(([colour, v], i) => {
      const c = this.cells.get(v);
      // A ghost never covers a real stone: a placement of the variation on a cell that holds one now (its stone
      // captured earlier in the variation) is left out, and the gap in the numbers shows it.
      if (!c || seen.has(v) || c.g.classList.contains("occupied")) return;
      seen.add(v);
      const black = colour.toLowerCase().startsWith("b");
      el("circle", { cx: c.x, cy: c.y, r: 0.4, class: `ghost ${black ? "black" : "white"}` }, this.gPv);
      const t = el("text", { x: c.x, y: c.y, class: `ghost-num ${black ? "on-black" : "on-white"}`, "text-anchor": "middle", "dominant-baseline": "central" }, this.gPv);
      t.textContent = i + 1;
    });
  }

  // The hint's cell, ringed on the board (null: none).
  renderHint(v) {
    if (v === this.drawn.hint) return;
    this.drawn.hint = v;
    while (this.gHint.firstChild) this.gHint.removeChild(this.gHint.firstChild);
    const c = v && this.cells.get(v);
    if (!c) return;
    el("circle", { class: "hint-mark", "data-hint": v, cx: c.x, cy: c.y, r: 0.44 }, this.gHint);
  }

  centre(v) {
    const c = this.cells.get(v);
    return c ? [c.x, c.y] : null;
  }
}
