// The page of `jitfish web`, put together: the only script index.html loads (an ES module, run once
// the page is parsed). The server keeps the game, the clock and the rules and runs the engine's
// reviews and analyses; the page shows them and sends what the person does. Its modules, each with
// one concern, share one state object (store.js):
//   i18n.js          the reader's language: t(), tn(), tp(), figurines, the page's own texts
//   storage.js       what the browser keeps: settings, preferences, the tab's game
//   store.js         the shared state, the board and sounds, and what is worked out from the state
//   connection.js    the WebSocket: hello, reconnecting, sending, each message to its handler
//   game-view.js     the server's state taken in; the board, players, material, moves, navigation
//   checkers-view.js a checkers game's board, moves, refusals, pieces counted, sounds and result
//   status.js        the status line and its note, the tab's title
//   clocks.js        the clocks counting down between two states
//   actions.js       the game's buttons and the typed move
//   dialogs.js       game over, resigning, a draw offer, no room yet, another tab
//   settings-form.js the new-game form, its levels and clocks, starting a game
//   review.js, learn.js, analysis.js   the review, its exercises, the analysis board
//   preferences.js   language, notation, sound, full screen, theme
//   chess-board.js, checkers-board.js   the two board widgets (the checkers one made when first needed)
//   board-input.js   what the two widgets share: the pointer, drags, the keyboard's cursor, focus
//   panels.js, sound.js, dom.js   the engine's panels, the sounds, helpers
// Every text made here is a whole message said through t(), tn() or tp() when it is shown (so that
// it follows a change of language); texts the server made come in the reader's language already.
import {onChange, setNotation} from "./i18n.js";      // first: the language is chosen before all else
import {$} from "./dom.js";
import {prefs} from "./storage.js";
import {state, setWidgets, madeCheckersBoard} from "./store.js";
import {Sounds} from "./sound.js";
import {ChessBoard} from "./chess-board.js";
import {connect, onMessage} from "./connection.js";
import {note, renderStatus} from "./status.js";
import {startClocks} from "./clocks.js";
import * as gameView from "./game-view.js";
import {makeCheckersBoard} from "./checkers-view.js";
import * as actions from "./actions.js";
import * as dialogs from "./dialogs.js";
import * as settingsForm from "./settings-form.js";
import * as review from "./review.js";
import * as learn from "./learn.js";
import * as analysis from "./analysis.js";
import * as preferences from "./preferences.js";

setNotation(prefs.notation || null);
const sounds = new Sounds();
sounds.setEnabled(prefs.sound);
const board = new ChessBoard($("board"), gameView.boardMove, gameView.cancelPremove,
                             (say) => { note(say, "error", 5000); renderStatus(); });
setWidgets(board, sounds, () => makeCheckersBoard($("checkers-board")));

// The server's messages, each to the part of the page it is about (connection.js itself takes
// errors, notices, "full" and "superseded").
onMessage("config", settingsForm.configure);
onMessage("state", gameView.applyState);
onMessage("hint", actions.showHint);
onMessage("review_progress", review.reviewProgressed);
onMessage("review", review.reviewArrived);
onMessage("review_stopped", review.reviewStopped);
onMessage("learn_result", learn.learnResult);
onMessage("analysis", analysis.analysisArrived);
onMessage("engine", analysis.engineArrived);

// The controls.
settingsForm.init();
review.init();
learn.init();
analysis.init();
startClocks();
gameView.init();
actions.init();
dialogs.init();
preferences.init();

// Everything said again in the new language or notation (the page's own texts are i18n.js's).
onChange(() => {
  preferences.applyPrefs();
  board.relabel();
  if (madeCheckersBoard()) madeCheckersBoard().relabel();
  if (state.lastConfig) settingsForm.configure(state.lastConfig);
  else settingsForm.formChanged(false);
  settingsForm.relabelNewGame();
  dialogs.relabelResignChoice();
  if (state.game && $("game-over").open) dialogs.fillGameOver();
  gameView.redrawMoves();
  gameView.render();
});

preferences.applyPrefs();
settingsForm.formChanged(false);
connect();
