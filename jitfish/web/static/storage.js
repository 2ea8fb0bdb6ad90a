// What the `jitfish web` page keeps in the browser: the new-game settings, the preferences and the
// games played last in localStorage (per address: the fixed default port keeps them from one run to
// the next), the tab's game session and its flip in sessionStorage (a reload picks the game up
// again). A browser that refuses storage (private mode) or holds something unreadable is no error:
// a read gives the fallback, a write is skipped.

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
export const saved = storage(window.localStorage, "jitfish.");
export const tab = storage(window.sessionStorage, "jitfish.");

// The reader's preferences (preferences.js shows and changes them).
export const prefs = Object.assign({sound: true, theme: "brown", checkersTheme: "tournament", autoFlip: false},
                                   saved.get("prefs", {}));
// The notation: the reader's choice once made, else the language's default.
if (prefs.notation !== "letters" && prefs.notation !== "figurines") delete prefs.notation;

export function savePrefs() {
  saved.set("prefs", prefs);
}

// The games this browser played last (to resume one left by a closed tab), newest first.
export function recentSessions() {
  const recent = saved.get("recent", []);
  return Array.isArray(recent) ? recent.filter((id) => typeof id === "string").slice(0, 8) : [];
}

// The tab's game, and the first of the games played last.
export function rememberSession(session) {
  tab.set("session", session);
  const recent = recentSessions().filter((id) => id !== session);
  saved.set("recent", [session].concat(recent).slice(0, 8));
}
