"""The checkers "How to play" page (jitfish/web/checkers_rules.py): a well-formed page in each
language, every text a message of the catalogues, the link to the chess page and back, served at
`/rules?game=checkers`, and every diagram checked with the checkers package (checkers.board.Board):
the marked squares are exactly the legal moves and paths, the start is the start, the blocked side
cannot move."""

from __future__ import annotations

import asyncio
import re
import xml.etree.ElementTree as ET

import pytest

import jitfish.i18n as i18n
from checkers.board import Board
from checkers.defs import BLACK, WHITE
from checkers.notation import START_FEN
from jitfish.i18n import LANGUAGES, Msg
from jitfish.web import checkers_rules
from jitfish.web.checkers_rules import (DIAGRAMS, CheckersDiagram, cell, checkers_rules_page, checkers_svg,
                                        diagrams, messages, name, placed)
from jitfish.web.rules import rules_page
from tests.rules_pages import (SVG, Page, check_all_marked, check_content_security_policy,
                               check_diagrams_named, check_extracted, check_in_catalogues,
                               check_only_whole_messages, check_translators_size, check_well_formed,
                               marking_catalog)

CODES = list(LANGUAGES)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {code: checkers_rules_page(code) for code in CODES}


# ---- the page -------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_each_language_is_a_well_formed_page(pages, code):
    """Well formed, titled, the language switcher staying on the checkers page, the link to the
    chess page in the same language, and back, the table of contents."""
    check_well_formed(pages[code], code, game="checkers", other="chess", title=checkers_rules.TITLE,
                      other_game=checkers_rules.OTHER_GAME)
    chess = Page(rules_page(code))
    assert [a["href"] for a in chess.find("a") if not a.get("hreflang") and not a["href"].startswith("#")] \
        == [f"rules?game=checkers&lang={code}"]


@pytest.mark.parametrize("code", CODES)
def test_the_page_keeps_to_its_content_security_policy(pages, code):
    page = check_content_security_policy(pages[code])
    assert "image" not in {tag for tag, _ in page.elements}       # the pieces are drawn, not images


@pytest.mark.parametrize("code", CODES)
def test_every_diagram_is_on_the_page_with_its_caption_as_its_name(pages, code):
    check_diagrams_named(Page(pages[code]), code, diagrams(), DIAGRAMS)


@pytest.mark.parametrize("code", CODES)
def test_every_text_on_the_page_is_one_whole_message(pages, code):
    check_only_whole_messages(Page(pages[code]), code, messages())


def test_an_unknown_language_gives_english():
    assert checkers_rules_page("xx") == checkers_rules_page("en")


def test_messages_are_a_translators_size():
    check_translators_size(messages(), 40)
    for message in messages():
        # moves and FEN are placeholders, never written into a message
        assert not re.search(r"\d+[x-]\d+", message.msgid), message.msgid


def test_the_content_says_the_wcdf_rules():
    """The rules the brief and the WCDF ask for, each said (in English)."""
    english = " ".join(str(m) for m in messages())
    for needle in ("8 by 8", "dark squares only", "dark square in the corner on their left", "numbered 1 to 32",
                   "12 pieces", "Black (or red) always moves first", "one square diagonally forward",
                   "A man jumps forward only", "change direction", "must be finished", "If a player can jump, they must",
                   "If the game seems stuck", "no rule to take the most", "becomes a king", "even in the middle of a jump",
                   "cannot move", "resign", "flag falls", "Agreement", "Threefold repetition",
                   "during each player's last 40 moves, no man moved and nothing was captured", "FEN", "drag it",
                   "one landing square at a time", "Take back", "Hint", "Offer draw", "Resign", "Save PDN"):
        assert needle in english, needle
    # the refusal is the board's own message (checkers-view.js)
    view = (checkers_rules.__file__.rsplit("/", 1)[0] + "/static/checkers-view.js")
    assert f't("{checkers_rules.REFUSAL.msgid}")' in open(view, encoding="utf-8").read()


# ---- the catalogues --------------------------------------------------------------------------------


