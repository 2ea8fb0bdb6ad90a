"""The browser game in Kannada, Tamil, Gujarati and Hindi, as a reader of each meets it: Chromium
with that browser locale opens the game in that language, its whole text (closed dialogs and
panels included) is in that script but for names and notation, a scholar's mate between two
people is reviewed with 3...Nf6's reason in that script, and every font comes from the game's own
server and covers every character shown.

Skips without Chromium as tests/test_web_browser.py does (whose fixtures it uses), except under CI.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.test_web_browser import (ARTIFACTS, CHROMIUM, DESKTOP, MISSING, ROBOT_WAIT_MS, browser, play_clicks,  # noqa: F401
                                    server, server_url, start)

try:
    from playwright.sync_api import expect
except ImportError:
    expect = None

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

SCRIPTS = {"kn": (0x0C80, 0x0CFF), "ta": (0x0B80, 0x0BFF), "gu": (0x0A80, 0x0AFF), "hi": (0x0900, 0x097F)}
# Words that stay in Latin letters in every language: names, and the notation.
NAMES = {"jitfish", "pgn", "fen", "elo", "chess960", "lichess", "fide", "uci", "san"}
NOTATION = re.compile(r"^(?:[KQRBN♔♕♖♗♘]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN♕♖♗♘])?[+#]?|O-O(?:-O)?[+#]?|"
                      r"[a-h][1-8][a-h][1-8][qrbn]?|[a-h]|[1-8]|[QRBN])$")
SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
REVIEW_WAIT_MS = 120000


def words(text: str) -> list[str]:
    """The words of a text: tokens between spaces and punctuation that hold a letter."""
    tokens = re.split(r"[\s,.;:!?()\[\]{}«»‹›\"'“”‘’/|·…—–+\-=]+", text)
    return [t for t in tokens if any(unicodedata.category(ch).startswith("L") for ch in t)]


def in_script(word: str, code: str) -> bool:
    low, high = SCRIPTS[code]
    return any(low <= ord(ch) <= high for ch in word)


def share_in_script(text: str, code: str) -> tuple[float, list[str]]:
    """The share of the text's words in the language's script (names and notation count as the
    language's: they are written so in it), and the words that are not."""
    found = words(text)
    foreign = [w for w in found if not in_script(w, code) and w.lower() not in NAMES and not NOTATION.match(w)]
    return (1 - len(foreign) / len(found)) if found else 0.0, foreign


def open_in(browser, url: str, code: str):
    context = browser.new_context(viewport=DESKTOP, locale=f"{code}-IN")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(url)
    page.wait_for_selector("[data-square='e1'] img.piece")
    expect(page.locator("#level option")).not_to_have_count(0)
    expect(page.locator("html")).to_have_attribute("lang", code)
    return context, page, problems


@pytest.mark.parametrize("code", sorted(SCRIPTS))
def test_the_page_opens_in_the_browsers_language_and_reads_in_its_script(browser, server_url, code):
    context, page, problems = open_in(browser, server_url, code)
    try:
        page.wait_for_timeout(300)                                # the server's texts in the language
        text = page.evaluate("""() => {
            const parts = [document.title];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const parent = node.parentElement;
                if (parent && (parent.closest('script, style'))) continue;
                parts.push(node.nodeValue);
            }
            for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
                for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
                    const value = el.getAttribute(name);
                    if (value) parts.push(value);
                }
            }
            return parts.join('\\n');
        }""")
        share, foreign = share_in_script(text, code)
        assert share >= 0.95, (code, round(share, 3), sorted(set(foreign))[:60])
        picker = page.locator("#language")
        assert picker.input_value() == code
        assert page.locator("#language option").all_inner_texts() == ["English", "ಕನ್ನಡ", "தமிழ்", "ગુજરાતી", "हिन्दी"] \
            or sorted(page.locator("#language option").all_inner_texts()) == sorted(
                ["English", "ಕನ್ನಡ", "தமிழ்", "ગુજરાતી", "हिन्दी"])
        # Every font the page loaded came from the game's own server.
        fonts = page.evaluate("""() => performance.getEntriesByType('resource')
            .filter(e => /\\.(woff2?|ttf|otf)(\\?|$)/.test(e.name)).map(e => e.name)""")
        assert fonts, "the page loaded no font of its own"
        origin = urlparse(server_url)
        for font in fonts:
            where = urlparse(font)
            assert (where.scheme, where.netloc) == (origin.scheme, origin.netloc) and where.path.startswith("/static/fonts/"), font
        families = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert families.startswith('"Jitfish Sans"'), families
        _check_coverage(page.evaluate("() => document.body.innerText"))
        assert problems == [], problems
    finally:
        context.close()


def _check_coverage(text: str) -> None:
    """Every character shown is in a font the game serves for it (fonts.css's unicode-ranges)."""
    from fontTools.ttLib import TTFont

    static = Path(__file__).resolve().parent.parent / "jitfish" / "web" / "static"
    css = (static / "fonts.css").read_text(encoding="utf-8")
    faces = []
    for block in re.findall(r"@font-face\s*{(.*?)}", css, re.S):
        source = re.search(r'url\(["\']?([^"\')]+)', block).group(1)
        ranges = []
        found = re.search(r"unicode-range:\s*([^;]+);", block)
        for part in (found.group(1).split(",") if found else ["U+0-10FFFF"]):
            part = part.strip().upper().removeprefix("U+")
            low, _, high = part.partition("-")
            ranges.append((int(low.replace("?", "0"), 16), int((high or low).replace("?", "F"), 16)))
        cmap = TTFont(static / source).getBestCmap()
        faces.append((ranges, cmap))
    missing = set()
    for ch in set(text):
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf"):
            continue
        served = [cmap for ranges, cmap in faces if any(low <= ord(ch) <= high for low, high in ranges)]
        if not any(ord(ch) in cmap for cmap in served):
            missing.add(ch)
    assert not missing, f"characters no served font draws: {sorted(missing)}"


@pytest.mark.parametrize("code", sorted(SCRIPTS))
def test_a_scholars_mate_is_reviewed_in_the_language(browser, server_url, code):
    context, page, problems = open_in(browser, server_url, code)
    try:
        start(page, "human")
        play_clicks(page, SCHOLARS_MATE)
        page.wait_for_selector("#game-over[open]")
        title = page.inner_text("#game-over")
        assert share_in_script(title, code)[0] >= 0.95, title
        page.click("#over-review")
        expect(page.locator("#accuracy-white")).to_contain_text("%", timeout=REVIEW_WAIT_MS)
        blunder = page.locator("#moves .move.blunder")
        expect(blunder).to_have_count(1)
        assert blunder.inner_text() == "♘f6??"                      # figurines by default
        blunder.click()
        reason = page.locator("#review-reason")
        expect(reason).to_contain_text("♕xf7#")
        text = reason.inner_text()
        share, foreign = share_in_script(text, code)
        assert share >= 0.95 and any(in_script(w, code) for w in words(text)), (text, foreign)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"review-{code}.png"))
        # The notation setting turns the move list into letters; PGN stays SAN either way.
        page.select_option("#notation", "letters")
        expect(page.locator("#moves .move.blunder")).to_have_text("Nf6??")
        expect(page.locator("#review-reason")).to_contain_text("Qxf7#")
        assert problems == [], problems
    finally:
        context.close()
