// What the `jitfish web` page knows, shared by its modules: one plain object, `state`, that they
// read and write (the server's last state of the game, what the board shows, the review, the
// exercises, the analysis board, the note under the status); the page's widgets, the chess board,
// the checkers board (made when a checkers game is first shown) and the sounds, which main.js
// makes; and what several modules work out from the state (which game it is, the ply shown, how
// far the review reaches, a move's number and text). Each module keeps to itself what only it
// needs (the socket is connection.js's, the clock's warnings clocks.js's).
import {I18n} from "./i18n.js";

export const state = {
  game: null,              // the last state from the server
  gameId: null,
  thinking: false,         // the robot is thinking
  viewPly: null,           // null: the game now; a number: that many plies into the game
  flipped: false,          // Flip: a view choice for the game in hand only (kept over a reload)
  clockBase: null,         // {white, black, running, delay, at}
  statusNote: null,        // {text, kind, until}; text a string (the server's) or a function (ours)
  hintPending: false,      // a hint asked for, not yet come
  hintShown: false,        // the hint's arrow is on the board
  hintPath: null,          // the hint's path of squares, in a checkers game
  mode: "game",            // what the board shows: "game", "learn" or "analysis"
  review: null,            // the server's review of this game (its moves may be fewer than the game's)
  reviewProgress: null,    // {done, total} while a review runs
  analysis: null,          // the analysis board as the server keeps it
  engineOn: false,
  engineInfo: null,        // the engine's last lines on the analysis board
  learn: null,             // {list, index, found, solved, shown, hint, waiting, feedback, kind}
  typedAhead: null,        // a move typed while the robot thinks, sent when it has moved
  typedSent: null,         // the typed move sent last (the box is emptied once it is played)
  setupOpen: null,         // the new-game form opened (true) or closed (false) by hand
  lastConfig: null,        // the server's last configuration (levels, clock presets)
};

// The board widget (chess-board.js) and the sounds (sound.js), made once by main.js; the checkers
// board (checkers-board.js) made by main.js's factory when a checkers game is first shown, so
// that a page of chess games has only the chess board's squares.
export let board = null;
export let sounds = null;
let makeCheckersBoard = null;
let checkersWidget = null;

export function setWidgets(chessBoard, pageSounds, checkersFactory) {
  board = chessBoard;
  sounds = pageSounds;
  makeCheckersBoard = checkersFactory;
}

export function checkersBoard() {
  if (!checkersWidget) checkersWidget = makeCheckersBoard();
  return checkersWidget;
}

// The checkers board if it has been made (else null): for what only matters once it is shown.
export function madeCheckersBoard() {
  return checkersWidget;
}

// "chess" or "checkers": the game of the state (a chess game's state may not say).
export function gameKind(game) {
  return game && game.kind === "checkers" ? "checkers" : "chess";
}

export function isCheckers() {
  return gameKind(state.game) === "checkers";
}

// The first move's number and whether the game begins with the second player's move (Black's in
// chess, White's in checkers, where Black moves first), from the game's first position.
export function startOf(game) {
  const first = game.positions[0];
  if (gameKind(game) === "checkers") return {number: 1, second: first.trim().charAt(0).toUpperCase() === "W"};
  const fields = first.split(" ");
  return {number: Number(fields[5]) || 1, second: fields[1] === "b"};
}

// A move of the game as the server writes it: SAN in chess, "11-15" or "15x24" in checkers.
export function plyText(move) {
  return move.san !== undefined ? move.san : move.text;
}

// The ply the game's view shows (the game now, or the move clicked).
export function shownPly() {
  return state.viewPly === null ? state.game.moves.length : state.viewPly;
}

// The same before the first state has come (0).
export function currentPly() {
  return state.viewPly === null ? (state.game ? state.game.moves.length : 0) : state.viewPly;
}

// The review applies to the game's first moves as long as they are the ones it reviewed.
export function reviewedPlies() {
  const {review, game} = state;
  if (!review || !game) return 0;
  let count = 0;
  while (count < review.moves.length && count < game.moves.length && review.moves[count] === game.moves[count].uci) {
    count += 1;
  }
  return count;
}

// How many moves (a move: White's and Black's) the game's first `plies` plies reach into.
export function movesIn(plies) {
  const offset = startOf(state.game).second ? 1 : 0;
  return plies > 0 ? Math.floor((plies - 1 + offset) / 2) + 1 : 0;
}

// "3… Nf6" for the move that made ply `ply` (in the reader's notation); "2. 11-15" in checkers.
export function moveLabel(ply, san) {
  san = isCheckers() ? san : I18n.moves(san);
  const start = startOf(state.game);
  const index = ply - 1 + (start.second ? 1 : 0);
  const number = start.number + Math.floor(index / 2);
  return index % 2 === 0 ? `${number}. ${san}` : `${number}… ${san}`;
}
