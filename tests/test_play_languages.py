"""`jitfish play` in each of its languages: the help, the errors and the results said in the
reader's language and notation, the language chosen by `--lang` or the environment.

The catalogues are filled by translators: each test that reads a translated text expects what the
catalogue says (`Speaker(lang).say(message)`), so it passes with an empty catalogue and checks the
right language once there are translations; `test_help_is_in_the_script_of_each_language` reads
the script itself and runs for every language whose catalogue has any translation. The tests that
must tell the languages apart today do it with a stand-in catalogue (`stand_in_catalogues`).
"""

import io
import re
import random
import unicodedata

import chess
import pytest

from jitfish.game import GameError
from jitfish.i18n import LANGUAGES, LOCALE_DIR, SOURCE, Catalog, Moves, Msg, Speaker, read_po
from jitfish.play import COMMANDS, choose_language, help_messages, run_game
from jitfish.setup import start_board
from tests.test_play import play

LANGS = list(LANGUAGES)
# The letters of each language's script (Unicode blocks); English's are the Basic Latin ones.
SCRIPTS = {
    "en": [(0x41, 0x5A), (0x61, 0x7A)],
    "kn": [(0x0C80, 0x0CFF)],
    "ta": [(0x0B80, 0x0BFF)],
    "gu": [(0x0A80, 0x0AFF)],
    "hi": [(0x0900, 0x097F), (0xA8E0, 0xA8FF)],
}
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1"        # Rb8# (no knight: Nf6 is no move)
ONLY_KB1 = "k7/8/8/8/8/p7/P7/K7 w - - 0 1"                  # White's one legal move is Kb1
THINK = 0.01                                                # the robot's seconds a move: as short as may be
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def script_share(text: str, ranges: list[tuple[int, int]]) -> float:
    """The share of the letters of `text` (Unicode letters and the marks written with them, such
    as an Indic script's vowel signs) that lie in `ranges` (inclusive code point ranges); 0 for
    a text without letters."""
    letters = [ch for ch in text if unicodedata.category(ch)[0] in "LM"]
    if not letters:
        return 0.0
    inside = sum(1 for ch in letters if any(low <= ord(ch) <= high for low, high in ranges))
    return inside / len(letters)


def catalogue_has_translations(lang: str) -> bool:
    """Whether a language's catalogue translates anything (English, the source, always speaks)."""
    if lang == SOURCE:
        return True
    path = LOCALE_DIR / f"{lang}.po"
    return path.exists() and bool(read_po(path)[1])


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def typed(lang: str, san: str) -> str:
    """A move as a reader of `lang` would type it: figurines where the language shows them."""
    return Speaker(lang).moves(san)


@pytest.fixture
def stand_in_catalogues(monkeypatch):
    """Catalogues that mark a few messages with their language (`«kn» game left unfinished`), so
    that a test sees which language was chosen before the real catalogues are translated."""
    marked = ["game left unfinished", "Type a move or a command:", "{command} — take back your last move"]

    def catalog(code: str) -> Catalog:
        if code not in LANGUAGES or code == SOURCE:
            return Catalog(SOURCE)
        messages = {(None, msgid): [f"«{code}» {msgid}"] for msgid in marked}
        messages["a command typed in the terminal game", "undo"] = [f"{code}-undo"]
        return Catalog(code, messages)

    monkeypatch.setattr("jitfish.i18n.catalog", catalog)


def run_cli(monkeypatch, capsys, tmp_path, argv: list[str], environ: dict[str, str] | None = None,
            commands: tuple[str, ...] = ()) -> str:
    """`jitfish play ARGV` in this process with the environment's language variables set to
    `environ` (the others unset), fed `commands`; what it printed (stderr must stay empty)."""
    from jitfish.cli import main

    for name in ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    for name, value in (environ or {}).items():
        monkeypatch.setenv(name, value)
    feed = iter(commands)

    def read(*_: object) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", read)
    status = main(["play", "--time", "0", "--elo", "1000", "--pgn", str(tmp_path / "game.pgn"), *argv])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == ""
    return captured.out


