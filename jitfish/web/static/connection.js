// The `jitfish web` page's connection to its server: one WebSocket per tab, the hello that opens
// it, reconnecting when it drops, sending requests, and handing each message from the server to
// the part of the page that took its type (onMessage: main.js wires them). The server keeps the
// game, the clock and the rules and answers each change with the whole state; here are only the
// messages about the connection itself: errors and notices, a server with no room yet (full) and
// the game taken over by another tab (superseded).
import {t, I18n} from "./i18n.js";
import {saved, tab, recentSessions} from "./storage.js";
import {state} from "./store.js";
import {note, renderStatus} from "./status.js";
import {render} from "./game-view.js";
import {showFull, showSuperseded} from "./dialogs.js";

const TOKEN = new URLSearchParams(location.search).get("token") || "";

let socket = null;
let retries = 0;
let superseded = false;
let welcomed = false;         // the server has answered the hello (config received)
let helloSettings = null;     // the settings the last hello carried
const handlers = new Map();   // message type -> handler(message)

// The handler of the server's messages of one type (one a type).
export function onMessage(type, handler) {
  handlers.set(type, handler);
}

export function isOpen() {
  return !!socket && socket.readyState === WebSocket.OPEN;
}

export function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws?token=${encodeURIComponent(TOKEN)}`);
  socket.addEventListener("open", () => {
    retries = 0;
    welcomed = false;
    if (state.statusNote && state.statusNote.kind === "offline") state.statusNote = null;
    hello(saved.get("settings", null));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { return; }
    receive(message);
  });
  socket.addEventListener("close", () => {
    if (state.mode === "analysis") state.mode = "game";           // the tab's engine ended with the socket
    state.analysis = null;
    state.engineOn = false;
    state.engineInfo = null;
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

// "Play it here": the game taken back from the tab that had taken it over.
export function resume() {
  superseded = false;
  connect();
}

// The first message: the tab's game, games left by closed tabs, and the stored settings for a
// new game. Stored settings must never lock the page out: if the server refuses this message
// (too large, unreadable), they are dropped and the hello goes again without them.
export function hello(settings) {
  const session = tab.get("session", null);
  send({type: "hello", session: typeof session === "string" ? session : null, resume: recentSessions(),
        settings, lang: I18n.lang, figurines: I18n.figurines});
  helloSettings = settings;
}

export function send(message) {
  if (isOpen()) {
    socket.send(JSON.stringify(message));
  } else {
    note(() => t("Not connected: reconnecting…"), "error");
    render();
  }
}

function receive(message) {
  switch (message.type) {
    case "config": welcomed = true; break;
    case "error":
      if (!welcomed && helloSettings !== null) {
        saved.set("settings", null);
        hello(null);
        note(() => t("The saved new-game settings could not be used and were reset."), "error", 10000);
        return;
      }
      state.hintPending = false;
      note(message.message, "error");
      render();
      return;
    case "notice": note(message.message, "notice"); renderStatus(); return;
    case "full":                  // no room for another game yet: say so, keep the settings, retry
      showFull(message.message);
      return;
    case "superseded":
      superseded = true;
      showSuperseded();
      if (socket) socket.close();
      return;
    default: break;
  }
  const handler = handlers.get(message.type);
  if (handler) handler(message);
}
