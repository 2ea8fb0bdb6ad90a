// What the `jitfish web` page knows, shared by its modules: one plain object, `state`, that they
// read and write (the server's last state of the game, what the board shows, the review, the
// exercises, the analysis board, the note under the status); the page's two widgets, the board and
// the sounds, which main.js makes; and what several modules work out from the state (the ply
// shown, how far the review reaches, a move's number). Each module keeps to itself what only it
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

// The board widget (chess-board.js) and the sounds (sound.js), made once by main.js.
export let board = null;
export let sounds = null;

export function setWidgets(chessBoard, pageSounds) {
  board = chessBoard;
  sounds = pageSounds;
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
  const blackFirst = state.game.positions[0].split(" ")[1] === "b" ? 1 : 0;
  return plies > 0 ? Math.floor((plies - 1 + blackFirst) / 2) + 1 : 0;
}

// "3… Nf6" for the move that made ply `ply` (in the reader's notation).
export function moveLabel(ply, san) {
  san = I18n.moves(san);
  const fields = state.game.positions[0].split(" ");
  const index = ply - 1 + (fields[1] === "b" ? 1 : 0);
  const number = (Number(fields[5]) || 1) + Math.floor(index / 2);
  return index % 2 === 0 ? `${number}. ${san}` : `${number}… ${san}`;
}
