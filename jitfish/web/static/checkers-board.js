// The checkers board widget of `jitfish web` (as chess-board.js is the chess one): the 8×8 board
// with its 32 dark squares numbered 1-32 as the books number them (docs/checkers.md), round
// checkers drawn in SVG (a king as two stacked pieces with a crown), the side at the bottom,
// moves by clicking a piece then a square or by dragging it (mouse and touch), or from the
// keyboard (the arrow keys or a typed square number move a cursor, Enter or Space picks up and
// puts down), dots on the next landing squares, the last move, a hint's path, and the refusal
// of a plain move while a jump is compulsory. It knows no rules: the server sends every legal
// move as its path of squares [from, landing, ...]; a multi-jump is made one landing at a time
// (the piece shows on each landing with the next ones offered) until only one legal path is
// left, which goes to onMove whole. The board's geometry (which square is where, the square a
// jump passes over) is all it works out itself. The pointer, the drag, the keyboard's cursor and
// what a screen reader is told are board-input.js's, shared with the chess board.
import {t, tp} from "./i18n.js";
import {BoardInput} from "./board-input.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SEGMENT_MS = 170;                 // a slide from one square to the next
const REFUSAL_MS = 3500;                // the refusal's word and the jumping pieces' marks stay this long

// ---- the squares ----

// Square 1-32 as {row, col} with White at the bottom (row 0 the top, Black's side; col 0 the left).
export function squareCell(square) {
  const index = square - 1;
  const row = Math.floor(index / 4);
  return {row, col: 2 * (index % 4) + (row % 2 === 0 ? 1 : 0)};
}

// The square at a row and column (White at the bottom), or null for a light square or off the board.
export function cellSquare(row, col) {
  if (row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 === 0) return null;
  return row * 4 + Math.floor(col / 2) + 1;
}

// The square a jump from `from` to `to` passes over, or null when the two are not a jump apart.
export function jumpedSquare(from, to) {
  const a = squareCell(from), b = squareCell(to);
  if (Math.abs(a.row - b.row) !== 2 || Math.abs(a.col - b.col) !== 2) return null;
  return cellSquare((a.row + b.row) / 2, (a.col + b.col) / 2);
}

function isBlack(piece) {
  return piece === "b" || piece === "B";
}

function isKing(piece) {
  return piece === "B" || piece === "W";
}

function samePath(a, b) {
  return a.length === b.length && a.every((square, index) => square === b[index]);
}

function startsWith(path, prefix) {
  return path.length >= prefix.length && prefix.every((square, index) => path[index] === square);
}

// ---- the pieces' pictures ----

function svgElement(name, attributes) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  return el;
}

// One disc: its side (the darker edge below), its face and the two grooves of a checker.
function disc(svg, cy, r) {
  svg.appendChild(svgElement("circle", {class: "edge", cx: 50, cy: cy + 6, r}));
  svg.appendChild(svgElement("circle", {class: "face", cx: 50, cy, r}));
  svg.appendChild(svgElement("circle", {class: "groove", cx: 50, cy, r: r * 0.74}));
  svg.appendChild(svgElement("circle", {class: "groove", cx: 50, cy, r: r * 0.48}));
}

// A checker as an SVG picture (its colours are the style sheet's): a man one disc, a king two
// stacked with a crown on top. piece: b, w (men), B, W (kings).
export function checkerSvg(piece) {
  const colour = isBlack(piece) ? "black" : "white";
  const svg = svgElement("svg", {viewBox: "0 0 100 100", class: `checker-art ${colour}`, "aria-hidden": "true"});
  svg.appendChild(svgElement("ellipse", {class: "shadow", cx: 50, cy: 60, rx: 42, ry: 38}));
  if (isKing(piece)) {
    disc(svg, 55, 39);
    disc(svg, 40, 39);
    svg.appendChild(svgElement("path", {class: "crown",
      d: "M31 52 L28 29 L40 39 L50 23 L60 39 L72 29 L69 52 Z M31 55 H69 V60 H31 Z"}));
  } else {
    disc(svg, 46, 42);
  }
  return svg;
}

