"""Checkers in `jitfish web` in a real browser: Debian's Chromium driven by Playwright, against the
real `jitfish web` command (the fixtures of tests/test_web_browser.py). Games are played by clicks
(and drags) on the documented hooks: `#game`, `#opponent`, `#color`, `#level`, `#clock`,
`#new-game`, and the checkers board's `[data-square="1".."32"]` holding `[data-piece]` (b, w men;
B, W kings). Every robot reply is checked with the checkers package (checkers.board.Board), and
the board shown against it. Screenshots at desktop and phone sizes go to
tests/artifacts/web/checkers-*.png.

Skips without /usr/bin/chromium (or the playwright package), except under CI, as the chess ones.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from checkers.board import Board
from tests.test_web_browser import (ARTIFACTS, CHROMIUM, DESKTOP, MISSING, PHONE, ROBOT_WAIT_MS,  # noqa: F401
                                    browser, moves_of, open_form, open_page, server, server_url,
                                    submit_new_game, wait_moves)

try:
    from playwright.sync_api import expect
except ImportError:                 # reported by the skip (or failure under CI) of tests/test_web_browser.py
    expect = None

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

BOARD = "#checkers-board"
START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
MUST_JUMP = "You must jump: a capture is compulsory"


def square(number: int) -> str:
    return f"{BOARD} [data-square='{number}']"


def shown_board(page) -> dict[int, str]:
    """The pieces on the page's checkers board: square -> b, w, B or W."""
    pieces = page.locator(f"{BOARD} [data-square] > [data-piece]").evaluate_all(
        "els => els.map(el => [el.parentElement.dataset.square, el.dataset.piece])")
    return {int(number): piece for number, piece in pieces}


def pieces_of(board: Board) -> dict[int, str]:
    setup = board.setup()
    pieces = {}
    for index in range(32):
        bit = 1 << index
        if setup.black & bit:
            pieces[index + 1] = "B" if setup.kings & bit else "b"
        elif setup.white & bit:
            pieces[index + 1] = "W" if setup.kings & bit else "w"
    return pieces


def replay(start_fen: str, moves: list[str]) -> Board:
    """The game of the move list from its start, every move checked legal by the checkers package
    (push_notation raises on an illegal or unfinished one)."""
    board = Board(start_fen)
    for text in moves:
        board.push_notation(text)
    return board


def expect_board(page, board: Board) -> None:
    """The page shows the position of `board` (once it has come)."""
    wanted = pieces_of(board)
    for number in range(1, 33):
        piece = wanted.get(number)
        cell = page.locator(f"{square(number)} > [data-piece]")
        if piece:
            expect(cell).to_have_attribute("data-piece", piece)
        else:
            expect(cell).to_have_count(0)


def start_checkers(page, opponent: str, *, position: str = "", color: str = "black", level: str = "1",
                   pause: bool = False, clock: str = "none", takeback: bool = True) -> None:
    """Fill the new-game form for checkers through its controls and start; wait for the new game
    and its position."""
    submit_new_game(page, opponent, game="checkers", position=position, clock=clock, level=level, pause=pause,
                    color=color, takeback=takeback)
    expect(page.locator(BOARD)).to_be_visible()
    if not (opponent == "robot" and color == "white"):       # else the robot may have moved already
        wait_moves(page, 0)
        expect_board(page, Board(position or START))


def click_path(page, path: list[int]) -> None:
    """A move by clicks: the piece, then each landing square while the piece is still in hand
    (the page sends the move once the squares clicked leave only one legal path)."""
    if page.locator(f"{square(path[0])}.selected").count() == 0:      # a second click would let go of it
        page.click(square(path[0]))
    for landing in path[1:]:
        if page.locator(f"{BOARD} .square.selected").count() == 0:
            break
        page.click(square(landing))


