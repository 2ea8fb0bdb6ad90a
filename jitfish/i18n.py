"""The languages a person reads Jitfish in: the catalogues, choosing one, and saying a message.

One source for every front end: the gettext catalogues in `jitfish/locale/` (`kn.po`, `ta.po`,
`gu.po`, `hi.po`; English is the source language and needs none), read here for the terminal
game and the browser game's server, and sent to the page as JSON made from the same files
(`catalog_json`). The catalogues are extracted and merged by `tools/i18n/extract.py` (Babel).

Code that makes a text a person reads makes a `Msg`: a whole message with named placeholders,
said later in the reader's language by a `Speaker` (`speaker.say(msg)`). `str(msg)` is the English,
which is what logs, exceptions and the machine interfaces (UCI, `jitfish analyse`) use. A
placeholder's value may itself be a `Msg` (a piece's name in the grammatical form that message
needs, chosen by the message's context), a `Moves` (SAN, shown as figurines where the reader's
notation asks for them) or a plain value. A message missing from a catalogue is said in English,
never as a key.

Adding a language: its `.po` in `jitfish/locale/`, a font for its script in
`jitfish/web/static/fonts/`, and one line in `LANGUAGES`.
"""

from __future__ import annotations

import ast
import gettext
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@dataclass(frozen=True)
class Language:
    """A language the game speaks: its code (ISO 639-1), its name in itself, and whether moves are
    shown as figurines by default (where the English piece initials mean nothing to a reader)."""
    code: str
    name: str
    figurines: bool


LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    Language("en", "English", False),
    Language("kn", "ಕನ್ನಡ", True),
    Language("ta", "தமிழ்", True),
    Language("gu", "ગુજરાતી", True),
    Language("hi", "हिन्दी", True),
)}
SOURCE = "en"                      # the language the messages are written in


# ---- messages -------------------------------------------------------------------------------------


class Moves(str):
    """Text made of moves in SAN (one move, or a numbered line such as `11. Bxf6 Bxf6 12. Nxd5`):
    shown in letters or figurines as the reader's notation asks."""


class Msg:
    """A message to be said later in the reader's language: `msgid` with `{named}` placeholders,
    optionally a plural (`plural`, chosen by the number in the argument named by `counted_by`) and a context (`context`,
    for the same English words said differently, such as a piece's name in different roles)."""

    __slots__ = ("msgid", "plural", "counted_by", "context", "args")

    def __init__(self, msgid: str, *, plural: str | None = None, counted_by: str | None = None,
                 context: str | None = None, **args: Any) -> None:
        self.msgid, self.plural, self.counted_by, self.context, self.args = msgid, plural, counted_by, context, args
        if plural is not None and (counted_by is None or counted_by not in args):
            raise ValueError(f"a plural message needs its count among the arguments: {msgid!r}")

    def __str__(self) -> str:
        return SPEAKERS_EN.say(self)

    def __repr__(self) -> str:
        return f"Msg({self.msgid!r}, {self.args!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.msgid, self.plural, self.context, self.args) == \
            (other.msgid, other.plural, other.context, other.args)

    def __hash__(self) -> int:
        return hash((self.msgid, self.context))


def Plural(msgid: str, plural: str, counted_by: str, **args: Any) -> Msg:
    """A message with a plural: `Plural("{n} move", "{n} moves", "n", n=3)`; the form by the
    language's plural rule for the number in the argument named `counted_by`."""
    return Msg(msgid, plural=plural, counted_by=counted_by, **args)


def PMsg(context: str, msgid: str, **args: Any) -> Msg:
    """A message in a context: the same English said differently where the context differs (a
    piece's name as the subject or as the object of a sentence, say)."""
    return Msg(msgid, context=context, **args)


