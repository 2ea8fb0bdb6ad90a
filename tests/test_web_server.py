"""The `jitfish web` server in-process (aiohttp's test server and client, real robot processes):
the page and its key, the WebSocket's checks, whole games against the robot and between people,
clocks and flags, draws, resignation, take-backs, hints, hostile messages, several games at once,
and resuming a game after a lost connection."""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import aiohttp
import chess
import chess.engine
import chess.pgn
import pytest
from aiohttp.test_utils import TestClient, TestServer

from eval.shipped import default_network, review_network
from jitfish.web.robot import Adviser, Robot
from jitfish.web.server import MAX_MESSAGE, MAX_SESSIONS, STATIC, WebServer
from search.levels import FULL_STRENGTH_ELO
from tests.uci_driver import quiet_machine  # noqa: F401  (the fixture)

TOKEN = "test-token-123"
WAIT = 30.0                         # seconds a robot may take to start and answer
ROBOT_SETTINGS = {"opponent": "robot", "color": "white", "elo": 400, "clock": "none", "pause": False}
HUMAN_SETTINGS = {"opponent": "human", "clock": "none"}


class Page:
    """One WebSocket, as the page would use it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.session: str | None = None
        self.seen: list[dict[str, Any]] = []

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        frame = await self.ws.receive(timeout=timeout)
        assert frame.type == aiohttp.WSMsgType.TEXT, f"socket ended: {frame}"
        message = json.loads(frame.data)
        self.seen.append(message)
        if message["type"] == "state":
            self.state, self.session = message, message["session"]
        return message

    async def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        """The next message of this type (states on the way are kept as the latest state)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message
            assert message["type"] in ("state", "notice", "config", "pong", "analysis", "engine", "review",
                                       "review_progress"), f"unexpected {message}"

    async def until(self, predicate, timeout: float = WAIT) -> dict[str, Any]:
        """Read states until `predicate(game)` holds for the latest one."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.state is None or not predicate(self.state["game"]):
            left = deadline - loop.time()
            assert left > 0, f"timed out; last state {self.state and self.state['game']['status']}"
            await self.receive(left)
        return self.state["game"]

    async def error(self, message: Any) -> str:
        await self.send(message)
        return (await self.expect("error"))["message"]

    async def fresh_state(self) -> dict[str, Any]:
        await self.send({"type": "state"})
        await self.expect("state")
        return self.state["game"]

    @property
    def game(self) -> dict[str, Any]:
        return self.state["game"]


@asynccontextmanager
async def running() -> AsyncIterator[tuple[TestClient, WebServer]]:
    web_server = WebServer(TOKEN)
    server = TestServer(web_server.app(), host="127.0.0.1")
    client = TestClient(server)
    await client.start_server()
    try:
        yield client, web_server
    finally:
        await client.close()


def origin(client: TestClient) -> str:
    return f"http://127.0.0.1:{client.port}"


async def open_page(client: TestClient, settings: dict | None = None, **hello: Any) -> Page:
    ws = await client.ws_connect(f"/ws?token={TOKEN}", headers={"Origin": origin(client)})
    page = Page(ws)
    await page.send({"type": "hello", "settings": settings, **hello})
    await page.expect("config")
    await page.expect("state")
    return page


async def new_game(page: Page, settings: dict) -> dict[str, Any]:
    await page.send({"type": "new_game", "settings": settings})
    game_id = page.state["game_id"] if page.state else None
    while True:
        await page.expect("state")
        if page.state["game_id"] != game_id:
            return page.game


def choose_move(board: chess.Board, rng: random.Random) -> chess.Move:
    """A greedy player: mate if it can, else a capture or a check, else anything."""
    moves = list(board.legal_moves)
    for move in moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move
    sharp = [m for m in moves if board.is_capture(m) or board.gives_check(m)]
    return rng.choice(sharp or moves)


async def play(page: Page, move: chess.Move) -> None:
    await page.send({"type": "move", "from": chess.square_name(move.from_square),
                     "to": chess.square_name(move.to_square),
                     "promotion": chess.piece_symbol(move.promotion) if move.promotion else None})


def robot_done(game: dict) -> bool:
    return game["over"] or game["turn"] == game["human"]


async def robot_turns(page: Page, *, most: int | None = None) -> AsyncIterator[dict[str, Any]]:
    """The person's turns of a game against the robot, chess or checkers, until the game is over (or
    has `most` moves): yields the game at each, for the loop's body to send the person's move, then
    waits for the robot's answer to it (or the end of the game). The last state is `page.game`."""
    game = page.game
    while not game["over"] and (most is None or len(game["moves"]) < most):
        plies = len(game["moves"])
        yield game
        game = await page.until(lambda g: len(g["moves"]) > plies and robot_done(g))


# ---- HTTP: the page, its files and its key ----

def test_page_needs_the_key_and_is_served_with_security_headers():
    async def scenario():
        async with running() as (client, _):
            page = await client.get(f"/?token={TOKEN}")
            text = await page.text()
            assert page.status == 200
            for hook in ("id=\"opponent\"", "id=\"color\"", "id=\"level\"", "id=\"clock\"", "id=\"sound\"",
                         "id=\"fullscreen\"", "id=\"new-game\"", "id=\"takeback\"", "id=\"hint\"", "id=\"resign\"",
                         "id=\"offer-draw\"", "id=\"flip\"", "id=\"pgn-download\"", "id=\"clock-white\"",
                         "id=\"clock-black\"", "id=\"moves\"", "id=\"status\""):
                assert hook in text, hook
            assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
            assert (await client.get("/")).status == 403
            assert (await client.get("/?token=wrong")).status == 403
            rebound = await client.get(f"/?token={TOKEN}", headers={"Host": f"evil.example:{client.port}"})
            assert rebound.status == 403
            for path in ("/static/main.js", "/static/chess-board.js", "/static/sound.js", "/static/style.css",
                         "/static/pieces/wK.svg", "/static/pieces/bN.svg", "/static/ASSETS.md"):
                assert (await client.get(path)).status == 200, path
            for script in sorted(STATIC.glob("*.js")):     # ES modules: refused by the browser unless JavaScript
                response = await client.get(f"/static/{script.name}")
                assert response.status == 200, script.name
                assert response.content_type in ("text/javascript", "application/javascript"), script.name
            assert (await client.get("/static/../server.py")).status in (403, 404)
    asyncio.run(scenario())


