// The page's controller: one WebSocket to the server, which owns the game and the rules. It
// turns server state into views and user intent into messages.

import { createBoard } from "./board.js";
import { renderPlayer, renderMoves, renderLines, renderInfo, evalHeight, formatClock, renderExplorer, renderReview } from "./panels.js";

const $ = id => document.getElementById(id);
let socket = null, state = null, lines = [], orientation = "normal", tab = "play";
let editing = null, autoplay = null, exportAction = null, receivedAt = 0, messageTimer = null, rejected = false;
let recordText = "", config = null;

const board = createBoard($("board"), intent => {
  if (intent.kind === "point" && editing) {
    const paint = document.querySelector("input[name=paint]:checked").value;
    const index = "abcde".indexOf(intent.square[0]) + 5 * (Number(intent.square[1]) - 1);
    editing[index] = editing[index] === paint ? "." : paint;
    render();
  } else if (intent.kind === "move") {
    send({ type: "move", move: intent.text });
  }
});

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function showMessage(text) {
  $("message").textContent = text;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { $("message").textContent = ""; }, 5000);
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "connected"; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected";
    if (!rejected) setTimeout(connect, 1000);
  };
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      if (!state || state.mode !== message.mode) selectTab(message.mode);
      if (!state || state.game.ply !== message.game.ply || state.game.position.fen !== message.game.position.fen) lines = message.analysis.lines;
      state = message;
      receivedAt = performance.now();
      render();
    } else if (message.type === "analysis") {
      if (state && message.ply === state.game.ply) { lines = message.lines; renderAnalysis(); renderBoard(); }
    } else if (message.type === "engine_info") {
      renderInfo(document.querySelector(`#engine-info [data-side=${message.side}]`), message.side, message.line);
    } else if (message.type === "error") {
      if (message.message.includes("another tab")) rejected = true;
      showMessage(message.message);
    } else if (message.type === "export") {
      finishExport(message);
    } else if (message.type === "records") {
      const select = $("record-games");
      select.replaceChildren(...message.games.map(g => {
        const option = document.createElement("option");
        option.value = g.index;
        option.textContent = `#${g.number} ${g.goat} - ${g.tiger} ${g.result} (${g.plies} plies)`;
        return option;
      }));
      select.value = message.index;
      select.hidden = message.games.length < 2;
    }
  };
}

function selectTab(name) {
  tab = name;
  for (const button of document.querySelectorAll(".tab")) button.classList.toggle("active", button.dataset.tab === name);
  for (const body of document.querySelectorAll(".tab-body")) body.classList.toggle("active", body.dataset.body === name);
}

function arrows() {
  const list = [];
  if (state.hint) list.push({ from: state.hint.from, to: state.hint.to, kind: "hint" });
  if (state.mode === "analyse" && state.analysis.on) {
    lines.forEach((line, index) => {
      const first = state.game.legal.find(m => m.text === line.pv[0]);
      if (first) list.push({ from: first.from, to: first.to, kind: index === 0 ? "best" : "second" });
    });
  }
  return list;
}

function renderBoard() {
  if (!state) return;
  const view = state.game;
  if (editing) {
    board.set({ board: editing.join(""), orientation, last: null, legal: [], arrows: [], interactive: false, editing: true });
    return;
  }
  board.set({ board: view.position.board, orientation, last: view.last, legal: view.legal, arrows: arrows(), interactive: view.legal.length > 0, editing: false, label: boardLabel(view) });
}

function clockMs(side) {
  if (!state.clocks) return null;
  let ms = state.clocks[side + "_ms"];
  if (state.clocks.running === side) ms -= performance.now() - receivedAt;
  return ms;
}

function renderPlayers() {
  const [top, bottom] = orientation === "normal" ? ["tigers", "goats"] : ["goats", "tigers"];
  for (const [element, side] of [[$("player-top"), top], [$("player-bottom"), bottom]]) {
    renderPlayer(element, { name: state.players[side], side, clockMs: clockMs(side), running: state.clocks?.running === side, position: state.game.position });
  }
}

