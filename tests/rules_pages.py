"""Checks shared by the tests of the two "How to play" pages (tests/test_rules_page.py for chess,
tests/test_checkers_rules_page.py for checkers), both made by jitfish/web/rules.py's `book_page`:
reading a page back strictly, and what each page in each language must be (well formed, linked to
its languages and to the other game's page, within its Content Security Policy, every diagram named
by its caption, every text one whole message, every message extracted and in every catalogue, no
English left once a catalogue translates all). What is a game's own stays in its test file."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html.parser import HTMLParser

from babel.messages.pofile import read_po

from jitfish.i18n import LANGUAGES, LOCALE_DIR, Catalog, Msg, Speaker

SVG = "{http://www.w3.org/2000/svg}"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
        "wbr"}
MARK = "[ta] <b>&amp; "             # how `marking_catalog` translates every message


# ---- reading the page back --------------------------------------------------------------------------


class Page(HTMLParser):
    """A page read back strictly: every element closed in order (SVG's `<x/>` self-closed), the
    doctype, the attributes, the texts a person reads (outside the diagrams and `translate="no"`)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.errors: list[str] = []
        self.decls: list[str] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"not closed: {[tag for tag, _ in self.stack]}")

    def _skip(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_decl(self, decl):
        self.decls.append(decl)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        self.elements.append((tag, values))
        if tag in VOID:
            return
        skip = self._skip() or tag in ("svg", "script", "style", "title") or values.get("translate") == "no"
        self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"an end tag for the void element {tag}")
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1][0] if self.stack else 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data):
        text = re.sub(r"\s+", " ", data).strip()
        if text and not self._skip():
            self.texts.append(text)

    def find(self, tag: str, **wanted: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.elements
                if name == tag and all(attrs.get(key) == value for key, value in wanted.items())]


def page_href(game: str, code: str) -> str:
    """The address of a game's page in a language, as the pages link it."""
    return f"rules?lang={code}" if game == "chess" else f"rules?game={game}&lang={code}"


# ---- the page -------------------------------------------------------------------------------------


def check_well_formed(text: str, code: str, *, game: str, other: str, title: Msg, other_game: Msg) -> Page:
    """`game`'s page in `code`: well formed, its title, the language switcher (every language, named
    in itself, the page's own marked) staying on this game, one more link, to `other`'s page in the
    same language, and a table of contents pointing at the sections; the page, read back."""
    assert text.startswith("<!doctype html>\n")
    page = Page(text)
    assert page.errors == []
    assert page.decls == ["doctype html"]
    assert page.elements[0] == ("html", {"lang": code, "dir": "ltr"})
    assert page.find("meta", charset="utf-8")
    assert page.find("link", rel="stylesheet", href="static/fonts.css")
    assert page.find("link", rel="stylesheet", href="static/rules.css")
    assert page.find("body", **{"class": f"game-{game}"})
    said = Speaker(code).say(title)
    assert f"<title>{said}</title>" in text and f"<h1>{said}</h1>" in text
    # the language switcher
    links = {attrs["href"]: attrs for attrs in page.find("a") if attrs.get("hreflang")}
    assert set(links) == {page_href(game, c) for c in LANGUAGES}
    for lang in LANGUAGES.values():
        assert links[page_href(game, lang.code)]["lang"] == lang.code
        assert f">{lang.name}</a>" in text
    current = [href for href, attrs in links.items() if attrs.get("aria-current") == "page"]
    assert current == [page_href(game, code)]
    # the other game's page, in the same language, and no other link out
    others = [attrs["href"] for attrs in page.find("a")
              if not attrs.get("hreflang") and not attrs["href"].startswith("#")]
    assert others == [page_href(other, code)]
    assert Speaker(code).say(other_game) in page.texts
    # the table of contents points at the sections; no id twice
    anchors = [attrs["id"] for _, attrs in page.elements if attrs.get("id")]
    assert len(anchors) == len(set(anchors)), "an id used twice"
    for attrs in page.find("a"):
        if attrs["href"].startswith("#"):
            assert attrs["href"][1:] in anchors
    return page


