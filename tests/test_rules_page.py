"""The "How to play" page (jitfish/web/rules.py): a well-formed page in each language, every text a
message of the catalogues, and every diagram's position checked with python-chess."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import chess
import pytest

import jitfish.i18n as i18n
from jitfish.i18n import LANGUAGES, LOCALE_DIR, Catalog, Moves, Msg, Speaker
from jitfish.web import rules
from jitfish.web.rules import DIAGRAMS, Diagram, board_svg, diagrams, messages, pieces, rules_page
from tests.rules_pages import (SVG, Page, check_all_marked, check_content_security_policy,
                               check_diagrams_named, check_extracted, check_in_catalogues,
                               check_only_whole_messages, check_said, check_translators_size, check_well_formed,
                               marking_catalog)

CODES = list(LANGUAGES)                    # en, kn, ta, gu, hi


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {code: rules_page(code) for code in CODES}


# ---- the page -------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES)
def test_each_language_is_a_well_formed_page(pages, code):
    """Well formed, titled, the language switcher, the link to the checkers page in the same
    language (tests/test_checkers_rules_page.py: and back), the table of contents."""
    check_well_formed(pages[code], code, game="chess", other="checkers", title=rules.TITLE,
                      other_game=rules.OTHER_GAME)


@pytest.mark.parametrize("code", CODES)
def test_the_page_keeps_to_its_content_security_policy(pages, code):
    """`default-src 'self'; img-src 'self' data:`: no script, no inline style, nothing from elsewhere."""
    check_content_security_policy(pages[code])


@pytest.mark.parametrize("code", CODES)
def test_every_diagram_is_on_the_page_with_its_caption_as_its_name(pages, code):
    check_diagrams_named(Page(pages[code]), code, diagrams(), DIAGRAMS)
    assert 10 <= len(DIAGRAMS) <= 14


def test_an_unknown_language_gives_english():
    english = rules_page("en")
    assert rules_page("xx") == english
    assert rules_page("") == english
    assert '<html lang="en"' in english


@pytest.mark.parametrize("code", CODES)
def test_every_text_on_the_page_is_one_whole_message(pages, code):
    """Each text a person reads is a message said whole (or a language's own name; a piece's sign
    is `translate="no"`): nothing is put together from pieces, nothing is left out of the
    catalogues; and every message of the page is on it."""
    check_only_whole_messages(Page(pages[code]), code, messages())


def test_messages_are_a_translators_size():
    check_translators_size(messages(), 50)


def test_moves_are_said_in_the_readers_notation():
    letters = rules_page("en", figurines=False)
    figures = rules_page("en", figurines=True)
    for san, figurine in (("Nf3", "♘f3"), ("Bxe5", "♗xe5"), ("Rd8#", "♖d8#"), ("e8=Q", "e8=♕")):
        assert san in letters and figurine not in letters
        assert figurine in figures and san not in figures
    for text in ("O-O", "O-O-O", "exd6", "e4"):                  # no piece letter: the same
        assert text in letters and text in figures
    # the table of signs follows the notation too
    assert '<span class="sign" translate="no">N</span>' in letters
    assert '<span class="sign" translate="no">♘</span>' in figures
    # a language with figurines by default shows them unless told otherwise
    assert "♘f3" in rules_page("kn") and "Nf3" in rules_page("kn", figurines=False)
    # every move of the text is a Moves value, never written into a message
    for message in messages():
        assert not re.search(r"\b([KQRBN][a-h]?x?[a-h][1-8]|O-O)", message.msgid), message.msgid
        for value in message.args.values():
            assert isinstance(value, Moves)


# ---- the catalogues --------------------------------------------------------------------------------


def test_every_message_is_extracted_into_the_template():
    """The extractor finds each message of the page (plain literals in `Msg` calls), and the
    template in the repository has them (`python -m tools.i18n.extract` was run)."""
    stored = check_extracted(messages(), ["jitfish/web/rules.py"])
    # the notes for the translators come along
    en_passant = next(m for m in messages() if "capturing en passant" in m.msgid)
    assert any("chess term" in comment or "chess rule" in comment
               for comment in stored.get(en_passant.msgid).auto_comments)


def _translated(code: str) -> list[Msg]:
    """The messages of the page that a language's catalogue translates."""
    cat = i18n.catalog(code)
    return [m for m in messages() if (m.context, m.msgid) in cat.messages]


