// The analysis board of the `jitfish web` page: a position of the game or a pasted FEN or PGN, moves
// for both sides, and the tab's own engine (the server runs it; on and off with its box): the
// evaluation bar beside the board (which also shows the review's evaluation of the game's move
// shown), the depth, the three best lines (a click plays a line's first move) with their arrows
// (game-view.js draws them), and the moves tried (the arrow keys, Home and End go through them).
import {t, I18n} from "./i18n.js";
import {$} from "./dom.js";
import {state, shownPly, reviewedPlies} from "./store.js";
import {send} from "./connection.js";
import {render, renderBoardArrows, orientation, leaveMode} from "./game-view.js";
import {Panels} from "./panels.js";

export function openAnalysis(ply) {
  state.mode = "analysis";
  state.learn = null;
  send({type: "analysis", ply});
  if (!state.engineOn && $("engine-toggle").checked) send({type: "engine", on: true});
  render();
}

export function closeAnalysis() {
  send({type: "analysis", on: false});
  state.analysis = null;
  state.engineOn = false;
  state.engineInfo = null;
  state.mode = "game";
}

// The arrow keys on the analysis board: through the moves tried.
export function analysisStep(delta) {
  const analysis = state.analysis;
  if (!analysis) return;
  const index = Math.max(0, Math.min(analysis.line.length, analysis.index + delta));
  if (index !== analysis.index) send({type: "analysis_goto", index});
}

// A score for the narrow bar: one decimal ("+0.35" -> "0.3"), mates as they are ("#-2").
function barText(score) {
  if (!score || score.startsWith("#")) return score || "";
  return Math.abs(Number(score)).toFixed(1);
}

export function renderAnalysis() {
  const {mode, analysis, engineOn, engineInfo, review} = state;
  const box = $("analysis-box");
  const on = mode === "analysis" && !!analysis;
  box.hidden = !(mode === "analysis");
  const bar = $("eval-bar");
  const reviewed = reviewedPlies();
  let chances = null, text = "";
  if (on && engineInfo && engineInfo.lines.length) {
    chances = engineInfo.bar;
    text = barText(engineInfo.lines[0].score);
  } else if (on && analysis.over) {
    // A position that ends the game with the side to move in check is checkmate: it has lost.
    const mate = !!analysis.check;
    chances = mate ? (analysis.turn === "black" ? 1 : -1) : 0;
    text = mate ? "#" : "½";
  } else if (mode === "game" && review && shownPly() <= reviewed) {
    const point = review.graph[shownPly()];
    chances = point.y;
    text = /^[+\-]?\d|^#/.test(point.text || "") ? barText(point.text) : "#";     // else "checkmate", in words
  }
  bar.hidden = chances === null && !(on && engineOn);
  if (!bar.hidden) Panels.setBar(bar, chances === null ? 0 : chances, text, orientation() === "white");
  document.body.classList.toggle("with-bar", !bar.hidden);
  if (!(mode === "analysis")) return;
  $("engine-toggle").checked = engineOn || (!analysis && $("engine-toggle").checked);
  $("engine-depth").textContent = on && engineOn ? (engineInfo ? t("depth {depth}", {depth: engineInfo.depth}) : t("starting…")) : "";
  // Translators: {origin} is the server's "the game, move 5, white to move" or "a pasted position".
  $("analysis-origin").textContent = analysis ? t("from {origin}", {origin: analysis.origin}) : "";
  Panels.drawLines($("engine-lines"), on && engineOn && engineInfo ? engineInfo.lines : []);
  const lineBox = $("analysis-line");
  lineBox.textContent = "";
  if (!analysis) return;
  const fields = analysis.start_fen.split(" ");
  let number = Number(fields[5]) || 1;
  let black = fields[1] === "b";
  const start = document.createElement("span");
  start.className = "move" + (analysis.index === 0 ? " current" : "");
  start.dataset.index = "0";
  // Translators: the first entry of the analysis board's moves: the position it started from.
  start.textContent = t("start");
  lineBox.appendChild(start);
  analysis.line.forEach((san, index) => {
    const el = document.createElement("span");
    el.className = "move" + (analysis.index === index + 1 ? " current" : "");
    el.dataset.index = String(index + 1);
    el.textContent = `${black ? (index === 0 ? `${number}… ` : "") : `${number}. `}${I18n.moves(san)}`;
    if (black) number += 1;
    black = !black;
    lineBox.appendChild(el);
  });
}

// ---- the server's messages ----

// The analysis board as the server keeps it (null: closed).
export function analysisArrived(message) {
  state.analysis = message.board;
  state.engineOn = message.engine && !!state.analysis;
  if (!state.analysis && state.mode === "analysis") state.mode = "game";
  if (!state.engineOn || !state.analysis || (state.engineInfo && state.engineInfo.fen !== state.analysis.fen)) {
    state.engineInfo = null;
  }
  render();
}

// The engine's lines for the position shown.
export function engineArrived(message) {
  if (state.mode !== "analysis" || !state.analysis || message.fen !== state.analysis.fen) return;
  state.engineInfo = message;
  renderAnalysis();
  renderBoardArrows();
}

export function init() {
  $("analysis").addEventListener("click", () => {
    if (state.mode === "analysis") leaveMode();
    else openAnalysis(shownPly());
  });
  $("engine-toggle").addEventListener("change", () => {
    if (state.mode === "analysis") send({type: "engine", on: $("engine-toggle").checked});
  });
  $("engine-lines").addEventListener("click", (event) => {
    const line = event.target.closest(".line");
    if (line && state.analysis && !state.analysis.over) {
      send({type: "analysis_move", from: line.dataset.from, to: line.dataset.to, promotion: "q"});
    }
  });
  $("analysis-line").addEventListener("click", (event) => {
    const move = event.target.closest("[data-index]");
    if (move) send({type: "analysis_goto", index: Number(move.dataset.index)});
  });
  $("analysis-load").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("analysis-position").value.trim();
    if (text) send({type: "analysis_position", position: text});
  });
}