function renderAnalysis() {
  renderLines($("lines"), state.mode === "analyse" ? lines : [], pv => {
    for (const move of pv) send({ type: "move", move });
  });
  const best = state.mode === "analyse" && state.analysis.on && lines[0] ? lines[0].goats_cp : null;
  $("eval-fill").style.height = `${evalHeight(best)}%`;
  renderExplorer($("explorer"), {
    explorer: state.explorer, tables: state.tables,
    onPlay: move => send({ type: "move", move }),
    onGenerate: () => send({ type: "generate_tables" }),
  });
}

// Board contents in words, for screen readers.
function boardLabel(view) {
  const points = piece => [...view.position.board].map((c, i) => c === piece ? "abcde"[i % 5] + (Math.floor(i / 5) + 1) : null).filter(Boolean);
  return `board: tigers on ${points("T").join(" ")}; goats on ${points("G").join(" ") || "none"}; ${view.position.in_hand} goats in hand, ${view.position.captured} captured`;
}

const sideName = side => (side === "goats" ? "Goats" : "Tigers");

// The status line, announced by screen readers: the last move, who moves, the end.
function statusText(view) {
  const parts = [];
  if (view.last) {
    const mover = view.position.side === "goats" ? "Tigers" : "Goats";
    const what = view.last.over ? `${view.last.from} takes ${view.last.over}, to ${view.last.to}` : view.last.from ? `${view.last.from} to ${view.last.to}` : `placed on ${view.last.to}`;
    parts.push(`${mover}: ${what}.`);
  }
  parts.push(view.outcome ? view.outcome : `${sideName(view.position.side)} to move`);
  if (state.thinking) parts.push(`${state.players[state.thinking] || "engine"} is thinking`);
  if (view.ply < view.moves.length) parts.push(`move ${view.ply} of ${view.moves.length}`);
  if (state.end) parts.push(`Game over: ${state.end.reason}`);
  return parts.join(" · ");
}

function render() {
  if (!state) return;
  const view = state.game;
  renderBoard();
  renderPlayers();
  renderAnalysis();
  const mistakes = new Set((state.review?.marks || []).map(mark => mark.ply));
  renderMoves($("moves"), view, ply => send({ type: "goto", ply }), mistakes);
  const status = statusText(view);
  if ($("status").textContent !== status) $("status").textContent = status;
  $("notice").hidden = !state.notice;
  $("notice").textContent = state.notice || "";
  $("review-button").hidden = !(state.mode === "play" && state.end && state.tables.status === "ok");
  renderReview($("review"), state.mode === "play" ? state.review : null, ply => send({ type: "goto", ply: ply + 1 }));
  $("move-input").disabled = view.legal.length === 0;
  $("move-submit").disabled = view.legal.length === 0;
  $("banner").hidden = !state.end;
  if (state.end) $("banner").textContent = `${state.end.result} · ${state.end.reason}`;
  $("fault").hidden = !state.fault;
  $("fault-text").textContent = state.fault || "";
  $("position-string").textContent = view.position.fen;
  $("analysis-on").checked = state.mode === "analyse" && state.analysis.on;
  const names = state.engines;
  for (const select of document.querySelectorAll(".engine-select")) {
    if (select.options.length !== names.length) {
      select.replaceChildren(...names.map((name, index) => new Option(name, index)));
      if (select.name === "tigers" && names.length > 1) select.value = 1;
    }
  }
  const opponent = $("opponent");
  if (opponent.options.length !== names.length + 1) {
    opponent.replaceChildren(...names.map((name, index) => new Option(`Engine: ${name}`, index)), new Option("A person at this board", "person"));
  }
  const perfect = $("level").querySelector("option[value=perfect]");
  if (perfect) perfect.disabled = state.tables.status !== "ok";
  playFormShape();
}