// A piece's name for its picture ("black king").
export function checkerName(piece) {
  switch (piece) {
    case "b": return tp("checker", "black man");
    case "B": return tp("checker", "black king");
    case "w": return tp("checker", "white man");
    case "W": return tp("checker", "white king");
    default: return piece;
  }
}

// What the keyboard's cursor is on: "15: black man".
function squareWords(square, piece) {
  switch (piece) {
    case "b": return tp("aria", "{square}: black man", {square});
    case "B": return tp("aria", "{square}: black king", {square});
    case "w": return tp("aria", "{square}: white man", {square});
    case "W": return tp("aria", "{square}: white king", {square});
    default: return tp("aria", "{square}: empty", {square});
  }
}

function boardLabel() {
  return t("Checkers board. Arrow keys move the cursor, or type a square number such as 11; Enter or Space picks up the piece there and puts it down on each landing square; Escape lets go.");
}

export class CheckersBoard extends BoardInput {
  // el: an empty element. Callbacks: onMove(path) for a whole move the player made; onRefuse(kind)
  // when a move was refused ("jump": a jump is compulsory, "finish": a jump must go on,
  // "ambiguous": two jumps end there); onNote(say) for why a key did nothing (`say` gives the
  // words in the language of the moment).
  constructor(el, {onMove, onRefuse, onNote}) {
    super(el, onNote);
    this.onMove = onMove;
    this.onRefuse = onRefuse || (() => {});
    this.orientation = "white";
    this.position = {};              // the server's position: square (string) -> piece
    this.legal = [];                 // every legal path, for the side that may move now
    this.legalKey = "";
    this.jump = false;               // the legal moves are jumps
    this.movable = null;             // "black", "white" or null
    this.partial = null;             // the move being made: [from, landing, ...]
    this.last = null;                // {path, captures} of the last move
    this.hint = null;                // a hint's path
    this.mustJump = null;            // the squares of the pieces that can jump, marked after a refusal
    this.answerPending = false;      // a move sent and shown, the server's answer not in yet
    this.build();
  }

  build() {
    this.pathLayer = svgElement("svg", {class: "arrows", viewBox: "0 0 8 8", "aria-hidden": "true"});
    this.pathLayer.innerHTML = '<defs><marker id="checkers-arrowhead-hint" class="arrowhead hint" markerWidth="4" ' +
      'markerHeight="4" refX="2.05" refY="2" orient="auto"><path d="M0,0 V4 L3,2 Z"></path></marker></defs>';
    this.refusal = document.createElement("div");
    this.refusal.id = "checkers-refusal";
    this.refusal.setAttribute("role", "alert");
    this.refusal.hidden = true;
    super.build(["board", "checkers"], this.pathLayer, this.refusal);
  }

  // The words of the board again, in the reader's language now.
  relabel() {
    this.el.setAttribute("aria-roledescription", t("checkers board"));
    this.el.setAttribute("aria-label", boardLabel());
    for (const cell of Object.values(this.squares)) {
      const piece = cell.querySelector(".checker");
      if (piece) piece.setAttribute("aria-label", checkerName(piece.dataset.piece));
    }
    if (this.keyboard) this.announce();
  }

  // The 64 cells for the orientation: White at the bottom (square 1 top left), or Black (turned round).
  layout() {
    const cells = this.grid.children;
    this.squares = {};
    for (let i = 0; i < 64; i++) {
      const shownRow = Math.floor(i / 8), shownCol = i % 8;
      const row = this.orientation === "white" ? shownRow : 7 - shownRow;
      const col = this.orientation === "white" ? shownCol : 7 - shownCol;
      const square = cellSquare(row, col);
      const cell = cells[i];
      cell.textContent = "";
      cell.className = "square " + (square ? "dark" : "light");
      if (square) {
        cell.dataset.square = String(square);
        const number = document.createElement("span");
        number.className = "coord number";
        number.textContent = String(square);
        cell.appendChild(number);
        this.squares[square] = cell;
      } else {
        delete cell.dataset.square;
      }
    }
    this.drawPieces();
    this.drawMarks();
    this.drawHintPath();
  }

