// The HTML replay's script: it draws DATA (the data section written by
// package replay, see HTMLData, packed as htmlpack.go describes) one frame
// at a time. No network, no library.
"use strict";
(function () {
  const D = DATA, F = unpack(D), W = D.w, H = D.h;
  const $ = (id) => document.getElementById(id);

  // unpack rebuilds HTMLData's frames from the packed data section: every
  // value is d.vals[i] (-1: none), a frame is two numbers (its tuple, its
  // text), see replay/htmlpack.go.
  function unpack(d) {
    const V = d.vals, P = d.frames, out = [];
    const board = (i) => {
      const [cells, hp, shot, near, moved, known] = V[i];
      const b = { cells: V[cells], hp: V[hp] || [], shot: shot };
      if (near >= 0) b.near = V[near];
      if (moved >= 0) b.moved = V[moved];
      if (known >= 0) b.known = V[known];
      return b;
    };
    for (let k = 0; k < P.length; k += 2) {
      const i = k / 2, [dn, seat, why, heat, b0, b1] = V[P[k]], t = P[k + 1];
      const n = i + dn;
      const f = { n: n, seat: seat, text: t >= 0 ? V[t] : "#" + n + V[-t - 1], boards: [board(b0), board(b1)] };
      if (why >= 0) f.why = V[why];
      if (heat >= 0) f.heat = V[heat].map((h) => ({ name: V[V[h][0]], side: V[V[h][1]], cells: V[V[h][2]] }));
      out.push(f);
    }
    return out;
  }
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const sub = D.game === "submarine";
  const glyphClass = sub
    ? (g) => g === "#" ? "rock" : g === "x" ? "sunk" : g === "." ? "sea" : "ship"
    : (g) => ({ "-": "rock", "#": "sunk", x: "hit", O: "ship", o: "miss", ".": "sea" })[g] || "sea";
  // cellText is the mark a board draws on a cell of glyph g: the glyph
  // (Battleship: x a hit on orange, # a sunk ship on dark red), but sea and
  // rocks are colour only.
  const cellText = (g) => g === "." || g === "-" || sub && g === "#" ? "" : g;
  const cellName = (c) => sub ? "[" + (c % W) + "," + Math.floor(c / W) + "]" : D.cols[c % W] + D.rows[Math.floor(c / W)];
  const big = Math.max(W, H);
  document.documentElement.style.setProperty("--cell", Math.max(14, Math.min(34, Math.floor(320 / big))) + "px");
  document.documentElement.style.setProperty("--hcell", Math.max(7, Math.min(22, Math.floor(170 / big))) + "px");
  const heatText = big <= 12;

  $("info").textContent = D.header.join("\n");
  $("result").textContent = D.result;
  // The legend draws each glyph as the boards draw its cells: the same
  // colour, the same mark.
  const legend = el("div", "board legend");
  for (const [g, what] of D.legend) {
    const cell = el("div", glyphClass(g === "letters" ? "a" : g), cellText(g === "letters" ? "a" : g));
    cell.dataset.glyph = g;
    legend.appendChild(cell);
    legend.appendChild(el("span", "", g + " " + what));
  }
  $("legend").appendChild(legend);

  // lastHeat[s][i]: the frame (at or before i) of seat s's latest recorded heatmaps, or -1.
  const lastHeat = [[], []];
  for (let s = 0; s < 2; s++) {
    let k = -1;
    F.forEach((f, i) => { if (f.seat === s && f.heat && f.heat.length) k = i; lastHeat[s][i] = k; });
  }

  // grid draws a W x H board with labels; cell(c, div) styles cell c.
  function grid(cell) {
    const b = el("div", "board");
    b.style.gridTemplateColumns = "repeat(" + (W + 1) + ", auto)";
    b.appendChild(el("div", "lbl", ""));
    for (let x = 0; x < W; x++) b.appendChild(el("div", "lbl", D.cols[x]));
    for (let y = 0; y < H; y++) {
      b.appendChild(el("div", "lbl", D.rows[y]));
      for (let x = 0; x < W; x++) {
        const c = y * W + x, d = el("div");
        d.dataset.cell = c;
        cell(c, d);
        b.appendChild(d);
      }
    }
    return b;
  }

  function heatColour(v) { // v in thousandths: white 0, dark red 1000
    return "hsl(0, 85%, " + (100 - 62 * v / 1000).toFixed(1) + "%)";
  }

  function heatmap(caption, cells, rocks, name, side) {
    const fig = el("figure");
    fig.dataset.name = name;
    fig.dataset.side = side;
    fig.appendChild(grid((c, d) => {
      if (rocks[c] === "#" && sub || rocks[c] === "-" && !sub) { d.className = "rock"; return; }
      const v = cells[c];
      d.dataset.v = v;
      d.style.background = heatColour(v);
      if (v >= 620) d.style.color = "#fff";
      d.title = cellName(c) + " " + (v / 10).toFixed(1) + "%";
      if (heatText && v > 0) d.textContent = v < 5 ? "·" : String(Math.round(v / 10));
    }));
    fig.appendChild(el("figcaption", "", caption));
    return fig;
  }

  // recorded[s]: what seat s's player recorded over the game: its reasons
  // (why) and its belief heatmaps.
  const recorded = [0, 1].map((s) => ({
    why: F.some((f) => f.seat === s && f.why),
    heat: F.some((f) => f.seat === s && f.heat && f.heat.length),
  }));
  // noBeliefs says why seat s's panel has no heatmap.
  function noBeliefs(s) {
    const r = recorded[s];
    if (r.heat) return "no beliefs recorded yet: " + D.players[s] + " records them with its first action";
    if (r.why) return D.players[s] + " recorded its reasons (the why line of its actions) but no beliefs: it keeps no probability map to draw";
    return "no recorded beliefs or reasons (record them with kaisen match --explain)";
  }

  function seatPanel(f, s) {
    const b = f.boards[s], other = 1 - s;
    const p = el("section", "seat" + (f.seat === s ? " actor" : ""));
    p.dataset.seat = s;
    p.appendChild(el("h2", "", "seat " + s + ": " + D.players[s]));
    const near = new Set(b.near || []), moved = b.moved || [];
    p.appendChild(grid((c, d) => {
      const g = b.cells[c];
      d.className = glyphClass(g);
      d.textContent = cellText(g);
      if (near.has(c)) d.classList.add("near");
      if (c === b.shot) d.classList.add("shot");
      if (moved.length && c === moved[0]) d.classList.add("left");
      if (moved.length && c === moved[1]) d.classList.add("moved");
      d.title = cellName(c);
    }));
    const hp = el("div", "hp");
    b.hp.forEach(([full, left], i) => {
      hp.appendChild(document.createTextNode(D.ships[i] || String(i)));
      const bar = el("span", "bar" + (left * 3 <= full ? " low" : ""));
      bar.style.width = (full * 1.2) + "em";
      const fill = el("span");
      fill.style.width = (100 * left / full) + "%";
      bar.appendChild(fill);
      bar.title = left + " / " + full;
      hp.appendChild(bar);
    });
    p.appendChild(hp);

    const heats = el("div", "heats");
    heats.dataset.seat = s;
    const k = lastHeat[s][cur];
    if (k >= 0) {
      const src = k === cur ? "this action" : "action #" + F[k].n;
      for (const h of F[k].heat) {
        const what = h.side === "own"
          ? "its exposure: " + h.name + " (what it believes seat " + other + " knows)"
          : "its belief of seat " + other + ": " + h.name;
        heats.appendChild(heatmap(what, h.cells, F[0].boards[other].cells, h.name, h.side));
      }
      p.appendChild(el("h3", "", D.players[s] + "'s beliefs when it chose " + src + ":"));
    }
    if (b.known) heats.appendChild(heatmap("what seat " + other + " can know of this fleet (exact)", b.known, b.cells, "known", "exact"));
    if (heats.childNodes.length) p.appendChild(heats);
    else p.appendChild(el("div", "none", noBeliefs(s)));
    return p;
  }

  // What each frame did (replay.Event bits): 1 a hit, 2 a sinking, 4 a
  // move; the quiet stretches are runs of at least D.quiet frames without
  // a hit, [first, last] frame.
  const HIT = 1, SUNK = 2, MOVE = 4;
  const EV = F.map((_, i) => Number((D.events || "")[i] || 0));
  const folds = [];
  for (let i = 1, a = -1; i <= F.length; i++) {
    if (i < F.length && !(EV[i] & HIT)) { if (a < 0) a = i; continue; }
    if (a >= 0 && i - a >= (D.quiet || 10)) folds.push([a, i - 1]);
    a = -1;
  }
  // find is the frame nearest cur in direction dir whose events have bit, or -1.
  function find(dir, bit) {
    for (let i = cur + dir; i >= 0 && i < F.length; i += dir) if (EV[i] & bit) return i;
    return -1;
  }
  // skipTarget is the frame after the quiet stretch cur is in (or the next one), or -1.
  function skipTarget() {
    const f = folds.find(([, b]) => b > cur);
    return f ? Math.min(f[1] + 1, F.length - 1) : -1;
  }
  const jumps = {
    "prev-hit": () => find(-1, HIT), "next-hit": () => find(1, HIT),
    "prev-sunk": () => find(-1, SUNK), "next-sunk": () => find(1, SUNK),
    "prev-move": () => find(-1, MOVE), "next-move": () => find(1, MOVE),
    "skip-quiet": skipTarget,
  };
  const jumpKeys = { h: "next-hit", H: "prev-hit", s: "next-sunk", S: "prev-sunk", m: "next-move", M: "prev-move", q: "skip-quiet" };
  function jump(id) {
    const i = jumps[id]();
    if (i >= 0) show(i);
  }

  // The timeline: one row per frame, each quiet stretch folded into one
  // row that opens on demand.
  const rows = [];
  function row(i) {
    // Every row names its action (abilities' texts do not begin with it).
    const f = F[i], text = i === 0 || f.text.startsWith("#") ? f.text : "#" + f.n + " " + f.text;
    const li = el("li", "", text);
    li.title = text;
    li.dataset.frame = i;
    if (EV[i] & SUNK) li.classList.add("ev-sunk");
    else if (EV[i] & HIT) li.classList.add("ev-hit");
    else if (EV[i] & MOVE) li.classList.add("ev-move");
    rows[i] = li;
    return li;
  }
  function timeline() {
    const ol = $("timeline");
    let i = 0;
    for (const [a, b] of folds) {
      for (; i < a; i++) ol.appendChild(row(i));
      const li = el("li", "fold"), det = el("details"), inner = el("ol");
      li.dataset.from = a;
      li.dataset.to = b;
      const sum = el("summary", "", "#" + F[a].n + " to #" + F[b].n + ": " + (b - a + 1) + " quiet actions (no hit)");
      det.appendChild(sum);
      det.appendChild(inner);
      det.addEventListener("toggle", () => {
        if (det.open && !inner.childNodes.length) {
          for (let k = a; k <= b; k++) inner.appendChild(row(k));
          mark();
        }
      });
      li.appendChild(det);
      ol.appendChild(li);
      i = b + 1;
    }
    for (; i < F.length; i++) ol.appendChild(row(i));
    ol.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-frame]");
      if (li) show(Number(li.dataset.frame));
    });
  }
  // mark highlights the current frame's row (or its folded stretch) and
  // scrolls the timeline to it.
  function mark() {
    for (const e of document.querySelectorAll("#timeline .cur")) e.classList.remove("cur");
    let r = rows[cur];
    if (!r || !r.offsetParent) r = [...document.querySelectorAll("#timeline li.fold")].find((li) => Number(li.dataset.from) <= cur && cur <= Number(li.dataset.to));
    if (!r) return;
    r.classList.add("cur");
    const box = $("timeline-box"), rb = r.getBoundingClientRect(), bb = box.getBoundingClientRect();
    if (rb.top < bb.top) box.scrollTop -= bb.top - rb.top;
    else if (rb.bottom > bb.bottom) box.scrollTop += Math.min(rb.bottom - bb.bottom, rb.top - bb.top);
  }

  // The heatmaps' key: the colours of the values the cells show, in percent.
  function heatKey() {
    if (!F.some((f) => f.heat && f.heat.length || f.boards.some((b) => b.known))) return;
    const key = $("heatkey");
    key.appendChild(el("span", "", "Heatmaps: the chance of a ship on each cell, in percent (the number in a cell" + (heatText ? "" : " on boards up to 12 wide") + "; \u00b7 under 0.5; hover a cell for one decimal):"));
    for (const p of [0, 10, 25, 50, 75, 100]) {
      const sw = el("span", "swatch", String(p));
      sw.dataset.v = p * 10;
      sw.style.background = heatColour(p * 10);
      if (p * 10 >= 620) sw.style.color = "#fff";
      key.appendChild(sw);
    }
    key.appendChild(el("span", "", "%"));
  }

  let cur = 0;
  const slider = $("slider");
  slider.max = String(Math.max(F.length - 1, 0));
  function show(i) {
    if (!F.length) { $("counter").textContent = "no actions"; return; }
    cur = Math.max(0, Math.min(F.length - 1, i));
    const f = F[cur];
    slider.value = String(cur);
    $("counter").textContent = "turn " + f.n + " / " + F[F.length - 1].n;
    $("text").textContent = f.text;
    $("why").textContent = f.why ? "why: " + f.why : "";
    const seats = $("seats");
    seats.replaceChildren(seatPanel(f, 0), seatPanel(f, 1));
    for (const id in jumps) $(id).disabled = jumps[id]() < 0;
    mark();
    try {
      if (location.hash !== "#" + cur) history.replaceState(null, "", "#" + cur);
    } catch (e) { /* a browser that refuses it on file:// keeps the old address */ }
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(cur - 1);
  $("next").onclick = () => show(cur + 1);
  $("last").onclick = () => show(F.length - 1);
  for (const id in jumps) $(id).onclick = () => jump(id);
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (jumpKeys[e.key]) { e.preventDefault(); jump(jumpKeys[e.key]); return; }
    const k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: F.length - 1 }[e.key];
    if (k === undefined || e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    e.preventDefault();
    show(k);
  });
  const fromHash = () => /^#\d+$/.test(location.hash) ? Number(location.hash.slice(1)) : 0;
  window.addEventListener("hashchange", () => show(fromHash()));
  timeline();
  heatKey();
  show(fromHash());
  document.body.dataset.ready = "1";
  document.body.dataset.readyMs = performance.now().toFixed(1); // since the navigation started
})();
