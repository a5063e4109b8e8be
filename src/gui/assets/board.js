// The board: turns state into SVG and reports user intent through one callback. It knows no
// rules: the legal moves it shows come from the server, and every attempt is reported.
//
//   const board = createBoard(element, intent => ...);
//   board.set({ board, orientation, last, legal, arrows, editing, interactive, label });
//
// label is the board's text for screen readers (the pieces' points).
//
// intent is { kind: "move", text } (a move attempt, legal or not) or { kind: "point", square }
// (a click in set-up mode).

const NS = "http://www.w3.org/2000/svg";
const FILES = "abcde";
const STEP = 100, MARGIN = 60, SIZE = 2 * MARGIN + 4 * STEP;

const el = (name, attrs = {}, parent) => {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
};

export const squareName = index => FILES[index % 5] + (Math.floor(index / 5) + 1);
export const squareIndex = name => FILES.indexOf(name[0]) + 5 * (Number(name[1]) - 1);

export function createBoard(root, onIntent) {
  let state = { board: ".".repeat(25), orientation: "normal", legal: [], arrows: [], interactive: false };
  let selected = null;
  let drag = null;
  const svg = el("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "board-svg", role: "img", "aria-label": "board" });
  root.replaceChildren(svg);

  const flipped = () => state.orientation === "flipped";
  const xy = index => {
    let file = index % 5, rank = Math.floor(index / 5);
    if (flipped()) { file = 4 - file; rank = 4 - rank; }
    return [MARGIN + file * STEP, MARGIN + (4 - rank) * STEP];
  };
  const pointAt = (x, y) => {
    let file = Math.round((x - MARGIN) / STEP), rank = 4 - Math.round((y - MARGIN) / STEP);
    if (file < 0 || file > 4 || rank < 0 || rank > 4) return null;
    if (flipped()) { file = 4 - file; rank = 4 - rank; }
    const index = rank * 5 + file;
    const [px, py] = xy(index);
    return Math.hypot(px - x, py - y) < STEP * 0.45 ? index : null;
  };
  const svgPoint = event => {
    const box = svg.getBoundingClientRect();
    return [(event.clientX - box.left) * SIZE / box.width, (event.clientY - box.top) * SIZE / box.height];
  };
  const targetsFrom = index => {
    const from = squareName(index);
    return state.legal.filter(m => m.from === from).map(m => squareIndex(m.to));
  };
  const placements = () => state.legal.filter(m => !m.from).map(m => squareIndex(m.to));

  function drawLines(group) {
    for (let i = 0; i < 5; i++) {
      el("line", { x1: xy(i)[0], y1: xy(i)[1], x2: xy(20 + i)[0], y2: xy(20 + i)[1], class: "line" }, group);
      el("line", { x1: xy(5 * i)[0], y1: xy(5 * i)[1], x2: xy(5 * i + 4)[0], y2: xy(5 * i + 4)[1], class: "line" }, group);
    }
    // Diagonals through the points whose file + rank index is even.
    for (const [a, b] of [[0, 24], [4, 20], [2, 10], [10, 22], [22, 14], [14, 2]]) {
      el("line", { x1: xy(a)[0], y1: xy(a)[1], x2: xy(b)[0], y2: xy(b)[1], class: "line" }, group);
    }
    for (let i = 0; i < 25; i++) el("circle", { cx: xy(i)[0], cy: xy(i)[1], r: 6, class: "point" }, group);
  }

  function drawCoordinates(group) {
    for (let i = 0; i < 5; i++) {
      const file = flipped() ? 4 - i : i;
      const rank = flipped() ? i : 4 - i;
      el("text", { x: MARGIN + i * STEP, y: SIZE - 14, class: "coord" }, group).textContent = FILES[file];
      el("text", { x: 18, y: MARGIN + i * STEP + 7, class: "coord" }, group).textContent = String(rank + 1);
    }
  }

  function drawTiger(group, x, y, extra = "") {
    const g = el("g", { class: "piece tiger " + extra, transform: `translate(${x} ${y})` }, group);
    el("path", { d: "M-30 -22 L-22 -40 L-10 -30 Z M30 -22 L22 -40 L10 -30 Z", class: "ear" }, g);
    el("path", { d: "M0 -34 L32 -10 L26 26 L0 36 L-26 26 L-32 -10 Z", class: "body" }, g);
    el("path", { d: "M-20 -14 L-8 -8 M20 -14 L8 -8 M-26 6 L-12 8 M26 6 L12 8 M0 -30 L0 -18", class: "stripe" }, g);
    el("circle", { cx: -11, cy: -2, r: 4, class: "eye" }, g);
    el("circle", { cx: 11, cy: -2, r: 4, class: "eye" }, g);
    return g;
  }

  function drawGoat(group, x, y, extra = "") {
    const g = el("g", { class: "piece goat " + extra, transform: `translate(${x} ${y})` }, group);
    el("path", { d: "M-12 -18 C-22 -34 -30 -30 -34 -22 M12 -18 C22 -34 30 -30 34 -22", class: "horn" }, g);
    el("circle", { cx: 0, cy: 2, r: 24, class: "body" }, g);
    el("circle", { cx: -8, cy: -2, r: 3, class: "eye" }, g);
    el("circle", { cx: 8, cy: -2, r: 3, class: "eye" }, g);
    return g;
  }

  function drawArrow(group, arrow) {
    const to = xy(squareIndex(arrow.to));
    if (!arrow.from) {
      el("circle", { cx: to[0], cy: to[1], r: 34, class: "arrow-ring " + (arrow.kind || "") }, group);
      return;
    }
    const from = xy(squareIndex(arrow.from));
    const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
    const ux = (to[0] - from[0]) / length, uy = (to[1] - from[1]) / length;
    el("line", {
      x1: from[0] + ux * 20, y1: from[1] + uy * 20, x2: to[0] - ux * 28, y2: to[1] - uy * 28,
      class: "arrow " + (arrow.kind || ""), "marker-end": `url(#head-${arrow.kind || "best"})`,
    }, group);
  }

  function render() {
    svg.setAttribute("aria-label", state.label || "board");
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    for (const kind of ["best", "hint", "second"]) {
      const marker = el("marker", { id: "head-" + kind, markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: "auto" }, defs);
      el("path", { d: "M0 0 L4 2 L0 4 Z", class: "arrow-head " + kind }, marker);
    }
    el("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 12, class: "background" }, svg);
    drawLines(el("g", {}, svg));
    drawCoordinates(el("g", {}, svg));
    const marks = el("g", {}, svg);
    if (state.last) {
      for (const name of [state.last.from, state.last.to].filter(Boolean)) {
        const [x, y] = xy(squareIndex(name));
        el("circle", { cx: x, cy: y, r: 40, class: "last" }, marks);
      }
      if (state.last.over) {
        const [x, y] = xy(squareIndex(state.last.over));
        el("path", { d: `M${x - 16} ${y - 16} L${x + 16} ${y + 16} M${x + 16} ${y - 16} L${x - 16} ${y + 16}`, class: "captured-mark" }, marks);
      }
    }
    if (selected !== null) {
      const [x, y] = xy(selected);
      el("circle", { cx: x, cy: y, r: 42, class: "selected" }, marks);
    }
    const pieces = el("g", {}, svg);
    [...state.board].forEach((piece, index) => {
      const [x, y] = xy(index);
      const dragging = drag && drag.moved && drag.from === index ? "ghost" : "";
      if (piece === "T") drawTiger(pieces, x, y, dragging).dataset.square = squareName(index);
      if (piece === "G") drawGoat(pieces, x, y, dragging).dataset.square = squareName(index);
    });
    const dots = el("g", {}, svg);
    const targets = selected !== null ? targetsFrom(selected) : (state.interactive ? placements() : []);
    for (const index of targets) {
      const [x, y] = xy(index);
      el("circle", { cx: x, cy: y, r: selected !== null ? 14 : 9, class: "dest", "data-square": squareName(index) }, dots);
    }
    const arrows = el("g", {}, svg);
    for (const arrow of state.arrows || []) drawArrow(arrows, arrow);
    if (drag && drag.moved) {
      const draw = state.board[drag.from] === "T" ? drawTiger : drawGoat;
      draw(svg, drag.x, drag.y, "dragged");
    }
  }

  function clickPoint(index) {
    if (state.editing) { onIntent({ kind: "point", square: squareName(index) }); return; }
    if (!state.interactive) return;
    const piece = state.board[index];
    if (selected !== null) {
      const from = selected;
      selected = null;
      if (from === index) { render(); return; }
      if (piece !== "." && targetsFrom(index).length) { selected = index; render(); return; }
      render();
      onIntent({ kind: "move", text: squareName(from) + squareName(index) });
      return;
    }
    if (piece !== "." && targetsFrom(index).length) { selected = index; render(); return; }
    onIntent({ kind: "move", text: squareName(index) });
  }

  svg.addEventListener("pointerdown", event => {
    const index = pointAt(...svgPoint(event));
    if (index === null) return;
    if (!state.editing && state.interactive && state.board[index] !== "." && targetsFrom(index).length) {
      drag = { from: index, moved: false, x: 0, y: 0 };
      try { svg.setPointerCapture(event.pointerId); } catch (_) { /* synthetic events */ }
    } else {
      clickPoint(index);
    }
  });
  svg.addEventListener("pointermove", event => {
    if (!drag) return;
    const [x, y] = svgPoint(event);
    const [fx, fy] = xy(drag.from);
    if (!drag.moved && Math.hypot(x - fx, y - fy) < 12) return;
    Object.assign(drag, { moved: true, x, y });
    selected = drag.from;
    render();
  });
  svg.addEventListener("pointerup", event => {
    if (!drag) return;
    const { from, moved } = drag;
    drag = null;
    if (!moved) { clickPoint(from); return; }
    const index = pointAt(...svgPoint(event));
    selected = null;
    render();
    if (index !== null && index !== from) onIntent({ kind: "move", text: squareName(from) + squareName(index) });
  });

  return {
    set(next) {
      state = { ...state, ...next };
      if (selected !== null && !targetsFrom(selected).length) selected = null;
      render();
    },
    element: svg,
  };
}
