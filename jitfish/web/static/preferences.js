// The reader's choices on the `jitfish web` page, kept in the browser (storage.js): the language and
// the notation of moves (i18n.js says everything in them; the server is told, so that its own texts
// follow), sound, full screen, the board's colours (each game its own: chess on wood, checkers on
// the tournament green and buff, until the reader picks others) and "turn board each move".
// applyPrefs() shows them on their controls. The top bar's "How to play" link follows the language
// and the game shown (the rules of checkers while a checkers game is on the board).
import {t, I18n, setLanguage, setNotation} from "./i18n.js";
import {$} from "./dom.js";
import {prefs, savePrefs} from "./storage.js";
import {sounds, state, gameKind} from "./store.js";
import {isOpen, send} from "./connection.js";
import {note, renderStatus} from "./status.js";
import {render} from "./game-view.js";

// The preference that holds the colours of the game shown.
function themeKey() {
  return gameKind(state.game) === "checkers" ? "checkersTheme" : "theme";
}

// The board's colours for the game shown (a theme the menu no longer has: the first).
export function applyTheme() {
  const key = themeKey();
  const known = [...$("theme").options].map((option) => option.value);
  const theme = known.includes(prefs[key]) ? prefs[key] : known[0];
  document.body.className = document.body.className.replace(/\btheme-\w+/g, "").trim();
  document.body.classList.add(`theme-${theme}`);
  $("theme").value = theme;
  applyRulesLink();
}

// "How to play": the rules of the game shown, in the reader's language.
export function applyRulesLink() {
  const lang = encodeURIComponent(I18n.lang);
  const checkers = gameKind(state.game) === "checkers";
  $("rules-link").setAttribute("href", checkers ? `rules?game=checkers&lang=${lang}` : `rules?lang=${lang}`);
  $("rules-link").title = checkers ? t("The rules of checkers and how to play here")
                                   : t("The rules of chess and how to play here");
}

export function applyPrefs() {
  $("sound").setAttribute("aria-pressed", String(prefs.sound));
  applyTheme();
  $("auto-flip").checked = prefs.autoFlip;
  $("language").value = I18n.lang;
  $("notation").value = I18n.figurines ? "figurines" : "letters";
}

// The server says its texts (the status, results, reasons, level names...) in the language and
// notation of the last hello or language message: it sends the configuration, the state and
// the review again in them.
function tellLanguage() {
  if (isOpen()) {
    send({type: "language", lang: I18n.lang, figurines: I18n.figurines});
  }
}

export function init() {
  $("language").addEventListener("change", () => {
    setLanguage($("language").value);
    applyPrefs();
    tellLanguage();
  });
  $("notation").addEventListener("change", () => {
    prefs.notation = $("notation").value === "figurines" ? "figurines" : "letters";
    savePrefs();
    setNotation(prefs.notation);
    tellLanguage();
  });
  $("sound").addEventListener("click", () => {
    prefs.sound = !prefs.sound;
    sounds.setEnabled(prefs.sound, true);
    savePrefs();
    applyPrefs();
    if (prefs.sound) sounds.play("move");
  });
  $("theme").addEventListener("change", () => {
    prefs[themeKey()] = $("theme").value;
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
}
