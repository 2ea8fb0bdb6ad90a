"""Make the browser game's fonts from Debian's fonts-noto-core: WOFF2 files in
`jitfish/web/static/fonts/`, their @font-face rules in `jitfish/web/static/fonts.css`, the
licence (`fonts/OFL.txt`) and the record of where each file came from (`fonts/README.md`).

    .venv/bin/python -m tools.i18n.make_fonts            # write them all again
    .venv/bin/python -m tools.i18n.make_fonts --check    # only say whether they are up to date

Needs fonttools and brotli (the `test` extra) and Debian's `fonts-noto-core`.

One family, "Jitfish Sans", in two weights (400 and 700; the page's 600 is drawn by the 700
faces), split by `unicode-range` so that a browser fetches a script's font only when the page
shows a character of that script:

- Latin: Noto Sans, subset to Basic Latin, Latin-1, General Punctuation and a few signs, with the
  layout features a Latin page uses.
- Kannada, Tamil, Gujarati, Devanagari: Noto Sans <Script>, every glyph and every OpenType
  feature kept (Indic shaping needs GSUB/GPOS whole); only converted to WOFF2.
- Symbols: Noto Sans Symbols2 (one weight, used for both), subset to the chess figurines and the
  signs the page shows that Noto Sans lacks.

Each run scans what the page can show (`static/*.html`, `*.js`, `*.css`, the catalogues
`jitfish/locale/*.po`, the language names in `jitfish/i18n.py` and the server's texts in
`jitfish/web/*.py`) and adds any character outside those ranges to the Latin or the symbol subset;
a character no shipped font can draw is reported and the run fails.

A face's `unicode-range` claims only characters its file has (unassigned and control code points
aside), so that no face is fetched for a character it cannot draw.
"""

from __future__ import annotations

import argparse
import ast
import html
import io
import re
import subprocess
import sys
import tempfile
import textwrap
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "jitfish" / "web" / "static"
FONTS = STATIC / "fonts"
CSS = STATIC / "fonts.css"
LOCALE = ROOT / "jitfish" / "locale"
NOTO = Path("/usr/share/fonts/truetype/noto")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-core/copyright")
FAMILY = "Jitfish Sans"

Range = tuple[int, int]

# Google Fonts' "latin" range (less ₹, which the Devanagari face claims).
LATIN = ((0x0000, 0x00FF), (0x0131, 0x0131), (0x0152, 0x0153), (0x02BB, 0x02BC), (0x02C6, 0x02C6),
         (0x02DA, 0x02DA), (0x02DC, 0x02DC), (0x0304, 0x0304), (0x0308, 0x0308), (0x0329, 0x0329),
         (0x2000, 0x206F), (0x2074, 0x2074), (0x20AC, 0x20AC), (0x2122, 0x2122), (0x2191, 0x2191),
         (0x2193, 0x2193), (0x2212, 0x2212), (0x2215, 0x2215), (0xFEFF, 0xFEFF), (0xFFFD, 0xFFFD))
# The layout features kept in the Latin subset: fontTools' default set (kerning, marks,
# ligatures, fractions...) and the figure styles the page asks for (tabular-nums).
LATIN_FEATURES = sorted(set(subset.Options().layout_features) | {"tnum", "pnum", "lnum", "case", "zero"})

# The joiners (ZWJ, ZWNJ) and the dotted circle (which a shaper draws under a stray sign) belong
# to every Indic face, as in Google Fonts' ranges: a joiner that its script's face does not claim
# splits the text there, and Chromium then draws र्‍क or द्‍व with a visible virama instead of
# the eyelash ra or the half form. The cost: a joiner in the text makes Chromium fetch every Indic
# face (it fetches each face whose range holds a character of the text). The dandas, the Vedic
# signs, ₹ and the North Indic number forms, shared by these scripts too, go to the Devanagari
# face alone, so that a Hindi full stop fetches nothing more; a danda is punctuation, which a
# split does not harm.
INDIC_SHARED = ((0x200C, 0x200D), (0x25CC, 0x25CC))
DEVANAGARI = ((0x0900, 0x097F), (0x1CD0, 0x1CFF), (0x20B9, 0x20B9), (0x20F0, 0x20F0), (0xA830, 0xA839),
              (0xA8E0, 0xA8FF)) + INDIC_SHARED
