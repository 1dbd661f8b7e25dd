// Headless-Chromium tests of the viewer page (`anqi view`) and the play page (`anqi serve`),
// run by scripts/browser-test (from scripts/test). Uses the Debian chromium through
// playwright-core (no browser download). Exits non-zero on the first failure; the last line is
// `N passed, 0 failed`.
"use strict";
const { chromium } = require("playwright-core");
const { execFileSync, spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const ROOT = path.resolve(__dirname, "../..");
const ANQI = process.env.ANQI || path.join(ROOT, "target/release/anqi");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
let passed = 0;
function check(cond, what) {
  if (!cond) throw new Error("FAILED: " + what);
}
function anqi(args) {
  return execFileSync(ANQI, args, { encoding: "utf8", maxBuffer: 64 << 20 });
}
// The engine's board field after `moves` from `fen` (anqi actions prints the full FEN or the
// mover's view FEN; their board fields are the same: face-down pieces are X/x in both).
function engineBoard(variant, fen, moves) {
  const out = anqi(["actions", "--variant", variant, "--fen", fen, "--play", moves.join(" ")]);
  const line = out.split("\n").find((l) => l.startsWith("fen ") || l.startsWith("view "));
  return line.split(" ")[1];
}
async function domBoard(page, files, ranks) {
  const cells = await page.$$eval("#board g.piece", (gs) => gs.map((g) => [g.getAttribute("data-sq"), g.getAttribute("data-letter")]));
  const at = new Map(cells);
  const rows = [];
  for (let r = ranks - 1; r >= 0; r--) {
    let row = "", run = 0;
    for (let f = 0; f < files; f++) {
      const l = at.get(String.fromCharCode(97 + f) + r);
      if (!l) { run++; continue; }
      if (run) { row += run; run = 0; }
      row += l;
    }
    if (run) row += run;
    rows.push(row);
  }
  return rows.join("/");
}
function parsePgn(text) {
  const games = [];
  for (const block of text.split(/\n\n(?=\[)/)) {
    const tags = {};
    for (const m of block.matchAll(/^\[(\w+) "(.*)"\]$/gm)) tags[m[1]] = m[2];
    const body = block.split("\n").filter((l) => l && !l.startsWith("[")).join(" ");
    const moves = body.split(/\s+/).filter((t) => t && !/^\d+\.$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
    if (tags.SetUp) games.push({ tags, moves });
  }
  return games;
}

async function viewerTest(browser, tmp) {
  // A short Jieqi tournament, then its viewer pages.
  const cfg = path.join(tmp, "t.toml");
  fs.writeFileSync(cfg, 'name = "browser"\nvariant = "jieqi"\nformat = "round-robin"\npairs = 1\nconcurrency = 1\nseed = 3\nmax_plies = 120\n[[player]]\nspec = "greedy"\n[[player]]\nspec = "random"\n');
  const pgn = path.join(tmp, "t.pgn");
  anqi(["tournament", "--config", cfg, "--pgn", pgn, "--quiet"]);
  const pages = path.join(tmp, "pages");
  anqi(["view", pgn, "--out", pages]);
  const games = parsePgn(fs.readFileSync(pgn, "utf8"));
  check(games.length === 2, "the tournament wrote 2 games");
  const page = await browser.newPage();
  const g = games[0];
  await page.goto("file://" + path.join(pages, "game-001.html"));
  const plies = parseInt(await page.textContent("#plies"), 10);
  check(plies === g.moves.length, `page has ${plies} plies, record ${g.moves.length}`);
  for (const view of ["full", "red", "black"]) {
    await page.keyboard.press(view[0]);
    await page.keyboard.press("Home");
    for (let i = 0; i <= plies; i++) {
      check((await page.getAttribute("#board", "data-ply")) === String(i), `${view} view at ply ${i}`);
      if (view === "full" || i % 10 === 0 || i === plies) {
        const want = engineBoard("jieqi", g.tags.SetUp, g.moves.slice(0, i));
        const got = await domBoard(page, 9, 10);
        check(got === want, `${view} view, ply ${i}: DOM ${got} != engine ${want}`);
      }
      if (view !== "full") {
        // A side's view never names a face-down piece's identity: Jieqi hides them from both.
        const named = await page.$$eval("#board g.piece[data-down='1']", (gs) => gs.filter((x) => x.getAttribute("data-glyph") !== "暗").length);
        check(named === 0, `${view} view, ply ${i}: ${named} face-down pieces drawn with an identity`);
      }
      await page.keyboard.press("ArrowRight");
    }
  }
  passed++;
  console.log(`ok viewer: ${plies} plies of a Jieqi game checked against the engine's FEN in 3 views`);
  await page.close();
}

function startServer(tmp) {
  return new Promise((resolve, reject) => {
    const pgn = path.join(tmp, "serve.pgn");
    const p = spawn(ANQI, ["serve", "--port", "0", "--pgn", pgn], { stdio: ["ignore", "pipe", "inherit"] });
    let buf = "";
    p.stdout.on("data", (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/\S+)/);
      if (m) resolve({ proc: p, url: m[1], pgn });
    });
    p.on("exit", (c) => reject(new Error("anqi serve exited " + c)));
  });
}

async function playTest(browser, server, variant, color, hiddenOf) {
  const page = await browser.newPage();
  const bodies = [];
  page.on("response", async (r) => {
    if (r.url().includes("/api/")) bodies.push(await r.text());
  });
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready='1']");
  await page.selectOption("#variant", variant);
  await page.fill("#bot", "greedy");
  await page.selectOption("#color", color);
  await page.fill("#ms", "0");
  await page.click("#start");
  await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
  let steps = 0;
  let undone = 0;
  for (; steps < 400; steps++) {
    if (await page.getAttribute("body", "data-result")) break;
    const action = await page.$("#setup button.action");
    if (action && !(await page.$("#board circle.target"))) {
      await action.click();
    } else {
      // Click a movable piece, then its first highlighted target.
      const froms = await page.$$eval("#board circle.target", (cs) => cs.map((c) => c.getAttribute("data-sq")));
      check(froms.length > 0, `${variant}: the page highlights no legal move at step ${steps}`);
      const from = froms[steps % froms.length];
      // With a piece still selected from the step before (a flip-only piece selects nothing, so
      // the next highlighted square was selected instead), this click is itself a move: the
      // page posts it and redraws the board when the answer comes. Wait for that answer before
      // reading targets, or the next click lands on a board that is being replaced.
      const movesBefore = await page.getAttribute("#board", "data-moves");
      await page.click(`#board rect.hit[data-sq='${from}']`, { force: true });
      await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
      if ((await page.getAttribute("#board", "data-moves")) === movesBefore) {
        const tos = await page.$$eval("#board circle.target", (cs) => cs.map((c) => c.getAttribute("data-sq")));
        check(tos.length > 0, `${variant}: no target for ${from}`);
        await page.click(`#board rect.hit[data-sq='${tos[0]}']`, { force: true });
      }
    }
    await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
    const status = await page.textContent("#status");
    check(!status.startsWith("error"), `${variant}: ${status}`);
    if (steps === 12 && !(await page.getAttribute("body", "data-result"))) {
      // Undo (the server re-deals what the human has not seen): the move list shrinks and the
      // page stays usable.
      const before = Number(await page.getAttribute("#board", "data-moves"));
      if (before > 0) {
        await page.click("#undo");
        await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
        const after = Number(await page.getAttribute("#board", "data-moves"));
        const st = await page.textContent("#status");
        check(after < before && !st.startsWith("error"), `${variant}: undo left ${after} of ${before} moves (${st})`);
        undone++;
      }
    }
  }
  const result = await page.getAttribute("body", "data-result");
  if (!result) {
    await page.click("#resign");
    await page.waitForFunction(() => document.body.getAttribute("data-result"));
  }
  await page.waitForFunction(() => document.getElementById("saved").textContent.includes("saved"));
  // What the page received against what it must not know.
  const games = parsePgn(fs.readFileSync(server.pgn, "utf8"));
  const g = games[games.length - 1];
  check(g.tags.Variant === variant, `saved game is ${g.tags.Variant}`);
  const secrets = hiddenOf(g, color);
  for (const body of bodies) {
    for (const s of secrets) check(!body.includes(s), `${variant}: the page received ${JSON.stringify(s)}, which ${color} may not see`);
    const obs = JSON.parse(body);
    if (obs.picture) {
      const bot = color === "red" ? "b" : "r";
      for (const t of obs.picture.tokens) {
        if (t.color === bot && t.down) check(t.glyph === "暗", `${variant}: a face-down bot piece was sent as ${t.glyph}`);
        if (t.color === bot && t.back && t.back !== "?" ) check(g.moves.some((m) => /^([a-i]\d)\1/.test(m)), `${variant}: a bot disc's back ${t.back} was sent before any flip`);
      }
    }
  }
  passed++;
  console.log(`ok play ${variant} as ${color}: ${g.moves.length} plies to ${g.tags.Result} (${g.tags.Termination}), ${undone} undo, ${bodies.length} responses checked for ${secrets.length} hidden facts`);
  await page.close();
}

