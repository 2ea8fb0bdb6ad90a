// The new-game form of the `jitfish web` page: the game (chess or checkers: the form follows it, its
// levels, colours, Chess960 and start position; each game keeps its own level and start position
// while the other is chosen), the opponent, colour and level (the levels and the clock presets come
// from the server's configuration, named in the reader's language), the clock (a preset, or a
// custom one with its periods), take-backs, pause, Chess960 and a start position;
// kept in the browser as it changes and filled from there on the next visit (anything stored that
// does not fit is ignored); folded away under its title while a review, an exercise or the analysis
// board is shown; and "Start new game", which asks first while a game is in progress.
import {t, I18n} from "./i18n.js";
import {$} from "./dom.js";
import {saved} from "./storage.js";
import {state, currentPly, gameKind} from "./store.js";
import {send} from "./connection.js";

const SETTINGS_VERSION = 1;
const MAX_POSITION = Number(document.getElementById("position").maxLength) || 20000;
const CHECKERS_LEVELS = 10;              // 1-10, should the server's configuration not list them

// Each game's level, kept while the other game's levels are in the menu (the menu says which
// game it lists in its data-game), and the start position typed for the game not chosen now.
const chosenLevel = {chess: 1200, checkers: 3};
const otherPosition = {chess: "", checkers: ""};

// The game the form starts: "chess" or "checkers".
export function formGame() {
  return $("game").value === "checkers" ? "checkers" : "chess";
}

// ---- folding ----

// The new-game form folds away while a review, an exercise or the analysis board is shown, so
// that the moves keep their room; its title opens it again.
export function renderSetup() {
  const busy = !$("review-box").hidden || state.mode !== "game";
  const open = state.setupOpen === null ? !busy : state.setupOpen;
  $("setup-fields").hidden = !open;
  $("setup").classList.toggle("folded", !open);
  $("side").classList.toggle("setup-open", open);
  $("setup-toggle").setAttribute("aria-expanded", String(open));
}

// A game started (or one in progress, reloaded): the form is shown from its top, and folded
// away under its title where even then it would not fit beside the board (it would be cut).
export function fitSetup() {
  const setup = $("setup");
  setup.scrollTop = 0;
  if (state.setupOpen === null && !$("setup-fields").hidden && setup.scrollHeight > setup.clientHeight + 1) {
    state.setupOpen = false;
    renderSetup();
  }
}

// "New game…" in the game-over dialog: the form opened, brought into view and flashed.
export function openSetup() {
  state.setupOpen = true;
  renderSetup();
  const setup = $("setup");
  setup.scrollTop = 0;
  setup.scrollIntoView({behavior: "smooth", block: "nearest"});
  setup.classList.add("flash");
  setTimeout(() => setup.classList.remove("flash"), 1200);
  $("opponent").focus({preventScroll: true});
}

