// The status line of the `jitfish web` page: whose turn it is or the result (the server's words),
// or what the board shows instead (a past position, an exercise, the analysis board); under it a
// note for a while (a hint, an error, a notice), never instead of it; and with them the tab's
// title and the line about the game (opponent, checkers, clock, Chess960 start).
import {t} from "./i18n.js";
import {$} from "./dom.js";
import {state, moveLabel, plyText, isCheckers} from "./store.js";

// A message of ours is a function, said when shown (in the language of the moment); the server's
// are strings.
export function say(text) {
  return typeof text === "function" ? text() : text;
}

// A note under the status for `ms` milliseconds (6 s unless said); kind: "error", "notice",
// "offline" (shown as an error, and dropped once the connection is back).
export function note(text, kind, ms) {
  state.statusNote = {text, kind, until: performance.now() + (ms || 6000)};
  setTimeout(renderStatus, Math.min(ms || 6000, 60000) + 50);
}

export function renderStatus() {
  const {game, viewPly, mode, analysis, learn, statusNote} = state;
  const el = $("status");
  let text = game ? game.status : t("Connecting…");
  let kind = game && game.over ? "over" : "";
  if (game && !game.over && game.draw_offer && game.human && game.draw_offer === game.human) {
    text = t("You offered a draw: Jitfish is considering it…");
  }
  if (game && viewPly !== null && mode === "game") {
    text = viewPly === 0 ? t("Viewing the start (» for the game now)")
                         : t("Viewing {move} (» for the game now)", {move: moveLabel(viewPly, plyText(game.moves[viewPly - 1]))});
  }
  if (game && mode === "analysis" && analysis) {
    text = analysis.over || (analysis.turn === "white" ? t("Analysis board: White to move") : t("Analysis board: Black to move"));
    kind = "";
  } else if (game && mode === "learn" && learn) {
    text = learn.index < learn.list.length
      ? t("Learn from your mistakes: {index} of {total}", {index: learn.index + 1, total: learn.list.length})
      : t("Learn from your mistakes: done");
    kind = "";
  }
  // A note (a hint, an error, a notice) goes under the status, never instead of it.
  const noteEl = $("status-note");
  const noted = statusNote && performance.now() < statusNote.until;
  noteEl.hidden = !noted;
  noteEl.textContent = noted ? say(statusNote.text) : "";
  noteEl.className = noted ? (statusNote.kind === "offline" ? "error" : statusNote.kind) : "";
  if (noted && noteEl.className === "error") kind = "error";
  $("status-text").textContent = text;
  el.className = kind;
  if (game) {
    const mine = !game.over && (!game.human || game.turn === game.human);
    document.title = game.over ? t("Game over · Jitfish") : mine && game.human ? t("Your move · Jitfish") : "Jitfish";
    const s = game.settings;
    const who = game.human ? `${game.players[game.human === "white" ? "black" : "white"]}` : t("Two players");
    const kind = isCheckers() ? t("Checkers") : null;
    $("game-info").textContent = [who, kind, s.clock_label, game.chess960].filter(Boolean).join(" · ");
  }
}