def drag(page, source: int, target: int) -> None:
    a = page.locator(square(source)).bounding_box()
    b = page.locator(square(target)).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + 10, b["y"] + 10, steps=5)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=3)
    page.mouse.up()


def reload_page(page) -> None:
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-game", re.compile(r"\d"))
    expect(page.locator("#level option")).not_to_have_count(0)


def settle(page) -> None:
    """The slides of the last moves over (a piece on its way is not on its square yet)."""
    for _ in range(50):
        if page.evaluate("document.getAnimations().filter(a => a.playState === 'running' && "
                         "!(a instanceof CSSAnimation)).length") == 0:
            return
        page.wait_for_timeout(50)


def first_square(page) -> str:
    """The first numbered square in the board's order (top left to bottom right): 1 with White
    at the bottom, 32 with Black."""
    return page.locator(f"{BOARD} [data-square]").first.get_attribute("data-square")


def test_a_game_against_the_robot_played_by_clicks_as_black(open_page):
    """(a), (h), (i): level 1 without the pause, played by clicks as Black; every reply of the
    robot legal and the board shown the game's; Flip; the PDN saved has the moves."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched = open_page()
    page = watched.page
    start_checkers(page, "robot", color="black", level="1")
    assert first_square(page) == "32"                         # Black, the person, at the bottom
    assert page.inner_text("#player-bottom .name") == "You"
    assert page.inner_text("#player-top .name") == "Jitfish (level 1)"
    assert page.locator("#review").is_hidden() and page.locator("#analysis").is_hidden()
    expect(page.locator("#pgn-download")).to_have_text("Save PDN")
    page.click("#hint")                                       # the hint's path drawn on the board
    hint = page.locator(f"{BOARD} polyline.hint-arrow")
    expect(hint).to_have_count(1, timeout=ROBOT_WAIT_MS)
    hinted = [int(n) for n in hint.get_attribute("data-path").split("-")]
    assert hinted in [Board(START).squares(m) for m in Board(START).legal_moves()]
    assert page.locator(f"{BOARD} .square.hint-square").count() == len(hinted)
    expect(page.locator("#status-note")).to_have_text(re.compile(r"^Hint: \d+-\d+$"))
    played = 0
    board = Board(START)
    while played < 6 and board.outcome() is None:
        move = board.legal_moves()[0]
        path = board.squares(move)
        count = len(moves_of(page))
        click_path(page, path)
        expect(page.locator("#moves .move").nth(count + 1)).to_be_attached(timeout=ROBOT_WAIT_MS)
        moves = moves_of(page)
        board = replay(START, moves)                          # the robot's replies are legal
        expect_board(page, board)
        assert page.locator(f"{BOARD} polyline.hint-arrow").count() == 0     # gone with the move
        played += 1
        if played == 2:
            page.click(square(board.squares(board.legal_moves()[0])[0]))     # its landing squares shown
            settle(page)
            page.screenshot(path=str(ARTIFACTS / "checkers-desktop.png"))
    moves = moves_of(page)
    assert len(moves) >= 12 and all(re.fullmatch(r"\d+(?:[-x]\d+)+", text) for text in moves)
    numbers = page.locator("#moves .num").all_inner_texts()
    assert numbers[:2] == ["1.", "2."]                       # Black's move first in each pair
    counts = page.locator("#material-black").get_attribute("aria-label") or page.inner_text("#material-black")
    assert re.search(r"\d", counts)
    page.click("#flip")
    assert first_square(page) == "1"
    page.click("#flip")
    assert first_square(page) == "32"
    with page.expect_download() as download:
        page.click("#pgn-download")
    assert download.value.suggested_filename.endswith(".pdn")
    pdn = Path(download.value.path()).read_text()
    assert '[GameType "21' in pdn and '[Result "*"]' in pdn
    assert re.findall(r"\d+(?:[-x]\d+)+", pdn.split("\n\n", 1)[-1]) == moves
    assert watched.problems == [], watched.problems


def test_a_compulsory_jump_refuses_a_plain_move_and_says_why(open_page):
    """(b): Black may jump 14x23; 10-15 and 14-17 are plain moves, refused: nothing moves, the
    word shows on the board and under the status, the pieces that can jump are marked."""
    watched = open_page()
    page = watched.page
    fen = "B:W18,30,31:B10,14"
    start_checkers(page, "human", position=fen)
    expect(page.locator("#status-text")).to_have_text("Black to move: a jump is compulsory")
    before = shown_board(page)
    page.click(square(10))                                    # a piece that cannot jump
    refusal = page.locator("#checkers-refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_have_text(MUST_JUMP)
    assert refusal.get_attribute("role") == "alert"
    expect(page.locator("#status-note")).to_have_text(MUST_JUMP)
    expect(page.locator(f"{BOARD} .square.must-jump")).to_have_count(1)
    assert page.locator(f"{square(14)}.must-jump").count() == 1
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "checkers-refusal.png"))
    page.click(square(15))
    page.click(square(14))                                    # the jumping piece ...
    page.click(square(17))                                    # ... to a plain square
    expect(refusal).to_have_text(MUST_JUMP)
    assert shown_board(page) == before and moves_of(page) == []
    expect(refusal).to_be_hidden(timeout=6000)                # the word goes after a few seconds
    page.fill("#move-input", "10-15")                         # typed: the server says the same
    page.press("#move-input", "Enter")
    expect(page.locator("#status")).to_have_class("error")
    assert moves_of(page) == []
    click_path(page, [14, 23])
    assert wait_moves(page, 1) == ["14x23"]
    expect_board(page, replay(fen, ["14x23"]))
    assert watched.problems == [], watched.problems


def test_a_multi_jump_by_its_landings_escape_and_the_end_square(open_page):
    """(c): 9x18 then 25 or 27: after the first landing the piece shows on 18 with both landings
    offered; Escape puts it back; clicking through 9, 18, 27 plays 9x18x27; after a take-back a
    click on the end square 25 plays the one path that ends there."""
    watched = open_page()
    page = watched.page
    fen = "B:W14,22,23,32:B4,9"
    start_checkers(page, "human", position=fen)
    page.click(square(9))
    expect(page.locator(f"{BOARD} .square.target")).to_have_count(1)          # 18, the only landing
    page.click(square(18))
    expect(page.locator(f"{square(18)} > [data-piece='b']")).to_have_count(1)  # shown there, for now
    assert page.locator(f"{square(9)} > [data-piece]").count() == 0
    assert page.locator(f"{square(14)} > [data-piece].jumped").count() == 1
    targets = page.locator(f"{BOARD} .square.target").evaluate_all("els => els.map(el => el.dataset.square)")
    assert sorted(targets, key=int) == ["25", "27"]
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "checkers-multijump.png"))
    assert moves_of(page) == []
    page.keyboard.press("Escape")                             # the half-made jump let go of
    expect(page.locator(f"{square(9)} > [data-piece='b']")).to_have_count(1)
    assert page.locator(f"{square(18)} > [data-piece]").count() == 0
    click_path(page, [9, 18, 27])
    assert wait_moves(page, 1) == ["9x18x27"]
    expect_board(page, replay(fen, ["9x18x27"]))
    page.click("#takeback")
    wait_moves(page, 0)
    page.click(square(9))
    page.click(square(25))                                    # the end square: one path ends there
    assert wait_moves(page, 1) == ["9x18x25"]
    expect_board(page, replay(fen, ["9x18x25"]))
    assert watched.problems == [], watched.problems


def test_drag_a_piece_and_crown_a_king(open_page):
    """(d), (e): a man dragged; a man reaching the far row is crowned (data-piece B, a crown
    drawn), between two people at the screen with Black at the bottom."""
    watched = open_page()
    page = watched.page
    fen = "B:W9,21:B11,26"
    start_checkers(page, "human", position=fen)
    assert first_square(page) == "32"                         # between people Black at the bottom
    drag(page, 11, 15)
    assert wait_moves(page, 1) == ["11-15"]
    drag(page, 21, 17)                                        # White's turn, dragged too
    assert wait_moves(page, 2) == ["11-15", "21-17"]
    drag(page, 15, 23)                                        # a drag to a square out of reach snaps back
    page.wait_for_timeout(300)
    assert moves_of(page) == ["11-15", "21-17"]
    expect(page.locator(f"{square(15)} > [data-piece='b']")).to_have_count(1)
    click_path(page, [26, 30])
    assert wait_moves(page, 3) == ["11-15", "21-17", "26-30"]
    king = page.locator(f"{square(30)} > [data-piece='B']")
    expect(king).to_have_count(1)
    assert king.locator(".crown").count() == 1
    expect(page.locator("#material-black .count.kings")).to_have_count(1)
    settle(page)
    page.screenshot(path=str(ARTIFACTS / "checkers-king.png"))
    expect_board(page, replay(fen, ["11-15", "21-17", "26-30"]))
    assert watched.problems == [], watched.problems


def test_two_people_take_back_offer_and_claim_a_draw_and_resign(open_page):
    """(f): both sides by clicks; a take-back; a draw offered and declined; a threefold
    repetition claimed; the other game resigned by the side that chooses to."""
    watched = open_page()
    page = watched.page
    start_checkers(page, "human")
    for path in ([11, 15], [23, 19]):
        count = len(moves_of(page))
        click_path(page, path)
        wait_moves(page, count + 1)
    page.fill("#move-input", "9-14")                          # typed
    page.press("#move-input", "Enter")
    wait_moves(page, 3)
    page.click(f"{BOARD} .square.light >> nth=0")             # the board focused, then the keyboard
    page.keyboard.press("Enter")
    expect(page.locator(f"{BOARD}.keyboard")).to_have_count(1)
    for key in ("2", "2", "Enter", "1", "8", "Enter"):        # 22, then 18
        page.keyboard.press(key)
    wait_moves(page, 4)
    assert page.locator("#moves").inner_text().split() == ["1.", "11-15", "23-19", "2.", "9-14", "22-18"]
    page.locator("#moves .move").first.click()                # going through the game
    expect_board(page, replay(START, ["11-15"]))
    expect(page.locator("#status-text")).to_have_text("Viewing 1. 11-15 (» for the game now)")
    page.keyboard.press("End")
    expect_board(page, replay(START, ["11-15", "23-19", "9-14", "22-18"]))
    page.click("#takeback")
    wait_moves(page, 3)
    click_path(page, [24, 20])
    wait_moves(page, 4)
    page.click("#offer-draw")
    expect(page.locator("#offer")).to_be_visible()
    expect(page.locator("#offer-text")).to_have_text("White offers a draw. Black, do you accept?")
    page.click("#decline-draw")
    expect(page.locator("#offer")).to_be_hidden()
    page.click("#resign")
    expect(page.locator("#resign-choice")).to_be_visible()
    assert page.locator("#resign-white").is_visible() and page.locator("#resign-black").is_visible()
    page.click("#resign-white")
    page.wait_for_selector("#game-over[open]")
    assert "Black wins" in page.inner_text("#over-title") and "1–0" in page.inner_text("#over-title")
    expect(page.locator("#over-pgn")).to_have_text("Download PDN")
    assert page.locator("#over-review").is_hidden()
    page.click("#over-close")
    # Two kings going back and forth: the third time, the draw may be claimed.
    fen = "B:WK32:BK1"
    start_checkers(page, "human", position=fen)
    shuffle = [[1, 6], [32, 27], [6, 1], [27, 32]] * 2
    for index, path in enumerate(shuffle):
        click_path(page, path)
        wait_moves(page, index + 1)
    expect(page.locator("#claim-draw")).to_be_visible()
    expect(page.locator("#claim-draw")).to_have_text("Claim draw (repetition)")
    page.click("#claim-draw")
    page.wait_for_selector("#game-over[open]")
    assert "Draw" in page.inner_text("#over-title")
    replay(fen, moves_of(page))
    assert watched.problems == [], watched.problems


def test_a_reload_keeps_the_checkers_game_its_flip_and_form(open_page):
    """(g): the game in progress, its flip and the form's checkers settings survive a reload."""
    watched = open_page()
    page = watched.page
    start_checkers(page, "human", clock="5+0")
    click_path(page, [11, 15])
    wait_moves(page, 1)                                       # else 22 is clicked before it is White's turn
    click_path(page, [22, 18])
    wait_moves(page, 2)
    page.click("#flip")
    assert first_square(page) == "1"
    reload_page(page)
    assert wait_moves(page, 2) == ["11-15", "22-18"]
    expect(page.locator(BOARD)).to_be_visible()
    assert page.locator("#board").is_hidden()
    expect_board(page, replay(START, ["11-15", "22-18"]))
    assert first_square(page) == "1"                          # still flipped
    assert page.input_value("#game") == "checkers" and page.input_value("#clock") == "5+0"
    expect(page.locator("#clock-black")).to_have_text(re.compile(r"^\d:\d\d"))
    click_path(page, [15, 22])                                # and it goes on: a jump
    assert wait_moves(page, 3)[-1] == "15x22"
    open_form(page)
    if page.get_attribute("#position-box", "open") is None:
        page.click("#position-box summary")
    page.click("#use-position")                               # the position on the board, as a FEN
    assert page.input_value("#position") == replay(START, ["11-15", "22-18", "15x22"]).fen()
    assert watched.problems == [], watched.problems


