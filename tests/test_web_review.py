"""The browser's review through the server's API (no browser): the same game reviewed twice, with
another search of the shared adviser between, gets the same marks, reasons, graph and accuracies,
and `jitfish analyse` at the review's node count and table size writes the same verdicts."""

from __future__ import annotations

import asyncio
import io

import chess.pgn

from jitfish.cli import main
from jitfish.web.review import REVIEW_NODES
from tests.test_web_server import HUMAN_SETTINGS, new_game, open_page, reviewed, running

# A rated lichess game (lichess-2018-06-10k.pgn, game 250, 826 against 800): a bishop that takes
# a pawn, one that goes astray, a piece and the rook on a8 lost.
HUMAN_GAME = ("1. e4 c5 2. Nf3 g6 3. d4 Bg7 4. Nc3 d6 5. dxc5 dxc5 6. Qxd8+ Kxd8 7. Bc4 Bg4 8. Bxf7 Nf6 "
              "9. Bd5 e6 10. Bxb7 Bxf3 11. gxf3 Nd5 *")
ADVISER_TABLE_MB = 16                 # the adviser's Hash: the UCI default


def review_twice() -> tuple[dict, dict]:
    """The game reviewed in one tab, then in another after a hint there (a search of the shared
    adviser that a kept table would remember)."""
    async def scenario() -> tuple[dict, dict]:
        async with running() as (client, _):
            page = await open_page(client, HUMAN_SETTINGS)
            await new_game(page, dict(HUMAN_SETTINGS, position=HUMAN_GAME))
            first = await reviewed(page)
            other = await open_page(client, HUMAN_SETTINGS)
            await other.send({"type": "hint"})
            await other.expect("hint", 60)
            await new_game(other, dict(HUMAN_SETTINGS, position=HUMAN_GAME))
            return first, await reviewed(other)
    return asyncio.run(scenario())


def verdicts(pgn: str) -> list[tuple[str, set[int], list[str]]]:
    """Each move's comment, NAGs and better line, from an annotated PGN."""
    game = chess.pgn.read_game(io.StringIO(pgn))
    return [(node.comment, set(node.nags), [str(v) for v in node.parent.variations[1:]])
            for node in game.mainline()]


def test_a_review_repeats_exactly_and_jitfish_analyse_agrees(tmp_path):
    first, second = review_twice()
    assert len(first["plies"]) == 22 and sum(bool(p["mark"]) for p in first["plies"]) >= 3
    for key in ("plies", "sides", "graph"):
        assert first[key] == second[key], key
    assert verdicts(first["pgn"]) == verdicts(second["pgn"])
    source, target = tmp_path / "game.pgn", tmp_path / "out.pgn"
    source.write_text(HUMAN_GAME + "\n")
    assert main(["analyse", str(source), "-o", str(target), "--nodes", str(REVIEW_NODES),
                 "--hash", str(ADVISER_TABLE_MB), "-q"]) == 0
    assert verdicts(target.read_text()) == verdicts(first["pgn"])