@pytest.mark.parametrize("code", [c for c in CODES if c != "en"])
def test_a_translated_catalogue_translates_the_page(pages, code, monkeypatch):
    done = _translated(code)
    if not done:
        pytest.skip(f"{code}.po translates none of the page's messages yet")
    check_said(Page(pages[code]), code, done)
    # the same page with an empty catalogue (English, in the language's notation) is another page
    monkeypatch.setattr(i18n, "catalog", lambda code: Catalog(code))
    assert rules_page(code) != pages[code]


def test_a_catalogue_changes_every_text_of_the_page(monkeypatch):
    """With a catalogue that translates every message, no English is left on the page (the
    diagrams' names included), a translation's placeholder still shows the move in the reader's
    notation, and every translation is escaped (a translation is text, never markup)."""
    fake = marking_catalog(messages())
    monkeypatch.setattr(i18n, "catalog", lambda code: fake)
    page_text = rules_page("ta")
    page = check_all_marked(page_text)
    for diagram in diagrams():
        assert page.find("svg", **{"aria-label": Speaker("ta").say(diagram.caption)})
    assert "[ta] &lt;b&gt;&amp;amp; Checkmate. After ♖d8#" in page_text
    assert "<title>[ta] &lt;b&gt;&amp;amp; Jitfish — How to play&lt;/b&gt;</title>" in page_text


def test_the_po_files_have_the_page(pages):
    """Each language's catalogue has an entry (translated or not) for every message of the page."""
    for code in CODES[1:]:
        path = LOCALE_DIR / f"{code}.po"
        if not path.exists():
            pytest.skip(f"no {path.name}")
    check_in_catalogues(messages(), CODES[1:])


# ---- the diagrams ------------------------------------------------------------------------------------


def board_of(diagram: Diagram) -> chess.Board:
    board = chess.Board(diagram.fen)
    assert board.board_fen() == diagram.placement
    return board


def squares(names) -> set[int]:
    return {chess.parse_square(name) for name in names}


def neighbours(square: int) -> set[int]:
    return set(chess.SquareSet(chess.BB_KING_ATTACKS[square]))


def test_each_diagram_is_a_position_python_chess_reads():
    for diagram in diagrams():
        board = board_of(diagram)
        marked = (*diagram.dots, *diagram.rings, *diagram.crosses, *diagram.highlights, *diagram.origins,
                  *(s for arrow in diagram.arrows for s in arrow))
        for name in marked:
            chess.parse_square(name)
        # the positions of a game have both kings and nothing impossible; the pieces' diagrams
        # show a piece on its own
        if not diagram.origins:
            assert board.is_valid(), (diagram.key, board.status())


def test_the_starting_position():
    board = board_of(DIAGRAMS["start"])
    assert board.fen() == chess.STARTING_FEN
    # each queen on her own colour (the squares' colours: test_the_svg_of_a_diagram)
    assert board.piece_at(chess.D1) == chess.Piece(chess.QUEEN, chess.WHITE)
    assert board.piece_at(chess.D8) == chess.Piece(chess.QUEEN, chess.BLACK)


@pytest.mark.parametrize("key", ["king", "queen", "rook", "bishop", "knight", "pawn"])
def test_a_pieces_dots_are_exactly_its_legal_moves(key):
    diagram = DIAGRAMS[key]
    board = board_of(diagram)
    assert diagram.origins
    piece_type = chess.PIECE_SYMBOLS.index(key[0] if key != "knight" else "n")
    moves = [move for move in board.legal_moves if move.from_square in squares(diagram.origins)]
    for origin in diagram.origins:
        assert board.piece_at(chess.parse_square(origin)) == chess.Piece(piece_type, chess.WHITE)
    targets = {move.to_square for move in moves}
    captures = {move.to_square for move in moves if board.is_capture(move)}
    assert targets == squares(diagram.dots) | squares(diagram.rings)
    assert captures == squares(diagram.rings)
    assert not squares(diagram.dots) & squares(diagram.rings)
    if key == "king":
        # the crosses: the king's neighbours it may not go to, each attacked by Black
        king = chess.parse_square(diagram.origins[0])
        assert squares(diagram.crosses) == neighbours(king) - targets
        assert all(board.is_attacked_by(chess.BLACK, square) for square in squares(diagram.crosses))
    else:
        assert not diagram.crosses
    if key == "pawn":
        # e2 has its two-square first move; b4 is blocked
        assert chess.Move.from_uci("e2e4") in moves
        assert not [move for move in moves if move.from_square == chess.B4]
    if key == "knight":
        # it jumps: most squares around it are taken, and it still reaches all eight
        assert len([square for square in neighbours(chess.D4) if board.piece_at(square)]) >= 6
        assert len(targets) == 8


