"""The browser game's fonts (`jitfish/web/static/fonts/`, declared in `static/fonts.css`, made by
`tools/i18n/make_fonts.py`): every character of the catalogues, of the English messages, of the
page and the figurines is in the font file whose `unicode-range` claims it, for both weights; the
CSS names only shipped files, by same-origin relative URLs; the licence is there."""

from __future__ import annotations

import ast
import html
import os
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest

try:
    from fontTools.ttLib import TTFont
except ImportError:                  # fonttools is in the `test` extra; under CI its absence fails
    if os.environ.get("CI") == "true":
        pytest.fail("tests/test_fonts.py needs fonttools (pip install -e '.[test]')", pytrace=False)
    pytest.skip("fonttools is not installed (pip install -e '.[test]')", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "jitfish" / "web" / "static"
FONTS = STATIC / "fonts"
CSS = STATIC / "fonts.css"
LOCALE = ROOT / "jitfish" / "locale"
FAMILY = "Jitfish Sans"
FIGURINES = "♔♕♖♗♘♙♚♛♜♝♞♟"
WEIGHTS = (400, 700)      # the page's 600 is drawn by the 700 faces


# ---- fonts.css ----

def parse_faces(css: str) -> list[dict]:
    """The @font-face rules of a style sheet: family, weight, the URLs of src and the code
    points of unicode-range (all of them when it has none)."""
    faces = []
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for body in re.findall(r"@font-face\s*\{([^}]*)\}", css):
        props = {}
        for decl in body.split(";"):
            if ":" in decl:
                name, value = decl.split(":", 1)
                props[name.strip().lower()] = value.strip()
        ranges = []
        for part in props.get("unicode-range", "U+0-10FFFF").split(","):
            m = re.fullmatch(r"[Uu]\+([0-9A-Fa-f?]{1,6})(?:-([0-9A-Fa-f]{1,6}))?", part.strip())
            assert m, f"bad unicode-range part {part!r}"
            lo, hi = m.group(1), m.group(2)
            if "?" in lo:
                ranges.append((int(lo.replace("?", "0"), 16), int(lo.replace("?", "F"), 16)))
            else:
                ranges.append((int(lo, 16), int(hi or lo, 16)))
        weight = props.get("font-weight", "400").split()[0]
        faces.append({
            "family": props.get("font-family", "").strip("\"'"),
            "weight": int({"normal": "400", "bold": "700"}.get(weight, weight)),
            "urls": re.findall(r"url\(\s*[\"']?([^\"')]+)[\"']?\s*\)", props.get("src", "")),
            "ranges": ranges,
        })
    return faces


@lru_cache(maxsize=None)
def faces() -> tuple:
    return tuple(parse_faces(CSS.read_text(encoding="utf-8")))


@lru_cache(maxsize=None)
def cmap(url: str) -> frozenset[int]:
    return frozenset(TTFont(CSS.parent / url, lazy=True).getBestCmap())


def uncovered(text: str) -> list[str]:
    """The characters of `text` that some weight of "Jitfish Sans" draws with no shipped face:
    claimed by no face of that weight, or claimed by a face whose file lacks them."""
    bad = []
    for ch in sorted(set(text)):
        cp = ord(ch)
        if ch.isspace() or unicodedata.category(ch) == "Cc":
            continue
        for weight in WEIGHTS:
            claiming = [f for f in faces() if f["family"] == FAMILY and f["weight"] == weight
                        and any(lo <= cp <= hi for lo, hi in f["ranges"])]
            if not claiming:
                bad.append(f"U+{cp:04X} {ch} ({unicodedata.name(ch, '?')}): no {weight} face claims it")
            for face in claiming:
                lacking = [url for url in face["urls"] if cp not in cmap(url)]
                if lacking:
                    bad.append(f"U+{cp:04X} {ch} ({unicodedata.name(ch, '?')}): claimed by "
                               f"{', '.join(lacking)} ({weight}), which lacks it")
    return bad


# ---- the catalogues ----

def po_files() -> list[Path]:
    return sorted(LOCALE.glob("*.po"))


def po_messages(path: Path) -> tuple[list[str], list[str]]:
    """The msgids (the English) and the msgstrs of a catalogue, with Babel where it is installed,
    else by reading the PO lines."""
    try:
        from babel.messages.pofile import read_po
    except ImportError:
        read_po = None
    if read_po is not None:
        with path.open("rb") as f:
            catalog = read_po(f)
        ids: list[str] = []
        strs: list[str] = []
        for message in catalog:
            ids += [message.id] if isinstance(message.id, str) else list(message.id)
            if message.context:
                ids.append(message.context)
            strs += [message.string] if isinstance(message.string, str) else list(message.string or ())
        return [s for s in ids if s], [s for s in strs if s]
    ids, strs = [], []
    key, parts = None, []

    def flush():
        if key is not None:
            (strs if key.startswith("msgstr") else ids).append("".join(parts))

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*")$', line)
        if key is not None and line.startswith('"'):
            parts.append(ast.literal_eval(line))
            continue
        flush()
        key, parts = (m.group(1), [ast.literal_eval(m.group(2))]) if m else (None, [])
    return [s for s in ids if s], [s for s in strs if s]


def test_every_catalogue_is_read():
    """The coverage tests below run once per catalogue in jitfish/locale/ (none before the first
    is written); this checks that each one found is read whole, so that a parser that reads
    nothing cannot let a catalogue pass unchecked."""
    for path in po_files():
        ids, strs = po_messages(path)
        text = path.read_text(encoding="utf-8")
        entries = len(re.findall(r'^msgid\s+"(?:[^"\\]|\\.)+"', text, re.M))
        translated = len(re.findall(r'^msgstr(?:\[\d+\])?\s+"(?:[^"\\]|\\.)+"', text, re.M))
        assert len(ids) >= entries > 0, f"{path.name}: {len(ids)} msgid read, {entries} in the file"
        assert len(strs) >= translated, f"{path.name}: {len(strs)} msgstr read, {translated} in the file"


@pytest.mark.parametrize("path", po_files(), ids=lambda p: p.name)
def test_every_translation_is_drawn_by_a_shipped_font(path):
    _, strs = po_messages(path)
    assert not uncovered("".join(strs)), "\n".join(uncovered("".join(strs)))


@pytest.mark.parametrize("path", po_files(), ids=lambda p: p.name)
def test_every_english_message_is_drawn_by_a_shipped_font(path):
    ids, _ = po_messages(path)
    assert not uncovered("".join(ids)), "\n".join(uncovered("".join(ids)))


# ---- the page ----

def test_the_page_and_the_figurines_are_drawn_by_shipped_fonts():
    page = html.unescape((STATIC / "index.html").read_text(encoding="utf-8"))
    assert not uncovered(page + FIGURINES), "\n".join(uncovered(page + FIGURINES))


def test_the_page_scripts_and_styles_are_drawn_by_shipped_fonts():
    """The texts the scripts write (with their \\u escapes) and the styles' generated content."""
    text = ""
    for path in sorted(STATIC.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        text += re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), html.unescape(source))
    for path in sorted(STATIC.glob("*.css")):
        source = path.read_text(encoding="utf-8")
        text += re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(int(m.group(1), 16)), source)
    assert not uncovered(text), "\n".join(uncovered(text))