// The Play form shows what applies: a level against an engine, engine limits at full
// strength and perfect, neither for two people.
function playFormShape() {
  const form = $("play-form");
  const person = form.opponent.value === "person";
  $("level-label").hidden = person;
  $("human-label").hidden = person;
  $("limits-box").hidden = person || !["full", "perfect"].includes(form.level.value);
}

async function loadConfig() {
  try {
    config = await (await fetch("/api/config")).json();
  } catch (error) {
    return;
  }
  $("level").replaceChildren(...config.levels.map(level => {
    const label = typeof level.level === "number" ? `Level ${level.level} (about ${level.elo} Elo)` : level.level === "full" ? "Full strength" : "Perfect (tablebases)";
    return new Option(label, level.level);
  }));
  $("level").value = "full";
  playFormShape();
}

function rulesFromForm() {
  const form = $("play-form");
  return { forced_capture: form.forced.checked, captures_to_win: Number(form.captures.value), repetition: form.repetition.value };
}

const number = value => (value === "" || Number(value) === 0 ? null : Number(value));

// A play message from the Play form; `extra` overrides (continuing from Analyse).
function playMessage(extra = {}) {
  const form = $("play-form");
  const clock = Number(form.minutes.value) * 60000;
  const opponent = extra.opponent ?? form.opponent.value;
  const person = opponent === "person";
  const level = /^[0-9]+$/.test(form.level.value) ? Number(form.level.value) : form.level.value;
  return {
    type: "play", engine: person ? null : Number(opponent), level: person ? null : level,
    human: extra.human ?? form.human.value, rules: rulesFromForm(), from_shown: Boolean(extra.from_shown),
    limits: { movetime_ms: number(form.movetime.value), depth: number(form.depth.value), nodes: number(form.nodes.value),
      clock_ms: clock || null, increment_ms: clock ? Number(form.increment.value) * 1000 : null },
  };
}
$("play-form").addEventListener("submit", event => {
  event.preventDefault();
  const message = playMessage();
  send(message);
  orientation = message.engine === null || message.human === "goats" ? "normal" : "flipped";
});
$("play-form").addEventListener("change", playFormShape);
const continueFromHere = opponent => {
  if (!state) return;
  const human = state.game.position.side;
  send(playMessage({ from_shown: true, opponent, human }));
  orientation = opponent === "person" || human === "goats" ? "normal" : "flipped";
};
$("continue-engine").addEventListener("click", () => continueFromHere($("opponent").value === "person" ? "0" : $("opponent").value));
$("continue-person").addEventListener("click", () => continueFromHere("person"));
$("review-button").addEventListener("click", () => send({ type: "review" }));
$("move-form").addEventListener("submit", event => {
  event.preventDefault();
  const text = $("move-input").value.trim();
  if (!text) return;
  send({ type: "move", move: text });
  $("move-input").value = "";
});
$("watch-form").addEventListener("submit", event => {
  event.preventDefault();
  const form = event.target;
  const clock = Number(form.minutes.value) * 60000;
  send({
    type: "watch", goats: Number(form.goats.value), tigers: Number(form.tigers.value), rules: rulesFromForm(), from_current: form.current.checked,
    limits: { movetime_ms: number(form.movetime.value), clock_ms: clock || null, increment_ms: clock ? Number(form.increment.value) * 1000 : null },
  });
});
$("watch-stop").addEventListener("click", () => send({ type: "stop_watch" }));
$("takeback").addEventListener("click", () => send({ type: "takeback" }));
$("resign").addEventListener("click", () => send({ type: "resign" }));
$("hint").addEventListener("click", () => send({ type: "hint" }));
$("restart").addEventListener("click", () => send({ type: "restart_engine" }));
const analyse = () => send({ type: "analyse", on: $("analysis-on").checked, engine: Number($("analysis-engine").value), multipv: Number($("multipv").value) });
$("analysis-on").addEventListener("change", analyse);
$("multipv").addEventListener("change", () => { if ($("analysis-on").checked) analyse(); });
$("analysis-engine").addEventListener("change", () => { if ($("analysis-on").checked) analyse(); });
$("setup-form").addEventListener("submit", event => {
  event.preventDefault();
  send({ type: "setup", position: $("position-input").value, rules: rulesFromForm() });
});
$("edit-board").addEventListener("click", () => {
  editing = [...(state ? state.game.position.board : ".".repeat(25))];
  $("editor").hidden = false;
  render();
});
$("edit-clear").addEventListener("click", () => { editing = [...".".repeat(25)]; render(); });
$("edit-done").addEventListener("click", () => {
  const ranks = [];
  for (let rank = 4; rank >= 0; rank--) {
    ranks.push(editing.slice(rank * 5, rank * 5 + 5).join("").replace(/\.+/g, dots => String(dots.length)));
  }
  const text = `${ranks.join("/")} ${$("edit-side").value} ${$("edit-hand").value} ${$("edit-captured").value}`;
  $("position-input").value = text;
  editing = null;
  $("editor").hidden = true;
  send({ type: "setup", position: text, rules: rulesFromForm() });
});
$("record-file").addEventListener("change", async event => {
  const file = event.target.files[0];
  if (file) $("record-text").value = await file.text();
});
$("record-load").addEventListener("click", () => {
  recordText = $("record-text").value;
  send({ type: "load_record", text: recordText, index: 0 });
});
$("record-games").addEventListener("change", event => send({ type: "load_record", text: recordText, index: Number(event.target.value) }));