GUJARATI = ((0x0A80, 0x0AFF),) + INDIC_SHARED
TAMIL = ((0x0B80, 0x0BFF), (0x11301, 0x11301), (0x11303, 0x11303), (0x1133B, 0x1133C)) + INDIC_SHARED
KANNADA = ((0x0C80, 0x0CFF),) + INDIC_SHARED

# The chess figurines (moves such as ♘f3) and a few signs a page like this one uses: small
# triangles (▴ ▸ ▾ ◂ and the large ones), check marks and crosses (✓ ✔ ✗ ✘).
SYMBOLS = ((0x2654, 0x265F), (0x25B2, 0x25B2), (0x25B4, 0x25B4), (0x25B6, 0x25B6), (0x25B8, 0x25B8),
           (0x25BC, 0x25BC), (0x25BE, 0x25BE), (0x25C0, 0x25C0), (0x25C2, 0x25C2), (0x2713, 0x2714),
           (0x2717, 0x2718))


@dataclass(frozen=True)
class Script:
    """Faces of one script: the code points they claim, the Debian files of each weight, and
    whether the font is shipped whole (every glyph and feature) or subset to its range."""
    key: str
    ranges: tuple[Range, ...]
    files: tuple[tuple[int, str], ...]      # (CSS weight, Debian file name)
    whole: bool
    features: tuple[str, ...] = ("*",)


# The true minus sign of the review's scores (`−1.3`, jitfish/review.py's pawns_text), which Noto
# Sans lacks: from Noto Sans Math.
MATH = ((0x2212, 0x2212),)

SCRIPTS = (
    Script("latin", LATIN, ((400, "NotoSans-Regular.ttf"), (700, "NotoSans-Bold.ttf")), False,
           tuple(LATIN_FEATURES)),
    Script("math", MATH, ((400, "NotoSansMath-Regular.ttf"), (700, "NotoSansMath-Regular.ttf")), False),
    Script("symbols", SYMBOLS,
           ((400, "NotoSansSymbols2-Regular.ttf"), (700, "NotoSansSymbols2-Regular.ttf")), False),
    Script("devanagari", DEVANAGARI,
           ((400, "NotoSansDevanagari-Regular.ttf"), (700, "NotoSansDevanagari-Bold.ttf")), True),
    Script("gujarati", GUJARATI,
           ((400, "NotoSansGujarati-Regular.ttf"), (700, "NotoSansGujarati-Bold.ttf")), True),
    Script("tamil", TAMIL, ((400, "NotoSansTamil-Regular.ttf"), (700, "NotoSansTamil-Bold.ttf")), True),
    Script("kannada", KANNADA,
           ((400, "NotoSansKannada-Regular.ttf"), (700, "NotoSansKannada-Bold.ttf")), True),
)


# ---- what the page can show ----

def _po_strings(text: str) -> Iterable[str]:
    """The msgid and msgstr strings of a PO file (continuation lines joined)."""
    current: list[str] | None = None
    for line in text.splitlines() + [""]:
        line = line.strip()
        m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d+\])?|msgctxt)\s+(".*")$', line)
        if current is not None and line.startswith('"'):
            current.append(ast.literal_eval(line))
            continue
        if current is not None:
            yield "".join(current)
        current = [ast.literal_eval(m.group(2))] if m else None


def _js_unescape(text: str) -> str:
    text = re.sub(r"\\u\{([0-9a-fA-F]{1,6})\}", lambda m: chr(int(m.group(1), 16)), text)
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)


def _css_unescape(text: str) -> str:
    return re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda m: chr(int(m.group(1), 16)), text)


