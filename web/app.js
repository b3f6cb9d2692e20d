// The page: one state object from the server, drawn by the board module; actions are JSON POSTs, pushes come as
// server-sent events. The page decides nothing about the rules.
import { Board } from "./board.js";

const $ = (id) => document.getElementById(id);
const ui = {
  state: null,
  layoutBoard: null,
  notation: localStorage.getItem("oust-notation") || "gtp",
  hoverPv: null,
  clickAt: null,
  lastConsole: 0,
  lastCapturedKey: null,
  levels: null,
  mistakeAt: null,
  lineTimer: null,
  lineShown: false,
  zoom: localStorage.getItem("oust-zoom") === "on",
  // A refusal of the page's own (a record over the size limit, never sent).
  refusal: null,
  // The cell under the pointer (its GTP name), or null.
  pointer: null,
  // The review's position and explanation last brought into the panel's view, and what to bring into view after
  // this drawing (a selector), if anything.
  revealed: null,
  reveal: null,
  // Delete variation's question, while it is asked: what it would delete (deletionOf's key) and its timer.
  deleting: null,
};
// For tests and the curious: timings measured on the page.
window.__oust = { clicks: [], renders: 0, analysisUpdates: [] };

const board = new Board($("board"), onCellClick, onCellHover);

async function post(path, args = {}) {
  ui.refusal = null;
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { error: `the server answered ${r.status}` }; }
  if (r.ok) { await apply(body); return { ok: true, body }; }
  if (body.state) await apply(body.state);
  showMessage(body.error || `the server answered ${r.status}`, true);
  return { ok: false, body };
}

// A refusal shows in red; a notice (what a loaded record holds) does not.
function showMessage(text, error = false) {
  $("message").textContent = text || "";
  $("message").classList.toggle("error", !!error);
}

function humanToMove(s) {
  return !s.over && !s.review && s.players[s.to_move] === "human" && s.moves === s.total;
}

// Who plays a colour, as the status says it: "you" against the engine, the record's name under review.
function seat(s, c) {
  const humans = ["black", "white"].filter((k) => s.players[k] === "human").length;
  const name = s.names && s.names[c];
  if (s.review) return name || "unnamed";
  const level = s.strength.kind === "level" ? `, level ${s.strength.value}` : "";
  const who = s.players[c] === "engine" ? `engine${level}` : humans === 1 ? "you" : "human";
  return who + (name ? ` (${name} in the record)` : "");
}

async function onCellClick(v) {
  const s = ui.state;
  if (!s) return;
  if (s.over) { showMessage("the game is over", true); return; }
  if (!s.review && s.players[s.to_move] !== "human") { showMessage(`${s.to_move} is played by the engine`, true); return; }
  ui.clickAt = performance.now();
  const r = await post("/api/play", { move: v });
  const ms = performance.now() - ui.clickAt;
  window.__oust.clicks.push({ vertex: v, ok: r.ok, ms });
  ui.clickAt = null;
}

// The pointer over cell `v` (null: off the board). A finger's tap (`touch`) names the cell but previews no line:
// the line would stay on the board after the finger left.
function onCellHover(v, touch) {
  ui.pointer = v;
  drawCellName();
  const s = ui.state;
  const entries = s && s.analysis.entries;
  if (ui.lineShown) return;
  if (touch) { if (ui.hoverPv) { ui.hoverPv = null; board.renderPv(null); } return; }
  if (!v || !entries) { ui.hoverPv = null; board.renderPv(null); return; }
  const m = entries.moves.find((e) => e.move === v);
  ui.hoverPv = m && m.pv ? m.pv : null;
  board.renderPv(ui.hoverPv);
}

async function ensureLayout(s) {
  if (ui.layoutBoard === s.board) return;
  ui.layoutBoard = s.board;
  const r = await fetch("/api/layout");
  const layout = await r.json();
  if (layout.board !== s.board) { ui.layoutBoard = null; return; }
  board.setLayout(layout);
  ui.pointer = null;
  board.setNotation(ui.notation);
}

let applying = Promise.resolve();
function apply(s) {
  applying = applying.then(() => draw(s)).catch((e) => console.error(e));
  return applying;
}

function cap(c) { return c[0].toUpperCase() + c.slice(1); }

function name(v) {
  // A move's name in the chosen notation.
  if (ui.notation !== "ap" || !board.cells.has(v)) return v;
  return board.cells.get(v).ap;
}

async function draw(s) {
  if (ui.state && s.version < ui.state.version && s.board === ui.state.board) return;
  const previous = ui.state;
  ui.state = s;
  if (previous && previous.moves !== s.moves) stopLine();
  await ensureLayout(s);
  s.humanToMove = humanToMove(s);
  board.render(s);
  window.__oust.renders++;
  window.__oust.version = s.version;
  // Captured stones, shown briefly, once per move.
  const capKey = `${s.moves}:${s.captured.join(",")}`;
  if (previous && s.captured.length && capKey !== ui.lastCapturedKey && previous.moves < s.moves) {
    board.showCaptured(s.captured, s.captured_color);
  }
  ui.lastCapturedKey = capKey;
  let status = s.status;
  if (!s.over && s.engine.busy === "thinking") status += " (the engine is thinking…)";
  $("status").textContent = status;
  $("note").textContent = s.note;
  if (!ui.clickAt) showMessage(ui.refusal || s.refusal || s.notice || "", !!(ui.refusal || s.refusal));
  $("players").textContent = `Black: ${seat(s, "black")} · White: ${seat(s, "white")}` +
    (s.review ? " · open for review" : "") + (s.swapped ? " · seats swapped" : "") +
    (s.pie ? " · pie rule" : "") + ` · ${s.board}` + (s.source ? ` · ${s.source}` : "");
  $("play-on").hidden = !s.review;
  drawLevelResult(s);
  $("engine-name").textContent = `engine: ${s.engine.name}` + (s.engine.busy ? ` (${s.engine.busy})` : "");
  // Buttons.
  const both = s.players.black === "engine" && s.players.white === "engine";
  $("watch").hidden = !both;
  document.querySelector('[data-action="pause"]').textContent = s.paused ? "Resume" : "Pause";
  if (document.activeElement !== $("pace")) $("pace").value = s.pace_ms;
  // Swap keeps its place when it goes (visibility, not display), so that no other button moves under the pointer.
  document.querySelector('[data-action="swap"]').classList.toggle("gone", !(s.swap && humanToMove(s)));
  document.querySelector('[data-action="stop"]').hidden = s.engine.busy !== "thinking";
  // Fault banner.
  $("banner").hidden = !s.engine.fault;
  $("fault-text").textContent = s.engine.fault ? `The engine stopped working: ${s.engine.fault}` : "";
  drawMoves(s);
  // Delete variation's question is of the variation it was asked of, as it was.
  if (ui.deleting && ui.deleting.key !== deletionOf(s).key) endDeleteQuestion();
  drawAnalysis(s);
  drawPlayerView(s);
  if (s.console_last !== ui.lastConsole) refreshConsole();
}