def test_the_form_follows_the_game_and_remembers_each_level(open_page):
    """(k): #game switches the level menu between the chess Elos and the checkers levels 1-10,
    each remembered; Chess960 only for chess; colour words and position example for checkers;
    the stored settings have the game and the level; (j) the green and buff theme."""
    watched = open_page()
    page = watched.page
    page.select_option("#opponent", "robot")
    page.select_option("#level", "1600")
    assert page.locator("#chess960").is_visible()
    page.select_option("#game", "checkers")
    values = page.locator("#level option").evaluate_all("options => options.map(o => o.value)")
    assert values == [str(n) for n in range(1, 11)]
    assert page.locator("#level option").first.inner_text() == "Level 1 · Beginner"
    assert page.input_value("#level") == "3"                  # the server's default checkers level
    assert page.locator("#chess960").is_hidden()
    colours = page.locator("#color option").all_inner_texts()
    assert colours[0] == "Black (moves first)" and "White" in colours
    assert "PDN" in page.get_attribute("#position", "placeholder")
    page.select_option("#level", "5")
    stored = json.loads(page.evaluate("localStorage.getItem('jitfish.settings')"))
    assert stored["game"] == "checkers" and stored["level"] == 5 and stored["elo"] == 1600
    page.select_option("#game", "chess")
    assert page.input_value("#level") == "1600"               # the chess Elo back
    assert page.locator("#chess960").is_visible()
    assert page.locator("#color option").all_inner_texts()[:2] == ["White", "Black"]
    page.select_option("#game", "checkers")
    assert page.input_value("#level") == "5"
    reload_page(page)                                         # kept in the browser
    assert page.input_value("#game") == "checkers" and page.input_value("#level") == "5"
    # The board's colours: checkers on green and buff unless another is chosen; chess keeps its own.
    assert "theme-brown" in page.get_attribute("body", "class")
    start_checkers(page, "human")
    assert "theme-tournament" in page.get_attribute("body", "class")
    assert page.input_value("#theme") == "tournament"
    dark = page.locator(square(15)).evaluate("el => getComputedStyle(el).backgroundColor")
    light = page.locator(f"{BOARD} .square.light").first.evaluate("el => getComputedStyle(el).backgroundColor")
    assert dark == "rgb(61, 122, 76)" and light == "rgb(236, 217, 168)"
    page.select_option("#theme", "blue")
    assert "theme-blue" in page.get_attribute("body", "class")
    open_form(page)
    page.select_option("#game", "chess")
    page.select_option("#opponent", "human")
    page.click("#new-game")
    expect(page.locator("#board")).to_be_visible()
    assert "theme-brown" in page.get_attribute("body", "class")
    page.select_option("#theme", "tournament")                # green and buff on the chess board too
    assert "theme-tournament" in page.get_attribute("body", "class")
    a1 = page.locator("[data-square='a1']").evaluate("el => getComputedStyle(el).backgroundColor")
    assert a1 == "rgb(61, 122, 76)"
    assert watched.problems == [], watched.problems


