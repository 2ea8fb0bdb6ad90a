// The chess board widget of `jitfish web`: draws a position, lets the player move by drag and drop
// or by clicking a piece then a square (mouse and touch), or from the keyboard (a cursor moved by
// the arrow keys or by typing a square, Enter or Space to pick up and put down), shows legal
// destinations, the last move, check, arrows (a hint, the review's better move, the engine's
// lines), a queued pre-move and the promotion chooser. It knows no chess rules: the legal moves come from the server
// (through game-view.js) as {from: [to, ...]}; for a pre-move, where each piece may go. An ES module:
// the class, and the pieces' pictures and names that the players' material (game-view.js) uses too.
// The pointer, the drag, the keyboard's cursor and what a screen reader is told are board-input.js's,
// shared with the checkers board.
import {t, tp} from "./i18n.js";
import {BoardInput} from "./board-input.js";

const FILES = "abcdefgh";
const PIECE_NAMES = {p: "P", n: "N", b: "B", r: "R", q: "Q", k: "K"};
const SVG_NS = "http://www.w3.org/2000/svg";
const ARROW_KINDS = ["hint", "best", "line1", "line2", "line3"];

// The words a screen reader says, in the reader's language (i18n.js), made when they are said so
// that they follow a change of language: one whole message for each piece and state, never a
// sentence put together from translated words.
function boardLabel() {
  return t("Chess board. Arrow keys move the cursor, or type a square such as e2; Enter or Space picks up the piece there and puts it down; Escape lets go.");
}

// A piece's name for its picture ("white knight"), by its FEN letter.
export function pieceName(piece) {
  switch (piece) {
    case "K": return tp("piece", "white king");
    case "Q": return tp("piece", "white queen");
    case "R": return tp("piece", "white rook");
    case "B": return tp("piece", "white bishop");
    case "N": return tp("piece", "white knight");
    case "P": return tp("piece", "white pawn");
    case "k": return tp("piece", "black king");
    case "q": return tp("piece", "black queen");
    case "r": return tp("piece", "black rook");
    case "b": return tp("piece", "black bishop");
    case "n": return tp("piece", "black knight");
    case "p": return tp("piece", "black pawn");
    default: return piece;
  }
}

// What the keyboard's cursor is on: "e4: white knight".
function squareWords(square, piece) {
  switch (piece) {
    case "K": return tp("aria", "{square}: white king", {square});
    case "Q": return tp("aria", "{square}: white queen", {square});
    case "R": return tp("aria", "{square}: white rook", {square});
    case "B": return tp("aria", "{square}: white bishop", {square});
    case "N": return tp("aria", "{square}: white knight", {square});
    case "P": return tp("aria", "{square}: white pawn", {square});
    case "k": return tp("aria", "{square}: black king", {square});
    case "q": return tp("aria", "{square}: black queen", {square});
    case "r": return tp("aria", "{square}: black rook", {square});
    case "b": return tp("aria", "{square}: black bishop", {square});
    case "n": return tp("aria", "{square}: black knight", {square});
    case "p": return tp("aria", "{square}: black pawn", {square});
    default: return tp("aria", "{square}: empty", {square});
  }
}

// The piece to promote to, in the chooser.
function promotionName(letter) {
  switch (letter) {
    case "q": return tp("promotion", "Queen");
    case "r": return tp("promotion", "Rook");
    case "b": return tp("promotion", "Bishop");
    default: return tp("promotion", "Knight");
  }
}

export function pieceUrl(piece) {           // piece: FEN letter, upper case for White
  const colour = piece === piece.toUpperCase() ? "w" : "b";
  return `static/pieces/${colour}${PIECE_NAMES[piece.toLowerCase()]}.svg`;
}

// The piece placement of a FEN as {square: letter}.
export function parsePlacement(fen) {
  const placement = {};
  const ranks = fen.split(" ")[0].split("/");
  ranks.forEach((row, index) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "8") {
        file += Number(ch);
      } else {
        placement[FILES[file] + (8 - index)] = ch;
        file += 1;
      }
    }
  });
  return placement;
}