// After a game against a level: the result, and the next level to try after two wins or two losses in a row.
function drawLevelResult(s) {
  const r = s.level_result;
  $("level-result").hidden = !r;
  if (!r) return;
  $("level-result-text").textContent = r.text;
  const next = $("next-level");
  next.hidden = r.suggest == null;
  if (r.suggest != null) {
    const l = levelOf(r.suggest);
    next.textContent = `Play level ${r.suggest}` + (l ? ` (${l.words})` : "");
    next.title = levelElo(r.suggest, s.board);
    next.dataset.level = r.suggest;
  }
}

// A level as the server reports it: what it is like, and its Elo on each board family.
function levelOf(n) {
  return ui.levels && ui.levels.levels.find((x) => x.level === Number(n));
}

// "about N Elo above random" for a level on this board's family, from the calibration the server reports: the
// tooltip of the words that say what the level is like.
function levelElo(n, boardName) {
  const l = levelOf(n);
  if (!l) return "";
  const elo = /^hex/.test(boardName) ? l.elo.hex : l.elo.square;
  return `about ${elo.toLocaleString("en-US")} Elo above the random player (measured between engines, not people)`;
}

function drawMoves(s) {
  const ol = $("moves");
  const items = [{ label: "start", moves: 0, color: "", branches: [] }].concat(s.turns.map((t) => ({
    label: ui.notation === "ap" ? t.ap : t.gtp, moves: t.moves, color: t.color, branches: t.branches || [],
  })));
  // A reviewed turn is marked by its worst placement: ?! an inaccuracy, ? a mistake, ?? a blunder.
  const rank = { inaccuracy: 1, mistake: 2, blunder: 3 };
  const worst = new Map();
  const r = s.analysis.review;
  for (const p of judged(r && r.done === r.total ? r : null)) {
    const t = turnOf(s, p.k);
    if (t && (!worst.has(t.n) || rank[p.class] > rank[worst.get(t.n).class])) worst.set(t.n, p);
  }
  const key = JSON.stringify(items) + s.moves + JSON.stringify([...worst]) + ui.notation;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  // The current entry: the last one whose position has been reached (a jump may stop inside a turn).
  let current = 0;
  items.forEach((it, i) => { if (it.moves <= s.moves) current = i; });
  ol.replaceChildren(...items.flatMap((it, i) => {
    const li = document.createElement("li");
    li.textContent = it.label;
    li.value = i;
    li.className = it.color;
    li.dataset.moves = it.moves;
    if (i === current) li.classList.add("current");
    if (it.moves > s.moves) li.classList.add("future");
    const w = worst.get(i);
    if (w) {
      li.classList.add(`judged-${w.class}`);
      li.dataset.judged = w.class;
      li.dataset.judgement = `${cap(w.color)} ${lossWords(w)}`;
      li.title = li.dataset.judgement;
    }
    li.addEventListener("click", () => post("/api/jump", { moves: it.moves }));
    return it.branches.length ? [li, branchRow(it.branches)] : [li];
  }));
  drawVariationBar(s);
  // The thinking times first: one can make the last entry wrap onto a second line, which the scroll must show too.
  drawMoveTimes(s);
  const cur = ol.querySelector(".current");
  if (cur) scrollListTo(ol, cur);
}

// The other moves tried where a turn's placements were played: one button each, to go into that line.
function branchRow(branches) {
  const li = document.createElement("li");
  li.className = "branches";
  li.dataset.role = "branches";
  li.append("or ");
  for (const b of branches) {
    const button = document.createElement("button");
    const label = ui.notation === "ap" ? b.ap : b.gtp;
    button.textContent = label + (b.main ? " (main line)" : "");
    button.dataset.node = b.node;
    button.title = `Go to the ${b.main ? "main line" : "variation"} that plays ${label} at placement ${b.at}`;
    button.addEventListener("click", (ev) => { ev.stopPropagation(); post("/api/goto", { node: b.node }); });
    li.append(button);
  }
  return li;
}

// Where the line shown leaves the main line, with the buttons that promote or delete it.
function drawVariationBar(s) {
  const v = s.variation;
  $("variation-bar").hidden = !v;
  if (!v) return;
  const inner = v.innermost !== v.from ? `; its innermost variation starts at placement ${v.innermost}` : "";
  $("variation-text").textContent = `A variation: this line leaves the main line at placement ${v.from}${inner}.`;
  document.querySelector('[data-action="delete-variation"]').title =
    `Delete the variation from placement ${v.innermost} on, with every line that goes on from it (asks first)`;
}