// ---- the settings ----

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
  keepLevel();
  return {
    version: SETTINGS_VERSION, game: formGame(),
    opponent: $("opponent").value, color: $("color").value, elo: chosenLevel.chess, level: chosenLevel.checkers,
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
  if (s.game === "chess" || s.game === "checkers") $("game").value = s.game;
  set("opponent", s.opponent);
  set("color", s.color);
  const elo = Number(s.elo);
  if (Number.isInteger(elo) && elo > 0) chosenLevel.chess = elo;
  const level = Number(s.level);
  if (Number.isInteger(level) && level >= 1 && level <= CHECKERS_LEVELS) chosenLevel.checkers = level;
  fillLevels(false);
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

// The level chosen in the menu, kept for the game the menu lists.
function keepLevel() {
  const level = $("level");
  const value = Number(level.value);
  if ((level.dataset.game === "chess" || level.dataset.game === "checkers") && Number.isInteger(value) && value > 0) {
    chosenLevel[level.dataset.game] = value;
  }
}

// The level menu for the form's game: the chess Elos or the checkers levels 1-10, as the
// server's configuration names them, that game's own choice selected (`keep` false: the choices
// have just been set, the menu's old value is not one).
function fillLevels(keep) {
  if (keep !== false) keepLevel();
  const config = state.lastConfig;
  const level = $("level");
  const game = formGame();
  level.textContent = "";
  if (game === "checkers") {
    const levels = config && Array.isArray(config.checkers_levels) && config.checkers_levels.length
      ? config.checkers_levels
      : Array.from({length: CHECKERS_LEVELS}, (_, index) => ({level: index + 1, name: ""}));
    for (const entry of levels) {
      // Translators: a checkers level in its menu: "Level 3 · Club player" ({name} is the level's name).
      addLevel(entry.level, entry.name ? t("Level {level} · {name}", {level: entry.level, name: entry.name})
                                       : t("Level {level}", {level: entry.level}));
    }
  } else if (config) {
    for (const entry of config.levels) {
      // Translators: a level in its menu: "1200 · Club player" ({name} is the level's name).
      addLevel(entry.elo, entry.elo >= config.max_elo ? t("Full strength (about {elo})", {elo: entry.elo})
                                                      : t("{elo} · {name}", {elo: entry.elo, name: entry.name}),
               entry.style);
    }
  }
  const wanted = String(chosenLevel[game]);
  if (level.options.length && ![...level.options].some((o) => o.value === wanted)) {
    if (game === "chess") addLevel(chosenLevel.chess, wanted);
    else chosenLevel.checkers = config && Number(config.checkers_default_level) || 3;
  }
  level.value = String(chosenLevel[game]);
  level.dataset.game = game;
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
export function configure(config) {
  const first = !state.lastConfig;
  keepLevel();
  state.lastConfig = config;
  if (first && Number.isInteger(config.checkers_default_level)) chosenLevel.checkers = config.checkers_default_level;
  const clock = $("clock");
  const chosenClock = clock.value;
  fillLevels();
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
    writeSettings(saved.get("settings", null));
    formChanged(false);                 // the level's "plays like" line, stored settings or none
    return;
  }
  if ([...clock.options].some((o) => o.value === chosenClock)) clock.value = chosenClock;
  formChanged(false);
}

function capitalised(text) {
  return text.charAt(0).toLocaleUpperCase(I18n.lang) + text.slice(1);
}

// The form drawn for its values (which fields show, their labels, the level's line); with `save`
// (unless false), the settings kept in the browser.
export function formChanged(save) {
  const human = $("opponent").value === "human";
  document.body.classList.toggle("mode-human", human);
  document.body.classList.toggle("mode-robot", !human);
  relabelForGame();
  $("custom-clock").hidden = $("clock").value !== "custom";
  const fischer = $("custom-mode").value === "fischer";
  $("custom-increment-label").textContent = fischer ? t("Increment (s)") : t("Delay (s)");
  $("custom-then-increment-label").textContent = fischer ? t("Then increment (s)") : t("Then delay (s)");
  const chosen = formGame() === "chess" ? $("level").selectedOptions[0] : null;
  const style = chosen ? chosen.dataset.style || "" : "";
  // Translators: {sentence} is the server's "plays like a lichess 800 player", begun with a capital.
  $("level-style").textContent = style ? t("{sentence}.", {sentence: capitalised(style)}) : "";
  $("level-style").hidden = !style;
  const periods = $("custom-moves").value.trim() !== "";
  document.querySelectorAll("#custom-clock .then").forEach((el) => { el.hidden = !periods; });
  if (save !== false) saved.set("settings", readSettings());
}

// ---- the game chosen ----

// The parts of the form that depend on the game: the colours (in checkers Black moves first, and
// comes first), Chess960 (chess only), the start position's title and example.
function relabelForGame() {
  const checkers = formGame() === "checkers";
  document.body.classList.toggle("form-checkers", checkers);
  $("chess960-choice").hidden = checkers;
  const color = $("color");
  const white = color.querySelector("option[value='white']");
  const black = color.querySelector("option[value='black']");
  white.textContent = t("White");
  // Translators: the colour choice for checkers, where Black makes the first move.
  black.textContent = checkers ? t("Black (moves first)") : t("Black");
  color.querySelector("option[value='random']").textContent = t("Random");
  if (checkers && color.options[0] !== black) color.insertBefore(black, white);
  if (!checkers && color.options[0] !== white) color.insertBefore(white, black);
  $("position-title").textContent = checkers ? t("Start position (FEN or PDN)") : t("Start position (FEN or PGN)");
  $("position").placeholder = checkers
    ? t("Empty: the usual start. Paste a checkers FEN such as B:W21-32:B1-12, or a PDN game.")
    : t("Empty: the usual start (or a random Chess960 one). Paste a FEN, a PGN, or a Chess960 number 0-959.");
}

// Another game chosen: its levels and its own start position (the other's kept for when it comes back).
function gameChanged() {
  const game = formGame();
  const other = game === "checkers" ? "chess" : "checkers";
  otherPosition[other] = $("position").value;
  $("position").value = otherPosition[game];
  otherPosition[game] = "";
  fillLevels();
  formChanged(true);
}

// The form set to a game (for "Use the position on the board" in a game of the other kind).
function chooseGame(game) {
  if (formGame() === game) return;
  $("game").value = game;
  gameChanged();
}

// ---- starting ----

export function startGame(settings) {
  if ($("game-over").open) $("game-over").close();
  send({type: "new_game", settings});
}

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

// "Start new game" said again in another language (not while it asks).
export function relabelNewGame() {
  if (!$("new-game").classList.contains("confirm")) $("new-game").textContent = t("Start new game");
}

export function init() {
  $("setup-toggle").addEventListener("click", () => {
    state.setupOpen = $("setup-fields").hidden;
    renderSetup();
    $("setup").scrollTop = 0;                     // opened at its top
  });
  $("game").addEventListener("change", gameChanged);
  $("setup").addEventListener("input", () => formChanged(true));
  $("setup").addEventListener("change", () => formChanged(true));
  // Starting anew abandons a game in progress: that asks first.
  confirming("new-game", () => t("Start new game"), () => t("Abandon this game? Click again"),
             () => !!state.game && !state.game.over && state.game.moves.length > 0, () => startGame(readSettings()));
  $("use-position").addEventListener("click", () => {
    const {game, mode, analysis} = state;
    if (game) chooseGame(gameKind(game));
    if (game) $("position").value = mode === "analysis" && analysis ? analysis.fen : game.positions[currentPly()];
    formChanged(true);
  });
}
