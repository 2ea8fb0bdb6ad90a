"""The languages: the catalogues (read by Jitfish and by Babel alike, placeholders kept, CLDR's
plural rules, up to date with the sources), choosing a language, saying a message, notation."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po as babel_read_po

from jitfish.i18n import (LANGUAGES, LOCALE_DIR, SOURCE, Catalog, Moves, Msg, Plural, PMsg, Speaker, accept_language,
                          catalog, catalog_json, figurine, from_environment, letters, match, negotiate, read_po)
from tools.i18n import extract
from tools.i18n.apply import placeholders

TRANSLATED = [code for code in LANGUAGES if code != SOURCE]


def babel_catalog(code: str):
    with (LOCALE_DIR / f"{code}.po").open("rb") as handle:
        return babel_read_po(handle, locale=code)


# ---- the catalogues ----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", TRANSLATED)
def test_jitfish_reads_each_catalogue_as_babel_does(code):
    """Our small .po reader against Babel's (an independent implementation): the same messages."""
    _, ours = read_po(LOCALE_DIR / f"{code}.po")
    theirs = {}
    for message in babel_catalog(code):
        if not message.id or message.fuzzy:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        forms = list(message.string) if isinstance(message.string, tuple) else [message.string]
        if all(forms):
            theirs[(message.context, msgid)] = forms
    assert ours == theirs


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_keeps_the_placeholders_of_its_message(code):
    for message in babel_catalog(code):
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            allowed = placeholders(message.id[0]) | placeholders(message.id[1])
            for form in message.string:
                if form:
                    assert placeholders(form) <= allowed, (code, message.id, form)
            last = message.string[-1]
            if last:
                assert placeholders(message.id[1]) - {"count"} <= placeholders(last) | {"n"}, (code, message.id, last)
        else:
            assert placeholders(message.string) == placeholders(message.id), (code, message.id, message.string)
            # Python's str.format must accept it (no stray braces)
            message.string.format(**{name: "x" for name in placeholders(message.id)})


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalogues_plural_rule_is_cldrs(code):
    """kn, gu, hi: 'one' for 0 and 1; ta: for 1 (CLDR, as Babel has it), and the page's
    Intl.PluralRules agrees by construction (form 0 is 'one')."""
    cldr = Locale.parse(code).plural_form
    ours = Catalog.load(code)
    for n in range(0, 250):
        assert ours.plural_index(n) == (0 if cldr(n) == "one" else 1), (code, n)
    assert babel_catalog(code).num_plurals == 2


def test_the_catalogues_are_up_to_date_with_the_sources(capsys):
    assert extract.main(["--check"]) == 0, capsys.readouterr().err


def test_the_template_holds_the_texts_of_the_page():
    template = extract.template()
    ids = {message.id if isinstance(message.id, str) else message.id[0] for message in template}
    for text in ("Start new game", "Sound", "Take back", "Checkmate: White wins", "Your move",
                 "loses the {piece} on {square} to {move}", "Beginner"):
        assert text in ids


# ---- saying a message -------------------------------------------------------------------------------


def test_a_message_missing_from_a_catalogue_is_said_in_english_never_as_a_key():
    speaker = Speaker("kn")
    message = Msg("a message no catalogue has, about {thing}", thing="e4")
    assert speaker.say(message) == "a message no catalogue has, about e4"
    assert speaker.say(Plural("{n} thing nobody has", "{n} things nobody has", "n", n=3)) == "3 things nobody has"


def test_messages_are_said_with_their_translation_and_arguments():
    cat = Catalog("xx", {(None, "{move} is good"): ["{move} ಒಳ್ಳೆಯದು"],
                         ("object", "knight"): ["ಕುದುರೆಯನ್ನು"],
                         (None, "{n} move"): ["{n} ನಡೆ", "{n} ನಡೆಗಳು"]}, "nplurals=2; plural=(n > 1);")
    speaker = Speaker("kn")
    speaker.catalog = cat
    assert speaker.say(Msg("{move} is good", move=Moves("Nf3"))) == "♘f3 ಒಳ್ಳೆಯದು"
    assert speaker.say(PMsg("object", "knight")) == "ಕುದುರೆಯನ್ನು"
    assert speaker.say(PMsg("instrument", "knight")) == "knight"          # another context: English
    assert speaker.say(Plural("{n} move", "{n} moves", "n", n=0)) == "0 ನಡೆ"   # kn: 0 is 'one'
    assert speaker.say(Plural("{n} move", "{n} moves", "n", n=2)) == "2 ನಡೆಗಳು"
    speaker.figurines = False
    assert speaker.say(Msg("{move} is good", move=Moves("Nf3"))) == "Nf3 ಒಳ್ಳೆಯದು"


