// The languages of the `jitfish web` page: which one the reader reads, its catalogue (from the
// server's `i18n/CODE.json`, made from the same gettext files as the server's own texts), saying
// a message in it, moves in letters or figurines, and the page's own texts (index.html) put into it.
//
// Messages are whole sentences with named placeholders, marked so that tools/i18n/extract.py finds
// them: t("Hint: {move}", {move}), tn("{n} move", "{n} moves", n, {n}), tp("context", "Queen").
// A message the catalogue lacks is said in English (its placeholders filled), never as a key.
// An ES module, evaluated before the page's others (main.js imports it first): they import t, tn,
// tp (the marks the extractor looks for) and I18n. The page stays unseen until the catalogue is in
// (style.css), at most SAFETY_MS.

const SOURCE = "en";
// The languages the page speaks, each named in itself, and whether moves are shown as figurines
// by default (where the English piece initials mean nothing to a reader): the picker's options,
// which the server writes from jitfish/i18n.py's LANGUAGES (the one list of them).
const LANGUAGES = Array.from(document.querySelectorAll("#language option"), (option) => (
  {code: option.value, name: option.textContent, figurines: option.dataset.figurines === "true"}));
if (!LANGUAGES.length) LANGUAGES.push({code: SOURCE, name: "English", figurines: false});
const STORE = "jitfish.lang";
const SAFETY_MS = 3000;             // the page is shown by then even if the catalogue never came
const ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];
const FIGURINES = {K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘"};
const PIECE_LETTER = /(?<![A-Za-z])([KQRBN])(?=[a-h1-8x])|(?<==)([QRBN])/g;

let lang = SOURCE;
let messages = {};
let languageFigurines = false;      // the language's default notation
let notation = null;                // the reader's choice ("letters", "figurines") or null: the default
let plurals = null;
const cache = {};                   // code -> its catalogue (a promise)
const listeners = [];
let loading = 0;                    // the latest language asked for wins

function match(tag) {
  if (typeof tag !== "string") return null;
  const base = tag.trim().replace(/^"|"$/g, "").toLowerCase().split(/[-_.@]/)[0];
  return LANGUAGES.some((item) => item.code === base) ? base : null;
}

function storedLanguage() {
  try { return match(window.localStorage.getItem(STORE)); } catch (error) { return null; }
}

// The stored choice, else the browser's languages, else what the server put in <html lang>
// (from Accept-Language), else English.
function initialLanguage() {
  const stored = storedLanguage();
  if (stored) return stored;
  const preferred = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const found = match(tag);
    if (found) return found;
  }
  return match(document.documentElement.getAttribute("lang")) || SOURCE;
}

function info(code) {
  return LANGUAGES.find((item) => item.code === code) || LANGUAGES[0];
}

function pluralRules(code) {
  try { return new Intl.PluralRules(code); } catch (error) { return null; }
}

// ---- saying a message ----

function forms(key) {
  const found = messages[key];
  return Array.isArray(found) && found.length && found.every((form) => typeof form === "string" && form)
    ? found : null;
}

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (Object.prototype.hasOwnProperty.call(args, name) ? String(args[name]) : whole));
}

// A translation whose placeholders are not the message's (a slip in the catalogue): the English.
function say(translated, source, args) {
  if (translated !== null && args) {
    const names = translated.match(/\{(\w+)\}/g) || [];
    if (names.some((name) => !Object.prototype.hasOwnProperty.call(args, name.slice(1, -1)))) translated = null;
  }
  return fill(translated === null ? source : translated, args);
}

export function t(msgid, args) {
  const found = forms(msgid);
  return say(found ? found[0] : null, msgid, args);
}

export function tn(singular, plural, n, args) {
  const found = forms(singular);
  const english = n === 1 ? singular : plural;
  if (!found) return say(null, english, args);
  let index = 1;
  if (plurals) {
    try { index = plurals.select(n) === "one" ? 0 : 1; } catch (error) { index = n === 1 ? 0 : 1; }
  } else {
    index = n === 1 ? 0 : 1;
  }
  return say(found[Math.min(index, found.length - 1)], english, args);
}

export function tp(context, msgid, args) {
  const found = forms(`${context}\u0004${msgid}`);
  return say(found ? found[0] : null, msgid, args);
}

function figurines() {
  return notation === null ? languageFigurines : notation === "figurines";
}

// SAN (a move or a numbered line) in the reader's notation: Nf3 -> ♘f3, e8=Q+ -> e8=♕+.
export function moves(san) {
  if (typeof san !== "string" || !figurines()) return san;
  return san.replace(PIECE_LETTER, (whole, piece, promoted) => FIGURINES[piece || promoted]);
}

// ---- the page's own texts ----

const texts = new WeakMap();        // text node -> {source, shown}
const attributes = new WeakMap();   // element -> {name: {source, shown}}

function collapse(text) {
  return text.replace(/\s+/g, " ").trim();
}

