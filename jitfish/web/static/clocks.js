// The two clocks of the `jitfish web` page. The clock is the server's: it sends each side's time,
// the side running and what is left of a delay with every state (game-view.js keeps them, with the
// moment they came, as state.clockBase); here the page only counts down between two states, ten
// times a second, with tenths under 10 seconds and the delay still to run, and sounds once when
// the person's own time runs low.
import {$} from "./dom.js";
import {state, sounds} from "./store.js";

const LOW_TIME_MS = 10000;

let lowWarned = {white: false, black: false};

// A new game: the low-time sound may come again for either side.
export function resetLowTime() {
  lowWarned = {white: false, black: false};
}

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

export function tickClocks() {
  const {clockBase, game} = state;
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

export function startClocks() {
  setInterval(tickClocks, 100);
}