// Delete variation loses moves: its first click asks, in the button itself (no dialog), how many it would delete; a
// second click within DELETE_ASK_MS deletes them; anything else (a click elsewhere, a key, the variation changing)
// or the time running out leaves everything as it was.
const DELETE_ASK_MS = 5000;
// What Delete variation would delete, as the state says: the placements of the line shown from the innermost
// variation's first one on, and the other lines that branch off them.
function deletionOf(s) {
  const v = s && s.variation;
  if (!v) return { key: null };
  const moves = s.total - v.innermost + 1;
  const lines = s.turns.flatMap((t) => t.branches || []).filter((b) => b.at > v.innermost).length;
  return { moves, lines, key: `${v.innermost}|${s.total}|${lines}|${JSON.stringify(s.turns.map((t) => t.gtp))}` };
}
function askDeleteVariation() {
  const button = document.querySelector('[data-action="delete-variation"]');
  if (ui.deleting) { endDeleteQuestion(); post("/api/variation", { action: "delete" }); return; }
  const d = deletionOf(ui.state);
  // On the main line the server says why there is nothing to delete.
  if (!d.key) { post("/api/variation", { action: "delete" }); return; }
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const others = d.lines ? ` and ${plural(d.lines, "other line")} from them` : "";
  ui.deleting = { key: d.key, timer: setTimeout(endDeleteQuestion, DELETE_ASK_MS) };
  button.classList.add("confirming");
  button.textContent = `Delete ${plural(d.moves, "move")}${others}? Click again`;
}
function endDeleteQuestion() {
  if (!ui.deleting) return;
  clearTimeout(ui.deleting.timer);
  ui.deleting = null;
  const button = document.querySelector('[data-action="delete-variation"]');
  button.classList.remove("confirming");
  button.textContent = "Delete variation";
}
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, (ev) => {
    if (!ui.deleting) return;
    // The button's own press (a click, or Enter or Space on it) answers the question; anything else drops it.
    const own = ev.target.closest && ev.target.closest('[data-action="delete-variation"]');
    if (!(own && (ev.type === "pointerdown" || ev.key === "Enter" || ev.key === " "))) endDeleteQuestion();
  }, true);
}

// Scrolls the move list, and nothing else, so that `li` shows: scrollIntoView would scroll the page too, and on a
// phone, where the list is below the board, take the board off the screen at every move.
// The box is the list's visible inside (clientHeight): a horizontal scrollbar would cover the last entry.
function scrollListTo(ol, li) {
  const box = ol.getBoundingClientRect(), r = li.getBoundingClientRect();
  const top = box.top + ol.clientTop, bottom = top + ol.clientHeight;
  if (r.top < top) ol.scrollTop -= top - r.top;
  else if (r.bottom > bottom) ol.scrollTop += r.bottom - bottom;
}

function pct(w) { return `${(w * 100).toFixed(1)}%`; }

function drawAnalysis(s) {
  const a = s.analysis;
  $("analysis").checked = a.on;
  if (document.activeElement !== $("analysis-visits")) $("analysis-visits").value = a.max_visits;
  const entries = a.on ? a.entries : null;
  board.renderHeat(entries);
  if (!entries && !ui.lineShown) board.renderPv(null);
  const bar = $("winbar");
  bar.hidden = !entries || entries.black == null;
  let text = "";
  if (entries && entries.black != null) {
    $("winbar-black").style.width = pct(entries.black);
    $("winbar-text").textContent = `Black ${pct(entries.black)} · White ${pct(1 - entries.black)}`;
    const best = entries.moves[0];
    text = `best ${name(best.move)}: ${cap(entries.to_move)} ${pct(best.winrate)}, ${best.visits} visits`;
    const dist = entries.distance != null ? ` in ${entries.distance}` : "";
    if (best.proof === "win") text = `${cap(entries.to_move)}: proven win${dist} (${name(best.move)})`;
    if (best.proof === "loss") text = `${cap(entries.to_move)}: proven loss` + (entries.distance != null ? ` (the longest defence lasts ${entries.distance} moves)` : "");
    if (best.proof === "draw") text = `proven: no winner`;
    if (entries.capped) text += ` · stopped at ${entries.visits.toLocaleString("en-US")} visits (the cap: ${entries.capped.toLocaleString("en-US")})`;
    const now = performance.now();
    const u = window.__oust.analysisUpdates;
    if (!u.length || u[u.length - 1].n !== a.updates) u.push({ n: a.updates, t: now });
    if (u.length > 200) u.splice(0, u.length - 200);
  } else if (a.on) {
    text = s.over ? "nothing to analyse: the game is over" : (s.engine.analyze ? "analysing…" : "this engine has no oust-analyze");
  }
  if (a.hint && a.hint.moves === s.moves && a.hint.best && a.hint.best.move) {
    text += (text ? " · " : "") + `Hint: ${name(a.hint.best.move)}` + (a.hint.best.winrate != null ? ` (${pct(a.hint.best.winrate)})` : "");
  }
  $("analysis-text").textContent = text;
  drawReview(s);
}

// The turn of the move list that holds placement k (0 for the first), with its number and label.
function turnOf(s, k) {
  const i = s.turns.findIndex((t) => t.moves > k);
  if (i < 0) return null;
  const t = s.turns[i];
  const label = ui.notation === "ap" ? t.ap : t.gtp;
  const start = i > 0 ? s.turns[i - 1].moves : 0;
  return { n: i + 1, label, color: t.color, placement: label.split(",")[k - start] || label, vertex: t.gtp.split(",")[k - start] };
}

const CLASS_NAMES = { inaccuracy: "an inaccuracy", mistake: "a mistake", blunder: "a blunder" };
// What a judged placement lost, said the same way everywhere (the explanation, the move list, the graph): the loss
// with the error that sets its class, or "by proof".
function lossWords(p) {
  const lost = p.proof ? `${p.loss} points by proof` : p.error ? `${p.loss} ± ${p.error} points` : `${p.loss} points`;
  return `lost ${lost}, ${p.proof && p.class ? "a proven " + p.class : CLASS_NAMES[p.class]}`;
}

// The placements a finished review judged worse than an inaccuracy's threshold, in order.
function judged(r) {
  return r && r.placements ? r.placements.filter((p) => p.class) : [];
}
// What "next mistake" and "previous mistake" visit: the mistakes and the blunders.
function mistakes(r) {
  return judged(r).filter((p) => p.class === "mistake" || p.class === "blunder");
}