export class ChessBoard extends BoardInput {
  // el: an empty element; onMove(from, to, promotion, premove) is called for a move the player
  // made (premove: made while the opponent is to move), onCancel() for a right-click or a click
  // that selects nothing (it drops a queued pre-move), onNote(say) for why a key did nothing
  // (`say` gives the words in the language of the moment).
  constructor(el, onMove, onCancel, onNote) {
    super(el, onNote);
    this.onMove = onMove;
    this.onCancel = onCancel || (() => {});
    this.premoving = false;          // the movable side's moves are pre-moves: no chooser, no slide
    this.premove = null;             // {from, to} queued
    this.hintSquare = null;
    this.orientation = "white";
    this.placement = {};
    this.legal = {};                 // from -> [to, ...] for the side the player may move
    this.promotions = new Set();     // "e7e8" for moves that promote
    this.movable = null;             // "white", "black" or null: whose pieces may be moved
    this.selected = null;
    this.answerPending = false;      // a move is shown but the server has not answered it yet ...
    this.earlyClicks = [];           // ... and the squares clicked meanwhile, played once it has
    this.build();
  }

  build() {
    this.arrowLayer = document.createElementNS(SVG_NS, "svg");
    this.arrowLayer.setAttribute("class", "arrows");
    this.arrowLayer.setAttribute("viewBox", "0 0 8 8");
    this.arrowLayer.innerHTML = "<defs>" + ARROW_KINDS.map((kind) =>
      `<marker id="arrowhead-${kind}" class="arrowhead ${kind}" markerWidth="4" markerHeight="4" refX="2.05" ` +
      'refY="2" orient="auto"><path d="M0,0 V4 L3,2 Z"></path></marker>').join("") + "</defs>";
    super.build(["board"], this.arrowLayer);
  }

  // The words of the board again, in the reader's language now.
  relabel() {
    this.el.setAttribute("aria-roledescription", t("chess board"));
    this.el.setAttribute("aria-label", boardLabel());
    this.drawPieces(true);
    if (this.keyboard) this.announce();
  }

  // Name the 64 cells for the orientation (white or black at the bottom) and add coordinates.
  layout() {
    const cells = this.grid.children;
    this.squares = {};
    for (let i = 0; i < 64; i++) {
      const row = Math.floor(i / 8), col = i % 8;
      const file = this.orientation === "white" ? col : 7 - col;
      const rank = this.orientation === "white" ? 8 - row : row + 1;
      const name = FILES[file] + rank;
      const cell = cells[i];
      cell.dataset.square = name;
      cell.className = "square " + ((file + rank) % 2 === 1 ? "dark" : "light");   // a1 dark, h1 light (FIDE 2.1)
      cell.textContent = "";
      if (col === 0) this.addCoordinate(cell, "rank", String(rank));
      if (row === 7) this.addCoordinate(cell, "file", FILES[file]);
      this.squares[name] = cell;
    }
    this.drawPieces(true);
    this.drawMarks();
  }

  addCoordinate(cell, kind, text) {
    const label = document.createElement("span");
    label.className = "coord " + kind;
    label.textContent = text;
    cell.appendChild(label);
  }

  setOrientation(orientation) {
    if (orientation === this.orientation) return;
    this.orientation = orientation;
    this.hideArrow();
    this.layout();
  }

  setPosition(fen) {
    this.placement = parsePlacement(fen);
    this.drawPieces(false);
  }

  drawPieces(all) {
    for (const [name, cell] of Object.entries(this.squares)) {
      const piece = this.placement[name] || null;
      let img = cell.querySelector("img.piece");
      if (!piece) {
        if (img) img.remove();
        continue;
      }
      if (!img) {
        img = document.createElement("img");
        img.className = "piece";
        img.draggable = false;
        img.alt = piece;
        cell.appendChild(img);
      }
      if (all || img.dataset.piece !== piece) {
        img.src = pieceUrl(piece);
        img.dataset.piece = piece;
        img.alt = pieceName(piece);
      }
    }
  }