def test_every_message_is_extracted_into_the_template():
    stored = check_extracted(messages(), ["jitfish/web/checkers_rules.py", "jitfish/web/rules.py",
                                          "jitfish/web/static/checkers-view.js"])
    crowning = next(m for m in messages() if m.msgid == "Crowning")
    assert any("king" in comment for comment in stored.get(crowning.msgid).auto_comments)


def test_the_po_files_have_the_page():
    check_in_catalogues(messages(), CODES[1:])


def test_a_catalogue_changes_every_text_of_the_page(monkeypatch):
    """A catalogue that translates every message leaves no English (the diagrams' names included),
    and every translation is escaped; the moves in the placeholders stay as they are."""
    fake = marking_catalog(messages())
    monkeypatch.setattr(i18n, "catalog", lambda code: fake)
    text = checkers_rules_page("ta")
    check_all_marked(text)
    assert "[ta] &lt;b&gt;&amp;amp; A multi-jump, 11x18x27:" in text


# ---- the diagrams ------------------------------------------------------------------------------------


def board_of(diagram: CheckersDiagram) -> Board:
    board = Board(diagram.fen)
    assert placed(board.fen()) == placed(diagram.fen)
    return board


def paths(board: Board, origins=()) -> list[tuple[int, ...]]:
    """The legal moves as their squares (from the origins only, when given)."""
    found = [tuple(board.squares(move)) for move in board.legal_moves()]
    return [path for path in found if not origins or path[0] in origins]