function drawReview(s) {
  const r = s.analysis.review;
  $("review-progress").hidden = !r || r.done === r.total;
  const g = $("graph");
  g.toggleAttribute("hidden", !r);
  $("graph-caption").hidden = !r || r.done < r.total;
  drawReviewSummary(s);
  if (!r) { g.replaceChildren(); g.dataset.key = ""; g.onclick = null; return; }
  $("review-bar").value = r.done / r.total;
  $("review-text").textContent = `${r.done} of ${r.total} positions` + (r.eta_s != null && r.done < r.total ? `, about ${r.eta_s} s left` : "");
  const W = g.clientWidth || 300, H = 150, left = 34, right = 8, top = 8, bottom = 22;
  const n = r.rates.length;
  const X = (i) => left + (W - left - right) * (n > 1 ? i / (n - 1) : 0);
  const Y = (w) => top + (H - top - bottom) * (1 - w);
  const key = JSON.stringify(r.rates) + JSON.stringify(r.placements || null) + W + s.moves + ui.notation;
  if (g.dataset.key === key) return;
  g.dataset.key = key;
  g.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const parts = [];
  // Axes: 0, 50% and 100% of Black's chance; the turns as the move list numbers them.
  for (const [w, label] of [[0, "0"], [0.5, "50%"], [1, "100%"]]) {
    parts.push(`<line class="${w === 0.5 ? "half" : "tick"}" x1="${left}" x2="${W - right}" y1="${Y(w)}" y2="${Y(w)}"/>`);
    parts.push(`<text class="axis" data-axis="y" x="${left - 4}" y="${Y(w) + 3}" text-anchor="end">${label}</text>`);
  }
  const turns = s.turns.length;
  const every = Math.max(1, Math.ceil(turns / Math.max(1, Math.floor((W - left - right) / 28))));
  for (let i = 0; i < turns; i++) {
    const t = i + 1;
    if (t % every !== 0 && t !== 1) continue;
    // A turn ends at the position after its last placement.
    const x = X(Math.min(n - 1, s.turns[i].moves));
    parts.push(`<line class="tick" x1="${x}" x2="${x}" y1="${H - bottom}" y2="${H - bottom + 3}"/>`);
    parts.push(`<text class="axis" data-axis="x" x="${x}" y="${H - 6}" text-anchor="middle">${t}</text>`);
  }
  const pts = r.rates.map((w, i) => (w == null ? null : `${X(i).toFixed(1)},${Y(w).toFixed(1)}`)).filter(Boolean);
  parts.push(`<polyline class="line" points="${pts.join(" ")}"/>`);
  // Each judged placement at the position it led to, in the colour of the side that played it.
  for (const p of judged(r)) {
    const w = r.rates[p.k + 1];
    if (w == null) continue;
    const t = turnOf(s, p.k);
    const title = `${t ? `${t.n}. ${t.label}` : `placement ${p.k + 1}`} (${cap(p.color)}): ${lossWords(p)}`;
    const radius = p.class === "blunder" ? 5 : p.class === "mistake" ? 4 : 3;
    parts.push(`<circle class="mark ${p.color} ${p.class}" data-mark="${p.k}" data-class="${p.class}" data-color="${p.color}" cx="${X(p.k + 1).toFixed(1)}" cy="${Y(w).toFixed(1)}" r="${radius}"><title>${title}</title></circle>`);
  }
  parts.push(`<line class="cursor" x1="${X(s.moves)}" x2="${X(s.moves)}" y1="${top}" y2="${H - bottom}"/>`);
  g.innerHTML = parts.join("");
  g.onclick = (ev) => {
    const rect = g.getBoundingClientRect();
    const i = Math.round(((ev.clientX - rect.left) / rect.width * W - left) / (W - left - right) * (n - 1));
    post("/api/jump", { moves: Math.max(0, Math.min(n - 1, i)) });
  };
}

// Each side's inaccuracies, mistakes, blunders and average loss; the mistake shown, with the engine's placement.
function drawReviewSummary(s) {
  const r = s.analysis.review;
  const done = r && r.placements && r.done === r.total;
  $("review-summary").hidden = !done;
  $("mistake-nav").hidden = !done;
  if (!done) { $("mistake-text").textContent = ""; board.renderBest(null); return; }
  const row = (c) => {
    const x = r.summary[c];
    return `<tr data-side="${c}"><td>${cap(c)}</td><td>${x.inaccuracies}</td><td>${x.mistakes}</td><td>${x.blunders}</td><td>${x.average_loss.toFixed(1)}</td></tr>`;
  };
  const t = r.thresholds;
  const html = `<table><tr><th></th><th title="inaccuracies: lost ${t.inaccuracy} to ${t.mistake} points of winning chance">?!</th>` +
    `<th title="mistakes: lost ${t.mistake} to ${t.blunder} points">?</th><th title="blunders: lost ${t.blunder} points or more">??</th>` +
    `<th title="winning chance lost a placement, in points of percentage">avg loss</th></tr>${row("black")}${row("white")}</table>` +
    `<div class="caption">?! inaccuracy, ? mistake, ?? blunder: a placement that lost at least ${t.inaccuracy}, ${t.mistake} or ${t.blunder} points of its side's winning chance</div>`;
  if ($("review-summary").dataset.html !== html) { $("review-summary").innerHTML = html; $("review-summary").dataset.html = html; }
  // At the position before a judged placement: what was played, what it cost, and the engine's better placement.
  const here = judged(r).find((p) => p.k === s.moves);
  const pv = r.pv && r.pv[s.moves];
  const best = pv && pv.length ? pv[0][1] : null;
  let text = "";
  if (here) {
    const turn = turnOf(s, here.k);
    const before = r.rates[here.k], after = r.rates[here.k + 1];
    const own = (w) => (here.color === "black" ? w : 1 - w);
    text = `${turn ? `${turn.n}. ${turn.label}` : `Placement ${here.k + 1}`}: ${cap(here.color)}${turn ? ` played ${turn.placement} and` : ""} ${lossWords(here)} ` +
      `(${cap(here.color)}'s chance ${pct(own(before))} → ${pct(own(after))}).` + (best ? ` The engine prefers ${name(best)}.` : "") +
      (here.uncertain ? " Its loss alone would make it worse, but the searches disagree too much to say so." : "");
  }
  $("mistake-text").textContent = text;
  // A review finished, or another mistake shown: its explanation and the buttons to the others are brought into
  // the panel's view (the panel scrolls, not the page), once, so that the user's own scrolling is left alone.
  // (drawPlayerView does it, once everything above them is drawn.)
  const revealKey = `${s.moves}|${text}`;
  if (ui.revealed !== revealKey) {
    ui.revealed = revealKey;
    ui.reveal = text ? "#mistake-text" : "#mistake-nav";
  }
  const playedHere = here ? turnOf(s, here.k) : null;
  board.renderBest(here && best ? best : null, playedHere ? playedHere.vertex : null);
  $("play-line").hidden = !(here && pv && pv.length);
}

