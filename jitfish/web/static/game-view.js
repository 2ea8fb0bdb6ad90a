// The game as the `jitfish web` page shows it: the server's state taken in (applyState), the board
// (whose side is at the bottom, the position shown, who may move, the arrows), the players with the
// material they are up, the move list, and going through the game (the buttons under the moves, a
// click on a move, the arrow keys, Home, End). render() draws the whole page from the shared state
// (store.js); the board shows the game, an exercise (learn.js) or the analysis board (analysis.js),
// each of which draws its own parts through it. A checkers game shows the checkers board instead
// of the chess board (checkers-view.js draws it and its players' pieces).
import {t, tn, I18n} from "./i18n.js";
import {$} from "./dom.js";
import {tab, prefs, rememberSession} from "./storage.js";
import {state, board, sounds, shownPly, currentPly, reviewedPlies, isCheckers, checkersBoard, madeCheckersBoard, startOf,
  plyText} from "./store.js";
import {pieceName, pieceUrl} from "./chess-board.js";
import {isOpen, send} from "./connection.js";
import {renderStatus} from "./status.js";
import {tickClocks, resetLowTime} from "./clocks.js";
import {renderActions, sendTyped, flip} from "./actions.js";
import {renderSetup, fitSetup} from "./settings-form.js";
import {renderReview} from "./review.js";
import {learnEntry, learnTry, renderLearn, renderLearnBoard} from "./learn.js";
import {renderAnalysis, openAnalysis, closeAnalysis, analysisStep} from "./analysis.js";
import {hideFull, closeResignChoice, showGameOver, fillGameOver} from "./dialogs.js";
import {renderCheckersBoard, animateCheckersMove, playCheckersSound, renderCounts} from "./checkers-view.js";
import {applyTheme} from "./preferences.js";

// ---- the server's state ----

export function applyState(message) {
  const previous = state.game;
  const newGame = message.game_id !== state.gameId;
  const game = message.game;
  state.game = game;
  state.gameId = message.game_id;
  document.body.dataset.game = String(state.gameId);   // which game the page shows, for its tests
  state.thinking = message.thinking;
  hideFull();
  rememberSession(message.session);

  const grew = previous && !newGame && game.moves.length > previous.moves.length;
  const changed = newGame || !previous || game.moves.length !== previous.moves.length || game.over !== previous.over;
  if (changed && state.statusNote && state.statusNote.kind !== "offline") state.statusNote = null;   // old news
  if (newGame || !previous || game.moves.length !== previous.moves.length) {
    state.viewPly = null;
    board.hideArrow();
    state.hintPending = false;
    state.hintShown = false;
    if (grew && state.typedSent !== null && $("move-input").value.trim() === state.typedSent) $("move-input").value = "";
    state.typedSent = null;
    if (!grew) state.typedAhead = null;        // a take-back or a new game: not the move it was typed for
    closeResignChoice();
  }
  if (newGame) {
    // A new game shows the person's colour at the bottom (White between people); the same game
    // again (a reload, a lost connection) keeps its flip.
    const kept = tab.get("flipped", null);
    state.flipped = !!kept && typeof kept === "object" && kept.session === message.session &&
                    kept.game === message.game_id && kept.on === true;
    resetLowTime();
    state.typedAhead = null;
    state.setupOpen = null;
    if (previous) {
      state.review = null;
      state.reviewProgress = null;
      state.learn = null;
      if (state.mode === "analysis") closeAnalysis();
      state.mode = "game";
    }
  }
  if (grew) playMoveSound();
  const animate = grew && state.viewPly === null && game.last ? game.last : null;
  if (newGame || !previous || game.moves.length !== previous.moves.length) state.hintPath = null;
  if (game.clock) {
    state.clockBase = Object.assign({at: performance.now()}, game.clock);
  } else {
    state.clockBase = null;
  }
  render();
  if (animate && isCheckers()) animateCheckersMove(game);
  else if (animate) board.animateMove(animate.from, animate.to);
  if (state.typedAhead !== null && grew && personToMove()) {
    const text = state.typedAhead;
    state.typedAhead = null;
    sendTyped(text);
  }
  if (newGame && previous) showBoard();
  if (newGame && (previous || game.moves.length)) fitSetup();
  if (previous && !newGame && !previous.over && game.over) {
    sounds.play("end");
    showGameOver();
  }
  if (newGame && $("game-over").open) $("game-over").close();
  else if (game.over && $("game-over").open) fillGameOver();      // said again in another language
}