def test_the_checkmate():
    diagram = DIAGRAMS["checkmate"]
    board = board_of(diagram)
    assert board.is_checkmate()
    start, end = diagram.arrows[0]
    assert squares(diagram.highlights) == {chess.parse_square(start), chess.parse_square(end)}
    # the move that gave it: the piece back on its square, White to move
    before = board.copy()
    before.set_piece_at(chess.parse_square(start), before.remove_piece_at(chess.parse_square(end)))
    before.turn = chess.WHITE
    move = chess.Move(chess.parse_square(start), chess.parse_square(end))
    assert move in before.legal_moves and not before.is_check()
    assert before.san(move) == diagram.caption.args["move"]
    before.push(move)
    assert before.is_checkmate()


def test_the_stalemate():
    diagram = DIAGRAMS["stalemate"]
    board = board_of(diagram)
    assert board.is_stalemate() and not board.is_check()
    king = board.king(board.turn)
    assert squares(diagram.crosses) == neighbours(king)
    assert all(board.is_attacked_by(not board.turn, square) for square in neighbours(king))


def test_castling():
    before, after = DIAGRAMS["castling-before"], DIAGRAMS["castling-after"]
    board = board_of(before)
    move = board.parse_san("O-O")
    assert board.is_castling(move) and board.is_kingside_castling(move)
    # the arrows: the king two squares towards the rook, the rook to the square the king crossed
    king_move = (chess.square_name(move.from_square), chess.square_name(move.to_square))
    assert before.arrows[0] == king_move == ("e1", "g1")
    assert before.arrows[1] == ("h1", "f1")
    assert after.caption.args["move"] == board.san(move) == "O-O"
    board.push(move)
    assert board.fen() == after.fen
    assert board.piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)
    assert board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert squares(after.highlights) == {chess.E1, chess.F1, chess.G1, chess.H1}


def test_castling_not_allowed_through_an_attacked_square():
    diagram = DIAGRAMS["castling-not-allowed"]
    board = board_of(diagram)
    assert board.has_kingside_castling_rights(chess.WHITE) and not board.is_check()
    assert not any(board.is_castling(move) for move in board.legal_moves)
    assert diagram.crosses == ("f1",) and board.is_attacked_by(chess.BLACK, chess.F1)
    (start, end), = diagram.arrows
    attacker = chess.parse_square(start)
    assert board.piece_at(attacker) == chess.Piece(chess.BISHOP, chess.BLACK)
    assert chess.F1 in board.attacks(attacker) and end == "f1"
    # the attacked square is the only reason: without the bishop White may castle
    board.remove_piece_at(attacker)
    assert board.is_legal(board.parse_san("O-O"))


def test_en_passant():
    diagram = DIAGRAMS["en-passant"]
    board = board_of(diagram)
    (start, end), = diagram.arrows
    move = chess.Move(chess.parse_square(start), chess.parse_square(end))
    assert move in board.legal_moves and board.is_en_passant(move)
    assert board.san(move) == diagram.caption.args["move"] == "exd6"
    # Black's last move was the two-square advance d7-d5, as the highlights show
    assert diagram.highlights == ("d7", "d5") and board.ep_square == chess.D6
    before = board.copy()
    before.remove_piece_at(chess.D5)
    before.set_piece_at(chess.D7, chess.Piece(chess.PAWN, chess.BLACK))
    before.turn, before.ep_square, before.fullmove_number = chess.BLACK, None, board.fullmove_number - 1
    before.push(chess.Move.from_uci("d7d5"))
    assert before.fen() == board.fen()
    # the captured pawn is the ringed one, not on the square the capturing pawn goes to
    assert diagram.rings == ("d5",)
    board.push(move)
    assert board.piece_at(chess.D5) is None
    assert board.piece_at(chess.D6) == chess.Piece(chess.PAWN, chess.WHITE)
    # and only on the very next move
    later = chess.Board(diagram.fen)
    later.push_san("Kd2")
    later.push_san("Kd7")
    assert not any(later.is_en_passant(m) for m in later.legal_moves)