// Scrolls the side panel, on a wide screen where it scrolls by itself, so that the elements from `first` to `last`
// show (as much of them as fits, from `first` down) below whose turn it is, which stays at the panel's top.
function revealInPanel(first, last) {
  const aside = document.querySelector("aside");
  if (narrow.matches || aside.scrollHeight <= aside.clientHeight) return;
  const box = aside.getBoundingClientRect();
  const boxTop = Math.max(box.top, $("turn-box").getBoundingClientRect().bottom);
  const top = first.getBoundingClientRect().top, bottom = last.getBoundingClientRect().bottom;
  if (bottom > box.bottom) aside.scrollTop += Math.min(bottom - box.bottom, Math.max(0, top - boxTop));
  else if (top < boxTop) aside.scrollTop -= boxTop - top;
}
// A line under whose turn it is once the panel has scrolled under it; and what is scrolled into the panel's view
// (a focused field, say) is scrolled below it, not under it.
document.querySelector("aside").addEventListener("scroll", (ev) => {
  ev.currentTarget.classList.toggle("scrolled", ev.currentTarget.scrollTop > 0);
}, { passive: true });
new ResizeObserver(() => {
  document.querySelector("aside").style.scrollPaddingTop = `${$("turn-box").offsetHeight}px`;
}).observe($("turn-box"));

function gotoMistake(dir) {
  const s = ui.state;
  const list = mistakes(s && s.analysis.review);
  if (!list.length) { showMessage("the review found no mistake or blunder"); return; }
  const p = s.moves;
  // Forward: the mistake of this very position first, unless it is the one shown; then the next one.
  // At the end of the game (where a review leaves the page), forward starts again at the first mistake.
  const target = dir > 0 ? list.find((m) => m.k === p && ui.mistakeAt !== p) || list.find((m) => m.k > p) || (p >= s.total ? list[0] : null)
    : [...list].reverse().find((m) => m.k < p);
  if (!target) { showMessage(dir > 0 ? "no mistake after this position" : "no mistake before this position"); return; }
  ui.mistakeAt = target.k;
  stopLine();
  post("/api/jump", { moves: target.k });
}

// The engine's line from the position shown, played out one ghost stone at a time.
function playLine() {
  const s = ui.state;
  const pv = s && s.analysis.review && s.analysis.review.pv[s.moves];
  if (!pv || !pv.length) return;
  stopLine();
  let i = 0;
  ui.lineShown = true;
  const step = () => {
    i += 1;
    board.renderPv(pv.slice(0, i));
    if (i >= pv.length) clearInterval(ui.lineTimer);
  };
  step();
  ui.lineTimer = setInterval(step, 600);
}
function stopLine() {
  if (ui.lineTimer) clearInterval(ui.lineTimer);
  ui.lineTimer = null;
  if (ui.lineShown) { ui.lineShown = false; board.renderPv(null); }
}

async function refreshConsole() {
  const r = await fetch("/api/console");
  const body = await r.json();
  const pre = $("console");
  pre.replaceChildren(...body.lines.map((l) => {
    const span = document.createElement("span");
    span.className = l.dir === ">" ? "cmd" : l.dir === "?" ? "err" : l.dir === "!" ? "note" : "";
    span.textContent = (l.dir === ">" ? "> " : l.dir === "!" ? "! " : `${l.dir} `) + l.text + "\n";
    return span;
  }));
  ui.lastConsole = body.lines.length ? body.lines[body.lines.length - 1].n : 0;
  pre.scrollTop = pre.scrollHeight;
}

// Records: file picker, drag and drop, paste.
async function loadText(text, name) {
  // The server's notice says what was loaded, and what was left out.
  if (overLimit(new Blob([JSON.stringify({ text, name })]).size)) return;
  await post("/api/load", { text, name });
}
// A record over the server's limit on a request is refused here, before it is sent, in the server's words (a file
// before it is even read).
function overLimit(bytes) {
  const max = ui.state && ui.state.max_request_bytes;
  if (!max || bytes <= max) return false;
  const mib = (n) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  // Kept on the page until the next action, as the server keeps its refusals.
  ui.refusal = `the record is over the limit: it is ${mib(bytes)} (${bytes} bytes), and oust gui takes at most ${mib(max)} (${max} bytes) a request`;
  showMessage(ui.refusal, true);
  return true;
}
async function loadFile(f) {
  if (!overLimit(f.size)) await loadText(await f.text(), f.name);
}
$("file").addEventListener("change", async (ev) => {
  const f = ev.target.files[0];
  if (f) await loadFile(f);
  ev.target.value = "";
});
for (const target of [$("drop"), document.body]) {
  target.addEventListener("dragover", (ev) => { ev.preventDefault(); $("drop").classList.add("over"); });
  target.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  target.addEventListener("drop", async (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    $("drop").classList.remove("over");
    const f = ev.dataTransfer.files[0];
    if (f) await loadFile(f);
    else { const t = ev.dataTransfer.getData("text"); if (t) await loadText(t, "the dropped text"); }
  });
}