def check_content_security_policy(text: str) -> Page:
    """`default-src 'self'; img-src 'self' data:`: no script, no inline style, nothing from elsewhere;
    the page, read back."""
    page = Page(text)
    tags = {tag for tag, _ in page.elements}
    assert "script" not in tags and "style" not in tags
    for tag, attrs in page.elements:
        for attribute, value in attrs.items():
            assert attribute != "style" and not attribute.startswith("on"), (tag, attribute)
            if attribute in ("href", "src"):
                assert value and not re.match(r"[a-z]+:|//", value), (tag, attribute, value)
    assert "<script" not in text.lower() and "style=" not in text
    return page


def check_diagrams_named(page: Page, code: str, diagrams: Sequence, keys: Sequence[str]) -> None:
    """Each diagram (`keys`, in order) on the page once, in its figure, named by its caption."""
    speaker = Speaker(code)
    assert len(page.find("svg")) == len(keys) == len(diagrams)
    assert [d.key for d in diagrams] == list(keys)
    for diagram in diagrams:
        caption = speaker.say(diagram.caption)
        assert page.find("figure", id=f"diagram-{diagram.key}")
        assert page.find("svg", role="img", **{"aria-label": caption})
        assert caption in page.texts                          # the figcaption


def check_said(page: Page, code: str, messages: Iterable[Msg]) -> None:
    """Each of the messages, said in `code`, is on the page: a text or a diagram's name."""
    speaker = Speaker(code)
    for message in messages:
        assert speaker.say(message) in page.texts or any(
            attrs.get("aria-label") == speaker.say(message) for _, attrs in page.elements), message.msgid


def check_only_whole_messages(page: Page, code: str, messages: Sequence[Msg]) -> None:
    """Each text a person reads is a message said whole (or a language's own name): nothing put
    together from pieces, nothing left out of the catalogues; and every message is on the page."""
    speaker = Speaker(code)
    allowed = {speaker.say(message) for message in messages} | {lang.name for lang in LANGUAGES.values()}
    for text in page.texts:
        assert text in allowed, text
    check_said(page, code, messages)


# ---- the catalogues --------------------------------------------------------------------------------


def check_translators_size(messages: Sequence[Msg], least: int, most: int = 80) -> None:
    """Between `least` and `most` messages, none twice, each short enough for a translator and with
    no stray spaces."""
    assert least <= len(messages) <= most
    assert len({(m.context, m.msgid) for m in messages}) == len(messages)
    for message in messages:
        assert len(message.msgid) <= 420, message.msgid
        assert message.msgid == message.msgid.strip() and "  " not in message.msgid


def check_extracted(messages: Iterable[Msg], sources: Iterable[str]):
    """The extractor finds each message (plain literals in `Msg` calls) in one of `sources`, and the
    template in the repository has them (`python -m tools.i18n.extract` was run); the template."""
    from tools.i18n.extract import TEMPLATE, template

    sources = set(sources)
    fresh = template()
    with TEMPLATE.open("rb") as handle:
        stored = read_po(handle)
    for message in messages:
        assert fresh.get(message.msgid, context=message.context) is not None, message.msgid
        entry = stored.get(message.msgid, context=message.context)
        assert entry is not None, f"not in messages.pot (run python -m tools.i18n.extract): {message.msgid}"
        assert any(path in sources for path, _ in entry.locations), (message.msgid, entry.locations)
    return stored


def check_in_catalogues(messages: Sequence[Msg], codes: Iterable[str]) -> None:
    """Each language's catalogue has an entry (translated or not) for every message."""
    for code in codes:
        with (LOCALE_DIR / f"{code}.po").open("rb") as handle:
            catalogue = read_po(handle, locale=code)
        for message in messages:
            assert catalogue.get(message.msgid, context=message.context) is not None, (code, message.msgid)


def marking_catalog(messages: Iterable[Msg]) -> Catalog:
    """A Tamil catalogue that translates every message as MARK, markup and the English: what a page
    shows of it must be escaped text."""
    return Catalog("ta", {(m.context, m.msgid): [f"{MARK}{m.msgid}</b>"] for m in messages})


def check_all_marked(text: str) -> Page:
    """A page made with `marking_catalog`: well formed, no English left (but the languages' own
    names), every translation escaped (text, never markup); the page, read back."""
    page = Page(text)
    assert page.errors == []
    assert not page.find("b")
    names = {lang.name for lang in LANGUAGES.values()}
    for shown in page.texts:
        assert shown.startswith(MARK) or shown in names, shown
    return page