def test_websocket_wants_the_key_the_origin_and_a_local_host():
    async def scenario():
        async with running() as (client, _):
            good = {"Origin": origin(client)}
            for path, headers in ((f"/ws?token={TOKEN}", {"Origin": "http://evil.example"}),
                                  (f"/ws?token={TOKEN}", {}),
                                  ("/ws?token=guess", good),
                                  ("/ws", good),
                                  (f"/ws?token={TOKEN}", {"Origin": f"http://evil.example:{client.port}",
                                                          "Host": f"evil.example:{client.port}"})):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(path, headers=headers)
                assert refused.value.status == 403
            page = await open_page(client, HUMAN_SETTINGS)
            assert page.game["fen"] == chess.STARTING_FEN
    asyncio.run(scenario())


# ---- games against the robot ----

def test_a_whole_game_against_the_weakest_level():
    async def scenario():
        rng = random.Random(2024)
        async with running() as (client, _):
            page = await open_page(client, ROBOT_SETTINGS)
            game = page.game
            assert game["human"] == "white" and game["players"]["black"] == "Jitfish 400"
            async for game in robot_turns(page):
                assert game["turn"] == "white"
                await play(page, choose_move(replay(game), rng))
            game = page.game
            board = replay(game)
            assert game["result"] in ("1-0", "0-1", "1/2-1/2") and game["reason"]
            outcome = board.outcome(claim_draw=True)    # the robot claims a repetition or fifty moves
            assert outcome is not None and outcome.result() == game["result"], (game["reason"], board.fen())
            record = chess.pgn.read_game(io.StringIO(game["pgn"]))
            assert record.headers["Result"] == game["result"] and record.headers["Black"] == "Jitfish 400"
            assert [m.uci() for m in record.mainline_moves()] == [m["uci"] for m in game["moves"]]
            assert game["legal"] == {}
            assert await page.error({"type": "move", "from": "e2", "to": "e4"}) == "the game is over: start a new one"
    asyncio.run(scenario())


def replay(game: dict) -> chess.Board:
    board = chess.Board(game["positions"][0])
    for move in game["moves"]:
        board.push_uci(move["uci"])
    assert board.fen() == game["fen"]
    return board


def test_robot_as_white_moves_first_and_keyboard_entry_answers():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(ROBOT_SETTINGS, color="black"))
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["human"] == "black" and game["turn"] == "black"
            board = replay(game)
            reply = next(iter(board.legal_moves))
            await page.send({"type": "move", "text": board.san(reply)})
            game = await page.until(lambda g: len(g["moves"]) == 3)
            assert game["moves"][1]["uci"] == reply.uci()
            assert "not a legal move" in await page.error({"type": "move", "text": "Ke5"})
    asyncio.run(scenario())


def test_the_robot_never_flags_in_a_fast_game(quiet_machine):
    """Full strength with 15 seconds for the game (the shortest clock a page may set): its go
    times leave it time for every move (a timing test: skipped on a busy machine, like the
    engine's own time-forfeit tests)."""
    async def scenario():
        rng = random.Random(7)
        settings = dict(ROBOT_SETTINGS, elo=FULL_STRENGTH_ELO, clock="custom",
                        clock_spec={"mode": "fischer", "periods": [{"minutes": 0.25, "increment": 0}]})
        async with running() as (client, _):
            page = await open_page(client, settings)
            async for game in robot_turns(page, most=24):        # twelve moves each
                await play(page, choose_move(replay(game), rng))
            game = page.game
            assert game["clock"]["black"] > 0, game["reason"]
            assert "ran out of time" not in game["reason"] or "White ran out" in game["reason"]
            clocks = [m["clock"] for m in game["moves"][1::2]]
            assert all(0 < c < 15.0 for c in clocks), clocks       # the robot's clock ran, and stayed above 0
    asyncio.run(scenario())


def test_draw_offers_are_judged_by_the_robot():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, ROBOT_SETTINGS)
            await page.send({"type": "offer_draw"})
            assert (await page.expect("notice"))["message"] == "Jitfish declines the draw"
            game = await page.until(lambda g: g["draw_offer"] is None)
            assert not game["over"]
            # A bare king against king and queen: the robot (Black) takes the draw.
            lost = dict(ROBOT_SETTINGS, position="4k3/8/8/8/8/8/3QK3/8 w - - 0 1")
            await new_game(page, lost)
            await page.send({"type": "offer_draw"})
            assert (await page.expect("notice"))["message"] == "Jitfish accepts the draw"
            game = await page.until(lambda g: g["over"])
            assert game["result"] == "1/2-1/2" and game["reason"] == "Draw by agreement"
    asyncio.run(scenario())


def test_resign_and_new_game():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, ROBOT_SETTINGS)
            await page.send({"type": "resign"})
            game = await page.until(lambda g: g["over"])
            assert game["result"] == "0-1" and game["reason"] == "White resigns: Black wins"
            assert '[Termination "normal"]' in game["pgn"] and '[Result "0-1"]' in game["pgn"]
            assert await page.error({"type": "resign"}) == "the game is over"
            game = await new_game(page, dict(ROBOT_SETTINGS, chess960=True))
            assert not game["over"] and game["moves"] == []
            assert chess.Board(game["fen"], chess960=True).chess960 and '[Variant "Chess960"]' in game["pgn"]
    asyncio.run(scenario())


