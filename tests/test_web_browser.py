"""`jitfish web` in a real browser: Debian's Chromium driven by Playwright, against the real
`jitfish web` command. Games are played by clicks (and one drag) on the `data-square` cells and
the documented ids; screenshots at phone and desktop sizes go to tests/artifacts/web/.

Without /usr/bin/chromium (or the playwright package) these tests skip, except under CI
(CI=true), where .ci/run installs Chromium first and a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest

try:
    from playwright.sync_api import expect
except ImportError:                 # reported by the skip (or failure under CI) below
    expect = None

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "web"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
ROBOT_WAIT_MS = 30000            # a robot process may take a while to start on a loaded machine


def _browser_missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


MISSING = _browser_missing()
if MISSING and os.environ.get("CI") == "true":
    pytest.fail(f"browser tests cannot run under CI: {MISSING}", pytrace=False)
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture(scope="module")
def server():
    """`jitfish web --no-browser --port 0` as a user would start it; its first line is the address."""
    process = subprocess.Popen([sys.executable, "-m", "jitfish.cli", "web", "--no-browser", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        match = re.fullmatch(r"Jitfish web: (http://127\.0\.0\.1:\d+/\?token=\S+)\n", first)
        assert match, f"unexpected first line {first!r}; stderr: {process.stderr.read() if process.poll() else ''}"
        yield match.group(1), process
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="module")
def server_url(server):
    return server[0]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A page whose console errors and uncaught exceptions are collected."""

    def __init__(self, browser, url: str, viewport: dict) -> None:
        self.context = browser.new_context(viewport=viewport, accept_downloads=True)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.goto(url)
        self.page.wait_for_selector("[data-square='e1'] img.piece")
        expect(self.page.locator("#level option")).not_to_have_count(0)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_page(browser, server_url):
    pages = []

    def opener(viewport: dict = DESKTOP) -> Watched:
        watched = Watched(browser, server_url, viewport)
        pages.append(watched)
        return watched

    yield opener
    for watched in pages:
        watched.close()


def click_move(page, uci: str) -> None:
    page.click(f"[data-square='{uci[:2]}']")
    page.click(f"[data-square='{uci[2:4]}']")


def moves_of(page) -> list[str]:
    return page.locator("#moves .move").all_inner_texts()


def wait_moves(page, count: int) -> list[str]:
    """The move list once it has `count` moves (no eval in the page: its CSP forbids it)."""
    expect(page.locator("#moves .move")).to_have_count(count, timeout=ROBOT_WAIT_MS)
    return moves_of(page)


def wait_at_least_moves(page, count: int) -> list[str]:
    """The move list once it has `count` moves or more: after a pre-move the robot's next answer
    may already be in (it came within one poll on a fast machine, 1 -> 4 moves)."""
    expect(page.locator("#moves .move").nth(count - 1)).to_be_attached(timeout=ROBOT_WAIT_MS)
    return moves_of(page)


def board_of(page, start_fen: str) -> chess.Board:
    board = chess.Board(start_fen)
    for san in moves_of(page):
        board.push_san(san.rstrip("?!"))                  # a review's marks are no part of the move
    return board


def _plies_of(position: str) -> int:
    """The moves a game started from `position` has at once: those of a move list, none from a
    FEN or a Chess960 number."""
    if not position.strip() or "/" in position or position.strip().isdigit():
        return 0
    return len(list(chess.pgn.read_game(io.StringIO(position)).mainline_moves()))


def open_form(page) -> None:
    """Unfold the new-game form (folded away by its toggle, or during a review)."""
    fields = page.locator("#setup-fields")
    if fields.count() and fields.is_hidden():
        page.click("#setup-toggle")


def submit_new_game(page, opponent: str, *, game: str | None = None, position: str = "", clock: str = "none",
                    level: str, pause: bool = False, color: str, takeback: bool | None = None) -> None:
    """Fill the new-game form through its controls (the game, when given, first: the levels follow
    it; the take-back box when given) and start; wait for the new game's state, not the old one's:
    a click before it came was undone when it came (the resign bar opened on the old game closed
    under the test's cursor). Shared by the chess and the checkers browser tests."""
    open_form(page)
    if game is not None:
        page.select_option("#game", game)
    page.select_option("#opponent", opponent)
    if opponent == "robot":
        page.select_option("#color", color)
        page.select_option("#level", level)
        page.set_checked("#pause", pause)
    page.select_option("#clock", clock)
    if takeback is not None:
        page.set_checked("#allow-takeback", takeback)
    if position or page.input_value("#position"):
        if page.get_attribute("#position-box", "open") is None:
            page.click("#position-box summary")
        page.fill("#position", position)
    expect(page.locator("body")).to_have_attribute("data-game", re.compile(r"\d"))
    shown = page.get_attribute("body", "data-game")
    page.click("#new-game")
    if "confirm" in (page.get_attribute("#new-game", "class") or ""):    # a game in progress: asks first
        page.click("#new-game")
    expect(page.locator("body")).not_to_have_attribute("data-game", shown, timeout=ROBOT_WAIT_MS)


def start(page, opponent: str, *, position: str = "", clock: str = "none", level: str = "400",
          pause: bool = False, color: str = "white") -> None:
    """Fill the new-game form through its controls and start; wait for the moves of the position."""
    submit_new_game(page, opponent, position=position, clock=clock, level=level, pause=pause, color=color)
    wait_moves(page, _plies_of(position))
    if "/" in position:  # the page's first game has no moves either: wait for the new one's pieces
        for square, piece in chess.Board(position).piece_map().items():
            expect(page.locator(f"[data-square='{chess.square_name(square)}'] img[data-piece='{piece.symbol()}']")) \
                .to_have_count(1)


