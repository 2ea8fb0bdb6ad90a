"""Checkers in the `jitfish web` server, in-process (aiohttp's test server and client; the robot is
the checkers search in a thread): whole games against the robot with every reply checked with
pydraughts, the robot moving first, hints, draws, take-backs, a timed game without a flag, the
chess-only requests refused, and the switch between the two games."""

from __future__ import annotations

import asyncio
import random

from checkers.board import Board
from tests.test_web_server import new_game, open_page, robot_turns, running

SETTINGS = {"game": "checkers", "opponent": "robot", "color": "black", "level": 1, "clock": "none", "pause": False}


def their_moves(fen: str) -> set[tuple[int, ...]]:
    """The legal moves of a position as pydraughts (an independent implementation) sees them:
    from, then every landing square."""
    from draughts import Board as TheirBoard

    return {tuple(move.steps_move) for move in TheirBoard(variant="english", fen=fen).legal_moves()}


def replay(game: dict) -> Board:
    board = Board(game["positions"][0])
    for move in game["moves"]:
        board.push(board.parse_move(move["text"]))
    assert board.fen() == game["fen"]
    return board


def check_robot_reply(game: dict) -> Board:
    """The game so far is legal (replayed), and the robot's last move, if the last move is its, is
    one of the legal moves pydraughts sees; the position now."""
    board = replay(game)
    if game["moves"] and len(game["moves"]) % 2 == 0:              # the person (Black) moved first
        mid = Board(game["positions"][-2])
        assert tuple(game["moves"][-1]["path"]) in their_moves(mid.fen())
    return board


def test_a_whole_game_against_level_one_every_reply_legal_by_pydraughts():
    async def scenario():
        rng = random.Random(70)
        async with running() as (client, _):
            page = await open_page(client, SETTINGS)
            game = page.game
            assert game["kind"] == "checkers" and game["human"] == "black" and game["turn"] == "black"
            assert str(game["players"]["white"]) == "Jitfish (level 1)"
            async for game in robot_turns(page, most=161):
                check_robot_reply(game)
                assert {tuple(p) for p in game["legal"]} == their_moves(game["fen"])
                await page.send({"type": "move", "path": rng.choice(game["legal"])})
            game = page.game
            board = check_robot_reply(game)
            assert game["result"] in ("1-0", "0-1", "1/2-1/2", "*")
            if game["over"]:
                assert game["reason"] and game["legal"] == []
                assert not board.legal_moves() or game["result"] == "1/2-1/2"    # no move left, or a claim
                assert await page.error({"type": "move", "path": [11, 15]}) == "the game is over: start a new one"
    asyncio.run(scenario())


def test_the_robot_moves_first_as_black_and_hints_and_take_backs_work():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(SETTINGS, color="white"))
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["human"] == "white" and game["turn"] == "white"
            await page.send({"type": "hint"})
            hint = await page.expect("hint")
            assert hint["path"] in game["legal"] and hint["text"] == Board(game["fen"]).notation(
                Board(game["fen"]).parse_move(hint["text"]))
            await page.send({"type": "move", "text": hint["text"]})
            game = await page.until(lambda g: len(g["moves"]) == 3)
            assert game["can_takeback"]
            await page.send({"type": "takeback"})
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["turn"] == "white"
            assert await page.error({"type": "move", "path": [1, 5]}) == "1-5 is not a legal move here"
    asyncio.run(scenario())


def test_a_compulsory_jump_refuses_plain_moves_and_chess_requests_are_refused():
    async def scenario():
        async with running() as (client, _):
            page = await open_page(client, dict(SETTINGS, opponent="human", position="B:W18,27:B14,9"))
            game = page.game
            assert game["jump"] and game["legal"] == [[14, 23, 32]]
            message = await page.error({"type": "move", "path": [9, 13]})
            assert message.startswith("A jump is compulsory")
            assert (await page.fresh_state())["moves"] == []
            for request in ({"type": "review"}, {"type": "analysis"}, {"type": "premove", "from": "e2", "to": "e4"},
                            {"type": "engine", "on": True}, {"type": "learn_try", "ply": 1}):
                assert await page.error(request) == "that is for chess games only"
            await page.send({"type": "move", "path": [14, 32]})
            game = await page.until(lambda g: len(g["moves"]) == 1)
            assert game["last"] == {"path": [14, 23, 32], "captures": [18, 27], "capture": True, "crown": True}
            assert game["boards"][-1] == {"9": "b", "32": "B"} and game["over"] and game["result"] == "1-0"
            # The same tab goes back to chess.
            chess_game = await new_game(page, {"opponent": "human", "clock": "none"})
            assert chess_game["kind"] == "chess" and chess_game["fen"].startswith("rnbqkbnr")
    asyncio.run(scenario())


def test_draw_offers_and_claims_against_the_robot():
    async def scenario():
        async with running() as (client, _):
            # A lost position for the person (Black): the robot declines; a hopeless one for it: it accepts.
            page = await open_page(client, dict(SETTINGS, level=10, position="B:WK20,K21,K22:BK1"))
            await page.send({"type": "offer_draw"})
            notice = await page.expect("notice")
            assert notice["message"] == "Jitfish declines the draw"
            await new_game(page, dict(SETTINGS, level=10, position="B:WK32:BK1,K5,K6"))
            await page.send({"type": "offer_draw"})
            notice = await page.expect("notice")
            assert notice["message"] == "Jitfish accepts the draw"
            game = await page.until(lambda g: g["over"])
            assert game["result"] == "1/2-1/2" and game["reason"] == "Draw by agreement"
    asyncio.run(scenario())


def test_a_fast_clock_the_robot_never_flags():
    async def scenario():
        rng = random.Random(5)
        async with running() as (client, _):
            page = await open_page(client, dict(SETTINGS, level=10, clock="1+0"))
            async for game in robot_turns(page, most=30):
                await page.send({"type": "move", "path": rng.choice(game["legal"])})
            game = page.game
            assert "time" not in str(game["reason"]), game["reason"]
            assert game["clock"]["white"] > 30         # the robot spends a share of its minute, not all
    asyncio.run(scenario())