// Buttons.
const actions = {
  "new": () => openNewDialog(),
  "undo-turn": () => post("/api/undo", { unit: "turn" }),
  "undo-move": () => post("/api/undo", { unit: "move" }),
  "redo-move": () => post("/api/redo", { unit: "move" }),
  "redo-turn": () => post("/api/redo", { unit: "turn" }),
  "swap": () => post("/api/play", { move: "swap" }),
  "resign": () => askResign(),
  "engine-move": () => askEngineMove(),
  "stop": () => post("/api/stop"),
  "pause": () => post("/api/pause", { paused: !ui.state.paused }),
  "step": () => post("/api/step"),
  "hint": () => post("/api/hint"),
  "review": () => {
    const n = $("review-playouts").value;
    return post("/api/review", n === "" ? {} : { playouts: Number(n) });
  },
  "restart": () => post("/api/restart"),
  "load-paste": () => loadText($("paste").value, "the pasted record"),
  "prev-mistake": () => gotoMistake(-1),
  "next-mistake": () => gotoMistake(1),
  "play-line": () => playLine(),
  "promote-line": () => post("/api/variation", { action: "promote" }),
  "delete-variation": () => askDeleteVariation(),
  "next-level": () => post("/api/new", { level: Number($("next-level").dataset.level) }),
};
document.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-action]");
  if (b && actions[b.dataset.action]) actions[b.dataset.action]();
  const p = ev.target.closest("[data-play-on]");
  if (p) { const [black, white] = p.dataset.playOn.split(","); post("/api/players", { black, white }); }
});

// Resign asks first. It resigns for the human: the one human against the engine, the side to move between two.
function askResign() {
  const s = ui.state;
  if (!s) return;
  const humans = ["black", "white"].filter((c) => s.players[c] === "human");
  if (s.over || s.review || humans.length === 0) { post("/api/resign"); return; }
  const c = humans.length === 1 ? humans[0] : s.to_move;
  const other = c === "black" ? "white" : "black";
  $("resign-text").textContent = `Resign as ${cap(c)}${humans.length === 1 ? " (you)" : ""}? ${cap(other)} wins.`;
  $("resign-dialog").showModal();
}
$("resign-dialog").addEventListener("close", () => {
  if ($("resign-dialog").returnValue === "resign") post("/api/resign");
  $("resign-dialog").returnValue = "";
});
$("pace").addEventListener("change", () => post("/api/pace", { ms: Number($("pace").value) }));
$("analysis").addEventListener("change", () => post("/api/analysis", { on: $("analysis").checked }));
$("analysis-visits").addEventListener("change", () => post("/api/analysis", { max_visits: Number($("analysis-visits").value) }));
$("notation").checked = ui.notation === "ap";
$("notation").addEventListener("change", () => {
  ui.notation = $("notation").checked ? "ap" : "gtp";
  localStorage.setItem("oust-notation", ui.notation);
  board.setNotation(ui.notation);
  // Everything that names a cell: the move list (with its thinking times), the analysis and the review, the last
  // turn, the cell under the pointer.
  if (ui.state) { $("moves").dataset.key = ""; drawMoves(ui.state); drawAnalysis(ui.state); drawPlayerView(ui.state); }
});
$("console-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const line = $("console-line").value.trim();
  if (line) post("/api/console", { line });
  $("console-line").value = "";
});
$("console").parentElement.addEventListener("toggle", () => refreshConsole());

// The name of the cell under the pointer ("J9", or Abstract Play's), so that a hint's or a line's cell is found
// without counting along the slants of a hexhex board. It shows beside the cell, where the eye is: above it and to
// the right of its middle (below it at the top of the board area, to the left at its right end), inside the board
// area, and never over the cell itself. A tap names the cell tapped the same way.
function drawCellName() {
  const label = $("cell-name");
  label.textContent = ui.pointer ? name(ui.pointer) : "";
  const c = ui.pointer && board.cells.get(ui.pointer);
  if (c) placeBeside(label, c.g.getBoundingClientRect());
}
function placeBeside(label, cell) {
  const area = $("board-area");
  const box = area.getBoundingClientRect();
  // The label's place is in the area's content, which scrolls sideways on a zoomed phone.
  const ox = box.left + area.clientLeft - area.scrollLeft, oy = box.top + area.clientTop - area.scrollTop;
  const w = label.offsetWidth, h = label.offsetHeight, gap = 4;
  const minX = area.scrollLeft + gap, maxX = Math.max(minX, area.scrollLeft + area.clientWidth - w - gap);
  const minY = area.scrollTop + gap, maxY = Math.max(minY, area.scrollTop + area.clientHeight - h - gap);
  const mid = (cell.left + cell.right) / 2 - ox;
  let x = mid + gap;
  if (x > maxX) x = mid - gap - w;
  let y = cell.top - oy - gap - h;
  if (y < minY) y = cell.bottom - oy + gap;
  label.style.left = `${Math.round(Math.min(maxX, Math.max(minX, x)))}px`;
  label.style.top = `${Math.round(Math.min(maxY, Math.max(minY, y)))}px`;
}

// The rest of what a player sees, drawn after the board, the move list and the analysis.
function drawPlayerView(s) {
  drawCellName();
  drawTally(s);
  drawMoveTimes(s);
  board.renderHint(hintMove(s));
  $("heat-legend").hidden = !(s.analysis.on && s.analysis.entries);
  drawEngineMoveButton(s);
  drawWatch(s);
  fitBoard();
  if (ui.reveal) {
    revealInPanel($("mistake-nav"), document.querySelector(ui.reveal));
    ui.reveal = null;
  }
}

function drawTally(s) {
  for (const c of ["black", "white"]) {
    document.querySelector(`[data-tally="${c}-stones"]`).textContent = s[`stones_${c}`];
    document.querySelector(`[data-tally="${c}-captured"]`).textContent = s.captures[c];
  }
  $("last-turn").textContent = lastTurnText(s.last_turn);
}

