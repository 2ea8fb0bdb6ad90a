"""The languages of `jitfish web` in a real browser (Debian's Chromium through Playwright, against
the real `jitfish web` command): the language picker and `<html lang>`, the first language from
the browser's own, the notation of moves (letters or figurines), the page's texts following a
catalogue and back, and the layout at a phone's, a tablet's and a laptop's size in every language,
with whatever the catalogues in jitfish/locale/ hold, and with made-up translations longer than
Tamil's (no text cut, nothing wider than the window). Screenshots in tests/artifacts/web/i18n-*.png.

Without /usr/bin/chromium (or the playwright package) these tests skip, except under CI
(CI=true), where a missing browser is a failure (as in tests/test_web_browser.py).
"""

from __future__ import annotations

import json
import math
import re

import pytest

from tests.test_web_browser import (ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, MISSING, browser, click_move,  # noqa: F401
                                    server, server_url, start, wait_moves)

try:
    from playwright.sync_api import expect
except ImportError:                 # reported by the skip (or failure under CI) of tests/test_web_browser.py
    expect = None

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

LANGUAGES = ("en", "kn", "ta", "gu", "hi")
BROWSER_LOCALES = {"kn-IN": "kn", "ta-IN": "ta", "gu-IN": "gu", "hi-IN": "hi", "fr-FR": "en", "en-GB": "en"}
SIZES = {"390x844": {"width": 390, "height": 844}, "768x1024": {"width": 768, "height": 1024},
         "1366x768": {"width": 1366, "height": 768}}