def test_promotion():
    diagram = DIAGRAMS["promotion"]
    board = board_of(diagram)
    (start, end), = diagram.arrows
    moves = [m for m in board.legal_moves
             if m.from_square == chess.parse_square(start) and m.to_square == chess.parse_square(end)]
    assert {m.promotion for m in moves} == {chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT}
    queen = chess.Move(chess.E7, chess.E8, promotion=chess.QUEEN)
    assert board.san(queen).rstrip("+") == diagram.caption.args["move"] == "e8=Q"


# ---- drawing them ---------------------------------------------------------------------------------


def test_pieces_reads_a_placement():
    found = pieces(chess.STARTING_BOARD_FEN)
    assert len(found) == 32
    assert found["a1"] == "wR" and found["e1"] == "wK" and found["d8"] == "bQ" and found["h7"] == "bP"
    for bad in ("8/8/8", "9/8/8/8/8/8/8/8", "7/8/8/8/8/8/8/8", "x7/8/8/8/8/8/8/8"):
        with pytest.raises(ValueError):
            pieces(bad)


@pytest.mark.parametrize("key", list(DIAGRAMS))
def test_the_svg_of_a_diagram(key):
    diagram = DIAGRAMS[key]
    root = ET.fromstring(board_svg(diagram, "a label & more"))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-label") == "a label & more"
    rects = root.findall(f"{SVG}rect")
    board = [r for r in rects if r.get("class") in ("light", "dark")]
    assert len(board) == 64
    by_place = {(float(r.get("x")), float(r.get("y"))): r.get("class") for r in board}
    assert by_place[(0, 70)] == "dark"        # a1
    assert by_place[(70, 70)] == "light"      # h1: the light square on White's right
    assert by_place[(0, 0)] == "light"        # a8: on Black's right
    assert len([r for r in rects if r.get("class") == "hl"]) == len(diagram.highlights)
    images = root.findall(f"{SVG}image")
    placed = {(float(i.get("x")), float(i.get("y"))): i.get("href") for i in images}
    for square, name in pieces(diagram.placement).items():
        file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
        assert placed[(file * 10, (7 - rank) * 10)] == f"static/pieces/{name}.svg"
    assert len(images) == len(pieces(diagram.placement))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert sorted(texts) == sorted(list("abcdefgh") + [str(n) for n in range(1, 9)])
    circles = root.findall(f"{SVG}circle")
    assert len([c for c in circles if c.get("class") == "dot"]) == len(diagram.dots)
    assert len([c for c in circles if c.get("class") == "ring"]) == len(diagram.rings)
    assert len(root.findall(f"{SVG}path")) == len(diagram.crosses)
    assert len(root.findall(f"{SVG}polygon")) == len(diagram.arrows)
    # each dot at the centre of its square
    for circle, square in zip([c for c in circles if c.get("class") == "dot"], diagram.dots):
        file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
        assert (float(circle.get("cx")), float(circle.get("cy"))) == (file * 10 + 5, (7 - rank) * 10 + 5)


def test_the_piece_images_exist():
    from pathlib import Path
    static = Path(rules.__file__).resolve().parent / "static"
    for name in {n for d in diagrams() for n in pieces(d.placement).values()} | {f"w{c}" for c in "KQRBNP"}:
        assert (static / "pieces" / f"{name}.svg").is_file(), name
    assert (static / "rules.css").is_file()
    css = (static / "rules.css").read_text(encoding="utf-8")
    assert '"Jitfish Sans"' in css and "prefers-color-scheme: dark" in css and "@media print" in css