def test_a_translation_with_a_broken_placeholder_falls_back_to_english():
    speaker = Speaker("kn")
    speaker.catalog = Catalog("xx", {(None, "{move} is good"): ["{mvoe} ಒಳ್ಳೆಯದು"]})
    assert speaker.say(Msg("{move} is good", move="e4")) == "e4 is good"


def test_english_is_the_str_of_a_message_and_render_walks_json():
    message = Msg("Checkmate: White wins")
    assert str(message) == "Checkmate: White wins"
    rendered = Speaker("en").render({"a": [message, {"b": Moves("Nf3")}], "c": 3})
    assert rendered == {"a": ["Checkmate: White wins", {"b": "Nf3"}], "c": 3}


def test_the_page_gets_the_catalogue_as_json():
    data = catalog_json("ta")
    assert data["lang"] == "ta" and data["figurines"] is True and data["name"] == "தமிழ்"
    assert [item["code"] for item in data["languages"]] == list(LANGUAGES)
    assert catalog_json("xx")["lang"] == "en"
    for key, forms in data["messages"].items():
        assert isinstance(forms, list) and all(forms)


# ---- choosing a language ----------------------------------------------------------------------------


def test_the_language_follows_the_browser_and_unknown_ones_are_english():
    assert accept_language("kn-IN,kn;q=0.9,en-US;q=0.8,en;q=0.7") == "kn"
    assert accept_language("fr-FR,fr;q=0.9,ta;q=0.5") == "ta"
    assert accept_language("en;q=0.2, gu;q=0.8") == "gu"
    assert accept_language("fr-FR") == "en" and accept_language(None) == "en" and accept_language("") == "en"
    assert accept_language("hi;q=0, kn;q=0.1") == "kn"
    assert negotiate(["de-DE", "hi-IN"]) == "hi" and negotiate([]) == "en"
    assert match("ta_IN.UTF-8") == "ta" and match("xx") is None


def test_the_environment_is_read_as_gettext_reads_it():
    assert from_environment({"LANG": "kn_IN.UTF-8"}) == "kn"
    assert from_environment({"LANGUAGE": "ta:en", "LANG": "kn_IN.UTF-8"}) == "ta"
    assert from_environment({"LC_ALL": "gu_IN.UTF-8", "LANG": "hi_IN.UTF-8"}) == "gu"
    assert from_environment({"LC_MESSAGES": "hi_IN", "LANG": "C.UTF-8"}) == "hi"
    assert from_environment({"LC_ALL": "C", "LANG": "kn_IN.UTF-8"}) == "en"
    assert from_environment({"LANGUAGE": "fr:de"}) == "en" and from_environment({}) == "en"


# ---- notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("san, shown", [
    ("Nf3", "♘f3"), ("Qxf7#", "♕xf7#"), ("e8=Q+", "e8=♕+"), ("exd8=N", "exd8=♘"), ("O-O-O", "O-O-O"),
    ("e4", "e4"), ("Rae1", "♖ae1"), ("R1e2", "♖1e2"), ("Kxb2", "♔xb2"), ("Bb5", "♗b5"),
    ("17. a3 Nd3 18. cxd3", "17. a3 ♘d3 18. cxd3"), ("12... Bxf6 13. Qxd5", "12... ♗xf6 13. ♕xd5"),
])
def test_figurines_replace_piece_letters_only(san, shown):
    assert figurine(san) == shown and letters(shown) == san


def test_black_figurines_read_as_letters_too():
    assert letters("♞f6") == "Nf6" and letters("♛h4") == "Qh4"


# ---- every message Jitfish makes is in the template ----------------------------------------------------


def msgids(value) -> set[tuple[str | None, str]]:
    if isinstance(value, Msg):
        found = {(value.context, value.msgid)}
        for arg in value.args.values():
            found |= msgids(arg)
        return found
    return set()


def test_the_messages_games_make_are_all_in_the_template():
    """The endings, statuses and clock labels made at run time (from tables) are extracted."""
    import chess

    from jitfish.clock import PRESETS
    from jitfish.game import CLAIMED, ENDINGS
    from jitfish.web.game import STATUS

    template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in extract.template()}
    made = set()
    for table in (ENDINGS, CLAIMED, STATUS):
        made |= {(None, text) for text in table.values()}
    for control in PRESETS.values():
        made |= msgids(control.describe())
    assert made <= template, made - template
    del chess


