// The play page of `anqi serve` (selfplay/src/serve): shows the human's view that the server
// sends (never more: the server sends nothing else), highlights the legal moves, and posts the
// human's actions.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let obs = null, selected = null, busy = false;
  async function call(path, body) {
    busy = true;
    document.body.setAttribute("data-busy", "1");
    $("status").textContent = "…";
    try {
      let r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      // 503: the bot is still thinking past the server's request timeout; ask for the state
      // until its move is in.
      for (let tries = 0; r.status === 503 && tries < 120; tries++) {
        $("status").textContent = "the bot is thinking…";
        await new Promise((done) => setTimeout(done, 1000));
        r = await fetch("/api/state");
      }
      const data = await r.json();
      if (data.error) { $("status").textContent = "error: " + data.error; }
      else { obs = data; selected = null; }
      render();
    } finally {
      busy = false;
      document.body.setAttribute("data-busy", "0");
    }
  }
  function render() {
    if (!obs) return;
    const targets = selected ? obs.legal.filter((m) => m.from === selected && m.to !== m.from).map((m) => m.to) : [];
    const movable = [...new Set(obs.legal.filter((m) => m.from).map((m) => m.from))];
    anqiDraw($("board"), obs.picture, { highlight: selected ? targets : movable, selected, onPoint });
    $("board").setAttribute("data-moves", obs.moves.length);
    if (!String($("status").textContent).startsWith("error")) $("status").textContent = obs.status;
    document.body.setAttribute("data-result", obs.result || "");
    $("notes").textContent = obs.picture.notes.join(" · ");
    $("saved").textContent = obs.saved ? "saved to " + obs.saved : "";
    const setup = $("setup");
    while (setup.firstChild) setup.removeChild(setup.firstChild);
    for (const m of obs.legal.filter((m) => !m.from || m.from === m.to)) {
      const b = document.createElement("button");
      b.className = "action";
      b.dataset.action = m.text;
      b.textContent = m.from === m.to && m.from ? "flip " + m.text : m.text;
      b.onclick = () => act(m.text);
      setup.appendChild(b);
    }
    const body = $("movelist");
    while (body.firstChild) body.removeChild(body.firstChild);
    obs.moves.forEach((m, i) => {
      const tr = document.createElement("tr");
      for (const t of [`${Math.floor(i / 2) + 1}${i % 2 ? "…" : "."}`, m.iccs, m.chinese]) {
        const td = document.createElement("td"); td.textContent = t; tr.appendChild(td);
      }
      body.appendChild(tr);
    });
  }
  function act(text) { if (!busy) call("/api/play", { action: text }); }
  function onPoint(sq) {
    if (!obs || busy) return;
    if (selected) {
      const m = obs.legal.find((m) => m.from === selected && m.to === sq && m.to !== m.from);
      if (m) { act(m.text); return; }
    }
    selected = obs.legal.some((m) => m.from === sq && m.to !== sq) ? sq : null;
    render();
  }
  $("newgame").addEventListener("submit", (e) => {
    e.preventDefault();
    const variant = $("rulefile").value.trim() || $("variant").value;
    call("/api/new", { variant, bot: $("bot").value.trim(), color: $("color").value, movetime_ms: parseInt($("ms").value, 10) || 0 });
  });
  $("undo").onclick = () => { if (!busy) call("/api/undo", {}); };
  $("resign").onclick = () => { if (!busy) call("/api/resign", {}); };
  fetch("/api/options").then((r) => r.json()).then((o) => {
    for (const v of o.variants) { const opt = document.createElement("option"); opt.value = opt.textContent = v; $("variant").appendChild(opt); }
    for (const b of o.bots) { const opt = document.createElement("option"); opt.value = b; $("bots").appendChild(opt); }
    document.body.setAttribute("data-ready", "1");
  });
})();