function pageText(source) {
  const key = collapse(source);
  if (!key || !/[A-Za-z]/.test(key)) return null;
  const found = forms(key);
  if (!found) return null;
  const [, before, after] = source.match(/^(\s*)[\s\S]*?(\s*)$/);
  return before + found[0] + after;
}

// Every text node and read attribute of the page as tools/i18n/extract.py finds them: not in
// script or style, nor under translate="no". Each keeps its English, so that the page goes
// from any language to any other; a text the page's scripts have changed since is their own.
function translateNode(node) {
  if (node.nodeType === Node.TEXT_NODE) {
    let record = texts.get(node);
    if (!record || node.data !== record.shown) record = {source: node.data};
    const shown = pageText(record.source);
    record.shown = shown === null ? record.source : shown;
    if (node.data !== record.shown) node.data = record.shown;
    texts.set(node, record);
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const tag = node.localName;
  if (tag === "script" || tag === "style" || node.getAttribute("translate") === "no") return;
  let records = attributes.get(node);
  for (const name of ATTRIBUTES) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    if (!records) { records = {}; attributes.set(node, records); }
    let record = records[name];
    if (!record || value !== record.shown) record = {source: value};
    const shown = pageText(record.source);
    record.shown = shown === null ? record.source : shown;
    if (value !== record.shown) node.setAttribute(name, record.shown);
    records[name] = record;
  }
  for (const child of Array.from(node.childNodes)) translateNode(child);
}

function translatePage() {
  translateNode(document.documentElement);
}

// ---- choosing a language ----

function catalogue(code) {
  if (code === SOURCE) return Promise.resolve({lang: SOURCE, figurines: false, messages: {}});
  if (!cache[code]) {
    const token = new URLSearchParams(location.search).get("token");
    const url = `i18n/${code}.json${token ? `?token=${encodeURIComponent(token)}` : ""}`;
    cache[code] = fetch(url, {credentials: "same-origin"})
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
      .then((data) => {
        if (!data || typeof data !== "object") delete cache[code];     // asked again next time
        return data && typeof data === "object" ? data : {lang: code, messages: {}};
      });
  }
  return cache[code];
}

function changed() {
  for (const callback of listeners.slice()) {
    try { callback(); } catch (error) { setTimeout(() => { throw error; }); }
  }
}

function apply(code, data) {
  lang = code;
  messages = data.messages && typeof data.messages === "object" ? data.messages : {};
  languageFigurines = typeof data.figurines === "boolean" ? data.figurines : info(code).figurines;
  plurals = pluralRules(code);
  I18n.lang = code;
  I18n.figurines = figurines();
  document.documentElement.lang = code;
  translatePage();
  changed();
}

// The reader's language (an unknown code is English): stored, the page translated, every
// listener told. Resolves when the page is in it.
export function setLanguage(code, remember) {
  code = match(code) || SOURCE;
  if (remember !== false) {
    try { window.localStorage.setItem(STORE, code); } catch (error) { /* private mode */ }
  }
  const ticket = ++loading;
  lang = code;
  languageFigurines = info(code).figurines;      // known at once (the catalogue says the same)
  I18n.lang = code;
  I18n.figurines = figurines();
  document.documentElement.lang = code;
  return catalogue(code).then((data) => {
    if (ticket === loading) apply(code, data);
  });
}

// The reader's notation: "letters", "figurines", or null for the language's default.
export function setNotation(choice) {
  notation = choice === "letters" || choice === "figurines" ? choice : null;
  I18n.figurines = figurines();
  changed();
}

function reveal() {
  document.documentElement.classList.add("i18n-ready");
}

// Told after every change of language or notation (main.js says the page's texts again).
export function onChange(callback) {
  listeners.push(callback);
}

// The same, as one object, with the language and notation of the moment: what the page's modules
// read (I18n.lang, I18n.figurines), and window.I18n for the browser tests and the console.
export const I18n = {
  t, tn, tp, moves, setLanguage, setNotation, onChange,
  languages: LANGUAGES.map(({code, name}) => ({code, name})),
  defaultFigurines: (code) => info(match(code) || SOURCE).figurines,
  lang: SOURCE,
  figurines: false,
  ready: null,
};
window.I18n = I18n;

const first = initialLanguage();
lang = first;
I18n.lang = first;
languageFigurines = info(first).figurines;
I18n.figurines = figurines();
plurals = pluralRules(first);
document.documentElement.lang = first;
setTimeout(reveal, SAFETY_MS);
// English needs no catalogue: it is applied at once, before the page's other modules run (as the
// classic script did, in the microtask after it); another language when its catalogue is in.
I18n.ready = new Promise((resolve) => {
  if (first !== SOURCE) resolve(setLanguage(first, false));
  else resolve(apply(SOURCE, {figurines: false, messages: {}}));
})
  .catch(() => {})
  .then(reveal);

// Resolves when the page is in the reader's first language (or the catalogue could not come).
export const ready = I18n.ready;