def between(a: int, b: int) -> int:
    """The square a jump from a to b passes over."""
    (r1, c1), (r2, c2) = cell(a), cell(b)
    assert abs(r1 - r2) == 2 and abs(c1 - c2) == 2
    return next(s for s in range(1, 33) if cell(s) == ((r1 + r2) // 2, (c1 + c2) // 2))


def taken(path) -> set[int]:
    return {between(a, b) for a, b in zip(path, path[1:])}


def test_the_squares_are_where_the_checkers_package_draws_them():
    """Square n's place on the diagrams is the place of checkers' own text diagram (docs/checkers.md:
    Black at the top, 1 in the top row, 29 in White's left corner), and it is dark."""
    for square in range(1, 33):
        lines = str(Board(f"B:W:BK{square}")).splitlines()[:8]
        row = next(i for i, line in enumerate(lines) if "B" in line)
        assert cell(square) == (row, lines[row].index("B") // 2), square
        assert sum(cell(square)) % 2 == 1                      # a dark square
    assert name(1) == "b8" and name(4) == "h8" and name(29) == "a1" and name(32) == "g1"


def test_the_numbering_diagram():
    diagram = DIAGRAMS["numbers"]
    assert diagram.numbers and not placed(diagram.fen)
    root = ET.fromstring(checkers_svg(diagram, "x"))
    texts = [t for t in root.iter(f"{SVG}text")]
    assert sorted(int(t.text) for t in texts) == list(range(1, 33))
    for text in texts:
        row, col = cell(int(text.text))
        assert (float(text.get("x")), float(text.get("y"))) == (col * 10 + 5, row * 10 + 6.6)


def test_the_starting_position():
    board = board_of(DIAGRAMS["start"])
    assert DIAGRAMS["start"].fen == START_FEN and board.fen() == Board().fen()
    assert board.turn == BLACK
    assert sorted(placed(board.fen())) == list(range(1, 13)) + list(range(21, 33))
    assert {placed(board.fen())[s] for s in range(1, 13)} == {"b"}


@pytest.mark.parametrize("key", ["man", "king"])
def test_a_pieces_dots_are_exactly_its_legal_moves(key):
    diagram = DIAGRAMS[key]
    board = board_of(diagram)
    (origin,) = diagram.origins
    assert placed(diagram.fen)[origin] == ("b" if key == "man" else "B")
    moves = paths(board, diagram.origins)
    assert all(len(path) == 2 and not taken_path(path) for path in moves)
    assert {path[1] for path in moves} == set(diagram.dots)
    for square in diagram.dots:                                # and the caption names them
        assert re.search(rf"\b{square}\b", diagram.caption.msgid)
    if key == "man":
        assert all(cell(square)[0] == cell(origin)[0] + 1 for square in diagram.dots)   # forward only
    else:
        assert {cell(square)[0] for square in diagram.dots} == {cell(origin)[0] - 1, cell(origin)[0] + 1}


def taken_path(path) -> bool:
    (r1, _), (r2, _) = cell(path[0]), cell(path[1])
    return abs(r1 - r2) == 2


@pytest.mark.parametrize("key", ["jump", "multi-jump", "compulsory", "choice", "crowning"])
def test_a_jumps_arrows_and_rings_are_exactly_the_legal_jumps(key):
    diagram = DIAGRAMS[key]
    board = board_of(diagram)
    legal = paths(board)
    # the arrows: every legal move of the side to move, each jump's path square by square
    assert sorted(legal) == sorted(diagram.paths)
    assert all(taken_path(path) for path in legal)             # only jumps: jumping is compulsory
    # the rings: the pieces the jumps take, each the opponent's
    assert set(diagram.rings) == set().union(*(taken(path) for path in diagram.paths))
    assert all(placed(diagram.fen)[square] in "wW" for square in diagram.rings)
    # the moves the caption writes are the board's notation of those paths
    written = {board.notation(move) for move in board.legal_moves()}
    assert set(diagram.caption.args.values()) <= written
    assert set(diagram.caption.args.values()) == written


def test_the_multi_jump_changes_direction():
    (path,) = DIAGRAMS["multi-jump"].paths
    assert len(path) == 3
    (r0, c0), (r1, c1), (r2, c2) = (cell(s) for s in path)
    assert (c1 - c0) * (c2 - c1) < 0                            # left, then right (or the other way)


def test_the_compulsory_jump_crosses_the_plain_moves_it_forbids():
    """The crosses are exactly the plain moves to empty squares that Black's men would have if
    there were no jump."""
    diagram = DIAGRAMS["compulsory"]
    board = board_of(diagram)
    assert [board.notation(m) for m in board.legal_moves()] == [diagram.caption.args["move"]]
    (ringed,) = diagram.rings
    white = ",".join(str(s) for s, p in placed(diagram.fen).items() if p == "w" and s != ringed)
    black = ",".join(str(s) for s, p in placed(diagram.fen).items() if p == "b")
    free = Board(f"B:W{white}:B{black}")
    plain = paths(free, diagram.origins)
    assert all(not taken_path(path) for path in plain)
    # (the square of the ringed man itself is no plain move: it is taken)
    assert {path[1] for path in plain if path[1] not in placed(diagram.fen)} == set(diagram.crosses)


def test_choosing_a_jump_freely():
    diagram = DIAGRAMS["choice"]
    lengths = sorted(len(path) for path in diagram.paths)
    assert lengths == [2, 3]                                    # one man or two: both legal


def test_crowning_ends_the_move():
    before, after = DIAGRAMS["crowning"], DIAGRAMS["crowned"]
    board = board_of(before)
    (path,) = before.paths
    assert cell(path[-1])[0] == 7                               # the far row for Black
    board.push_notation(before.caption.args["move"])
    assert board.fen() == Board(after.fen).fen() and board.turn == WHITE
    assert placed(board.fen())[path[-1]] == "B"                 # crowned
    assert after.caption.args["move"] == before.caption.args["move"]
    # a king there could have jumped on: the move ended only because the man was crowned
    king = Board(after.fen.replace("W:", "B:", 1))
    assert any(taken_path(p) and p[0] == path[-1] for p in paths(king))


def test_the_blocked_side_has_lost():
    diagram = DIAGRAMS["blocked"]
    board = board_of(diagram)
    assert board.turn == BLACK and board.legal_moves() == []
    assert board.outcome().winner == WHITE and board.outcome().reason == "no legal move"
    assert [p for p in placed(diagram.fen).values() if p in "bB"]          # pieces left, all blocked


def test_the_notation_examples():
    note = next(m for m in messages() if "{step}" in m.msgid)
    start = Board()
    assert note.args["step"] in start.legal_notation()
    jump = Board("B:W19,27:B15")
    assert jump.legal_notation() == [note.args["jump"]]
    assert jump.notation(jump.parse_move(note.args["short"])) == note.args["jump"]
    fen = next(m for m in messages() if "{fen}" in m.msgid)
    assert fen.args["fen"] == START_FEN == Board().fen()


# ---- drawing them ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(DIAGRAMS))
def test_the_svg_of_a_diagram(key):
    diagram = DIAGRAMS[key]
    root = ET.fromstring(checkers_svg(diagram, "a label & more"))
    assert root.get("role") == "img" and root.get("aria-label") == "a label & more"
    assert "checkers" in root.get("class").split()
    rects = root.findall(f"{SVG}rect")
    assert len(rects) == 64
    dark = {(float(r.get("x")), float(r.get("y"))) for r in rects if r.get("class") == "dark"}
    assert dark == {(cell(s)[1] * 10.0, cell(s)[0] * 10.0) for s in range(1, 33)}
    assert (0.0, 70.0) in dark                                  # a dark square in White's left corner
    assert (70.0, 0.0) in dark                                  # and in Black's
    texts = sorted(int(t.text) for t in root.iter(f"{SVG}text"))
    assert texts == list(range(1, 33))                          # every dark square's number
    pieces = root.findall(f"{SVG}g[@class='piece']") + root.findall(f"{SVG}g[@class='piece king']")
    assert len(pieces) == len(placed(diagram.fen))
    kings = [p for p in placed(diagram.fen).values() if p in "BW"]
    assert len(root.findall(f"{SVG}g[@class='piece king']")) == len(kings)
    assert len(list(root.iter(f"{SVG}path"))) == len(kings) + len(diagram.crosses)   # crowns and crosses
    circles = list(root.iter(f"{SVG}circle"))
    assert len([c for c in circles if c.get("class") == "dot"]) == len(diagram.dots)
    assert len([c for c in circles if c.get("class") == "ring"]) == len(diagram.rings)
    men = [c for c in circles if (c.get("class") or "").startswith("man ")]
    assert len(men) == len(placed(diagram.fen)) + len(kings)   # a king is two stacked
    assert len(root.findall(f"{SVG}polygon")) == sum(len(p) - 1 for p in diagram.paths)
    for circle, square in zip([c for c in circles if c.get("class") == "dot"], diagram.dots):
        row, col = cell(square)
        assert (float(circle.get("cx")), float(circle.get("cy"))) == (col * 10 + 5, row * 10 + 5)


def test_the_style_sheet_has_the_checkers_boards():
    from pathlib import Path
    css = (Path(checkers_rules.__file__).resolve().parent / "static" / "rules.css").read_text(encoding="utf-8")
    for selector in ("svg.board.checkers .dark", "svg.board.checkers .man.black", "svg.board.checkers .crown",
                     ".game-checkers .diagram"):
        assert selector in css, selector


# ---- served --------------------------------------------------------------------------------------------


def test_the_server_serves_each_games_page_in_each_language():
    from tests.test_web_server import running

    async def scenario():
        async with running() as (client, _):
            for code in CODES:
                response = await client.get(f"/rules?game=checkers&lang={code}")
                text = await response.text()
                assert response.status == 200 and text == checkers_rules_page(code)
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]
                response = await client.get(f"/rules?lang={code}")
                assert await response.text() == rules_page(code)
            response = await client.get("/rules?game=checkers", headers={"Accept-Language": "gu"})
            assert await response.text() == checkers_rules_page("gu")
            response = await client.get("/rules?game=go&lang=hi")          # an unknown game: chess
            assert await response.text() == rules_page("hi")

    asyncio.run(scenario())


def test_msg_is_the_only_text():
    """Every block of every section is a message, a sub-heading, a list of messages or a diagram."""
    for section in checkers_rules.SECTIONS:
        assert isinstance(section.heading, Msg)
        for block in section.blocks:
            items = block if isinstance(block, (list, tuple)) else [block]
            for item in items:
                assert isinstance(item, (Msg, CheckersDiagram, checkers_rules.Sub)), item
