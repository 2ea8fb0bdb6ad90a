// A checkers game on the `jitfish web` page: its board drawn from the server's state (the
// position shown, who may move and where, the last move, the hint's path), the moves made on it
// sent as paths, the refusal of a plain move while a jump is compulsory (a word on the board and
// in the note under the status), the pieces each side has beside its player, its sounds and its
// result. game-view.js calls it for a game whose state says kind "checkers"; the board widget is
// checkers-board.js.
import {t, tn} from "./i18n.js";
import {state, sounds, checkersBoard, shownPly} from "./store.js";
import {CheckersBoard, checkerSvg} from "./checkers-board.js";
import {isOpen, send} from "./connection.js";
import {note, renderStatus} from "./status.js";

// The refusal's words, in the language of the moment.
function refusalText(kind) {
  if (kind === "jump") return t("You must jump: a capture is compulsory");
  // Translators: said when a checkers piece is half-way through a multi-jump and a square it cannot go to is clicked.
  if (kind === "finish") return t("The jump goes on: click the next landing square");
  return t("Several jumps end there: click the landing squares one at a time");
}

// The checkers board widget (store.js makes it through this when a checkers game is first shown).
export function makeCheckersBoard(el) {
  return new CheckersBoard(el, {
    onMove: checkersMove,
    onRefuse: (kind) => {
      checkersBoard().showRefusal(refusalText(kind));
      note(() => refusalText(kind), "error", 4000);
      sounds.play("error");
      renderStatus();
    },
    onNote: (say) => { note(say, "error", 5000); renderStatus(); },
  });
}

// A whole move made on the board.
function checkersMove(path) {
  if (state.mode !== "game") return;
  state.typedAhead = null;
  send({type: "move", path});
}

// The board for the ply shown: the game now may be played (by the side to move, or by the
// person against the robot when it is their turn; no pre-moves), a past position only looked at.
export function renderCheckersBoard(bottom) {
  const game = state.game;
  const widget = checkersBoard();
  widget.setOrientation(bottom);
  const plies = game.moves.length;
  const ply = shownPly();
  widget.setPosition(game.boards[ply]);
  const move = ply > 0 ? game.moves[ply - 1] : null;
  widget.setHighlights(move ? {path: move.path, captures: move.captures} : null);
  widget.el.classList.toggle("viewing", state.viewPly !== null);
  const live = state.viewPly === null && ply === plies && !game.over && isOpen();
  const personMoves = live && !(game.human && game.turn !== game.human);
  if (personMoves) widget.setMovable(game.turn, game.legal, game.jump);
  else widget.setMovable(null, [], false);
  widget.setHint(state.hintShown && state.viewPly === null ? state.hintPath : null);
}

// The move just come from the server, seen sliding along its path (the pieces it took fading).
export function animateCheckersMove(game) {
  const last = game.last;
  if (!last || !last.path) return;
  const before = game.boards[game.moves.length - 1] || {};
  checkersBoard().animateMove(last.path, last.captures || [], before);
}

export function playCheckersSound(game) {
  const last = game.last;
  if (!last) return;
  if (last.crown) sounds.play("crown");
  else if (last.capture || (last.captures && last.captures.length)) sounds.play("capture");
  else sounds.play("move");
}

// Beside a player: its men and kings on the board, as small pieces with their numbers.
export function renderCounts(el, colour, counts) {
  el.id = `material-${colour}`;
  el.textContent = "";
  el.title = "";
  const side = counts ? counts[colour] : null;
  if (!side) return;
  const letter = colour === "black" ? "b" : "w";
  const parts = [[letter, side.men, tn("{n} man", "{n} men", side.men, {n: side.men})]];
  if (side.kings > 0) {
    parts.push([letter.toUpperCase(), side.kings, tn("{n} king", "{n} kings", side.kings, {n: side.kings})]);
  }
  for (const [piece, count, words] of parts) {
    const span = document.createElement("span");
    span.className = `count ${colour}${piece === letter ? "" : " kings"}`;
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", words);
    span.title = words;
    span.append(checkerSvg(piece), String(count));
    el.appendChild(span);
  }
}

// Who won a finished checkers game ("black", "white" or null for a draw), from its PDN result:
// in PDN the first side named is Black's, the side that moves first ("1-0": Black wins).
export function checkersWinner(game) {
  if (game.winner === "black" || game.winner === "white") return game.winner;
  if (game.result === "1-0" || game.result === "2-0") return "black";
  if (game.result === "0-1" || game.result === "0-2") return "white";
  return null;
}