def test_page_loads_clean_and_screenshots(open_page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        watched = open_page(viewport)
        page = watched.page
        if name == "desktop":                          # the level list is the server's, in order
            from jitfish.web.robot import LEVEL_CHOICES
            from search.levels import FULL_STRENGTH_ELO
            offered = page.locator("#level option").all_inner_texts()
            assert offered[:-1] == [f"{elo} · {title}" for elo, title in LEVEL_CHOICES[:-1]]
            assert offered[-1] == f"Full strength (about {FULL_STRENGTH_ELO})"
            # Under the list, what a level of the human model plays like; nothing for the others.
            from search.levels import plays_like
            page.select_option("#opponent", "robot")
            page.select_option("#level", "1400")
            expect(page.locator("#level-style")).to_have_text(f"P{plays_like(1400)[1:]}.")
            assert "lichess" in plays_like(1400)
            searching = next(elo for elo, _ in LEVEL_CHOICES if elo > 1000 and plays_like(elo) is None)
            page.select_option("#level", str(searching))                  # a level that weakens the search
            expect(page.locator("#level-style")).to_be_hidden()
            page.select_option("#level", "1000")
            expect(page.locator("#level-style")).to_be_visible()
            page.select_option("#opponent", "human")
            expect(page.locator("#level-style")).to_be_hidden()
        start(page, "robot", clock="5+0", level="1200", pause=True)
        click_move(page, "e2e4")
        wait_moves(page, 2)
        page.click("[data-square='g1']")              # show the legal-move dots
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=name == "phone")
        squares = page.locator("[data-square]")
        assert squares.count() == 64
        box = page.locator("#board").bounding_box()
        assert box["width"] <= viewport["width"] and abs(box["width"] - box["height"]) < 2
        assert box["width"] >= min(viewport["width"] - 40, 600), "the board should fill the screen"
        assert watched.problems == [], watched.problems


def test_a_game_against_the_robot_played_by_clicks(open_page):
    watched = open_page()
    page = watched.page
    fen = "k7/8/1K6/8/8/8/8/2R5 w - - 0 1"              # mate in two, whatever the robot does
    start(page, "robot", position=fen)
    page.click("#hint")
    page.wait_for_selector(".hint-arrow", state="attached", timeout=ROBOT_WAIT_MS)
    page.click("#flip")                                   # flip and back: the board redraws
    assert page.locator("#board .square").first.get_attribute("data-square") == "h1"
    page.click("#flip")
    click_move(page, "c1d1")
    wait_moves(page, 2)
    board = board_of(page, fen)
    assert page.locator("[data-square='d1'].last-move").count() == 0   # the robot's move is the last
    mate = next(m for m in board.legal_moves if _mates(board, m))
    click_move(page, mate.uci())
    page.wait_for_selector("#game-over[open]", timeout=ROBOT_WAIT_MS)
    assert "You won" in page.inner_text("#over-title")
    assert page.inner_text("#status") == "Checkmate: White wins"
    assert page.inner_text("#over-reason") == "Checkmate: White wins"
    with page.expect_download() as download:
        page.click("#over-pgn")
    pgn = Path(download.value.path()).read_text()
    assert '[Result "1-0"]' in pgn and f'[FEN "{fen}"]' in pgn and "1-0" in pgn.split("\n\n")[-1]
    page.click("#again")                                  # same settings: the same start again
    expect(page.locator("#game-over")).to_be_hidden()
    wait_moves(page, 0)
    assert page.locator("[data-square='c1'] img[data-piece='R']").count() == 1
    assert watched.problems == [], watched.problems


def _mates(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def test_keyboard_entry_take_back_and_reload_resume(open_page):
    watched = open_page()
    page = watched.page
    start(page, "robot")
    page.fill("#move-input", "e4!?")                      # a mark after the move is no part of it
    page.press("#move-input", "Enter")
    first = wait_moves(page, 2)
    assert first[0] == "e4"
    expect(page.locator("#takeback")).to_be_enabled()
    page.click("#takeback")
    wait_moves(page, 0)
    click_move(page, "d2d4")
    moves = wait_moves(page, 2)
    page.reload()                                         # the game goes on after a reload
    assert wait_moves(page, 2) == moves
    assert page.locator("[data-square='d4'] img[data-piece='P']").count() == 1
    page.fill("#move-input", "Ke5")                       # not legal: an error, nothing changes
    page.press("#move-input", "Enter")
    expect(page.locator("#status")).to_have_class("error")
    assert "not a legal move" in page.inner_text("#status") and moves_of(page) == moves
    page.click("#new-game")                               # a game in progress: asks first
    expect(page.locator("#new-game")).to_have_class(re.compile("confirm"))
    assert moves_of(page) == moves
    page.click("#new-game")
    wait_moves(page, 0)
    assert watched.problems == [], watched.problems


def test_a_two_person_game_with_drag_and_drop_and_navigation(open_page):
    watched = open_page()
    page = watched.page
    start(page, "human")
    click_move(page, "f2f3")
    wait_moves(page, 1)
    click_move(page, "e7e5")
    wait_moves(page, 2)
    # g2-g4 dragged with the mouse
    source = page.locator("[data-square='g2']").bounding_box()
    target = page.locator("[data-square='g4']").bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=5)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=3)
    page.mouse.up()
    wait_moves(page, 3)
    # an illegal drag snaps back
    page.click("[data-square='a7']")
    page.click("[data-square='a4']")
    assert page.locator("[data-square='a7'] img").count() == 1 and len(moves_of(page)) == 3
    click_move(page, "d8h4")
    page.wait_for_selector("#game-over[open]")
    assert "Black wins" in page.inner_text("#over-title")
    assert moves_of(page) == ["f3", "e5", "g4", "Qh4#"]
    assert page.locator("[data-square='e1'].check").count() == 1
    page.click("#over-close")
    page.locator("#moves .move").first.click()            # back to the first move
    assert page.locator("[data-square='f3'] img").count() == 1 and page.locator("[data-square='e5'] img").count() == 0
    page.keyboard.press("End")
    assert page.locator("[data-square='h4'] img[data-piece='q']").count() == 1
    assert watched.problems == [], watched.problems