  // Which side may move now and its legal moves ({} and null to freeze the board); with
  // `premove`, where its pieces may be pre-moved while the opponent thinks.
  setMovable(colour, legal, promotions, premove) {
    this.movable = colour;
    this.legal = legal || {};
    this.promotions = new Set(promotions || []);
    this.premoving = !!premove;
    if (this.selected && !(this.legal[this.selected] || []).length) this.selected = null;
    this.drawMarks();
    if (this.answerPending) this.replayEarlyClicks(colour);
  }

  // The server answered the move shown: the clicks made since (a quick pre-move) count now, if
  // any side may move.
  replayEarlyClicks(colour) {
    const clicks = this.earlyClicks;
    this.answerPending = false;
    this.earlyClicks = [];
    if (!colour) return;
    for (let i = 0; i < clicks.length; i++) {
      if (this.answerPending) {        // a replayed click made a move: the rest wait for its answer
        this.earlyClicks.push(...clicks.slice(i));
        return;
      }
      const again = this.selected === clicks[i];
      if (this.press(clicks[i]) === "select" && again) this.select(null);
    }
  }

  setHighlights(last, check) {
    this.last = last;
    this.check = check;
    this.drawMarks();
  }

  setPremove(premove) {             // {from, to} or null
    this.premove = premove;
    this.drawMarks();
  }

  setHintSquare(square) {           // the piece to move, for "show hint"
    this.hintSquare = square;
    this.drawMarks();
  }

  drawMarks() {
    for (const [name, cell] of Object.entries(this.squares)) {
      cell.classList.toggle("last-move", !!this.last && (this.last.from === name || this.last.to === name));
      cell.classList.toggle("check", this.check === name);
      cell.classList.toggle("selected", this.selected === name);
      cell.classList.toggle("premove", !!this.premove && (this.premove.from === name || this.premove.to === name));
      cell.classList.toggle("hint-square", this.hintSquare === name);
      cell.classList.toggle("cursor", this.keyboard && this.cursor === name);
      const target = !!this.selected && (this.legal[this.selected] || []).includes(name);
      cell.classList.toggle("target", target && !this.placement[name]);
      cell.classList.toggle("capture-target", target && !!this.placement[name]);
    }
  }

  owns(name) {
    const piece = this.placement[name];
    if (!piece || !this.movable) return false;
    const white = piece === piece.toUpperCase();
    return (this.movable === "white") === white;
  }

  select(name) {
    this.selected = name;
    this.drawMarks();
  }

  held() {
    return this.selected;
  }

  // A right click: the piece in hand let go of, a queued pre-move dropped.
  cancel() {
    this.select(null);
    this.onCancel();
  }

  pieceOn(name) {
    return this.squares[name].querySelector("img.piece");
  }

  // A click or the start of a drag on a square; while a move waits for the server's answer, kept
  // to be played once it comes.
  pointerPress(name, event) {
    if (this.answerPending) {
      event.preventDefault();
      this.earlyClicks.push(name);
      return;
    }
    const again = this.selected === name;
    const pressed = this.press(name);
    if (pressed) event.preventDefault();
    if (pressed === "select") this.startDrag(name, event, again);
  }

  // A press on a square: "move" when it completes the selected piece's move, "select" when it
  // picks up a movable piece, else null (it unselects, and drops a queued pre-move).
  press(name) {
    if (this.selected && this.selected !== name && (this.legal[this.selected] || []).includes(name)) {
      this.tryMove(this.selected, name);
      return "move";
    }
    if (this.owns(name) && (this.legal[name] || []).length) {
      this.select(name);
      return "select";
    }
    if (this.selected) this.select(null);
    this.onCancel();
    return null;
  }

  // A dragged piece let go over `target`: its move there, or back to its square.
  drop(from, target) {
    if (target && target !== from && (this.legal[from] || []).includes(target)) {
      this.dropped = from + target;    // already where it was dropped: no slide for this move
      this.tryMove(from, target);
    } else if (target !== from) {
      this.select(null);               // dropped off the legal squares: the piece snaps back
    }
  }

