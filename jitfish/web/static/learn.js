// "Learn from your mistakes" on the `jitfish web` page: the reviewed game's mistakes and blunders
// (the person's against the robot, both players' between people) one by one on the board, turned
// to the side to move; a move tried is judged by the server's adviser; a hint marks the piece to
// move, the solution draws the engine's move and its line; at the end, how many were found.
import {t, tn, I18n} from "./i18n.js";
import {$} from "./dom.js";
import {state, board, reviewedPlies, moveLabel} from "./store.js";
import {send} from "./connection.js";
import {say} from "./status.js";
import {render, leaveMode} from "./game-view.js";
import {closeAnalysis} from "./analysis.js";

// The exercises: your mistakes and blunders against the robot, both players' between people.
export function learnList() {
  const {review, game} = state;
  if (!review) return [];
  const reviewed = reviewedPlies();
  return review.plies.filter((entry) => entry.exercise && entry.ply <= reviewed &&
                                        (!game.human || entry.color === game.human));
}

// The exercise shown (the last one once all are done).
export function learnEntry() {
  const learn = state.learn;
  return learn.list[Math.min(learn.index, learn.list.length - 1)];
}

function startLearn() {
  const list = learnList();
  if (!list.length) return;
  if (state.analysis) closeAnalysis();
  state.learn = {list, index: 0, found: 0, solved: false, shown: false, waiting: false, feedback: "", kind: ""};
  state.mode = "learn";
  render();
}

// The board for the exercise: its position, the opponent's move before it, the side to find a
// move for free to move until it is solved, the hint and the solution.
export function renderLearnBoard() {
  const {learn, game} = state;
  const entry = learnEntry();
  const done = learn.index >= learn.list.length;
  board.setPosition(entry.exercise.fen);
  const before = entry.ply >= 2 ? game.moves[entry.ply - 2] : null;      // the opponent's last move
  board.setHighlights(before ? {from: before.from, to: before.to} : null, game.checks[entry.ply - 1]);
  board.el.classList.remove("viewing");
  if (!done && !learn.solved && !learn.waiting) {
    board.setMovable(entry.color, entry.exercise.legal, entry.exercise.promotions);
  } else {
    board.setMovable(null, {}, []);
  }
  if (learn.hint && !done) board.setHintSquare(entry.best.from);
  if ((learn.shown || learn.solved) && !done) {
    board.drawArrows([{from: entry.best.from, to: entry.best.to, kind: "best"}]);
  } else {
    board.hideArrow();
  }
}

export function renderLearn() {
  const learn = state.learn;
  const box = $("learn-box");
  box.hidden = state.mode !== "learn" || !learn;
  if (box.hidden) return;
  const done = learn.index >= learn.list.length;
  const entry = learnEntry();
  box.dataset.ply = done ? "" : String(entry.ply);
  if (done) {
    const total = learn.list.length;
    $("learn-prompt").textContent = tn("Done: you found {found} of {n} better move.",
                                       "Done: you found {found} of {n} better moves.", total, {found: learn.found, n: total});
  } else {
    $("learn-prompt").textContent = learnPrompt(entry);
  }
  const feedback = $("learn-feedback");
  feedback.textContent = say(learn.feedback);
  feedback.className = learn.kind;
  $("learn-hint").disabled = done || learn.solved || learn.hint;
  $("learn-solution").disabled = done || learn.solved || learn.shown;
  $("learn-next").disabled = done;
  $("learn-next").textContent = learn.solved || learn.shown ? t("Next") : t("Skip");
  $("learn-stop").textContent = done ? t("Close") : t("Stop");
}

// "2 of 3: 3… Nf6?? was a blunder. Find a better move for Black."
function learnPrompt(entry) {
  const learn = state.learn;
  const args = {index: learn.index + 1, total: learn.list.length, move: moveLabel(entry.ply, entry.san) + entry.symbol};
  const white = entry.color === "white";
  if (entry.mark === "blunder") {
    return white ? t("{index} of {total}: {move} was a blunder. Find a better move for White.", args)
                 : t("{index} of {total}: {move} was a blunder. Find a better move for Black.", args);
  }
  return white ? t("{index} of {total}: {move} was a mistake. Find a better move for White.", args)
               : t("{index} of {total}: {move} was a mistake. Find a better move for Black.", args);
}

// A move tried on the board: the server judges it.
export function learnTry(from, to, promotion) {
  const learn = state.learn;
  const entry = learnEntry();
  learn.waiting = true;
  learn.feedback = () => t("Checking…");
  learn.kind = "";
  send({type: "learn_try", ply: entry.ply, from, to, promotion});
  render();
}

// The server's verdict on the move tried.
export function learnResult(message) {
  const learn = state.learn;
  if (!learn || state.mode !== "learn" || learnEntry().ply !== message.ply) return;
  learn.waiting = false;
  learn.feedback = message.message;
  learn.kind = message.accepted ? "good" : "bad";
  if (message.accepted) {
    if (!learn.shown && !learn.solved) learn.found += 1;
    learn.solved = true;
  }
  render();
  if (message.accepted) board.setHighlights({from: message.uci.slice(0, 2), to: message.uci.slice(2, 4)}, null);
}

function nextExercise() {
  state.learn.index += 1;
  Object.assign(state.learn, {solved: false, shown: false, hint: false, waiting: false, feedback: "", kind: ""});
  render();
}

export function init() {
  $("learn").addEventListener("click", startLearn);
  $("learn-next").addEventListener("click", nextExercise);
  $("learn-hint").addEventListener("click", () => {
    state.learn.hint = true;
    state.learn.feedback = () => t("The piece to move is marked.");
    state.learn.kind = "";
    render();
  });
  $("learn-solution").addEventListener("click", () => {
    const entry = learnEntry();
    state.learn.shown = true;
    state.learn.feedback = () => t("The engine's move: {move} ({line})",
                                   {move: I18n.moves(entry.best.san), line: I18n.moves(entry.line.join(" "))});
    state.learn.kind = "";
    render();
  });
  $("learn-stop").addEventListener("click", leaveMode);
}