// A new game started from the bottom of a phone's page: the board comes into view, so that the
// robot's first move is seen.
function showBoard() {
  const area = $("play-area").getBoundingClientRect();
  if (area.top < 0 || area.bottom > window.innerHeight) {
    $("play-area").scrollIntoView({block: "start", behavior: "smooth"});
  }
}

// The person may move now (against the robot, when it is not thinking).
export function personToMove() {
  const game = state.game;
  return !!game && isOpen() && !game.over && !(game.human && game.turn !== game.human);
}

function playMoveSound() {
  const game = state.game;
  const last = game.last;
  if (!last) return;
  if (isCheckers()) {
    playCheckersSound(game);
    return;
  }
  if (game.check) sounds.play("check");
  else if (last.castle) sounds.play("castle");
  else if (last.capture) sounds.play("capture");
  else sounds.play("move");
}

// Against the robot the person's colour is at the bottom; between people the side that moves first
// (White in chess, Black in checkers), or the side to move with "turn board each move"; Flip
// turns it round.
export function orientation() {
  const game = state.game;
  let bottom = isCheckers() ? "black" : "white";
  if (state.mode === "learn" && state.learn) bottom = learnEntry().color;      // the side to find a move for
  else if (game && game.human) bottom = game.human;
  else if (game && prefs.autoFlip) bottom = game.turn;
  if (state.flipped) bottom = bottom === "white" ? "black" : "white";
  return bottom;
}

// ---- drawing ----

export function render() {
  const game = state.game;
  if (!game) { renderStatus(); return; }
  const checkers = isCheckers();
  showBoardOf(checkers);
  if (checkers) renderCheckersBoard(orientation());
  else renderChessBoard();
  renderPlayers();
  renderMoves();
  renderActions();
  renderReview();
  renderLearn();
  renderAnalysis();
  renderSetup();
  renderBoardArrows();
  renderStatus();
  tickClocks();
}

// The chess board or the checkers board, whichever game the page shows, and its colours.
let shownKind = null;

function showBoardOf(checkers) {
  const kind = checkers ? "checkers" : "chess";
  if (kind === shownKind) return;
  shownKind = kind;
  board.el.hidden = checkers;
  if (checkers && board.el.contains(document.activeElement)) document.activeElement.blur();
  const other = checkers ? checkersBoard() : madeCheckersBoard();
  if (other) other.el.hidden = !checkers;
  if (!checkers && other && other.el.contains(document.activeElement)) document.activeElement.blur();
  document.body.classList.toggle("playing-checkers", checkers);
  applyTheme();
}

function renderChessBoard() {
  const game = state.game;
  board.setOrientation(orientation());
  const open = isOpen();
  board.setHintSquare(null);
  board.setPremove(null);
  if (state.mode === "analysis" && state.analysis) {
    const analysis = state.analysis;
    board.setPosition(analysis.fen);
    board.setHighlights(analysis.last, analysis.check);
    board.el.classList.remove("viewing");
    if (open && !analysis.over) board.setMovable(analysis.turn, analysis.legal, analysis.promotions);
    else { board.closeChooser(); board.setMovable(null, {}, []); }
  } else if (state.mode === "learn" && state.learn) {
    renderLearnBoard();
  } else {
    const plies = game.moves.length;
    const ply = state.viewPly === null ? plies : state.viewPly;
    board.setPosition(game.positions[ply]);
    const move = ply > 0 ? game.moves[ply - 1] : null;
    board.setHighlights(move ? {from: move.from, to: move.to} : null, game.checks[ply]);
    board.el.classList.toggle("viewing", state.viewPly !== null);
    const live = state.viewPly === null && !game.over && open;
    const robotToMove = game.human && game.turn !== game.human;
    if (live && !robotToMove) board.setMovable(game.turn, game.legal, game.promotions);
    else if (live && robotToMove) board.setMovable(game.human, game.premove_targets, [], true);
    else { board.closeChooser(); board.setMovable(null, {}, []); }
    if (state.viewPly === null) board.setPremove(game.premove);
  }
}

