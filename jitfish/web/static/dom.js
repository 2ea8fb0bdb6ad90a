// Two helpers every part of the `jitfish web` page uses: an element by its id, and a file made in
// the page saved by the browser (the PGNs). Apart, so that no module imports another only for them.

export function $(id) {
  return document.getElementById(id);
}

// Saves `text` as jitfish-YYYYMMDDHHMM[-suffix].pgn.
export function download(text, suffix) {
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
