// The page of `jitfish web`: the WebSocket to the server (which keeps the game, the clock and the
// rules, and runs the engine's reviews and analyses), the side panel, the clocks' display, the
// settings form and the dialogs. The board shows one of three things: the game (the default, with
// the review's marks once there is one), an exercise of "learn from your mistakes", or the
// analysis board. The board widget is board.js, the engine's panels panels.js, the sounds sound.js,
// the reader's language i18n.js: every text made here is a whole message said through t(), tn() or
// tp() when it is shown (so that it follows a change of language); texts the server made come in
// the reader's language already and are shown as they come.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const TOKEN = new URLSearchParams(location.search).get("token") || "";
  const LOW_TIME_MS = 10000;
  const SETTINGS_VERSION = 1;
  const MAX_POSITION = Number(document.getElementById("position").maxLength) || 20000;

  // ---- storage: settings and preferences for the browser, the game's session for the tab ----
  function storage(area, prefix) {
    return {
      get(key, fallback) {
        try {
          const text = area.getItem(prefix + key);
          return text === null ? fallback : JSON.parse(text);
        } catch (error) {
          return fallback;
        }
      },
      set(key, value) {
        try { area.setItem(prefix + key, JSON.stringify(value)); } catch (error) { /* private mode */ }
      },
    };
  }
  const saved = storage(window.localStorage, "jitfish.");
  const tab = storage(window.sessionStorage, "jitfish.");

  const prefs = Object.assign({sound: true, theme: "brown", autoFlip: false}, saved.get("prefs", {}));
  // The notation: the reader's choice once made, else the language's default.
  if (prefs.notation !== "letters" && prefs.notation !== "figurines") delete prefs.notation;
  I18n.setNotation(prefs.notation || null);
  const sounds = new Sounds();
  sounds.setEnabled(prefs.sound);
  const board = new ChessBoard($("board"), boardMove, cancelPremove, (say) => { note(say, "error", 5000); renderStatus(); });

  let game = null;              // the last state from the server
  let gameId = null;
  let thinking = false;
  let viewPly = null;           // null: the game now; a number: that many plies into the game
  let flipped = false;          // Flip: a view choice for the game in hand only (kept over a reload)
  let clockBase = null;         // {white, black, running, delay, at}
  let lowWarned = {white: false, black: false};
  let statusNote = null;        // {text, kind, until}; text a string (the server's) or a function (ours)
  let socket = null;
  let retries = 0;
  let superseded = false;
  let hintPending = false;
  let welcomed = false;         // the server has answered the hello (config received)
  let helloSettings = null;     // the settings the last hello carried
  let mode = "game";            // what the board shows: "game", "learn" or "analysis"
  let review = null;            // the server's review of this game (its moves may be fewer than the game's)
  let reviewProgress = null;    // {done, total} while a review runs
  let analysis = null;          // the analysis board as the server keeps it
  let engineOn = false;
  let engineInfo = null;        // the engine's last lines on the analysis board
  let learn = null;             // {list, index, found, solved, shown, waiting, feedback, kind}
  let hintShown = false;        // the hint's arrow is on the board
  let typedAhead = null;        // a move typed while the robot thinks, sent when it has moved
  let typedSent = null;         // the typed move sent last (the box is emptied once it is played)
  let setupOpen = null;         // the new-game form opened (true) or closed (false) by hand
  let fullTimer = null;         // retrying a hello the server had no room for
  let lastConfig = null;        // the server's last configuration (levels, clock presets)

  // ---- the connection ----

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws?token=${encodeURIComponent(TOKEN)}`);
    socket.addEventListener("open", () => {
      retries = 0;
      welcomed = false;
      if (statusNote && statusNote.kind === "offline") statusNote = null;
      hello(saved.get("settings", null));
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      receive(message);
    });
    socket.addEventListener("close", () => {
      if (mode === "analysis") mode = "game";           // the tab's engine ended with the socket
      analysis = null;
      engineOn = false;
      engineInfo = null;
      if (superseded) return;
      note(retries < 4 ? () => t("Connection lost: reconnecting…")
                       : () => t("No answer from the server: is `jitfish web` still running? (After a restart, open the new address it prints.)"),
           "offline", Infinity);
      render();
      const wait = Math.min(5000, 250 * 2 ** retries);
      retries += 1;
      setTimeout(connect, wait);
    });
  }

  // The first message: the tab's game, games left by closed tabs, and the stored settings for a
  // new game. Stored settings must never lock the page out: if the server refuses this message
  // (too large, unreadable), they are dropped and the hello goes again without them.
  function hello(settings) {
    const session = tab.get("session", null);
    send({type: "hello", session: typeof session === "string" ? session : null, resume: recentSessions(),
          settings, lang: I18n.lang, figurines: I18n.figurines});
    helloSettings = settings;
  }

  // The games this browser played last (to resume one left by a closed tab), newest first.
  function recentSessions() {
    const recent = saved.get("recent", []);
    return Array.isArray(recent) ? recent.filter((id) => typeof id === "string").slice(0, 8) : [];
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    } else {
      note(() => t("Not connected: reconnecting…"), "error");
      render();
    }
  }

  function receive(message) {
    switch (message.type) {
      case "config": welcomed = true; configure(message); break;
      case "state": applyState(message); break;
      case "error":
        if (!welcomed && helloSettings !== null) {
          saved.set("settings", null);
          hello(null);
          note(() => t("The saved new-game settings could not be used and were reset."), "error", 10000);
          break;
        }
        hintPending = false;
        note(message.message, "error");
        render();
        break;
      case "notice": note(message.message, "notice"); renderStatus(); break;
      case "hint":
        hintPending = false;
        if (viewPly === null && mode === "game") {
          board.showArrow(message.from, message.to);
          hintShown = true;
        }
        note(() => t("Hint: {move}", {move: I18n.moves(message.san)}), "notice", 8000);
        renderActions();
        renderStatus();
        break;
      case "review_progress":
        reviewProgress = {done: message.done, total: message.total};
        renderReview();
        renderSetup();
        break;
      case "review":
        if (message.game_id !== gameId) break;
        review = message.review;
        reviewProgress = null;
        render();
        break;
      case "review_stopped":
        reviewProgress = null;
        note(message.message, message.cancelled ? "notice" : "error");
        render();
        break;
      case "learn_result": learnResult(message); break;
      case "analysis":
        analysis = message.board;
        engineOn = message.engine && !!analysis;
        if (!analysis && mode === "analysis") mode = "game";
        if (!engineOn || !analysis || (engineInfo && engineInfo.fen !== analysis.fen)) engineInfo = null;
        render();
        break;
      case "engine":
        if (mode !== "analysis" || !analysis || message.fen !== analysis.fen) break;
        engineInfo = message;
        renderAnalysis();
        renderBoardArrows();
        break;
      case "full":                  // no room for another game yet: say so, keep the settings, retry
        showFull(message.message);
        break;
      case "superseded":
        superseded = true;
        $("superseded").hidden = false;
        if (socket) socket.close();
        break;
      default: break;
    }
  }

  // The server keeps a limited number of games: until one of them goes, this tab waits, says
  // why, and asks again every few seconds (or at once with "Try again now").
  function showFull(text) {
    $("full-text").textContent = text;
    $("full").hidden = false;
    clearTimeout(fullTimer);
    fullTimer = setTimeout(retryHello, 5000);
  }

  function retryHello() {
    clearTimeout(fullTimer);
    if (socket && socket.readyState === WebSocket.OPEN) hello(saved.get("settings", null));
  }
  $("full-retry").addEventListener("click", retryHello);

  // ---- the server's state ----

  function applyState(message) {
    const previous = game;
    const newGame = message.game_id !== gameId;
    game = message.game;
    gameId = message.game_id;
    document.body.dataset.game = String(gameId);   // which game the page shows, for its tests
    thinking = message.thinking;
    if (!$("full").hidden) { $("full").hidden = true; clearTimeout(fullTimer); }
    tab.set("session", message.session);
    const recent = recentSessions().filter((id) => id !== message.session);
    saved.set("recent", [message.session].concat(recent).slice(0, 8));

    const grew = previous && !newGame && game.moves.length > previous.moves.length;
    const changed = newGame || !previous || game.moves.length !== previous.moves.length || game.over !== previous.over;
    if (changed && statusNote && statusNote.kind !== "offline") statusNote = null;   // old news
    if (newGame || !previous || game.moves.length !== previous.moves.length) {
      viewPly = null;
      board.hideArrow();
      hintPending = false;
      hintShown = false;
      if (grew && typedSent !== null && $("move-input").value.trim() === typedSent) $("move-input").value = "";
      typedSent = null;
      if (!grew) typedAhead = null;              // a take-back or a new game: not the move it was typed for
      $("resign-choice").hidden = true;
    }
    if (newGame) {
      // A new game shows the person's colour at the bottom (White between people); the same game
      // again (a reload, a lost connection) keeps its flip.
      const kept = tab.get("flipped", null);
      flipped = !!kept && typeof kept === "object" && kept.session === message.session &&
                kept.game === message.game_id && kept.on === true;
      lowWarned = {white: false, black: false};
      typedAhead = null;
      setupOpen = null;
      if (previous) {
        review = null;
        reviewProgress = null;
        learn = null;
        if (mode === "analysis") closeAnalysis();
        mode = "game";
      }
    }
    if (grew) playMoveSound();
    const animate = grew && viewPly === null && game.last ? game.last : null;
    if (game.clock) {
      clockBase = Object.assign({at: performance.now()}, game.clock);
    } else {
      clockBase = null;
    }
    render();
    if (animate) board.animateMove(animate.from, animate.to);
    if (typedAhead !== null && grew && personToMove()) {
      const text = typedAhead;
      typedAhead = null;
      sendTyped(text);
    }
    if (newGame && previous) showBoard();
    if (newGame && (previous || game.moves.length)) fitSetup();
    if (previous && !newGame && !previous.over && game.over) {
      sounds.play("end");
      showGameOver();
    }
    if (newGame && $("game-over").open) $("game-over").close();
    else if (game.over && $("game-over").open) fillGameOver();      // said again in another language
  }

  // A new game started from the bottom of a phone's page: the board comes into view, so that the
  // robot's first move is seen.
  function showBoard() {
    const area = $("play-area").getBoundingClientRect();
    if (area.top < 0 || area.bottom > window.innerHeight) {
      $("play-area").scrollIntoView({block: "start", behavior: "smooth"});
    }
  }

  // The person may move now (against the robot, when it is not thinking).
  function personToMove() {
    const open = socket && socket.readyState === WebSocket.OPEN;
    return !!game && open && !game.over && !(game.human && game.turn !== game.human);
  }

  function playMoveSound() {
    const last = game.last;
    if (!last) return;
    if (game.check) sounds.play("check");
    else if (last.castle) sounds.play("castle");
    else if (last.capture) sounds.play("capture");
    else sounds.play("move");
  }

  // Against the robot the person's colour is at the bottom; between people White, or the side to
  // move with "turn board each move"; Flip turns it round.
  function orientation() {
    let bottom = "white";
    if (mode === "learn" && learn) bottom = learnEntry().color;      // the side to find a move for
    else if (game && game.human) bottom = game.human;
    else if (game && prefs.autoFlip) bottom = game.turn;
    if (flipped) bottom = bottom === "white" ? "black" : "white";
    return bottom;
  }

  function render() {
    if (!game) { renderStatus(); return; }
    board.setOrientation(orientation());
    const open = socket && socket.readyState === WebSocket.OPEN;
    board.setHintSquare(null);
    board.setPremove(null);
    if (mode === "analysis" && analysis) {
      board.setPosition(analysis.fen);
      board.setHighlights(analysis.last, analysis.check);
      board.el.classList.remove("viewing");
      if (open && !analysis.over) board.setMovable(analysis.turn, analysis.legal, analysis.promotions);
      else { board.closeChooser(); board.setMovable(null, {}, []); }
    } else if (mode === "learn" && learn) {
      renderLearnBoard();
    } else {
      const plies = game.moves.length;
      const ply = viewPly === null ? plies : viewPly;
      board.setPosition(game.positions[ply]);
      const move = ply > 0 ? game.moves[ply - 1] : null;
      board.setHighlights(move ? {from: move.from, to: move.to} : null, game.checks[ply]);
      board.el.classList.toggle("viewing", viewPly !== null);
      const live = viewPly === null && !game.over && open;
      const robotToMove = game.human && game.turn !== game.human;
      if (live && !robotToMove) board.setMovable(game.turn, game.legal, game.promotions);
      else if (live && robotToMove) board.setMovable(game.human, game.premove_targets, [], true);
      else { board.closeChooser(); board.setMovable(null, {}, []); }
      if (viewPly === null) board.setPremove(game.premove);
    }
    renderPlayers();
    renderMoves();
    renderActions();
    renderReview();
    renderLearn();
    renderAnalysis();
    renderSetup();
    renderBoardArrows();
    renderStatus();
    tickClocks();
  }

  // The new-game form folds away while a review, an exercise or the analysis board is shown, so
  // that the moves keep their room; its title opens it again.
  function renderSetup() {
    const busy = !$("review-box").hidden || mode !== "game";
    const open = setupOpen === null ? !busy : setupOpen;
    $("setup-fields").hidden = !open;
    $("setup").classList.toggle("folded", !open);
    $("side").classList.toggle("setup-open", open);
    $("setup-toggle").setAttribute("aria-expanded", String(open));
  }
  $("setup-toggle").addEventListener("click", () => {
    setupOpen = $("setup-fields").hidden;
    renderSetup();
    $("setup").scrollTop = 0;                     // opened at its top
  });

  // A game started (or one in progress, reloaded): the form is shown from its top, and folded
  // away under its title where even then it would not fit beside the board (it would be cut).
  function fitSetup() {
    const setup = $("setup");
    setup.scrollTop = 0;
    if (setupOpen === null && !$("setup-fields").hidden && setup.scrollHeight > setup.clientHeight + 1) {
      setupOpen = false;
      renderSetup();
    }
  }

  // The ply the game's view shows (the game now, or the move clicked).
  function shownPly() {
    return viewPly === null ? game.moves.length : viewPly;
  }

  // The review applies to the game's first moves as long as they are the ones it reviewed.
  function reviewedPlies() {
    if (!review || !game) return 0;
    let count = 0;
    while (count < review.moves.length && count < game.moves.length && review.moves[count] === game.moves[count].uci) {
      count += 1;
    }
    return count;
  }

  // Arrows on the board: the engine's first moves on the analysis board, the better move at a
  // marked move of the reviewed game.
  function renderBoardArrows() {
    if (mode === "analysis") {
      const lines = engineInfo ? engineInfo.lines : [];
      board.drawArrows(lines.map((line, index) => ({from: line.from, to: line.to, kind: `line${index + 1}`})).reverse());
      return;
    }
    if (mode === "learn") return;
    const ply = shownPly();
    const entry = ply > 0 && ply <= reviewedPlies() ? review.plies[ply - 1] : null;
    if (entry && entry.mark && entry.best) board.drawArrows([{from: entry.best.from, to: entry.best.to, kind: "best"}]);
    else if (!hintShown) board.hideArrow();
  }

  function boardMove(from, to, promotion, premove) {
    if (mode === "analysis") send({type: "analysis_move", from, to, promotion});
    else if (mode === "learn") learnTry(from, to, promotion);
    else if (premove) { typedAhead = null; send({type: "premove", from, to}); }
    else send({type: "move", from, to, promotion});
  }

  // A right-click, or a click that selects nothing, drops a queued pre-move.
  function cancelPremove() {
    if (mode === "game" && game && game.premove) send({type: "premove", cancel: true});
  }

  function renderPlayers() {
    const bottom = orientation();
    const top = bottom === "white" ? "black" : "white";
    let material = game.materials[shownPly()];
    if (mode === "analysis" && analysis) material = analysis.material;
    else if (mode === "learn" && learn) material = game.materials[learnEntry().ply - 1];
    for (const [bar, colour] of [["player-top", top], ["player-bottom", bottom]]) {
      const el = $(bar);
      el.querySelector(".name").textContent = game.players[colour];
      const robotThinking = thinking && !game.over && game.human && colour !== game.human && game.turn === colour;
      el.querySelector(".thinking").hidden = !robotThinking;
      renderMaterial(el.querySelector(".material"), colour, material);
      const slot = el.querySelector(".clock-slot");
      const clock = $(`clock-${colour}`);
      if (clock.parentElement !== slot) slot.appendChild(clock);
    }
  }

  // Beside each player: the pieces it is up (as the opponent's pieces it took) and the points.
  function renderMaterial(el, colour, material) {
    el.id = `material-${colour}`;
    el.textContent = "";
    const pieces = material ? material[colour] : [];
    for (const letter of pieces) {
      const img = document.createElement("img");
      img.src = pieceUrl(letter);
      img.alt = letter.toLowerCase();           // the piece's letter, which the tests look for ...
      img.setAttribute("aria-label", pieceName(letter));    // ... and its name, which a screen reader says
      el.appendChild(img);
    }
    const lead = material ? (colour === "white" ? material.balance : -material.balance) : 0;
    if (lead > 0) el.append(`+${lead}`);
    if (lead <= 0) el.title = "";
    else if (colour === "white") el.title = tn("White is up {n} point", "White is up {n} points", lead, {n: lead});
    else el.title = tn("Black is up {n} point", "Black is up {n} points", lead, {n: lead});
  }

  let renderedMoves = "";
  function renderMoves() {
    const box = $("moves");
    const reviewed = reviewedPlies();
    const key = `${gameId}|${game.moves.map((m) => m.san).join(" ")}|${game.result}|${reviewed}|${I18n.lang}|${I18n.figurines}`;
    if (key !== renderedMoves) {
      renderedMoves = key;
      box.textContent = "";
      const fields = game.positions[0].split(" ");
      let number = Number(fields[5]) || 1;
      let black = fields[1] === "b";
      const add = (cls, text, ply) => {
        const el = document.createElement("span");
        el.className = cls;
        el.textContent = text;
        if (ply !== undefined) el.dataset.ply = String(ply);
        box.appendChild(el);
        return el;
      };
      if (black && game.moves.length) { add("num", `${number}.`); add("move placeholder", "…"); }
      game.moves.forEach((move, index) => {
        if (!black) add("num", `${number}.`);
        const el = add("move", I18n.moves(move.san), index + 1);   // SAN, or figurines where the reader asks
        const judged = index < reviewed ? review.plies[index] : null;
        if (judged && judged.mark) {
          el.classList.add(judged.mark);
          const glyph = document.createElement("span");
          glyph.className = "glyph";
          glyph.textContent = judged.symbol;
          el.appendChild(glyph);
          el.title = markTitle(judged.mark, judged.reason);
        }
        if (black) number += 1;
        black = !black;
      });
      if (game.over) add("result", game.result);
      box.querySelectorAll(".move.placeholder").forEach((el) => el.classList.remove("move"));
    }
    const current = mode === "game" ? shownPly() : -1;
    let currentEl = null;
    box.querySelectorAll(".move").forEach((el) => {
      const on = Number(el.dataset.ply) === current;
      el.classList.toggle("current", on);
      if (on) currentEl = el;
    });
    if (currentEl) {
      const top = currentEl.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - currentEl.offsetHeight) {
        box.scrollTop = top - box.clientHeight / 2;
      }
    }
  }

  // A marked move's tooltip: "Blunder: allows mate in 1 (Qxf7#)".
  function markTitle(mark, reason) {
    if (mark === "inaccuracy") return t("Inaccuracy: {reason}", {reason});
    if (mark === "mistake") return t("Mistake: {reason}", {reason});
    return t("Blunder: {reason}", {reason});
  }

  function renderActions() {
    const open = socket && socket.readyState === WebSocket.OPEN;
    const playing = open && !game.over;
    const canMove = playing && !(game.human && game.turn !== game.human);
    if (game.over) $("resign-choice").hidden = true;
    $("takeback").disabled = !(open && game.can_takeback);
    $("takeback").hidden = !game.settings.takeback || game.over;
    for (const id of ["hint", "offer-draw", "resign"]) $(id).hidden = game.over;
    $("move-entry").hidden = game.over || mode !== "game";
    $("hint").disabled = !canMove || hintPending;
    $("offer-draw").disabled = !playing || game.draw_offer !== null;
    $("resign").disabled = !playing;
    $("claim-draw").hidden = !(canMove && game.claimable);
    $("claim-draw").textContent = game.claimable === "fifty" ? t("Claim draw (50 moves)") : t("Claim draw (repetition)");
    $("move-input").disabled = mode !== "game";        // never while the robot thinks: it would lose the focus
    $("hint").disabled = $("hint").disabled || mode !== "game";
    $("review").disabled = !open || game.moves.length === 0 || reviewProgress !== null;
    $("review").textContent = review && reviewedPlies() === game.moves.length ? t("Review ✓") : t("Review");
    $("analysis").setAttribute("aria-pressed", String(mode === "analysis"));
    $("analysis").disabled = !open;
    $("over-review").disabled = !open || game.moves.length === 0;
    const plies = game.moves.length;
    const at = viewPly === null ? plies : viewPly;
    $("nav-first").disabled = $("nav-prev").disabled = at === 0;
    $("nav-next").disabled = $("nav-last").disabled = at === plies;
    const offer = $("offer");
    const offerToPerson = game.draw_offer && !game.over && !game.human;
    offer.hidden = !offerToPerson;
    if (offerToPerson) {
      $("offer-text").textContent = game.draw_offer === "white" ? t("White offers a draw. Black, do you accept?")
                                                                : t("Black offers a draw. White, do you accept?");
    }
  }

  // ---- the review ----

  function renderReview() {
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

  // How many moves (a move: White's and Black's) the game's first `plies` plies reach into.
  function movesIn(plies) {
    const blackFirst = game.positions[0].split(" ")[1] === "b" ? 1 : 0;
    return plies > 0 ? Math.floor((plies - 1 + blackFirst) / 2) + 1 : 0;
  }

  // "3… Nf6" for the move that made ply `ply` (in the reader's notation).
  function moveLabel(ply, san) {
    san = I18n.moves(san);
    const fields = game.positions[0].split(" ");
    const index = ply - 1 + (fields[1] === "b" ? 1 : 0);
    const number = (Number(fields[5]) || 1) + Math.floor(index / 2);
    return index % 2 === 0 ? `${number}. ${san}` : `${number}… ${san}`;
  }

  function startReview() {
    if ($("game-over").open) $("game-over").close();
    if (mode === "learn") mode = "game";
    send({type: "review"});
  }
  $("review").addEventListener("click", startReview);
  $("over-review").addEventListener("click", startReview);
  $("review-cancel").addEventListener("click", () => send({type: "review_cancel"}));
  $("eval-graph").addEventListener("click", (event) => {
    const point = event.target.closest("[data-ply]");
    if (!point) return;
    if (mode !== "game") leaveMode();
    view(Number(point.dataset.ply));
  });
  $("review-pgn").addEventListener("click", () => {
    if (review) download(review.pgn, "reviewed");
  });

  // ---- learn from your mistakes ----

  // The exercises: your mistakes and blunders against the robot, both players' between people.
  function learnList() {
    if (!review) return [];
    const reviewed = reviewedPlies();
    return review.plies.filter((entry) => entry.exercise && entry.ply <= reviewed &&
                                          (!game.human || entry.color === game.human));
  }

  function learnEntry() {
    return learn.list[Math.min(learn.index, learn.list.length - 1)];
  }

  function startLearn() {
    const list = learnList();
    if (!list.length) return;
    if (analysis) closeAnalysis();
    learn = {list, index: 0, found: 0, solved: false, shown: false, waiting: false, feedback: "", kind: ""};
    mode = "learn";
    render();
  }
  $("learn").addEventListener("click", startLearn);

  function renderLearnBoard() {
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

  function renderLearn() {
    const box = $("learn-box");
    box.hidden = mode !== "learn" || !learn;
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
    const args = {index: learn.index + 1, total: learn.list.length, move: moveLabel(entry.ply, entry.san) + entry.symbol};
    const white = entry.color === "white";
    if (entry.mark === "blunder") {
      return white ? t("{index} of {total}: {move} was a blunder. Find a better move for White.", args)
                   : t("{index} of {total}: {move} was a blunder. Find a better move for Black.", args);
    }
    return white ? t("{index} of {total}: {move} was a mistake. Find a better move for White.", args)
                 : t("{index} of {total}: {move} was a mistake. Find a better move for Black.", args);
  }

  function learnTry(from, to, promotion) {
    const entry = learnEntry();
    learn.waiting = true;
    learn.feedback = () => t("Checking…");
    learn.kind = "";
    send({type: "learn_try", ply: entry.ply, from, to, promotion});
    render();
  }

  function learnResult(message) {
    if (!learn || mode !== "learn" || learnEntry().ply !== message.ply) return;
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
    learn.index += 1;
    Object.assign(learn, {solved: false, shown: false, hint: false, waiting: false, feedback: "", kind: ""});
    render();
  }
  $("learn-next").addEventListener("click", nextExercise);
  $("learn-hint").addEventListener("click", () => {
    learn.hint = true;
    learn.feedback = () => t("The piece to move is marked.");
    learn.kind = "";
    render();
  });
  $("learn-solution").addEventListener("click", () => {
    const entry = learnEntry();
    learn.shown = true;
    learn.feedback = () => t("The engine's move: {move} ({line})",
                             {move: I18n.moves(entry.best.san), line: I18n.moves(entry.line.join(" "))});
    learn.kind = "";
    render();
  });
  $("learn-stop").addEventListener("click", leaveMode);

  // Back to the game from an exercise or the analysis board.
  function leaveMode() {
    if (mode === "analysis") closeAnalysis();
    mode = "game";
    learn = null;
    render();
  }

  // ---- the analysis board ----

  function openAnalysis(ply) {
    mode = "analysis";
    learn = null;
    send({type: "analysis", ply});
    if (!engineOn && $("engine-toggle").checked) send({type: "engine", on: true});
    render();
  }

  function closeAnalysis() {
    send({type: "analysis", on: false});
    analysis = null;
    engineOn = false;
    engineInfo = null;
    mode = "game";
  }

  $("analysis").addEventListener("click", () => {
    if (mode === "analysis") leaveMode();
    else openAnalysis(shownPly());
  });
  $("engine-toggle").addEventListener("change", () => {
    if (mode === "analysis") send({type: "engine", on: $("engine-toggle").checked});
  });
  $("engine-lines").addEventListener("click", (event) => {
    const line = event.target.closest(".line");
    if (line && analysis && !analysis.over) send({type: "analysis_move", from: line.dataset.from, to: line.dataset.to, promotion: "q"});
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

  function analysisStep(delta) {
    if (!analysis) return;
    const index = Math.max(0, Math.min(analysis.line.length, analysis.index + delta));
    if (index !== analysis.index) send({type: "analysis_goto", index});
  }

  // A score for the narrow bar: one decimal ("+0.35" -> "0.3"), mates as they are ("#-2").
  function barText(score) {
    if (!score || score.startsWith("#")) return score || "";
    return Math.abs(Number(score)).toFixed(1);
  }

  function renderAnalysis() {
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

  // A message of ours is a function, said when shown (in the language of the moment); the server's
  // are strings.
  function say(text) {
    return typeof text === "function" ? text() : text;
  }

  function note(text, kind, ms) {
    statusNote = {text, kind, until: performance.now() + (ms || 6000)};
    setTimeout(renderStatus, Math.min(ms || 6000, 60000) + 50);
  }

  function renderStatus() {
    const el = $("status");
    let text = game ? game.status : t("Connecting…");
    let kind = game && game.over ? "over" : "";
    if (game && !game.over && game.draw_offer && game.human && game.draw_offer === game.human) {
      text = t("You offered a draw: Jitfish is considering it…");
    }
    if (game && viewPly !== null && mode === "game") {
      text = viewPly === 0 ? t("Viewing the start (» for the game now)")
                           : t("Viewing {move} (» for the game now)", {move: moveLabel(viewPly, game.moves[viewPly - 1].san)});
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
      $("game-info").textContent = [who, s.clock_label, game.chess960].filter(Boolean).join(" · ");
    }
  }

  // ---- the clocks ----

  function formatClock(ms) {
    if (ms <= 0) return "0:00.0";
    if (ms < 10000) {
      const tenths = Math.floor(ms / 100);
      return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
    }
    const seconds = Math.floor(ms / 1000);
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
  }

  function tickClocks() {
    for (const colour of ["white", "black"]) {
      const el = $(`clock-${colour}`);
      if (!clockBase) {
        el.textContent = "-";
        el.className = "clock untimed";
        continue;
      }
      let ms = clockBase[colour];
      let delay = 0;
      const running = clockBase.running === colour && game && !game.over;
      if (running) {
        const elapsed = performance.now() - clockBase.at;
        delay = Math.max(0, clockBase.delay - elapsed);
        ms -= Math.max(0, elapsed - clockBase.delay);
      }
      el.textContent = formatClock(Math.max(0, ms));
      if (delay > 0) {
        const span = document.createElement("span");
        span.className = "delay";
        span.textContent = `+${(delay / 1000).toFixed(1)}`;
        el.appendChild(span);
      }
      el.className = "clock" + (running ? " running" : "") + (ms < LOW_TIME_MS ? " low" : "");
      const mine = game && (!game.human || game.human === colour);
      if (running && mine && ms < LOW_TIME_MS && !lowWarned[colour]) {
        lowWarned[colour] = true;
        sounds.play("lowtime");
      } else if (ms >= LOW_TIME_MS + 2000) {
        lowWarned[colour] = false;
      }
    }
  }
  setInterval(tickClocks, 100);

  // ---- navigation through the game ----

  function view(ply) {
    if (!game) return;
    const plies = game.moves.length;
    ply = Math.max(0, Math.min(plies, ply));
    viewPly = ply === plies ? null : ply;
    if (viewPly !== null) {
      board.hideArrow();
      hintShown = false;
    }
    if (mode === "analysis") openAnalysis(ply);        // the analysis board follows the game's moves
    else if (mode === "learn") leaveMode();
    render();
  }
  const currentPly = () => (viewPly === null ? (game ? game.moves.length : 0) : viewPly);
  $("nav-first").addEventListener("click", () => view(0));
  $("nav-prev").addEventListener("click", () => view(currentPly() - 1));
  $("nav-next").addEventListener("click", () => view(currentPly() + 1));
  $("nav-last").addEventListener("click", () => view(Infinity));
  $("moves").addEventListener("click", (event) => {
    const el = event.target.closest(".move");
    if (el && el.dataset.ply) view(Number(el.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    if ($("game-over").open) return;
    const keys = mode === "analysis"
      ? {ArrowLeft: () => analysisStep(-1), ArrowRight: () => analysisStep(1), Home: () => analysisStep(-Infinity),
         End: () => analysisStep(Infinity), f: flip, Escape: leaveMode}
      : {ArrowLeft: () => view(currentPly() - 1), ArrowRight: () => view(currentPly() + 1),
         Home: () => view(0), End: () => view(Infinity), f: flip};
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  // ---- the actions ----

  function flip() {
    flipped = !flipped;
    tab.set("flipped", {session: tab.get("session", null), game: gameId, on: flipped});
    board.hideArrow();
    render();
  }
  $("flip").addEventListener("click", flip);
  $("takeback").addEventListener("click", () => send({type: "takeback"}));
  $("hint").addEventListener("click", () => {
    hintPending = true;
    note(() => t("Looking for a hint…"), "notice", 4000);
    render();
    send({type: "hint"});
  });
  $("offer-draw").addEventListener("click", () => send({type: "offer_draw"}));
  $("claim-draw").addEventListener("click", () => send({type: "claim_draw"}));
  $("accept-draw").addEventListener("click", () => send({type: "answer_draw", accept: true}));
  $("decline-draw").addEventListener("click", () => send({type: "answer_draw", accept: false}));

  // A button that asks "are you sure?" first: the first click changes its text for 3 seconds,
  // a second click within them acts. `needed()` says whether to ask at all; `label()` and
  // `question()` are its two texts, said in the language of the moment.
  function confirming(id, label, question, needed, action) {
    const button = $(id);
    let timer = null;
    const reset = () => {
      clearTimeout(timer);
      button.classList.remove("confirm");
      button.textContent = label();
    };
    button.addEventListener("click", () => {
      if (needed() && !button.classList.contains("confirm")) {
        button.classList.add("confirm");
        button.textContent = question();
        timer = setTimeout(reset, 3000);
        return;
      }
      reset();
      action();
    });
  }
  // Resigning asks which side resigns: against the robot the person's, between two people
  // either (not only the side to move: the other may be the one giving up).
  $("resign").addEventListener("click", () => {
    const bar = $("resign-choice");
    if (!bar.hidden || !game) { bar.hidden = true; return; }
    const both = !game.human;
    $("resign-question").textContent = resignQuestion();
    $("resign-white").hidden = !both && game.human !== "white";
    $("resign-black").hidden = !both && game.human !== "black";
    bar.hidden = false;
  });
  function resignQuestion() {
    return game && !game.human ? t("Who resigns?") : t("Resign this game?");
  }
  for (const colour of ["white", "black"]) {
    $(`resign-${colour}`).addEventListener("click", () => {
      $("resign-choice").hidden = true;
      send({type: "resign", color: colour});
    });
  }
  $("resign-cancel").addEventListener("click", () => { $("resign-choice").hidden = true; });

  function downloadPgn() {
    if (game) download(game.pgn, "");
  }

  function download(text, suffix) {
    const blob = new Blob([text], {type: "application/x-chess-pgn"});
    const link = document.createElement("a");
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
    link.href = URL.createObjectURL(blob);
    link.download = `jitfish-${stamp}${suffix ? `-${suffix}` : ""}.pgn`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  $("pgn-download").addEventListener("click", downloadPgn);
  $("over-pgn").addEventListener("click", downloadPgn);

  // A typed move. The box keeps the focus and stays usable while the robot thinks (as lichess's
  // does): a move typed then is sent once the robot has moved, like a pre-move.
  $("move-entry").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (!text || !game || game.over) return;
    if (personToMove()) {
      sendTyped(text);
    } else {
      typedAhead = text;
      const player = game.players[game.turn];
      // Translators: {move} is a move typed while the robot thinks; {player} is its name ("Jitfish 1200").
      note(() => t("{move}: played when {player} has moved", {move: text, player}), "notice", 60000);
      renderStatus();
    }
  });

  function sendTyped(text) {
    typedSent = text;
    if (statusNote && statusNote.kind === "notice") statusNote = null;
    send({type: "move", text});
  }

  // ---- sound, full screen, theme ----

  function savePrefs() { saved.set("prefs", prefs); }
  function applyPrefs() {
    $("sound").setAttribute("aria-pressed", String(prefs.sound));
    document.body.className = document.body.className.replace(/\btheme-\w+/g, "").trim();
    document.body.classList.add(`theme-${prefs.theme}`);
    $("theme").value = prefs.theme;
    $("auto-flip").checked = prefs.autoFlip;
    $("language").value = I18n.lang;
    $("notation").value = I18n.figurines ? "figurines" : "letters";
    $("rules-link").setAttribute("href", `rules?lang=${encodeURIComponent(I18n.lang)}`);
  }

  // ---- the reader's language and notation ----

  // The server says its texts (the status, results, reasons, level names...) in the language and
  // notation of the last hello or language message: it sends the configuration, the state and
  // the review again in them.
  function tellLanguage() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      send({type: "language", lang: I18n.lang, figurines: I18n.figurines});
    }
  }
  $("language").addEventListener("change", () => {
    I18n.setLanguage($("language").value);
    applyPrefs();
    tellLanguage();
  });
  $("notation").addEventListener("change", () => {
    prefs.notation = $("notation").value === "figurines" ? "figurines" : "letters";
    savePrefs();
    I18n.setNotation(prefs.notation);
    tellLanguage();
  });
  // Everything said again in the new language or notation (the page's own texts are i18n.js's).
  I18n.onChange(() => {
    applyPrefs();
    board.relabel();
    if (lastConfig) configure(lastConfig);
    else formChanged(false);
    if (!$("new-game").classList.contains("confirm")) $("new-game").textContent = t("Start new game");
    if (!$("resign-choice").hidden) $("resign-question").textContent = resignQuestion();
    if (game && $("game-over").open) fillGameOver();
    renderedMoves = "";
    render();
  });
  $("sound").addEventListener("click", () => {
    prefs.sound = !prefs.sound;
    sounds.setEnabled(prefs.sound, true);
    savePrefs();
    applyPrefs();
    if (prefs.sound) sounds.play("move");
  });
  $("theme").addEventListener("change", () => {
    prefs.theme = $("theme").value;
    savePrefs();
    applyPrefs();
  });
  $("auto-flip").addEventListener("change", () => {
    prefs.autoFlip = $("auto-flip").checked;
    savePrefs();
    render();
  });
  $("fullscreen").addEventListener("click", async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch (error) {
      note(() => t("Full screen is not available in this browser"), "error");
      renderStatus();
    }
  });
  document.addEventListener("fullscreenchange", () => {
    $("fullscreen").setAttribute("aria-pressed", String(!!document.fullscreenElement));
  });

  // ---- the new-game form ----

  function numberOf(id) {
    const text = $(id).value.trim();
    return text === "" ? null : Number(text);
  }

  function customClock() {
    const moves = numberOf("custom-moves");
    const periods = [{minutes: numberOf("custom-minutes"), moves, increment: numberOf("custom-increment") || 0}];
    const then = numberOf("custom-then-minutes");
    if (moves !== null && then !== null) {
      periods.push({minutes: then, moves: null, increment: numberOf("custom-then-increment") || 0});
    }
    return {mode: $("custom-mode").value, periods};
  }

  function readSettings() {
    return {
      version: SETTINGS_VERSION,
      opponent: $("opponent").value, color: $("color").value, elo: Number($("level").value) || 1200,
      clock: $("clock").value || "none", clock_spec: customClock(),
      takeback: $("allow-takeback").checked, pause: $("pause").checked, chess960: $("chess960").checked,
      position: $("position").value.trim().slice(0, MAX_POSITION),
    };
  }

  // Stored settings are whatever an earlier page left: anything that does not fit is ignored.
  function writeSettings(s) {
    if (!s || typeof s !== "object") return;
    try {
      fillSettings(s);
    } catch (error) {
      saved.set("settings", null);
    }
    formChanged(false);
  }

  function fillSettings(s) {
    const set = (id, value) => { if (value !== undefined && value !== null) $(id).value = value; };
    set("opponent", s.opponent);
    set("color", s.color);
    if (s.elo && ![...$("level").options].some((o) => Number(o.value) === Number(s.elo))) {
      addLevel(Number(s.elo), `${s.elo}`);
    }
    set("level", s.elo);
    if ([...$("clock").options].some((o) => o.value === s.clock)) set("clock", s.clock);
    const spec = s.clock_spec;
    if (spec && Array.isArray(spec.periods) && spec.periods.length) {
      if (spec.mode && spec.mode !== "none") set("custom-mode", spec.mode);
      const [first, second] = spec.periods;
      set("custom-minutes", first.minutes);
      set("custom-increment", first.increment);
      $("custom-moves").value = first.moves || "";
      $("custom-then-minutes").value = second ? second.minutes : "";
      $("custom-then-increment").value = second ? second.increment : 0;
    }
    for (const [id, key] of [["allow-takeback", "takeback"], ["pause", "pause"], ["chess960", "chess960"]]) {
      if (typeof s[key] === "boolean") $(id).checked = s[key];
    }
    if (typeof s.position === "string") $("position").value = s.position.slice(0, MAX_POSITION);
  }

  function addLevel(elo, text, style) {
    const option = document.createElement("option");
    option.value = String(elo);
    option.textContent = text;
    option.dataset.style = style || "";     // "plays like a lichess 800 player" for the levels of the human model
    const later = [...$("level").options].find((o) => Number(o.value) > elo);
    $("level").insertBefore(option, later || null);
  }

  // The menus the server's configuration fills: the levels and the clock presets, with the
  // server's names in the reader's language. A configuration comes with every hello and after a
  // change of language: the choices made stay.
  function configure(config) {
    lastConfig = config;
    const level = $("level"), clock = $("clock");
    const first = !level.options.length;
    const chosenLevel = level.value, chosenClock = clock.value;
    level.textContent = "";
    for (const entry of config.levels) {
      // Translators: a level in its menu: "1200 · Club player" ({name} is the level's name).
      addLevel(entry.elo, entry.elo >= config.max_elo ? t("Full strength (about {elo})", {elo: entry.elo})
                                                      : t("{elo} · {name}", {elo: entry.elo, name: entry.name}),
               entry.style);
    }
    clock.textContent = "";
    for (const preset of config.presets) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = preset.label;
      clock.appendChild(option);
    }
    const custom = document.createElement("option");
    custom.value = "custom";
    custom.textContent = t("Custom…");
    clock.appendChild(custom);
    if (first) {
      level.value = "1200";
      writeSettings(saved.get("settings", null));
      formChanged(false);                 // the level's "plays like" line, stored settings or none
      return;
    }
    if (chosenLevel && ![...level.options].some((o) => o.value === chosenLevel)) addLevel(Number(chosenLevel), chosenLevel);
    level.value = chosenLevel;
    if ([...clock.options].some((o) => o.value === chosenClock)) clock.value = chosenClock;
    formChanged(false);
  }

  function capitalised(text) {
    return text.charAt(0).toLocaleUpperCase(I18n.lang) + text.slice(1);
  }

  function formChanged(save) {
    const human = $("opponent").value === "human";
    document.body.classList.toggle("mode-human", human);
    document.body.classList.toggle("mode-robot", !human);
    $("custom-clock").hidden = $("clock").value !== "custom";
    const fischer = $("custom-mode").value === "fischer";
    $("custom-increment-label").textContent = fischer ? t("Increment (s)") : t("Delay (s)");
    $("custom-then-increment-label").textContent = fischer ? t("Then increment (s)") : t("Then delay (s)");
    const chosen = $("level").selectedOptions[0];
    const style = chosen ? chosen.dataset.style || "" : "";
    // Translators: {sentence} is the server's "plays like a lichess 800 player", begun with a capital.
    $("level-style").textContent = style ? t("{sentence}.", {sentence: capitalised(style)}) : "";
    $("level-style").hidden = !style;
    const periods = $("custom-moves").value.trim() !== "";
    document.querySelectorAll("#custom-clock .then").forEach((el) => { el.hidden = !periods; });
    if (save !== false) saved.set("settings", readSettings());
  }
  $("setup").addEventListener("input", () => formChanged(true));
  $("setup").addEventListener("change", () => formChanged(true));

  function startGame(settings) {
    if ($("game-over").open) $("game-over").close();
    send({type: "new_game", settings});
  }
  // Starting anew abandons a game in progress: that asks first.
  confirming("new-game", () => t("Start new game"), () => t("Abandon this game? Click again"),
             () => !!game && !game.over && game.moves.length > 0, () => startGame(readSettings()));
  $("again").addEventListener("click", () => { if (game) startGame(game.settings); });
  $("over-new").addEventListener("click", () => {
    $("game-over").close();
    setupOpen = true;
    renderSetup();
    const setup = $("setup");
    setup.scrollTop = 0;
    setup.scrollIntoView({behavior: "smooth", block: "nearest"});
    setup.classList.add("flash");
    setTimeout(() => setup.classList.remove("flash"), 1200);
    $("opponent").focus({preventScroll: true});
  });
  $("over-close").addEventListener("click", () => $("game-over").close());
  $("use-position").addEventListener("click", () => {
    if (game) $("position").value = mode === "analysis" && analysis ? analysis.fen : game.positions[currentPly()];
    formChanged(true);
  });

  function fillGameOver() {
    const [white, black] = game.result.split("-");
    let title = t("Draw");
    if (game.result === "1-0" || game.result === "0-1") {
      const winner = game.result === "1-0" ? "white" : "black";
      if (game.human) title = winner === game.human ? t("You won!") : t("Jitfish won");
      else title = winner === "white" ? t("White wins") : t("Black wins");
    }
    $("over-title").textContent = `${title}  ${white === "1/2" ? "½–½" : `${white}–${black}`}`;
    $("over-reason").textContent = game.reason;
  }

  function showGameOver() {
    fillGameOver();
    const dialog = $("game-over");
    if (!dialog.open) dialog.showModal();
    $("again").focus();
  }

  $("play-here").addEventListener("click", () => {
    superseded = false;
    $("superseded").hidden = true;
    connect();
  });

  applyPrefs();
  formChanged(false);
  connect();
})();
