// Two helpers every part of the `jitfish web` page uses: an element by its id, and a file made in
// the page saved by the browser (the PGNs and PDNs). Apart, so that no module imports another only for them.

export function $(id) {
  return document.getElementById(id);
}

// Saves `text` as jitfish-YYYYMMDDHHMM[-suffix].pgn (or .pdn, a checkers game).
export function download(text, suffix, extension) {
  const pdn = extension === "pdn";
  const blob = new Blob([text], {type: pdn ? "application/x-checkers-pdn" : "application/x-chess-pgn"});
  const link = document.createElement("a");
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
  link.href = URL.createObjectURL(blob);
  link.download = `jitfish-${stamp}${suffix ? `-${suffix}` : ""}.${pdn ? "pdn" : "pgn"}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