def test_the_language_names_are_drawn_by_shipped_fonts():
    """The languages' names in themselves, and whatever else jitfish/i18n.py sends the page."""
    names = "ಕನ್ನಡ தமிழ் ગુજરાતી हिन्दी"
    i18n = ROOT / "jitfish" / "i18n.py"
    if i18n.exists():
        names += "".join(ch for ch in i18n.read_text(encoding="utf-8") if ord(ch) > 0x7E)
    assert not uncovered(names), "\n".join(uncovered(names))


def test_every_script_of_the_game_has_its_faces():
    """One family, both weights, and a face for each script the game is translated into."""
    assert {f["family"] for f in faces()} == {FAMILY}
    for sample in ("A", "ಕ", "த", "ગ", "ह", "♘"):
        for weight in WEIGHTS:
            assert any(f["weight"] == weight and any(lo <= ord(sample) <= hi for lo, hi in f["ranges"])
                       for f in faces()), (sample, weight)


# Letters of these blocks that Debian's Noto fonts (2020) do not have: none of the shipped fonts
# can draw them, so a translation must not use them. (U+0CF3, Unicode 15, is also missing, but
# Python 3.11's Unicode 14 does not know it.)
NOT_IN_NOTO = {"\u0CDD"}     # KANNADA LETTER NAKAARA POLLU (Unicode 14)


