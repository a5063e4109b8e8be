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

export function renderMoves(element, game, onGoto) {
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
      const move = node("span", "mv" + (cell.ply === game.ply ? " current" : ""), cell.text);
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