def test_script_share_counts_letters_and_their_marks():
    assert script_share("ಕನ್ನಡ", SCRIPTS["kn"]) == 1.0                  # the virama is a mark of the script
    assert script_share("ಕನ್ನಡ undo", SCRIPTS["kn"]) == 5 / 9
    assert script_share("e4 — ♘f3, 1.", SCRIPTS["kn"]) == 0.0
    assert script_share("हिन्दी", SCRIPTS["hi"]) == 1.0 and script_share("தமிழ்", SCRIPTS["ta"]) == 1.0
    assert script_share("ગુજરાતી", SCRIPTS["gu"]) == 1.0 and script_share("Hindi", SCRIPTS["en"]) == 1.0


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_speaks_each_language(tmp_path, lang):
    """One game: the greeting, `help`, a move that is no move, a figurine typed, the result, saved."""
    speaker = Speaker(lang)
    text, game = play(tmp_path, ["help", "Nf6", typed(lang, "Rb8#")], fen=MATE_IN_ONE, speaker=speaker,
                      think_seconds=THINK)
    said = lines(text)
    assert said[0] == speaker.say(Msg("You play White against {robot}. Type a move or `{command}`.",
                                      robot="Jitfish 1000", command="help"))
    # help: every line as the catalogue says it, each command word as it is typed
    assert speaker.say(Msg("Type a move or a command:")) in said
    # each command's line begins with its English word (then the language's own word, if any)
    assert len([line for line in said if re.match(r"undo( / \S+)? ", line)]) == 1
    for line in help_messages(speaker):
        assert speaker.say(line) in said
    for word in COMMANDS:                                            # typed as the English word
        assert any(word in line.replace("/", " ").split() for line in said), word
    # a move that is no move, shown in the language's notation (figurines but in English)
    refusal = speaker.say(Msg("{problem} (try `{command}`)", command="help",
                              problem=Msg("{text} is not a legal move here", text=Moves("Nf6"))))
    assert refusal in said
    assert ("♘f6" in refusal) == (lang != "en") and ("Nf6" in refusal) == (lang == "en")
    # the result line, and the record (PGN stays English)
    assert speaker.say(Msg("Checkmate: White wins")) in said
    assert said[-1] == speaker.say(Msg("game saved to {path}", path=str(tmp_path / "game.pgn")))
    assert game.headers["Result"] == "1-0" and game.end().comment == "Checkmate: White wins"


@pytest.mark.parametrize("lang", LANGS)
def test_a_start_that_does_not_read_is_refused_in_the_language(lang):
    speaker = Speaker(lang)
    out = io.StringIO()
    status = run_game("1. e4 e5 2. Ke3", chess.WHITE, 1000, seed=1, think_seconds=THINK, pgn_path=None,
                      read=lambda: "quit", out=out, colour=False, speaker=speaker)
    assert status == 2
    refusal = Msg("move {number} (White): '{token}' is not a legal move there", number=2, token=Moves("Ke3"))
    assert out.getvalue() == speaker.say(Msg("error: {problem}", problem=refusal)) + "\n"
    with pytest.raises(GameError) as refused:
        start_board("1. e4 e5 2. Ke3", False, random.Random(1))
    assert refused.value.args[0] == refusal and str(refused.value) == str(refusal)


@pytest.mark.parametrize("lang", [pytest.param(lang, marks=pytest.mark.skipif(
    not catalogue_has_translations(lang), reason=f"jitfish/locale/{lang}.po has no translations yet"))
    for lang in LANGS])
def test_help_is_in_the_script_of_each_language(tmp_path, lang):
    """The help's words (the command words typed and the example moves aside) are in the
    language's script: translated, not English."""
    text, _ = play(tmp_path, ["help", "quit"], speaker=Speaker(lang), think_seconds=THINK)
    said = lines(text)
    start = said.index(Speaker(lang).say(Msg("Type a move or a command:")))
    words = []
    for line in said[start:start + len(help_messages(Speaker(lang)))]:
        for word in line.replace("/", " ").split():
            bare = word.strip(",.:;()`'\"")
            if bare in COMMANDS or any(ch.isdigit() or ch in "♔♕♖♗♘" for ch in bare) or bare == "O-O":
                continue
            words.append(word)
    share = script_share(" ".join(words), SCRIPTS[lang])
    assert share >= 0.8, f"{lang}: only {share:.0%} of the help's letters are in its script: {' '.join(words)}"