  async tryMove(from, to) {
    this.select(null);
    if (this.premoving) {              // queued, not made: the server says when it is played
      this.onMove(from, to, null, true);
      return;
    }
    let promotion = null;
    if (this.promotions.has(from + to)) {
      const white = this.placement[from] === this.placement[from].toUpperCase();
      promotion = await this.choosePromotion(to, white ? "white" : "black");
      if (!promotion) return;          // chooser closed: nothing moves
    }
    // Show the move at once; the server's answer redraws the position (a refusal puts it back).
    this.placement[to] = promotion ? (this.placement[from] === "P" ? promotion.toUpperCase() : promotion)
                                   : this.placement[from];
    delete this.placement[from];
    this.drawPieces(false);
    this.setMovable(null, {}, []);
    this.answerPending = true;
    this.onMove(from, to, promotion);
  }

  // The four pieces to promote to, over the target square's file; resolves to q/r/b/n or null.
  choosePromotion(to, colour) {
    this.closeChooser();
    return new Promise((resolve) => {
      const chooser = document.createElement("div");
      chooser.className = "promotion-chooser";
      chooser.setAttribute("role", "dialog");
      chooser.setAttribute("aria-label", t("Promote to"));
      const cell = this.squares[to];
      const top = cell.offsetTop < this.el.clientHeight / 2;
      chooser.style.left = cell.offsetLeft + "px";
      chooser.style.width = cell.offsetWidth + "px";
      chooser.style[top ? "top" : "bottom"] = "0px";
      // The queen on the promotion square (a quick second click there makes a queen), the
      // others stacked away from it, whichever edge of the board it is on.
      const order = top ? ["q", "n", "r", "b"] : ["b", "r", "n", "q"];
      for (const letter of order) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "promotion-choice";
        button.dataset.piece = letter;
        button.title = promotionName(letter);
        button.style.height = cell.offsetHeight + "px";
        const img = document.createElement("img");
        img.src = pieceUrl(colour === "white" ? letter.toUpperCase() : letter);
        img.alt = promotionName(letter);
        button.appendChild(img);
        button.addEventListener("click", (e) => { e.stopPropagation(); finish(letter); });
        chooser.appendChild(button);
      }
      const backdrop = document.createElement("div");
      backdrop.className = "promotion-backdrop";
      const finish = (letter) => {
        this.chooserCancel = null;     // answered: closing is no cancellation
        this.closeChooser();
        resolve(letter);
      };
      backdrop.addEventListener("pointerdown", (e) => { e.stopPropagation(); finish(null); });
      this.chooserKeys = (e) => {
        const letter = e.key.toLowerCase();
        if ("qrbn".includes(letter) && letter.length === 1) finish(letter);
        else if (e.key === "Escape") finish(null);
      };
      window.addEventListener("keydown", this.chooserKeys);
      this.el.appendChild(backdrop);
      this.el.appendChild(chooser);
      this.chooser = [backdrop, chooser];
      this.chooserCancel = () => resolve(null);
      chooser.querySelector("[data-piece='q']").focus();
    });
  }

  closeChooser() {
    if (!this.chooser) return;
    this.chooser.forEach((el) => el.remove());
    window.removeEventListener("keydown", this.chooserKeys);
    this.chooser = null;
    if (this.keyboard) this.el.focus();
    const cancel = this.chooserCancel;
    this.chooserCancel = null;
    if (cancel) cancel();
  }

  // ---- the keyboard ----

  startCursor() {
    return this.selected || (this.last && this.last.to) || (this.orientation === "white" ? "e2" : "e7");
  }

  keyDown(event) {
    if (!this.chooser) super.keyDown(event);     // the promotion chooser has its own keys
  }

  // A key on the board: the arrows or a typed square move the cursor, Enter or Space presses it,
  // Escape lets go.
  key(event) {
    if (!this.keyboard) return false;
    const steps = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]};
    const key = event.key.toLowerCase();
    if (steps[event.key]) {
      const [dx, dy] = this.orientation === "white" ? steps[event.key] : steps[event.key].map((n) => -n);
      const file = Math.max(0, Math.min(7, FILES.indexOf(this.cursor[0]) + dx));
      const rank = Math.max(1, Math.min(8, Number(this.cursor[1]) + dy));
      this.moveCursor(FILES[file] + rank, false);
    } else if (event.key === "Enter" || event.key === " ") {
      this.moveCursor(this.cursor, true);
    } else if (event.key === "Escape" && (this.selected || this.typed)) {
      this.typed = "";
      this.select(null);
      this.announce();
    } else if (key.length === 1 && FILES.includes(key)) {
      this.typed = key;
    } else if (this.typed && key.length === 1 && key >= "1" && key <= "8") {
      const square = this.typed + key;     // the cursor goes there; Enter or Space acts, as for the arrows
      this.typed = "";
      this.moveCursor(square, false);
    } else {
      return false;
    }
    return true;
  }

  // Enter or Space on a square: as a click (a second one on the piece in hand puts it back),
  // except that a square where the piece in hand cannot go keeps it in hand (another square may
  // be tried, Escape lets go), and a press that does nothing says why.
  keyPress(name) {
    if (this.answerPending) {
      this.earlyClicks.push(name);
      return;
    }
    if (this.selected === name) {
      this.select(null);
      return;
    }
    const from = this.selected;
    if (from && !(this.legal[from] || []).includes(name) && !(this.owns(name) && (this.legal[name] || []).length)) {
      this.sayWhy(name, true);
      return;
    }
    if (this.press(name) || !this.movable) return;
    this.sayWhy(name, false);
  }

  cursorWords() {
    return squareWords(this.cursor, this.placement[this.cursor] || null);
  }

  // Slide the piece now on `to` from `from` (a move that arrived from the server or a click-click).
  animateMove(from, to) {
    if (this.dropped === from + to) { this.dropped = null; return; }
    this.dropped = null;
    const img = this.squares[to] && this.squares[to].querySelector("img.piece");
    if (!img || !this.squares[from]) return;
    const a = this.squares[from].getBoundingClientRect(), b = this.squares[to].getBoundingClientRect();
    img.style.transition = "none";
    img.style.transform = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
    img.style.zIndex = "3";
    img.getBoundingClientRect();       // apply the start position before the transition
    img.style.transition = "transform 0.18s ease-out";
    img.style.transform = "";
    img.addEventListener("transitionend", () => { img.style.transition = ""; img.style.zIndex = ""; }, {once: true});
  }

  // Arrows [{from, to, kind}], kind one of ARROW_KINDS (its colour is the style sheet's).
  drawArrows(arrows) {
    this.hideArrow();
    for (const {from, to, kind} of arrows) {
      if (!from || !to || from === to) continue;
      const centre = (name) => {
        const file = FILES.indexOf(name[0]), rank = Number(name[1]);
        const x = this.orientation === "white" ? file : 7 - file;
        const y = this.orientation === "white" ? 8 - rank : rank - 1;
        return [x + 0.5, y + 0.5];
      };
      const [x1, y1] = centre(from), [x2, y2] = centre(to);
      const length = Math.hypot(x2 - x1, y2 - y1);
      const shorten = 0.35 / length;
      const line = document.createElementNS(SVG_NS, "line");
      line.setAttribute("class", `${kind}-arrow`);
      line.setAttribute("x1", x1);
      line.setAttribute("y1", y1);
      line.setAttribute("x2", x2 - (x2 - x1) * shorten);
      line.setAttribute("y2", y2 - (y2 - y1) * shorten);
      line.setAttribute("marker-end", `url(#arrowhead-${kind})`);
      line.dataset.from = from;
      line.dataset.to = to;
      this.arrowLayer.appendChild(line);
    }
  }

  showArrow(from, to) {
    this.drawArrows([{from, to, kind: "hint"}]);
  }

  hideArrow() {
    this.arrowLayer.querySelectorAll("line").forEach((line) => line.remove());
  }
}