// "White's last turn: D4 captured 3, extra turn · E5 captured 1, extra turn · F6": it stays until the next turn
// starts, so that an engine's captures and extra turns can be read after it has moved.
function lastTurnText(t) {
  if (!t) return "";
  const parts = t.placements.map((p) => {
    const where = p.gtp === "swap" ? "swap" : name(p.gtp);
    if (p.captured && p.ends) return `${where} captured ${p.captured} and won`;
    return p.captured ? `${where} captured ${p.captured}, extra turn` : where;
  });
  if (t.passed) parts.push(parts.length ? "then no legal placement: passed (forced)" : "no legal placement: passed (forced)");
  if (t.goes_on) parts.push("places again…");
  // A player who resigns in the middle of a turn (after a capture) places no more.
  if (t.resigned && parts.length) parts.push("then resigned");
  return `${cap(t.color)}'s last turn: ${parts.join(" · ")}`;
}

// The engine's thinking time of each of its turns, after the turn in the move list (the whole text on hover).
function secondsText(t) { return `${t < 10 ? t.toFixed(1) : Math.round(t)} s`; }
function drawMoveTimes(s) {
  const byMoves = new Map(s.turns.filter((t) => t.seconds != null).map((t) => [String(t.moves), t.seconds]));
  for (const li of $("moves").querySelectorAll("li[data-moves]")) {
    const t = byMoves.get(li.dataset.moves);
    let span = li.querySelector(".think");
    // A judged turn says its judgement first, then the thinking time.
    const judgement = li.dataset.judgement ? `${li.dataset.judgement}; ` : "";
    if (t == null) {
      if (span) span.remove();
      if (judgement) li.title = li.dataset.judgement; else li.removeAttribute("title");
      continue;
    }
    if (!span) { span = document.createElement("span"); span.className = "think"; li.append(span); }
    span.textContent = ` ${secondsText(t)}`;
    li.title = `${judgement}the engine thought ${secondsText(t)} for this turn`;
  }
}

function hintMove(s) {
  const h = s.analysis.hint;
  return h && h.moves === s.moves && h.best && h.best.move ? h.best.move : null;
}

// Engine move hands the seat of the side to move to the engine: its title says so, and it asks first when a
// human (or nobody, in a loaded record) held that seat.
function engineMoveHandsOver(s) {
  return s.review || s.players[s.to_move] !== "engine";
}
function drawEngineMoveButton(s) {
  const c = cap(s.to_move);
  document.querySelector('[data-action="engine-move"]').title = engineMoveHandsOver(s)
    ? `${c} will be played by the engine from now on: it moves at once from this position`
    : `The engine (${c}) moves now`;
}
function askEngineMove() {
  const s = ui.state;
  if (!s || !engineMoveHandsOver(s) || s.over) { post("/api/engine-move"); return; }
  const c = cap(s.to_move);
  $("engine-text").textContent = `${c} will be played by the engine from now on: it moves at once from this position.`;
  $("engine-ok").textContent = `Engine plays ${c}`;
  $("engine-dialog").showModal();
}
$("engine-dialog").addEventListener("close", () => {
  if ($("engine-dialog").returnValue === "ok") post("/api/engine-move");
  $("engine-dialog").returnValue = "";
});

// Engine against engine: the pace slider's value, and a paused game says so in its status.
function paceText(ms) { return ms === 0 ? "no wait" : `${(ms / 1000).toFixed(1)} s`; }
function drawWatch(s) {
  $("pace-value").textContent = paceText(Number($("pace").value));
  const watching = s.players.black === "engine" && s.players.white === "engine";
  if (watching && s.paused && !s.over) $("status").textContent += " (paused: Resume or Step goes on)";
}
$("pace").addEventListener("input", () => { $("pace-value").textContent = paceText(Number($("pace").value)); });

// Phones: the board takes the width; when its cells come out smaller than a fingertip (32 CSS px), Zoom in makes
// them 40 px, and the board area scrolls sideways (drag it) to reach the rest. The choice is kept.
const TAP_PX = 32;
const ZOOM_PX = 40;
const narrow = window.matchMedia("(max-width: 760px)");
function fitBoard() {
  const svg = $("board");
  const vb = svg.viewBox && svg.viewBox.baseVal;
  if (!vb || !vb.width) return;
  const zoomed = narrow.matches && ui.zoom;
  const area = $("board-area");
  const was = area.classList.contains("zoomed");
  area.classList.toggle("zoomed", zoomed);
  svg.style.width = zoomed ? `${Math.ceil(vb.width * ZOOM_PX)}px` : "";
  if (zoomed && !was) area.scrollLeft = (area.scrollWidth - area.clientWidth) / 2;
  const r = svg.getBoundingClientRect();
  const cell = Math.min(r.width / vb.width, r.height / vb.height);
  $("zoom").hidden = !narrow.matches || (!zoomed && cell >= TAP_PX);
  $("zoom").textContent = zoomed ? "Fit the screen" : "Zoom in";
}
actions.zoom = () => {
  ui.zoom = !ui.zoom;
  localStorage.setItem("oust-zoom", ui.zoom ? "on" : "off");
  fitBoard();
};
narrow.addEventListener("change", fitBoard);
window.addEventListener("resize", fitBoard);

