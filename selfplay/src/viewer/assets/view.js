// The viewer page: steps through one game's frames (selfplay/src/viewer/frames.rs), embedded
// as JSON in <script id="game">. No network: everything is in the file.
"use strict";
(function () {
  const game = JSON.parse(document.getElementById("game").textContent);
  const byName = {};
  for (const v of game.views) byName[v.viewpoint] = v;
  const state = { ply: 0, view: "full" };
  const $ = (id) => document.getElementById(id);
  $("title").textContent = game.title;
  document.title = game.title;
  $("tags").textContent = game.tags.map(([k, v]) => `${k}: ${v}`).join(" · ");
  const plies = game.views[0].pictures.length - 1;
  $("plies").textContent = plies;
  function render() {
    const v = byName[state.view];
    const pic = v.pictures[state.ply];
    anqiDraw($("board"), pic);
    $("board").setAttribute("data-ply", state.ply);
    $("ply").textContent = state.ply;
    $("turn").textContent = pic.turn === "r" ? "red" : "black";
    $("viewpoint").value = state.view;
    $("notes").textContent = pic.notes.join(" · ");
    const body = $("movelist");
    while (body.firstChild) body.removeChild(body.firstChild);
    v.moves.forEach((m, i) => {
      const tr = document.createElement("tr");
      tr.dataset.ply = i + 1;
      if (i + 1 === state.ply) tr.className = "current";
      for (const t of [`${Math.floor(i / 2) + 1}${i % 2 ? "…" : "."}`, m.iccs, m.chinese]) {
        const td = document.createElement("td"); td.textContent = t; tr.appendChild(td);
      }
      tr.addEventListener("click", () => go(i + 1));
      body.appendChild(tr);
    });
    const cur = body.querySelector("tr.current");
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  }
  function go(p) { state.ply = Math.max(0, Math.min(plies, p)); render(); }
  function view(name) { state.view = name; render(); }
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(state.ply - 1);
  $("next").onclick = () => go(state.ply + 1);
  $("last").onclick = () => go(plies);
  $("viewpoint").onchange = (e) => view(e.target.value);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(state.ply + 1);
    else if (e.key === "ArrowLeft") go(state.ply - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(plies);
    else if (e.key === "r") view("red");
    else if (e.key === "b") view("black");
    else if (e.key === "f") view("full");
    else if (e.key === "n" && document.querySelector("a.next")) document.querySelector("a.next").click();
    else if (e.key === "p" && document.querySelector("a.prev")) document.querySelector("a.prev").click();
  });
  render();
})();