// Arrows on the board: the engine's first moves on the analysis board, the better move at a
// marked move of the reviewed game.
export function renderBoardArrows() {
  if (isCheckers()) return;                        // the checkers board draws its hint itself
  if (state.mode === "analysis") {
    const lines = state.engineInfo ? state.engineInfo.lines : [];
    board.drawArrows(lines.map((line, index) => ({from: line.from, to: line.to, kind: `line${index + 1}`})).reverse());
    return;
  }
  if (state.mode === "learn") return;
  const ply = shownPly();
  const entry = ply > 0 && ply <= reviewedPlies() ? state.review.plies[ply - 1] : null;
  if (entry && entry.mark && entry.best) board.drawArrows([{from: entry.best.from, to: entry.best.to, kind: "best"}]);
  else if (!state.hintShown) board.hideArrow();
}

// A move made on the board (the board widget's onMove).
export function boardMove(from, to, promotion, premove) {
  if (state.mode === "analysis") send({type: "analysis_move", from, to, promotion});
  else if (state.mode === "learn") learnTry(from, to, promotion);
  else if (premove) { state.typedAhead = null; send({type: "premove", from, to}); }
  else send({type: "move", from, to, promotion});
}

// A right-click, or a click that selects nothing, drops a queued pre-move.
export function cancelPremove() {
  if (state.mode === "game" && state.game && state.game.premove) send({type: "premove", cancel: true});
}

function renderPlayers() {
  const {game, mode, analysis, learn, thinking} = state;
  const bottom = orientation();
  const top = bottom === "white" ? "black" : "white";
  let material = game.materials ? game.materials[shownPly()] : null;
  if (mode === "analysis" && analysis) material = analysis.material;
  else if (mode === "learn" && learn) material = game.materials[learnEntry().ply - 1];
  for (const [bar, colour] of [["player-top", top], ["player-bottom", bottom]]) {
    const el = $(bar);
    el.querySelector(".name").textContent = game.players[colour];
    const robotThinking = thinking && !game.over && game.human && colour !== game.human && game.turn === colour;
    el.querySelector(".thinking").hidden = !robotThinking;
    if (isCheckers()) renderCounts(el.querySelector(".material"), colour, (game.counts || [])[shownPly()]);
    else renderMaterial(el.querySelector(".material"), colour, material);
    const slot = el.querySelector(".clock-slot");
    const clock = $(`clock-${colour}`);
    if (clock.parentElement !== slot) slot.appendChild(clock);
  }
}

// Beside each player: the pieces it is up (as the opponent's pieces it took) and the points.
function renderMaterial(el, colour, material) {
  el.id = `material-${colour}`;
  el.textContent = "";
  const pieces = material ? material[colour] : [];
  for (const letter of pieces) {
    const img = document.createElement("img");
    img.src = pieceUrl(letter);
    img.alt = letter.toLowerCase();           // the piece's letter, which the tests look for ...
    img.setAttribute("aria-label", pieceName(letter));    // ... and its name, which a screen reader says
    el.appendChild(img);
  }
  const lead = material ? (colour === "white" ? material.balance : -material.balance) : 0;
  if (lead > 0) el.append(`+${lead}`);
  if (lead <= 0) el.title = "";
  else if (colour === "white") el.title = tn("White is up {n} point", "White is up {n} points", lead, {n: lead});
  else el.title = tn("Black is up {n} point", "Black is up {n} points", lead, {n: lead});
}

let renderedMoves = "";         // what the move list was drawn for: drawn again only when it changes

// The move list is drawn again at the next render (in another language or notation).
export function redrawMoves() {
  renderedMoves = "";
}