// Skill tiles (RULES-more.md §1.2, §1.5): drawn as badges in their recesses; while the secret
// set-up lasts the bot's (red) tiles are `?` on the page, and once it ends all 16 are named.
async function skillTilesTest(browser, server) {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready='1']");
  await page.selectOption("#variant", "skill-secret");
  await page.fill("#bot", "greedy");
  await page.selectOption("#color", "black");
  await page.fill("#ms", "0");
  await page.click("#start");
  await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
  const tiles = () => page.$$eval("#board g.tile", (gs) => gs.map((g) => [g.getAttribute("data-sq"), g.getAttribute("data-label")]));
  let during = await tiles();
  check(during.length === 8 && during.every(([, l]) => l === "?"), `skill-secret: the bot's 8 secret tiles drawn as ?, got ${JSON.stringify(during)}`);
  let placed = 0;
  for (; placed < 20; placed++) {
    const action = await page.$("#setup button.action");
    if (!action) break;
    await action.click();
    await page.waitForFunction(() => document.body.getAttribute("data-busy") === "0");
    if (placed === 0) {
      during = await tiles();
      check(during.filter(([, l]) => l === "?").length === 8 && during.some(([, l]) => /^T\d+$/.test(l)), `skill-secret: own tile named, the bot's still ?: ${JSON.stringify(during)}`);
    }
  }
  const after = await tiles();
  check(placed === 8 && after.length === 16 && after.every(([, l]) => /^T\d+$/.test(l)), `skill-secret: after ${placed} placements ${JSON.stringify(after)}`);
  passed++;
  console.log(`ok skill tiles drawn: 8 secret as ?, ${after.length} named after the set-up`);
  await page.close();
}