@pytest.mark.parametrize("block", [(0x0C80, 0x0CFF), (0x0B80, 0x0BFF), (0x0A80, 0x0AFF), (0x0900, 0x097F)],
                         ids=["kannada", "tamil", "gujarati", "devanagari"])
def test_every_letter_and_sign_of_each_script_is_drawn(block):
    """Whatever a translator writes in these scripts: every assigned character of the block."""
    text = "".join(chr(cp) for cp in range(block[0], block[1] + 1)
                   if unicodedata.category(chr(cp)) != "Cn" and chr(cp) not in NOT_IN_NOTO)
    text += "\u200c\u200d"       # the joiners, which Indic spelling uses
    assert not uncovered(text), "\n".join(uncovered(text))


def test_every_indic_face_claims_the_joiners():
    """A joiner its script's face does not claim splits the text there: Chromium then draws
    र्‍क or द्‍व with a visible virama (seen when the joiners were left to the Latin face)."""
    for letter in "ಕதગह":
        for face in faces():
            if any(lo <= ord(letter) <= hi for lo, hi in face["ranges"]):
                for joiner in (0x200C, 0x200D):
                    assert any(lo <= joiner <= hi for lo, hi in face["ranges"]), (face["urls"], hex(joiner))


def test_uncovered_finds_what_no_face_claims(monkeypatch):
    """The check itself can fail: a character outside every range, or one a face claims but its
    file lacks, is reported."""
    assert uncovered("\U0001F600")                  # 😀: no face claims it
    broken = tuple(dict(f, ranges=f["ranges"] + [(0x0C95, 0x0C95)]) if "Tamil" in f["urls"][0] else f
                   for f in faces())
    monkeypatch.setitem(globals(), "faces", lambda: broken)
    assert any("lacks it" in line for line in uncovered("ಕ"))     # the Tamil file has no Kannada


# ---- the files ----

def test_fonts_css_names_only_shipped_files_by_relative_urls():
    css = CSS.read_text(encoding="utf-8")
    assert "http:" not in css and "https:" not in css
    assert "//" not in re.sub(r"/\*.*?\*/", "", css, flags=re.S)       # no scheme-relative URL
    urls = [url for face in faces() for url in face["urls"]]
    assert urls
    for url in urls:
        assert not url.startswith("/") and ":" not in url, url
        assert url.startswith("fonts/") and url.endswith(".woff2"), url
        path = (CSS.parent / url).resolve()
        assert path.parent == FONTS.resolve() and path.is_file(), url
        assert path.read_bytes()[:4] == b"wOF2", url
    shipped = {p.name for p in FONTS.glob("*.woff2")}
    assert shipped == {url.split("/", 1)[1] for url in urls}, "a font file no face uses"


def test_the_font_licence_and_record_are_shipped():
    ofl = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in ofl and "PERMISSION & CONDITIONS" in ofl
    assert "Copyright" in ofl and "DISCLAIMER" in ofl
    record = (FONTS / "README.md").read_text(encoding="utf-8")
    for path in FONTS.glob("*.woff2"):
        assert path.name in record, path.name