  setOrientation(orientation) {
    if (orientation === this.orientation) return;
    this.orientation = orientation;
    this.partial = null;
    this.layout();
  }

  // The position: {square: piece}. A move half made stays shown on top of it.
  setPosition(board) {
    this.position = Object.assign({}, board || {});
    this.answerPending = false;
    this.drawPieces();
    this.drawMarks();
  }

  // Which side may move, its legal paths, and whether they are jumps (null and [] freeze the board).
  setMovable(colour, paths, jump) {
    const key = `${colour}|${JSON.stringify(paths || [])}`;
    this.movable = colour;
    this.legal = colour ? (paths || []) : [];
    this.jump = !!jump && !!colour;
    if (key !== this.legalKey) {
      this.legalKey = key;
      this.partial = null;
      this.mustJump = null;
      this.drawPieces();
    }
    this.drawMarks();
  }

  setHighlights(last) {            // {path, captures} or null
    this.last = last;
    this.drawMarks();
  }

  setHint(path) {                  // a path, or null
    const same = (path || null) === this.hint || (path && this.hint && samePath(path, this.hint));
    this.hint = path || null;
    if (!same) this.drawHintPath();
    this.drawMarks();
  }

  // ---- drawing ----

  // What the board shows: the position, with a move half made (its piece on its last landing,
  // the pieces it has jumped marked) or one sent and not yet answered.
  shown() {
    const placement = Object.assign({}, this.position);
    const jumped = new Set();
    if (this.partial && this.partial.length > 1) {
      const piece = placement[this.partial[0]];
      delete placement[this.partial[0]];
      placement[this.partial[this.partial.length - 1]] = piece;
      for (let i = 1; i < this.partial.length; i++) {
        const over = jumpedSquare(this.partial[i - 1], this.partial[i]);
        if (over) jumped.add(String(over));
      }
    }
    return {placement, jumped};
  }

  drawPieces() {
    const {placement, jumped} = this.shown();
    for (const [square, cell] of Object.entries(this.squares)) {
      const piece = placement[square] || null;
      let el = cell.querySelector(".checker");
      if (el && el.dataset.piece !== piece) {
        el.remove();
        el = null;
      }
      if (piece && !el) {
        el = document.createElement("div");
        el.className = `checker ${isBlack(piece) ? "black" : "white"}${isKing(piece) ? " king" : ""}`;
        el.dataset.piece = piece;
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", checkerName(piece));
        el.appendChild(checkerSvg(piece));
        cell.appendChild(el);
      }
      if (el) el.classList.toggle("jumped", jumped.has(square));
    }
  }

  // The squares the piece in hand may go to next.
  nextLandings() {
    if (!this.partial) return new Set();
    const at = this.partial.length;
    return new Set(this.candidates().filter((path) => path.length > at).map((path) => path[at]));
  }

  drawMarks() {
    const last = this.last ? this.last.path || [] : [];
    const hint = this.hint || [];
    const next = this.nextLandings();
    const held = this.held();
    const visited = this.partial ? this.partial.slice(0, -1) : [];
    for (const [square, cell] of Object.entries(this.squares)) {
      const number = Number(square);
      cell.classList.toggle("last-move", last.includes(number));
      cell.classList.toggle("hint-square", hint.includes(number));
      cell.classList.toggle("selected", held === number);
      cell.classList.toggle("jump-path", visited.includes(number));
      cell.classList.toggle("target", next.has(number));
      cell.classList.toggle("must-jump", !!this.mustJump && this.mustJump.has(number));
      cell.classList.toggle("cursor", this.keyboard && this.cursor === number);
    }
  }

  centre(square) {
    const {row, col} = squareCell(square);
    const shownRow = this.orientation === "white" ? row : 7 - row;
    const shownCol = this.orientation === "white" ? col : 7 - col;
    return [shownCol + 0.5, shownRow + 0.5];
  }