# ---- the review's reasons in each language ---------------------------------------------------------

SCRIPTS = {"kn": (0x0C80, 0x0CFF), "ta": (0x0B80, 0x0BFF), "gu": (0x0A80, 0x0AFF), "hi": (0x0900, 0x097F)}
# What stays in Latin letters in every language: moves, squares, numbered lines, files.
NOTATION_WORD = re.compile(r"^(?:\d+\.+|[a-h]|[a-h][1-8]|O-O(?:-O)?[+#]?|[♔♕♖♗♘]?[a-h]?[1-8]?x?[a-h][1-8](?:=.)?[+#]?)$")


def _reasons():
    """Reasons of every kind, as the review gives them, from positions whose engine lines are
    written out (tests/test_reasons.py's): mates, stalemate, pieces lost and missed, forks,
    traps, pins, promotions, the better move with its line."""
    import chess

    from engine.defs import MATE
    from jitfish.reasons import reason
    from jitfish.review import Evaluation, first_look

    def said(fen, played, before_score, best, after_score, refutation):
        board = chess.Board(fen)
        move = board.parse_san(played)

        def moves(start, sans):
            start, found = start.copy(), []
            for san in sans:
                found.append(start.push_san(san))
            return tuple(found)
        child = board.copy()
        child.push(move)
        after = Evaluation(after_score, 12, moves(child, refutation))
        verdict = first_look(Evaluation(before_score, 12, moves(board, best)), move, after)
        return reason(board, move, verdict, after)

    return [
        said("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3", "Nf6", -30, ("g6", "Qf3"),
             MATE - 1, ("Qxf7#",)),
        said("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "d3", MATE - 1, ("Qxf7#",),
             700, ("Nxh5", "Bxf7+")),
        said("k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "Qb6", MATE - 5, ("Kf2", "Ka7"), 0, ()),
        said("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1", "Nf5", 230, ("Nb5", "Kd7"), 90, ("exf5", "Kd2")),
        said("rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/3P4/PPP2PPP/RNBQK1NR b KQkq - 0 3", "Nxe4", -20, ("Nc6", "Nf3"),
             180, ("dxe4", "Bc5")),
        said("r3k3/8/8/8/8/8/6B1/4K3 w - - 0 1", "Kd2", 640, ("Bxa8", "Kd7", "Bd5"), 160, ("Ra2+", "Kc3")),
        said("r3k3/pp6/8/1N6/8/8/5PPP/6K1 b - - 0 1", "b6", 0, ("Kd7", "Nd4"), 490, ("Nc7+", "Kd7", "Nxa8")),
        said("5rk1/p4ppp/8/1P6/1n2P3/8/P1P5/R2K4 b - - 0 1", "h6", 0, ("a5", "Ke2"), 290, ("a3", "Kh7", "axb4")),
        said("5k2/5ppp/3r4/8/8/4B3/5PPP/6K1 b - - 0 1", "g6", 0, ("Rd5", "Kf1"), 300, ("Bc5", "Kg7", "Bxd6")),
        said("8/8/8/8/8/1p6/3K4/7k w - - 0 1", "Ke2", 0, ("Kc3", "b2", "Kxb2"), 900, ("b2", "Kd3", "b1=Q+")),
        said("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Ke2", 40, ("Nf3", "Nc6", "Bb5"),
             90, ("Nf6", "d3", "d5")),
    ]


@pytest.mark.parametrize("code", sorted(SCRIPTS))
def test_the_reviews_reasons_come_out_in_each_language(code):
    """Every kind of reason said in the language: its words in the language's script, nothing in
    Latin letters but the notation, the moves as figurines; and each differs from the English."""
    low, high = SCRIPTS[code]
    speaker = Speaker(code)
    for message in _reasons():
        english, text = str(message), speaker.say(message)
        assert text != english
        tokens = [t for t in re.split(r"[\s,;:()]+", text) if t]
        # a square or a move may carry the language's case ending ("f5-இல்", "♕xf7#થી", "b-प्यादा")
        bare = [re.sub(r"[-\u0900-\u0DFF\u200c\u200d]", "", t).rstrip(".?!") for t in tokens]
        latin = [t for t in bare if re.search(r"[A-Za-z]", t) and not NOTATION_WORD.match(t)]
        assert not latin, (code, text, latin)
        assert any(low <= ord(ch) <= high for ch in text), (code, text)
        assert not re.search(r"(?<![A-Za-z])[KQRBN][a-h1-8x]", text), (code, text)      # figurines, not letters