@pytest.mark.parametrize("environ, lang", [
    ({"LANG": "kn_IN.UTF-8"}, "kn"),
    ({"LANGUAGE": "ta:en", "LANG": "en_US.UTF-8"}, "ta"),
    ({"LC_ALL": "gu_IN.UTF-8", "LANG": "hi_IN.UTF-8"}, "gu"),
    ({"LC_MESSAGES": "hi_IN", "LANG": "en_GB.UTF-8"}, "hi"),
    ({"LANGUAGE": "fr:de", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "C", "LANG": "kn_IN.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_environment_chooses_the_language(monkeypatch, capsys, tmp_path, stand_in_catalogues, environ, lang):
    assert choose_language(None, environ) == lang
    out = run_cli(monkeypatch, capsys, tmp_path, [], environ)
    assert lines(out)[-1] == Speaker(lang).say(Msg("game left unfinished"))
    assert lines(out)[-1] == ("game left unfinished" if lang == "en" else f"«{lang}» game left unfinished")


def test_lang_overrides_the_environment(monkeypatch, capsys, tmp_path, stand_in_catalogues):
    out = run_cli(monkeypatch, capsys, tmp_path, ["--lang", "hi"], {"LANGUAGE": "ta", "LANG": "kn_IN.UTF-8"})
    assert lines(out)[-1] == "«hi» game left unfinished"
    assert choose_language("kn_IN.UTF-8") == "kn" and choose_language("EN") == "en"


@pytest.mark.parametrize("value", ["xx", "fr_FR.UTF-8", ""])
def test_an_unknown_language_is_english_without_a_word(monkeypatch, capsys, tmp_path, stand_in_catalogues, value):
    out = run_cli(monkeypatch, capsys, tmp_path, ["--lang", value], {"LANG": "kn_IN.UTF-8"})
    assert lines(out)[0] == "You play White against Jitfish 1000. Type a move or `help`."
    assert lines(out)[-1] == "game left unfinished" and "«" not in out
    assert choose_language(value, {"LANG": "kn_IN.UTF-8"}) == "en"


@pytest.mark.parametrize("argv, figurines", [
    (["--lang", "kn"], True),
    (["--lang", "kn", "--notation", "letters"], False),
    (["--lang", "en"], False),
    (["--lang", "en", "--notation", "figurines"], True),
    (["--lang", "ta"], True),
    (["--lang", "hi", "--notation", "figurines"], True),
])
def test_figurines_by_default_in_the_indian_languages_and_letters_on_request(monkeypatch, capsys, tmp_path,
                                                                              argv, figurines):
    out = run_cli(monkeypatch, capsys, tmp_path, ["--color", "black", "--fen", ONLY_KB1, *argv])
    expected = Speaker(argv[1], figurines).say(Msg("Jitfish plays {move}", move=Moves("1. Kb1")))
    assert expected in lines(out) and expected.endswith("1. ♔b1" if figurines else "1. Kb1")
    assert "Kb1" in (tmp_path / "game.pgn").read_text()             # the PGN keeps SAN's letters


def test_a_translated_command_word_is_understood_and_listed(tmp_path, stand_in_catalogues):
    """A word the catalogue gives for a command works beside the English one, and `help` shows
    both; the lines the catalogue translates come in the language."""
    speaker = Speaker("kn")
    text, game = play(tmp_path, ["e4", "kn-undo", "help", "quit"], speaker=speaker, think_seconds=THINK)
    assert game is None or not list(game.mainline_moves())           # e4 and the answer taken back
    said = lines(text)
    assert "«kn» Type a move or a command:" in said and "«kn» undo / kn-undo — take back your last move" in said
    assert "hint — a suggestion from the full-strength engine" in said     # not in the stand-in: English
    assert said[-1] == "«kn» game left unfinished"