def test_promotion_through_the_chooser(open_page):
    watched = open_page()
    page = watched.page
    start(page, "human", position="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    click_move(page, "b7b8")
    page.wait_for_selector(".promotion-chooser")
    assert page.locator(".promotion-choice").count() == 4
    page.click(".promotion-choice[data-piece='n']")
    assert wait_moves(page, 1) == ["b8=N"]
    assert page.locator("[data-square='b8'] img[data-piece='N']").count() == 1
    assert watched.problems == [], watched.problems


def test_the_clock_counts_down_in_tenths(open_page):
    watched = open_page()
    page = watched.page
    page.select_option("#opponent", "human")
    page.select_option("#clock", "custom")
    page.fill("#custom-minutes", "0.001")                 # 0.06 s: refused, with the reason
    page.fill("#custom-increment", "0")
    page.click("#new-game")
    expect(page.locator("#status")).to_have_class("error")
    expect(page.locator("#status-note")).to_have_text("clock: the minutes must be at least 0.25 (15 seconds)")
    page.fill("#custom-minutes", "0.25")                  # the shortest clock: 15 seconds
    page.click("#new-game")
    expect(page.locator("#clock-white")).to_have_text("0:15")
    click_move(page, "e2e4")                              # the first move is free; Black's clock starts
    page.wait_for_selector("#clock-black.running")
    expect(page.locator("#clock-black")).to_have_text(re.compile(r"0:0\d\.\d"), timeout=12000)   # tenths under 10 s
    first = page.inner_text("#clock-black")
    page.wait_for_timeout(1200)
    second = page.inner_text("#clock-black")
    assert _seconds(second) < _seconds(first) < 10
    assert re.fullmatch(r"0:0\d\.\d", second) and page.locator("#clock-black.low").count() == 1
    page.wait_for_selector("#game-over[open]", timeout=10000)
    assert page.inner_text("#over-reason") == "Black ran out of time: White wins"
    assert watched.problems == [], watched.problems


def _seconds(text: str) -> float:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + float(seconds)


def test_sound_fullscreen_and_theme_toggles(open_page):
    watched = open_page(PHONE)
    page = watched.page
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    start(page, "human")
    click_move(page, "e2e4")                              # a move with sound on
    wait_moves(page, 1)
    page.click("#fullscreen")
    page.wait_for_timeout(300)
    page.click("#fullscreen")
    page.select_option("#theme", "blue")
    assert "theme-blue" in page.get_attribute("body", "class")
    page.reload()                                         # preferences are kept
    page.wait_for_selector("[data-square='e1'] img.piece")
    assert "theme-blue" in page.get_attribute("body", "class")
    assert page.input_value("#opponent") == "human"
    assert watched.problems == [], watched.problems


def _luminance(css_colour: str) -> float:
    red, green, blue = (int(n) for n in re.findall(r"\d+", css_colour)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_the_board_is_coloured_as_fide_says(open_page):
    """FIDE Laws 2.1: the near right-hand square (h1 for White) is light; a1 and h8 are dark. On
    every theme and after flipping, by the class and by the colour the browser paints."""
    watched = open_page()
    page = watched.page
    themes = page.locator("#theme option").evaluate_all("options => options.map(o => o.value)")
    assert len(themes) >= 4
    for flipped in (False, True):
        for theme in themes:
            page.select_option("#theme", theme)
            colours = {}
            for name in ("a1", "h1", "a8", "h8", "e4", "d4"):
                square = page.locator(f"[data-square='{name}']")
                colours[name] = square.evaluate("el => getComputedStyle(el).backgroundColor")
                expected = "dark" if name in ("a1", "h8", "d4") else "light"
                expect(square).to_have_class(re.compile(rf"\b{expected}\b"))
            assert _luminance(colours["a1"]) < _luminance(colours["h1"]), (theme, colours)
            assert colours["a1"] == colours["h8"] == colours["d4"] and colours["h1"] == colours["a8"] == colours["e4"]
        corner = page.locator("#board .square").first.get_attribute("data-square")
        assert corner == ("h1" if flipped else "a8")
        page.click("#flip")
    assert watched.problems == [], watched.problems


@pytest.mark.parametrize("stored", [
    {"jitfish.settings": json.dumps({"opponent": "human", "position": "x" * 70000})},    # over the 64 KB limit
    {"jitfish.settings": json.dumps({"clock": "custom", "clock_spec": {"periods": [None]}, "elo": "lots"})},
    {"jitfish.settings": "{not json", "jitfish.recent": json.dumps("not a list")},
])
def test_stored_settings_never_lock_the_page_out(open_page, stored):
    """Whatever an earlier page left in the browser, the page connects, fills its menus and
    plays (a tester once pasted more than 64 KB as a start position and every reload, in every
    tab, was refused until a setting was changed)."""
    watched = open_page()
    page = watched.page
    page.click("#position-box summary")
    page.fill("#position", "x" * 70000)                  # a paste keeps what the server accepts
    assert len(page.input_value("#position")) <= 20000
    for key, value in stored.items():
        page.locator("body").evaluate("(body, [key, value]) => localStorage.setItem(key, value)", [key, value])
    page.reload()
    for tab in range(2):                                 # after a reload, then in a new tab
        page.wait_for_selector("[data-square='e1'] img.piece")
        expect(page.locator("#level option")).not_to_have_count(0)
        expect(page.locator("#clock option")).not_to_have_count(0)
        start(page, "human")
        click_move(page, "e2e4")
        assert wait_moves(page, 1) == ["e4"]
        if tab == 0:
            page = open_page().page
    assert watched.problems == [], watched.problems


TABLET = {"width": 768, "height": 1024}


def _inside(inner: dict, outer: dict) -> bool:
    return (inner["y"] >= outer["y"] - 1 and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
            and inner["x"] >= outer["x"] - 1 and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1)


def test_layout_on_an_upright_tablet_and_a_short_window(open_page):
    """An upright tablet gets one column with a board its full width and the whole panel below
    (side by side it had a 432 px board, empty space and a panel cut at the board's height); a
    short window with the set-up box open keeps the status and the moves in view."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(TABLET).page
    board = page.locator("#board").bounding_box()
    side = page.locator("#side").bounding_box()
    assert board["width"] >= TABLET["width"] - 40 and side["y"] >= board["y"] + board["height"]
    assert page.locator("#side").evaluate("el => el.scrollHeight <= el.clientHeight + 1"), "the panel is cut"
    for hook in ("#opponent", "#move-input"):                     # wide enough for their text
        assert page.locator(hook).bounding_box()["width"] >= 300, hook
    page.screenshot(path=str(ARTIFACTS / "tablet.png"), full_page=True)
    page = open_page({"width": 1366, "height": 800}).page
    page.click("#position-box summary")
    page.fill("#position", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n" * 3)
    viewport = {"x": 0, "y": 0, "width": 1366, "height": 800}
    side = page.locator("#side").bounding_box()
    for hook in ("#status", "#moves-box", "#new-game"):
        page.locator("#new-game").scroll_into_view_if_needed()
        box = page.locator(hook).bounding_box()
        assert _inside(box, viewport) and _inside(box, side), hook
    assert page.locator("#side").evaluate("el => el.scrollTop") == 0


SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
REVIEW_WAIT_MS = 90000           # a review of a short game takes seconds; a loaded machine more


def play_clicks(page, moves: list[str]) -> None:
    for number, uci in enumerate(moves, 1):
        click_move(page, uci)
        wait_moves(page, number)


def test_a_reviewed_scholars_mate_and_learning_from_it(open_page):
    """1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#, reviewed: one graph point per position, Black's
    third move a blunder whose reason names the mate, the accuracies; then the blunder as an
    exercise, where the bad move is refused and the engine's is accepted. Screenshots of the
    review at desktop and phone size (the README's is the desktop one)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        watched = open_page(viewport)
        page = watched.page
        start(page, "human")
        play_clicks(page, SCHOLARS_MATE)
        page.wait_for_selector("#game-over[open]")
        if name == "desktop":
            page.click("#over-close")
            page.click("#review")
        else:
            page.click("#over-review")                         # offered in the game-over dialog too
        expect(page.locator("#accuracy-white")).to_contain_text("%", timeout=REVIEW_WAIT_MS)
        expect(page.locator("#review-progress")).to_be_hidden()
        assert page.locator("#eval-graph [data-ply]").count() == len(SCHOLARS_MATE) + 1
        blunders = page.locator("#moves .move.blunder")
        expect(blunders).to_have_count(1)
        assert blunders.get_attribute("data-ply") == "6" and blunders.inner_text() == "Nf6??"
        white, black = (float(re.search(r"(\d+)%", page.inner_text(f"#accuracy-{c}")).group(1)) for c in ("white", "black"))
        assert white > black
        blunders.click()
        expect(page.locator("#review-reason")).to_contain_text("allows mate in 1 (Qxf7#)")
        best = page.locator(".best-arrow")
        expect(best).to_have_count(1)
        best_move = best.get_attribute("data-from") + best.get_attribute("data-to")
        assert page.locator("#eval-bar").is_visible()
        page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"), full_page=name == "phone")
        page.click("#eval-graph [data-ply='2']", force=True)         # a point of the graph: that position
        expect(page.locator("#moves .move.current")).to_have_attribute("data-ply", "2")
        assert page.locator("[data-square='e5'] img[data-piece='p']").count() == 1
        assert page.locator("[data-square='h5'] img").count() == 0
        if name == "desktop":
            with page.expect_download() as download:
                page.click("#review-pgn")
            annotated = Path(download.value.path()).read_text()
            assert "$4" in annotated and "Best was" in annotated and "[%eval" in annotated
        # Learn from the mistake: the game's move and a bad one are refused, the engine's accepted.
        page.click("#learn")
        box = page.locator("#learn-box")
        expect(box).to_have_attribute("data-ply", "6")
        assert page.locator("#board .square").first.get_attribute("data-square") == "h1"   # Black at the bottom
        expect(page.locator("#board .square.last-move")).to_have_count(2)       # White's 3.Bc4 is marked
        assert page.locator("[data-square='f1'].last-move").count() == page.locator("[data-square='c4'].last-move").count() == 1
        click_move(page, "a7a6")
        expect(page.locator("#learn-feedback")).to_have_class("bad", timeout=ROBOT_WAIT_MS)
        assert "allows mate in 1" in page.inner_text("#learn-feedback")
        assert page.locator("[data-square='a7'] img[data-piece='p']").count() == 1          # put back
        page.click("#learn-hint")
        expect(page.locator(f"[data-square='{best_move[:2]}'].hint-square")).to_have_count(1)
        click_move(page, best_move)
        expect(page.locator("#learn-feedback")).to_have_class("good", timeout=ROBOT_WAIT_MS)
        page.click("#learn-next")
        expect(page.locator("#learn-prompt")).to_contain_text("found 1 of 1")
        page.click("#learn-stop")
        expect(box).to_be_hidden()
        assert watched.problems == [], watched.problems


def _engines(server_process) -> list[int]:
    from tests.test_web_server import _children, _running
    return [pid for pid in _children(server_process.pid) if _running(pid)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the engine's process")
def test_the_analysis_board_shows_lines_and_a_bar_and_stops_when_switched_off(open_page, server):
    watched = open_page()
    page = watched.page
    start(page, "human")
    play_clicks(page, ["e2e4"])
    before = set(_engines(server[1]))
    page.click("#analysis")
    expect(page.locator("#engine-lines .line")).to_have_count(3, timeout=ROBOT_WAIT_MS)
    expect(page.locator("#eval-bar")).to_be_visible()
    assert page.locator(".line1-arrow").count() == 1
    assert all(re.fullmatch(r"[+-]?\d+\.\d\d|#-?\d+", text.split()[0]) for text in page.locator("#engine-lines .line").all_inner_texts())
    tab_engine = set(_engines(server[1])) - before
    assert len(tab_engine) == 1, "the tab's engine is one process"
    click_move(page, "e7e5")                                        # both sides move on the analysis board
    click_move(page, "g1f3")
    expect(page.locator("#analysis-line .move")).to_have_count(3)     # start, e5, Nf3
    expect(page.locator("#engine-lines .line").first).to_contain_text("")
    page.wait_for_timeout(1500)
    assert page.locator("[data-square='f3'] img[data-piece='N']").count() == 1
    assert moves_of(page) == ["e4"]                                 # the game is untouched
    page.click("#analysis")                                         # off: the process ends
    expect(page.locator("#analysis-box")).to_be_hidden()
    for _ in range(50):
        if not set(_engines(server[1])) & tab_engine:
            break
        page.wait_for_timeout(100)
    assert not set(_engines(server[1])) & tab_engine, "the engine outlived the analysis board"
    assert page.locator("[data-square='f3'] img").count() == 0      # the game's position again
    assert watched.problems == [], watched.problems


class held_engines:
    """The server's engine processes stopped (SIGSTOP) for the block, so that a test can act while
    the robot "thinks" for as long as it needs, however loaded the machine is."""

    def __init__(self, server_process) -> None:
        self.pids = _engines(server_process)

    def __enter__(self) -> None:
        assert self.pids, "the robot should run as a child process"
        for pid in self.pids:
            os.kill(pid, signal.SIGSTOP)

    def __exit__(self, *exc) -> None:
        for pid in self.pids:
            with contextlib.suppress(ProcessLookupError):   # an earlier page's engine may have ended since
                os.kill(pid, signal.SIGCONT)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to hold the robot's process")
def test_material_and_a_premove_against_the_robot(open_page, server):
    watched = open_page()
    page = watched.page
    start(page, "human")
    play_clicks(page, ["e2e4", "d7d5", "e4d5"])
    expect(page.locator("#material-white")).to_have_text("+1")
    assert page.locator("#material-white img[alt='p']").count() == 1 and page.inner_text("#material-black") == ""
    assert watched.problems == [], watched.problems
    watched = open_page()
    page = watched.page
    start(page, "robot", pause=True)
    with held_engines(server[1]):
        click_move(page, "e2e4")
        click_move(page, "d2d4")                                    # while the robot thinks: a pre-move
        expect(page.locator(".square.premove")).to_have_count(2)
    moves = wait_at_least_moves(page, 3)                            # the robot answers, the pre-move is played
    assert moves[0] == "e4" and moves[2] == "d4"
    wait_moves(page, 4)
    board = board_of(page, chess.STARTING_FEN)     # the robot moves at random: 2...Qa5+ rules out Nf3
    legal = sorted(move.uci() for move in board.legal_moves if move.from_square != chess.B1
                   and move.to_square != chess.C3)
    with held_engines(server[1]):
        click_move(page, "g1f3" if "g1f3" in legal else legal[0])
        click_move(page, "b1c3")                                    # queued...
        expect(page.locator(".square.premove")).to_have_count(2)
        page.click("[data-square='e4']", button="right")             # ...and dropped
        expect(page.locator(".square.premove")).to_have_count(0)
    moves = wait_moves(page, 6)
    page.wait_for_timeout(800)
    assert len(moves_of(page)) == 6 and page.locator("[data-square='b1'] img[data-piece='N']").count() == 1
    assert watched.problems == [], watched.problems


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to hold the robot's process")
def test_a_premove_clicked_before_the_server_answers_the_move_counts(open_page, server):
    """Clicks made between a move and the server's answer (the board frozen meanwhile) are not
    lost: they count once the answer is in, here as the pre-move they were meant to be."""
    watched = open_page()
    page = watched.page
    start(page, "robot", pause=True)
    with held_engines(server[1]):
        os.kill(server[1].pid, signal.SIGSTOP)                      # no answer to the move yet
        try:
            click_move(page, "e2e4")
            click_move(page, "d2d4")
            expect(page.locator(".square.premove")).to_have_count(0)
        finally:
            os.kill(server[1].pid, signal.SIGCONT)
        expect(page.locator(".square.premove")).to_have_count(2)
    moves = wait_at_least_moves(page, 3)
    assert moves[0] == "e4" and moves[2] == "d4"
    assert watched.problems == [], watched.problems


# ---- the tester's findings of issue 51 ----

def test_typed_moves_keep_the_focus_against_the_robot(open_page, server):
    """The move box stays usable while the robot thinks, so it keeps the focus: a move typed after
    the robot's reply goes into it (its `f` used to flip the board), and one typed while the robot
    thinks is played once it has moved."""
    watched = open_page()
    page = watched.page
    start(page, "robot", pause=True)
    page.click("#move-input")
    page.keyboard.type("e4")
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    assert page.evaluate("document.activeElement.id") == "move-input"
    with held_engines(server[1]):
        page.keyboard.type("Nf3")                                   # 'f' and 'N' go to the box
        page.keyboard.press("Enter")
        wait_moves(page, 3)
        assert page.locator("#board .square").first.get_attribute("data-square") == "a8"   # not flipped
        expect(page.locator("#move-input")).to_have_value("")
        page.keyboard.type("Nc3")                                   # while the robot thinks: kept
        page.keyboard.press("Enter")
        expect(page.locator("#status-note")).to_contain_text("Nc3: played when Jitfish 400 has moved")
        page.wait_for_timeout(300)
        assert len(moves_of(page)) == 3
    moves = wait_moves(page, 5)
    assert moves[2] == "Nf3" and moves[4] == "Nc3", moves       # legal whatever Black played
    expect(page.locator("#move-input")).to_have_value("")
    assert page.evaluate("document.activeElement.id") == "move-input"
    assert watched.problems == [], watched.problems


def _centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_promotion_chooser_puts_the_queen_on_the_promotion_square(open_page):
    """Toward the bottom of the board (Black between two people, or anyone after Flip) the chooser
    stacked the queen four squares up and the bishop on the promotion square, so a quick second
    click there made a bishop. Now the queen is on it, at either edge."""
    watched = open_page()
    page = watched.page
    for position, move, flip in (("4k3/8/8/8/8/7K/1p6/8 b - - 0 1", "b2b1", False),
                                 ("8/1P6/7k/8/8/8/8/K7 w - - 0 1", "b7b8", True),
                                 ("8/1P6/7k/8/8/8/8/K7 w - - 0 1", "b7b8", False)):
        start(page, "human", position=position)
        if flip:
            page.click("#flip")
        click_move(page, move)
        page.wait_for_selector(".promotion-chooser")
        square = page.locator(f"[data-square='{move[2:]}']").bounding_box()
        queen = page.locator(".promotion-choice[data-piece='q']").bounding_box()
        assert abs(queen["y"] - square["y"]) < 2 and abs(queen["x"] - square["x"]) < 2, (queen, square)
        page.mouse.click(*_centre(square))                          # the quick second click
        san = move[2:] + "=Q"
        assert wait_moves(page, 1) == [san]
        if flip:
            page.click("#flip")
    assert watched.problems == [], watched.problems


def test_between_two_people_either_side_may_resign(open_page):
    watched = open_page()
    page = watched.page
    start(page, "robot")
    page.click("#resign")                                           # against the robot: the person's side
    expect(page.locator("#resign-choice")).to_be_visible()
    expect(page.locator("#resign-white")).to_be_visible()
    expect(page.locator("#resign-black")).to_be_hidden()
    page.click("#resign-cancel")
    expect(page.locator("#resign-choice")).to_be_hidden()
    start(page, "human")
    click_move(page, "e2e4")
    wait_moves(page, 1)                                             # Black to move; White gives up
    page.click("#resign")
    expect(page.locator("#resign-question")).to_have_text("Who resigns?")
    page.click("#resign-white")
    page.wait_for_selector("#game-over[open]")
    assert page.inner_text("#over-reason") == "White resigns: Black wins"
    assert watched.problems == [], watched.problems


FILL_SOCKETS = """async ([url, most]) => {
  window.fillers = [];
  for (let i = 0; i < most; i++) {
    const ws = new WebSocket(url);
    await new Promise((resolve) => { ws.onopen = resolve; });
    const kind = await new Promise((resolve) => {
      ws.onmessage = (event) => {
        const type = JSON.parse(event.data).type;
        if (type === "state" || type === "full" || type === "error") resolve(type);
      };
      ws.send(JSON.stringify({type: "hello", settings: {opponent: "human"}}));
    });
    if (kind !== "state") { ws.close(); return i; }
    window.fillers.push(ws);
  }
  return most;
}"""


def test_a_tab_beyond_the_limit_keeps_its_settings_says_why_and_gets_in(open_page, server_url):
    """A 13th tab was refused like a bad hello: the page deleted its stored settings and showed
    "Connecting…" for good with empty menus. Now it says what happened, keeps the settings, fills
    the menus and starts as soon as another tab has gone."""
    from jitfish.web.server import MAX_SESSIONS
    watched = open_page()
    page = watched.page
    stored = {"version": 1, "opponent": "human", "clock": "3+2", "elo": 1600, "position": ""}
    page.locator("body").evaluate("(body, text) => localStorage.setItem('jitfish.settings', text)", json.dumps(stored))
    socket_url = server_url.replace("http://", "ws://").replace("/?token=", "/ws?token=")
    filled = page.evaluate(FILL_SOCKETS, [socket_url, MAX_SESSIONS])
    assert filled < MAX_SESSIONS, "the server should run out of room"
    late = page.context.new_page()                                  # a new tab: same settings, no game
    problems = []
    late.on("pageerror", lambda error: problems.append(str(error)))
    late.goto(server_url)
    expect(late.locator("#full")).to_be_visible()
    expect(late.locator("#full-text")).to_contain_text(f"at most {MAX_SESSIONS} games")
    expect(late.locator("#level option")).not_to_have_count(0)
    expect(late.locator("#clock option")).not_to_have_count(0)
    assert late.input_value("#clock") == "3+2" and late.input_value("#opponent") == "human"
    assert json.loads(late.evaluate("localStorage.getItem('jitfish.settings')"))["clock"] == "3+2"
    page.evaluate("window.fillers.pop().close()")                   # a tab goes: room for the late one
    expect(late.locator("#full")).to_be_hidden(timeout=15000)
    late.wait_for_selector("[data-square='e1'] img.piece")
    expect(late.locator("#game-info")).to_contain_text("Two players")
    assert json.loads(late.evaluate("localStorage.getItem('jitfish.settings')"))["clock"] == "3+2"
    page.evaluate("window.fillers.forEach((ws) => ws.close())")
    assert problems == [] and watched.problems == [], (problems, watched.problems)


def test_on_a_phone_a_new_game_brings_the_board_into_view(open_page):
    watched = open_page(PHONE)
    page = watched.page
    start(page, "robot", color="black", pause=True)                # "Start new game" is at the bottom
    expect(page.locator("#board")).to_be_in_viewport(ratio=1)
    wait_moves(page, 1)                                             # the robot's first move, in sight
    assert watched.problems == [], watched.problems


def test_notes_go_under_the_status_and_a_chess960_number_says_so(open_page):
    watched = open_page()
    page = watched.page
    start(page, "robot")
    page.click("#hint")
    page.wait_for_selector(".hint-arrow", state="attached", timeout=ROBOT_WAIT_MS)
    expect(page.locator("#status-note")).to_contain_text("Hint: ")
    expect(page.locator("#status-text")).to_have_text(re.compile(r"^Your move"))
    start(page, "human", position="123")                            # a start number, the box not ticked
    assert not page.is_checked("#chess960")
    expect(page.locator("#game-info")).to_contain_text("Chess960 (start 123)")
    expect(page.locator("[data-square='a1'] img")).to_have_attribute("data-piece", chess.Board.from_chess960_pos(123).piece_at(chess.A1).symbol())
    assert watched.problems == [], watched.problems


def test_the_board_is_played_from_the_keyboard(open_page):
    """The board is reached with Tab (it has a label and a visible focus), a cursor goes round by
    the arrow keys or by typing a square, Enter or Space picks up and puts down. A board reached by
    a click keeps the page's own keys (the arrows through the moves)."""
    watched = open_page()
    page = watched.page
    start(page, "human")
    board = page.locator("#board")
    assert "Chess board" in board.get_attribute("aria-label")
    page.focus("#fullscreen")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "board"
    expect(board).to_have_class(re.compile(r"\bkeyboard\b"))
    assert board.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    expect(page.locator("#board .square.cursor")).to_have_count(1)
    page.keyboard.type("e2")                                        # typing a square moves the cursor ...
    expect(page.locator("#board .square.cursor")).to_have_attribute("data-square", "e2")
    page.keyboard.press("Enter")                                    # ... Enter picks up ...
    expect(page.locator("[data-square='e2'].selected")).to_have_count(1)
    page.keyboard.type("e4")
    page.keyboard.press("Enter")                                    # ... and puts down
    assert wait_moves(page, 1) == ["e4"]
    for key in ("ArrowUp", "ArrowUp", "ArrowUp", "Enter", "ArrowDown", "ArrowDown", " "):   # e4 -> e7, down to e5
        page.keyboard.press(key)
    assert wait_moves(page, 2) == ["e4", "e5"]
    expect(page.locator("#board .square.cursor")).to_have_attribute("data-square", "e5")
    page.click("[data-square='d5']")                                # a click: the arrows go through the moves
    expect(board).not_to_have_class(re.compile(r"\bkeyboard\b"))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#status-text")).to_have_text("Viewing 1. e4 (» for the game now)")
    assert watched.problems == [], watched.problems


def test_typed_squares_and_enter_make_every_move_castling_included(open_page):
    """Issue 72, item 5: a typed square moves the cursor, Enter picks up and puts down, as the
    board's label says: e1, Enter, g1, Enter castles (it put the king back and played nothing). A
    put-down that is no move says why, and the piece stays in hand for another square."""
    watched = open_page()
    page = watched.page
    start(page, "human", position="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    page.focus("#fullscreen")
    page.keyboard.press("Tab")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bkeyboard\b"))
    cursor = page.locator("#board .square.cursor")
    page.keyboard.type("e1")
    expect(cursor).to_have_attribute("data-square", "e1")
    expect(page.locator("#board .square.selected")).to_have_count(0)          # only the cursor moved
    page.keyboard.press("Enter")
    expect(page.locator("[data-square='e1'].selected")).to_have_count(1)
    page.keyboard.type("g1")
    expect(cursor).to_have_attribute("data-square", "g1")
    page.keyboard.press("Enter")
    assert wait_moves(page, 1) == ["O-O"]
    page.keyboard.type("e8")
    page.keyboard.press(" ")
    page.keyboard.type("e6")                                        # no king move
    page.keyboard.press("Enter")
    expect(page.locator("#status-note")).to_have_text("That piece cannot go to e6.")
    expect(page.locator("[data-square='e8'].selected")).to_have_count(1)     # still in hand
    assert moves_of(page) == ["O-O"]
    page.keyboard.type("c8")
    page.keyboard.press("Enter")
    assert wait_moves(page, 2) == ["O-O", "O-O-O"]
    page.keyboard.type("e4")                                        # an empty square: nothing to pick up
    page.keyboard.press("Enter")
    expect(page.locator("#status-note")).to_have_text("There is no piece to move on e4.")
    page.keyboard.type("g1")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")                                   # Escape lets go
    expect(page.locator("#board .square.selected")).to_have_count(0)
    assert watched.problems == [], watched.problems


def _bottom_left(page) -> str:
    """The square in the board's bottom left corner: a1 with White at the bottom, h8 with Black."""
    return page.locator("#board .square").nth(56).get_attribute("data-square")


def _reload(page) -> None:
    page.reload()
    page.wait_for_selector("[data-square='e1'] img.piece")
    expect(page.locator("#level option")).not_to_have_count(0)


def test_flip_is_for_the_game_in_hand_only(open_page):
    """Issue 72, item 4: Flip turns the game in hand (and a reload keeps it so), but a new game
    shows the person's colour at the bottom, White between people."""
    watched = open_page()
    page = watched.page
    start(page, "robot")
    page.click("#flip")
    assert _bottom_left(page) == "h8" and page.inner_text("#player-top .name") == "You"
    _reload(page)
    expect(page.locator("#board .square").nth(56)).to_have_attribute("data-square", "h8")   # the same game
    start(page, "robot", color="white")
    assert _bottom_left(page) == "a1"
    assert page.inner_text("#player-bottom .name") == "You" and page.inner_text("#player-top .name") == "Jitfish 400"
    _reload(page)
    expect(page.locator("#board .square").nth(56)).to_have_attribute("data-square", "a1")
    assert page.inner_text("#player-bottom .name") == "You"
    start(page, "robot", color="black", pause=True)     # the robot's pause: its first move not yet in
    assert _bottom_left(page) == "h8" and page.inner_text("#player-bottom .name") == "You"
    page.click("#flip")
    start(page, "human")
    assert _bottom_left(page) == "a1"
    assert watched.problems == [], watched.problems


def test_the_levels_plays_like_line_shows_from_the_first_visit(open_page):
    """Issue 72, item 6: the selected level's "Plays like ..." line is there on a first visit, after
    a reload and in every language, not only once the level has been changed."""
    watched = open_page()
    page = watched.page
    style = page.locator("#level-style")
    assert page.input_value("#level") == "1200"
    expect(style).to_be_visible()
    expect(style).to_have_text(re.compile(r"^Plays like a lichess \d+ player"))
    _reload(page)
    expect(style).to_be_visible()
    expect(style).to_have_text(re.compile(r"^Plays like a lichess \d+ player"))
    english = style.inner_text()
    for code in ("kn", "ta", "gu", "hi"):
        page.select_option("#language", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(style).to_be_visible()
        expect(style).not_to_have_text(english)
        assert style.inner_text().strip()
    _reload(page)                                                   # in that language from the start
    expect(page.locator("html")).to_have_attribute("lang", "hi")
    expect(style).to_be_visible()
    assert style.inner_text().strip() and style.inner_text() != english
    page.select_option("#language", "en")
    assert watched.problems == [], watched.problems


LAPTOP = {"width": 1366, "height": 768}


def _form_problems(page) -> list[str]:
    """What of the new-game form a person cannot see as it is after a game has started: its title
    or its first menu out of view, an element cut by the form's scroll box, a box scrolled away
    from its top. A folded form needs only its title in view."""
    return page.evaluate("""() => {
      const problems = [];
      const inView = (el) => { const r = el.getBoundingClientRect();
        return r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1; };
      const setup = document.getElementById('setup');
      if (document.getElementById('setup-fields').hidden) {
        if (!inView(document.getElementById('setup-toggle'))) problems.push('the folded form is out of view');
        return problems;
      }
      for (const id of ['setup-title', 'opponent']) if (!inView(document.getElementById(id))) problems.push(`${id} is out of view`);
      if (setup.scrollTop !== 0) problems.push(`the form is scrolled ${setup.scrollTop} px from its top`);
      const box = setup.getBoundingClientRect();
      const top = box.top + setup.clientTop, bottom = top + setup.clientHeight;
      for (const el of setup.querySelectorAll('h2, label, select, input, textarea, button, summary, p, legend')) {
        if (!el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        if (r.height < 2) continue;
        const inside = r.top >= top - 1 && r.bottom <= bottom + 1, outside = r.bottom <= top + 1 || r.top >= bottom - 1;
        if (!inside && !outside) problems.push(`cut: ${el.id || el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}"`);
      }
      return problems;
    }""")


SHORT_PGN = '[White "Ann"]\n[Black "Bo"]\n\n1. e4 e5 2. Nf3 Nc6 *'


def test_the_new_game_form_is_never_left_cut_or_scrolled_away_at_1366x768(open_page):
    """Issue 72, item 7: at 1366x768 the form was a 286 px scroll box left at its bottom once a game
    had started (title, Opponent, Level and Clock out of view, a menu cut in half). After a start its
    top is in view with nothing cut, or it is folded under its title; in English and in Tamil,
    the longest of the page's languages, from the form and from a pasted PGN."""
    watched = open_page(LAPTOP)
    page = watched.page
    for code in ("en", "ta"):
        page.select_option("#language", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        for kwargs in ({"opponent": "robot", "level": "1200", "clock": "3+2"},
                       {"opponent": "human", "clock": "5+0"},
                       {"opponent": "robot", "level": "1000", "clock": "none", "position": SHORT_PGN}):
            kwargs = dict(kwargs)
            start(page, kwargs.pop("opponent"), **kwargs)
            page.wait_for_timeout(300)
            assert _form_problems(page) == [], (code, kwargs)
        if page.locator("#setup-fields").is_hidden():
            page.click("#setup-toggle")
        page.wait_for_timeout(200)
        assert page.evaluate("document.getElementById('setup').scrollTop") == 0    # opened at its top
    page.select_option("#language", "en")
    assert watched.problems == [], watched.problems


PASTED_PGN = """[Event "Casual correspondence"]
[Site "Berlin GER"]
[Date "1852.??.??"]
[Round "-"]
[White "Anderssen, Adolf"]
[Black "Dufresne, Jean"]
[Result "1-0"]
[WhiteElo "2600"]
[BlackElo "2450"]
[TimeControl "600+5"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1-0
"""


def _downloaded(page, button: str) -> chess.pgn.Game:
    with page.expect_download() as download:
        page.click(button)
    return chess.pgn.read_game(io.StringIO(Path(download.value.path()).read_text()))


def test_a_pasted_pgn_keeps_its_players_and_headers(open_page):
    """Issue 72, item 8: a game started from a pasted PGN keeps its tags in "Save PGN" and in the
    review's annotated PGN (they said White, Black, the form's clock and `*`); between people its
    players' names are beside the board; its result stands until play goes on from it."""
    watched = open_page()
    page = watched.page
    start(page, "human", position=PASTED_PGN, clock="3+2")
    expect(page.locator("#player-bottom .name")).to_have_text("Anderssen, Adolf")
    expect(page.locator("#player-top .name")).to_have_text("Dufresne, Jean")
    record = _downloaded(page, "#pgn-download")
    wanted = {"White": "Anderssen, Adolf", "Black": "Dufresne, Jean", "Event": "Casual correspondence",
              "Site": "Berlin GER", "Date": "1852.??.??", "Round": "-", "WhiteElo": "2600", "BlackElo": "2450",
              "TimeControl": "600+5", "Result": "1-0"}
    assert {key: record.headers.get(key) for key in wanted} == wanted
    page.click("#review")
    expect(page.locator("#accuracy-white")).to_contain_text("%", timeout=REVIEW_WAIT_MS)
    annotated = _downloaded(page, "#review-pgn")
    assert {key: annotated.headers.get(key) for key in wanted} == wanted
    assert len(list(annotated.mainline_moves())) == 6 and "[%eval" in str(annotated)
    click_move(page, "c2c3")                                        # the game goes on from there
    wait_moves(page, 7)
    record = _downloaded(page, "#pgn-download")
    assert record.headers["Result"] == "*" and record.headers["White"] == "Anderssen, Adolf"
    assert watched.problems == [], watched.problems


LONG_GAME = ("1. b3 e5 2. Bb2 f5 3. Bxe5 d6 4. Bb2 Nf6 5. d3 Nc6 6. e3 d5 7. Nd2 Bb4 8. Ne2 Qe7 9. a3 Ba5 "
             "10. g3 Be6 11. Bg2 h6 12. b4 Bb6 13. Nb3 a6 14. Qd2 Bf7 15. Ned4 Nxd4 16. Nxd4 Bxd4 17. Bxd4 b6 "
             "18. O-O h5 19. c4 Rd8 20. c5 h4 21. cxb6 hxg3 22. fxg3 Be6 23. bxc7 Qxc7 24. Bxf6 gxf6 25. Rac1 Qh7 "
             "26. h4 Qg6 27. Qf2 Rd7 28. Rc8+ Rd8 29. Rxd8+ Kxd8 30. Qf4 Ke7 31. Qc7+ Kf8 32. Qd8+ Kg7 33. Qe7+ Qf7 "
             "34. Qxf7+ Kxf7 35. Rc1 Rd8 36. d4 Rc8 37. Rxc8 Bxc8 38. Kf2 Ke6 39. Ke2 Bb7 40. Kd3 Kf7 41. Bf3 Kg6 "
             "42. Kc3 Bc6 43. Kb3 Kg7 44. a4 Kf7 45. Be2 Bb7 46. b5 axb5 47. Bxb5 Ke6 48. Be2 f4 49. exf4 Kf5 "
             "50. Bf3 Ke6 51. Kb4 Kf5 52. Kc5 Ke6 53. h5")      # a rated lichess game of June 2026, 105 plies
SIZES = {"desktop": {"width": 1280, "height": 860}, "laptop": {"width": 1024, "height": 640},
         "tablet": TABLET, "phone": PHONE}
LONG_REVIEW_WAIT_MS = 600000     # 105 positions at 300,000 nodes: 20-35 s idle, minutes on a loaded machine


def _rows_shown(page) -> float:
    """How many rows of the move list can be read without scrolling it."""
    return page.locator("#moves").evaluate(
        "box => box.clientHeight / box.querySelector('.move').getBoundingClientRect().height")


def test_the_review_of_a_long_game_is_readable_at_four_sizes(open_page):
    """A 53-move game (105 plies) reviewed as Black against the robot, looked at as a desktop, a
    laptop, an upright tablet and a phone show it: the move list with many rows, the new-game
    form folded away, "Black (you)" and "Save PGN" whole, moves counted as moves (not plies).
    Screenshots in tests/artifacts/web/review-long-*.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched = open_page(SIZES["desktop"])
    page = watched.page
    start(page, "robot", color="black", position=LONG_GAME)
    wait_moves(page, 105)
    page.click("#review")
    expect(page.locator("#review-progress .text")).to_have_text(re.compile(r"Reviewing move \d+ of 53"))
    expect(page.locator("#setup-fields")).to_be_hidden()             # out of the way from the start
    expect(page.locator("#accuracy-black")).to_contain_text("%", timeout=LONG_REVIEW_WAIT_MS)
    marked = page.locator("#moves .move.mistake, #moves .move.blunder").first
    marked.click()
    ply = int(marked.get_attribute("data-ply"))
    expect(page.locator("#review-reason")).to_contain_text(" is a ")
    expect(page.locator("#status-text")).to_have_text(re.compile(rf"^Viewing {(ply + 1) // 2}(\\.|…) "))
    for name, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        page.screenshot(path=str(ARTIFACTS / f"review-long-{name}.png"), full_page=name in ("tablet", "phone"))
        expect(page.locator("#setup-fields")).to_be_hidden()
        who = page.locator("#accuracy-black .who")
        assert who.inner_text() == "Black (you)"
        assert who.evaluate("el => el.scrollWidth <= el.clientWidth"), f"{name}: the name is cut"
        save = page.locator("#pgn-download")
        assert save.evaluate("el => el.scrollWidth <= el.clientWidth && el.clientHeight < 40"), f"{name}: Save PGN wraps"
        assert _rows_shown(page) >= 6, f"{name}: {_rows_shown(page):.1f} rows of moves"
        if name in ("desktop", "laptop"):                            # beside the board, all in view
            window = {"x": 0, "y": 0, **viewport}
            for hook in ("#board", "#review-reason", "#moves", "#eval-graph"):
                assert _inside(page.locator(hook).bounding_box(), window), f"{name}: {hook} is out of view"
    assert _rows_shown(page) >= 6
    # A move more: the review still covers the game's first 105 plies, and says so in moves.
    page.set_viewport_size(SIZES["desktop"])
    page.click("#nav-last")                                          # back to the game now
    board = board_of(page, chess.STARTING_FEN)
    click_move(page, next(iter(board.legal_moves)).uci())
    wait_moves(page, 107)
    expect(page.locator("#review-reason")).to_have_text("The review goes up to 53. h5: review again for the rest.")
    assert watched.problems == [], watched.problems