function renderMoves() {
  const {game, gameId, review, mode} = state;
  const box = $("moves");
  const reviewed = reviewedPlies();
  const key = `${gameId}|${game.moves.map(plyText).join(" ")}|${game.result}|${reviewed}|${I18n.lang}|${I18n.figurines}`;
  if (key !== renderedMoves) {
    renderedMoves = key;
    box.textContent = "";
    const checkers = isCheckers();
    const start = startOf(game);
    let number = start.number;
    let second = start.second;         // the next move is the second of its number (Black's in chess)
    const add = (cls, text, ply) => {
      const el = document.createElement("span");
      el.className = cls;
      el.textContent = text;
      if (ply !== undefined) el.dataset.ply = String(ply);
      box.appendChild(el);
      return el;
    };
    if (second && game.moves.length) { add("num", `${number}.`); add("move placeholder", "…"); }
    game.moves.forEach((move, index) => {
      if (!second) add("num", `${number}.`);
      // SAN, or figurines where the reader asks; a checkers move as the server writes it (11-15, 15x24)
      const el = add("move", checkers ? move.text : I18n.moves(move.san), index + 1);
      const judged = index < reviewed ? review.plies[index] : null;
      if (judged && judged.mark) {
        el.classList.add(judged.mark);
        const glyph = document.createElement("span");
        glyph.className = "glyph";
        glyph.textContent = judged.symbol;
        el.appendChild(glyph);
        el.title = markTitle(judged.mark, judged.reason);
      }
      if (second) number += 1;
      second = !second;
    });
    if (game.over) add("result", game.result);
    box.querySelectorAll(".move.placeholder").forEach((el) => el.classList.remove("move"));
  }
  const current = mode === "game" ? shownPly() : -1;
  let currentEl = null;
  box.querySelectorAll(".move").forEach((el) => {
    const on = Number(el.dataset.ply) === current;
    el.classList.toggle("current", on);
    if (on) currentEl = el;
  });
  if (currentEl) {
    const top = currentEl.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - currentEl.offsetHeight) {
      box.scrollTop = top - box.clientHeight / 2;
    }
  }
}

// A marked move's tooltip: "Blunder: allows mate in 1 (Qxf7#)".
function markTitle(mark, reason) {
  if (mark === "inaccuracy") return t("Inaccuracy: {reason}", {reason});
  if (mark === "mistake") return t("Mistake: {reason}", {reason});
  return t("Blunder: {reason}", {reason});
}

// ---- navigation through the game ----

export function view(ply) {
  if (!state.game) return;
  const plies = state.game.moves.length;
  ply = Math.max(0, Math.min(plies, ply));
  state.viewPly = ply === plies ? null : ply;
  if (state.viewPly !== null) {
    board.hideArrow();
    state.hintShown = false;
  }
  if (state.mode === "analysis") openAnalysis(ply);        // the analysis board follows the game's moves
  else if (state.mode === "learn") leaveMode();
  render();
}

// Back to the game from an exercise or the analysis board.
export function leaveMode() {
  if (state.mode === "analysis") closeAnalysis();
  state.mode = "game";
  state.learn = null;
  render();
}

export function init() {
  $("nav-first").addEventListener("click", () => view(0));
  $("nav-prev").addEventListener("click", () => view(currentPly() - 1));
  $("nav-next").addEventListener("click", () => view(currentPly() + 1));
  $("nav-last").addEventListener("click", () => view(Infinity));
  $("moves").addEventListener("click", (event) => {
    const el = event.target.closest(".move");
    if (el && el.dataset.ply) view(Number(el.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    if ($("game-over").open) return;
    const keys = state.mode === "analysis"
      ? {ArrowLeft: () => analysisStep(-1), ArrowRight: () => analysisStep(1), Home: () => analysisStep(-Infinity),
         End: () => analysisStep(Infinity), f: flip, Escape: leaveMode}
      : {ArrowLeft: () => view(currentPly() - 1), ArrowRight: () => view(currentPly() + 1),
         Home: () => view(0), End: () => view(Infinity), f: flip};
    if (isCheckers() && madeCheckersBoard() && madeCheckersBoard().partial) {
      keys.Escape = () => madeCheckersBoard().cancel();           // a jump half made let go of
    }
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });
}