def test_checkers_on_a_phone(open_page):
    """The board fills a 390x844 phone's width without overflow, its pieces centred on their
    squares; the robot's game playable there by clicks."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched = open_page(PHONE)
    page = watched.page
    start_checkers(page, "robot", color="black", level="1")
    click_path(page, [11, 15])
    wait_moves(page, 2)
    page.click(square(10))
    settle(page)
    box = page.locator(BOARD).bounding_box()
    assert box["width"] <= PHONE["width"] and abs(box["width"] - box["height"]) < 2 and box["width"] >= 350
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for number in (1, 15, 32):
        cell = page.locator(square(number)).bounding_box()
        piece = page.locator(f"{square(number)} > [data-piece]")
        if piece.count():
            art = piece.bounding_box()
            assert abs((art["x"] + art["width"] / 2) - (cell["x"] + cell["width"] / 2)) < 1.5
            assert abs((art["y"] + art["height"] / 2) - (cell["y"] + cell["height"] / 2)) < 1.5
    page.screenshot(path=str(ARTIFACTS / "checkers-phone.png"), full_page=True)
    assert watched.problems == [], watched.problems


def test_the_robot_moves_first_for_a_white_player_and_a_won_game_ends_in_the_dialog(open_page):
    """The person as White: White at the bottom and the robot's first move, legal; then a jump
    that takes White's last piece wins: the dialog says so, "Play again" starts the same position."""
    watched = open_page()
    page = watched.page
    start_checkers(page, "robot", color="white", level="1")
    moves = wait_moves(page, 1)
    replay(START, moves)
    assert first_square(page) == "1" and page.inner_text("#player-bottom .name") == "You"
    expect(page.locator("#status-text")).to_have_text("Your move")
    fen = "B:W18:B14"
    start_checkers(page, "robot", color="black", position=fen)
    click_path(page, [14, 23])
    page.wait_for_selector("#game-over[open]", timeout=ROBOT_WAIT_MS)
    assert re.fullmatch(r"You won!\s+1–0", page.inner_text("#over-title"))
    assert page.inner_text("#over-reason") == "White has no move left: Black wins"
    page.click("#again")
    expect(page.locator("#game-over")).to_be_hidden()
    wait_moves(page, 0)
    expect_board(page, Board(fen))
    assert watched.problems == [], watched.problems


