// Draws a board picture (selfplay/src/viewer/picture.rs, as JSON) into an <svg> element: the
// same layout as the Rust SVG writer (selfplay/src/viewer/svg.rs). Each piece is a
// <g class="piece" data-sq data-letter data-glyph data-down [data-back]> so tests can read the
// board back; `onPoint(square)` is called when a point is clicked (the play page).
"use strict";
const ANQI_CELL = 60, ANQI_MARGIN = 45;
const ANQI_FONT = "WenQuanYi Zen Hei, Noto Sans CJK SC, Noto Serif CJK SC, sans-serif";
const ANQI_UNKNOWN = "暗";
function anqiSquare(f, r) { return String.fromCharCode(97 + f) + r; }
function anqiDraw(svg, pic, opts) {
  opts = opts || {};
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const pt = (f, r) => {
    const col = pic.viewpoint === "black" ? pic.files - 1 - f : f;
    const row = pic.viewpoint === "black" ? r : pic.ranks - 1 - r;
    return [ANQI_MARGIN + col * ANQI_CELL, ANQI_MARGIN + row * ANQI_CELL];
  };
  const line = (a, b, w) => el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#5a3a1a", "stroke-width": w });
  const text = (x, y, size, fill, t) => el("text", { x, y, "font-size": size, "font-family": ANQI_FONT, "text-anchor": "middle", "dominant-baseline": "central", fill }, t);
  const W = 2 * ANQI_MARGIN + (pic.files - 1) * ANQI_CELL, H = 2 * ANQI_MARGIN + (pic.ranks - 1) * ANQI_CELL;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("data-turn", pic.turn);
  svg.setAttribute("data-viewpoint", pic.viewpoint);
  svg.appendChild(el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f2d7a6" }));
  const fm = pic.files - 1, rm = pic.ranks - 1;
  const board = el("g", { class: "board" });
  for (let r = 0; r < pic.ranks; r++) board.appendChild(line(pt(0, r), pt(fm, r), 1.5));
  const between = pic.river.between;
  for (let f = 0; f < pic.files; f++) {
    if (between !== undefined && f !== 0 && f !== fm) {
      board.appendChild(line(pt(f, 0), pt(f, between), 1.5));
      board.appendChild(line(pt(f, between + 1), pt(f, rm), 1.5));
    } else board.appendChild(line(pt(f, 0), pt(f, rm), 1.5));
  }
  let labelY;
  if (between !== undefined) labelY = (pt(0, between)[1] + pt(0, between + 1)[1]) / 2;
  else {
    const r = pic.river.row; labelY = pt(0, r)[1];
    board.appendChild(el("rect", { x: ANQI_MARGIN, y: labelY - ANQI_CELL * 0.3, width: fm * ANQI_CELL, height: ANQI_CELL * 0.6, fill: "#9cc3e6", opacity: 0.5 }));
  }
  board.appendChild(text(W * 0.3, labelY, 26, "#5a3a1a", "楚 河"));
  board.appendChild(text(W * 0.7, labelY, 26, "#5a3a1a", "漢 界"));
  for (const [f, r] of pic.palaces) {
    board.appendChild(line(pt(f, r), pt(f + 2, r + 2), 1.2));
    board.appendChild(line(pt(f + 2, r), pt(f, r + 2), 1.2));
  }
  svg.appendChild(board);
  const mark = (f, r, cls, color) => {
    const [x, y] = pt(f, r), s = ANQI_CELL * 0.9;
    svg.appendChild(el("rect", { class: cls, "data-sq": anqiSquare(f, r), x: x - s / 2, y: y - s / 2, width: s, height: s, fill: "none", stroke: color, "stroke-width": 3 }));
  };
  if (pic.last) for (const [f, r] of pic.last) mark(f, r, "last", "#1f6fd1");
  for (const sq of opts.highlight || []) {
    const f = sq.charCodeAt(0) - 97, r = parseInt(sq.slice(1), 10);
    const [x, y] = pt(f, r);
    svg.appendChild(el("circle", { class: "target", "data-sq": sq, cx: x, cy: y, r: 9, fill: "#2a7f62", opacity: 0.8 }));
  }
  if (opts.selected) {
    const f = opts.selected.charCodeAt(0) - 97, r = parseInt(opts.selected.slice(1), 10);
    mark(f, r, "selected", "#2a7f62");
  }
  for (const t of pic.tokens) {
    const [x, y] = pt(t.file, t.rank), R = ANQI_CELL * 0.43;
    const ink = t.color === "r" ? "#b3141b" : "#1a1a1a";
    const g = el("g", { class: "piece", "data-sq": anqiSquare(t.file, t.rank), "data-letter": t.letter, "data-glyph": t.glyph, "data-down": t.down ? "1" : "0" });
    if (t.back) g.setAttribute("data-back", t.back);
    const knownDown = t.down && t.glyph !== ANQI_UNKNOWN;
    const hidden = t.down && !knownDown;
    const disc = el("circle", { cx: x, cy: y, r: R, fill: hidden ? "#7a5a33" : "#fbeed3", stroke: ink, "stroke-width": 2.5 });
    if (knownDown) disc.setAttribute("stroke-dasharray", "5 3");
    g.appendChild(disc);
    if (t.marker) g.appendChild(el("circle", { cx: x, cy: y, r: R + 4, fill: "none", stroke: "#d4a017", "stroke-width": 3 }));
    g.appendChild(text(x, y, ANQI_CELL * 0.48, hidden ? "#f2d7a6" : ink, t.glyph));
    if (t.back) {
      const bx = x + R * 0.75, by = y + R * 0.75;
      g.appendChild(el("circle", { cx: bx, cy: by, r: ANQI_CELL * 0.16, fill: "#e8e0cc", stroke: ink, "stroke-width": 1.2 }));
      g.appendChild(text(bx, by, ANQI_CELL * 0.2, ink, t.back));
    }
    svg.appendChild(g);
  }
  // Marks besides the pieces (a skill game's tiles, picture.rs `Mark`): a badge on the point, or
  // in its upper-left corner under a piece, its name as the tooltip; the layout of svg.rs `mark`.
  for (const m of pic.marks || []) {
    const [x, y] = pt(m.file, m.rank), w = ANQI_CELL * 0.42, h = ANQI_CELL * 0.24;
    const occupied = pic.tokens.some((t) => t.file === m.file && t.rank === m.rank);
    const bx = occupied ? x - ANQI_CELL * 0.5 : x - w / 2, by = occupied ? y - ANQI_CELL * 0.5 : y - h / 2;
    const ink = m.color === "r" ? "#b3141b" : "#1a1a1a";
    const g = el("g", { class: "tile", "data-sq": anqiSquare(m.file, m.rank), "data-label": m.label });
    g.appendChild(el("title", {}, m.name ? `${m.label} ${m.name}` : m.label));
    g.appendChild(el("rect", { x: bx, y: by, width: w, height: h, rx: 3, fill: "#fff7e0", stroke: ink, "stroke-width": 1.2 }));
    g.appendChild(text(bx + w / 2, by + h / 2, ANQI_CELL * 0.18, ink, m.label));
    svg.appendChild(g);
  }
  if (opts.onPoint) {
    for (let r = 0; r < pic.ranks; r++) for (let f = 0; f < pic.files; f++) {
      const [x, y] = pt(f, r);
      const hit = el("rect", { class: "hit", "data-sq": anqiSquare(f, r), x: x - ANQI_CELL / 2, y: y - ANQI_CELL / 2, width: ANQI_CELL, height: ANQI_CELL, fill: "transparent" });
      hit.addEventListener("click", () => opts.onPoint(anqiSquare(f, r)));
      svg.appendChild(hit);
    }
  }
}
