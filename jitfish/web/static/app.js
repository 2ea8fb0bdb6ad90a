// The page of `jitfish web`: the WebSocket to the server (which keeps the game, the clock and the
// rules), the side panel, the clocks' display, the settings form and the dialogs. The board
// widget is board.js, the sounds sound.js.
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
  const sounds = new Sounds();
  sounds.setEnabled(prefs.sound);
  const board = new ChessBoard($("board"), (from, to, promotion) =>
    send({type: "move", from, to, promotion}));

  let game = null;              // the last state from the server
  let gameId = null;
  let thinking = false;
  let viewPly = null;           // null: the game now; a number: that many plies into the game
  let flipped = tab.get("flipped", false);
  let clockBase = null;         // {white, black, running, delay, at}
  let lowWarned = {white: false, black: false};
  let statusNote = null;        // {text, kind, until}
  let socket = null;
  let retries = 0;
  let superseded = false;
  let hintPending = false;
  let welcomed = false;         // the server has answered the hello (config received)
  let helloSettings = null;     // the settings the last hello carried

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
      if (superseded) return;
      note(retries < 4 ? "Connection lost: reconnecting…"
                       : "No answer from the server: is `jitfish web` still running? (After a restart, open the new address it prints.)",
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
          settings});
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
      note("Not connected: reconnecting…", "error");
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
          note("The saved new-game settings could not be used and were reset.", "error", 10000);
          break;
        }
        hintPending = false;
        note(message.message, "error");
        render();
        break;
      case "notice": note(message.message, "notice"); renderStatus(); break;
      case "hint":
        hintPending = false;
        if (viewPly === null) board.showArrow(message.from, message.to);
        note(`Hint: ${message.san}`, "notice", 8000);
        renderActions();
        renderStatus();
        break;
      case "superseded":
        superseded = true;
        $("superseded").hidden = false;
        if (socket) socket.close();
        break;
      default: break;
    }
  }

  // ---- the server's state ----

  function applyState(message) {
    const previous = game;
    const newGame = message.game_id !== gameId;
    game = message.game;
    gameId = message.game_id;
    thinking = message.thinking;
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
      if (grew) $("move-input").value = "";
    }
    if (newGame) lowWarned = {white: false, black: false};
    if (grew) playMoveSound();
    const animate = grew && viewPly === null && game.last ? game.last : null;
    if (game.clock) {
      clockBase = Object.assign({at: performance.now()}, game.clock);
    } else {
      clockBase = null;
    }
    render();
    if (animate) board.animateMove(animate.from, animate.to);
    if (previous && !newGame && !previous.over && game.over) {
      sounds.play("end");
      showGameOver();
    }
    if (newGame && $("game-over").open) $("game-over").close();
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
    if (game && game.human) bottom = game.human;
    else if (game && prefs.autoFlip) bottom = game.turn;
    if (flipped) bottom = bottom === "white" ? "black" : "white";
    return bottom;
  }

  function render() {
    if (!game) { renderStatus(); return; }
    const plies = game.moves.length;
    const ply = viewPly === null ? plies : viewPly;
    board.setOrientation(orientation());
    board.setPosition(game.positions[ply]);
    const move = ply > 0 ? game.moves[ply - 1] : null;
    board.setHighlights(move ? {from: move.from, to: move.to} : null, game.checks[ply]);
    board.el.classList.toggle("viewing", viewPly !== null);
    const live = viewPly === null && !game.over && socket && socket.readyState === WebSocket.OPEN;
    let movable = null;
    if (live && !(game.human && game.turn !== game.human)) movable = game.turn;
    if (movable) board.setMovable(movable, game.legal, game.promotions);
    else { board.closeChooser(); board.setMovable(null, {}, []); }
    renderPlayers();
    renderMoves();
    renderActions();
    renderStatus();
    tickClocks();
  }

  function renderPlayers() {
    const bottom = orientation();
    const top = bottom === "white" ? "black" : "white";
    const material = materialBalance(game.positions[viewPly === null ? game.moves.length : viewPly]);
    for (const [bar, colour] of [["player-top", top], ["player-bottom", bottom]]) {
      const el = $(bar);
      el.querySelector(".name").textContent = game.players[colour];
      const robotThinking = thinking && !game.over && game.human && colour !== game.human && game.turn === colour;
      el.querySelector(".thinking").hidden = !robotThinking;
      const lead = colour === "white" ? material : -material;
      el.querySelector(".material").textContent = lead > 0 ? `+${lead}` : "";
      const slot = el.querySelector(".clock-slot");
      const clock = $(`clock-${colour}`);
      if (clock.parentElement !== slot) slot.appendChild(clock);
    }
  }

  function materialBalance(fen) {
    const values = {p: 1, n: 3, b: 3, r: 5, q: 9, k: 0};
    let balance = 0;
    for (const piece of Object.values(parsePlacement(fen))) {
      const value = values[piece.toLowerCase()];
      balance += piece === piece.toUpperCase() ? value : -value;
    }
    return balance;
  }

  let renderedMoves = "";
  function renderMoves() {
    const box = $("moves");
    const key = `${gameId}|${game.moves.map((m) => m.san).join(" ")}|${game.result}`;
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
        add("move", move.san, index + 1);
        if (black) number += 1;
        black = !black;
      });
      if (game.over) add("result", game.result);
      box.querySelectorAll(".move.placeholder").forEach((el) => el.classList.remove("move"));
    }
    const current = viewPly === null ? game.moves.length : viewPly;
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

  function renderActions() {
    const open = socket && socket.readyState === WebSocket.OPEN;
    const playing = open && !game.over;
    const personToMove = playing && !(game.human && game.turn !== game.human);
    $("takeback").disabled = !(open && game.can_takeback);
    $("takeback").hidden = !game.settings.takeback;
    $("hint").disabled = !personToMove || hintPending;
    $("offer-draw").disabled = !playing || game.draw_offer !== null;
    $("resign").disabled = !playing;
    $("claim-draw").hidden = !(personToMove && game.claimable);
    $("claim-draw").textContent = game.claimable === "fifty" ? "Claim draw (50 moves)" : "Claim draw (repetition)";
    $("move-input").disabled = !personToMove;
    const plies = game.moves.length;
    const at = viewPly === null ? plies : viewPly;
    $("nav-first").disabled = $("nav-prev").disabled = at === 0;
    $("nav-next").disabled = $("nav-last").disabled = at === plies;
    const offer = $("offer");
    const offerToPerson = game.draw_offer && !game.over && !game.human;
    offer.hidden = !offerToPerson;
    if (offerToPerson) {
      const by = game.draw_offer === "white" ? "White" : "Black";
      $("offer-text").textContent = `${by} offers a draw. ${by === "White" ? "Black" : "White"}, do you accept?`;
    }
  }

  function note(text, kind, ms) {
    statusNote = {text, kind, until: performance.now() + (ms || 6000)};
    setTimeout(renderStatus, Math.min(ms || 6000, 60000) + 50);
  }

  function renderStatus() {
    const el = $("status");
    let text = game ? game.status : "Connecting…";
    let kind = game && game.over ? "over" : "";
    if (game && !game.over && game.draw_offer && game.human && game.draw_offer === game.human) {
      text = "You offered a draw: Jitfish is considering it…";
    }
    if (game && viewPly !== null) text = `Viewing move ${viewPly} of ${game.moves.length}: press End or » to return`;
    if (statusNote && performance.now() < statusNote.until) {
      text = statusNote.text;
      kind = statusNote.kind === "offline" ? "error" : statusNote.kind;
    }
    el.textContent = text;
    el.className = kind;
    if (game) {
      const mine = !game.over && (!game.human || game.turn === game.human);
      document.title = game.over ? "Game over · Jitfish" : mine && game.human ? "Your move · Jitfish" : "Jitfish";
      const s = game.settings;
      const who = game.human ? `${game.players[game.human === "white" ? "black" : "white"]}` : "Two players";
      $("game-info").textContent = [who, s.clock_label, s.chess960 ? "Chess960" : ""].filter(Boolean).join(" · ");
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
    if (viewPly !== null) board.hideArrow();
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
    const keys = {ArrowLeft: () => view(currentPly() - 1), ArrowRight: () => view(currentPly() + 1),
                  Home: () => view(0), End: () => view(Infinity), f: flip};
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  // ---- the actions ----

  function flip() {
    flipped = !flipped;
    tab.set("flipped", flipped);
    board.hideArrow();
    render();
  }
  $("flip").addEventListener("click", flip);
  $("takeback").addEventListener("click", () => send({type: "takeback"}));
  $("hint").addEventListener("click", () => {
    hintPending = true;
    note("Looking for a hint…", "notice", 4000);
    render();
    send({type: "hint"});
  });
  $("offer-draw").addEventListener("click", () => send({type: "offer_draw"}));
  $("claim-draw").addEventListener("click", () => send({type: "claim_draw"}));
  $("accept-draw").addEventListener("click", () => send({type: "answer_draw", accept: true}));
  $("decline-draw").addEventListener("click", () => send({type: "answer_draw", accept: false}));

  // A button that asks "are you sure?" first: the first click changes its text for 3 seconds,
  // a second click within them acts. `needed()` says whether to ask at all.
  function confirming(id, question, needed, action) {
    const button = $(id);
    const label = button.textContent;
    let timer = null;
    const reset = () => {
      clearTimeout(timer);
      button.classList.remove("confirm");
      button.textContent = label;
    };
    button.addEventListener("click", () => {
      if (needed() && !button.classList.contains("confirm")) {
        button.classList.add("confirm");
        button.textContent = question;
        timer = setTimeout(reset, 3000);
        return;
      }
      reset();
      action();
    });
  }
  confirming("resign", "Really resign?", () => true, () => send({type: "resign"}));

  function downloadPgn() {
    if (!game) return;
    const blob = new Blob([game.pgn], {type: "application/x-chess-pgn"});
    const link = document.createElement("a");
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
    link.href = URL.createObjectURL(blob);
    link.download = `jitfish-${stamp}.pgn`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
  $("pgn-download").addEventListener("click", downloadPgn);
  $("over-pgn").addEventListener("click", downloadPgn);

  $("move-entry").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (text) send({type: "move", text});
  });

  // ---- sound, full screen, theme ----

  function savePrefs() { saved.set("prefs", prefs); }
  function applyPrefs() {
    $("sound").setAttribute("aria-pressed", String(prefs.sound));
    document.body.className = document.body.className.replace(/\btheme-\w+/g, "").trim();
    document.body.classList.add(`theme-${prefs.theme}`);
    $("theme").value = prefs.theme;
    $("auto-flip").checked = prefs.autoFlip;
  }
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
      note("Full screen is not available in this browser", "error");
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

  function addLevel(elo, text) {
    const option = document.createElement("option");
    option.value = String(elo);
    option.textContent = text;
    const later = [...$("level").options].find((o) => Number(o.value) > elo);
    $("level").insertBefore(option, later || null);
  }

  function configure(config) {
    const level = $("level");
    if (!level.options.length) {
      for (const entry of config.levels) {
        addLevel(entry.elo, entry.elo >= config.max_elo ? `Full strength (about ${entry.elo})` : `${entry.elo} · ${entry.name}`);
      }
      const clock = $("clock");
      for (const preset of config.presets) {
        const option = document.createElement("option");
        option.value = preset.name;
        option.textContent = preset.label;
        clock.appendChild(option);
      }
      const custom = document.createElement("option");
      custom.value = "custom";
      custom.textContent = "Custom…";
      clock.appendChild(custom);
      level.value = "1200";
      writeSettings(saved.get("settings", null));
    }
  }

  function formChanged(save) {
    const human = $("opponent").value === "human";
    document.body.classList.toggle("mode-human", human);
    document.body.classList.toggle("mode-robot", !human);
    $("custom-clock").hidden = $("clock").value !== "custom";
    const mode = $("custom-mode").value;
    const word = mode === "fischer" ? "increment" : "delay";
    $("custom-increment-label").textContent = `${word[0].toUpperCase()}${word.slice(1)} (s)`;
    $("custom-then-increment-label").textContent = `Then ${word} (s)`;
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
  confirming("new-game", "Abandon this game? Click again", () => !!game && !game.over && game.moves.length > 0,
             () => startGame(readSettings()));
  $("again").addEventListener("click", () => { if (game) startGame(game.settings); });
  $("over-new").addEventListener("click", () => {
    $("game-over").close();
    const setup = $("setup");
    setup.scrollIntoView({behavior: "smooth", block: "nearest"});
    setup.classList.add("flash");
    setTimeout(() => setup.classList.remove("flash"), 1200);
    $("opponent").focus({preventScroll: true});
  });
  $("over-close").addEventListener("click", () => $("game-over").close());
  $("use-position").addEventListener("click", () => {
    if (game) $("position").value = game.positions[currentPly()];
    formChanged(true);
  });

  function showGameOver() {
    const [white, black] = game.result.split("-");
    let title = "Draw";
    if (game.result === "1-0" || game.result === "0-1") {
      const winner = game.result === "1-0" ? "white" : "black";
      if (game.human) title = winner === game.human ? "You won!" : "Jitfish won";
      else title = winner === "white" ? "White wins" : "Black wins";
    }
    $("over-title").textContent = `${title}  ${white === "1/2" ? "½–½" : `${white}–${black}`}`;
    $("over-reason").textContent = game.reason;
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
