// What the two board widgets of `jitfish web` (chess-board.js, checkers-board.js) do alike, as the
// class both extend, so that the player's hands work the same on either board and are written
// once: the pointer (a press on a square; a drag, with a ghost of the piece under the pointer and
// the square it is over marked; the drop; a right click lets go), the keyboard's cursor (shown when
// the board is reached by Tab, or by Enter or Space on a clicked board; gone on a click or when the
// focus leaves; moved, and pressed with Enter or Space), why a key press did nothing, and what a
// screen reader is told of the cursor's square (the live announcement). The squares, the pieces and
// the moves are each widget's own; it says what they are through these methods:
//   layout(), relabel()        the cells named for the orientation, the board's words (as it is made)
//   drawMarks()                the marks on the squares, the cursor's included
//   squareOf(cell)             the square a cell stands for (here its data-square; checkers: a number)
//   pieceOn(square)            the element of the piece on a square (it is what a drag picks up)
//   pointerPress(square, e)    a press of the main button on a square (startDrag() picks the piece up)
//   drop(from, to)             a dragged piece let go over `to` (null: off the board)
//   select(null), cancel()     let go of the piece in hand (cancel: a right click, a jump half made or a pre-move too)
//   startCursor()              where the cursor goes first
//   key(e)                     any other key; says whether it was the board's (then it goes no further)
//   keyPress(square)           Enter or Space on the cursor's square
//   held()                     the square of the piece in hand, or null
//   cursorWords()              the cursor's square and what is on it, for a screen reader
//   owns(square)               the piece there is the player's, to move now
import {t} from "./i18n.js";

export class BoardInput {
  // el: the widget's empty element; onNote(say) is called for why a key did nothing (`say` gives
  // the words in the language of the moment).
  constructor(el, onNote) {
    this.el = el;
    this.onNote = onNote || (() => {});
    this.squares = {};               // square (as a string) -> its cell
    this.drag = null;                // a piece pressed with the pointer: {from, x, y, moved, piece, ghost, again, pointer}
    this.cursor = null;              // the keyboard's square, while the board has the keyboard focus
    this.keyboard = false;           // the board was reached by keyboard (not clicked)
    this.typed = "";                 // what has been typed of a square, waiting for the rest
  }

  // The board in `el`, with the given classes: its 64 cells (`this.grid`, named by layout()), the
  // widget's `layers` over them, the live announcement; its words, its focus and its listeners.
  build(classes, ...layers) {
    this.el.classList.add(...classes);
    this.grid = document.createElement("div");
    this.grid.className = "squares";
    for (let i = 0; i < 64; i++) this.grid.appendChild(document.createElement("div"));
    this.el.appendChild(this.grid);
    for (const layer of layers) this.el.appendChild(layer);
    this.announcer = document.createElement("div");
    this.announcer.className = "visually-hidden";
    this.announcer.setAttribute("aria-live", "polite");
    this.el.appendChild(this.announcer);
    this.el.tabIndex = 0;
    this.el.setAttribute("role", "application");
    this.relabel();
    this.el.addEventListener("focus", () => this.focused());
    this.el.addEventListener("blur", () => this.setKeyboard(false));
    this.el.addEventListener("keydown", (e) => this.keyDown(e));
    this.grid.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", () => this.cancelDrag());
    this.grid.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.cancel();
    });
    this.layout();
  }

  // ---- the pointer ----

  squareOf(cell) {
    return cell.dataset.square;
  }

  squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest("[data-square]");
    return cell && this.grid.contains(cell) ? this.squareOf(cell) : null;
  }

  pointerDown(event) {
    this.setKeyboard(false);
    if (event.button !== undefined && event.button !== 0) return;
    const square = this.squareAt(event.clientX, event.clientY);
    if (square) this.pointerPress(square, event);
  }

  // The piece on `square` held by the pointer that pressed it, to be dragged; `again`: it was in
  // hand already, so that a click (no drag) lets go of it.
  startDrag(square, event, again) {
    this.drag = {from: square, x: event.clientX, y: event.clientY, moved: false, piece: this.pieceOn(square),
                 ghost: null, again, pointer: event.pointerId};
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer || !drag.piece) return;
    const distance = Math.hypot(event.clientX - drag.x, event.clientY - drag.y);
    if (!drag.moved && distance < 4) return;
    event.preventDefault();
    if (!drag.moved) {
      drag.moved = true;
      const size = this.squares[drag.from].getBoundingClientRect().width;
      const ghost = drag.piece.cloneNode(true);
      ghost.classList.add("ghost");
      ghost.style.width = ghost.style.height = `${size}px`;
      document.body.appendChild(ghost);
      drag.ghost = ghost;
      drag.size = size;
      drag.piece.classList.add("dragging");
    }
    drag.ghost.style.transform = `translate(${event.clientX - drag.size / 2}px, ${event.clientY - drag.size / 2}px)`;
    const over = this.squareAt(event.clientX, event.clientY);
    for (const cell of Object.values(this.squares)) cell.classList.toggle("drag-over", this.squareOf(cell) === over);
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.moved) {                 // a click: a second click on the piece in hand lets go of it
      if (drag.again) this.select(null);
      return;
    }
    const target = this.squareAt(event.clientX, event.clientY);
    this.endDrag(drag);
    this.drop(drag.from, target);
  }

  cancelDrag() {
    if (this.drag) this.endDrag(this.drag);
    this.drag = null;
  }

  endDrag(drag) {
    if (drag.ghost) drag.ghost.remove();
    if (drag.piece) drag.piece.classList.remove("dragging");
    for (const cell of Object.values(this.squares)) cell.classList.remove("drag-over");
  }

  // ---- the keyboard ----

  // Focus that came from the keyboard (Tab) shows the cursor; a click's does not, and leaves the
  // page's own keys (arrows through the moves, F to flip) as they were.
  focused() {
    if (this.el.matches(":focus-visible")) this.startKeyboard();
  }

  startKeyboard() {
    this.setKeyboard(true);
    if (!this.cursor) this.cursor = this.startCursor();
    this.drawMarks();
    this.announce();
  }

  setKeyboard(on) {
    if (this.keyboard === on) return;
    this.keyboard = on;
    this.typed = "";
    this.el.classList.toggle("keyboard", on);
    this.drawMarks();
  }

  keyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!this.keyboard && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();          // a clicked board: Enter or Space hands it to the keyboard
      this.startKeyboard();
    } else if (this.key(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  // The cursor to `square`; with `press` (Enter or Space), a press there.
  moveCursor(square, press) {
    this.cursor = square;
    if (press) this.keyPress(square);
    this.drawMarks();
    this.announce();
  }

  // Why Enter or Space on `square` did nothing: the piece in hand cannot go there (`inHand`), the
  // player's piece there has no move, or there is no piece of theirs to move.
  sayWhy(square, inHand) {
    if (inHand) this.onNote(() => t("That piece cannot go to {square}.", {square}));
    else if (this.owns(square)) this.onNote(() => t("The piece on {square} has no move now.", {square}));
    else this.onNote(() => t("There is no piece to move on {square}.", {square}));
  }

  announce() {
    if (!this.cursor) return;
    const what = this.cursorWords();
    const held = this.held();
    let state = "";
    if (held === this.cursor) state = t("Picked up.");
    else if (held) state = t("The piece on {square} is picked up.", {square: held});
    this.announcer.textContent = state ? `${what} — ${state}` : what;   // two sentences, each whole
  }
}