SCRIPTS = {"kn": (0x0C80, 0x0CFF), "ta": (0x0B80, 0x0BFF), "gu": (0x0A80, 0x0AFF), "hi": (0x0900, 0x097F)}


def _script_share(text: str, lang: str) -> float:
    """The share of the letters of `text` in the language's script (digits, signs, PDN/FEN aside)."""
    low, high = SCRIPTS[lang]
    letters = [c for c in text if c.isalpha() or low <= ord(c) <= high]
    return sum(low <= ord(c) <= high for c in letters) / max(1, len(letters))


@pytest.mark.parametrize("lang,viewport", [("ta", PHONE), ("gu", DESKTOP), ("kn", DESKTOP), ("hi", PHONE)])
def test_checkers_speaks_the_readers_language(open_page, lang, viewport):
    """The checkers game in each language: the form's choice, the status, the refusal word and the
    move list's surroundings in the language's script; a screenshot of each."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched = open_page(viewport)
    page = watched.page
    page.select_option("#language", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    start_checkers(page, "human", position="B:W18,30,31:B10,14")
    page.click(square(10))
    refusal = page.locator("#checkers-refusal")
    expect(refusal).to_be_visible()
    for locator in (refusal, page.locator("#status-text"), page.locator("#game option[value='checkers']"),
                    page.locator("#claim-draw, #offer-draw").first, page.locator("#pgn-download")):
        text = locator.inner_text() if locator.is_visible() else locator.text_content()
        assert text and _script_share(text.replace("PDN", ""), lang) > 0.9, (lang, text)
    assert refusal.inner_text() != MUST_JUMP
    # Between people the robot's colour and level are not asked for (in every language and width:
    # the phone layout's rules for long languages must not show them again).
    expect(page.locator("#color")).to_be_hidden()
    expect(page.locator("#level")).to_be_hidden()
    settle(page)
    page.screenshot(path=str(ARTIFACTS / f"checkers-{lang}.png"), full_page=viewport is PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert watched.problems == [], watched.problems


def test_the_rules_link_follows_the_game_and_the_checkers_rules_page(open_page):
    """The top bar's "How to play" leads to the rules of checkers while a checkers game is shown
    (in the reader's language) and to chess otherwise; the checkers page (no console error: its
    CSP holds) links to the chess page. Screenshot: checkers-rules.png."""
    from jitfish.i18n import Speaker
    from jitfish.web import checkers_rules, rules

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched = open_page()
    page = watched.page
    link = page.locator("#rules-link")
    expect(link).to_have_attribute("href", "rules?lang=en")
    start_checkers(page, "human")
    expect(link).to_have_attribute("href", "rules?game=checkers&lang=en")
    page.select_option("#language", "ta")
    expect(link).to_have_attribute("href", "rules?game=checkers&lang=ta")
    page.select_option("#language", "en")
    expect(link).to_have_attribute("href", "rules?game=checkers&lang=en")

    # the page it leads to
    address = link.evaluate("a => a.href")
    tab = watched.context.new_page()
    problems: list[str] = []
    tab.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on("response", lambda r: problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None)
    tab.set_viewport_size(DESKTOP)
    tab.goto(address)
    expect(tab.locator("h1")).to_have_text(str(checkers_rules.TITLE))
    assert tab.locator("figure.diagram svg.board.checkers").count() == len(checkers_rules.DIAGRAMS)
    # the diagrams are drawn: a square's number and a piece have a size on the screen
    box = tab.locator("#diagram-start svg").bounding_box()
    assert box["width"] >= 200 and abs(box["width"] - box["height"]) < 2
    assert tab.locator("#diagram-start svg g.piece").count() == 24
    assert tab.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    tab.screenshot(path=str(ARTIFACTS / "checkers-rules.png"), full_page=True)
    tab.click(".other-game a")
    expect(tab.locator("h1")).to_have_text(Speaker("en").say(rules.TITLE))
    tab.click(".other-game a")
    expect(tab.locator("h1")).to_have_text(str(checkers_rules.TITLE))
    assert problems == [], problems
    tab.close()

    # back to chess: the chess rules
    open_form(page)
    page.select_option("#game", "chess")
    page.select_option("#opponent", "human")
    page.click("#new-game")
    if "confirm" in (page.get_attribute("#new-game", "class") or ""):
        page.click("#new-game")
    expect(page.locator("#board")).to_be_visible()
    expect(link).to_have_attribute("href", "rules?lang=en")
    assert watched.problems == [], watched.problems