const goto = ply => { if (state) send({ type: "goto", ply: Math.max(0, Math.min(ply, state.game.moves.length)) }); };
$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => state && goto(state.game.ply - 1));
$("forward").addEventListener("click", () => state && goto(state.game.ply + 1));
$("last").addEventListener("click", () => state && goto(state.game.moves.length));
const flip = () => { orientation = orientation === "normal" ? "flipped" : "normal"; render(); };
$("flip").addEventListener("click", flip);
$("autoplay").addEventListener("click", () => {
  if (autoplay) { clearInterval(autoplay); autoplay = null; $("autoplay").textContent = "Auto-play"; return; }
  $("autoplay").textContent = "Pause";
  autoplay = setInterval(() => {
    if (!state || state.game.ply >= state.game.moves.length) { clearInterval(autoplay); autoplay = null; $("autoplay").textContent = "Auto-play"; return; }
    goto(state.game.ply + 1);
  }, 700);
});
document.addEventListener("keydown", event => {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") { event.preventDefault(); state && goto(state.game.ply - 1); }
  if (event.key === "ArrowRight") { event.preventDefault(); state && goto(state.game.ply + 1); }
  if (event.key === "f") flip();
});
for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => selectTab(button.dataset.tab));

function copy(text, what) {
  const done = () => showMessage(`${what} copied`);
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => showMessage(`cannot copy: ${text}`));
  } else {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    done();
  }
}
function finishExport(message) {
  if (exportAction === "copy") copy(message.text, "game");
  else {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([message.text], { type: "text/plain" }));
    link.download = message.format === "pgn" ? "baghchal-game.pgn" : "baghchal-game.jsonl";
    link.click();
    URL.revokeObjectURL(link.href);
  }
  exportAction = null;
}
$("copy-position").addEventListener("click", () => state && copy(state.game.position.fen, "position"));
$("copy-game").addEventListener("click", () => { exportAction = "copy"; send({ type: "export", format: "pgn" }); });
$("download-pgn").addEventListener("click", () => { exportAction = "download"; send({ type: "export", format: "pgn" }); });
$("download-json").addEventListener("click", () => { exportAction = "download"; send({ type: "export", format: "json" }); });

setInterval(() => {
  if (!state || !state.clocks || !state.clocks.running) return;
  for (const clock of document.querySelectorAll(".clock")) clock.textContent = formatClock(clockMs(clock.dataset.side));
}, 200);

selectTab("play");
loadConfig();
connect();

// For tests and the curious: the state the page last got from the server.
window.baghchal = { get state() { return state; }, get lines() { return lines; } };