// The keyboard, as Lichess and Sabaki have it. One table, which the help overlay (`?`) lists: to add a key, add
// an entry. `keys` are KeyboardEvent.key values, `label` how the overlay writes them, `what` what they do, `run`
// the action. An entry without `run` is bound elsewhere (← and → in the listener above) and only listed here.
const shortcuts = [
  { keys: ["ArrowLeft"], label: "←", what: "back one placement", run: () => post("/api/undo", { unit: "move" }) },
  { keys: ["ArrowRight"], label: "→", what: "forward one placement", run: () => post("/api/redo", { unit: "move" }) },
  { keys: ["ArrowUp", "PageUp"], label: "↑ or PgUp", what: "back one turn", run: () => post("/api/undo", { unit: "turn" }) },
  { keys: ["ArrowDown", "PageDown"], label: "↓ or PgDn", what: "forward one turn", run: () => post("/api/redo", { unit: "turn" }) },
  { keys: ["Home"], label: "Home", what: "the start of the game", run: () => post("/api/jump", { moves: 0 }) },
  { keys: ["End"], label: "End", what: "the end of the line shown (its moves after the position shown included)", run: () => post("/api/jump", { moves: ui.state.total }) },
  { keys: ["h"], label: "h", what: "hint: the engine's best placement, marked on the board", run: () => post("/api/hint") },
  { keys: ["a"], label: "a", what: "live analysis on or off", run: () => post("/api/analysis", {}) },
  { keys: ["n"], label: "n", what: "next mistake (after Analyse game): the position before it, the engine's placement ringed", run: () => gotoMistake(1) },
  { keys: ["p"], label: "p", what: "previous mistake", run: () => gotoMistake(-1) },
  { keys: ["?"], label: "?", what: "this list", run: () => toggleHelp() },
];
function toggleHelp() {
  const d = $("help-dialog");
  if (d.open) { d.close(); return; }
  $("help-keys").replaceChildren(...shortcuts.map((k) => {
    const tr = document.createElement("tr");
    const key = document.createElement("th");
    key.append(...k.label.split(/( or | \/ )/).map((part) => {
      if (part === " or " || part === " / ") return document.createTextNode(part);
      const kbd = document.createElement("kbd");
      kbd.textContent = part;
      return kbd;
    }));
    const what = document.createElement("td");
    what.textContent = k.what;
    tr.append(key, what);
    return tr;
  }));
  d.showModal();
}
actions.help = () => toggleHelp();
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !ui.state) return;
  if (ev.target.closest && ev.target.closest("input:not([type=checkbox]), textarea, select")) return;
  const open = document.querySelector("dialog[open]");
  if (open && !(open.id === "help-dialog" && ev.key === "?")) return;
  const k = shortcuts.find((e) => e.run && e.keys.includes(ev.key));
  if (!k) return;
  ev.preventDefault();
  k.run();
});

// The new-game dialog.
function openNewDialog() {
  const s = ui.state;
  const m = /^hex(\d+)$/.exec(s.board) || [];
  const r = /^(\d+)x(\d+)$/.exec(s.board) || [];
  $("new-kind").value = m[1] ? "hex" : (r[1] === r[2] ? "square" : "rect");
  $("new-a").value = m[1] || r[1] || 9;
  $("new-b").value = r[2] || 5;
  $("new-black").value = s.players.black;
  $("new-white").value = s.players.white;
  $("new-pie").checked = s.pie;
  fillStrengths(s.board);
  $("new-strength").value = s.strength.kind === "level" ? `level:${s.strength.value}` : s.strength.kind;
  $("new-strength-value").value = (s.strength.kind !== "level" && s.strength.value) || 1;
  $("new-error").textContent = "";
  syncDialog();
  $("new-dialog").showModal();
}
// The engine's strengths: its default, seconds or playouts a move, and oust's levels with their Elo on the chosen
// board's family (hex-7's numbers for hexhex boards, 9x9's for the others).
function fillStrengths(boardName) {
  const sel = $("new-strength");
  const keep = sel.value;
  sel.querySelectorAll("option[data-level]").forEach((o) => o.remove());
  if (!(ui.state && ui.state.engine.levels && ui.levels)) return;
  for (const l of ui.levels.levels) {
    const o = document.createElement("option");
    o.value = `level:${l.level}`;
    o.dataset.level = l.level;
    o.textContent = `Level ${l.level}: ${l.words}`;
    o.title = levelElo(l.level, boardName);
    sel.append(o);
  }
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
}
function syncDialog() {
  const kind = $("new-kind").value;
  fillStrengths(kind === "hex" ? "hex" : "square");
  $("size-label").textContent = kind === "hex" ? "side (2–13)" : kind === "rect" ? "columns (2–25)" : "size (2–25)";
  $("new-a").max = kind === "hex" ? 13 : 25;
  $("new-b-label").hidden = kind !== "rect";
  $("new-strength-value").hidden = !["seconds", "playouts"].includes($("new-strength").value);
}
$("new-kind").addEventListener("change", syncDialog);
$("new-strength").addEventListener("change", syncDialog);
$("new-form").addEventListener("submit", async (ev) => {
  if (ev.submitter && ev.submitter.value === "cancel") return;
  ev.preventDefault();
  const kind = $("new-kind").value;
  const a = $("new-a").value, b = $("new-b").value;
  const args = {
    board: kind === "hex" ? `hex${a}` : kind === "rect" ? `${a}x${b}` : a,
    black: $("new-black").value, white: $("new-white").value, pie: $("new-pie").checked,
  };
  const kindS = $("new-strength").value, v = Number($("new-strength-value").value);
  if (kindS.startsWith("level:")) args.level = Number(kindS.slice(6));
  else if (kindS === "seconds") args.seconds = v;
  else if (kindS === "playouts") args.playouts = Math.round(v);
  else args.strength = "default";
  const r = await post("/api/new", args);
  if (r.ok) $("new-dialog").close();
  else $("new-error").textContent = r.body.error;
});

// Start: a query (board=, black=, white=, pie=) starts that game, then leaves the address so that a reload keeps
// the game; otherwise the server's game is shown as it is.
async function start() {
  try { ui.levels = await (await fetch("/api/levels")).json(); } catch (e) { ui.levels = null; }
  const q = new URLSearchParams(location.search);
  if (["board", "black", "white", "pie", "level"].some((k) => q.has(k))) {
    const args = {};
    for (const k of ["board", "black", "white", "pie", "level"]) if (q.has(k)) args[k] = q.get(k);
    await post("/api/new", args);
    history.replaceState(null, "", location.pathname);
  } else {
    const r = await fetch("/api/state");
    await apply(await r.json());
  }
  const events = new EventSource("/api/events");
  events.addEventListener("state", (ev) => apply(JSON.parse(ev.data)));
}
start();
