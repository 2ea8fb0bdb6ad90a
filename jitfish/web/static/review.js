// The review on the `jitfish web` page: asking the server for it (the shared full-strength adviser
// searches every position), its progress and cancelling, and then the accuracies, the evaluation
// graph (a click shows that position), the sentence and the better move for the move shown, and the
// annotated PGN. The marks in the move list and the better move's arrow are game-view.js's; the
// review covers the game's first moves as long as they are the ones it reviewed (reviewedPlies).
import {t, tn, I18n} from "./i18n.js";
import {$, download} from "./dom.js";
import {state, shownPly, reviewedPlies, movesIn, moveLabel} from "./store.js";
import {send} from "./connection.js";
import {note} from "./status.js";
import {render, view, leaveMode} from "./game-view.js";
import {renderSetup} from "./settings-form.js";
import {learnList} from "./learn.js";
import {Panels} from "./panels.js";

export function renderReview() {
  const {game, review, reviewProgress, mode} = state;
  if (!game) return;
  const box = $("review-box");
  const reviewed = reviewedPlies();
  box.hidden = mode !== "game" || (!reviewProgress && !(review && reviewed > 0));
  const progress = $("review-progress");
  progress.hidden = !reviewProgress;
  if (reviewProgress) {
    const {done, total} = reviewProgress;
    progress.querySelector("progress").value = total ? done / total : 0;
    progress.querySelector(".text").textContent = t("Reviewing move {n} of {total}",
                                                    {n: movesIn(Math.min(done + 1, total)), total: movesIn(total)});
  }
  const summary = $("review-summary");
  summary.hidden = !(review && reviewed > 0);
  if (summary.hidden) return;
  for (const colour of ["white", "black"]) {
    const you = game.human === colour;
    const name = colour === "white" ? (you ? t("White (you)") : t("White")) : (you ? t("Black (you)") : t("Black"));
    Panels.drawAccuracy($(`accuracy-${colour}`), name, review.sides[colour]);
  }
  const shown = mode === "game" ? Math.min(shownPly(), reviewed) : null;
  Panels.drawGraph($("eval-graph"), review.graph.slice(0, reviewed + 1), review.plies.slice(0, reviewed), shown,
                   (ply) => (ply === 0 ? t("Start") : t("After {move}", {move: moveLabel(ply, game.moves[ply - 1].san)})));
  const reason = $("review-reason"), best = $("review-best");
  const ply = mode === "game" ? shownPly() : 0;
  const entry = ply > 0 && ply <= reviewed ? review.plies[ply - 1] : null;
  reason.className = entry && entry.mark ? entry.mark : "";
  best.textContent = "";
  best.title = "";
  if (!entry) {
    reason.textContent = reviewed < game.moves.length && ply > reviewed
      ? t("The review goes up to {move}: review again for the rest.", {move: moveLabel(reviewed, game.moves[reviewed - 1].san)})
      : t("Click a move or a point of the graph to see what the engine thinks of it.");
  } else if (entry.mark) {
    const args = {move: moveLabel(ply, entry.san) + entry.symbol, reason: entry.reason};
    if (entry.mark === "inaccuracy") reason.textContent = t("{move} is an inaccuracy: {reason}.", args);
    else if (entry.mark === "mistake") reason.textContent = t("{move} is a mistake: {reason}.", args);
    else reason.textContent = t("{move} is a blunder: {reason}.", args);
    const bestMove = I18n.moves(entry.best.san);
    best.textContent = entry.line.length > 1
      ? t("Best was {move}, then {line}", {move: bestMove, line: I18n.moves(entry.line.slice(1).join(" "))})
      : t("Best was {move}", {move: bestMove});
    best.title = best.textContent;                  // the whole line, where a short window cuts it
  } else {
    const move = moveLabel(ply, entry.san);
    reason.textContent = entry.loss === 0 ? t("{move} is the engine's choice.", {move}) : t("{move} is a good move.", {move});
  }
  const exercises = learnList();
  $("learn").disabled = exercises.length === 0;
  $("learn").textContent = exercises.length
    ? tn("Learn from your mistakes ({n})", "Learn from your mistakes ({n})", exercises.length, {n: exercises.length})
    : t("No mistake to learn from");
}

export function startReview() {
  if ($("game-over").open) $("game-over").close();
  if (state.mode === "learn") state.mode = "game";
  send({type: "review"});
}

// ---- the server's messages ----

export function reviewProgressed(message) {
  state.reviewProgress = {done: message.done, total: message.total};
  renderReview();
  renderSetup();
}

export function reviewArrived(message) {
  if (message.game_id !== state.gameId) return;
  state.review = message.review;
  state.reviewProgress = null;
  render();
}

export function reviewStopped(message) {
  state.reviewProgress = null;
  note(message.message, message.cancelled ? "notice" : "error");
  render();
}

export function init() {
  $("review").addEventListener("click", startReview);
  $("review-cancel").addEventListener("click", () => send({type: "review_cancel"}));
  $("eval-graph").addEventListener("click", (event) => {
    const point = event.target.closest("[data-ply]");
    if (!point) return;
    if (state.mode !== "game") leaveMode();
    view(Number(point.dataset.ply));
  });
  $("review-pgn").addEventListener("click", () => {
    if (state.review) download(state.review.pgn, "reviewed");
  });
}
