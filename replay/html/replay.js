// The HTML replay's script: it draws DATA (the data section written by
// package replay, see HTMLData) one frame at a time. No network, no library.
"use strict";
(function () {
  const D = DATA, F = D.frames, W = D.w, H = D.h;
  const $ = (id) => document.getElementById(id);
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
  const cellName = (c) => sub ? "[" + (c % W) + "," + Math.floor(c / W) + "]" : D.cols[c % W] + D.rows[Math.floor(c / W)];
  const big = Math.max(W, H);
  document.documentElement.style.setProperty("--cell", Math.max(14, Math.min(34, Math.floor(320 / big))) + "px");
  document.documentElement.style.setProperty("--hcell", Math.max(7, Math.min(22, Math.floor(170 / big))) + "px");
  const heatText = big <= 12;

  $("info").textContent = D.header.join("\n");
  $("result").textContent = D.result;
  for (const [g, what] of D.legend) {
    const s = el("span");
    s.appendChild(el("code", "", g));
    s.appendChild(document.createTextNode(" " + what));
    $("legend").appendChild(s);
  }

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

  function seatPanel(f, s) {
    const b = f.boards[s], other = 1 - s;
    const p = el("section", "seat" + (f.seat === s ? " actor" : ""));
    p.dataset.seat = s;
    p.appendChild(el("h2", "", "seat " + s + ": " + D.players[s]));
    const near = new Set(b.near || []), moved = b.moved || [];
    p.appendChild(grid((c, d) => {
      const g = b.cells[c];
      d.className = glyphClass(g);
      if (g !== "." && g !== "#" && g !== "-") d.textContent = g;
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
    else p.appendChild(el("div", "none", "no recorded beliefs (record them with kaisen match --explain)"));
    return p;
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
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(cur - 1);
  $("next").onclick = () => show(cur + 1);
  $("last").onclick = () => show(F.length - 1);
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener("keydown", (e) => {
    const k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: F.length - 1 }[e.key];
    if (k === undefined || e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    e.preventDefault();
    show(k);
  });
  const start = /^#\d+$/.test(location.hash) ? Number(location.hash.slice(1)) : 0;
  show(start);
  document.body.dataset.ready = "1";
  document.body.dataset.readyMs = performance.now().toFixed(1); // since the navigation started
})();
