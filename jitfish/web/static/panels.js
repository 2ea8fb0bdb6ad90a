// The parts of the `jitfish web` page that show what the engine says: the review's evaluation
// graph and accuracy lines, the analysis board's engine lines, and the evaluation bar. They draw
// what the server computed (White's winning chances from -1 to 1, scores as text, lines in SAN);
// review.js and analysis.js decide when and with what. An ES module.
import {t, tn, I18n} from "./i18n.js";

const GRAPH_WIDTH = 600;
const GRAPH_HEIGHT = 100;

function svgElement(name, attributes) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, value);
  return el;
}

export const Panels = {
  // The review's graph: White's chances after every position (up: White better), the marked
  // moves as coloured strokes, the position shown as a line; one `rect[data-ply]` per position
  // to click. graph: [{ply, y, text}], plies: the review's moves ({mark}), current: the ply shown,
  // label(ply): the position's name in its tooltip ("After 3… Nf6").
  drawGraph(svg, graph, plies, current, label) {
    svg.textContent = "";
    const count = graph.length;
    const step = count > 1 ? GRAPH_WIDTH / (count - 1) : GRAPH_WIDTH;
    const x = (ply) => (count > 1 ? ply * step : GRAPH_WIDTH / 2);
    const y = (chances) => GRAPH_HEIGHT / 2 - (GRAPH_HEIGHT / 2) * chances;
    const points = graph.map((point) => `${x(point.ply).toFixed(1)},${y(point.y).toFixed(1)}`);
    svg.appendChild(svgElement("path", {
      class: "advantage",
      d: `M0,${GRAPH_HEIGHT} L${points.join(" L")} L${x(count - 1).toFixed(1)},${GRAPH_HEIGHT} Z`,
    }));
    svg.appendChild(svgElement("line", {class: "middle", x1: 0, x2: GRAPH_WIDTH, y1: GRAPH_HEIGHT / 2,
                                        y2: GRAPH_HEIGHT / 2, "vector-effect": "non-scaling-stroke"}));
    for (const move of plies) {
      if (!move.mark) continue;
      svg.appendChild(svgElement("line", {class: `mark ${move.mark}`, x1: x(move.ply), x2: x(move.ply), y1: 0,
                                          y2: GRAPH_HEIGHT, "vector-effect": "non-scaling-stroke"}));
    }
    if (current !== null && current < count) {
      svg.appendChild(svgElement("line", {class: "current", x1: x(current), x2: x(current), y1: 0, y2: GRAPH_HEIGHT,
                                          "vector-effect": "non-scaling-stroke"}));
    }
    for (const point of graph) {
      const rect = svgElement("rect", {class: "point", x: Math.max(0, x(point.ply) - step / 2), y: 0,
                                       width: step, height: GRAPH_HEIGHT});
      rect.dataset.ply = String(point.ply);
      const title = svgElement("title", {});
      // Translators: a point of the evaluation graph: "After 3… Nf6: +0.35".
      title.textContent = t("{position}: {score}", {position: label(point.ply), score: point.text});
      rect.appendChild(title);
      svg.appendChild(rect);
    }
  },

  // One player's line of the review: "White (you) 87% accuracy · 12 cp lost a move · 1 ?! 0 ? 1 ??".
  drawAccuracy(el, name, side) {
    el.textContent = "";
    const part = (cls, text, title) => {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      if (title) span.title = title;
      el.appendChild(span);
    };
    part("who", name);
    if (!side || !side.moves) {
      part("pct none", t("no move"));
      return;
    }
    part("pct", side.accuracy === null ? "-" : `${Math.round(side.accuracy)}%`, t("accuracy (lichess's formula)"));
    // Translators: "cp" is centipawns, a hundredth of a pawn.
    part("acpl", t("{acpl} cp", {acpl: side.acpl}), t("average centipawn loss"));
    part("count inaccuracy", `${side.inaccuracy} ?!`,
         tn("{n} inaccuracy", "{n} inaccuracies", side.inaccuracy, {n: side.inaccuracy}));
    part("count mistake", `${side.mistake} ?`, tn("{n} mistake", "{n} mistakes", side.mistake, {n: side.mistake}));
    part("count blunder", `${side.blunder} ??`, tn("{n} blunder", "{n} blunders", side.blunder, {n: side.blunder}));
  },

  // The engine's lines: score and moves in SAN, one `.line` each (a click plays its first move).
  drawLines(el, lines) {
    el.textContent = "";
    lines.forEach((line, index) => {
      const row = document.createElement("div");
      row.className = `line line${index + 1}`;
      row.dataset.from = line.from;
      row.dataset.to = line.to;
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = line.score;
      const moves = document.createElement("span");
      moves.className = "san";
      moves.textContent = I18n.moves(line.san);          // figurines where the reader's notation asks
      row.append(score, " ", moves);
      el.appendChild(row);
    });
  },

  // The evaluation bar beside the board: White's share from White's chances (-1..1), the text
  // of the score; Black's part is on the side of the board where Black sits.
  setBar(el, chances, text, whiteAtBottom) {
    const white = Math.max(0, Math.min(100, 50 + 50 * chances));
    el.querySelector(".black-part").style.height = `${100 - white}%`;
    el.querySelector(".value").textContent = text || "";
    el.classList.toggle("flipped", !whiteAtBottom);
    el.classList.toggle("white-better", chances >= 0);
    el.setAttribute("aria-valuenow", String(Math.round(white)));
    el.dataset.value = text || "";
  },
};