// Jieqi: the identities of the human's face-down pieces that the bot captured (the capture
// letter, seen only by the capturer under the default rules, §F6) and of the bot's pieces the
// deal holds but never revealed are not in any response: the record's capture moves by the bot
// of face-down pieces, written with both letters, must not appear.
function jieqiSecrets(g, color) {
  const botParity = color === "red" ? 1 : 0;
  const humanCase = color === "red" ? /[A-Z]$/ : /[a-z]$/;
  return g.moves.filter((m, i) => i % 2 === botParity && /^[a-i]\d[a-i]\d/.test(m) && humanCase.test(m)).map((m) => `"${m}"`);
}
// Surprise: the bot's layout is in the saved set-up FEN's backs field: those entries of the
// bot's discs (`b7=r`) must never reach the page (the page's own view writes `b7=?`).
function surpriseSecrets(g, color) {
  const backs = g.tags.SetUp.split(" ")[6] || "";
  const bot = color === "red" ? /=[a-z]\*?$/ : /=[A-Z]\*?$/;
  return backs.split(",").filter((e) => bot.test(e)).map((e) => e.replace("*", ""));
}

(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "anqi-browser-"));
  const profile = path.join(tmp, "profile");
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
  let server;
  try {
    await viewerTest(context, tmp);
    server = await startServer(tmp);
    await playTest(context, server, "jieqi", "red", jieqiSecrets);
    await playTest(context, server, "surprise", "black", surpriseSecrets);
    // A RULES-more.md game through the same page: the bot (red) places its pieces in secret,
    // the human's placements are buttons, then moves on the 11x10 board (the no-leak check of
    // the secret placements is selfplay/tests/viewer.rs's; here the generic face-down check).
    await playTest(context, server, "missile-hidden-5", "black", () => []);
    await skillTilesTest(context, server);
  } finally {
    if (server) server.proc.kill();
    await context.close();
  }
  console.log(`${passed} passed, 0 failed`);
})().catch((e) => {
  console.error(e.message || e);
  console.log(`${passed} passed, 1 failed`);
  process.exit(1);
});