def test_take_backs_undo_the_persons_move_and_the_answer():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, ROBOT_SETTINGS)
            assert not page.game["can_takeback"]
            await play(page, chess.Move.from_uci("e2e4"))
            game = await page.until(lambda g: len(g["moves"]) == 2 and robot_done(g))
            assert game["can_takeback"]
            await page.send({"type": "takeback"})
            game = await page.until(lambda g: g["moves"] == [])
            assert game["fen"] == chess.STARTING_FEN and game["turn"] == "white"
            await new_game(page, dict(ROBOT_SETTINGS, takeback=False))
            await play(page, chess.Move.from_uci("d2d4"))
            await page.until(lambda g: len(g["moves"]) == 2 and robot_done(g))
            assert await page.error({"type": "takeback"}) == "take-backs are off in this game"
            assert len((await page.fresh_state())["moves"]) == 2
    asyncio.run(scenario())


def test_hint_is_a_legal_full_strength_move():
    async def scenario():
        async with running() as (client, _):
            mate_in_one = dict(ROBOT_SETTINGS, position="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
            page = await open_page(client, mate_in_one)
            await page.send({"type": "hint"})
            hint = await page.expect("hint")
            assert hint["uci"] == "a1a8" and hint["san"] == "Ra8#" and (hint["from"], hint["to"]) == ("a1", "a8")
            await play(page, chess.Move.from_uci("a1a8"))
            game = await page.until(lambda g: g["over"])
            assert game["result"] == "1-0" and game["reason"] == "Checkmate: White wins"
            assert game["check"] == "g8"
    asyncio.run(scenario())


# ---- clocks ----

def test_flag_falls_and_fide_6_9():
    async def scenario():
        quick = {"mode": "delay", "periods": [{"minutes": 0, "increment": 1.2}]}        # 1.2 s a move
        async with running() as (client, _):
            page = await open_page(client, dict(HUMAN_SETTINGS, clock="custom", clock_spec=quick))
            assert page.game["clock"]["running"] is None           # the first move is not timed
            await play(page, chess.Move.from_uci("e2e4"))
            game = await page.until(lambda g: g["over"], timeout=5)
            assert game["result"] == "1-0" and game["reason"] == "Black ran out of time: White wins"
            assert game["clock"]["black"] == 0 and '[Termination "time forfeit"]' in game["pgn"]
            assert "[%clk 0:00:00]" in game["pgn"]                # whole seconds
            # White has only its king: Black's flag is a draw.
            bare = dict(HUMAN_SETTINGS, clock="custom", clock_spec=quick, position="4k3/3q4/8/8/8/8/8/4K3 w - - 0 1")
            await new_game(page, bare)
            await play(page, chess.Move.from_uci("e1e2"))
            game = await page.until(lambda g: g["over"], timeout=5)
            assert game["result"] == "1/2-1/2" and "cannot checkmate" in game["reason"]
    asyncio.run(scenario())


# ---- two people at one screen ----

def test_two_people_draws_claims_and_promotion():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            assert page.game["human"] is None
            shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
            for ply, uci in enumerate(shuffle, 1):
                await play(page, chess.Move.from_uci(uci))
                game = await page.until(lambda g, n=ply: len(g["moves"]) == n)
                if ply == 1:                    # FIDE 9.1.2.2: the player who has just moved offers
                    await page.send({"type": "offer_draw"})
                    game = await page.until(lambda g: g["draw_offer"] == "white")
            assert game["draw_offer"] is None   # Black moved on: the offer was declined
            assert game["claimable"] == "threefold" and not game["over"]
            await page.send({"type": "offer_draw"})
            game = await page.until(lambda g: g["draw_offer"] == "black")
            await page.send({"type": "answer_draw", "accept": False})
            game = await page.until(lambda g: g["draw_offer"] is None)
            await page.send({"type": "claim_draw"})
            game = await page.until(lambda g: g["over"])
            assert game["reason"] == "Draw by threefold repetition (claimed by White)"
            # promotion needs the piece; castling by the king onto its rook
            await new_game(page, dict(HUMAN_SETTINGS, position="4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"))
            assert "b7b8" in page.game["promotions"] and "h1" in page.game["legal"]["e1"]
            assert "choose the piece" in await page.error({"type": "move", "from": "b7", "to": "b8"})
            await page.send({"type": "move", "from": "b7", "to": "b8", "promotion": "n"})
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["moves"][0]["san"] == "b8=N"
            await page.send({"type": "move", "from": "e8", "to": "e7"})
            await page.until(lambda g: len(g["moves"]) == 2)
            await page.send({"type": "move", "from": "e1", "to": "h1"})
            game = await page.until(lambda g: len(g["moves"]) == 3)
            assert game["moves"][2]["san"] == "O-O" and game["last"]["to"] == "g1" and game["last"]["castle"]
            await page.send({"type": "takeback"})
            game = await page.until(lambda g: len(g["moves"]) == 2)
            await page.send({"type": "resign", "color": "black"})
            game = await page.until(lambda g: g["over"])
            assert game["result"] == "1-0"
    asyncio.run(scenario())


# ---- hostile messages ----

def test_hostile_messages_get_an_error_and_change_nothing():
    async def scenario():
        async with running() as (client, _):
            ws = await client.ws_connect(f"/ws?token={TOKEN}", headers={"Origin": origin(client)})
            page = Page(ws)
            assert await page.error({"type": "move", "from": "e2", "to": "e4"}) == "say hello first"
            await page.send({"type": "hello", "settings": {"opponent": "pirate", "elo": -5}})   # bad: defaults
            await page.expect("config")
            await page.expect("state")
            await play(page, chess.Move.from_uci("e2e4"))
            before = await page.until(lambda g: len(g["moves"]) == 2 and robot_done(g))
            hostile = [
                "{not json", "[1, 2, 3]", "42", json.dumps({"kind": "move"}), json.dumps({"type": 7}),
                {"type": "launch_missiles"}, {"type": "hello"},
                {"type": "move", "from": "e2", "to": "e9"}, {"type": "move", "from": "e1", "to": "e5"},
                {"type": "move", "from": ["a"], "to": {"b": 1}}, {"type": "move", "text": "x" * 500},
                {"type": "move", "text": "Qxf7#"}, {"type": "move", "from": "e7", "to": "e5"},
                {"type": "answer_draw", "accept": True}, {"type": "claim_draw"},
                {"type": "new_game", "settings": {"clock": "custom", "clock_spec": {"mode": "fischer",
                                                  "periods": [{"minutes": 1e300}]}}},
                {"type": "new_game", "settings": {"clock": "custom", "clock_spec": {"mode": "fischer",
                                                  "periods": [{"minutes": -1, "increment": -3}]}}},
                {"type": "new_game", "settings": {"elo": 99999}},
                {"type": "new_game", "settings": {"position": "rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0 1"}},
                {"type": "new_game", "settings": {"position": "this is not a FEN"}},
                {"type": "new_game", "settings": "everything"},
                json.dumps({"type": "move", "text": "e4" * (MAX_MESSAGE // 2 + 10)}),
                "[" * 20000 + "]" * 20000,
                {"type": "review_cancel"}, {"type": "learn_try", "ply": 1, "from": "e2", "to": "e4"},
                {"type": "premove", "from": "e2", "to": "e9"}, {"type": "premove", "from": ["x"], "to": None},
                {"type": "analysis", "ply": -1}, {"type": "analysis", "ply": 10 ** 9}, {"type": "analysis", "ply": True},
                {"type": "analysis_move", "from": "e7", "to": "e5"}, {"type": "analysis_goto", "index": 3},
                {"type": "engine", "on": True}, {"type": "engine", "on": "yes"},
                {"type": "analysis_position", "position": "x" * 30000}, {"type": "analysis_position", "position": 5},
                {"type": "analysis_position", "position": "8/8/8/8/8/8/8/8 w - - 0 1"},
            ]
            for message in hostile:
                text = await page.error(message)
                assert text and "Traceback" not in text and "File " not in text, text
            await ws.send_bytes(b"\x00\x01binary")
            assert "JSON" in (await page.expect("error"))["message"]
            after = await page.fresh_state()
            assert after["fen"] == before["fen"] and after["moves"] == before["moves"]
            assert after["settings"] == before["settings"] and not after["over"]
            await play(page, next(iter(replay(after).legal_moves)))           # still playing
            await page.until(lambda g: len(g["moves"]) == 4 and robot_done(g))
            # A frame beyond aiohttp's limit closes that socket only: the server goes on.
            await ws.send_str("x" * (1024 * 1024 + 10))
            frame = await ws.receive(timeout=10)
            assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            again = await open_page(client, HUMAN_SETTINGS, session=page.session)
            assert len(again.game["moves"]) == 4
    asyncio.run(scenario())


# ---- several games, lost connections ----

def test_two_games_at_once_are_independent():
    async def scenario():
        async with running() as (client, server):
            first = await open_page(client, ROBOT_SETTINGS)
            second = await open_page(client, dict(ROBOT_SETTINGS, color="black", elo=800))
            assert first.session != second.session and len(server.sessions) == 2
            await play(first, chess.Move.from_uci("e2e4"))
            await asyncio.gather(first.until(lambda g: len(g["moves"]) == 2 and robot_done(g)),
                                 second.until(lambda g: len(g["moves"]) == 1))
            assert first.game["moves"][0]["uci"] == "e2e4"
            assert second.game["human"] == "black" and second.game["players"]["white"] == "Jitfish 800"
            await first.send({"type": "resign"})
            await first.until(lambda g: g["over"])
            assert not (await second.fresh_state())["over"]
    asyncio.run(scenario())


def test_a_tab_beyond_the_limit_is_told_so_and_gets_in_when_there_is_room():
    """The 13th tab is not refused as a bad hello (the page took that for bad stored settings and
    deleted them): it gets the menus' config and a `full` message, and a later hello on the same
    socket gets a game once another tab has gone."""
    async def scenario():
        async with running() as (client, server):
            pages = [await open_page(client, HUMAN_SETTINGS) for _ in range(MAX_SESSIONS)]
            ws = await client.ws_connect(f"/ws?token={TOKEN}", headers={"Origin": origin(client)})
            late = Page(ws)
            await late.send({"type": "hello", "settings": dict(HUMAN_SETTINGS, clock="3+2")})
            assert (await late.receive())["type"] == "config"
            full = await late.receive()
            assert full["type"] == "full" and f"at most {MAX_SESSIONS} games" in full["message"]
            assert len(server.sessions) == MAX_SESSIONS
            await pages[0].ws.close()
            await asyncio.sleep(0.1)
            await late.send({"type": "hello", "settings": dict(HUMAN_SETTINGS, clock="3+2")})
            await late.expect("state")
            assert late.game["settings"]["clock"] == "3+2" and len(server.sessions) == MAX_SESSIONS
            assert pages[0].session not in server.sessions            # the closed tab's game made room
    asyncio.run(scenario())


def test_a_lost_connection_resumes_the_game():
    async def scenario():
        async with running() as (client, server):
            page = await open_page(client, ROBOT_SETTINGS)
            await play(page, chess.Move.from_uci("d2d4"))
            game = await page.until(lambda g: len(g["moves"]) == 2 and robot_done(g))
            session = page.session
            await page.ws.close()
            await asyncio.sleep(0.1)
            back = await open_page(client, None, session=session)       # a reload: the tab's session
            assert back.session == session and back.game["moves"] == game["moves"]
            # A duplicated tab takes the game over; the first one is told.
            twin = await open_page(client, None, session=session)
            assert twin.session == session
            assert (await back.expect("superseded"))["type"] == "superseded"
            await twin.ws.close()
            await back.ws.close()
            await asyncio.sleep(0.1)
            # A new tab without a session resumes a game left open by a closed one...
            other = await open_page(client, None, resume=["unknown", session])
            assert other.session == session
            # A game left alone has its robot's process ended; the next move starts it again.
            await server.sessions[session].rest_robot()
            assert server.sessions[session].robot.engine is None
            board = replay(other.game)
            await play(other, next(iter(board.legal_moves)))
            await other.until(lambda g: len(g["moves"]) == 4 and robot_done(g))
            # ...but not one that another tab is showing: that gets a game of its own.
            fresh = await open_page(client, ROBOT_SETTINGS, resume=[session])
            assert fresh.session != session and fresh.game["moves"] == []
            assert len(server.sessions) == 2
    asyncio.run(scenario())


# ---- the command ----

def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _take_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_command(*extra: str) -> tuple[subprocess.Popen, str]:
    """`jitfish web` in a process group of its own, as a terminal would start it: a foreground job
    takes Ctrl-C even when this test run ignores it (a shell started it with `&`, and an ignored
    SIGINT is inherited through exec)."""
    process = subprocess.Popen([sys.executable, "-m", "jitfish.cli", "web", "--no-browser", "--port", "0",
                                *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_take_ctrl_c)
    first = process.stdout.readline()
    match = re.fullmatch(r"Jitfish web: (http://127\.0\.0\.1:(\d+)/\?token=([\w-]{16,}))\n", first)
    assert match, f"first line {first!r}"
    return process, match.group(1)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the robot's process")
def test_jitfish_web_prints_its_address_first_and_stops_on_ctrl_c():
    process, url = _start_command()
    try:
        async def robot_game() -> None:
            base = url.split("/?")[0]
            token = url.split("token=")[1]
            async with aiohttp.ClientSession() as http:
                assert (await http.get(url)).status == 200
                async with http.ws_connect(f"{base}/ws?token={token}", headers={"Origin": base}) as ws:
                    page = Page(ws)
                    await page.send({"type": "hello", "settings": dict(ROBOT_SETTINGS, color="black")})
                    await page.until(lambda g: len(g["moves"]) == 1)      # the robot has moved
        asyncio.run(robot_game())
        robots = _children(process.pid)
        assert robots, "the robot should run as a child process"
        os.killpg(process.pid, signal.SIGINT)                  # Ctrl-C: the terminal signals the group
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "Jitfish web stopped." in out and "Traceback" not in err, err
    assert not [pid for pid in robots if _running(pid)], "the robot's process outlived the server"


def test_another_host_prints_a_warning_and_sigterm_stops_cleanly():
    process, _ = _start_command("--host", "0.0.0.0")
    try:
        process.terminate()
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "warning: listening on 0.0.0.0" in err and process.returncode == 0
    assert "Jitfish web stopped." in out and "Traceback" not in err


def test_a_closed_standard_output_does_not_end_jitfish_web_with_a_traceback():
    """A launcher that reads the address and goes (its pipe closed): the server keeps serving, and
    Ctrl-C stops it cleanly, its last line ("Jitfish web stopped.") said to nobody (issue 72, item 9)."""
    process, url = _start_command()
    try:
        process.stdout.close()                                  # whoever read the address has gone
        base, token = url.split("/?")[0], url.split("token=")[1]

        async def still_serving() -> None:
            async with aiohttp.ClientSession() as http:
                assert (await http.get(url)).status == 200
                async with http.ws_connect(f"{base}/ws?token={token}", headers={"Origin": base}) as ws:
                    page = Page(ws)
                    await page.send({"type": "hello", "settings": HUMAN_SETTINGS})
                    await page.until(lambda g: g["turn"] == "white")
        asyncio.run(still_serving())
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
        err = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err
    assert process.returncode == 0, err


def test_only_the_command_line_imports_the_web_package():
    """The web front end sits on top: nothing of the project imports it but jitfish/cli.py."""
    from engine.cachedir import project_modules
    from tests.test_layers import imports_of

    users = sorted(name for name, path in project_modules().items()
                   if not name.startswith("jitfish.web")
                   and any(target.startswith("jitfish.web") for _, target, _ in imports_of(path)))
    assert users == ["jitfish.cli"]


def test_a_finished_game_is_not_taken_back_and_an_unstarted_one_waits():
    """One rule for every ending: after checkmate as after resignation or a flag, no take-back.
    A game nobody has started waits, its clocks untouched (no abort: no opponent is kept waiting)."""
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(HUMAN_SETTINGS, clock="3+2"))
            await asyncio.sleep(1.2)
            game = await page.fresh_state()
            assert game["clock"]["running"] is None and game["clock"]["white"] == 180000      # ms, untouched
            assert game["status"] == "White to move (the clocks start with the first move)"
            for text in ("f3", "E5", "g2 g4", "qh4"):                       # typed, with case slips
                await page.send({"type": "move", "text": text})
                await page.until(lambda g: g["moves"] and g["moves"][-1]["uci"][2:4] == text[-2:].lower())
            game = page.game
            assert game["over"] and game["reason"] == "Checkmate: Black wins" and not game["can_takeback"]
            assert "the game is over" in await page.error({"type": "takeback"})
            assert len((await page.fresh_state())["moves"]) == 4
    asyncio.run(scenario())


def test_set_ups_read_as_a_player_means_them():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            game = await new_game(page, dict(HUMAN_SETTINGS, position="100"))        # Chess960 not ticked
            assert chess.Board(game["fen"], chess960=True) == chess.Board.from_chess960_pos(100)
            game = await new_game(page, dict(HUMAN_SETTINGS, position="e4 e5 Nf3"))  # no move numbers
            assert [m["san"] for m in game["moves"]] == ["e4", "e5", "Nf3"]
            for text, words in (("1. e4 zz5", "'zz5' is not a legal move"),
                                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "w or b, not 'x'")):
                message = await page.error({"type": "new_game", "settings": dict(HUMAN_SETTINGS, position=text)})
                assert words in message and "expected" not in message, message
            assert [m["san"] for m in (await page.fresh_state())["moves"]] == ["e4", "e5", "Nf3"]
    asyncio.run(scenario())


# ---- the review, its exercises, the analysis board, pre-moves ----

SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]


async def play_ucis(page: Page, moves: list[str]) -> dict[str, Any]:
    for number, uci in enumerate(moves, 1):
        await play(page, chess.Move.from_uci(uci))
        await page.until(lambda g, n=number: len(g["moves"]) == n)
    return page.game


async def reviewed(page: Page) -> dict[str, Any]:
    """Ask for the review and read it (its progress messages are kept in page.seen)."""
    await page.send({"type": "review"})
    while True:
        message = await page.receive(120)
        if message["type"] == "review":
            return message["review"]
        assert message["type"] in ("state", "review_progress", "notice"), message


def test_a_review_marks_the_moves_says_why_and_writes_the_pgn_as_jitfish_analyse_does():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            assert "no move to review" in await page.error({"type": "review"})
            await play_ucis(page, SCHOLARS_MATE)
            review = await reviewed(page)
            progress = [m["done"] for m in page.seen if m["type"] == "review_progress"]
            assert progress == list(range(8)) and {m["total"] for m in page.seen if m["type"] == "review_progress"} == {7}
            assert [point["ply"] for point in review["graph"]] == list(range(8))       # one per position
            assert review["graph"][-1]["y"] == 1.0 and review["graph"][-1]["text"] == "checkmate"
            assert all(-1 <= point["y"] <= 1 for point in review["graph"])
            nf6 = review["plies"][5]
            assert (nf6["san"], nf6["mark"], nf6["symbol"], nf6["color"]) == ("Nf6", "blunder", "??", "black")
            assert nf6["reason"] == "allows mate in 1 (Qxf7#)" and nf6["best"]["san"] != "Nf6"
            assert nf6["line"][0] == nf6["best"]["san"] and nf6["exercise"]["legal"]["g8"]
            assert review["sides"]["black"]["blunder"] == 1 and review["sides"]["white"]["blunder"] == 0
            assert review["sides"]["white"]["accuracy"] > review["sides"]["black"]["accuracy"] > 0
            assert review["moves"] == SCHOLARS_MATE and review["nodes"] == 300000
            record = chess.pgn.read_game(io.StringIO(review["pgn"]))
            nodes = list(record.mainline())
            assert chess.pgn.NAG_BLUNDER in nodes[5].nags and "allows mate in 1 (Qxf7#). Best was" in nodes[5].comment
            assert nodes[5].eval().white() == chess.engine.Mate(1) and len(nodes[5].parent.variations) == 2
            assert record.headers["Annotator"].startswith("Jitfish") and "300000 nodes per move" in record.comment
            # The same review again is sent at once; a reload gets it too.
            assert (await reviewed(page))["plies"] == review["plies"]
            again = await open_page(client, None, session=page.session)
            assert (await again.expect("review"))["review"]["plies"][5]["reason"] == nf6["reason"]
    asyncio.run(scenario())


def test_a_hanging_queen_is_named_and_a_review_can_be_cancelled():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            await play_ucis(page, ["e2e4", "e7e5", "g1f3", "d8h4", "f3h4"])
            review = await reviewed(page)
            assert review["plies"][3]["mark"] == "blunder"
            assert review["plies"][3]["reason"] == "loses the queen on h4 to Nxh4"
            # A long game: cancel while it runs; the board stays usable meanwhile.
            long = "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 *"
            await new_game(page, dict(HUMAN_SETTINGS, position=long))
            await page.send({"type": "review"})
            await page.expect("review_progress")
            assert "under way" in await page.error({"type": "review"})
            await play(page, chess.Move.from_uci("h4e7"))                        # a move while it runs
            await page.until(lambda g: len(g["moves"]) == 17)
            await page.send({"type": "review_cancel"})
            assert (await page.expect("review_stopped"))["message"] == "Review cancelled"
            assert "no review" in await page.error({"type": "review_cancel"})
            await asyncio.sleep(0.5)
            assert not [m for m in page.seen if m["type"] == "review"][1:]     # only the first game's
    asyncio.run(scenario())


def test_learn_from_mistakes_accepts_a_good_move_and_refuses_a_bad_one():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            await play_ucis(page, SCHOLARS_MATE)
            assert "review the game first" in await page.error({"type": "learn_try", "ply": 6, "from": "d8", "to": "e7"})
            review = await reviewed(page)
            best = review["plies"][5]["best"]
            results = []
            for origin, target in (("g8", "f6"), ("a7", "a6"), (best["from"], best["to"])):
                await page.send({"type": "learn_try", "ply": 6, "from": origin, "to": target})
                results.append(await page.expect("learn_result"))
            played, bad, good = results
            await page.send({"type": "learn_try", "ply": 6, "from": "a7", "to": "a5"})     # one try at a time
            assert "wait for the answer" in await page.error({"type": "learn_try", "ply": 6, "from": "a7", "to": "a6"})
            await page.expect("learn_result")
            assert not played["accepted"] and "move of the game" in played["message"]
            assert not bad["accepted"] and bad["message"] == "a6 is not better: allows mate in 1 (Qxf7#)."
            assert good["accepted"] and good["san"] == best["san"]
            for message, words in (({"ply": 6, "from": "g8", "to": "g5"}, "not a legal move"),
                                   ({"ply": 1, "from": "e2", "to": "e4"}, "not a mistake"),
                                   ({"ply": 99, "from": "e2", "to": "e4"}, "no move 99"),
                                   ({"ply": "6", "from": "e2", "to": "e4"}, "no move 6")):
                assert words in await page.error(dict(message, type="learn_try"))
    asyncio.run(scenario())


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and _running(pid)


async def _gone(pid: int) -> bool:
    for _ in range(100):
        if not _alive(pid):
            return True
        await asyncio.sleep(0.1)
    return False


async def engine_lines(page: Page, fen: str) -> dict[str, Any]:
    """The first engine message on `fen` with three lines."""
    while True:
        message = await page.expect("engine")
        if message["fen"] == fen and len(message["lines"]) == 3:
            return message


class _ScriptedAnalysis:
    """What python-chess's analysis yields, from a list of infos (the engine's own order)."""

    def __init__(self, infos: list[dict[str, Any]]) -> None:
        self.infos = infos

    def __aiter__(self):
        return self._each()

    async def _each(self):
        for info in self.infos:
            yield info

    def stop(self) -> None:
        pass


def test_the_analysis_lines_are_never_an_aspiration_bound():
    """After a second the engine reports each aspiration failure as `score ... lowerbound` with the
    PV it has, often one move: those were taken for lines (the third line a single move at +0.00)."""
    from jitfish.web.analysis import Analyst

    board = chess.Board()
    line = [chess.Move.from_uci(uci) for uci in ("e2e4", "e7e5", "g1f3", "b8c6")]
    others = [[chess.Move.from_uci(uci) for uci in ("d2d4", "d7d5", "c2c4")],
              [chess.Move.from_uci(uci) for uci in ("g1f3", "g8f6", "c2c4")]]
    infos = [{"depth": 12, "multipv": k + 1, "score": chess.engine.PovScore(chess.engine.Cp(30 - 5 * k), chess.WHITE),
              "pv": pv} for k, pv in enumerate([line, *others])]
    infos += [{"depth": 13, "multipv": k + 1, "score": chess.engine.PovScore(chess.engine.Cp(0), chess.WHITE),
               "lowerbound": True, "pv": [pv[0]]} for k, pv in enumerate([line, *others])]
    sent: list[dict[str, Any]] = []

    async def emit(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(Analyst(emit)._follow(board, _ScriptedAnalysis(infos)))
    assert sent and all(message["depth"] == 12 for message in sent)
    assert [len(shown["san"].split()) for shown in sent[-1]["lines"]] == [4, 3, 3]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the engine's process")
def test_the_analysis_board_and_its_engine_process_belong_to_the_tab():
    async def scenario():
        async with running() as (client, server):
            page = await open_page(client, HUMAN_SETTINGS)
            await play_ucis(page, ["e2e4"])
            await page.send({"type": "analysis", "ply": 1})
            board = (await page.expect("analysis"))["board"]
            assert board["fen"] == page.game["fen"] and board["legal"]["e7"] and board["line"] == []
            await page.send({"type": "engine", "on": True})
            first = await engine_lines(page, board["fen"])
            assert first["depth"] >= 1 and -1 <= first["bar"] <= 1
            assert len({line["uci"] for line in first["lines"]}) == 3 and len({line["depth"] for line in first["lines"]}) == 1
            for line in first["lines"]:                  # each line in SAN from the position, its first move the arrow's
                replay = chess.Board(board["fen"])
                sans = line["san"].split()
                assert replay.parse_san(sans[0]).uci() == line["uci"] and (len(sans) > 1 or first["depth"] < 2)
                for san in sans:
                    replay.push_san(san)
            pid = server.sessions[page.session].analyst.pid
            assert _alive(pid)
            # Both sides move on the analysis board; the engine follows every move.
            for origin, target in (("e7", "e5"), ("g1", "f3")):
                await page.send({"type": "analysis_move", "from": origin, "to": target})
                board = (await page.expect("analysis"))["board"]
            assert board["line"] == ["e5", "Nf3"] and board["turn"] == "black"
            await engine_lines(page, board["fen"])
            await page.send({"type": "analysis_goto", "index": 1})
            assert (await page.expect("analysis"))["board"]["last"]["san"] == "e5"
            assert len((await page.fresh_state())["moves"]) == 1                 # the game is untouched
            # Off: the process ends. On again, then the tab goes: that one ends too.
            await page.send({"type": "engine", "on": False})
            assert (await page.expect("analysis"))["engine"] is False
            assert await _gone(pid), "the engine outlived its switch"
            await page.send({"type": "analysis_position", "position": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"})
            assert (await page.expect("analysis"))["board"]["fen"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
            await page.send({"type": "engine", "on": True})
            await page.expect("engine")
            second = server.sessions[page.session].analyst.pid
            assert second != pid and _alive(second)
            await page.ws.close()
            assert await _gone(second), "the engine outlived its tab"
            assert server.sessions[page.session].analyst is None
    asyncio.run(scenario())


def test_a_premove_is_played_as_soon_as_the_robot_has_moved():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(ROBOT_SETTINGS, pause=True))
            assert page.game["premove_targets"] == {}                            # your move: no pre-move
            await play(page, chess.Move.from_uci("e2e4"))
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert "d4" in game["premove_targets"]["d2"] and "h5" in game["premove_targets"]["d1"]
            assert "cannot go there" in await page.error({"type": "premove", "from": "d2", "to": "d5"})
            await page.send({"type": "premove", "from": "g1", "to": "f3"})
            await page.until(lambda g: g["premove"] == {"from": "g1", "to": "f3"} or len(g["moves"]) > 1)
            await page.send({"type": "premove", "cancel": True})
            await page.send({"type": "premove", "from": "d2", "to": "d4"})     # replaces it
            game = await page.until(lambda g: len(g["moves"]) >= 3)
            assert game["moves"][2]["uci"] == "d2d4" and game["premove"] is None
            game = await page.until(robot_done)
            assert len(game["moves"]) == 4
    asyncio.run(scenario())


def test_a_premove_that_arrives_after_the_robot_has_moved_is_played_if_legal():
    """The page sends a pre-move while it believes the robot thinks; if the robot's move came first,
    the pre-move is played as a move (legal) or dropped with a notice (not legal), never an error."""
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, ROBOT_SETTINGS)
            await page.send({"type": "premove", "from": "e2", "to": "e4"})      # late: it is your move
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["moves"][0]["uci"] == "e2e4" and game["premove"] is None
            game = await page.until(robot_done)
            await page.send({"type": "premove", "from": "e1", "to": "e3"})      # not legal now
            assert "Pre-move cancelled" in (await page.expect("notice"))["message"]
            after = await page.fresh_state()
            assert after["moves"] == game["moves"] and after["turn"] == after["human"]
            assert "two squares" in await page.error({"type": "premove", "from": "e2", "to": "e9"})
    asyncio.run(scenario())


def test_a_move_sent_while_the_robot_thinks_is_queued_as_a_premove():
    """A quick second click, sent before the page heard that the first move was taken, arrives
    as a move while the robot thinks: it is the person's pre-move, not an error."""
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(ROBOT_SETTINGS, pause=True))
            await play(page, chess.Move.from_uci("e2e4"))
            assert "cannot go there" in await page.error({"type": "move", "from": "b1", "to": "b5"})
            await page.send({"type": "move", "from": "d2", "to": "d4"})
            game = await page.until(lambda g: len(g["moves"]) >= 3)
            assert game["moves"][2]["uci"] == "d2d4" and game["premove"] is None
            assert "wait for the robot" in await page.error({"type": "move", "text": "Nc3"})
            game = await page.until(robot_done)
            assert len(game["moves"]) == 4
    asyncio.run(scenario())


def test_between_two_people_there_is_no_premove():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            assert "while the robot thinks" in await page.error({"type": "premove", "from": "d2", "to": "d4"})
            assert (await page.fresh_state())["moves"] == []
    asyncio.run(scenario())


def test_the_material_each_side_is_up_in_every_position():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            game = await play_ucis(page, ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"])
            materials = game["materials"]
            assert len(materials) == 6 and materials[0] == {"white": [], "black": [], "balance": 0}
            assert materials[3] == {"white": ["p"], "black": [], "balance": 1}
            assert materials[4] == materials[0]
    asyncio.run(scenario())


def test_robot_and_adviser_start_again_an_engine_that_died():
    """A killed engine process is replaced at the next request, for the robot and the adviser."""
    async def scenario() -> None:
        robot, adviser = Robot(), Adviser()
        board = chess.Board()
        try:
            await robot.set_level(800)
            await adviser.analyse(board, chess.engine.Limit(nodes=2000))
            killed = [owner.engine.transport.get_pid() for owner in (robot, adviser)]
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            move = await robot.move(board, None, lambda: 0.0, 0.0, object())
            info = await adviser.analyse(board, chess.engine.Limit(nodes=2000))
            assert move in board.legal_moves and info["pv"][0] in board.legal_moves
            assert all(owner.engine.transport.get_pid() != pid for owner, pid in zip((robot, adviser), killed))
            # the restarted adviser still judges with the review network, the robot plays with its own
            assert adviser.engine.config["EvalFile"] == review_network() != default_network()
            assert robot.engine.config.get("EvalFile", default_network()) == default_network()
        finally:
            await robot.close()
            await adviser.close()

    asyncio.run(scenario())


# ---- languages ----------------------------------------------------------------------------------------


def test_the_server_speaks_the_tabs_language_and_notation():
    """The hello's language and notation say every server text (status, errors, level names); a
    language message says them all again; an unknown language is English; the catalogue as JSON,
    the page's first <html lang> from Accept-Language and the rules page in the language asked."""
    from jitfish.i18n import Moves, Msg, Speaker

    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS, lang="kn", figurines=True)
            kannada = Speaker("kn")
            config = next(m for m in page.seen if m["type"] == "config")
            assert config["levels"][0]["name"] == kannada.say(Msg("Beginner")) != "Beginner"
            assert page.game["status"] == kannada.say(Msg("White to move")) != "White to move"
            await page.send({"type": "move", "from": "g1", "to": "f3"})
            await page.until(lambda game: len(game["moves"]) == 1)
            assert page.game["moves"][0]["san"] == "Nf3"                  # the record stays SAN
            message = await page.error({"type": "move", "text": "Nf6x"})
            assert message == kannada.say(Msg("{text} is not a legal move here", text=Moves("Nf6x")))
            assert message.startswith("♘f6x ") and "ಇ" in message
            # Another language and letters: everything again, said anew.
            await page.send({"type": "language", "lang": "ta-IN", "figurines": False})
            config = await page.expect("config")
            assert config["levels"][0]["name"] == Speaker("ta").say(Msg("Beginner"))
            await page.expect("state")
            assert page.game["status"] == Speaker("ta").say(Msg("Black to move"))
            message = await page.error({"type": "move", "text": "Nf3x"})
            assert "Nf3x" in message and "♘" not in message
            # A language Jitfish does not speak is English, without an error; nonsense is an error.
            await page.send({"type": "language", "lang": "fr"})
            await page.expect("config")
            await page.expect("state")
            assert page.game["status"] == "Black to move"
            assert await page.error({"type": "language", "lang": 5}) == "unknown language or notation"
            await page.ws.close()

            response = await client.get("/i18n/gu.json")
            data = await response.json()
            assert response.status == 200 and data["lang"] == "gu" and data["messages"]
            assert (await client.get("/i18n/xx.json")).status == 404
            response = await client.get(f"/?token={TOKEN}", headers={"Accept-Language": "hi-IN,hi;q=0.9,en;q=0.5"})
            index = await response.text()
            assert '<html lang="hi">' in index
            from jitfish.i18n import LANGUAGES
            options = re.findall(r'<option value="(\w+)" lang="\w+" data-figurines="(true|false)">([^<]+)</option>', index)
            assert [(code, name) for code, _, name in options] == [(l.code, l.name) for l in LANGUAGES.values()]
            response = await client.get("/rules?lang=ta")
            assert response.status == 200 and '<html lang="ta"' in await response.text()
            response = await client.get("/rules", headers={"Accept-Language": "kn"})
            assert '<html lang="kn"' in await response.text()

    asyncio.run(scenario())