  // The hint's path as an arrow through its squares.
  drawHintPath() {
    this.pathLayer.querySelectorAll("polyline").forEach((line) => line.remove());
    if (!this.hint || this.hint.length < 2) return;
    const points = this.hint.map((square) => this.centre(square));
    const [x1, y1] = points[points.length - 2];
    const [x2, y2] = points[points.length - 1];
    const shorten = 0.35 / Math.hypot(x2 - x1, y2 - y1);
    points[points.length - 1] = [x2 - (x2 - x1) * shorten, y2 - (y2 - y1) * shorten];
    const line = svgElement("polyline", {class: "hint-arrow", fill: "none", "stroke-linejoin": "round",
                                         points: points.map(([x, y]) => `${x},${y}`).join(" "),
                                         "marker-end": "url(#checkers-arrowhead-hint)"});
    line.dataset.path = this.hint.join("-");
    this.pathLayer.appendChild(line);
  }

  // ---- making a move ----

  owns(square) {
    const piece = this.position[square];
    return !!piece && !!this.movable && isBlack(piece) === (this.movable === "black");
  }

  froms() {
    return new Set(this.legal.map((path) => path[0]));
  }

  candidates() {
    return this.partial ? this.legal.filter((path) => startsWith(path, this.partial)) : [];
  }

  select(square) {
    this.partial = square === null ? null : [square];
    this.drawPieces();
    this.drawMarks();
  }

  // The square the piece in hand is on now (its last landing), or null.
  held() {
    return this.partial ? this.partial[this.partial.length - 1] : null;
  }

  // Let go of the piece in hand, a jump half made included (Escape, a right click).
  cancel() {
    if (!this.partial) return;
    this.partial = null;
    this.drawPieces();
    this.drawMarks();
    if (this.keyboard) this.announce();
  }

  // The pieces that can jump, marked for a while, and the refusal's reason told.
  refuse(kind) {
    if (kind === "jump") {
      this.mustJump = this.froms();
      clearTimeout(this.mustJumpTimer);
      this.mustJumpTimer = setTimeout(() => { this.mustJump = null; this.drawMarks(); }, REFUSAL_MS);
    }
    this.drawMarks();
    this.onRefuse(kind);
  }

  // The refusal's words on the board for a few seconds (the page says them in its note too).
  showRefusal(text) {
    this.refusal.hidden = false;
    this.refusal.textContent = text;
    clearTimeout(this.refusalTimer);
    this.refusalTimer = setTimeout(() => { this.refusal.hidden = true; this.refusal.textContent = ""; }, REFUSAL_MS);
  }

  // An empty dark square next to `from` diagonally: where a plain step would go.
  isStep(from, to) {
    if (this.position[to]) return false;
    const a = squareCell(from), b = squareCell(to);
    return Math.abs(a.row - b.row) === 1 && Math.abs(a.col - b.col) === 1;
  }

  // The piece in hand taken on to `square`: the path up to it when the legal paths through it
  // agree on how it is reached (the next landing, or one further on), else the one path that
  // ends there. Returns the new path, or null when no legal move goes there, "ambiguous" when
  // several do in different ways.
  reach(square) {
    const at = this.partial.length;
    const through = this.candidates().filter((path) => path.indexOf(square, at) !== -1);
    if (!through.length) return null;
    const prefixes = through.map((path) => path.slice(0, path.indexOf(square, at) + 1));
    if (prefixes.every((prefix) => samePath(prefix, prefixes[0]))) return prefixes[0];
    const ending = through.filter((path) => path[path.length - 1] === square);
    if (ending.length === 1) return ending[0];
    if (through.some((path) => path[at] === square)) return this.partial.concat(square);
    return "ambiguous";
  }

