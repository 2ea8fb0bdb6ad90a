// The game's buttons on the `jitfish web` page and the move typed in its box: take back, hint,
// offer and claim a draw, flip, save the PGN (the PDN of a checkers game), review and analysis
// (their state only: review.js and analysis.js act on them; chess only); renderActions() says
// which of them may be used now. Resigning and the draw offered to a friend at the screen are
// dialogs.js's.
import {t, I18n} from "./i18n.js";
import {$, download} from "./dom.js";
import {tab} from "./storage.js";
import {state, board, reviewedPlies, isCheckers} from "./store.js";
import {isOpen, send} from "./connection.js";
import {note, renderStatus} from "./status.js";
import {render, personToMove} from "./game-view.js";
import {closeResignChoice, renderOffer} from "./dialogs.js";

export function renderActions() {
  const {game, mode, viewPly} = state;
  const open = isOpen();
  const playing = open && !game.over;
  const canMove = playing && !(game.human && game.turn !== game.human);
  if (game.over) closeResignChoice();
  $("takeback").disabled = !(open && game.can_takeback);
  $("takeback").hidden = !game.settings.takeback || game.over;
  for (const id of ["hint", "offer-draw", "resign"]) $(id).hidden = game.over;
  $("move-entry").hidden = game.over || mode !== "game";
  $("hint").disabled = !canMove || state.hintPending;
  $("offer-draw").disabled = !playing || game.draw_offer !== null;
  $("resign").disabled = !playing;
  $("claim-draw").hidden = !(canMove && game.claimable);
  $("claim-draw").textContent = game.claimable === "fifty" ? t("Claim draw (50 moves)")
    : game.claimable === "forty" ? t("Claim draw (40 moves)") : t("Claim draw (repetition)");
  const checkers = isCheckers();
  for (const id of ["review", "analysis", "over-review"]) $(id).hidden = checkers;     // chess only
  $("pgn-download").textContent = checkers ? t("Save PDN") : t("Save PGN");
  $("pgn-download").title = checkers ? t("Download the game as a PDN file") : t("Download the game as a PGN file");
  // Translators: the placeholder of the typed-move box in a checkers game.
  $("move-input").placeholder = checkers ? t("Type a move: 11-15, 15x24")
                                         : t("Type a move: e4, Nf3, O-O, e7e8q");
  $("move-input").disabled = mode !== "game";        // never while the robot thinks: it would lose the focus
  $("hint").disabled = $("hint").disabled || mode !== "game";
  $("review").disabled = !open || game.moves.length === 0 || state.reviewProgress !== null;
  $("review").textContent = state.review && reviewedPlies() === game.moves.length ? t("Review ✓") : t("Review");
  $("analysis").setAttribute("aria-pressed", String(mode === "analysis"));
  $("analysis").disabled = !open;
  $("over-review").disabled = !open || game.moves.length === 0;
  const plies = game.moves.length;
  const at = viewPly === null ? plies : viewPly;
  $("nav-first").disabled = $("nav-prev").disabled = at === 0;
  $("nav-next").disabled = $("nav-last").disabled = at === plies;
  renderOffer();
}

// The server's hint: an arrow on the board (when it shows the game now) and a note; in checkers
// the move's path marked and arrowed.
export function showHint(message) {
  state.hintPending = false;
  const checkers = Array.isArray(message.path);
  if (state.viewPly === null && state.mode === "game") {
    if (checkers) state.hintPath = message.path;
    else board.showArrow(message.from, message.to);
    state.hintShown = true;
  }
  const move = checkers ? message.text : I18n.moves(message.san);
  note(() => t("Hint: {move}", {move}), "notice", 8000);
  if (checkers) render();
  renderActions();
  renderStatus();
}

// Flip: for the game in hand only (kept over a reload of this tab).
export function flip() {
  state.flipped = !state.flipped;
  tab.set("flipped", {session: tab.get("session", null), game: state.gameId, on: state.flipped});
  board.hideArrow();
  render();
}

export function downloadPgn() {
  if (state.game && isCheckers()) download(state.game.pdn, "", "pdn");
  else if (state.game) download(state.game.pgn, "");
}

export function sendTyped(text) {
  state.typedSent = text;
  if (state.statusNote && state.statusNote.kind === "notice") state.statusNote = null;
  send({type: "move", text});
}

export function init() {
  $("flip").addEventListener("click", flip);
  $("takeback").addEventListener("click", () => send({type: "takeback"}));
  $("hint").addEventListener("click", () => {
    state.hintPending = true;
    note(() => t("Looking for a hint…"), "notice", 4000);
    render();
    send({type: "hint"});
  });
  $("offer-draw").addEventListener("click", () => send({type: "offer_draw"}));
  $("claim-draw").addEventListener("click", () => send({type: "claim_draw"}));
  $("pgn-download").addEventListener("click", downloadPgn);

  // A typed move. The box keeps the focus and stays usable while the robot thinks (as lichess's
  // does): a move typed then is sent once the robot has moved, like a pre-move.
  $("move-entry").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = state.game;
    const text = $("move-input").value.trim();
    if (!text || !game || game.over) return;
    if (personToMove()) {
      sendTyped(text);
    } else {
      state.typedAhead = text;
      const player = game.players[game.turn];
      // Translators: {move} is a move typed while the robot thinks; {player} is its name ("Jitfish 1200").
      note(() => t("{move}: played when {player} has moved", {move: text, player}), "notice", 60000);
      renderStatus();
    }
  });
}