def page_characters() -> dict[str, set[str]]:
    """Every non-ASCII character the page can show, with the files it was found in."""
    found: dict[str, set[str]] = {}

    def add(text: str, where: Path) -> None:
        for ch in text:
            if ord(ch) > 0x7E:
                found.setdefault(ch, set()).add(str(where.relative_to(ROOT)))

    for path in sorted(STATIC.glob("*.html")):
        add(html.unescape(path.read_text(encoding="utf-8")), path)
    for path in sorted(STATIC.glob("*.js")):
        add(html.unescape(_js_unescape(path.read_text(encoding="utf-8"))), path)
    for path in sorted(STATIC.glob("*.css")):
        if path != CSS:
            add(_css_unescape(path.read_text(encoding="utf-8")), path)
    for path in sorted(LOCALE.glob("*.po")):
        add("".join(_po_strings(path.read_text(encoding="utf-8"))), path)
    for path in [ROOT / "jitfish" / "i18n.py", ROOT / "jitfish" / "review.py",
                 *sorted((ROOT / "jitfish" / "web").glob("*.py"))]:
        if path.exists():
            add(path.read_text(encoding="utf-8"), path)
    return found


# ---- ranges ----

def _codepoints(ranges: Iterable[Range]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def _merge(codepoints: Iterable[int]) -> list[Range]:
    out: list[Range] = []
    for cp in sorted(set(codepoints)):
        if out and cp == out[-1][1] + 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return out


def css_range(codepoints: Iterable[int]) -> str:
    return ", ".join(f"U+{lo:04X}" if lo == hi else f"U+{lo:04X}-{hi:04X}" for lo, hi in _merge(codepoints))


def _nothing_to_draw(cp: int) -> bool:
    """Code points no text shows: unassigned, control, surrogate, private use."""
    return unicodedata.category(chr(cp)) in ("Cn", "Cc", "Cs", "Co")


def cmap_of(path: Path) -> set[int]:
    return set(TTFont(path, lazy=True).getBestCmap())


@dataclass
class Plan:
    """Which code points each script's faces claim (the same for both weights) and, for a
    subset font, which it keeps."""
    claims: dict[str, set[int]]
    keeps: dict[str, set[int] | None]          # None: the whole font
    missing: dict[str, set[str]]               # characters no font here can draw, with where found


def plan(source: Path = NOTO) -> Plan:
    """Each face claims the characters of its ranges that every file of the script has; a
    character the page shows that no range claims goes to the Latin subset where Noto Sans has
    it, else to the symbol subset where Noto Sans Symbols2 has it, else it is missing."""
    claims: dict[str, set[int]] = {}
    keeps: dict[str, set[int] | None] = {}
    cmaps: dict[str, set[int]] = {}
    for script in SCRIPTS:
        have = set.intersection(*(cmap_of(source / name) for _, name in script.files))
        cmaps[script.key] = have
        claims[script.key] = {cp for cp in _codepoints(script.ranges) if cp in have}
        # Unassigned and control code points inside a claimed block are claimed too: no text
        # shows them, and the ranges stay whole blocks.
        claims[script.key] |= {cp for cp in _codepoints(script.ranges) if _nothing_to_draw(cp)}
    missing: dict[str, set[str]] = {}
    for ch, where in sorted(page_characters().items()):
        cp = ord(ch)
        if any(cp in claimed for claimed in claims.values()) or _nothing_to_draw(cp) or ch.isspace():
            continue
        for key in ("latin", "symbols"):
            if cp in cmaps[key]:
                claims[key].add(cp)
                break
        else:
            missing[ch] = where
    for script in SCRIPTS:
        keeps[script.key] = (None if script.whole
                             else {cp for cp in claims[script.key] if cp in cmaps[script.key]})
    return Plan(claims, keeps, missing)


# ---- fonts ----

def out_name(source_name: str) -> str:
    return Path(source_name).stem + ".woff2"


def make_font(source: Path, keep: set[int] | None, features: Iterable[str]) -> bytes:
    """The WOFF2 of `source`: whole (every glyph, every feature) when `keep` is None, else only
    the glyphs of `keep` and what the kept features reach from them. Glyph names are dropped,
    hinting and the name table (copyright, licence) kept; the original dates are kept so that the
    same fonts give the same files."""
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = list(features)
    options.glyph_names = False
    options.hinting = True
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables = options.drop_tables + ["DSIG"]
    font = TTFont(source, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    if keep is None:
        subsetter.populate(glyphs=font.getGlyphOrder(), unicodes=font.getBestCmap().keys())
    else:
        subsetter.populate(unicodes=sorted(keep))
    subsetter.subset(font)
    font.flavor = "woff2"
    buffer = io.BytesIO()
    font.save(buffer, reorderTables=False)
    return buffer.getvalue()


def font_css(the_plan: Plan) -> str:
    lines = [
        "/* The browser game's fonts, all served by the game itself: one family, \"Jitfish Sans\",",
        "   split by unicode-range so that a script's font is fetched only when the page shows it.",
        "   Written by `python -m tools.i18n.make_fonts` (fonts/README.md); do not edit by hand. */",
    ]
    for script in SCRIPTS:
        for weight, name in script.files:
            lines += [
                "",
                f"/* {script.key} {weight}: {Path(name).stem} */",
                "@font-face {",
                f'  font-family: "{FAMILY}";',
                "  font-style: normal;",
                f"  font-weight: {weight};",
                "  font-display: swap;",
                f'  src: url("fonts/{out_name(name)}") format("woff2");',
                f"  unicode-range: {css_range(the_plan.claims[script.key])};",
                "}",
            ]
    return "\n".join(lines) + "\n"


# ---- the licence and the record ----

def ofl_text(source: Path = DEBIAN_COPYRIGHT) -> str:
    """The SIL Open Font License 1.1, from Debian's copyright file of fonts-noto-core, with the
    copyright notices of the shipped fonts above it, as the licence asks."""
    text = source.read_text(encoding="utf-8")
    m = re.search(r"^License: OFL-1\.1\n((?: .*\n?)+)", text, re.M)
    if not m:
        raise SystemExit(f"no OFL-1.1 licence text in {source}")
    paragraphs = [" ".join(p.split()) for p in
                  "\n".join(line[1:] for line in m.group(1).splitlines()).split("\n.\n")]
    notices = sorted({TTFont(NOTO / name, lazy=True)["name"].getDebugName(0)
                      for script in SCRIPTS for _, name in script.files})
    body = "\n\n".join(textwrap.fill(p, 76) for p in paragraphs if p)
    return ("The fonts in this folder (see README.md) are Google's Noto fonts, as packaged by Debian\n"
            "(fonts-noto-core), subset and converted to WOFF2.\n\n"
            + "\n".join(notices) + "\n"
            "Debian's record: Copyright 2010, 2012-2020 Google Inc.; 2015-2020 Google LLC.\n\n"
            "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n"
            "This license is copied below, and is also available with a FAQ at:\n"
            "https://openfontlicense.org\n\n\n"
            "-----------------------------------------------------------\n"
            "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007\n"
            "-----------------------------------------------------------\n\n"
            + body + "\n")


def _debian_version() -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "fonts-noto-core"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def layout_features(data: bytes) -> list[str]:
    """The OpenType layout features of a font file."""
    font = TTFont(io.BytesIO(data), lazy=True)
    return sorted({record.FeatureTag for table in ("GSUB", "GPOS") if table in font
                   for record in font[table].table.FeatureList.FeatureRecord})


def readme(the_plan: Plan, sizes: dict[str, int], features: dict[str, list[str]]) -> str:
    rows = []
    for script in SCRIPTS:
        for weight, name in script.files:
            out = out_name(name)
            if any(row.startswith(f"| `{out}`") for row in rows):
                continue
            font = TTFont(NOTO / name, lazy=True)
            version = font["name"].getDebugName(5).split(";")[0]
            if script.whole:
                how = "whole: every glyph, every OpenType feature, converted to WOFF2"
            else:
                how = (f"subset to {css_range(the_plan.keeps[script.key] or ())}; "
                       f"layout features {'that apply' if script.features == ('*',) else 'kept'}: "
                       f"{', '.join(features[out]) or 'none'}")
            weights = ", ".join(str(w) for w, n in script.files if n == name)
            rows.append(f"| `{out}` | {script.key} ({weights}) | `{NOTO / name}` | "
                        f"{font['name'].getDebugName(4)}, {version} | {how} | {sizes[out]:,} |")
    total = sum(sizes.values())
    return f"""# Fonts of the browser game

Every character the page shows is drawn by one of these fonts, served by `jitfish web` itself
(`/static/fonts/`; nothing is fetched from the network). `../fonts.css` declares them as one
family, "{FAMILY}", in weights 400 and 700 (the page's 600 is drawn by the 700 faces), split by
`unicode-range`: a browser fetches a script's file only when the page shows one of its
characters. The figurines have one weight, used for both.

Written by `.venv/bin/python -m tools.i18n.make_fonts` (`tools/i18n/make_fonts.py`), which also
writes `../fonts.css`, `OFL.txt` and this file; `--check` says whether they are up to date. It
scans what the page can show (`static/*.html`, `*.js`, `*.css`, `jitfish/locale/*.po`,
`jitfish/i18n.py`, `jitfish/web/*.py`) and adds any character outside the ranges below to the
Latin or the symbol subset, or fails where no font here can draw it. `tests/test_fonts.py` checks
that every character of the catalogues and the page is in the file whose range claims it.

Source: Debian's `fonts-noto-core` {_debian_version()} (Google's Noto fonts,
<https://github.com/notofonts>). Made with fontTools' subsetter (`fontTools.subset`): WOFF2
(Brotli), glyph names dropped, hinting, name table (copyright, licence) and the fonts' dates
kept. The Indic fonts are not subset: their whole glyph set and OpenType layout (GSUB/GPOS, which
Indic shaping needs) are kept.

| file | faces | from | font, version | how | bytes |
| --- | --- | --- | --- | --- | --- |
{chr(10).join(rows)}

Total: {total:,} bytes.

Licence: SIL Open Font License, version 1.1 (`OFL.txt`, with the fonts' copyright notices;
also in each file's name table). Noto declares no Reserved Font Name; the files keep their Noto
names. The fonts are distributed with Jitfish, not sold by themselves, as the licence asks.
"""


# ---- the run ----

def build(out_dir: Path, css_path: Path, source: Path = NOTO) -> Plan:
    the_plan = plan(source)
    if the_plan.missing:
        return the_plan
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    features: dict[str, list[str]] = {}
    for script in SCRIPTS:
        for _, name in script.files:
            out = out_name(name)
            if out in sizes:
                continue
            data = make_font(source / name, the_plan.keeps[script.key], script.features)
            (out_dir / out).write_bytes(data)
            sizes[out] = len(data)
            features[out] = layout_features(data)
    css_path.write_text(font_css(the_plan), encoding="utf-8")
    (out_dir / "OFL.txt").write_text(ofl_text(), encoding="utf-8")
    (out_dir / "README.md").write_text(readme(the_plan, sizes, features), encoding="utf-8")
    return the_plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the shipped files differ from what a run would write")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out_dir, css_path = (Path(tmp) / "fonts", Path(tmp) / "fonts.css") if args.check else (FONTS, CSS)
        the_plan = build(out_dir, css_path)
        if the_plan.missing:
            for ch, where in sorted(the_plan.missing.items()):
                others = sorted(p.name for p in NOTO.glob("*.ttf") if ord(ch) in cmap_of(p))
                print(f"U+{ord(ch):04X} {ch} {unicodedata.name(ch, '?')}: in no shipped font "
                      f"(found in {', '.join(sorted(where))}; "
                      f"Noto fonts here with it: {', '.join(others) or 'none'})", file=sys.stderr)
            return 1
        if args.check:
            stale = [p.name for p in sorted(out_dir.iterdir())
                     if not (FONTS / p.name).exists() or (FONTS / p.name).read_bytes() != p.read_bytes()]
            stale += [p.name for p in sorted(FONTS.glob("*")) if not (out_dir / p.name).exists()]
            if not CSS.exists() or CSS.read_bytes() != css_path.read_bytes():
                stale.append("fonts.css")
            if stale:
                print(f"out of date: {', '.join(stale)} (run python -m tools.i18n.make_fonts)",
                      file=sys.stderr)
                return 1
            print("fonts up to date")
            return 0
    for path in sorted(FONTS.glob("*.woff2")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    print(f"{CSS.relative_to(ROOT)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