  // A press on a square (a click, the start of a drag, Enter): "move" when it completes a move,
  // "step" when it takes a jump on a landing further, "select" when it picks up a piece (or
  // presses the piece in hand), "refused" when it is refused with a reason, else null.
  press(square, dragged) {
    if (this.answerPending || !this.movable) return null;
    const partial = this.partial;
    if (partial) {
      const held = partial[partial.length - 1];
      if (square === held) return "select";
      const reached = this.reach(square);
      if (reached === "ambiguous") {
        this.refuse("ambiguous");
        return "refused";
      }
      if (reached) return this.advance(reached, dragged);
      if (partial.length > 1) {
        if (square === partial[0]) {                       // the piece put back where it started
          this.cancel();
          return null;
        }
        if (!(this.owns(square) && this.froms().has(square))) {     // another piece that may move: taken instead
          this.refuse("finish");
          return "refused";
        }
      }
    }
    if (this.owns(square)) {
      if (this.froms().has(square)) {
        this.select(square);
        return "select";
      }
      if (this.jump) {
        this.select(null);
        this.refuse("jump");
        return "refused";
      }
    } else if (partial && this.jump && this.isStep(partial[0], square)) {
      this.refuse("jump");                                 // a plain step while a jump is compulsory
      return "refused";
    }
    if (partial) this.select(null);
    return null;
  }

  // The piece in hand on to the end of `path`: the move when only one legal path is left,
  // else a landing further (shown there, the next landings offered). A dragged piece is already
  // on the end of `path`; a clicked one slides there.
  advance(path, dragged) {
    const left = this.legal.filter((legal) => startsWith(legal, path));
    const shownIndex = dragged ? path.length - 1 : this.partial.length - 1;
    if (left.length === 1) {
      this.finish(left[0], shownIndex);
      return "move";
    }
    this.partial = path;
    this.drawPieces();
    this.drawMarks();
    if (shownIndex < path.length - 1) this.slide(path.slice(shownIndex));
    if (this.keyboard) this.announce();
    return "step";
  }

  // The whole move: shown at once (the server's answer redraws it; a refusal puts it back) and
  // told. `shownIndex`: where on the path the piece is seen now, from which the rest slides.
  finish(path, shownIndex) {
    const piece = this.position[path[0]];
    const placement = Object.assign({}, this.position);
    delete placement[path[0]];
    for (let i = 1; i < path.length; i++) {
      const over = jumpedSquare(path[i - 1], path[i]);
      if (over) delete placement[over];
    }
    const end = path[path.length - 1];
    const row = squareCell(end).row;
    placement[end] = piece === "b" && row === 7 ? "B" : piece === "w" && row === 0 ? "W" : piece;
    this.partial = null;
    this.position = placement;
    this.movable = null;
    this.legal = [];
    this.legalKey = "";
    this.jump = false;
    this.drawPieces();
    this.drawMarks();
    this.answerPending = true;
    if (shownIndex < path.length - 1) this.slide(path.slice(shownIndex));
    this.onMove(path);
  }

  // ---- the pointer ----

  squareOf(cell) {
    return Number(cell.dataset.square);
  }

  pieceOn(square) {
    return this.squares[square].querySelector(".checker");
  }

  // A click or the start of a drag on a square: a drag only for the piece picked up.
  pointerPress(square, event) {
    const again = !!this.partial && this.partial.length === 1 && this.partial[0] === square;
    const pressed = this.press(square, false);
    if (pressed) event.preventDefault();
    if (pressed === "select" && this.partial) this.startDrag(square, event, again);
  }

  // A dragged piece let go over `target`: pressed there (refused or not legal: it snaps back).
  drop(from, target) {
    if (target && target !== from) this.press(target, true);
    else if (!target && this.partial && this.partial.length === 1) this.select(null);
  }

  // ---- the keyboard ----

  startCursor() {
    return this.partial ? this.partial[this.partial.length - 1]
      : this.last && this.last.path ? this.last.path[this.last.path.length - 1]
        : this.orientation === "white" ? 22 : 11;
  }

  // The cursor one step on the screen: left and right along the row's dark squares, up and down
  // to the next row's nearest dark square.
  stepCursor(key) {
    const {row, col} = squareCell(this.cursor);
    const sign = this.orientation === "white" ? 1 : -1;
    let shownRow = this.orientation === "white" ? row : 7 - row;
    let shownCol = this.orientation === "white" ? col : 7 - col;
    if (key === "ArrowLeft") shownCol -= 2;
    else if (key === "ArrowRight") shownCol += 2;
    else {
      shownRow += key === "ArrowUp" ? -1 : 1;
      shownCol += key === "ArrowUp" ? 1 : -1;
      if (shownCol > 7) shownCol = 6;
      if (shownCol < 0) shownCol = 1;
    }
    if (shownRow < 0 || shownRow > 7 || shownCol < 0 || shownCol > 7) return this.cursor;
    const boardRow = sign > 0 ? shownRow : 7 - shownRow;
    const boardCol = sign > 0 ? shownCol : 7 - shownCol;
    return cellSquare(boardRow, boardCol) || this.cursor;
  }