def NP_(msgid: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for extraction (a table's entry, said later with `Plural`)."""
    return msgid, plural


def N_(msgid: str) -> str:
    """Marks a message for extraction without translating it here (a table of texts said later)."""
    return msgid


# ---- notation ---------------------------------------------------------------------------------------

FIGURINES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘"}
LETTERS = {figurine: letter for letter, figurine in FIGURINES.items()}
LETTERS.update({"♚": "K", "♛": "Q", "♜": "R", "♝": "B", "♞": "N"})
_PIECE_LETTER = re.compile(r"(?<![A-Za-z])([KQRBN])(?=[a-h1-8x])|(?<==)([QRBN])")
_FIGURINE = re.compile("[" + "".join(LETTERS) + "]")


def figurine(san: str) -> str:
    """SAN with the piece letters as figurines (`Nf3` -> `♘f3`, `e8=Q` -> `e8=♕`); castling, pawn
    moves and move numbers as they are."""
    return _PIECE_LETTER.sub(lambda m: FIGURINES[m.group(1) or m.group(2)], san)


def letters(text: str) -> str:
    """Figurines back to SAN's letters (a typed `♘f3` reads as `Nf3`)."""
    return _FIGURINE.sub(lambda m: LETTERS[m.group(0)], text)


# ---- catalogues -------------------------------------------------------------------------------------


def _unquote(text: str) -> str:
    return ast.literal_eval(text) if text.startswith('"') else ""


def read_po(path: Path) -> tuple[dict[str, str], dict[tuple[str | None, str], list[str]]]:
    """A gettext `.po` file: its header fields and its translated messages, keyed by (context, msgid),
    each a list of forms (one, or one per plural form). Untranslated and fuzzy entries are left out,
    so those messages are said in English."""
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {}
    field_name: str | None = None

    def finish() -> None:
        nonlocal entry
        if "msgid" in entry:
            entries.append(entry)
        entry = {}

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            field_name = None
            continue
        if line.startswith("#,"):
            if "msgid" in entry:
                finish()
            entry["fuzzy"] = "fuzzy" in line
            continue
        if line.startswith("#"):
            if "msgid" in entry and field_name is not None:
                finish()
                field_name = None
            continue
        if line.startswith('"'):
            if field_name is None:
                raise ValueError(f"{path}: a string outside an entry: {raw!r}")
            entry[field_name] += _unquote(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and "msgid" in entry and (keyword == "msgctxt" or "msgstr" in entry
                                                                        or "msgstr[0]" in entry):
            fuzzy = entry.get("fuzzy", False)
            finish()
            entry["fuzzy"] = fuzzy if keyword == "msgid" else False
        if not re.fullmatch(r"msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?", keyword):
            raise ValueError(f"{path}: cannot read {raw!r}")
        field_name = keyword
        entry[keyword] = _unquote(rest.strip())
    finish()

    header: dict[str, str] = {}
    messages: dict[tuple[str | None, str], list[str]] = {}
    for item in entries:
        if item["msgid"] == "" and "msgctxt" not in item:
            for header_line in item.get("msgstr", "").splitlines():
                name, _, value = header_line.partition(":")
                if name:
                    header[name.strip()] = value.strip()
            continue
        if item.get("fuzzy"):
            continue
        if "msgid_plural" in item:
            forms = [item[key] for key in sorted((k for k in item if k.startswith("msgstr[")),
                                                 key=lambda k: int(k[7:-1]))]
        else:
            forms = [item.get("msgstr", "")]
        if forms and all(forms):
            messages[(item.get("msgctxt"), item["msgid"])] = forms
    return header, messages


class Catalog:
    """One language's translations, with its plural rule (the catalogue's `Plural-Forms`)."""

    def __init__(self, code: str, messages: Mapping[tuple[str | None, str], list[str]] | None = None,
                 plural_forms: str = "nplurals=2; plural=(n != 1);") -> None:
        self.code = code
        self.messages = dict(messages or {})
        self.plural_forms = plural_forms
        expression = re.search(r"plural\s*=\s*(.+?);?\s*$", plural_forms)
        self.plural_index = gettext.c2py(expression.group(1) if expression else "n != 1")

    @classmethod
    def load(cls, code: str) -> "Catalog":
        path = LOCALE_DIR / f"{code}.po"
        if code == SOURCE or not path.exists():
            return cls(code)
        header, messages = read_po(path)
        return cls(code, messages, header.get("Plural-Forms", "nplurals=2; plural=(n != 1);"))

    def text(self, msgid: str, context: str | None = None, plural: str | None = None, n: int = 1) -> str:
        """The translation of a message, English when the catalogue lacks it."""
        forms = self.messages.get((context, msgid))
        if forms is None:
            return msgid if plural is None or n == 1 else plural
        if plural is None:
            return forms[0]
        index = self.plural_index(n)
        return forms[index] if index < len(forms) else forms[-1]


@lru_cache(maxsize=None)
def catalog(code: str) -> Catalog:
    """The catalogue of a language (English's is empty); an unknown code gives English's."""
    return Catalog.load(code if code in LANGUAGES else SOURCE)


def catalog_json(code: str) -> dict[str, Any]:
    """What the page needs of a catalogue: each message as `msgid` (or `context\\u0004msgid`) -> its
    forms, the language's name and whether it shows figurines by default."""
    lang = LANGUAGES.get(code, LANGUAGES[SOURCE])
    cat = catalog(lang.code)
    messages = {(f"{context}\u0004{msgid}" if context else msgid): forms
                for (context, msgid), forms in cat.messages.items()}
    return {"lang": lang.code, "name": lang.name, "figurines": lang.figurines, "messages": messages,
            "languages": [{"code": item.code, "name": item.name} for item in LANGUAGES.values()]}


# ---- choosing a language ------------------------------------------------------------------------------


def match(tag: str) -> str | None:
    """The language of ours a tag names (`kn-IN`, `ta_IN.UTF-8`, `hi`), None when none."""
    base = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def negotiate(preferred: Iterable[str]) -> str:
    """The first of the reader's languages (most preferred first) that Jitfish speaks; English
    when none is (no error: an unknown language falls back to English)."""
    for tag in preferred:
        found = match(tag)
        if found is not None:
            return found
    return SOURCE


def accept_language(header: str | None) -> str:
    """The language an HTTP `Accept-Language` header asks for, by its q-values."""
    ranked = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        found = re.search(r"q\s*=\s*([0-9.]+)", params)
        if found:
            try:
                quality = float(found.group(1))
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, index, tag))
    return negotiate(tag for _, _, tag in sorted(ranked))


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for as gettext reads it: the first of `LANGUAGE` (a
    colon-separated list), `LC_ALL`, `LC_MESSAGES`, `LANG` that is set; `C`/`POSIX` mean English."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            if name != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
                return SOURCE
            return negotiate(value.split(":"))
    return SOURCE


def choose_language(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a terminal game: `--lang`'s (any tag, `kn_IN` too; one Jitfish does not
    speak is English, without a word), else the environment's as gettext reads it."""
    if lang is not None:
        return match(lang) or SOURCE
    return from_environment(environ)


# ---- saying a message ---------------------------------------------------------------------------------


class Speaker:
    """Says messages in one language and notation (`figurines` True: ♘f3; False: Nf3)."""

    def __init__(self, code: str = SOURCE, figurines: bool | None = None) -> None:
        lang = LANGUAGES.get(code, LANGUAGES[SOURCE])
        self.code = lang.code
        self.figurines = lang.figurines if figurines is None else figurines
        self.catalog = catalog(self.code)

    def say(self, message: Any) -> str:
        """A message in this language; a plain value as text (moves in this notation)."""
        if isinstance(message, Msg):
            args = {name: self.say(value) for name, value in message.args.items()}
            count = message.args.get(message.counted_by) if message.counted_by else 1
            text = self.catalog.text(message.msgid, message.context, message.plural,
                                     count if isinstance(count, int) else 1)
            try:
                return text.format(**args)
            except (KeyError, IndexError, ValueError):
                # a translation with a broken placeholder: the English says it right
                source = message.msgid if message.plural is None or count == 1 else message.plural
                return source.format(**args)
        if isinstance(message, Moves):
            return self.moves(message)
        if isinstance(message, (list, tuple)):
            return " ".join(self.say(item) for item in message)
        return str(message)

    def moves(self, san: str) -> str:
        return figurine(san) if self.figurines else str(san)

    def __call__(self, msgid: str, **args: Any) -> str:
        """A message made and said at once: `speaker("Your move")`."""
        return self.say(Msg(msgid, **args))

    def plural(self, msgid: str, plural: str, counted_by: str, **args: Any) -> str:
        return self.say(Msg(msgid, plural=plural, counted_by=counted_by, **args))

    def render(self, value: Any) -> Any:
        """A JSON-ready value with every message in it said (dicts and lists walked)."""
        if isinstance(value, (Msg, Moves)):
            return self.say(value)
        if isinstance(value, dict):
            return {key: self.render(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.render(item) for item in value]
        if isinstance(value, tuple):
            return [self.render(item) for item in value]
        return value


SPEAKERS_EN = Speaker(SOURCE, figurines=False)
