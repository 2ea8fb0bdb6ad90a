// The dialogs of the `jitfish web` page: the game's end (the result, its reason, and what next), the
// question which side resigns, a draw offered between two people at the screen, a server with no
// room for this tab's game yet (it asks again every 5 seconds), and the game taken over by another
// tab. The messages that open them come through connection.js and game-view.js.
import {t} from "./i18n.js";
import {$} from "./dom.js";
import {saved} from "./storage.js";
import {state, isCheckers} from "./store.js";
import {isOpen, hello, send, resume} from "./connection.js";
import {downloadPgn} from "./actions.js";
import {startReview} from "./review.js";
import {startGame, openSetup} from "./settings-form.js";
import {checkersWinner} from "./checkers-view.js";

// ---- the game's end ----

export function fillGameOver() {
  const game = state.game;
  const checkers = isCheckers();
  const [first, second] = game.result.split("-");
  let title = t("Draw");
  let winner = null;
  if (checkers) winner = checkersWinner(game);
  else if (game.result === "1-0" || game.result === "0-1") winner = game.result === "1-0" ? "white" : "black";
  if (winner) {
    if (game.human) title = winner === game.human ? t("You won!") : t("Jitfish won");
    else title = winner === "white" ? t("White wins") : t("Black wins");
  }
  $("over-title").textContent = `${title}  ${first === "1/2" ? "½–½" : `${first}–${second}`}`;
  $("over-reason").textContent = game.reason;
  $("over-pgn").textContent = checkers ? t("Download PDN") : t("Download PGN");
}

export function showGameOver() {
  fillGameOver();
  const dialog = $("game-over");
  if (!dialog.open) dialog.showModal();
  $("again").focus();
}

// ---- resigning: against the robot the person's side, between two people either (not only the
// side to move: the other may be the one giving up) ----

function resignQuestion() {
  return state.game && !state.game.human ? t("Who resigns?") : t("Resign this game?");
}

export function closeResignChoice() {
  $("resign-choice").hidden = true;
}

// The question said again in another language, when it is open.
export function relabelResignChoice() {
  if (!$("resign-choice").hidden) $("resign-question").textContent = resignQuestion();
}

// ---- a draw offered to a friend at the screen ----

export function renderOffer() {
  const game = state.game;
  const offer = $("offer");
  const offerToPerson = game.draw_offer && !game.over && !game.human;
  offer.hidden = !offerToPerson;
  if (offerToPerson) {
    $("offer-text").textContent = game.draw_offer === "white" ? t("White offers a draw. Black, do you accept?")
                                                              : t("Black offers a draw. White, do you accept?");
  }
}

// ---- no room yet: the server keeps a limited number of games; until one of them goes, this tab
// waits, says why, and asks again every few seconds (or at once with "Try again now") ----

let fullTimer = null;         // retrying a hello the server had no room for

export function showFull(text) {
  $("full-text").textContent = text;
  $("full").hidden = false;
  clearTimeout(fullTimer);
  fullTimer = setTimeout(retryHello, 5000);
}

// A state came: there was room after all.
export function hideFull() {
  if (!$("full").hidden) { $("full").hidden = true; clearTimeout(fullTimer); }
}

function retryHello() {
  clearTimeout(fullTimer);
  if (isOpen()) hello(saved.get("settings", null));
}

// ---- the game taken over by another tab ----

export function showSuperseded() {
  $("superseded").hidden = false;
}

export function init() {
  $("again").addEventListener("click", () => { if (state.game) startGame(state.game.settings); });
  $("over-review").addEventListener("click", startReview);
  $("over-new").addEventListener("click", () => {
    $("game-over").close();
    openSetup();
  });
  $("over-pgn").addEventListener("click", downloadPgn);
  $("over-close").addEventListener("click", () => $("game-over").close());

  $("resign").addEventListener("click", () => {
    const bar = $("resign-choice");
    const game = state.game;
    if (!bar.hidden || !game) { bar.hidden = true; return; }
    const both = !game.human;
    $("resign-question").textContent = resignQuestion();
    $("resign-white").hidden = !both && game.human !== "white";
    $("resign-black").hidden = !both && game.human !== "black";
    bar.hidden = false;
  });
  for (const colour of ["white", "black"]) {
    $(`resign-${colour}`).addEventListener("click", () => {
      $("resign-choice").hidden = true;
      send({type: "resign", color: colour});
    });
  }
  $("resign-cancel").addEventListener("click", () => { $("resign-choice").hidden = true; });

  $("accept-draw").addEventListener("click", () => send({type: "answer_draw", accept: true}));
  $("decline-draw").addEventListener("click", () => send({type: "answer_draw", accept: false}));

  $("full-retry").addEventListener("click", retryHello);

  $("play-here").addEventListener("click", () => {
    $("superseded").hidden = true;
    resume();
  });
}