  // A key on the board: the arrows or a typed square number move the cursor, Enter or Space
  // presses it, Escape lets go (on a clicked board too).
  key(event) {
    if (!this.keyboard) {
      if (event.key !== "Escape" || !this.partial) return false;
      this.cancel();
      return true;
    }
    if (event.key.startsWith("Arrow")) {
      this.typed = "";
      this.moveCursor(this.stepCursor(event.key), false);
    } else if (event.key === "Enter" || event.key === " ") {
      if (this.typed) this.cursor = Number(this.typed);
      this.typed = "";
      this.moveCursor(this.cursor, true);
    } else if (event.key === "Escape" && (this.partial || this.typed)) {
      this.typed = "";
      this.cancel();
      this.announce();
    } else if (/^[0-9]$/.test(event.key)) {
      const typed = (this.typed + event.key).replace(/^0+/, "");
      const number = Number(typed);
      if (number >= 1 && number <= 32) {
        this.typed = typed.length < 2 && number <= 3 ? typed : "";   // 1, 2, 3 may begin 10-32
        this.moveCursor(number, false);
      } else {
        this.typed = "";
      }
    } else {
      return false;
    }
    return true;
  }

  // Enter or Space on a square: as a click, but one that does nothing says why, and the piece in
  // hand stays in hand where it cannot go.
  keyPress(square) {
    const held = this.partial;
    if (held && held.length === 1 && held[0] === square) {
      this.select(null);
      return;
    }
    if (held && held.length === 1 && !this.reach(square) && !(this.owns(square) && this.froms().has(square)) &&
        !(this.jump && (this.isStep(held[0], square) || this.owns(square)))) {
      this.sayWhy(square, true);
      return;
    }
    const pressed = this.press(square, false);
    if (pressed || !this.movable || (held && held.length > 1)) return;
    this.sayWhy(square, false);
  }

  cursorWords() {
    return squareWords(this.cursor, this.shown().placement[this.cursor] || null);
  }

  // ---- moves seen ----

  // The piece now on the path's last square slides along the path; the pieces it took (`before`:
  // the position before the move, for their pictures) fade out on their squares.
  animateMove(path, captures, before) {
    if (!path || path.length < 2) return;
    const ghosts = [];
    for (const square of captures || []) {
      const piece = before && before[square];
      const cell = this.squares[square];
      if (!piece || !cell || cell.querySelector(".checker")) continue;
      const el = document.createElement("div");
      el.className = `checker ${isBlack(piece) ? "black" : "white"}${isKing(piece) ? " king" : ""} taken`;
      el.appendChild(checkerSvg(piece));
      cell.appendChild(el);
      ghosts.push(el);
    }
    const total = SEGMENT_MS * (path.length - 1);
    for (const el of ghosts) {
      const fade = el.animate([{opacity: 1}, {opacity: 1, offset: 0.5}, {opacity: 0}], {duration: total + 120});
      fade.onfinish = () => el.remove();
      fade.oncancel = () => el.remove();
    }
    this.slide(path);
  }

  // The piece on the path's last square seen coming along the path.
  slide(path) {
    const end = this.squares[path[path.length - 1]];
    const el = end && end.querySelector(".checker");
    if (!el || path.some((square) => !this.squares[square])) return;
    const b = end.getBoundingClientRect();
    const frames = path.map((square) => {
      const a = this.squares[square].getBoundingClientRect();
      return {transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)`};
    });
    el.classList.add("moving");
    const animation = el.animate(frames, {duration: SEGMENT_MS * (path.length - 1), easing: "ease-in-out"});
    animation.onfinish = () => el.classList.remove("moving");
    animation.oncancel = () => el.classList.remove("moving");
  }
}
