// Views of the side panels: plain functions from state to DOM.

export const formatClock = ms => {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${(Math.ceil(ms / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

const node = (tag, className, text) => {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
};

export function renderPlayer(element, { name, side, clockMs, running, position }) {
  element.replaceChildren();
  const label = node("span", "name", `${side === "goats" ? "Goats" : "Tigers"}${name ? ": " + name : ""}`);
  element.append(label);
  if (side === "goats") {
    element.append(node("span", "hand", `in hand ${position.in_hand} · captured ${position.captured}`));
  }
  if (clockMs !== null && clockMs !== undefined) {
    const clock = node("span", "clock" + (running ? " running" : ""), formatClock(clockMs));
    clock.dataset.side = side;
    element.append(clock);
  }
}

export function renderMoves(element, game, onGoto, mistakes = new Set()) {
  element.replaceChildren();
  const tigersFirst = game.start.split(" ")[1] === "t";
  let number = 1;
  const cells = [];
  if (tigersFirst) cells.push(null);
  game.moves.forEach((text, index) => cells.push({ text, ply: index + 1 }));
  for (let i = 0; i < cells.length; i += 2) {
    element.append(node("span", "number", `${number++}.`));
    for (const cell of [cells[i], cells[i + 1]]) {
      if (!cell) { element.append(node("span", "", cell === null ? "..." : "")); continue; }
      const move = node("span", "mv" + (cell.ply === game.ply ? " current" : "") + (mistakes.has(cell.ply) ? " mistake" : ""), cell.text + (mistakes.has(cell.ply) ? "?" : ""));
      move.dataset.ply = cell.ply;
      move.addEventListener("click", () => onGoto(cell.ply));
      element.append(move);
    }
  }
  const current = element.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

export function renderLines(element, lines, onPlay) {
  element.replaceChildren();
  for (const line of lines) {
    const item = node("li", "line");
    item.append(node("span", "score", line.score ?? "?"));
    line.pv.forEach((move, index) => {
      const link = node("span", "pv-move", move);
      link.addEventListener("click", () => onPlay(line.pv.slice(0, index + 1)));
      item.append(link);
    });
    const nps = line.nps ? ` · ${Math.round(line.nps / 1000)} knps` : "";
    item.append(node("span", "meta", `depth ${line.depth}${nps}`));
    element.append(item);
  }
}

export function renderInfo(element, side, line) {
  element.textContent = line
    ? `${side}: ${line.score ?? ""} d${line.depth} ${line.nps ? Math.round(line.nps / 1000) + "knps" : ""} ${line.pv.join(" ")}`
    : "";
}

export const evalHeight = cp => {
  if (cp === null || cp === undefined) return 50;
  return 50 + 48 * Math.tanh(cp / 400);
};

const megabytes = bytes => `${Math.max(1, Math.round(bytes / 1e6))} MB`;

// The tablebase explorer (lichess's tablebase tab): the position's value and every legal move
// with its value, best first; clicking a move plays it. Without tables: how to get them, and a
// button to generate them here, with the generation's progress.
export function renderExplorer(element, { explorer, tables, onPlay, onGenerate }) {
  element.replaceChildren();
  element.append(node("h2", "", "Tablebase"));
  if (explorer) {
    element.append(node("p", "tb-value", explorer.value ? `Position: ${explorer.value.text}` : "Position: not in the tables"));
    // Under the forbid rule, with forbid values: the winner proven for this game's history.
    if (explorer.forbid) {
      element.append(node("p", "tb-forbid-value", `Under forbid, this game: ${explorer.forbid === "unknown" ? "not solved" : explorer.forbid}`));
    }
    const list = node("ul", "tb-moves");
    for (const entry of explorer.moves) {
      const item = node("li", "tb-move " + (entry.value ? entry.value.wdl : "unknown"));
      const button = node("button", "tb-play", entry.move.text);
      button.type = "button";
      button.dataset.move = entry.move.text;
      const proven = entry.forbid && entry.forbid !== "unknown" ? entry.forbid : null;
      const label = `${entry.move.text}: ${entry.value ? entry.value.text : "no value"}${proven ? `; under forbid: ${proven}` : ""}`;
      button.setAttribute("aria-label", label);
      button.addEventListener("click", () => onPlay(entry.move.text));
      item.append(button, node("span", "tb-result", entry.value ? entry.value.text : "no value"));
      if (proven) item.append(node("span", "tb-forbid", `forbid: ${proven}`));
      list.append(item);
    }
    element.append(list);
    return;
  }
  if (!tables) return;
  const generation = tables.generation;
  if (tables.status === "uncovered" || tables.status === "error") {
    element.append(node("p", "tb-help", tables.message));
  } else if (tables.status === "missing") {
    element.append(node("p", "tb-help", "No tablebase for these rules yet. The movement tables give the exact value of every position without goats in hand. Generate them from a terminal:"));
    element.append(node("code", "tb-command", tables.command));
    element.append(node("p", "tb-help", `They take ${megabytes(tables.bytes)} of disk and a minute or two to generate (the placement layers, --placement, take hours; see docs/tablebase.md). Start the GUI with --tb and that folder, or generate them here, in the background, into ${tables.dir}:`));
  }
  if (generation && !generation.finished) {
    const label = `Generating ${generation.rules}: ${generation.phase || "starting"} (layer ${Math.min(generation.layers_done + 1, generation.layers)} of ${generation.layers})`;
    const text = node("p", "tb-progress-text", label);
    text.id = "tb-progress-label";
    const bar = node("progress", "");
    bar.id = "tb-progress";
    bar.max = generation.total || 1;
    bar.value = generation.done;
    bar.setAttribute("aria-labelledby", "tb-progress-label");
    element.append(text, bar);
  } else if (tables.status === "missing") {
    const button = node("button", "", "Generate the tables here");
    button.id = "tb-generate";
    button.type = "button";
    button.addEventListener("click", onGenerate);
    element.append(button);
  }
  if (generation && generation.error) element.append(node("p", "tb-help", `The generation failed: ${generation.error}`));
}

// The review of a finished game: each value-losing move, with the move that kept the value.
export function renderReview(element, review, onGoto) {
  element.replaceChildren();
  element.hidden = !review;
  if (!review) return;
  element.append(node("h2", "", "Review"));
  if (review.covered === 0) {
    element.append(node("p", "", "The tables cover none of these moves (placement moves need the placement layers)."));
    return;
  }
  const summary = review.marks.length === 0
    ? `No move changed the value of the game (${review.covered} of ${review.reviewed} moves checked).`
    : `${review.marks.length} move(s) changed the value of the game (${review.covered} of ${review.reviewed} moves checked).`;
  element.append(node("p", "", summary));
  const list = node("ol", "review-marks");
  for (const mark of review.marks) {
    const item = node("li", "review-mark");
    const button = node("button", "", `${mark.move}?`);
    button.type = "button";
    button.addEventListener("click", () => onGoto(mark.ply - 1));
    item.append(button, node("span", "", ` move ${mark.ply}: ${mark.before.text} → ${mark.after.text}${mark.best ? `; ${mark.best} kept it` : ""}`));
    list.append(item);
  }
  element.append(list);
}