# Every visible element with text of its own: cut by its box (overflow hidden or clip and the text
# wider), spilling out of its box, or reaching past the window's edges; and the page wider than
# the window. Form controls draw their own text; the visually hidden labels are 1 px on purpose.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (["SELECT", "OPTION", "TEXTAREA", "INPUT", "SCRIPT", "STYLE"].includes(el.tagName)) continue;
    if (el.closest(".visually-hidden")) continue;
    const own = Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.data.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2 || style.visibility === "hidden" || !el.checkVisibility()) continue;
    const name = `${el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className ? "." + el.className : "")}` +
                 ` "${el.textContent.trim().slice(0, 40)}"`;
    const clips = ["hidden", "clip"].includes(style.overflowX);
    const scrolls = ["auto", "scroll"].includes(style.overflowX);
    if (clips && el.scrollWidth > el.clientWidth + 1) problems.push(`cut: ${name} (${el.scrollWidth} > ${el.clientWidth})`);
    else if (!clips && !scrolls && style.display !== "inline" && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`spills out: ${name} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    if (box.right > width + 1 || box.left < -1) problems.push(`outside the window: ${name} (${box.left}..${box.right})`);
  }
  return problems;
}"""


class Tab:
    """A page in a browser context of its own (a locale, stored settings), its problems collected."""

    def __init__(self, browser, url: str, *, locale: str = "en-US", viewport: dict | None = None,
                 routes: dict | None = None) -> None:
        self.context = browser.new_context(locale=locale, viewport=viewport or SIZES["1366x768"])
        for pattern, body in (routes or {}).items():
            self.context.route(pattern, self._answer(body))
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.url = url
        self.load()

    @staticmethod
    def _answer(body: str):
        return lambda route, request=None: route.fulfill(status=200, content_type="application/json", body=body)

    def load(self, reload: bool = False) -> None:
        if reload:
            self.page.reload()
        else:
            self.page.goto(self.url)
        self.page.wait_for_selector("[data-square='e1'] img.piece")
        expect(self.page.locator("html")).to_have_class(re.compile(r"\bi18n-ready\b"))
        expect(self.page.locator("#level option")).not_to_have_count(0)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tabs(browser, server_url):  # noqa: F811 (the fixtures imported above)
    opened: list[Tab] = []

    def opener(**options) -> Tab:
        tab = Tab(browser, server_url, **options)
        opened.append(tab)
        return tab

    yield opener
    for tab in opened:
        tab.close()


def lang_of(page) -> str:
    return page.evaluate("document.documentElement.lang")


def test_the_picker_sets_the_language_and_is_remembered(tabs):
    tab = tabs()
    page = tab.page
    assert lang_of(page) == "en" and page.input_value("#language") == "en"
    names = page.locator("#language option").all_inner_texts()
    assert names == ["English", "ಕನ್ನಡ", "தமிழ்", "ગુજરાતી", "हिन्दी"]     # each language in itself
    assert page.get_attribute("#language", "translate") == "no"
    assert page.get_attribute("#rules-link", "href") == "rules?lang=en"
    assert page.input_value("#notation") == "letters"
    page.select_option("#language", "ta")
    expect(page.locator("html")).to_have_attribute("lang", "ta")
    assert page.evaluate("localStorage.getItem('jitfish.lang')") == "ta"
    expect(page.locator("#rules-link")).to_have_attribute("href", "rules?lang=ta")
    expect(page.locator("#notation")).to_have_value("figurines")     # Tamil's default, nothing chosen
    expect(page.locator("#status-text")).not_to_have_text("")
    tab.load(reload=True)
    assert lang_of(page) == "ta" and page.input_value("#language") == "ta"
    assert page.get_attribute("#rules-link", "href") == "rules?lang=ta"
    page.select_option("#language", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#notation")).to_have_value("letters")
    tab.load(reload=True)
    assert lang_of(page) == "en"
    expect(page.locator("#status")).not_to_have_class(re.compile(r"\berror\b"))    # the server took the changes
    assert tab.problems == [], tab.problems


@pytest.mark.parametrize("locale", sorted(BROWSER_LOCALES))
def test_a_first_visit_speaks_the_browsers_language(tabs, locale):
    tab = tabs(locale=locale)
    page = tab.page
    expected = BROWSER_LOCALES[locale]
    assert lang_of(page) == expected and page.input_value("#language") == expected
    assert page.get_attribute("#rules-link", "href") == f"rules?lang={expected}"
    assert page.input_value("#notation") == ("letters" if expected == "en" else "figurines")
    assert page.evaluate("localStorage.getItem('jitfish.lang')") is None      # chosen by nobody yet
    assert tab.problems == [], tab.problems


def test_the_notation_turns_the_moves_into_figurines_and_back(tabs):
    tab = tabs()
    page = tab.page
    start(page, "human")
    click_move(page, "g1f3")
    assert wait_moves(page, 1) == ["Nf3"]
    page.select_option("#notation", "figurines")
    expect(page.locator("#moves .move")).to_have_text(["♘f3"])
    click_move(page, "g8f6")
    expect(page.locator("#moves .move")).to_have_text(["♘f3", "♘f6"])
    tab.load(reload=True)                                    # the choice is kept
    expect(page.locator("#moves .move")).to_have_text(["♘f3", "♘f6"])
    page.select_option("#notation", "letters")
    expect(page.locator("#moves .move")).to_have_text(["Nf3", "Nf6"])
    # A choice made stays in another language, whose own default is figurines.
    page.select_option("#language", "kn")
    expect(page.locator("html")).to_have_attribute("lang", "kn")
    expect(page.locator("#notation")).to_have_value("letters")
    expect(page.locator("#moves .move")).to_have_text(["Nf3", "Nf6"])
    page.select_option("#language", "en")
    assert tab.problems == [], tab.problems


def test_a_language_that_defaults_to_figurines_shows_them(tabs):
    tab = tabs(locale="hi-IN")
    page = tab.page
    start(page, "human")
    click_move(page, "b1c3")
    wait_moves(page, 1)
    expect(page.locator("#moves .move")).to_have_text(["♘c3"])
    assert page.evaluate("I18n.moves('12. Bxf6 Bxf6 13. e8=Q+ O-O Kxh1')") == "12. ♗xf6 ♗xf6 13. e8=♕+ O-O ♔xh1"
    assert tab.problems == [], tab.problems


def _show_texts(page) -> None:
    """A game between people with a move, the custom clock's fields, the start position box and the
    resign question: most of the page's texts on screen at once."""
    start(page, "human")
    click_move(page, "g1f3")
    wait_moves(page, 1)
    page.select_option("#clock", "custom")
    page.fill("#custom-moves", "40")
    if page.get_attribute("#position-box", "open") is None:
        page.click("#position-box summary")
    page.click("#resign")
    expect(page.locator("#resign-choice")).to_be_visible()


def _check_layout(tab: Tab, name: str) -> None:
    page = tab.page
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(250)
        page.screenshot(path=str(ARTIFACTS / f"i18n-{name}-{size}.png"), full_page=True)
        problems = page.evaluate(LAYOUT_PROBLEMS)
        assert problems == [], f"{name} at {size}: {problems}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_layout_holds_in_every_language(tabs, lang):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab = tabs(locale={"en": "en-US", "kn": "kn-IN", "ta": "ta-IN", "gu": "gu-IN", "hi": "hi-IN"}[lang])
    assert lang_of(tab.page) == lang
    _show_texts(tab.page)
    _check_layout(tab, lang)
    assert tab.problems == [], tab.problems


def test_a_catalogue_that_never_comes_leaves_the_page_in_english_after_3_seconds(browser, server_url):  # noqa: F811
    """The page waits unseen for its language's messages rather than flash English, but not for ever."""
    context = browser.new_context(locale="gu-IN", viewport=SIZES["1366x768"])
    try:
        context.route("**/i18n/gu.json*", lambda route, request=None: None)          # never answered
        page = context.new_page()
        page.goto(server_url)
        expect(page.locator("html")).to_have_attribute("lang", "gu")
        hidden = page.evaluate("[document.documentElement.classList.contains('i18n-ready'), "
                               "getComputedStyle(document.body).visibility, performance.now()]")
        assert hidden[0] or hidden[1] == "hidden" or hidden[2] > 2900, hidden       # unseen while it waits
        assert not hidden[0] or hidden[2] > 2900, hidden
        expect(page.locator("html")).to_have_class(re.compile(r"\bi18n-ready\b"), timeout=6000)
        expect(page.locator("[data-square='e1'] img.piece")).to_be_visible()
        expect(page.locator("#setup-toggle")).to_have_text("New game")
    finally:
        context.close()


# ---- made-up translations, longer than Tamil's, of every message the sources have ----

SYLLABLES = ["கொ", "ம்", "பி", "ட", "ல்", "வே", "று", "ன்", "தா", "ச", "நி", "யை", "ள்", "ளு", "ப", "கு"]
KEPT = {"PGN", "FEN", "Elo", "Chess960", "lichess", "FIDE", "Jitfish", "cp"}


def _long(text: str) -> str:
    """Each English word as a Tamil-looking word of as many syllables as it has letters (Tamil
    runs about that much longer); placeholders, names and moves as they are."""
    count = 0

    def word(match: re.Match) -> str:
        nonlocal count
        count += 1
        if match.group(0) in KEPT:
            return match.group(0)
        size = max(1, math.ceil(len(match.group(0)) * 0.9))
        return "".join(SYLLABLES[(count * 3 + k * 5) % len(SYLLABLES)] for k in range(size))

    return "".join(part if part.startswith("{") else re.sub(r"(?<![\w♘-])[A-Za-z]+(?![\w-])", word, part)
                   for part in re.split(r"(\{\w+\})", text))


def _long_catalogue() -> str:
    from tools.i18n.extract import template

    messages = {}
    for message in template():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        key = f"{message.context}\u0004{ids[0]}" if message.context else ids[0]
        messages[key] = [_long(text) for text in ids]
    return json.dumps({"lang": "ta", "name": "தமிழ்", "figurines": True, "messages": messages, "languages": []})


def test_long_translations_are_shown_whole_and_go_back_to_english(tabs):
    """The page's own texts and its scripts' in a catalogue (served here in place of Tamil's), at
    every size, and English again once English is chosen: each text node keeps its English."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tab = tabs(locale="ta-IN", routes={"**/i18n/ta.json*": _long_catalogue()})
    page = tab.page
    expect(page.locator("#setup-toggle")).to_have_text(_long("New game"))
    expect(page.locator("#takeback")).to_have_text(_long("Take back"))
    assert page.get_attribute("#flip", "title") == _long("Turn the board (F)")
    assert page.get_attribute("#board", "aria-label").startswith(_long("Chess board.")[:8])
    _show_texts(page)
    expect(page.locator("#resign-question")).to_have_text(_long("Who resigns?"))
    expect(page.locator("#custom-increment-label")).to_have_text(_long("Increment (s)"))
    expect(page.locator("#moves .move")).to_have_text(["♘f3"])
    _check_layout(tab, "long")
    page.select_option("#language", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#setup-toggle")).to_have_text("New game")
    expect(page.locator("#takeback")).to_have_text("Take back")
    expect(page.locator("#resign-question")).to_have_text("Who resigns?")
    expect(page.locator("#custom-increment-label")).to_have_text("Increment (s)")
    assert page.get_attribute("#flip", "title") == "Turn the board (F)"
    expect(page.locator("#moves .move")).to_have_text(["Nf3"])
    assert tab.problems == [], tab.problems
