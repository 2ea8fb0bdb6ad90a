"""Extract every text a person reads into `jitfish/locale/messages.pot` and merge it into each
language's catalogue (`jitfish/locale/LANG.po`), with Babel.

    python -m tools.i18n.extract          # write the template, update every .po (new entries empty)
    python -m tools.i18n.extract --check  # fail when the template or a .po is not up to date

Where the messages are:
- Python (`jitfish/`): `Msg("...")`, `Plural("...", "...", "n")`, `PMsg("context", "...")`, `N_("...")`,
  `NP_("...", "...")` (a plural in a table).
- JavaScript (`jitfish/web/static/*.js`): `t("...")`, `tn("...", "...", n)`, `tp("context", "...")`
  (plain quotes, not template literals, so that the extractor reads them).
- HTML (`jitfish/web/static/index.html`): every text node and the attributes a person reads
  (`title`, `aria-label`, `placeholder`, `alt`), whitespace collapsed, except inside an element
  marked `translate="no"`, in `<script>` or `<style>`; the page translates them the same way
  (`static/i18n.js`).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po
from babel.plural import to_gettext

from jitfish.i18n import LANGUAGES, LOCALE_DIR, SOURCE

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = LOCALE_DIR / "messages.pot"
PYTHON_KEYWORDS = {"Msg": (1,), "Plural": (1, 2), "PMsg": ((1, "c"), 2), "N_": (1,), "NP_": (1, 2)}
JS_KEYWORDS = {"t": (1,), "tn": (1, 2), "tp": ((1, "c"), 2)}
HTML_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
HTML_FILES = ("jitfish/web/static/index.html",)


def _babel_spec(spec):
    """Our keyword specs in Babel's form: (1, 2) for plurals, ((1, 'c'), 2) for a context."""
    return tuple(spec)


class PageTexts(HTMLParser):
    """The texts of an HTML page a person reads, in the order they come, with their line."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[int, str]] = []
        self.stack: list[tuple[str, bool]] = []          # (tag, inside translate="no" / script)

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def _skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        skip = self._skipping() or values.get("translate") == "no" or tag in ("script", "style")
        if not skip:
            for name in HTML_ATTRIBUTES:
                text = collapse(values.get(name) or "")
                if text:
                    self.texts.append((self.getpos()[0], text))
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        values = dict(attrs)
        if not self._skipping() and values.get("translate") != "no":
            for name in HTML_ATTRIBUTES:
                text = collapse(values.get(name) or "")
                if text:
                    self.texts.append((self.getpos()[0], text))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        text = collapse(data)
        if text and not self._skipping() and is_words(text):
            self.texts.append((self.getpos()[0], text))


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def is_words(text: str) -> bool:
    """Whether a page text is words to translate (not a lone symbol such as « or -)."""
    return re.search(r"[A-Za-z]", text) is not None


def template() -> Catalog:
    """The template catalogue of every message in the sources."""
    catalog = Catalog(project="Jitfish", version="0.1", copyright_holder="Jitfish's authors",
                      msgid_bugs_address="", charset="utf-8")
    sources = sorted((ROOT / "jitfish").rglob("*.py"))
    for path in sources:
        for line, message, comments, context in extract_from_file(
                "python", path, keywords=PYTHON_KEYWORDS, comment_tags=("Translators:",)):
            catalog.add(message, locations=[(path.relative_to(ROOT).as_posix(), line)],
                        auto_comments=comments, context=context)
    for path in sorted((ROOT / "jitfish/web/static").glob("*.js")):
        for line, message, comments, context in extract_from_file(
                "javascript", path, keywords=JS_KEYWORDS, comment_tags=("Translators:",)):
            catalog.add(message, locations=[(path.relative_to(ROOT).as_posix(), line)],
                        auto_comments=comments, context=context)
    for name in HTML_FILES:
        parser = PageTexts()
        parser.feed((ROOT / name).read_text(encoding="utf-8"))
        for line, text in parser.texts:
            catalog.add(text, locations=[(name, line)])
    return catalog


def new_catalog(code: str) -> Catalog:
    locale = Locale.parse(code)
    catalog = Catalog(locale=locale, project="Jitfish", version="0.1",
                      copyright_holder="Jitfish's authors", charset="utf-8")
    return catalog


def plural_forms(code: str) -> str:
    """The gettext plural rule of a language, from CLDR (Babel's data)."""
    return to_gettext(Locale.parse(code).plural_form)


def render(catalog: Catalog, **options) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, **options)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when a catalogue is not up to date")
    args = parser.parse_args(argv)
    pot = template()
    outputs = {TEMPLATE: render(pot, omit_header=False)}
    for code in LANGUAGES:
        if code == SOURCE:
            continue
        path = LOCALE_DIR / f"{code}.po"
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=code)
        else:
            catalog = new_catalog(code)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        outputs[path] = render(catalog, ignore_obsolete=True)
    stale = []
    for path, data in outputs.items():
        old = path.read_bytes() if path.exists() else b""
        if _without_dates(old) != _without_dates(data):
            stale.append(path)
            if not args.check:
                path.write_bytes(data)
    if args.check and stale:
        print("out of date: " + ", ".join(str(p.relative_to(ROOT)) for p in stale)
              + " (python -m tools.i18n.extract)", file=sys.stderr)
        return 1
    for path in stale:
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"{len(pot)} messages")
    return 0


def _without_dates(data: bytes) -> bytes:
    """A catalogue as compared for staleness: without its dates and its source references (`#:`
    lines), so that code moving within a file does not make a catalogue out of date."""
    data = re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*"', b"", data)
    return re.sub(rb"(?m)^#: .*\n", b"", data)


if __name__ == "__main__":
    sys.exit(main())
